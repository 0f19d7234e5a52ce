/*
 * Number formatting shared by every text writer (lib/util/num/fmt.c), so that the terminal,
 * Markdown, JUnit and compare outputs print a value the same way. The caller owns `buf`.
 */
#ifndef HPRUN_UTIL_FMT_H
#define HPRUN_UTIL_FMT_H

#include <stddef.h>

/* Formats v with 6 significant digits (or "-" for NaN) into buf. Returns buf. */
char *hp__fmt_num(char *buf, size_t len, double v);
/* "+1.27%" / "79.83x" / "-", the way tables show an overhead ratio. */
char *hp__fmt_overhead(char *buf, size_t len, double ratio);

#endif /* HPRUN_UTIL_FMT_H */
