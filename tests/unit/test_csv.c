/*
 * Unit tests for the streaming CSV reader (lib/util/csv/csv.c, csv_record.c, csv_header.c) and the
 * number parsers (lib/util/num/num.c).
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
#include <unistd.h>

#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/csv/csv_internal.h" /* the reader's buffer size */
#include "util/num/num.h"
#include "test_csv_mem.h"

/* Warnings the reader gave, one per line as "LINE: message". */
static hp__buf warnings = HP__BUF_INIT;

static void collect_warn(void *ud, long line, const char *msg)
{
  (void)ud;
  hp__buf_printf(&warnings, "%ld: %s\n", line, msg);
}

/* Reads every record of `data` and renders them as "a|b|c @LINE\n" (with '|' and newlines inside
 * fields shown as \| and \n), so whole parses can be compared as strings. */
static char *render(const char *data, size_t len, const hp__csv_opts *o)
{
  hp__buf out = HP__BUF_INIT;
  hp__csv *c;
  hp__csv_rec rec;
  size_t i, k;
  int r;

  hp__buf_reset(&warnings);
  assert_int_equal(csv_open_bytes(&c, data, len, o), 0);
  hp__csv_set_warn(c, collect_warn, NULL);
  while ((r = hp__csv_next(c, &rec)) == 1) {
    for (i = 0; i < rec.n; i++) {
      if (i)
        hp__buf_addc(&out, '|');
      assert_int_equal(rec.f[i][rec.len[i]], '\0');
      for (k = 0; k < rec.len[i]; k++) {
        char ch = rec.f[i][k];
        if (ch == '|')
          hp__buf_adds(&out, "\\|");
        else if (ch == '\n')
          hp__buf_adds(&out, "\\n");
        else if (ch == '\r')
          hp__buf_adds(&out, "\\r");
        else if (ch == '\0')
          hp__buf_adds(&out, "\\0");
        else
          hp__buf_addc(&out, ch);
      }
    }
    hp__buf_printf(&out, " @%ld\n", rec.line);
  }
  assert_int_equal(r, 0);
  hp__csv_free(c);
  return hp__buf_steal(&out);
}

static void check(const char *data, const char *want)
{
  char *got = render(data, strlen(data), NULL);
  assert_string_equal(got, want);
  free(got);
}

static void test_basic_quoting(void **state)
{
  (void)state;
  check("Name,Calls\n\"a, b\",1\n\"say \"\"hi\"\"\",2\nplain,3\n",
        "Name|Calls @1\na, b|1 @2\nsay \"hi\"|2 @3\nplain|3 @4\n");
  /* Empty fields, a trailing comma, an empty quoted field. */
  check("a,,c,\n\"\",x\n", "a||c| @1\n|x @2\n");
  assert_int_equal(warnings.len, 0);
}

static void test_newlines_in_quotes_and_line_numbers(void **state)
{
  (void)state;
  check("h1,h2\n\"line one\nline two\",after\nnext,row\n",
        "h1|h2 @1\nline one\\nline two|after @2\nnext|row @4\n");
  /* Blank lines are skipped but still counted. */
  check("a\n\n\nb\n", "a @1\nb @4\n");
}

static void test_crlf_bom_and_no_final_newline(void **state)
{
  (void)state;
  check("\xEF\xBB\xBFName,Calls\r\n\"k\",1\r\nlast,2", "Name|Calls @1\nk|1 @2\nlast|2 @3\n");
  /* CR inside quotes is data; a quoted field ending the input. */
  check("\"a\r\nb\",\"c\"", "a\\r\\nb|c @1\n");
  check("x,\"y\"\r\n", "x|y @1\n");
}

static void test_stray_characters_after_quote(void **state)
{
  (void)state;
  check("\"abc\"def,2\nok,3\n", "abcdef|2 @1\nok|3 @2\n");
  assert_non_null(strstr(warnings.data, "1: characters after a closing quote in field 1"));
}

static void test_unterminated_quote_at_eof(void **state)
{
  (void)state;
  check("a,b\n1,2\n\"never closed,3\n4,5\n", "a|b @1\n1|2 @2\n");
  assert_non_null(warnings.data);
  assert_non_null(strstr(warnings.data, "3: unterminated quoted field"));
}

/* Every buffer size gives the same records: the refill-and-restart path is exercised at every
 * possible cut point. */
static void test_every_buffer_size_agrees(void **state)
{
  static const char data[] =
      "\xEF\xBB\xBF\"ID\",\"Kernel Name\",\"Value\"\r\n"
      "\"1\",\"vector_add(float const*, float const*, float*, int)\",\"1,234,567\"\r\n"
      "\n"
      "2,\"multi\nline \"\"quoted\"\" name\",3.5e-1\n"
      "3,,\n"
      "4,\"\",\"\"\"\"\n"
      "5,last,\"x\"";
  hp__csv_opts o = {0, 1 << 20, 1 << 20};
  char *ref = render(data, sizeof(data) - 1, NULL);
  size_t bs;

  (void)state;
  assert_non_null(strstr(ref, "multi\\nline \"quoted\" name|3.5e-1 @4\n"));
  assert_non_null(strstr(ref, "5|last|x @8\n"));
  for (bs = 1; bs <= 80; bs++) {
    char *got;
    o.bufsize = bs;
    got = render(data, sizeof(data) - 1, &o);
    assert_string_equal(got, ref);
    free(got);
  }
  free(ref);
}

static void test_field_too_long_is_skipped(void **state)
{
  hp__csv_opts o = {16, 32, 64};
  hp__buf in = HP__BUF_INIT;
  char *got;
  int i;

  (void)state;
  hp__buf_adds(&in, "a,b\n");
  hp__buf_adds(&in, "short,1\n");
  hp__buf_adds(&in, "\"");
  for (i = 0; i < 40; i++)
    hp__buf_addc(&in, 'x');
  hp__buf_adds(&in, "\nstill the same field\",2\n");
  hp__buf_adds(&in, "after,3\n");
  got = render(in.data, in.len, &o);
  assert_string_equal(got, "a|b @1\nshort|1 @2\nafter|3 @5\n");
  assert_non_null(strstr(warnings.data, "3: record skipped: a field is longer than 32 bytes"));
  free(got);

  /* A record longer than the largest buffer: reported, skipped as a whole, quotes followed. */
  hp__buf_reset(&in);
  hp__buf_adds(&in, "h\n\"");
  for (i = 0; i < 200; i++)
    hp__buf_adds(&in, i % 50 == 0 ? "\n" : "y");
  hp__buf_adds(&in, "\"\nnext\n");
  got = render(in.data, in.len, &o);
  assert_string_equal(got, "h @1\nnext @7\n");
  assert_non_null(strstr(warnings.data, "2: record longer than 64 bytes skipped"));
  free(got);
  hp__buf_free(&in);
}

/* A 1 MB field is read whole with the defaults (the buffer grows for it, then stays). */
static void test_one_megabyte_field(void **state)
{
  size_t big = 1 << 20, i;
  char *data = malloc(big + 32);
  hp__csv *c;
  hp__csv_rec rec;

  (void)state;
  memcpy(data, "name,v\n\"", 8);
  for (i = 0; i < big; i++)
    data[8 + i] = (char)('a' + i % 26);
  memcpy(data + 8 + big, "\",7\nz,8\n", 8);
  assert_int_equal(csv_open_bytes(&c, data, big + 16, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.n, 2);
  assert_int_equal(rec.len[0], big);
  assert_int_equal(rec.f[0][big - 1], 'a' + (big - 1) % 26);
  assert_string_equal(rec.f[1], "7");
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_string_equal(rec.f[0], "z");
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);
  free(data);
}

/* Memory does not grow with the input: 32 MiB of rows through a 64 KiB buffer. */
static void test_memory_does_not_grow(void **state)
{
  hp__csv_opts o = {65536, 1 << 20, 1 << 20};
  size_t size = (size_t)32 << 20, n = 0, rows = 0;
  char *data = malloc(size), line[128];
  hp__csv *c;
  hp__csv_rec rec;
  int len;

  (void)state;
  while (n + sizeof(line) < size) {
    len = snprintf(line, sizeof(line), "\"kernel_%zu, with comma\",%zu,%zu.5\n", rows % 97, rows,
                   rows * 3);
    memcpy(data + n, line, (size_t)len);
    n += (size_t)len;
    rows++;
  }
  assert_int_equal(csv_open_bytes(&c, data, n, &o), 0);
  while (hp__csv_next(c, &rec) == 1) {
    assert_int_equal(rec.n, 3);
    rows--;
  }
  assert_int_equal(rows, 0);
  assert_int_equal(c->cap, 65536); /* the buffer did not grow with the file */
  assert_int_equal(hp__csv_file_offset(c), n);
  hp__csv_free(c);
  free(data);
}

static void test_binary_data_does_not_crash(void **state)
{
  unsigned char data[4096];
  size_t i;
  char *got;

  (void)state;
  for (i = 0; i < sizeof(data); i++)
    data[i] = (unsigned char)((i * 7919u + 13u) >> 3);
  got = render((const char *)data, sizeof(data), NULL);
  assert_non_null(got);
  free(got);
}

static void test_lines_and_unread(void **state)
{
  static const char data[] = "==PROF== hello \"unbalanced\n\"ID\",\"x\"\r\n\"1\",\"2\"\nlast";
  hp__csv *c;
  hp__csv_rec rec;
  const char *s;
  size_t n;
  long line;

  (void)state;
  assert_int_equal(csv_open_bytes(&c, data, sizeof(data) - 1, NULL), 0);
  assert_int_equal(hp__csv_next_line(c, &s, &n, &line), 1);
  assert_int_equal(line, 1);
  assert_int_equal(n, 26);
  assert_int_equal(hp__csv_next_line(c, &s, &n, &line), 1);
  assert_int_equal(line, 2);
  assert_int_equal(n, 8); /* without the CR */
  hp__csv_unread_line(c);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.line, 2);
  assert_string_equal(rec.f[0], "ID");
  assert_string_equal(rec.f[1], "x");
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_string_equal(rec.f[1], "2");
  assert_int_equal(hp__csv_next_line(c, &s, &n, &line), 1);
  assert_int_equal(line, 4);
  assert_int_equal(n, 4);
  assert_memory_equal(s, "last", 4);
  assert_int_equal(hp__csv_next_line(c, &s, &n, &line), 0);
  hp__csv_free(c);
}

static void test_empty_input_and_file(void **state)
{
  char path[] = "/tmp/hprun-test-csv-XXXXXX";
  hp__csv *c;
  hp__csv_rec rec;
  int fd;

  (void)state;
  assert_int_equal(csv_open_bytes(&c, "", 0, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);

  fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "a,b\n1,2\n", 8), 8);
  close(fd);
  assert_int_equal(hp__csv_open_path(&c, path, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_string_equal(rec.f[1], "2");
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);
  unlink(path);
  assert_int_equal(hp__csv_open_path(&c, path, NULL), HP_ENOENT);
  assert_null(c);
}

static void test_header_lookup(void **state)
{
  static const char data[] = "\"Guid\", Kernel_Name ,Lds_Block_Size,VGPR_COUNT\n";
  static const char *const want[] = {"Kernel_Name|KernelName", "LDS_Block_Size|lds",
                                     "vgpr|VGPR_Count", "Missing|Also_Missing"};
  int idx[4];
  hp__csv *c;
  hp__csv_rec rec;

  (void)state;
  assert_int_equal(csv_open_bytes(&c, data, sizeof(data) - 1, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_map(&rec, want, 4, idx), 3);
  assert_int_equal(idx[0], 1);
  assert_int_equal(idx[1], 2);
  assert_int_equal(idx[2], 3);
  assert_int_equal(idx[3], -1);
  assert_int_equal(hp__csv_find(&rec, "guid"), 0);
  hp__csv_free(c);
}

static void test_parse_num(void **state)
{
  static const struct {
    const char *s;
    int r;
    double v;
  } cases[] = {
      {"42", 1, 42},
      {"  42.5 ", 1, 42.5},
      {"-3", 1, -3},
      {"1e3", 1, 1000},
      {"0.00000000e+00", 1, 0},
      {"2.25599900e+06", 1, 2255999},
      {"1,234,567.5", 1, 1234567.5},
      {"1,215,000,000.00", 1, 1215000000},
      {"", 0, 0},
      {"   ", 0, 0},
      {"n/a", 0, 0},
      {"N/A", 0, 0},
      {"None", 0, 0},
      {"nan", 0, 0},
      {"abc", HP_EPARSE, 0},
      {"1,23", HP_EPARSE, 0},
      {"1234,567", HP_EPARSE, 0},
      {"12abc", HP_EPARSE, 0},
      {"0x10", HP_EPARSE, 0},
      {"inf", HP_EPARSE, 0},
      {"1.5.2", HP_EPARSE, 0},
      {".", HP_EPARSE, 0},
      {"1,234.5,6", HP_EPARSE, 0},
      {"12345678901234567890123", 1, 12345678901234567890123.0},
  };
  size_t i;
  double v;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int r = hp__parse_num(cases[i].s, strlen(cases[i].s), &v);
    if (r != cases[i].r)
      fail_msg("hp__parse_num(\"%s\") = %d, want %d", cases[i].s, r, cases[i].r);
    if (r == 1 && v != cases[i].v)
      fail_msg("hp__parse_num(\"%s\") gave %.17g, want %.17g", cases[i].s, v, cases[i].v);
    if (r == 0)
      assert_true(isnan(v));
  }
}

static void test_parse_ll(void **state)
{
  long long v;

  (void)state;
  /* Nanosecond timestamps beyond 2^53 must stay exact: durations are their differences. */
  assert_int_equal(hp__parse_ll("1745000000000123457", 19, &v), 1);
  assert_true(v == 1745000000000123457LL);
  assert_int_equal(hp__parse_ll("\"", 1, &v), HP_EPARSE);
  assert_int_equal(hp__parse_ll(" 1,234 ", 7, &v), 1);
  assert_int_equal(v, 1234);
  assert_int_equal(hp__parse_ll("120.0", 5, &v), 1);
  assert_int_equal(v, 120);
  assert_int_equal(hp__parse_ll("12.5", 4, &v), HP_EPARSE);
  assert_int_equal(hp__parse_ll("99999999999999999999", 20, &v), HP_ERANGE);
  assert_int_equal(hp__parse_ll("-42", 3, &v), 1);
  assert_int_equal(v, -42);
  assert_int_equal(hp__parse_ll("None", 4, &v), 0);
}

/* A file of 4 MiB and more has its buffer in huge pages (csv.c, util/sys/hugemem.h); a record larger
 * than the buffer moves it to the heap as it grows. The records are read whole either way: 3 MiB of
 * small rows, one row whose field is 3 MiB, then small rows again. */
static void test_large_file_buffer(void **state)
{
  char path[] = "/tmp/hprun-test-csvbig-XXXXXX";
  size_t big = (size_t)3 << 20, i, rows = 0;
  char last[16] = "";
  char *field = malloc(big);
  int fd = mkstemp(path);
  FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
  hp__csv *c;
  hp__csv_rec rec;

  (void)state;
  assert_non_null(field);
  assert_non_null(fp);
  memset(field, 'x', big);
  fputs("a,b\n", fp);
  for (i = 0; i < 300000; i++)
    fprintf(fp, "%zu,y\n", i);
  fprintf(fp, "big,\"");
  fwrite(field, 1, big, fp);
  fputs("\"\n", fp);
  for (i = 0; i < 1000; i++)
    fprintf(fp, "%zu,z\n", i);
  assert_int_equal(fclose(fp), 0);
  assert_int_equal(hp__csv_open_path(&c, path, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  while (hp__csv_next(c, &rec) == 1) {
    rows++;
    assert_int_equal(rec.n, 2);
    snprintf(last, sizeof(last), "%s", rec.f[0]);
    if (rows == 300001) {
      assert_string_equal(rec.f[0], "big");
      assert_int_equal(rec.len[1], big);
      assert_true(memcmp(rec.f[1], field, big) == 0);
    }
  }
  assert_int_equal(rows, 301001);
  assert_string_equal(last, "999");
  assert_true(c->cap > big);
  hp__csv_free(c);
  unlink(path);
  free(field);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_basic_quoting),
      cmocka_unit_test(test_newlines_in_quotes_and_line_numbers),
      cmocka_unit_test(test_crlf_bom_and_no_final_newline),
      cmocka_unit_test(test_stray_characters_after_quote),
      cmocka_unit_test(test_unterminated_quote_at_eof),
      cmocka_unit_test(test_every_buffer_size_agrees),
      cmocka_unit_test(test_field_too_long_is_skipped),
      cmocka_unit_test(test_one_megabyte_field),
      cmocka_unit_test(test_memory_does_not_grow),
      cmocka_unit_test(test_binary_data_does_not_crash),
      cmocka_unit_test(test_lines_and_unread),
      cmocka_unit_test(test_empty_input_and_file),
      cmocka_unit_test(test_header_lookup),
      cmocka_unit_test(test_parse_num),
      cmocka_unit_test(test_parse_ll),
      cmocka_unit_test(test_large_file_buffer),
  };
  int r = cmocka_run_group_tests(tests, NULL, NULL);

  hp__buf_free(&warnings);
  return r;
}
