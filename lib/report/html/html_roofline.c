/*
 * The roofline section of report.html: one log-log chart of every pass's kernels (arithmetic
 * intensity against achieved GFLOP/s) under the roofs of the session's peaks (the bandwidth slope
 * up to the ridge point, then the FP32 and FP64 ceilings, and the FP16/BF16 matrix ceilings when
 * the peaks have them), and the table of the same points: the roofline table's one description
 * (roofline_table.c), as in report.md and the terminal, with whole kernel names. The points were
 * computed by lib/analyze/roofline.c; this file only places them. Without peaks the points are
 * drawn without a roof, and the table says so.
 *
 * Labels (html_labels.h): the ceilings' first, at the right end of each roof; then each kernel's
 * name beside its dot, the kernels with the most time first, wherever it overlaps no other label,
 * no dot and stays inside the plot. A kernel whose name finds no room gets a number, and the key
 * under the chart names it: a crowd of GEMMs at the top right stays readable.
 */
#include "report/html/html.h"
#include "report/html/html_labels.h"
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

/* The label of roof k (0 FP32, 1 FP64, 2 FP16 matrix, 3 BF16 matrix) into lab, and its peak in
 * TFLOP/s; 0 when it has no label of its own: no such peak, or a BF16 ceiling equal to FP16's,
 * which shares FP16's label (a capture's own ceilings are equal). */
static double roof_name(const hp_peaks *pk, size_t k, char *lab, size_t len)
{
  static const char *const names[] = {"FP32", "FP64", "FP16 matrix", "BF16 matrix"};
  const double f[] = {pk->fp32_tflops, pk->fp64_tflops, pk->fp16_tflops, pk->bf16_tflops};
  int same = f[2] > 0 && f[2] == f[3];

  if (!(f[k] > 0) || (k == 3 && same))
    return 0;
  snprintf(lab, len, "%s %.4g TFLOP/s", k == 2 && same ? "FP16, BF16 matrix" : names[k], f[k]);
  return f[k];
}

/* Widens the x axis on the right until the flat part of every roof is wider than its label, so
 * that each label has a place right of its ridge, above or below its line (roof_label). */
static void widen_for_labels(hp__axis *ax, const hp_peaks *pk)
{
  double span = ax->p1 - ax->p0, lo = log10(ax->lo), f, tf;
  char lab[80];
  size_t k;

  for (k = 0; k < 4; k++)
    if ((tf = roof_name(pk, k, lab, sizeof(lab))) > 0 &&
        (f = (hp__text_px(lab, 0) + 12) / span) < 0.9)
      /* The ridge's fraction of the axis, (log ridge - log lo) / (log hi - log lo), at most
       * 1 - f. */
      ax->hi = fmax(ax->hi, pow(10, (log10(tf * 1e3 / pk->bw_gbs) - f * lo) / (1 - f)));
}

/* Axes over every point and the ridge points, with room for the roofs' labels. */
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
  if (hp_peaks_usable(pk))
    widen_for_labels(ax, pk);
  return 0;
}

/* A dot's radius, the characters of a kernel's name beside it, and in the key of numbered dots:
 * enough there to tell apart the template instances that share a short name (the tooltip has the
 * name whole). */
#define DOT_R 5.0
#define NAME_CHARS 28
#define KEY_CHARS 120

/* A kernel's dot: its pixel position, its share of its pass's kernel time (labels are placed in
 * that order, so that the kernels that matter get their names) and the point it draws. */
typedef struct dot {
  double x, y, share;
  size_t pass, k;
} dot;

/* Largest share first; ties by pass and position, so that the order never depends on qsort. */
static int cmp_dot(const void *pa, const void *pb)
{
  const dot *a = pa, *b = pb;

  if (a->share != b->share)
    return a->share > b->share ? -1 : 1;
  if (a->pass != b->pass)
    return a->pass < b->pass ? -1 : 1;
  return a->k < b->k ? -1 : a->k > b->k;
}

/* A point's kernel time in its pass: launches times the time per launch, 0 when unknown. */
static double point_ns(const hp_roof_point *p)
{
  double t = (double)p->launches * p->time_ns;

  return isfinite(t) && t > 0 ? t : 0;
}

/* Every point of every pass that sits on the log axes, as a dot, in label order. *out is owned
 * by the caller (free). Returns 0 or HP_ENOMEM. */
static int collect_dots(const hp_session *s, const hp__axis *ax, const hp__axis *ay, dot **out,
                        size_t *n)
{
  size_t i, k, cap = 1;
  dot *d;

  *n = 0;
  for (i = 0; i < s->npasses; i++)
    cap += s->passes[i].roofline ? s->passes[i].roofline->n : 0;
  if ((*out = d = malloc(cap * sizeof(*d))) == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses; i++) {
    const hp_roofline *rl = s->passes[i].roofline;
    double total = 0;
    for (k = 0; rl && k < rl->n; k++)
      total += point_ns(&rl->pts[k]);
    for (k = 0; rl && k < rl->n; k++) {
      const hp_roof_point *p = &rl->pts[k];
      if (!(p->ai > 0 && p->gflops > 0))
        continue;
      d[*n].x = hp__axis_px(ax, p->ai);
      d[*n].y = hp__axis_px(ay, p->gflops);
      d[*n].share = total > 0 ? point_ns(p) / total : 0;
      d[*n].pass = i;
      d[*n].k = k;
      (*n)++;
    }
  }
  qsort(d, *n, sizeof(*d), cmp_dot);
  return 0;
}

static const hp_roof_point *dot_point(const hp_session *s, const dot *d)
{
  return &s->passes[d->pass].roofline->pts[d->k];
}

/* A kernel's name without the "void " of a demangled signature. */
static const char *without_void(const char *kernel)
{
  return strncmp(kernel, "void ", 5) == 0 && kernel[5] ? kernel + 5 : kernel;
}

/* A kernel's name on the chart: up to its argument list, without "void ". */
static void short_name(const char *kernel, char *buf, size_t len)
{
  size_t n;

  kernel = without_void(kernel);
  n = strcspn(kernel, "(");
  snprintf(buf, len, "%.*s", (int)(n < 60 ? n : 60), kernel);
}

/* A text at spot sp, cut to max characters (0: whole). */
static int spot_text(hp__buf *b, hp__spot sp, const char *cls, const char *text, size_t max)
{
  return hp__svg_text_cut(b, sp.x, sp.y, sp.anchor, cls, text, max);
}

/* A kernel's dot, coloured by its pass, outlined by its bound, with its figures as the tooltip. */
static int draw_dot(hp__buf *b, const hp_session *s, const dot *d)
{
  const hp_pass_result *pr = &s->passes[d->pass];
  const hp_roof_point *p = dot_point(s, d);
  char cls[32], tip[600], a[32], g[32], e[32];

  snprintf(cls, sizeof(cls), "pt s%zu %s", d->pass % HP__HTML_SERIES,
           p->bound == HP_BOUND_COMPUTE ? "comp" : "mem");
  snprintf(tip, sizeof(tip), "%.400s (%.60s): %s FLOP/byte, %s GFLOP/s, %s bound, %s%% of the roof",
           p->kernel, pr->name, hp__fmt_num(a, sizeof(a), p->ai),
           hp__fmt_num(g, sizeof(g), p->gflops), hp_bound_name(p->bound),
           hp__fmt_num(e, sizeof(e), p->efficiency * 100));
  return hp__svg_circle(b, d->x, d->y, DOT_R, cls, tip);
}

/* One roof: the bandwidth slope up to the ridge of `tflops`, then flat. */
static int roof_line(hp__buf *b, const hp__axis *ax, const hp__axis *ay, double bw, double tflops,
                     const char *cls)
{
  double peak = tflops * 1e3, ridge = peak / bw;
  double x0 = ax->lo, y0 = bw * x0;

  if (y0 < ay->lo)
    x0 = ay->lo / bw, y0 = ay->lo;
  return hp__buf_printf(b, "<polyline class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
                        cls, hp__axis_px(ax, x0), hp__axis_px(ay, y0), hp__axis_px(ax, ridge),
                        hp__axis_px(ay, peak), hp__axis_px(ax, ax->hi), hp__axis_px(ay, peak));
}

/* A roof's label, by its flat part: at the right end above the line, else below it, else slid
 * left in steps of 8 pixels; clear of the dots where it can be, else of the other texts only. A
 * label below the line stays right of the ridge (left of it the slope would cross it); one above
 * may reach out over the slope, whose line is below it there, as far as the ridge. Where even
 * that fails it is left out: the ceilings line above the chart names every one. */
static int roof_label(hp__buf *b, hp__labels *l, const hp__axis *ax, const hp__axis *ay, double bw,
                      double peak, const char *name)
{
  double w = hp__text_px(name, 0), y = hp__axis_px(ay, peak);
  double ridge = hp__axis_px(ax, peak / bw), x;
  int texts_only, below, r;

  for (texts_only = 0; texts_only < 2; texts_only++)
    for (x = ax->p1 - 4; x >= ridge; x -= 8)
      for (below = 0; below < 2; below++) {
        hp__spot sp = {x, below ? y + 14 : y - 5, "end"};
        hp__box bx = hp__text_box(sp, w);
        if ((below && bx.x0 < ridge) || !hp__labels_free_at(l, bx, texts_only))
          continue;
        if ((r = hp__labels_take(l, bx, 1)) != 0)
          return r;
        return spot_text(b, sp, "label", name, 0);
      }
  return 0;
}

/* The roofs of the peaks: FP32 solid, FP64 dashed, the matrix ceilings dotted; then their labels
 * (roof_name), in that order, each where roof_label finds room. */
static int roofs(hp__buf *b, hp__labels *l, const hp__axis *ax, const hp__axis *ay,
                 const hp_peaks *pk)
{
  static const char *const cls[] = {"roof", "roof2", "roof3", "roof3"};
  const double f[] = {pk->fp32_tflops, pk->fp64_tflops, pk->fp16_tflops, pk->bf16_tflops};
  char lab[80];
  double tf;
  size_t k;
  int r;

  for (k = 0; k < 4; k++)
    if (f[k] > 0)
      roof_line(b, ax, ay, pk->bw_gbs, f[k], cls[k]);
  for (k = 0; k < 4; k++)
    if ((tf = roof_name(pk, k, lab, sizeof(lab))) > 0 &&
        (r = roof_label(b, l, ax, ay, pk->bw_gbs, tf * 1e3, lab)) != 0)
      return r;
  return hp__buf_error(b);
}

/* A number for a dot without room for its name: beside it, else a little further out. */
static int dot_number(hp__buf *b, hp__labels *l, const dot *d, size_t num, int *placed)
{
  char s[24];
  hp__spot sp;
  int ring, r;

  snprintf(s, sizeof(s), "%zu", num);
  for (ring = 0; ring < 3; ring++) {
    if ((r = hp__labels_place(l, d->x, d->y, DOT_R + 7 * ring, hp__text_px(s, 0), &sp, placed)))
      return r;
    if (*placed)
      return spot_text(b, sp, "legend num", s, 0);
  }
  return 0;
}

/* The dots' names, most time first. A dot whose name finds no free spot gets a number, which
 * `key` lists with the kernel's name (and its pass when several passes have dots); one without
 * room for a number either goes to `unmarked`. */
static int dot_labels(hp__buf *b, hp__buf *key, hp__buf *unmarked, hp__labels *l,
                      const hp_session *s, const dot *d, size_t n, int passes)
{
  char name[64];
  hp__spot sp;
  size_t i, num = 1;
  int placed, r;

  for (i = 0; i < n; i++) {
    hp__buf *to = key;
    short_name(dot_point(s, &d[i])->kernel, name, sizeof(name));
    if ((r = hp__labels_place(l, d[i].x, d[i].y, DOT_R, hp__text_px(name, NAME_CHARS), &sp,
                              &placed)) != 0)
      return r;
    if (placed) {
      spot_text(b, sp, "legend", name, NAME_CHARS);
      continue;
    }
    if ((r = dot_number(b, l, &d[i], num, &placed)) != 0)
      return r;
    if (placed)
      hp__buf_printf(key, "%s<b>%zu</b> ", key->len ? ", " : "", num++);
    else
      to = unmarked, hp__buf_adds(unmarked, unmarked->len ? ", " : "");
    hp__buf_adds(to, "<code>");
    hp__html_text(to, without_void(dot_point(s, &d[i])->kernel), KEY_CHARS);
    hp__buf_adds(to, "</code>");
    if (passes > 1) {
      hp__buf_adds(to, " (");
      hp__html_text(to, s->passes[d[i].pass].name, 0);
      hp__buf_adds(to, ")");
    }
  }
  return hp__buf_error(key) ? hp__buf_error(key) : hp__buf_error(unmarked);
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

/* The chart's drawing inside its <svg>: axes, roofs and dots, then the labels, placed so that no
 * text overlaps another or leaves the plot. Every dot is taken before any label is placed, so no
 * label covers one. The numbered dots' key goes to `key`, the dots without a number to
 * `unmarked`. */
static int chart_body(hp__buf *b, hp__buf *key, hp__buf *unmarked, const hp_session *s,
                      const hp_peaks *pk, const hp__axis *ax, const hp__axis *ay)
{
  hp__box area = {L, T, W - R, H - B};
  hp__labels l;
  dot *d = NULL;
  size_t i, n = 0;
  int r, passes = 1;

  hp__labels_init(&l, area);
  if ((r = collect_dots(s, ax, ay, &d, &n)) != 0)
    goto fail;
  hp__svg_xaxis(b, ax, T, H - B, "arithmetic intensity (FLOP per byte of device memory)");
  hp__svg_yaxis(b, ay, L, W - R, "GFLOP/s");
  for (i = 0; i < n && r == 0; i++) {
    hp__box bx = {d[i].x - DOT_R - 1, d[i].y - DOT_R - 1, d[i].x + DOT_R + 1, d[i].y + DOT_R + 1};
    r = hp__labels_take(&l, bx, 0);
    passes += passes == 1 && d[i].pass != d[0].pass;
  }
  if (r == 0 && hp_peaks_usable(pk))
    r = roofs(b, &l, ax, ay, pk);
  for (i = 0; i < n && r == 0; i++)
    draw_dot(b, s, &d[i]);
  if (r == 0)
    r = dot_labels(b, key, unmarked, &l, s, d, n, passes);
fail:
  free(d);
  hp__labels_free(&l);
  return r ? r : hp__buf_error(b);
}

/* A paragraph under the chart: `head`, then the list in `list` (already markup), when it has
 * any. */
static int key_line(hp__buf *b, const char *head, const hp__buf *list)
{
  if (list->len == 0)
    return 0;
  hp__buf_adds(b, "<p class=\"key\">");
  hp__buf_adds(b, head);
  hp__buf_add(b, list->data, list->len);
  return hp__buf_adds(b, ".</p>\n");
}

int hp__html_roofline(hp__buf *b, const hp_session *s)
{
  const hp_peaks *pk = chart_peaks(s);
  hp__buf key = HP__BUF_INIT, unmarked = HP__BUF_INIT;
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
  if ((r = chart_body(b, &key, &unmarked, s, pk, &ax, &ay)) != 0)
    goto fail;
  hp__svg_end(b);
  key_line(b, "Numbered dots (no room for their names): ", &key);
  key_line(b, "Dots without room for a name or a number (hover them): ", &unmarked);
  hp__buf_adds(b,
               "<figcaption>Left of a roof's corner a kernel is memory-bound, right of it "
               "compute-bound; hover a dot for its kernel.</figcaption>\n</figure>\n");
  r = table(b, s);
fail:
  hp__buf_free(&key);
  hp__buf_free(&unmarked);
  return r;
}
