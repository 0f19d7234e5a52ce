/*
 * The JSON document of a profile summary, rendered from the table descriptions
 * (profile/tables/table.h): `hprun summarize --format json` and the "profile" object a session
 * embeds in summary.json (hp__profile_json). Every table is an array of objects, one member per
 * JSON column, with its child rows as an array after them; docs/summarize.md lists the keys. A
 * child row (a kernel's ncu metric, PMC counter, stack origin) is written on one line: indented
 * member by member, the many small rows of a summary's nested tables were most of its bytes.
 */
#include "profile/tables/out.h"
#include "profile/tables/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int json_table(hp__json *j, const hp__table *t, const hp_profile *p,
                      const hp_profile_opts *o, size_t parent, size_t limit, hp__buf *tmp,
                      int oneline);

/* The keys of the tables a file fed, in bit order. */
static void json_tables_bits(hp__json *j, unsigned bits)
{
  unsigned b;

  hp__json_arr_begin(j);
  for (b = 1; b != 0; b <<= 1) {
    const hp__table *t = bits & b ? hp__table_by_bit(b) : NULL;
    if (t)
      hp__json_str(j, t->key);
  }
  hp__json_arr_end(j);
}

/* Distinct values: numbers as numbers, anything else as strings. */
static void json_vals(hp__json *j, const hp__vals *v)
{
  const char *s[HP__MAX_VALS];
  size_t i;
  double d;

  hp__vals_sorted(v, s);
  hp__json_arr_begin(j);
  for (i = 0; i < v->n; i++) {
    if (hp__parse_num(s[i], strlen(s[i]), &d) == 1)
      hp__json_num(j, d);
    else
      hp__json_str(j, s[i]);
  }
  hp__json_arr_end(j);
}

static void json_value(hp__json *j, const hp__col *col, const hp__cell *c)
{
  if (!c->ok) {
    hp__json_null(j);
    return;
  }
  switch (col->type) {
  case HP__V_STR: hp__json_strn(j, c->s, c->len); break;
  case HP__V_INT: hp__json_int(j, c->i); break;
  case HP__V_NUM: hp__json_num(j, hp__cell_value(col, c)); break;
  case HP__V_BOOL: hp__json_bool(j, c->i != 0); break;
  case HP__V_VALS: json_vals(j, c->v); break;
  case HP__V_TABLES: json_tables_bits(j, (unsigned)c->i); break;
  default: hp__json_null(j); break;
  }
}

/* The member columns after an HP__V_OBJ column k, as one object. */
static int json_members(hp__json *j, const hp__table *t, const hp__rows *r, size_t id, size_t k,
                        hp__buf *tmp)
{
  hp__cell c;

  hp__json_obj_begin(j);
  for (k++; k < t->ncols && (t->cols[k].flags & HP__C_MEMBER); k++) {
    if (!(t->cols[k].in & HP__IN_JSON))
      continue;
    if (hp__cell_get(t, r, id, &t->cols[k], &c, tmp))
      return HP_ENOMEM;
    hp__json_key(j, t->cols[k].key);
    json_value(j, &t->cols[k], &c);
  }
  hp__json_obj_end(j);
  return 0;
}

static int json_row(hp__json *j, const hp__table *t, const hp__rows *r, size_t id,
                    const hp_profile_opts *o, hp__buf *tmp, int oneline)
{
  size_t k;
  hp__cell c;
  int rc = 0, pretty = j->pretty;

  hp__json_obj_begin(j);
  if (oneline)
    j->pretty = 0;
  for (k = 0; k < t->ncols && rc == 0; k++) {
    const hp__col *col = &t->cols[k];
    if (!(col->in & HP__IN_JSON) || (col->flags & HP__C_MEMBER))
      continue;
    if ((rc = hp__cell_get(t, r, id, col, &c, tmp)) != 0)
      break;
    hp__json_key(j, col->key);
    if (col->type == HP__V_OBJ && c.ok)
      rc = json_members(j, t, r, id, k, tmp);
    else
      json_value(j, col, &c);
  }
  if (rc == 0 && t->child) {
    hp__rows cr;
    size_t limit = o && o->child_top > 0 ? (size_t)o->child_top : 0;
    hp__json_key(j, t->child->key);
    rc = json_table(j, t->child, r->p, o, id, limit, tmp, 1);
    /* A cut nested table says how many rows it has (the CSV file holds them all). */
    if (rc == 0 && limit && hp__rows_open(&cr, t->child, r->p, o, id) == 0) {
      if (cr.total > limit) {
        char key[64];
        snprintf(key, sizeof(key), "%s_total", t->child->key);
        hp__json_kint(j, key, (long long)cr.total);
      }
      hp__rows_free(&cr);
    }
  }
  hp__json_obj_end(j);
  j->pretty = pretty;
  return rc;
}

/* A table's rows as an array; a table with a note as {"note", "entries", "dropped"}. */
static int json_table(hp__json *j, const hp__table *t, const hp_profile *p,
                      const hp_profile_opts *o, size_t parent, size_t limit, hp__buf *tmp,
                      int oneline)
{
  hp__rows r;
  size_t i;
  int rc;

  if ((rc = hp__rows_open(&r, t, p, o, parent)) != 0)
    return rc;
  if (limit && limit < r.n)
    r.n = limit;
  if (t->note) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, "note", t->note);
    hp__json_key(j, "entries");
  }
  hp__json_arr_begin(j);
  for (i = 0; i < r.n && rc == 0; i++)
    rc = json_row(j, t, &r, hp__rows_id(&r, i), o, tmp, oneline);
  hp__json_arr_end(j);
  if (t->note) {
    hp__json_kint(j, "dropped", t->dropped ? t->dropped(p) : 0);
    hp__json_obj_end(j);
  }
  hp__rows_free(&r);
  return rc;
}

/* "counts": the number of rows of every counted table, before --top. */
static int json_counts(hp__json *j, const hp_profile *p)
{
  hp__rows r;
  size_t i;

  hp__json_key(j, "counts");
  hp__json_obj_begin(j);
  for (i = 0; i < hp__ntables; i++) {
    if (!(hp__tables[i]->flags & HP__TF_COUNT))
      continue;
    if (hp__rows_open(&r, hp__tables[i], p, NULL, 0))
      return HP_ENOMEM;
    hp__json_kint(j, hp__tables[i]->key, (long long)r.total);
    hp__rows_free(&r);
  }
  hp__json_obj_end(j);
  return 0;
}

int hp__profile_json(const hp_profile *p, hp__json *j, const hp_profile_opts *o)
{
  hp__buf tmp = HP__BUF_INIT;
  size_t i;
  int r;

  hp__json_obj_begin(j);
  hp__json_kint(j, "schema", 1);
  hp__json_key(j, "files");
  if ((r = json_table(j, &hp__files_table, p, o, 0, 0, &tmp, 0)) != 0)
    goto fail;
  hp__json_kint(j, "ignored_files", (long long)p->nignored);
  {
    const char *why, *set = hp_profile_category_set(p, &why);
    /* The kernel category set used: a built-in set's name or "custom", and what chose it. */
    hp__json_key(j, "category_set");
    hp__json_obj_begin(j);
    hp__json_kstr(j, "name", set);
    hp__json_kstr(j, "chosen_by", why);
    hp__json_obj_end(j);
  }
  if (p->region) { /* app.region (region.c): what the kernel tables cover */
    static const char *const states[] = {"none", "applied", "not_found", "empty"};
    hp_profile_region rg;
    char *note = hp_profile_region_note(p);
    hp_profile_get_region(p, &rg);
    hp__json_key(j, "region");
    hp__json_obj_begin(j);
    hp__json_kstr(j, "name", rg.name);
    hp__json_kstr(j, "state", states[rg.state]);
    hp__json_kint(j, "spans", (long long)rg.spans);
    hp__json_kint(j, "dispatches_kept", rg.kept);
    hp__json_kint(j, "dispatches_read", rg.total);
    hp__json_kstr(j, "note", note);
    hp__json_obj_end(j);
    free(note);
  }
  if ((r = json_counts(j, p)) != 0)
    goto fail;
  for (i = 0; i < hp__ntables; i++) {
    hp__json_key(j, hp__tables[i]->key);
    if ((r = json_table(j, hp__tables[i], p, o, 0, 0, &tmp, 0)) != 0)
      goto fail;
  }
  hp__json_obj_end(j);

fail:
  hp__buf_free(&tmp);
  if (r && !j->err)
    j->err = r;
  return r ? r : j->err;
}
