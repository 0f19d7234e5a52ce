/*
 * The bytes of printf's "%.15g" and "%.17g" for the doubles a summary holds most, without printf
 * (lib/util/num/dtoa.c). JSON output prints every number as %.15g when that reads back as the same
 * double, else %.17g (util/json/json.c); an ncu profile's summary holds tens of thousands of them,
 * and printf's exact multi-precision path costs far more per number than these cases need
 * (docs/performance.md has the measurements).
 *
 * The caller owns `out`, which must hold HP__DTOA_MAX bytes. Nothing is allocated.
 */
#ifndef HPRUN_UTIL_DTOA_H
#define HPRUN_UTIL_DTOA_H

#include <stddef.h>

#define HP__DTOA_MAX 32

/* Writes what snprintf(out, HP__DTOA_MAX, "%.*g", prec, v) writes, for prec 15 or 17 and a finite
 * v with 1e-4 <= |v| < 1e15 printed without an exponent; returns its length. Returns 0 (out
 * unspecified) for any other v or prec, or where printf would use an exponent: the caller then
 * calls printf. With *exact set to whether the printed decimal reads back (strtod, round to
 * nearest) as v itself. Assumes the default rounding mode, as the JSON writer does. */
size_t hp__dtoa_g(double v, int prec, char *out, int *exact);

#endif /* HPRUN_UTIL_DTOA_H */
