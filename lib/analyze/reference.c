/*
 * The plan's absolute references (`reference:`, docs/plan.md), as in ReFrame: a metric of a pass
 * is expected at a value within a tolerance, and the session fails (exit 1, a cause of kind
 * `reference`) when the measured median's interval lies wholly outside that band, in either
 * direction: much faster than the reference means the reference is stale, which ReFrame also
 * fails. An interval that straddles the band is only a note, as compare's inconclusive is. Every
 * reference that applies leaves a cause, so each report shows it next to the measured value.
 * An entry may apply only on some hosts (`host`, hprun's own hostname) or GPUs (`gpu`, the name
 * manifest.json records, read once when it is written: hp_session.gpu_name).
 */
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether a pattern (NULL: any) matches a name (NULL: unknown, which only NULL matches). */
static int matches(const char *pattern, const char *name)
{
  return pattern == NULL || (name && fnmatch(pattern, name, 0) == 0);
}

/* Whether entry k applies on this host and GPU, and no earlier entry already applies to the same
 * pass and metric there. */
static int applies(const hp_plan *plan, size_t k, const char *host, const char *gpu)
{
  const hp_reference *ref = &plan->references[k];
  size_t i;

  if (!matches(ref->host, host) || !matches(ref->gpu, gpu))
    return 0;
  for (i = 0; i < k; i++) {
    const hp_reference *o = &plan->references[i];
    if (matches(o->host, host) && matches(o->gpu, gpu) &&
        (o->pass == NULL) == (ref->pass == NULL) && (!o->pass || strcmp(o->pass, ref->pass) == 0) &&
        (o->metric == NULL) == (ref->metric == NULL) &&
        (!o->metric || strcmp(o->metric, ref->metric) == 0))
      return 0;
  }
  return 1;
}

static long metric_index(const hp_pass_result *pr, const char *name)
{
  size_t i;

  if (name == NULL)
    return pr->nmetrics ? 0 : -1;
  for (i = 0; i < pr->nmetrics; i++)
    if (pr->metrics[i].name && strcmp(pr->metrics[i].name, name) == 0)
      return (long)i;
  return -1;
}

/* The cause of one reference against the measured metric m of pass pr. */
static char *reference_text(const hp_session *s, const hp_reference *ref, const hp_pass_result *pr,
                            size_t m, hp_cause_kind *kind)
{
  const hp_metric_result *mr = &pr->metrics[m];
  char med[32], val[32], ci[64], iv[48], where[320];
  double *v = NULL, lo = NAN, hi = NAN;
  size_t n = hp__counted_values(pr, m, &v);
  const char *verdict;

  if (v == NULL)
    return NULL;
  if (n >= HP_STATS_MIN_N &&
      hp_stats_bootstrap_ratio(&ref->value, 1, v, n, 0, 1 - s->alpha, s->seed, &lo, &hi) != 0) {
    free(v);
    return NULL;
  }
  free(v);
  *kind = HP_CAUSE_NOTE;
  if (isnan(lo))
    verdict = "too few runs for an interval: not evaluated (use repeat >= 5)";
  else if (hp_stats_beyond(lo - 1, ref->tolerance) || hp_stats_beyond(1 - hi, ref->tolerance)) {
    *kind = HP_CAUSE_REFERENCE;
    verdict = "outside the reference";
  } else if (!hp_stats_beyond(hi - 1, ref->tolerance) && !hp_stats_beyond(1 - lo, ref->tolerance))
    verdict = "within the reference";
  else
    verdict = "inconclusive: the interval straddles the tolerance (not counted)";
  ci[0] = '\0';
  snprintf(where, sizeof(where), "%s%s%s%s%s%s", ref->host || ref->gpu ? " (" : "",
           ref->host ? "hosts " : "", ref->host ? ref->host : "", ref->host && ref->gpu ? ", " : "",
           ref->gpu ? "GPU " : "", ref->gpu ? ref->gpu : "");
  if (where[0])
    strcat(where, ")");
  if (!isnan(lo))
    snprintf(ci, sizeof(ci), ", %.3g%% CI %s", (1 - s->alpha) * 100,
             hp__fmt_change(iv, sizeof(iv), mr->st.median / ref->value, lo, hi, HP__CHG_CI));
  return hp__asprintf("%s %s%s%s against reference %s ±%.3g%%%s%s: %s", mr->name,
                      hp__fmt_num(med, sizeof(med), mr->st.median), mr->unit ? " " : "",
                      mr->unit ? mr->unit : "", hp__fmt_num(val, sizeof(val), ref->value),
                      ref->tolerance * 100, where, ci, verdict);
}

/* One note when entries with a `gpu` pattern were passed over because no vendor tool named the
 * GPU: such a gate must not vanish without a word. */
static int gpu_unknown_note(const hp_session *s, const hp_plan *plan, hp_cause **out, size_t *n)
{
  size_t k;

  for (k = 0; k < plan->nreferences && (s->gpu_name || plan->references[k].gpu == NULL); k++)
    ;
  if (k == plan->nreferences)
    return 0;
  return hp__cause_add(out, n, HP_CAUSE_NOTE, NULL,
                       "references with a `gpu` pattern were not evaluated: no vendor tool named "
                       "the GPU (manifest.json's gpu.name is null)");
}

int hp__reference_causes(const hp_session *s, const hp_plan *plan, hp_cause **out, size_t *n)
{
  char host[256] = "";
  size_t k, i;
  int r = 0;

  if (plan->nreferences == 0 || s->npasses == 0)
    return 0;
  if (gethostname(host, sizeof(host) - 1) != 0)
    host[0] = '\0';
  for (k = 0; k < plan->nreferences && r == 0; k++) {
    const hp_reference *ref = &plan->references[k];
    const char *pass = ref->pass ? ref->pass : s->passes[s->baseline].name;
    hp_cause_kind kind = HP_CAUSE_NOTE;
    char *text;
    long m;
    if (!applies(plan, k, host, s->gpu_name))
      continue;
    for (i = 0; i < s->npasses && strcmp(s->passes[i].name, pass) != 0; i++)
      ;
    if (i == s->npasses || (m = metric_index(&s->passes[i], ref->metric)) < 0)
      continue;
    if ((text = reference_text(s, ref, &s->passes[i], (size_t)m, &kind)) == NULL)
      return HP_ENOMEM;
    r = hp__cause_add(out, n, kind, pass, text);
    free(text);
  }
  return r ? r : gpu_unknown_note(s, plan, out, n);
}
