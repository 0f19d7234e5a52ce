/*
 * Unit tests for one large file read as byte ranges (lib/profile/merge/chunk.c, the range reader of
 * lib/util/csv/csv.c, hp__profile_merge_range): where the ranges start, what a range's reader serves
 * (the header, then its own records, up to the next range's start), its offsets and lines, and
 * that a time-table entry fed from both sides of a cut is one source. Every expectation is worked
 * out by hand beside it; the contract is docs/internals/merge.md, "One large file".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/model/build.h"
#include "profile/merge/chunk.h"
#include "profile/merge/merge.h"

/* A header of 6 bytes ("id,k\r\n" is not used: plain "\n"), then rows of 4 bytes each. Offsets:
 * header [0,5), row "1,a\n" at 5, "2,b\n" at 9, a quoted row "3,\"c\nd\"\n" at 13 (two lines,
 * 8 bytes, ends at 21), "4,e\n" at 21, "5,f\n" at 25; 29 bytes in all. */
static const char FILE_TEXT[] = "id,k\n1,a\n2,b\n3,\"c\nd\"\n4,e\n5,f\n";

static char *write_tmp(const char *text)
{
  char *path = strdup("/tmp/hprun-test-chunk-XXXXXX");
  int fd = mkstemp(path);

  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

/* Reads every record of the range [from, stop) after the header; returns the first fields joined
 * with '|', and the reader's offset and line at the end. */
static void read_range(const char *path, unsigned long long from, unsigned long long stop,
                       char *out, unsigned long long *end, long *line)
{
  hp__csv *c;
  hp__csv_rec rec;

  out[0] = '\0';
  assert_int_equal(hp__csv_open_range(&c, path, 5, from, stop, NULL), 0);
  while (hp__csv_next(c, &rec) == 1) {
    strncat(out, rec.f[0], rec.len[0]);
    strcat(out, "|");
  }
  *end = hp__csv_file_offset(c);
  *line = hp__csv_line(c);
  hp__csv_free(c);
}

static void test_range_reader(void **state)
{
  char *path = write_tmp(FILE_TEXT), got[128];
  unsigned long long end;
  long line;

  (void)state;
  /* [9, 21): the header, then rows 2 and 3; row 3's quoted newline is read whole. The input is
   * header (line 1), "2,b" (2), "3,"c" (3), "d"" (4): the reader ends at line 5, file offset 21. */
  read_range(path, 9, 21, got, &end, &line);
  assert_string_equal(got, "id|2|3|");
  assert_int_equal(end, 21);
  assert_int_equal(line, 5);
  /* A stop inside the quoted record (18, after its inner newline): the record starts before it,
   * so it is read whole, and the reader ends at 21, past the stop: the next range, which would
   * have started at 18, is known to be wrong. */
  read_range(path, 9, 18, got, &end, &line);
  assert_string_equal(got, "id|2|3|");
  assert_int_equal(end, 21);
  /* Started at 18 (inside the quotes), as a plain search for a newline would: the reader sees
   * other records than the right start (21) gives, which is why chunk.c reads such a range
   * again from where the range before it ended. */
  read_range(path, 18, ULLONG_MAX, got, &end, &line);
  assert_string_not_equal(got, "id|4|5|");
  /* The last range from 21 to the end: rows 4 and 5. */
  read_range(path, 21, ULLONG_MAX, got, &end, &line);
  assert_string_equal(got, "id|4|5|");
  assert_int_equal(end, 29);
  unlink(path);
  free(path);
}

static void test_plan(void **state)
{
  char *path = write_tmp(FILE_TEXT);
  hp__chunkfile *cf;

  (void)state;
  /* Ranges of 8 bytes: nominal starts 8, 16, 24. After the first newline at or after 7, 15, 23:
   * byte 8 is the '\n' of "1,a" -> 9; byte 17 is the '\n' inside the quotes -> 18; byte 24 is
   * the '\n' of "4,e" -> 25. The header (5 bytes, 1 line) is found with quotes. */
  setenv("HPRUN_CHUNK_BYTES", "8", 1);
  assert_int_equal(hp__chunk_plan(path, HP__F_HIPPROF_PMC, &cf), 0);
  assert_non_null(cf);
  assert_int_equal(cf->n, 4);
  assert_int_equal(cf->at[0], 0);
  assert_int_equal(cf->at[1], 9);
  assert_int_equal(cf->at[2], 18);
  assert_int_equal(cf->at[3], 25);
  assert_int_equal(cf->head, 5);
  assert_int_equal(cf->hlines, 1);
  hp__chunkfile_free(cf);
  /* Formats that keep state across the file are not split (kernel stacks: launches group rows
   * across the window; ncu: headers, units rows and launches carry over); nor is a file of one
   * range. */
  assert_int_equal(hp__chunk_plan(path, HP__F_V3_COUNTERS, &cf), 0);
  assert_null(cf);
  assert_int_equal(hp__chunk_plan(path, HP__F_HIPPROF_STACK, &cf), 0);
  assert_null(cf);
  assert_int_equal(hp__chunk_plan(path, HP__F_NCU, &cf), 0);
  assert_null(cf);
  setenv("HPRUN_CHUNK_BYTES", "64", 1);
  assert_int_equal(hp__chunk_plan(path, HP__F_HIPPROF_PMC, &cf), 0);
  assert_null(cf);
  unsetenv("HPRUN_CHUNK_BYTES");
  unlink(path);
  free(path);
}

/* Two halves of one trace file: kernel "a" in both, "b" only in the second. Merged as ranges,
 * "a" is one source (one file fed it), and the file count stays 1; merged as files, 2. */
static void test_merge_range_sources(void **state)
{
  hp_profile *a, *b, *c;
  hp__tstat *s;
  const hp__ttable *t;

  (void)state;
  assert_int_equal(hp_profile_new(&a), 0);
  assert_int_equal(hp_profile_new(&b), 0);
  assert_int_equal(hp_profile_new(&c), 0);
  a->file_seq = b->file_seq = 1;
  assert_int_equal(hp__ttable_get(&a->t[HP__T_KERNEL], "a", 1, &s), 0);
  hp__tstat_add_trace(s, 10, 1);
  assert_int_equal(hp__ttable_get(&b->t[HP__T_KERNEL], "a", 1, &s), 0);
  hp__tstat_add_trace(s, 30, 1);
  assert_int_equal(hp__ttable_get(&b->t[HP__T_KERNEL], "b", 1, &s), 0);
  hp__tstat_add_trace(s, 5, 1);
  assert_int_equal(hp__profile_merge(c, a), 0);
  assert_int_equal(hp__profile_merge_range(c, b), 0);
  t = &c->t[HP__T_KERNEL];
  assert_int_equal(t->st[0].nsources, 1);
  assert_int_equal(t->st[0].calls, 2);
  assert_int_equal(t->st[1].nsources, 1);
  assert_int_equal(c->file_seq, 1);
  /* The same halves as two files: two sources for "a", two files. */
  assert_int_equal(hp__profile_merge(c, b), 0);
  assert_int_equal(t->st[0].nsources, 2);
  assert_int_equal(c->file_seq, 2);
  hp_profile_free(a);
  hp_profile_free(b);
  hp_profile_free(c);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_range_reader),
      cmocka_unit_test(test_plan),
      cmocka_unit_test(test_merge_range_sources),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
