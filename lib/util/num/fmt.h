/*
 * Number formatting shared by every text writer (lib/util/num/fmt.c), so that the terminal,
 * Markdown, HTML, JUnit and compare outputs print a value the same way: one function for a value,
 * one for a change (an overhead ratio), and one for a change with its interval, in one unit. The
 * caller owns `buf`; each function returns it.
 */
#ifndef HPRUN_UTIL_FMT_H
#define HPRUN_UTIL_FMT_H

#include <stddef.h>

/* Formats v with 6 significant digits (or "-" for NaN) into buf. */
char *hp__fmt_num(char *buf, size_t len, double v);
/* The change a ratio stands for: "+1.27%" / "79.83x" / "-", the way tables show an overhead. */
char *hp__fmt_overhead(char *buf, size_t len, double ratio);

/* What hp__fmt_change prints: the change and its interval, or the interval alone (a table's own
 * column); HP__CHG_DIFF added: v, lo and hi are differences in the metric's unit, not ratios. */
enum {
  HP__CHG_BOTH = 0,
  HP__CHG_CI = 1,
  HP__CHG_DIFF = 2
};
/* A change with its interval, in one unit (docs/summary.md, "Numbers"): the one function every
 * writer prints an interval with. A ratio near 1 reads in percent, "+3.26% [-25.4%, +42%]"; at
 * 2x or more, or 0.5x or less, in x, "89.21x [64.4x, 126x]", the unit hp__fmt_overhead picks for
 * the ratio v; each bound has 3 significant digits. A difference reads "+0.001 [-0.002, +0.004]".
 * Without an interval (a NaN bound) only the change, or "-" for the interval alone. */
char *hp__fmt_change(char *buf, size_t len, double v, double lo, double hi, int what);

#endif /* HPRUN_UTIL_FMT_H */
