/*
 * Tests for lib/util/base/buf.c: the growable NUL-terminated buffer and the allocation helpers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/base/buf.h"

static void test_appends(void **state)
{
  hp__buf b = HP__BUF_INIT;

  (void)state;
  assert_null(b.data);
  assert_int_equal(hp__buf_add(&b, "ab", 2), 0);
  assert_int_equal(hp__buf_adds(&b, "cd"), 0);
  assert_int_equal(hp__buf_addc(&b, 'e'), 0);
  assert_int_equal(hp__buf_add(&b, "xyz", 0), 0); /* nothing, but still fine */
  assert_int_equal(b.len, 5);
  assert_string_equal(b.data, "abcde");
  assert_true(b.cap > b.len); /* room for the NUL */
  /* Bytes may include NULs; len counts them and the text stays terminated after them. */
  assert_int_equal(hp__buf_add(&b, "f\0g", 3), 0);
  assert_int_equal(b.len, 8);
  assert_memory_equal(b.data, "abcdef\0g", 9);
  hp__buf_reset(&b);
  assert_int_equal(b.len, 0);
  assert_string_equal(b.data, "");
  assert_int_equal(hp__buf_adds(&b, "again"), 0);
  assert_string_equal(b.data, "again");
  hp__buf_free(&b);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.cap, 0);
}

static void test_printf_grows(void **state)
{
  hp__buf b = HP__BUF_INIT;
  char want[2100];
  size_t i;

  (void)state;
  assert_int_equal(hp__buf_printf(&b, "%d-%s", 42, "x"), 0);
  assert_string_equal(b.data, "42-x");
  /* Far past the first allocation, in one call and then in many small ones. */
  memset(want, 'z', 1000);
  want[1000] = '\0';
  assert_int_equal(hp__buf_printf(&b, "[%s]", want), 0);
  assert_int_equal(b.len, 4 + 1002);
  assert_int_equal(b.data[4], '[');
  assert_int_equal(b.data[1005], ']');
  assert_int_equal(b.data[1006], '\0');
  assert_int_equal(strspn(b.data + 5, "z"), 1000);
  hp__buf_reset(&b);
  for (i = 0; i < 700; i++)
    assert_int_equal(hp__buf_printf(&b, "%03zu", i), 0);
  assert_int_equal(b.len, 2100);
  assert_memory_equal(b.data, "000001002", 9);
  assert_string_equal(b.data + 2097, "699");
  hp__buf_free(&b);
}

static void test_steal(void **state)
{
  hp__buf b = HP__BUF_INIT;
  char *s;

  (void)state;
  /* Leave a dirty block of the size the buffer asks for first, so that a steal that forgot to
   * write the NUL would likely be handed garbage (and ASan fills new blocks with garbage anyway). */
  s = malloc(64);
  assert_non_null(s);
  memset(s, 'X', 64);
  free(s);
  /* Nothing appended: still a string, and an empty one. */
  s = hp__buf_steal(&b);
  assert_non_null(s);
  assert_string_equal(s, "");
  free(s);
  assert_null(b.data);
  /* Appended and reset: also "". */
  assert_int_equal(hp__buf_adds(&b, "gone"), 0);
  hp__buf_reset(&b);
  s = hp__buf_steal(&b);
  assert_string_equal(s, "");
  free(s);
  /* The text moves to the caller and the buffer is empty and reusable. */
  assert_int_equal(hp__buf_adds(&b, "kept"), 0);
  s = hp__buf_steal(&b);
  assert_string_equal(s, "kept");
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.cap, 0);
  assert_int_equal(hp__buf_adds(&b, "new"), 0);
  assert_string_equal(b.data, "new");
  assert_string_equal(s, "kept");
  free(s);
  hp__buf_free(&b);
}

static void test_free_accepts_null_and_empty(void **state)
{
  hp__buf b = HP__BUF_INIT;

  (void)state;
  hp__buf_free(NULL);
  hp__buf_free(&b);
  hp__buf_free(&b);
  assert_null(b.data);
  hp__buf_reset(&b); /* an empty buffer can be reset too */
  assert_null(b.data);
  assert_int_equal(b.len, 0);
}

static void test_strdup_family(void **state)
{
  char *s;

  (void)state;
  s = hp__strdup("text");
  assert_string_equal(s, "text");
  free(s);
  s = hp__strdup("");
  assert_string_equal(s, "");
  free(s);
  assert_null(hp__strdup(NULL));
  s = hp__strndup("abcdef", 3);
  assert_string_equal(s, "abc");
  free(s);
  s = hp__strndup("a\0b", 3); /* copies exactly n bytes, NULs too, and terminates */
  assert_memory_equal(s, "a\0b", 4);
  free(s);
  s = hp__strndup("xyz", 0);
  assert_string_equal(s, "");
  free(s);
  s = hp__asprintf("%s=%d;%.2f", "n", -7, 1.5);
  assert_string_equal(s, "n=-7;1.50");
  free(s);
  s = hp__asprintf("%s", "");
  assert_string_equal(s, "");
  free(s);
  s = hp__asprintf("%0300d", 5);
  assert_int_equal(strlen(s), 300);
  assert_int_equal(s[299], '5');
  assert_int_equal(strspn(s, "0"), 299);
  free(s);
}

/* The first failed append sticks: later appends do nothing and return it, the text stays what it
 * was, steal refuses the incomplete text, and reset starts afresh. A request for more than half the
 * address space fails before any byte of `p` is read, so it stands in for a failed malloc. */
static void test_error_sticks(void **state)
{
  hp__buf b = HP__BUF_INIT;
  static const char p[1] = {'x'};

  (void)state;
  assert_int_equal(hp__buf_error(&b), 0);
  assert_int_equal(hp__buf_adds(&b, "kept"), 0);
  assert_int_equal(hp__buf_add(&b, p, (size_t)-1 / 2), HP_ENOMEM);
  assert_int_equal(hp__buf_error(&b), HP_ENOMEM);
  assert_int_equal(hp__buf_adds(&b, "lost"), HP_ENOMEM);
  assert_int_equal(hp__buf_addc(&b, 'c'), HP_ENOMEM);
  assert_int_equal(hp__buf_printf(&b, "%d", 7), HP_ENOMEM);
  assert_int_equal(hp__buf_reserve(&b, 1), HP_ENOMEM);
  assert_string_equal(b.data, "kept");
  assert_int_equal(b.len, 4);
  assert_null(hp__buf_steal(&b)); /* frees the incomplete text and clears the error */
  assert_null(b.data);
  assert_int_equal(hp__buf_error(&b), 0);
  assert_int_equal(hp__buf_add(&b, p, (size_t)-1 / 2), HP_ENOMEM);
  hp__buf_reset(&b);
  assert_int_equal(hp__buf_error(&b), 0);
  assert_int_equal(hp__buf_adds(&b, "again"), 0);
  assert_string_equal(b.data, "again");
  hp__buf_free(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_appends),       cmocka_unit_test(test_printf_grows),
      cmocka_unit_test(test_steal),         cmocka_unit_test(test_free_accepts_null_and_empty),
      cmocka_unit_test(test_strdup_family), cmocka_unit_test(test_error_sticks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
