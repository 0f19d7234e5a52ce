/*
 * A strict RFC 8259 JSON reader that builds a tree: the reading half of lib/json.c. It accepts
 * exactly the grammar of the RFC (no comments, no trailing commas, no NaN, no leading zeros, no
 * single quotes), checks that strings are valid UTF-8, decodes every escape, and says where the
 * first problem is as "line:col: message". Recursion is bounded by HP__JV_MAX_DEPTH, so hostile
 * input cannot exhaust the stack. Design notes: docs/internals/jsonread.md.
 */
#include "util/jsonread.h"
#include "util/buf.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hp__jv {
  hp__jv_type type;
  union {
    int b;
    double num;
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

typedef struct parser {
  const char *start;
  const char *p;
  const char *end;
  int depth;
  char *err;
  size_t errlen;
} parser;

/* ---------------------------------------------------------------------------------------------- */
/* Errors                                                                                           */

/* Writes "line:col: message" for the byte at `at` and returns `code`. Line and column are found
 * by rescanning from the start: that costs nothing on the good path, where no error is written. */
static int fail_at(parser *ps, int code, const char *at, const char *fmt, ...) HP_PRINTF(4, 5);

static int fail_at(parser *ps, int code, const char *at, const char *fmt, ...)
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

/* Describes the byte at `at` for a message: 'x' when printable, else its hex value. */
static const char *describe(const char *at, const char *end, char *tmp, size_t n)
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

static int unexpected(parser *ps, const char *what)
{
  char tmp[16];

  return fail_at(ps, HP_EPARSE, ps->p, "unexpected %s, expected %s",
                 describe(ps->p, ps->end, tmp, sizeof(tmp)), what);
}

/* ---------------------------------------------------------------------------------------------- */
/* Tree                                                                                             */

static hp__jv *node_new(hp__jv_type type)
{
  hp__jv *v = calloc(1, sizeof(*v));

  if (v)
    v->type = type;
  return v;
}

void hp__jv_free(hp__jv *v)
{
  size_t i;

  if (v == NULL)
    return;
  if (v->type == HP__JV_STR) {
    free(v->u.str.s);
  } else if (v->type == HP__JV_ARR || v->type == HP__JV_OBJ) {
    for (i = 0; i < v->u.c.n; i++) {
      hp__jv_free(v->u.c.items[i]);
      if (v->u.c.keys)
        free(v->u.c.keys[i]);
    }
    free(v->u.c.items);
    free(v->u.c.keys);
  }
  free(v);
}

/* Appends item (and key, for objects) to container v, taking both, which are freed on failure
 * too. `cap` is the caller's record of the allocated size. Returns 0 or HP_ENOMEM. */
static int container_push(hp__jv *v, size_t *cap, char *key, hp__jv *item)
{
  size_t ncap;
  hp__jv **items;
  char **keys;

  if (v->u.c.n == *cap) {
    ncap = *cap ? *cap * 2 : 4;
    items = realloc(v->u.c.items, ncap * sizeof(*items));
    if (items == NULL)
      goto fail;
    v->u.c.items = items;
    if (v->type == HP__JV_OBJ) {
      keys = realloc(v->u.c.keys, ncap * sizeof(*keys));
      if (keys == NULL)
        goto fail;
      v->u.c.keys = keys;
    }
    *cap = ncap;
  }
  v->u.c.items[v->u.c.n] = item;
  if (v->type == HP__JV_OBJ)
    v->u.c.keys[v->u.c.n] = key;
  v->u.c.n++;
  return 0;

fail:
  free(key);
  hp__jv_free(item);
  return HP_ENOMEM;
}

/* ---------------------------------------------------------------------------------------------- */
/* Lexical pieces                                                                                   */

static void skip_ws(parser *ps)
{
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static int hexval(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads the 4 hex digits after "\u" at ps->p (which points at the backslash). */
static int read_u16(parser *ps, unsigned *out)
{
  const char *q = ps->p + 2;
  unsigned v = 0;
  int i, h;

  for (i = 0; i < 4; i++) {
    if (q + i >= ps->end || (h = hexval(q[i])) < 0)
      return fail_at(ps, HP_EPARSE, ps->p, "invalid \\u escape: expected 4 hex digits");
    v = v * 16 + (unsigned)h;
  }
  *out = v;
  ps->p += 6;
  return 0;
}

static int put_utf8(hp__buf *b, unsigned cp)
{
  char t[4];
  size_t n;

  if (cp < 0x80) {
    t[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    t[0] = (char)(0xc0 | (cp >> 6));
    t[1] = (char)(0x80 | (cp & 0x3f));
    n = 2;
  } else if (cp < 0x10000) {
    t[0] = (char)(0xe0 | (cp >> 12));
    t[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    t[2] = (char)(0x80 | (cp & 0x3f));
    n = 3;
  } else {
    t[0] = (char)(0xf0 | (cp >> 18));
    t[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    t[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    t[3] = (char)(0x80 | (cp & 0x3f));
    n = 4;
  }
  return hp__buf_add(b, t, n);
}

/* The length of the well-formed UTF-8 sequence at q (Unicode table 3-7: no overlong forms, no
 * UTF-16 surrogates, nothing above U+10FFFF), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *q, const unsigned char *end)
{
  unsigned char c = q[0], lo = 0x80, hi = 0xbf;
  size_t n, i;

  if (c < 0x80)
    return 1;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4;
  else
    return 0;
  if (c == 0xe0)
    lo = 0xa0;
  else if (c == 0xed)
    hi = 0x9f;
  else if (c == 0xf0)
    lo = 0x90;
  else if (c == 0xf4)
    hi = 0x8f;
  if ((size_t)(end - q) < n)
    return 0;
  if (q[1] < lo || q[1] > hi)
    return 0;
  for (i = 2; i < n; i++)
    if (q[i] < 0x80 || q[i] > 0xbf)
      return 0;
  return n;
}

/* Parses the string at ps->p (the opening quote). On success *s is a new NUL-terminated string of
 * *len bytes (the caller frees it). On failure *s is NULL. */
static int parse_string(parser *ps, char **s, size_t *len)
{
  hp__buf b = HP__BUF_INIT;
  const char *open = ps->p, *run;
  unsigned cp, lo;
  size_t n;
  int err;

  *s = NULL;
  *len = 0;
  ps->p++;
  for (;;) {
    /* Copy a run of plain characters in one go. */
    run = ps->p;
    while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' && (unsigned char)*ps->p >= 0x20 &&
           (unsigned char)*ps->p < 0x80)
      ps->p++;
    if (ps->p > run && hp__buf_add(&b, run, (size_t)(ps->p - run)))
      goto nomem;
    if (ps->p >= ps->end) {
      err = fail_at(ps, HP_EPARSE, ps->p, "unterminated string (it starts at byte %zu)",
                    (size_t)(open - ps->start) + 1);
      goto fail;
    }
    if (*ps->p == '"') {
      ps->p++;
      break;
    }
    if ((unsigned char)*ps->p < 0x20) {
      err =
          fail_at(ps, HP_EPARSE, ps->p, "control character 0x%02x in a string (it must be escaped)",
                  (unsigned)(unsigned char)*ps->p);
      goto fail;
    }
    if ((unsigned char)*ps->p >= 0x80) {
      n = utf8_len((const unsigned char *)ps->p, (const unsigned char *)ps->end);
      if (n == 0) {
        err = fail_at(ps, HP_EPARSE, ps->p, "invalid UTF-8 byte 0x%02x in a string",
                      (unsigned)(unsigned char)*ps->p);
        goto fail;
      }
      if (hp__buf_add(&b, ps->p, n))
        goto nomem;
      ps->p += n;
      continue;
    }
    /* A backslash. */
    if (ps->p + 1 >= ps->end) {
      err = fail_at(ps, HP_EPARSE, ps->p + 1, "unterminated string (it starts at byte %zu)",
                    (size_t)(open - ps->start) + 1);
      goto fail;
    }
    switch (ps->p[1]) {
    case '"': cp = '"'; break;
    case '\\': cp = '\\'; break;
    case '/': cp = '/'; break;
    case 'b': cp = '\b'; break;
    case 'f': cp = '\f'; break;
    case 'n': cp = '\n'; break;
    case 'r': cp = '\r'; break;
    case 't': cp = '\t'; break;
    case 'u': cp = 0x110000; break; /* read below */
    default: {
      char tmp[16];
      err = fail_at(ps, HP_EPARSE, ps->p, "invalid escape: backslash followed by %s",
                    describe(ps->p + 1, ps->end, tmp, sizeof(tmp)));
      goto fail;
    }
    }
    if (cp != 0x110000) {
      ps->p += 2;
    } else {
      const char *esc = ps->p;
      err = read_u16(ps, &cp);
      if (err)
        goto fail;
      if (cp >= 0xdc00 && cp <= 0xdfff) {
        err = fail_at(ps, HP_EPARSE, esc, "invalid \\u escape: unpaired low surrogate \\u%04x", cp);
        goto fail;
      }
      if (cp >= 0xd800 && cp <= 0xdbff) {
        /* UTF-16 needs the low half right after: \uD83D\uDE00 is one character, U+1F600. */
        if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u') {
          err = fail_at(ps, HP_EPARSE, esc,
                        "invalid \\u escape: high surrogate \\u%04x without a low one", cp);
          goto fail;
        }
        err = read_u16(ps, &lo);
        if (err)
          goto fail;
        if (lo < 0xdc00 || lo > 0xdfff) {
          err = fail_at(ps, HP_EPARSE, esc,
                        "invalid \\u escape: high surrogate \\u%04x without a low one", cp);
          goto fail;
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
    }
    if (put_utf8(&b, cp))
      goto nomem;
  }

  if (b.data == NULL && hp__buf_add(&b, "", 0))
    goto nomem;
  *len = b.len;
  *s = b.data;
  return 0;

nomem:
  err = fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
fail:
  hp__buf_free(&b);
  return err;
}

/* Checks the RFC 8259 number grammar at ps->p and converts it. strtod follows the C locale's
 * decimal point, so a '.' is swapped for the current one first: a program that called setlocale
 * must still read "1.5" as 1.5. */
static int parse_number(parser *ps, double *out)
{
  const char *s = ps->p, *q = ps->p;
  char small[64], *copy = small, *endp;
  const char *dp = localeconv()->decimal_point;
  size_t n, i;
  double v;

  if (q < ps->end && *q == '-')
    q++;
  if (q >= ps->end || *q < '0' || *q > '9') {
    ps->p = q;
    return unexpected(ps, "a digit after '-'");
  }
  if (*q == '0') {
    q++;
    if (q < ps->end && *q >= '0' && *q <= '9')
      return fail_at(ps, HP_EPARSE, s, "invalid number: leading zeros are not allowed");
  } else {
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  }
  if (q < ps->end && *q == '.') {
    q++;
    if (q >= ps->end || *q < '0' || *q > '9') {
      ps->p = q;
      return unexpected(ps, "a digit after the decimal point");
    }
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  }
  if (q < ps->end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < ps->end && (*q == '+' || *q == '-'))
      q++;
    if (q >= ps->end || *q < '0' || *q > '9') {
      ps->p = q;
      return unexpected(ps, "a digit in the exponent");
    }
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  }

  n = (size_t)(q - s);
  if (n >= sizeof(small)) {
    copy = malloc(n + 1);
    if (copy == NULL)
      return fail_at(ps, HP_ENOMEM, s, "out of memory");
  }
  memcpy(copy, s, n);
  copy[n] = '\0';
  if (dp && dp[0] && dp[0] != '.' && dp[1] == '\0')
    for (i = 0; i < n; i++)
      if (copy[i] == '.')
        copy[i] = dp[0];
  errno = 0;
  v = strtod(copy, &endp);
  if (copy != small)
    free(copy);
  /* Underflow to zero or a subnormal is a fine reading of a tiny number; overflow is not: the
   * tree has no way to say "larger than any double", and lib/json.c never writes one. */
  if (errno == ERANGE && isinf(v))
    return fail_at(ps, HP_EPARSE, s, "number out of range of a double");
  *out = v;
  ps->p = q;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Values                                                                                           */

static int parse_value(parser *ps, hp__jv **out);

static int parse_container(parser *ps, hp__jv_type type, hp__jv **out)
{
  char close = type == HP__JV_OBJ ? '}' : ']';
  const char *what = type == HP__JV_OBJ ? "object" : "array";
  hp__jv *v, *item = NULL;
  char *key = NULL;
  size_t cap = 0, keylen;
  int err;

  if (ps->depth >= HP__JV_MAX_DEPTH)
    return fail_at(ps, HP_EPARSE, ps->p, "nesting deeper than %d levels", HP__JV_MAX_DEPTH);
  v = node_new(type);
  if (v == NULL)
    return fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
  ps->depth++;
  ps->p++;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    goto done;
  }
  for (;;) {
    if (type == HP__JV_OBJ) {
      if (ps->p >= ps->end || *ps->p != '"') {
        err = unexpected(ps, "a string key");
        goto fail;
      }
      err = parse_string(ps, &key, &keylen);
      if (err)
        goto fail;
      skip_ws(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        err = unexpected(ps, "':' after a key");
        goto fail;
      }
      ps->p++;
    }
    err = parse_value(ps, &item);
    if (err)
      goto fail;
    err = container_push(v, &cap, key, item);
    key = NULL;
    item = NULL;
    if (err) {
      err = fail_at(ps, err, ps->p, "out of memory");
      goto fail;
    }
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      break;
    }
    if (ps->p >= ps->end || *ps->p != ',') {
      char tmp[64];
      snprintf(tmp, sizeof(tmp), "',' or '%c' in an %s", close, what);
      err = unexpected(ps, tmp);
      goto fail;
    }
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
      err = fail_at(ps, HP_EPARSE, ps->p, "trailing comma before '%c'", close);
      goto fail;
    }
  }

done:
  ps->depth--;
  *out = v;
  return 0;

fail:
  free(key);
  hp__jv_free(v);
  return err;
}

static int parse_literal(parser *ps, const char *word, hp__jv_type type, int b, hp__jv **out)
{
  size_t n = strlen(word);
  hp__jv *v;

  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
    return fail_at(ps, HP_EPARSE, ps->p, "invalid literal (expected %s)", word);
  v = node_new(type);
  if (v == NULL)
    return fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
  v->u.b = b;
  ps->p += n;
  *out = v;
  return 0;
}

/* Parses one value after optional whitespace. On success *out is a new node; on failure NULL. */
static int parse_value(parser *ps, hp__jv **out)
{
  hp__jv *v;
  int err;

  *out = NULL;
  skip_ws(ps);
  if (ps->p >= ps->end)
    return unexpected(ps, "a value");
  switch (*ps->p) {
  case '{': return parse_container(ps, HP__JV_OBJ, out);
  case '[': return parse_container(ps, HP__JV_ARR, out);
  case 't': return parse_literal(ps, "true", HP__JV_BOOL, 1, out);
  case 'f': return parse_literal(ps, "false", HP__JV_BOOL, 0, out);
  case 'n': return parse_literal(ps, "null", HP__JV_NULL, 0, out);
  case '"':
    v = node_new(HP__JV_STR);
    if (v == NULL)
      return fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
    err = parse_string(ps, &v->u.str.s, &v->u.str.len);
    break;
  default:
    if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
      return unexpected(ps, "a value");
    v = node_new(HP__JV_NUM);
    if (v == NULL)
      return fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
    err = parse_number(ps, &v->u.num);
    break;
  }
  if (err) {
    hp__jv_free(v);
    return err;
  }
  *out = v;
  return 0;
}

int hp__jv_parse(const char *text, size_t len, hp__jv **out, char *err, size_t errlen)
{
  parser ps;
  hp__jv *v = NULL;
  int rc;

  if (err && errlen)
    err[0] = '\0';
  if (out)
    *out = NULL;
  ps.start = ps.p = text;
  ps.end = text ? text + len : text;
  ps.depth = 0;
  ps.err = err;
  ps.errlen = errlen;
  if (text == NULL || out == NULL)
    return fail_at(&ps, HP_EINVAL, ps.p, "invalid argument");

  /* RFC 8259 section 8.1: a parser may ignore a byte order mark. Editors on Windows add one. */
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
    ps.p += 3;
  rc = parse_value(&ps, &v);
  if (rc)
    return rc;
  skip_ws(&ps);
  if (ps.p < ps.end) {
    hp__jv_free(v);
    return unexpected(&ps, "end of input after the value");
  }
  *out = v;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Accessors                                                                                        */

hp__jv_type hp__jv_type_of(const hp__jv *v)
{
  return v ? v->type : HP__JV_NULL;
}

const hp__jv *hp__jv_get(const hp__jv *obj, const char *key)
{
  size_t i;

  if (obj == NULL || obj->type != HP__JV_OBJ || key == NULL)
    return NULL;
  for (i = obj->u.c.n; i > 0; i--)
    if (strcmp(obj->u.c.keys[i - 1], key) == 0)
      return obj->u.c.items[i - 1];
  return NULL;
}

const hp__jv *hp__jv_at(const hp__jv *arr, size_t i)
{
  if (arr == NULL || (arr->type != HP__JV_ARR && arr->type != HP__JV_OBJ) || i >= arr->u.c.n)
    return NULL;
  return arr->u.c.items[i];
}

size_t hp__jv_len(const hp__jv *v)
{
  if (v == NULL || (v->type != HP__JV_ARR && v->type != HP__JV_OBJ))
    return 0;
  return v->u.c.n;
}

const char *hp__jv_key_at(const hp__jv *obj, size_t i)
{
  if (obj == NULL || obj->type != HP__JV_OBJ || i >= obj->u.c.n)
    return NULL;
  return obj->u.c.keys[i];
}

const char *hp__jv_str(const hp__jv *v)
{
  return v && v->type == HP__JV_STR ? v->u.str.s : NULL;
}

size_t hp__jv_strlen(const hp__jv *v)
{
  return v && v->type == HP__JV_STR ? v->u.str.len : 0;
}

double hp__jv_num(const hp__jv *v)
{
  return v && v->type == HP__JV_NUM ? v->u.num : NAN;
}

int hp__jv_bool(const hp__jv *v)
{
  return v && v->type == HP__JV_BOOL ? v->u.b : -1;
}

/* 1 if the path step seg[0..n) names `key`, with "~1" read as '/' and "~0" as '~'. */
static int step_is_key(const char *seg, size_t n, const char *key)
{
  size_t i = 0;

  while (i < n) {
    char c = seg[i];
    if (c == '~' && i + 1 < n && (seg[i + 1] == '0' || seg[i + 1] == '1')) {
      c = seg[i + 1] == '0' ? '~' : '/';
      i++;
    }
    if (*key != c)
      return 0;
    key++;
    i++;
  }
  return *key == '\0';
}

const hp__jv *hp__jv_path(const hp__jv *v, const char *path)
{
  const char *seg, *slash;
  size_t n, i, idx;
  const hp__jv *next;

  if (path == NULL)
    return NULL;
  if (*path == '/')
    path++;
  if (*path == '\0')
    return v;
  seg = path;
  while (v) {
    slash = strchr(seg, '/');
    n = slash ? (size_t)(slash - seg) : strlen(seg);
    next = NULL;
    if (v->type == HP__JV_OBJ) {
      for (i = v->u.c.n; i > 0 && next == NULL; i--)
        if (step_is_key(seg, n, v->u.c.keys[i - 1]))
          next = v->u.c.items[i - 1];
    } else if (v->type == HP__JV_ARR && n > 0 && n < 20) {
      /* A decimal index without sign or leading zeros, as RFC 6901 spells array steps. */
      idx = 0;
      for (i = 0; i < n && seg[i] >= '0' && seg[i] <= '9'; i++)
        idx = idx * 10 + (size_t)(seg[i] - '0');
      if (i == n && !(n > 1 && seg[0] == '0'))
        next = hp__jv_at(v, idx);
    }
    v = next;
    if (slash == NULL)
      break;
    seg = slash + 1;
  }
  return v;
}
