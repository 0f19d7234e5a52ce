/*
 * The group's processes from /proc (lib/exec/procfs.c), on this test's own processes: peak RSS
 * of a process we know the size of, an absent pid, and a small group of our own making (a leader
 * with one child) found by both the children walk and the /proc scan.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/procfs.h"

static void test_hwm_of_self(void **state)
{
  size_t size = 64u << 20;
  char *p = malloc(size);
  long kb;

  (void)state;
  assert_non_null(p);
  memset(p, 1, size); /* touched, so resident: the peak is at least 64 MiB from now on */
  kb = hp__proc_hwm_kb(getpid());
  free(p);
  assert_true(kb >= 65536);
}

static void test_absent_pid_is_unknown(void **state)
{
  (void)state;
  /* Linux pids stay below pid_max, at most 2^22: INT_MAX is never a process. */
  assert_int_equal(hp__proc_hwm_kb(INT_MAX), -1);
  assert_int_equal(hp__proc_group_hwm_kb(INT_MAX), -1);
  assert_int_equal(hp__proc_group_members(INT_MAX, (int[4]){0}, 4), 0);
}

/* Forks a leader of a new group that forks one member; returns the leader's pid and the
 * member's through *member once both exist. */
static pid_t make_group(pid_t *member)
{
  int fds[2];
  pid_t leader;

  assert_int_equal(pipe(fds), 0);
  leader = fork();
  assert_true(leader >= 0);
  if (leader == 0) {
    pid_t m;
    setpgid(0, 0);
    m = fork();
    if (m == 0) {
      for (;;)
        pause();
    }
    if (write(fds[1], &m, sizeof(m)) != (ssize_t)sizeof(m))
      _exit(1);
    for (;;)
      pause();
  }
  close(fds[1]);
  assert_int_equal(read(fds[0], member, sizeof(*member)), (ssize_t)sizeof(*member));
  close(fds[0]);
  assert_true(*member > 0);
  return leader;
}

static void test_group_of_two(void **state)
{
  pid_t leader, member;
  int pids[16];
  long n;

  (void)state;
  leader = make_group(&member);

  /* The scan finds the member and leaves the leader out. */
  assert_int_equal(hp__proc_group_members(leader, pids, 16), 1);
  assert_int_equal(pids[0], member);
  /* The walk finds the same process below the leader, and both below us, leader first. Kernels
   * without the children files answer -1 instead, and the runner then falls back to the scan. */
  n = hp__proc_descendants(leader, pids, 16);
  if (n >= 0) {
    assert_int_equal(n, 1);
    assert_int_equal(pids[0], member);
    assert_int_equal(hp__proc_descendants(getpid(), pids, 16), 2);
    assert_int_equal(pids[0], leader);
    assert_int_equal(pids[1], member);
    /* A full array stops the walk rather than overrun it. */
    assert_int_equal(hp__proc_descendants(getpid(), pids, 1), 1);
    assert_int_equal(pids[0], leader);
  }
  assert_true(hp__proc_group_hwm_kb(leader) > 0);

  assert_int_equal(kill(-leader, SIGKILL), 0);
  assert_int_equal(waitpid(leader, NULL, 0), leader);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hwm_of_self),
      cmocka_unit_test(test_absent_pid_is_unknown),
      cmocka_unit_test(test_group_of_two),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
