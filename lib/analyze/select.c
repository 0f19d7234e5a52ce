/*
 * Order statistics without full sorts: quickselect for medians and quantiles, and a counting
 * resampler for bootstrap medians, so that a bootstrap of thousands of resamples does not sort
 * each one. Every function here returns the same double as a sort would, for every input
 * (tests/unit/test_select.c compares both on random inputs with ties): selection and counting only
 * pick values, and the arithmetic on the picked values is that of the sorted copy.
 */
#include "analyze/select.h"
#include "util/base/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hp__cmp_double(const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;

  return (a > b) - (a < b);
}

static void swap(double *v, size_t i, size_t j)
{
  double t = v[i];

  v[i] = v[j];
  v[j] = t;
}

/* Hoare's partition of v[lo..hi] around the median of v[lo], v[mid], v[hi]. Returns j with
 * v[lo..j] <= pivot <= v[j+1..hi] and lo <= j < hi, so both parts shrink: the scans keep
 * v[lo..i-1] <= pivot <= v[j+1..hi], stop at most one apart, and the first round can only meet at
 * mid (< hi), after which j has moved below hi. */
static size_t partition(double *v, size_t lo, size_t hi)
{
  size_t mid = lo + (hi - lo) / 2, i, j;
  double p;

  if (v[mid] < v[lo])
    swap(v, mid, lo);
  if (v[hi] < v[lo])
    swap(v, hi, lo);
  if (v[hi] < v[mid])
    swap(v, hi, mid);
  p = v[mid];
  /* v[lo] <= p and v[hi] >= p are sentinels for the two scans. */
  i = lo;
  j = hi;
  for (;;) {
    while (v[i] < p)
      i++;
    while (v[j] > p)
      j--;
    if (i >= j)
      return j;
    swap(v, i, j);
    i++;
    j--;
  }
}

double hp__select(double *v, size_t n, size_t k)
{
  size_t lo = 0, hi = n - 1, j, rounds = 0;

  /* Introselect's guard: after many poor pivots, sort what is left (O(n log n) at worst). */
  while (hi > lo + 16 && ++rounds <= 64) {
    j = partition(v, lo, hi);
    if (k <= j)
      hi = j;
    else
      lo = j + 1;
  }
  qsort(v + lo, hi - lo + 1, sizeof(*v), hp__cmp_double);
  return v[k];
}

double hp__median_inplace(double *v, size_t n)
{
  double lo, hi;
  size_t i;

  if (n == 0)
    return NAN;
  hi = hp__select(v, n, n / 2);
  if (n % 2)
    return hi;
  /* After the selection, the lower middle value is the largest of the lower half. */
  lo = v[0];
  for (i = 1; i < n / 2; i++)
    if (v[i] > lo)
      lo = v[i];
  /* Halving first keeps the mean of two huge values from overflowing. */
  return lo / 2 + hi / 2;
}

double hp__quantile_inplace(double *v, size_t n, double q)
{
  double h = (double)(n - 1) * q, frac, a, b;
  size_t i = (size_t)floor(h), j;

  if (i >= n - 1)
    return hp__select(v, n, n - 1);
  frac = h - (double)i;
  a = hp__select(v, n, i);
  if (frac == 0)
    return a;
  /* The next order statistic is the smallest value above position i. */
  b = v[i + 1];
  for (j = i + 2; j < n; j++)
    if (v[j] < b)
      b = v[j];
  if (a == b)
    return a;
  if (!isfinite(a) || !isfinite(b))
    return frac < 0.5 ? a : b;
  return a + frac * (b - a);
}

/* ---------------------------------------------------------------------------------------------- */
/* Resampler                                                                                        */

typedef struct ranked {
  double v;
  uint32_t i;
} ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
  const ranked *a = pa, *b = pb;

  if (a->v != b->v)
    return (a->v > b->v) - (a->v < b->v);
  return (a->i > b->i) - (a->i < b->i);
}

void hp__resampler_free(hp__resampler *rs)
{
  if (rs == NULL)
    return;
  free(rs->sorted);
  free(rs->rank);
  free(rs->count);
  free(rs->draw);
  memset(rs, 0, sizeof(*rs));
}

int hp__resampler_init(hp__resampler *rs, const double *x, size_t n)
{
  ranked *tmp = NULL;
  size_t i;

  memset(rs, 0, sizeof(*rs));
  if (n == 0 || n > UINT32_MAX)
    return HP_EINVAL;
  rs->n = n;
  rs->sorted = malloc(n * sizeof(*rs->sorted));
  rs->rank = malloc(n * sizeof(*rs->rank));
  rs->count = malloc(n * sizeof(*rs->count));
  rs->draw = malloc(n * sizeof(*rs->draw));
  tmp = malloc(n * sizeof(*tmp));
  if (rs->sorted == NULL || rs->rank == NULL || rs->count == NULL || rs->draw == NULL ||
      tmp == NULL)
    goto fail;
  for (i = 0; i < n; i++)
    tmp[i].v = x[i], tmp[i].i = (uint32_t)i;
  qsort(tmp, n, sizeof(*tmp), cmp_ranked);
  for (i = 0; i < n; i++) {
    rs->sorted[i] = tmp[i].v;
    rs->rank[tmp[i].i] = (uint32_t)i;
  }
  free(tmp);
  return 0;

fail:
  free(tmp);
  hp__resampler_free(rs);
  return HP_ENOMEM;
}

double hp__resample_median(hp__resampler *rs, hp_rng *rng)
{
  size_t n = rs->n, i, r = 0, cum = 0, k1 = (n - 1) / 2, k2 = n / 2;
  double a;

  hp__rng_below_many(rng, n, rs->draw, n);
  memset(rs->count, 0, n * sizeof(*rs->count));
  for (i = 0; i < n; i++)
    rs->count[rs->rank[rs->draw[i]]]++;
  /* The value of rank r fills positions cum..cum+count[r]-1 of the sorted resample. */
  while (cum + rs->count[r] <= k1)
    cum += rs->count[r++];
  a = rs->sorted[r];
  if (k2 == k1)
    return a;
  if (k2 >= cum + rs->count[r])
    while (rs->count[++r] == 0)
      ;
  /* Halving first keeps the mean of two huge values from overflowing (as hp__median_inplace). */
  return a / 2 + rs->sorted[r] / 2;
}
