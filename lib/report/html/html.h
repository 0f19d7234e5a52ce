/*
 * Library-internal declarations of report.html (lib/report/html/): the page (html.c), its SVG
 * drawing helpers (html_svg.c), the session charts (html_charts.c: overhead, timeline,
 * distributions), the profile and roofline sections (html_profile.c, html_roofline.c). Text
 * widths and label placement, which every chart uses so that no text is cut at a chart's edge or
 * drawn over another, have their own header (html_labels.h). Every
 * function appends to a buffer the caller owns and returns 0 or HP_ENOMEM; nothing here keeps a
 * pointer into the session. A helper that only appends returns the buffer's (sticky) error, which
 * its caller may ignore and check once; a section that also allocates (the charts, the profile and
 * roofline sections) returns that allocation's code too, and its caller checks it.
 * docs/internals/report.md describes the page and docs/report-html.md how to read it.
 *
 * Colours are never written into the SVG: elements carry classes (flag names, series s0..s7) and
 * the page's stylesheet maps them to colours for the light and the dark scheme, so one drawing
 * serves both and prints in either.
 */
#ifndef HPRUN_REPORT_HTML_H
#define HPRUN_REPORT_HTML_H

#include "hprun.h"
#include "util/base/buf.h"

/* Series colours cycle through this many classes (s0..s7, the Okabe-Ito palette). */
#define HP__HTML_SERIES 8

/* Appends s escaped for XML text and attribute values (& < > " '), with control characters and
 * bytes that are not valid UTF-8 replaced by '?' so that the page always parses as XML. At most
 * `max` characters (0: all) are kept, the cut marked with "…". */
int hp__html_text(hp__buf *b, const char *s, size_t max);

/* A value axis: data [lo, hi] onto pixels [p0, p1] (p1 < p0 for a y axis), linear or log10. */
typedef struct hp__axis {
  double lo, hi;
  double p0, p1;
  int log;
} hp__axis;

/* Makes an axis over the finite positive (log) or finite (linear) values in v[0..n), padded a
 * little and widened to include `must` when it is finite. A log axis is chosen when `allow_log` and
 * the values span more than a factor of 10. Returns 0, or HP_ENOENT when no value is usable. */
int hp__axis_fit(hp__axis *a, const double *v, size_t n, double must, int allow_log);
/* The pixel of data value v (clamped to the axis). */
double hp__axis_px(const hp__axis *a, double v);
/* Up to `max` tick values within the axis: decades (and 2x, 5x when few) on a log axis, 1-2-5
 * steps on a linear one. Returns how many were written. */
int hp__axis_ticks(const hp__axis *a, double *t, int max);

/* Opens an <svg> of w x h pixels with a viewBox (so it scales), role="img", an id and a class,
 * and the text alternatives: <title> and <desc> (escaped here). */
int hp__svg_begin(hp__buf *b, const char *id, double w, double h, const char *title,
                  const char *desc);
int hp__svg_end(hp__buf *b);
/* Text at (x, y); anchor "start", "middle" or "end"; cls may be NULL. hp__svg_text_cut writes at
 * most max characters of it, the last a "…" when cut (hp__html_text; 0: all). */
int hp__svg_text(hp__buf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text);
int hp__svg_text_cut(hp__buf *b, double x, double y, const char *anchor, const char *cls,
                     const char *text, size_t max);
int hp__svg_line(hp__buf *b, double x1, double y1, double x2, double y2, const char *cls);
/* A rectangle or circle with an optional hover text (`tip`, a <title> child: no script needed). */
int hp__svg_rect(hp__buf *b, double x, double y, double w, double h, const char *cls,
                 const char *tip);
int hp__svg_circle(hp__buf *b, double cx, double cy, double r, const char *cls, const char *tip);
/* Grid lines and tick labels of an x axis at pixel row y (from y_top down to y) or of a y axis at
 * pixel column x (from x to x_right); `label` names the axis (may be NULL). */
int hp__svg_xaxis(hp__buf *b, const hp__axis *a, double y_top, double y, const char *label);
int hp__svg_yaxis(hp__buf *b, const hp__axis *a, double x, double x_right, const char *label);
/* A legend entry: a swatch of class `cls` and its text cut to fit `room` pixels, at (x, y).
 * Returns the entry's width (hp__legend_width, html_labels.h); an append's error stays in the
 * buffer. */
double hp__svg_legend(hp__buf *b, double x, double y, const char *cls, const char *text,
                      double room);

/* The CSS class of a flag: "baseline", "ok", "unconfirmed", "perturbed", "distorted", "failed". */
const char *hp__html_flag_class(hp_flag f);

/* The session's charts (html_charts.c), each an <svg> inside a <figure>; nothing when the session
 * has nothing to draw. */
int hp__html_overhead(hp__buf *b, const hp_session *s);
int hp__html_timeline(hp__buf *b, const hp_session *s);
int hp__html_distributions(hp__buf *b, const hp_session *s);
/* Each profiled pass: category and top-kernel bars, and the counter table of its top kernel. */
int hp__html_profiles(hp__buf *b, const hp_session *s);
/* A sweep's chart of each pass's overhead across the combinations, and its overview table
 * (html_sweep.c). */
int hp__html_sweep(hp__buf *b, const hp_session *s);
/* The roofline chart and table of every pass whose profile allowed points (html_roofline.c). */
int hp__html_roofline(hp__buf *b, const hp_session *s);

#endif /* HPRUN_REPORT_HTML_H */
