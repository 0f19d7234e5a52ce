/*
 * Unit tests for the kernel-stack parser's block loop: the row reader (lib/profile/fast/stack_fast.c)
 * portable and with AVX2 where the CPU has it (util/sys/cpu.h), the CSV reader's spans of
 * whole lines (hp__csv_lines, hp__csv_take_lines in lib/util/csv/csv.c), and whole files read with the
 * block loop against the same files read row by row through the record reader.
 *
 * The expectations come from the general path, not from the code under test: a row the reader
 * takes must be exactly the one record hp__csv_next reads from the same line (same four fields,
 * same stack_sq value as hp__parse_ll gives, one physical line of the same length), and a whole
 * file must summarise to the same bytes (JSON and text, with the messages) as the same file with
 * its index and stack_sq columns swapped, which the parser reads through the record reader alone
 * (the block loop takes only files in the column order hipprof writes). Lines are built from pieces chosen to sit on the edges of its checks: quotes inside
 * fields, doubled quotes, commas and newlines inside quotes, CRLF, empty and non-numeric fields,
 * 16 and 17 digits, too few and too many fields.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hprun.h"
#include "hprun_profile.h"
#include "util/sys/cpu.h"
#include "profile/fast/stack_fast.h"
#include "util/csv/csv.h"
#include "util/num/num.h"

#define TEST_XORSHIFT_SEED 0x2545F4914F6CDD1DULL
#include "test_xorshift.h"
#include "test_csv_mem.h"

/* The pieces of a line: mostly the plain shape, and each way it can be spoiled. */
static const char *const names[] = {
    "\"void at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)\"",
    "\"k_a\"",
    "\"k,with,commas\"",
    "\"\"",
    "\"k \"\"quoted\"\" x\"",
    "\"k_nl\nsecond\"",
    "k_unquoted",
    "\"k\"x",
    "\"k\r\"",
    "\"open",
    "\"0123456789012345678901234567890123456789012345678901234567890123456789\"",
};
static const char *const indexes[] = {"0", "1", "17", "123456", "", "x1", "\"3\"", "1\"2", " 4"};
static const char *const sqs[] = {
    "0",   "1",  "9",     "10", "007", "1234567890123456", "12345678901234567", "",
    "abc", "-1", "\"2\"", "3 ", "+4"};
static const char *const addrs[] = {
    "\"/opt/dtk/lib/libgalaxyhip.so.5(hipLaunchKernel+0x4c) [0x7f01]\"",
    "\"python(_PyEval_EvalFrameDefault+0x6cf) [0x55aa]\"",
    "\"/home/u/app/libapp.so(step1+0x10) [0x55aa]\"",
    "\"a,b,c\"",
    "\"\"",
    "\"x\"\"y\"",
    "\"x\ny\"",
    "unquoted(+0x1)",
    "\"x\"y",
    "\"x\",extra",
    "\"open",
    "\"0123456789012345678901234567890123456789012345678901234567890123456789012345678\"",
};
static const char *const ends[] = {"\n", "\n", "\n", "\r\n", "\r\r\n"};

/* A random line into out (NUL-terminated); mostly plain. */
static size_t make_line(char *out)
{
  int plain = rnd(3) != 0;
  size_t n;

  n = (size_t)sprintf(out, "%s,%s,%s", names[plain ? rnd(3) : rnd(11)],
                      indexes[plain ? rnd(4) : rnd(9)], sqs[plain ? rnd(7) : rnd(13)]);
  if (plain || rnd(8) != 0)
    n += (size_t)sprintf(out + n, ",%s", addrs[plain ? rnd(4) : rnd(12)]);
  n += (size_t)sprintf(out + n, "%s", ends[plain ? rnd(4) : rnd(5)]);
  return n;
}

/* hp__stack_line_read on line (n bytes, its '\n' included) copied to the end of a buffer with 64
 * bytes of garbage after it, as the reader's pad; returns its answer. */
static int read_line(const char *line, size_t n, const char *pre, size_t plen, int avx2,
                     hp__stack_line *ln, char *buf)
{
  memcpy(buf, line, n);
  memset(buf + n, '"', 64); /* quotes past the span must not be found */
  return hp__stack_reader(avx2)(buf, buf + n, pre, plen, ln);
}

/* The record hp__csv_next reads from the line after a header: checks that the reader's answer is
 * that record, read from one physical line. */
static void check_against_next(const char *line, size_t n, const hp__stack_line *ln)
{
  char *text = malloc(n + 32);
  hp__csv *c;
  hp__csv_rec rec;
  long long v = -1;

  assert_non_null(text);
  memcpy(text, "a,b,c,d\n", 8);
  memcpy(text + 8, line, n);
  assert_int_equal(csv_open_bytes(&c, text, n + 8, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.n, 4);
  assert_int_equal(rec.len[0], ln->nn);
  assert_memory_equal(rec.f[0], ln->name, ln->nn);
  assert_int_equal(rec.len[1], ln->in);
  assert_memory_equal(rec.f[1], ln->index, ln->in);
  assert_int_equal(rec.len[3], ln->an);
  assert_memory_equal(rec.f[3], ln->addr, ln->an);
  assert_int_equal(hp__parse_ll(rec.f[2], rec.len[2], &v), 1);
  assert_int_equal(v, ln->sq);
  assert_int_equal(hp__csv_line(c), 3); /* one physical line */
  assert_int_equal(hp__csv_file_offset(c), 8 + ln->len);
  assert_int_equal(ln->len, n);
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);
  free(text);
}

/* Every line the reader takes is the record hp__csv_next reads; with the last taken line's prefix
 * passed in, a line that starts with it answers 1 with that line's name and index. Most plain
 * lines must be taken (else the test would prove nothing). */
static void line_read_at(int avx2)
{
  char line[512], last[512], buf[1024];
  size_t n, plen = 0;
  hp__stack_line ln, keep;
  int i, k, taken = 0, same = 0;

  memset(&ln, 0, sizeof(ln));
  for (i = 0; i < 40000; i++) {
    n = make_line(line);
    keep = ln;
    k = read_line(line, n, last, plen, avx2, &ln, buf);
    if (k == 0) {
      ln = keep; /* the struct of the last row it took is what the next call must get */
      continue;
    }
    taken++;
    /* The fields point into buf: check them against a copy at line's place. */
    ln.name = line + (ln.name - buf);
    ln.index = line + (ln.index - buf);
    ln.addr = line + (ln.addr - buf);
    check_against_next(line, n, &ln);
    if (k == 1) {
      same++;
      assert_int_equal(ln.pre, plen);
      assert_memory_equal(line, last, plen);
    } else {
      memcpy(last, line, ln.pre);
      plen = ln.pre;
    }
  }
  assert_true(taken > 15000);
  assert_true(same > 1000);
}

static void test_line_read_matches_records(void **state)
{
  int avx2;

  (void)state;
  for (avx2 = 0; avx2 <= 1; avx2++) {
    if (hp__cpu_force(avx2) != 0)
      continue;
    printf("stack row reader, avx2 %d\n", avx2);
    line_read_at(avx2);
  }
  hp__cpu_force(-1);
}

/* Lines by hand: the canonical row is taken at every level, with its fields; the same prefix is
 * recognised; each spoiled form is refused. */
static void test_line_read_by_hand(void **state)
{
  static const char row[] = "\"k,1\",12,3,\"lib.so(f+0x1) [0x2]\"\n";
  static const char *const refused[] = {
      "\"k\"\"x\",1,2,\"a\"\n",
      "\"k\",,2,\"a\"\n",
      "\"k\",1,,\"a\"\n",
      "\"k\",1,2,a\n",
      "\"k\",1,2,\"a\"b\n",
      "\"k\",1,2,\"a\n",
      "\"k\",1,2,\"a\",\"b\"\n",
      "k,1,2,\"a\"\n",
      "\"k\",1,2\n",
      "\"k\",1,x2,\"a\"\n",
      "\"k\",1,12345678901234567,\"a\"\n",
      "\n",
  };
  char buf[256];
  hp__stack_line ln;
  size_t i;
  int avx2;

  (void)state;
  for (avx2 = 0; avx2 <= 1; avx2++) {
    if (hp__cpu_force(avx2) != 0)
      continue;
    memset(&ln, 0, sizeof(ln));
    assert_int_equal(read_line(row, sizeof(row) - 1, NULL, 0, avx2, &ln, buf), 2);
    assert_int_equal(ln.nn, 3);
    assert_memory_equal(ln.name, "k,1", 3);
    assert_int_equal(ln.in, 2);
    assert_memory_equal(ln.index, "12", 2);
    assert_int_equal(ln.sq, 3);
    assert_int_equal(ln.an, 19);
    assert_int_equal(ln.pre, 9);
    assert_int_equal(ln.len, sizeof(row) - 1);
    /* The same prefix: 1, the name and index at this line's place. */
    assert_int_equal(read_line(row, sizeof(row) - 1, "\"k,1\",12,", 9, avx2, &ln, buf), 1);
    assert_ptr_equal(ln.name, buf + 1);
    assert_ptr_equal(ln.index, buf + 6);
    /* CRLF: the same fields, the '\r' counted in the line. */
    assert_int_equal(read_line("\"k\",1,2,\"a\"\r\n", 13, NULL, 0, avx2, &ln, buf), 2);
    assert_int_equal(ln.an, 1);
    assert_int_equal(ln.len, 13);
    for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
      assert_int_equal(read_line(refused[i], strlen(refused[i]), NULL, 0, avx2, &ln, buf), 0);
  }
  hp__cpu_force(-1);
}

/* The reader's spans: whole lines from the read position, never past a range's stop, and what
 * is taken is gone; mixed with hp__csv_next they read the input as hp__csv_next alone does. */
static void test_csv_lines(void **state)
{
  static const char text[] = "h1,h2\n1,a\n2,\"b\nc\"\n3,d\n4,e";
  hp__csv_opts o = {0};
  hp__csv *c;
  hp__csv_rec rec;
  const char *s;
  size_t n;
  long line;
  char path[] = "/tmp/hprun-test-stack-XXXXXX";
  int fd;

  (void)state;
  o.bufsize = 12;
  assert_int_equal(csv_open_bytes(&c, text, sizeof(text) - 1, &o), 0);
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 0); /* not started */
  assert_int_equal(hp__csv_next(c, &rec), 1);           /* the header */
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 1);
  assert_int_equal(line, 2);
  assert_true(n >= 4 && s[n - 1] == '\n');
  assert_memory_equal(s, "1,a\n", 4);
  hp__csv_take_lines(c, 4, 1);
  /* The quoted newline's record through hp__csv_next (it refills), then the rest. */
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.line, 3);
  assert_string_equal(rec.f[1], "b\nc");
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 1);
  assert_int_equal(line, 5);
  assert_memory_equal(s, "3,d\n", 4);
  assert_int_equal(n, 4); /* "4,e" has no newline: not a whole line */
  hp__csv_take_lines(c, 4, 1);
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.line, 6);
  assert_string_equal(rec.f[0], "4");
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);

  /* The file's bytes: header [0, 6), "1,a" at 6, "2,\"b" at 10, "c\"" at 15, "3,d" at 18, "4,e"
   * at 22. A range from 6 to 18: after the header and "1,a" (read by hp__csv_next, which fills
   * the buffer past the stop), the span is the lines that start before 18, "2,\"b" and "c\"" (a
   * plain search's cut inside the quotes), not "3,d"; at the stop there is no span and no
   * record. */
  fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
  close(fd);
  assert_int_equal(hp__csv_open_range(&c, path, 6, 6, 18, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 0); /* the header was read alone */
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_string_equal(rec.f[0], "1");
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 1);
  assert_int_equal(line, 3);
  assert_int_equal(n, 8);
  assert_memory_equal(s, "2,\"b\nc\"\n", 8);
  hp__csv_take_lines(c, n, 2);
  assert_int_equal(hp__csv_file_offset(c), 18);
  assert_int_equal(hp__csv_line(c), 5);
  assert_int_equal(hp__csv_lines(c, &s, &n, &line), 0);
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);
  unlink(path);
}

/* ---------------------------------------------------------------------------------------------- */
/* Whole files: the block loop against the record reader.                                          */

static const char *const fnames[] = {"void at::native::direct_copy_kernel_cuda<float>(at::Iter&)",
                                     "k_b", "k,with,comma", "k_c"};
/* Unquoted names: one with a comma would split into the next fields, which a swapped file has in
 * another order. */
static const char *const bare[] = {"direct_copy_kernel_cuda", "k_b", "k_with_comma", "k_c"};
static const char *const frames[] = {
    "\"/opt/dtk/lib/libgalaxyhip.so.5(hipLaunchKernel+0x4c) [0x7f01]\"",
    "\"/usr/lib/python3.10/site-packages/torch/lib/libtorch_hip.so(+0x99) [0x7f02]\"",
    "\"/home/u/app/libapp.so(step1+0x10) [0x55aa]\"",
    "\"/home/u/app/libapp.so(step2,x+0x10) [0x55ab]\"",
    "\"python(_PyEval_EvalFrameDefault+0x6cf) [0x55aa]\"",
};

/* One row of launch k's index idx at depth sq into fp: plain, or spoiled one way in `spoil`;
 * `swap` writes stack_sq before the index. */
static void put_row(FILE *fp, unsigned k, unsigned idx, unsigned sq, unsigned spoil, int swap)
{
  const char *eol = rnd(spoil ? 20 : 1000) == 0 ? "\r\n" : "\n";
  unsigned way = spoil && rnd(25) == 0 ? 1 + rnd(7) : 0;
  char name[128], sqf[32], tail[256] = "";

  if (way == 5)
    snprintf(name, sizeof(name), "%s", bare[k]);
  else
    snprintf(name, sizeof(name), way == 7 ? "\"%s\nx\"" : "\"%s\"", fnames[k]);
  if (way == 1)
    snprintf(sqf, sizeof(sqf), "%s", sqs[rnd(13)]);
  else
    snprintf(sqf, sizeof(sqf), "%u", sq);
  if (way != 3) /* 3: short */
    snprintf(tail, sizeof(tail), ",%s%s", way == 2 ? addrs[rnd(12)] : frames[rnd(5)],
             way == 4 ? ",x" : "");
  if (swap)
    fprintf(fp, "%s%s,%s,%u%s%s", way == 6 ? "\n" : "", name, sqf, idx, tail, eol);
  else
    fprintf(fp, "%s%s,%u,%s%s%s", way == 6 ? "\n" : "", name, idx, sqf, tail, eol);
}

/* Writes path: a kernel-stack file of `launches` launches of 2 to 7 rows, some out of stack_sq
 * order, some coming back one to two windows (8,192 rows) later; `spoil`: rows spoiled now and
 * then; `swap`: index and stack_sq swapped, header and rows. The file is the same for the same
 * generator state. */
static void stack_file(const char *path, unsigned launches, unsigned spoil, int swap)
{
  unsigned next[4] = {0}, back_k[64], back_i[64], nback = 0, i, j, nf, k, idx, sq[8];
  FILE *fp = fopen(path, "w");

  assert_non_null(fp);
  fputs(swap ? "str_name,stack_sq,index,addrname\n" : "str_name,index,stack_sq,addrname\n", fp);
  for (i = 0; i < launches; i++) {
    k = rnd(4);
    idx = next[k]++;
    if (i > 3000 && nback && rnd(50) == 0) { /* a launch that was finished, or is about to be */
      j = rnd(nback);
      k = back_k[j];
      idx = back_i[j];
    } else if (rnd(40) == 0) {
      back_k[nback % 64] = k;
      back_i[nback % 64] = idx;
      nback = nback < 64 ? nback + 1 : 64;
    }
    nf = 2 + rnd(6);
    for (j = 0; j < nf; j++)
      sq[j] = j;
    if (rnd(5) == 0)
      for (j = 0; j + 1 < nf; j++) {
        unsigned t = sq[j], o = j + rnd(nf - j);
        sq[j] = sq[o];
        sq[o] = t;
      }
    for (j = 0; j < nf; j++)
      put_row(fp, k, idx, sq[j], spoil, swap);
  }
  assert_int_equal(fclose(fp), 0);
}

/* `hprun summarize` of path as JSON and text, with the messages, into one string. */
static char *summarize(const char *path, int jobs)
{
  static const hp_format fmts[] = {HP_FMT_JSON, HP_FMT_TEXT};
  char *buf = NULL;
  size_t len = 0, f;
  FILE *fp = open_memstream(&buf, &len);
  hp_profile_opts o = {0};
  hp_profile *p;
  hp_diags d;
  int err;

  assert_non_null(fp);
  for (f = 0; f < 2; f++) {
    hp_diags_init(&d);
    d.limit = 1000;
    assert_int_equal(hp_profile_new(&p), 0);
    assert_int_equal(hp_profile_add_paths(p, &path, 1, jobs, &d, &err), 0);
    fprintf(fp, "err %d\n", err);
    assert_int_equal(hp_profile_write(p, fp, fmts[f], &o), 0);
    hp_diags_print(&d, fp);
    hp_profile_free(p);
    hp_diags_free(&d);
  }
  assert_int_equal(fclose(fp), 0);
  return buf;
}

/* Files of ~1 MB and more (so that lines cross the reader's 1 MiB buffer), plain and spoiled, read
 * with one thread and two, at every vector level: the block loop gives the record reader's
 * bytes, read from the same rows with index and stack_sq swapped (at the same path, which the
 * summary names). A field that a quote left open takes the next line's name, which comes first
 * in both. */
static void test_files_block_equals_records(void **state)
{
  unsigned spoil, jobs, launches;
  uint64_t seed;
  int avx2, fd;
  char path[] = "/tmp/hprun-test-stackf-XXXXXX.stack.csv", *want, *got;

  (void)state;
  assert_true((fd = mkstemps(path, 10)) >= 0);
  close(fd);
  for (spoil = 0; spoil < 2; spoil++) {
    launches = spoil ? 9000 : 6000;
    seed = test_xorshift_state;
    for (jobs = 1; jobs <= 2; jobs++) {
      test_xorshift_state = seed;
      stack_file(path, launches, spoil, 1);
      want = summarize(path, (int)jobs);
      test_xorshift_state = seed;
      stack_file(path, launches, spoil, 0);
      assert_true(strstr(want, "\"stacks\"") != NULL);
      for (avx2 = 0; avx2 <= 1; avx2++) {
        if (hp__cpu_force(avx2) != 0)
          continue;
        got = summarize(path, (int)jobs);
        assert_string_equal(got, want);
        free(got);
      }
      hp__cpu_force(-1);
      free(want);
    }
  }
  unlink(path);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line_read_by_hand),
      cmocka_unit_test(test_line_read_matches_records),
      cmocka_unit_test(test_csv_lines),
      cmocka_unit_test(test_files_block_equals_records),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
