/*
 * The streaming metric scan (lib/analyze/metric.c): reading a run's stdout from a file or a pipe
 * in fixed chunks must give the values of the last matching lines, whatever the chunk boundaries
 * cut, and a line over HP__METRIC_LINE_MAX is scanned by its first part. Expected values are
 * written out here by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/metric.h"

#define NM 3

static const char plan_text[] = "app: {command: [x]}\n"
                                "metrics:\n"
                                "  - {name: t, pattern: 't=([0-9.eE+-]+)'}\n"
                                "  - {name: bw, pattern: 'bw ([^ ]+) GB/s'}\n"
                                "  - {name: tail, pattern: 'tail=([0-9]+)$'}\n"
                                "passes: [normal]\n";

typedef struct fixture {
  hp_plan *plan;
  hp__metrics *m;
  char dir[64];
} fixture;

static int setup(void **state)
{
  fixture *f = calloc(1, sizeof(*f));
  hp_diags d;

  assert_non_null(f);
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load_string("t.yaml", ".", plan_text, strlen(plan_text), &f->plan, &d),
                   0);
  assert_int_equal(hp__metrics_new(f->plan, &f->m, &d), 0);
  hp_diags_free(&d);
  snprintf(f->dir, sizeof(f->dir), "/tmp/hprun-metric.XXXXXX");
  assert_non_null(mkdtemp(f->dir));
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  fixture *f = *state;
  char path[128];

  snprintf(path, sizeof(path), "%s/out.txt", f->dir);
  unlink(path);
  rmdir(f->dir);
  hp__metrics_free(f->m);
  hp_plan_free(f->plan);
  free(f);
  return 0;
}

/* NaN equals NaN here: "not found" is a result like any other. */
static void assert_values(const double *got, const double *want)
{
  int i;

  for (i = 0; i < NM; i++) {
    if (isnan(want[i]) ? !isnan(got[i]) : got[i] != want[i])
      fail_msg("metric %d: got %g, want %g", i, got[i], want[i]);
  }
}

/* Writes `len` bytes of `text` to the fixture's file and scans it there. */
static int scan_file(fixture *f, const char *text, size_t len, double *v)
{
  char path[128];
  FILE *fp;

  snprintf(path, sizeof(path), "%s/out.txt", f->dir);
  fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(text, 1, len, fp), len);
  assert_int_equal(fclose(fp), 0);
  return hp__metrics_scan_path(f->m, path, v, NULL, NULL);
}

/* The scan of `text` from a file must give `want`. */
static void expect(fixture *f, const char *text, size_t len, double t, double bw, double tail)
{
  double want[NM] = {t, bw, tail}, v[NM];

  assert_int_equal(scan_file(f, text, len, v), 0);
  assert_values(v, want);
}

static void test_last_line_wins(void **state)
{
  fixture *f = *state;
  static const char last_wins[] = "t=1\nbw 2.5 GB/s\nt=3 and more\nbw oops GB/s\nt=4.5\n";
  static const char crlf[] = "t=1.5\r\nbw 7 GB/s\r\ntail=9\r\n";
  static const char nul[] = "t=1\0t=2\nt=3";

  (void)state;
  expect(f, last_wins, strlen(last_wins), 4.5, 2.5, NAN);
  expect(f, "t=1\nt=2", 7, 2, NAN, NAN); /* the last line has no newline: it counts */
  expect(f, "tail=5\ntail=6", 13, NAN, NAN, 6);
  /* The capture's trailing \r is ignored, but `$` does not match before it. */
  expect(f, crlf, strlen(crlf), 1.5, 7, NAN);
  expect(f, nul, sizeof(nul) - 1, 3, NAN, NAN); /* a line is read up to a NUL byte */
  expect(f, "\n\n\n", 3, NAN, NAN, NAN);
  expect(f, "", 0, NAN, NAN, NAN);
  expect(f, "nothing to see\nhere\n", 20, NAN, NAN, NAN);
}

/* A text whose `line` starts `before` bytes ahead of the first chunk boundary, after filler lines,
 * and is followed by a last line "tail=77" without a newline. */
static char *around_boundary(size_t before, const char *line, size_t *len)
{
  size_t fill = HP__METRIC_CHUNK - before, n = fill + strlen(line) + 16, i;
  char *s = malloc(n);

  assert_non_null(s);
  assert_true(fill >= 2);
  for (i = 0; i + 1 < fill; i++)
    s[i] = (i % 80 == 79) ? '\n' : 'x';
  s[fill - 1] = '\n';
  memcpy(s + fill, line, strlen(line));
  memcpy(s + fill + strlen(line), "tail=77", 7);
  *len = fill + strlen(line) + 7;
  return s;
}

static void test_chunk_boundaries(void **state)
{
  fixture *f = *state;
  char *s;
  size_t len, before;

  (void)state;
  /* The line "t=12.25\n" starts on the boundary (0), straddles it at every point, ends with its
   * newline as the chunk's last byte (8) and lies wholly before it (9). */
  for (before = 0; before <= 9; before++) {
    s = around_boundary(before, "t=12.25\n", &len);
    expect(f, s, len, 12.25, NAN, 77);
    free(s);
  }
  /* A line longer than a chunk (but under the line limit) spans two boundaries. */
  {
    size_t n = 3 * HP__METRIC_CHUNK;
    char *big = malloc(n + 32);
    assert_non_null(big);
    memset(big, 'y', n);
    memcpy(big + n, " bw 640 GB/s\nt=1", 16);
    expect(f, big, n + 16, 1, 640, NAN);
    free(big);
  }
}

/* A pipe gives short reads wherever the writer paused: a child writes the text in pieces, and the
 * scan reads the pipe through its /dev/fd name. */
static void test_pipe(void **state)
{
  fixture *f = *state;
  double want[NM] = {0.0185488, 12.5, 42}, v[NM];
  char *s, path[32];
  size_t len, off, piece;
  int fds[2], status;
  pid_t pid;

  s = around_boundary(3, "bw 12.5 GB/s\nt=0.0185488\ntail=42\n", &len);
  len -= 7; /* drop the final tail=77 so that tail=42 is the last */
  assert_int_equal(pipe(fds), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    for (off = 0; off < len; off += piece) {
      /* Whole pages through the filler; from 64 bytes before the metric lines on, five bytes at
       * a time with a pause, so that reads end inside those lines. */
      piece = off + 64 < HP__METRIC_CHUNK - 3 ? 4093 : 5;
      if (piece > len - off)
        piece = len - off;
      if (write(fds[1], s + off, piece) != (ssize_t)piece)
        _exit(1);
      if (piece == 5)
        usleep(1000);
    }
    _exit(0);
  }
  close(fds[1]);
  snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
  assert_int_equal(hp__metrics_scan_path(f->m, path, v, NULL, NULL), 0);
  close(fds[0]);
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_values(v, want);
  free(s);
}

/* A line over the limit is scanned by its first HP__METRIC_LINE_MAX bytes, and the lines after it
 * are scanned as usual. Memory stays bounded: the rest of the long line is never kept. */
static void test_long_line(void **state)
{
  fixture *f = *state;
  size_t n = HP__METRIC_LINE_MAX + 4096, len;
  double v[NM], head[NM] = {2.5, NAN, 8};
  char *s = malloc(n + 64);

  assert_non_null(s);
  memcpy(s, "t=2.5 ", 6);
  memset(s + 6, 'z', n - 6);
  memcpy(s + n - 12, " bw 99 GB/s", 11); /* beyond the first MiB */
  len = n - 1;
  memcpy(s + len, "\ntail=8\n", 8);
  len += 8;
  assert_int_equal(scan_file(f, s, len, v), 0);
  assert_values(v, head);
  /* The same long line last, without a newline. */
  assert_int_equal(scan_file(f, s, n - 1, v), 0);
  head[2] = NAN;
  assert_values(v, head);
  free(s);
}

/* The hook sees every line once, cut as the scan cuts it, after the metrics. */
typedef struct seen {
  size_t lines;
  char last[32];
} seen;

static void each_line(void *arg, const char *line)
{
  seen *sn = arg;

  sn->lines++;
  snprintf(sn->last, sizeof(sn->last), "%s", line);
}

static void test_each_and_errors(void **state)
{
  fixture *f = *state;
  double v[NM] = {1, 2, 3}, nan3[NM] = {NAN, NAN, NAN};
  seen sn = {0, ""};
  char *s, path[128];
  size_t len;

  s = around_boundary(4, "t=3\n", &len);
  assert_int_equal(scan_file(f, s, len, v), 0);
  snprintf(path, sizeof(path), "%s/out.txt", f->dir);
  assert_int_equal(hp__metrics_scan_path(f->m, path, v, each_line, &sn), 0);
  /* The filler has one line per 80 bytes up to the chunk boundary, then "t=3", then the tail. */
  assert_int_equal(sn.lines, (HP__METRIC_CHUNK - 4 + 79) / 80 + 2);
  assert_string_equal(sn.last, "tail=77");
  free(s);
  /* Nothing matches, or there is nothing to read: every value is NaN. */
  assert_int_equal(hp__metrics_scan_path(f->m, "/nonexistent/out.txt", v, NULL, NULL), HP_ENOENT);
  assert_values(v, nan3);
  v[0] = 1;
  assert_int_equal(hp__metrics_scan_path(f->m, f->dir, v, NULL, NULL), HP_EIO); /* a folder */
  assert_values(v, nan3);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_last_line_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_chunk_boundaries, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pipe, setup, teardown),
      cmocka_unit_test_setup_teardown(test_long_line, setup, teardown),
      cmocka_unit_test_setup_teardown(test_each_and_errors, setup, teardown),
  };

  signal(SIGPIPE, SIG_IGN);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
