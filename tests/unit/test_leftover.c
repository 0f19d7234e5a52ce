/*
 * What a run leaves behind, through the runner (lib/exec/runner.c, leftover.c, guard.c) on a
 * real libuv loop: the session token in every child's environment; a setsid() daemon found by
 * its token, and one that cleared its environment found as an adopted orphan, both killed,
 * counted and reaped without waiting for the pipes they hold; group members counted when they
 * outlive their leader, but not when the group was being stopped; a failed write of an output
 * file reported with its path and errno; and a pipe held open by a process that is not the run's
 * cut after the drain period and reported.
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/guard.h"
#include "exec/runner.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

static char tmpdir[64];

static int setup(void **state)
{
  (void)state;
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/hprun-leftover-XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
  static const char *const files[] = {"pids", "pids.tmp", "out.txt", "err.txt", "env.sh", NULL};
  char path[128];
  size_t i;

  (void)state;
  for (i = 0; files[i]; i++) {
    snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i]);
    unlink(path);
  }
  return rmdir(tmpdir);
}

static char *tmp(const char *name)
{
  char *p = hp__asprintf("%s/%s", tmpdir, name);

  assert_non_null(p);
  return p;
}

static double now_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs `sh -c script` with stdout captured into *cap; returns hp__child_run's value and the
 * seconds it took in *secs. */
static int run_sh(const char *script, hp__child_spec *spec, hp__child_result *res, hp__buf *cap,
                  double *secs)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  double t0;
  int r;

  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(hp__strv_push(&argv, "/bin/sh"), 0);
  assert_int_equal(hp__strv_push(&argv, "-c"), 0);
  assert_int_equal(hp__strv_push(&argv, script), 0);
  spec->argv = &argv;
  spec->capture = cap;
  t0 = now_s();
  r = hp__child_run(&loop, spec, res);
  *secs = now_s() - t0;
  spec->argv = NULL;
  hp_strv_free(&argv);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&loop), 0);
  return r;
}

/* The pid the run wrote to <tmpdir>/pids (and removes the file). */
static pid_t pid_from_file(void)
{
  char *path = tmp("pids"), *text = NULL;
  long pid;

  assert_int_equal(hp__read_file(path, &text, NULL), 0);
  pid = strtol(text, NULL, 10);
  free(text);
  unlink(path);
  free(path);
  assert_true(pid > 1);
  return (pid_t)pid;
}

/* Gone for good: killed and reaped (a zombie would still answer kill(pid, 0)). */
static void assert_reaped(pid_t pid)
{
  assert_int_equal(kill(pid, 0), -1);
  assert_int_equal(errno, ESRCH);
}

static void test_token_in_env(void **state)
{
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  char *outer[] = {"HPRUN_SESSION_TOKEN=outer", "PATH=/usr/bin:/bin", NULL};
  char *script = tmp("env.sh"), **env = NULL;
  const char *token;
  uv_loop_t loop;
  hp_diags d;
  double secs;
  size_t i;

  (void)state;
  memset(&spec, 0, sizeof(spec));
  assert_int_equal(run_sh("printf %s \"$HPRUN_SESSION_TOKEN\"", &spec, &res, &cap, &secs), 0);
  token = hp__guard_token_entry();
  assert_non_null(token);
  assert_int_equal(strncmp(token, "HPRUN_SESSION_TOKEN=", 20), 0);
  token += 20;
  assert_true(strlen(token) > 20);
  assert_string_equal(cap.data, token);
  /* A clean run leaves nothing, loses nothing. */
  assert_int_equal(res.left_behind, 0);
  assert_int_equal(res.output_cut, 0);
  assert_int_equal(res.write_errno, 0);
  assert_null(res.write_path);

  /* A token inherited from an outer hprun is replaced, not kept beside ours. */
  hp__buf_reset(&cap);
  spec.env = outer;
  assert_int_equal(
      run_sh("env | grep -c '^HPRUN_SESSION_TOKEN='; printf %s \"$HPRUN_SESSION_TOKEN\"", &spec,
             &res, &cap, &secs),
      0);
  assert_non_null(strstr(cap.data, "1\n"));
  assert_string_equal(strchr(cap.data, '\n') + 1, token);

  /* An env_script's environment does not carry the session's token into the plan's runs. */
  hp_diags_init(&d);
  assert_int_equal(hp__write_file(script, "export T_X=1\n", 13, 1), 0);
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(hp__env_from_script(&loop, script, &env, &d), 0);
  for (i = 0; env[i]; i++)
    assert_int_not_equal(strncmp(env[i], "HPRUN_SESSION_TOKEN=", 20), 0);
  hp__env_free(env);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&loop), 0);
  hp_diags_free(&d);
  free(script);
  hp__buf_free(&cap);
}

/* Daemons started with setsid(1): a new session, holding the run's stdout. One keeps the
 * environment (found by the token), one clears it with env -i (found as hprun's adopted
 * orphan); one more ignores SIGTERM and is killed after the grace. */
static void test_daemons(void **state)
{
  static const char *const scripts[] = {
      "setsid sleep 300 & echo $! > %s; echo started",
      "setsid env -i /bin/sleep 300 & echo $! > %s; echo started",
      "trap '' TERM; setsid env -i /bin/sleep 300 & echo $! > %s; echo started",
  };
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  char *pids = tmp("pids"), *script;
  double secs;
  size_t i;

  (void)state;
  if (access("/usr/bin/setsid", X_OK) != 0 && access("/bin/setsid", X_OK) != 0)
    skip();
  for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
    memset(&spec, 0, sizeof(spec));
    spec.grace_s = 0.3;
    hp__buf_reset(&cap);
    script = hp__asprintf(scripts[i], pids);
    assert_int_equal(run_sh(script, &spec, &res, &cap, &secs), 0);
    assert_int_equal(res.exit_status, 0);
    assert_string_equal(cap.data, "started\n");
    assert_int_equal(res.left_behind, 1);
    /* Killed, so its pipe reached EOF well before the 2 s drain (or 0.3 s of grace + SIGKILL). */
    assert_int_equal(res.output_cut, 0);
    assert_true(secs < 1.5);
    assert_reaped(pid_from_file());
    free(script);
  }
  free(pids);
  hp__buf_free(&cap);
}

static void test_members(void **state)
{
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  char *pids = tmp("pids"), *script;
  double secs;

  (void)state;
  /* A member the leader did not wait for: left behind, killed, reaped (it came to us). */
  memset(&spec, 0, sizeof(spec));
  script = hp__asprintf("sleep 300 & echo $! > %s", pids);
  assert_int_equal(run_sh(script, &spec, &res, &cap, &secs), 0);
  assert_int_equal(res.left_behind, 1);
  assert_reaped(pid_from_file());
  free(script);

  /* A member deaf to the SIGTERM of a timeout: part of the stop, not left behind. */
  memset(&spec, 0, sizeof(spec));
  spec.timeout_s = 0.2;
  spec.grace_s = 0.3;
  script = hp__asprintf("(trap '' TERM; exec sleep 300) & echo $! > %s; sleep 300", pids);
  assert_int_equal(run_sh(script, &spec, &res, &cap, &secs), 0);
  assert_true(res.timed_out);
  assert_int_equal(res.left_behind, 0);
  assert_reaped(pid_from_file());
  free(script);
  free(pids);
  hp__buf_free(&cap);
}

static void test_write_error(void **state)
{
  hp__child_spec spec;
  hp__child_result res;
  struct rlimit old, small;
  char *out = tmp("out.txt"), *err = tmp("err.txt"), *text = NULL;
  double secs;
  size_t len;

  (void)state;
  /* Files of this process may not grow past 8 bytes: the 9th byte of stdout.txt fails with
   * EFBIG, as a full disk would with ENOSPC. The child writes only to pipes. */
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small = old;
  small.rlim_cur = 8;
  signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  memset(&spec, 0, sizeof(spec));
  spec.stdout_path = out;
  spec.stderr_path = err;
  assert_int_equal(run_sh("printf 0123456789abcdef; printf oops >&2", &spec, &res, NULL, &secs),
                   HP_EIO);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, SIG_DFL);
  /* The child ran and its result is complete; the failure names the file and the reason. */
  assert_int_equal(res.exit_status, 0);
  assert_int_equal(res.write_errno, EFBIG);
  assert_ptr_equal(res.write_path, out);
  assert_int_equal(hp__read_file(out, &text, &len), 0);
  assert_int_equal(len, 8);
  assert_memory_equal(text, "01234567", 8);
  free(text);
  assert_int_equal(hp__read_file(err, &text, &len), 0);
  assert_string_equal(text, "oops");
  free(text);
  unlink(out);
  unlink(err);
  free(out);
  free(err);
}

/* The guard's pid is asked of the kernel once (exec/guard.c): a fork()ed copy must still see that
 * the guard and its watchdog are its parent's, and know its own pid. */
static void test_guard_forked_copy(void **state)
{
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  double secs;
  char got[2] = "";
  int fds[2], st;
  pid_t pid;

  (void)state;
  memset(&spec, 0, sizeof(spec));
  assert_int_equal(run_sh("true", &spec, &res, &cap, &secs), 0); /* starts the guard */
  assert_true(hp__guard_watchdog_pid() > 0);
  assert_int_equal(hp__guard_self(), (int)getpid());
  assert_int_equal(pipe(fds), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    got[0] = hp__guard_self() == (int)getpid() ? 'y' : 'n';
    got[1] = hp__guard_watchdog_pid() == 0 ? 'y' : 'n';
    _exit(write(fds[1], got, 2) == 2 ? 0 : 1);
  }
  close(fds[1]);
  assert_int_equal(read(fds[0], got, 2), 2);
  close(fds[0]);
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_memory_equal(got, "yy", 2);
  /* And the parent's guard is still its own. */
  assert_int_equal(hp__guard_self(), (int)getpid());
  assert_true(hp__guard_watchdog_pid() > 0);
  hp__buf_free(&cap);
}

/* A process of ours, started before the run (so not the run's), that takes a copy of the run's
 * stdout (pidfd_getfd, as a debugger could) as soon as the run has written its pid, and holds it.
 * It says on `status` whether it got it ('y') or the kernel refused ('n'). */
static pid_t start_holder(const char *pids, int *status)
{
  int fds[2];
  pid_t pid;

  assert_int_equal(pipe(fds), 0);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    struct timespec tick = {0, 10 * 1000 * 1000};
    char *text = NULL;
    long leader, pidfd = -1, fd = -1;
    int i;
    close(fds[0]);
    for (i = 0; i < 500 && hp__read_file(pids, &text, NULL) != 0; i++)
      nanosleep(&tick, NULL);
    leader = text ? strtol(text, NULL, 10) : -1;
    if (leader > 0)
      pidfd = syscall(SYS_pidfd_open, (pid_t)leader, 0);
    if (pidfd >= 0)
      fd = syscall(SYS_pidfd_getfd, (int)pidfd, 1, 0);
    if (write(fds[1], fd >= 0 ? "y" : "n", 1) != 1)
      _exit(2);
    sleep(30);
    _exit(0);
  }
  close(fds[1]);
  *status = fds[0];
  return pid;
}

static void test_pipe_held(void **state)
{
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  char *pids = tmp("pids"), *script, got = 0;
  struct timespec settle = {0, 50 * 1000 * 1000};
  double secs;
  pid_t holder;
  int st, status;

  (void)state;
  holder = start_holder(pids, &status);
  nanosleep(&settle, NULL); /* a clock tick or more before the run's leader starts */
  memset(&spec, 0, sizeof(spec));
  script = hp__asprintf("echo $$ > %s.tmp && mv %s.tmp %s; sleep 0.5; echo bye", pids, pids, pids);
  assert_int_equal(run_sh(script, &spec, &res, &cap, &secs), 0);
  assert_int_equal(read(status, &got, 1), 1);
  close(status);
  kill(holder, SIGKILL);
  assert_int_equal(waitpid(holder, &st, 0), holder);
  unlink(pids);
  free(script);
  free(pids);
  if (got != 'y') {
    hp__buf_free(&cap);
    skip(); /* no pidfd_getfd here (old kernel, or no ptrace rights) */
  }
  /* Not the run's, so not killed: the drain ends the wait, and says so. */
  assert_true(WIFSIGNALED(st)); /* it was still there, holding the pipe */
  assert_int_equal(res.output_cut, 1);
  assert_int_equal(res.left_behind, 0);
  assert_true(secs >= 2.0 && secs < 4.0);
  assert_string_equal(cap.data, "bye\n");
  hp__buf_free(&cap);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_token_in_env), cmocka_unit_test(test_daemons),
      cmocka_unit_test(test_members),      cmocka_unit_test(test_write_error),
      cmocka_unit_test(test_pipe_held),    cmocka_unit_test(test_guard_forked_copy),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
