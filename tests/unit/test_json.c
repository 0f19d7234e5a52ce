/*
 * Tests for lib/util/json/json.c, the streaming JSON writer: whole documents compared with literal
 * text, compact and pretty, plus string escaping, numbers (NaN and infinities as null, the shortest
 * form that reads back exactly) and the sticky errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"
#include "util/json/json.h"

/* The same document for the compact and the pretty test. */
static void write_doc(hp__json *j)
{
  hp__json_obj_begin(j);
  hp__json_kstr(j, "name", "a\"b\\c");
  hp__json_knum(j, "x", 1.5);
  hp__json_kint(j, "n", -3);
  hp__json_kbool(j, "ok", 1);
  hp__json_kbool(j, "no", 0);
  hp__json_kstr(j, "none", NULL);
  hp__json_key(j, "list");
  hp__json_arr_begin(j);
  hp__json_num(j, 1);
  hp__json_null(j);
  hp__json_arr_begin(j);
  hp__json_arr_end(j);
  hp__json_obj_begin(j);
  hp__json_obj_end(j);
  hp__json_obj_begin(j);
  hp__json_kint(j, "deep", 2);
  hp__json_obj_end(j);
  hp__json_arr_end(j);
  hp__json_key(j, "empty");
  hp__json_obj_begin(j);
  hp__json_obj_end(j);
  hp__json_obj_end(j);
}

static void test_compact(void **state)
{
  hp__json j;

  (void)state;
  hp__json_init(&j, 0);
  write_doc(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data,
                      "{\"name\":\"a\\\"b\\\\c\",\"x\":1.5,\"n\":-3,\"ok\":true,"
                      "\"no\":false,\"none\":null,"
                      "\"list\":[1,null,[],{},{\"deep\":2}],\"empty\":{}}");
  hp__json_free(&j);
}

static void test_pretty(void **state)
{
  hp__json j;

  (void)state;
  hp__json_init(&j, 1);
  write_doc(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data,
                      "{\n"
                      "  \"name\": \"a\\\"b\\\\c\",\n"
                      "  \"x\": 1.5,\n"
                      "  \"n\": -3,\n"
                      "  \"ok\": true,\n"
                      "  \"no\": false,\n"
                      "  \"none\": null,\n"
                      "  \"list\": [\n"
                      "    1,\n"
                      "    null,\n"
                      "    [],\n"
                      "    {},\n"
                      "    {\n"
                      "      \"deep\": 2\n"
                      "    }\n"
                      "  ],\n"
                      "  \"empty\": {}\n"
                      "}\n");
  hp__json_free(&j);
}

/* One string value written compactly. */
static void check_str(const char *s, size_t n, const char *want)
{
  hp__json j;

  hp__json_init(&j, 0);
  hp__json_strn(&j, s, n);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data, want);
  hp__json_free(&j);
}

static void test_string_escapes(void **state)
{
  (void)state;
  check_str("", 0, "\"\"");
  check_str("say \"hi\"", 8, "\"say \\\"hi\\\"\"");
  check_str("C:\\dir\\", 7, "\"C:\\\\dir\\\\\"");
  check_str("a\nb\rc\td", 7, "\"a\\nb\\rc\\td\"");
  /* Other control characters, and DEL, as \u00XX in lowercase hex (\b and \f included). */
  check_str("\x01\x08\x0c\x1f\x7f", 5, "\"\\u0001\\u0008\\u000c\\u001f\\u007f\"");
  check_str("a\0b", 3, "\"a\\u0000b\""); /* a NUL inside the given length */
  /* UTF-8 and '/' pass through unchanged. */
  check_str("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 a/b", 18,
            "\"caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 a/b\"");
  /* Past the first eight bytes (the writer tests a word at a time): in the second word, in the
   * tail after whole words, as a word's last byte, and none in a long name. */
  check_str("void k<16>(\"x\")", 15, "\"void k<16>(\\\"x\\\")\"");
  check_str("0123456789abcdefg\n", 18, "\"0123456789abcdefg\\n\"");
  check_str("0123456\x7f", 8, "\"0123456\\u007f\"");
  check_str("0123456789abcdef\\", 17, "\"0123456789abcdef\\\\\"");
  check_str("void at::native::vectorized_elementwise_kernel<4>", 49,
            "\"void at::native::vectorized_elementwise_kernel<4>\"");
}

static void test_key_escapes(void **state)
{
  hp__json j;

  (void)state;
  hp__json_init(&j, 0);
  hp__json_obj_begin(&j);
  hp__json_kint(&j, "q\"\n\x02", 1);
  hp__json_obj_end(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data, "{\"q\\\"\\n\\u0002\":1}");
  hp__json_free(&j);
}

static void test_numbers(void **state)
{
  hp__json j;

  (void)state;
  hp__json_init(&j, 0);
  hp__json_arr_begin(&j);
  hp__json_num(&j, NAN);
  hp__json_num(&j, INFINITY);
  hp__json_num(&j, -INFINITY);
  hp__json_num(&j, 0.1);
  hp__json_num(&j, 100);
  hp__json_num(&j, -0.0);
  hp__json_num(&j, 1e300);
  hp__json_num(&j, 2.5e-7);
  hp__json_num(&j, 1.0 / 3.0); /* needs 17 digits to read back exactly */
  hp__json_num(&j, 0.1 + 0.2);
  hp__json_int(&j, LLONG_MIN);
  hp__json_int(&j, LLONG_MAX);
  hp__json_int(&j, 0);
  /* The edges of the writer's own paths (whole numbers, util/num/dtoa.c's range) and printf's. */
  hp__json_num(&j, 999999999999999.0);
  hp__json_num(&j, 1e15);
  hp__json_num(&j, -42.0);
  hp__json_num(&j, 0.0001);
  hp__json_num(&j, 0.00001);
  hp__json_num(&j, -1234.5);
  hp__json_arr_end(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data,
                      "[null,null,null,0.1,100,-0,1e+300,2.5e-07,0.33333333333333331,"
                      "0.30000000000000004,-9223372036854775808,"
                      "9223372036854775807,0,999999999999999,1e+15,-42,0.0001,1e-05,-1234.5]");
  hp__json_free(&j);
}

static void test_top_level_scalar(void **state)
{
  hp__json j;

  (void)state;
  hp__json_init(&j, 1);
  hp__json_str(&j, "only");
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data, "\"only\"\n");
  hp__json_free(&j);
}

static void test_errors_are_sticky(void **state)
{
  hp__json j;
  int i;

  (void)state;
  /* A container left open. */
  hp__json_init(&j, 0);
  hp__json_arr_begin(&j);
  assert_int_equal(hp__json_end(&j), HP_EINVAL);
  hp__json_free(&j);
  /* A close without an open; later writes do not clear it. */
  hp__json_init(&j, 0);
  hp__json_obj_end(&j);
  hp__json_obj_begin(&j);
  hp__json_obj_end(&j);
  assert_int_equal(hp__json_end(&j), HP_EINVAL);
  hp__json_free(&j);
  /* 63 levels fit; the 64th is refused. */
  hp__json_init(&j, 0);
  for (i = 0; i < 63; i++)
    hp__json_arr_begin(&j);
  for (i = 0; i < 63; i++)
    hp__json_arr_end(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_int_equal(j.out.len, 126);
  hp__json_free(&j);
  hp__json_init(&j, 0);
  for (i = 0; i < 64; i++)
    hp__json_arr_begin(&j);
  assert_int_equal(hp__json_end(&j), HP_ERANGE);
  hp__json_free(&j);
  hp__json_free(NULL);
}

/* A sink gets the same text as the buffer would hold, written in pieces: a document of several
 * hundred KB (more than one piece) and a small one (one piece, at the end). A sink that refuses
 * the bytes gives HP_EIO. */
static void test_sink(void **state)
{
  size_t sizes[] = {20000, 3}, k, i, len;
  char *text;
  FILE *fp;

  (void)state;
  for (k = 0; k < 2; k++) {
    hp__json a, b;
    hp__json_init(&a, 1);
    hp__json_init(&b, 1);
    fp = open_memstream(&text, &len);
    assert_non_null(fp);
    b.sink = fp;
    for (i = 0; i < 2; i++) {
      hp__json *j = i ? &b : &a;
      size_t n;
      hp__json_arr_begin(j);
      for (n = 0; n < sizes[k]; n++) {
        hp__json_obj_begin(j);
        hp__json_kstr(j, "kernel", "void at::native::vectorized_elementwise_kernel<4>");
        hp__json_knum(j, "avg", (double)n / 7.0);
        hp__json_obj_end(j);
      }
      hp__json_arr_end(j);
      assert_int_equal(hp__json_end(j), 0);
    }
    assert_int_equal(fclose(fp), 0);
    assert_true(b.out.len < 70000); /* never the whole document */
    assert_int_equal(len, a.out.len);
    assert_memory_equal(text, a.out.data, len);
    free(text);
    hp__json_free(&a);
    hp__json_free(&b);
  }
  {
    hp__json j;
    size_t n;
    hp__json_init(&j, 0);
    fp = fopen("/dev/full", "w");
    assert_non_null(fp);
    j.sink = fp;
    hp__json_arr_begin(&j);
    for (n = 0; n < 20000; n++)
      hp__json_str(&j, "0123456789");
    hp__json_arr_end(&j);
    assert_int_equal(hp__json_end(&j), HP_EIO);
    fclose(fp);
    hp__json_free(&j);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compact),           cmocka_unit_test(test_pretty),
      cmocka_unit_test(test_string_escapes),    cmocka_unit_test(test_key_escapes),
      cmocka_unit_test(test_numbers),           cmocka_unit_test(test_top_level_scalar),
      cmocka_unit_test(test_errors_are_sticky), cmocka_unit_test(test_sink),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
