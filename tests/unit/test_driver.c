/*
 * Tests for lib/tool/driver.c: the one table of profiler tools and their modes, and the command
 * line each driver builds for a pass.
 *
 * The expected command lines are written out literally from docs/drivers.md (and, for hipprof
 * pmc, the form tests/e2e/test_hipprof_passes.sh relies on), so a change to any tool's options
 * shows up here as a failure naming the word that moved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hprun.h"
#include "util/sys/fsutil.h"
#include "tool/driver.h"

#define TOOL "/opt/tool/bin/prof"

/* One pass to build a command line for, with the run folder it gets. */
typedef struct fixture {
  hp_plan plan;
  hp_pass pass;
  hp_strv app;
  char run_dir[64];
} fixture;

static int setup(void **state)
{
  fixture *f = calloc(1, sizeof(*f));

  if (f == NULL)
    return -1;
  snprintf(f->run_dir, sizeof(f->run_dir), "/tmp/hprun-test-driver-XXXXXX");
  if (mkdtemp(f->run_dir) == NULL || hp_split_words("./app --n 3", &f->app) != 0) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

/* Removes the run folder with the one file a driver may have written into it. */
static int teardown(void **state)
{
  fixture *f = *state;
  char path[128];

  snprintf(path, sizeof(path), "%s/rocprof_input.txt", f->run_dir);
  unlink(path);
  rmdir(f->run_dir);
  hp_strv_free(&f->app);
  hp_strv_free(&f->plan.profiler.args);
  hp_strv_free(&f->pass.args);
  hp_strv_free(&f->pass.counters);
  free(f);
  return 0;
}

static void set_words(hp_strv *v, const char *s)
{
  hp_strv_free(v);
  assert_int_equal(hp_split_words(s, v), 0);
}

/* Builds the command line of `f`'s pass with `tool`'s driver and compares it word by word with
 * the NULL-terminated list that follows. "@" in an expected word stands for the run folder. */
static unsigned g_caps; /* the HP__CAP_* options expect_argv's runs use */

static void expect_argv(fixture *f, const char *tool, ...)
{
  const hp__driver *d = hp__driver_find(tool);
  hp__run_spec rs = {&f->plan, &f->pass, TOOL, f->run_dir, &f->app, g_caps};
  hp_strv got = {NULL, 0, 0};
  const char *w;
  char want[256];
  size_t i = 0;
  va_list ap;

  assert_non_null(d);
  assert_int_equal(hp__driver_argv(d, &rs, &got), 0);
  va_start(ap, tool);
  while ((w = va_arg(ap, const char *)) != NULL) {
    if (w[0] == '@')
      snprintf(want, sizeof(want), "%s%s", f->run_dir, w + 1);
    else
      snprintf(want, sizeof(want), "%s", w);
    if (i >= got.n)
      fail_msg("%s %s: only %zu words, wanted [%s] next", tool, f->pass.mode, got.n, want);
    if (strcmp(got.v[i], want) != 0)
      fail_msg("%s %s: word %zu is [%s], wanted [%s]", tool, f->pass.mode, i, got.v[i], want);
    i++;
  }
  va_end(ap);
  if (i != got.n)
    fail_msg("%s %s: %zu words, wanted %zu (extra: [%s])", tool, f->pass.mode, got.n, i, got.v[i]);
  assert_null(got.v[got.n]);
  hp_strv_free(&got);
}

static void test_find(void **state)
{
  static const char *const tools[] = {"hipprof", "rocprofv3", "rocprof", "ncu"};
  size_t i;

  (void)state;
  for (i = 0; i < 4; i++) {
    assert_non_null(hp__driver_find(tools[i]));
    assert_string_equal(hp__driver_name(hp__driver_find(tools[i])), tools[i]);
  }
  assert_null(hp__driver_find("nsight"));
  assert_null(hp__driver_find("rocprofv2"));
  assert_null(hp__driver_find("HIPPROF"));
  assert_null(hp__driver_find(""));
  /* No tool named: the plan's default, hipprof. */
  assert_string_equal(HP__DEFAULT_TOOL, "hipprof");
  assert_ptr_equal(hp__driver_find(NULL), hp__driver_find("hipprof"));
}

static void test_tools(void **state)
{
  (void)state;
  assert_string_equal(hp__driver_tools(), "hipprof, rocprofv3, rocprof, ncu, nsys, torch");
  assert_string_equal(hp__driver_name(hp__driver_at(0)), "hipprof");
  assert_string_equal(hp__driver_name(hp__driver_at(1)), "rocprofv3");
  assert_string_equal(hp__driver_name(hp__driver_at(2)), "rocprof");
  assert_string_equal(hp__driver_name(hp__driver_at(3)), "ncu");
  assert_string_equal(hp__driver_name(hp__driver_at(4)), "nsys");
  assert_string_equal(hp__driver_name(hp__driver_at(5)), "torch");
  assert_null(hp__driver_at(6));
  assert_null(hp__driver_at(1000));
}

static void test_has_mode(void **state)
{
  static const char *const tools[] = {"hipprof", "rocprofv3", "rocprof", "ncu"};
  const hp__driver *hip = hp__driver_find("hipprof"), *v3 = hp__driver_find("rocprofv3");
  const hp__driver *v1 = hp__driver_find("rocprof"), *ncu = hp__driver_find("ncu");
  size_t i;

  (void)state;
  for (i = 0; i < 4; i++) {
    assert_true(hp__driver_has_mode(hp__driver_find(tools[i]), "normal"));
    assert_true(hp__driver_has_mode(hp__driver_find(tools[i]), "command"));
    assert_false(hp__driver_has_mode(hp__driver_find(tools[i]), "bogus"));
    assert_false(hp__driver_has_mode(hp__driver_find(tools[i]), ""));
  }
  assert_true(hp__driver_has_mode(hip, "stats"));
  assert_true(hp__driver_has_mode(hip, "kernel-stack"));
  assert_true(hp__driver_has_mode(hip, "pmc-write"));
  assert_false(hp__driver_has_mode(hip, "kernel-trace"));
  assert_false(hp__driver_has_mode(hip, "Stats"));
  assert_true(hp__driver_has_mode(v3, "kernel-trace"));
  assert_true(hp__driver_has_mode(v3, "pmc"));
  assert_false(hp__driver_has_mode(v3, "trace"));
  assert_true(hp__driver_has_mode(v1, "sys-trace"));
  assert_false(hp__driver_has_mode(v1, "kernel-trace"));
  assert_true(hp__driver_has_mode(ncu, "time"));
  assert_true(hp__driver_has_mode(ncu, "full"));
  assert_false(hp__driver_has_mode(ncu, "stats"));

  assert_true(hp__mode_is_generic("normal"));
  assert_true(hp__mode_is_generic("command"));
  assert_false(hp__mode_is_generic("stats"));
  assert_false(hp__mode_is_generic("Normal"));
  assert_false(hp__mode_is_generic(""));
}

static void test_mode_lists(void **state)
{
  const hp__driver *hip = hp__driver_find("hipprof"), *ncu = hp__driver_find("ncu");

  (void)state;
  assert_string_equal(hp__driver_modes(hip),
                      "normal, command, trace, stats, kernel-stack, pmc, pmc-read, pmc-write, "
                      "memory-usage, leak-check, hiptx-trace");
  assert_string_equal(hp__driver_modes(hp__driver_find("rocprofv3")),
                      "normal, command, kernel-trace, hip-trace, stats, sys-trace, pmc");
  assert_string_equal(hp__driver_modes(hp__driver_find("rocprof")),
                      "normal, command, stats, hip-trace, sys-trace, pmc");
  assert_string_equal(hp__driver_modes(ncu), "normal, command, time, basic, full, default");
  /* A second call gives the same list (it is built once). */
  assert_string_equal(hp__driver_modes(ncu), "normal, command, time, basic, full, default");
  assert_string_equal(hp__driver_mode_at(ncu, 0), "normal");
  assert_string_equal(hp__driver_mode_at(ncu, 1), "command");
  assert_string_equal(hp__driver_mode_at(ncu, 2), "time");
  assert_string_equal(hp__driver_mode_at(ncu, 5), "default");
  assert_null(hp__driver_mode_at(ncu, 6));
  assert_string_equal(hp__driver_mode_at(hip, 10), "hiptx-trace");
  assert_null(hp__driver_mode_at(hip, 11));

  assert_string_equal(hp__driver_mode_doc(hip, "memory-usage"),
                      "resource leak check (not peak memory)");
  assert_null(hp__driver_mode_doc(hip, "normal"));
  assert_null(hp__driver_mode_doc(hip, "kernel-trace"));
}

static void test_argv_hipprof(void **state)
{
  fixture *f = *state;

  f->pass.mode = "stats";
  expect_argv(f, "hipprof", TOOL, "--hip-trace", "--stats", "./app", "--n", "3", NULL);
  /* The kernel filter belongs to counter modes only. */
  f->pass.mode = "trace";
  f->pass.kernel = "vector_add";
  expect_argv(f, "hipprof", TOOL, "--hip-trace", "./app", "--n", "3", NULL);
  f->pass.mode = "pmc";
  expect_argv(f, "hipprof", TOOL, "--pmc", "--pmc-type", "3", "--kernel-name", "vector_add",
              "./app", "--n", "3", NULL);
  /* The plan's extra options, then the pass's (so they can override), then the app. */
  set_words(&f->plan.profiler.args, "--plan-opt 1");
  set_words(&f->pass.args, "--pass-opt");
  f->pass.mode = "pmc-read";
  f->pass.kernel = NULL;
  expect_argv(f, "hipprof", TOOL, "--pmc-read", "--pmc-type", "3", "--plan-opt", "1", "--pass-opt",
              "./app", "--n", "3", NULL);
}

/* DTK 26.04's real help text (tests/fixtures/real/hipprof/dtk-26.04-help/, its source named in
 * tests/fixtures/real/README.md) lists -o, -d and --follow-fork, each on an option line. */
static void test_help_caps_dtk2604(void **state)
{
  char *help = NULL, *p;
  size_t len;

  (void)state;
  assert_int_equal(
      hp__read_file("tests/fixtures/real/hipprof/dtk-26.04-help/hipprof_help.txt", &help, &len), 0);
  assert_int_equal(hp__driver_help_caps(help),
                   HP__CAP_OUTPUT | HP__CAP_DATA_DIR | HP__CAP_FOLLOW_FORK);
  /* Without its --follow-fork line, the same text offers the other two only: the option is read
   * from its own line, never from another option's description. */
  p = strstr(help, "  --follow-fork");
  assert_non_null(p);
  p[2] = 'X';
  assert_int_equal(hp__driver_help_caps(help), HP__CAP_OUTPUT | HP__CAP_DATA_DIR);
  free(help);
  assert_int_equal(hp__driver_help_caps("  --stats  - like -o and -d, says nothing\n"), 0);
  assert_int_equal(hp__driver_help_caps(NULL), 0);
}

/* With the options of the help text, hipprof writes into the run folder (-o ending in '/', a
 * folder), keeps its temporary data there (-d), and follows a wrapper's children. */
static void test_argv_hipprof_caps(void **state)
{
  fixture *f = *state;

  f->pass.mode = "stats";
  g_caps = HP__CAP_OUTPUT | HP__CAP_DATA_DIR;
  expect_argv(f, "hipprof", TOOL, "--hip-trace", "--stats", "-o", "@/", "-d", "@", "./app", "--n",
              "3", NULL);
  g_caps = HP__CAP_OUTPUT | HP__CAP_DATA_DIR | HP__CAP_FOLLOW_FORK;
  f->pass.mode = "pmc";
  expect_argv(f, "hipprof", TOOL, "--pmc", "--pmc-type", "3", "-o", "@/", "-d", "@",
              "--follow-fork", "./app", "--n", "3", NULL);
  g_caps = 0;
}

static void test_argv_rocprofv3(void **state)
{
  fixture *f = *state;

  f->pass.mode = "pmc";
  f->pass.kernel = "gemm";
  set_words(&f->pass.counters, "SQ_WAVES GRBM_GUI_ACTIVE");
  expect_argv(f, "rocprofv3", TOOL, "--pmc", "SQ_WAVES", "GRBM_GUI_ACTIVE",
              "--kernel-include-regex", "gemm", "--output-format", "csv", "-d", "@", "-o", "run",
              "--", "./app", "--n", "3", NULL);
  hp_strv_free(&f->pass.counters);
  f->pass.kernel = NULL;
  expect_argv(f, "rocprofv3", TOOL, "--pmc", "SQ_WAVES", "--output-format", "csv", "-d", "@", "-o",
              "run", "--", "./app", "--n", "3", NULL);
  f->pass.mode = "stats";
  expect_argv(f, "rocprofv3", TOOL, "--kernel-trace", "--hip-trace", "--stats", "--output-format",
              "csv", "-d", "@", "-o", "run", "--", "./app", "--n", "3", NULL);
}

static void test_argv_ncu(void **state)
{
  fixture *f = *state;

  f->pass.mode = "time";
  f->pass.kernel = "vector_add";
  f->pass.launch_count = 10;
  set_words(&f->pass.counters, "sm__cycles_elapsed.avg dram__bytes.sum");
  expect_argv(f, "ncu", TOOL, "--clock-control", "none", "--target-processes", "all", "--metrics",
              "sm__cycles_elapsed.avg,dram__bytes.sum", "-k", "regex:vector_add", "-c", "10",
              "--csv", "--page", "raw", "--log-file", "@/ncu.csv", "./app", "--n", "3", NULL);
  hp_strv_free(&f->pass.counters);
  f->pass.kernel = NULL;
  f->pass.launch_count = 0;
  expect_argv(f, "ncu", TOOL, "--clock-control", "none", "--target-processes", "all", "--metrics",
              "gpu__time_duration.sum", "--csv", "--page", "raw", "--log-file", "@/ncu.csv",
              "./app", "--n", "3", NULL);
  /* A section set without counters asks for no metrics of its own. */
  f->pass.mode = "full";
  expect_argv(f, "ncu", TOOL, "--clock-control", "none", "--target-processes", "all", "--set",
              "full", "--csv", "--page", "raw", "--log-file", "@/ncu.csv", "./app", "--n", "3",
              NULL);
}

/* torch: the launcher goes after python's own options, or where torchrun's script was; any other
 * program is the script, run by python3; only mode schedule passes its steps. */
static void test_argv_torch(void **state)
{
  fixture *f = *state;

  f->pass.mode = "cpu";
  expect_argv(f, "torch", "python3", TOOL, "--mode", "cpu", "--dir", "@", "--", "./app", "--n", "3",
              NULL);
  hp_strv_free(&f->app);
  assert_int_equal(hp_split_words("/usr/bin/python3 -u -W ignore train.py a", &f->app), 0);
  f->pass.mode = "schedule";
  f->pass.sched_wait = 2;
  f->pass.sched_warmup = 0;
  f->pass.sched_active = 4;
  expect_argv(f, "torch", "/usr/bin/python3", "-u", "-W", "ignore", TOOL, "--mode", "schedule",
              "--dir", "@", "--wait", "2", "--warmup", "0", "--active", "4", "--", "train.py", "a",
              NULL);
  hp_strv_free(&f->app);
  assert_int_equal(hp_split_words("torchrun --nproc-per-node 2 train.py --lr 1", &f->app), 0);
  f->pass.mode = "stack";
  expect_argv(f, "torch", "torchrun", "--nproc-per-node", "2", TOOL, "--mode", "stack", "--dir",
              "@", "--", "train.py", "--lr", "1", NULL);
}

/* nsys: each mode's options and the report in the run folder; after the run, `nsys stats`
 * into CSVs there, and nothing after a generic pass. */
static void test_argv_nsys(void **state)
{
  fixture *f = *state;
  const hp__driver *d = hp__driver_find("nsys");
  hp__run_spec rs = {&f->plan, &f->pass, TOOL, f->run_dir, &f->app, 0};
  static const char *const after[] = {TOOL,
                                      "stats",
                                      "--report",
                                      "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum",
                                      "--format",
                                      "csv",
                                      "--output",
                                      "@/stats",
                                      "@/report.nsys-rep"};
  hp_strv got = {NULL, 0, 0};
  char want[256];
  size_t i;

  f->pass.mode = "cuda";
  expect_argv(f, "nsys", TOOL, "profile", "--trace=cuda,nvtx", "--sample=none", "-o", "@/report",
              "./app", "--n", "3", NULL);
  f->pass.mode = "osrt";
  expect_argv(f, "nsys", TOOL, "profile", "--trace=cuda,nvtx,osrt", "--sample=none", "-o",
              "@/report", "./app", "--n", "3", NULL);
  f->pass.mode = "sample";
  expect_argv(f, "nsys", TOOL, "profile", "--trace=cuda,nvtx", "--sample=process-tree", "-o",
              "@/report", "./app", "--n", "3", NULL);
  assert_int_equal(hp__driver_after_argv(d, &rs, &got), 0);
  assert_int_equal(got.n, sizeof(after) / sizeof(after[0]));
  for (i = 0; i < got.n; i++) {
    snprintf(want, sizeof(want), "%s%s", after[i][0] == '@' ? f->run_dir : "",
             after[i] + (after[i][0] == '@'));
    assert_string_equal(got.v[i], want);
  }
  hp_strv_free(&got);
  f->pass.mode = "normal";
  assert_int_equal(hp__driver_after_argv(d, &rs, &got), 0);
  assert_int_equal(got.n, 0);
  hp_strv_free(&got);
  f->pass.mode = "time";
  assert_int_equal(hp__driver_after_argv(hp__driver_find("ncu"), &rs, &got), 0);
  assert_int_equal(got.n, 0);
  hp_strv_free(&got);
}

static void test_argv_rocprof(void **state)
{
  fixture *f = *state;
  char path[128], *text = NULL;
  size_t len = 0;
  FILE *fp;

  f->pass.mode = "stats";
  expect_argv(f, "rocprof", TOOL, "--stats", "--timestamp", "on", "-o", "@/results.csv", "./app",
              "--n", "3", NULL);
  /* pmc writes the counters and the kernel filter into an input file in the run folder. */
  f->pass.mode = "pmc";
  f->pass.kernel = "k1";
  set_words(&f->pass.counters, "SQ_WAVES GRBM_COUNT");
  expect_argv(f, "rocprof", TOOL, "--timestamp", "on", "-i", "@/rocprof_input.txt", "-o",
              "@/results.csv", "./app", "--n", "3", NULL);
  snprintf(path, sizeof(path), "%s/rocprof_input.txt", f->run_dir);
  fp = fopen(path, "r");
  assert_non_null(fp);
  assert_int_equal(getdelim(&text, &len, '\0', fp) > 0, 1);
  fclose(fp);
  assert_string_equal(text, "pmc: SQ_WAVES GRBM_COUNT\nkernel: k1\n");
  free(text);
}

static void test_argv_not_a_tool_mode(void **state)
{
  fixture *f = *state;
  hp__run_spec rs = {&f->plan, &f->pass, TOOL, f->run_dir, &f->app, 0};
  hp_strv out = {(char **)&rs, 7, 0};

  /* Generic modes are run by the session itself, never through a driver. */
  f->pass.mode = "normal";
  assert_int_equal(hp__driver_argv(hp__driver_find("hipprof"), &rs, &out), HP_ENOTSUP);
  assert_null(out.v);
  assert_int_equal(out.n, 0);
  f->pass.mode = "kernel-trace";
  assert_int_equal(hp__driver_argv(hp__driver_find("ncu"), &rs, &out), HP_ENOTSUP);
  assert_null(out.v);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_find),
      cmocka_unit_test(test_tools),
      cmocka_unit_test(test_has_mode),
      cmocka_unit_test(test_mode_lists),
      cmocka_unit_test_setup_teardown(test_argv_hipprof, setup, teardown),
      cmocka_unit_test(test_help_caps_dtk2604),
      cmocka_unit_test_setup_teardown(test_argv_hipprof_caps, setup, teardown),
      cmocka_unit_test_setup_teardown(test_argv_rocprofv3, setup, teardown),
      cmocka_unit_test_setup_teardown(test_argv_ncu, setup, teardown),
      cmocka_unit_test_setup_teardown(test_argv_torch, setup, teardown),

      cmocka_unit_test_setup_teardown(test_argv_nsys, setup, teardown),
      cmocka_unit_test_setup_teardown(test_argv_rocprof, setup, teardown),
      cmocka_unit_test_setup_teardown(test_argv_not_a_tool_mode, setup, teardown),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
