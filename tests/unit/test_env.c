/*
 * Children's environments (lib/exec/env.c): hp__env_build keeps the base in order, drops the
 * entries a K=V replaces, and appends the K=V entries in their own order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "exec/runner.h"

extern char **environ;

static size_t count(char **env)
{
  size_t n = 0;

  while (env[n])
    n++;
  return n;
}

static void test_replace_and_add(void **state)
{
  char *base[] = {"A=1", "B=2", "C=3", NULL};
  hp_kv set[] = {{"B", "x y"}, {"D", "4"}};
  char **env = hp__env_build(base, set, 2);

  (void)state;
  assert_non_null(env);
  /* B leaves its place in the base; both K=V entries come after the base, in the given order. */
  assert_int_equal(count(env), 4);
  assert_string_equal(env[0], "A=1");
  assert_string_equal(env[1], "C=3");
  assert_string_equal(env[2], "B=x y");
  assert_string_equal(env[3], "D=4");
  assert_null(env[4]);
  /* The base is copied, not taken. */
  assert_string_equal(base[1], "B=2");
  hp__env_free(env);
}

static void test_whole_key_match(void **state)
{
  /* "A" replaces "A=..." and only that: not a longer key that starts with it, nor a shorter one
   * it starts with, and an entry without '=' counts as a whole key. */
  char *base[] = {"AB=1", "A=2", "=3", "A", "ABC=", NULL};
  hp_kv set[] = {{"A", ""}};
  char **env = hp__env_build(base, set, 1);

  (void)state;
  assert_non_null(env);
  assert_int_equal(count(env), 4);
  assert_string_equal(env[0], "AB=1");
  assert_string_equal(env[1], "=3");
  assert_string_equal(env[2], "ABC=");
  assert_string_equal(env[3], "A=");
  hp__env_free(env);
}

static void test_empty_set_copies(void **state)
{
  char *base[] = {"X=1", "Y=2", NULL};
  char *empty[] = {NULL};
  char **env = hp__env_build(base, NULL, 0), **none = hp__env_build(empty, NULL, 0);

  (void)state;
  assert_non_null(env);
  assert_int_equal(count(env), 2);
  assert_string_equal(env[0], "X=1");
  assert_string_equal(env[1], "Y=2");
  assert_ptr_not_equal(env[0], base[0]);
  assert_non_null(none);
  assert_null(none[0]);
  hp__env_free(env);
  hp__env_free(none);
  hp__env_free(NULL);
}

static void test_default_base_is_environ(void **state)
{
  hp_kv set[] = {{"HPRUN_TEST_ENV", "new"}};
  char **env;
  size_t i, n, hits = 0;

  (void)state;
  assert_int_equal(setenv("HPRUN_TEST_ENV", "old", 1), 0);
  n = count(environ);
  env = hp__env_build(NULL, set, 1);
  assert_non_null(env);
  /* Replacing an existing variable neither adds nor loses an entry. */
  assert_int_equal(count(env), n);
  for (i = 0; env[i]; i++) {
    assert_string_not_equal(env[i], "HPRUN_TEST_ENV=old");
    hits += strcmp(env[i], "HPRUN_TEST_ENV=new") == 0;
  }
  assert_int_equal(hits, 1);
  assert_string_equal(env[n - 1], "HPRUN_TEST_ENV=new");
  hp__env_free(env);
  unsetenv("HPRUN_TEST_ENV");
}

/* hp__env_overlay gives hp__env_build's entries in its order, the base's strings themselves
 * (not copies) and the set's in the same block, which one free() releases. */
static void test_overlay(void **state)
{
  char *base[] = {"AB=1", "A=2", "=3", "A", "ABC=", "B=old", NULL};
  hp_kv set[] = {{"A", ""}, {"B", "new value"}, {"HPRUN_RUN", "17"}};
  char **built = hp__env_build(base, set, 3), **over = hp__env_overlay(base, set, 3);
  size_t i;

  (void)state;
  assert_non_null(built);
  assert_non_null(over);
  assert_int_equal(count(over), count(built));
  assert_int_equal(count(over), 6);
  for (i = 0; built[i]; i++)
    assert_string_equal(over[i], built[i]);
  assert_ptr_equal(over[0], base[0]); /* borrowed */
  assert_ptr_equal(over[2], base[4]);
  assert_string_equal(over[4], "B=new value");
  assert_string_equal(over[5], "HPRUN_RUN=17");
  hp__env_free(built);
  free(over);
  /* NULL base: hprun's own environment, with the entries added. */
  over = hp__env_overlay(NULL, set + 2, 1);
  assert_non_null(over);
  assert_string_equal(over[count(over) - 1], "HPRUN_RUN=17");
  free(over);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_replace_and_add),         cmocka_unit_test(test_overlay),
      cmocka_unit_test(test_whole_key_match),         cmocka_unit_test(test_empty_set_copies),
      cmocka_unit_test(test_default_base_is_environ),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
