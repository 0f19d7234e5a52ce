/*
 * Tests of lib/util/num/num.c's fast paths: on many generated inputs (digits of every length up to
 * 25, points, exponents, thousands separators right and wrong, signs, spaces, no-value words,
 * text, the edges of 2^53, 2^63 and 2^64, 10^22 and beyond) hp__parse_num and hp__parse_ll must
 * give the same answer and the very same double or integer as the reference: the seed's
 * implementation (separators stripped, then strtod) transcribed below, and for every accepted
 * number also strtod itself on the text without separators.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hprun.h"
#include "util/num/num.h"

/* ---------------------------------------------------------------------------------------------- */
/* The reference: num.c before its fast paths (strtod after strip_groups), verbatim but renamed.  */

static void ref_trim(const char **s, size_t *n)
{
  hp__trim(s, n);
}

static int ref_is_no_value(const char *s, size_t n)
{
  static const char *const none[] = {"n/a", "na", "none", "nan", "null", "-", "--"};
  size_t i;

  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
    if (strlen(none[i]) == n && strncasecmp(s, none[i], n) == 0)
      return 1;
  return 0;
}

/* Copies s without its thousands separators into tmp (NUL-terminated), checking that they split
 * the integer part into groups of three. Returns 0, or HP_EPARSE when the grouping is wrong or the
 * text does not fit. */
static int ref_strip_groups(const char *s, size_t n, char *tmp, size_t tmpsz)
{
  size_t i, o = 0, run = 0;
  int seen_comma = 0, in_int = 1, lead = 1;

  for (i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == ',') {
      if (!in_int || run == 0 || (seen_comma && run != 3) || (!seen_comma && run > 3))
        return HP_EPARSE;
      seen_comma = 1;
      run = 0;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      if (in_int)
        run++;
      lead = 0;
    } else if (lead && (ch == '+' || ch == '-')) {
      lead = 0;
    } else {
      if (in_int && seen_comma && run != 3)
        return HP_EPARSE;
      in_int = 0;
      lead = 0;
    }
    if (o + 1 >= tmpsz)
      return HP_EPARSE;
    tmp[o++] = ch;
  }
  if (in_int && seen_comma && run != 3)
    return HP_EPARSE;
  tmp[o] = '\0';
  return 0;
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int ref_parse_num(const char *s, size_t n, double *out)
{
  char tmp[128], *end;
  const char *p, *e;
  uint64_t m = 0;
  int neg = 0, ndig = 0, nfrac = 0, dot = 0;
  double v;

  *out = NAN;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    ref_trim(&s, &n);
  /* The fast path, tried first because it is what nearly every field is: [+-]digits[.digits],
   * at most 19 digits, exact through one division. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  for (; p < e; p++) {
    if (*p >= '0' && *p <= '9') {
      if (ndig >= 19)
        break;
      m = m * 10 + (uint64_t)(*p - '0');
      ndig++;
      nfrac += dot;
    } else if (*p == '.' && !dot) {
      dot = 1;
    } else {
      break;
    }
  }
  if (p == e && ndig > 0 && m <= ((uint64_t)1 << 53) && nfrac <= 22) {
    v = (double)m;
    if (nfrac)
      v /= pow10_tab[nfrac];
    *out = neg ? -v : v;
    return 1;
  }
  if (ref_is_no_value(s, n))
    return 0;
  if (ref_strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  if (tmp[0] == '\0')
    return HP_EPARSE;
  errno = 0;
  v = strtod(tmp, &end);
  if (end == tmp || *end != '\0' || !isfinite(v))
    return HP_EPARSE;
  /* strtod also takes hex floats and "infinity"; profilers print neither, so refuse them. */
  for (p = tmp; *p; p++)
    if (*p == 'x' || *p == 'X' || *p == 'i' || *p == 'I' || *p == 'n' || *p == 'N')
      return HP_EPARSE;
  *out = v;
  return 1;
}

static int ref_parse_ll(const char *s, size_t n, long long *out)
{
  char tmp[128];
  const char *p, *e;
  unsigned long long m = 0;
  int neg = 0, r;
  double v;

  *out = 0;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    ref_trim(&s, &n);
  /* The fast path: [+-]digits, no copy. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if (p < e && e - p <= 18) {
    const char *q = p;
    while (q < e && *q >= '0' && *q <= '9')
      m = m * 10 + (unsigned)(*q++ - '0');
    if (q == e) {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  if (ref_is_no_value(s, n))
    return 0;
  if (ref_strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  m = 0;
  neg = 0;
  p = tmp;
  if (*p == '-' || *p == '+')
    neg = *p++ == '-';
  if (*p >= '0' && *p <= '9') {
    for (; *p >= '0' && *p <= '9'; p++) {
      if (m > (9223372036854775807ULL - (unsigned)(*p - '0')) / 10)
        return HP_ERANGE;
      m = m * 10 + (unsigned)(*p - '0');
    }
    if (*p == '\0') {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  /* "120.0" or "1.2e2": accepted when the value is a whole number that a double holds exactly. */
  r = ref_parse_num(s, n, &v);
  if (r <= 0)
    return r;
  if (v != floor(v) || fabs(v) > 9007199254740992.0)
    return HP_EPARSE;
  *out = (long long)v;
  return 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Generated inputs                                                                                */

static uint64_t rs = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return (unsigned)(rs % n);
}

static void digits(char *o, size_t *k, unsigned n)
{
  while (n--)
    o[(*k)++] = (char)('0' + rnd(10));
}

/* One random candidate: mostly well-formed numbers of every shape, some broken ones. */
static void gen(char *o, size_t cap)
{
  size_t k = 0;
  unsigned i, nint = rnd(22), groups = rnd(4) == 0;

  (void)cap;
  if (rnd(8) == 0)
    o[k++] = ' ';
  if (rnd(4) == 0)
    o[k++] = rnd(2) ? '-' : '+';
  if (groups && nint > 0) {
    unsigned first = 1 + rnd(3), ng = rnd(7);
    digits(o, &k, first);
    for (i = 0; i < ng; i++) {
      o[k++] = ',';
      digits(o, &k, rnd(10) == 0 ? rnd(5) : 3); /* now and then a wrong group */
    }
  } else {
    if (rnd(5) == 0)
      digits(o, &k, 0), o[k++] = '0'; /* leading zeros */
    digits(o, &k, nint);
  }
  if (rnd(3) == 0) {
    o[k++] = '.';
    digits(o, &k, rnd(20));
  }
  if (rnd(5) == 0) {
    o[k++] = rnd(2) ? 'e' : 'E';
    if (rnd(2))
      o[k++] = rnd(2) ? '-' : '+';
    digits(o, &k, rnd(4));
  }
  if (rnd(30) == 0)
    o[k++] = "x,.e- a"[rnd(7)];
  if (rnd(8) == 0)
    o[k++] = '\t';
  o[k] = '\0';
}

static void check_num(const char *s)
{
  double got = 0, want = 0;
  int rg = hp__parse_num(s, strlen(s), &got), rw = ref_parse_num(s, strlen(s), &want);

  if (rg != rw || (rg == 1 && memcmp(&got, &want, sizeof(got)) != 0))
    fail_msg("hp__parse_num(\"%s\") = %d %.17g, reference %d %.17g", s, rg, got, rw, want);
  if (rg == 1) {
    /* And strtod itself on the text without separators and spaces. */
    char t[128];
    size_t i, o = 0;
    for (i = 0; s[i] && o < sizeof(t) - 1; i++)
      if (s[i] != ',' && s[i] != ' ' && s[i] != '\t')
        t[o++] = s[i];
    t[o] = '\0';
    want = strtod(t, NULL);
    if (memcmp(&got, &want, sizeof(got)) != 0)
      fail_msg("hp__parse_num(\"%s\") = %.17g, strtod(\"%s\") = %.17g", s, got, t, want);
  }
}

static void check_ll(const char *s)
{
  long long got = 0, want = 0;
  int rg = hp__parse_ll(s, strlen(s), &got), rw = ref_parse_ll(s, strlen(s), &want);

  if (rg != rw || got != want)
    fail_msg("hp__parse_ll(\"%s\") = %d %lld, reference %d %lld", s, rg, got, rw, want);
}

static void test_generated(void **state)
{
  char s[128];
  long i;

  (void)state;
  for (i = 0; i < 400000; i++) {
    gen(s, sizeof(s));
    check_num(s);
    check_ll(s);
  }
}

static void test_edges(void **state)
{
  static const char *const cases[] = {
      "9007199254740992",
      "9007199254740993",
      "9007199254740995",
      "-9007199254740993",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "18446744073709551615",
      "18446744073709551616",
      "99999999999999999999",
      "1745000000000123457",
      "1,745,000,000,000,123,457",
      "12345678901234567890123",
      "1e22",
      "1e23",
      "9007199254740993e1",
      "9007199254740992e22",
      "1e-22",
      "1e-23",
      "123456789012345.6789",
      "0.1",
      "0.3",
      "2.2250738585072014e-308",
      "4.9e-324",
      "1e-400",
      "1.7976931348623157e308",
      "1e309",
      "-0",
      "-0.0",
      "+0",
      "0e5",
      "-0e-5",
      ".5",
      "5.",
      "-.5",
      "+.5e1",
      "1e",
      "1e+",
      "e5",
      "1e99999",
      "1e00001",
      "00000000000000000000001",
      "0.000000000000000000001",
      "1,234",
      "1,234.5",
      "1,234e2",
      "12,345,678.25",
      ",123",
      "1,",
      "1,,234",
      "1,2345",
      "1234,567",
      "1.234,5",
      "-1,234",
      "+1,234",
      "1,234 ",
      " 1,234",
      "n/a",
      "N/A",
      "na",
      "NA",
      "none",
      "NONE",
      "nan",
      "NaN",
      "null",
      "Null",
      "-",
      "--",
      "---",
      "",
      " ",
      "\t",
      "inf",
      "-inf",
      "infinity",
      "0x10",
      "0x1p3",
      "1e5x",
      "x",
      "NVIDIA H200",
      "(256, 1, 1)",
      "No-CC",
      "\r5",
      "\n5",
      "\v5",
      "\f5",
      "5\r",
      "1.5.2",
      "+-1",
      "--1",
      "-+1",
      "\"",
      "abc",
      "12abc",
      "1 2",
      "1\t2",
      "1234,567,890",
      "123,456,789,012,345,678,901",
      "1,234,567,890,123,456,789",
      "12,345,678,901,234,567,890",
      "0,000",
      ",",
      "1,000,",
      ",000",
      "1,000,00",
      "1,00,000",
      "999,999,999,999,999,999",
      "9,223,372,036,854,775,807",
      "9,223,372,036,854,775,808",
      "18,446,744,073,709,551,615",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    check_num(cases[i]);
    check_ll(cases[i]);
  }
}

__extension__ typedef unsigned __int128 u128;

/* Every integer near the powers of two where rounding changes. */
static void test_integers_near_limits(void **state)
{
  char s[64];
  int p, d;

  (void)state;
  for (p = 50; p <= 64; p++)
    for (d = -40; d <= 40; d++) {
      u128 v = ((u128)1 << p) + d;
      unsigned long long hi = (unsigned long long)(v / 10000000000ULL);
      unsigned long long lo = (unsigned long long)(v % 10000000000ULL);
      if (hi)
        snprintf(s, sizeof(s), "%llu%010llu", hi, lo);
      else
        snprintf(s, sizeof(s), "%llu", lo);
      check_num(s);
      check_ll(s);
    }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edges),
      cmocka_unit_test(test_integers_near_limits),
      cmocka_unit_test(test_generated),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
