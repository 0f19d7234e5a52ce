/*
 * hp__dtoa_g against glibc's snprintf "%.15g" / "%.17g" and strtod: the same bytes for every
 * value it answers, and `exact` equal to whether strtod reads the %.15g text back as the value.
 * The expectations come from libc, not from the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/num/dtoa.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t next_u64(void)
{
  uint64_t x = rng_state;

  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

/* Checks one value at both precisions; returns whether dtoa answered at 15 digits. */
static int check(double v)
{
  char want[64], got[HP__DTOA_MAX];
  int prec, exact, answered = 0;
  size_t n;

  for (prec = 15; prec <= 17; prec += 2) {
    snprintf(want, sizeof(want), "%.*g", prec, v);
    n = hp__dtoa_g(v, prec, got, &exact);
    if (n == 0) {
      /* Refused: only outside the range, or where printf writes an exponent. */
      double a = fabs(v);
      if (a >= 1e-4 && a < 1e15 && strchr(want, 'e') == NULL) {
        fprintf(stderr, "refused %.17g at %d: printf wrote %s\n", v, prec, want);
        fail();
      }
      continue;
    }
    if (strcmp(want, got) != 0 || n != strlen(want)) {
      fprintf(stderr, "%.17g at %d: printf %s, dtoa %s\n", v, prec, want, got);
      fail();
    }
    if (exact != (prec == 17 || strtod(want, NULL) == v)) {
      fprintf(stderr, "%.17g at %d: exact %d for %s\n", v, prec, exact, want);
      fail();
    }
    if (prec == 15)
      answered = 1;
  }
  return answered;
}

/* Random bit patterns over the whole range (and out of it), both signs. */
static void test_random_bits(void **state)
{
  int i, answered = 0;
  double v;
  uint64_t b;

  (void)state;
  for (i = 0; i < 400000; i++) {
    b = next_u64();
    /* Exponents around [1e-5, 1e16], where the answers are. */
    b = (b & 0x800FFFFFFFFFFFFFu) | ((uint64_t)(1006 + next_u64() % 70) << 52);
    memcpy(&v, &b, sizeof(v));
    answered += check(v);
  }
  assert_true(answered > 300000);
}

/* What summaries hold: short decimals, their sums and means, percentages, integers and halves,
 * and values at the edges of the range and of rounding (ties at the 15th and 17th digit). */
static void test_summary_values(void **state)
{
  static const double edges[] = {1e-4,
                                 0.0001,
                                 9.99999999999999e14,
                                 999999999999999.4,
                                 999999999999999.5,
                                 999999999999999.9,
                                 1e15,
                                 0.00009999999999999999,
                                 100000000000000.5,
                                 10000000000000.25,
                                 1000000000000.125,
                                 0.5,
                                 2.5,
                                 1.0000000000000002,
                                 0.1 + 0.2,
                                 123456789.123456789,
                                 1.5e-4,
                                 99.99999999999999,
                                 9.999999999999999,
                                 0.30000000000000004};
  size_t i;
  int k, n;
  double sum, x;

  (void)state;
  for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
    check(edges[i]);
    check(-edges[i]);
    check(nextafter(edges[i], 0));
    check(nextafter(edges[i], INFINITY));
  }
  for (k = 0; k < 200000; k++) {
    x = (double)(next_u64() % 100000) / 100.0; /* "12.34": ncu's two-decimal metrics */
    check(x);
    sum = 0;
    for (n = 1; n <= 7; n++) {
      sum += (double)(next_u64() % 1000000) / 1000.0;
      check(sum);
      check(sum / n);
    }
    check((double)(next_u64() % 4000000000000000u) / 4.0); /* ties below 1e15 */
    check(ldexp((double)(next_u64() % (UINT64_C(1) << 53)), -(int)(next_u64() % 70)));
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_bits),
      cmocka_unit_test(test_summary_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
