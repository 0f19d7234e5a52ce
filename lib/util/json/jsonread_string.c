/*
 * JSON strings (RFC 8259 section 7): the part of the reader that decodes escapes, joins UTF-16
 * surrogate pairs, and checks that raw bytes are well-formed UTF-8, so that every string in a
 * tree is valid UTF-8 whatever the file held. It is apart from jsonread.c because none of it
 * depends on the rest of the grammar.
 */
#include "util/json/jsonread_internal.h"
#include "util/base/buf.h"

#include <stdlib.h>

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
static int read_u16(hp__jv_parser *ps, unsigned *out)
{
  const char *q = ps->p + 2;
  unsigned v = 0;
  int i, h;

  for (i = 0; i < 4; i++) {
    if (q + i >= ps->end || (h = hexval(q[i])) < 0)
      return hp__jv_fail_at(ps, HP_EPARSE, ps->p, "invalid \\u escape: expected 4 hex digits");
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

/* Reads the \u escape at ps->p (the backslash) and, when it is a UTF-16 high surrogate, the low
 * half that must follow. On success *cp is the code point and ps->p is past the escape(s). */
static int read_u_escape(hp__jv_parser *ps, unsigned *cp)
{
  const char *esc = ps->p;
  unsigned lo;
  int err;

  err = read_u16(ps, cp);
  if (err)
    return err;
  if (*cp >= 0xdc00 && *cp <= 0xdfff)
    return hp__jv_fail_at(ps, HP_EPARSE, esc, "invalid \\u escape: unpaired low surrogate \\u%04x",
                          *cp);
  if (*cp < 0xd800 || *cp > 0xdbff)
    return 0;
  /* UTF-16 needs the low half right after: \uD83D\uDE00 is one character, U+1F600. */
  if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
    return hp__jv_fail_at(ps, HP_EPARSE, esc,
                          "invalid \\u escape: high surrogate \\u%04x without a low one", *cp);
  err = read_u16(ps, &lo);
  if (err)
    return err;
  if (lo < 0xdc00 || lo > 0xdfff)
    return hp__jv_fail_at(ps, HP_EPARSE, esc,
                          "invalid \\u escape: high surrogate \\u%04x without a low one", *cp);
  *cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
  return 0;
}

/* Reads the escape at ps->p: a backslash with at least one more byte after it. On success *cp is
 * the character it stands for and ps->p is past it. */
static int read_escape(hp__jv_parser *ps, unsigned *cp)
{
  switch (ps->p[1]) {
  case '"': *cp = '"'; break;
  case '\\': *cp = '\\'; break;
  case '/': *cp = '/'; break;
  case 'b': *cp = '\b'; break;
  case 'f': *cp = '\f'; break;
  case 'n': *cp = '\n'; break;
  case 'r': *cp = '\r'; break;
  case 't': *cp = '\t'; break;
  case 'u': return read_u_escape(ps, cp);
  default: {
    char tmp[16];
    return hp__jv_fail_at(ps, HP_EPARSE, ps->p, "invalid escape: backslash followed by %s",
                          hp__jv_describe(ps->p + 1, ps->end, tmp, sizeof(tmp)));
  }
  }
  ps->p += 2;
  return 0;
}

int hp__jv_parse_string(hp__jv_parser *ps, char **s, size_t *len)
{
  hp__buf b = HP__BUF_INIT;
  const char *open = ps->p, *run;
  unsigned cp;
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
      err = hp__jv_fail_at(ps, HP_EPARSE, ps->p, "unterminated string (it starts at byte %zu)",
                           (size_t)(open - ps->start) + 1);
      goto fail;
    }
    if (*ps->p == '"') {
      ps->p++;
      break;
    }
    if ((unsigned char)*ps->p < 0x20) {
      err = hp__jv_fail_at(ps, HP_EPARSE, ps->p,
                           "control character 0x%02x in a string (it must be escaped)",
                           (unsigned)(unsigned char)*ps->p);
      goto fail;
    }
    if ((unsigned char)*ps->p >= 0x80) {
      n = utf8_len((const unsigned char *)ps->p, (const unsigned char *)ps->end);
      if (n == 0) {
        err = hp__jv_fail_at(ps, HP_EPARSE, ps->p, "invalid UTF-8 byte 0x%02x in a string",
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
      err = hp__jv_fail_at(ps, HP_EPARSE, ps->p + 1, "unterminated string (it starts at byte %zu)",
                           (size_t)(open - ps->start) + 1);
      goto fail;
    }
    err = read_escape(ps, &cp);
    if (err)
      goto fail;
    if (put_utf8(&b, cp))
      goto nomem;
  }

  if (b.data == NULL && hp__buf_add(&b, "", 0))
    goto nomem;
  *len = b.len;
  *s = b.data;
  return 0;

nomem:
  err = hp__jv_fail_at(ps, HP_ENOMEM, ps->p, "out of memory");
fail:
  hp__buf_free(&b);
  return err;
}
