/*
 * The group's processes from /proc (lib/exec/procfs.c), on this test's own processes: peak RSS
 * of a process we know the size of, an absent pid, a small group of our own making (a leader
 * with one child) found by both the children walk and the /proc scan, the stat line's fields,
 * and an entry found in the environment a child was started with, wherever it lies in it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
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

static void test_parse_stat(void **state)
{
  /* A command name with spaces and parentheses; fields as the kernel writes them (proc(5)). */
  static const char line[] =
      "4242 (a) b (c) S 17 4200 4200 0 -1 4194564 120 0 0 0 3 1 0 0 20 0 1 0 "
      "987654321 1000 200 18446744073709551615\n";
  hp__proc_info p;

  (void)state;
  assert_int_equal(hp__proc_parse_stat(line, 4242, &p), 0);
  assert_int_equal(p.pid, 4242);
  assert_int_equal(p.state, 'S');
  assert_int_equal(p.ppid, 17);
  assert_int_equal(p.pgrp, 4200);
  assert_int_equal(p.flags, 4194564u);
  assert_true(p.flags & HP__PF_EXITING);
  assert_true(p.start == 987654321ULL);
  assert_false(HP__PROC_LIVE(&p)); /* exiting */
  assert_int_equal(
      hp__proc_parse_stat("4242 (x) Z 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0", 4242, &p), 0);
  assert_int_equal(p.state, 'Z');
  assert_true(p.start == 55ULL);
  assert_false(HP__PROC_LIVE(&p));
  assert_int_equal(hp__proc_parse_stat("4242 (x) S 1 2", 4242, &p), -1);
  assert_int_equal(hp__proc_parse_stat("no parenthesis at all", 1, &p), -1);

  /* Our own: alive, our parent, started no later than a child we start now. */
  assert_int_equal(hp__proc_info_read(getpid(), &p), 0);
  assert_int_equal(p.ppid, getppid());
  assert_int_equal(p.pgrp, getpgrp());
  assert_true(HP__PROC_LIVE(&p));
  assert_int_equal(hp__proc_info_read(INT_MAX, &p), -1);
}

/* Starts /bin/sleep with exactly `env` and returns once it runs (the exec closed the CLOEXEC
 * pipe), so /proc shows its environment, not ours. */
static pid_t start_with_env(char **env)
{
  char *argv[] = {"sleep", "30", NULL};
  int fds[2];
  char c;
  pid_t pid;

  assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    execve("/bin/sleep", argv, env);
    _exit(127);
  }
  close(fds[1]);
  while (read(fds[0], &c, 1) < 0 && errno == EINTR)
    ;
  close(fds[0]);
  return pid;
}

static void stop(pid_t pid)
{
  kill(pid, SIGKILL);
  assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void test_env_entry(void **state)
{
  static const char entry[] = "HPRUN_SESSION_TOKEN=77-abc";
  char *filler = malloc(9000);
  char *env[5];
  size_t lens[] = {1, 8170, 8180, 8185, 8190, 8200};
  size_t i;
  pid_t pid;

  (void)state;
  assert_non_null(filler);
  /* The entry last, first, alone; and after fillers that put it across the reader's 8 KiB
   * chunks. Only a whole entry matches: neither a longer value, nor a shorter one, nor a name
   * that merely ends the same. */
  for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
    memset(filler, 'x', lens[i]);
    memcpy(filler, "F=", 2);
    filler[lens[i]] = '\0';
    env[0] = filler;
    env[1] = (char *)entry;
    env[2] = "Z=1";
    env[3] = NULL;
    pid = start_with_env(env);
    assert_int_equal(hp__proc_env_has(pid, entry), 1);
    assert_int_equal(hp__proc_env_has(pid, "HPRUN_SESSION_TOKEN=77-ab"), 0);
    assert_int_equal(hp__proc_env_has(pid, "HPRUN_SESSION_TOKEN=77-abcd"), 0);
    assert_int_equal(hp__proc_env_has(pid, "SESSION_TOKEN=77-abc"), 0);
    assert_int_equal(hp__proc_env_has(pid, "Z=1"), 1);
    stop(pid);
  }
  env[0] = (char *)entry;
  env[1] = NULL;
  pid = start_with_env(env);
  assert_int_equal(hp__proc_env_has(pid, entry), 1);
  assert_int_equal(hp__proc_env_has(pid, "Z=1"), 0);
  stop(pid);
  env[0] = NULL;
  pid = start_with_env(env);
  assert_int_equal(hp__proc_env_has(pid, entry), 0);
  stop(pid);
  assert_int_equal(hp__proc_env_has(INT_MAX, entry), -1);
  free(filler);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hwm_of_self),  cmocka_unit_test(test_absent_pid_is_unknown),
      cmocka_unit_test(test_group_of_two), cmocka_unit_test(test_parse_stat),
      cmocka_unit_test(test_env_entry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
