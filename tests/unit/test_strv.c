/*
 * Tests for lib/util/base/strv.c: argument vectors, and the shell quoting of hp__strv_shell_join,
 * checked two ways: against literal lines, and by splitting the joined line again with
 * hp_split_words (lib/util/base/words.c, the plan's sh-style word splitter), which must give back the
 * very same words.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "hprun.h"
#include "util/base/strv.h"

/* Builds a vector from a NULL-terminated list of strings. */
static hp_strv make(const char *first, ...)
{
  hp_strv v = {NULL, 0, 0};
  const char *s;
  va_list ap;

  va_start(ap, first);
  for (s = first; s; s = va_arg(ap, const char *))
    assert_int_equal(hp__strv_push(&v, s), 0);
  va_end(ap);
  return v;
}

static void assert_same(const hp_strv *a, const hp_strv *b)
{
  size_t i;

  assert_int_equal(a->n, b->n);
  for (i = 0; i < a->n; i++)
    assert_string_equal(a->v[i], b->v[i]);
}

static void test_push_copies(void **state)
{
  hp_strv v = {NULL, 0, 0};
  char word[] = "first";

  (void)state;
  assert_int_equal(hp__strv_push(&v, word), 0);
  word[0] = 'X'; /* the vector holds its own copy */
  assert_int_equal(hp__strv_push(&v, ""), 0);
  assert_int_equal(v.n, 2);
  assert_string_equal(v.v[0], "first");
  assert_ptr_not_equal(v.v[0], word);
  assert_string_equal(v.v[1], "");
  assert_null(v.v[2]); /* NULL-terminated, usable as an argv */
  hp_strv_free(&v);
  assert_null(v.v);
  assert_int_equal(v.n, 0);
  hp_strv_free(&v); /* an emptied vector may be freed again */
  hp_strv_free(NULL);
}

static void test_push_own(void **state)
{
  hp_strv v = {NULL, 0, 0};
  char *s = malloc(4);

  (void)state;
  assert_non_null(s);
  memcpy(s, "own", 4);
  assert_int_equal(hp__strv_push_own(&v, s), 0);
  assert_ptr_equal(v.v[0], s); /* taken, not copied */
  /* NULL stands for a failed allocation upstream (hp__strv_push_own(v, hp__strdup(x))). */
  assert_int_equal(hp__strv_push_own(&v, NULL), HP_ENOMEM);
  assert_int_equal(v.n, 1);
  assert_null(v.v[1]);
  hp_strv_free(&v);
}

static void test_copy_and_append(void **state)
{
  hp_strv a = make("a", "b c", NULL), b = make("d", NULL), c = {NULL, 0, 0};
  hp_strv want = make("d", "a", "b c", NULL), none = {NULL, 0, 0};

  (void)state;
  assert_int_equal(hp__strv_copy(&c, &a), 0);
  assert_same(&c, &a);
  assert_ptr_not_equal(c.v[0], a.v[0]); /* deep copy */
  assert_null(c.v[c.n]);
  assert_int_equal(hp__strv_append(&b, &a), 0);
  assert_same(&b, &want);
  assert_null(b.v[b.n]);
  assert_int_equal(hp__strv_append(&b, &none), 0); /* appending nothing changes nothing */
  assert_same(&b, &want);
  hp_strv_free(&c);
  assert_int_equal(hp__strv_copy(&c, &none), 0);
  assert_int_equal(c.n, 0);
  hp_strv_free(&a);
  hp_strv_free(&b);
  hp_strv_free(&c);
  hp_strv_free(&want);
}

/* The first failed push sticks: push_own of NULL (what it gets when the caller's allocation
 * failed) sets the error, later pushes do nothing and return it (push_own freeing the string it was
 * to take, which ASan checks), and hp_strv_free clears it. */
static void test_error_sticks(void **state)
{
  hp_strv v = make("a", NULL), w = make("x", "y", NULL);

  (void)state;
  assert_int_equal(hp__strv_error(&v), 0);
  assert_int_equal(hp__strv_push_own(&v, NULL), HP_ENOMEM);
  assert_int_equal(hp__strv_error(&v), HP_ENOMEM);
  assert_int_equal(hp__strv_push(&v, "b"), HP_ENOMEM);
  assert_int_equal(hp__strv_push_own(&v, strdup("c")), HP_ENOMEM);
  assert_int_equal(hp__strv_append(&v, &w), HP_ENOMEM);
  assert_int_equal(v.n, 1);
  assert_string_equal(v.v[0], "a");
  assert_null(v.v[1]);
  hp_strv_free(&v);
  assert_int_equal(hp__strv_error(&v), 0);
  assert_int_equal(hp__strv_push(&v, "again"), 0);
  assert_int_equal(v.n, 1);
  hp_strv_free(&v);
  hp_strv_free(&w);
}

static void check_join(const hp_strv *v, const char *want)
{
  char *s = hp__strv_shell_join(v);

  assert_non_null(s);
  assert_string_equal(s, want);
  free(s);
}

static void test_join_literals(void **state)
{
  hp_strv v;

  (void)state;
  v = make("./app", "--n=100", "a/b.c,d:e@f%g+h", NULL);
  check_join(&v, "./app --n=100 a/b.c,d:e@f%g+h"); /* nothing needs quotes */
  hp_strv_free(&v);
  v = make("a b", "", "it's", "$HOME", NULL);
  check_join(&v, "'a b' '' 'it'\\''s' '$HOME'");
  hp_strv_free(&v);
  v = make(NULL);
  check_join(&v, "");
  hp_strv_free(&v);
}

/* split(join(v)) == v. */
static void check_round_trip(const hp_strv *v)
{
  hp_strv back = {NULL, 0, 0};
  char *line = hp__strv_shell_join(v);

  assert_non_null(line);
  if (hp_split_words(line, &back) != 0)
    fail_msg("the joined line [%s] does not split", line);
  assert_same(&back, v);
  hp_strv_free(&back);
  free(line);
}

static void test_join_round_trips(void **state)
{
  hp_strv v;

  (void)state;
  v = make("plain", "two words", "", "''", "\"", "'", "it's \"quoted\"", NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make("back\\slash", "\\", "trailing\\", "\\'", "\\\"", "\\n", NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make("$HOME", "${X:-y}", "`id`", "$(id)", "a;b|c&d", "<in", ">out", "*", "?", "~", "#c",
           NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make("line\nbreak", "\n", "tab\there", "cr\r\n", " lead", "trail ", "  ", NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make("caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80", "'\xc3\xa9'", NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make("", "", "", NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
  v = make(NULL);
  check_round_trip(&v);
  hp_strv_free(&v);
}

/* Every single byte from 1 to 255, alone and between letters, survives the round trip. */
static void test_join_round_trips_every_byte(void **state)
{
  hp_strv v = {NULL, 0, 0};
  char one[2], mid[4];
  int c;

  (void)state;
  for (c = 1; c < 256; c++) {
    one[0] = (char)c;
    one[1] = '\0';
    mid[0] = 'a';
    mid[1] = (char)c;
    mid[2] = 'b';
    mid[3] = '\0';
    assert_int_equal(hp__strv_push(&v, one), 0);
    assert_int_equal(hp__strv_push(&v, mid), 0);
  }
  check_round_trip(&v);
  hp_strv_free(&v);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_push_copies),
      cmocka_unit_test(test_push_own),
      cmocka_unit_test(test_error_sticks),
      cmocka_unit_test(test_copy_and_append),
      cmocka_unit_test(test_join_literals),
      cmocka_unit_test(test_join_round_trips),
      cmocka_unit_test(test_join_round_trips_every_byte),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
