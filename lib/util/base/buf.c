/*
 * A growable, always NUL-terminated byte buffer and small allocation helpers.
 */
#include "util/base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `extra` more bytes plus the NUL. On failure the buffer's text is unchanged and
 * the error sticks. */
static int buf_grow(hp__buf *b, size_t extra)
{
  size_t need, cap;
  char *p;

  if (b->err)
    return b->err;
  if (extra > (size_t)-1 / 2 - b->len)
    return b->err = HP_ENOMEM;
  need = b->len + extra + 1;
  if (need <= b->cap)
    return 0;
  cap = b->cap ? b->cap : 64;
  while (cap < need)
    cap *= 2;
  p = realloc(b->data, cap);
  if (p == NULL)
    return b->err = HP_ENOMEM;
  b->data = p;
  b->cap = cap;
  return 0;
}

int hp__buf_reserve(hp__buf *b, size_t extra)
{
  return buf_grow(b, extra);
}

int hp__buf_add(hp__buf *b, const void *p, size_t n)
{
  if (buf_grow(b, n))
    return b->err;
  if (n)
    memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

int hp__buf_adds(hp__buf *b, const char *s)
{
  return hp__buf_add(b, s, strlen(s));
}

int hp__buf_addc(hp__buf *b, char c)
{
  return hp__buf_add(b, &c, 1);
}

int hp__buf_vprintf(hp__buf *b, const char *fmt, va_list ap)
{
  va_list aq;
  int n;

  if (b->err)
    return b->err;
  va_copy(aq, ap);
  n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0)
    return b->err = HP_EINVAL;
  if (buf_grow(b, (size_t)n))
    return b->err;
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
  return 0;
}

int hp__buf_printf(hp__buf *b, const char *fmt, ...)
{
  va_list ap;
  int r;

  va_start(ap, fmt);
  r = hp__buf_vprintf(b, fmt, ap);
  va_end(ap);
  return r;
}

int hp__buf_error(const hp__buf *b)
{
  return b->err;
}

void hp__buf_reset(hp__buf *b)
{
  b->err = 0;
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

void hp__buf_free(hp__buf *b)
{
  if (b == NULL)
    return;
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->err = 0;
}

char *hp__buf_steal(hp__buf *b)
{
  char *s;

  if (b->err) {
    hp__buf_free(b);
    return NULL;
  }
  /* A buffer nothing was appended to has no storage yet; the caller still gets a string. */
  if (b->data == NULL) {
    if (buf_grow(b, 0))
      return NULL;
    b->data[0] = '\0';
  }
  s = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}

char *hp__strdup(const char *s)
{
  return s ? hp__strndup(s, strlen(s)) : NULL;
}

char *hp__strndup(const char *s, size_t n)
{
  char *p = malloc(n + 1);

  if (p == NULL)
    return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *hp__vasprintf(const char *fmt, va_list ap)
{
  hp__buf b = HP__BUF_INIT;

  /* A buffer in error steals as NULL (and is freed). */
  hp__buf_vprintf(&b, fmt, ap);
  return hp__buf_steal(&b);
}

char *hp__asprintf(const char *fmt, ...)
{
  va_list ap;
  char *s;

  va_start(ap, fmt);
  s = hp__vasprintf(fmt, ap);
  va_end(ap);
  return s;
}
