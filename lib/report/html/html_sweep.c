/*
 * report.html of a parameter sweep: why a sweep is run is to see how each mode's overhead changes
 * with the parameters, so the page draws it: one line per pass, its primary-metric overhead
 * (against each combination's own baseline) on a log axis across the combinations, with the
 * intervals as whiskers and the flags as the points' colours. When the sweep has a single
 * parameter whose values are all positive numbers, the x axis is that parameter (log-spaced when it
 * spans more than 20x); otherwise the combinations are evenly spaced in the plan's order. Under the
 * chart, the overview table of the other reports (lib/report/core/sweep.c) and a link to each
 * combination's own report.html.
 */
#include "report/html/html.h"
#include "report/html/html_labels.h"
#include "report/core/report.h"
#include "report/core/sweep.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 860.0
#define H 380.0
#define L 70.0
#define R 30.0
#define T 24.0
#define B 60.0

/* The x value of combination i: its single numeric parameter, or i + 1. *numeric says which. */
static double combo_x(const hp_session *s, size_t i, int numeric)
{
  char *end;
  double v;

  if (!numeric)
    return (double)i + 1;
  v = strtod(s->combos[i].params[0].value, &end);
  return v;
}

/* Whether every combination has one parameter with a positive number as its value. */
static int numeric_axis(const hp_session *s)
{
  size_t i;

  for (i = 0; i < s->ncombos; i++) {
    const char *v = s->combos[i].nparams == 1 ? s->combos[i].params[0].value : NULL;
    char *end;
    if (v == NULL || !(strtod(v, &end) > 0) || *end != '\0')
      return 0;
  }
  return s->ncombos > 0;
}

/* The axes: x over the combinations, y over every ratio and interval (log), with 1x. */
static int sweep_axes(const hp_session *s, const char **names, size_t nnames, int numeric,
                      hp__axis *ax, hp__axis *ay)
{
  double *xv = malloc((s->ncombos + 1) * sizeof(double));
  double *yv = malloc((3 * s->ncombos * (nnames + 1) + 1) * sizeof(double));
  size_t i, k, ny = 0;
  int r = HP_ENOMEM;

  if (xv && yv) {
    for (i = 0; i < s->ncombos; i++) {
      xv[i] = combo_x(s, i, numeric);
      for (k = 0; k < nnames; k++) {
        const hp_pass_result *pr = hp__sweep_pass(&s->combos[i], names[k]);
        if (pr && pr->nmetrics && !pr->is_baseline && !pr->is_reference) {
          yv[ny++] = pr->metrics[0].ratio;
          yv[ny++] = pr->metrics[0].ci_lo;
          yv[ny++] = pr->metrics[0].ci_hi;
        }
      }
    }
    r = hp__axis_fit(ax, xv, s->ncombos, NAN, numeric);
    if (r == 0)
      r = hp__axis_fit(ay, yv, ny, 1.0, 1);
  }
  free(xv);
  free(yv);
  if (r)
    return r;
  if (!numeric || !ax->log) {
    ax->log = 0;
    ax->lo = numeric ? ax->lo : 0.5;
    ax->hi = numeric ? ax->hi : (double)s->ncombos + 0.5;
  }
  ay->log = 1;
  ax->p0 = L, ax->p1 = W - R;
  ay->p0 = H - B, ay->p1 = T;
  return 0;
}

/* One pass's line, whiskers and points across the combinations. */
static int sweep_line(hp__buf *b, const hp_session *s, const char *name, size_t pi, int numeric,
                      const hp__axis *ax, const hp__axis *ay)
{
  char cls[48], tip[400], ov[48];
  size_t i;
  int open = 0;

  hp__buf_printf(b, "<g class=\"s%zu\">\n", pi % HP__HTML_SERIES);
  for (i = 0; i < s->ncombos; i++) {
    const hp_pass_result *pr = hp__sweep_pass(&s->combos[i], name);
    double x = hp__axis_px(ax, combo_x(s, i, numeric));
    if (!pr || !pr->nmetrics || !isfinite(pr->metrics[0].ratio))
      continue;
    hp__buf_printf(b, open ? " %.1f,%.1f" : "<polyline class=\"line\" points=\"%.1f,%.1f", x,
                   hp__axis_px(ay, pr->metrics[0].ratio));
    open = 1;
  }
  if (open)
    hp__buf_adds(b, "\"/>\n");
  for (i = 0; i < s->ncombos; i++) {
    const hp_pass_result *pr = hp__sweep_pass(&s->combos[i], name);
    const hp_metric_result *m = pr && pr->nmetrics ? &pr->metrics[0] : NULL;
    double x = hp__axis_px(ax, combo_x(s, i, numeric));
    if (!m || !isfinite(m->ratio))
      continue;
    if (isfinite(m->ci_lo) && isfinite(m->ci_hi))
      hp__svg_line(b, x, hp__axis_px(ay, m->ci_lo), x, hp__axis_px(ay, m->ci_hi), "whisker");
    snprintf(cls, sizeof(cls), "pt sweep %s", hp__html_flag_class(pr->flag));
    snprintf(tip, sizeof(tip), "%.120s at %.200s: %s, %s", name, s->combos[i].name,
             hp__fmt_overhead(ov, sizeof(ov), m->ratio), hp_flag_name(pr->flag));
    hp__svg_circle(b, x, hp__axis_px(ay, m->ratio), 4.5, cls, tip);
  }
  return hp__buf_adds(b, "</g>\n");
}

/* Whether pass `name` is measured against something in some combination (the baseline and the
 * reference get no line). */
static int has_line(const hp_session *s, const char *name)
{
  size_t i;

  for (i = 0; i < s->ncombos; i++) {
    const hp_pass_result *pr = hp__sweep_pass(&s->combos[i], name);
    if (pr && !pr->is_baseline && !pr->is_reference)
      return 1;
  }
  return 0;
}

/* The x axis's labels when the combinations are evenly spaced: their names, on two alternating
 * rows, each cut to fit between its neighbours on its row and inside the chart. */
static int combo_labels(hp__buf *b, const hp_session *s, const hp__axis *ax)
{
  double step = s->ncombos > 1 ? hp__axis_px(ax, 2) - hp__axis_px(ax, 1) : W;
  size_t i;

  hp__svg_line(b, ax->p0, H - B, ax->p1, H - B, "axis");
  for (i = 0; i < s->ncombos; i++) {
    double x = hp__axis_px(ax, (double)i + 1);
    double room = fmin(2 * step - 8, 2 * fmin(x, W - x) - 4);
    hp__svg_line(b, x, T, x, H - B, "grid");
    hp__svg_text_cut(b, x, H - B + 14 + (double)(i % 2) * 12, "middle", "tick", s->combos[i].name,
                     hp__text_fit(s->combos[i].name, room));
  }
  return hp__buf_error(b);
}

/* The legend under the chart, one entry per pass with a line, in rows (hp__flow); without a
 * buffer it only lays them out. Returns the rows it takes. */
static int sweep_legend(hp__buf *b, const hp_session *s, const char **names, size_t nnames)
{
  double x, y;
  char cls[16];
  hp__flow f;
  size_t k;

  hp__flow_init(&f, L, W - 10, H + 12, 16);
  for (k = 0; k < nnames; k++) {
    if (!has_line(s, names[k]))
      continue;
    hp__flow_next(&f, hp__legend_width(names[k], W - 10 - L), &x, &y);
    snprintf(cls, sizeof(cls), "sw s%zu", k % HP__HTML_SERIES);
    if (b)
      hp__svg_legend(b, x, y, cls, names[k], W - 10 - L);
  }
  return f.rows;
}

/* The chart: one line per pass that has a bar in some combination. */
static int sweep_chart(hp__buf *b, const hp_session *s, const char **names, size_t nnames)
{
  int numeric = numeric_axis(s);
  double rows = sweep_legend(NULL, s, names, nnames);
  hp__axis ax, ay;
  char xl[160];
  size_t k;

  if (sweep_axes(s, names, nnames, numeric, &ax, &ay) != 0)
    return 0;
  hp__buf_adds(b, "<figure>\n");
  hp__svg_begin(b, "chart-sweep", W, H + 20 + 16 * (rows - 1),
                "Overhead of each pass across the sweep",
                "One line per pass: its primary-metric overhead against each combination's "
                "own baseline, on a log axis, across the combinations; whiskers are the "
                "bootstrap intervals, a point's colour its flag. The table below has the "
                "figures.");
  if (numeric) {
    snprintf(xl, sizeof(xl), "%.100s", s->combos[0].params[0].key);
    hp__svg_xaxis(b, &ax, T, H - B, xl);
  } else
    combo_labels(b, s, &ax);
  hp__svg_yaxis(b, &ay, L, W - R, "ratio of medians (1 = no change)");
  hp__svg_line(b, L, hp__axis_px(&ay, 1.0), W - R, hp__axis_px(&ay, 1.0), "ref");
  for (k = 0; k < nnames; k++)
    if (has_line(s, names[k]))
      sweep_line(b, s, names[k], k, numeric, &ax, &ay);
  sweep_legend(b, s, names, nnames);
  hp__svg_end(b);
  return hp__buf_adds(b,
                      "<figcaption>Each line is a pass; a point's colour is its flag in "
                      "that combination. Hover a point for its figures.</figcaption>\n"
                      "</figure>\n");
}

/* The overview table (the other reports' cells) with links to each combination's page. */
static int sweep_table(hp__buf *b, const hp_session *s, const char **names, size_t nnames)
{
  char cell[96];
  size_t i, k;

  hp__buf_adds(b, "<table>\n<thead><tr><th>pass</th>");
  for (i = 0; i < s->ncombos; i++) {
    hp__buf_adds(b, "<th class=\"n\"><a href=\"");
    hp__html_text(b, s->combos[i].name, 0);
    hp__buf_adds(b, "/report.html\">");
    hp__html_text(b, s->combos[i].name, 0);
    hp__buf_adds(b, "</a></th>");
  }
  hp__buf_adds(b, "</tr></thead>\n<tbody>\n");
  for (k = 0; k < nnames; k++) {
    hp__buf_adds(b, "<tr><td>");
    hp__html_text(b, names[k], 0);
    hp__buf_adds(b, "</td>");
    for (i = 0; i < s->ncombos; i++) {
      hp__buf_adds(b, "<td class=\"n\">");
      hp__html_text(b, hp__sweep_cell(cell, sizeof(cell), &s->combos[i], names[k], 1), 0);
      hp__buf_adds(b, "</td>");
    }
    hp__buf_adds(b, "</tr>\n");
  }
  return hp__buf_adds(b, "</tbody>\n</table>\n");
}

int hp__html_sweep(hp__buf *b, const hp_session *s)
{
  const char **names = NULL;
  const char *unit = NULL, *metric = hp__sweep_metric(s, &unit);
  size_t nnames = 0;
  int r;

  if ((r = hp__sweep_pass_names(s, &names, &nnames)) != 0)
    return r;
  hp__buf_printf(b, "<h2>Sweep: %zu combinations</h2>\n<p>The primary metric, ", s->ncombos);
  hp__html_text(b, metric, 0);
  if (unit && *unit) {
    hp__buf_adds(b, " (");
    hp__html_text(b, unit, 0);
    hp__buf_adds(b, ")");
  }
  hp__buf_adds(b,
               ", against each combination's own baseline. Each combination's own page "
               "is linked from its column.</p>\n");
  sweep_chart(b, s, names, nnames);
  sweep_table(b, s, names, nnames);
  free(names);
  return hp__buf_error(b);
}
