/*
 * Metrics from a run's stdout, flags, advice, verdicts and exit codes (lib/analyze/metric.c,
 * lib/analyze/results.c), on results built by hand so every rule is exercised exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/metric.h"
#include "analyze/results.h"
#include "util/buf.h"

static hp_plan *plan_from(const char *text)
{
  hp_plan *p = NULL;
  hp_diags d;

  hp_diags_init(&d);
  if (hp_plan_load_string("t.yaml", ".", text, strlen(text), &p, &d)) {
    hp_diags_print(&d, stderr);
    fail_msg("plan did not load");
  }
  hp_diags_free(&d);
  return p;
}

static void test_metrics_scan(void **state)
{
  const char *plan_text = "app: {command: [x]}\n"
                          "metrics:\n"
                          "  - mean_kernel_ms\n"
                          "  - {name: proxy, pattern: 'proxy=([0-9.eE+-]+)'}\n"
                          "  - {name: gbps, pattern: 'bw ([^ ]+) GB/s', better: higher}\n"
                          "passes: [normal]\n";
  const char *out = "progress mean_kernel_ms=9.5\n"
                    "bw 12.5 GB/s\n"
                    "mean_kernel_ms=0.0185488 other=1\n"
                    "bw oops GB/s\n"            /* matches but is no number: keeps 12.5 */
                    "mean_kernel_ms=0.0187840"; /* last line without a newline: counts */
  hp__metrics *m = NULL;
  hp_plan *p = plan_from(plan_text);
  hp_diags d;
  double v[3];

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp__metrics_new(p, &m, &d), 0);
  hp__metrics_scan(m, out, strlen(out), v);
  assert_true(v[0] == 0.0187840); /* the last match wins */
  assert_true(isnan(v[1]));       /* never printed */
  assert_true(v[2] == 12.5);
  assert_true(p->metrics[2].higher_is_better);
  hp__metrics_scan(m, "", 0, v);
  assert_true(isnan(v[0]) && isnan(v[1]) && isnan(v[2]));
  hp__metrics_free(m);
  hp_plan_free(p);
  hp_diags_free(&d);
}

/* A session with a baseline and passes whose runs carry the given primary-metric values. */
static hp_session *session(size_t npasses, const char *const *names, const double *const *vals,
                           const size_t *nvals)
{
  hp_session *s = calloc(1, sizeof(*s));
  size_t i, k;

  assert_non_null(s);
  s->warn = 0.05;
  s->fail = -1;
  s->alpha = 0.05;
  s->seed = 1;
  s->complete = 1;
  s->npasses = npasses;
  s->passes = calloc(npasses, sizeof(*s->passes));
  for (i = 0; i < npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    assert_int_equal(hp__pass_result_init(pr, 1), 0);
    pr->name = hp__strdup(names[i]);
    pr->mode = hp__strdup(i == 0 ? "normal" : names[i]);
    pr->metrics[0].name = hp__strdup("t");
    pr->is_baseline = i == 0;
    pr->runs = calloc(nvals[i] + 1, sizeof(*pr->runs));
    for (k = 0; k < nvals[i]; k++) {
      hp_run *r = &pr->runs[pr->nruns++];
      r->index = (int)k + 1;
      r->values = malloc(sizeof(double));
      r->values[0] = vals[i][k];
      r->ok = !isnan(vals[i][k]);
      r->dir = hp__asprintf("%s/%zu", names[i], k + 1);
    }
  }
  return s;
}

static void test_flags(void **state)
{
  static const double base[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};
  static const double same[] = {1.01, 0.99, 1.00, 1.02, 0.98, 1.00};
  static const double slow[] = {1.10, 1.11, 1.09, 1.10, 1.12, 1.08}; /* +10%, separated */
  static const double slow3[] = {1.10, 1.11, 1.09};                  /* +10%, 3 runs */
  static const double huge[] = {80.0, 79.5, 80.2, 79.9, 80.1, 80.0}; /* 80x */
  static const double miss[] = {1.0, NAN, 1.0, 1.0, 1.0, 1.0};       /* a run printed nothing */
  const char *names[] = {"normal", "same", "slow", "slow3", "pmc", "broken"};
  const double *vals[] = {base, same, slow, slow3, huge, miss};
  size_t n[] = {6, 6, 6, 3, 6, 6};
  hp_session *s = session(6, names, vals, n);

  (void)state;
  assert_int_equal(hp__session_analyze(s, NULL), 0);
  assert_int_equal(s->passes[0].flag, HP_FLAG_BASELINE);
  assert_int_equal(s->passes[1].flag, HP_FLAG_OK);
  assert_int_equal(s->passes[2].flag, HP_FLAG_PERTURBED);
  assert_int_equal(s->passes[2].metrics[0].sig, HP_SIG_YES);
  assert_true(fabs(s->passes[2].metrics[0].ratio - 1.10) < 1e-9);
  /* 3 runs against 6: the test can reach 0.05 (2/C(9,3) = 0.024) and the shift is clean. */
  assert_int_equal(s->passes[3].flag, HP_FLAG_PERTURBED);
  assert_int_equal(s->passes[4].flag, HP_FLAG_DISTORTED);
  assert_non_null(strstr(s->passes[4].advice, "never quote"));
  assert_int_equal(s->passes[5].flag, HP_FLAG_FAILED);
  assert_non_null(strstr(s->passes[5].advice, "printed no value"));
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_RUNFAIL);
  hp_session_free(s);
}

static void test_unconfirmed_and_thresholds(void **state)
{
  static const double base2[] = {1.00, 1.01};
  static const double slow2[] = {1.10, 1.11};
  static const double base[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};
  static const double slow[] = {1.10, 1.11, 1.09, 1.10, 1.12, 1.08};
  static const double huge[] = {80.0, 79.5, 80.2, 79.9, 80.1, 80.0};
  const char *names2[] = {"normal", "slow"};
  const double *vals2[] = {base2, slow2};
  size_t n2[] = {2, 2};
  const char *names[] = {"normal", "slow", "pmc"};
  const double *vals[] = {base, slow, huge};
  size_t n[] = {6, 6, 6};
  hp_session *s = session(2, names2, vals2, n2);

  (void)state;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->passes[1].flag, HP_FLAG_UNCONFIRMED); /* 2 runs: cannot tell */
  assert_int_equal(s->passes[1].metrics[0].sig, HP_SIG_UNKNOWN);
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  hp_session_free(s);

  /* fail = 5%: the significant +10% trips it; the 80x pass trips it too unless expected. */
  s = session(3, names, vals, n);
  s->fail = 0.05;
  hp__session_analyze(s, NULL);
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_THRESHOLD);
  s->passes[1].metrics[0].sig = HP_SIG_NO; /* shown to be noise: never a CI failure */
  s->passes[2].expect_distorted = 1;       /* PMC: reported, never a failure */
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  s->interrupted = 1;
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_INTERRUPTED);
  hp_session_free(s);
}

static void test_higher_is_better(void **state)
{
  /* A bandwidth that halves under a profiler is a 2x slowdown: distorted. */
  static const double base[] = {100, 101, 99, 100, 100};
  static const double half[] = {50, 50.5, 49.5, 50, 50};
  const char *names[] = {"normal", "trace"};
  const double *vals[] = {base, half};
  size_t n[] = {5, 5};
  hp_session *s = session(2, names, vals, n);

  (void)state;
  s->passes[0].metrics[0].higher_is_better = s->passes[1].metrics[0].higher_is_better = 1;
  hp__session_analyze(s, NULL);
  assert_true(fabs(s->passes[1].metrics[0].ratio - 0.5) < 1e-9);
  assert_int_equal(s->passes[1].flag, HP_FLAG_DISTORTED);
  hp_session_free(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_metrics_scan),
      cmocka_unit_test(test_flags),
      cmocka_unit_test(test_unconfirmed_and_thresholds),
      cmocka_unit_test(test_higher_is_better),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
