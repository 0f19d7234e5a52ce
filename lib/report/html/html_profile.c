/*
 * The profile sections of report.html: for each profiled pass, where its GPU time went, by kernel
 * category (one stacked bar, shares of the total kernel time) and by kernel (the top kernels'
 * total time as bars), then the counter table (PMC or ncu metrics) of the first kernel that has
 * one, under the pass's cross-check line. The figures come from the parsed profile through the
 * same table descriptions (lib/profile/tables/table.h) that `hprun summarize` and summary.json
 * use, so a number here is the number there.
 */
#include "analyze/crosscheck.h"
#include "profile/tables/out.h"
#include "profile/tables/table.h"
#include "report/html/html.h"
#include "report/html/html_labels.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 860.0
#define LEFT 300.0 /* kernel names */
#define ROW 22.0
#define TOPK 10    /* kernels drawn */
#define NAMECUT 44 /* characters of a kernel name on the chart; the tooltip has it whole */
#define TABLE_ROWS 40

/* A category's legend text: its name and share. */
static void category_label(const hp__catstat *c, char *lab, size_t len)
{
  snprintf(lab, len, "%.60s %.1f%%", c->name, c->percent);
}

/* The legend of the categories in rows under the bar (hp__flow); without a buffer it only lays
 * them out. Returns the rows it takes. */
static int category_legend(hp__buf *b, const hp__catstat *c, size_t n)
{
  double x, y;
  char cls[16], lab[160];
  hp__flow f;
  size_t i;

  hp__flow_init(&f, 20, W - 20, 62, 16);
  for (i = 0; i < n; i++) {
    category_label(&c[i], lab, sizeof(lab));
    hp__flow_next(&f, hp__legend_width(lab, W - 40), &x, &y);
    snprintf(cls, sizeof(cls), "sw s%zu", i % HP__HTML_SERIES);
    if (b)
      hp__svg_legend(b, x, y, cls, lab, W - 40);
  }
  return f.rows;
}

/* The categories as one stacked bar of shares, with a legend under it. */
static int category_bar(hp__buf *b, const hp_profile *p, size_t pi)
{
  hp__catstat *c = NULL;
  size_t n = 0, i;
  double x = 20, w = W - 40;
  char id[48], cls[16], tip[320], ms[32];
  int r;

  if ((r = hp__profile_categories(p, &c, &n)) != 0 || n == 0) {
    free(c);
    return r;
  }
  snprintf(id, sizeof(id), "chart-categories-%zu", pi);
  hp__svg_begin(b, id, W, 84 + 16 * (double)(category_legend(NULL, c, n) - 1),
                "GPU time by kernel category",
                "One bar split into the share of the total kernel time of each category, "
                "largest first; the legend gives each category's percentage.");
  for (i = 0; i < n; i++) {
    double sw = isfinite(c[i].percent) ? w * c[i].percent / 100 : 0;
    snprintf(cls, sizeof(cls), "seg s%zu", i % HP__HTML_SERIES);
    snprintf(tip, sizeof(tip), "%.120s: %.1f%% of kernel time, %s ms, %lld calls", c[i].name,
             c[i].percent, hp__fmt_num(ms, sizeof(ms), c[i].total_ns / 1e6), c[i].calls);
    hp__svg_rect(b, x, 14, sw, 26, cls, tip);
    x += sw;
  }
  category_legend(b, c, n);
  free(c);
  return hp__svg_end(b);
}

/* The top kernels by total time, as horizontal bars with their share. */
static int kernel_bars(hp__buf *b, const hp_profile *p, size_t pi)
{
  size_t n = hp_profile_nkernels(p), i;
  double max = 0, h;
  char id[48], tip[600], lab[64], ms[32];
  hp_kernel_stat k;

  if (n > TOPK)
    n = TOPK;
  for (i = 0; i < n; i++)
    if (hp_profile_kernel(p, i, &k) == 0 && isfinite(k.total_ns))
      max = fmax(max, k.total_ns);
  if (n == 0 || !(max > 0))
    return 0;
  h = 16 + ROW * (double)n + 8;
  snprintf(id, sizeof(id), "chart-kernels-%zu", pi);
  hp__svg_begin(b, id, W, h, "Top kernels by total GPU time",
                "Horizontal bars, one per kernel, longest first: each kernel's total time "
                "in this pass, labelled with milliseconds and its share of all kernel time.");
  for (i = 0; i < n && hp_profile_kernel(p, i, &k) == 0; i++) {
    double y = 8 + ROW * (double)i,
           wd = (W - LEFT - 150) * (isfinite(k.total_ns) ? k.total_ns : 0) / max;
    hp__buf_adds(b, "<text x=\"292\" text-anchor=\"end\" class=\"name mono\" y=\"");
    hp__buf_printf(b, "%.1f\">", y + 15);
    hp__html_text(b, k.name, NAMECUT);
    hp__buf_adds(b, "</text>\n");
    snprintf(tip, sizeof(tip), "%.400s: %s ms in %lld calls (%.1f%%)", k.name,
             hp__fmt_num(ms, sizeof(ms), k.total_ns / 1e6), k.calls, k.percent);
    hp__svg_rect(b, LEFT, y + 4, wd, ROW - 6, "kbar s0", tip);
    snprintf(lab, sizeof(lab), "%s ms  %.1f%%", ms, k.percent);
    hp__svg_text(b, LEFT + wd + 6, y + 15, "start", "value", lab);
  }
  return hp__svg_end(b);
}

/* One cell as the text formats show it. */
static int html_cell(hp__buf *b, const hp__col *col, const hp__cell *c)
{
  char num[64];

  if (!c->ok)
    return hp__buf_adds(b, col->type == HP__V_STR ? "" : "n/a");
  switch (col->type) {
  case HP__V_STR: {
    char *s = hp__strndup(c->s, c->len);
    int r = s ? hp__html_text(b, s, 0) : HP_ENOMEM;
    free(s);
    return r;
  }
  case HP__V_INT: return hp__buf_printf(b, "%lld", c->i);
  case HP__V_BOOL: return hp__buf_adds(b, c->i ? "yes" : "no");
  case HP__V_NUM:
    snprintf(num, sizeof(num), col->tfmt ? col->tfmt : "%.6g", hp__cell_value(col, c));
    return hp__buf_adds(b, num);
  default: return 0;
  }
}

/* Whether a row is one of ncu's device, link and launch attributes, which every kernel repeats:
 * the page shows the kernel's measured metrics (summary.json keeps them all). */
static int attribute_row(const hp__table *t, const hp__rows *rows, size_t id, hp__buf *tmp)
{
  static const char *const skip[] = {"device__", "c2clink__", "nvlink__",
                                     "numa__",   "launch__",  "profiler__"};
  hp__cell cell;
  size_t k;

  memset(&cell, 0, sizeof(cell));
  if (t->ncols == 0 || t->cols[0].type != HP__V_STR ||
      hp__cell_get(t, rows, id, &t->cols[0], &cell, tmp) != 0 || !cell.ok)
    return 0;
  for (k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
    if (cell.len >= strlen(skip[k]) && memcmp(cell.s, skip[k], strlen(skip[k])) == 0)
      return 1;
  return 0;
}

/* The rows of an opened table as an HTML table (the text formats' columns), at most TABLE_ROWS,
 * ncu's attribute rows left out. */
static int html_rows(hp__buf *b, const hp__table *t, const hp__rows *rows)
{
  hp__buf tmp = HP__BUF_INIT;
  size_t i, c, shown = 0, left = 0;
  int r;

  hp__buf_adds(b, "<table class=\"mono\">\n<thead><tr>");
  for (c = 0; c < t->ncols; c++)
    if (t->cols[c].in & HP__IN_TEXT && t->cols[c].type <= HP__V_BOOL) {
      hp__buf_printf(b, "<th%s>", t->cols[c].flags & HP__C_RIGHT ? " class=\"n\"" : "");
      hp__html_text(b, hp__col_head(&t->cols[c]), 0);
      hp__buf_adds(b, "</th>");
    }
  hp__buf_adds(b, "</tr></thead>\n<tbody>\n");
  for (i = 0; i < rows->n; i++) {
    if (attribute_row(t, rows, hp__rows_id(rows, i), &tmp))
      continue;
    if (shown++ == TABLE_ROWS) {
      left = rows->n - i;
      break;
    }
    hp__buf_adds(b, "<tr>");
    for (c = 0; c < t->ncols; c++) {
      hp__cell cell;
      if (!(t->cols[c].in & HP__IN_TEXT) || t->cols[c].type > HP__V_BOOL)
        continue;
      memset(&cell, 0, sizeof(cell));
      if ((r = hp__cell_get(t, rows, hp__rows_id(rows, i), &t->cols[c], &cell, &tmp)) != 0)
        goto fail;
      hp__buf_printf(b, "<td%s>", t->cols[c].flags & HP__C_RIGHT ? " class=\"n\"" : "");
      if ((r = html_cell(b, &t->cols[c], &cell)) != 0)
        goto fail;
      hp__buf_adds(b, "</td>");
    }
    hp__buf_adds(b, "</tr>\n");
  }
  hp__buf_adds(b, "</tbody>\n</table>\n");
  if (left)
    hp__buf_printf(b, "<p class=\"muted\">At most %zu more rows in summary.json.</p>\n", left);
  r = hp__buf_error(b);
fail:
  hp__buf_free(&tmp);
  return r;
}

/* The counters of the first kernel of table t (PMC or ncu), under its name; ncu's only those the
 * pass asked for (o->metrics). */
static int counter_table(hp__buf *b, const hp_profile *p, const hp_profile_opts *o,
                         const hp__table *t, const char *what)
{
  hp__rows rows, child;
  hp__buf tmp = HP__BUF_INIT;
  hp__cell name;
  char *s = NULL;
  size_t id, c;
  int r = 0;

  if (hp__rows_open(&rows, t, p, NULL, 0))
    return HP_ENOMEM;
  if (rows.total == 0 || t->child == NULL)
    goto fail;
  id = hp__rows_id(&rows, 0);
  memset(&name, 0, sizeof(name));
  for (c = 0; c < t->ncols; c++)
    if ((t->cols[c].flags & HP__C_NAME) &&
        (r = hp__cell_get(t, &rows, id, &t->cols[c], &name, &tmp)) != 0)
      goto fail;
  hp__buf_printf(b, "<h4>%s of <code>", what);
  if (name.ok && (s = hp__strndup(name.s, name.len)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  hp__html_text(b, s, 0);
  hp__buf_adds(b, "</code></h4>\n");
  if ((r = hp__rows_open(&child, t->child, p, o, id)) != 0)
    goto fail;
  r = html_rows(b, t->child, &child);
  hp__rows_free(&child);
fail:
  free(s);
  hp__buf_free(&tmp);
  hp__rows_free(&rows);
  return r;
}

/* The profile's hint when its `other` category is large, the snippet as preformatted text. */
static int other_hint(hp__buf *b, const hp_profile *p)
{
  char *head = NULL, *yaml = NULL, *l;
  int r = hp__profile_other_hint(p, &head, &yaml);
  size_t n;

  if (r == 0 && head) {
    hp__buf_adds(b, "<p class=\"hint\">");
    hp__html_text(b, head, 0);
    hp__buf_adds(b, "</p>\n<pre>");
    for (l = yaml; *l; l += n + (l[n] == '\n')) {
      char *line = hp__strndup(l, n = strcspn(l, "\n"));
      hp__html_text(b, line ? line : "", 0);
      hp__buf_addc(b, '\n');
      free(line);
    }
    hp__buf_adds(b, "</pre>\n");
  }
  free(head);
  free(yaml);
  return r;
}

static int pass_profile(hp__buf *b, const hp_session *s, const hp_pass_result *pr, size_t pi)
{
  hp__buf charts = HP__BUF_INIT, xc = HP__BUF_INIT;
  hp_profile_opts o = {0, 0, 0, 0, pr->ncu_metrics};
  int r;

  hp__buf_adds(b, "<h3>");
  hp__html_text(b, pr->name, 0);
  hp__buf_adds(b, " <span class=\"muted\">(");
  hp__html_text(b, pr->tool ? pr->tool : "?", 0);
  hp__buf_adds(b, " ");
  hp__html_text(b, pr->mode, 0);
  hp__buf_adds(b, ")</span></h3>\n");
  /* The same cross-check line as the terminal and report.md: kernel time, and a trace's busy. */
  if (hp__crosscheck_text(s, pr, &xc) == 0 && xc.data) {
    hp__buf_adds(b, "<p>");
    hp__html_text(b, xc.data, 0);
    hp__buf_adds(b, "</p>\n");
  }
  hp__buf_free(&xc);
  /* A profile without kernel times (a PMC pass) has no time charts: no empty figure then. The
   * charts go to a buffer of their own, whose error is checked apart from b's. */
  if ((r = category_bar(&charts, pr->profile, pi)) != 0 ||
      (r = kernel_bars(&charts, pr->profile, pi)) != 0)
    goto fail;
  if (charts.len) {
    hp__buf_adds(b, "<figure>\n");
    hp__buf_add(b, charts.data, charts.len);
    hp__buf_adds(b,
                 "<figcaption>Kernel time as the profiler reports it (attribution, not "
                 "performance). Hover a bar for its figures.</figcaption>\n</figure>\n");
  }
  if ((r = other_hint(b, pr->profile)) == 0 &&
      (r = counter_table(b, pr->profile, &o, &hp__tab_pmc, "PMC counters")) == 0)
    r = counter_table(b, pr->profile, &o, &hp__tab_ncu, "ncu metrics");
fail:
  hp__buf_free(&charts);
  return r;
}

int hp__html_profiles(hp__buf *b, const hp_session *s)
{
  size_t i, n = 0;
  int r;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].profile && hp_profile_nfiles(s->passes[i].profile)) {
      if (n++ == 0)
        hp__buf_adds(b, "<h2>Where the GPU time went</h2>\n");
      if ((r = pass_profile(b, s, &s->passes[i], i)) != 0)
        return r;
    }
  return hp__buf_error(b);
}
