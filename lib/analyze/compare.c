/*
 * hprun compare OLD NEW, the numbers: every pass and variant present in both sessions, every
 * metric, tested as the overhead is (Mann-Whitney p and a bootstrap interval of the ratio of
 * medians). A change is a regression only when it is significant AND worse than the tolerance, so
 * run-to-run noise does not fail CI (the complaint users have about hand-rolled gates, see
 * docs/ci.md). What OLD measured and NEW did not (a pass or variant removed, a metric renamed, a
 * metric that printed nothing) fails the comparison too: a slower NEW must not pass by losing the
 * number that would show it. The Markdown table is written by lib/report/md/compare_md.c.
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

/* What a change amounts to, from how much worse it is (> 0: worse, as a fraction) and whether
 * it is significant. */
static hp__change classify(double worse, double tol, hp_significance sig)
{
  /* With the threshold tolerance: a change of exactly the tolerance is within it. */
  int worse_beyond = hp_stats_beyond(worse, tol), better_beyond = hp_stats_beyond(-worse, tol);

  if (isnan(worse))
    return HP__CHANGE_NO_DATA;
  if (worse_beyond && sig == HP_SIG_YES)
    return HP__CHANGE_REGRESSION;
  if (worse_beyond && sig == HP_SIG_UNKNOWN)
    return HP__CHANGE_UNCONFIRMED;
  if (better_beyond && sig == HP_SIG_YES)
    return HP__CHANGE_IMPROVED;
  if (sig == HP_SIG_YES)
    return HP__CHANGE_WITHIN;
  return HP__CHANGE_NONE;
}

/* Metric om of the old pass against metric m of the new one, into row. */
static int compare_metric(const hp_pass_result *op, size_t om, const hp_pass_result *np, size_t m,
                          const hp_compare_opts *o, hp__compare_row *row)
{
  const hp_metric_result *old_m = &op->metrics[om], *new_m = &np->metrics[m];
  hp_significance sig = HP_SIG_UNKNOWN;
  double *a, *c, worse, tol, ratio;

  row->n_old = hp__counted_values(op, om, &a);
  row->n_new = hp__counted_values(np, m, &c);
  if (a == NULL || c == NULL) {
    free(a);
    free(c);
    return HP_ENOMEM;
  }
  row->p = row->ci_lo = row->ci_hi = NAN;
  hp_stats_compare(a, row->n_old, c, row->n_new, o->alpha, o->seed, &sig, &ratio, &row->p,
                   &row->ci_lo, &row->ci_hi);
  free(a);
  free(c);
  row->pass = np->name;
  row->metric = new_m->name;
  row->old_median = old_m->st.median;
  row->new_median = new_m->st.median;
  /* The ratio of the stored medians, the figure the session's own report showed. */
  row->ratio = old_m->st.median != 0 ? new_m->st.median / old_m->st.median : NAN;
  worse = new_m->higher_is_better ? 1.0 / row->ratio - 1.0 : row->ratio - 1.0;
  /* A metric's own tolerance in the (new) plan wins over the command line's default. */
  tol = new_m->tolerance >= 0 ? new_m->tolerance : o->tolerance;
  row->change = classify(worse, tol, sig);
  /* OLD had a value and NEW has none: the metric is missing from NEW, not merely "no data". */
  if (row->change == HP__CHANGE_NO_DATA && !isnan(row->old_median) && isnan(row->new_median))
    row->change = HP__CHANGE_MISSING;
  row->tolerance = tol;
  row->higher_is_better = new_m->higher_is_better;
  row->note_only = m > 0 && new_m->name && strcmp(new_m->name, HP_WALL_METRIC) == 0;
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

/* Everything of old_s that new_s lacks: its passes, and the metrics of the passes both have. */
static void find_missing(const hp_session *old_s, const hp_session *new_s, hp__comparison *c)
{
  size_t i, m;

  for (i = 0; i < old_s->npasses; i++) {
    const hp_pass_result *op = &old_s->passes[i], *np = find_pass(new_s, op->name);
    if (np == NULL) {
      add_uncompared(c, HP__CHANGE_MISSING, op->name, NULL, NAN, 0);
      continue;
    }
    for (m = 0; m < op->nmetrics; m++)
      if (op->metrics[m].name && find_metric(np, op->metrics[m].name) < 0)
        add_uncompared(c, HP__CHANGE_MISSING, op->name, op->metrics[m].name,
                       op->metrics[m].st.median, op->metrics[m].st.n);
  }
}

/* "t +30.00%", or for a higher-is-better metric "gbps -23.08% (1.30x slower)". */
static void change_text(const hp__compare_row *row, char *out, size_t len)
{
  char a[32], b[32];

  hp__fmt_overhead(a, sizeof(a), row->ratio);
  if (row->higher_is_better)
    snprintf(out, len, "%s %s (%s slower)", row->metric, a,
             hp__fmt_overhead(b, sizeof(b), 1.0 / row->ratio));
  else
    snprintf(out, len, "%s %s", row->metric, a);
}

/* The cause a row gives, if any: its kind in *kind and its text (NULL when none). */
static char *row_cause(const hp__compare_row *row, int allow_missing, hp_cause_kind *kind)
{
  char what[160], x[32];

  if (row->change == HP__CHANGE_MISSING) {
    *kind = allow_missing ? HP_CAUSE_NOTE : HP_CAUSE_MISSING;
    if (row->metric == NULL)
      return hp__asprintf("missing from NEW (OLD has this pass)%s",
                          allow_missing ? "; allowed by --allow-missing" : "");
    if (!isnan(row->old_median) && row->n_old && row->n_new)
      return hp__asprintf("%s has no value in NEW (OLD median %s)%s", row->metric,
                          hp__fmt_num(x, sizeof(x), row->old_median),
                          allow_missing ? "; allowed by --allow-missing" : "");
    return hp__asprintf("metric %s is missing from NEW%s", row->metric,
                        allow_missing ? "; allowed by --allow-missing" : "");
  }
  if (row->change != HP__CHANGE_REGRESSION && row->change != HP__CHANGE_UNCONFIRMED)
    return NULL;
  change_text(row, what, sizeof(what));
  if (row->note_only) {
    *kind = HP_CAUSE_NOTE;
    return hp__asprintf("%s is worse than the tolerance %.3g%%: wall time beside the app's own "
                        "metric, a note only",
                        what, row->tolerance * 100);
  }
  if (row->change == HP__CHANGE_REGRESSION) {
    *kind = HP_CAUSE_REGRESSION;
    return hp__asprintf("%s > tolerance %.3g%% (p=%.3g)", what, row->tolerance * 100, row->p);
  }
  *kind = HP_CAUSE_NOTE;
  return hp__asprintf("%s is worse than the tolerance %.3g%%, but %zu and %zu run(s) are too few "
                      "to test it: not counted (use repeat >= 5)",
                      what, row->tolerance * 100, row->n_old, row->n_new);
}

static int add_causes(hp__comparison *c, int allow_missing)
{
  hp_cause_kind kind = HP_CAUSE_NOTE;
  size_t i;
  int r = 0;

  for (i = 0; i < c->nrows && r == 0; i++) {
    char *text = row_cause(&c->rows[i], allow_missing, &kind);
    if (text == NULL)
      continue;
    r = hp__cause_add(&c->causes, &c->ncauses, kind, c->rows[i].pass, text);
    c->nfailures += r == 0 && hp_cause_fails(kind);
    free(text);
  }
  return r;
}

int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out)
{
  size_t i, m;
  int r;

  memset(out, 0, sizeof(*out));
  out->rows = calloc(max_rows(new_s) + max_rows(old_s) + 1, sizeof(*out->rows));
  if (out->rows == NULL)
    return HP_ENOMEM;
  for (i = 0; i < new_s->npasses; i++) {
    const hp_pass_result *np = &new_s->passes[i], *op = find_pass(old_s, np->name);
    if (op == NULL) {
      add_uncompared(out, HP__CHANGE_NEW_PASS, np->name, NULL, NAN, 0);
      continue;
    }
    for (m = 0; m < np->nmetrics; m++) {
      long om = np->metrics[m].name ? find_metric(op, np->metrics[m].name) : -1;
      hp__compare_row *row = &out->rows[out->nrows];
      if (om < 0)
        continue;
      if ((r = compare_metric(op, (size_t)om, np, m, o, row)) != 0) {
        hp__comparison_free(out);
        return r;
      }
      out->nrows++;
    }
  }
  find_missing(old_s, new_s, out);
  for (i = 0; i < out->nrows; i++) {
    if (out->rows[i].note_only)
      continue;
    out->nregressions += out->rows[i].change == HP__CHANGE_REGRESSION;
    out->nunconfirmed += out->rows[i].change == HP__CHANGE_UNCONFIRMED;
    out->nmissing += out->rows[i].change == HP__CHANGE_MISSING;
  }
  if ((r = add_causes(out, o->allow_missing)) != 0)
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
 * a regression (or hide one). The first 12 hex digits name a plan well enough for a person. */
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
  } else if (old_s->plan_sha256 && new_s->plan_sha256 &&
             strcmp(old_s->plan_sha256, new_s->plan_sha256) != 0) {
    *same = 0;
    *why = hp__asprintf("OLD and NEW ran different versions of plan `%s` (sha256 %.12s… and "
                        "%.12s…)",
                        a, old_s->plan_sha256, new_s->plan_sha256);
  }
  return *same || *why ? 0 : HP_ENOMEM;
}
