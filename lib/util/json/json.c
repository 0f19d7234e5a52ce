/*
 * A streaming JSON writer. It keeps no tree: members are appended to a buffer as they are written,
 * so a summary of any size costs one pass. Errors are sticky (the first one is kept) so callers can
 * write a whole document and check once, in hp__json_end.
 */
#include "util/json/json.h"
#include "util/base/buf.h"
#include "util/num/dtoa.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void hp__json_init(hp__json *j, int pretty)
{
  memset(j, 0, sizeof(*j));
  j->pretty = pretty;
  j->first[0] = 1;
}

#define FLUSH_AT ((size_t)1 << 16)

/* With a sink, writes what the buffer holds and empties it. */
static void flush(hp__json *j)
{
  if (!j->err && j->out.len && fwrite(j->out.data, 1, j->out.len, j->sink) != j->out.len)
    j->err = HP_EIO;
  hp__buf_reset(&j->out);
}

static void put(hp__json *j, const char *s, size_t n)
{
  if (!j->err && hp__buf_add(&j->out, s, n))
    j->err = HP_ENOMEM;
  if (j->sink && j->out.len >= FLUSH_AT)
    flush(j);
}

static void puts_(hp__json *j, const char *s)
{
  put(j, s, strlen(s));
}

/* A newline and two spaces per level, in one append: a large summary (an ncu profile's tables)
 * writes one of these before nearly every value. */
static void newline(hp__json *j)
{
  static const char ind[] = "\n                                                                "
                            "                                                                ";
  const size_t max = sizeof(ind) - 1;
  size_t n, k;

  if (!j->pretty)
    return;
  n = 1 + 2 * (size_t)j->depth;
  put(j, ind, n < max ? n : max);
  /* Deeper than `ind` reaches (64 levels, the most `first` holds): the rest of the spaces. */
  for (n = n > max ? n - max : 0; n > 0; n -= k) {
    k = n < max - 1 ? n : max - 1;
    put(j, ind + 1, k);
  }
}

/* Called before every value: writes the comma and newline an array item or a key needs. An
 * object member's value follows its key directly. */

static void before_value(hp__json *j)
{
  if (j->depth == 0)
    return;
  if (j->after_key) {
    j->after_key = 0;
    return;
  }
  if (!j->first[j->depth])
    put(j, ",", 1);
  j->first[j->depth] = 0;
  newline(j);
}

static void open_(hp__json *j, const char *c)
{
  before_value(j);
  puts_(j, c);
  if (j->depth + 1 >= (int)(sizeof(j->first) / sizeof(j->first[0]))) {
    j->err = HP_ERANGE;
    return;
  }
  j->depth++;
  j->first[j->depth] = 1;
}

static void close_(hp__json *j, const char *c)
{
  int empty;

  if (j->depth == 0) {
    j->err = j->err ? j->err : HP_EINVAL;
    return;
  }
  empty = j->first[j->depth];
  j->depth--;
  if (!empty)
    newline(j);
  puts_(j, c);
}

void hp__json_obj_begin(hp__json *j)
{
  open_(j, "{");
}
void hp__json_obj_end(hp__json *j)
{
  close_(j, "}");
}
void hp__json_arr_begin(hp__json *j)
{
  open_(j, "[");
}
void hp__json_arr_end(hp__json *j)
{
  close_(j, "]");
}

/* Whether one of the eight bytes of w is below 0x20, '"', '\\' or 0x7f: the "has a zero byte"
 * and "has a byte less than n" word tests, which are exact for the word as a whole. */
static int needs_escape8(uint64_t w)
{
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\'), d = w ^ (ones * 0x7f);

  return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) | ((d - ones) & ~d)) &
          highs
      ? 1
      : 0;
}

/* Whether byte c must be escaped in a JSON string (as hprun writes them: 0x7f too). */
static inline int needs_escape(unsigned char c)
{
  return c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
}

static void quoted(hp__json *j, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, start = 0;
  char esc[7];

  /* The common string has nothing to escape: it is written in one step, quotes included. Eight
   * bytes are tested at a time first (a byte below 0x20, '"', '\\' or 0x7f in the word). */
  for (i = 0; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (needs_escape8(w))
      break;
  }
  while (i < n && !needs_escape((unsigned char)s[i]))
    i++;
  if (i == n) {
    if (!j->err && hp__buf_reserve(&j->out, n + 2))
      j->err = HP_ENOMEM;
    if (j->err)
      return;
    j->out.data[j->out.len] = '"';
    memcpy(j->out.data + j->out.len + 1, s, n);
    j->out.data[j->out.len + n + 1] = '"';
    j->out.len += n + 2;
    j->out.data[j->out.len] = '\0';
    if (j->sink && j->out.len >= FLUSH_AT)
      flush(j);
    return;
  }
  put(j, "\"", 1);
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    const char *rep = NULL;
    /* Nearly every byte of a kernel name needs nothing: one test for those first. */
    if (!needs_escape(c))
      continue;
    if (c == '"')
      rep = "\\\"";
    else if (c == '\\')
      rep = "\\\\";
    else if (c == '\n')
      rep = "\\n";
    else if (c == '\r')
      rep = "\\r";
    else if (c == '\t')
      rep = "\\t";
    else if (c < 0x20 || c == 0x7f) {
      esc[0] = '\\';
      esc[1] = 'u';
      esc[2] = '0';
      esc[3] = '0';
      esc[4] = hex[c >> 4];
      esc[5] = hex[c & 15];
      esc[6] = '\0';
      rep = esc;
    }
    if (rep) {
      put(j, s + start, i - start);
      puts_(j, rep);
      start = i + 1;
    }
  }
  put(j, s + start, n - start);
  put(j, "\"", 1);
}

void hp__json_key(hp__json *j, const char *key)
{
  before_value(j);
  quoted(j, key, strlen(key));
  put(j, j->pretty ? ": " : ":", j->pretty ? 2 : 1);
  j->after_key = 1;
}

void hp__json_strn(hp__json *j, const char *s, size_t n)
{
  before_value(j);
  quoted(j, s, n);
}

void hp__json_str(hp__json *j, const char *s)
{
  if (s == NULL)
    hp__json_null(j);
  else
    hp__json_strn(j, s, strlen(s));
}

/* "%lld" without printf: a summary writes tens of thousands of counts. */
static void put_ll(hp__json *j, long long v)
{
  char tmp[24], *e = tmp + sizeof(tmp), *p = e;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

  do
    *--p = (char)('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0)
    *--p = '-';
  put(j, p, (size_t)(e - p));
}

void hp__json_num(hp__json *j, double v)
{
  char tmp[64];
  int exact;

  if (!isfinite(v)) {
    hp__json_null(j);
    return;
  }
  before_value(j);
  /* A whole number below 10^15 is what %.15g prints for it: its digits, no exponent. Counts and
   * integral sums are most of a summary's numbers, and this spares printf's and strtod's work.
   * -0.0 is left to printf, which keeps its sign. */
  if (v > -1e15 && v < 1e15 && v == (double)(long long)v && (v != 0 || !signbit(v))) {
    put_ll(j, (long long)v);
    return;
  }
  /* %.17g round-trips every double; shorter forms are tried first so files stay readable.
   * util/num/dtoa.c writes printf's very bytes for the common range without printf. */
  if (hp__dtoa_g(v, 15, tmp, &exact) && (exact || hp__dtoa_g(v, 17, tmp, &exact))) {
    puts_(j, tmp);
    return;
  }
  snprintf(tmp, sizeof(tmp), "%.15g", v);
  if (strtod(tmp, NULL) != v)
    snprintf(tmp, sizeof(tmp), "%.17g", v);
  puts_(j, tmp);
}

void hp__json_int(hp__json *j, long long v)
{
  before_value(j);
  put_ll(j, v);
}

void hp__json_uint(hp__json *j, unsigned long long v)
{
  char tmp[32];

  before_value(j);
  snprintf(tmp, sizeof(tmp), "%llu", v);
  puts_(j, tmp);
}

void hp__json_bool(hp__json *j, int v)
{
  before_value(j);
  puts_(j, v ? "true" : "false");
}

void hp__json_null(hp__json *j)
{
  before_value(j);
  puts_(j, "null");
}

void hp__json_kstr(hp__json *j, const char *k, const char *s)
{
  hp__json_key(j, k);
  hp__json_str(j, s);
}
void hp__json_knum(hp__json *j, const char *k, double v)
{
  hp__json_key(j, k);
  hp__json_num(j, v);
}
void hp__json_kint(hp__json *j, const char *k, long long v)
{
  hp__json_key(j, k);
  hp__json_int(j, v);
}
void hp__json_kbool(hp__json *j, const char *k, int v)
{
  hp__json_key(j, k);
  hp__json_bool(j, v);
}

int hp__json_end(hp__json *j)
{
  if (!j->err && j->depth != 0)
    j->err = HP_EINVAL;
  if (!j->err && j->pretty)
    put(j, "\n", 1);
  if (j->sink)
    flush(j);
  return j->err;
}

void hp__json_free(hp__json *j)
{
  if (j)
    hp__buf_free(&j->out);
}
