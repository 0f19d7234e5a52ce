/*
 * Unit tests for hp__ncu_num16 (lib/profile/fast/ncu_num.h), the number reader of ncu's changed
 * fields on AVX2 CPUs: its answer and its double must be hp__parse_num's for every input, bit for
 * bit, and for the plain forms it takes itself, strtod's. Inputs: ncu's forms generated at random
 * ("12.34", "1,234", "1,234.5678", plain digits up to 19 of them, long fractions, values beyond
 * 2^53), the same with one byte changed or dropped or added anywhere, and a list of edge cases.
 * On a CPU without AVX2 the reader never runs, and the tests are skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sys/cpu.h"
#include "profile/fast/ncu_num.h"

#define TEST_XORSHIFT_SEED 0x2545F4914F6CDD1DULL
#include "test_xorshift.h"

#if defined(HP__HAVE_AVX2)
/* hp__ncu_num16 compiled for AVX2 (this file is not), reading s[0..n) from a buffer whose bytes
 * after it are digits, commas, points or a quote (what follows a field in a line), which it must
 * not take as part of the number. Called only where the CPU has AVX2. */
static HP__AVX2 int num16_avx2(const char *buf, size_t n, double *out)
{
  return hp__ncu_num16(buf, n, out);
}

static int num16(const char *s, size_t n, double *out)
{
  static const char after[] = "0123456789,.\"";
  char buf[64];
  size_t k;

  assert_true(n <= sizeof(buf) - 16);
  memcpy(buf, s, n);
  for (k = n; k < sizeof(buf); k++)
    buf[k] = after[rnd(sizeof(after) - 1)];
  return num16_avx2(buf, n, out);
}
#endif

/* The tests need the reader: an AVX2 CPU and a build for x86-64. */
static void need_reader(void)
{
#if defined(HP__HAVE_AVX2)
  if (hp__cpu_avx2())
    return;
#endif
  skip();
}

/* hp__ncu_num16 and hp__parse_num give the same answer and the same bits. */
static void same_as_parse_num(const char *s, size_t n)
{
#if defined(HP__HAVE_AVX2)
  double a, b;
  int ra = num16(s, n, &a), rb = hp__parse_num(s, n, &b);

  if (ra != rb || memcmp(&a, &b, sizeof(a)) != 0) {
    fprintf(stderr, "\"%.*s\": hp__ncu_num16 %d %.17g, hp__parse_num %d %.17g\n", (int)n, s, ra, a,
            rb, b);
    fail();
  }
#else
  (void)s;
  (void)n;
#endif
}

/* A number as ncu prints it: digits in groups of three (or not), a fraction (or not). */
static size_t ncu_form(char *out, size_t cap)
{
  size_t o = 0, i, nint = 1 + rnd(rnd(4) ? 4 : 19), nfrac = rnd(3) ? rnd(8) : rnd(19);
  int groups = rnd(2);

  for (i = 0; i < nint; i++) {
    out[o++] = (char)('0' + (i == 0 && nint > 1 ? 1 + rnd(9) : rnd(10)));
    if (groups && (nint - 1 - i) % 3 == 0 && i + 1 < nint)
      out[o++] = ',';
  }
  if (nfrac) {
    out[o++] = '.';
    for (i = 0; i < nfrac && o + 1 < cap; i++)
      out[o++] = (char)('0' + rnd(10));
  }
  out[o] = '\0';
  return o;
}

static void test_ncu_num_matches_parse_num(void **state)
{
  static const char alphabet[] = "0123456789,.,.e-+ x";
  char s[64], t[64];
  size_t n, m, at, k;

  (void)state;
  need_reader();
  for (k = 0; k < 400000; k++) {
    n = ncu_form(s, sizeof(s) - 2);
    same_as_parse_num(s, n);
    /* One byte changed, dropped or added. */
    memcpy(t, s, n + 1);
    m = n;
    at = n ? rnd((unsigned)n) : 0;
    switch (rnd(3)) {
    case 0:
      if (n)
        t[at] = alphabet[rnd(sizeof(alphabet) - 1)];
      break;
    case 1:
      if (n) {
        memmove(t + at, t + at + 1, n - at);
        m--;
      }
      break;
    default:
      memmove(t + at + 1, t + at, n - at + 1);
      t[at] = alphabet[rnd(sizeof(alphabet) - 1)];
      m++;
    }
    same_as_parse_num(t, m);
  }
}

static void test_ncu_num_edges(void **state)
{
  static const char *const edge[] = {
      "", "0", "00", "0.0", "0.000", "5.", ".5", "1,234", "1,23", "1234,567", ",123", "1,234,",
      "1,,234", "1,234.5", "1,234.", "12,345.6,7", "1.2.3", "1e5", "-1", "+1", " 1", "1 ", "n/a",
      "N/A", "-", "nan", "inf", "0x10", "9007199254740992", "9007199254740993", "900719925474099.3",
      "90071992547409.93", "9999999999999999999", "99999999999999999999", "18446744073709551615",
      "0.30000000000000004", "123456789.123456789", "1,000,000.000001", "1,234,567,890,123,456",
      "0.1", "0.7", "62.06", "100.00", "1,024", "16,777,216", "1234.5678901234567", "4.9e-324",
      /* The vector reader's edges: 16 bytes and 17, the point
                                      * and commas at every end. */
      "1,234,567,890.12", "123,456,789,012", "9,007,199,254.75", "12345678901234.5",
      "1234567890123456", "0000000000000000", "9999999999999999", "99999999999999.99",
      "1,234,567,890.123", ".", ",", "1,", ",1", "1,2345", "12,345,6", "1234,5", "1.2,3", "1,234.",
      "1..2", "0.000000000000001"};
  size_t i;

  (void)state;
  need_reader();
  for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
    same_as_parse_num(edge[i], strlen(edge[i]));
#if defined(HP__HAVE_AVX2)
  {
    double v;
    /* Hand-checked values: the forms ncu prints. */
    assert_int_equal(num16("1,234.5", 7, &v), 1);
    assert_true(v == 1234.5);
    assert_int_equal(num16("62.06", 5, &v), 1);
    assert_true(v == strtod("62.06", NULL));
    assert_int_equal(num16("16,777,216", 10, &v), 1);
    assert_true(v == 16777216.0);
    assert_int_equal(num16("n/a", 3, &v), 0);
    assert_true(isnan(v));
    assert_int_equal(num16("1,23", 4, &v), HP_EPARSE);
    /* Not read past its length: the digits after it are not part of the number. */
    assert_int_equal(num16("12.3456", 4, &v), 1);
    assert_true(v == 12.3);
  }
#endif
}

/* For plain decimals the double is strtod's. */
static void test_ncu_num_matches_strtod(void **state)
{
  char s[64];
  size_t n, k, i;
  double v;

  (void)state;
  need_reader();
  for (k = 0; k < 200000; k++) {
    n = 1 + rnd(10);
    for (i = 0; i < n; i++)
      s[i] = (char)('0' + rnd(10));
    if (rnd(4)) {
      i = 1 + rnd((unsigned)n);
      memmove(s + i + 1, s + i, n - i);
      s[i] = '.';
      n++;
      if (s[n - 1] == '.')
        s[n++] = '5';
    }
    s[n] = '\0';
#if defined(HP__HAVE_AVX2)
    assert_int_equal(num16(s, n, &v), 1);
    assert_true(v == strtod(s, NULL));
#else
    (void)v;
#endif
  }
}

int main(void)
{
  hp__ncu_num_init();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ncu_num_matches_parse_num),
      cmocka_unit_test(test_ncu_num_edges),
      cmocka_unit_test(test_ncu_num_matches_strtod),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
