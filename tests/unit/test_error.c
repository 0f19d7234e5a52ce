/*
 * Tests for lib/util/base/error.c: the text of every error code, and the diagnostics list (what it
 * keeps, what it drops past its limit, and the exact `file:line:col: level: message` lines it
 * prints).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"

static void test_strerror_every_code(void **state)
{
  static const int codes[] = {HP_OK,     HP_ENOMEM,  HP_EINVAL,  HP_EPLAN,  HP_EIO,
                              HP_ENOENT, HP_EEXIST,  HP_EPARSE,  HP_ESPAWN, HP_EINTR,
                              HP_ERANGE, HP_ENOTSUP, HP_EFORMAT, HP_ERUN};
  const size_t n = sizeof(codes) / sizeof(codes[0]);
  const char *unknown = hp_strerror(-1000);
  size_t i, k;

  (void)state;
  /* The codes are 0 down to -13 without a gap, so this list is all of them. */
  for (i = 0; i < n; i++)
    assert_int_equal(codes[i], -(int)i);
  assert_non_null(unknown);
  assert_string_equal(unknown, "unknown error");
  assert_string_equal(hp_strerror(1), "unknown error");
  assert_string_equal(hp_strerror(HP_ERUN - 1), "unknown error");
  for (i = 0; i < n; i++) {
    const char *s = hp_strerror(codes[i]);
    assert_non_null(s);
    assert_true(strlen(s) > 0);
    assert_string_not_equal(s, unknown);
    for (k = 0; k < i; k++)
      if (strcmp(s, hp_strerror(codes[k])) == 0)
        fail_msg("codes %d and %d share the text \"%s\"", codes[k], codes[i], s);
  }
  assert_string_equal(hp_strerror(HP_OK), "success");
  assert_string_equal(hp_strerror(HP_ENOENT), "no such file or program");
}

/* What hp_diags_print writes, as a malloc'd string. */
static char *printed(const hp_diags *d)
{
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);

  assert_non_null(fp);
  hp_diags_print(d, fp);
  assert_int_equal(fclose(fp), 0);
  assert_non_null(text);
  return text;
}

static void test_print_format(void **state)
{
  hp_diags d;
  char file[] = "plan.yaml", *text;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_diags_add(&d, HP_DIAG_ERROR, file, 3, 7, "unknown key `%s`", "pases"), 0);
  file[0] = 'X'; /* the list keeps its own copy of the name */
  assert_int_equal(hp_diags_add(&d, HP_DIAG_WARNING, "a.csv", 12, 0, "%d fields", 5), 0);
  assert_int_equal(hp_diags_add(&d, HP_DIAG_NOTE, "a.csv", 0, 0, "no header"), 0);
  assert_int_equal(hp_diags_add(&d, HP_DIAG_ERROR, NULL, 0, 0, "no plan given"), 0);
  /* A column without a line means nothing and is left out. */
  assert_int_equal(hp_diags_add(&d, HP_DIAG_WARNING, "b.json", 0, 9, "odd"), 0);
  assert_int_equal(hp_diags_add(&d, HP_DIAG_NOTE, NULL, 4, 2, "%s", "100% literal"), 0);
  assert_int_equal(d.count, 6);
  assert_int_equal(d.nerrors, 2);
  assert_int_equal(d.dropped, 0);
  text = printed(&d);
  assert_string_equal(text,
                      "plan.yaml:3:7: error: unknown key `pases`\n"
                      "a.csv:12: warning: 5 fields\n"
                      "a.csv: note: no header\n"
                      "error: no plan given\n"
                      "b.json: warning: odd\n"
                      "note: 100% literal\n");
  free(text);
  /* The list keeps file order and its fields. */
  assert_int_equal(d.head->level, HP_DIAG_ERROR);
  assert_int_equal(d.head->line, 3);
  assert_int_equal(d.head->col, 7);
  assert_string_equal(d.head->msg, "unknown key `pases`");
  assert_string_equal(d.tail->msg, "100% literal");
  assert_null(d.tail->next);
  hp_diags_free(&d);
  assert_null(d.head);
  assert_int_equal(d.count, 0);
  text = printed(&d);
  assert_string_equal(text, "");
  free(text);
}

static void test_limit_drops_and_counts(void **state)
{
  hp_diags d;
  char *text;
  int i;

  (void)state;
  hp_diags_init(&d);
  d.limit = 2;
  for (i = 1; i <= 5; i++)
    assert_int_equal(hp_diags_add(&d, i % 2 ? HP_DIAG_ERROR : HP_DIAG_WARNING, "f", i, 1, "m%d", i),
                     0);
  assert_int_equal(d.count, 2);
  assert_int_equal(d.dropped, 3);
  assert_int_equal(d.nerrors, 3); /* errors count whether kept or not */
  text = printed(&d);
  assert_string_equal(text,
                      "f:1:1: error: m1\n"
                      "f:2:1: warning: m2\n"
                      "hprun: note: 3 more messages not shown\n");
  free(text);
  hp_diags_free(&d);
  assert_int_equal(d.dropped, 0);
  assert_int_equal(d.nerrors, 0);
}

static void test_null_list(void **state)
{
  (void)state;
  /* Adding to no list is allowed (callers pass NULL when they do not collect messages). */
  assert_int_equal(hp_diags_add(NULL, HP_DIAG_ERROR, "f", 1, 1, "lost"), 0);
  hp_diags_free(NULL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strerror_every_code),
      cmocka_unit_test(test_print_format),
      cmocka_unit_test(test_limit_drops_and_counts),
      cmocka_unit_test(test_null_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
