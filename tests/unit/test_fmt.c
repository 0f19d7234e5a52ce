/*
 * Tests for lib/util/num/fmt.c: how every text writer prints a value, an overhead ratio, a
 * p-value and an interval (in each writer's style).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "util/num/fmt.h"

static void check_num(double v, const char *want)
{
  char buf[32];

  memset(buf, 'X', sizeof(buf));
  assert_ptr_equal(hp__fmt_num(buf, sizeof(buf), v), buf);
  assert_string_equal(buf, want);
}

static void check_overhead(double ratio, const char *want)
{
  char buf[32];

  memset(buf, 'X', sizeof(buf));
  assert_ptr_equal(hp__fmt_overhead(buf, sizeof(buf), ratio), buf);
  assert_string_equal(buf, want);
}

static void test_num(void **state)
{
  (void)state;
  check_num(NAN, "-");
  check_num(0, "0");
  check_num(100, "100");
  check_num(0.5, "0.5");
  check_num(123.456789, "123.457"); /* six significant digits */
  check_num(-0.000123456789, "-0.000123457");
  check_num(1234567, "1.23457e+06");
  check_num(999999, "999999");
  check_num(1e-5, "1e-05");
  check_num(INFINITY, "inf");
}

static void test_num_truncates(void **state)
{
  char buf[4];

  (void)state;
  hp__fmt_num(buf, sizeof(buf), 123.456);
  assert_string_equal(buf, "123");
  hp__fmt_overhead(buf, sizeof(buf), 79.83);
  assert_string_equal(buf, "79.");
}

static void test_overhead(void **state)
{
  (void)state;
  check_overhead(NAN, "-");
  /* Near 1 a ratio reads as a percentage change... */
  check_overhead(1.0127, "+1.27%");
  check_overhead(1.0, "+0.00%");
  check_overhead(0.95, "-5.00%");
  check_overhead(1.999, "+99.90%");
  check_overhead(0.51, "-49.00%");
  /* ...and from 2x up, or at 0.5x and below, as a factor. */
  check_overhead(2.0, "2.00x");
  check_overhead(79.83, "79.83x");
  check_overhead(0.5, "0.50x");
  check_overhead(0.4, "0.40x");
  check_overhead(0, "0.00x");
}

static void check_ci(double lo, double hi, int style, const char *want)
{
  char buf[64];

  memset(buf, 'X', sizeof(buf));
  assert_ptr_equal(hp__fmt_ci(buf, sizeof(buf), lo, hi, style), buf);
  assert_string_equal(buf, want);
}

static void test_ci(void **state)
{
  (void)state;
  check_ci(0.98123, 1.02034, HP__CI_TEXT, "[0.9812,1.0203]");
  check_ci(0.98123, 1.02034, HP__CI_MD, "[0.9812, 1.0203]");
  check_ci(0.98123, 1.02034, HP__CI_HTML, "[0.98123, 1.02034]");
  check_ci(0.98123, 1.02034, HP__CI_CELL, "[0.981,1.02]");
  check_ci(75.123456789, 84.6, HP__CI_HTML, "[75.1235, 84.6]");
  check_ci(75.123456789, 84.6, HP__CI_CELL, "[75.1,84.6]");
  /* Whether there is an interval is the caller's question: a missing bound is printed as such. */
  check_ci(NAN, NAN, HP__CI_HTML, "[-, -]");
}

/* p-values are written as every other number. */
static void test_p(void **state)
{
  char buf[32];

  (void)state;
  assert_string_equal(hp__fmt_num(buf, sizeof(buf), 0.01), "0.01");
  assert_string_equal(hp__fmt_num(buf, sizeof(buf), 0.000123456789), "0.000123457");
  assert_string_equal(hp__fmt_num(buf, sizeof(buf), NAN), "-");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_num),      cmocka_unit_test(test_num_truncates),
      cmocka_unit_test(test_overhead), cmocka_unit_test(test_ci),
      cmocka_unit_test(test_p),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
