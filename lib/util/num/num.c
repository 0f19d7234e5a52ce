/*
 * Number parsing for the profile parsers: the fields profilers print are plain decimals nearly
 * always, so each parser tries an exact fast path first and only falls back to strtod (after
 * removing ncu's thousands separators) for everything else. The words that mean "no value" are
 * answered apart from errors, because an empty cell is normal in a profile and a malformed one is
 * not.
 *
 * The fast path takes [+-]digits[.digits][e[+-]digits] with ncu's thousands separators, and is
 * exact: it converts only where one correctly rounded IEEE operation gives the decimal's value
 * (an integer below 2^64 converted directly; a mantissa up to 2^53 times or over a power of ten
 * up to 10^22, Clinger's fast path), which is the double strtod returns. Anything else goes the
 * slow way. Text that cannot start a number ("NVIDIA H200", "(256, 1, 1)", a third of an ncu
 * raw row) is refused by its first byte, without strtod. tests/unit/test_num.c compares both paths
 * with strtod on generated inputs.
 */
#include "util/num/num.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void hp__trim(const char **s, size_t *n)
{
  const char *p = *s;
  size_t l = *n;

  while (l > 0 && (*p == ' ' || *p == '\t')) {
    p++;
    l--;
  }
  while (l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'))
    l--;
  *s = p;
  *n = l;
}

/* The words profilers print in a cell that has no value (compared ignoring case): "n/a", "na",
 * "none", "nan", "null", "-", "--". Picked by length first, as most fields are longer than any. */
static int is_no_value(const char *s, size_t n)
{
  switch (n) {
  case 0: return 1;
  case 1: return s[0] == '-';
  case 2: return strncasecmp(s, "na", 2) == 0 || memcmp(s, "--", 2) == 0;
  case 3: return strncasecmp(s, "n/a", 3) == 0 || strncasecmp(s, "nan", 3) == 0;
  case 4: return strncasecmp(s, "none", 4) == 0 || strncasecmp(s, "null", 4) == 0;
  default: return 0;
  }
}

/* Whether strtod could take a number from text starting with c, after the trim: a digit, a sign,
 * a point, or a space strtod skips and hp__trim does not. Words strtod reads ("inf", "nan",
 * hex) are refused after it anyway, so every other first byte is not a number. */
static int may_start_number(char c)
{
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == '\n' || c == '\r' ||
      c == '\v' || c == '\f';
}

/* Copies s without its thousands separators into tmp (NUL-terminated), checking that they split
 * the integer part into groups of three. Returns 0, or HP_EPARSE when the grouping is wrong or the
 * text does not fit. */
static int strip_groups(const char *s, size_t n, char *tmp, size_t tmpsz)
{
  size_t i, o = 0, run = 0;
  int seen_comma = 0, in_int = 1, lead = 1;

  for (i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == ',') {
      if (!in_int || run == 0 || (seen_comma && run != 3) || (!seen_comma && run > 3))
        return HP_EPARSE;
      seen_comma = 1;
      run = 0;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      if (in_int)
        run++;
      lead = 0;
    } else if (lead && (ch == '+' || ch == '-')) {
      lead = 0;
    } else {
      if (in_int && seen_comma && run != 3)
        return HP_EPARSE;
      in_int = 0;
      lead = 0;
    }
    if (o + 1 >= tmpsz)
      return HP_EPARSE;
    tmp[o++] = ch;
  }
  if (in_int && seen_comma && run != 3)
    return HP_EPARSE;
  tmp[o] = '\0';
  return 0;
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The digits of a decimal as the fast paths read them. */
typedef struct dec {
  uint64_t m; /* every digit, as an integer */
  int ndig;   /* how many digits (up to 20, while m fits) */
  int nfrac;  /* how many of them follow the point */
  int exp;    /* the exponent after e/E */
  int neg;
  int point, has_exp; /* a point, an exponent was seen */
} dec;

/* Eight ASCII digits at p as a number, or -1 when they are not all digits. Little-endian SWAR:
 * the digit test and three multiply-and-add steps replace a chain of eight multiplications by 10,
 * which is what makes a 19-digit timestamp cost a few cycles instead of dozens. */
static inline int64_t eight_digits(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t x;

  memcpy(&x, p, 8);
  if ((x & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL ||
      ((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL)
    return -1;
  x -= 0x3030303030303030ULL;
  x = (x * 10) + (x >> 8); /* pairs: byte 2i holds digits 2i, 2i+1 as a number */
  x = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
       (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
      32;
  return (int64_t)x;
#else
  (void)p;
  return -1;
#endif
}

/* Appends the digits at p to *m while it fits in 64 bits (*ndig counts them). Returns where the
 * digits end, or NULL when m would overflow (the slow path takes the text then). The state is
 * passed by value and returned through pointers to the caller's locals, so that after inlining it
 * stays in registers. */
static inline const char *digits(const char *p, const char *e, uint64_t *mp, int *ndigp)
{
  uint64_t m = *mp;
  int ndig = *ndigp;
  int64_t v8;

  /* Eight at a time while the total stays within 19 digits, where m * 10^8 + v8 cannot overflow. */
  while (e - p >= 8 && ndig <= 11 && (v8 = eight_digits(p)) >= 0) {
    m = m * 100000000ULL + (uint64_t)v8;
    ndig += 8;
    p += 8;
  }
  for (; p < e; p++) {
    unsigned dg = (unsigned)(unsigned char)*p - '0';
    if (dg > 9)
      break;
    if (ndig >= 19 && (ndig >= 20 || m > (UINT64_MAX - dg) / 10))
      return NULL;
    m = m * 10 + dg;
    ndig++;
  }
  *mp = m;
  *ndigp = ndig;
  return p;
}

/* Whether s[0..n) (n <= 18) is all digits, with their value in *m: eight at a time, then one by
 * one. */
static inline int plain_digits(const char *s, size_t n, uint64_t *m)
{
  uint64_t v = 0;
  size_t i = 0;
  int64_t v8;

  for (; i + 8 <= n && (v8 = eight_digits(s + i)) >= 0; i += 8)
    v = v * 100000000ULL + (uint64_t)v8;
  for (; i < n && (unsigned)(s[i] - '0') <= 9; i++)
    v = v * 10 + (unsigned)(s[i] - '0');
  *m = v;
  return i == n;
}

/* Whether s[0..n) (0 < n < 24) is a whole number of at most 19 digits, plain or split into groups
 * of three by commas exactly as strip_groups allows ("1,980,000", not "1,98,000" nor "1234,567"),
 * with its value in *m. One pass: a comma may stand only where 4, 8, ... characters remain, and when
 * there is one, every such place must hold one, leaving 1-3 digits before the first. */
static inline int whole_number(const char *s, size_t n, uint64_t *m)
{
  uint64_t v = 0;
  size_t i, commas = 0;

  for (i = 0; i < n; i++) {
    unsigned d = (unsigned)(unsigned char)s[i] - '0';
    if (d <= 9) {
      v = v * 10 + d;
      continue;
    }
    if (s[i] != ',' || i == 0 || (n - i) % 4 != 0)
      return 0;
    commas++;
  }
  /* With commas, every place n - 4k (k >= 1) holds one and the first group has 1-3 digits. */
  if ((commas && (n % 4 == 0 || commas != n / 4)) || n - commas > 19)
    return 0;
  *m = v;
  return 1;
}

/* Reads s[0..n) as [+-]int[.frac][e[+-]exp], the integer part optionally in groups of three
 * digits split by commas, exactly as strip_groups allows them. Returns 1 when the whole text is
 * that, else 0. */
static inline int read_dec(const char *s, size_t n, dec *out)
{
  const char *p = s, *e = s + n, *q;
  uint64_t m = 0;
  int ndig = 0, nint, groups = 0, neg = 0, ex = 0, has_exp = 0, point = 0;

  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if ((q = digits(p, e, &m, &ndig)) == NULL)
    return 0;
  while (q < e && *q == ',') {
    /* The first group holds 1-3 digits, every later one exactly 3. */
    if (q == p || (groups ? q - p != 3 : q - p > 3))
      return 0;
    groups = 1;
    p = q + 1;
    if ((q = digits(p, e, &m, &ndig)) == NULL || q - p != 3)
      return 0;
  }
  p = q;
  nint = ndig;
  if (p < e && *p == '.') {
    point = 1;
    if ((p = digits(p + 1, e, &m, &ndig)) == NULL)
      return 0;
  }
  if (ndig == 0)
    return 0;
  if (p < e && (*p == 'e' || *p == 'E')) {
    int eneg = 0, ne = 0;
    p++;
    if (p < e && (*p == '-' || *p == '+'))
      eneg = *p++ == '-';
    for (; p < e && (unsigned)(*p - '0') <= 9 && ne < 5; p++, ne++)
      ex = ex * 10 + (*p - '0');
    if (ne == 0 || ne == 5)
      return 0;
    ex = eneg ? -ex : ex;
    has_exp = 1;
  }
  out->m = m;
  out->ndig = ndig;
  out->nfrac = ndig - nint;
  out->exp = ex;
  out->neg = neg;
  out->point = point;
  out->has_exp = has_exp;
  return p == e;
}

/* The double of a decimal when one correctly rounded operation gives it; else 0. */
static int dec_value(const dec *d, double *out)
{
  int e10 = d->exp - d->nfrac;
  double v;

  if (e10 == 0)
    v = (double)d->m; /* the conversion of a 64-bit integer is itself correctly rounded */
#if FLT_EVAL_METHOD == 0
  else if (d->m <= ((uint64_t)1 << 53) && e10 < 0 && e10 >= -22)
    v = (double)d->m / pow10_tab[-e10];
  else if (d->m <= ((uint64_t)1 << 53) && e10 > 0 && e10 <= 22)
    v = (double)d->m * pow10_tab[e10];
#endif
  else
    return 0;
  *out = d->neg ? -v : v;
  return 1;
}

/* The slow path's start, for both parsers: 0 for a word that means no value, HP_EPARSE for text
 * that is no number, else 1 with the text in tmp without its thousands separators. */
static int slow_text(const char *s, size_t n, char tmp[128])
{
  if (is_no_value(s, n))
    return 0;
  return may_start_number(s[0]) && strip_groups(s, n, tmp, 128) == 0 && tmp[0] ? 1 : HP_EPARSE;
}

int hp__parse_num(const char *s, size_t n, double *out)
{
  char tmp[128], *end;
  const char *p;
  double v;
  dec d;
  int r;

  *out = NAN;
  /* Plain digits or ncu's grouped integers ("1,980,000"), the commonest fields of all: up to 19
   * digits, converted directly (a correctly rounded conversion, as strtod's). */
  if (n - 1 < 23) {
    uint64_t m = 0;
    if (whole_number(s, n, &m)) {
      *out = (double)m;
      return 1;
    }
  }
  hp__trim(&s, &n);
  /* The general fast path, for what nearly every other field is. */
  if (n > 0 && read_dec(s, n, &d) && dec_value(&d, out))
    return 1;
  if ((r = slow_text(s, n, tmp)) != 1)
    return r;
  errno = 0;
  v = strtod(tmp, &end);
  if (end == tmp || *end != '\0' || !isfinite(v))
    return HP_EPARSE;
  /* strtod also takes hex floats and "infinity"; profilers print neither, so refuse them. */
  for (p = tmp; *p; p++)
    if (*p == 'x' || *p == 'X' || *p == 'i' || *p == 'I' || *p == 'n' || *p == 'N')
      return HP_EPARSE;
  *out = v;
  return 1;
}

int hp__parse_ll(const char *s, size_t n, long long *out)
{
  char tmp[128];
  const char *p;
  uint64_t m = 0;
  int neg = 0, r;
  double v;
  dec d;

  *out = 0;
  /* Up to 18 plain digits (ids, nanosecond timestamps): no overflow possible. */
  if (n - 1 < 18 && plain_digits(s, n, &m)) {
    *out = (long long)m;
    return 1;
  }
  /* The fast path: [+-]digits, with or without thousands separators, up to LLONG_MAX; no copy.
   * The slow path below gives the same value for these, and decides everything else. */
  hp__trim(&s, &n);
  if (n > 0 && read_dec(s, n, &d) && !d.point && !d.has_exp && d.m <= (uint64_t)LLONG_MAX) {
    *out = d.neg ? -(long long)d.m : (long long)d.m;
    return 1;
  }
  if ((r = slow_text(s, n, tmp)) != 1)
    return r;
  m = 0;
  p = tmp;
  if (*p == '-' || *p == '+')
    neg = *p++ == '-';
  if (*p >= '0' && *p <= '9') {
    for (; *p >= '0' && *p <= '9'; p++) {
      if (m > (9223372036854775807ULL - (unsigned)(*p - '0')) / 10)
        return HP_ERANGE;
      m = m * 10 + (unsigned)(*p - '0');
    }
    if (*p == '\0') {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  /* "120.0" or "1.2e2": accepted when the value is a whole number that a double holds exactly. */
  r = hp__parse_num(s, n, &v);
  if (r <= 0)
    return r;
  if (v != floor(v) || fabs(v) > 9007199254740992.0)
    return HP_EPARSE;
  *out = (long long)v;
  return 1;
}
