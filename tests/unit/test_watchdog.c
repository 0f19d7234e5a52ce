/*
 * The session guard and its watchdog (lib/exec/guard.c, watchdog.c): the protocol hprun speaks to
 * the watchdog, the stopping of watched groups and of processes carrying the token, and whole
 * lives of a guarded process forked here: SIGKILLed with a run going (the watchdog stops the run),
 * ending normally (the watchdog is told and waited for) and ending without a word (the watchdog
 * exits by itself).
 *
 * This test process is a child subreaper, so the forked "hprun"'s children, the watchdog
 * included, become ours when it dies, and can be waited for here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/guard.h"
#include "exec/procfs.h"
#include "exec/runner.h"

static void feed(hp__watchdog_state *st, const char *s)
{
  hp__watchdog_feed(st, s, strlen(s));
}

static void test_protocol(void **state)
{
  hp__watchdog_state st;
  char line[80];
  int i;

  (void)state;
  hp__watchdog_state_init(&st);
  feed(&st, "+123\n");
  assert_int_equal(st.n, 1);
  assert_int_equal(st.pgids[0], 123);
  /* A line split across reads waits for its end. */
  feed(&st, "+4");
  assert_int_equal(st.n, 1);
  feed(&st, "56\n+456\n-123\n");
  assert_int_equal(st.n, 1); /* 456 once, 123 gone */
  assert_int_equal(st.pgids[0], 456);
  feed(&st, "-999\n"); /* not watched: nothing to forget, and not an error */
  assert_int_equal(st.n, 1);
  assert_int_equal(st.bad, 0);
  assert_false(st.bye);

  /* Never a group that would make kill() reach far too much, nor anything else. */
  feed(&st, "+0\n+1\n+-5\n+abc\n+12x\nx\n\n+\n+99999999999\n");
  assert_int_equal(st.bad, 9);
  assert_int_equal(st.n, 1);
  memset(line, '7', sizeof(line));
  line[0] = '+';
  line[sizeof(line) - 1] = '\n';
  hp__watchdog_feed(&st, line, sizeof(line)); /* a line longer than the buffer */
  assert_int_equal(st.bad, 10);
  assert_int_equal(st.n, 1);
  feed(&st, "+789\n"); /* the parser is back in step after it */
  assert_int_equal(st.n, 2);

  /* A full table refuses more, and says so. */
  for (i = 0; i < HP__WATCHDOG_MAX_GROUPS + 5; i++) {
    snprintf(line, sizeof(line), "+%d\n", 1000 + i);
    feed(&st, line);
  }
  assert_int_equal(st.n, HP__WATCHDOG_MAX_GROUPS);
  assert_int_equal(st.bad, 10 + 7);
  feed(&st, "bye\n");
  assert_true(st.bye);
}

/* Starts /bin/sleep 30 with `env` in a new group (ignoring SIGTERM when asked) and returns once it
 * runs. */
static pid_t start_sleeper(char **env, int ignore_term)
{
  char *argv[] = {"sleep", "30", NULL};
  int fds[2];
  char c;
  pid_t pid;

  assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    setpgid(0, 0);
    if (ignore_term)
      signal(SIGTERM, SIG_IGN); /* kept across exec */
    execve("/bin/sleep", argv, env);
    _exit(127);
  }
  setpgid(pid, pid);
  close(fds[1]);
  while (read(fds[0], &c, 1) < 0 && errno == EINTR)
    ;
  close(fds[0]);
  return pid;
}

/* How our child `pid` ended: the signal that ended it, 0 when it exited with status 0, 1000 + its
 * status otherwise, -1 when it did not end within 3 s (then it is killed). */
static int end_signal(pid_t pid)
{
  struct timespec tick = {0, 10 * 1000 * 1000};
  int st, i;

  for (i = 0; i < 300; i++) {
    if (waitpid(pid, &st, WNOHANG) == pid)
      return WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st) ? 1000 + WEXITSTATUS(st) : 0;
    nanosleep(&tick, NULL);
  }
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  return -1;
}

static void test_stop_all(void **state)
{
  char entry[64];
  char *env[] = {entry, NULL};
  char *none[] = {NULL};
  hp__watchdog_state st;
  hp__proc_info info;
  pid_t a, b, c;

  (void)state;
  snprintf(entry, sizeof(entry), "%s=test-%d", HP__TOKEN_VAR, (int)getpid());
  /* a: a watched group without the token; b: the token outside any watched group; c: the
   * token, but deaf to SIGTERM. */
  a = start_sleeper(none, 0);
  b = start_sleeper(env, 0);
  c = start_sleeper(env, 1);
  hp__watchdog_state_init(&st);
  feed(&st, "+");
  {
    char line[32];
    snprintf(line, sizeof(line), "%d\n", (int)a);
    feed(&st, line);
  }
  /* A start time after theirs keeps the token's processes out: only the group is stopped. */
  assert_int_equal(hp__proc_info_read(c, &info), 0);
  assert_int_equal(hp__watchdog_stop_all(&st, entry, info.start + 1000000, 300), 1);
  assert_int_equal(end_signal(a), SIGTERM);
  assert_int_equal(kill(b, 0), 0);
  /* From their start on, both are found; c outlives the grace and is killed. */
  hp__watchdog_state_init(&st);
  assert_int_equal(hp__watchdog_stop_all(&st, entry, 0, 300), 2);
  assert_int_equal(end_signal(b), SIGTERM);
  assert_int_equal(end_signal(c), SIGKILL);
  /* Nothing left: nothing found. */
  assert_int_equal(hp__watchdog_stop_all(&st, entry, 0, 300), 0);
}

/* Reads one int from fd, or -1. */
static int read_int(int fd)
{
  int v;

  return read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? v : -1;
}

static void write_int(int fd, int v)
{
  if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
    _exit(90);
}

/* A guarded process, forked: starts the guard, reports the watchdog's pid on `fd` and then, by
 * `how`: 'k' starts a run-like group with the token, watches it, reports its pid and waits to be
 * killed; 'g' the same without the token, so that only the watched group (the table shared with
 * the watchdog) can find it; 's' calls hp__exec_shutdown and reports whether the watchdog is gone (reaped: ESRCH);
 * 'x' returns from main-like code through exit() (the atexit hook); 'q' leaves with _exit(). */
static void guarded(int fd, int how)
{
  char entry[128];
  char *env[] = {entry, NULL};
  pid_t run;

  hp__guard_start();
  write_int(fd, hp__guard_watchdog_pid());
  if (how == 'k' || how == 'g') {
    snprintf(entry, sizeof(entry), "%s", how == 'k' ? hp__guard_token_entry() : "A=B");
    run = fork();
    if (run == 0) {
      char *argv[] = {"sleep", "30", NULL};
      setpgid(0, 0);
      execve("/bin/sleep", argv, env);
      _exit(127);
    }
    setpgid(run, run);
    hp__guard_watch(run);
    write_int(fd, run);
    sleep(10); /* killed long before, unless the test failed: then not forever */
    _exit(0);
  }
  if (how == 's') {
    int w = hp__guard_watchdog_pid();
    hp__exec_shutdown();
    write_int(fd, kill(w, 0) != 0 && errno == ESRCH);
    _exit(0);
  }
  if (how == 'x')
    exit(0);
  _exit(0);
}

static pid_t fork_guarded(int how, int *fd)
{
  int fds[2];
  pid_t pid;

  assert_int_equal(pipe(fds), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    guarded(fds[1], how);
  }
  close(fds[1]);
  *fd = fds[0];
  return pid;
}

static void test_hprun_killed(void **state)
{
  int fd, watchdog, run, how;
  pid_t hprun;

  (void)state;
  for (how = 'k'; how; how = how == 'k' ? 'g' : 0) {
    hprun = fork_guarded(how, &fd);
    watchdog = read_int(fd);
    run = read_int(fd);
    close(fd);
    kill(hprun, SIGKILL); /* first, so a failed assertion cannot leave it running */
    assert_true(watchdog > 0);
    assert_true(run > 0);
    assert_int_equal(end_signal(hprun), SIGKILL);
    /* The watchdog leads its own session, so a signal to hprun's group does not reach it. */
    assert_int_equal(getsid(watchdog), watchdog);
    /* Both were hprun's children, so they are ours now: the run ends by the watchdog's SIGTERM
     * and the watchdog exits by itself. */
    assert_int_equal(end_signal(run), SIGTERM);
    assert_int_equal(end_signal(watchdog), 0);
  }
}

/* The table shared with hprun: its groups join those of the lines, with the same checks. */
static void test_merge(void **state)
{
  int table[6] = {0, 4242, 1, 4242, -7, 5151};
  hp__watchdog_state st;

  (void)state;
  hp__watchdog_state_init(&st);
  hp__watchdog_feed(&st, "+5151\n", 6);
  hp__watchdog_merge(&st, table, 6);
  assert_int_equal(st.n, 2); /* 5151 once, 4242 once; 0 is empty */
  assert_int_equal(st.pgids[0], 5151);
  assert_int_equal(st.pgids[1], 4242);
  assert_int_equal(st.bad, 2); /* 1 (init) and -7 are refused, as on the socket */
  hp__watchdog_merge(&st, NULL, 6);
  assert_int_equal(st.n, 2);
}

static void test_hprun_ends(void **state)
{
  int fd, watchdog, how;
  pid_t hprun;

  (void)state;
  /* Told "bye", the watchdog exits at once and hprun waits for it (shutdown and atexit). */
  for (how = 's'; how; how = how == 's' ? 'x' : 0) {
    hprun = fork_guarded(how, &fd);
    watchdog = read_int(fd);
    assert_true(watchdog > 0);
    if (how == 's')
      assert_int_equal(read_int(fd), 1);
    close(fd);
    assert_int_equal(end_signal(hprun), 0);
    /* Waited for by hprun: not a child that came to us. */
    assert_int_equal(waitpid(watchdog, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
  }
  /* Without a word (no atexit, no run): EOF; nothing to stop, so it exits, and comes to us. */
  hprun = fork_guarded('q', &fd);
  watchdog = read_int(fd);
  close(fd);
  assert_true(watchdog > 0);
  assert_int_equal(end_signal(hprun), 0);
  assert_int_equal(end_signal(watchdog), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_protocol),     cmocka_unit_test(test_stop_all),
      cmocka_unit_test(test_hprun_killed), cmocka_unit_test(test_hprun_ends),
      cmocka_unit_test(test_merge),
  };

  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    perror("test_watchdog: PR_SET_CHILD_SUBREAPER");
    return 1;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
