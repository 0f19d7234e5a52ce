/*
 * Tests for lib/util/base/words.c: sh-style word splitting without a shell, and durations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hprun.h"

/* Splits `s` and checks the words against the NULL-terminated list that follows. */
static void check_split(const char *s, ...)
{
  hp_strv v = {NULL, 0, 0};
  const char *want;
  size_t i = 0;
  va_list ap;

  assert_int_equal(hp_split_words(s, &v), 0);
  assert_non_null(v.v);
  va_start(ap, s);
  while ((want = va_arg(ap, const char *)) != NULL) {
    if (i >= v.n)
      fail_msg("split of [%s]: only %zu words, wanted more (next: [%s])", s, v.n, want);
    if (strcmp(v.v[i], want) != 0)
      fail_msg("split of [%s]: word %zu is [%s], wanted [%s]", s, i, v.v[i], want);
    i++;
  }
  va_end(ap);
  if (i != v.n)
    fail_msg("split of [%s]: %zu words, wanted %zu (extra: [%s])", s, v.n, i, v.v[i]);
  assert_null(v.v[v.n]); /* NULL-terminated, usable as an argv */
  hp_strv_free(&v);
}

static void check_split_fails(const char *s)
{
  hp_strv v = {(char **)1, 99, 0};

  assert_int_equal(hp_split_words(s, &v), HP_EPARSE);
  /* Nothing is left for the caller to free. */
  assert_null(v.v);
  assert_int_equal(v.n, 0);
  hp_strv_free(&v);
}

static void test_blanks(void **state)
{
  (void)state;
  check_split("./app --n 100", "./app", "--n", "100", NULL);
  check_split("  a\t\tb \n c  ", "a", "b", "c", NULL);
  check_split("a\r\nb", "a", "b", NULL);
  check_split("single", "single", NULL);
}

static void test_empty_input(void **state)
{
  (void)state;
  check_split("", NULL);
  check_split(" \t\n ", NULL);
}

static void test_single_quotes(void **state)
{
  (void)state;
  check_split("echo 'a b'  'c'", "echo", "a b", "c", NULL);
  /* Nothing is special inside single quotes, not even a backslash or a double quote. */
  check_split("'a\\b \"c\" $X'", "a\\b \"c\" $X", NULL);
  check_split("'tab\there'", "tab\there", NULL);
}

static void test_double_quotes(void **state)
{
  (void)state;
  check_split("\"a b\" c", "a b", "c", NULL);
  /* The four escapes POSIX keeps inside double quotes. */
  check_split("\"q\\\" bs\\\\ d\\$ t\\`\"", "q\" bs\\ d$ t`", NULL);
  /* Any other backslash stays. */
  check_split("\"a\\nb\\x\"", "a\\nb\\x", NULL);
  /* Backslash-newline disappears inside double quotes too. */
  check_split("\"ab\\\ncd\"", "abcd", NULL);
  check_split("\"it's\"", "it's", NULL);
}

static void test_backslash_unquoted(void **state)
{
  (void)state;
  check_split("a\\ b c", "a b", "c", NULL);
  check_split("\\'x\\\"", "'x\"", NULL);
  check_split("a\\\nb", "ab", NULL);
  check_split("\\\\", "\\", NULL);
  /* A trailing backslash stays, as in bash and dash. */
  check_split("end\\", "end\\", NULL);
}

static void test_empty_words(void **state)
{
  (void)state;
  check_split("''", "", NULL);
  check_split("\"\"", "", NULL);
  check_split("a '' b", "a", "", "b", NULL);
  check_split("--opt= ''\"\"", "--opt=", "", NULL);
}

static void test_concatenation(void **state)
{
  (void)state;
  check_split("a'b c'\"d e\"f g", "ab cd ef", "g", NULL);
  check_split("--name='x y'", "--name=x y", NULL);
}

static void test_no_shell(void **state)
{
  (void)state;
  /* No expansions and no operators: every one of these characters is literal. */
  check_split("echo $HOME ~ *.c a|b ; c&&d > out # hash", "echo", "$HOME", "~", "*.c", "a|b", ";",
              "c&&d", ">", "out", "#", "hash", NULL);
  check_split("$(ls) `x`", "$(ls)", "`x`", NULL);
}

static void test_unterminated(void **state)
{
  (void)state;
  check_split_fails("'abc");
  check_split_fails("a \"b c");
  check_split_fails("\"ends with backslash\\");
  check_split_fails("\"escaped quote\\\"");
  check_split_fails("ok 'then broken");
}

static void test_bad_args(void **state)
{
  hp_strv v = {NULL, 0, 0};

  (void)state;
  assert_int_equal(hp_split_words(NULL, &v), HP_EINVAL);
  assert_null(v.v);
  assert_int_equal(hp_split_words("a", NULL), HP_EINVAL);
}

static void check_duration(const char *s, double want)
{
  double got = -42;

  if (hp_parse_duration(s, &got) != 0)
    fail_msg("duration [%s] was refused", s);
  if (fabs(got - want) > 1e-9 * (1 + fabs(want)))
    fail_msg("duration [%s] = %g, wanted %g", s, got, want);
}

static void check_duration_fails(const char *s, int err)
{
  double got = -42;

  if (hp_parse_duration(s, &got) != err)
    fail_msg("duration [%s]: wanted error %d (%s)", s, err, hp_strerror(err));
  assert_true(got == -42); /* untouched on failure */
}

static void test_durations(void **state)
{
  (void)state;
  check_duration("90", 90);
  check_duration("90s", 90);
  check_duration("1.5m", 90);
  check_duration("500ms", 0.5);
  check_duration("2h", 7200);
  check_duration("0", 0);
  check_duration(".25", 0.25);
  check_duration("+3s", 3);
  check_duration("1e3ms", 1);
  check_duration(" 2 ms ", 0.002);
}

static void test_duration_errors(void **state)
{
  (void)state;
  check_duration_fails("", HP_EINVAL);
  check_duration_fails("  ", HP_EINVAL);
  check_duration_fails("soon", HP_EINVAL);
  check_duration_fails("5x", HP_EINVAL);
  check_duration_fails("5 sec", HP_EINVAL);
  check_duration_fails("5mss", HP_EINVAL);
  check_duration_fails("1.5.3", HP_EINVAL);
  check_duration_fails("s", HP_EINVAL);
  check_duration_fails("inf", HP_EINVAL);
  check_duration_fails("nan", HP_EINVAL);
  check_duration_fails("0x10", HP_EINVAL);
  check_duration_fails("-1", HP_ERANGE);
  check_duration_fails("-5s", HP_ERANGE);
  check_duration_fails("-x", HP_EINVAL);
  check_duration_fails("1e999", HP_ERANGE);
  check_duration_fails("1e307h", HP_ERANGE);
  check_duration_fails(NULL, HP_EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_blanks),
      cmocka_unit_test(test_empty_input),
      cmocka_unit_test(test_single_quotes),
      cmocka_unit_test(test_double_quotes),
      cmocka_unit_test(test_backslash_unquoted),
      cmocka_unit_test(test_empty_words),
      cmocka_unit_test(test_concatenation),
      cmocka_unit_test(test_no_shell),
      cmocka_unit_test(test_unterminated),
      cmocka_unit_test(test_bad_args),
      cmocka_unit_test(test_durations),
      cmocka_unit_test(test_duration_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
