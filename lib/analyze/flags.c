/*
 * Flags and one line of advice per pass, and hp__session_analyze, which judges a session: the
 * statistics (results.c), then the flags, the A/B verdicts (variants.c) and the causes (causes.c),
 * in that order, as each reads what the one before it decided. The rules are in docs/summary.md
 * ("Flags"). A session read back from summary.json keeps its stored flags and advice.
 */
#include "analyze/results.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *hp_flag_name(hp_flag f)
{
  switch (f) {
  case HP_FLAG_BASELINE: return "baseline";
  case HP_FLAG_OK: return "ok";
  case HP_FLAG_UNCONFIRMED: return "unconfirmed";
  case HP_FLAG_PERTURBED: return "perturbed";
  case HP_FLAG_DISTORTED: return "distorted";
  case HP_FLAG_FAILED: return "failed";
  case HP_FLAG_INCONCLUSIVE: return "inconclusive";
  }
  return "?";
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

/* The interval of the slowdown (the time ratio, or its inverse for a higher-is-better metric). */
static void slowdown_interval(const hp_metric_result *m, double *lo, double *hi)
{
  *lo = m->higher_is_better ? 1.0 / m->ci_hi : m->ci_lo;
  *hi = m->higher_is_better ? 1.0 / m->ci_lo : m->ci_hi;
}

/* How many runs per pass would likely make the interval [lo, hi] (of a pass of n runs) fit on one
 * side of every warn line: its half-width shrinks as 1 / sqrt(runs), on the log scale where the
 * interval is symmetric. 0 when the estimate sits on a line, where no count is likely to do. */
static size_t runs_to_resolve(double lo, double hi, double warn, size_t n)
{
  double c = (log(lo) + log(hi)) / 2, h = (log(hi) - log(lo)) / 2;
  double d = fabs(c - log1p(warn)), need;

  if (warn < 1 && fabs(c - log1p(-warn)) < d)
    d = fabs(c - log1p(-warn));
  if (!(d > h / 20) || !(h > 0))
    return 0;
  need = ceil((double)n * (h / d) * (h / d));
  return need > 100000 ? 100000 : (size_t)need;
}

/* The level of a pass's interval in percent: 1 - alpha / looks (docs/summary.md, "Flags"). */
static double level(const hp_session *s)
{
  double alpha = s->alpha <= 0 ? HP_STATS_ALPHA : s->alpha; /* results.c's default, too */

  return (1 - alpha / (s->looks > 1 ? s->looks : 1)) * 100;
}

/* The advice of an inconclusive pass: the interval, and what would likely resolve it. */
static char *inconclusive_advice(const hp_session *s, const hp_metric_result *m, double lo,
                                 double hi)
{
  size_t need = runs_to_resolve(lo, hi, s->warn, m->st.n);
  char more[96];

  if (need)
    snprintf(more, sizeof(more), "about %zu runs per pass would likely resolve it", need);
  else
    snprintf(more, sizeof(more), "the overhead sits on warn, where more runs resolve it slowly");
  char sd[32], iv[64];

  hp__fmt_overhead(sd, sizeof(sd), hp__slowdown(m));
  hp__fmt_change(iv, sizeof(iv), hp__slowdown(m), lo, hi, HP__CHG_CI);
  return hp__asprintf(
      "%s, but its %.4g%% interval %s straddles warn (%.1f%%): the data can neither "
      "rule out an overhead beyond warn nor show one; %s",
      sd, level(s), iv, s->warn * 100, more);
}

hp_flag hp__flag_of(double lo, double hi, double sd, double warn)
{
  int above, below;

  if (isnan(lo) || isnan(hi))
    return HP_FLAG_UNCONFIRMED;
  /* With a tolerance: an end of exactly `warn` (1.05 / 1.0) is within it. */
  above = hp_stats_beyond(lo - 1.0, warn);
  below = hp_stats_beyond(1.0 - hi, warn);
  if (above && sd >= 2.0)
    return HP_FLAG_DISTORTED;
  if (above || below)
    return HP_FLAG_PERTURBED;
  if (!hp_stats_beyond(hi - 1.0, warn) && !hp_stats_beyond(1.0 - lo, warn))
    return HP_FLAG_OK;
  return HP_FLAG_INCONCLUSIVE;
}

/* The flag of a pass whose runs all completed, and its advice (the baseline's is set apart): the
 * rule of docs/summary.md ("Flags") on the interval of the overhead, as two one-sided tests do. */
static void flag_measured(const hp_session *s, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];
  double sd = hp__slowdown(m), lo, hi;
  char iv[96];
  const char *what = pr->is_variant ? "this variant" : pr->mode;

  slowdown_interval(m, &lo, &hi);
  pr->flag = hp__flag_of(lo, hi, sd, s->warn);
  if (pr->flag == HP_FLAG_UNCONFIRMED) {
    /* The change in the unit the table shows it in: 79.02x, not +7801.81%. */
    pr->advice =
        hp__asprintf("%s from %zu run(s): too few runs for a %.4g%% interval, so "
                     "neither ok nor beyond warn (%.1f%%) can be shown: use repeat >= 5",
                     hp__fmt_overhead(iv, sizeof(iv), sd), m->st.n, level(s), s->warn * 100);
    return;
  }
  if (pr->flag == HP_FLAG_DISTORTED) {
    pr->advice = hp__asprintf("%s makes %s read %.2fx the baseline: use it to attribute, never "
                              "quote its time as performance%s",
                              what, m->name ? m->name : "the metric", sd,
                              pr->expect_distorted ? " (expected)" : "");
  } else if (pr->flag == HP_FLAG_PERTURBED) {
    /* A variant's change is the point of the A/B run; its verdict and summary say it. */
    if (!pr->is_variant)
      pr->advice = hp__asprintf("%s changes %s by %s (wholly beyond warn): compare times only "
                                "within this mode",
                                what, m->name ? m->name : "the metric",
                                hp__fmt_change(iv, sizeof(iv), sd, lo, hi, HP__CHG_BOTH));
  } else if (pr->flag == HP_FLAG_INCONCLUSIVE) {
    pr->advice = inconclusive_advice(s, m, lo, hi);
  }
}

static void flag_pass(const hp_session *s, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];

  free(pr->advice);
  pr->advice = NULL;
  if (pass_failed(pr)) {
    pr->flag = HP_FLAG_FAILED;
    pr->advice = failure_advice(pr);
    return;
  }
  if (pr->is_baseline || pr->is_reference) {
    pr->flag = HP_FLAG_BASELINE;
    /* Over half of warn, an overhead near warn is within the baseline's own spread. */
    if (!isnan(m->st.cv) && m->st.cv > s->warn / 2)
      pr->advice = hp__asprintf("the baseline's own noise (CV %.2f%%) is over half of warn "
                                "(%.1f%%): an overhead near warn cannot be told from noise "
                                "(more repeat, or a quieter machine)",
                                m->st.cv * 100, s->warn * 100);
    return;
  }
  if (isnan(hp__slowdown(m))) {
    pr->flag = HP_FLAG_FAILED;
    pr->advice = hp__strdup("no overhead: the baseline has no value for the primary metric");
    return;
  }
  flag_measured(s, pr);
}

int hp__session_look(hp_session *s, const hp_plan *plan)
{
  size_t i;
  int r;

  if ((r = hp__session_measure(s, plan)) != 0)
    return r;
  for (i = 0; i < s->npasses; i++)
    flag_pass(s, &s->passes[i]);
  return 0;
}

int hp__session_analyze(hp_session *s, const hp_plan *plan)
{
  int r;

  /* The statistics and flags are what a look between rounds of `repeat: auto` computes. */
  if ((r = hp__session_look(s, plan)) != 0)
    return r;
  /* Verdicts need the plan's gates; without a plan the verdicts are left as they are. */
  if (plan)
    hp__session_verdicts(s, plan);
  hp__causes_free(s->causes, s->ncauses);
  s->causes = NULL;
  s->ncauses = 0;
  return hp__session_causes(s, plan, &s->causes, &s->ncauses);
}

int hp__look_next(int min, int max, int n)
{
  int k = min, next;

  while (k <= n && k < max) {
    next = (3 * k + 1) / 2; /* 1.5 times, rounded up */
    k = next > k ? next : k + 1;
  }
  if (k > max)
    k = max;
  return k > n ? k : 0;
}

int hp__look_count(int min, int max)
{
  int n = 1, k = min;

  while ((k = hp__look_next(min, max, k)) != 0)
    n++;
  return n;
}

int hp__look_base(int n, int looks, double alpha)
{
  double need = 2.0 * looks / alpha, c;
  int m, i;

  /* C(m + n, n) grows with m; it is recomputed for each m, a loop of at most a few dozen steps
   * for any sensible plan, each exact enough in double for a comparison with `need`. */
  for (m = n > 1 ? n : 1; m < 100000; m++) {
    for (c = 1, i = 1; i <= n && c < need; i++)
      c = c * (m + i) / i;
    if (c >= need)
      return m;
  }
  return m;
}

int hp__pass_resolved(const hp_pass_result *pr, double precision)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;

  if (m == NULL || pr->flag == HP_FLAG_FAILED)
    return 1;
  /* A pass expected to distort is there for its tables: its ratio only needs to be known well. */
  if (pr->expect_distorted)
    return !isnan(m->ci_lo) && !isnan(m->ci_hi) && m->ratio > 0 &&
        !hp_stats_beyond(m->ci_hi / m->ratio - 1, precision) &&
        !hp_stats_beyond(1 - m->ci_lo / m->ratio, precision);
  return pr->flag == HP_FLAG_OK || pr->flag == HP_FLAG_PERTURBED || pr->flag == HP_FLAG_DISTORTED;
}
