/*
 * The per-dispatch table's column names that are not counters (lib/profile/parse/dispatch_cols.c).
 */
#ifndef HPRUN_PROFILE_DISPATCH_COLS_H
#define HPRUN_PROFILE_DISPATCH_COLS_H

#include <stddef.h>

/* 1 when header field s[0..n) (spaces around it ignored, case ignored) names a column that
 * describes a dispatch, or is empty; 0 for a counter. */
int hp__dispatch_not_counter(const char *s, size_t n);

#endif /* HPRUN_PROFILE_DISPATCH_COLS_H */
