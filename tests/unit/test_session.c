/*
 * Tests for lib/session/folder.c: where a session folder goes and how it is named. A session
 * folder must never be reused, so two sessions started in the same second get distinct folders.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hprun.h"
#include "session/session.h"

static char tmp[64];

static int setup(void **state)
{
  char *real;

  (void)state;
  strcpy(tmp, "/tmp/hprun-test-session-XXXXXX");
  if (mkdtemp(tmp) == NULL)
    return -1;
  /* Expected paths are resolved ones, whatever /tmp is a link to. */
  if ((real = realpath(tmp, NULL)) == NULL || strlen(real) >= sizeof(tmp))
    return -1;
  strcpy(tmp, real);
  free(real);
  return 0;
}

static int teardown(void **state)
{
  char cmd[128];

  (void)state;
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
  return system(cmd) == 0 ? 0 : -1;
}

static void assert_matches(const char *s, const char *pattern)
{
  regex_t re;
  int r;

  assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
  r = regexec(&re, s, 0, NULL, 0);
  regfree(&re);
  if (r != 0)
    fail_msg("'%s' does not match /%s/", s, pattern);
}

static int is_dir(const char *p)
{
  struct stat st;

  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The parent is created; later sessions of the same second get -2, -3. */
static void dir_make_never_reuses(void **state)
{
  char parent[128], pattern[192], want[256];
  char *a = NULL, *b = NULL, *c = NULL;
  int tries;

  (void)state;
  snprintf(parent, sizeof(parent), "%s/out/deeper", tmp);
  snprintf(pattern, sizeof(pattern), "^%s/va-[0-9]{8}-[0-9]{6}$", parent);
  for (tries = 0; tries < 3; tries++) {
    assert_int_equal(hp__session_dir_make(parent, "va", &a), 0);
    assert_int_equal(hp__session_dir_make(parent, "va", &b), 0);
    assert_int_equal(hp__session_dir_make(parent, "va", &c), 0);
    assert_matches(a, pattern);
    assert_true(is_dir(a) && is_dir(b) && is_dir(c));
    assert_string_not_equal(a, b);
    assert_string_not_equal(b, c);
    /* All three in the same second: the suffixes are certain. Else try again. */
    if (strncmp(a, c, strlen(a)) == 0)
      break;
    free(a);
    free(b);
    free(c);
    a = b = c = NULL;
  }
  assert_non_null(a);
  snprintf(want, sizeof(want), "%s-2", a);
  assert_string_equal(b, want);
  snprintf(want, sizeof(want), "%s-3", a);
  assert_string_equal(c, want);
  free(a);
  free(b);
  free(c);
}

/* --output is relative to where hprun started; the plan's `output` to the plan's folder. */
static void parent_folder(void **state)
{
  hp_run_opts opts;
  hp_plan *plan = NULL;
  hp_diags d;
  char want[320], cwd[256], *p;
  const char *text = "app: {command: ./app}\nmetrics: [m]\npasses: [normal]\n";

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load_string("t.yaml", tmp, text, strlen(text), &plan, &d), 0);
  hp_diags_free(&d);
  memset(&opts, 0, sizeof(opts));
  p = hp__session_parent(plan, &opts);
  snprintf(want, sizeof(want), "%s/hprun-out", tmp);
  assert_string_equal(p, want);
  free(p);

  assert_non_null(getcwd(cwd, sizeof(cwd)));
  opts.output = "no-such-folder/x";
  p = hp__session_parent(plan, &opts);
  snprintf(want, sizeof(want), "%s/no-such-folder/x", cwd);
  assert_string_equal(p, want);
  free(p);

  /* An existing folder is recorded without `..`. */
  snprintf(want, sizeof(want), "%s/a", tmp);
  assert_int_equal(mkdir(want, 0755), 0);
  snprintf(cwd, sizeof(cwd), "%s/a/../a", tmp);
  opts.output = cwd;
  p = hp__session_parent(plan, &opts);
  assert_string_equal(p, want);
  free(p);
  hp_plan_free(plan);
}

static void now_iso_format(void **state)
{
  char *t = hp__session_now_iso();

  (void)state;
  assert_non_null(t);
  assert_matches(t, "^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$");
  free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(dir_make_never_reuses, setup, teardown),
      cmocka_unit_test_setup_teardown(parent_folder, setup, teardown),
      cmocka_unit_test(now_iso_format),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
