/*
 * The session charts of report.html, drawn from the same hp_session every other writer reads:
 *
 *   - overhead: one bar per pass from 1x to its ratio of medians on a log axis (an overhead spans
 *     +1% to 400,000x), the bootstrap interval as whiskers, coloured by flag, with the warn and
 *     fail lines; variants in their own group, against the reference;
 *   - timeline: every run's primary metric against its global round (the schedule's position), one
 *     colour per pass, warmups hollow and outliers ringed: drift, warmup effects and order effects
 *     show up as slopes and steps;
 *   - distributions: per pass, a box (quartiles, median) over its counted runs drawn as a strip.
 *
 * The numbers on the bars are the summary's (hp__fmt_overhead of the stored ratio); nothing is
 * recomputed here except where a run's own value is placed.
 */
#include "report/html/html.h"
#include "report/html/html_labels.h"
#include "report/core/report.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 860.0
#define LEFT 180.0  /* pass names */
#define RIGHT 150.0 /* the value beside each bar, at least */
/* The legend's right end: entries wrap to a new row before it. */
#define LEGEND_END (W - 10)
#define ROW 26.0
#define TOP 28.0
#define BOTTOM 44.0
/* At most this many runs of a pass are drawn as points (plus every outlier): a session of 100,000
 * runs would otherwise make a page of tens of megabytes. The caption says when runs were left out;
 * summary.json has them all. */
#define MAX_POINTS 2000

/* The primary metric of pass i, or NULL. */
static const hp_metric_result *primary(const hp_pass_result *pr)
{
  return pr->nmetrics ? &pr->metrics[0] : NULL;
}

/* Whether pass pr gets a bar: every pass measured against something (not the baseline, not the
 * reference). */
static int has_bar(const hp_pass_result *pr)
{
  return !pr->is_baseline && !pr->is_reference;
}

/* The ratios, intervals and threshold lines that the overhead axis must show. Returns how many
 * values were written into v (room for 3 per pass + 4). */
static size_t overhead_values(const hp_session *s, double *v, double warn_at, double fail_at)
{
  size_t i, n = 0;

  for (i = 0; i < s->npasses; i++) {
    const hp_metric_result *m = primary(&s->passes[i]);
    if (!has_bar(&s->passes[i]) || m == NULL)
      continue;
    v[n++] = m->ratio;
    v[n++] = m->ci_lo;
    v[n++] = m->ci_hi;
  }
  v[n++] = 1.0;
  v[n++] = warn_at;
  v[n++] = fail_at;
  return n;
}

/* A vertical threshold line across the plot with its name on top, on the side given by `anchor`
 * ("end": left of the line, "start": right of it) so that warn and fail, often close together on
 * a log axis, never print over each other. No name: the line alone. */
static int threshold_line(hp__buf *b, const hp__axis *a, double at, double y1, const char *cls,
                          const char *anchor, const char *name)
{
  double x = hp__axis_px(a, at);

  if (!isfinite(at))
    return 0;
  hp__svg_line(b, x, TOP - 6, x, y1, cls);
  if (name)
    hp__svg_text(b, x + (*anchor == 'e' ? -3 : 3), TOP - 10, anchor, cls, name);
  return hp__buf_error(b);
}

/* The text beside a pass's bar: its change and flag. */
static void value_label(const hp_pass_result *pr, char *buf, size_t len)
{
  const hp_metric_result *m = primary(pr);
  char ov[48];

  if (m == NULL || !isfinite(m->ratio)) {
    snprintf(buf, len, "%s", pr->flag == HP_FLAG_FAILED ? "failed: no value" : "no value");
    return;
  }
  snprintf(buf, len, "%s %s%s", hp__fmt_overhead(ov, sizeof(ov), m->ratio), hp_flag_name(pr->flag),
           pr->expect_distorted && pr->flag == HP_FLAG_DISTORTED ? " (expected)" : "");
}

/* The room the values right of the plot need: RIGHT, or the widest label's estimated width. */
static double right_room(const hp_session *s)
{
  double r = RIGHT, w;
  char lab[128];
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (has_bar(&s->passes[i])) {
      value_label(&s->passes[i], lab, sizeof(lab));
      if ((w = hp__text_px(lab, 0) + 12) > r)
        r = w;
    }
  return r;
}

/* The pass's name left of its row, cut to fit between the chart's edge and the plot, with its
 * full name then as the row's tooltip (a <title> child of the row's <g>). */
static void row_name(hp__buf *b, const char *name, double cy)
{
  size_t cut = hp__text_fit(name, LEFT - 16);

  if (cut) {
    hp__buf_adds(b, "<title>");
    hp__html_text(b, name, 0);
    hp__buf_adds(b, "</title>");
  }
  hp__svg_text_cut(b, LEFT - 8, cy + 4, "end", "name", name, cut);
}

/* One pass's bar, whiskers and value. */
static int overhead_bar(hp__buf *b, const hp__axis *a, const hp_session *s,
                        const hp_pass_result *pr, double y)
{
  const hp_metric_result *m = primary(pr);
  double x1 = hp__axis_px(a, 1.0), x, cy = y + ROW / 2;
  char ov[48], iv[80], tip[512], cls[48], ci[32];

  hp__buf_adds(b, "<g class=\"row\">");
  row_name(b, pr->name, cy);
  hp__fmt_overhead(ov, sizeof(ov), m ? m->ratio : NAN);
  snprintf(cls, sizeof(cls), "bar %s", hp__html_flag_class(pr->flag));
  value_label(pr, tip, sizeof(tip));
  if (m == NULL || !isfinite(m->ratio)) {
    hp__svg_text(b, x1 + 6, cy + 4, "start", "failed-text", tip);
    return hp__buf_adds(b, "</g>\n");
  }
  x = hp__axis_px(a, m->ratio);
  snprintf(tip, sizeof(tip), "%.200s (%.40s): %s of the %s, %s %s, %s", pr->name, pr->mode, ov,
           pr->is_variant ? "reference" : "baseline",
           hp__report_ci_label(ci, sizeof(ci), s->alpha, pr->is_variant ? 1 : s->looks),
           hp__fmt_change(iv, sizeof(iv), m->ratio, m->ci_lo, m->ci_hi, HP__CHG_CI),
           hp_flag_name(pr->flag));
  hp__svg_rect(b, fmin(x, x1), y + 5, fabs(x - x1), ROW - 10, cls, tip);
  if (isfinite(m->ci_lo) && isfinite(m->ci_hi)) {
    double l = hp__axis_px(a, m->ci_lo), h = hp__axis_px(a, m->ci_hi);
    hp__svg_line(b, l, cy, h, cy, "whisker");
    hp__svg_line(b, l, cy - 5, l, cy + 5, "whisker");
    hp__svg_line(b, h, cy - 5, h, cy + 5, "whisker");
  }
  value_label(pr, tip, sizeof(tip));
  hp__svg_text(b, a->p1 + 8, cy + 4, "start", "value", tip);
  return hp__buf_adds(b, "</g>\n");
}

/* The chart's description: what a reader without the picture needs. */
static void overhead_desc(const hp_session *s, char *d, size_t len)
{
  size_t i, used;

  used = (size_t)snprintf(d, len,
                          "Horizontal bars on a log axis, one per pass, from 1x to its ratio of "
                          "medians against the baseline (variants against the reference):");
  for (i = 0; i < s->npasses && used < len; i++) {
    const hp_metric_result *m = primary(&s->passes[i]);
    char ov[48];
    if (!has_bar(&s->passes[i]))
      continue;
    used += (size_t)snprintf(d + used, len - used, " %.60s %s (%s);", s->passes[i].name,
                             hp__fmt_overhead(ov, sizeof(ov), m ? m->ratio : NAN),
                             hp_flag_name(s->passes[i].flag));
  }
}

int hp__html_overhead(hp__buf *b, const hp_session *s)
{
  const hp_metric_result *pm = hp__report_primary(s);
  int hib = pm && pm->higher_is_better;
  double warn_at = hib ? 1 / (1 + s->warn) : 1 + s->warn;
  double fail_at = s->fail > 0 ? (hib ? 1 / (1 + s->fail) : 1 + s->fail) : NAN;
  double *v, y, h;
  size_t i, nbars = 0, nv, variants = 0;
  hp__axis a;
  char desc[2048], wl[48], fl[48];

  for (i = 0; i < s->npasses; i++) {
    nbars += has_bar(&s->passes[i]);
    variants |= s->passes[i].is_variant && has_bar(&s->passes[i]);
  }
  if (nbars == 0)
    return 0;
  if ((v = malloc((3 * s->npasses + 4) * sizeof(*v))) == NULL)
    return HP_ENOMEM;
  nv = overhead_values(s, v, warn_at, fail_at);
  hp__axis_fit(&a, v, nv, 1.0, 1);
  free(v);
  /* Always logarithmic: a ratio of 2 and one of 1/2 are the same distance from 1. */
  a.log = 1;
  a.lo = fmin(a.lo, 1 / 1.05);
  a.p0 = LEFT;
  a.p1 = W - right_room(s);
  /* The variants get a heading row of their own: they are measured against the reference. */
  h = TOP + ROW * (double)(nbars + (variants ? 1 : 0)) + BOTTOM;
  overhead_desc(s, desc, sizeof(desc));
  hp__buf_adds(b, "<figure>\n");
  hp__svg_begin(b, "chart-overhead", W, h, "Overhead of each pass (log scale)", desc);
  hp__svg_xaxis(b, &a, TOP, h - BOTTOM, "ratio of medians (1 = no change)");
  threshold_line(b, &a, 1.0, h - BOTTOM, "ref", "end", NULL);
  snprintf(wl, sizeof(wl), "warn %+.3g%%", (warn_at - 1) * 100);
  snprintf(fl, sizeof(fl), "fail %+.3g%%", (fail_at - 1) * 100);
  threshold_line(b, &a, warn_at, h - BOTTOM, "warn", hib ? "start" : "end", wl);
  threshold_line(b, &a, fail_at, h - BOTTOM, "fail", hib ? "end" : "start", fl);
  for (i = 0, y = TOP; i < s->npasses; i++) {
    if (!has_bar(&s->passes[i]))
      continue;
    if (s->passes[i].is_variant && variants) {
      hp__svg_text(b, LEFT - 8, y + ROW / 2 + 4, "end", "label", "A/B, vs the reference:");
      y += ROW;
      variants = 0;
    }
    overhead_bar(b, &a, s, &s->passes[i], y);
    y += ROW;
  }
  hp__svg_end(b);
  hp__buf_adds(b,
               "<figcaption>Each bar runs from 1x to the pass's ratio of medians; the "
               "whiskers are the bootstrap interval. Colour is the flag.</figcaption>\n"
               "</figure>\n");
  return hp__buf_error(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Timeline.                                                                                       */

/* The axis of every run's primary value (*a, with its label in lab, ending in `tail`) and the last
 * round (*maxround). Returns 1, 0 when no value can be placed, or HP_ENOMEM. */
static int value_axis(const hp_session *s, hp__axis *a, int *maxround, char lab[160],
                      const char *tail)
{
  const hp_metric_result *pm = hp__report_primary(s);
  size_t i, k, n = 0, nv = 0;
  double *v;
  int r;

  *maxround = 0;
  for (i = 0; i < s->npasses; i++)
    n += s->passes[i].nruns;
  if ((v = malloc((n + 1) * sizeof(*v))) == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses; i++)
    for (k = 0; k < s->passes[i].nruns; k++) {
      const hp_run *run = &s->passes[i].runs[k];
      if (run->skipped)
        continue;
      if (run->round > *maxround)
        *maxround = run->round;
      if (run->values && s->passes[i].nmetrics)
        v[nv++] = run->values[0];
    }
  r = hp__axis_fit(a, v, nv, NAN, 1) == 0;
  free(v);
  snprintf(lab, 160, "%.100s%s%.40s%s%s", pm && pm->name ? pm->name : "metric",
           pm && pm->unit ? " (" : "", pm && pm->unit ? pm->unit : "", pm && pm->unit ? ")" : "",
           tail);
  return r;
}

/* The counted runs' outlier marks of one pass (hp_stats_outliers over them): *out[k] per run. */
static int pass_outliers(const hp_pass_result *pr, unsigned char **out)
{
  double *x = malloc((pr->nruns + 1) * sizeof(*x));
  unsigned char *f = calloc(pr->nruns + 1, 1);
  size_t k;
  int r;

  *out = NULL;
  if (!x || !f) {
    free(x);
    free(f);
    return HP_ENOMEM;
  }
  for (k = 0; k < pr->nruns; k++)
    x[k] = pr->runs[k].warmup || !pr->runs[k].values || !pr->nmetrics ? NAN : pr->runs[k].values[0];
  r = hp_stats_outliers(x, pr->nruns, 0, f);
  free(x);
  if (r)
    free(f);
  else
    *out = f;
  return r;
}

/* Every how many runs of a pass one is drawn: 1 up to MAX_POINTS runs. */
static size_t point_stride(const hp_pass_result *pr)
{
  return pr->nruns > MAX_POINTS ? (pr->nruns + MAX_POINTS - 1) / MAX_POINTS : 1;
}

/* Whether some pass has more runs than are drawn. */
static int thinned(const hp_session *s)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (point_stride(&s->passes[i]) > 1)
      return 1;
  return 0;
}

/* One pass's points on the timeline. */
static int timeline_pass(hp__buf *b, const hp__axis *ax, const hp__axis *ay, size_t pi,
                         const hp_pass_result *pr)
{
  unsigned char *out = NULL;
  char cls[48], tip[320], val[32];
  size_t k;
  int r;

  if ((r = pass_outliers(pr, &out)) != 0)
    return r;
  hp__buf_printf(b, "<g class=\"s%zu\">", pi % HP__HTML_SERIES);
  for (k = 0; k < pr->nruns; k++) {
    const hp_run *run = &pr->runs[k];
    double v = run->values && pr->nmetrics ? run->values[0] : NAN;
    double x = hp__axis_px(ax, run->round), y;
    if (run->skipped || !isfinite(v) || (k % point_stride(pr) != 0 && !out[k]))
      continue;
    y = hp__axis_px(ay, v);
    snprintf(cls, sizeof(cls), "pt%s", run->warmup ? " warmup" : "");
    snprintf(tip, sizeof(tip), "%.200s, round %d%s: %s%s", pr->name, run->round,
             run->warmup ? " (warmup)" : "", hp__fmt_num(val, sizeof(val), v),
             out[k] ? " (outlier)" : "");
    hp__svg_circle(b, x, y, 3.5, cls, tip);
    if (out[k])
      hp__svg_circle(b, x, y, 7, "outlier", NULL);
  }
  free(out);
  return hp__buf_adds(b, "</g>\n");
}

/* The legend under a chart, one swatch per pass, in rows from y (hp__flow). Without a buffer it
 * only lays the entries out. Returns the rows it takes. */
static int pass_legend(hp__buf *b, const hp_session *s, double y)
{
  double room = LEGEND_END - LEFT, x, ey;
  char cls[16];
  hp__flow f;
  size_t i;

  hp__flow_init(&f, LEFT, LEGEND_END, y, 16);
  for (i = 0; i < s->npasses; i++) {
    hp__flow_next(&f, hp__legend_width(s->passes[i].name, room), &x, &ey);
    snprintf(cls, sizeof(cls), "sw s%zu", i % HP__HTML_SERIES);
    if (b)
      hp__svg_legend(b, x, ey, cls, s->passes[i].name, room);
  }
  return f.rows;
}

int hp__html_timeline(hp__buf *b, const hp_session *s)
{
  double h, lr = pass_legend(NULL, s, 0);
  size_t i;
  int maxround, r;
  hp__axis ax, ay;
  char ylab[160];

  if ((r = value_axis(s, &ay, &maxround, ylab, "")) != 1 || maxround < 1)
    return r < 0 ? r : 0;
  h = 300 + 16 * lr;
  ax.log = 0;
  ax.lo = 0.5;
  ax.hi = maxround + 0.5;
  ax.p0 = LEFT;
  ax.p1 = W - 40;
  ay.p0 = h - BOTTOM - 16 * lr;
  ay.p1 = TOP;
  hp__buf_adds(b, "<figure>\n");
  hp__svg_begin(b, "chart-timeline", W, h, "Run timeline: the primary metric by round",
                "Each run's value of the primary metric against its position in the "
                "session's schedule, one colour per pass; warmup runs are hollow and "
                "outliers (modified z-score above 3.5) are ringed.");
  hp__svg_xaxis(b, &ax, TOP, ay.p0, "round (global position in the schedule)");
  hp__svg_yaxis(b, &ay, LEFT, W - 40, NULL); /* labelled on top, where it has room */
  hp__svg_text_cut(b, LEFT, TOP - 12, "start", "label", ylab, hp__text_fit(ylab, W - 40 - LEFT));
  for (i = 0; i < s->npasses; i++)
    if ((r = timeline_pass(b, &ax, &ay, i, &s->passes[i])) != 0)
      return r;
  pass_legend(b, s, h - 16 * lr + 4);
  hp__svg_end(b);
  hp__buf_printf(b,
                 "<figcaption>%s scale. A slope or a step within one colour is drift or "
                 "an order effect; a ringed point is an outlier.%s</figcaption>\n</figure>\n",
                 ay.log ? "Log" : "Linear",
                 thinned(s) ? " Passes with more than 2000 runs show an evenly spaced "
                              "selection and every outlier; summary.json has every run."
                            : "");
  return hp__buf_error(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Distributions.                                                                                  */

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* The q-quantile of sorted x[0..n) by linear interpolation. */
static double quantile(const double *x, size_t n, double q)
{
  double pos = q * (double)(n - 1);
  size_t i = (size_t)pos;

  return i + 1 < n ? x[i] + (pos - (double)i) * (x[i + 1] - x[i]) : x[n - 1];
}

/* One pass's box and strip at row y. */
static int dist_pass(hp__buf *b, const hp__axis *a, size_t pi, const hp_pass_result *pr, double y)
{
  double *x = malloc((pr->nruns + 1) * sizeof(*x)), cy = y + ROW / 2;
  char cls[32], tip[256], q1s[32], meds[32], q3s[32];
  size_t k, n = 0;

  if (x == NULL)
    return HP_ENOMEM;
  for (k = 0; k < pr->nruns; k++)
    if (!pr->runs[k].warmup && pr->runs[k].values && pr->nmetrics &&
        isfinite(pr->runs[k].values[0]))
      x[n++] = pr->runs[k].values[0];
  hp__buf_adds(b, "<g class=\"row\">");
  row_name(b, pr->name, cy);
  if (n > 0) {
    double q1, med, q3;
    qsort(x, n, sizeof(*x), cmp_double);
    q1 = quantile(x, n, 0.25), med = quantile(x, n, 0.5), q3 = quantile(x, n, 0.75);
    snprintf(cls, sizeof(cls), "box s%zu", pi % HP__HTML_SERIES);
    snprintf(tip, sizeof(tip), "%.150s: %zu runs, quartiles %s / %s / %s", pr->name, n,
             hp__fmt_num(q1s, sizeof(q1s), q1), hp__fmt_num(meds, sizeof(meds), med),
             hp__fmt_num(q3s, sizeof(q3s), q3));
    hp__svg_line(b, hp__axis_px(a, x[0]), cy, hp__axis_px(a, x[n - 1]), cy, "whisker");
    hp__svg_rect(b, hp__axis_px(a, q1), y + 4, hp__axis_px(a, q3) - hp__axis_px(a, q1), ROW - 8,
                 cls, tip);
    hp__svg_line(b, hp__axis_px(a, med), y + 2, hp__axis_px(a, med), y + ROW - 2, "median");
    snprintf(cls, sizeof(cls), "pt s%zu", pi % HP__HTML_SERIES);
    /* The strip: a deterministic jitter by index keeps equal values apart and the file stable. */
    for (k = 0; k < n; k += point_stride(pr))
      hp__svg_circle(b, hp__axis_px(a, x[k]), cy + (double)((int)(k % 5) - 2) * 2.5, 2.2, cls,
                     NULL);
  } else
    hp__svg_text(b, LEFT + 6, cy + 4, "start", "failed-text", "no value");
  free(x);
  return hp__buf_adds(b, "</g>\n");
}

int hp__html_distributions(hp__buf *b, const hp_session *s)
{
  double h;
  size_t i;
  int maxround, r;
  hp__axis a;
  char lab[160];

  if ((r = value_axis(s, &a, &maxround, lab, " (counted runs)")) != 1)
    return r < 0 ? r : 0;
  a.p0 = LEFT;
  a.p1 = W - 40;
  h = TOP + ROW * (double)s->npasses + BOTTOM;
  hp__buf_adds(b, "<figure>\n");
  hp__svg_begin(b, "chart-distributions", W, h, "Distribution of the primary metric per pass",
                "For each pass, a box from the first to the third quartile of its counted "
                "runs with a line at the median, a whisker from the smallest to the largest "
                "value, and every run as a dot.");
  hp__svg_xaxis(b, &a, TOP, h - BOTTOM, lab);
  for (i = 0; i < s->npasses; i++)
    if ((r = dist_pass(b, &a, i, &s->passes[i], TOP + ROW * (double)i)) != 0)
      return r;
  hp__svg_end(b);
  hp__buf_printf(b,
                 "<figcaption>%s scale; warmup runs are left out.</figcaption>\n"
                 "</figure>\n",
                 a.log ? "Log" : "Linear");
  return hp__buf_error(b);
}
