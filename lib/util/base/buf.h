/*
 * A growable byte buffer, always NUL-terminated (like redis' sds, but a plain struct), and small
 * allocation helpers. The buffer owns its storage; hp__buf_steal hands it to the caller. Every
 * string the helpers return is malloc'd and the caller's to free().
 *
 * Errors are sticky, as in hp__json: the first append that fails records its code in `err`, and
 * every later append does nothing and returns it. A writer can therefore make all its appends and
 * check once, with hp__buf_error or hp__buf_steal (which gives NULL for a buffer in error), instead
 * of combining the codes of each call.
 */
#ifndef HPRUN_UTIL_BUF_H
#define HPRUN_UTIL_BUF_H

#include "hprun.h"
#include <stdarg.h>
#include <stddef.h>

typedef struct hp__buf {
  char *data; /* NUL-terminated; NULL until the first append */
  size_t len;
  size_t cap;
  int err; /* the first append's error (HP_ENOMEM, HP_EINVAL), 0 if none */
} hp__buf;

#define HP__BUF_INIT                                                                               \
  {                                                                                                \
    NULL, 0, 0, 0                                                                                  \
  }

/* Appends; each returns 0 or the buffer's error. On failure the buffer's text is unchanged and
 * still valid, and the error sticks (see above). */
int hp__buf_add(hp__buf *b, const void *p, size_t n);
int hp__buf_adds(hp__buf *b, const char *s);
int hp__buf_addc(hp__buf *b, char c);
int hp__buf_printf(hp__buf *b, const char *fmt, ...) HP_PRINTF(2, 3);
int hp__buf_vprintf(hp__buf *b, const char *fmt, va_list ap);
/* Makes room for `extra` more bytes (and the NUL) without appending: a writer may then fill
 * data[len..len+extra) and add what it wrote to len, keeping data[len] = '\0'. */
int hp__buf_reserve(hp__buf *b, size_t extra);
/* 0, or the first error an append met since the buffer was made or reset. */
int hp__buf_error(const hp__buf *b);
/* Empties without freeing, and clears the error. */
void hp__buf_reset(hp__buf *b);
/* Frees the storage and leaves an empty buffer. Accepts NULL. */
void hp__buf_free(hp__buf *b);
/* Hands the storage to the caller (free() it) and leaves the buffer empty. Never NULL on success:
 * an empty buffer gives "". Returns NULL on HP_ENOMEM, and for a buffer in error (whose text is
 * incomplete: it is freed). */
char *hp__buf_steal(hp__buf *b);

/* Small allocation helpers that return NULL on failure (callers check). */
char *hp__strdup(const char *s);
char *hp__strndup(const char *s, size_t n);
char *hp__asprintf(const char *fmt, ...) HP_PRINTF(1, 2);
char *hp__vasprintf(const char *fmt, va_list ap);

#endif /* HPRUN_UTIL_BUF_H */
