/*
 * The roofline table rendered from its one description (roofline_table.c) as text, Markdown and
 * CSV, and where each shows up: `hprun summarize --roofline` (hp_roofline_write, every format),
 * report.md's `## Roofline` and the terminal's roofline after the notes (the end of a session and
 * `hprun report`). Text aligns the columns the description shows in text, with short kernel names
 * (`--format json` and CSV keep them whole); Markdown escapes every cell and puts the kernel in a
 * code span; CSV quotes by RFC 4180.
 */
#include "report/core/report.h"
#include "report/core/roofline_table.h"

#include <stdlib.h>
#include <string.h>

/* Kernel names in a text table: cut to this many columns ("…" at the end). */
#define NAME_WIDTH 60
/* The session's reports show each pass's first rows (by time); summary.json and report.html have
 * every point. */
#define SESSION_TOP 10

/* Display columns of UTF-8 text (continuation bytes do not count). */
static size_t dwidth(const char *s)
{
  size_t n = 0;

  for (; *s; s++)
    n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

/* Cuts s (owned) to `width` display columns, the last one "…". */
static void cut(hp__buf *s, size_t width)
{
  size_t n = 0, i;

  if (dwidth(s->data ? s->data : "") <= width)
    return;
  for (i = 0; i < s->len; i++)
    if ((((unsigned char)s->data[i] & 0xC0) != 0x80) && n++ == width - 1)
      break;
  s->len = i;
  s->data[i] = '\0';
  (void)hp__buf_adds(s, "\xE2\x80\xA6");
}

/* A CSV field: quoted when it holds a comma, quote, line break, or starts with '#' or a space. */
static int csv_field(hp__buf *b, const char *s)
{
  if (strpbrk(s, ",\"\n\r") == NULL && s[0] != '#' && s[0] != ' ')
    return hp__buf_adds(b, s);
  hp__buf_addc(b, '"');
  for (; *s; s++)
    if (*s == '"')
      hp__buf_adds(b, "\"\"");
    else
      hp__buf_addc(b, *s);
  return hp__buf_addc(b, '"');
}

/* The cells of the shown columns for rows 0..n-1 (row -1: the header), as owned strings. */
typedef struct grid {
  const hp__col *col[32];
  size_t ncols, nrows;
  char **cell; /* (nrows + 1) * ncols: the header first */
} grid;

static void grid_free(grid *g)
{
  size_t i;

  for (i = 0; g->cell && i < (g->nrows + 1) * g->ncols; i++)
    free(g->cell[i]);
  free(g->cell);
}

/* Fills the grid of r's first n points for format f. 0 or HP_ENOMEM. */
static int grid_fill(grid *g, const hp_roofline *r, size_t n, hp_format f)
{
  unsigned in = f == HP_FMT_CSV ? HP__IN_CSV : HP__IN_TEXT;
  hp__buf t = HP__BUF_INIT;
  size_t i, k;
  int rc = 0;

  memset(g, 0, sizeof(*g));
  for (k = 0; k < hp__roof_ncols && g->ncols < 32; k++)
    if (hp__roof_cols[k].in & in)
      g->col[g->ncols++] = &hp__roof_cols[k];
  g->nrows = n;
  if ((g->cell = calloc((n + 1) * g->ncols, sizeof(*g->cell))) == NULL)
    return HP_ENOMEM;
  for (k = 0; k < g->ncols; k++)
    g->cell[k] = hp__strdup(f == HP_FMT_CSV ? hp__col_csv(g->col[k]) : hp__col_head(g->col[k]));
  for (i = 0; i < n && rc == 0; i++) {
    char **row = &g->cell[(i + 1) * g->ncols];
    for (k = 0; k < g->ncols && rc == 0; k++) {
      rc = hp__roof_text(&r->pts[i], g->col[k], f == HP_FMT_CSV ? HP__RT_CSV : HP__RT_SHORT, &t);
      if (rc == 0 && f == HP_FMT_TEXT && (g->col[k]->flags & HP__C_NAME))
        cut(&t, NAME_WIDTH);
      row[k] = rc ? NULL : hp__strdup(t.data ? t.data : "");
    }
    /* Short names can collide: the repeats get " #2", " #3" (kname.c). */
    if (rc == 0 && i + 1 == n && f != HP_FMT_CSV) {
      char **names = malloc(n * sizeof(*names));
      for (k = 0; names && k < n; k++)
        names[k] = g->cell[(k + 1) * g->ncols];
      rc = names ? hp__names_unique(names, n) : HP_ENOMEM;
      for (k = 0; names && k < n; k++)
        g->cell[(k + 1) * g->ncols] = names[k];
      free(names);
    }
  }
  for (i = 0; rc == 0 && i < (n + 1) * g->ncols; i++)
    if (g->cell[i] == NULL)
      rc = HP_ENOMEM;
  hp__buf_free(&t);
  return rc;
}

/* One line of the grid in text: columns two spaces apart, padded to their widths. */
static int text_line(hp__buf *b, const grid *g, char **row, const size_t *w, int indent)
{
  size_t k, pad;

  hp__buf_printf(b, "%*s", indent, "");
  for (k = 0; k < g->ncols; k++) {
    int right = (g->col[k]->flags & HP__C_RIGHT) != 0, last = k + 1 == g->ncols;
    pad = w[k] - dwidth(row[k]);
    if (right)
      hp__buf_printf(b, "%*s", (int)pad, "");
    hp__buf_adds(b, row[k]);
    if (!right && !last)
      hp__buf_printf(b, "%*s", (int)pad, "");
    hp__buf_adds(b, last ? "\n" : "  ");
  }
  return hp__buf_error(b);
}

/* One line of the grid in Markdown (the kernel a code span) or CSV. */
static int md_csv_line(hp__buf *b, const grid *g, char **row, hp_format f, int head)
{
  size_t k;

  for (k = 0; k < g->ncols; k++) {
    if (f == HP_FMT_CSV) {
      if (k)
        hp__buf_addc(b, ',');
      csv_field(b, row[k]);
      continue;
    }
    hp__buf_adds(b, "| ");
    if (!head && (g->col[k]->flags & HP__C_NAME)) {
      hp__buf_adds(b, strchr(row[k], '`') ? "`` " : "`");
      hp__report_md_cell(b, row[k]);
      hp__buf_adds(b, strchr(row[k], '`') ? " `` " : "` ");
    } else {
      hp__report_md_cell(b, row[k]);
      hp__buf_addc(b, ' ');
    }
  }
  hp__buf_adds(b, f == HP_FMT_CSV ? "\n" : "|\n");
  for (k = 0; head && f == HP_FMT_MD && k < g->ncols; k++)
    hp__buf_adds(b, (g->col[k]->flags & HP__C_RIGHT) ? "|--:" : "|---");
  if (head && f == HP_FMT_MD)
    hp__buf_adds(b, "|\n");
  return hp__buf_error(b);
}

int hp__roof_table(hp__buf *b, const hp_roofline *r, hp_format f, size_t top, int indent)
{
  size_t total = r ? r->n : 0, n = top && top < total ? top : total, w[32] = {0}, i, k;
  grid g;
  int rc;

  if ((rc = grid_fill(&g, r, n, f)) == 0) {
    for (i = 0; i <= n; i++)
      for (k = 0; k < g.ncols; k++)
        if (dwidth(g.cell[i * g.ncols + k]) > w[k])
          w[k] = dwidth(g.cell[i * g.ncols + k]);
    for (i = 0; i <= n; i++)
      if (f == HP_FMT_TEXT)
        text_line(b, &g, &g.cell[i * g.ncols], w, indent);
      else
        md_csv_line(b, &g, &g.cell[i * g.ncols], f, i == 0);
  }
  grid_free(&g);
  if (rc != 0)
    return rc;
  if (n < total && f == HP_FMT_MD)
    hp__buf_printf(b, "\n%zu of %zu kernels shown; summary.json and report.html have them all.\n",
                   n, total);
  else if (n < total && f == HP_FMT_TEXT)
    hp__buf_printf(b, "%*s(%zu more kernel%s: summary.json and report.html have them all)\n",
                   indent, "", total - n, total - n == 1 ? "" : "s");
  return hp__buf_error(b);
}

/* The note of a table without points. */
static const char no_points[] =
    "no kernel has FLOP counts, device-memory bytes and a time: profile with ncu's roofline "
    "metrics or rocprof's SQ_INSTS_VALU_* and TCC_EA_* counters (docs/roofline.md)";

int hp_roofline_write(const hp_roofline *r, const hp_peaks *peaks, FILE *fp, hp_format f)
{
  hp__buf b = HP__BUF_INIT;
  int rc = 0;

  if (f == HP_FMT_JSON) {
    hp__json j;
    hp__json_init(&j, 1);
    hp__roofline_json(&j, r, peaks);
    rc = hp__json_end(&j);
    if (rc == 0 && j.out.data)
      rc = fputs(j.out.data, fp) < 0 || fputc('\n', fp) == EOF ? HP_EIO : 0;
    hp__json_free(&j);
    return rc;
  }
  if (f != HP_FMT_CSV) {
    hp__buf_adds(&b, f == HP_FMT_MD ? "## Roofline\n\n" : "Roofline\n\n");
    hp__roof_ceilings(&b, r && r->peaks ? r->peaks : peaks, f == HP_FMT_MD);
    hp__buf_addc(&b, '\n');
  }
  rc = hp__roof_table(&b, r, f, 0, 0);
  if (f != HP_FMT_CSV && (r == NULL || r->n == 0))
    hp__buf_printf(&b, f == HP_FMT_MD ? "\n> %s.\n" : "(%s)\n", no_points);
  if (rc == 0)
    rc = hp__buf_error(&b);
  if (rc == 0 && b.data && fputs(b.data, fp) < 0)
    rc = HP_EIO;
  hp__buf_free(&b);
  return rc ? (rc == HP_ENOMEM ? rc : HP_EIO) : 0;
}

/* Whether any pass has roofline points. */
static int any_points(const hp_session *s)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].roofline && s->passes[i].roofline->n > 0)
      return 1;
  return 0;
}

/* The session's ceilings line. With no peaks given but each pass's capture carrying its own
 * ceilings, "none given, so no bound" would contradict the bounds printed below it: say where
 * they come from instead. */
static void session_ceilings(hp__buf *b, const hp_session *s, int md)
{
  size_t i;

  if (hp_peaks_usable(s->peaks)) {
    hp__roof_ceilings(b, s->peaks, md);
    return;
  }
  for (i = 0; i < s->npasses; i++) {
    const hp_roofline *rf = s->passes[i].roofline;
    if (rf && rf->n > 0 && !(rf->peaks && hp_peaks_usable(rf->peaks))) {
      hp__roof_ceilings(b, s->peaks, md);
      return;
    }
  }
  hp__buf_adds(b,
               md ? "Ceilings: from each pass's own capture (below).\n"
                  : "ceilings: from each pass's own capture (below)\n");
}

int hp__md_roofline(hp__buf *b, const hp_session *s)
{
  size_t i;
  int r;

  if (!any_points(s))
    return 0;
  hp__buf_adds(b, "\n## Roofline\n\n");
  session_ceilings(b, s, 1);
  for (i = 0; i < s->npasses; i++) {
    const hp_roofline *rf = s->passes[i].roofline;
    if (rf == NULL || rf->n == 0)
      continue;
    hp__buf_adds(b, "\n### ");
    hp__report_md_cell(b, s->passes[i].name);
    hp__buf_printf(b, " (%s counters)\n\n", rf->source ? rf->source : "profiler");
    if (rf->peaks) {
      hp__roof_ceilings(b, rf->peaks, 1);
      hp__buf_addc(b, '\n');
    }
    if ((r = hp__roof_table(b, rf, HP_FMT_MD, SESSION_TOP, 0)) != 0)
      return r;
  }
  return hp__buf_error(b);
}

void hp__term_roofline(FILE *fp, const hp_session *s)
{
  hp__buf b = HP__BUF_INIT;
  size_t i;
  int r = 0;

  if (!any_points(s))
    return;
  hp__buf_adds(&b, "\nRoofline, ");
  session_ceilings(&b, s, 0);
  for (i = 0; i < s->npasses && r == 0; i++) {
    const hp_roofline *rf = s->passes[i].roofline;
    if (rf == NULL || rf->n == 0)
      continue;
    hp__buf_printf(&b, "  %s (%s counters):\n", s->passes[i].name,
                   rf->source ? rf->source : "profiler");
    if (rf->peaks) {
      hp__buf_adds(&b, "    ");
      hp__roof_ceilings(&b, rf->peaks, 0);
    }
    r = hp__roof_table(&b, rf, HP_FMT_TEXT, SESSION_TOP, 4);
  }
  if (r == 0 && hp__buf_error(&b) == 0 && b.data)
    fputs(b.data, fp);
  hp__buf_free(&b);
}
