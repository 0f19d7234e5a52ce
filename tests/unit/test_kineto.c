/*
 * Unit tests for the Kineto trace parser (lib/profile/parse/parse_kineto.c): two real public
 * traces and three taken on the H200 (tests/fixtures/real/kineto/, SOURCE in each folder), whose
 * expected values were printed by tests/fixtures/real/kineto/hand_check.py, an independent
 * reading with Python's json module (its output is quoted above each test); and small traces
 * written here for what real traces rarely have: escaped names, an event across the reader's
 * buffer, a cut file. Run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/model/profile.h"
#include "profile/parse/detect.h"
#include "profile/tables/table.h"

#define FX "tests/fixtures/real/kineto/"

static hp_profile *load(const char *path, hp_diags *d)
{
  hp_profile *p;

  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, path, d), 0);
  return p;
}

/* Calls and total nanoseconds of every entry of a time table. */
static void table_sum(const hp_profile *p, int t, long long *calls, double *total)
{
  size_t i;

  *calls = 0;
  *total = 0;
  for (i = 0; i < p->t[t].names.n; i++) {
    *calls += p->t[t].st[i].calls;
    *total += p->t[t].st[i].total_ns;
  }
}

static const hp__tstat *entry(const hp_profile *p, int t, const char *name)
{
  size_t i;

  for (i = 0; i < p->t[t].names.n; i++)
    if (strcmp(p->t[t].names.s[i], name) == 0)
      return &p->t[t].st[i];
  return NULL;
}

static void expect_table(const hp_profile *p, int t, long long calls, double total)
{
  long long c;
  double s;

  table_sum(p, t, &c, &s);
  assert_int_equal(c, calls);
  assert_true(s == total); /* whole nanoseconds, exactly */
}

/* hand_check.py hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz:
 *   api: calls 21 total_ns 6804576
 *   copies: calls 2 total_ns 38161
 *   cpu_ops: calls 70 total_ns 24917340
 *   kernels: calls 14 total_ns 110881
 *   span_ns 9374374 busy_ns 110881 busy_pct 1.182810 kernels 14 steps 2
 *   launches in steps 14 per step 7.000000
 *   kernels starting in the span 14 per step 7.000000 */
static void test_rocm_mi250(void **state)
{
  hp_diags d;
  hp_profile *p;
  const hp__tstat *s;

  hp_diags_init(&d);
  p = load(FX "hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz", &d);
  assert_int_equal(d.count, 0);
  expect_table(p, HP__T_API, 21, 6804576);
  expect_table(p, HP__T_COPY, 2, 38161);
  expect_table(p, HP__T_CPU, 70, 24917340);
  expect_table(p, HP__T_KERNEL, 14, 110881);
  assert_non_null(s = entry(p, HP__T_API, "hipLaunchKernel"));
  assert_int_equal(s->calls, 12);
  assert_int_equal(p->ntl, 1);
  assert_true(p->tl[0].span_ns == 9374374);
  assert_true(p->tl[0].busy_ns == 110881);
  assert_true(fabs(p->tl[0].busy_pct - 1.182810) < 0.01 * 1.182810);
  assert_int_equal(p->tl[0].steps, 2);
  assert_int_equal(p->tl[0].kernels, 14);
  assert_true(p->tl[0].launches_per_step == 7.0);
  assert_true(p->tl[0].kernels_per_step == 7.0);
  assert_string_equal(hp__tab_api.title_of(p), "HIP API summary");
  assert_int_equal(p->nfiles, 1);
  assert_string_equal(p->files[0].format, "kineto-trace");
  hp_profile_free(p);
  hp_diags_free(&d);
}

/* hand_check.py hta-a100-alexnet/benchmark_result_2869224_1695835535_trace.json.gz (integer
 * microseconds, no steps):
 *   api: calls 361 total_ns 42297605000
 *   copies: calls 19 total_ns 55511000
 *   cpu_ops: calls 359 total_ns 140021746000
 *   kernels: calls 79 total_ns 10692000
 *   top kernel: ampere_sgemm_32x32_sliced1x4_tn calls 6 total 2621000 min 97000 max 822000
 *   span_ns 43425365000 busy_ns 10630000 busy_pct 0.024479 kernels 79 steps 0 */
static void test_cuda_a100(void **state)
{
  hp_diags d;
  hp_profile *p;
  const hp__tstat *s;

  hp_diags_init(&d);
  p = load(FX "hta-a100-alexnet/benchmark_result_2869224_1695835535_trace.json.gz", &d);
  assert_int_equal(d.count, 0);
  expect_table(p, HP__T_API, 361, 42297605000.0);
  expect_table(p, HP__T_COPY, 19, 55511000);
  expect_table(p, HP__T_CPU, 359, 140021746000.0);
  expect_table(p, HP__T_KERNEL, 79, 10692000);
  assert_non_null(s = entry(p, HP__T_KERNEL, "ampere_sgemm_32x32_sliced1x4_tn"));
  assert_int_equal(s->calls, 6);
  assert_true(s->total_ns == 2621000 && s->min_ns == 97000 && s->max_ns == 822000);
  assert_int_equal(p->ntl, 1);
  assert_true(p->tl[0].span_ns == 43425365000.0);
  assert_true(p->tl[0].busy_ns == 10630000);
  assert_true(fabs(p->tl[0].busy_pct - 0.024479) < 0.01 * 0.024479);
  assert_int_equal(p->tl[0].steps, 0);
  assert_true(isnan(p->tl[0].launches_per_step));
  hp_profile_free(p);
  hp_diags_free(&d);
}

/* The first entry of a time table whose name starts with `prefix` (hand_check.py prints 60
 * characters of a name; the H200 traces' templated kernel names run to hundreds). */
static const hp__tstat *entry_prefix(const hp_profile *p, int t, const char *prefix)
{
  size_t i;

  for (i = 0; i < p->t[t].names.n; i++)
    if (strncmp(p->t[t].names.s[i], prefix, strlen(prefix)) == 0)
      return &p->t[t].st[i];
  return NULL;
}

/* One real H200 trace (tests/fixtures/real/kineto/h200-*, taken with torch 2.11.0+cu130 through
 * cap_models.py) and what hand_check.py printed for it. */
typedef struct h200_case {
  const char *path;
  long long api[2], copies[2], cpu[2], kernels[2]; /* calls, total ns */
  const char *top;
  long long top_calls, top_total, top_min, top_max;
  double span_ns, busy_ns, busy_pct;
  int steps;
  double per_step; /* launches and kernels per step (the same in these traces); NaN without steps */
} h200_case;

static void check_h200(const h200_case *c)
{
  hp_diags d;
  hp_profile *p;
  const hp__tstat *s;

  hp_diags_init(&d);
  p = load(c->path, &d);
  assert_int_equal(d.count, 0);
  expect_table(p, HP__T_API, c->api[0], (double)c->api[1]);
  expect_table(p, HP__T_COPY, c->copies[0], (double)c->copies[1]);
  expect_table(p, HP__T_CPU, c->cpu[0], (double)c->cpu[1]);
  expect_table(p, HP__T_KERNEL, c->kernels[0], (double)c->kernels[1]);
  assert_non_null(s = entry_prefix(p, HP__T_KERNEL, c->top));
  assert_int_equal(s->calls, c->top_calls);
  assert_true(s->total_ns == c->top_total && s->min_ns == c->top_min && s->max_ns == c->top_max);
  assert_string_equal(hp__tab_api.title_of(p), "CUDA API summary");
  assert_int_equal(p->ntl, 1);
  assert_true(p->tl[0].span_ns == c->span_ns);
  assert_true(p->tl[0].busy_ns == c->busy_ns);
  assert_true(fabs(p->tl[0].busy_pct - c->busy_pct) < 0.01 * c->busy_pct);
  assert_int_equal(p->tl[0].steps, c->steps);
  assert_int_equal(p->tl[0].kernels, c->kernels[0]);
  if (isnan(c->per_step))
    assert_true(isnan(p->tl[0].launches_per_step) && isnan(p->tl[0].kernels_per_step));
  else
    assert_true(p->tl[0].launches_per_step == c->per_step &&
                p->tl[0].kernels_per_step == c->per_step);
  hp_profile_free(p);
  hp_diags_free(&d);
}

#define REDUCE "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::BFloat16"

/* hand_check.py h200-layer/kineto.json.gz:
 *   api: calls 298 total_ns 2187609
 *   copies: calls 33 total_ns 37728
 *   cpu_ops: calls 1374 total_ns 27865108
 *   kernels: calls 210 total_ns 1044238
 *   top kernel: void at::native::reduce_kernel<128, 4, at::native::ReduceOp< calls 12
 *     total 112446 min 8511 max 10400
 *   span_ns 14229139 busy_ns 1044238 busy_pct 7.338729 kernels 210 steps 3
 *   launches in steps 210 per step 70.000000
 *   kernels starting in the span 210 per step 70.000000 */
static void test_h200_layer(void **state)
{
  static const h200_case c = {FX "h200-layer/kineto.json.gz",
                              {298, 2187609},
                              {33, 37728},
                              {1374, 27865108},
                              {210, 1044238},
                              REDUCE,
                              12,
                              112446,
                              8511,
                              10400,
                              14229139,
                              1044238,
                              7.338729,
                              3,
                              70.0};
  check_h200(&c);
}

/* hand_check.py h200-layer-stack/kineto-stack.json.gz (record_shapes, with_stack):
 *   api: calls 298 total_ns 3096140
 *   copies: calls 33 total_ns 37407
 *   cpu_ops: calls 1374 total_ns 41531416
 *   kernels: calls 210 total_ns 1045653
 *   top kernel: void at::native::reduce_kernel<128, 4, at::native::ReduceOp< calls 12
 *     total 110688 min 8256 max 10337
 *   span_ns 22953362 busy_ns 1045653 busy_pct 4.555555 kernels 210 steps 3
 *   launches in steps 210 per step 70.000000
 *   kernels starting in the span 210 per step 70.000000 */
static void test_h200_layer_stack(void **state)
{
  static const h200_case c = {FX "h200-layer-stack/kineto-stack.json.gz",
                              {298, 3096140},
                              {33, 37407},
                              {1374, 41531416},
                              {210, 1045653},
                              REDUCE,
                              12,
                              110688,
                              8256,
                              10337,
                              22953362,
                              1045653,
                              4.555555,
                              3,
                              70.0};
  check_h200(&c);
}

/* hand_check.py h200-gpt-decode/kineto-gpt.json.gz (no schedule, so no steps):
 *   api: calls 1794 total_ns 12040233
 *   copies: calls 60 total_ns 46844
 *   cpu_ops: calls 7240 total_ns 1877120876
 *   kernels: calls 1016 total_ns 2243321
 *   top kernel: nvjet_sm90_hsh_8x64_64x16_4x1_v_bz_bias_TNN calls 152 total 428771 min 2432
 *     max 3617
 *   span_ns 674391493 busy_ns 2243321 busy_pct 0.332644 kernels 1016 steps 0 */
static void test_h200_gpt(void **state)
{
  static const h200_case c = {FX "h200-gpt-decode/kineto-gpt.json.gz",
                              {1794, 12040233},
                              {60, 46844},
                              {7240, 1877120876},
                              {1016, 2243321},
                              "nvjet_sm90_hsh_8x64_64x16_4x1_v_bz_bias_TNN",
                              152,
                              428771,
                              2432,
                              3617,
                              674391493,
                              2243321,
                              0.332644,
                              0,
                              NAN};
  check_h200(&c);
}

static char *write_tmp(const char *suffix, const char *text)
{
  char *path = NULL;
  FILE *fp;

  assert_true(asprintf(&path, "/tmp/hp-kineto-%ld%s", (long)getpid(), suffix) > 0);
  assert_non_null(fp = fopen(path, "w"));
  fputs(text, fp);
  fclose(fp);
  return path;
}

/* Escaped names are decoded; other members (nested args, flows, metadata) are skipped; 0.0005 us
 * rounds to 1 ns; two kernels overlapping on two streams count once in the busy time. */
static void test_small(void **state)
{
  static const char trace[] =
      "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"x\": [1, {\"a\": \"]}\"}]}],\n"
      " \"traceEvents\": [\n"
      " {\"ph\": \"M\", \"name\": \"process_name\", \"args\": {\"name\": \"x\"}},\n"
      " {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#7\", \"ts\": 100, "
      "\"dur\": 50},\n"
      " {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"ts\": 101.5, "
      "\"dur\": 2},\n"
      " {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"ts\": 200, "
      "\"dur\": 2},\n"
      " {\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": 5, \"ts\": 101},\n"
      " {\"args\": {\"grid\": [1, 2, 3], \"s\": \"\\\"}\"}, \"ph\": \"X\", \"cat\": \"kernel\", "
      "\"name\": \"k\\\"q\\u00e9\", \"ts\": 110, \"dur\": 10.0005},\n"
      " {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"ts\": 115, \"dur\": 10},\n"
      " {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k3\", \"ts\": 160, \"dur\": 1}\n"
      " ], \"traceName\": \"t\"}\n";
  char *path = write_tmp(".json", trace);
  hp_diags d;
  hp_profile *p;
  const hp__tstat *s;

  hp_diags_init(&d);
  assert_int_equal(hp__detect(path, NULL), HP__F_KINETO);
  p = load(path, &d);
  assert_int_equal(d.count, 0);
  assert_non_null(s = entry(p, HP__T_KERNEL, "k\"q\xc3\xa9"));
  assert_true(s->total_ns == 10001);
  assert_non_null(s = entry(p, HP__T_API, "cudaLaunchKernel"));
  assert_int_equal(s->calls, 2);
  assert_int_equal(p->ntl, 1);
  assert_true(p->tl[0].span_ns == 50000);
  assert_true(p->tl[0].busy_ns == 15000); /* [110, 125) us */
  assert_true(p->tl[0].launches_per_step == 1.0);
  assert_int_equal(p->tl[0].kernels, 3);
  assert_true(p->tl[0].kernels_per_step == 2.0); /* k3 starts after the step */
  hp_profile_free(p);
  hp_diags_free(&d);
  unlink(path);
  free(path);
}

/* A trace of over 3 MB (four buffers of the reader) with events of every size across the buffers' ends: every
 * kernel is counted, and a copy cut in the middle warns and keeps what it read. */
static void test_buffers_and_cut(void **state)
{
  char *path, *cut, *name;
  FILE *fp;
  hp_diags d;
  hp_profile *p;
  long long calls;
  double total;
  int i, n = 40000;
  long size;

  assert_true(asprintf(&path, "/tmp/hp-kineto-big-%ld.json", (long)getpid()) > 0);
  assert_non_null(fp = fopen(path, "w"));
  fputs("{\"schemaVersion\": 1, \"traceEvents\": [\n", fp);
  for (i = 0; i < n; i++)
    fprintf(fp,
            "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kern_%d_%0*d\", \"ts\": %d, "
            "\"dur\": 1.25}",
            i ? ",\n" : "", i % 7, 17 * (i % 13) + 1, i, 2 * i);
  fputs("]}\n", fp);
  size = ftell(fp);
  fclose(fp);
  assert_true(size > 3 * (1 << 20));
  hp_diags_init(&d);
  p = load(path, &d);
  assert_int_equal(d.count, 0);
  table_sum(p, HP__T_KERNEL, &calls, &total);
  assert_int_equal(calls, n);
  assert_true(total == 1250.0 * n);
  hp_profile_free(p);
  /* The first half of the same file. */
  assert_true(asprintf(&cut, "sh -c 'head -c %ld %s > %s.cut.json'", size / 2, path, path) > 0);
  assert_int_equal(system(cut), 0);
  free(cut);
  assert_true(asprintf(&name, "%s.cut.json", path) > 0);
  p = load(name, &d);
  assert_int_equal(d.count, 1);
  assert_non_null(strstr(d.head->msg, "ends inside traceEvents"));
  table_sum(p, HP__T_KERNEL, &calls, &total);
  assert_true(calls > n / 3 && calls < n);
  hp_profile_free(p);
  hp_diags_free(&d);
  unlink(name);
  unlink(path);
  free(name);
  free(path);
}

/* hipprof's Chrome trace (no schemaVersion) and other JSON are not taken for Kineto traces. */
static void test_detect(void **state)
{
  char *a = write_tmp("-a.json", "{\"traceEvents\": [{\"ph\": \"X\"}]}\n");
  char *b = write_tmp("-b.json", "{\"schemaVersion\": 1}\n");

  assert_int_not_equal(hp__detect(a, NULL), HP__F_KINETO);
  assert_int_not_equal(hp__detect(b, NULL), HP__F_KINETO);
  assert_int_equal(hp__detect(FX "hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz", NULL),
                   HP__F_KINETO);
  unlink(a);
  unlink(b);
  free(a);
  free(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rocm_mi250),
      cmocka_unit_test(test_cuda_a100),
      cmocka_unit_test(test_small),
      cmocka_unit_test(test_buffers_and_cut),
      cmocka_unit_test(test_detect),
      cmocka_unit_test(test_h200_layer),
      cmocka_unit_test(test_h200_layer_stack),
      cmocka_unit_test(test_h200_gpt),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
