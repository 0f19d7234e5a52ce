/*
 * The text and Markdown documents, rendered from the table descriptions (profile/tables/table.h).
 * Text is aligned columns under a `[Title]` line, like the article's tables, with long names cut to
 * the terminal width; Markdown is GitHub tables under `### Title`, with names whole in code spans
 * and pipes escaped. A table with no rows is left out of both.
 *
 * Two layouts: a plain table has one line per row; a table with HP__TF_SECTIONS has one section
 * per row (its text columns as a field/value table, then its child table), for rows whose
 * details do not fit on one line (PMC, ncu).
 */
#include "profile/tables/table.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* A grid of owned cell strings, printed as text or Markdown.                                      */

typedef struct grid {
  size_t ncols;
  const char **head;
  int *right;  /* per column: right-aligned */
  char **cell; /* rows * ncols owned strings */
  size_t nrows, cap;
  int err;
} grid;

static void grid_init(grid *g, size_t ncols)
{
  memset(g, 0, sizeof(*g));
  g->ncols = ncols;
  g->head = calloc(ncols ? ncols : 1, sizeof(*g->head));
  g->right = calloc(ncols ? ncols : 1, sizeof(*g->right));
  if (g->head == NULL || g->right == NULL)
    g->err = HP_ENOMEM;
}

static void grid_free(grid *g)
{
  size_t i;

  for (i = 0; i < g->nrows * g->ncols; i++)
    free(g->cell[i]);
  free(g->cell);
  free(g->head);
  free(g->right);
}

/* Adds a row, taking the ncols strings (NULL marks an allocation that failed). */
static void grid_row(grid *g, char **cells)
{
  size_t i, need = (g->nrows + 1) * g->ncols;

  if (g->err == 0 && hp__grow((void **)&g->cell, &g->cap, need, sizeof(*g->cell)))
    g->err = HP_ENOMEM;
  for (i = 0; i < g->ncols; i++) {
    if (cells[i] == NULL)
      g->err = HP_ENOMEM;
    if (g->err)
      free(cells[i]);
    else
      g->cell[g->nrows * g->ncols + i] = cells[i];
  }
  if (g->err == 0)
    g->nrows++;
}

/* Display width: UTF-8 code points (continuation bytes do not count). */
static size_t dwidth(const char *s)
{
  size_t w = 0;

  for (; *s; s++)
    w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

/* A copy of `s` cut to `width` code points with "…" as the last one, control characters shown as
 * '?' so that a damaged name cannot break the table (or the terminal). */
static char *cut(const char *s, size_t width)
{
  size_t w = 0;
  const char *p;
  char *r, *q;

  if (width < 2 || dwidth(s) <= width) {
    r = hp__strdup(s);
  } else {
    for (p = s; *p; p++) {
      if (((unsigned char)*p & 0xC0) != 0x80) {
        if (w == width - 1)
          break;
        w++;
      }
    }
    r = hp__asprintf("%.*s\xE2\x80\xA6", (int)(p - s), s);
  }
  for (q = r; q && *q; q++)
    if ((unsigned char)*q < 0x20 || *q == 0x7f)
      *q = '?';
  return r;
}

static void pad(FILE *fp, size_t n)
{
  while (n--)
    fputc(' ', fp);
}

static void grid_print(const grid *g, FILE *fp)
{
  size_t *w = calloc(g->ncols ? g->ncols : 1, sizeof(*w)), i, c;

  if (w == NULL)
    return;
  for (c = 0; c < g->ncols; c++)
    w[c] = dwidth(g->head[c]);
  for (i = 0; i < g->nrows; i++)
    for (c = 0; c < g->ncols; c++)
      if (dwidth(g->cell[i * g->ncols + c]) > w[c])
        w[c] = dwidth(g->cell[i * g->ncols + c]);
  for (i = 0; i <= g->nrows; i++) {
    for (c = 0; c < g->ncols; c++) {
      const char *s = i == 0 ? g->head[c] : g->cell[(i - 1) * g->ncols + c];
      size_t gap = w[c] - dwidth(s);
      if (c)
        fputs("  ", fp);
      if (g->right[c])
        pad(fp, gap);
      fputs(s, fp);
      if (!g->right[c] && c + 1 < g->ncols)
        pad(fp, gap);
    }
    fputc('\n', fp);
  }
  free(w);
}

/* Markdown cell text: pipes escaped, line breaks flattened. */
static void md_cell(FILE *fp, const char *s)
{
  for (; *s; s++) {
    if (*s == '|')
      fputs("\\|", fp);
    else if (*s == '\n' || *s == '\r')
      fputc(' ', fp);
    else
      fputc(*s, fp);
  }
}

/* The first column (the row's name) is a code span; a backtick inside needs a double fence. */
static void grid_print_md(const grid *g, FILE *fp, const char *title)
{
  size_t i, c;

  fprintf(fp, "\n### %s\n\n|", title);
  for (c = 0; c < g->ncols; c++)
    fprintf(fp, " %s |", g->head[c]);
  fputs("\n|", fp);
  for (c = 0; c < g->ncols; c++)
    fputs(g->right[c] ? " ---: |" : " --- |", fp);
  fputc('\n', fp);
  for (i = 0; i < g->nrows; i++) {
    fputc('|', fp);
    for (c = 0; c < g->ncols; c++) {
      const char *s = g->cell[i * g->ncols + c], *open = "", *close = "";
      if (c == 0 && *s) {
        open = strchr(s, '`') ? "`` " : "`";
        close = strchr(s, '`') ? " ``" : "`";
      }
      fprintf(fp, " %s", open);
      md_cell(fp, s);
      fprintf(fp, "%s |", close);
    }
    fputc('\n', fp);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Cells as text.                                                                                  */

typedef struct out_ctx {
  const hp_profile *p;
  FILE *fp;
  int md;
  size_t width; /* name cut for text; 0 = whole (Markdown) */
  int wide;     /* kernel names whole (--wide), not short */
  const hp_profile_opts *o;
  hp__buf tmp, join;
  int err;
} out_ctx;

/* Human size in powers of 1024, as hipprof prints its leak checks ("170.06 MB"). */
static void human_bytes(char *buf, size_t n, double b)
{
  static const char *const u[] = {"B", "KB", "MB", "GB", "TB"};
  size_t i = 0;

  while (b >= 1024 && i + 1 < sizeof(u) / sizeof(u[0])) {
    b /= 1024;
    i++;
  }
  if (i == 0)
    snprintf(buf, n, "%.0f B", b);
  else
    snprintf(buf, n, "%.2f %s", b, u[i]);
}

/* The text of a cell (malloc'd; NULL when out of memory). */
static char *text_value(out_ctx *c, const hp__col *col, const hp__cell *v)
{
  char num[64] = "", *s;

  if (!v->ok)
    s = hp__strdup(col->missing ? col->missing : col->type == HP__V_STR ? "" : "n/a");
  else if (col->type == HP__V_STR && (col->flags & HP__C_KNAME) && !c->wide) {
    char *full = hp__strndup(v->s, v->len);
    s = full ? hp__kernel_short(full) : NULL;
    free(full);
  } else if (col->type == HP__V_STR)
    s = hp__strndup(v->s, v->len);
  else if (col->type == HP__V_VALS)
    s = hp__vals_join(v->v, &c->join) ? NULL : hp__strdup(c->join.data);
  else {
    if (col->type == HP__V_INT)
      snprintf(num, sizeof(num), "%lld", v->i);
    else if (col->type == HP__V_NUM && (col->flags & HP__C_BYTES))
      human_bytes(num, sizeof(num), hp__cell_value(col, v));
    else if (col->type == HP__V_NUM)
      snprintf(num, sizeof(num), col->tfmt, hp__cell_value(col, v));
    s = hp__strdup(num);
  }
  if (s && (col->flags & HP__C_NAME) && c->width && !c->wide) {
    char *t = cut(s, c->width);
    free(s);
    s = t;
  }
  return s;
}

/* Fetches a cell and renders it; NULL (and c->err) on failure. */
static char *text_cell(out_ctx *c, const hp__table *t, const hp__rows *r, size_t id,
                       const hp__col *col, int *ok)
{
  hp__cell v;
  char *s;

  if (hp__cell_get(t, r, id, col, &v, &c->tmp)) {
    c->err = HP_ENOMEM;
    return NULL;
  }
  if (ok)
    *ok = v.ok;
  if ((s = text_value(c, col, &v)) == NULL)
    c->err = HP_ENOMEM;
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Tables.                                                                                         */

static void emit(out_ctx *c, grid *g, const char *title, size_t total, size_t shown)
{
  if (g->err) {
    c->err = g->err;
    return;
  }
  if (c->md) {
    grid_print_md(g, c->fp, title);
    if (shown < total)
      fprintf(c->fp, "\n%zu of %zu rows shown.\n", shown, total);
    return;
  }
  fprintf(c->fp, "\n[%s]\n", title);
  grid_print(g, c->fp);
  if (shown < total)
    fprintf(c->fp, "(%zu more rows; --top 0 shows all)\n", total - shown);
}

/* 1 when column k is shown: a text column, and a sparse one only if a shown row has a value. */
static int shown_col(out_ctx *c, const hp__table *t, const hp__rows *r, size_t k)
{
  const hp__col *col = &t->cols[k];
  size_t i;
  hp__cell v;

  if (!(col->in & HP__IN_TEXT))
    return 0;
  if (!(col->flags & HP__C_SPARSE))
    return 1;
  for (i = 0; i < r->n; i++) {
    if (hp__cell_get(t, r, hp__rows_id(r, i), col, &v, &c->tmp))
      c->err = HP_ENOMEM;
    if (v.ok)
      return 1;
  }
  return 0;
}

/* Short names can collide: the repeats of a kernel-name column get " #2", " #3" (kname.c). */
static void unique_column(grid *g, size_t k)
{
  char **col = malloc((g->nrows ? g->nrows : 1) * sizeof(*col));
  size_t i;

  if (col == NULL) {
    g->err = HP_ENOMEM;
    return;
  }
  for (i = 0; i < g->nrows; i++)
    col[i] = g->cell[i * g->ncols + k];
  if (hp__names_unique(col, g->nrows))
    g->err = HP_ENOMEM;
  for (i = 0; i < g->nrows; i++)
    g->cell[i * g->ncols + k] = col[i];
  free(col);
}

/* One line per shown row of `r`, in the shown columns. */
static void build_grid(out_ctx *c, const hp__table *t, const hp__rows *r, grid *g)
{
  size_t *vis = malloc((t->ncols ? t->ncols : 1) * sizeof(*vis)), nvis = 0, i, k;
  char **cells = calloc(t->ncols ? t->ncols : 1, sizeof(*cells));

  for (k = 0; vis && k < t->ncols; k++)
    if (shown_col(c, t, r, k))
      vis[nvis++] = k;
  grid_init(g, nvis);
  if (vis == NULL || cells == NULL)
    g->err = HP_ENOMEM;
  for (k = 0; g->err == 0 && k < nvis; k++) {
    g->head[k] = hp__col_head(&t->cols[vis[k]]);
    g->right[k] = (t->cols[vis[k]].flags & HP__C_RIGHT) != 0;
  }
  for (i = 0; g->err == 0 && i < r->n; i++) {
    for (k = 0; k < nvis; k++)
      cells[k] = text_cell(c, t, r, hp__rows_id(r, i), &t->cols[vis[k]], NULL);
    grid_row(g, cells);
  }
  for (k = 0; g->err == 0 && k < nvis; k++)
    if (t->cols[vis[k]].flags & HP__C_KNAME)
      unique_column(g, k);
  free(cells);
  free(vis);
}

static void text_rows(out_ctx *c, const hp__table *t)
{
  hp__rows r;
  grid g;

  if (hp__rows_open(&r, t, c->p, c->o, 0)) {
    c->err = HP_ENOMEM;
    return;
  }
  if (r.total > 0) {
    build_grid(c, t, &r, &g);
    emit(c, &g, t->title_of ? t->title_of(c->p) : t->title, r.total, r.n);
    grid_free(&g);
    if (t->note)
      fprintf(c->fp, c->md ? "\n> %s\n" : "note: %s\n", t->note);
  }
  hp__rows_free(&r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Sections: one per row.                                                                          */

/* The row's text columns as a field/value table; fields without a value are left out. */
static void record_grid(out_ctx *c, const hp__table *t, const hp__rows *r, size_t id, grid *g)
{
  static const char *const head[] = {"field", "value"};
  size_t k;
  int ok;

  grid_init(g, 2);
  if (g->err)
    return;
  memcpy(g->head, head, sizeof(head));
  for (k = 0; k < t->ncols; k++) {
    char *cells[2];
    if (!(t->cols[k].in & HP__IN_TEXT))
      continue;
    cells[1] = text_cell(c, t, r, id, &t->cols[k], &ok);
    if (!ok && cells[1]) {
      free(cells[1]);
      continue;
    }
    cells[0] = hp__strdup(hp__col_head(&t->cols[k]));
    grid_row(g, cells);
  }
}

static int has_text_cols(const hp__table *t)
{
  size_t k;

  for (k = 0; k < t->ncols; k++)
    if (t->cols[k].in & HP__IN_TEXT)
      return 1;
  return 0;
}

/* The names of the shown rows as their sections' headings show them: short and unique (an array
 * of r->n malloc'd strings, NULL entries for a table without a name column; NULL on failure). */
static char **section_names(out_ctx *c, const hp__table *t, const hp__rows *r)
{
  char **names = calloc(r->n ? r->n : 1, sizeof(*names));
  size_t i, k;

  for (k = 0; names && k < t->ncols; k++) {
    if (!(t->cols[k].flags & HP__C_NAME))
      continue;
    for (i = 0; i < r->n; i++)
      names[i] = text_cell(c, t, r, hp__rows_id(r, i), &t->cols[k], NULL);
    if ((t->cols[k].flags & HP__C_KNAME) && hp__names_unique(names, r->n))
      c->err = HP_ENOMEM;
    break;
  }
  if (names == NULL)
    c->err = HP_ENOMEM;
  return names;
}

/* The section heading of the i-th of n rows into c->tmp. */
static int section_heading(out_ctx *c, const hp__table *t, const hp__rows *r, size_t i,
                           const char *name)
{
  size_t id = hp__rows_id(r, i);
  int rc;

  hp__buf_reset(&c->tmp);
  if (t->heading)
    rc = t->heading(r, id, name, &c->tmp);
  else if (r->n == 1)
    rc = hp__buf_adds(&c->tmp, t->title);
  else
    rc = hp__buf_printf(&c->tmp, "%s %zu/%zu", t->title, i + 1, r->n);
  return rc ? HP_ENOMEM : 0;
}

/* With a field table first, the child table has its own title and is left out when empty;
 * otherwise it is the section, under the row's heading. */
static void section(out_ctx *c, const hp__table *t, const hp__rows *r, size_t i, const char *name)
{
  size_t id = hp__rows_id(r, i);
  int record = has_text_cols(t);
  char *title;
  hp__rows cr;
  grid g;

  if (section_heading(c, t, r, i, name) || (title = hp__strdup(c->tmp.data)) == NULL) {
    c->err = HP_ENOMEM;
    return;
  }
  if (record) {
    record_grid(c, t, r, id, &g);
    emit(c, &g, title, 0, 0);
    grid_free(&g);
  }
  if (hp__rows_open(&cr, t->child, c->p, c->o, id) == 0) {
    /* A kernel of an ncu --set full capture has about 1,900 metrics: the terminal gets the first
     * child_top (the headline metrics come first) and a line saying where the rest are. */
    if (c->o && c->o->child_top > 0 && cr.n > (size_t)c->o->child_top)
      cr.n = (size_t)c->o->child_top;
    build_grid(c, t->child, &cr, &g);
    if (!record || g.nrows || g.err)
      emit(c, &g, record ? t->child->title : title, 0, 0);
    if (cr.n < cr.total)
      fprintf(c->fp,
              c->md ? "\n%zu more %s not shown (`--top 0` or `--format csv` shows all).\n"
                    : "(%zu more %s; --top 0 or --format csv shows all)\n",
              cr.total - cr.n, t->child->noun ? t->child->noun : t->child->key);
    grid_free(&g);
  } else {
    c->err = HP_ENOMEM;
  }
  hp__rows_free(&cr);
  free(title);
}

static void text_sections(out_ctx *c, const hp__table *t)
{
  hp__rows r;
  size_t i;
  char **names;

  if (hp__rows_open(&r, t, c->p, c->o, 0)) {
    c->err = HP_ENOMEM;
    return;
  }
  names = section_names(c, t, &r);
  for (i = 0; names && i < r.n && c->err == 0; i++)
    section(c, t, &r, i, names[i]);
  for (i = 0; names && i < r.n; i++)
    free(names[i]);
  free(names);
  if (r.n < r.total)
    fprintf(c->fp, c->md ? "\n%zu more %s not shown.\n" : "(%zu more %s; --top 0 shows all)\n",
            r.total - r.n, t->noun);
  hp__rows_free(&r);
}

/* ---------------------------------------------------------------------------------------------- */

/* Which kernel category set the category table used, and what chose it (docs/summarize.md). */
static void catset_line(const hp_profile *p, FILE *fp, int md)
{
  const char *why, *set = hp_profile_category_set(p, &why);

  if (strcmp(set, "custom") == 0)
    fputs(md ? "Kernel categories: your own rules.\n" : "kernel categories: your own rules\n", fp);
  else if (md)
    fprintf(fp, "Kernel categories: the built-in `%s` set (chosen by the %s).\n", set,
            strcmp(why, "user") == 0 ? "user" : why);
  else
    fprintf(fp, "kernel categories: built-in set %s (chosen by the %s)\n", set, why);
}

/* app.region: what the kernel tables cover, said before them (region.c). */
static void region_line(const hp_profile *p, FILE *fp, int md)
{
  char *note = hp_profile_region_note(p);

  if (note == NULL)
    return;
  if (md)
    fprintf(fp, "\n%s%s.\n", p->region_filter ? "" : "**Warning:** ", note);
  else
    fprintf(fp, "%s%s\n", p->region_filter ? "" : "warning: ", note);
  free(note);
}

int hp__write_text(const hp_profile *p, FILE *fp, int md, const hp_profile_opts *o)
{
  out_ctx c;
  size_t i;

  memset(&c, 0, sizeof(c));
  c.p = p;
  c.fp = fp;
  c.md = md;
  c.o = o;
  c.width = md ? 0 : (o && o->name_width > 0 ? (size_t)o->name_width : 60);
  c.wide = o && o->wide;
  if (md)
    fprintf(fp, "## Profile summary\n\n%zu files read, %zu ignored.\n", p->nfiles, p->nignored);
  else
    fprintf(fp, "hprun summarize: %zu files read, %zu ignored\n", p->nfiles, p->nignored);
  if (p->nfiles == 0)
    fputs(md ? "\nNo profiler output was found.\n" : "no profiler output was found\n", fp);
  else if (p->nkorder > 0)
    catset_line(p, fp, md);
  region_line(p, fp, md);
  for (i = 0; i < hp__ntables && c.err == 0; i++) {
    if (hp__tables[i]->flags & HP__TF_SECTIONS)
      text_sections(&c, hp__tables[i]);
    else
      text_rows(&c, hp__tables[i]);
  }
  if (c.err == 0)
    text_rows(&c, &hp__files_table);
  hp__buf_free(&c.tmp);
  hp__buf_free(&c.join);
  return c.err;
}
