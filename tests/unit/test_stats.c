/*
 * Tests of lib/analyze/stats.c. Expected values are derived by hand in the comments, or computed
 * here by an independent method (brute-force enumeration of rank assignments, pairwise counting)
 * rather than copied from the implementation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double tol)
{
  if (!(fabs(got - want) <= tol))
    fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

/* Uniform in [0, 1): the top 53 bits of a draw, k / 2^53. */
static double uniform(hp_rng *r)
{
  return (double)(hp_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A standard normal draw by Box-Muller; 1 - uniform is in (0, 1], so the log is finite. */
static double normal(hp_rng *r, double mean, double sd)
{
  double u1 = 1.0 - uniform(r), u2 = uniform(r);

  return mean + sd * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void fill_normal(hp_rng *r, double *x, size_t n, double mean, double sd)
{
  size_t i;

  for (i = 0; i < n; i++)
    x[i] = normal(r, mean, sd);
}

/* ---------------------------------------------------------------------------------------------- */
/* PRNG                                                                                             */

static void test_rng_reference(void **state)
{
  hp_rng r;

  (void)state;
  /* splitmix64 from 1234567: the published sequence (e.g. Rosetta Code's splitmix64 task). */
  hp_rng_seed(&r, 1234567);
  assert_true(r.s[0] == UINT64_C(6457827717110365317));
  assert_true(r.s[1] == UINT64_C(3203168211198807973));
  assert_true(r.s[2] == UINT64_C(9817491932198370423));
  assert_true(r.s[3] == UINT64_C(4593380528125082431));
  /* xoshiro256** on that state, from a separate Python transcription of the reference C code. */
  assert_true(hp_rng_next(&r) == UINT64_C(3504822795582309479));
  assert_true(hp_rng_next(&r) == UINT64_C(1819558768956484042));
  assert_true(hp_rng_next(&r) == UINT64_C(1250851346055027673));
}

static void test_rng_ranges(void **state)
{
  size_t counts[7] = {0}, i, idx[50], seen[50] = {0}, idx2[50];
  hp_rng r, r2;
  double chi = 0, expect;

  (void)state;
  hp_rng_seed(&r, 42);
  assert_int_equal(hp_rng_below(&r, 0), 0);
  assert_int_equal(hp_rng_below(&r, 1), 0);
  for (i = 0; i < 70000; i++) {
    size_t k = hp_rng_below(&r, 7);
    assert_true(k < 7);
    counts[k]++;
  }
  /* Chi-square with 6 degrees of freedom: 22.46 is its 0.999 quantile. */
  expect = 70000.0 / 7;
  for (i = 0; i < 7; i++)
    chi += ((double)counts[i] - expect) * ((double)counts[i] - expect) / expect;
  assert_true(chi < 22.46);

  for (i = 0; i < 50; i++)
    idx[i] = idx2[i] = i;
  hp_rng_seed(&r, 7);
  hp_rng_seed(&r2, 7);
  hp_rng_shuffle(&r, idx, 50);
  hp_rng_shuffle(&r2, idx2, 50);
  assert_memory_equal(idx, idx2, sizeof(idx));
  for (i = 0; i < 50; i++) {
    assert_true(idx[i] < 50);
    seen[idx[i]]++;
  }
  for (i = 0; i < 50; i++)
    assert_int_equal(seen[i], 1);
  /* A shuffle of 50 that leaves every element in place has probability 1/50!. */
  for (i = 0; i < 50 && idx[i] == i; i++)
    ;
  assert_true(i < 50);

  hp_rng_seed(&r, 1);
  hp_rng_seed(&r2, 2);
  assert_true(hp_rng_next(&r) != hp_rng_next(&r2));
}

/* Unbiasedness where a plain modulo would be badly biased: n = 3 * 2^62. 2^64 mod n = 2^62, so
 * x % n would return values below 2^62 half the time instead of a third. */
static void test_rng_below_unbiased(void **state)
{
  const uint64_t n = UINT64_C(3) << 62;
  size_t low = 0, i;
  hp_rng r;

  (void)state;
  if (sizeof(size_t) < 8)
    skip();
  hp_rng_seed(&r, 3);
  for (i = 0; i < 6000; i++)
    low += (uint64_t)hp_rng_below(&r, (size_t)n) < (UINT64_C(1) << 62);
  /* Binomial(6000, 1/3): mean 2000, sd 36.5; the biased rule would give about 3000. */
  assert_in_range(low, 2000 - 200, 2000 + 200);
}

/* All 6 orders of 3 elements must be equally likely; the classic mistake of swapping with any
 * position (27 equally likely paths onto 6 orders) is not. */
static void test_rng_shuffle_uniform(void **state)
{
  size_t counts[6] = {0}, idx[3], i, k;
  double chi = 0;
  hp_rng r;

  (void)state;
  hp_rng_seed(&r, 11);
  for (i = 0; i < 60000; i++) {
    idx[0] = 0, idx[1] = 1, idx[2] = 2;
    hp_rng_shuffle(&r, idx, 3);
    /* Each permutation of {0,1,2} is named by its first two entries. */
    k = idx[0] * 2 + (idx[1] > idx[2]);
    counts[k]++;
  }
  for (k = 0; k < 6; k++)
    chi += ((double)counts[k] - 10000) * ((double)counts[k] - 10000) / 10000;
  /* Chi-square with 5 degrees of freedom: 20.5 is its 0.999 quantile. */
  assert_true(chi < 20.5);
}

/* ---------------------------------------------------------------------------------------------- */
/* Summaries                                                                                        */

static void test_median(void **state)
{
  double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2}, copy[4];
  double withnan[] = {NAN, 7, INFINITY, 1, -INFINITY, 4};

  (void)state;
  assert_close(hp_stats_median(odd, 3), 3, 0);
  memcpy(copy, even, sizeof(even));
  assert_close(hp_stats_median(even, 4), 2.5, 0);
  assert_memory_equal(copy, even, sizeof(even)); /* not sorted in place */
  assert_close(hp_stats_median(withnan, NELEM(withnan)), 4, 0);
  assert_true(isnan(hp_stats_median(odd, 0)));
  assert_true(isnan(hp_stats_median(NULL, 0)));
  assert_true(isnan(hp_stats_median(withnan, 1))); /* only a NaN */
}

static void test_summarize_values(void **state)
{
  /* median 3; mean 110/5 = 22; deviations -21 -20 -19 -18 78, squares sum 7610, sd^2 = 7610/4;
   * |x - 3| = 2 1 0 1 97, so MAD 1; 100 has modified z 0.6745*97 = 65.4, 1 has 1.35. */
  double x[] = {3, 1, 100, 2, 4};
  double y[] = {NAN, 3, 1, INFINITY, 100, 2, NAN, 4};
  hp_summary_stats s, t;

  (void)state;
  assert_int_equal(hp_stats_summarize(x, NELEM(x), 0, &s), 0);
  assert_int_equal(s.n, 5);
  assert_close(s.median, 3, 0);
  assert_close(s.mean, 22, 1e-12);
  assert_close(s.sd, sqrt(7610.0 / 4), 1e-12);
  assert_close(s.cv, sqrt(7610.0 / 4) / 22, 1e-12);
  assert_close(s.mad, 1, 0);
  assert_close(s.min, 1, 0);
  assert_close(s.max, 100, 0);
  assert_int_equal(s.noutliers, 1);

  /* The same samples with NaN and infinity mixed in: filtered, identical result. */
  assert_int_equal(hp_stats_summarize(y, NELEM(y), 0, &t), 0);
  assert_int_equal(t.n, 5);
  assert_memory_equal(&s, &t, sizeof(s));
}

static void test_summarize_edges(void **state)
{
  double one[] = {2.5}, sym[] = {-1, 1}, flat[] = {5, 5, 5, 5, 9}, nan1[] = {NAN};
  hp_summary_stats s;

  (void)state;
  assert_int_equal(hp_stats_summarize(one, 1, 0, &s), 0);
  assert_int_equal(s.n, 1);
  assert_close(s.median, 2.5, 0);
  assert_close(s.mean, 2.5, 0);
  assert_true(isnan(s.sd));
  assert_true(isnan(s.cv));
  assert_close(s.mad, 0, 0);

  /* Mean 0: the CV is undefined. */
  assert_int_equal(hp_stats_summarize(sym, 2, 0, &s), 0);
  assert_close(s.sd, sqrt(2.0), 1e-15);
  assert_true(isnan(s.cv));

  /* MAD 0: the 9 is far away, but no point is an outlier by definition. */
  assert_int_equal(hp_stats_summarize(flat, 5, 0, &s), 0);
  assert_close(s.mad, 0, 0);
  assert_int_equal(s.noutliers, 0);

  assert_int_equal(hp_stats_summarize(nan1, 1, 0, &s), 0);
  assert_int_equal(s.n, 0);
  assert_true(isnan(s.median) && isnan(s.mean) && isnan(s.min) && isnan(s.mad));
  assert_int_equal(hp_stats_summarize(NULL, 0, 0, &s), 0);
  assert_int_equal(s.n, 0);

  assert_int_equal(hp_stats_summarize(one, 1, 0, NULL), HP_EINVAL);
  assert_int_equal(hp_stats_summarize(NULL, 3, 0, &s), HP_EINVAL);
}

static void test_outlier_threshold(void **state)
{
  /* median 12.5; |x - 12.5| = 2.5 1.5 .5 .5 1.5 7.5, so MAD 1.5; the 20 has modified z
   * 0.6745 * 7.5 / 1.5 = 3.3725 and the 10 has 1.124: not an outlier at 3.5, one at 3.0. */
  double x[] = {10, 11, NAN, 12, 13, 14, 20};
  unsigned char f[NELEM(x)];
  hp_summary_stats s;
  size_t i;

  (void)state;
  assert_int_equal(hp_stats_summarize(x, NELEM(x), 0, &s), 0);
  assert_close(s.mad, 1.5, 0);
  assert_int_equal(s.noutliers, 0);
  assert_int_equal(hp_stats_summarize(x, NELEM(x), 3.0, &s), 0);
  assert_int_equal(s.noutliers, 1);

  memset(f, 7, sizeof(f));
  assert_int_equal(hp_stats_outliers(x, NELEM(x), 0, f), 0);
  for (i = 0; i < NELEM(x); i++)
    assert_int_equal(f[i], 0);
  assert_int_equal(hp_stats_outliers(x, NELEM(x), 3.0, f), 0);
  for (i = 0; i < NELEM(x); i++)
    assert_int_equal(f[i], i == 6);
  /* Negative threshold: the default again. */
  assert_int_equal(hp_stats_outliers(x, NELEM(x), -1, f), 0);
  assert_int_equal(f[6], 0);
  assert_int_equal(hp_stats_outliers(NULL, 3, 0, f), HP_EINVAL);

  /* Not hyperfine's rule. 21 is 8.5 / 1.5 = 5.67 MADs from the median: an outlier here (modified
   * z 3.82 > 3.5), not for hyperfine (5.67 < 14.826). With MAD 0 nothing is an outlier here,
   * where hyperfine would flag the 2. */
  {
    double y[] = {10, 11, 12, 13, 14, 21}, flat[] = {1, 1, 1, 1, 2};
    assert_int_equal(hp_stats_summarize(y, NELEM(y), 0, &s), 0);
    assert_int_equal(s.noutliers, 1);
    assert_int_equal(hp_stats_summarize(flat, NELEM(flat), 0, &s), 0);
    assert_close(s.mad, 0, 0);
    assert_int_equal(s.noutliers, 0);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Mann-Whitney                                                                                     */

/* U of a by definition: pairs with a > b, ties counting one half. */
static double pairwise_u(const double *a, size_t na, const double *b, size_t nb)
{
  double u = 0;
  size_t i, j;

  for (i = 0; i < na; i++)
    for (j = 0; j < nb; j++)
      u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
  return u;
}

/* Exact two-sided p without ties by enumerating every way to give na of the ranks 1..na+nb to
 * sample a: the share of assignments with |U - mu| at least the observed one. */
static double brute_p(double uobs, size_t na, size_t nb)
{
  size_t n = na + nb, extreme = 0, total = 0, i, j;
  double mu = (double)na * (double)nb / 2, d = fabs(uobs - mu);
  unsigned long mask;

  for (mask = 0; mask < (1UL << n); mask++) {
    unsigned u = 0;
    if ((size_t)__builtin_popcountl(mask) != na)
      continue;
    /* Rank i+1 in a beats every rank j+1 < i+1 that is in b. */
    for (i = 0; i < n; i++)
      if (mask & (1UL << i))
        for (j = 0; j < i; j++)
          if (!(mask & (1UL << j)))
            u++;
    total++;
    if (fabs((double)u - mu) >= d - 1e-9)
      extreme++;
  }
  return (double)extreme / (double)total;
}

static void test_mw_small_exact(void **state)
{
  /* Complete separation: the smallest attainable two-sided p is 2 / C(2n, n). */
  double a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 10}, u, p;
  static const double minp[6] = {0, 1.0, 2.0 / 6, 2.0 / 20, 2.0 / 70, 2.0 / 252};
  size_t n;

  (void)state;
  for (n = 1; n <= 5; n++) {
    assert_int_equal(hp_stats_mann_whitney(a, n, b, n, &u, &p), 0);
    assert_close(u, 0, 0);
    assert_close(p, minp[n], 1e-15);
    assert_int_equal(hp_stats_mann_whitney(b, n, a, n, &u, &p), 0);
    assert_close(u, (double)(n * n), 0);
    assert_close(p, minp[n], 1e-15);
  }
  /* The facts docs/internals/stats.md relies on. */
  assert_true(minp[2] > 0.3 && minp[3] == 0.1 && minp[4] < 0.05 && minp[5] < 0.01);
}

static void test_mw_against_enumeration(void **state)
{
  static const size_t sizes[][2] = {{1, 4}, {3, 4}, {5, 5}, {4, 7}, {6, 8}, {7, 7}, {2, 12}};
  double a[16], b[16], u, p, p2, u2;
  size_t k, trial;
  hp_rng r;

  (void)state;
  hp_rng_seed(&r, 2024);
  for (k = 0; k < NELEM(sizes); k++) {
    size_t na = sizes[k][0], nb = sizes[k][1];
    for (trial = 0; trial < 6; trial++) {
      /* Continuous draws, b shifted by a growing amount: p from 1 down to the extreme tail. */
      fill_normal(&r, a, na, 0, 1);
      fill_normal(&r, b, nb, 0.4 * (double)trial, 1);
      assert_int_equal(hp_stats_mann_whitney(a, na, b, nb, &u, &p), 0);
      assert_close(u, pairwise_u(a, na, b, nb), 1e-9);
      assert_close(p, brute_p(u, na, nb), 1e-12);
      assert_int_equal(hp_stats_mann_whitney(b, nb, a, na, &u2, &p2), 0);
      assert_close(u + u2, (double)(na * nb), 1e-9);
      assert_close(p2, p, 1e-12);
    }
  }
}

static void test_mw_exact_limit(void **state)
{
  double a[21], b[21], u, p;
  size_t i;

  (void)state;
  for (i = 0; i < 21; i++) {
    a[i] = (double)i;
    b[i] = 100.0 + (double)i;
  }
  /* 20 vs 20, fully separated: exact, 2 / C(40, 20) = 2 / 137846528820. */
  assert_int_equal(hp_stats_mann_whitney(a, 20, b, 20, &u, &p), 0);
  assert_close(u, 0, 0);
  assert_close(p, 2.0 / 137846528820.0, 1e-24);
  /* 21 vs 21 takes the normal approximation: z = (441/2 - 0.5) / sqrt(21*21*43/12). */
  assert_int_equal(hp_stats_mann_whitney(a, 21, b, 21, &u, &p), 0);
  assert_close(p, erfc((220.5 - 0.5) / sqrt(21.0 * 21 * 43 / 12) / sqrt(2.0)), 1e-15);
}

static void test_mw_ties_normal(void **state)
{
  /* Ties force the normal approximation with tie correction. The expected value is computed
   * from U by pairwise counting and the tie groups counted by hand:
   * values 1 2 2 3 | 2 3 3 5 6: 2 appears 3 times, 3 appears 3 times -> sum(t^3 - t) = 48. */
  double a[] = {1, 2, 2, 3}, b[] = {2, 3, 3, 5, 6}, u, p, want_u, s, z;
  double none[1];

  (void)state;
  /* By hand: the 1 beats nothing, each 2 ties one 2 (0.5 + 0.5), the 3 beats the 2 and ties two
   * 3s (1 + 0.5 + 0.5): U = 3. The pairwise count must agree. */
  want_u = pairwise_u(a, 4, b, 5);
  assert_close(want_u, 3, 0);
  assert_int_equal(hp_stats_mann_whitney(a, 4, b, 5, &u, &p), 0);
  assert_close(u, want_u, 1e-12);
  /* mu = 4*5/2 = 10, the larger U is 20 - 3 = 17. */
  s = sqrt(4.0 * 5 / 12 * ((9 + 1) - 48.0 / (9 * 8)));
  z = (17 - 10 - 0.5) / s;
  assert_close(p, erfc(z / sqrt(2.0)), 1e-14);

  /* NaN samples are dropped before ranking. */
  {
    double an[] = {NAN, 1, 2, 2, 3}, bn[] = {2, 3, NAN, 3, 5, 6, INFINITY};
    double u3, p3;
    assert_int_equal(hp_stats_mann_whitney(an, 5, bn, 7, &u3, &p3), 0);
    assert_close(u3, u, 0);
    assert_close(p3, p, 0);
  }

  /* Every value equal: no evidence at all. */
  assert_int_equal(hp_stats_mann_whitney(a + 1, 2, b, 1, &u, &p), 0);
  assert_close(u, 1, 0);
  assert_close(p, 1, 0);

  /* An empty sample: NaN results, still success. */
  none[0] = NAN;
  assert_int_equal(hp_stats_mann_whitney(a, 4, none, 1, &u, &p), 0);
  assert_true(isnan(u) && isnan(p));
  assert_int_equal(hp_stats_mann_whitney(NULL, 0, b, 5, &u, &p), 0);
  assert_true(isnan(p));
  assert_int_equal(hp_stats_mann_whitney(a, 4, b, 5, NULL, &p), HP_EINVAL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Bootstrap                                                                                        */

static int cmp_d(const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;

  return (a > b) - (a < b);
}

static double median_of(double *x, size_t n)
{
  qsort(x, n, sizeof(*x), cmp_d);
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static void test_bootstrap_determinism(void **state)
{
  double a[20], b[20], lo1, hi1, lo2, hi2, lo3, hi3;
  hp_rng r;

  (void)state;
  hp_rng_seed(&r, 99);
  fill_normal(&r, a, 20, 1.0, 0.05);
  fill_normal(&r, b, 20, 1.5, 0.05);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 20, b, 20, 0, 0.95, 11, &lo1, &hi1), 0);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 20, b, 20, 0, 0.95, 11, &lo2, &hi2), 0);
  assert_true(lo1 == lo2 && hi1 == hi2);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 20, b, 20, 0, 0.95, 12, &lo3, &hi3), 0);
  assert_true(lo1 != lo3 || hi1 != hi3);
  /* A clear 1.5x shift: the interval holds the true ratio and excludes 1. */
  assert_true(lo1 <= 1.5 && 1.5 <= hi1);
  assert_true(lo1 > 1.3 && hi1 < 1.7);
  /* A wider level gives a wider (or equal) interval from the same resamples. */
  assert_int_equal(hp_stats_bootstrap_ratio(a, 20, b, 20, 0, 0.99, 11, &lo3, &hi3), 0);
  assert_true(lo3 <= lo1 && hi3 >= hi1);
}

/* Redraws `iters` resamples with the documented order (all of a, then all of b, per resample,
 * from hp_rng seeded with `seed`) and returns their sorted ratios. */
static void redraw(const double *a, const double *b, unsigned iters, uint64_t seed, double *ratios)
{
  double ta[4], tb[5];
  size_t it, i;
  hp_rng r;

  hp_rng_seed(&r, seed);
  for (it = 0; it < iters; it++) {
    for (i = 0; i < 4; i++)
      ta[i] = a[hp_rng_below(&r, 4)];
    for (i = 0; i < 5; i++)
      tb[i] = b[hp_rng_below(&r, 5)];
    ratios[it] = median_of(tb, 5) / median_of(ta, 4);
  }
  qsort(ratios, iters, sizeof(double), cmp_d);
}

static void test_bootstrap_method(void **state)
{
  double a[] = {1.0, 1.2, 0.9, 1.1}, b[] = {2.0, 2.6, 1.7, 2.2, 3.1};
  double ratios[5], lo, hi;
  uint64_t seed;

  (void)state;
  /* Five resamples at level 0.5: the type-7 quantiles 0.25 and 0.75 of five sorted ratios sit
   * exactly on the 2nd and 4th. */
  redraw(a, b, 5, 5, ratios);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 4, b, 5, 5, 0.5, 5, &lo, &hi), 0);
  assert_close(lo, ratios[1], 1e-15);
  assert_close(hi, ratios[3], 1e-15);
  /* Four resamples: position 3 * 0.25 = 0.75 lies between the 1st and 2nd, 2.25 between the
   * 3rd and 4th, so the ends are interpolated. */
  for (seed = 1; seed < 100; seed++) {
    redraw(a, b, 4, seed, ratios);
    if (ratios[0] < ratios[1] && ratios[2] < ratios[3])
      break; /* a seed whose ends have something to interpolate */
  }
  assert_true(seed < 100);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 4, b, 5, 4, 0.5, seed, &lo, &hi), 0);
  assert_close(lo, ratios[0] + 0.75 * (ratios[1] - ratios[0]), 1e-15);
  assert_close(hi, ratios[2] + 0.25 * (ratios[3] - ratios[2]), 1e-15);
}

static void test_bootstrap_edges(void **state)
{
  double a[] = {2, 2, 2}, b[] = {3, 3, 3}, z[] = {0, 0}, z3[] = {0, 0, 0}, nan1[] = {NAN};
  double lo, hi;

  (void)state;
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, b, 3, 100, 0.9, 1, &lo, &hi), 0);
  assert_close(lo, 1.5, 0);
  assert_close(hi, 1.5, 0);
  /* A zero baseline: x / 0 stays infinite, it is not dropped. */
  assert_int_equal(hp_stats_bootstrap_ratio(z, 2, b, 3, 50, 0.9, 1, &lo, &hi), 0);
  assert_true(isinf(lo) && lo > 0 && isinf(hi));
  /* b over a = {0,0,0}: a resample is 0/0 (dropped) unless b's resample has two 1s (infinite,
   * kept). The interval is made of the kept ones only. */
  {
    double b01[] = {0, 0, 1};
    assert_int_equal(hp_stats_bootstrap_ratio(z3, 3, b01, 3, 60, 0.5, 2, &lo, &hi), 0);
    assert_true(isinf(lo) && isinf(hi));
  }
  /* 0/0 resamples are dropped; all dropped: NaN. */
  assert_int_equal(hp_stats_bootstrap_ratio(z, 2, z, 2, 50, 0.9, 1, &lo, &hi), 0);
  assert_true(isnan(lo) && isnan(hi));
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, nan1, 1, 50, 0.9, 1, &lo, &hi), 0);
  assert_true(isnan(lo) && isnan(hi));
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, b, 3, 50, 1.0, 1, &lo, &hi), HP_EINVAL);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, b, 3, 50, 0.0, 1, &lo, &hi), HP_EINVAL);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, b, 3, 50, NAN, 1, &lo, &hi), HP_EINVAL);
  assert_int_equal(hp_stats_bootstrap_ratio(a, 3, b, 3, 50, 0.9, 1, NULL, &hi), HP_EINVAL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Verdicts                                                                                         */

/* The article's case: a stats pass about 1.27% slower than the baseline, run noise 0.5%. */
static void test_compare_detects_small_overhead(void **state)
{
  double a[30], b[30], ratio, p, lo, hi;
  hp_significance sig;
  uint64_t seed;
  hp_rng r;

  (void)state;
  hp_rng_seed(&r, 1);
  fill_normal(&r, a, 30, 1.0, 0.005);
  fill_normal(&r, b, 30, 1.0127, 0.005);
  assert_int_equal(hp_stats_compare(a, 30, b, 30, 0.05, 1, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_YES);
  assert_true(p < 0.001);
  assert_true(lo > 1.0 && lo <= ratio && ratio <= hi);
  assert_close(ratio, 1.0127, 0.005);

  /* Two runs each can never be YES: too few to tell, whatever the data. */
  for (seed = 1; seed <= 20; seed++) {
    hp_rng_seed(&r, seed);
    fill_normal(&r, a, 2, 1.0, 0.005);
    fill_normal(&r, b, 2, 1.0127, 0.005);
    assert_int_equal(hp_stats_compare(a, 2, b, 2, 0.05, seed, &sig, &ratio, &p, &lo, &hi), 0);
    assert_int_not_equal(sig, HP_SIG_YES);
    assert_int_equal(sig, HP_SIG_UNKNOWN);
    assert_true(p >= 1.0 / 3 - 1e-12); /* still reported, for the curious */
    assert_false(isnan(ratio));
    /* A bootstrap of two values is no interval: there is none below HP_STATS_MIN_N. */
    assert_true(isnan(lo) && isnan(hi));
  }
}

static void test_compare_small_n_floor(void **state)
{
  /* A 50% shift with perfect separation. Three runs: exact p is at best 0.1, so at 0.05 the test
   * could never say yes: UNKNOWN (too few runs), not NO (which would call a 50% shift noise).
   * Five runs: p = 2/252, and the interval is far from 1, so YES. */
  double a[] = {1.00, 1.01, 0.99, 1.02, 0.98}, b[] = {1.50, 1.52, 1.49, 1.51, 1.48};
  double ratio, p, lo, hi;
  hp_significance sig;

  (void)state;
  assert_int_equal(hp_stats_compare(a, 3, b, 3, 0.05, 3, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_UNKNOWN);
  assert_close(p, 0.1, 1e-15);
  assert_true(lo > 1.4); /* the interval alone would have said yes */
  assert_int_equal(hp_stats_compare(a, 3, b, 3, 0.2, 3, &sig, NULL, NULL, NULL, NULL), 0);
  assert_int_equal(sig, HP_SIG_YES); /* a looser alpha above the floor */
  assert_int_equal(hp_stats_compare(a, 5, b, 5, 0.05, 3, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_YES);
  assert_close(p, 2.0 / 252, 1e-15);
  assert_close(ratio, 1.50 / 1.00, 1e-12);
}

/* Mann-Whitney alone would flag this: five of b's eleven runs are slower, p = 0.015 with ties.
 * But the median did not move (ratio 1), and the interval of the ratio reaches 1.0, so the
 * verdict is NO: a YES must be backed by the number the report shows. */
static void test_compare_needs_both(void **state)
{
  double a[11], b[11], ratio, p, lo, hi;
  hp_significance sig;
  size_t i;

  (void)state;
  for (i = 0; i < 11; i++) {
    a[i] = 1.0;
    b[i] = i < 6 ? 1.0 : 2.0;
  }
  assert_int_equal(hp_stats_compare(a, 11, b, 11, 0.05, 4, &sig, &ratio, &p, &lo, &hi), 0);
  assert_true(p < 0.05);
  assert_close(ratio, 1.0, 0);
  assert_true(lo <= 1.0 && hi >= 1.0);
  assert_int_equal(sig, HP_SIG_NO);
}

static void test_compare_false_positive_rate(void **state)
{
  static const size_t ns[] = {10, 30};
  double a[30], b[30], p;
  hp_significance sig;
  size_t k, yes, unknown;
  uint64_t seed;
  hp_rng r;

  (void)state;
  for (k = 0; k < NELEM(ns); k++) {
    yes = unknown = 0;
    for (seed = 1; seed <= 50; seed++) {
      hp_rng_seed(&r, 1000 + seed);
      fill_normal(&r, a, ns[k], 1.0, 0.005);
      fill_normal(&r, b, ns[k], 1.0, 0.005);
      assert_int_equal(hp_stats_compare(a, ns[k], b, ns[k], 0.05, seed, &sig, NULL, &p, NULL, NULL),
                       0);
      yes += sig == HP_SIG_YES;
      unknown += sig == HP_SIG_UNKNOWN;
      /* A YES always has p below alpha. */
      assert_true(sig != HP_SIG_YES || p < 0.05);
    }
    print_message("n=%zu: %zu of 50 null experiments flagged\n", ns[k], yes);
    assert_int_equal(unknown, 0);
    assert_true(yes <= 5);
  }
}

static void test_compare_edges(void **state)
{
  double a[] = {1, NAN, 1.1, 0.9, NAN}, b[] = {2, 2.1, 1.9}, ratio, p, lo, hi;
  hp_significance sig;

  (void)state;
  /* Only three finite runs in a: enough. */
  assert_int_equal(hp_stats_compare(a, 5, b, 3, 0, 1, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_UNKNOWN); /* 3 vs 3: the smallest p, 0.1, is above alpha 0.05 */
  assert_close(ratio, 2.0, 1e-12);
  assert_true(lo > 1.0 && hi < 3.0); /* three runs each: an interval */
  /* Only two finite runs: a ratio and p, but no interval. */
  assert_int_equal(hp_stats_compare(a, 2, b, 3, 0, 1, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_UNKNOWN);
  assert_close(ratio, 2.0, 1e-12);
  assert_false(isnan(p));
  assert_true(isnan(lo) && isnan(hi));
  assert_int_equal(hp_stats_compare(NULL, 0, b, 3, 0, 1, &sig, &ratio, &p, &lo, &hi), 0);
  assert_int_equal(sig, HP_SIG_UNKNOWN);
  assert_true(isnan(ratio) && isnan(p) && isnan(lo) && isnan(hi));
  assert_int_equal(hp_stats_compare(a, 5, b, 3, 1.0, 1, &sig, NULL, NULL, NULL, NULL), HP_EINVAL);
  assert_int_equal(hp_stats_compare(a, 5, b, 3, 0.05, 1, NULL, NULL, NULL, NULL, NULL), HP_EINVAL);
  assert_string_equal(hp_significance_name(HP_SIG_YES), "yes");
  assert_string_equal(hp_significance_name(HP_SIG_NO), "no");
  assert_string_equal(hp_significance_name(HP_SIG_UNKNOWN), "unknown");
}

/* With ties the normal approximation can go below the exact test's floor: [1, 1, 1] against
 * [1.3, 1.3, 1.3] gives p = 0.047 where no tie-free arrangement of 3 against 3 gets below 0.1.
 * The floor rule uses the exact value, so the verdict stays "too few runs" (UNKNOWN). */
static void test_compare_floor_with_ties(void **state)
{
  double a[] = {1, 1, 1}, b[] = {1.3, 1.3, 1.3}, u, p, s, z;
  hp_significance sig;

  (void)state;
  assert_int_equal(hp_stats_mann_whitney(a, 3, b, 3, &u, &p), 0);
  /* By hand: two tie groups of 3, sum(t^3 - t) = 48; sigma^2 = 9/12 (7 - 48/30) = 4.05;
   * z = (9 - 4.5 - 0.5) / sigma. */
  s = sqrt(9.0 / 12 * (7 - 48.0 / 30));
  z = (9 - 4.5 - 0.5) / s;
  assert_close(p, erfc(z / sqrt(2.0)), 1e-14);
  assert_true(p < 0.05 && p > 0.046); /* 0.0468: below alpha, and below the exact floor 0.1 */
  assert_int_equal(hp_stats_compare(a, 3, b, 3, 0.05, 1, &sig, NULL, NULL, NULL, NULL), 0);
  assert_int_equal(sig, HP_SIG_UNKNOWN);
}

/* Threshold comparisons tolerate the rounding of a ratio of medians, and nothing more. */
static void test_beyond(void **state)
{
  (void)state;
  /* Both are 0.050000000000000044 in binary, > 0.05 without the tolerance. */
  assert_true(1.05 / 1.0 - 1 > 0.05);
  assert_false(hp_stats_beyond(1.05 / 1.0 - 1, 0.05));
  assert_false(hp_stats_beyond(0.021 / 0.02 - 1, 0.05));
  assert_false(hp_stats_beyond(0.05, 0.05));
  assert_true(hp_stats_beyond(0.0501, 0.05));
  assert_true(hp_stats_beyond(0.05 + 1e-8, 0.05));
  assert_false(hp_stats_beyond(0.049, 0.05));
  assert_false(hp_stats_beyond(0, 0));
  assert_true(hp_stats_beyond(1e-6, 0));
  assert_true(hp_stats_beyond(1.31 - 1, 0.25));
  assert_false(hp_stats_beyond(NAN, 0.05));
  assert_false(hp_stats_beyond(-0.5, 0.05)); /* a change the other way: callers pass |x| */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rng_reference),
      cmocka_unit_test(test_rng_ranges),
      cmocka_unit_test(test_rng_below_unbiased),
      cmocka_unit_test(test_rng_shuffle_uniform),
      cmocka_unit_test(test_median),
      cmocka_unit_test(test_summarize_values),
      cmocka_unit_test(test_summarize_edges),
      cmocka_unit_test(test_outlier_threshold),
      cmocka_unit_test(test_mw_small_exact),
      cmocka_unit_test(test_mw_against_enumeration),
      cmocka_unit_test(test_mw_exact_limit),
      cmocka_unit_test(test_mw_ties_normal),
      cmocka_unit_test(test_bootstrap_determinism),
      cmocka_unit_test(test_bootstrap_method),
      cmocka_unit_test(test_bootstrap_edges),
      cmocka_unit_test(test_compare_detects_small_overhead),
      cmocka_unit_test(test_compare_small_n_floor),
      cmocka_unit_test(test_compare_needs_both),
      cmocka_unit_test(test_compare_false_positive_rate),
      cmocka_unit_test(test_compare_edges),
      cmocka_unit_test(test_compare_floor_with_ties),
      cmocka_unit_test(test_beyond),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
