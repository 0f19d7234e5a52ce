/*
 * Tests for lib/session/aftermath.c: which names a run added to the app's folder (only new names,
 * never one that was there before), the listing of a real folder, the hint chosen for a failed
 * run, and what counts as a failed first run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hprun.h"
#include "session/session.h"
#include "util/base/strv.h"

static hp_strv strv_of(const char *const *names)
{
  hp_strv v = {NULL, 0, 0};

  for (; *names; names++)
    assert_int_equal(hp__strv_push(&v, *names), 0);
  return v;
}

static void new_names_only_added(void **state)
{
  static const char *const b[] = {"app.py", "data", "plan.yaml", NULL};
  static const char *const a[] = {"app.py", "data", "out.csv", "plan.yaml", "z.log", NULL};
  hp_strv before = strv_of(b), after = strv_of(a), out = {NULL, 0, 0};

  (void)state;
  assert_int_equal(hp__cwd_new_names(&before, &after, &out), 0);
  assert_int_equal(out.n, 2);
  assert_string_equal(out.v[0], "out.csv");
  assert_string_equal(out.v[1], "z.log");
  hp_strv_free(&out);
  /* A file the run deleted is not new; nothing appeared. */
  assert_int_equal(hp__cwd_new_names(&after, &before, &out), 0);
  assert_int_equal(out.n, 0);
  hp_strv_free(&out);
  hp_strv_free(&before);
  hp_strv_free(&after);
}

static void list_real_folder(void **state)
{
  char dir[] = "/tmp/hprun-aftermath-XXXXXX", path[128];
  hp_strv v = {NULL, 0, 0};
  FILE *f;

  (void)state;
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/b.txt", dir);
  assert_non_null(f = fopen(path, "w"));
  fclose(f);
  snprintf(path, sizeof(path), "%s/a", dir);
  assert_int_equal(mkdir(path, 0755), 0);
  assert_int_equal(hp__cwd_list(dir, &v), 0);
  assert_int_equal(v.n, 2);
  assert_string_equal(v.v[0], "a");
  assert_string_equal(v.v[1], "b.txt");
  hp_strv_free(&v);
  rmdir(path);
  snprintf(path, sizeof(path), "%s/b.txt", dir);
  unlink(path);
  rmdir(dir);
  /* A folder that cannot be read lists as empty. */
  assert_int_equal(hp__cwd_list("/nonexistent/hprun", &v), 0);
  assert_int_equal(v.n, 0);
}

static void hint_chooser(void **state)
{
  (void)state;
  assert_non_null(strstr(hp__failure_hint("python3: can't open file 'x.py': [Errno 2]", 0, 0),
                         "relative to app.cwd"));
  assert_non_null(
      strstr(hp__failure_hint("data/x.bin: No such file or directory", 0, 1), "app.workdir: run"));
  assert_non_null(strstr(hp__failure_hint("No such file or directory", 1, 0), "timeout"));
  assert_non_null(strstr(hp__failure_hint("segmentation fault", 0, 0), "by hand"));
  assert_non_null(strstr(hp__failure_hint(NULL, 0, 0), "by hand"));
}

static void what_fails(void **state)
{
  hp_run r;

  (void)state;
  memset(&r, 0, sizeof(r));
  assert_false(hp__run_failed(&r)); /* exit 0, even without a metric */
  r.exit_status = 1;
  assert_true(hp__run_failed(&r));
  r.exit_status = 0;
  r.term_signal = 9;
  assert_true(hp__run_failed(&r));
  r.term_signal = 0;
  r.timed_out = 1;
  assert_true(hp__run_failed(&r));
  r.timed_out = 0;
  r.error = "could not start";
  assert_true(hp__run_failed(&r));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(new_names_only_added),
      cmocka_unit_test(list_real_folder),
      cmocka_unit_test(hint_chooser),
      cmocka_unit_test(what_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
