/*
 * hprun's own spawn (lib/exec/vspawn.c): the child gets the descriptors asked for even when they
 * are each other's sources (stdout and stderr swapped), /dev/null where asked, its folder, a new
 * session, and every signal at its default with an empty mask, whatever hprun caught, ignored or
 * blocked (a real-time signal among them: the status file's masks are 64 bits); a failed exec
 * comes back as its errno with the child reaped.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/vspawn.h"

extern char **environ;

/* Reads fd to its end into b (NUL-terminated). */
static void read_all(int fd, char *b, size_t cap)
{
  size_t n = 0;
  ssize_t got;

  while (n + 1 < cap && (got = read(fd, b + n, cap - 1 - n)) > 0)
    n += (size_t)got;
  b[n] = '\0';
}

/* Spawns argv with q's settings and waits for it; the exit status, or -1000 + the spawn's error. */
static int spawn_wait(hp__vspawn_req *q, char **argv)
{
  int pid, pidfd, cloned, r, st;

  q->file = argv[0];
  q->argv = argv;
  q->envp = environ;
  r = hp__vspawn(q, &pid, &pidfd, &cloned);
  if (r != 0)
    return -1000 + r;
  assert_true(cloned);
  assert_true(pidfd >= 0);
  assert_int_equal(waitpid(pid, &st, 0), pid);
  close(pidfd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

/* In a fork()ed copy whose stdout and stderr are two pipes: the child gets them swapped. */
static void test_swapped_fds(void **state)
{
  char *argv[] = {"/bin/sh", "-c", "echo out; echo err >&2; read x || echo eof", NULL};
  int a[2], b[2], st;
  char got_a[64], got_b[64];
  pid_t pid;

  (void)state;
  assert_int_equal(pipe(a), 0);
  assert_int_equal(pipe(b), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    hp__vspawn_req q;
    if (dup2(a[1], 1) < 0 || dup2(b[1], 2) < 0)
      _exit(90);
    close(a[0]);
    close(b[0]);
    close(a[1]);
    close(b[1]);
    memset(&q, 0, sizeof(q));
    q.nfd = 3;
    q.src[0] = -1; /* /dev/null, opened by the child */
    q.src[1] = 2;  /* our stderr is its stdout */
    q.src[2] = 1;  /* and our stdout its stderr */
    _exit(spawn_wait(&q, argv) == 0 ? 0 : 91);
  }
  close(a[1]);
  close(b[1]);
  read_all(a[0], got_a, sizeof(got_a));
  read_all(b[0], got_b, sizeof(got_b));
  close(a[0]);
  close(b[0]);
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st));
  assert_int_equal(WEXITSTATUS(st), 0);
  assert_string_equal(got_a, "err\n");
  assert_string_equal(got_b, "out\neof\n");
}

static void on_usr2(int sig)
{
  (void)sig;
}

/* Session, folder and signals: SIGUSR2 caught, SIGPIPE and a real-time signal ignored, SIGUSR1
 * blocked in hprun; the program sees none of it (what it catches itself is its own: grep has a
 * SIGSEGV handler, so SigCgt is not read). */
static void test_child_state(void **state)
{
  char *argv[] = {"/bin/sh", "-c",
                  "set -- $(cut -d' ' -f5,6 /proc/$$/stat); echo \"$$ $1 $2\"; pwd; "
                  "exec grep -E '^Sig(Blk|Ign)' /proc/self/status",
                  NULL};
  struct sigaction sa, old_usr2, old_rt, old_pipe;
  sigset_t block, old_mask;
  hp__vspawn_req q;
  int p[2], pid, pidfd, cloned, st;
  char got[512], want[64];

  (void)state;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_usr2;
  assert_int_equal(sigaction(SIGUSR2, &sa, &old_usr2), 0);
  sa.sa_handler = SIG_IGN;
  assert_int_equal(sigaction(SIGRTMIN + 5, &sa, &old_rt), 0);
  assert_int_equal(sigaction(SIGPIPE, &sa, &old_pipe), 0);
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigprocmask(SIG_BLOCK, &block, &old_mask);
  assert_int_equal(pipe(p), 0);
  memset(&q, 0, sizeof(q));
  q.file = argv[0];
  q.argv = argv;
  q.envp = environ;
  q.cwd = "/";
  q.setsid = 1;
  q.nfd = 2;
  q.src[0] = -1;
  q.src[1] = p[1];
  assert_int_equal(hp__vspawn(&q, &pid, &pidfd, &cloned), 0);
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
  sigaction(SIGUSR2, &old_usr2, NULL);
  sigaction(SIGRTMIN + 5, &old_rt, NULL);
  sigaction(SIGPIPE, &old_pipe, NULL);
  close(p[1]);
  read_all(p[0], got, sizeof(got));
  close(p[0]);
  assert_int_equal(waitpid(pid, &st, 0), pid);
  close(pidfd);
  snprintf(want, sizeof(want), "%d %d %d\n/\n", pid, pid, pid);
  assert_true(strncmp(got, want, strlen(want)) == 0);
  assert_non_null(strstr(got, "SigBlk:\t0000000000000000\n"));
  assert_non_null(strstr(got, "SigIgn:\t0000000000000000\n"));
}

/* A failed exec is its errno, the child reaped; so is a folder that does not exist. */
static void test_errors(void **state)
{
  char dir[] = "/tmp/hprun-vspawn-XXXXXX", path[64];
  char *missing[] = {"/nonexistent/hprun-no-such-program", NULL};
  char *plain[] = {path, NULL};
  char *ok[] = {"/bin/true", NULL};
  hp__vspawn_req q;
  FILE *f;

  (void)state;
  memset(&q, 0, sizeof(q));
  assert_int_equal(spawn_wait(&q, missing), -1000 - ENOENT);
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/not-executable", dir);
  assert_non_null(f = fopen(path, "w"));
  fputs("#!/bin/sh\n", f);
  fclose(f);
  assert_int_equal(spawn_wait(&q, plain), -1000 - EACCES);
  unlink(path);
  rmdir(dir);
  q.cwd = "/nonexistent/hprun-no-such-folder";
  assert_int_equal(spawn_wait(&q, ok), -1000 - ENOENT);
  /* No child of ours is left to reap. */
  assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
  assert_int_equal(errno, ECHILD);
  q.cwd = NULL;
  assert_int_equal(spawn_wait(&q, ok), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_swapped_fds),
      cmocka_unit_test(test_child_state),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
