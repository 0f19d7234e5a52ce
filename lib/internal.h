/*
 * Library-internal declarations (hp__ names). Nothing in cmd/ includes this file; unit tests in
 * tests/unit/ may, to test internals directly.
 */
#ifndef HPRUN_INTERNAL_H
#define HPRUN_INTERNAL_H

#include "hprun.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* ---------------------------------------------------------------------------------------------- */
/* lib/buf.c: a growable byte buffer, always NUL-terminated (like redis' sds, but a plain struct).  */

typedef struct hp__buf {
  char *data;  /* NUL-terminated; NULL until the first append */
  size_t len;
  size_t cap;
} hp__buf;

#define HP__BUF_INIT {NULL, 0, 0}

/* Appends; on HP_ENOMEM the buffer is unchanged and still valid. */
int hp__buf_add(hp__buf *b, const void *p, size_t n);
int hp__buf_adds(hp__buf *b, const char *s);
int hp__buf_addc(hp__buf *b, char c);
int hp__buf_printf(hp__buf *b, const char *fmt, ...) HP_PRINTF(2, 3);
int hp__buf_vprintf(hp__buf *b, const char *fmt, va_list ap);
/* Empties without freeing. */
void hp__buf_reset(hp__buf *b);
/* Frees the storage and leaves an empty buffer. Accepts NULL. */
void hp__buf_free(hp__buf *b);
/* Hands the storage to the caller (free() it) and leaves the buffer empty. Never NULL on success:
 * an empty buffer gives "". Returns NULL only on HP_ENOMEM. */
char *hp__buf_steal(hp__buf *b);

/* Small allocation helpers that return NULL on failure (callers check). */
char *hp__strdup(const char *s);
char *hp__strndup(const char *s, size_t n);
char *hp__asprintf(const char *fmt, ...) HP_PRINTF(1, 2);

/* ---------------------------------------------------------------------------------------------- */
/* lib/json.c: a streaming JSON writer with indentation. Errors are sticky: check hp__json_end.    */

typedef struct hp__json {
  hp__buf out;
  int depth;
  int first[64];   /* per depth: no member written yet */
  int pretty;
  int after_key;   /* a key was written; its value comes next */
  int err;         /* first error, 0 if none */
} hp__json;

void hp__json_init(hp__json *j, int pretty);
void hp__json_obj_begin(hp__json *j);          /* as a value (top level or array item) */
void hp__json_obj_end(hp__json *j);
void hp__json_arr_begin(hp__json *j);
void hp__json_arr_end(hp__json *j);
void hp__json_key(hp__json *j, const char *key); /* inside an object, before its value */
void hp__json_str(hp__json *j, const char *s);  /* NULL writes null */
void hp__json_strn(hp__json *j, const char *s, size_t n);
void hp__json_num(hp__json *j, double v);       /* NaN and infinities write null */
void hp__json_int(hp__json *j, long long v);
void hp__json_bool(hp__json *j, int v);
void hp__json_null(hp__json *j);
/* Shorthands for `key: value` members. */
void hp__json_kstr(hp__json *j, const char *key, const char *s);
void hp__json_knum(hp__json *j, const char *key, double v);
void hp__json_kint(hp__json *j, const char *key, long long v);
void hp__json_kbool(hp__json *j, const char *key, int v);
/* Returns 0 or the first error; the text is in j->out.data. */
int hp__json_end(hp__json *j);
void hp__json_free(hp__json *j);

/* ---------------------------------------------------------------------------------------------- */
/* lib/fsutil.c: files and folders.                                                                */

/* Writes `len` bytes to `path` through a temporary file and rename(2), so a reader never sees a
 * half-written file. With `exclusive`, fails with HP_EEXIST if `path` exists. */
int hp__write_file(const char *path, const char *data, size_t len, int exclusive);
/* Reads a whole file (NUL-terminated). *out is malloc'd; the caller frees it. */
int hp__read_file(const char *path, char **out, size_t *len);
/* mkdir -p. Existing folders are fine. */
int hp__mkdirs(const char *path, int mode);
/* Joins two path parts with one slash. Returns NULL on HP_ENOMEM. */
char *hp__path_join(const char *a, const char *b);
/* Looks `prog` up on PATH as execvp would; *out is malloc'd. HP_ENOENT when not found. */
int hp__which(const char *prog, char **out);

/* ---------------------------------------------------------------------------------------------- */
/* lib/strv.c: argument vectors and environment lists.                                             */

int hp__strv_push(hp_strv *v, const char *s);       /* copies s */
int hp__strv_push_own(hp_strv *v, char *s);         /* takes s (freed on failure too) */
int hp__strv_append(hp_strv *v, const hp_strv *w);  /* copies every string of w */
int hp__strv_copy(hp_strv *dst, const hp_strv *src);
/* Joins with spaces, quoting words that need it for sh, so a printed line can be pasted. */
char *hp__strv_shell_join(const hp_strv *v);

/* ---------------------------------------------------------------------------------------------- */
/* lib/driver.c: how each profiler tool turns a pass into a command line.                          */

typedef struct hp__driver hp__driver;

/* Finds a driver by tool name: hipprof, rocprof, rocprofv3, ncu. NULL when unknown. */
const hp__driver *hp__driver_find(const char *tool);
/* 1 if `mode` is valid for this driver (the generic modes normal and command are valid for all). */
int hp__driver_has_mode(const hp__driver *d, const char *mode);
/* A comma-separated list of the driver's modes, for messages. Static storage. */
const char *hp__driver_modes(const hp__driver *d);
/* A comma-separated list of known tools, for messages. Static storage. */
const char *hp__driver_tools(void);

#endif /* HPRUN_INTERNAL_H */
