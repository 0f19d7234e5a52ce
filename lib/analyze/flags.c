/*
 * Flags and one line of advice per pass, and hp__session_analyze, which judges a session: the
 * statistics (results.c), then the flags, the A/B verdicts (variants.c) and the causes (causes.c),
 * in that order, as each reads what the one before it decided. The rules are in docs/summary.md
 * ("Flags"). A session read back from summary.json keeps its stored flags and advice.
 */
#include "analyze/results.h"
#include "util/base/buf.h"

#include <math.h>
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

/* The flag of a pass whose runs all completed, and its advice (the baseline's is set apart). */
static void flag_measured(const hp_session *s, hp_pass_result *pr)
{
  const hp_metric_result *m = &pr->metrics[0];
  double sd = hp__slowdown(m), over = sd - 1.0;
  const char *what = pr->is_variant ? "this variant" : pr->mode;

  if (sd >= 2.0) {
    pr->flag = HP_FLAG_DISTORTED;
    pr->advice = hp__asprintf("%s makes %s read %.2fx the baseline: use it to attribute, never "
                              "quote its time as performance%s",
                              what, m->name ? m->name : "the metric", sd,
                              pr->expect_distorted ? " (expected)" : "");
    return;
  }
  /* With a tolerance: a change of exactly `warn` (1.05 / 1.0) is within it. */
  if (!hp_stats_beyond(fabs(over), s->warn)) {
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

int hp__session_analyze(hp_session *s, const hp_plan *plan)
{
  size_t i;
  int r;

  if ((r = hp__session_measure(s, plan)) != 0)
    return r;
  for (i = 0; i < s->npasses; i++)
    flag_pass(s, &s->passes[i]);
  /* Verdicts need the plan's gates; without a plan the verdicts are left as they are. */
  if (plan)
    hp__session_verdicts(s, plan);
  hp__causes_free(s->causes, s->ncauses);
  s->causes = NULL;
  s->ncauses = 0;
  return hp__session_causes(s, plan, &s->causes, &s->ncauses);
}
