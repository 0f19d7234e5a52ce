/*
 * Unit tests for one large file read as byte ranges (lib/profile/merge/chunk.c, the range reader of
 * lib/util/csv/csv.c, hp__profile_merge_range): where the ranges start, what a range's reader serves
 * (the header, then its own records, up to the next range's start), its offsets and lines, and
 * that a time-table entry fed from both sides of a cut is one source; for ncu, the plan's head, a
 * head taken from mid-file, and the launch window replayed across ranges. Every expectation is
 * worked out by hand beside it; the contract is docs/internals/merge.md, "One large file".
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
   * across the window); nor is a file of one range. */
  assert_int_equal(hp__chunk_plan(path, HP__F_V3_COUNTERS, &cf), 0);
  assert_null(cf);
  assert_int_equal(hp__chunk_plan(path, HP__F_HIPPROF_STACK, &cf), 0);
  assert_null(cf);
  setenv("HPRUN_CHUNK_BYTES", "64", 1);
  assert_int_equal(hp__chunk_plan(path, HP__F_HIPPROF_PMC, &cf), 0);
  assert_null(cf);
  unsetenv("HPRUN_CHUNK_BYTES");
  unlink(path);
  free(path);
}

/* An ncu raw page: a ==PROF== line [0,11), the header [11,20), its units row [20,27), a launch
 * [27,35), the header printed again [35,44) with its units row [44,51), a launch [51,59). */
static const char NCU_TEXT[] = "==PROF== x\n\"ID\",\"K\"\n\"\",\"u\"\n\"1\",\"a\"\n"
                               "\"ID\",\"K\"\n\"\",\"v\"\n\"2\",\"b\"\n";

static void test_ncu_head(void **state)
{
  char *path = write_tmp(NCU_TEXT), *other = write_tmp("\"ID\",\"K\"\n\"1\",\"a\"\n"), got[64];
  unsigned long long head = 0;
  long lines = 0;
  hp__csv *c;
  hp__csv_rec rec;

  (void)state;
  /* The plan's head ends after the units row that follows the first header: 27 bytes, 3 lines. */
  assert_int_equal(hp__ncu_plan_head(path, &head, &lines), 1);
  assert_int_equal(head, 27);
  assert_int_equal(lines, 3);
  /* No units row right after the header (the details page, say): not split. */
  assert_int_equal(hp__ncu_plan_head(other, &head, &lines), 0);
  /* A range after the second header, read with it as its head: [35, 51) then [51, end). */
  got[0] = '\0';
  assert_int_equal(hp__csv_open_range_at(&c, path, 35, 16, 51, ULLONG_MAX, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_file_offset(c), 44); /* the head's offsets are the file's */
  strncat(got, rec.f[0], rec.len[0]);
  while (hp__csv_next(c, &rec) == 1) {
    strcat(got, "|");
    strncat(got, rec.f[0], rec.len[0]);
  }
  assert_string_equal(got, "ID||2");
  assert_int_equal(hp__csv_file_offset(c), 59);
  assert_int_equal(hp__csv_line(c), 4);
  hp__csv_free(c);
  /* A head that overlaps the range is refused. */
  assert_int_equal(hp__csv_open_range_at(&c, path, 35, 20, 51, ULLONG_MAX, NULL), HP_EINVAL);
  unlink(path);
  unlink(other);
  free(path);
  free(other);
}

/* The launch window replayed on the caller's thread: a range that took as new a launch an earlier
 * range had (ID 7 of process 1, three rows apart) did not read what one pass did. */
static void test_ncu_window(void **state)
{
  hp__ncu_file *nf;
  hp__ncu_range a, b;
  int bad = -1;

  (void)state;
  memset(&a, 0, sizeof(a));
  memset(&b, 0, sizeof(b));
  assert_int_equal(hp__ncu_file_new(&nf), 0);
  assert_int_equal(hp__ncu_range_key(&a,
                                     "7\x1f"
                                     "1",
                                     3, 1),
                   0);
  assert_int_equal(hp__ncu_range_key(&a,
                                     "8\x1f"
                                     "1",
                                     3, 1),
                   0);
  assert_int_equal(hp__ncu_range_key(&a,
                                     "7\x1f"
                                     "1",
                                     3, 0),
                   0); /* a repeat within the range */
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &a, 0, 0, &bad), 0);
  assert_int_equal(bad, 0);
  assert_int_equal(hp__ncu_range_key(&b,
                                     "9\x1f"
                                     "1",
                                     3, 1),
                   0);
  assert_int_equal(hp__ncu_range_key(&b,
                                     "7\x1f"
                                     "1",
                                     3, 1),
                   0); /* one pass: a repeat */
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &b, 0, 1, &bad), 0);
  assert_int_equal(bad, 1);
  hp__ncu_range_free(&a);
  hp__ncu_range_free(&b);
  hp__ncu_file_free(nf);
}

/* Adds one key, ID and Process ID, as the parser's window judged it. */
static void key(hp__ncu_range *r, const char *id, const char *pid, int added)
{
  char k[32];
  int n = snprintf(k, sizeof(k), "%s%c%s", id, 0x1f, pid);

  assert_int_equal(hp__ncu_range_key(r, k, (size_t)n, added), 0);
}

/* Ranges whose IDs grow under one process are not replayed, only kept; the first range that breaks
 * the order has the kept keys replayed before its own, so a repeat of a kept launch is still seen
 * (a, c), and a second process's launches are not a reason to read the file whole (b). */
static void test_ncu_window_mono(void **state)
{
  hp__ncu_file *nf;
  hp__ncu_range r[6];
  int bad = -1, i;

  (void)state;
  memset(r, 0, sizeof(r));
  /* a: 1 2 3, then 4 and a repeat of 2 that the second range's own window took as new. */
  assert_int_equal(hp__ncu_file_new(&nf), 0);
  key(&r[0], "1", "9", 1);
  key(&r[0], "2", "9", 1);
  key(&r[0], "3", "9", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[0], 0, 0, &bad), 0);
  assert_int_equal(bad, 0);
  key(&r[1], "4", "9", 1);
  key(&r[1], "2", "9", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[1], 0, 1, &bad), 0);
  assert_int_equal(bad, 1);
  hp__ncu_file_free(nf);
  /* b: 1 2 under process 9, then 1 2 under process 8: all new in one pass too. */
  assert_int_equal(hp__ncu_file_new(&nf), 0);
  key(&r[2], "1", "9", 1);
  key(&r[2], "2", "9", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[2], 0, 0, &bad), 0);
  assert_int_equal(bad, 0);
  key(&r[3], "1", "8", 1);
  key(&r[3], "2", "8", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[3], 0, 1, &bad), 0);
  assert_int_equal(bad, 0);
  hp__ncu_file_free(nf);
  /* c: 1 2 3, then 2 5: in order within the second range, not after the first. */
  assert_int_equal(hp__ncu_file_new(&nf), 0);
  key(&r[4], "1", "9", 1);
  key(&r[4], "2", "9", 1);
  key(&r[4], "3", "9", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[4], 0, 0, &bad), 0);
  assert_int_equal(bad, 0);
  key(&r[5], "2", "9", 1);
  key(&r[5], "5", "9", 1);
  assert_int_equal(hp__ncu_file_take(nf, "/nonexistent", &r[5], 0, 1, &bad), 0);
  assert_int_equal(bad, 1);
  hp__ncu_file_free(nf);
  for (i = 0; i < 6; i++)
    hp__ncu_range_free(&r[i]);
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
      cmocka_unit_test(test_range_reader),        cmocka_unit_test(test_plan),
      cmocka_unit_test(test_merge_range_sources), cmocka_unit_test(test_ncu_head),
      cmocka_unit_test(test_ncu_window),          cmocka_unit_test(test_ncu_window_mono),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
