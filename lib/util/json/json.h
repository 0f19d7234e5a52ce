/*
 * A streaming JSON writer with indentation (lib/util/json/json.c). The writer owns its output
 * buffer until hp__json_free; errors are sticky, so callers check hp__json_end once at the end.
 */
#ifndef HPRUN_UTIL_JSON_H
#define HPRUN_UTIL_JSON_H

#include "util/base/buf.h"

#include <stdio.h>

typedef struct hp__json {
  hp__buf out;
  int depth;
  int first[64]; /* per depth: no member written yet */
  int pretty;
  int after_key; /* a key was written; its value comes next */
  int err;       /* first error, 0 if none */
  /* NULL: the whole text stays in `out`. Else the caller's stream, which the text is written to
   * in pieces of about 64 KB as it grows (and the rest by hp__json_end), so that a large document
   * never sits in memory whole; `out` then holds only the piece not yet written. After an error
   * the stream may hold a part of the document: the caller reports the error. */
  FILE *sink;
} hp__json;

void hp__json_init(hp__json *j, int pretty);
void hp__json_obj_begin(hp__json *j); /* as a value (top level or array item) */
void hp__json_obj_end(hp__json *j);
void hp__json_arr_begin(hp__json *j);
void hp__json_arr_end(hp__json *j);
void hp__json_key(hp__json *j, const char *key); /* inside an object, before its value */
void hp__json_str(hp__json *j, const char *s);   /* NULL writes null */
void hp__json_strn(hp__json *j, const char *s, size_t n);
void hp__json_num(hp__json *j, double v); /* NaN and infinities write null */
void hp__json_int(hp__json *j, long long v);
void hp__json_uint(hp__json *j, unsigned long long v); /* the full 64-bit range (a seed) */
void hp__json_bool(hp__json *j, int v);
void hp__json_null(hp__json *j);
/* Shorthands for `key: value` members. */
void hp__json_kstr(hp__json *j, const char *key, const char *s);
void hp__json_knum(hp__json *j, const char *key, double v);
void hp__json_kint(hp__json *j, const char *key, long long v);
void hp__json_kbool(hp__json *j, const char *key, int v);
/* Returns 0 or the first error; the text is in j->out.data (or, with a sink, written to it). */
int hp__json_end(hp__json *j);
void hp__json_free(hp__json *j);

#endif /* HPRUN_UTIL_JSON_H */
