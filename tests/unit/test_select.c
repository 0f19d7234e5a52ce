/*
 * Tests of lib/analyze/select.c and the bulk draw of lib/util/base/rng.c: every selection result must
 * be the very double that the sort-based code gives (the reference implementations below sort in
 * full with qsort, as stats.c did before), on random inputs with many ties, odd and even sizes;
 * the bulk draw must be the sequence of single hp_rng_below calls; and the bootstrap interval must
 * equal the one of the old full-sort bootstrap, transcribed here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/select.h"
#include "hprun.h"
#include "util/base/rng.h"

static int cmp_double(const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;

  return (a > b) - (a < b);
}

static double ref_median(const double *x, size_t n)
{
  double *s = malloc(n * sizeof(*s)), m;

  memcpy(s, x, n * sizeof(*s));
  qsort(s, n, sizeof(*s), cmp_double);
  m = n % 2 ? s[n / 2] : s[n / 2 - 1] / 2 + s[n / 2] / 2;
  free(s);
  return m;
}

/* The old sorted_quantile of stats.c, verbatim, on a sorted copy. */
static double ref_quantile(const double *x, size_t n, double q)
{
  double *s = malloc(n * sizeof(*s)), h = (double)(n - 1) * q, frac, r;
  size_t i = (size_t)floor(h);

  memcpy(s, x, n * sizeof(*s));
  qsort(s, n, sizeof(*s), cmp_double);
  if (i >= n - 1)
    r = s[n - 1];
  else if ((frac = h - (double)i) == 0 || s[i] == s[i + 1])
    r = s[i];
  else if (!isfinite(s[i]) || !isfinite(s[i + 1]))
    r = frac < 0.5 ? s[i] : s[i + 1];
  else
    r = s[i] + frac * (s[i + 1] - s[i]);
  free(s);
  return r;
}

/* Random values; `levels` > 0 draws from that many distinct values (ties), else continuous (the
 * top 53 bits of a draw, k / 2^53, spread over [-5, 5)). */
static void fill(hp_rng *r, double *x, size_t n, size_t levels)
{
  size_t i;

  for (i = 0; i < n; i++)
    x[i] = levels ? (double)hp_rng_below(r, levels) * 0.25 - 1.0
                  : (double)(hp_rng_next(r) >> 11) * (1.0 / 9007199254740992.0) * 10 - 5;
}

static void assert_same(double got, double want)
{
  if (memcmp(&got, &want, sizeof(got)) != 0)
    fail_msg("got %.17g, want %.17g", got, want);
}

static void test_select_matches_sort(void **state)
{
  static const size_t sizes[] = {1, 2, 3, 4, 5, 16, 17, 18, 33, 64, 100, 101, 1000, 4001};
  static const size_t levels[] = {0, 1, 2, 3, 10};
  double *x = malloc(4001 * sizeof(*x)), *v = malloc(4001 * sizeof(*v)), q;
  size_t s, l, k, rep;
  hp_rng r;

  (void)state;
  hp_rng_seed(&r, 42);
  for (rep = 0; rep < 5; rep++)
    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
      for (l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
        size_t n = sizes[s];

        fill(&r, x, n, levels[l]);
        memcpy(v, x, n * sizeof(*v));
        assert_same(hp__median_inplace(v, n), ref_median(x, n));
        for (q = 0; q <= 1.0; q += 0.025) {
          memcpy(v, x, n * sizeof(*v));
          assert_same(hp__quantile_inplace(v, n, q), ref_quantile(x, n, q));
        }
        /* Every k: the k-th smallest and the partition around it. */
        for (k = 0; k < n; k += n / 7 + 1) {
          double *srt = malloc(n * sizeof(*srt)), got;
          size_t i;

          memcpy(srt, x, n * sizeof(*srt));
          qsort(srt, n, sizeof(*srt), cmp_double);
          memcpy(v, x, n * sizeof(*v));
          got = hp__select(v, n, k);
          assert_same(got, srt[k]);
          for (i = 0; i < n; i++)
            assert_true(i < k ? v[i] <= got : i > k ? v[i] >= got : v[i] == got);
          free(srt);
        }
      }
  free(x);
  free(v);
}

static void test_quantile_infinities(void **state)
{
  double x[] = {1, INFINITY, -INFINITY, 2, INFINITY, 3, -1, 0.5};
  double v[8];
  double q;

  (void)state;
  for (q = 0; q <= 1.0; q += 0.01) {
    memcpy(v, x, sizeof(x));
    assert_same(hp__quantile_inplace(v, 8, q), ref_quantile(x, 8, q));
  }
  /* Sorted: -inf -1 0.5 1 2 3 inf inf; q = 0.5 -> h = 3.5, between 1 and 2, by hand: 1.5. */
  memcpy(v, x, sizeof(x));
  assert_same(hp__quantile_inplace(v, 8, 0.5), 1.5);
}

static void test_rng_below_many(void **state)
{
  static const size_t bounds[] = {1,           2,          3,     7,       64,       1000,
                                  4000,        4001,       65536, 1000003, 1u << 31, (1u << 31) + 1,
                                  4294967295u, 4294967296u};
  uint32_t got[257];
  size_t b, i;

  (void)state;
  for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
    hp_rng r1, r2;

    hp_rng_seed(&r1, 1000 + b);
    hp_rng_seed(&r2, 1000 + b);
    hp__rng_below_many(&r1, bounds[b], got, 257);
    for (i = 0; i < 257; i++)
      assert_true(got[i] == hp_rng_below(&r2, bounds[b]));
    /* The state moved on exactly as far. */
    assert_true(hp_rng_next(&r1) == hp_rng_next(&r2));
  }
}

static void test_resample_median(void **state)
{
  static const size_t sizes[] = {1, 2, 3, 4, 9, 10, 250, 251};
  double x[251], tmp[251];
  hp__resampler rs;
  size_t s, l, it, i;

  (void)state;
  for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
    for (l = 0; l < 4; l++) {
      size_t n = sizes[s];
      hp_rng gen, r1, r2;

      hp_rng_seed(&gen, 7 * s + l);
      fill(&gen, x, n, l == 0 ? 0 : l + 1);
      assert_int_equal(hp__resampler_init(&rs, x, n), 0);
      hp_rng_seed(&r1, s);
      hp_rng_seed(&r2, s);
      for (it = 0; it < 200; it++) {
        for (i = 0; i < n; i++)
          tmp[i] = x[hp_rng_below(&r2, n)];
        assert_same(hp__resample_median(&rs, &r1), ref_median(tmp, n));
      }
      hp__resampler_free(&rs);
    }
  hp__resampler_free(NULL);
  assert_int_equal(hp__resampler_init(&rs, x, 0), HP_EINVAL);
  hp__resampler_free(&rs);
}

/* The bootstrap as stats.c computed it before selection: every resample sorted in full. */
static void ref_bootstrap(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                          double level, uint64_t seed, double *lo, double *hi)
{
  double *ta = malloc(na * sizeof(*ta)), *tb = malloc(nb * sizeof(*tb));
  double *ratios = malloc(iters * sizeof(*ratios));
  size_t i, m = 0, it;
  hp_rng rng;

  hp_rng_seed(&rng, seed);
  for (it = 0; it < iters; it++) {
    double ra, rb;

    for (i = 0; i < na; i++)
      ta[i] = a[hp_rng_below(&rng, na)];
    ra = ref_median(ta, na);
    for (i = 0; i < nb; i++)
      tb[i] = b[hp_rng_below(&rng, nb)];
    rb = ref_median(tb, nb);
    if (!isnan(rb / ra))
      ratios[m++] = rb / ra;
  }
  *lo = ref_quantile(ratios, m, (1 - level) / 2);
  *hi = ref_quantile(ratios, m, 1 - (1 - level) / 2);
  free(ta);
  free(tb);
  free(ratios);
}

static void test_bootstrap_matches_full_sort(void **state)
{
  static const size_t sizes[][2] = {{3, 3}, {4, 5}, {10, 10}, {31, 40}, {200, 201}};
  double a[201], b[201], lo, hi, rlo, rhi;
  size_t s, l;
  hp_rng gen;

  (void)state;
  hp_rng_seed(&gen, 99);
  for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
    for (l = 0; l < 3; l++) {
      fill(&gen, a, sizes[s][0], l * 3);
      fill(&gen, b, sizes[s][1], l * 3);
      if (l == 1)
        a[0] = 0; /* a zero median somewhere among the resamples: infinite ratios */
      assert_int_equal(
          hp_stats_bootstrap_ratio(a, sizes[s][0], b, sizes[s][1], 500, 0.95, s, &lo, &hi), 0);
      ref_bootstrap(a, sizes[s][0], b, sizes[s][1], 500, 0.95, s, &rlo, &rhi);
      assert_same(lo, rlo);
      assert_same(hi, rhi);
    }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_select_matches_sort),
      cmocka_unit_test(test_quantile_infinities),
      cmocka_unit_test(test_rng_below_many),
      cmocka_unit_test(test_resample_median),
      cmocka_unit_test(test_bootstrap_matches_full_sort),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
