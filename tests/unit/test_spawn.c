/*
 * The leader's spawn (lib/exec/spawn.c) on a real libuv loop: the posix_spawn + pidfd path must
 * give the child what uv_spawn gives it (its own session and group, stdin on /dev/null, the cwd,
 * an empty signal mask, default dispositions, the pipes) and report exit codes and signals as
 * libuv does; names, scripts without #! and exec errors take or match libuv's path; `alone` says
 * whether the run created another process; the child's exit is seen before its pipes' EOF (hprun
 * holds the child's ends until then), and a process that keeps the pipes still gets read; spawns
 * one after another each get their own folder and pipes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/spawn.h"
#include "util/base/buf.h"

typedef struct run {
  uv_loop_t loop;
  hp__proc proc;
  uv_pipe_t out;
  hp__buf text;
  int used_pidfd; /* the fast path was taken */
  int exited;
  int eof;             /* the pipe reached EOF */
  int eof_before_exit; /* ... already when the exit callback ran */
  int64_t status;
  int sig;
} run;

static void on_exit_cb(hp__proc *p, int64_t status, int sig)
{
  run *r = p->data;

  r->exited = 1;
  r->eof_before_exit = r->eof;
  r->status = status;
  r->sig = sig;
  hp__proc_close(p);
}

static void on_alloc(uv_handle_t *h, size_t n, uv_buf_t *b)
{
  static char slab[4096];

  (void)h;
  (void)n;
  b->base = slab;
  b->len = sizeof(slab);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
  run *r = s->data;

  if (n > 0)
    hp__buf_add(&r->text, b->base, (size_t)n);
  else if (n < 0) {
    r->eof = 1;
    uv_close((uv_handle_t *)s, NULL);
  }
}

/* Runs argv to its end with stdout on a pipe; returns hp__proc_spawn's result. */
static int run_it(run *r, char **argv, const char *cwd)
{
  uv_process_options_t o;
  uv_stdio_container_t stdio[3];
  int ret;

  memset(r, 0, sizeof(*r));
  assert_int_equal(uv_loop_init(&r->loop), 0);
  assert_int_equal(uv_pipe_init(&r->loop, &r->out, 0), 0);
  r->out.data = r;
  memset(&o, 0, sizeof(o));
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[1].data.stream = (uv_stream_t *)&r->out;
  stdio[2].flags = UV_IGNORE;
  o.file = argv[0];
  o.args = argv;
  o.cwd = cwd;
  o.flags = UV_PROCESS_DETACHED;
  o.stdio_count = 3;
  o.stdio = stdio;
  ret = hp__proc_spawn(&r->loop, &r->proc, &o, on_exit_cb);
  r->proc.data = r;
  r->used_pidfd = r->proc.pidfd >= 0;
  if (ret != 0) {
    hp__proc_close(&r->proc);
    uv_close((uv_handle_t *)&r->out, NULL);
  } else {
    assert_int_equal(uv_read_start((uv_stream_t *)&r->out, on_alloc, on_read), 0);
  }
  uv_run(&r->loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&r->loop), 0);
  hp__buf_addc(&r->text, '\0');
  return ret;
}

static void test_status_and_signal(void **state)
{
  char *code[] = {"/bin/sh", "-c", "exit 3", NULL};
  char *killed[] = {"/bin/sh", "-c", "kill -TERM $$", NULL};
  run r;

  (void)state;
  assert_int_equal(run_it(&r, code, NULL), 0);
  assert_true(r.used_pidfd); /* this kernel (Linux >= 5.4) and glibc (>= 2.29) have it */
  assert_true(r.exited);
  assert_int_equal(r.status, 3);
  assert_int_equal(r.sig, 0);
  hp__buf_free(&r.text);
  assert_int_equal(run_it(&r, killed, NULL), 0);
  assert_true(r.exited);
  assert_int_equal(r.status, 0);
  assert_int_equal(r.sig, SIGTERM);
  hp__buf_free(&r.text);
}

/* What the child starts with: as uv_spawn with UV_PROCESS_DETACHED gives it. */
static void test_child_setup(void **state)
{
  char *argv[] = {"/bin/sh", "-c",
                  "set -- $(cut -d' ' -f5,6 /proc/$$/stat); echo \"$$ $1 $2\"; "
                  "readlink /proc/$$/fd/0; pwd; exec grep -E '^Sig(Blk|Ign)' /proc/self/status",
                  NULL};
  char want[128];
  sigset_t block, old;
  void (*old_pipe)(int);
  run r;

  (void)state;
  /* hprun ignores SIGPIPE and may block signals; the child must not inherit either. The masks
   * are read by the program the shell execs at the end (/proc/self), not from the shell while it
   * waits for a command: dash blocks SIGCHLD for a moment around its waits, and reading its own
   * status then made this test fail about once in 30 runs. */
  old_pipe = signal(SIGPIPE, SIG_IGN);
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigprocmask(SIG_BLOCK, &block, &old);
  assert_int_equal(run_it(&r, argv, "/tmp"), 0);
  sigprocmask(SIG_SETMASK, &old, NULL);
  signal(SIGPIPE, old_pipe);
  assert_true(r.used_pidfd);
  /* pid, process group, session: all the child's own pid. */
  snprintf(want, sizeof(want), "%d %d %d\n/dev/null\n/tmp\n", r.proc.pid, r.proc.pid, r.proc.pid);
  assert_true(strncmp(r.text.data, want, strlen(want)) == 0);
  assert_non_null(strstr(r.text.data, "SigBlk:\t0000000000000000\n"));
  assert_non_null(strstr(r.text.data, "SigIgn:\t0000000000000000\n"));
  hp__buf_free(&r.text);
}

/* `alone` is 0 whenever the run created another process; for a run that created none it is 1
 * unless something else on the machine made a process meanwhile, so one of a few tries must. */
static void test_alone(void **state)
{
  char *forks[] = {"/bin/sh", "-c", "/bin/true; exit 0", NULL};
  char *none[] = {"/bin/true", NULL};
  int i, seen = 0;
  run r;

  (void)state;
  assert_int_equal(run_it(&r, forks, NULL), 0);
  assert_int_equal(r.status, 0);
  assert_false(r.proc.alone);
  assert_true(r.proc.start > 0); /* read for the leftover sweeps */
  hp__buf_free(&r.text);
  for (i = 0; i < 50 && !seen; i++) {
    assert_int_equal(run_it(&r, none, NULL), 0);
    seen = r.proc.alone;
    hp__buf_free(&r.text);
  }
  assert_true(seen);
}

/* A bare name (looked up on the child's PATH) and a script without #! (execvp runs it with
 * /bin/sh) go through uv_spawn; a missing program is UV_ENOENT either way. */
static void test_fallbacks(void **state)
{
  char dir[] = "/tmp/hprun-spawn-XXXXXX", path[64];
  char *name[] = {"echo", "by name", NULL};
  char *script[] = {path, NULL};
  char *missing[] = {"/nonexistent/hprun-no-such-program", NULL};
  FILE *f;
  run r;

  (void)state;
  assert_int_equal(run_it(&r, name, NULL), 0);
  assert_false(r.used_pidfd);
  assert_string_equal(r.text.data, "by name\n");
  hp__buf_free(&r.text);

  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/noshebang", dir);
  assert_non_null(f = fopen(path, "w"));
  fputs("echo from a script without an interpreter line; exit 4\n", f);
  fclose(f);
  assert_int_equal(chmod(path, 0755), 0);
  assert_int_equal(run_it(&r, script, NULL), 0);
  assert_false(r.used_pidfd);
  assert_int_equal(r.status, 4);
  assert_string_equal(r.text.data, "from a script without an interpreter line\n");
  hp__buf_free(&r.text);
  unlink(path);
  rmdir(dir);

  assert_int_equal(run_it(&r, missing, NULL), UV_ENOENT);
  assert_false(r.exited);
  hp__buf_free(&r.text);
}

/* The exit wakes the loop, not the EOF before it: the child's pipe ends are kept until the pidfd
 * fires, every time. What the leader wrote is all read after that, and a process the run left
 * holding the pipe is read to its end (the EOF comes when it exits). */
static void test_exit_before_eof(void **state)
{
  char *quick[] = {"/bin/sh", "-c", "echo hi", NULL};
  char *late[] = {"/bin/sh", "-c", "(sleep 0.3; echo late) & echo early", NULL};
  int i;
  run r;

  (void)state;
  for (i = 0; i < 5; i++) {
    assert_int_equal(run_it(&r, quick, NULL), 0);
    assert_true(r.used_pidfd);
    assert_true(r.exited);
    assert_false(r.eof_before_exit);
    assert_true(r.eof);
    assert_string_equal(r.text.data, "hi\n");
    hp__buf_free(&r.text);
  }
  assert_int_equal(run_it(&r, late, NULL), 0);
  assert_false(r.eof_before_exit);
  assert_string_equal(r.text.data, "early\nlate\n");
  hp__buf_free(&r.text);
}

/* Spawns one after another, with the folder and the pipes' descriptors changing or staying the
 * same: each child gets its own (nothing of one spawn's setup may leak into the next). */
static void test_consecutive(void **state)
{
  char *pwd[] = {"/bin/sh", "-c", "pwd; echo to-stdout", NULL};
  const char *dirs[] = {"/tmp", "/tmp", "/", NULL, "/tmp", "/", "/"};
  char here[4096], want[4200];
  int i, extra = -1;
  run r;

  (void)state;
  assert_non_null(getcwd(here, sizeof(here)));
  for (i = 0; i < (int)(sizeof(dirs) / sizeof(dirs[0])); i++) {
    /* From the fifth spawn on an extra descriptor moves the pipes up by one; the last closes it
     * again, so they move back down under the same folder. */
    if (i == 4)
      assert_true((extra = dup(2)) >= 0);
    if (i == 6)
      close(extra);
    assert_int_equal(run_it(&r, pwd, dirs[i]), 0);
    assert_true(r.used_pidfd);
    snprintf(want, sizeof(want), "%s\nto-stdout\n", dirs[i] ? dirs[i] : here);
    assert_string_equal(r.text.data, want);
    assert_int_equal(r.status, 0);
    hp__buf_free(&r.text);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exit_before_eof), cmocka_unit_test(test_status_and_signal),
      cmocka_unit_test(test_child_setup),     cmocka_unit_test(test_alone),
      cmocka_unit_test(test_fallbacks),       cmocka_unit_test(test_consecutive),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
