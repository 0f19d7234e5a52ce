/*
 * Statistics for timing samples: robust summaries, the Mann-Whitney U test, a percentile bootstrap
 * of a ratio of medians (drawing from the seeded PRNG in lib/util/base/rng.c), the verdict that
 * combines them, and the tolerant comparison of a change with a threshold. Why each piece is here
 * and which numbers it was checked against: docs/internals/stats.md.
 *
 * Every entry point first copies the finite samples into a private array, so callers may pass runs
 * that failed as NaN and keep their arrays untouched. Medians, MADs, the bootstrap's resamples and
 * its quantiles come from selection (select.c), not full sorts: the same doubles, in O(n).
 */
#include "hprun.h"
#include "analyze/select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                          */

/* Copies the finite values of x[0..n) into a new array *out (free() it; never NULL on success,
 * even when *nout is 0) and sorts it when `sort` is set. Returns 0 or HP_ENOMEM (*out NULL). */
static int finite_copy(const double *x, size_t n, int sort, double **out, size_t *nout)
{
  size_t i, m = 0;
  double *v;

  *out = NULL;
  *nout = 0;
  v = malloc((n ? n : 1) * sizeof(*v));
  if (v == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++)
    if (isfinite(x[i]))
      v[m++] = x[i];
  if (sort && m > 1)
    qsort(v, m, sizeof(*v), hp__cmp_double);
  *out = v;
  *nout = m;
  return 0;
}

/* The raw MAD of finite samples s[0..n) around med. Returns 0 or HP_ENOMEM. */
static int sorted_mad(const double *s, size_t n, double med, double *mad)
{
  double *dev;
  size_t i;

  *mad = NAN;
  if (n == 0)
    return 0;
  dev = malloc(n * sizeof(*dev));
  if (dev == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++)
    dev[i] = fabs(s[i] - med);
  *mad = hp__median_inplace(dev, n);
  free(dev);
  return 0;
}

/* The Iglewicz-Hoaglin rule: |0.6745 (x - median) / MAD| > z, with z = 3.5 by default, which is
 * |x - median| > 5.19 MAD. 0.6745 is the 0.75 quantile of N(0,1), which makes MAD / 0.6745 a
 * consistent estimate of sigma for normal data. A zero MAD (half the runs identical) would make
 * every other point infinitely far; we call none an outlier then. This is not hyperfine's rule:
 * hyperfine flags |x - median| / MAD > 14.826 (ten sigmas) and, for a zero MAD, divides by a tiny
 * epsilon instead, so it flags far fewer points in general and every differing point then. */
static int is_outlier(double x, double med, double mad, double z)
{
  if (!(mad > 0) || !isfinite(x))
    return 0;
  return fabs(0.6745 * (x - med) / mad) > z;
}

double hp_stats_median(const double *x, size_t n)
{
  double *s, med;
  size_t m;

  if (x == NULL || finite_copy(x, n, 0, &s, &m))
    return NAN;
  med = hp__median_inplace(s, m);
  free(s);
  return med;
}

int hp_stats_summarize(const double *x, size_t n, double outlier_z, hp_summary_stats *out)
{
  hp_summary_stats st;
  double *s = NULL, sum = 0, ss = 0;
  size_t i, m;
  int err;

  if (out == NULL || (x == NULL && n > 0))
    return HP_EINVAL;
  if (outlier_z <= 0 || isnan(outlier_z))
    outlier_z = HP_STATS_OUTLIER_Z;
  if ((err = finite_copy(x, n, 1, &s, &m)) != 0)
    goto fail;
  st.n = m;
  st.noutliers = 0;
  st.median = st.mean = st.sd = st.mad = st.cv = st.min = st.max = NAN;
  if (m > 0) {
    st.min = s[0];
    st.max = s[m - 1];
    for (i = 0; i < m; i++)
      sum += s[i];
    st.mean = sum / (double)m;
    /* Two passes (mean first, then squared deviations) stay accurate for timings that differ
     * only in their last digits, where the one-pass sum-of-squares formula cancels badly. */
    if (m > 1) {
      for (i = 0; i < m; i++)
        ss += (s[i] - st.mean) * (s[i] - st.mean);
      st.sd = sqrt(ss / (double)(m - 1));
      st.cv = st.mean != 0 ? st.sd / st.mean : NAN;
    }
    /* Last, as the selection reorders s (the sums above follow the sorted order). */
    st.median = hp__median_inplace(s, m);
    if ((err = sorted_mad(s, m, st.median, &st.mad)) != 0)
      goto fail;
    for (i = 0; i < m; i++)
      st.noutliers += (size_t)is_outlier(s[i], st.median, st.mad, outlier_z);
  }
  *out = st;

fail:
  free(s);
  return err;
}

int hp_stats_outliers(const double *x, size_t n, double outlier_z, unsigned char *flags)
{
  double *s = NULL, med, mad;
  size_t i, m;
  int err;

  if (flags == NULL && n > 0)
    return HP_EINVAL;
  if (n > 0)
    memset(flags, 0, n);
  if (x == NULL && n > 0)
    return HP_EINVAL;
  if (outlier_z <= 0 || isnan(outlier_z))
    outlier_z = HP_STATS_OUTLIER_Z;
  if ((err = finite_copy(x, n, 0, &s, &m)) != 0)
    goto fail;
  med = hp__median_inplace(s, m);
  if ((err = sorted_mad(s, m, med, &mad)) != 0)
    goto fail;
  for (i = 0; i < n; i++)
    flags[i] = (unsigned char)is_outlier(x[i], med, mad, outlier_z);

fail:
  free(s);
  return err;
}

/* ---------------------------------------------------------------------------------------------- */
/* Mann-Whitney U                                                                                   */

typedef struct tagged {
  double v;
  int group; /* 0: sample a, 1: sample b */
} tagged;

static int cmp_tagged(const void *pa, const void *pb)
{
  return hp__cmp_double(&((const tagged *)pa)->v, &((const tagged *)pb)->v);
}

/* Counts, for every u in [0, na*nb], how many of the C(na+nb, na) equally likely rank assignments
 * give U = u. That generating function is the Gaussian binomial coefficient [na+nb choose k]_q
 * (k = min(na, nb)), built as the product over i = 1..k of (1 - q^(N-k+i)) / (1 - q^i). After
 * each factor pair the partial product is itself a Gaussian binomial, so every division is exact
 * and the integers stay within C(N, k) <= C(40, 20) < 2^38 (times two in between): int64 is
 * plenty. *out (free() it) has na*nb + 1 entries. Returns 0 or HP_ENOMEM. */
static int mw_counts(size_t na, size_t nb, int64_t **out)
{
  size_t N = na + nb, k = na < nb ? na : nb, i, u, deg = 0, f;
  int64_t *c;

  /* Multiplying before dividing briefly raises the degree by up to k above the final na*nb. */
  c = calloc(na * nb + N + 1, sizeof(*c));
  *out = c;
  if (c == NULL)
    return HP_ENOMEM;
  c[0] = 1;
  for (i = 1; i <= k; i++) {
    f = N - k + i;
    for (u = deg + f; u >= f; u--) /* times (1 - q^f), from the top so c[u - f] is old */
      c[u] -= c[u - f];
    for (u = i; u <= deg + f; u++) /* over (1 - q^i): r[u] = p[u] + r[u - i] */
      c[u] += c[u - i];
    deg += f - i;
  }
  return 0;
}

/* The rank sum of sample a among both samples pooled, with mid-ranks for ties, and the variance's
 * tie correction sum(t^3 - t) over every run of t equal values. Returns 0 or HP_ENOMEM. */
static int mw_rank_sum(const double *fa, size_t ma, const double *fb, size_t mb, double *ra,
                       double *ties)
{
  size_t n = ma + mb, i, j, k, t;
  tagged *all = malloc(n * sizeof(*all));
  double rank;

  *ra = *ties = 0;
  if (all == NULL)
    return HP_ENOMEM;
  for (i = 0; i < ma; i++)
    all[i].v = fa[i], all[i].group = 0;
  for (i = 0; i < mb; i++)
    all[ma + i].v = fb[i], all[ma + i].group = 1;
  qsort(all, n, sizeof(*all), cmp_tagged);

  /* Mid-ranks: a run of t equal values at 0-based positions i..j-1 all get the mean of ranks
   * i+1..j. The run also adds t^3 - t to the variance's tie correction. */
  for (i = 0; i < n; i = j) {
    for (j = i + 1; j < n && all[j].v == all[i].v; j++)
      ;
    t = j - i;
    if (t > 1)
      *ties += (double)t * (double)t * (double)t - (double)t;
    rank = ((double)i + 1 + (double)j) / 2;
    for (k = i; k < j; k++)
      if (all[k].group == 0)
        *ra += rank;
  }
  free(all);
  return 0;
}

/* The exact two-sided p: twice the share of the U distribution at or above umax (no ties).
 * Returns 0 or HP_ENOMEM. */
static int mw_exact_p(size_t ma, size_t mb, double umax, double *p)
{
  int64_t *counts = NULL, total = 0, tail = 0;
  size_t k, kmax = ma * mb, from = (size_t)llround(umax);

  if (mw_counts(ma, mb, &counts))
    return HP_ENOMEM;
  for (k = 0; k <= kmax; k++) {
    total += counts[k];
    if (k >= from)
      tail += counts[k];
  }
  free(counts);
  *p = 2.0 * (double)tail / (double)total;
  return 0;
}

/* The two-sided p from the normal approximation, with the tie and continuity corrections. */
static double mw_normal_p(size_t ma, size_t mb, double umax, double ties)
{
  double n1n2 = (double)ma * (double)mb, mu = n1n2 / 2, N = (double)(ma + mb), sigma, z;

  sigma = sqrt(n1n2 / 12 * ((N + 1) - ties / (N * (N - 1))));
  if (!(sigma > 0))
    return 1; /* every value equal: nothing to tell the samples apart */
  /* The 0.5 is the continuity correction: U moves in steps of (at least) one half. */
  z = (umax - mu - 0.5) / sigma;
  return erfc(z / sqrt(2.0));
}

int hp_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
                          double *p)
{
  double *fa = NULL, *fb = NULL, ra, ties, u1, umax, n1n2;
  size_t ma, mb;
  int err;

  if (u == NULL || p == NULL || (a == NULL && na > 0) || (b == NULL && nb > 0))
    return HP_EINVAL;
  *u = *p = NAN;
  if ((err = finite_copy(a, na, 0, &fa, &ma)) != 0 || (err = finite_copy(b, nb, 0, &fb, &mb)) != 0)
    goto done;
  if (ma == 0 || mb == 0)
    goto done;
  if ((err = mw_rank_sum(fa, ma, fb, mb, &ra, &ties)) != 0)
    goto done;
  u1 = ra - (double)ma * ((double)ma + 1) / 2;
  *u = u1;
  n1n2 = (double)ma * (double)mb;
  /* By symmetry of the null distribution, the two-sided p is twice the upper tail at the larger
   * of U1 and U2 = n1*n2 - U1. */
  umax = u1 > n1n2 - u1 ? u1 : n1n2 - u1;
  if (ma <= HP_STATS_MW_EXACT_MAX && mb <= HP_STATS_MW_EXACT_MAX && ties == 0) {
    if ((err = mw_exact_p(ma, mb, umax, p)) != 0)
      goto done;
  } else {
    *p = mw_normal_p(ma, mb, umax, ties);
  }
  if (*p > 1)
    *p = 1;
  if (*p < 0)
    *p = 0;

done:
  free(fa);
  free(fb);
  return err;
}

/* ---------------------------------------------------------------------------------------------- */
/* Bootstrap                                                                                        */

/* The interval of median(b) / median(a), or of median(b) - median(a) when diff is 1. */
static int bootstrap_medians(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                             double level, uint64_t seed, int diff, double *lo, double *hi)
{
  double *fa = NULL, *fb = NULL, *ratios = NULL, r;
  hp__resampler ra = {0}, rb = {0};
  size_t ma, mb, m = 0, it;
  hp_rng rng;
  int err;

  if (lo == NULL || hi == NULL || (a == NULL && na > 0) || (b == NULL && nb > 0))
    return HP_EINVAL;
  *lo = *hi = NAN;
  if (!(level > 0 && level < 1))
    return HP_EINVAL;
  if (iters == 0)
    iters = HP_STATS_BOOTSTRAP_ITERS;

  /* Resampling works on the finite values in their given order, so the interval depends only
   * on the inputs, the seed and the PRNG, never on qsort's tie order or the platform. */
  if ((err = finite_copy(a, na, 0, &fa, &ma)) != 0 || (err = finite_copy(b, nb, 0, &fb, &mb)) != 0)
    goto fail;
  if (ma == 0 || mb == 0)
    goto done;
  if ((err = hp__resampler_init(&ra, fa, ma)) != 0 || (err = hp__resampler_init(&rb, fb, mb)) != 0)
    goto fail;
  err = HP_ENOMEM;
  ratios = malloc((size_t)iters * sizeof(*ratios));
  if (ratios == NULL)
    goto fail;

  /* Each resample draws ma indices for a, then mb for b, from one stream: the order of draws is
   * part of the result, so it must not change. */
  hp_rng_seed(&rng, seed);
  for (it = 0; it < iters; it++) {
    double ma_ = hp__resample_median(&ra, &rng);
    double mb_ = hp__resample_median(&rb, &rng);
    r = diff ? mb_ - ma_ : mb_ / ma_;
    if (!isnan(r))
      ratios[m++] = r;
  }
  /* Both quantiles by selection on the same array: the second only needs the multiset. */
  if (m > 0) {
    *lo = hp__quantile_inplace(ratios, m, (1 - level) / 2);
    *hi = hp__quantile_inplace(ratios, m, 1 - (1 - level) / 2);
  }

done:
  err = 0;

fail:
  free(ratios);
  hp__resampler_free(&ra);
  hp__resampler_free(&rb);
  free(fa);
  free(fb);
  return err;
}

int hp_stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                             double level, uint64_t seed, double *lo, double *hi)
{
  return bootstrap_medians(a, na, b, nb, iters, level, seed, 0, lo, hi);
}

int hp_stats_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                            double level, uint64_t seed, double *lo, double *hi)
{
  return bootstrap_medians(a, na, b, nb, iters, level, seed, 1, lo, hi);
}

/* ---------------------------------------------------------------------------------------------- */
/* Interval of a multiplicative shift                                                               */

/* The z with P(Z > z) = tail for a standard normal Z, by bisection on erfc: 0.5 * erfc(z / sqrt 2)
 * falls monotonically, and 200 halvings of [-40, 40] reach the last bit of a double. */
static double normal_upper_quantile(double tail)
{
  double lo = -40, hi = 40, mid;
  int i;

  for (i = 0; i < 200; i++) {
    mid = (lo + hi) / 2;
    if (0.5 * erfc(mid / sqrt(2.0)) > tail)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

/* The largest k with P(U <= k - 1) <= tail under the null distribution of U for samples of ma and
 * mb: exact (counted) up to HP_STATS_MW_EXACT_MAX per sample, else the normal approximation with
 * the continuity correction. 0 means no k: these sizes cannot bound the interval at this level.
 * Returns 0 or HP_ENOMEM. */
static int shift_rank(size_t ma, size_t mb, double tail, size_t *k)
{
  size_t u, mn = ma * mb;
  int64_t *counts = NULL, total = 0, cum = 0;
  double kk, sigma;

  *k = 0;
  if (ma <= HP_STATS_MW_EXACT_MAX && mb <= HP_STATS_MW_EXACT_MAX) {
    if (mw_counts(ma, mb, &counts))
      return HP_ENOMEM;
    for (u = 0; u <= mn; u++)
      total += counts[u];
    for (u = 0; u <= mn / 2; u++) {
      cum += counts[u];
      if ((double)cum > tail * (double)total)
        break;
      *k = u + 1;
    }
    free(counts);
    return 0;
  }
  sigma = sqrt((double)mn * (double)(ma + mb + 1) / 12);
  kk = floor((double)mn / 2 + 0.5 - normal_upper_quantile(tail) * sigma);
  *k = kk > 0 ? (size_t)kk : 0;
  return 0;
}

int hp_stats_shift_interval(const double *a, size_t na, const double *b, size_t nb, double level,
                            double *lo, double *hi)
{
  double *fa = NULL, *fb = NULL, *d = NULL;
  size_t ma, mb, i, j, k, mn;
  int err;

  if (lo == NULL || hi == NULL || (a == NULL && na > 0) || (b == NULL && nb > 0))
    return HP_EINVAL;
  *lo = *hi = NAN;
  if (!(level > 0 && level < 1))
    return HP_EINVAL;
  if ((err = finite_copy(a, na, 0, &fa, &ma)) != 0 || (err = finite_copy(b, nb, 0, &fb, &mb)) != 0)
    goto fail;
  mn = ma * mb;
  if (ma == 0 || mb == 0 || mn > HP_STATS_SHIFT_MAX_PAIRS)
    goto done;
  for (i = 0; i < ma; i++)
    if (!(fa[i] > 0))
      goto done;
  for (j = 0; j < mb; j++)
    if (!(fb[j] > 0))
      goto done;
  if ((err = shift_rank(ma, mb, (1 - level) / 2, &k)) != 0)
    goto fail;
  if (k == 0)
    goto done;
  err = HP_ENOMEM;
  if ((d = malloc(mn * sizeof(*d))) == NULL)
    goto fail;
  /* Every pairwise difference of logs: the k-th smallest and the k-th largest bound the shift. */
  for (i = 0; i < ma; i++)
    for (j = 0; j < mb; j++)
      d[i * mb + j] = log(fb[j]) - log(fa[i]);
  *lo = exp(hp__select(d, mn, k - 1));
  *hi = exp(hp__select(d, mn, mn - k));

done:
  err = 0;

fail:
  free(d);
  free(fa);
  free(fb);
  return err;
}

/* ---------------------------------------------------------------------------------------------- */
/* Verdict                                                                                          */

static size_t count_finite(const double *x, size_t n)
{
  size_t i, m = 0;

  for (i = 0; i < n; i++)
    m += isfinite(x[i]) != 0;
  return m;
}

/* The smallest two-sided p that the exact Mann-Whitney test can give for samples of these sizes:
 * both tails' most extreme arrangement, 2 / C(na + nb, na). Ties can only make the exact p larger,
 * but with ties hprun uses the normal approximation, which can go below this floor: [1, 1, 1]
 * against [1.3, 1.3, 1.3] gives p = 0.047 where the exact floor is 0.1. The floor rule in
 * hp_stats_compare uses this exact value on purpose, so that a p below it, an artefact of the
 * approximation, never turns "too few runs" into a verdict. */
static double min_attainable_p(size_t na, size_t nb)
{
  double c = 1.0;
  size_t i, k = na < nb ? na : nb;

  for (i = 1; i <= k; i++)
    c = c * (double)(na + nb - k + i) / (double)i;
  return c > 0 ? 2.0 / c : 1.0;
}

int hp_stats_compare(const double *a, size_t na, const double *b, size_t nb, double alpha,
                     uint64_t seed, hp_significance *sig, double *ratio, double *p, double *ci_lo,
                     double *ci_hi)
{
  double r = NAN, pv = NAN, u, lo = NAN, hi = NAN;
  size_t ma, mb;
  int err;

  if (sig == NULL)
    return HP_EINVAL;
  *sig = HP_SIG_UNKNOWN;
  if (ratio)
    *ratio = NAN;
  if (p)
    *p = NAN;
  if (ci_lo)
    *ci_lo = NAN;
  if (ci_hi)
    *ci_hi = NAN;
  if ((a == NULL && na > 0) || (b == NULL && nb > 0) || isnan(alpha) || alpha >= 1)
    return HP_EINVAL;
  if (alpha <= 0)
    alpha = HP_STATS_ALPHA;

  ma = a ? count_finite(a, na) : 0;
  mb = b ? count_finite(b, nb) : 0;
  if (ma > 0 && mb > 0) {
    r = hp_stats_median(b, nb) / hp_stats_median(a, na);
    if ((err = hp_stats_mann_whitney(a, na, b, nb, &u, &pv)) != 0)
      return err;
  }
  /* The interval's level matches alpha, so "excludes 1.0" is the same test at the same level,
   * made on the quantity the report shows. Resampling one or two values gives a handful of
   * ratios, not an interval, so below HP_STATS_MIN_N there is none. */
  if (ma >= HP_STATS_MIN_N && mb >= HP_STATS_MIN_N &&
      (err = hp_stats_bootstrap_ratio(a, na, b, nb, 0, 1 - alpha, seed, &lo, &hi)) != 0)
    return err;
  if (ratio)
    *ratio = r;
  if (p)
    *p = pv;
  if (ci_lo)
    *ci_lo = lo;
  if (ci_hi)
    *ci_hi = hi;
  /* "Not significant" is only an answer when significance was possible: with 3 runs against 3
   * the smallest two-sided p is 2 / C(6, 3) = 0.1, so at alpha 0.05 even a 30% change could never
   * be significant. Below that floor the honest answer is "too few runs to tell". */
  if (ma < HP_STATS_MIN_N || mb < HP_STATS_MIN_N || min_attainable_p(ma, mb) >= alpha)
    *sig = HP_SIG_UNKNOWN;
  else if (pv < alpha && (lo > 1 || hi < 1))
    *sig = HP_SIG_YES;
  else
    *sig = HP_SIG_NO;
  return 0;
}

const char *hp_significance_name(hp_significance s)
{
  switch (s) {
  case HP_SIG_NO: return "no";
  case HP_SIG_YES: return "yes";
  default: return "unknown";
  }
}

int hp_stats_beyond(double change, double limit)
{
  /* The tolerance is relative to the ratio 1 + limit that the change was computed from, not to
   * the limit itself, since the rounding error of a ratio of medians is relative to the ratio. */
  return change > limit + HP_STATS_REL_TOL * (1 + fabs(limit));
}
