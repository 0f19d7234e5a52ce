/*
 * hp__parse_num for the numbers ncu prints on its raw page (used by lib/profile/ncu_fold.c): the
 * fields that change from launch to launch are "12.34", "1,234", "1,234.56" or plain digits, and
 * for those one pass over the bytes here replaces hp__parse_num's two (its whole-number try, then
 * its general decimal reader), with no call.
 *
 * The contract is hp__parse_num's, exactly: the same answer and the same double for every input.
 * The forms taken here are a subset of what hp__parse_num's own fast path takes, converted the
 * same way: digits, the integer part plain or in groups of three split by commas (1-3 digits
 * before the first comma), at most one point, at most 19 bytes in all, nothing else (no sign, no
 * space, no exponent); the value is the integer itself (a correctly rounded conversion), or, with
 * f digits after the point, the integer divided by 10^f where the integer is at most 2^53 and
 * f <= 22 (one correctly rounded division of two exact doubles: Clinger's fast path, the double
 * strtod returns). Everything else, and any other case, goes to hp__parse_num.
 * tests/unit/test_ncu_num.c compares the two, and strtod, on generated and edge inputs.
 */
#ifndef HPRUN_PROFILE_NCU_NUM_H
#define HPRUN_PROFILE_NCU_NUM_H

#include "util/num.h"

#include <float.h>
#include <stddef.h>
#include <stdint.h>

static inline int hp__ncu_digit(char c, unsigned *d)
{
  *d = (unsigned)(unsigned char)c - '0';
  return *d <= 9;
}

#if defined(__GNUC__)
#define HP__NCU_INLINE __attribute__((always_inline)) inline
#else
#define HP__NCU_INLINE inline
#endif

/* hp__parse_num(s, n, out), faster for the forms above (at most 19 bytes, so at most 19 digits).
 * Inlined into the fold's loop: it runs for every changed field of every launch. */
static HP__NCU_INLINE int hp__ncu_num(const char *s, size_t n, double *out)
{
  static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                               1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
  const char *p = s, *e = s + n, *g;
  uint64_t m = 0;
  unsigned d, d1, d2;

  if (n - 1 >= 19)
    goto slow;
  while (p < e && hp__ncu_digit(*p, &d)) {
    m = m * 10 + d;
    p++;
  }
  if (p == s)
    goto slow;
  /* Groups: 1-3 digits before the first comma, exactly 3 after each. */
  if (p < e && *p == ',') {
    if (p - s > 3)
      goto slow;
    do {
      if (e - p < 4 || !hp__ncu_digit(p[1], &d) || !hp__ncu_digit(p[2], &d1) ||
          !hp__ncu_digit(p[3], &d2))
        goto slow;
      m = m * 1000 + d * 100 + d1 * 10 + d2;
      p += 4;
    } while (p < e && *p == ',');
  }
  if (p == e) {
    *out = (double)m;
    return 1;
  }
  if (*p != '.')
    goto slow;
  g = ++p;
  while (p < e && hp__ncu_digit(*p, &d)) {
    m = m * 10 + d;
    p++;
  }
#if FLT_EVAL_METHOD == 0
  if (p == e && p > g && m <= ((uint64_t)1 << 53)) {
    *out = (double)m / p10[p - g];
    return 1;
  }
#endif
slow:
  return hp__parse_num(s, n, out);
}

#endif /* HPRUN_PROFILE_NCU_NUM_H */
