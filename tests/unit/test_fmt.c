/*
 * Tests for lib/util/num/fmt.c: how every text writer prints a value, an overhead ratio, a
 * p-value and a change with its interval, in one unit.
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

static void check_change(double v, double lo, double hi, int what, const char *want)
{
  char buf[64];

  memset(buf, 'X', sizeof(buf));
  assert_ptr_equal(hp__fmt_change(buf, sizeof(buf), v, lo, hi, what), buf);
  assert_string_equal(buf, want);
}

/* Every interval reads in its change's unit (issue 29's examples, worked by hand). */
static void test_change(void **state)
{
  (void)state;
  /* A percentage change: bounds in percent, signed, 3 significant digits. */
  check_change(0.9662, 0.833, 1.009, HP__CHG_BOTH, "-3.38% [-16.7%, +0.9%]");
  check_change(1.0326, 0.7457, 1.4202, HP__CHG_BOTH, "+3.26% [-25.4%, +42%]");
  check_change(1.0326, 0.7457, 1.4202, HP__CHG_CI, "[-25.4%, +42%]");
  /* A bound a rounding away from 1 reads +0%, never 1e-06% or -0%. */
  check_change(1.0, 0.99999999, 1.0000001, HP__CHG_BOTH, "+0.00% [+0%, +0%]");
  check_change(1.001, 1.00123, 1.00126, HP__CHG_CI, "[+0.12%, +0.13%]");
  /* A factor: bounds in x, even a bound below 2x. */
  check_change(122.8, 106.2, 129.4, HP__CHG_BOTH, "122.80x [106x, 129x]");
  check_change(89.21, 64.4209, 125.5956, HP__CHG_CI, "[64.4x, 126x]");
  check_change(2.5, 1.8, 3.1, HP__CHG_BOTH, "2.50x [1.8x, 3.1x]");
  check_change(0.4, 0.35, 0.46, HP__CHG_BOTH, "0.40x [0.35x, 0.46x]");
  /* No interval: the change alone, or "-" for a column of intervals. */
  check_change(1.0326, NAN, NAN, HP__CHG_BOTH, "+3.26%");
  check_change(1.0326, NAN, NAN, HP__CHG_CI, "-");
  check_change(NAN, NAN, NAN, HP__CHG_BOTH, "-");
  /* A difference under an absolute tolerance, in the metric's unit. */
  check_change(0.001, -0.002, 0.004, HP__CHG_DIFF, "+0.001 [-0.002, +0.004]");
  check_change(0.001, -0.002, 0.004, HP__CHG_DIFF | HP__CHG_CI, "[-0.002, +0.004]");
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
      cmocka_unit_test(test_overhead), cmocka_unit_test(test_change),
      cmocka_unit_test(test_p),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
