/*
 * hprun compare OLD NEW, the numbers: every pass and variant present in both sessions, every
 * metric, tested as the overhead is (Mann-Whitney p and a bootstrap interval of the ratio of
 * medians). A change is a regression only when its whole interval lies beyond the tolerance, so
 * run-to-run noise does not fail CI (the complaint users have about hand-rolled gates, see
 * docs/ci.md), and it is unchanged only when its whole interval lies inside it: the rest is
 * inconclusive, never passed off as "no change". What OLD measured and NEW did not (a pass or variant removed, a metric renamed, a
 * metric that printed nothing) fails the comparison too: a slower NEW must not pass by losing the
 * number that would show it. The causes are worded in compare_causes.c; the Markdown table is
 * written by lib/report/md/compare_md.c and the JUnit file by lib/report/junit/junit_compare.c.
 */
#include "analyze/compare.h"
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hp_pass_result *find_pass(const hp_session *s, const char *name)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (strcmp(s->passes[i].name, name) == 0)
      return &s->passes[i];
  return NULL;
}

static long find_metric(const hp_pass_result *pr, const char *name)
{
  size_t i;

  for (i = 0; i < pr->nmetrics; i++)
    if (pr->metrics[i].name && strcmp(pr->metrics[i].name, name) == 0)
      return (long)i;
  return -1;
}

/* x beyond limit, both changes in the worse direction: relative changes with the threshold
 * tolerance on the ratio 1 + limit (hp_stats_beyond), differences with the same tolerance on the
 * limit itself, so that a change of exactly the tolerance is never beyond it. */
static int beyond(double x, double limit, int absolute)
{
  if (!absolute)
    return hp_stats_beyond(x, limit);
  return x > limit + limit * HP_STATS_REL_TOL;
}

/* The verdict from the worse-direction interval [lo, hi] (NaN: none) and the point change. */
static hp__change classify(double worse, double lo, double hi, double tol, int absolute)
{
  if (isnan(worse))
    return HP__CHANGE_NO_DATA;
  if (isnan(lo) || isnan(hi))
    return HP__CHANGE_UNCONFIRMED;
  if (beyond(lo, tol, absolute))
    return HP__CHANGE_REGRESSION;
  if (beyond(-hi, tol, absolute))
    return HP__CHANGE_IMPROVED;
  if (!beyond(hi, tol, absolute) && !beyond(-lo, tol, absolute))
    return HP__CHANGE_UNCHANGED;
  return HP__CHANGE_INCONCLUSIVE;
}

/* The row's tolerance and where it came from: the metric's absolute one, the command line, the
 * metric's own, the default. */
static void pick_tolerance(const hp_metric_result *m, const hp_compare_opts *o,
                           hp__compare_row *row)
{
  row->tol_source = HP__TOL_DEFAULT;
  row->tolerance = o->tolerance;
  /* An absolute tolerance is of another kind than --tolerance's fraction: it stays, since a
   * metric that can be 0 has no relative change for the command line's to apply to. */
  if (m->abs_tolerance >= 0) {
    row->tol_source = HP__TOL_PLAN_ABS;
    row->tolerance = m->abs_tolerance;
  } else if (o->tolerance_given) {
    row->tol_source = HP__TOL_COMMAND_LINE;
  } else if (m->tolerance >= 0) {
    row->tol_source = HP__TOL_PLAN;
    row->tolerance = m->tolerance;
  }
}

/* The change in the worse direction, its point value into row->worse and its interval into
 * *lo, *hi: a fraction from the ratio's interval, or a difference under an absolute tolerance
 * (whose interval is bootstrapped here, with the same seed and level as the ratio's). */
static int worse_interval(const double *a, const double *c, const hp_compare_opts *o,
                          hp__compare_row *row, double *lo, double *hi)
{
  double dlo = NAN, dhi = NAN;
  int r = 0;

  if (row->tol_source == HP__TOL_PLAN_ABS) {
    if (row->n_old >= HP_STATS_MIN_N && row->n_new >= HP_STATS_MIN_N)
      r = hp_stats_bootstrap_diff(a, row->n_old, c, row->n_new, 0, 1 - o->alpha, o->seed, &dlo,
                                  &dhi);
    row->ci_lo = dlo;
    row->ci_hi = dhi;
    row->worse = row->new_median - row->old_median;
    *lo = row->higher_is_better ? -dhi : dlo;
    *hi = row->higher_is_better ? -dlo : dhi;
    if (row->higher_is_better)
      row->worse = -row->worse;
    return r;
  }
  row->worse = row->higher_is_better ? 1.0 / row->ratio - 1.0 : row->ratio - 1.0;
  *lo = row->higher_is_better ? 1.0 / row->ci_hi - 1.0 : row->ci_lo - 1.0;
  *hi = row->higher_is_better ? 1.0 / row->ci_lo - 1.0 : row->ci_hi - 1.0;
  return 0;
}

/* Metric om of the old pass against metric m of the new one, into row. */
static int compare_metric(const hp_pass_result *op, size_t om, const hp_pass_result *np, size_t m,
                          const hp_compare_opts *o, hp__compare_row *row)
{
  const hp_metric_result *old_m = &op->metrics[om], *new_m = &np->metrics[m];
  hp_significance sig = HP_SIG_UNKNOWN;
  double *a, *c, ratio, lo = NAN, hi = NAN;
  int r;

  row->n_old = hp__counted_values(op, om, &a);
  row->n_new = hp__counted_values(np, m, &c);
  if (a == NULL || c == NULL) {
    free(a);
    free(c);
    return HP_ENOMEM;
  }
  row->p = row->ci_lo = row->ci_hi = NAN;
  row->pass = np->name;
  row->metric = new_m->name;
  row->old_median = old_m->st.median;
  row->new_median = new_m->st.median;
  row->higher_is_better = new_m->higher_is_better;
  pick_tolerance(new_m, o, row);
  r = hp_stats_compare(a, row->n_old, c, row->n_new, o->alpha, o->seed, &sig, &ratio, &row->p,
                       &row->ci_lo, &row->ci_hi);
  /* The ratio of the stored medians, the figure the session's own report showed. */
  row->ratio = old_m->st.median != 0 ? new_m->st.median / old_m->st.median : NAN;
  if (r == 0)
    r = worse_interval(a, c, o, row, &lo, &hi);
  free(a);
  free(c);
  if (r == HP_ENOMEM)
    return r;
  row->change = classify(row->worse, lo, hi, row->tolerance, row->tol_source == HP__TOL_PLAN_ABS);
  /* OLD had a value and NEW has none: the metric is missing from NEW, not merely "no data". */
  if (row->change == HP__CHANGE_NO_DATA && !isnan(row->old_median) && isnan(row->new_median))
    row->change = HP__CHANGE_MISSING;
  row->note_only = m > 0 && new_m->name && strcmp(new_m->name, HP_WALL_METRIC) == 0;
  /* Times under a distorting profiler are attributions, not performance: shown, not gated. */
  row->distorted = np->expect_distorted || op->expect_distorted || np->flag == HP_FLAG_DISTORTED;
  row->gated = !row->distorted || o->all_passes;
  return 0;
}

static size_t max_rows(const hp_session *s)
{
  size_t i, n = 0;

  for (i = 0; i < s->npasses; i++)
    n += s->passes[i].nmetrics ? s->passes[i].nmetrics : 1;
  return n;
}

/* A row without a comparison: for something OLD has and NEW lacks (HP__CHANGE_MISSING), a pass
 * (metric NULL) or one metric of a pass, or for a pass only NEW has (HP__CHANGE_NEW_PASS). */
static void add_uncompared(hp__comparison *c, hp__change change, const char *pass,
                           const char *metric, double old_median, size_t n_old)
{
  hp__compare_row *row = &c->rows[c->nrows++];

  memset(row, 0, sizeof(*row));
  row->pass = pass;
  row->metric = metric;
  row->old_median = old_median;
  row->new_median = row->ratio = row->ci_lo = row->ci_hi = row->p = NAN;
  row->n_old = n_old;
  row->change = change;
}

/* Everything of old_s that new_s lacks: its passes, and the metrics of the passes both have, as
 * far as the filters look. */
static void find_missing(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *c)
{
  size_t i, m;

  for (i = 0; i < old_s->npasses; i++) {
    const hp_pass_result *op = &old_s->passes[i], *np = find_pass(new_s, op->name);
    if (!hp__compare_wanted(o->passes, o->npasses, op->name))
      continue;
    if (np == NULL) {
      if (o->nmetrics == 0)
        add_uncompared(c, HP__CHANGE_MISSING, op->name, NULL, NAN, 0);
      continue;
    }
    for (m = 0; m < op->nmetrics; m++)
      if (op->metrics[m].name && find_metric(np, op->metrics[m].name) < 0 &&
          hp__compare_wanted(o->metrics, o->nmetrics, op->metrics[m].name))
        add_uncompared(c, HP__CHANGE_MISSING, op->name, op->metrics[m].name,
                       op->metrics[m].st.median, op->metrics[m].st.n);
  }
}

/* The rows of pass np of NEW against op of OLD, into out. */
static int compare_pass(const hp_pass_result *op, const hp_pass_result *np,
                        const hp_compare_opts *o, hp__comparison *out)
{
  size_t m;
  int r;

  for (m = 0; m < np->nmetrics; m++) {
    long om = np->metrics[m].name ? find_metric(op, np->metrics[m].name) : -1;
    if (om < 0 || !hp__compare_wanted(o->metrics, o->nmetrics, np->metrics[m].name))
      continue;
    if ((r = compare_metric(op, (size_t)om, np, m, o, &out->rows[out->nrows])) != 0)
      return r;
    out->nrows++;
  }
  return 0;
}

static void count_rows(hp__comparison *c)
{
  size_t i;

  for (i = 0; i < c->nrows; i++) {
    const hp__compare_row *row = &c->rows[i];
    c->nmissing += row->change == HP__CHANGE_MISSING;
    if (row->note_only || !row->gated)
      continue;
    c->nregressions += row->change == HP__CHANGE_REGRESSION;
    c->ninconclusive += row->change == HP__CHANGE_INCONCLUSIVE;
    c->nunconfirmed += row->change == HP__CHANGE_UNCONFIRMED &&
        beyond(row->worse, row->tolerance, row->tol_source == HP__TOL_PLAN_ABS);
  }
}

int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out)
{
  size_t i;
  int r = 0;

  memset(out, 0, sizeof(*out));
  out->rows = calloc(max_rows(new_s) + max_rows(old_s) + 1, sizeof(*out->rows));
  if (out->rows == NULL)
    return HP_ENOMEM;
  for (i = 0; i < new_s->npasses && r == 0; i++) {
    const hp_pass_result *np = &new_s->passes[i], *op = find_pass(old_s, np->name);
    if (!hp__compare_wanted(o->passes, o->npasses, np->name))
      continue;
    if (op == NULL)
      add_uncompared(out, HP__CHANGE_NEW_PASS, np->name, NULL, NAN, 0);
    else
      r = compare_pass(op, np, o, out);
  }
  if (r == 0) {
    find_missing(old_s, new_s, o, out);
    count_rows(out);
    r = hp__compare_causes(old_s, new_s, o, out);
  }
  if (r != 0)
    hp__comparison_free(out);
  return r;
}

void hp__comparison_free(hp__comparison *c)
{
  if (c == NULL)
    return;
  free(c->rows);
  hp__causes_free(c->causes, c->ncauses);
  memset(c, 0, sizeof(*c));
}

/* Sessions of different plans measure different things: comparing them would call a changed plan
 * a regression (or hide one). Another version of the same plan (in CI the plan changes with the
 * code) is compared on what both measured; hp__compare_causes notes what changed. */
int hp_compare_same_plan(const hp_session *old_s, const hp_session *new_s, int *same, char **why)
{
  const char *a = old_s->name ? old_s->name : "?", *b = new_s->name ? new_s->name : "?";

  *same = 1;
  *why = NULL;
  if ((old_s->ncombos > 0) != (new_s->ncombos > 0)) {
    *same = 0;
    *why = hp__asprintf("%s is a parameter sweep and %s is not: compare two sweeps, or one "
                        "combination's folder (SWEEP/NAME) with the session",
                        old_s->ncombos ? "OLD" : "NEW", old_s->ncombos ? "NEW" : "OLD");
  } else if (strcmp(a, b) != 0) {
    *same = 0;
    *why = hp__asprintf("OLD is session `%s` and NEW is session `%s`: different plans", a, b);
  }
  return *same || *why ? 0 : HP_ENOMEM;
}
