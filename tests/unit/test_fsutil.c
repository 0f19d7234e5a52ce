/*
 * Tests for lib/util/fsutil.c: whole-file writes and reads, mkdir -p, path joining and the PATH
 * lookup. Everything happens in a fresh temporary folder that the group teardown removes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hprun.h"
#include "util/buf.h"
#include "util/fsutil.h"

static char tmpdir[256];

/* A path inside the temporary folder, in a static buffer (one at a time is enough here). */
static const char *at(const char *name)
{
  static char path[512];

  snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
  return path;
}

static int make_tmpdir(void **state)
{
  const char *base = getenv("TMPDIR");

  (void)state;
  snprintf(tmpdir, sizeof(tmpdir), "%s/hprun-test-fsutil-XXXXXX", base && *base ? base : "/tmp");
  return mkdtemp(tmpdir) ? 0 : -1;
}

/* Removes the folder and what the tests left in it (files and folders, depth-first). */
static void remove_tree(const char *path)
{
  struct stat st;
  DIR *d;
  struct dirent *e;
  char sub[1024];

  if (lstat(path, &st) != 0)
    return;
  if (!S_ISDIR(st.st_mode)) {
    unlink(path);
    return;
  }
  d = opendir(path);
  while (d && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  if (d)
    closedir(d);
  rmdir(path);
}

static int remove_tmpdir(void **state)
{
  (void)state;
  remove_tree(tmpdir);
  return 0;
}

/* How many entries (besides . and ..) the temporary folder holds. */
static int count_entries(void)
{
  DIR *d = opendir(tmpdir);
  struct dirent *e;
  int n = 0;

  assert_non_null(d);
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

static void test_write_then_read(void **state)
{
  static const char data[] = "line one\nline two\0after a NUL\n";
  char *got = NULL;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__write_file(at("w.txt"), data, sizeof(data) - 1, 1), 0);
  assert_int_equal(hp__read_file(at("w.txt"), &got, &len), 0);
  assert_int_equal(len, sizeof(data) - 1);
  assert_memory_equal(got, data, sizeof(data) - 1);
  assert_int_equal(got[len], '\0'); /* NUL-terminated for text callers */
  free(got);
  /* No temporary file is left next to it. */
  assert_int_equal(count_entries(), 1);
  /* len may be NULL. */
  assert_int_equal(hp__read_file(at("w.txt"), &got, NULL), 0);
  assert_string_equal(got, "line one\nline two");
  free(got);
  remove_tree(at("w.txt"));
}

static void test_exclusive_refuses_existing(void **state)
{
  char *got = NULL;

  (void)state;
  assert_int_equal(hp__write_file(at("x.txt"), "first", 5, 1), 0);
  assert_int_equal(hp__write_file(at("x.txt"), "second", 6, 1), HP_EEXIST);
  assert_int_equal(hp__read_file(at("x.txt"), &got, NULL), 0);
  assert_string_equal(got, "first"); /* untouched */
  free(got);
  assert_int_equal(count_entries(), 1);
  /* Without `exclusive` the file is replaced. */
  assert_int_equal(hp__write_file(at("x.txt"), "third", 5, 0), 0);
  assert_int_equal(hp__read_file(at("x.txt"), &got, NULL), 0);
  assert_string_equal(got, "third");
  free(got);
  assert_int_equal(count_entries(), 1);
  remove_tree(at("x.txt"));
}

static void test_empty_file(void **state)
{
  char *got = NULL;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__write_file(at("empty"), "", 0, 1), 0);
  assert_int_equal(hp__read_file(at("empty"), &got, &len), 0);
  assert_int_equal(len, 0);
  assert_non_null(got);
  assert_string_equal(got, "");
  free(got);
  remove_tree(at("empty"));
}

static void test_read_errors(void **state)
{
  char *got = (char *)1;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__read_file(at("missing"), &got, &len), HP_ENOENT);
  assert_null(got);
  assert_int_equal(len, 0);
  assert_int_equal(hp__read_file(at("missing/below"), &got, NULL), HP_ENOENT);
  /* A folder opens but cannot be read. */
  assert_int_equal(hp__read_file(tmpdir, &got, NULL), HP_EIO);
  assert_null(got);
  /* Writing into a folder that does not exist. */
  assert_int_equal(hp__write_file(at("nodir/f"), "x", 1, 0), HP_ENOENT);
  assert_int_equal(count_entries(), 0);
}

static void test_mkdirs(void **state)
{
  struct stat st;
  char *p;

  (void)state;
  assert_int_equal(hp__mkdirs(at("a/b/c/d"), 0755), 0);
  assert_int_equal(stat(at("a/b/c/d"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  /* Existing folders are fine, whole or in part, with or without a trailing slash. */
  assert_int_equal(hp__mkdirs(at("a/b/c/d"), 0755), 0);
  assert_int_equal(hp__mkdirs(at("a/b/e/"), 0755), 0);
  assert_int_equal(stat(at("a/b/e"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  /* A file in the way of a folder to create. */
  assert_int_equal(hp__write_file(at("a/file"), "x", 1, 1), 0);
  assert_int_equal(hp__mkdirs(at("a/file/sub"), 0755), HP_ENOENT);
  /* A relative path. */
  p = getcwd(NULL, 0);
  assert_non_null(p);
  assert_int_equal(chdir(tmpdir), 0);
  assert_int_equal(hp__mkdirs("rel/one", 0755), 0);
  assert_int_equal(chdir(p), 0);
  free(p);
  assert_int_equal(stat(at("rel/one"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  remove_tree(at("a"));
  remove_tree(at("rel"));
}

static void check_join(const char *a, const char *b, const char *want)
{
  char *s = hp__path_join(a, b);

  assert_non_null(s);
  assert_string_equal(s, want);
  free(s);
}

static void test_path_join(void **state)
{
  (void)state;
  check_join("out", "summary.json", "out/summary.json");
  check_join("out/", "summary.json", "out/summary.json");
  check_join("/abs/dir", "f", "/abs/dir/f");
  check_join("/", "f", "/f");
  check_join("out", "/etc/f", "/etc/f"); /* an absolute second part wins */
  check_join("", "f", "f");
  check_join("a/b", "c/d", "a/b/c/d");
}

static void test_which(void **state)
{
  char *path = NULL, *old, *dirs;

  (void)state;
  assert_int_equal(hp__which("sh", &path), 0);
  assert_non_null(path);
  assert_int_equal(path[0], '/');
  assert_string_equal(path + strlen(path) - 3, "/sh");
  assert_int_equal(access(path, X_OK), 0);
  free(path);
  path = (char *)1;
  assert_int_equal(hp__which("hprun-no-such-program-7f3a", &path), HP_ENOENT);
  assert_null(path);
  /* A name with a slash is taken as a path, not looked up. */
  assert_int_equal(hp__which("/bin/sh", &path), 0);
  assert_string_equal(path, "/bin/sh");
  free(path);
  assert_int_equal(hp__which(at("nothing-here"), &path), HP_ENOENT);

  /* Only executable regular files count, in PATH order. */
  old = hp__strdup(getenv("PATH"));
  assert_int_equal(hp__mkdirs(at("bin1/tool"), 0755), 0); /* a folder named like the program */
  assert_int_equal(hp__mkdirs(at("bin2"), 0755), 0);
  assert_int_equal(hp__write_file(at("bin2/tool"), "#!/bin/sh\n", 10, 1), 0); /* not executable */
  assert_int_equal(hp__mkdirs(at("bin3"), 0755), 0);
  assert_int_equal(hp__write_file(at("bin3/tool"), "#!/bin/sh\n", 10, 1), 0);
  assert_int_equal(chmod(at("bin3/tool"), 0755), 0);
  dirs = hp__asprintf("%s/bin1:%s/bin2:%s/bin3", tmpdir, tmpdir, tmpdir);
  assert_non_null(dirs);
  assert_int_equal(setenv("PATH", dirs, 1), 0);
  free(dirs);
  assert_int_equal(hp__which("tool", &path), 0);
  assert_string_equal(path, at("bin3/tool"));
  free(path);
  assert_int_equal(hp__which("sh", &path), HP_ENOENT);
  if (old)
    setenv("PATH", old, 1);
  else
    unsetenv("PATH");
  free(old);
  remove_tree(at("bin1"));
  remove_tree(at("bin2"));
  remove_tree(at("bin3"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_write_then_read), cmocka_unit_test(test_exclusive_refuses_existing),
      cmocka_unit_test(test_empty_file),      cmocka_unit_test(test_read_errors),
      cmocka_unit_test(test_mkdirs),          cmocka_unit_test(test_path_join),
      cmocka_unit_test(test_which),
  };
  return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
