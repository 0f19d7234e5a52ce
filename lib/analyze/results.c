/*
 * Results: the model's allocators (a session, its passes, runs and causes), and the statistics per
 * pass and metric with the overhead against the baseline; nothing here judges them (flags.c does).
 * The rules are in docs/internals/stats.md. A session read back from summary.json gets its
 * statistics recomputed here (hp__session_measure: the same numbers, as the bootstrap is seeded)
 * but keeps its stored flags, advice and verdicts, so `hprun report` re-renders exactly what
 * `hprun run` showed.
 */
#include "analyze/ranks.h"
#include "analyze/results.h"
#include "exec/launch.h"
#include "util/base/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void metric_result_reset(hp_metric_result *m)
{
  memset(&m->st, 0, sizeof(m->st));
  m->st.median = m->st.mean = m->st.sd = m->st.mad = m->st.cv = NAN;
  m->st.min = m->st.max = NAN;
  m->ratio = m->ci_lo = m->ci_hi = m->p = m->delta = NAN;
  m->sig = HP_SIG_UNKNOWN;
  m->tolerance = m->abs_tolerance = -1;
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

static void run_free(hp_run *r)
{
  free(r->dir);
  free(r->command);
  free(r->error);
  free(r->values);
  hp_strv_free(&r->files);
  hp__launch_free(r->launch);
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
    run_free(&pr->runs[i]);
  free(pr->runs);
  for (i = 0; i < pr->nmetrics && pr->metrics; i++) {
    free(pr->metrics[i].name);
    free(pr->metrics[i].unit);
  }
  free(pr->metrics);
  free(pr->verdict);
  free(pr->advice);
  free(pr->stopped);
  free(pr->mem_note);
  free(pr->xk_name);
  free(pr->ncu_metrics);
  hp_profile_free(pr->profile);
  hp_roofline_free(pr->roofline);
  free(pr->ranks);
}

/* Frees n key-value pairs and the array (a sweep's parameter values). Accepts NULL. */
static void kv_free(hp_kv *kv, size_t n)
{
  size_t i;

  for (i = 0; kv && i < n; i++) {
    free(kv[i].key);
    free(kv[i].value);
  }
  free(kv);
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
  hp__causes_free(s->causes, s->ncauses);
  free(s->plan_sha256);
  free(s->gpu_name);
  hp_peaks_clear(s->peaks);
  free(s->peaks);
  free(s->combo);
  kv_free(s->params, s->nparams);
  for (i = 0; i < s->ncombos && s->combos; i++) {
    free(s->combos[i].name);
    kv_free(s->combos[i].params, s->combos[i].nparams);
    hp_session_free(s->combos[i].s);
  }
  free(s->combos);
  free(s);
}

void hp__causes_free(hp_cause *c, size_t n)
{
  size_t i;

  for (i = 0; c && i < n; i++) {
    free(c[i].pass);
    free(c[i].text);
  }
  free(c);
}

int hp__cause_add(hp_cause **c, size_t *n, hp_cause_kind kind, const char *pass, const char *text)
{
  hp_cause *grown = realloc(*c, (*n + 1) * sizeof(**c)), *e;

  if (grown == NULL)
    return HP_ENOMEM;
  *c = grown;
  e = &grown[*n];
  e->kind = kind;
  e->pass = pass ? hp__strdup(pass) : NULL;
  e->text = hp__strdup(text ? text : "");
  if ((pass && e->pass == NULL) || e->text == NULL) {
    free(e->pass);
    free(e->text);
    return HP_ENOMEM;
  }
  (*n)++;
  return 0;
}

size_t hp__counted_values(const hp_pass_result *pr, size_t m, double **out)
{
  size_t i, n = 0;

  *out = malloc((pr->nruns ? pr->nruns : 1) * sizeof(double));
  if (*out == NULL)
    return 0;
  /* A run holds one value per metric of its own pass: a metric index beyond them reads as no
   * value, never past the run's array. */
  for (i = 0; i < pr->nruns; i++)
    if (!pr->runs[i].warmup && !pr->runs[i].interrupted)
      (*out)[n++] = pr->runs[i].values && m < pr->nmetrics ? pr->runs[i].values[m] : NAN;
  return n;
}

double hp__slowdown(const hp_metric_result *m)
{
  if (isnan(m->ratio) || m->ratio <= 0)
    return NAN;
  return m->higher_is_better ? 1.0 / m->ratio : m->ratio;
}

/* The finite values of x[0..n) (*nf of them), and whether all of them are positive. */
static int all_positive(const double *x, size_t n, size_t *nf)
{
  size_t i;
  int pos = 1;

  for (i = *nf = 0; i < n; i++)
    if (isfinite(x[i])) {
      (*nf)++;
      pos &= x[i] > 0;
    }
  return pos;
}

/* A profiling pass's interval is the distribution-free one of the scale factor (Moses; its
 * coverage is exact at any run count, where the bootstrap's falls short at 3 to 10 runs), at level
 * 1 - alpha / looks so that the flags' error rate holds over every look of `repeat: auto`. Values
 * it cannot take (not positive, or too many pairs) keep the bootstrap's. docs/internals/stats.md. */
static void shift_ci(hp_metric_result *mr, const double *a, size_t na, const double *b, size_t nb,
                     double alpha, int looks)
{
  double lo, hi;
  size_t fa, fb;

  if (!all_positive(a, na, &fa) || !all_positive(b, nb, &fb) || fa * fb > HP_STATS_SHIFT_MAX_PAIRS)
    return;
  if (hp_stats_shift_interval(a, na, b, nb, 1 - alpha / (looks > 1 ? looks : 1), &lo, &hi) == 0) {
    mr->ci_lo = lo;
    mr->ci_hi = hi;
  }
}

static void compare_metric(const hp_session *s, const hp_pass_result *base,
                           const hp_pass_result *pr, size_t m, uint64_t seed)
{
  hp_metric_result *mr = &pr->metrics[m];
  double *a = NULL, *b = NULL, ratio, alpha = s->alpha;
  size_t na = hp__counted_values(base, m, &a), nb = hp__counted_values(pr, m, &b);

  if (a && b) {
    hp_stats_compare(a, na, b, nb, alpha, seed, &mr->sig, &ratio, &mr->p, &mr->ci_lo, &mr->ci_hi);
    if (!pr->is_variant)
      shift_ci(mr, a, na, b, nb, alpha <= 0 ? HP_STATS_ALPHA : alpha, s->looks);
    if (base->metrics[m].st.median != 0)
      mr->ratio = mr->st.median / base->metrics[m].st.median;
    mr->delta = mr->st.median - base->metrics[m].st.median;
  }
  free(a);
  free(b);
}

/* The metrics' statistics of one pass, and its sampled memory: the mean of its runs' means, and
 * the highest peak. */
static void measure_pass(hp_pass_result *pr, const hp_plan *plan)
{
  double msum = 0, peak = NAN;
  size_t m, nm = 0;
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
      pr->metrics[m].abs_tolerance = plan->metrics[m].abs_tolerance;
    }
    if (v)
      hp_stats_summarize(v, n, 0, &pr->metrics[m].st);
    free(v);
  }
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
  pr->mem_mean_mib = nm ? msum / (double)nm : NAN;
  pr->mem_peak_mib = peak;
}

int hp__session_measure(hp_session *s, const hp_plan *plan)
{
  hp_pass_result *base = NULL, *ref = NULL;
  size_t i, m;

  for (i = 0; i < s->npasses; i++) {
    measure_pass(&s->passes[i], plan);
    if (s->passes[i].is_baseline)
      base = &s->passes[i];
    if (s->passes[i].is_reference)
      ref = &s->passes[i];
  }
  /* Each pass's bootstrap has its own stream, seed + its index, so that adding a pass to a plan
   * leaves the intervals of the passes before it as they were. Only metrics both passes have are
   * compared: every pass of a session has the plan's metrics, but a session read back from a file
   * is not trusted to. */
  for (i = 0; i < s->npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    const hp_pass_result *against = pr->is_variant ? ref : base;
    for (m = 0; against && pr != against && m < pr->nmetrics && m < against->nmetrics; m++)
      compare_metric(s, against, pr, m, s->seed + i);
  }
  return hp__session_ranks(s); /* launched runs: the spread over their ranks */
}
