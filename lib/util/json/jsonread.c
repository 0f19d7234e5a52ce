/*
 * A strict RFC 8259 JSON reader that builds a tree: the reading half of lib/util/json/json.c. It
 * accepts exactly the grammar of the RFC (no comments, no trailing commas, no NaN, no leading
 * zeros, no single quotes) and says where the first problem is as "line:col: message". Recursion
 * is bounded by HP__JV_MAX_DEPTH, so hostile input cannot exhaust the stack. This file holds the
 * grammar of values, containers and numbers; strings (escapes, UTF-8) are read in
 * jsonread_string.c, the finished tree in jsonread_tree.c, and the error messages of both halves
 * are written by jsonread_error.c. Design notes: docs/internals/jsonread.md.
 */
#include "util/base/buf.h"
#include "util/json/jsonread_internal.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unexpected(hp__jv_parser *ps, const char *what)
{
  char tmp[16];

  return hp__jv_fail_at(ps, HP_EPARSE, ps->p, "unexpected %s, expected %s",
                        hp__jv_describe(ps->p, ps->end, tmp, sizeof(tmp)), what);
}

/* ---------------------------------------------------------------------------------------------- */
/* Building the tree                                                                                */

static hp__jv *node_new(hp__jv_type type)
{
  hp__jv *v = calloc(1, sizeof(*v));

  if (v)
    v->type = type;
  return v;
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
/* Whitespace and numbers                                                                           */

static void skip_ws(hp__jv_parser *ps)
{
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

/* Checks the RFC 8259 number grammar at ps->p and converts it. *text gets a copy of the number's
 * characters (the caller frees it, also on failure), for readers that need more than a double's
 * 53 bits. strtod follows the C locale's decimal point, so a '.' is swapped for the current one
 * first: a program that called setlocale must still read "1.5" as 1.5. */
static int parse_number(hp__jv_parser *ps, double *out, char **text)
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
      return hp__jv_fail_at(ps, HP_EPARSE, s, "invalid number: leading zeros are not allowed");
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
  if ((*text = hp__strndup(s, n)) == NULL)
    return hp__jv_fail_at(ps, HP_ENOMEM, s, "out of memory");
  if (n >= sizeof(small)) {
    copy = malloc(n + 1);
    if (copy == NULL)
      return hp__jv_fail_at(ps, HP_ENOMEM, s, "out of memory");
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
   * tree has no way to say "larger than any double", and lib/util/json/json.c never writes one. */
  if (errno == ERANGE && isinf(v))
    return hp__jv_fail_at(ps, HP_EPARSE, s, "number out of range of a double");
  *out = v;
  ps->p = q;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Values                                                                                           */

static int parse_value(hp__jv_parser *ps, hp__jv **out);

static int parse_container(hp__jv_parser *ps, hp__jv_type type, hp__jv **out)
{
  char close = type == HP__JV_OBJ ? '}' : ']';
  const char *what = type == HP__JV_OBJ ? "object" : "array";
  hp__jv *v, *item = NULL;
  char *key = NULL;
  size_t cap = 0, keylen;
  int err;

  if (ps->depth >= HP__JV_MAX_DEPTH)
    return hp__jv_fail_at(ps, HP_EPARSE, ps->p, "nesting deeper than %d levels", HP__JV_MAX_DEPTH);
  v = node_new(type);
  if (v == NULL)
    return hp__jv_fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
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
      err = hp__jv_parse_string(ps, &key, &keylen);
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
      err = hp__jv_fail_at(ps, err, ps->p, "out of memory");
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
      err = hp__jv_fail_at(ps, HP_EPARSE, ps->p, "trailing comma before '%c'", close);
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

static int parse_literal(hp__jv_parser *ps, const char *word, hp__jv_type type, int b, hp__jv **out)
{
  size_t n = strlen(word);
  hp__jv *v;

  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
    return hp__jv_fail_at(ps, HP_EPARSE, ps->p, "invalid literal (expected %s)", word);
  v = node_new(type);
  if (v == NULL)
    return hp__jv_fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
  v->u.b = b;
  ps->p += n;
  *out = v;
  return 0;
}

/* Parses one value after optional whitespace. On success *out is a new node; on failure NULL. */
static int parse_value(hp__jv_parser *ps, hp__jv **out)
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
      return hp__jv_fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
    err = hp__jv_parse_string(ps, &v->u.str.s, &v->u.str.len);
    break;
  default:
    if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
      return unexpected(ps, "a value");
    v = node_new(HP__JV_NUM);
    if (v == NULL)
      return hp__jv_fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
    err = parse_number(ps, &v->u.num.v, &v->u.num.text);
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
  hp__jv_parser ps;
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
    return hp__jv_fail_at(&ps, HP_EINVAL, ps.p, "invalid argument");

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
