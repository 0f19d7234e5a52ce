/*
 * The CSV document of a profile summary, rendered from the table descriptions
 * (profile/tables/table.h): one table after another, each after a `# table: NAME` line and a header
 * of the CSV columns. Child rows are either flattened into their parent's table (one line per child
 * row, the parent's columns repeated) or a table of their own after it, led by the parent's key
 * columns. Fields are quoted only when they must be (RFC 4180), and a field that starts with '#' or
 * a space is quoted too, so no data line looks like a table line or loses its spaces.
 */
#include "profile/tables/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv_ctx {
  const hp_profile *p;
  FILE *fp;
  const hp_profile_opts *o;
  hp__buf tmp, join;
} csv_ctx;

/* s[0..n), up to a NUL byte. */
static void csv_str(FILE *fp, const char *s, size_t n)
{
  size_t i;

  n = strnlen(s, n);
  for (i = 0; i < n && !strchr(",\"\r\n", s[i]); i++)
    ;
  if (i == n && s[0] != ' ' && s[0] != '#') {
    fwrite(s, 1, n, fp);
    return;
  }
  fputc('"', fp);
  for (i = 0; i < n; i++) {
    if (s[i] == '"')
      fputc('"', fp);
    fputc(s[i], fp);
  }
  fputc('"', fp);
}

/* The shortest of %.15g and %.17g that reads back as the same double; nothing for NaN or inf. */
static void csv_num(FILE *fp, double v)
{
  char tmp[64];

  if (isnan(v) || isinf(v))
    return;
  snprintf(tmp, sizeof(tmp), "%.15g", v);
  if (strtod(tmp, NULL) != v)
    snprintf(tmp, sizeof(tmp), "%.17g", v);
  fputs(tmp, fp);
}

static int csv_value(csv_ctx *c, const hp__col *col, const hp__cell *v)
{
  if (!v->ok)
    return 0;
  switch (col->type) {
  case HP__V_STR: csv_str(c->fp, v->s, v->len); break;
  case HP__V_INT: fprintf(c->fp, "%lld", v->i); break;
  case HP__V_NUM: csv_num(c->fp, hp__cell_value(col, v)); break;
  case HP__V_VALS:
    if (hp__vals_join(v->v, &c->join))
      return HP_ENOMEM;
    csv_str(c->fp, c->join.data, c->join.len);
    break;
  }
  return 0;
}

/* The CSV columns of row `id` (only the HP__C_KEY ones when `keys`), each after a separator but
 * the very first of the line (*first). */
static int csv_cells(csv_ctx *c, const hp__table *t, const hp__rows *r, size_t id, int keys,
                     int *first)
{
  size_t k;
  hp__cell v;

  for (k = 0; k < t->ncols; k++) {
    const hp__col *col = &t->cols[k];
    if (!(col->in & HP__IN_CSV) || (keys && !(col->flags & HP__C_KEY)))
      continue;
    if (!*first)
      fputc(',', c->fp);
    *first = 0;
    if (hp__cell_get(t, r, id, col, &v, &c->tmp) || csv_value(c, col, &v))
      return HP_ENOMEM;
  }
  return 0;
}

static void csv_heads(FILE *fp, const hp__table *t, int keys, int *first)
{
  size_t k;

  for (k = 0; k < t->ncols; k++) {
    if (!(t->cols[k].in & HP__IN_CSV) || (keys && !(t->cols[k].flags & HP__C_KEY)))
      continue;
    fprintf(fp, "%s%s", *first ? "" : ",", hp__col_csv(&t->cols[k]));
    *first = 0;
  }
}

/* One line per child row of parent row `id`: the parent's columns (all, or the keys), then the
 * child's. */
static int csv_child_lines(csv_ctx *c, const hp__table *t, const hp__rows *r, size_t id, int keys)
{
  hp__rows cr;
  size_t i;
  int rc, first;

  if ((rc = hp__rows_open(&cr, t->child, c->p, c->o, id)) != 0)
    return rc;
  for (i = 0; i < cr.n && rc == 0; i++) {
    first = 1;
    rc = csv_cells(c, t, r, id, keys, &first);
    if (rc == 0)
      rc = csv_cells(c, t->child, &cr, hp__rows_id(&cr, i), 0, &first);
    fputc('\n', c->fp);
  }
  hp__rows_free(&cr);
  return rc;
}

/* `# table: NAME` and the header: the table's columns (only its keys when `keys`), then the
 * child's when `child`. */
static void csv_header(FILE *fp, const char *name, const hp__table *t, int keys, int child,
                       int lead)
{
  int first = 1;

  fprintf(fp, "%s# table: %s\n", lead ? "\n" : "", name);
  csv_heads(fp, t, keys, &first);
  if (child)
    csv_heads(fp, t->child, 0, &first);
  fputc('\n', fp);
}

static int csv_table(csv_ctx *c, const hp__table *t, int lead)
{
  int flat = t->child && t->child->csv_table == NULL, rc, first;
  const char *own = t->child ? t->child->csv_table : NULL;
  hp__rows r;
  size_t i;

  if ((rc = hp__rows_open(&r, t, c->p, c->o, 0)) != 0)
    return rc;
  csv_header(c->fp, t->key, t, 0, flat, lead);
  for (i = 0; i < r.n && rc == 0; i++) {
    if (flat) {
      rc = csv_child_lines(c, t, &r, hp__rows_id(&r, i), 0);
      continue;
    }
    first = 1;
    rc = csv_cells(c, t, &r, hp__rows_id(&r, i), 0, &first);
    fputc('\n', c->fp);
  }
  if (own && rc == 0) {
    csv_header(c->fp, own, t, 1, 1, 1);
    for (i = 0; i < r.n && rc == 0; i++)
      rc = csv_child_lines(c, t, &r, hp__rows_id(&r, i), 1);
  }
  hp__rows_free(&r);
  return rc;
}

int hp__write_csv(const hp_profile *p, FILE *fp, const hp_profile_opts *o)
{
  csv_ctx c = {p, fp, o, HP__BUF_INIT, HP__BUF_INIT};
  size_t i;
  int rc = csv_table(&c, &hp__files_table, 0);

  for (i = 0; i < hp__ntables && rc == 0; i++)
    rc = csv_table(&c, hp__tables[i], 1);
  hp__buf_free(&c.tmp);
  hp__buf_free(&c.join);
  return rc;
}
