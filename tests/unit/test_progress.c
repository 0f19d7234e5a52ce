/*
 * Tests for the pure half of lib/session/progress.c: the time format, the ETA estimate, a run's
 * outcome and the two progress lines, each against literal expected strings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "session/progress.h"

static void check_time(double s, const char *want)
{
  char buf[32];

  hp__progress_time(s, buf, sizeof(buf));
  assert_string_equal(buf, want);
}

static void time_format(void **state)
{
  (void)state;
  check_time(0, "00:00:00");
  check_time(192, "00:03:12");
  check_time(340.4, "00:05:40");
  check_time(59.6, "00:01:00");
  check_time(3600 * 101 + 61, "101:01:01");
  check_time(-1, "--:--:--");
  check_time(NAN, "--:--:--");
}

static void time_small_buffer(void **state)
{
  char buf[4];

  (void)state;
  hp__progress_time(192, buf, sizeof(buf));
  assert_string_equal(buf, "00:");
}

static void eta_unknown_before_any_run(void **state)
{
  hp__progress_pass p[2] = {{0, 0, 10}, {0, 0, 10}};

  (void)state;
  assert_true(hp__progress_eta(p, 2) < 0);
}

/* Pass 0: 2 runs done at 1 s and 3 s (mean 2 s), 3 left: 6 s. Pass 1: 1 done at 10 s, 2 left:
 * 20 s. Pass 2: none done, 4 left at the overall mean (1+3+10)/3 = 4.667 s: 18.667 s. */
static void eta_per_pass_means(void **state)
{
  hp__progress_pass p[3] = {{2, 4000, 3}, {1, 10000, 2}, {0, 0, 4}};

  (void)state;
  assert_float_equal(hp__progress_eta(p, 3), 6 + 20 + 4 * 14.0 / 3, 1e-9);
}

static void eta_zero_when_all_done(void **state)
{
  hp__progress_pass p[1] = {{5, 5000, 0}};

  (void)state;
  assert_float_equal(hp__progress_eta(p, 1), 0, 0);
}

static void check_outcome(const hp_run *run, const char *unit, const char *want)
{
  char buf[64];

  hp__progress_outcome(run, unit, buf, sizeof(buf));
  assert_string_equal(buf, want);
}

static void outcomes(void **state)
{
  double v = 1.48123;
  hp_run r;

  (void)state;
  memset(&r, 0, sizeof(r));
  r.values = &v;
  r.wall_ms = 2310;
  check_outcome(&r, "ms", "1.4812 ms");
  check_outcome(&r, NULL, "1.4812");
  v = NAN;
  check_outcome(&r, "ms", "no value");
  r.exit_status = 3;
  check_outcome(&r, "ms", "exit 3");
  r.term_signal = 11;
  check_outcome(&r, "ms", "signal 11");
  r.timed_out = 1;
  check_outcome(&r, "ms", "timed out");
  r.error = "x";
  r.wall_ms = 0;
  check_outcome(&r, "ms", "could not start");
}

static void status_line(void **state)
{
  hp__progress_state st = {37, 120, "pmc", 0, 4, 10, 192, 340, "1.4812 ms", NULL, 0, 0, NULL};
  char buf[256];

  (void)state;
  hp__progress_status(&st, buf, sizeof(buf));
  assert_string_equal(buf,
                      "[37/120] pmc run 4/10 \xc2\xb7 00:03:12 elapsed \xc2\xb7 ETA 00:05:40 "
                      "\xc2\xb7 last 1.4812 ms");
  st.warmup = 1;
  st.run = 1;
  st.runs = 2;
  st.eta_s = -1;
  st.last = NULL;
  hp__progress_status(&st, buf, sizeof(buf));
  assert_string_equal(buf,
                      "[37/120] pmc warmup 1/2 \xc2\xb7 00:03:12 elapsed \xc2\xb7 ETA --:--:--");
}

static void done_line(void **state)
{
  hp__progress_state st = {37, 120, "pmc", 0, 4, 10, 192, 340, "1.4812 ms", NULL, 0, 0, NULL};
  char buf[256];

  (void)state;
  hp__progress_done(&st, 2310, buf, sizeof(buf));
  assert_string_equal(buf, "[37/120] pmc run 4/10: 1.4812 ms, wall 2.31 s");
  st.last = "exit 3";
  hp__progress_done(&st, 40, buf, sizeof(buf));
  assert_string_equal(buf, "[37/120] pmc run 4/10: exit 3, wall 0.04 s");
  hp__progress_done(&st, 40, buf, 10);
  assert_string_equal(buf, "[37/120] ");
}

/* In a sweep the combination and its place among them come first. */
static void sweep_lines(void **state)
{
  hp__progress_state st = {3, 12, "pmc", 0, 1, 2, 5, 10, "0.5 ms", "n=1024,dtype=fp16", 2, 4, NULL};
  char buf[256];

  (void)state;
  hp__progress_status(&st, buf, sizeof(buf));
  assert_string_equal(buf,
                      "n=1024,dtype=fp16 (2/4) [3/12] pmc run 1/2 \xc2\xb7 00:00:05 elapsed "
                      "\xc2\xb7 ETA 00:00:10 \xc2\xb7 last 0.5 ms");
  hp__progress_done(&st, 1500, buf, sizeof(buf));
  assert_string_equal(buf, "n=1024,dtype=fp16 (2/4) [3/12] pmc run 1/2: 0.5 ms, wall 1.50 s");
  hp__progress_done(&st, 1500, buf, 12);
  assert_string_equal(buf, "n=1024,dtyp"); /* 11 characters and the NUL */
}

/* The line a finished pass gets on a terminal: its counted runs, the failed ones, the median. */
static void pass_lines(void **state)
{
  char buf[128];

  (void)state;
  hp__progress_pass_line("callgrind", 5, 0, 1.924671, "ms", buf, sizeof(buf));
  assert_string_equal(buf, "callgrind: 5 runs, median 1.925 ms");
  hp__progress_pass_line("bad", 1, 1, NAN, "ms", buf, sizeof(buf));
  assert_string_equal(buf, "bad: 1 run, 1 failed, no value");
  hp__progress_pass_line("pmc", 3, 1, 0.5, NULL, buf, sizeof(buf));
  assert_string_equal(buf, "pmc: 3 runs, 1 failed, median 0.5");
  hp__progress_pass_line("normal", 10, 0, 2.5, "ms", buf, 10);
  assert_string_equal(buf, "normal: 1"); /* cut to the buffer, NUL-terminated */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(time_format),
      cmocka_unit_test(time_small_buffer),
      cmocka_unit_test(eta_unknown_before_any_run),
      cmocka_unit_test(eta_per_pass_means),
      cmocka_unit_test(eta_zero_when_all_done),
      cmocka_unit_test(outcomes),
      cmocka_unit_test(status_line),
      cmocka_unit_test(done_line),
      cmocka_unit_test(sweep_lines),
      cmocka_unit_test(pass_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
