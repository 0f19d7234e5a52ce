/*
 * Number formatting shared by every text writer (lib/util/num/fmt.c), so that the terminal,
 * Markdown, HTML, JUnit and compare outputs print a value the same way: one function for a value,
 * one for a change (an overhead ratio), one for an interval and one for a p-value. Where the
 * writers still print one of them differently, the function takes the writer's style. The caller
 * owns `buf`; each function returns it.
 */
#ifndef HPRUN_UTIL_FMT_H
#define HPRUN_UTIL_FMT_H

#include <stddef.h>

/* Formats v with 6 significant digits (or "-" for NaN) into buf. */
char *hp__fmt_num(char *buf, size_t len, double v);
/* The change a ratio stands for: "+1.27%" / "79.83x" / "-", the way tables show an overhead. */
char *hp__fmt_overhead(char *buf, size_t len, double ratio);

/* How hp__fmt_ci writes an interval: each writer's style. */
enum {
  HP__CI_TEXT, /* "[0.9812,1.0203]": the terminal's pass table */
  HP__CI_MD,   /* "[0.9812, 1.0203]": report.md and hprun compare */
  HP__CI_HTML, /* "[0.981234, 1.0203]": 6 significant digits, a NaN bound "-" (report.html) */
  HP__CI_CELL  /* "[0.981,1.02]": a sweep overview's cell */
};
/* The interval [lo, hi] in `style`. Whether there is an interval to show (a NaN bound means
 * none) is the caller's question: each table says so in its own way. */
char *hp__fmt_ci(char *buf, size_t len, double lo, double hi, int style);

#endif /* HPRUN_UTIL_FMT_H */
