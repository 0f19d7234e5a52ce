/*
 * Tests of the JSON reader (lib/util/json/jsonread.c, jsonread_string.c, jsonread_tree.c): round trips
 * through lib/util/json/json.c's writer, escapes, nesting, numbers, and one case per syntax error with
 * the line and column it must name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"
#include "util/json/json.h"
#include "util/json/jsonread.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Parses a NUL-terminated text that must be valid. */
static hp__jv *parse_ok(const char *text)
{
  char err[256];
  hp__jv *v = NULL;
  int rc = hp__jv_parse(text, strlen(text), &v, err, sizeof(err));

  if (rc != 0)
    fail_msg("parsing %s failed: %s", text, err);
  assert_non_null(v);
  return v;
}

/* ---------------------------------------------------------------------------------------------- */
/* Round trips with the writer                                                                      */

static const char weird[] = "quote\" backslash\\ slash/ nl\n tab\t cr\r bell\a del\x7f "
                            "e\xc3\xa9 euro\xe2\x82\xac smile\xf0\x9f\x98\x80";

static void write_doc(hp__json *j)
{
  hp__json_obj_begin(j);
  hp__json_kint(j, "schema", 1);
  hp__json_kstr(j, "name", weird);
  hp__json_knum(j, "tenth", 0.1);
  hp__json_knum(j, "tiny", 1e-300);
  hp__json_knum(j, "huge", -2.5e300);
  hp__json_knum(j, "nan", NAN);
  hp__json_knum(j, "inf", INFINITY);
  hp__json_kint(j, "big", 9007199254740992LL);
  hp__json_kint(j, "neg", -42);
  hp__json_kbool(j, "yes", 1);
  hp__json_kbool(j, "no", 0);
  hp__json_key(j, "nothing");
  hp__json_null(j);
  hp__json_key(j, "empty_arr");
  hp__json_arr_begin(j);
  hp__json_arr_end(j);
  hp__json_key(j, "empty_obj");
  hp__json_obj_begin(j);
  hp__json_obj_end(j);
  hp__json_kstr(j, "", "empty key");
  hp__json_key(j, "passes");
  hp__json_arr_begin(j);
  hp__json_obj_begin(j);
  hp__json_kstr(j, "name", "normal");
  hp__json_key(j, "runs");
  hp__json_arr_begin(j);
  hp__json_num(j, 1.25);
  hp__json_num(j, 1.5);
  hp__json_num(j, NAN);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
  hp__json_obj_begin(j);
  hp__json_kstr(j, "name", "a/b~c");
  hp__json_key(j, "runs");
  hp__json_arr_begin(j);
  hp__json_arr_begin(j);
  hp__json_arr_end(j);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

static void check_doc(const hp__jv *root)
{
  const hp__jv *passes, *p0, *runs;

  assert_int_equal(hp__jv_type_of(root), HP__JV_OBJ);
  assert_int_equal(hp__jv_len(root), 16);
  assert_string_equal(hp__jv_key_at(root, 0), "schema");
  assert_string_equal(hp__jv_key_at(root, 15), "passes");
  assert_true(hp__jv_num(hp__jv_get(root, "schema")) == 1);
  assert_string_equal(hp__jv_str(hp__jv_get(root, "name")), weird);
  assert_true(hp__jv_num(hp__jv_get(root, "tenth")) == 0.1);
  assert_true(hp__jv_num(hp__jv_get(root, "tiny")) == 1e-300);
  assert_true(hp__jv_num(hp__jv_get(root, "huge")) == -2.5e300);
  /* The writer turns NaN and infinities into null, which reads back as NaN. */
  assert_int_equal(hp__jv_type_of(hp__jv_get(root, "nan")), HP__JV_NULL);
  assert_true(isnan(hp__jv_num(hp__jv_get(root, "nan"))));
  assert_true(isnan(hp__jv_num(hp__jv_get(root, "inf"))));
  assert_true(hp__jv_num(hp__jv_get(root, "big")) == 9007199254740992.0);
  assert_true(hp__jv_num(hp__jv_get(root, "neg")) == -42);
  assert_int_equal(hp__jv_bool(hp__jv_get(root, "yes")), 1);
  assert_int_equal(hp__jv_bool(hp__jv_get(root, "no")), 0);
  assert_non_null(hp__jv_get(root, "nothing"));
  assert_int_equal(hp__jv_type_of(hp__jv_get(root, "nothing")), HP__JV_NULL);
  assert_int_equal(hp__jv_type_of(hp__jv_get(root, "empty_arr")), HP__JV_ARR);
  assert_int_equal(hp__jv_len(hp__jv_get(root, "empty_arr")), 0);
  assert_int_equal(hp__jv_type_of(hp__jv_get(root, "empty_obj")), HP__JV_OBJ);
  assert_int_equal(hp__jv_len(hp__jv_get(root, "empty_obj")), 0);
  assert_string_equal(hp__jv_str(hp__jv_get(root, "")), "empty key");

  passes = hp__jv_get(root, "passes");
  assert_int_equal(hp__jv_len(passes), 2);
  p0 = hp__jv_at(passes, 0);
  assert_string_equal(hp__jv_str(hp__jv_get(p0, "name")), "normal");
  runs = hp__jv_get(p0, "runs");
  assert_int_equal(hp__jv_len(runs), 3);
  assert_true(hp__jv_num(hp__jv_at(runs, 0)) == 1.25);
  assert_true(hp__jv_num(hp__jv_at(runs, 1)) == 1.5);
  assert_true(isnan(hp__jv_num(hp__jv_at(runs, 2))));
  assert_null(hp__jv_at(runs, 3));

  /* Paths. */
  assert_ptr_equal(hp__jv_path(root, ""), root);
  assert_ptr_equal(hp__jv_path(root, "passes"), passes);
  assert_ptr_equal(hp__jv_path(root, "/passes/0/runs"), runs);
  assert_true(hp__jv_num(hp__jv_path(root, "passes/0/runs/1")) == 1.5);
  assert_string_equal(hp__jv_str(hp__jv_path(root, "passes/1/name")), "a/b~c");
  assert_int_equal(hp__jv_len(hp__jv_path(root, "passes/1/runs/0")), 0);
  assert_null(hp__jv_path(root, "passes/2"));
  assert_null(hp__jv_path(root, "passes/01")); /* no leading zeros in an index */
  assert_null(hp__jv_path(root, "passes/-1"));
  assert_null(hp__jv_path(root, "passes/x"));
  assert_null(hp__jv_path(root, "schema/0"));
  assert_null(hp__jv_path(root, "missing"));
  assert_null(hp__jv_path(root, NULL));
  assert_ptr_equal(hp__jv_path(root, "/"), root); /* the leading '/' is optional */
}

static void test_roundtrip_writer(void **state)
{
  int pretty;

  (void)state;
  for (pretty = 0; pretty <= 1; pretty++) {
    hp__json j;
    hp__jv *v = NULL;
    char err[128];

    hp__json_init(&j, pretty);
    write_doc(&j);
    assert_int_equal(hp__json_end(&j), 0);
    assert_int_equal(hp__jv_parse(j.out.data, j.out.len, &v, err, sizeof(err)), 0);
    check_doc(v);
    hp__jv_free(v);
    hp__json_free(&j);
  }
}

static void test_roundtrip_numbers(void **state)
{
  hp__json j;
  hp__jv *v = NULL;
  double x[2000];
  size_t i;
  hp_rng r;

  (void)state;
  /* Doubles of every magnitude and sign: the writer's shortest form must read back exactly. */
  hp_rng_seed(&r, 77);
  for (i = 0; i < NELEM(x); i++) {
    uint64_t bits = hp_rng_next(&r);
    memcpy(&x[i], &bits, sizeof(bits));
    if (!isfinite(x[i]))
      x[i] = (double)(int64_t)bits;
  }
  x[0] = DBL_MAX;
  x[1] = -DBL_MIN;
  x[2] = 4.9406564584124654e-324;
  x[3] = 0.0;
  hp__json_init(&j, 0);
  hp__json_arr_begin(&j);
  for (i = 0; i < NELEM(x); i++)
    hp__json_num(&j, x[i]);
  hp__json_arr_end(&j);
  assert_int_equal(hp__json_end(&j), 0);
  assert_int_equal(hp__jv_parse(j.out.data, j.out.len, &v, NULL, 0), 0);
  assert_int_equal(hp__jv_len(v), NELEM(x));
  for (i = 0; i < NELEM(x); i++)
    if (hp__jv_num(hp__jv_at(v, i)) != x[i])
      fail_msg("item %zu: wrote %.17g, read %.17g", i, x[i], hp__jv_num(hp__jv_at(v, i)));
  hp__jv_free(v);
  hp__json_free(&j);
}

/* ---------------------------------------------------------------------------------------------- */
/* Strings and numbers                                                                              */

static void test_escapes(void **state)
{
  static const char text[] =
      "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\", \"a\\u0000b\","
      " \"\xe4\xb8\xad\xe6\x96\x87\", \"\"]";
  hp__jv *v = parse_ok(text);

  (void)state;
  assert_int_equal(hp__jv_len(v), 5);
  assert_string_equal(hp__jv_str(hp__jv_at(v, 0)), "\"\\/\b\f\n\r\t");
  /* A, e-acute (2 bytes), euro (3 bytes), U+1F600 from a surrogate pair (4 bytes). */
  assert_string_equal(hp__jv_str(hp__jv_at(v, 1)), "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  assert_memory_equal(hp__jv_str(hp__jv_at(v, 2)), "a\0b", 4);
  assert_string_equal(hp__jv_str(hp__jv_at(v, 3)), "\xe4\xb8\xad\xe6\x96\x87");
  assert_string_equal(hp__jv_str(hp__jv_at(v, 4)), "");
  hp__jv_free(v);
}

static void test_numbers(void **state)
{
  char text[256];
  hp__jv *v;
  int n;

  (void)state;
  /* The last number, 0.(100 zeros)1 = 1e-101, is longer than the parser's stack buffer. */
  n = snprintf(text, sizeof(text),
               "[0, -0, 1e308, -1.7976931348623157e308, 1e-400, 4.9e-324, "
               "12345678901234567890, 9007199254740993, 1E+2, 2.5e-3, -0.0e0, 0.");
  memset(text + n, '0', 100);
  strcpy(text + n + 100, "1]");
  v = parse_ok(text);
  assert_int_equal(hp__jv_len(v), 12);
  assert_true(hp__jv_num(hp__jv_at(v, 0)) == 0);
  assert_true(hp__jv_num(hp__jv_at(v, 1)) == 0 && signbit(hp__jv_num(hp__jv_at(v, 1))));
  assert_true(hp__jv_num(hp__jv_at(v, 2)) == 1e308);
  assert_true(hp__jv_num(hp__jv_at(v, 3)) == -DBL_MAX);
  assert_true(hp__jv_num(hp__jv_at(v, 4)) == 0); /* underflow reads as 0 */
  assert_true(hp__jv_num(hp__jv_at(v, 5)) > 0);  /* the smallest subnormal */
  assert_true(hp__jv_num(hp__jv_at(v, 6)) == 12345678901234567890.0);
  assert_true(hp__jv_num(hp__jv_at(v, 7)) == 9007199254740992.0); /* nearest double */
  assert_true(hp__jv_num(hp__jv_at(v, 8)) == 100);
  assert_true(hp__jv_num(hp__jv_at(v, 9)) == 2.5e-3);
  assert_true(hp__jv_num(hp__jv_at(v, 10)) == 0);
  assert_true(hp__jv_num(hp__jv_at(v, 11)) == 1e-101); /* longer than the stack buffer */
  /* The text as written, for integers a double cannot hold. */
  assert_string_equal(hp__jv_numtext(hp__jv_at(v, 1)), "-0");
  assert_string_equal(hp__jv_numtext(hp__jv_at(v, 7)), "9007199254740993");
  assert_string_equal(hp__jv_numtext(hp__jv_at(v, 8)), "1E+2");
  assert_int_equal(strlen(hp__jv_numtext(hp__jv_at(v, 11))), 103);
  assert_null(hp__jv_numtext(v));
  assert_null(hp__jv_numtext(NULL));
  hp__jv_free(v);

  /* Top-level scalars and surrounding whitespace. */
  v = parse_ok(" \r\n\t-12.5e1 \n");
  assert_int_equal(hp__jv_type_of(v), HP__JV_NUM);
  assert_true(hp__jv_num(v) == -125);
  assert_string_equal(hp__jv_numtext(v), "-12.5e1");
  hp__jv_free(v);
  v = parse_ok("\xef\xbb\xbf\"bom\"");
  assert_string_equal(hp__jv_str(v), "bom");
  hp__jv_free(v);
}

static void test_locale_decimal_point(void **state)
{
  static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
  const char *set = NULL;
  hp__jv *v;
  size_t i;

  (void)state;
  for (i = 0; i < NELEM(names) && set == NULL; i++)
    set = setlocale(LC_NUMERIC, names[i]);
  if (set == NULL)
    skip(); /* no comma-decimal locale installed here */
  v = parse_ok("[1.5, 2.25e1]");
  setlocale(LC_NUMERIC, "C");
  assert_true(hp__jv_num(hp__jv_at(v, 0)) == 1.5);
  assert_true(hp__jv_num(hp__jv_at(v, 1)) == 22.5);
  hp__jv_free(v);
}

/* ---------------------------------------------------------------------------------------------- */
/* Structure                                                                                        */

static void test_containers(void **state)
{
  hp__jv *v = parse_ok("{\"a\": [], \"b\": {}, \"c\": [[], {}, [[]]], \"d\": [ \n ], "
                       "\"a\": [1]}");
  const hp__jv *c;

  (void)state;
  assert_int_equal(hp__jv_len(v), 5);
  /* A repeated key: the last one wins, and both stay visible by position. */
  assert_int_equal(hp__jv_len(hp__jv_get(v, "a")), 1);
  assert_int_equal(hp__jv_len(hp__jv_at(v, 0)), 0);
  assert_string_equal(hp__jv_key_at(v, 4), "a");
  c = hp__jv_get(v, "c");
  assert_int_equal(hp__jv_len(c), 3);
  assert_int_equal(hp__jv_type_of(hp__jv_at(c, 1)), HP__JV_OBJ);
  assert_int_equal(hp__jv_len(hp__jv_at(hp__jv_at(c, 2), 0)), 0);
  assert_int_equal(hp__jv_len(hp__jv_get(v, "d")), 0);

  /* Accessors on the wrong type or NULL answer "nothing", never crash. */
  assert_null(hp__jv_get(c, "a"));
  assert_null(hp__jv_get(NULL, "a"));
  assert_null(hp__jv_get(v, NULL));
  assert_null(hp__jv_key_at(c, 0));
  assert_null(hp__jv_key_at(v, 5));
  assert_null(hp__jv_str(c));
  assert_true(isnan(hp__jv_num(c)));
  assert_true(isnan(hp__jv_num(NULL)));
  assert_int_equal(hp__jv_bool(c), -1);
  assert_int_equal(hp__jv_len(NULL), 0);
  assert_int_equal(hp__jv_type_of(NULL), HP__JV_NULL);
  assert_null(hp__jv_at(NULL, 0));
  assert_null(hp__jv_path(NULL, "a"));
  hp__jv_free(v);
  hp__jv_free(NULL);
}

static char *nested(size_t depth)
{
  char *s = malloc(2 * depth + 1);
  size_t i;

  assert_non_null(s);
  for (i = 0; i < depth; i++) {
    s[i] = '[';
    s[depth + i] = ']';
  }
  s[2 * depth] = '\0';
  return s;
}

static void test_depth_limit(void **state)
{
  char err[128], *s;
  hp__jv *v = NULL;
  const hp__jv *w;
  size_t i;

  (void)state;
  s = nested(HP__JV_MAX_DEPTH);
  assert_int_equal(hp__jv_parse(s, strlen(s), &v, err, sizeof(err)), 0);
  for (w = v, i = 1; i < HP__JV_MAX_DEPTH; i++)
    w = hp__jv_at(w, 0);
  assert_int_equal(hp__jv_type_of(w), HP__JV_ARR);
  assert_int_equal(hp__jv_len(w), 0);
  hp__jv_free(v);
  free(s);

  s = nested(HP__JV_MAX_DEPTH + 1);
  v = (hp__jv *)1;
  assert_int_equal(hp__jv_parse(s, strlen(s), &v, err, sizeof(err)), HP_EPARSE);
  assert_null(v);
  assert_string_equal(err, "1:257: nesting deeper than 256 levels");
  free(s);

  /* Far deeper than the limit must fail the same way, not overflow the stack. */
  s = nested(100000);
  assert_int_equal(hp__jv_parse(s, strlen(s), &v, err, sizeof(err)), HP_EPARSE);
  assert_string_equal(err, "1:257: nesting deeper than 256 levels");
  free(s);
}

/* ---------------------------------------------------------------------------------------------- */
/* Errors                                                                                           */

typedef struct bad_case {
  const char *text;
  size_t len;        /* 0: strlen(text) */
  const char *where; /* "line:col" */
  const char *says;  /* a part of the message */
} bad_case;

static const bad_case bad[] = {
    {"", 0, "1:1", "unexpected end of input, expected a value"},
    {"   \n  ", 0, "2:3", "expected a value"},
    {"[1, 2", 0, "1:6", "end of input, expected ',' or ']'"},
    {"{\"a\": 1", 0, "1:8", "expected ',' or '}'"},
    {"{\"a\":", 0, "1:6", "expected a value"},
    {"\"abc", 0, "1:5", "unterminated string"},
    {"\"abc\\", 0, "1:6", "unterminated string"},
    {"[1,]", 0, "1:4", "trailing comma before ']'"},
    {"{\"a\": 1,}", 0, "1:9", "trailing comma before '}'"},
    {"{\n  \"a\": [1,\n    2,\n  ]\n}", 0, "4:3", "trailing comma"},
    {"[1,,2]", 0, "1:4", "unexpected ',', expected a value"},
    {"\"a\\x\"", 0, "1:3", "invalid escape: backslash followed by 'x'"},
    {"\"a\\'\"", 0, "1:3", "invalid escape"},
    {"\"\\u12G4\"", 0, "1:2", "expected 4 hex digits"},
    {"\"\\u12\"", 0, "1:2", "expected 4 hex digits"},
    {"\"x\\ud83d\"", 0, "1:3", "high surrogate \\ud83d without a low one"},
    {"\"\\ud83d\\u0041\"", 0, "1:2", "without a low one"},
    {"\"\\ude00\"", 0, "1:2", "unpaired low surrogate"},
    {"[01]", 0, "1:2", "leading zeros"},
    {"-01", 0, "1:1", "leading zeros"},
    {"[-]", 0, "1:3", "expected a digit after '-'"},
    {"[1.]", 0, "1:4", "expected a digit after the decimal point"},
    {"[.5]", 0, "1:2", "unexpected '.', expected a value"},
    {"[1e]", 0, "1:4", "expected a digit in the exponent"},
    {"[1e+]", 0, "1:5", "expected a digit in the exponent"},
    {"+1", 0, "1:1", "unexpected '+'"},
    {"1e400", 0, "1:1", "number out of range"},
    {"[-1e999]", 0, "1:2", "number out of range"},
    {"NaN", 0, "1:1", "unexpected 'N'"},
    {"[Infinity]", 0, "1:2", "unexpected 'I'"},
    {"'a'", 0, "1:1", "unexpected '''"},
    {"\"a\tb\"", 0, "1:3", "control character 0x09 in a string"},
    {"\"a\nb\"", 0, "1:3", "control character 0x0a"},
    {"{\n\t\"k\": tru\n}", 0, "2:7", "invalid literal (expected true)"},
    {"nul", 0, "1:1", "expected null"},
    {"[1 2]", 0, "1:4", "unexpected '2', expected ',' or ']'"},
    {"{\"a\" 1}", 0, "1:6", "expected ':' after a key"},
    {"{1: 2}", 0, "1:2", "unexpected '1', expected a string key"},
    {"{\"a\": 1,, }", 0, "1:9", "expected a string key"},
    {"[1] x", 0, "1:5", "expected end of input after the value"},
    {"{} {}", 0, "1:4", "after the value"},
    {"[1]\0", 4, "1:4", "unexpected byte 0x00"},
    {"[\"\xc0\xaf\"]", 0, "1:3", "invalid UTF-8 byte 0xc0"},   /* overlong '/' */
    {"\"\xed\xa0\x80\"", 0, "1:2", "invalid UTF-8 byte 0xed"}, /* an encoded surrogate */
    {"\"\xf4\x90\x80\x80\"", 0, "1:2", "invalid UTF-8"},       /* above U+10FFFF */
    {"\"ab\xe2\x82\"", 0, "1:4", "invalid UTF-8"},             /* cut short */
    {"\"\x80\"", 0, "1:2", "invalid UTF-8 byte 0x80"},
    {"\xef\xbb", 0, "1:1", "unexpected byte 0xef"},
};

static void test_syntax_errors(void **state)
{
  char err[256], want[64];
  hp__jv *v;
  size_t i, len;
  int rc;

  (void)state;
  for (i = 0; i < NELEM(bad); i++) {
    len = bad[i].len ? bad[i].len : strlen(bad[i].text);
    v = (hp__jv *)1;
    memset(err, 'x', sizeof(err));
    rc = hp__jv_parse(bad[i].text, len, &v, err, sizeof(err));
    if (rc != HP_EPARSE)
      fail_msg("case %zu (%s): rc %d, want HP_EPARSE", i, bad[i].text, rc);
    assert_null(v);
    snprintf(want, sizeof(want), "%s: ", bad[i].where);
    if (strncmp(err, want, strlen(want)) != 0 || strstr(err, bad[i].says) == NULL)
      fail_msg("case %zu (%s): got \"%s\", want \"%s...%s\"", i, bad[i].text, err, want,
               bad[i].says);
  }
}

static void test_error_buffer(void **state)
{
  char small[6];
  hp__jv *v = NULL;

  (void)state;
  /* A short buffer keeps a NUL-terminated prefix. */
  assert_int_equal(hp__jv_parse("[1,]", 4, &v, small, sizeof(small)), HP_EPARSE);
  assert_string_equal(small, "1:4: ");
  /* No buffer at all is fine. */
  assert_int_equal(hp__jv_parse("[1,]", 4, &v, NULL, 0), HP_EPARSE);
  assert_null(v);
  /* Only len bytes are read: the text need not be NUL-terminated. */
  assert_int_equal(hp__jv_parse("[1]garbage", 3, &v, NULL, 0), 0);
  assert_int_equal(hp__jv_len(v), 1);
  hp__jv_free(v);
  assert_int_equal(hp__jv_parse(NULL, 0, &v, small, sizeof(small)), HP_EINVAL);
  assert_int_equal(hp__jv_parse("1", 1, NULL, NULL, 0), HP_EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip_writer),
      cmocka_unit_test(test_roundtrip_numbers),
      cmocka_unit_test(test_escapes),
      cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_locale_decimal_point),
      cmocka_unit_test(test_containers),
      cmocka_unit_test(test_depth_limit),
      cmocka_unit_test(test_syntax_errors),
      cmocka_unit_test(test_error_buffer),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
