/*
 * Order statistics without full sorts (lib/analyze/select.c), for the statistics of stats.c.
 * A median or quantile by selection is the same double as the one read from a fully sorted copy:
 * selection only moves values, and every order statistic is one of the inputs. The in-place
 * functions permute the caller's array (no NaN allowed; infinities are fine). The resampler owns
 * its buffers (hp__resampler_free); the values it was made from stay the caller's.
 */
#ifndef HPRUN_ANALYZE_SELECT_H
#define HPRUN_ANALYZE_SELECT_H

#include "hprun.h"

#include <stddef.h>
#include <stdint.h>

/* qsort's comparison of two doubles, ascending. */
int hp__cmp_double(const void *pa, const void *pb);
/* The k-th smallest (0-based) of v[0..n), k < n; afterwards v[i] <= v[k] <= v[j] for i < k < j. */
double hp__select(double *v, size_t n, size_t k);
/* The median of v[0..n) (NaN for n == 0): the middle value, or the mean of the middle two. */
double hp__median_inplace(double *v, size_t n);
/* The q-quantile of v[0..n), n > 0, by linear interpolation between order statistics
 * (Hyndman-Fan type 7); infinite neighbours are not interpolated. */
double hp__quantile_inplace(double *v, size_t n, double q);

/* Medians of bootstrap resamples of fixed values. Each value's rank in sorted order is found once;
 * a resample then only counts how often each rank was drawn and walks the counts to the middle,
 * O(n) without comparisons, and gives exactly the median of the resample sorted in full. */
typedef struct hp__resampler {
  size_t n;
  double *sorted;  /* the values in ascending order */
  uint32_t *rank;  /* rank[i]: where value i (in the given order) sits in sorted[] */
  uint32_t *count; /* per-rank draw counts of one resample */
  uint32_t *draw;  /* the indices drawn for one resample */
} hp__resampler;

/* Prepares resampling of x[0..n) (finite values, 0 < n <= UINT32_MAX). Returns 0, HP_EINVAL or
 * HP_ENOMEM (*rs then empty and safe to free). */
int hp__resampler_init(hp__resampler *rs, const double *x, size_t n);
void hp__resampler_free(hp__resampler *rs);
/* Draws n indices below n from rng, exactly as n calls of hp_rng_below(rng, n) would, and returns
 * the median of the values drawn. */
double hp__resample_median(hp__resampler *rs, hp_rng *rng);

#endif
