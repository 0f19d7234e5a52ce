/*
 * The SVG drawing helpers of report.html: escaping, axes (linear and log10, with ticks people can
 * read), and the few shapes the charts use. The charts are written by C rather than by a script in
 * the page so that the file is complete without JavaScript and prints as it shows; hover details
 * are SVG <title> children, which every browser shows as a tooltip.
 *
 * Every coordinate is printed with one decimal: enough for a screen, and the page stays small and
 * byte-stable (the same session gives the same file).
 */
#include "report/html/html.h"
#include "report/html/html_labels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
  size_t n, i;

  if (s[0] < 0x80)
    return 1;
  n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
  for (i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  return n;
}

int hp__html_text(hp__buf *b, const char *s, size_t max)
{
  const unsigned char *p = (const unsigned char *)s;
  size_t chars = 0, n;

  for (; p && *p && !hp__buf_error(b); p += n ? n : 1, chars++) {
    if (max && chars == max)
      return hp__buf_adds(b, "…");
    n = utf8_len(p);
    if (n == 0 || (*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      hp__buf_addc(b, '?');
    else if (*p == '&')
      hp__buf_adds(b, "&amp;");
    else if (*p == '<')
      hp__buf_adds(b, "&lt;");
    else if (*p == '>')
      hp__buf_adds(b, "&gt;");
    else if (*p == '"')
      hp__buf_adds(b, "&quot;");
    else if (*p == '\'')
      hp__buf_adds(b, "&#39;");
    else
      hp__buf_add(b, p, n);
  }
  return hp__buf_error(b);
}

int hp__axis_fit(hp__axis *a, const double *v, size_t n, double must, int allow_log)
{
  double lo = INFINITY, hi = -INFINITY, plo = INFINITY;
  size_t i;

  for (i = 0; i < n; i++)
    if (isfinite(v[i])) {
      lo = fmin(lo, v[i]);
      hi = fmax(hi, v[i]);
      if (v[i] > 0)
        plo = fmin(plo, v[i]);
    }
  if (isfinite(must)) {
    lo = fmin(lo, must);
    hi = fmax(hi, must);
  }
  if (!isfinite(lo))
    return HP_ENOENT;
  /* Beyond 10x a linear axis squeezes every pass but the slowest into a dot at zero. */
  a->log = allow_log && isfinite(plo) && hi / plo > 10;
  if (a->log) {
    a->lo = plo / 1.3;
    a->hi = hi * 1.3;
    return 0;
  }
  if (hi == lo) {
    double d = lo == 0 ? 1 : fabs(lo) * 0.1;
    lo -= d;
    hi += d;
  }
  a->lo = lo - (hi - lo) * 0.05;
  a->hi = hi + (hi - lo) * 0.05;
  /* Quantities that cannot be negative keep 0 as their floor rather than a padded -0.3. */
  if (lo >= 0 && a->lo < 0)
    a->lo = 0;
  return 0;
}

double hp__axis_px(const hp__axis *a, double v)
{
  double f;

  if (a->log) {
    v = fmax(v, a->lo);
    f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
  } else
    f = (v - a->lo) / (a->hi - a->lo);
  f = fmin(fmax(f, 0.0), 1.0);
  return a->p0 + f * (a->p1 - a->p0);
}

/* Log ticks: the decades within the axis; 2x and 5x too when there are fewer than three. */
static int log_ticks(const hp__axis *a, double *t, int max)
{
  static const double mult[] = {1, 2, 5};
  int e, k, n = 0, nm;

  for (nm = 1; nm <= 3; nm += 2) {
    n = 0;
    for (e = (int)floor(log10(a->lo)); e <= (int)ceil(log10(a->hi)) && n < max; e++)
      for (k = 0; k < nm && n < max; k++) {
        double v = mult[k] * pow(10, e);
        if (v >= a->lo && v <= a->hi)
          t[n++] = v;
      }
    if (n >= 3)
      break;
  }
  return n;
}

int hp__axis_ticks(const hp__axis *a, double *t, int max)
{
  double span = a->hi - a->lo, step, mag, v;
  int n = 0;

  if (a->log)
    return log_ticks(a, t, max);
  if (!(span > 0))
    return 0;
  mag = pow(10, floor(log10(span / 5)));
  step = span / 5 / mag >= 5 ? 5 * mag : span / 5 / mag >= 2 ? 2 * mag : mag;
  for (v = ceil(a->lo / step) * step; v <= a->hi + step * 1e-9 && n < max; v += step)
    t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
  return n;
}

int hp__svg_begin(hp__buf *b, const char *id, double w, double h, const char *title,
                  const char *desc)
{
  hp__buf_printf(b,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"%s\" "
                 "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
                 "aria-labelledby=\"%s-t %s-d\">\n<title id=\"%s-t\">",
                 id, w, h, w, h, id, id, id);
  hp__html_text(b, title, 0);
  hp__buf_printf(b, "</title>\n<desc id=\"%s-d\">", id);
  hp__html_text(b, desc, 0);
  return hp__buf_adds(b, "</desc>\n");
}

int hp__svg_end(hp__buf *b)
{
  return hp__buf_adds(b, "</svg>\n");
}

int hp__svg_text_cut(hp__buf *b, double x, double y, const char *anchor, const char *cls,
                     const char *text, size_t max)
{
  hp__buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
                 cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  hp__html_text(b, text, max);
  return hp__buf_adds(b, "</text>\n");
}

int hp__svg_text(hp__buf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text)
{
  return hp__svg_text_cut(b, x, y, anchor, cls, text, 0);
}

int hp__svg_line(hp__buf *b, double x1, double y1, double x2, double y2, const char *cls)
{
  return hp__buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>\n",
                        x1, y1, x2, y2, cls);
}

/* Closes a shape: "/>" or, with a hover text, "><title>TIP</title></TAG>". */
static int close_shape(hp__buf *b, const char *tag, const char *tip)
{
  if (tip == NULL)
    return hp__buf_adds(b, "/>\n");
  hp__buf_adds(b, "><title>");
  hp__html_text(b, tip, 0);
  return hp__buf_printf(b, "</title></%s>\n", tag);
}

int hp__svg_rect(hp__buf *b, double x, double y, double w, double h, const char *cls,
                 const char *tip)
{
  hp__buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\"", x, y,
                 fmax(w, 0.5), fmax(h, 0.5), cls);
  return close_shape(b, "rect", tip);
}

int hp__svg_circle(hp__buf *b, double cx, double cy, double rad, const char *cls, const char *tip)
{
  hp__buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"%s\"", cx, cy, rad, cls);
  return close_shape(b, "circle", tip);
}

/* A tick's label, in one style on every axis: at most 4 significant digits, with an SI suffix
 * from a thousand up ("1k", "250k", "1M", "1.5G") so that a log axis reads 10k, 100k, 1M rather
 * than "100000" beside "1e+06"; below a thousand as plain decimals ("0.5", "100"). */
static void tick_label(char *buf, size_t len, double v)
{
  static const char suffix[] = "kMGTPE";
  int k = 0;

  /* 999.95 and above would print as "1000" at 4 digits: that is 1k. */
  while (fabs(v) >= 999.95 && k < 6) {
    v /= 1000;
    k++;
  }
  snprintf(buf, len, "%.4g%.*s", v, k ? 1 : 0, k ? &suffix[k - 1] : "");
}

int hp__svg_xaxis(hp__buf *b, const hp__axis *a, double y_top, double y, const char *label)
{
  double t[32];
  char s[32];
  int i, n = hp__axis_ticks(a, t, 32);

  hp__svg_line(b, a->p0, y, a->p1, y, "axis");
  for (i = 0; i < n; i++) {
    double x = hp__axis_px(a, t[i]);
    tick_label(s, sizeof(s), t[i]);
    hp__svg_line(b, x, y_top, x, y, "grid");
    hp__svg_text(b, x, y + 14, "middle", "tick", s);
  }
  /* An axis's name is centred under it and cut to its length, so that it stays inside the chart. */
  if (label)
    hp__svg_text_cut(b, (a->p0 + a->p1) / 2, y + 30, "middle", "label", label,
                     hp__text_fit(label, fabs(a->p1 - a->p0)));
  return hp__buf_error(b);
}

int hp__svg_yaxis(hp__buf *b, const hp__axis *a, double x, double x_right, const char *label)
{
  double t[32];
  char s[32];
  int i, n = hp__axis_ticks(a, t, 32);

  hp__svg_line(b, x, a->p0, x, a->p1, "axis");
  for (i = 0; i < n; i++) {
    double y = hp__axis_px(a, t[i]);
    tick_label(s, sizeof(s), t[i]);
    hp__svg_line(b, x, y, x_right, y, "grid");
    hp__svg_text(b, x - 4, y + 4, "end", "tick", s);
  }
  if (label) {
    hp__buf_printf(b,
                   "<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\" "
                   "transform=\"rotate(-90 12 %.1f)\">",
                   (a->p0 + a->p1) / 2, (a->p0 + a->p1) / 2);
    hp__html_text(b, label, hp__text_fit(label, fabs(a->p1 - a->p0)));
    hp__buf_adds(b, "</text>\n");
  }
  return hp__buf_error(b);
}

double hp__svg_legend(hp__buf *b, double x, double y, const char *cls, const char *text,
                      double room)
{
  double w = hp__legend_width(text, room);

  hp__svg_rect(b, x, y - 9, 10, 10, cls, NULL);
  hp__svg_text_cut(b, x + 14, y, "start", "legend", text, hp__legend_cut(text, room));
  return w;
}

const char *hp__html_flag_class(hp_flag f)
{
  /* The page's CSS classes are the flags' own names; a value outside the enum is drawn as ok. */
  const char *name = hp_flag_name(f);

  return strcmp(name, "?") == 0 ? "ok" : name;
}
