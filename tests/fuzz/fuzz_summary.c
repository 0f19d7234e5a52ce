/*
 * fuzz_summary: reading a stored session back (hp_session_load of a summary.json), then every
 * report rendered from it: summary.json again, report.md, JUnit XML and the terminal table.
 *
 * `hprun report` and `hprun compare` read summary.json files that may come from another machine,
 * another version, or a hand edit, so the reader must survive any bytes. The input is written to
 * <scratch>/summary.json. Next to it lie two small, fixed hipprof outputs (stats/1), so that a
 * run whose "dir" is "stats/1" has its profile parsed and cross-checked as in a real session.
 * A loaded session is also compared (hp_compare) with itself and, both ways, with a fixed small
 * session loaded once at start, as `hprun compare OLD NEW` does.
 *
 * A run's "dir" is joined to the session folder and the result is scanned for profiler files, so
 * an input could name "/" or "../.." and make every execution walk the whole file system. The
 * harness is therefore linked with -Wl,--wrap=hp_profile_add_path: calls from the library go to
 * the wrapper below, which lets through only paths that resolve inside the scratch folder and
 * answers HP_ENOENT (what a missing run folder gives) for the rest. Only the public API is used.
 */
#include "hprun.h"
#include "scratch.h"

#include <stdlib.h>
#include <string.h>

static char *summary_path;
static const char *scratch_dir;
static hp_session *fixed;

/* The fixed session for hp_compare: the baseline and a stats pass, two runs and two metrics each. */
static const char fixed_json[] =
    "{\"schema\": 1, \"name\": \"fixed\", \"seed\": 1, \"repeat\": 2, \"warmup\": 0, \"passes\": ["
    "{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": \"baseline\", \"baseline\": true,"
    " \"metrics\": [{\"name\": \"mean_kernel_ms\"}, {\"name\": \"proxy\", \"better\": \"higher\"}],"
    " \"runs\": [{\"index\": 1, \"round\": 1, \"dir\": \"normal/1\", \"exit_status\": 0,"
    " \"signal\": 0, \"ok\": true, \"values\": {\"mean_kernel_ms\": 1.0, \"proxy\": 33.9}},"
    " {\"index\": 2, \"round\": 3, \"dir\": \"normal/2\", \"exit_status\": 0, \"signal\": 0,"
    " \"ok\": true, \"values\": {\"mean_kernel_ms\": 1.1, \"proxy\": 33.8}}]},"
    "{\"name\": \"stats\", \"mode\": \"stats\", \"flag\": \"ok\", \"tool\": \"hipprof\","
    " \"metrics\": [{\"name\": \"mean_kernel_ms\"}, {\"name\": \"proxy\", \"better\": \"higher\"}],"
    " \"runs\": [{\"index\": 1, \"round\": 2, \"dir\": \"stats/1\", \"exit_status\": 0,"
    " \"signal\": 0, \"ok\": true, \"values\": {\"mean_kernel_ms\": 1.2, \"proxy\": 33.9}},"
    " {\"index\": 2, \"round\": 4, \"dir\": \"stats/1\", \"exit_status\": 0, \"signal\": 0,"
    " \"ok\": true, \"values\": {\"mean_kernel_ms\": 1.3, \"proxy\": 33.9}}]}]}";

/* What the fake hipprof of tests/fake writes for a stats pass, cut to two kernels. */
static const char kernel_csv[] = "Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
                                 "vector_add,120,2254128,18784,97.5\n"
                                 "\"copy<float, 4>\",3,57000,19000,2.5\n"
                                 "Total,123,2311128,18789,100.0\n";
static const char hiptrace_csv[] = "Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
                                   "hipLaunchKernel,120,480000,4000,60.0\n"
                                   "hipMemcpy,3,320000,106666,40.0\n";

int __real_hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags);
int __wrap_hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags);

int __wrap_hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags)
{
  size_t n = strlen(scratch_dir);
  char *real = path ? realpath(path, NULL) : NULL;
  int inside = real && strncmp(real, scratch_dir, n) == 0 && (real[n] == '\0' || real[n] == '/');

  free(real);
  if (path && !inside)
    return HP_ENOENT;
  return __real_hp_profile_add_path(p, path, diags);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  hp_diags d;
  char *f;

  (void)argc;
  (void)argv;
  scratch_dir = fz_dir();
  summary_path = fz_path("summary.json");
  fz_mkdirs("stats/1");
  f = fz_path("stats/1/result_1.kernel.csv");
  fz_write(f, kernel_csv, sizeof(kernel_csv) - 1);
  free(f);
  f = fz_path("stats/1/result_1.hiptrace.csv");
  fz_write(f, hiptrace_csv, sizeof(hiptrace_csv) - 1);
  free(f);
  f = fz_path("fixed.json");
  fz_write(f, fixed_json, sizeof(fixed_json) - 1);
  hp_diags_init(&d);
  if (hp_session_load(f, &fixed, &d) != 0) {
    hp_diags_print(&d, stderr);
    abort();
  }
  hp_diags_free(&d);
  free(f);
  return 0;
}

/* hprun compare, with the loaded session as OLD and as NEW. */
static void compare(const hp_session *old_s, const hp_session *new_s)
{
  static const hp_compare_opts o = {.tolerance = 0.05, .alpha = 0.05, .seed = 1};
  char *md = NULL;
  size_t nreg = 0;

  if (hp_compare(old_s, new_s, &o, &md, &nreg) == 0)
    free(md);
}

/* Every rendering of a loaded session; the texts are thrown away. */
static void render(const hp_session *s)
{
  char *out = NULL;

  if (hp_report_json(s, &out) == 0)
    free(out);
  out = NULL;
  if (hp_report_markdown(s, &out) == 0)
    free(out);
  out = NULL;
  if (hp_report_junit(s, &out) == 0)
    free(out);
  hp_report_table_bars(s, fz_null(), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  hp_diags d;
  hp_session *s = NULL;

  hp_diags_init(&d);
  fz_write(summary_path, data, size);
  if (hp_session_load(summary_path, &s, &d) == 0 && s) {
    render(s);
    compare(s, s);
    compare(fixed, s);
    compare(s, fixed);
  }
  hp_diags_print(&d, fz_null());
  hp_session_free(s);
  hp_diags_free(&d);
  return 0;
}
