/*
 * The JSON reader's error messages ("line:col: message", the byte found), which the grammar
 * (jsonread.c) and the strings (jsonread_string.c) both write; below both of them.
 */
#include "util/json/jsonread_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* Line and column are found by rescanning from the start: that costs nothing on the good path,
 * where no error is written. */
int hp__jv_fail_at(hp__jv_parser *ps, int code, const char *at, const char *fmt, ...)
{
  const char *q;
  long line = 1, col = 1;
  va_list ap;
  int n;

  if (ps->err == NULL || ps->errlen == 0)
    return code;
  for (q = ps->start; q < at; q++) {
    if (*q == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  n = snprintf(ps->err, ps->errlen, "%ld:%ld: ", line, col);
  if (n >= 0 && (size_t)n < ps->errlen) {
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return code;
}

const char *hp__jv_describe(const char *at, const char *end, char *tmp, size_t n)
{
  unsigned char c;

  if (at >= end)
    return "end of input";
  c = (unsigned char)*at;
  if (c > 0x20 && c < 0x7f)
    snprintf(tmp, n, "'%c'", c);
  else
    snprintf(tmp, n, "byte 0x%02x", c);
  return tmp;
}
