/*
 * Checked reading of summary.json's members (see report/json/summary_field.h): one place where a
 * member's type, presence and range are checked and a bad one is named by its path, so that the
 * reader itself (lib/report/json/summary_read.c) states only which members it reads and their limits.
 * Integers are read from the number's text where it is a plain integer, because a double holds
 * integers exactly only up to 2^53 and a seed may use all 64 bits.
 */
#include "report/json/summary_field.h"
#include "util/base/buf.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hp__sf_root(hp__sf *c, const hp__jv *root, const char *file, hp_diags *diags)
{
  c->diags = diags;
  c->file = file;
  c->obj = root;
  c->at[0] = '\0';
}

int hp__sf_fail(const hp__sf *c, const char *key, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  va_start(ap, fmt);
  msg = hp__vasprintf(fmt, ap);
  va_end(ap);
  if (msg)
    hp_diags_add(c->diags, HP_DIAG_ERROR, c->file, 0, 0, "%s%s%s: %s", c->at,
                 c->at[0] && key ? "." : "", key ? key : "", msg);
  free(msg);
  return HP_EPARSE;
}

/* The member `key` of c, and whether it is absent or null (which optional members may be). */
static const hp__jv *member(const hp__sf *c, const char *key, int *absent)
{
  const hp__jv *v = hp__jv_get(c->obj, key);

  *absent = hp__jv_type_of(v) == HP__JV_NULL;
  return v;
}

/* A child cursor's path: the parent's, then ".key" (the first step has no dot), then "[i]". The
 * precisions keep it within the cursor's room (a deeper path is cut: it only names the member). */
static void child_of(const hp__sf *c, const char *key, const hp__jv *obj, hp__sf *child,
                     const char *index)
{
  char at[sizeof(c->at)];

  snprintf(at, sizeof(at), "%.80s%s%.23s%.23s", c->at, c->at[0] ? "." : "", key, index);
  *child = *c;
  child->obj = obj;
  memcpy(child->at, at, sizeof(at));
}

int hp__sf_object(const hp__sf *c, const char *key, int optional, hp__sf *child)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  child_of(c, key, NULL, child, "");
  if (hp__jv_type_of(v) == HP__JV_OBJ)
    child->obj = v;
  else if (!(optional && absent))
    return hp__sf_fail(c, key, optional ? "not an object" : "missing or not an object");
  return 0;
}

int hp__sf_array(const hp__sf *c, const char *key, int optional, const hp__jv **arr)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  *arr = NULL;
  if (hp__jv_type_of(v) == HP__JV_ARR)
    *arr = v;
  else if (!(optional && absent))
    return hp__sf_fail(c, key, optional ? "not an array" : "missing or not an array");
  return 0;
}

int hp__sf_item(const hp__sf *c, const char *key, size_t i, hp__sf *child)
{
  const hp__jv *v = hp__jv_at(hp__jv_get(c->obj, key), i);
  char index[32];

  snprintf(index, sizeof(index), "[%zu]", i);
  child_of(c, key, v, child, index);
  if (hp__jv_type_of(v) != HP__JV_OBJ)
    return hp__sf_fail(child, NULL, "not an object");
  return 0;
}

/* The integer a number holds, as a sign and a magnitude: -1 when v is not a number or its value
 * is not integral, 1 when the magnitude is 2^64 or more, else 0. A plain integer ("-12") is
 * converted from its text, exactly; any other form ("1e3", "2.0") through its double. */
static int integer_of(const hp__jv *v, int *neg, uint64_t *mag)
{
  const char *t = hp__jv_numtext(v), *digits;
  unsigned long long u;
  double x;

  if (t == NULL)
    return -1;
  *neg = t[0] == '-';
  digits = t + *neg;
  if (digits[strspn(digits, "0123456789")] == '\0') {
    errno = 0;
    u = strtoull(digits, NULL, 10);
    if (errno == ERANGE)
      return 1;
    *mag = (uint64_t)u;
    return 0;
  }
  x = fabs(hp__jv_num(v));
  if (x != floor(x))
    return -1;
  if (x >= 18446744073709551616.0) /* 2^64, exact as a double */
    return 1;
  *mag = (uint64_t)x;
  return 0;
}

/* The number's text for a message, cut so that a 10 000-digit number stays one line. */
static int out_of_range(const hp__sf *c, const char *key, const char *text, const char *range)
{
  return hp__sf_fail(c, key, "%.40s%s is out of range (%s)", text, strlen(text) > 40 ? "..." : "",
                     range);
}

/* The reader under the typed ones: *found is 0 when an optional member is absent. */
static int get_integer(const hp__sf *c, const char *key, int optional, long long lo, long long hi,
                       long long *out, int *found)
{
  int absent, neg, r;
  const hp__jv *v = member(c, key, &absent);
  uint64_t mag = 0;
  long long x = 0;
  char range[64];

  *found = 0;
  if (optional && absent)
    return 0;
  r = integer_of(v, &neg, &mag);
  if (r < 0)
    return hp__sf_fail(c, key, optional ? "not an integer" : "missing or not an integer");
  if (r == 0 && !neg && mag <= (uint64_t)LLONG_MAX)
    x = (long long)mag;
  else if (r == 0 && neg && mag <= (uint64_t)LLONG_MAX)
    x = -(long long)mag;
  else if (r == 0 && neg && mag == (uint64_t)LLONG_MAX + 1)
    x = LLONG_MIN;
  else
    r = 1;
  if (r || x < lo || x > hi) {
    snprintf(range, sizeof(range), "%lld to %lld", lo, hi);
    return out_of_range(c, key, hp__jv_numtext(v), range);
  }
  *out = x;
  *found = 1;
  return 0;
}

int hp__sf_int(const hp__sf *c, const char *key, int optional, int lo, int hi, int *out)
{
  long long x;
  int found, r = get_integer(c, key, optional, lo, hi, &x, &found);

  if (found)
    *out = (int)x;
  return r;
}

int hp__sf_long(const hp__sf *c, const char *key, int optional, long lo, long hi, long *out)
{
  long long x;
  int found, r = get_integer(c, key, optional, lo, hi, &x, &found);

  if (found)
    *out = (long)x;
  return r;
}

int hp__sf_llong(const hp__sf *c, const char *key, int optional, long long lo, long long hi,
                 long long *out)
{
  long long x;
  int found, r = get_integer(c, key, optional, lo, hi, &x, &found);

  if (found)
    *out = x;
  return r;
}

int hp__sf_u64(const hp__sf *c, const char *key, uint64_t *out)
{
  int absent, neg, r;
  const hp__jv *v = member(c, key, &absent);
  uint64_t mag = 0;

  r = integer_of(v, &neg, &mag);
  if (r < 0)
    return hp__sf_fail(c, key, "missing or not an integer");
  if (r > 0 || (neg && mag > (uint64_t)1 << 63))
    return out_of_range(c, key, hp__jv_numtext(v), "0 to 18446744073709551615");
  /* Unsigned arithmetic: -1 becomes 2^64 - 1, as the old writer's cast to long long made it. */
  *out = neg ? (uint64_t)0 - mag : mag;
  return 0;
}

int hp__sf_num(const hp__sf *c, const char *key, int optional, double *out)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  *out = NAN;
  if (v == NULL && !optional)
    return hp__sf_fail(c, key, "missing");
  if (hp__jv_type_of(v) == HP__JV_NUM)
    *out = hp__jv_num(v);
  else if (!absent)
    return hp__sf_fail(c, key, "not a number");
  return 0;
}

int hp__sf_bool(const hp__sf *c, const char *key, int *out)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  *out = 0;
  if (absent)
    return 0;
  if (hp__jv_bool(v) < 0)
    return hp__sf_fail(c, key, "not true or false");
  *out = hp__jv_bool(v);
  return 0;
}

int hp__sf_str(const hp__sf *c, const char *key, int optional, char **out)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  *out = NULL;
  if (hp__jv_type_of(v) == HP__JV_STR)
    return (*out = hp__strdup(hp__jv_str(v))) != NULL ? 0 : HP_ENOMEM;
  if (optional && absent)
    return 0;
  return hp__sf_fail(c, key, optional ? "not a string" : "missing or not a string");
}

int hp__sf_word(const hp__sf *c, const char *key, const char **out)
{
  int absent;
  const hp__jv *v = member(c, key, &absent);

  *out = hp__jv_str(v);
  if (*out == NULL && !absent)
    return hp__sf_fail(c, key, "not a string");
  return 0;
}
