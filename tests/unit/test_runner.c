/*
 * The runner (lib/exec/runner.c, output.c, env.c) on a real libuv loop: exit statuses, output
 * files, live echo behind a prefix, timeouts that end the whole process group, environments, and
 * a loop that closes cleanly afterwards.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/runner.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

static char tmpdir[64];

static int setup(void **state)
{
  (void)state;
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/hprun-runner-XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
  static const char *const files[] = {"out1.txt", "err1.txt", "pids", "env.sh", NULL};
  char path[128];
  size_t i;

  (void)state;
  for (i = 0; files[i]; i++) {
    snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i]);
    unlink(path);
  }
  return rmdir(tmpdir);
}

static void sh(hp_strv *v, const char *script)
{
  assert_int_equal(hp__strv_push(v, "/bin/sh"), 0);
  assert_int_equal(hp__strv_push(v, "-c"), 0);
  assert_int_equal(hp__strv_push(v, script), 0);
}

static void close_loop(uv_loop_t *loop)
{
  uv_run(loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(loop), 0);
}

static void test_exit_and_output(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  char *out = hp__asprintf("%s/out1.txt", tmpdir), *text = NULL;
  char *err = hp__asprintf("%s/err1.txt", tmpdir);
  size_t len;

  (void)state;
  assert_int_equal(uv_loop_init(&loop), 0);
  sh(&argv, "echo hello; echo oops >&2; exit 7");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.stdout_path = out;
  spec.stderr_path = err;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(res.exit_status, 7);
  assert_int_equal(res.term_signal, 0);
  assert_false(res.timed_out);
  assert_true(res.wall_ms >= 0);
  assert_int_equal(hp__read_file(out, &text, &len), 0);
  assert_string_equal(text, "hello\n");
  free(text);
  assert_int_equal(hp__read_file(err, &text, &len), 0);
  assert_string_equal(text, "oops\n");
  free(text);
  /* The run's files are never overwritten: the same path again is refused. */
  assert_int_equal(hp__child_run(&loop, &spec, &res), HP_EIO);
  spec.stdout_path = NULL; /* only the stderr file clashes now */
  assert_int_equal(hp__child_run(&loop, &spec, &res), HP_EIO);
  free(err);
  free(out);
  hp_strv_free(&argv);
  close_loop(&loop);
}

/* The files in the caller's open folder (spec.use_dirfd), by name and never through a link; the
 * size of stdout.txt comes back (0: nothing to read). */
static void test_dirfd_and_size(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  char dir[128], out[160], err[160], *text = NULL;
  size_t len;
  int dfd;

  (void)state;
  snprintf(dir, sizeof(dir), "%s/d", tmpdir);
  assert_int_equal(hp__mkdirs(dir, 0755), 0);
  assert_int_equal(hp__dir_open(dir, &dfd), 0);
  snprintf(out, sizeof(out), "%s/stdout.txt", dir);
  snprintf(err, sizeof(err), "%s/stderr.txt", dir);
  assert_int_equal(uv_loop_init(&loop), 0);
  sh(&argv, "printf 12345; printf ab >&2");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  /* The paths name other folders: only their last component counts, in dfd. */
  spec.stdout_path = "/nonexistent/a/stdout.txt";
  spec.stderr_path = "/nonexistent/b/stderr.txt";
  spec.use_dirfd = 1;
  spec.dirfd = dfd;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(res.stdout_size, 5);
  assert_int_equal(hp__read_file(out, &text, &len), 0);
  assert_string_equal(text, "12345");
  free(text);
  assert_int_equal(hp__read_file(err, &text, &len), 0);
  assert_string_equal(text, "ab");
  free(text);
  unlink(out);
  unlink(err);
  /* Nothing printed: size 0. */
  hp_strv_free(&argv);
  sh(&argv, "printf x >&2");
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(res.stdout_size, 0);
  unlink(out);
  unlink(err);
  /* A link planted at the name is refused, not followed, and nothing runs. */
  assert_int_equal(symlink("/tmp/hprun-runner-planted", out), 0);
  assert_int_equal(hp__child_run(&loop, &spec, &res), HP_EIO);
  assert_int_equal(access("/tmp/hprun-runner-planted", F_OK), -1);
  assert_int_equal(res.stdout_size, -1);
  unlink(out);
  unlink(err);
  close(dfd);
  assert_int_equal(rmdir(dir), 0);
  hp_strv_free(&argv);
  close_loop(&loop);
}

static void test_echo_prefix(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  char *echo = NULL;
  size_t echo_len = 0;
  FILE *fp = open_memstream(&echo, &echo_len);

  (void)state;
  assert_non_null(fp);
  assert_int_equal(uv_loop_init(&loop), 0);
  /* A line split across two writes is echoed whole; a last line without a newline gets one. */
  sh(&argv, "printf 'one\\ntw'; sleep 0.1; printf 'o\\n\\nlast'");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.echo = fp;
  spec.prefix = "[t 1] ";
  spec.capture = &cap;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(fclose(fp), 0);
  assert_string_equal(echo, "[t 1] one\n[t 1] two\n[t 1] \n[t 1] last\n");
  /* The capture keeps the bytes as they came. */
  assert_string_equal(cap.data, "one\ntwo\n\nlast");
  free(echo);
  hp__buf_free(&cap);
  hp_strv_free(&argv);
  close_loop(&loop);
}

/* A line longer than the echo's cap (64 KiB) is echoed in pieces of 64 KiB, each behind the
 * prefix, so hprun never holds more than one piece of it: 200000 bytes are 3 full pieces and a
 * rest of 3392 bytes; the line after it is echoed as usual. */
static void test_echo_long_line_in_pieces(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  char *echo = NULL, *line, *nl;
  size_t echo_len = 0, lens[8], n = 0;
  FILE *fp = open_memstream(&echo, &echo_len);

  (void)state;
  assert_non_null(fp);
  assert_int_equal(uv_loop_init(&loop), 0);
  sh(&argv, "head -c 200000 /dev/zero | tr '\\0' a; echo; echo after");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.echo = fp;
  spec.prefix = "[t 1] ";
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(fclose(fp), 0);
  for (line = echo; (nl = strchr(line, '\n')) != NULL && n < 8; line = nl + 1) {
    assert_memory_equal(line, "[t 1] ", 6);
    lens[n++] = (size_t)(nl - line) - 6;
  }
  assert_int_equal(n, 5);
  assert_int_equal(lens[0], 65536);
  assert_int_equal(lens[1], 65536);
  assert_int_equal(lens[2], 65536);
  assert_int_equal(lens[3], 200000 - 3 * 65536);
  assert_int_equal(lens[4], 5);
  assert_memory_equal(echo + echo_len - 6, "after\n", 6);
  free(echo);
  hp_strv_free(&argv);
  close_loop(&loop);
}

static void test_spawn_failure(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;

  (void)state;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(hp__strv_push(&argv, "/nonexistent/program"), 0);
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  assert_int_equal(hp__child_run(&loop, &spec, &res), HP_ESPAWN);
  assert_int_equal(res.spawn_error, UV_ENOENT);
  hp_strv_free(&argv);
  close_loop(&loop); /* the failed spawn's handle was closed too */
}

static void test_timeout_kills_group(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  char *pids = hp__asprintf("%s/pids", tmpdir), *script, *text = NULL, *p;
  size_t len;
  int n = 0;

  (void)state;
  assert_int_equal(uv_loop_init(&loop), 0);
  /* A leader that ignores SIGTERM, with a background child that outlives nothing. */
  script = hp__asprintf("trap '' TERM; sleep 100 & echo $! > %s; echo $$ >> %s; wait", pids, pids);
  sh(&argv, script);
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.timeout_s = 0.3;
  spec.grace_s = 0.2;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_true(res.timed_out);
  assert_true(res.term_signal == SIGKILL || res.term_signal == SIGTERM);
  assert_int_equal(hp__read_file(pids, &text, &len), 0);
  for (p = text; *p;) {
    long pid = strtol(p, &p, 10);
    if (pid <= 0)
      break;
    /* Gone, or at most a zombie waiting for init: never running. */
    if (kill((pid_t)pid, 0) == 0) {
      char st[64], path[64], *s = NULL;
      snprintf(path, sizeof(path), "/proc/%ld/status", pid);
      if (hp__read_file(path, &s, NULL) == 0) {
        char *q = strstr(s, "State:");
        snprintf(st, sizeof(st), "%s", q ? q : "");
        free(s);
        assert_non_null(strstr(st, "Z"));
      }
    }
    n++;
  }
  assert_int_equal(n, 2);
  free(text);
  free(script);
  free(pids);
  hp_strv_free(&argv);
  close_loop(&loop);
}

static void test_env_and_capture(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  hp__buf cap = HP__BUF_INIT;
  hp_kv set[] = {{"HPRUN_T1", "a b"}, {"PATH", "/usr/bin:/bin"}};
  char **env = hp__env_build(NULL, set, 2), **senv = NULL;
  char *script = hp__asprintf("%s/env.sh", tmpdir);
  hp_diags d;
  size_t i;
  int found = 0;

  (void)state;
  hp_diags_init(&d);
  assert_non_null(env);
  assert_int_equal(uv_loop_init(&loop), 0);
  sh(&argv, "printf '%s|%s' \"$HPRUN_T1\" \"$PATH\"");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.env = env;
  spec.capture = &cap;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_string_equal(cap.data, "a b|/usr/bin:/bin");

  /* A DTK-style env.sh: its exports reach the environment hprun uses. */
  assert_int_equal(hp__write_file(script, "export DTK_TEST_VAR='x y'\necho sourced\n", 39, 1), 0);
  assert_int_equal(hp__env_from_script(&loop, script, &senv, &d), 0);
  for (i = 0; senv[i]; i++)
    found |= strcmp(senv[i], "DTK_TEST_VAR=x y") == 0;
  assert_true(found);
  hp__env_free(senv);
  assert_int_equal(hp__write_file(script, "return 3\n", 9, 0), 0);
  assert_int_equal(hp__env_from_script(&loop, script, &senv, &d), HP_EIO);
  assert_null(senv);
  assert_int_equal(d.nerrors, 1);

  hp_diags_free(&d);
  hp__buf_free(&cap);
  hp__env_free(env);
  free(script);
  hp_strv_free(&argv);
  close_loop(&loop);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exit_and_output),     cmocka_unit_test(test_echo_prefix),
      cmocka_unit_test(test_spawn_failure),       cmocka_unit_test(test_echo_long_line_in_pieces),
      cmocka_unit_test(test_timeout_kills_group), cmocka_unit_test(test_env_and_capture),
      cmocka_unit_test(test_dirfd_and_size),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
