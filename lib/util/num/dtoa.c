/*
 * "%.15g" and "%.17g" for doubles in [1e-4, 1e15), exactly as glibc's printf prints them (dtoa.h).
 *
 * A double is M * 2^E with M < 2^53. For |v| < 1e15, E < 0, so the P significant digits printf
 * rounds to are floor(M * 10^k / 2^-E) with k = P - 1 - (the decimal exponent of v), rounded half
 * to even on the exact remainder, as glibc rounds in the default mode. For |v| >= 1e-4 and P <= 17,
 * k <= 21, so M * 10^k < 2^53 * 2^70 fits in 128 bits and every step is exact integer arithmetic.
 * The read-back test is exact too: a 15-digit integer is below 2^53 and 10^k up to 10^22 is a
 * double, so q / 10^k is one correctly rounded division, which is what strtod returns.
 */
#include "util/num/dtoa.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128; /* GCC and Clang on 64-bit targets */

static const double p10d[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 10^k for 0 <= k <= 21 (10^19 is the largest that fits 64 bits). */
static u128 pow10_128(int k)
{
  static const uint64_t p10[] = {UINT64_C(1),
                                 UINT64_C(10),
                                 UINT64_C(100),
                                 UINT64_C(1000),
                                 UINT64_C(10000),
                                 UINT64_C(100000),
                                 UINT64_C(1000000),
                                 UINT64_C(10000000),
                                 UINT64_C(100000000),
                                 UINT64_C(1000000000),
                                 UINT64_C(10000000000),
                                 UINT64_C(100000000000),
                                 UINT64_C(1000000000000),
                                 UINT64_C(10000000000000),
                                 UINT64_C(100000000000000),
                                 UINT64_C(1000000000000000),
                                 UINT64_C(10000000000000000),
                                 UINT64_C(100000000000000000),
                                 UINT64_C(1000000000000000000),
                                 UINT64_C(10000000000000000000)};

  return k <= 19 ? (u128)p10[k] : (u128)p10[19] * p10[k - 19];
}

/* The P digits of |v| (M * 2^-s) for decimal exponent x, rounded half to even: q, with x moved up
 * when rounding carries to 10^P. Returns 0 when x was wrong (q outside [10^(P-1), 10^P)). */
static int digits(uint64_t m, int s, int prec, int *x, uint64_t *q)
{
  int k = prec - 1 - *x;
  u128 n, lo = pow10_128(prec - 1), hi = lo * 10, r, half;

  if (k < 0 || k > 21)
    return 0;
  n = (u128)m * pow10_128(k);
  *q = (uint64_t)(n >> s);
  if (*q < lo || *q >= hi)
    return 0;
  r = n & (((u128)1 << s) - 1);
  half = (u128)1 << (s - 1);
  if (r > half || (r == half && (*q & 1)))
    (*q)++;
  if (*q == hi) {
    *q = (uint64_t)lo;
    (*x)++;
  }
  return 1;
}

/* %g without '#': fixed notation with prec - 1 - x decimals, trailing zeros and point dropped. */
static size_t render(int neg, uint64_t q, int prec, int x, char *out)
{
  char d[20];
  size_t n = 0;
  int i, last;

  for (i = prec - 1; i >= 0; i--, q /= 10)
    d[i] = (char)('0' + q % 10);
  for (last = prec - 1; last > 0 && last > x && d[last] == '0'; last--)
    ;
  if (neg)
    out[n++] = '-';
  if (x < 0) {
    out[n++] = '0';
    out[n++] = '.';
    for (i = -1; i > x; i--)
      out[n++] = '0';
    memcpy(out + n, d, (size_t)last + 1);
    n += (size_t)last + 1;
  } else {
    memcpy(out + n, d, (size_t)x + 1);
    n += (size_t)x + 1;
    if (last > x) {
      out[n++] = '.';
      memcpy(out + n, d + x + 1, (size_t)(last - x));
      n += (size_t)(last - x);
    }
  }
  out[n] = '\0';
  return n;
}

size_t hp__dtoa_g(double v, int prec, char *out, int *exact)
{
  double a = fabs(v);
  uint64_t bits, m, q;
  int be, s, x, k;

  *exact = 0;
  if ((prec != 15 && prec != 17) || !(a >= 1e-4 && a < 1e15))
    return 0;
  memcpy(&bits, &a, sizeof(bits));
  be = (int)(bits >> 52); /* a normal number here: 1e-4 is far above the subnormals */
  m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
  s = 1075 - be; /* a = m * 2^-s, and s >= 3 since a < 2^50 */
  /* The decimal exponent from the binary one (log10(2) ~ 0.30103), then checked by digits(). */
  x = (int)floor((double)(be - 1023) * 0.30102999566398120);
  if (!digits(m, s, prec, &x, &q)) {
    x++;
    if (!digits(m, s, prec, &x, &q)) {
      x -= 2;
      if (!digits(m, s, prec, &x, &q))
        return 0;
    }
  }
  if (x >= prec || x < -4)
    return 0; /* printf writes an exponent: left to it */
  k = prec - 1 - x;
  *exact = prec == 17 || (double)q / p10d[k] == a;
  return render(v < 0, q, prec, x, out);
}
