/*
 * Tests of hprun compare (lib/analyze/compare.c computes, lib/report/md/compare_md.c renders) on
 * sessions built here by hand: a metric 30% slower over enough runs is a regression, the same
 * session against itself has none, and the tolerance, direction, run count, a pass only in the
 * new session and everything only in the old one each give the verdict written literally below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/results.h"
#include "util/base/buf.h"

/* One pass of a hand-built session: its name, its one metric and that metric's counted values. */
typedef struct {
  const char *name;
  const char *metric;
  int higher_is_better;
  double tolerance; /* < 0: unset */
  const double *values;
  size_t n;
} pass_spec;

/* A session with the given passes (the first is the baseline), analysed as hprun run would. */
static hp_session *session(const char *name, const pass_spec *ps, size_t npasses)
{
  hp_session *s = calloc(1, sizeof(*s));
  size_t i, k;

  assert_non_null(s);
  s->name = hp__strdup(name);
  s->warn = 0.05;
  s->fail = -1;
  s->alpha = 0.05;
  s->seed = 1;
  s->complete = 1;
  s->npasses = npasses;
  s->passes = calloc(npasses, sizeof(*s->passes));
  assert_non_null(s->passes);
  for (i = 0; i < npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    assert_int_equal(hp__pass_result_init(pr, 1), 0);
    pr->name = hp__strdup(ps[i].name);
    pr->mode = hp__strdup(i == 0 ? "normal" : "stats");
    pr->is_baseline = i == 0;
    pr->metrics[0].name = hp__strdup(ps[i].metric);
    pr->metrics[0].higher_is_better = ps[i].higher_is_better;
    pr->runs = calloc(ps[i].n + 1, sizeof(*pr->runs));
    assert_non_null(pr->runs);
    for (k = 0; k < ps[i].n; k++) {
      hp_run *r = &pr->runs[pr->nruns++];
      r->index = (int)k + 1;
      r->values = malloc(sizeof(double));
      r->values[0] = ps[i].values[k];
      r->ok = 1;
      r->dir = hp__asprintf("%s/%zu", ps[i].name, k + 1);
    }
  }
  assert_int_equal(hp__session_analyze(s, NULL), 0);
  /* The analysis fills the tolerance from a plan only; a session read back keeps its own. */
  for (i = 0; i < npasses; i++)
    s->passes[i].metrics[0].tolerance = ps[i].tolerance;
  return s;
}

static const double base6[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98}; /* median 1.00 */
static const double slow6[] = {1.30, 1.31, 1.29, 1.30, 1.32, 1.28}; /* median 1.30: +30% */
static const double fast6[] = {0.70, 0.71, 0.69, 0.70, 0.72, 0.68}; /* median 0.70: -30% */
static const double near6[] = {1.02, 1.03, 1.01, 1.02, 1.04, 1.00}; /* median 1.02: +2% */
static const double base2[] = {1.00, 1.01};
static const double slow2[] = {1.30, 1.31};
static const hp_compare_opts opts = {.tolerance = 0.05, .alpha = 0.05, .seed = 1};

static void assert_contains(const char *text, const char *want)
{
  if (strstr(text, want) == NULL)
    fail_msg("expected to find\n%s\nin\n%s", want, text);
}

static void test_regression(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, slow6, 6}};
  hp_session *a = session("old", old_p, 1), *b = session("new", new_p, 1);
  hp__comparison c;
  size_t nreg = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.nrows, 1);
  assert_int_equal(c.rows[0].change, HP__CHANGE_REGRESSION);
  assert_string_equal(c.rows[0].pass, "normal");
  assert_string_equal(c.rows[0].metric, "t");
  assert_true(c.rows[0].old_median == 1.00 && c.rows[0].new_median == 1.30);
  assert_int_equal(c.rows[0].n_old, 6);
  assert_int_equal(c.rows[0].n_new, 6);
  assert_true(c.rows[0].ci_lo > 1.0); /* every resample is slower */
  assert_true(c.rows[0].p < 0.05);
  assert_int_equal(c.nregressions, 1);
  assert_int_equal(c.nunconfirmed, 0);
  hp__comparison_free(&c);
  assert_null(c.rows);

  assert_int_equal(hp_compare(a, b, &opts, &md, &nreg), 0);
  assert_int_equal(nreg, 1);
  assert_contains(md, "## hprun compare: `old` → `new`\n\n");
  assert_contains(md, "Tolerance: each metric's own from the plan, else 5%; alpha 0.05.");
  assert_contains(md, "\n| normal | t | 1 | 1.3 | +30.00% | [");
  assert_contains(md, " | 6/6 | 5% (default) | **regression** |\n");
  assert_contains(md, "\n1 regression(s).\n");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* The built-in wall_ms as the only (so the primary) metric is judged like any metric: a slower
 * wall time is a regression, not a note. */
static void test_wall_primary_regresses(void **state)
{
  const pass_spec old_p[] = {{"normal", "wall_ms", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "wall_ms", 0, -1, slow6, 6}};
  hp_session *a = session("old", old_p, 1), *b = session("new", new_p, 1);
  hp__comparison c;

  (void)state;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.nrows, 1);
  assert_false(c.rows[0].note_only);
  assert_int_equal(c.rows[0].change, HP__CHANGE_REGRESSION);
  assert_int_equal(c.nregressions, 1);
  hp__comparison_free(&c);
  hp_session_free(a);
  hp_session_free(b);
}

static void test_identical(void **state)
{
  const pass_spec p[] = {{"normal", "t", 0, -1, base6, 6}, {"stats", "t", 0, -1, slow6, 6}};
  hp_session *a = session("same", p, 2);
  size_t nreg = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp_compare(a, a, &opts, &md, &nreg), 0);
  assert_int_equal(nreg, 0);
  assert_contains(md, "\n| normal | t | 1 | 1 | +0.00% | ");
  assert_contains(md, "\n| stats | t | 1.3 | 1.3 | +0.00% | ");
  assert_contains(md, " | 6/6 | 5% (default) | unchanged |\n");
  assert_null(strstr(md, "regression**"));
  assert_contains(md, "\n0 regression(s).\n");
  free(md);
  hp_session_free(a);
}

/* Faster is an improvement; for a higher-is-better metric a larger value is; a metric's own
 * tolerance can make a significant +30% acceptable; +2% is within the default 5%. */
static void test_direction_and_tolerance(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6},
                             {"rate", "gbps", 1, -1, base6, 6},
                             {"loose", "t", 0, -1, base6, 6},
                             {"near", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, fast6, 6},
                             {"rate", "gbps", 1, -1, slow6, 6},
                             {"loose", "t", 0, 0.5, slow6, 6},
                             {"near", "t", 0, -1, near6, 6}};
  hp_session *a = session("old", old_p, 4), *b = session("new", new_p, 4);
  size_t nreg = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp_compare(a, b, &opts, &md, &nreg), 0);
  assert_int_equal(nreg, 0);
  assert_contains(md, "\n| normal | t | 1 | 0.7 | -30.00% | ");
  assert_contains(md, "\n| rate | gbps | 1 | 1.3 | +30.00% | ");
  assert_contains(md, "\n| loose | t | 1 | 1.3 | +30.00% | ");
  assert_contains(md, "\n| near | t | 1 | 1.02 | +2.00% | ");
  assert_contains(md, " | 6/6 | 5% (default) | improved |\n| rate |");
  assert_contains(md, " | 6/6 | 5% (default) | improved |\n| loose |");
  assert_contains(md, " | 6/6 | 50% (plan) | unchanged |\n| near |");
  assert_contains(md, "\n0 regression(s).\n");
  free(md);

  /* Read the other way round, `normal` (0.7 -> 1) and `rate` (1.3 -> 1, higher is better) are
   * regressions; `loose` keeps the default tolerance, since the tolerance is the new plan's. */
  assert_int_equal(hp_compare(b, a, &opts, &md, &nreg), 0);
  assert_int_equal(nreg, 2);
  assert_contains(md, "\n| normal | t | 0.7 | 1 | +42.86% | ");
  assert_contains(md, "\n| rate | gbps | 1.3 | 1 | -23.08% | ");
  assert_contains(md, " | 6/6 | 5% (default) | **regression** |\n| rate |");
  assert_contains(md, " | 6/6 | 5% (default) | **regression** |\n| loose |");
  assert_contains(md, " | 6/6 | 5% (default) | improved |\n| near |");
  assert_contains(md, "\n2 regression(s).\n");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* Two runs cannot show significance: a +30% is worse but unconfirmed, never a regression (a note
 * says so). A pass only in the new session is listed; a metric only in the new session is left
 * out, but the old metric it replaced is missing from NEW, and that fails. */
static void test_unconfirmed_and_new(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base2, 2}, {"other", "t", 0, -1, base2, 2}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, slow2, 2},
                             {"other", "u", 0, -1, slow2, 2},
                             {"extra", "t", 0, -1, slow2, 2}};
  hp_session *a = session("old", old_p, 2), *b = session("new", new_p, 3);
  hp__comparison c;
  size_t nreg = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.nrows, 3);
  assert_int_equal(c.rows[0].change, HP__CHANGE_UNCONFIRMED);
  /* 2 against 2 fully separated: 2 of the C(4, 2) = 6 rank assignments are this extreme. */
  assert_true(fabs(c.rows[0].p - 2.0 / 6.0) < 1e-12);
  /* ... and no interval: two runs are too few for one. */
  assert_true(isnan(c.rows[0].ci_lo) && isnan(c.rows[0].ci_hi));
  assert_int_equal(c.rows[1].change, HP__CHANGE_NEW_PASS);
  assert_string_equal(c.rows[1].pass, "extra");
  assert_null(c.rows[1].metric);
  assert_int_equal(c.rows[2].change, HP__CHANGE_MISSING);
  assert_string_equal(c.rows[2].pass, "other");
  assert_string_equal(c.rows[2].metric, "t");
  assert_int_equal(c.nmissing, 1);
  assert_int_equal(c.nfailures, 1);
  hp__comparison_free(&c);

  assert_int_equal(hp_compare(a, b, &opts, &md, &nreg), 0);
  assert_int_equal(nreg, 1);
  assert_contains(md,
                  "\n| normal | t | 1.005 | 1.305 | +29.85% | - | 2/2 | 5% (default) | "
                  "unconfirmed (too few runs) |\n");
  assert_null(strstr(md, "| other | u |"));
  assert_contains(md, "\n| extra | - | - | - | - | - | - | - | new pass |\n");
  assert_contains(md, "\n| other | t | 1.005 | - | - | - | 2/0 | - | **MISSING in NEW** |\n");
  assert_contains(md,
                  "\n0 regression(s); 1 item(s) of OLD missing from NEW; 1 change(s) beyond the "
                  "tolerance could not be tested: run at least 3 repeats per pass.\n\n"
                  "- note: normal: t +29.85%, tolerance 5% (default): worse than the tolerance, "
                  "but 2 and 2 run(s) are too few to test it: not counted (use repeat >= 5)\n"
                  "- fail: other: metric t is missing from NEW\n"
                  "- note: extra: only in NEW: nothing to compare\n");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* A pass removed and a metric that printed nothing in NEW: each is a failure naming what is
 * missing, however the rest compares; --allow-missing turns them into notes. */
static void test_missing(void **state)
{
  static const double none6[] = {NAN, NAN, NAN, NAN, NAN, NAN};
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6},
                             {"stats", "t", 0, -1, base6, 6},
                             {"pmc", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, base6, 6}, {"stats", "t", 0, -1, none6, 6}};
  hp_session *a = session("old", old_p, 3), *b = session("new", new_p, 2);
  hp_compare_opts allow = opts;
  size_t nfail = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp_compare(a, b, &opts, &md, &nfail), 0);
  assert_int_equal(nfail, 2);
  assert_contains(md, "\n| stats | t | 1 | - | - | - | 6/6 | - | **MISSING in NEW** |\n");
  assert_contains(md, "\n| pmc | - | - | - | - | - | - | - | **MISSING in NEW** |\n");
  assert_contains(md,
                  "\n0 regression(s); 2 item(s) of OLD missing from NEW.\n\n"
                  "- fail: stats: t has no value in NEW (OLD median 1)\n"
                  "- fail: pmc: missing from NEW (OLD has this pass)\n");
  free(md);

  allow.allow_missing = 1;
  assert_int_equal(hp_compare(a, b, &allow, &md, &nfail), 0);
  assert_int_equal(nfail, 0);
  assert_contains(md,
                  "\n0 regression(s); 2 item(s) of OLD missing from NEW (allowed).\n\n"
                  "- note: stats: t has no value in NEW (OLD median 1); allowed by "
                  "--allow-missing\n"
                  "- note: pmc: missing from NEW (OLD has this pass); allowed by "
                  "--allow-missing\n");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* A change of exactly the tolerance is not beyond it, although 1.05 / 1.0 - 1 is
 * 0.050000000000000044 in binary: runs without spread make the interval the single point +5%,
 * which lies inside --tolerance 5%, so the change is unchanged, not inconclusive or a regression.
 * With spread, the same +5% median straddles the tolerance: inconclusive. */
static void test_exact_tolerance(void **state)
{
  static const double one6[] = {1, 1, 1, 1, 1, 1}, b5[] = {1.05, 1.05, 1.05, 1.05, 1.05, 1.05};
  static const double o21[] = {0.02, 0.02, 0.02, 0.02, 0.02, 0.02};
  static const double n21[] = {0.021, 0.021, 0.021, 0.021, 0.021, 0.021};
  static const double s5[] = {1.05, 1.06, 1.04, 1.05, 1.07, 1.03}; /* median 1.05 */
  const pass_spec old_p[] = {{"normal", "t", 0, -1, one6, 6},
                             {"small", "t", 0, -1, o21, 6},
                             {"spread", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {
      {"normal", "t", 0, -1, b5, 6}, {"small", "t", 0, -1, n21, 6}, {"spread", "t", 0, -1, s5, 6}};
  hp_session *a = session("old", old_p, 3), *b = session("new", new_p, 3);
  hp__comparison c;

  (void)state;
  assert_true(1.05 / 1.0 - 1.0 > 0.05); /* the rounding the tolerance is there for */
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.nrows, 3);
  assert_true(c.rows[0].ratio - 1.0 > 0.05 && c.rows[1].ratio - 1.0 > 0.05);
  assert_true(c.rows[0].ci_lo == c.rows[0].ratio && c.rows[0].ci_hi == c.rows[0].ratio);
  assert_int_equal(c.rows[0].change, HP__CHANGE_UNCHANGED);
  assert_int_equal(c.rows[1].change, HP__CHANGE_UNCHANGED);
  assert_true(c.rows[2].ci_lo < 1.05 && c.rows[2].ci_hi > 1.05);
  assert_int_equal(c.rows[2].change, HP__CHANGE_INCONCLUSIVE);
  assert_int_equal(c.ninconclusive, 1);
  assert_int_equal(c.nfailures, 0);
  hp__comparison_free(&c);
  hp_session_free(a);
  hp_session_free(b);
}

/* Sessions of different plans: another name is refused. Another version of the same plan (another
 * hash; in CI the plan changes with the code) is the same plan: the comparison sets what both
 * measured side by side, and notes the change of hash and of a pass's mode. */
static void test_same_plan(void **state)
{
  const pass_spec p[] = {{"normal", "t", 0, -1, base6, 6}, {"stats", "t", 0, -1, base6, 6}};
  hp_session *a = session("va", p, 2), *b = session("va", p, 2), *c = session("vb", p, 2);
  hp__comparison cmp;
  char *why = NULL;
  int same = -1;

  (void)state;
  assert_int_equal(hp_compare_same_plan(a, b, &same, &why), 0);
  assert_int_equal(same, 1);
  assert_null(why);
  a->plan_sha256 = hp__strdup("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  b->plan_sha256 = hp__strdup("fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
  assert_int_equal(hp_compare_same_plan(a, b, &same, &why), 0);
  assert_int_equal(same, 1);
  assert_null(why);
  free(b->passes[1].mode);
  b->passes[1].mode = hp__strdup("pmc");
  assert_int_equal(hp__compare_sessions(a, b, &opts, &cmp), 0);
  assert_int_equal(cmp.nfailures, 0);
  assert_int_equal(cmp.ncauses, 2);
  assert_null(cmp.causes[0].pass);
  assert_string_equal(cmp.causes[0].text,
                      "the plan changed between OLD and NEW (sha256 0123456789ab… and "
                      "fedcba987654…): compared what both measured");
  assert_string_equal(cmp.causes[1].pass, "stats");
  assert_string_equal(cmp.causes[1].text, "its mode changed from stats to pmc: compared anyway");
  hp__comparison_free(&cmp);
  assert_int_equal(hp_compare_same_plan(a, c, &same, &why), 0);
  assert_int_equal(same, 0);
  assert_string_equal(why, "OLD is session `va` and NEW is session `vb`: different plans");
  free(why);
  hp_session_free(a);
  hp_session_free(b);
  hp_session_free(c);
}

static const double tight6[] = {1.000, 1.001, 0.999, 1.000, 1.002, 0.998}; /* median 1 */
static const double tight8[] = {1.080, 1.081, 1.079, 1.080, 1.082, 1.078}; /* median 1.08 */

/* A pass that expects distortion (or is flagged distorted) moving 8% is reported, with a note,
 * but does not fail the comparison; --all-passes gates it. The baseline's 8% fails either way. */
static void test_distorted_not_gated(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, tight6, 6},
                             {"pmc", "t", 0, -1, tight6, 6},
                             {"ncu", "t", 0, -1, tight6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, tight6, 6},
                             {"pmc", "t", 0, -1, tight8, 6},
                             {"ncu", "t", 0, -1, tight8, 6}};
  hp_session *a = session("old", old_p, 3), *b = session("new", new_p, 3);
  hp_compare_opts all = opts;
  size_t nfail = 99;
  char *md = NULL;

  (void)state;
  a->passes[1].expect_distorted = b->passes[1].expect_distorted = 1;
  b->passes[2].flag = HP_FLAG_DISTORTED;
  assert_int_equal(hp_compare(a, b, &opts, &md, &nfail), 0);
  assert_int_equal(nfail, 0);
  assert_contains(md, "\n| pmc | t | 1 | 1.08 | +8.00% | [");
  assert_contains(md, " | 6/6 | 5% (default) | **regression** (distorted pass: not gated) |\n");
  assert_contains(md, "\n0 regression(s).\n");
  assert_contains(md, "- note: pmc: t +8.00%, tolerance 5% (default), 95% CI [");
  assert_contains(md,
                  ": a regression of a distorted pass, reported but not gated (its time is an "
                  "attribution; --all-passes gates it)\n");
  assert_contains(md, "- note: ncu: t +8.00%");
  free(md);

  all.all_passes = 1;
  assert_int_equal(hp_compare(a, b, &all, &md, &nfail), 0);
  assert_int_equal(nfail, 2);
  assert_contains(md, "\n2 regression(s).\n");
  assert_contains(md, "- fail: pmc: t +8.00%, tolerance 5% (default), 95% CI [");
  free(md);

  /* The same 8% on the baseline is performance: it fails without --all-passes. */
  hp_session_free(b);
  {
    const pass_spec slow_base[] = {{"normal", "t", 0, -1, tight8, 6}};
    b = session("new", slow_base, 1);
  }
  assert_int_equal(hp_compare(a, b, &opts, &md, &nfail), 0);
  assert_int_equal(nfail, 3); /* the regression, and pmc and ncu missing from NEW */
  assert_contains(md, "- fail: normal: t +8.00%, tolerance 5% (default), 95% CI [");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* The command line's tolerance wins over a metric's own in the plan, and each row says which one
 * applied: +30% against the plan's 50% is unchanged... until --tolerance 5% is given. */
static void test_tolerance_precedence(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6}, {"other", "u", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, 0.5, slow6, 6}, {"other", "u", 0, -1, slow6, 6}};
  hp_session *a = session("old", old_p, 2), *b = session("new", new_p, 2);
  hp_compare_opts cli = opts;
  hp__comparison c;

  (void)state;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.rows[0].tol_source, HP__TOL_PLAN);
  assert_true(c.rows[0].tolerance == 0.5);
  assert_int_equal(c.rows[0].change, HP__CHANGE_UNCHANGED);
  assert_int_equal(c.rows[1].tol_source, HP__TOL_DEFAULT);
  assert_int_equal(c.rows[1].change, HP__CHANGE_REGRESSION);
  assert_int_equal(c.nfailures, 1);
  hp__comparison_free(&c);

  cli.tolerance = 0.05;
  cli.tolerance_given = 1;
  assert_int_equal(hp__compare_sessions(a, b, &cli, &c), 0);
  assert_int_equal(c.rows[0].tol_source, HP__TOL_COMMAND_LINE);
  assert_true(c.rows[0].tolerance == 0.05);
  assert_int_equal(c.rows[0].change, HP__CHANGE_REGRESSION);
  assert_int_equal(c.nfailures, 2);
  assert_string_equal(c.causes[0].pass, "normal");
  assert_non_null(strstr(c.causes[0].text, "t +30.00%, tolerance 5% (command line), 95% CI ["));
  hp__comparison_free(&c);
  hp_session_free(a);
  hp_session_free(b);
}

/* A metric whose old median is 0 has no relative change: without abs_tolerance it is "no data"
 * with a note that says how to gate it; with abs_tolerance 1e-4, going from 0 to about 1e-3 is a
 * regression, and staying near 0 is unchanged. */
static void test_abs_tolerance(void **state)
{
  static const double zero6[] = {0, 0, 0, 0, 0, 0};
  static const double err6[] = {1e-3, 1.1e-3, 0.9e-3, 1e-3, 1.2e-3, 0.8e-3};
  static const double tiny6[] = {0, 1e-6, 0, 2e-6, 0, 1e-6};
  const pass_spec old_p[] = {{"normal", "err", 0, -1, zero6, 6}, {"b", "err", 0, -1, zero6, 6}};
  const pass_spec new_p[] = {{"normal", "err", 0, -1, err6, 6}, {"b", "err", 0, -1, tiny6, 6}};
  hp_session *a = session("old", old_p, 2), *b = session("new", new_p, 2);
  hp_compare_opts cli = opts;
  hp__comparison c;
  size_t nfail = 99;
  char *md = NULL;

  (void)state;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.rows[0].change, HP__CHANGE_NO_DATA);
  assert_int_equal(c.nfailures, 0);
  assert_string_equal(c.causes[0].text,
                      "err: the old median is 0, so a relative change is undefined: give the "
                      "metric an abs_tolerance: in the plan to gate it");
  hp__comparison_free(&c);

  b->passes[0].metrics[0].abs_tolerance = b->passes[1].metrics[0].abs_tolerance = 1e-4;
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.rows[0].tol_source, HP__TOL_PLAN_ABS);
  assert_int_equal(c.rows[0].change, HP__CHANGE_REGRESSION);
  assert_true(c.rows[0].ci_lo >= 0.8e-3 && c.rows[0].ci_hi <= 1.2e-3); /* the difference's */
  assert_int_equal(c.rows[1].change, HP__CHANGE_UNCHANGED);
  assert_int_equal(c.nfailures, 1);
  hp__comparison_free(&c);
  /* --tolerance does not replace an absolute tolerance: the row keeps abs 0.0001. */
  cli.tolerance = 0.5;
  cli.tolerance_given = 1;
  assert_int_equal(hp__compare_sessions(a, b, &cli, &c), 0);
  assert_int_equal(c.rows[0].tol_source, HP__TOL_PLAN_ABS);
  assert_int_equal(c.rows[0].change, HP__CHANGE_REGRESSION);
  hp__comparison_free(&c);
  assert_int_equal(hp_compare(a, b, &opts, &md, &nfail), 0);
  assert_contains(md, "\n| normal | err | 0 | 0.001 | +0.001 | [");
  assert_contains(md, " | 6/6 | abs 0.0001 (plan) | **regression** |\n");
  free(md);
  hp_session_free(a);
  hp_session_free(b);
}

/* --pass and --metric keep only what they name, in the rows and in the missing check; an
 * inconclusive change is a note, and a failure under --strict. */
static void test_filters_and_strict(void **state)
{
  static const double s5[] = {1.05, 1.06, 1.04, 1.05, 1.07, 1.03}; /* +5% with spread */
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6},
                             {"stats", "t", 0, -1, base6, 6},
                             {"gone", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, s5, 6}, {"stats", "t", 0, -1, slow6, 6}};
  hp_session *a = session("old", old_p, 3), *b = session("new", new_p, 2);
  const char *const only_normal[] = {"normal"}, *const only_u[] = {"u"};
  hp_compare_opts f = opts;
  hp__comparison c;

  (void)state;
  f.passes = only_normal;
  f.npasses = 1;
  assert_int_equal(hp__compare_sessions(a, b, &f, &c), 0);
  assert_int_equal(c.nrows, 1);
  assert_string_equal(c.rows[0].pass, "normal");
  assert_int_equal(c.rows[0].change, HP__CHANGE_INCONCLUSIVE);
  assert_int_equal(c.nfailures, 0);
  assert_int_equal(c.ncauses, 1);
  assert_int_equal(c.causes[0].kind, HP_CAUSE_NOTE);
  assert_non_null(strstr(c.causes[0].text,
                         ": inconclusive, the interval straddles the tolerance "
                         "(not counted; --strict fails it; more runs would "
                         "tell)"));
  hp__comparison_free(&c);

  f.strict = 1;
  assert_int_equal(hp__compare_sessions(a, b, &f, &c), 0);
  assert_int_equal(c.nfailures, 1);
  assert_int_equal(c.causes[0].kind, HP_CAUSE_REGRESSION);
  assert_non_null(strstr(c.causes[0].text, "(failed by --strict; more runs would tell)"));
  hp__comparison_free(&c);

  /* A metric no pass has: nothing compared, nothing missing (the command refuses such a name). */
  f = opts;
  f.metrics = only_u;
  f.nmetrics = 1;
  assert_int_equal(hp__compare_sessions(a, b, &f, &c), 0);
  assert_int_equal(c.nrows, 0);
  assert_int_equal(c.nfailures, 0);
  hp__comparison_free(&c);

  /* Without filters: stats regresses and `gone` is missing. */
  assert_int_equal(hp__compare_sessions(a, b, &opts, &c), 0);
  assert_int_equal(c.nfailures, 2);
  hp__comparison_free(&c);
  hp_session_free(a);
  hp_session_free(b);
}

/* The JUnit file: one testcase per compared pass and metric, a <failure> typed by the cause's
 * kind for what fails, and the verdict, tolerance and notes as <system-out>. */
static void test_junit(void **state)
{
  const pass_spec old_p[] = {{"normal", "t", 0, -1, base6, 6},
                             {"stats", "t", 0, -1, base6, 6},
                             {"gone", "t", 0, -1, base6, 6}};
  const pass_spec new_p[] = {{"normal", "t", 0, -1, base6, 6}, {"stats", "t", 0, -1, slow6, 6}};
  hp_session *a = session("va", old_p, 3), *b = session("va", new_p, 2);
  char *xml = NULL;

  (void)state;
  assert_int_equal(hp_compare_junit(a, b, &opts, &xml), 0);
  assert_contains(xml, "<testsuite name=\"hprun.compare.va\" tests=\"3\" failures=\"2\"");
  assert_contains(xml,
                  "<testcase classname=\"hprun.compare.va.normal\" name=\"t\" time=\"0\">\n"
                  "      <system-out>verdict=unchanged old=1 new=1 change=+0.00% ci=[");
  assert_contains(xml,
                  "<testcase classname=\"hprun.compare.va.stats\" name=\"t\" time=\"0\">\n"
                  "      <failure type=\"regression\" message=\"t +30.00%, tolerance 5% "
                  "(default), 95% CI [");
  assert_contains(xml, " tolerance=5% (default)</system-out>");
  assert_contains(xml,
                  "<testcase classname=\"hprun.compare.va.gone\" name=\"(pass)\" "
                  "time=\"0\">\n      <failure type=\"missing\" message=\"missing from NEW "
                  "(OLD has this pass)\"/>\n      <system-out>verdict=missing</system-out>");
  free(xml);
  hp_session_free(a);
  hp_session_free(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_regression),
      cmocka_unit_test(test_wall_primary_regresses),
      cmocka_unit_test(test_identical),
      cmocka_unit_test(test_direction_and_tolerance),
      cmocka_unit_test(test_unconfirmed_and_new),
      cmocka_unit_test(test_missing),
      cmocka_unit_test(test_exact_tolerance),
      cmocka_unit_test(test_same_plan),
      cmocka_unit_test(test_distorted_not_gated),
      cmocka_unit_test(test_tolerance_precedence),
      cmocka_unit_test(test_abs_tolerance),
      cmocka_unit_test(test_filters_and_strict),
      cmocka_unit_test(test_junit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
