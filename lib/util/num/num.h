/*
 * Numbers as profilers print them (lib/util/num/num.c), library-internal. Every profile parser reads
 * its fields through these, whether the field came from the CSV reader or from a text line, which
 * is why they are a module of their own rather than part of lib/util/csv/csv.c.
 *
 * Nothing is allocated: the functions read the caller's bytes (which need no NUL) and write only
 * through the out-parameters, which on failure hold the value documented for each function.
 */
#ifndef HPRUN_UTIL_NUM_H
#define HPRUN_UTIL_NUM_H

#include "hprun.h"

#include <stddef.h>

/* Trims ASCII spaces and tabs from both ends of s[0..*n): moves *s, shrinks *n. */
void hp__trim(const char **s, size_t *n);

/* Parses a number the way profilers print them: spaces around it, scientific notation, and ncu's
 * thousands separators ("1,234,567.5", checked to be groups of three digits).
 * Returns 1 with *out set; 0 when the field holds no value (empty, or "n/a", "na", "none", "nan",
 * "null", "-", "--" in any case), *out then NaN; HP_EPARSE when it is not a number (*out NaN). */
int hp__parse_num(const char *s, size_t n, double *out);
/* The same for integers. "120.0" and "1.2e2" are accepted when the value is a whole number that a
 * double holds exactly; a fraction, or such a form beyond 2^53, is HP_EPARSE. Plain digits too
 * large for a long long are HP_ERANGE. *out is 0 unless the answer is 1. */
int hp__parse_ll(const char *s, size_t n, long long *out);

#endif /* HPRUN_UTIL_NUM_H */
