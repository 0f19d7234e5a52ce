/*
 * hprun compare OLD NEW, the numbers: every pass and variant present in both sessions, every
 * metric, tested as the overhead is (Mann-Whitney p and a bootstrap interval of the ratio of
 * medians). A change is a regression only when it is significant AND worse than the tolerance, so
 * run-to-run noise does not fail CI (the complaint users have about hand-rolled gates, see
 * docs/ci.md). The Markdown table is written by lib/report/compare_md.c.
 */
#include "analyze/compare.h"
#include "analyze/results.h"

#include <math.h>
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
  if (isnan(worse))
    return HP__CHANGE_NO_DATA;
  if (worse > tol && sig == HP_SIG_YES)
    return HP__CHANGE_REGRESSION;
  if (worse > tol && sig == HP_SIG_UNKNOWN)
    return HP__CHANGE_UNCONFIRMED;
  if (worse < -tol && sig == HP_SIG_YES)
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
  return 0;
}

static size_t max_rows(const hp_session *s)
{
  size_t i, n = 0;

  for (i = 0; i < s->npasses; i++)
    n += s->passes[i].nmetrics ? s->passes[i].nmetrics : 1;
  return n;
}

int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out)
{
  size_t i, m;
  int r;

  memset(out, 0, sizeof(*out));
  out->rows = calloc(max_rows(new_s) + 1, sizeof(*out->rows));
  if (out->rows == NULL)
    return HP_ENOMEM;
  for (i = 0; i < new_s->npasses; i++) {
    const hp_pass_result *np = &new_s->passes[i], *op = find_pass(old_s, np->name);
    if (op == NULL) {
      hp__compare_row *row = &out->rows[out->nrows++];
      row->pass = np->name;
      row->old_median = row->new_median = row->ratio = NAN;
      row->ci_lo = row->ci_hi = row->p = NAN;
      row->change = HP__CHANGE_NEW_PASS;
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
      out->nregressions += row->change == HP__CHANGE_REGRESSION;
      out->nunconfirmed += row->change == HP__CHANGE_UNCONFIRMED;
    }
  }
  return 0;
}

void hp__comparison_free(hp__comparison *c)
{
  if (c == NULL)
    return;
  free(c->rows);
  memset(c, 0, sizeof(*c));
}
