/*
 * hprun compare OLD NEW, the words: the cause each row of lib/analyze/compare.c gives (a `fail:`
 * that sets exit 1, or a `note:`), and the notes on what changed between the two plans. Every
 * report of the comparison (the Markdown, JUnit) renders these, so they are worded once, here.
 */
#include "analyze/compare.h"
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tol_source_names[] = {"default", "plan", "plan", "command line"};

char *hp__compare_tol_text(const hp__compare_row *row, char *buf, size_t len)
{
  char x[32];

  if (row->tol_source == HP__TOL_PLAN_ABS)
    snprintf(buf, len, "abs %s (plan)", hp__fmt_num(x, sizeof(x), row->tolerance));
  else
    snprintf(buf, len, "%.3g%% (%s)", row->tolerance * 100, tol_source_names[row->tol_source]);
  return buf;
}

char *hp__compare_change_text(const hp__compare_row *row, char *buf, size_t len)
{
  char x[32];

  if (row->tol_source == HP__TOL_PLAN_ABS) {
    double d = row->new_median - row->old_median;
    hp__fmt_num(x, sizeof(x), d);
    snprintf(buf, len, "%s%s", d > 0 ? "+" : "", isnan(d) ? "-" : x);
    return buf;
  }
  return hp__fmt_overhead(buf, len, row->ratio);
}

char *hp__compare_ci_text(const hp__compare_row *row, char *buf, size_t len)
{
  if (row->tol_source == HP__TOL_PLAN_ABS)
    return hp__fmt_change(buf, len, row->new_median - row->old_median, row->ci_lo, row->ci_hi,
                          HP__CHG_CI | HP__CHG_DIFF);
  return hp__fmt_change(buf, len, row->ratio, row->ci_lo, row->ci_hi, HP__CHG_CI);
}

/* "t +30.00%", "gbps -23.08% (1.30x slower)", or "err +0.001" under an absolute tolerance, then
 * the tolerance and where it came from, and the interval the verdict was read from. */
static void what_text(const hp__compare_row *row, double alpha, char *out, size_t len)
{
  char a[32], b[32], tol[48], ci[80];
  int n;

  hp__compare_change_text(row, a, sizeof(a));
  if (row->higher_is_better && row->tol_source != HP__TOL_PLAN_ABS)
    n = snprintf(out, len, "%s %s (%s slower)", row->metric, a,
                 hp__fmt_overhead(b, sizeof(b), 1.0 / row->ratio));
  else
    n = snprintf(out, len, "%s %s", row->metric, a);
  if (n < 0 || (size_t)n >= len)
    return;
  if (isnan(row->ci_lo))
    snprintf(out + n, len - (size_t)n, ", tolerance %s",
             hp__compare_tol_text(row, tol, sizeof(tol)));
  else
    snprintf(out + n, len - (size_t)n, ", tolerance %s, %.3g%% CI %s",
             hp__compare_tol_text(row, tol, sizeof(tol)), (1 - alpha) * 100,
             hp__compare_ci_text(row, ci, sizeof(ci)));
}

static char *missing_cause(const hp__compare_row *row, int allow_missing, hp_cause_kind *kind)
{
  const char *allowed = allow_missing ? "; allowed by --allow-missing" : "";
  char x[32];

  *kind = allow_missing ? HP_CAUSE_NOTE : HP_CAUSE_MISSING;
  if (row->metric == NULL)
    return hp__asprintf("missing from NEW (OLD has this pass)%s", allowed);
  if (!isnan(row->old_median) && row->n_old && row->n_new)
    return hp__asprintf("%s has no value in NEW (OLD median %s)%s", row->metric,
                        hp__fmt_num(x, sizeof(x), row->old_median), allowed);
  return hp__asprintf("metric %s is missing from NEW%s", row->metric, allowed);
}

/* The cause a change gives, if any: a regression fails when the row is gated; an inconclusive
 * change that could be a regression fails under --strict and is a note otherwise. */
static char *change_cause(const hp__compare_row *row, const hp_compare_opts *o, hp_cause_kind *kind)
{
  char what[256];
  int worse = row->worse > 0;

  what_text(row, o->alpha, what, sizeof(what));
  *kind = HP_CAUSE_NOTE;
  if (row->note_only)
    return row->change == HP__CHANGE_REGRESSION
        ? hp__asprintf("%s: worse, but wall time beside the app's own metric is a note "
                       "only",
                       what)
        : NULL;
  if (row->change == HP__CHANGE_REGRESSION && !row->gated)
    return hp__asprintf("%s: a regression of a distorted pass, reported but not gated (its "
                        "time is an attribution; --all-passes gates it)",
                        what);
  if (row->change == HP__CHANGE_REGRESSION) {
    *kind = HP_CAUSE_REGRESSION;
    return hp__asprintf("%s: regression", what); /* the interval above says why; no p anywhere */
  }
  if (row->change == HP__CHANGE_INCONCLUSIVE && worse && row->gated) {
    *kind = o->strict ? HP_CAUSE_REGRESSION : HP_CAUSE_NOTE;
    return hp__asprintf("%s: inconclusive, the interval straddles the tolerance (%s; more runs "
                        "would tell)",
                        what, o->strict ? "failed by --strict" : "not counted; --strict fails it");
  }
  if (row->change == HP__CHANGE_UNCONFIRMED && row->gated && row->worse > 0 &&
      (row->tol_source == HP__TOL_PLAN_ABS ? row->worse > row->tolerance
                                           : hp_stats_beyond(row->worse, row->tolerance)))
    return hp__asprintf("%s: worse than the tolerance, but %zu and %zu run(s) are too few to "
                        "test it: not counted (use repeat >= 5)",
                        what, row->n_old, row->n_new);
  if (row->change == HP__CHANGE_NO_DATA && row->old_median == 0 && !isnan(row->new_median))
    return hp__asprintf("%s: the old median is 0, so a relative change is undefined: give the "
                        "metric an abs_tolerance: in the plan to gate it",
                        row->metric);
  return NULL;
}

int hp__compare_wanted(const char *const *names, size_t n, const char *name)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (name && strcmp(names[i], name) == 0)
      return 1;
  return n == 0;
}

static int add(hp__comparison *c, hp_cause_kind kind, const char *pass, char *text)
{
  int r;

  if (text == NULL)
    return HP_ENOMEM;
  r = hp__cause_add(&c->causes, &c->ncauses, kind, pass, text);
  c->nfailures += r == 0 && hp_cause_fails(kind);
  free(text);
  return r;
}

static const hp_pass_result *pass_named(const hp_session *s, const char *name)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (strcmp(s->passes[i].name, name) == 0)
      return &s->passes[i];
  return NULL;
}

static int same_str(const char *a, const char *b)
{
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* What changed between the two plans, as notes: the plan's hash, and each compared pass whose
 * mode, tool or expectation differs (its numbers then measure another thing) or that only NEW
 * has. The comparison goes on over what both measured. */
static int plan_notes(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                      hp__comparison *c)
{
  size_t i;
  int r = 0;

  if (old_s->plan_sha256 && new_s->plan_sha256 &&
      strcmp(old_s->plan_sha256, new_s->plan_sha256) != 0)
    r = add(c, HP_CAUSE_NOTE, NULL,
            hp__asprintf("the plan changed between OLD and NEW (sha256 %.12s… and %.12s…): "
                         "compared what both measured",
                         old_s->plan_sha256, new_s->plan_sha256));
  for (i = 0; i < new_s->npasses && r == 0; i++) {
    const hp_pass_result *np = &new_s->passes[i], *op = pass_named(old_s, np->name);
    if (!hp__compare_wanted(o->passes, o->npasses, np->name))
      continue;
    if (op == NULL)
      r = add(c, HP_CAUSE_NOTE, np->name, hp__asprintf("only in NEW: nothing to compare"));
    else if (!same_str(op->mode, np->mode) || !same_str(op->tool, np->tool))
      r = add(c, HP_CAUSE_NOTE, np->name,
              hp__asprintf("its mode changed from %s%s%s to %s%s%s: compared anyway",
                           op->tool ? op->tool : "", op->tool ? " " : "", op->mode ? op->mode : "?",
                           np->tool ? np->tool : "", np->tool ? " " : "",
                           np->mode ? np->mode : "?"));
    else if (op->expect_distorted != np->expect_distorted)
      r = add(c, HP_CAUSE_NOTE, np->name,
              hp__asprintf("expect: distorted was %s in OLD and is %s in NEW",
                           op->expect_distorted ? "set" : "not set",
                           np->expect_distorted ? "set" : "not set"));
  }
  return r;
}

int hp__compare_causes(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                       hp__comparison *c)
{
  hp_cause_kind kind = HP_CAUSE_NOTE;
  size_t i;
  int r = 0;

  for (i = 0; i < c->nrows && r == 0; i++) {
    const hp__compare_row *row = &c->rows[i];
    char *text;
    c->rows[i].cause = -1;
    if (row->change == HP__CHANGE_NEW_PASS)
      continue;
    if (row->change == HP__CHANGE_MISSING)
      text = missing_cause(row, o->allow_missing, &kind);
    else if ((text = change_cause(row, o, &kind)) == NULL)
      continue;
    c->rows[i].cause = (long)c->ncauses;
    r = add(c, kind, row->pass, text);
  }
  return r ? r : plan_notes(old_s, new_s, o, c);
}
