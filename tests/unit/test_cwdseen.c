/*
 * Tests for lib/session/cwdseen.c and runfiles.c, what the session does around one run: the app's
 * folder's listing is kept only while its stamp proves no name came or went (never for a folder
 * changed within the last seconds, so a change in the same clock tick cannot hide), and the files
 * a run left are listed from its folder's descriptor in alphasort order, without hprun's own
 * files, sub-folders recursively and links not followed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hprun.h"
#include "session/session.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

static void touch(const char *dir, const char *name)
{
  char path[512];
  FILE *f;

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  assert_non_null(f = fopen(path, "w"));
  fclose(f);
}

static int has(const hp_strv *v, const char *name)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    if (strcmp(v->v[i], name) == 0)
      return 1;
  return 0;
}

static void test_seen(void **state)
{
  char dir[] = "/tmp/hprun-cwdseen-XXXXXX", path[256];
  hp__cwd_seen s;

  (void)state;
  memset(&s, 0, sizeof(s));
  assert_non_null(mkdtemp(dir));
  touch(dir, "a");
  /* Just changed: listed, but not trusted (a change in the same tick could keep its times). */
  assert_int_equal(hp__cwd_seen_update(&s, dir), 0);
  assert_int_equal(s.names.n, 1);
  assert_true(has(&s.names, "a"));
  assert_false(s.valid);
  assert_false(hp__cwd_seen_same(&s, dir));
  /* Three seconds later the times are old enough: the listing holds for the stamp (/tmp is a
   * local file system here: ext4 or tmpfs). */
  sleep(3);
  assert_int_equal(hp__cwd_seen_update(&s, dir), 0);
  assert_true(s.valid);
  assert_true(hp__cwd_seen_same(&s, dir));
  /* A new name at once (the same clock tick as the look) changes the stamp; so does a removal. */
  touch(dir, "b");
  assert_false(hp__cwd_seen_same(&s, dir));
  assert_int_equal(hp__cwd_seen_update(&s, dir), 0);
  assert_int_equal(s.names.n, 2);
  assert_true(has(&s.names, "b"));
  assert_false(s.valid); /* changed just now */
  /* Writing into an existing file adds no name and leaves the folder's stamp alone. */
  snprintf(path, sizeof(path), "%s/a", dir);
  sleep(3);
  assert_int_equal(hp__cwd_seen_update(&s, dir), 0);
  assert_true(s.valid);
  {
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("more", f);
    fclose(f);
  }
  assert_true(hp__cwd_seen_same(&s, dir));
  assert_int_equal(unlink(path), 0);
  assert_false(hp__cwd_seen_same(&s, dir));
  snprintf(path, sizeof(path), "%s/b", dir);
  assert_int_equal(unlink(path), 0);
  hp__cwd_seen_free(&s);
  assert_int_equal(s.names.n, 0);
  assert_int_equal(rmdir(dir), 0);
  /* A folder that is not there lists as empty, as hp__cwd_list does. */
  assert_int_equal(hp__cwd_seen_update(&s, dir), 0);
  assert_int_equal(s.names.n, 0);
  assert_false(s.valid);
  hp__cwd_seen_free(&s);
}

static void test_run_files(void **state)
{
  char dir[] = "/tmp/hprun-runfiles-XXXXXX", path[256];
  hp_strv v = {NULL, 0, 0};
  static const char *const want[] = {"B.txt", "a.txt", "link", "sub/deeper/z.csv"};
  size_t i;
  int dfd;

  (void)state;
  assert_non_null(mkdtemp(dir));
  touch(dir, "stdout.txt");
  touch(dir, "stderr.txt");
  touch(dir, "hprun-memory.txt");
  touch(dir, "a.txt");
  touch(dir, "B.txt");
  snprintf(path, sizeof(path), "%s/sub/deeper", dir);
  assert_int_equal(hp__mkdirs(path, 0755), 0);
  touch(path, "z.csv");
  snprintf(path, sizeof(path), "%s/sub", dir);
  touch(path, "y");
  touch(path, "stdout.txt"); /* only the top level's are hprun's own */
  snprintf(path, sizeof(path), "%s/link", dir);
  assert_int_equal(symlink("/etc", path), 0); /* a link to a folder is a name, not followed */
  assert_int_equal(hp__dir_open(dir, &dfd), 0);
  assert_int_equal(hp__run_files(dfd, dir, &v), 0);
  close(dfd);
  /* alphasort (strcoll) order in the C locale: capitals first; a sub-folder at its place. */
  assert_int_equal(v.n, 6);
  for (i = 0; i < 4; i++)
    assert_string_equal(v.v[i], want[i]);
  assert_string_equal(v.v[4], "sub/stdout.txt");
  assert_string_equal(v.v[5], "sub/y");
  hp_strv_free(&v);
  /* An empty run folder (a run that left nothing) gives nothing. */
  assert_int_equal(hp__dir_open(dir, &dfd), 0);
  snprintf(path, sizeof(path), "rm -rf %s", dir);
  assert_int_equal(system(path), 0);
  assert_int_equal(hp__run_files(dfd, dir, &v), 0);
  assert_int_equal(v.n, 0);
  close(dfd);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seen),
      cmocka_unit_test(test_run_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
