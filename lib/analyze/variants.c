/*
 * A/B verdicts: each candidate against the reference, on the plan's numeric gates first (a faster
 * wrong answer is rejected whatever its speed), then on the primary metric's significance and
 * direction, with one line of advice that says everything the candidate changed. A candidate
 * rejected by a gate fails the session (lib/analyze/causes.c words that cause with
 * hp__gate_breach, the same text the advice carries).
 */
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* |d| beyond an absolute limit, with the threshold tolerance relative to the size of the values
 * (`scale`) that d is the difference of: a difference of two medians near 33.9 carries rounding
 * errors near 1e-14, which must not push a delta of exactly the limit over it. */
static int beyond_abs(double d, double limit, double scale)
{
  return fabs(d) > limit + HP_STATS_REL_TOL * fabs(scale);
}

/* Why metric k of pr breaks gate gt against ref, or NULL when it does not. */
static char *gate_check(const hp_gate *gt, const hp_pass_result *ref, const hp_pass_result *pr,
                        size_t k)
{
  double base = ref->metrics[k].st.median, d = pr->metrics[k].st.median - base;
  double rel = base != 0 ? d / base : NAN;
  int abs_bad = gt->max_abs_delta >= 0 && (isnan(d) || beyond_abs(d, gt->max_abs_delta, base));
  int rel_bad =
      gt->max_rel_delta >= 0 && (isnan(rel) || hp_stats_beyond(fabs(rel), gt->max_rel_delta));

  if (!abs_bad && !rel_bad)
    return NULL;
  return hp__asprintf(
      "%s moved by %+.6g against the reference (gate: %s%g)", gt->metric, d,
      abs_bad ? "|delta| <= " : "|rel| <= ", abs_bad ? gt->max_abs_delta : gt->max_rel_delta);
}

char *hp__gate_breach(const hp_plan *plan, const hp_pass_result *ref, const hp_pass_result *pr)
{
  size_t g, k;
  char *why;

  for (g = 0; plan && g < plan->ngates; g++)
    for (k = 0; k < plan->nmetrics && k < pr->nmetrics && k < ref->nmetrics; k++)
      if (strcmp(plan->metrics[k].name, plan->gates[g].metric) == 0 &&
          (why = gate_check(&plan->gates[g], ref, pr, k)) != NULL)
        return why;
  return NULL;
}

/* One line with everything a candidate changed, as the article's A-B-B-A table has it: time,
 * sampled device memory and every other metric, each against the reference. */
static void variant_summary(const hp_pass_result *ref, hp_pass_result *pr)
{
  hp__buf b = HP__BUF_INIT;
  char iv[96];
  size_t k;

  if (pr->metrics[0].st.n == 0)
    return;
  /* The change with its interval, as every table prints it (p is on no surface). */
  hp__buf_printf(&b, "%s %s", pr->metrics[0].name ? pr->metrics[0].name : "time",
                 hp__fmt_change(iv, sizeof(iv), pr->metrics[0].ratio, pr->metrics[0].ci_lo,
                                pr->metrics[0].ci_hi, HP__CHG_BOTH));
  if (!isnan(pr->mem_mean_mib) && !isnan(ref->mem_mean_mib))
    hp__buf_printf(&b, ", sampled memory %+.1f MiB", pr->mem_mean_mib - ref->mem_mean_mib);
  for (k = 1; k < pr->nmetrics; k++)
    if (!isnan(pr->metrics[k].delta))
      hp__buf_printf(&b, ", %s %+.6g", pr->metrics[k].name ? pr->metrics[k].name : "?",
                     pr->metrics[k].delta);
  /* Out of memory before the old advice is reached leaves it as it was. */
  if (hp__buf_error(&b)) {
    hp__buf_free(&b);
    return;
  }
  if (pr->advice) {
    /* A numeric rejection already explained itself: keep that first. */
    hp__buf_printf(&b, "; %s", pr->advice);
    free(pr->advice);
  }
  pr->advice = hp__buf_steal(&b); /* NULL when the last append failed */
}

static void verdict(const hp_plan *plan, const hp_pass_result *ref, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];
  char *why;

  free(pr->verdict);
  pr->verdict = NULL;
  if (pr->flag == HP_FLAG_FAILED) {
    pr->verdict = hp__strdup("inconclusive (failed runs)");
    return;
  }
  if ((why = hp__gate_breach(plan, ref, pr)) != NULL) {
    pr->verdict = hp__strdup("rejected (numerics)");
    free(pr->advice);
    pr->advice = hp__asprintf("%s: the candidate changes the answer", why);
    free(why);
  } else if (m->sig == HP_SIG_YES) {
    pr->verdict = hp__strdup(hp__slowdown(m) < 1.0 ? "accepted" : "rejected (slower)");
  } else {
    pr->verdict = hp__strdup("inconclusive");
  }
  variant_summary(ref, pr);
}

void hp__session_verdicts(hp_session *s, const hp_plan *plan)
{
  const hp_pass_result *ref = NULL;
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].is_reference)
      ref = &s->passes[i];
  for (i = 0; ref && i < s->npasses; i++)
    if (s->passes[i].is_variant && !s->passes[i].is_reference)
      verdict(plan, ref, &s->passes[i]);
}
