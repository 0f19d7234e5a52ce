/*
 * The classification of ncu's columns against REAL headers: the raw page and the details page
 * ncu 2025.3.1 wrote for a PyTorch layer on an H200 (tests/fixtures/real/ncu-h200-pytorch/).
 * Every expectation here is written by hand, from NVIDIA's documentation of the metrics (Nsight
 * Compute "Kernel Profiling Guide": device__attribute_* are properties of the GPU, launch__* the
 * launch configuration, sm__maximum_warps_per_active_cycle_pct the theoretical occupancy, which
 * the launch configuration decides) and from counting the fixture's header with python3's csv
 * module:
 *
 *   566 columns: 11 identify the launch (ID ... CC); 190 device properties (device__ 166,
 *   nvlink__ 18, numa__ 4, c2clink__ 2); 68 per-launch constants (launch__ 54, profiler__ 11,
 *   sm__maximum_ 2, smsp__maximum_ 1); 297 measured metrics (everything else).
 *
 * The details page adds the rule columns (Rule Name ... Estimated Speedup): rule rows carry no
 * metric, and must be neither read as one nor warned about. Also here: which metrics a pass's
 * command line asked for (lib/profile/tables/ncu_request.c), the list the ncu tables are cut to.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"
#include "profile/tables/ncu_request.h"
#include "profile/model/profile.h"

#define DIR "tests/fixtures/real/ncu-h200-pytorch/"

/* The identity columns of a raw page: not metrics of any class. */
static const char *const ident[] = {"ID",          "Process ID", "Process Name", "Host Name",
                                    "Kernel Name", "Context",    "Stream",       "Block Size",
                                    "Grid Size",   "Device",     "CC",           NULL};

static int is_ident(const char *s)
{
  size_t i;

  for (i = 0; ident[i]; i++)
    if (strcmp(s, ident[i]) == 0)
      return 1;
  return 0;
}

/* Splits a line of quoted fields ("a","b",...) in place; no field of a header or units row
 * holds a quote or a comma. Returns the number of fields. */
static size_t split(char *line, char **f, size_t cap)
{
  size_t n = 0;
  char *p = line, *e;

  while (n < cap && (p = strchr(p, '"')) != NULL && (e = strchr(p + 1, '"')) != NULL) {
    *e = '\0';
    f[n++] = p + 1;
    p = e + 1;
  }
  return n;
}

/* The raw page's header and units rows. */
static size_t read_header(char **head, char **units, size_t cap, char **buf1, char **buf2)
{
  FILE *fp = fopen(DIR "basic-raw.csv", "r");
  size_t n1 = 0, n2, nh = 0;
  char *line = NULL;

  assert_non_null(fp);
  *buf1 = *buf2 = NULL;
  while (getline(&line, &n1, fp) > 0)
    if (strncmp(line, "\"ID\",\"Process ID\"", 17) == 0)
      break;
  *buf1 = line;
  nh = split(line, head, cap);
  line = NULL;
  n2 = 0;
  assert_true(getline(&line, &n2, fp) > 0);
  *buf2 = line;
  assert_int_equal(split(line, units, cap), nh);
  fclose(fp);
  return nh;
}

static size_t find(char **head, size_t n, const char *name)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (strcmp(head[i], name) == 0)
      return i;
  fail_msg("column %s is not in the real header", name);
  return 0;
}

static void test_raw_header_classes(void **state)
{
  static const struct {
    const char *name;
    int cls;
    const char *unit; /* the units row's entry */
  } want[] = {
      {"launch__grid_size", HP__MC_LAUNCH, ""},
      {"launch__block_size", HP__MC_LAUNCH, ""},
      {"launch__registers_per_thread", HP__MC_LAUNCH, "register/thread"},
      {"launch__waves_per_multiprocessor", HP__MC_LAUNCH, ""},
      {"profiler__replayer_passes", HP__MC_LAUNCH, "pass"},
      {"sm__maximum_warps_per_active_cycle_pct", HP__MC_LAUNCH, "%"},
      {"device__attribute_max_threads_per_block", HP__MC_DEVICE, ""},
      {"device__attribute_max_threads_per_multiprocessor", HP__MC_DEVICE, ""},
      {"c2clink__present", HP__MC_DEVICE, ""},
      {"numa__id_cpu", HP__MC_DEVICE, ""},
      {"gpu__time_duration.sum", HP__MC_METRIC, "ns"},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", HP__MC_METRIC, "%"},
      {"dram__cycles_elapsed.avg.per_second", HP__MC_METRIC, "hz"},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", HP__MC_METRIC, "%"},
  };
  char *head[1024], *units[1024], *b1, *b2;
  size_t n = read_header(head, units, 1024, &b1, &b2), i, k, count[3] = {0, 0, 0}, nid = 0;
  int cls;

  (void)state;
  assert_int_equal(n, 566);
  for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    k = find(head, n, want[i].name);
    cls = hp__ncu_metric_class(head[k], strlen(head[k]));
    if (cls != want[i].cls)
      fail_msg("%s: class %d, expected %d", want[i].name, cls, want[i].cls);
    assert_string_equal(units[k], want[i].unit);
  }
  for (i = 0; i < n; i++) {
    if (is_ident(head[i])) {
      nid++;
      continue;
    }
    cls = hp__ncu_metric_class(head[i], strlen(head[i]));
    assert_true(cls >= 0 && cls < 3);
    count[cls]++;
  }
  assert_int_equal(nid, 11);
  assert_int_equal(count[HP__MC_DEVICE], 190);
  assert_int_equal(count[HP__MC_LAUNCH], 68);
  assert_int_equal(count[HP__MC_METRIC], 297);
  free(b1);
  free(b2);
}

/* The details page: 70 launches (the fixture's README), rule rows (SOLBottleneck,
 * TheoreticalOccupancy, ...) skipped without a warning, and no rule text taken for a metric. */
static void test_details_rule_columns(void **state)
{
  static const char *const rules[] = {"SOLBottleneck",     "TheoreticalOccupancy",
                                      "AchievedOccupancy", "LaunchConfiguration",
                                      "WorkloadImbalance", NULL};
  hp_profile *p = NULL;
  hp_diags d;
  hp_kernel_stat ks;
  long long calls = 0;
  size_t i, k, n;
  const char *name;
  int duration = 0;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, DIR "basic-details.csv", &d), 0);
  if (d.count)
    fail_msg("%zu messages, first: %s", d.count, d.head->msg);
  for (i = 0; i < hp_profile_nkernels(p); i++) {
    assert_int_equal(hp_profile_kernel(p, i, &ks), 0);
    calls += ks.calls;
  }
  assert_int_equal(calls, 70);
  for (i = 0; i < p->metrics.n; i++) {
    n = hp__ncu_metric_name(p, (uint32_t)i, &name);
    for (k = 0; rules[k]; k++)
      if (strlen(rules[k]) == n && memcmp(rules[k], name, n) == 0)
        fail_msg("rule %s read as a metric", rules[k]);
    if (n == 8 && memcmp(name, "Duration", 8) == 0 && p->metric_unit[i] &&
        strcmp(p->metric_unit[i], "ns") == 0)
      duration = 1;
  }
  assert_true(duration); /* `--print-units base`: Duration in ns */
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void expect_request(const char *command, const char *want)
{
  char *got = (char *)1;

  assert_int_equal(hp_ncu_requested_metrics(command, &got), 0);
  if (want == NULL && got != NULL)
    fail_msg("%s\n  -> %s, expected none", command, got);
  if (want != NULL && (got == NULL || strcmp(got, want) != 0))
    fail_msg("%s\n  -> %s, expected %s", command, got ? got : "none", want);
  free(got);
}

/* What a pass's command line asked ncu for (the commands are the H200 session's, as stored in
 * docs/validation/h200-pytorch/summary.json.gz, and variations of them). */
static void test_requested_metrics(void **state)
{
  (void)state;
  expect_request("/usr/local/cuda/bin/ncu --clock-control none --target-processes all --metrics "
                 "gpu__time_duration.sum --csv --page raw --log-file /s/ncu-time/1/ncu.csv "
                 "/opt/torch/.venv/bin/python3 ../../scripts/torch_layer.py 5 3",
                 "gpu__time_duration.sum");
  expect_request("/usr/local/cuda/bin/ncu --clock-control none --target-processes all --set basic "
                 "-c 40 --csv --page raw --log-file /s/ncu-basic/1/ncu.csv python3 t.py 5 3",
                 NULL);
  expect_request("ncu --metrics=a.sum,b --csv --metrics c ./app", "a.sum,b,c");
  expect_request("ncu --section SpeedOfLight --metrics x ./app", NULL);
  /* The program's own options are not ncu's; a launcher's come before ncu's. */
  expect_request("ncu --metrics x --nvtx --nvtx-include timed/ ./app --set full --metrics y", "x");
  expect_request("srun -n 2 /opt/nvidia/ncu --metrics x ./app", "x");
  expect_request("ncu --csv ./app", NULL);
  expect_request("'/opt/my ncu/ncu' --metrics 'gpu__time_duration.sum' ./app",
                 "gpu__time_duration.sum");
  expect_request(NULL, NULL);
}

static void expect_match(const char *list, const char *name, int want)
{
  hp__ncu_want w;

  assert_int_equal(hp__ncu_want_init(&w, list), 0);
  if (hp__ncu_want_match(&w, name, strlen(name)) != want)
    fail_msg("--metrics %s: %s %s", list, name, want ? "not matched" : "matched");
  hp__ncu_want_free(&w);
}

/* ncu's --metrics syntax (Nsight Compute CLI documentation): full names, base names that stand
 * for their rollups, regex:, and groups/breakdowns that hprun cannot expand (everything shown). */
static void test_metric_match(void **state)
{
  (void)state;
  expect_match("gpu__time_duration.sum", "gpu__time_duration.sum", 1);
  expect_match("gpu__time_duration.sum", "gpu__time_duration.avg", 0);
  expect_match("gpu__time_duration", "gpu__time_duration.max", 1);
  expect_match("gpu__time_duration", "gpu__time_duration_x.sum", 0);
  expect_match("a.sum, dram__bytes.sum", "dram__bytes.sum", 1);
  expect_match("dram__bytes.sum", "dram__bytes.sum.per_second", 0);
  expect_match("regex:^dram__", "dram__bytes.sum", 1);
  expect_match("regex:^dram__", "gpu__dram_throughput.avg", 0);
  expect_match("group:memory__dram_table", "anything", 1);
  expect_match("breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
               "anything", 1);
  expect_match("regex:(", "anything", 1); /* a bad expression hides nothing */
  expect_match(NULL, "anything", 1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_raw_header_classes),
      cmocka_unit_test(test_details_rule_columns),
      cmocka_unit_test(test_requested_metrics),
      cmocka_unit_test(test_metric_match),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
