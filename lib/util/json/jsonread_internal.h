/*
 * The JSON reader's insides, shared by its files and by nothing else, lowest first:
 * jsonread_error.c (error messages), jsonread_tree.c (freeing and reading a tree),
 * jsonread_string.c (strings: escapes and UTF-8) and jsonread.c (the grammar: values, containers,
 * numbers), all in lib/util/json/. Other modules
 * include "util/json/jsonread.h", where hp__jv stays opaque.
 *
 * A node owns its children, keys and string bytes; hp__jv_free releases them. A parser owns
 * nothing: it points into the caller's text and error buffer.
 */
#ifndef HPRUN_UTIL_JSONREAD_INTERNAL_H
#define HPRUN_UTIL_JSONREAD_INTERNAL_H

#include "hprun.h"
#include "util/json/jsonread.h"

#include <stddef.h>

struct hp__jv {
  hp__jv_type type;
  union {
    int b;
    struct {
      double v;
      char *text; /* the number as the file wrote it, NUL-terminated: hp__jv_numtext */
    } num;
    struct {
      char *s; /* NUL-terminated; may hold decoded NULs before len */
      size_t len;
    } str;
    struct {
      hp__jv **items;
      char **keys; /* objects only: keys[i] names items[i]; NULL for arrays */
      size_t n;
    } c;
  } u;
};

/* Where a parse stands: the text, the read position, the nesting depth and where errors go. */
typedef struct hp__jv_parser {
  const char *start;
  const char *p;
  const char *end;
  int depth;
  char *err;
  size_t errlen;
} hp__jv_parser;

/* jsonread_error.c: writes "line:col: message" for the byte at `at` and returns `code`. Line and
 * column are found by rescanning from the start: that costs nothing on the good path, where no
 * error is written. */
int hp__jv_fail_at(hp__jv_parser *ps, int code, const char *at, const char *fmt, ...)
    HP_PRINTF(4, 5);
/* Describes the byte at `at` for a message: 'x' when printable, else its hex value (written into
 * tmp, n bytes), or "end of input". */
const char *hp__jv_describe(const char *at, const char *end, char *tmp, size_t n);

/* Parses the string at ps->p (the opening quote) and moves ps->p past its closing quote. On
 * success *s is a new NUL-terminated string of *len bytes (the caller frees it). On failure *s is
 * NULL and the error is described as hp__jv_fail_at does. */
int hp__jv_parse_string(hp__jv_parser *ps, char **s, size_t *len);

#endif /* HPRUN_UTIL_JSONREAD_INTERNAL_H */
