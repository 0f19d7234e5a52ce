/*
 * Profiler drivers: how each tool turns a pass into one command line.
 *
 * A driver is a table of modes (name -> fixed options) plus a function that places the options,
 * the output location and the app's argv the way that tool wants them. Adding a tool means adding
 * one table and, where its command line differs, one argv function; the runner knows nothing about
 * any tool, and plan validation reads the tool and mode names (and their suggestions) from here,
 * so this table is the one list of them. Facts about each tool's options are in ../shared/docs/profiler-formats.md and
 * docs/drivers.md.
 */
#include "tool/driver.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HP__MAX_MODE_ARGS 6

typedef struct hp__mode {
  const char *name;
  const char *args[HP__MAX_MODE_ARGS + 1]; /* NULL-terminated */
  int pmc; /* 1: collects counters, takes `kernel` and `counters`; SCHED: takes `schedule` */
  const char *doc;
} hp__mode;

#define SCHED 2 /* torch's mode schedule */

typedef int (*hp__argv_fn)(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs,
                           hp_strv *out);

/* Where a tool's command line carries a pass's `kernel`, `counters` and `launch_count`: in no
 * mode, in its counter modes only, or in every mode. The argv functions below are the evidence. */
enum {
  TAKES_NONE,
  TAKES_PMC,
  TAKES_ALL,
  TAKES_SCHED /* in the modes whose `pmc` is SCHED */
};

struct hp__driver {
  const char *tool;
  const hp__mode *modes;
  hp__argv_fn argv;
  unsigned char takes[HP__PASS_KEY_N]; /* by hp__pass_key */
};

/* hipprof (DTK). The app follows the options directly, with no `--` (profiler-formats.md §1.1).
 * Files go to the working directory, which is the run's own folder. */
static const hp__mode hipprof_modes[] = {
    {"trace", {"--hip-trace", NULL}, 0, "HIP API, memcpy and kernel timeline"},
    {"stats", {"--hip-trace", "--stats", NULL}, 0, "API and kernel statistics (CSV)"},
    {"kernel-stack", {"--kernel-stack", NULL}, 0, "host call stack of each kernel launch"},
    {"pmc", {"--pmc", "--pmc-type", "3", NULL}, 1, "hardware counters, CSV output"},
    {"pmc-read", {"--pmc-read", "--pmc-type", "3", NULL}, 1, "L2 read counters, CSV output"},
    {"pmc-write", {"--pmc-write", "--pmc-type", "3", NULL}, 1, "L2 write counters, CSV output"},
    {"memory-usage", {"--memory-usage", NULL}, 0, "resource leak check (not peak memory)"},
    {"leak-check", {"--leak-check", NULL}, 0, "resource leak check with call stacks"},
    {"hiptx-trace", {"--hiptx-trace", NULL}, 0, "roctx/hiptx ranges"},
    {NULL, {NULL}, 0, NULL}};

/* rocprofv3 (rocprofiler-sdk). `--output-format csv` is always passed: from ROCm 7 the default
 * is rocpd (SQLite), which we do not read (profiler-formats.md §3.2). */
static const hp__mode rocprofv3_modes[] = {
    {"kernel-trace", {"--kernel-trace", "--stats", NULL}, 0, "kernel dispatches and statistics"},
    {"hip-trace", {"--hip-trace", "--stats", NULL}, 0, "HIP API only (no kernels in v3)"},
    {"stats",
     {"--kernel-trace", "--hip-trace", "--stats", NULL},
     0,
     "kernels and HIP API with stats"},
    {"sys-trace", {"--sys-trace", "--stats", NULL}, 0, "everything it can trace"},
    {"pmc", {NULL}, 1, "counter collection (counters: [...], default SQ_WAVES)"},
    {NULL, {NULL}, 0, NULL}};

/* rocprof v1/v2 script. */
static const hp__mode rocprof_modes[] = {
    {"stats", {"--stats", "--timestamp", "on", NULL}, 0, "kernel statistics"},
    {"hip-trace", {"--hip-trace", "--stats", "--timestamp", "on", NULL}, 0, "HIP API and kernels"},
    {"sys-trace", {"--sys-trace", "--stats", "--timestamp", "on", NULL}, 0, "HIP, HSA and kernels"},
    {"pmc", {"--timestamp", "on", NULL}, 1, "counters from an input file hprun writes"},
    {NULL, {NULL}, 0, NULL}};

/* Nsight Compute. `--clock-control none` is always explicit: the default differs between
 * versions (base vs boost), and hprun never changes the card's clocks (profiler-formats.md §5). */
static const hp__mode ncu_modes[] = {
    {"time", {NULL}, 1, "one metric per launch (default gpu__time_duration.sum)"},
    {"basic", {"--set", "basic", NULL}, 1, "the basic section set"},
    {"full", {"--set", "full", NULL}, 1, "the full section set (many replay passes)"},
    {"default", {NULL}, 1, "ncu's default sections"},
    {NULL, {NULL}, 0, NULL}};

/* torch: hprun's launcher (share/hprun/hprun_torch.py) runs the script under torch.profiler; the
mode's options are the launcher's. docs/drivers.md has the command lines. */
static const hp__mode torch_modes[] = {
    {"cpu", {"--mode", "cpu", NULL}, 0, "CPU activities only"},
    {"cuda", {"--mode", "cuda", NULL}, 0, "CPU and CUDA/HIP activities"},
    {"shapes", {"--mode", "shapes", NULL}, 0, "cuda, with record_shapes"},
    {"stack", {"--mode", "stack", NULL}, 0, "cuda, with with_stack"},
    {"memory", {"--mode", "memory", NULL}, 0, "cuda, with profile_memory"},
    {"schedule", {"--mode", "schedule", NULL}, SCHED, "cuda, wait/warmup/active steps"},
    {NULL, {NULL}, 0, NULL}};

/* Nsight Systems. Every mode writes {dir}/report.nsys-rep; CPU sampling is off except in
 * `sample`, so that the cuda and osrt modes measure the tracing alone. The long options take
 * their value after '=' (docs/drivers.md quotes NVIDIA's guide). */
static const hp__mode nsys_modes[] = {
    {"cuda", {"profile", "--trace=cuda,nvtx", "--sample=none", NULL}, 0, "CUDA API and NVTX trace"},
    {"osrt",
     {"profile", "--trace=cuda,nvtx,osrt", "--sample=none", NULL},
     0,
     "CUDA, NVTX and OS runtime calls"},
    {"sample",
     {"profile", "--trace=cuda,nvtx", "--sample=process-tree", NULL},
     0,
     "CUDA and NVTX trace with CPU sampling"},
    {NULL, {NULL}, 0, NULL}};

/* Appends a mode's fixed options; as in every push_ helper, a failure sticks in the vector. */
static void push_mode(hp_strv *out, const hp__mode *m)
{
  int i;

  for (i = 0; m->args[i]; i++)
    hp__strv_push(out, m->args[i]);
}

/* `app.region`: the options that make the tool keep to (ncu) or record (hipprof, rocprofv3) the
 * NVTX/roctx range the app pushes around its timed iterations; NULL-terminated, empty for a tool
 * that has none. ncu's --nvtx-include takes a push/pop range as `NAME/`. docs/plan.md says what
 * each tool does with it. */
static void push_region(hp_strv *out, const hp__run_spec *rs, const char *tool)
{
  const char *region = rs->plan->app.region;

  if (region == NULL)
    return;
  if (strcmp(tool, "ncu") == 0) {
    hp__strv_push(out, "--nvtx");
    hp__strv_push(out, "--nvtx-include");
    hp__strv_push_own(out, hp__asprintf("%s/", region));
  } else if (strcmp(tool, "hipprof") == 0 && strcmp(rs->pass->mode, "hiptx-trace") != 0) {
    hp__strv_push(out, "--hiptx-trace");
  } else if (strcmp(tool, "rocprofv3") == 0) {
    hp__strv_push(out, "--marker-trace");
  }
}

/* The plan's and then the pass's extra options: the pass's come last so they can override. */
static void push_extra(hp_strv *out, const hp__run_spec *rs)
{
  hp__strv_append(out, &rs->plan->profiler.args);
  hp__strv_append(out, &rs->pass->args);
}

/* With -o DIR/ (a path ending in '/' is a folder, per DTK 26.04's help) hipprof writes its files
 * into the run's folder under its own names, so nothing is moved in from the app's folder; -d
 * keeps its temporary data there too, off the /tmp that every session on the node shares. A
 * version without them writes into the app's folder, and the run's new files are moved in from
 * there (lib/session/runfiles.c). --follow-fork is for an app that starts its GPU work in a child
 * (a shell script, python3 and its workers). */
static int hipprof_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs,
                        hp_strv *out)
{
  hp__strv_push(out, rs->tool_path);
  push_mode(out, m);
  push_region(out, rs, "hipprof");
  if (m->pmc && rs->pass->kernel) {
    hp__strv_push(out, "--kernel-name");
    hp__strv_push(out, rs->pass->kernel);
  }
  if (rs->caps & HP__CAP_OUTPUT) {
    hp__strv_push(out, "-o");
    hp__strv_push_own(out, hp__asprintf("%s/", rs->run_dir));
  }
  if (rs->caps & HP__CAP_DATA_DIR) {
    hp__strv_push(out, "-d");
    hp__strv_push(out, rs->run_dir);
  }
  if (rs->caps & HP__CAP_FOLLOW_FORK)
    hp__strv_push(out, "--follow-fork");
  push_extra(out, rs);
  hp__strv_append(out, rs->app);
  return hp__strv_error(out);
}

static int rocprofv3_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs,
                          hp_strv *out)
{
  hp__strv_push(out, rs->tool_path);
  push_mode(out, m);
  if (m->pmc) {
    hp__strv_push(out, "--pmc");
    if (rs->pass->counters.n)
      hp__strv_append(out, &rs->pass->counters);
    else
      hp__strv_push(out, "SQ_WAVES");
  }
  if (rs->pass->kernel) {
    hp__strv_push(out, "--kernel-include-regex");
    hp__strv_push(out, rs->pass->kernel);
  }
  push_region(out, rs, "rocprofv3");
  hp__strv_push(out, "--output-format");
  hp__strv_push(out, "csv");
  hp__strv_push(out, "-d");
  hp__strv_push(out, rs->run_dir);
  hp__strv_push(out, "-o");
  hp__strv_push(out, "run");
  push_extra(out, rs);
  hp__strv_push(out, "--");
  hp__strv_append(out, rs->app);
  return hp__strv_error(out);
}

/* rocprof v1 reads counters from an input file (`pmc: C1 C2`, `kernel: K`), so the pmc mode
 * writes one into the run's folder first; it is part of what that run recorded. */
static int rocprof_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs,
                        hp_strv *out)
{
  hp__buf in = HP__BUF_INIT;
  char *path = NULL;
  size_t i;
  int r;

  hp__strv_push(out, rs->tool_path);
  push_mode(out, m);
  if (m->pmc) {
    hp__buf_adds(&in, "pmc:");
    if (rs->pass->counters.n)
      for (i = 0; i < rs->pass->counters.n; i++)
        hp__buf_printf(&in, " %s", rs->pass->counters.v[i]);
    else
      hp__buf_adds(&in, " SQ_WAVES");
    hp__buf_addc(&in, '\n');
    if (rs->pass->kernel)
      hp__buf_printf(&in, "kernel: %s\n", rs->pass->kernel);
    path = hp__path_join(rs->run_dir, "rocprof_input.txt");
    if (hp__buf_error(&in) || path == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    if ((r = hp__write_file(path, in.data, in.len, 1)) != 0)
      goto fail;
    hp__strv_push(out, "-i");
    hp__strv_push(out, path);
  }
  hp__strv_push(out, "-o");
  hp__strv_push_own(out, hp__path_join(rs->run_dir, "results.csv"));
  push_extra(out, rs);
  hp__strv_append(out, rs->app);
  r = hp__strv_error(out);

fail:
  free(path);
  hp__buf_free(&in);
  return r;
}

static int ncu_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs, hp_strv *out)
{
  hp__buf metrics = HP__BUF_INIT;
  size_t i;
  int r;

  hp__strv_push(out, rs->tool_path);
  hp__strv_push(out, "--clock-control");
  hp__strv_push(out, "none");
  hp__strv_push(out, "--target-processes");
  hp__strv_push(out, "all");
  push_mode(out, m);
  if (strcmp(m->name, "time") == 0 || rs->pass->counters.n) {
    for (i = 0; i < rs->pass->counters.n; i++)
      hp__buf_printf(&metrics, "%s%s", i ? "," : "", rs->pass->counters.v[i]);
    if (rs->pass->counters.n == 0)
      hp__buf_adds(&metrics, "gpu__time_duration.sum");
    hp__strv_push(out, "--metrics");
    /* A metrics list that could not be built is no list: the vector fails with it. */
    if (hp__buf_error(&metrics))
      hp__strv_push_own(out, NULL);
    else
      hp__strv_push(out, metrics.data ? metrics.data : "");
  }
  if (rs->pass->kernel) {
    hp__strv_push(out, "-k");
    hp__strv_push_own(out, hp__asprintf("regex:%s", rs->pass->kernel));
  }
  push_region(out, rs, "ncu");
  if (rs->pass->launch_count > 0) {
    hp__strv_push(out, "-c");
    hp__strv_push_own(out, hp__asprintf("%ld", rs->pass->launch_count));
  }
  /* The CSV goes to its own file so the app's stdout, where the metric lines are, stays clean. */
  hp__strv_push(out, "--csv");
  hp__strv_push(out, "--page");
  hp__strv_push(out, "raw");
  hp__strv_push(out, "--log-file");
  hp__strv_push_own(out, hp__path_join(rs->run_dir, "ncu.csv"));
  push_extra(out, rs);
  hp__strv_append(out, rs->app);
  r = hp__strv_error(out);
  hp__buf_free(&metrics);
  return r;
}

/* The interpreter's own options that come before the script: they stay in front of the launcher
 * (-W and -X take a value); -m is the launcher's to handle, since it names what to run. */
static size_t interp_opts(const hp_strv *app)
{
  size_t i = 1;

  while (i < app->n && app->v[i][0] == '-' && strcmp(app->v[i], "-m") != 0 &&
         strcmp(app->v[i], "--") != 0)
    i += (strcmp(app->v[i], "-W") == 0 || strcmp(app->v[i], "-X") == 0) ? 2 : 1;
  return i < app->n ? i : app->n;
}

/* python3 [its options] LAUNCHER --mode M --dir DIR [--wait N ...] -- SCRIPT|-m MODULE ARGS. Under
 * torchrun the launcher goes where the script was (its first *.py word), so that each rank runs
 * it; any other program is taken as the script itself and run by python3. */
static int torch_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs, hp_strv *out)
{
  const hp_strv *app = rs->app;
  const char *prog = strrchr(app->v[0], '/') ? strrchr(app->v[0], '/') + 1 : app->v[0];
  size_t i, at = 0;

  if (strncmp(prog, "python", 6) == 0) {
    at = interp_opts(app);
  } else if (strcmp(prog, "torchrun") == 0) {
    for (at = 1; at < app->n; at++) {
      size_t n = strlen(app->v[at]);
      if (n > 3 && strcmp(app->v[at] + n - 3, ".py") == 0)
        break;
    }
  } else {
    hp__strv_push(out, "python3");
  }
  for (i = 0; i < at; i++)
    hp__strv_push(out, app->v[i]);
  hp__strv_push(out, rs->tool_path);
  push_mode(out, m);
  hp__strv_push(out, "--dir");
  hp__strv_push(out, rs->run_dir);
  if (m->pmc == SCHED) { /* a pass written as a bare mode name has no schedule: torch's 1, 1, 3 */
    int set = rs->pass->sched_active > 0;
    hp__strv_push(out, "--wait");
    hp__strv_push_own(out, hp__asprintf("%ld", set ? rs->pass->sched_wait : 1));
    hp__strv_push(out, "--warmup");
    hp__strv_push_own(out, hp__asprintf("%ld", set ? rs->pass->sched_warmup : 1));
    hp__strv_push(out, "--active");
    hp__strv_push_own(out, hp__asprintf("%ld", set ? rs->pass->sched_active : 3));
  }
  push_extra(out, rs);
  hp__strv_push(out, "--");
  for (i = at; i < app->n; i++)
    hp__strv_push(out, app->v[i]);
  return hp__strv_error(out);
}

static int nsys_argv(const hp__driver *d, const hp__mode *m, const hp__run_spec *rs, hp_strv *out)
{
  hp__strv_push(out, rs->tool_path);
  push_mode(out, m);
  hp__strv_push(out, "-o");
  hp__strv_push_own(out, hp__path_join(rs->run_dir, "report"));
  push_extra(out, rs);
  hp__strv_append(out, rs->app);
  return hp__strv_error(out);
}

int hp__driver_after_argv(const hp__driver *d, const hp__run_spec *rs, hp_strv *out)
{
  hp__strv_init(out);
  if (strcmp(d->tool, "nsys") != 0 || hp__mode_is_generic(rs->pass->mode))
    return 0;
  hp__strv_push(out, rs->tool_path);
  hp__strv_push(out, "stats");
  hp__strv_push(out, "--report");
  hp__strv_push(out, "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum");
  hp__strv_push(out, "--format");
  hp__strv_push(out, "csv");
  hp__strv_push(out, "--output");
  hp__strv_push_own(out, hp__path_join(rs->run_dir, "stats"));
  hp__strv_push_own(out, hp__path_join(rs->run_dir, "report.nsys-rep"));
  if (hp__strv_error(out)) {
    hp_strv_free(out);
    return HP_ENOMEM;
  }
  return 0;
}

/* hipprof filters by kernel only when it collects counters (--kernel-name), selects counters by
 * group with its mode, and has no launch count; rocprofv3 filters every mode by kernel and takes
 * counters in pmc; rocprof v1 writes both into its pmc input file; ncu takes all three. */
static const hp__driver drivers[] = {
    {"hipprof", hipprof_modes, hipprof_argv, {TAKES_PMC, TAKES_NONE, TAKES_NONE}},
    {"rocprofv3", rocprofv3_modes, rocprofv3_argv, {TAKES_ALL, TAKES_PMC, TAKES_NONE}},
    {"rocprof", rocprof_modes, rocprof_argv, {TAKES_PMC, TAKES_PMC, TAKES_NONE}},
    {"ncu", ncu_modes, ncu_argv, {TAKES_ALL, TAKES_ALL, TAKES_ALL, TAKES_NONE}},
    {"nsys", nsys_modes, nsys_argv, {TAKES_NONE, TAKES_NONE, TAKES_NONE, TAKES_NONE}},
    {"torch", torch_modes, torch_argv, {TAKES_NONE, TAKES_NONE, TAKES_NONE, TAKES_SCHED}},
    {NULL, NULL, NULL, {0, 0, 0, 0}}};

/* The modes every tool has: normal runs the app without a profiler, command runs it inside an
 * argv template. They are listed before each tool's own modes. */
static const char *const generic_modes[] = {"normal", "command", NULL};

#define N_GENERIC (sizeof(generic_modes) / sizeof(generic_modes[0]) - 1)
#define N_DRIVERS (sizeof(drivers) / sizeof(drivers[0]) - 1)

const hp__driver *hp__driver_find(const char *tool)
{
  size_t i;

  if (tool == NULL)
    tool = HP__DEFAULT_TOOL;
  for (i = 0; drivers[i].tool; i++)
    if (strcmp(drivers[i].tool, tool) == 0)
      return &drivers[i];
  return NULL;
}

const hp__driver *hp__driver_at(size_t i)
{
  return i < N_DRIVERS ? &drivers[i] : NULL;
}

static const hp__mode *find_mode(const hp__driver *d, const char *mode)
{
  size_t i;

  for (i = 0; d && d->modes[i].name; i++)
    if (strcmp(d->modes[i].name, mode) == 0)
      return &d->modes[i];
  return NULL;
}

int hp__mode_is_generic(const char *mode)
{
  size_t i;

  for (i = 0; generic_modes[i]; i++)
    if (strcmp(generic_modes[i], mode) == 0)
      return 1;
  return 0;
}

int hp__driver_has_mode(const hp__driver *d, const char *mode)
{
  return hp__mode_is_generic(mode) || find_mode(d, mode) != NULL;
}

const char *hp__driver_name(const hp__driver *d)
{
  return d->tool;
}

const char *hp__driver_mode_at(const hp__driver *d, size_t i)
{
  size_t k;

  if (i < N_GENERIC)
    return generic_modes[i];
  /* Walk up to the wanted entry: the table ends with a NULL name, which is the answer past it. */
  for (k = 0; k < i - N_GENERIC && d->modes[k].name; k++)
    ;
  return d->modes[k].name;
}

/* Joins names into `buf` as "a, b, c" (truncated to fit), for the lists in messages. */
static void join(char *buf, size_t size, const char *name)
{
  size_t len = strlen(buf);

  snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
}

const char *hp__driver_modes(const hp__driver *d)
{
  /* One static string per driver, built on first use; the tables never change. */
  static char lists[N_DRIVERS][256];
  size_t k = (size_t)(d - drivers), i;
  const char *mode;
  char *s = lists[k];

  if (s[0] == '\0')
    for (i = 0; (mode = hp__driver_mode_at(d, i)) != NULL; i++)
      join(s, sizeof(lists[k]), mode);
  return s;
}

const char *hp__driver_tools(void)
{
  static char list[256];
  size_t i;

  if (list[0] == '\0')
    for (i = 0; drivers[i].tool; i++)
      join(list, sizeof(list), drivers[i].tool);
  return list;
}

int hp__driver_takes(const hp__driver *d, const char *mode, hp__pass_key key)
{
  const hp__mode *m = find_mode(d, mode);

  if (m == NULL || key < 0 || key >= HP__PASS_KEY_N)
    return 0;
  return d->takes[key] == TAKES_ALL || (d->takes[key] == TAKES_PMC && m->pmc == 1) ||
      (d->takes[key] == TAKES_SCHED && m->pmc == SCHED);
}

const char *hp__driver_script(const hp__driver *d)
{
  return d && strcmp(d->tool, "torch") == 0 ? "hprun_torch.py" : NULL;
}

int hp__driver_reads_help(const hp__driver *d)
{
  return d && strcmp(d->tool, "hipprof") == 0;
}

/* 1 when some line of `help` starts, after blanks, with `opt` followed by a blank or its end. */
static int help_lists(const char *help, const char *opt)
{
  const char *p = help;
  size_t n = strlen(opt);

  while (p && *p) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (strncmp(p, opt, n) == 0 && (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || !p[n]))
      return 1;
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  return 0;
}

unsigned hp__driver_help_caps(const char *help)
{
  unsigned caps = 0;

  if (help == NULL)
    return 0;
  if (help_lists(help, "-o"))
    caps |= HP__CAP_OUTPUT;
  if (help_lists(help, "-d"))
    caps |= HP__CAP_DATA_DIR;
  if (help_lists(help, "--follow-fork"))
    caps |= HP__CAP_FOLLOW_FORK;
  return caps;
}

const char *hp__driver_mode_doc(const hp__driver *d, const char *mode)
{
  const hp__mode *m = find_mode(d, mode);

  return m ? m->doc : NULL;
}

int hp__driver_argv(const hp__driver *d, const hp__run_spec *rs, hp_strv *out)
{
  const hp__mode *m = find_mode(d, rs->pass->mode);
  int r;

  hp__strv_init(out);
  if (m == NULL)
    return HP_ENOTSUP;
  r = d->argv(d, m, rs, out);
  if (r)
    hp_strv_free(out);
  return r;
}
