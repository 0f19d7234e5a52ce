/*
 * Unit tests for the CSV reader's fast path (lib/util/csv/csv_line.c, csv_lanes.c, hp__csv_next_raw in
 * csv.c): a line that hp__csv_split_fast takes must give the very fields hp__csv_next gives for
 * it, and the values of its numeric columns must be the ones hp__parse_ll gives. Checked on
 * hand-picked lines (quotes, empty fields, CRs, 0 to 20 digits), on 30,000 random lines from an
 * alphabet of delimiters, quotes, digits and spaces, short and long (both of the split's walks),
 * with every column kept as text, read as a number, or a mix with left-out columns, and on runs
 * of PMC-like lines through one splitter (hp__csv_split_fast), most of them laid out like the one
 * before (the kept layout) and some not. Every test runs twice: with the AVX2 code (masks, number
 * lanes) where the CPU has it, and with the portable code (hp__cpu_force, util/sys/cpu.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/num/num.h"
#include "util/sys/cpu.h"

#include "test_csv_mem.h"

#define MAXC 128

static int nwarn;

static void count_warn(void *ud, long line, const char *msg)
{
  (void)ud;
  (void)line;
  (void)msg;
  nwarn++;
}

/* The kind of column i: every one text (num 0), every one a number (1), or a mix of the three
 * kinds, some columns left out (2). */
static unsigned char kind_of(int num, size_t i)
{
  static const unsigned char mix[] = {HP__CSV_NUM, HP__CSV_TEXT, HP__CSV_NUM, HP__CSV_SKIP,
                                      HP__CSV_NUM};

  return num == 0 ? HP__CSV_TEXT : num == 1 ? HP__CSV_NUM : mix[i % 5];
}

/* Splits `line` (one line, no newline) through the fast path with `ncols` columns of kinds
 * kind_of(num, i), by a splitter of its own, or by `sp` when it is not NULL
 * (its kinds must be those), into `len` (the caller's array, or a fresh one when NULL), and
 * compares with hp__csv_next on the same input. Returns what the split returned. */
static int compare_with(const char *line, size_t ncols, int num, hp__csv_splitter *sp, size_t *lens)
{
  hp__csv *fast, *slow;
  hp__csv_rec rec, ref;
  char *f[MAXC];
  size_t own[MAXC], *len = lens ? lens : own, n, i;
  uint64_t val[MAXC];
  unsigned char ok[MAXC], kind[MAXC];
  const char *s;
  long lno;
  int r, split;

  for (i = 0; i < MAXC; i++)
    kind[i] = kind_of(num, i);
  assert_int_equal(csv_open_bytes(&fast, line, strlen(line), NULL), 0);
  assert_int_equal(csv_open_bytes(&slow, line, strlen(line), NULL), 0);
  hp__csv_set_warn(slow, count_warn, NULL);
  r = hp__csv_next_raw(fast, &s, &n, &lno);
  assert_int_equal(r, 1);
  rec.f = f;
  rec.len = len;
  if (sp) {
    split = n > 0 && hp__csv_split_fast(sp, s, n, &rec, val, ok);
  } else {
    hp__csv_splitter one;
    assert_int_equal(hp__csv_splitter_init(&one, kind, ncols), 0);
    split = n > 0 && hp__csv_split_fast(&one, s, n, &rec, val, ok);
    hp__csv_splitter_free(&one);
  }
  nwarn = 0;
  r = hp__csv_next(slow, &ref);
  if (split) {
    assert_int_equal(r, 1);
    assert_int_equal(nwarn, 0);
    assert_int_equal(rec.n, ref.n);
    for (i = 0; i < ref.n; i++) {
      long long want;
      if (kind[i] == HP__CSV_SKIP)
        continue;
      assert_int_equal(len[i], ref.len[i]);
      assert_memory_equal(f[i], ref.f[i], len[i]);
      if (kind[i] != HP__CSV_NUM || !ok[i])
        continue;
      /* Only plain digits are taken, and their value is exactly hp__parse_ll's. */
      assert_true(len[i] >= 1 && len[i] <= 19 && strspn(ref.f[i], "0123456789") == len[i]);
      assert_int_equal(hp__parse_ll(ref.f[i], ref.len[i], &want), 1);
      assert_int_equal((long long)val[i], want);
    }
    /* And every plain-digit field of an unquoted line is taken. */
    for (i = 0; !strchr(line, '"') && i < ref.n; i++)
      if (kind[i] == HP__CSV_NUM && len[i] >= 1 && len[i] <= 16 &&
          strspn(ref.f[i], "0123456789") == len[i])
        assert_true(ok[i]);
    /* all_ok says that every numeric column is a number, and nothing else. */
    if (sp && sp->all_ok)
      for (i = 0; i < ref.n; i++)
        assert_true(kind[i] != HP__CSV_NUM || ok[i]);
  }
  hp__csv_free(fast);
  hp__csv_free(slow);
  return split;
}

static int compare_line(const char *line, size_t ncols, int num)
{
  return compare_with(line, ncols, num, NULL, NULL);
}

static void test_plain_lines_split(void **state)
{
  (void)state;
  assert_int_equal(compare_line("a,b,c", 3, 0), 1);
  assert_int_equal(compare_line("a,b,c\r", 3, 0), 1);
  assert_int_equal(compare_line(",,", 3, 0), 1);
  assert_int_equal(compare_line("\"x,y\",2,\"\"", 3, 0), 1);
  assert_int_equal(compare_line("1,22,333,4444,55555,666666,7777777,88888888", 8, 1), 1);
  assert_int_equal(compare_line("123456789,1234567890123456,12345678901234567,0", 4, 1), 1);
  assert_int_equal(compare_line("00012,-5,+5, 7,7 ,1.5,1e3,0x10,", 9, 1), 1);
  /* rocprofv3's 19-digit timestamps, the largest long long and one past it */
  assert_int_equal(
      compare_line(
          "1745000000000020000,9223372036854775807,9223372036854775808,00000000000000000001", 4, 1),
      1);
  /* A quote inside an unquoted field is data; the split may leave such a line to the reader. */
  compare_line("ab\"c,d", 2, 0);
  assert_int_equal(compare_line("\"vector_add(float const*, float*, int)\",0,256", 3, 1), 1);
  /* Text, numbers and left-out columns together; a quoted number is no number. */
  assert_int_equal(compare_line("12,\"k(a, b)\",\"34\",x,123456789012,7,8", 7, 2), 1);
}

static void test_other_lines_go_to_the_reader(void **state)
{
  (void)state;
  assert_int_equal(compare_line("a,b,c", 2, 0), 0);        /* more fields */
  assert_int_equal(compare_line("a,b", 3, 0), 0);          /* fewer */
  assert_int_equal(compare_line("\"a\"\"b\",c", 2, 0), 0); /* a doubled quote */
  assert_int_equal(compare_line("\"ab\"x,c", 2, 0), 0);    /* text after the quote */
  assert_int_equal(compare_line("\"open,c", 2, 0), 0);     /* a quote left open */
  assert_int_equal(compare_line("a,\"b\"\r\r", 2, 0), 0);  /* a CR after the quote */
}

static void test_long_lines_both_walks(void **state)
{
  hp__buf b = HP__BUF_INIT;
  int i;

  (void)state;
  /* 120 columns of numbers (the masked walk over several blocks) and 3 long text fields (the
   * field-by-field walk), and a line longer than the masked walk takes. */
  for (i = 0; i < 120; i++)
    hp__buf_printf(&b, "%s%d", i ? "," : "", i * 7919);
  assert_int_equal(compare_line(b.data, 120, 1), 1);
  hp__buf_reset(&b);
  for (i = 0; i < 3; i++) {
    hp__buf_adds(&b, i ? ",\"" : "\"");
    for (int k = 0; k < 90; k++)
      hp__buf_addc(&b, (char)(k % 7 == 0 ? ',' : 'a' + k % 26));
    hp__buf_addc(&b, '"');
  }
  assert_int_equal(compare_line(b.data, 3, 0), 1);
  /* Numbers of 1 to 20 digits after a long text field (the field-by-field walk), and alone (the
   * masked walk). */
  hp__buf_reset(&b);
  for (i = 0; i < 400; i++)
    hp__buf_addc(&b, 'x');
  for (i = 1; i <= 20; i++)
    hp__buf_printf(&b, ",%.*s", i, "98765432109876543210");
  assert_int_equal(compare_line(b.data, 21, 1), 1);
  assert_int_equal(compare_line(b.data + 401, 20, 1), 1);
  hp__buf_reset(&b);
  for (i = 0; i < 600; i++)
    hp__buf_printf(&b, "%s%d", i ? "," : "", i);
  assert_int_equal(compare_line(b.data, 1, 1), 0);
  hp__buf_free(&b);
}

/* A deterministic generator, so a failure can be reproduced. */
#define TEST_XORSHIFT_SEED 88172645463325252ULL
#include "test_xorshift.h"

static void test_random_lines_agree(void **state)
{
  /* Dense commas with quotes, the same without quotes (so that many lines take the fast path),
   * and long fields (the field-by-field walk). */
  static const char *const alphas[] = {"0123456789,,,,\"\" a\r.-", "0123456789,,,,",
                                       "0123456789abcdefghijklmnopqrstuvwxyz,\"\r"};
  char line[400];
  int t, took = 0;

  (void)state;
  for (t = 0; t < 30000; t++) {
    const char *alpha = alphas[t % 3];
    size_t n = 1 + rnd(t % 4 == 0 ? 390 : 40), i, commas = 0, want;
    for (i = 0; i < n; i++) {
      line[i] = alpha[rnd((unsigned)strlen(alpha))];
      commas += line[i] == ',';
    }
    line[n] = '\0';
    /* The field count the line has when it is plain, or one off. */
    want = commas + rnd(3);
    if (want == 0 || want >= MAXC)
      continue;
    took += compare_line(line, want, (int)rnd(3));
  }
  /* The fast path took a fair share of them, so the comparisons above were not vacuous. */
  assert_true(took > 2000);
}

/* Runs of PMC-like lines through one splitter: mostly the layout of the line before with other
 * digits (the kept layout), now and then a number one digit longer, a field quoted, a doubled
 * quote (not plain), another field count, or the caller's length array swapped. */
static void test_layouts_kept_and_changed(void **state)
{
  unsigned char kind[MAXC];
  size_t lens_a[MAXC], lens_b[MAXC], i;
  hp__csv_splitter sp;
  char line[512];
  int t, took = 0;

  (void)state;
  for (i = 0; i < MAXC; i++)
    kind[i] = kind_of(2, i);
  assert_int_equal(hp__csv_splitter_init(&sp, kind, 12), 0);
  for (t = 0; t < 6000; t++) {
    unsigned change = rnd(40);
    /* The line before again, after one the split took: taken again, by the kept layout. */
    if (change == 9 && took > 0 && sp.nw > 0) {
      assert_int_equal(compare_with(line, 12, 2, &sp, lens_a), 1);
      continue;
    }
    unsigned long long id = 1000000 + (unsigned long long)t, ts = 5000000000000ULL + 1481ULL * t;
    /* another name of the same length now and then, and a 0 or 1: new bytes, same layout */
    const char *name = change == 1 ? "\"k(a, \"\"b\"\")\""
        : change == 10             ? "\"vector_sub(float const*, int)\""
                                   : "\"vector_add(float const*, int)\"";
    snprintf(line, sizeof(line), "%llu,%s,%d,%s%u%s,%s,%u,%llu,%llu,%u,%u,%s%u,%u", id, name,
             change == 11, change == 2 ? "\"" : "", 1000 + (unsigned)(t % 120),
             change == 2 ? "\"" : "", change == 3 ? "12345678" : "1234567",
             256 + rnd(3) * (change == 4 ? 1000 : 1), ts, ts + 1000 + rnd(9), rnd(10),
             change == 5 ? 99999999u : 16384u, change == 6 ? "x" : "", rnd(100), 7u);
    if (change == 7)
      strcat(line, ",extra");
    took += compare_with(line, 12, 2, &sp, change == 8 ? lens_b : lens_a);
  }
  assert_true(took > 5000);
  hp__csv_splitter_free(&sp);
  hp__csv_splitter_free(&sp); /* a freed splitter may be freed again */
}

static void test_raw_line_limits(void **state)
{
  static const char data[] = "short\nthis line is longer than the limit\nend";
  hp__csv_opts o = {8, 10, 0};
  hp__csv *c;
  hp__csv_rec rec;
  const char *s;
  size_t n;
  long line;

  (void)state;
  assert_int_equal(csv_open_bytes(&c, data, sizeof(data) - 1, &o), 0);
  hp__csv_set_warn(c, count_warn, NULL);
  assert_int_equal(hp__csv_next_raw(c, &s, &n, &line), 1);
  assert_int_equal(n, 5);
  /* A line that may hold a field over max_field is left for hp__csv_next, which skips it. */
  assert_int_equal(hp__csv_next_raw(c, &s, &n, &line), 2);
  nwarn = 0;
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(nwarn, 1);
  assert_memory_equal(rec.f[0], "end", 3);
  assert_int_equal(rec.line, 3);
  hp__csv_free(c);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plain_lines_split),
      cmocka_unit_test(test_other_lines_go_to_the_reader),
      cmocka_unit_test(test_long_lines_both_walks),
      cmocka_unit_test(test_random_lines_agree),
      cmocka_unit_test(test_layouts_kept_and_changed),
      cmocka_unit_test(test_raw_line_limits),
  };
  int r;

  /* The CPU's own level first (AVX2 on the development machine), then the portable code. */
  printf("avx2 %d\n", hp__cpu_avx2());
  r = cmocka_run_group_tests(tests, NULL, NULL);
  hp__cpu_force(0);
  printf("avx2 %d\n", hp__cpu_avx2());
  r |= cmocka_run_group_tests(tests, NULL, NULL);
  hp__cpu_force(-1);
  return r;
}
