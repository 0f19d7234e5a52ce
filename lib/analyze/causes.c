/*
 * Why a session fails: one cause per pass that decides the exit code, and the notes that say
 * where a gate could not be evaluated. This is the one place that decides them; the terminal,
 * report.md, JUnit and summary.json only render s->causes, and the exit code is derived from the
 * same decision (pass_cause), so a report can never disagree with the exit status. The rules are
 * in docs/ci.md ("What fails a session").
 */
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hp_cause_kind_name(hp_cause_kind k)
{
  switch (k) {
  case HP_CAUSE_RUN_FAILED: return "run-failed";
  case HP_CAUSE_THRESHOLD: return "threshold";
  case HP_CAUSE_GATE: return "gate";
  case HP_CAUSE_REGRESSION: return "regression";
  case HP_CAUSE_MISSING: return "missing";
  case HP_CAUSE_REFERENCE: return "reference";
  case HP_CAUSE_NOTE: return "note";
  }
  return NULL;
}

int hp_cause_fails(hp_cause_kind k)
{
  return k != HP_CAUSE_NOTE;
}

/* The interval of the slowdown of m (NaN ends when there is none). */
static void slowdown_ends(const hp_metric_result *m, double *lo, double *hi)
{
  *lo = m->higher_is_better ? 1.0 / m->ci_hi : m->ci_lo;
  *hi = m->higher_is_better ? 1.0 / m->ci_lo : m->ci_hi;
}

/* The decision: whether pass pr has a cause, and of which kind. A failed run decides first; an
 * A/B candidate fails when a gate rejected it; a profiling pass fails when the whole interval of
 * its slowdown lies beyond `fail`, and gets a note when the interval (or, without one, the
 * estimate) reaches beyond `fail` but does not lie wholly beyond it (never a failure unless
 * strict: an interval that straddles the line is not evidence). `expect: distorted` passes, the
 * baseline and the reference never trip `fail`. */
static int pass_cause(const hp_session *s, const hp_pass_result *pr, hp_cause_kind *kind)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  double lo, hi;
  size_t i, counted = 0;

  /* A pass none of whose runs counted (the session was interrupted before or during them, or its
   * build failed) is skipped, not failed: the session's own state explains it. */
  for (i = 0; i < pr->nruns; i++)
    counted += !pr->runs[i].warmup && !pr->runs[i].interrupted;
  if (counted == 0)
    return 0;
  if (pr->flag == HP_FLAG_FAILED) {
    *kind = HP_CAUSE_RUN_FAILED;
    return 1;
  }
  if (pr->is_variant) {
    *kind = HP_CAUSE_GATE;
    return !pr->is_reference && pr->verdict && strcmp(pr->verdict, "rejected (numerics)") == 0;
  }
  if (m == NULL || pr->is_baseline || pr->expect_distorted)
    return 0;
  /* Strict: a pass whose interval straddles warn, or reaches beyond `fail` without lying wholly
   * beyond it, is one the data cannot place, and fails instead of passing quietly. */
  if (s->strict && (pr->flag == HP_FLAG_INCONCLUSIVE || pr->flag == HP_FLAG_UNCONFIRMED)) {
    *kind = HP_CAUSE_THRESHOLD;
    return 1;
  }
  if (s->fail <= 0)
    return 0;
  slowdown_ends(m, &lo, &hi);
  /* The gate fails when the whole interval lies beyond `fail` (the lower end of the slowdown). */
  if (hp_stats_beyond(lo - 1.0, s->fail)) {
    *kind = HP_CAUSE_THRESHOLD;
    return 1;
  }
  /* Straddling `fail`, or beyond it with no interval: not evidence either way. */
  if (!hp_stats_beyond((isnan(hi) ? hp__slowdown(m) : hi) - 1.0, s->fail))
    return 0;
  *kind = s->strict ? HP_CAUSE_THRESHOLD : HP_CAUSE_NOTE;
  return 1;
}

/* "t +31.20%", or for a higher-is-better metric "gbps -23.08% (1.30x slower)". */
static void change_text(const hp_metric_result *m, char *out, size_t len)
{
  char a[32], b[32];

  hp__fmt_overhead(a, sizeof(a), m->ratio);
  if (m->higher_is_better)
    snprintf(out, len, "%s %s (%s slower)", m->name ? m->name : "metric", a,
             hp__fmt_overhead(b, sizeof(b), hp__slowdown(m)));
  else
    snprintf(out, len, "%s %s", m->name ? m->name : "metric", a);
}

/* The text of pass pr's cause of the given kind. */
static char *cause_text(const hp_session *s, const hp_plan *plan, const hp_pass_result *pr,
                        hp_cause_kind kind)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  const hp_pass_result *ref = NULL, *base = s->npasses ? &s->passes[s->baseline] : NULL;
  char what[160], iv[64], *why, *text;
  double lo, hi;
  size_t i;

  if (kind == HP_CAUSE_RUN_FAILED)
    return hp__strdup(pr->advice ? pr->advice : "a run failed");
  if (kind == HP_CAUSE_GATE) {
    for (i = 0; i < s->npasses; i++)
      if (s->passes[i].is_reference)
        ref = &s->passes[i];
    why = plan && ref ? hp__gate_breach(plan, ref, pr) : NULL;
    text = hp__asprintf("rejected (numerics): %s", why ? why : "outside a numeric gate");
    free(why);
    return text;
  }
  change_text(m, what, sizeof(what));
  slowdown_ends(m, &lo, &hi);
  if (kind == HP_CAUSE_THRESHOLD && s->fail > 0 && hp_stats_beyond(lo - 1.0, s->fail))
    return hp__asprintf("%s > fail %.3g%% (interval %s)", what, s->fail * 100,
                        hp__fmt_change(iv, sizeof(iv), hp__slowdown(m), lo, hi, HP__CHG_CI));
  if (kind == HP_CAUSE_THRESHOLD)
    return hp__asprintf("%s is %s (strict): %s", what,
                        pr->flag == HP_FLAG_INCONCLUSIVE      ? "inconclusive"
                            : pr->flag == HP_FLAG_UNCONFIRMED ? "unconfirmed"
                                                              : "not placed",
                        pr->advice ? pr->advice : "the interval reaches beyond fail");
  if (isnan(lo))
    return hp__asprintf("%s is beyond fail %.3g%%, but %zu run(s) against the baseline's %zu are "
                        "too few for an interval: the fail gate was not evaluated (use repeat >= "
                        "5)",
                        what, s->fail * 100, m->st.n,
                        base && base->nmetrics ? base->metrics[0].st.n : 0);
  return hp__asprintf("%s: its interval %s straddles fail %.3g%%: the fail gate is "
                      "inconclusive (more runs, or --strict to fail on it)",
                      what, hp__fmt_change(iv, sizeof(iv), hp__slowdown(m), lo, hi, HP__CHG_CI),
                      s->fail * 100);
}

int hp__session_causes(const hp_session *s, const hp_plan *plan, hp_cause **out, size_t *n)
{
  hp_cause_kind kind;
  size_t i;
  int r = 0;

  *out = NULL;
  *n = 0;
  for (i = 0; i < s->npasses && r == 0; i++) {
    char *text;
    if (!pass_cause(s, &s->passes[i], &kind))
      continue;
    text = cause_text(s, plan, &s->passes[i], kind);
    r = text ? hp__cause_add(out, n, kind, s->passes[i].name, text) : HP_ENOMEM;
    free(text);
  }
  if (r == 0 && plan)
    r = hp__reference_causes(s, plan, out, n);
  if (r) {
    hp__causes_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  return r;
}

int hp__session_exit_code(const hp_session *s)
{
  hp_cause_kind kind;
  size_t i;
  int threshold = 0;

  if (s->interrupted)
    return HP_EXIT_INTERRUPTED;
  if (s->error)
    return HP_EXIT_RUNFAIL;
  for (i = 0; i < s->npasses; i++) {
    if (!pass_cause(s, &s->passes[i], &kind))
      continue;
    if (kind == HP_CAUSE_RUN_FAILED)
      return HP_EXIT_RUNFAIL;
    threshold |= hp_cause_fails(kind);
  }
  /* A reference gate is not a pass's own cause: it is read from the causes it left. */
  for (i = 0; i < s->ncauses; i++)
    threshold |= s->causes[i].kind == HP_CAUSE_REFERENCE;
  return threshold ? HP_EXIT_THRESHOLD : HP_EXIT_OK;
}
