/*
 * Number parsing for the profile parsers: the fields profilers print are plain decimals nearly
 * always, so each parser tries an exact fast path first and only falls back to strtod (after
 * removing ncu's thousands separators) for everything else. The words that mean "no value" are
 * answered apart from errors, because an empty cell is normal in a profile and a malformed one is
 * not.
 */
#include "util/num.h"

#include <errno.h>
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

/* The words profilers print in a cell that has no value (compared ignoring case). */
static int is_no_value(const char *s, size_t n)
{
  static const char *const none[] = {"n/a", "na", "none", "nan", "null", "-", "--"};
  size_t i;

  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
    if (strlen(none[i]) == n && strncasecmp(s, none[i], n) == 0)
      return 1;
  return 0;
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

int hp__parse_num(const char *s, size_t n, double *out)
{
  char tmp[128], *end;
  const char *p, *e;
  uint64_t m = 0;
  int neg = 0, ndig = 0, nfrac = 0, dot = 0;
  double v;

  *out = NAN;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    hp__trim(&s, &n);
  /* The fast path, tried first because it is what nearly every field is: [+-]digits[.digits],
   * at most 19 digits, exact through one division. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  for (; p < e; p++) {
    if (*p >= '0' && *p <= '9') {
      if (ndig >= 19)
        break;
      m = m * 10 + (uint64_t)(*p - '0');
      ndig++;
      nfrac += dot;
    } else if (*p == '.' && !dot) {
      dot = 1;
    } else {
      break;
    }
  }
  if (p == e && ndig > 0 && m <= ((uint64_t)1 << 53) && nfrac <= 22) {
    v = (double)m;
    if (nfrac)
      v /= pow10_tab[nfrac];
    *out = neg ? -v : v;
    return 1;
  }
  if (is_no_value(s, n))
    return 0;
  if (strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  if (tmp[0] == '\0')
    return HP_EPARSE;
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
  const char *p, *e;
  unsigned long long m = 0;
  int neg = 0, r;
  double v;

  *out = 0;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    hp__trim(&s, &n);
  /* The fast path: [+-]digits, no copy. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if (p < e && e - p <= 18) {
    const char *q = p;
    while (q < e && *q >= '0' && *q <= '9')
      m = m * 10 + (unsigned)(*q++ - '0');
    if (q == e) {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  if (is_no_value(s, n))
    return 0;
  if (strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  m = 0;
  neg = 0;
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
