/*
 * Metrics from a run's stdout, flags, advice, verdicts, causes and exit codes (lib/analyze/
 * metric.c, results.c, variants.c, causes.c, flags.c), on results built by hand so every rule is
 * exercised exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/metric.h"
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "util/base/buf.h"

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

/* Scans `text` as a run's stdout arrives: through a pipe (the text is far below a pipe's buffer,
 * so it is written whole before the read). */
static void scan_text(const hp__metrics *m, const char *text, double *v)
{
  size_t len = strlen(text);
  char path[32];
  int fds[2];

  assert_int_equal(pipe(fds), 0);
  assert_int_equal(write(fds[1], text, len), (ssize_t)len);
  close(fds[1]);
  snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
  assert_int_equal(hp__metrics_scan_path(m, path, v, NULL, NULL), 0);
  close(fds[0]);
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
  scan_text(m, out, v);
  assert_true(v[0] == 0.0187840); /* the last match wins */
  assert_true(isnan(v[1]));       /* never printed */
  assert_true(v[2] == 12.5);
  assert_true(p->metrics[2].higher_is_better);
  scan_text(m, "", v);
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
  /* medians 1.005 and 1.105: +9.95%, in percent as the table shows it. */
  assert_non_null(strstr(s->passes[1].advice, "+9.95% from 2 run(s): too few runs"));
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  hp_session_free(s);

  /* 79.75 / 1.005 from 2 runs reads in x, the table's unit, not as +7835%. */
  vals2[1] = huge;
  s = session(2, names2, vals2, n2);
  hp__session_analyze(s, NULL);
  assert_int_equal(s->passes[1].flag, HP_FLAG_UNCONFIRMED);
  assert_non_null(strstr(s->passes[1].advice, "79.35x from 2 run(s)"));
  hp_session_free(s);

  /* fail = 5%: the significant +10% trips it; the 80x pass trips it too unless expected. */
  s = session(3, names, vals, n);
  s->fail = 0.05;
  hp__session_analyze(s, NULL);
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_THRESHOLD);
  s->passes[1].metrics[0].ci_lo = 1.0; /* an interval that straddles fail: never a CI failure */
  s->passes[2].expect_distorted = 1;   /* PMC: reported, never a failure */
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

/* An interval end of exactly `warn` is not beyond it, although both 1.05 / 1.0 - 1 and
 * 0.021 / 0.02 - 1 are 0.050000000000000044 in binary: runs that repeat one value give an
 * interval of that one ratio, ok by the tolerance (perturbed without it). */
static void test_exact_warn(void **state)
{
  static const double base[] = {1.00, 1.00, 1.00, 1.00, 1.00, 1.00};
  static const double up5[] = {1.05, 1.05, 1.05, 1.05, 1.05, 1.05};
  static const double small_base[] = {0.02, 0.02, 0.02, 0.02, 0.02, 0.02};
  static const double small_up5[] = {0.021, 0.021, 0.021, 0.021, 0.021, 0.021};
  const char *names[] = {"normal", "stats"};
  const double *vals[] = {base, up5}, *small[] = {small_base, small_up5};
  size_t n[] = {6, 6};
  hp_session *s = session(2, names, vals, n);

  (void)state;
  hp__session_analyze(s, NULL);
  assert_true(s->passes[1].metrics[0].ratio - 1.0 > 0.05);
  assert_true(fabs(s->passes[1].metrics[0].ci_lo - 1.05) < 1e-12);
  assert_int_equal(s->passes[1].flag, HP_FLAG_OK);
  hp_session_free(s);

  s = session(2, names, small, n);
  hp__session_analyze(s, NULL);
  assert_true(s->passes[1].metrics[0].ratio == 0.021 / 0.02);
  assert_int_equal(s->passes[1].flag, HP_FLAG_OK);
  /* Exactly `fail` does not trip it either. */
  s->fail = 0.05;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->ncauses, 0);
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  hp_session_free(s);
}

/* +2.5% with 3% noise, 6 runs each: the interval straddles warn, so the pass is inconclusive (the
 * "not significant" reading would have called it ok), its advice gives the interval and a run
 * count, and only --strict makes it fail. */
static void test_inconclusive(void **state)
{
  static const double base[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};
  static const double up5[] = {1.02, 1.08, 0.97, 1.03, 1.06, 0.99};
  const char *names[] = {"normal", "stats"};
  const double *vals[] = {base, up5};
  size_t n[] = {6, 6};
  hp_session *s = session(2, names, vals, n);

  (void)state;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->passes[1].flag, HP_FLAG_INCONCLUSIVE);
  assert_string_equal(hp_flag_name(s->passes[1].flag), "inconclusive");
  assert_true(s->passes[1].metrics[0].ci_lo < 1.05 && s->passes[1].metrics[0].ci_hi > 1.05);
  assert_non_null(strstr(s->passes[1].advice, "straddles warn (5.0%)"));
  assert_non_null(strstr(s->passes[1].advice, "runs per pass would likely resolve it"));
  assert_non_null(strstr(s->passes[1].advice, "its 95% interval"));
  assert_int_equal(s->ncauses, 0);
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  /* Under `repeat: auto` with 6 looks the interval is at 1 - 0.05 / 6 = 99.17%, and the advice
   * names that level, not 95% (an H200 session printed "95%" here before). */
  s->looks = 6;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->passes[1].flag, HP_FLAG_INCONCLUSIVE);
  assert_non_null(strstr(s->passes[1].advice, "its 99.17% interval"));
  s->looks = 1;
  s->strict = 1;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->ncauses, 1);
  assert_int_equal(s->causes[0].kind, HP_CAUSE_THRESHOLD);
  assert_non_null(strstr(s->causes[0].text, "is inconclusive (strict)"));
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_THRESHOLD);
  hp_session_free(s);
}

/* The line every report prints for cause c. */
static void assert_cause(const hp_cause *c, hp_cause_kind kind, const char *pass, const char *text)
{
  assert_int_equal(c->kind, kind);
  assert_string_equal(c->pass, pass);
  assert_string_equal(c->text, text);
}

/* Every exit code has its causes: the significant slowdown beyond `fail` (with its p), the failed
 * run; an `expect: distorted` pass and a slowdown shown to be noise have none; a slowdown beyond
 * `fail` that too few runs could test is a note and never fails. */
static void test_causes(void **state)
{
  static const double base[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};
  static const double slow[] = {1.10, 1.11, 1.09, 1.10, 1.12, 1.08};
  static const double huge[] = {80.0, 79.5, 80.2, 79.9, 80.1, 80.0};
  static const double miss[] = {1.0, NAN, 1.0, 1.0, 1.0, 1.0};
  static const double base2[] = {1.00, 1.01};
  static const double slow2[] = {1.30, 1.31};
  const char *names[] = {"normal", "slow", "pmc", "broken"};
  const double *vals[] = {base, slow, huge, miss};
  size_t n[] = {6, 6, 6, 6};
  const char *names2[] = {"normal", "slow"};
  const double *vals2[] = {base2, slow2};
  size_t n2[] = {2, 2};
  hp_session *s = session(3, names, vals, n);

  (void)state;
  s->fail = 0.05;
  s->passes[2].expect_distorted = 1;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->ncauses, 1);
  /* 6 against 6: P(U <= 5) = 0.0206 <= 0.025 < P(U <= 6), so the 95% interval runs from the 6th
   * smallest to the 6th largest of the 36 ratios b / a: 1.09 / 1.01 and 1.11 / 0.99 (checked by
   * enumerating all 924 rank assignments in Python), printed in the change's unit: +7.92%, +12.1%. */
  assert_cause(&s->causes[0], HP_CAUSE_THRESHOLD, "slow",
               "t +10.00% > fail 5% (interval [+7.92%, +12.1%])");
  assert_true(hp_cause_fails(s->causes[0].kind));
  assert_string_equal(hp_cause_kind_name(s->causes[0].kind), "threshold");
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_THRESHOLD);
  hp_session_free(s);

  s = session(4, names, vals, n);
  s->fail = 0.05;
  s->passes[2].expect_distorted = 1;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->ncauses, 2);
  assert_cause(&s->causes[1], HP_CAUSE_RUN_FAILED, "broken",
               "run 2 printed no value for the primary metric; check the metric pattern against "
               "broken/2/stdout.txt");
  assert_string_equal(hp_cause_kind_name(s->causes[1].kind), "run-failed");
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_RUNFAIL);
  hp_session_free(s);

  /* Two runs: +30% is beyond fail 5%, but cannot be tested: a note, exit 0. */
  s = session(2, names2, vals2, n2);
  s->fail = 0.05;
  hp__session_analyze(s, NULL);
  assert_int_equal(s->passes[1].flag, HP_FLAG_UNCONFIRMED);
  assert_int_equal(s->ncauses, 1);
  assert_cause(&s->causes[0], HP_CAUSE_NOTE, "slow",
               "t +29.85% is beyond fail 5%, but 2 run(s) against the baseline's 2 are too few "
               "for an interval: the fail gate was not evaluated (use repeat >= 5)");
  assert_false(hp_cause_fails(s->causes[0].kind));
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_OK);
  hp_session_free(s);
}

/* A candidate outside a gate is rejected and fails the session (docs/plan.md, `gates`), with the
 * gate named in its cause; a candidate exactly at the gate's limit passes it. */
static void test_gate_fails(void **state)
{
  static const double base[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};
  static const double fast[] = {0.90, 0.91, 0.89, 0.90, 0.92, 0.88};
  static const double up2[] = {1.02, 1.03, 1.01, 1.02, 1.04, 1.00};
  const char *names[] = {"normal", "ref", "fast", "edge"};
  const double *vals[] = {base, base, fast, up2};
  size_t n[] = {6, 6, 6, 6};
  hp_plan *p =
      plan_from("app: {command: [x]}\nmetrics: [t]\npasses: [normal]\n"
                "variants:\n  - {name: ref, command: [x]}\n  - {name: fast, command: [y]}\n"
                "  - {name: edge, command: [z]}\n"
                "gates:\n  - {metric: t, max_rel_delta: 0.02}\n");
  hp_session *s = session(4, names, vals, n);
  size_t i;

  (void)state;
  for (i = 1; i < 4; i++)
    s->passes[i].is_variant = 1;
  s->passes[1].is_reference = 1;
  hp__session_analyze(s, p);
  assert_string_equal(s->passes[2].verdict, "rejected (numerics)");
  /* The change with its interval in percent (no p): each end of a ratio of medians of resamples
   * lies between min(fast) / max(base) = 0.88 / 1.02 (-13.7%) and 0.92 / 0.98 (-6.12%), and the
   * interval holds the point, -10%. */
  {
    double lo = 0, hi = 0;
    int used = 0;
    assert_int_equal(sscanf(s->passes[2].advice, "t -10.00%% [%lf%%, %lf%%]%n", &lo, &hi, &used),
                     2);
    assert_true(lo >= -13.73 && lo < -10 && hi > -10 && hi <= -6.12);
    assert_string_equal(s->passes[2].advice + used,
                        "; t moved by -0.1 against the reference (gate: |rel| <= 0.02): the "
                        "candidate changes the answer");
  }
  /* 1.02 / 1.0 - 1 is 0.020000000000000018: exactly at the limit, which is within it. */
  assert_string_not_equal(s->passes[3].verdict, "rejected (numerics)");
  assert_int_equal(s->ncauses, 1);
  assert_cause(&s->causes[0], HP_CAUSE_GATE, "fast",
               "rejected (numerics): t moved by -0.1 against the reference (gate: |rel| <= 0.02)");
  assert_int_equal(hp__session_exit_code(s), HP_EXIT_THRESHOLD);
  hp_session_free(s);
  hp_plan_free(p);
}

/* A session read back from a file is not trusted to have the same metrics in every pass: a pass
 * with more metrics than the baseline compares only those the baseline has, and no run's values
 * are read past its own pass's count (ASan, in `make asan`, would report the read). */
static void test_more_metrics_than_baseline(void **state)
{
  static const double base[] = {1.00, 1.01, 0.99};
  static const double slow[] = {1.10, 1.11, 1.09};
  static const char *const names[] = {"normal", "stats"};
  static const double *const vals[] = {base, slow};
  static const size_t nvals[] = {3, 3};
  hp_session *s = session(2, names, vals, nvals);
  hp_pass_result *pr = &s->passes[1];
  double *v = NULL;
  size_t k;

  (void)state;
  pr->metrics = realloc(pr->metrics, 2 * sizeof(*pr->metrics));
  assert_non_null(pr->metrics);
  pr->metrics[1] = pr->metrics[0];
  pr->metrics[1].name = hp__strdup("u");
  pr->nmetrics = 2;
  for (k = 0; k < pr->nruns; k++) {
    pr->runs[k].values = realloc(pr->runs[k].values, 2 * sizeof(double));
    assert_non_null(pr->runs[k].values);
    pr->runs[k].values[1] = 5.0;
  }
  /* The baseline's runs have one value each: metric 1 reads as none, for every counted run. */
  assert_int_equal(hp__counted_values(&s->passes[0], 1, &v), 3);
  assert_true(isnan(v[0]) && isnan(v[1]) && isnan(v[2]));
  free(v);
  assert_int_equal(hp__session_analyze(s, NULL), 0);
  assert_true(fabs(pr->metrics[0].ratio - 1.10) < 1e-12);
  assert_true(isnan(pr->metrics[1].ratio));
  assert_int_equal(pr->metrics[1].sig, HP_SIG_UNKNOWN);
  assert_true(pr->metrics[1].st.median == 5.0);
  hp_session_free(s);
}

/* A run without a folder (possible in the model, refused by the summary.json reader) is passed
 * over when a pass's profile is parsed: the next run with one stands for the pass. */
static void test_profiles_skip_runs_without_dir(void **state)
{
  static const double base[] = {1.00, 1.01};
  static const char *const names[] = {"normal", "stats"};
  static const double *const vals[] = {base, base};
  static const size_t nvals[] = {2, 2};
  hp_session *s = session(2, names, vals, nvals);
  hp_diags d;

  (void)state;
  s->dir = hp__strdup("/nonexistent-hprun-session");
  hp_diags_init(&d);
  /* No run with a folder: no profile. */
  free(s->passes[1].runs[0].dir);
  free(s->passes[1].runs[1].dir);
  s->passes[1].runs[0].dir = s->passes[1].runs[1].dir = NULL;
  hp__session_parse_profiles(s, NULL, 0, NULL, &d);
  assert_null(s->passes[1].profile);
  /* The second run has one: it is parsed (its folder is missing, which the diagnostics say). */
  s->passes[1].runs[1].dir = hp__strdup("stats/2");
  hp__session_parse_profiles(s, NULL, 0, NULL, &d);
  assert_non_null(s->passes[1].profile);
  assert_null(s->passes[0].profile); /* the baseline is never profiled */
  hp_diags_free(&d);
  hp_session_free(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_metrics_scan),
      cmocka_unit_test(test_flags),
      cmocka_unit_test(test_unconfirmed_and_thresholds),
      cmocka_unit_test(test_higher_is_better),
      cmocka_unit_test(test_exact_warn),
      cmocka_unit_test(test_inconclusive),
      cmocka_unit_test(test_causes),
      cmocka_unit_test(test_gate_fails),
      cmocka_unit_test(test_more_metrics_than_baseline),
      cmocka_unit_test(test_profiles_skip_runs_without_dir),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
