/*
 * The /proc scans that skip processes older than a run (lib/exec/procfs.c): with `since` set to
 * this test's own start, a child forked afterwards is visited, our parent and init are not, on
 * every scan; a second child forked between scans is found; and a scan with an earlier `since`
 * (0) visits the old processes too. The range scan (hp__proc_each_range) visits the processes of a
 * range of pids, not a thread's id in it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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
  hp__proc_info self, parent;
  unsigned long long since;
  int a, b, round, older;

  (void)state;
  assert_int_equal(hp__proc_info_read(getpid(), &self), 0);
  since = self.start;
  /* Start times are in clock ticks: a parent that forked us within the same tick (`timeout`,
   * which execs us at once) is not older by that measure. */
  assert_int_equal(hp__proc_info_read(getppid(), &parent), 0);
  older = parent.start < since;
  a = spawn_sleeper();
  for (round = 0; round < 3; round++) {
    scan(&s, since);
    assert_true(has(&s, a));
    assert_true(has(&s, getpid()));            /* started at `since` itself: not older */
    assert_false(older && has(&s, getppid())); /* our parent started before us */
    assert_false(has(&s, 1));
  }
  b = spawn_sleeper();
  scan(&s, since);
  assert_true(has(&s, a));
  assert_true(has(&s, b));
  assert_false(older && has(&s, getppid()));
  /* An earlier `since` visits the processes older than the later one. */
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

typedef struct thr {
  int go[2], done[2]; /* it says its id on `go`, then waits on `done` */
  int tid;
} thr;

static void *idle_thread(void *arg)
{
  thr *t = arg;
  char c = 'x';

  t->tid = (int)syscall(SYS_gettid);
  if (write(t->go[1], &c, 1) != 1)
    return NULL;
  while (read(t->done[0], &c, 1) < 0 && errno == EINTR)
    ;
  return NULL;
}

/* The range scan reads the pids it is given: processes started at or after `since` only, never
 * a thread (whose id also has a /proc/<tid>/stat), nothing outside the range. */
static void test_range(void **state)
{
  static seen s;
  hp__proc_info self, info;
  pthread_t th;
  thr t;
  char c;
  int a, b, tid, first, last;

  (void)state;
  assert_int_equal(hp__proc_info_read(getpid(), &self), 0);
  assert_int_equal(pipe(t.go), 0);
  assert_int_equal(pipe(t.done), 0);
  first = hp__proc_last_pid() + 1;
  a = spawn_sleeper();
  assert_int_equal(pthread_create(&th, NULL, idle_thread, &t), 0);
  assert_int_equal(read(t.go[0], &c, 1), 1);
  tid = t.tid;
  b = spawn_sleeper();
  last = hp__proc_last_pid();
  /* The thread's id lies in the range too (pids and tids come from one counter), and has a
   * /proc/<tid>/stat of its own. */
  assert_true(first > 1 && a >= first && a < tid && tid < b && b <= last);
  assert_int_equal(hp__proc_info_read(tid, &info), 0);
  s.n = 0;
  assert_int_equal(hp__proc_each_range(collect, &s, self.start, first, last), 0);
  assert_true(has(&s, a));
  assert_true(has(&s, b));
  assert_false(has(&s, tid));
  assert_false(has(&s, getpid())); /* below the range */
  s.n = 0;
  assert_int_equal(hp__proc_each_range(collect, &s, self.start, first, a), 0);
  assert_true(has(&s, a));
  assert_false(has(&s, b)); /* above it */
  assert_int_equal(hp__proc_info_read(b, &info), 0);
  s.n = 0;
  assert_int_equal(hp__proc_each_range(collect, &s, info.start + 1, first, last), 0);
  assert_false(has(&s, b)); /* started before `since` */
  assert_int_equal(write(t.done[1], "x", 1), 1);
  assert_int_equal(pthread_join(th, NULL), 0);
  close(t.go[0]);
  close(t.go[1]);
  close(t.done[0]);
  close(t.done[1]);
  kill(a, SIGKILL);
  kill(b, SIGKILL);
  waitpid(a, NULL, 0);
  waitpid(b, NULL, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_skips_older_processes),
      cmocka_unit_test(test_range),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
