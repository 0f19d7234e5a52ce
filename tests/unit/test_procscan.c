/*
 * The /proc scan that skips processes older than a run (lib/exec/procscan.c): with `since` set
 * to this test's own start, a child forked afterwards is visited, our parent and init are not,
 * on the first scan and on later ones that answer from the cache; a second child forked between
 * scans is found; and a scan with an earlier `since` (0) visits the old processes again, though
 * the cache holds them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/procfs.h"

typedef struct seen {
  int pids[65536];
  size_t n;
} seen;

static int collect(const hp__proc_info *p, void *arg)
{
  seen *s = arg;

  if (s->n < sizeof(s->pids) / sizeof(s->pids[0]))
    s->pids[s->n++] = p->pid;
  return 0;
}

static int has(const seen *s, int pid)
{
  size_t i;

  for (i = 0; i < s->n; i++)
    if (s->pids[i] == pid)
      return 1;
  return 0;
}

static int spawn_sleeper(void)
{
  int pid = fork();

  if (pid == 0) {
    pause();
    _exit(0);
  }
  assert_true(pid > 0);
  return pid;
}

static void scan(seen *s, unsigned long long since)
{
  s->n = 0;
  assert_int_equal(hp__proc_each_since(collect, s, since), 0);
}

static void test_skips_older_processes(void **state)
{
  static seen s;
  hp__proc_info self;
  unsigned long long since;
  int a, b, round;

  (void)state;
  assert_int_equal(hp__proc_info_read(getpid(), &self), 0);
  since = self.start;
  a = spawn_sleeper();
  for (round = 0; round < 3; round++) {
    scan(&s, since);
    assert_true(has(&s, a));
    assert_true(has(&s, getpid()));   /* started at `since` itself: not older */
    assert_false(has(&s, getppid())); /* our parent started before us */
    assert_false(has(&s, 1));
  }
  b = spawn_sleeper();
  scan(&s, since);
  assert_true(has(&s, a));
  assert_true(has(&s, b));
  assert_false(has(&s, getppid()));
  /* An earlier `since` visits what the cache knows to be older than the later one. */
  scan(&s, 0);
  assert_true(has(&s, getppid()));
  assert_true(has(&s, 1));
  assert_true(has(&s, a));
  kill(a, SIGKILL);
  kill(b, SIGKILL);
  waitpid(a, NULL, 0);
  waitpid(b, NULL, 0);
  /* Reaped: gone from the scan. */
  scan(&s, since);
  assert_false(has(&s, a));
  assert_false(has(&s, b));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_skips_older_processes),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
