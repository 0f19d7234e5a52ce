/*
 * What every table description shares, below all of them: opening rows (with --top), fetching
 * and setting cells, the distinct-value join, and the row orders of the per-kernel tables. The
 * descriptions (tables*.c, san_table.c) and the writers (out_*.c) call these; nothing here knows a
 * particular table. The model is in docs/internals/tables.md.
 */
#include "profile/tables/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Rows and cells.                                                                                 */

int hp__rows_open(hp__rows *r, const hp__table *t, const hp_profile *p, const hp_profile_opts *o,
                  size_t parent)
{
  int rc;

  memset(r, 0, sizeof(*r));
  r->p = p;
  r->parent = parent;
  r->o = o;
  if ((rc = t->open(r, t->arg)) != 0) {
    hp__rows_free(r);
    return rc;
  }
  r->n = r->total;
  if ((t->flags & HP__TF_TOP) && o && o->top > 0 && (size_t)o->top < r->total)
    r->n = (size_t)o->top;
  return 0;
}

void hp__rows_free(hp__rows *r)
{
  if (r == NULL)
    return;
  free(r->id);
  free(r->own);
  r->id = NULL;
  r->own = NULL;
}

size_t hp__rows_id(const hp__rows *r, size_t i)
{
  return r->id ? r->id[i] : i;
}

int hp__cell_get(const hp__table *t, const hp__rows *r, size_t id, const hp__col *col, hp__cell *c,
                 hp__buf *tmp)
{
  const void *at;
  const char *s;

  memset(c, 0, sizeof(*c));
  if (!(col->flags & HP__C_AT))
    return t->get(r, id, col->field, c, tmp);
  at = (const char *)r->src + id * t->size + col->field;
  switch (col->type) {
  case HP__V_STR:
    memcpy(&s, at, sizeof(s)); /* the member is a char * or a const char * */
    hp__cell_setstr(c, s);
    break;
  case HP__V_NUM: hp__cell_setnum(c, *(const double *)at); break;
  case HP__V_BOOL: hp__cell_setint(c, *(const int *)at); break;
  case HP__V_TABLES: hp__cell_setint(c, *(const unsigned *)at); break;
  case HP__V_VALS:
    c->ok = 1;
    c->v = at;
    break;
  default:
    hp__cell_setint(c, *(const long long *)at);
    c->ok = !(col->flags & HP__C_OPT) || c->i >= 0;
  }
  return 0;
}

double hp__cell_value(const hp__col *col, const hp__cell *c)
{
  return col->div != 0 ? c->d / col->div : c->d;
}

const char *hp__col_csv(const hp__col *col)
{
  return col->csv ? col->csv : col->key;
}

const char *hp__col_head(const hp__col *col)
{
  return col->head ? col->head : hp__col_csv(col);
}

void hp__cell_setstr(hp__cell *c, const char *s)
{
  c->ok = s != NULL;
  c->s = s;
  c->len = s ? strlen(s) : 0;
}

void hp__cell_setint(hp__cell *c, long long v)
{
  c->ok = 1;
  c->i = v;
}

void hp__cell_setnum(hp__cell *c, double v)
{
  c->ok = !isnan(v);
  c->d = v;
}

/* ---------------------------------------------------------------------------------------------- */
/* Distinct values.                                                                                */

/* Numbers sort by value, anything else by text (the article's unique_values). */
static int cmp_val(const void *a, const void *b)
{
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  double dx, dy;

  if (hp__parse_num(x, strlen(x), &dx) == 1 && hp__parse_num(y, strlen(y), &dy) == 1 && dx != dy)
    return dx < dy ? -1 : 1;
  return strcmp(x, y);
}

void hp__vals_sorted(const hp__vals *v, const char **s)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    s[i] = v->v[i];
  qsort(s, v->n, sizeof(*s), cmp_val);
}

int hp__vals_join(const hp__vals *v, hp__buf *b)
{
  const char *s[HP__MAX_VALS];
  size_t i;

  hp__buf_reset(b);
  if (v->n == 0)
    return hp__buf_adds(b, "n/a");
  hp__vals_sorted(v, s);
  for (i = 0; i < v->n; i++)
    hp__buf_printf(b, "%s%s", i ? "," : "", s[i]);
  if (v->more)
    hp__buf_printf(b, ",... (%lld rows with other values)", v->more);
  return hp__buf_error(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Row orders the per-kernel tables share.                                                         */

typedef struct cnt_item {
  long long n;
  size_t id;
} cnt_item;

static int cmp_cnt(const void *a, const void *b)
{
  const cnt_item *x = a, *y = b;

  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Orders ids 0..n-1 by the long long count at byte `off` of each `size`-byte item of `base`,
 * descending (one sort for the three tables, whose counts sit in different structs). */
int hp__rows_sort_by_count(hp__rows *r, size_t n, const void *base, size_t size, size_t off)
{
  cnt_item *it = malloc((n ? n : 1) * sizeof(*it));
  size_t i;

  r->total = n;
  r->id = malloc((n ? n : 1) * sizeof(*r->id));
  if (it == NULL || r->id == NULL) {
    free(it);
    return HP_ENOMEM;
  }
  for (i = 0; i < n; i++) {
    memcpy(&it[i].n, (const char *)base + i * size + off, sizeof(long long));
    it[i].id = i;
  }
  qsort(it, n, sizeof(*it), cmp_cnt);
  for (i = 0; i < n; i++)
    r->id[i] = it[i].id;
  free(it);
  return 0;
}

/* The ids of the counters (or metrics) a kernel has a value for. */
int hp__rows_nonzero_ids(hp__rows *r, const long long *cnt, size_t ncap, size_t nnames)
{
  size_t k, m = 0;

  r->id = malloc((nnames ? nnames : 1) * sizeof(*r->id));
  if (r->id == NULL)
    return HP_ENOMEM;
  for (k = 0; k < ncap && k < nnames; k++)
    if (cnt[k] != 0)
      r->id[m++] = k;
  r->total = m;
  return 0;
}
