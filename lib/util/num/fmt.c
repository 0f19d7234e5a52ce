/*
 * Number formatting for every text writer: one rule for significant digits and one for how an
 * overhead ratio reads (a percentage near 1, a factor beyond 2x or below 0.5x).
 */
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>

char *hp__fmt_num(char *buf, size_t len, double v)
{
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.6g", v);
  return buf;
}

char *hp__fmt_overhead(char *buf, size_t len, double ratio)
{
  if (isnan(ratio))
    snprintf(buf, len, "-");
  else if (ratio >= 2.0 || ratio <= 0.5)
    snprintf(buf, len, "%.2fx", ratio);
  else
    snprintf(buf, len, "%+.2f%%", (ratio - 1.0) * 100.0);
  return buf;
}
