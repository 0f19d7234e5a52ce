/*
 * Number formatting for every text writer: one rule for significant digits, one for how an
 * overhead ratio reads (a percentage near 1, a factor beyond 2x or below 0.5x), and one for a
 * change with its interval, whose bounds read in the change's own unit.
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

/* One bound of an interval in the change's unit: x, percent, or a signed difference. */
static void bound(char *buf, size_t len, double v, int x, int diff)
{
  if (isnan(v))
    snprintf(buf, len, "-");
  else if (diff)
    snprintf(buf, len, "%+.3g", v);
  else if (x)
    snprintf(buf, len, "%.3gx", v);
  else {
    /* To 0.01% at most, as the change itself: no "1e-06%" from a ratio a rounding away from 1,
     * and no "-0%". */
    double pct = round((v - 1.0) * 1e4) / 100.0;
    snprintf(buf, len, "%+.3g%%", pct == 0 ? 0.0 : pct);
  }
}

char *hp__fmt_change(char *buf, size_t len, double v, double lo, double hi, int what)
{
  char c[32] = "", a[32], b[32];
  int diff = what & HP__CHG_DIFF, x = v >= 2.0 || v <= 0.5;

  if (!(what & HP__CHG_CI)) {
    if (diff)
      snprintf(c, sizeof(c), isnan(v) ? "-" : "%+.6g", v);
    else
      hp__fmt_overhead(c, sizeof(c), v);
  }
  if (isnan(lo) || isnan(hi) || isnan(v)) {
    snprintf(buf, len, "%s", (what & HP__CHG_CI) ? "-" : c);
    return buf;
  }
  bound(a, sizeof(a), lo, x, diff);
  bound(b, sizeof(b), hi, x, diff);
  snprintf(buf, len, "%s%s[%s, %s]", c, *c ? " " : "", a, b);
  return buf;
}
