/*
 * The roofline section of report.html: one log-log chart of every pass's kernels (arithmetic
 * intensity against achieved GFLOP/s) under the roofs of the session's peaks (the bandwidth slope
 * up to the ridge point, then the FP32 and FP64 ceilings, and the FP16/BF16 matrix ceilings when
 * the peaks have them), and the table of the same points: the roofline table's one description
 * (roofline_table.c), as in report.md and the terminal, with whole kernel names. The points were
 * computed by lib/analyze/roofline.c; this file only places them. Without peaks the points are
 * drawn without a roof, and the table says so.
 */
#include "report/html/html.h"
#include "report/core/roofline_table.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 860.0
#define H 420.0
#define L 80.0
#define R 30.0
#define T 24.0
#define B 48.0

/* The ceilings drawn: the session's, else those of the first pass whose capture had its own. */
static const hp_peaks *chart_peaks(const hp_session *s)
{
  size_t i;

  for (i = 0; !hp_peaks_usable(s->peaks) && i < s->npasses; i++)
    if (s->passes[i].roofline && s->passes[i].roofline->peaks)
      return s->passes[i].roofline->peaks;
  return s->peaks;
}

/* Axes over every point and the ridge points. */
static int fit_axes(const hp_session *s, hp__axis *ax, hp__axis *ay)
{
  double x[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
  const hp_peaks *pk = chart_peaks(s);
  size_t i, k;

  for (i = 0; i < s->npasses; i++)
    for (k = 0; s->passes[i].roofline && k < s->passes[i].roofline->n; k++) {
      const hp_roof_point *p = &s->passes[i].roofline->pts[k];
      if (p->ai > 0 && p->gflops > 0) {
        x[0] = fmin(x[0], p->ai), x[1] = fmax(x[1], p->ai);
        x[2] = fmin(x[2], p->gflops), x[3] = fmax(x[3], p->gflops);
      }
    }
  if (hp_peaks_usable(pk)) {
    double peak = fmax(fmax(pk->fp32_tflops > 0 ? pk->fp32_tflops : 0,
                            pk->fp64_tflops > 0 ? pk->fp64_tflops : 0),
                       fmax(pk->fp16_tflops > 0 ? pk->fp16_tflops : 0,
                            pk->bf16_tflops > 0 ? pk->bf16_tflops : 0)) *
        1e3;
    x[1] = fmax(x[1], peak / pk->bw_gbs * 4);
    x[3] = fmax(x[3], peak);
    x[0] = fmin(x[0], peak / pk->bw_gbs / 100);
    x[2] = fmin(x[2], x[0] * pk->bw_gbs);
  }
  if (!isfinite(x[0]) || !isfinite(x[2]))
    return HP_ENOENT;
  ax->log = ay->log = 1;
  ax->lo = x[0] / 2, ax->hi = x[1] * 2, ax->p0 = L, ax->p1 = W - R;
  ay->lo = x[2] / 2, ay->hi = x[3] * 2, ay->p0 = H - B, ay->p1 = T;
  return 0;
}

/* One roof: the bandwidth slope up to the ridge of `tflops`, then flat. */
static int roof(hp__buf *b, const hp__axis *ax, const hp__axis *ay, double bw, double tflops,
                const char *cls, const char *name, int below)
{
  double peak = tflops * 1e3, ridge = peak / bw;
  double x0 = ax->lo, y0 = bw * x0;

  if (!(tflops > 0))
    return 0;
  if (y0 < ay->lo)
    x0 = ay->lo / bw, y0 = ay->lo;
  hp__buf_printf(b, "<polyline class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", cls,
                 hp__axis_px(ax, x0), hp__axis_px(ay, y0), hp__axis_px(ax, ridge),
                 hp__axis_px(ay, peak), hp__axis_px(ax, ax->hi), hp__axis_px(ay, peak));
  /* A second label at one height (BF16 beside FP16) goes under its line. */
  return hp__svg_text(b, hp__axis_px(ax, ax->hi) - 4, hp__axis_px(ay, peak) + (below ? 14 : -5),
                      "end", "label", name);
}

/* A kernel's label on the chart: its name up to the argument list, at most 28 characters (the
 * tooltip and the table have it whole). */
static int point_label(hp__buf *b, double x, double y, const char *kernel)
{
  char name[64];
  size_t n = strcspn(kernel, "(");

  if (strncmp(kernel, "void ", 5) == 0 && n > 5)
    kernel += 5, n -= 5;
  snprintf(name, sizeof(name), "%.*s", (int)(n < 60 ? n : 60), kernel);
  hp__buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" class=\"legend\">", x + 8,
                 y - 7);
  hp__html_text(b, name, 28);
  return hp__buf_adds(b, "</text>\n");
}

static int points(hp__buf *b, const hp__axis *ax, const hp__axis *ay, size_t pi,
                  const hp_pass_result *pr)
{
  char cls[32], tip[600], a[32], g[32], e[32];
  size_t k;

  for (k = 0; pr->roofline && k < pr->roofline->n; k++) {
    const hp_roof_point *p = &pr->roofline->pts[k];
    if (!(p->ai > 0 && p->gflops > 0))
      continue;
    snprintf(cls, sizeof(cls), "pt s%zu %s", pi % HP__HTML_SERIES,
             p->bound == HP_BOUND_COMPUTE ? "comp" : "mem");
    snprintf(tip, sizeof(tip),
             "%.400s (%.60s): %s FLOP/byte, %s GFLOP/s, %s bound, %s%% of the roof", p->kernel,
             pr->name, hp__fmt_num(a, sizeof(a), p->ai), hp__fmt_num(g, sizeof(g), p->gflops),
             hp_bound_name(p->bound), hp__fmt_num(e, sizeof(e), p->efficiency * 100));
    hp__svg_circle(b, hp__axis_px(ax, p->ai), hp__axis_px(ay, p->gflops), 5, cls, tip);
    point_label(b, hp__axis_px(ax, p->ai), hp__axis_px(ay, p->gflops), p->kernel);
  }
  return hp__buf_error(b);
}

/* The table of every point: the roofline table's text columns, with the pass in front. Each cell
 * is written into t first, a buffer of its own whose error is checked apart from b's. */
static int table(hp__buf *b, const hp_session *s)
{
  hp__buf t = HP__BUF_INIT;
  size_t i, k, c;
  int r = 0;

  hp__buf_adds(b, "<table>\n<thead><tr><th>pass</th>");
  for (c = 0; c < hp__roof_ncols; c++)
    if (hp__roof_cols[c].in & HP__IN_TEXT)
      hp__buf_printf(b, "<th%s>%s</th>",
                     (hp__roof_cols[c].flags & HP__C_RIGHT) ? " class=\"n\"" : "",
                     hp__col_head(&hp__roof_cols[c]));
  hp__buf_adds(b, "</tr></thead>\n<tbody>\n");
  for (i = 0; i < s->npasses; i++)
    for (k = 0; s->passes[i].roofline && k < s->passes[i].roofline->n; k++) {
      hp__buf_adds(b, "<tr><td>");
      hp__html_text(b, s->passes[i].name, 0);
      hp__buf_adds(b, "</td>");
      for (c = 0; c < hp__roof_ncols; c++) {
        const hp__col *col = &hp__roof_cols[c];
        if (!(col->in & HP__IN_TEXT))
          continue;
        if ((r = hp__roof_text(&s->passes[i].roofline->pts[k], col, HP__RT_FULL, &t)) != 0)
          goto fail;
        hp__buf_adds(b,
                     (col->flags & HP__C_RIGHT)      ? "<td class=\"n\">"
                         : (col->flags & HP__C_NAME) ? "<td class=\"mono\">"
                                                     : "<td>");
        hp__html_text(b, t.data ? t.data : "", (col->flags & HP__C_NAME) ? 80 : 0);
        hp__buf_adds(b, "</td>");
      }
      hp__buf_adds(b, "</tr>\n");
    }
  r = hp__buf_adds(b, "</tbody>\n</table>\n");
fail:
  hp__buf_free(&t);
  return r;
}

/* The ceilings as a paragraph: the same line as report.md and the terminal, written into a buffer
 * of its own first. */
static int ceilings(hp__buf *b, const hp_peaks *pk)
{
  hp__buf t = HP__BUF_INIT;
  int r;

  if ((r = hp__roof_ceilings(&t, pk, 0)) == 0) {
    if (t.len > 0 && t.data[t.len - 1] == '\n')
      t.data[--t.len] = '\0';
    if (t.data)
      t.data[0] = 'C';
    hp__buf_adds(b, "<p>");
    hp__html_text(b, t.data ? t.data : "", 0);
    r = hp__buf_adds(b, ".</p>\n");
  }
  hp__buf_free(&t);
  return r;
}

/* The roofs of the peaks: FP32 solid, the others dashed; each labelled at its right end, the
 * matrix ceilings at the left so that labels of close peaks do not overlap. */
static int roofs(hp__buf *b, const hp__axis *ax, const hp__axis *ay, const hp_peaks *pk)
{
  static const char *const names[] = {"FP32", "FP64", "FP16 matrix", "BF16 matrix"};
  static const char *const cls[] = {"roof", "roof2", "roof3", "roof3"};
  const double f[] = {pk->fp32_tflops, pk->fp64_tflops, pk->fp16_tflops, pk->bf16_tflops};
  char lab[80];
  size_t k;

  for (k = 0; k < 4; k++) {
    snprintf(lab, sizeof(lab), "%s %.4g TFLOP/s", names[k], f[k]);
    roof(b, ax, ay, pk->bw_gbs, f[k], cls[k], lab, k == 3 && f[2] > 0);
  }
  return hp__buf_error(b);
}

int hp__html_roofline(hp__buf *b, const hp_session *s)
{
  const hp_peaks *pk = chart_peaks(s);
  hp__axis ax, ay;
  size_t i;
  int r;

  for (i = 0; i < s->npasses && !s->passes[i].roofline; i++)
    ;
  if (i == s->npasses)
    return 0;
  hp__buf_adds(b, "<h2>Roofline</h2>\n");
  if (!hp_peaks_usable(pk))
    hp__buf_adds(b,
                 "<p>No peaks were given (plan key <code>roofline:</code>), so the points "
                 "are drawn without a roof and have no bound or efficiency.</p>\n");
  else if ((r = ceilings(b, pk)) != 0)
    return r;
  /* Points without FLOPs (copies) cannot sit on a log axis: then only the table. */
  if (fit_axes(s, &ax, &ay) != 0)
    return table(b, s);
  hp__buf_adds(b, "<figure>\n");
  hp__svg_begin(b, "chart-roofline", W, H,
                "Roofline: achieved GFLOP/s against arithmetic "
                "intensity",
                "Log-log chart. Each dot is a kernel (colour: its pass; dark outline: "
                "compute-bound); the solid line is the memory-bandwidth slope and the FP32 "
                "ceiling, the dashed lines the FP64 ceiling and, when the peaks have them, "
                "the FP16 and BF16 matrix ceilings. The table below has the figures.");
  hp__svg_xaxis(b, &ax, T, H - B, "arithmetic intensity (FLOP per byte of device memory)");
  hp__svg_yaxis(b, &ay, L, W - R, "GFLOP/s");
  if (hp_peaks_usable(pk))
    roofs(b, &ax, &ay, pk);
  for (i = 0; i < s->npasses; i++)
    points(b, &ax, &ay, i, &s->passes[i]);
  hp__svg_end(b);
  hp__buf_adds(b,
               "<figcaption>Left of a roof's corner a kernel is memory-bound, right of it "
               "compute-bound; hover a dot for its kernel.</figcaption>\n</figure>\n");
  return table(b, s);
}
