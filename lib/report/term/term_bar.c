/*
 * The terminal table's overhead bars: one compact bar per pass, drawn with Unicode block
 * characters on a log scale, so that +3% and 400,000x fit the same 20 columns and a reader sees at
 * a glance which mode distorts. They are drawn only where they can be read: on a terminal (and
 * off with --ascii), or when asked for with --bars (cmd/run.c, cmd/report.c decide).
 */
#include "report/term/term.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Eighths of a cell, left-aligned: U+258F (one eighth) to U+2589 (seven eighths). */
static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

int hp__term_bar(char *buf, size_t len, double ratio, double max_ratio, int width)
{
  double scale = log10(fmax(max_ratio, 2.0)), f;
  int cells, rest, i;
  size_t used = 0;

  if (len == 0)
    return HP_ERANGE;
  buf[0] = '\0';
  if (!isfinite(ratio) || ratio <= 0 || width <= 0)
    return 0;
  if (ratio <= 1) {
    /* Faster than (or as fast as) the baseline: a tick at the start, no bar. */
    snprintf(buf, len, "▏");
    return 0;
  }
  f = fmin(log10(ratio) / scale, 1.0) * width;
  cells = (int)f;
  rest = (int)((f - cells) * 8);
  if (cells == 0 && rest == 0)
    rest = 1; /* any slowdown shows */
  for (i = 0; i < cells && used + 4 < len; i++, used += 3)
    memcpy(buf + used, "█", 3);
  if (rest && used + strlen(eighths[rest]) < len) {
    memcpy(buf + used, eighths[rest], strlen(eighths[rest]));
    used += strlen(eighths[rest]);
  }
  buf[used] = '\0';
  return 0;
}

double hp__term_bar_max(const hp_session *s)
{
  double max = 0;
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].nmetrics && isfinite(s->passes[i].metrics[0].ratio))
      max = fmax(max, s->passes[i].metrics[0].ratio);
  return max;
}
