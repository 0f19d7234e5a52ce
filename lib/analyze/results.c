/*
 * Results: statistics per pass and metric, the overhead against the baseline, flags, one line of
 * advice per flag, and A/B verdicts. The rules are in docs/summary.md ("Flags") and
 * docs/internals/stats.md; they are the same whether the runs were just measured or read back from
 * a stored summary.json, so `hprun report` re-renders exactly what `hprun run` showed.
 */
#include "analyze/results.h"
#include "util/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *hp_flag_name(hp_flag f)
{
  switch (f) {
  case HP_FLAG_BASELINE: return "baseline";
  case HP_FLAG_OK: return "ok";
  case HP_FLAG_UNCONFIRMED: return "unconfirmed";
  case HP_FLAG_PERTURBED: return "perturbed";
  case HP_FLAG_DISTORTED: return "distorted";
  case HP_FLAG_FAILED: return "failed";
  }
  return "?";
}

static void metric_result_reset(hp_metric_result *m)
{
  memset(&m->st, 0, sizeof(m->st));
  m->st.median = m->st.mean = m->st.sd = m->st.mad = m->st.cv = NAN;
  m->st.min = m->st.max = NAN;
  m->ratio = m->ci_lo = m->ci_hi = m->p = m->delta = NAN;
  m->sig = HP_SIG_UNKNOWN;
  m->tolerance = -1;
}

int hp__pass_result_init(hp_pass_result *pr, size_t nmetrics)
{
  size_t i;

  memset(pr, 0, sizeof(*pr));
  pr->nmetrics = nmetrics;
  pr->metrics = calloc(nmetrics ? nmetrics : 1, sizeof(*pr->metrics));
  if (pr->metrics == NULL)
    return HP_ENOMEM;
  for (i = 0; i < nmetrics; i++)
    metric_result_reset(&pr->metrics[i]);
  pr->mem_mean_mib = pr->mem_peak_mib = NAN;
  pr->xk_avg_ms = NAN;
  pr->xk_calls = -1;
  pr->app_launches = -1;
  pr->max_rss_kb = -1;
  return 0;
}

void hp__run_free(hp_run *r)
{
  if (r == NULL)
    return;
  free(r->dir);
  free(r->command);
  free(r->error);
  free(r->values);
  hp_strv_free(&r->files);
}

void hp__pass_result_free(hp_pass_result *pr)
{
  size_t i;

  if (pr == NULL)
    return;
  free(pr->name);
  free(pr->mode);
  free(pr->tool);
  free(pr->kernel);
  for (i = 0; i < pr->nruns; i++)
    hp__run_free(&pr->runs[i]);
  free(pr->runs);
  for (i = 0; i < pr->nmetrics && pr->metrics; i++) {
    free(pr->metrics[i].name);
    free(pr->metrics[i].unit);
  }
  free(pr->metrics);
  free(pr->verdict);
  free(pr->advice);
  free(pr->mem_note);
  free(pr->xk_name);
  hp_profile_free(pr->profile);
}

void hp_session_free(hp_session *s)
{
  size_t i;

  if (s == NULL)
    return;
  for (i = 0; i < s->npasses && s->passes; i++)
    hp__pass_result_free(&s->passes[i]);
  free(s->passes);
  free(s->name);
  free(s->dir);
  free(s->plan_file);
  free(s->hprun_version);
  free(s->started);
  free(s->finished);
  free(s->order);
  free(s->error);
  free(s);
}

size_t hp__counted_values(const hp_pass_result *pr, size_t m, double **out)
{
  size_t i, n = 0;

  *out = malloc((pr->nruns ? pr->nruns : 1) * sizeof(double));
  if (*out == NULL)
    return 0;
  for (i = 0; i < pr->nruns; i++)
    if (!pr->runs[i].warmup && !pr->runs[i].interrupted)
      (*out)[n++] = pr->runs[i].values ? pr->runs[i].values[m] : NAN;
  return n;
}

/* How much slower the pass is than the baseline, as a ratio >= 0 where 1 means no change: for a
 * time that is the ratio of medians; for a higher-is-better metric (a rate) its inverse. */
static double slowdown(const hp_metric_result *m)
{
  if (isnan(m->ratio) || m->ratio <= 0)
    return NAN;
  return m->higher_is_better ? 1.0 / m->ratio : m->ratio;
}

static void compare_metric(const hp_pass_result *base, const hp_pass_result *pr, size_t m,
                           double alpha, uint64_t seed)
{
  hp_metric_result *mr = &pr->metrics[m];
  double *a = NULL, *b = NULL, ratio;
  size_t na = hp__counted_values(base, m, &a), nb = hp__counted_values(pr, m, &b);

  if (a && b) {
    hp_stats_compare(a, na, b, nb, alpha, seed, &mr->sig, &ratio, &mr->p, &mr->ci_lo, &mr->ci_hi);
    if (base->metrics[m].st.median != 0)
      mr->ratio = mr->st.median / base->metrics[m].st.median;
    mr->delta = mr->st.median - base->metrics[m].st.median;
  }
  free(a);
  free(b);
}

/* Why a pass failed, in one line: the first counted run that failed. */
static char *failure_advice(const hp_pass_result *pr)
{
  size_t i;

  for (i = 0; i < pr->nruns; i++) {
    const hp_run *r = &pr->runs[i];
    if (r->warmup || r->interrupted || r->ok)
      continue;
    if (r->error)
      return hp__asprintf("run %d: %s", r->index, r->error);
    if (r->timed_out)
      return hp__asprintf("run %d timed out; see %s/stderr.txt", r->index, r->dir);
    if (r->term_signal)
      return hp__asprintf("run %d was killed by signal %d; see %s/stderr.txt", r->index,
                          r->term_signal, r->dir);
    if (r->exit_status)
      return hp__asprintf("run %d exited with status %lld; see %s/stderr.txt", r->index,
                          r->exit_status, r->dir);
    return hp__asprintf("run %d printed no value for the primary metric; check the metric "
                        "pattern against %s/stdout.txt",
                        r->index, r->dir);
  }
  return hp__strdup("no counted run completed");
}

static int pass_failed(const hp_pass_result *pr)
{
  size_t i, counted = 0;

  for (i = 0; i < pr->nruns; i++) {
    if (pr->runs[i].warmup || pr->runs[i].interrupted)
      continue;
    counted++;
    if (!pr->runs[i].ok)
      return 1;
  }
  return counted == 0;
}

static void flag_pass(const hp_session *s, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];
  double sd = slowdown(m), over = sd - 1.0;
  const char *what = pr->is_variant ? "this variant" : pr->mode;

  free(pr->advice);
  pr->advice = NULL;
  if (pass_failed(pr)) {
    pr->flag = HP_FLAG_FAILED;
    pr->advice = failure_advice(pr);
    return;
  }
  if (pr->is_baseline || pr->is_reference) {
    pr->flag = HP_FLAG_BASELINE;
    if (!isnan(m->st.cv) && m->st.cv > s->warn / 2)
      pr->advice = hp__asprintf("the baseline's own noise (CV %.2f%%) is large against warn "
                                "(%.1f%%): overheads below it cannot be told from noise",
                                m->st.cv * 100, s->warn * 100);
    return;
  }
  if (isnan(sd)) {
    pr->flag = HP_FLAG_FAILED;
    pr->advice = hp__strdup("no overhead: the baseline has no value for the primary metric");
    return;
  }
  if (sd >= 2.0) {
    pr->flag = HP_FLAG_DISTORTED;
    pr->advice = hp__asprintf("%s makes %s read %.2fx the baseline: use it to attribute, never "
                              "quote its time as performance%s",
                              what,
                              m->name ? m->name
                                      : "the "
                                        "metric",
                              sd, pr->expect_distorted ? " (expected)" : "");
    return;
  }
  if (fabs(over) <= s->warn) {
    pr->flag = HP_FLAG_OK;
    return;
  }
  if (m->sig == HP_SIG_YES) {
    pr->flag = HP_FLAG_PERTURBED;
    /* A variant's change is the point of the A/B run; its verdict and summary say it. */
    if (!pr->is_variant)
      pr->advice = hp__asprintf("%s changes %s by %+.2f%% (significant, p=%.3g): compare times "
                                "only within this mode",
                                what, m->name ? m->name : "the metric", over * 100, m->p);
  } else if (m->sig == HP_SIG_NO) {
    pr->flag = HP_FLAG_OK;
    pr->advice = hp__asprintf("%+.2f%% is beyond warn but not significant (p=%.3g): within the "
                              "run-to-run noise",
                              over * 100, m->p);
  } else {
    pr->flag = HP_FLAG_UNCONFIRMED;
    pr->advice = hp__asprintf("%+.2f%% is beyond warn (%.1f%%), but %zu run(s) are too few to "
                              "tell it from noise: use repeat >= 5",
                              over * 100, s->warn * 100, m->st.n);
  }
}

/* One line with everything a candidate changed, as the article's A-B-B-A table has it: time,
 * sampled device memory and every other metric, each against the reference. */
static void variant_summary(const hp_pass_result *ref, hp_pass_result *pr)
{
  hp__buf b = HP__BUF_INIT;
  size_t k;
  int r = 0;

  if (pr->metrics[0].st.n == 0)
    return;
  r |= hp__buf_printf(&b, "%s %+.2f%%", pr->metrics[0].name ? pr->metrics[0].name : "time",
                      (pr->metrics[0].ratio - 1.0) * 100.0);
  if (pr->metrics[0].sig == HP_SIG_YES)
    r |= hp__buf_printf(&b, " (p=%.3g)", pr->metrics[0].p);
  if (!isnan(pr->mem_mean_mib) && !isnan(ref->mem_mean_mib))
    r |= hp__buf_printf(&b, ", sampled memory %+.1f MiB", pr->mem_mean_mib - ref->mem_mean_mib);
  for (k = 1; k < pr->nmetrics; k++)
    if (!isnan(pr->metrics[k].delta))
      r |= hp__buf_printf(&b, ", %s %+.6g", pr->metrics[k].name ? pr->metrics[k].name : "?",
                          pr->metrics[k].delta);
  if (r) {
    hp__buf_free(&b);
    return;
  }
  if (pr->advice) {
    /* A numeric rejection already explained itself: keep that first. */
    r = hp__buf_printf(&b, "; %s", pr->advice);
    free(pr->advice);
  }
  pr->advice = r ? NULL : hp__buf_steal(&b);
  if (r)
    hp__buf_free(&b);
}

/* A/B: each candidate against the reference, on the numeric gates first (a faster wrong answer is
 * rejected whatever its speed), then on the primary metric's significance and direction. */
static void verdict(const hp_plan *plan, hp_pass_result *ref, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];
  size_t g, k;

  free(pr->verdict);
  pr->verdict = NULL;
  if (pr->flag == HP_FLAG_FAILED) {
    pr->verdict = hp__strdup("inconclusive (failed runs)");
    return;
  }
  for (g = 0; plan && g < plan->ngates; g++) {
    const hp_gate *gt = &plan->gates[g];
    for (k = 0; k < plan->nmetrics; k++) {
      double d, rel;
      if (strcmp(plan->metrics[k].name, gt->metric))
        continue;
      d = pr->metrics[k].st.median - ref->metrics[k].st.median;
      rel = ref->metrics[k].st.median != 0 ? d / ref->metrics[k].st.median : NAN;
      if (isnan(d) || (gt->max_abs_delta >= 0 && fabs(d) > gt->max_abs_delta) ||
          (gt->max_rel_delta >= 0 && !(fabs(rel) <= gt->max_rel_delta))) {
        pr->verdict = hp__strdup("rejected (numerics)");
        free(pr->advice);
        pr->advice =
            hp__asprintf("%s moved by %+.6g against the reference (gate: %s%g): "
                         "the candidate changes the answer",
                         gt->metric, d, gt->max_abs_delta >= 0 ? "|delta| <= " : "|rel| <= ",
                         gt->max_abs_delta >= 0 ? gt->max_abs_delta : gt->max_rel_delta);
        variant_summary(ref, pr);
        return;
      }
    }
  }
  if (m->sig == HP_SIG_YES)
    pr->verdict = hp__strdup(slowdown(m) < 1.0 ? "accepted" : "rejected (slower)");
  else
    pr->verdict = hp__strdup("inconclusive");
  variant_summary(ref, pr);
}

int hp__session_analyze(hp_session *s, const hp_plan *plan)
{
  hp_pass_result *base = NULL, *ref = NULL;
  size_t i, m;

  for (i = 0; i < s->npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    long rss = -1;
    for (m = 0; m < pr->nmetrics; m++) {
      double *v = NULL;
      size_t n = hp__counted_values(pr, m, &v);
      if (plan && m < plan->nmetrics) {
        if (pr->metrics[m].name == NULL)
          pr->metrics[m].name = hp__strdup(plan->metrics[m].name);
        if (pr->metrics[m].unit == NULL && plan->metrics[m].unit)
          pr->metrics[m].unit = hp__strdup(plan->metrics[m].unit);
        pr->metrics[m].higher_is_better = plan->metrics[m].higher_is_better;
        pr->metrics[m].tolerance = plan->metrics[m].tolerance;
      }
      if (v)
        hp_stats_summarize(v, n, 0, &pr->metrics[m].st);
      free(v);
    }
    {
      double msum = 0, peak = NAN;
      size_t nm = 0;
      for (m = 0; m < pr->nruns; m++) {
        const hp_run *rn = &pr->runs[m];
        if (rn->warmup)
          continue;
        if (rn->max_rss_kb > rss)
          rss = rn->max_rss_kb;
        if (rn->mem_samples > 0 && !isnan(rn->mem_mean_mib)) {
          msum += rn->mem_mean_mib;
          nm++;
          if (isnan(peak) || rn->mem_peak_mib > peak)
            peak = rn->mem_peak_mib;
        }
      }
      pr->max_rss_kb = rss;
      /* The pass's sampled memory: the mean of its runs' means, and the highest peak. */
      pr->mem_mean_mib = nm ? msum / (double)nm : NAN;
      pr->mem_peak_mib = peak;
    }
    if (pr->is_baseline)
      base = pr;
    if (pr->is_reference)
      ref = pr;
  }
  for (i = 0; i < s->npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    const hp_pass_result *against = pr->is_variant ? ref : base;
    for (m = 0; against && pr != against && m < pr->nmetrics; m++)
      compare_metric(against, pr, m, s->alpha, s->seed + i);
    flag_pass(s, pr);
  }
  /* Verdicts need the plan's gates; a session read back keeps the verdicts it stored. */
  for (i = 0; plan && ref && i < s->npasses; i++)
    if (s->passes[i].is_variant && !s->passes[i].is_reference)
      verdict(plan, ref, &s->passes[i]);
  return 0;
}

int hp__session_exit_code(const hp_session *s)
{
  size_t i;
  int threshold = 0;

  if (s->interrupted)
    return HP_EXIT_INTERRUPTED;
  if (s->error)
    return HP_EXIT_RUNFAIL;
  for (i = 0; i < s->npasses; i++) {
    if (s->passes[i].flag == HP_FLAG_FAILED)
      return HP_EXIT_RUNFAIL;
    if (hp__pass_fail_breach(s, &s->passes[i]) > 0)
      threshold = 1;
  }
  return threshold ? HP_EXIT_THRESHOLD : HP_EXIT_OK;
}

double hp__pass_fail_breach(const hp_session *s, const hp_pass_result *pr)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  double over;

  /* `fail` is a CI gate: a pass declared `expect: distorted` never trips it, and an overhead
   * shown to be noise (not significant) does not either. */
  if (m == NULL || s->fail <= 0 || pr->expect_distorted || pr->is_variant || pr->is_baseline)
    return 0;
  over = slowdown(m) - 1.0;
  return over > s->fail && m->sig != HP_SIG_NO ? over : 0;
}
