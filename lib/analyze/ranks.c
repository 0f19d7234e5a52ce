/*
 * Per-rank statistics of launched runs (docs/cluster.md, "Ranks"): for each pass, the spread of
 * the primary metric over the ranks of one run (min, median, max, and the imbalance max/median),
 * and the profiled ranks against the unprofiled ones of the same run, which is the distortion a
 * profiled rank imposes on the others (or suffers itself). Each figure is computed per counted
 * run and the pass gets the median over its runs, so that one noisy run does not decide it.
 */
#include "analyze/ranks.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One run's figures; NaN when it has no finite rank value. */
typedef struct run_fig {
  double min, median, max, imbalance, prof, unprof, ratio;
  size_t nranks, nprofiled;
} run_fig;

static void run_figures(const hp_run_launch *rl, double *buf, double *pbuf, double *ubuf,
                        run_fig *f)
{
  size_t i, n = 0, np = 0, nu = 0;

  f->nprofiled = 0;
  for (i = 0; i < rl->nranks; i++) {
    double v = rl->ranks[i].values ? rl->ranks[i].values[0] : NAN;
    f->nprofiled += rl->ranks[i].profiled != 0;
    if (!isfinite(v))
      continue;
    buf[n++] = v;
    if (rl->ranks[i].profiled)
      pbuf[np++] = v;
    else
      ubuf[nu++] = v;
  }
  f->nranks = rl->nranks;
  f->min = f->max = NAN;
  for (i = 0; i < n; i++) {
    if (i == 0 || buf[i] < f->min)
      f->min = buf[i];
    if (i == 0 || buf[i] > f->max)
      f->max = buf[i];
  }
  f->median = hp_stats_median(buf, n);
  f->imbalance = n && f->median > 0 ? f->max / f->median : NAN;
  f->prof = np ? hp_stats_median(pbuf, np) : NAN;
  f->unprof = nu ? hp_stats_median(ubuf, nu) : NAN;
  f->ratio = np && nu && f->unprof > 0 ? f->prof / f->unprof - 1 : NAN;
}

/* The median over runs of the field at `off` of each run's figures. */
static double median_of(const run_fig *figs, size_t n, size_t off, double *tmp)
{
  size_t i;

  for (i = 0; i < n; i++)
    memcpy(&tmp[i], (const char *)&figs[i] + off, sizeof(double));
  return hp_stats_median(tmp, n);
}

/* Fills pr->ranks from the pass's counted launched runs; NULL stays NULL when there are none. */
static int pass_ranks(hp_pass_result *pr)
{
  size_t i, nr = 0, maxr = 0, nf = 0;
  run_fig *figs = NULL;
  double *buf = NULL, *tmp = NULL;
  hp_rank_stats *st;
  int r = HP_ENOMEM;

  for (i = 0; i < pr->nruns; i++)
    if (pr->runs[i].launch && !pr->runs[i].warmup && !pr->runs[i].skipped) {
      nr++;
      if (pr->runs[i].launch->nranks > maxr)
        maxr = pr->runs[i].launch->nranks;
    }
  if (nr == 0 || maxr == 0)
    return 0;
  figs = calloc(nr, sizeof(*figs));
  buf = calloc(3 * maxr, sizeof(double));
  tmp = calloc(nr, sizeof(double));
  if (figs == NULL || buf == NULL || tmp == NULL || (st = calloc(1, sizeof(*st))) == NULL)
    goto fail;
  for (i = 0; i < pr->nruns; i++)
    if (pr->runs[i].launch && !pr->runs[i].warmup && !pr->runs[i].skipped)
      run_figures(pr->runs[i].launch, buf, buf + maxr, buf + 2 * maxr, &figs[nf++]);
  st->nranks = maxr;
  st->nprofiled = figs[nf - 1].nprofiled;
  st->min = median_of(figs, nf, offsetof(run_fig, min), tmp);
  st->median = median_of(figs, nf, offsetof(run_fig, median), tmp);
  st->max = median_of(figs, nf, offsetof(run_fig, max), tmp);
  st->imbalance = median_of(figs, nf, offsetof(run_fig, imbalance), tmp);
  st->profiled_median = median_of(figs, nf, offsetof(run_fig, prof), tmp);
  st->unprofiled_median = median_of(figs, nf, offsetof(run_fig, unprof), tmp);
  st->profiled_ratio = median_of(figs, nf, offsetof(run_fig, ratio), tmp);
  free(pr->ranks);
  pr->ranks = st;
  r = 0;

fail:
  free(figs);
  free(buf);
  free(tmp);
  return r;
}

int hp__session_ranks(hp_session *s)
{
  size_t i;
  int r;

  for (i = 0; i < s->npasses; i++)
    if ((r = pass_ranks(&s->passes[i])) != 0)
      return r;
  return 0;
}
