/*
 * Writing a profile summary as text (aligned tables like the article's), JSON (one object that a
 * session embeds), GitHub Markdown, or CSV (one table after another, each after a
 * `# table: NAME` line). docs/summarize.md documents every key and column.
 *
 * Everything is computed from the tables on the fly: sorting and categories cost
 * O(k log k) in the number of distinct names, never a pass over the input again.
 */
#include "profile/profile.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char leak_note[] =
    "These are hipprof --memory-usage leak checks at process exit: memory not released, counted "
    "with the runtime's and the profiler's own allocations. They are not peak or steady-state "
    "device memory; compare a fresh run before calling anything a leak.";

static const char *const prop_keys[HP__P_N] = {"grid_size", "workgroup_size", "wave_size",
                                               "arch_vgpr", "accum_vgpr",     "sgpr",
                                               "lds_bytes", "scratch_bytes",  "lds_bank_conflict"};

static const struct {
  int table;
  const char *key;   /* JSON key and CSV table name */
  const char *title; /* text and Markdown heading */
} time_tables[] = {
    {HP__T_API, "api", "HIP API summary"},
    {HP__T_HSA, "hsa_api", "HSA API summary"},
    {HP__T_COPY, "copies", "Memory copy summary"},
    {HP__T_KERNEL, "kernels", "Kernel summary"},
};
#define NTIME (sizeof(time_tables) / sizeof(time_tables[0]))

static size_t limit(const hp_profile_opts *o, size_t n)
{
  return o && o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
}

/* ---------------------------------------------------------------------------------------------- */
/* Derived values.                                                                                 */

typedef struct trow {
  const char *name;
  long long calls;
  double total, avg, min, max, percent;
} trow;

static void time_row(const hp__ttable *t, size_t id, double sum, trow *r)
{
  const hp__tstat *s = &t->st[id];

  r->name = t->names.s[id];
  r->calls = s->calls;
  r->total = s->total_ns;
  if (s->nsources == 1 && !isnan(s->avg_reported))
    r->avg = s->avg_reported;
  else
    r->avg = s->calls > 0 ? s->total_ns / (double)s->calls : NAN;
  r->min = s->have_minmax && !s->nominmax ? s->min_ns : NAN;
  r->max = s->have_minmax && !s->nominmax ? s->max_ns : NAN;
  r->percent = sum > 0 ? s->total_ns / sum * 100.0 : NAN;
}

static double table_sum(const hp__ttable *t)
{
  double sum = 0;
  size_t i;

  for (i = 0; i < t->names.n; i++)
    sum += t->st[i].total_ns;
  return sum;
}

int hp__profile_categories(const hp_profile *p, hp__catstat **out, size_t *n)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  hp__catstat *c;
  size_t i, k, m = 0, nc = p->ncats + 1;
  double sum = table_sum(t);

  *out = NULL;
  *n = 0;
  c = calloc(nc, sizeof(*c));
  if (c == NULL)
    return HP_ENOMEM;
  for (i = 0; i < p->ncats; i++)
    c[i].name = p->cats[i].name;
  c[p->ncats].name = "other";
  for (i = 0; i < t->names.n; i++) {
    const char *cat = hp__profile_classify(p, t->names.s[i]);
    for (k = 0; k < nc; k++)
      if (c[k].name == cat || (k == p->ncats && strcmp(cat, "other") == 0))
        break;
    if (k == nc)
      k = p->ncats;
    c[k].calls += t->st[i].calls;
    c[k].total_ns += t->st[i].total_ns;
    c[k].percent = 1; /* marks a category that has kernels */
  }
  for (i = 0; i < nc; i++)
    if (c[i].percent != 0) {
      c[m] = c[i];
      c[m].percent = sum > 0 ? c[m].total_ns / sum * 100.0 : NAN;
      m++;
    }
  /* Sorted by time (a stable insertion sort keeps the rules' order for ties). */
  for (i = 1; i < m; i++) {
    hp__catstat tmp = c[i];
    for (k = i; k > 0 && c[k - 1].total_ns < tmp.total_ns; k--)
      c[k] = c[k - 1];
    c[k] = tmp;
  }
  *out = c;
  *n = m;
  return 0;
}

/* Orders ids by a count, descending, ties by id (first appearance), as Python's stable sort. */
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

static size_t *sort_by_count(size_t n, long long (*get)(const hp_profile *, size_t),
                             const hp_profile *p)
{
  cnt_item *it = malloc((n ? n : 1) * sizeof(*it));
  size_t *ids = malloc((n ? n : 1) * sizeof(*ids)), i;

  if (it == NULL || ids == NULL) {
    free(it);
    free(ids);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    it[i].n = get(p, i);
    it[i].id = i;
  }
  qsort(it, n, sizeof(*it), cmp_cnt);
  for (i = 0; i < n; i++)
    ids[i] = it[i].id;
  free(it);
  return ids;
}

static long long stack_launches(const hp_profile *p, size_t i)
{
  return p->stk[i].launches;
}
static long long pmc_records(const hp_profile *p, size_t i)
{
  return p->pmc[i].records;
}
static long long ncu_launches(const hp_profile *p, size_t i)
{
  return p->ncu[i].launches;
}

/* The most common first user frame of a stack kernel; ties go to the one seen first. */
static const hp__origin *top_origin(const hp__stack_kernel *k)
{
  const hp__origin *best = NULL;
  size_t i;

  for (i = 0; i < k->no; i++)
    if (best == NULL || k->o[i].n > best->n ||
        (k->o[i].n == best->n && k->o[i].first < best->first))
      best = &k->o[i];
  return best;
}

static int cmp_origin(const void *a, const void *b)
{
  const hp__origin *x = *(const hp__origin *const *)a, *y = *(const hp__origin *const *)b;

  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

static const hp__origin **sorted_origins(const hp__stack_kernel *k)
{
  const hp__origin **o = malloc((k->no ? k->no : 1) * sizeof(*o));
  size_t i;

  if (o == NULL)
    return NULL;
  for (i = 0; i < k->no; i++)
    o[i] = &k->o[i];
  qsort(o, k->no, sizeof(*o), cmp_origin);
  return o;
}

/* Distinct values joined like the article's unique_values: sorted, comma-separated, "n/a". Numbers
 * sort by value, anything else by text. */
static int cmp_val(const void *a, const void *b)
{
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  double dx, dy;

  if (hp__parse_num(x, strlen(x), &dx) == 1 && hp__parse_num(y, strlen(y), &dy) == 1 && dx != dy)
    return dx < dy ? -1 : 1;
  return strcmp(x, y);
}

static int join_vals(const hp__vals *v, hp__buf *b)
{
  const char *s[HP__MAX_VALS];
  size_t i;
  int r = 0;

  hp__buf_reset(b);
  if (v->n == 0)
    return hp__buf_adds(b, "n/a");
  for (i = 0; i < v->n; i++)
    s[i] = v->v[i];
  qsort(s, v->n, sizeof(*s), cmp_val);
  for (i = 0; i < v->n; i++)
    r |= hp__buf_printf(b, "%s%s", i ? "," : "", s[i]);
  if (v->more)
    r |= hp__buf_printf(b, ",... (%lld rows with other values)", v->more);
  return r ? HP_ENOMEM : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* JSON.                                                                                           */

static void json_vals(hp__json *j, const hp__vals *v)
{
  const char *s[HP__MAX_VALS];
  size_t i;
  double d;

  for (i = 0; i < v->n; i++)
    s[i] = v->v[i];
  qsort(s, v->n, sizeof(*s), cmp_val);
  hp__json_arr_begin(j);
  for (i = 0; i < v->n; i++) {
    if (hp__parse_num(s[i], strlen(s[i]), &d) == 1)
      hp__json_num(j, d);
    else
      hp__json_str(j, s[i]);
  }
  hp__json_arr_end(j);
}

static void json_tables_bits(hp__json *j, unsigned t)
{
  static const char *const names[] = {"api", "hsa_api", "copies",    "kernels", "stacks",
                                      "pmc", "ncu",     "leakcheck", "agents"};
  size_t i;

  hp__json_arr_begin(j);
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (t & (1u << i))
      hp__json_str(j, names[i]);
  hp__json_arr_end(j);
}

int hp__profile_json(const hp_profile *p, hp__json *j, const hp_profile_opts *o)
{
  size_t i, k, n, mnl, *ids = NULL;
  const char *mname;
  hp__catstat *cats = NULL;
  size_t ncats = 0;
  int r = 0;

  hp__json_obj_begin(j);
  hp__json_kint(j, "schema", 1);
  hp__json_key(j, "files");
  hp__json_arr_begin(j);
  for (i = 0; i < p->nfiles; i++) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, "path", p->files[i].path);
    hp__json_kstr(j, "format", p->files[i].format);
    hp__json_key(j, "tables");
    json_tables_bits(j, p->files[i].tables);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  hp__json_kint(j, "ignored_files", (long long)p->nignored);

  hp__json_key(j, "counts");
  hp__json_obj_begin(j);
  for (i = 0; i < NTIME; i++)
    hp__json_kint(j, time_tables[i].key, (long long)p->t[time_tables[i].table].names.n);
  hp__json_kint(j, "stacks", (long long)p->stk_names.n);
  hp__json_kint(j, "pmc", (long long)p->pmc_names.n);
  hp__json_kint(j, "ncu", (long long)p->ncu_names.n);
  hp__json_obj_end(j);

  for (i = 0; i < NTIME; i++) {
    const hp__ttable *t = &p->t[time_tables[i].table];
    double sum = table_sum(t);
    if ((r = hp__ttable_sorted(t, &ids)) != 0)
      goto fail;
    hp__json_key(j, time_tables[i].key);
    hp__json_arr_begin(j);
    n = limit(o, t->names.n);
    for (k = 0; k < n; k++) {
      trow tr;
      time_row(t, ids[k], sum, &tr);
      hp__json_obj_begin(j);
      hp__json_kstr(j, "name", tr.name);
      hp__json_kint(j, "calls", tr.calls);
      hp__json_knum(j, "total_ns", tr.total);
      hp__json_knum(j, "total_ms", tr.total / 1e6);
      hp__json_knum(j, "avg_ns", tr.avg);
      hp__json_knum(j, "average_us", tr.avg / 1e3);
      hp__json_knum(j, "min_ns", tr.min);
      hp__json_knum(j, "max_ns", tr.max);
      hp__json_knum(j, "percent", tr.percent);
      if (time_tables[i].table == HP__T_KERNEL)
        hp__json_kstr(j, "category", hp__profile_classify(p, tr.name));
      hp__json_obj_end(j);
    }
    hp__json_arr_end(j);
    free(ids);
    ids = NULL;
  }

  if ((r = hp__profile_categories(p, &cats, &ncats)) != 0)
    goto fail;
  hp__json_key(j, "categories");
  hp__json_arr_begin(j);
  for (i = 0; i < ncats; i++) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, "name", cats[i].name);
    hp__json_kint(j, "calls", cats[i].calls);
    hp__json_knum(j, "total_ns", cats[i].total_ns);
    hp__json_knum(j, "total_ms", cats[i].total_ns / 1e6);
    hp__json_knum(j, "percent", cats[i].percent);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);

  if ((ids = sort_by_count(p->stk_names.n, stack_launches, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  hp__json_key(j, "stacks");
  hp__json_arr_begin(j);
  n = limit(o, p->stk_names.n);
  for (i = 0; i < n; i++) {
    const hp__stack_kernel *sk = &p->stk[ids[i]];
    const hp__origin **os = sorted_origins(sk);
    if (os == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    hp__json_obj_begin(j);
    hp__json_kstr(j, "kernel", p->stk_names.s[ids[i]]);
    hp__json_kint(j, "launches", sk->launches);
    hp__json_kstr(j, "user_frame", sk->no ? top_origin(sk)->frame : NULL);
    hp__json_key(j, "origins");
    hp__json_arr_begin(j);
    for (k = 0; k < sk->no; k++) {
      hp__json_obj_begin(j);
      hp__json_kstr(j, "frame", os[k]->frame);
      hp__json_kint(j, "launches", os[k]->n);
      hp__json_obj_end(j);
    }
    hp__json_arr_end(j);
    hp__json_obj_end(j);
    free(os);
  }
  hp__json_arr_end(j);
  free(ids);

  if ((ids = sort_by_count(p->pmc_names.n, pmc_records, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  hp__json_key(j, "pmc");
  hp__json_arr_begin(j);
  n = limit(o, p->pmc_names.n);
  for (i = 0; i < n; i++) {
    const hp__pmc_kernel *pk = &p->pmc[ids[i]];
    hp__json_obj_begin(j);
    hp__json_kstr(j, "kernel", p->pmc_names.s[ids[i]]);
    hp__json_kint(j, "records", pk->records);
    hp__json_kint(j, "dispatches", pk->dispatches);
    for (k = 0; k < HP__P_N; k++) {
      hp__json_key(j, prop_keys[k]);
      json_vals(j, &pk->props[k]);
    }
    hp__json_key(j, "kernel_time_ns");
    if (pk->tn) {
      hp__json_obj_begin(j);
      hp__json_kint(j, "n", pk->tn);
      hp__json_knum(j, "total", pk->tsum);
      hp__json_knum(j, "avg", pk->tsum / (double)pk->tn);
      hp__json_knum(j, "min", pk->tmin);
      hp__json_knum(j, "max", pk->tmax);
      hp__json_obj_end(j);
    } else {
      hp__json_null(j);
    }
    hp__json_key(j, "counters");
    hp__json_arr_begin(j);
    for (k = 0; k < pk->ncap && k < p->counters.n; k++) {
      if (pk->cn[k] == 0)
        continue;
      hp__json_obj_begin(j);
      hp__json_kstr(j, "name", p->counters.s[k]);
      hp__json_knum(j, "sum", pk->csum[k]);
      hp__json_kint(j, "rows", pk->cn[k]);
      hp__json_knum(j, "avg", pk->csum[k] / (double)pk->cn[k]);
      hp__json_obj_end(j);
    }
    hp__json_arr_end(j);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  free(ids);
  ids = NULL;

  hp__json_key(j, "leakcheck");
  hp__json_obj_begin(j);
  hp__json_kstr(j, "note", leak_note);
  hp__json_key(j, "entries");
  hp__json_arr_begin(j);
  for (i = 0; i < p->nleaks; i++) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, "file", p->leaks[i].file);
    hp__json_kint(j, "line", p->leaks[i].line);
    hp__json_kstr(j, "scope", p->leaks[i].scope);
    hp__json_knum(j, "bytes", p->leaks[i].bytes);
    hp__json_kstr(j, "text", p->leaks[i].text);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  hp__json_kint(j, "dropped", p->leaks_dropped);
  hp__json_obj_end(j);

  if ((ids = sort_by_count(p->ncu_names.n, ncu_launches, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  hp__json_key(j, "ncu");
  hp__json_arr_begin(j);
  n = limit(o, p->ncu_names.n);
  for (i = 0; i < n; i++) {
    const hp__ncu_kernel *nk = &p->ncu[ids[i]];
    hp__json_obj_begin(j);
    hp__json_kstr(j, "kernel", p->ncu_names.s[ids[i]]);
    hp__json_kint(j, "launches", nk->launches);
    hp__json_kstr(j, "block_size", nk->block);
    hp__json_kbool(j, "block_size_varies", nk->block_varies);
    hp__json_kstr(j, "grid_size", nk->grid);
    hp__json_kbool(j, "grid_size_varies", nk->grid_varies);
    hp__json_key(j, "metrics");
    hp__json_arr_begin(j);
    for (k = 0; k < nk->ncap && k < p->metrics.n; k++) {
      if (nk->mn[k] == 0)
        continue;
      hp__json_obj_begin(j);
      hp__json_key(j, "name");
      mnl = hp__ncu_metric_name(p, (uint32_t)k, &mname);
      hp__json_strn(j, mname, mnl);
      hp__json_kstr(j, "unit", p->metric_unit[k]);
      hp__json_knum(j, "sum", nk->msum[k]);
      hp__json_knum(j, "avg", nk->msum[k] / (double)nk->mn[k]);
      hp__json_kint(j, "count", nk->mn[k]);
      hp__json_obj_end(j);
    }
    hp__json_arr_end(j);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  free(ids);
  ids = NULL;

  hp__json_key(j, "agents");
  hp__json_arr_begin(j);
  for (i = 0; i < p->nagents; i++) {
    const hp__agent *a = &p->agents[i];
    hp__json_obj_begin(j);
    hp__json_kstr(j, "type", a->type);
    hp__json_kstr(j, "name", a->name);
    hp__json_kstr(j, "product", a->product);
    hp__json_key(j, "wave_size");
    if (a->wave_size >= 0)
      hp__json_int(j, a->wave_size);
    else
      hp__json_null(j);
    hp__json_key(j, "cu_count");
    if (a->cu_count >= 0)
      hp__json_int(j, a->cu_count);
    else
      hp__json_null(j);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  hp__json_obj_end(j);

fail:
  free(ids);
  free(cats);
  if (r && !j->err)
    j->err = r;
  return r ? r : j->err;
}

/* ---------------------------------------------------------------------------------------------- */
/* Text and Markdown tables.                                                                       */

typedef struct table {
  size_t ncols;
  const char *const *head;
  const int *right; /* per column: right-aligned */
  char **cell;      /* rows * ncols owned strings */
  size_t nrows, cap;
  int err;
} table;

static void table_init(table *t, size_t ncols, const char *const *head, const int *right)
{
  memset(t, 0, sizeof(*t));
  t->ncols = ncols;
  t->head = head;
  t->right = right;
}

static void table_free(table *t)
{
  size_t i;

  for (i = 0; i < t->nrows * t->ncols; i++)
    free(t->cell[i]);
  free(t->cell);
}

/* Adds a row of ncols strings (copied). */
static void table_row(table *t, const char *const *cells)
{
  size_t i, need = (t->nrows + 1) * t->ncols;

  if (t->err)
    return;
  if (hp__grow((void **)&t->cell, &t->cap, need, sizeof(*t->cell))) {
    t->err = HP_ENOMEM;
    return;
  }
  for (i = 0; i < t->ncols; i++)
    if ((t->cell[t->nrows * t->ncols + i] = hp__strdup(cells[i] ? cells[i] : "")) == NULL)
      t->err = HP_ENOMEM;
  t->nrows++;
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

static void table_print(const table *t, FILE *fp)
{
  size_t *w = calloc(t->ncols, sizeof(*w)), i, c;

  if (w == NULL)
    return;
  for (c = 0; c < t->ncols; c++)
    w[c] = dwidth(t->head[c]);
  for (i = 0; i < t->nrows; i++)
    for (c = 0; c < t->ncols; c++)
      if (dwidth(t->cell[i * t->ncols + c]) > w[c])
        w[c] = dwidth(t->cell[i * t->ncols + c]);
  for (i = 0; i <= t->nrows; i++) {
    for (c = 0; c < t->ncols; c++) {
      const char *s = i == 0 ? t->head[c] : t->cell[(i - 1) * t->ncols + c];
      size_t gap = w[c] - dwidth(s);
      int last = c + 1 == t->ncols;
      if (c)
        fputs("  ", fp);
      if (t->right[c])
        pad(fp, gap);
      fputs(s, fp);
      if (!t->right[c] && !last)
        pad(fp, gap);
    }
    fputc('\n', fp);
  }
  free(w);
}

/* Markdown cell text: pipes escaped, line breaks flattened; names in code spans. */
static void md_cell(FILE *fp, const char *s, int code)
{
  if (code && *s)
    fputs(strchr(s, '`') ? "`` " : "`", fp);
  for (; *s; s++) {
    if (*s == '|')
      fputs("\\|", fp);
    else if (*s == '\n' || *s == '\r')
      fputc(' ', fp);
    else
      fputc(*s, fp);
  }
}

static void table_print_md(const table *t, FILE *fp, const char *title, size_t code_col)
{
  size_t i, c;

  fprintf(fp, "\n### %s\n\n|", title);
  for (c = 0; c < t->ncols; c++)
    fprintf(fp, " %s |", t->head[c]);
  fputs("\n|", fp);
  for (c = 0; c < t->ncols; c++)
    fputs(t->right[c] ? " ---: |" : " --- |", fp);
  fputc('\n', fp);
  for (i = 0; i < t->nrows; i++) {
    fputc('|', fp);
    for (c = 0; c < t->ncols; c++) {
      const char *s = t->cell[i * t->ncols + c];
      fputc(' ', fp);
      md_cell(fp, s, c == code_col);
      if (c == code_col && *s)
        fputs(strchr(s, '`') ? " ``" : "`", fp);
      fputs(" |", fp);
    }
    fputc('\n', fp);
  }
}

static void fmt(char *buf, size_t n, const char *f, double v)
{
  if (isnan(v))
    snprintf(buf, n, "n/a");
  else
    snprintf(buf, n, f, v);
}

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

typedef struct out_ctx {
  const hp_profile *p;
  FILE *fp;
  int md;
  size_t width; /* name cut for text; 0 = whole (Markdown) */
  const hp_profile_opts *o;
  int err;
} out_ctx;

static char *name_cell(const out_ctx *c, const char *s)
{
  return c->width ? cut(s, c->width) : hp__strdup(s);
}

static void emit(out_ctx *c, table *t, const char *title, size_t total, size_t shown)
{
  if (t->err) {
    c->err = t->err;
    return;
  }
  if (c->md) {
    table_print_md(t, c->fp, title, 0);
    if (shown < total)
      fprintf(c->fp, "\n%zu of %zu rows shown.\n", shown, total);
    return;
  }
  fprintf(c->fp, "\n[%s]\n", title);
  table_print(t, c->fp);
  if (shown < total)
    fprintf(c->fp, "(%zu more rows; --top 0 shows all)\n", total - shown);
}

static void out_time_table(out_ctx *c, size_t which)
{
  static const char *const head[] = {"name",    "calls",  "total_ms", "average_us",
                                     "percent", "min_us", "max_us"};
  static const int right[] = {0, 1, 1, 1, 1, 1, 1};
  const hp__ttable *t = &c->p->t[time_tables[which].table];
  double sum = table_sum(t);
  size_t *ids, i, n, ncols = 5;
  table tb;

  if (t->names.n == 0)
    return;
  if (hp__ttable_sorted(t, &ids)) {
    c->err = HP_ENOMEM;
    return;
  }
  n = limit(c->o, t->names.n);
  /* min/max only where the profiler gave them (rocprofv3 stats, traces). */
  for (i = 0; i < n; i++) {
    trow tr;
    time_row(t, ids[i], sum, &tr);
    if (!isnan(tr.min))
      ncols = 7;
  }
  table_init(&tb, ncols, head, right);
  for (i = 0; i < n; i++) {
    char calls[32], total[48], avg[48], pct[32], mn[48], mx[48], *name;
    const char *cells[7];
    trow tr;
    time_row(t, ids[i], sum, &tr);
    name = name_cell(c, tr.name);
    snprintf(calls, sizeof(calls), "%lld", tr.calls);
    fmt(total, sizeof(total), "%.6f", tr.total / 1e6);
    fmt(avg, sizeof(avg), "%.3f", tr.avg / 1e3);
    fmt(pct, sizeof(pct), "%.3f", tr.percent);
    fmt(mn, sizeof(mn), "%.3f", tr.min / 1e3);
    fmt(mx, sizeof(mx), "%.3f", tr.max / 1e3);
    cells[0] = name;
    cells[1] = calls;
    cells[2] = total;
    cells[3] = avg;
    cells[4] = pct;
    cells[5] = mn;
    cells[6] = mx;
    if (name == NULL)
      tb.err = HP_ENOMEM;
    table_row(&tb, cells);
    free(name);
  }
  emit(c, &tb, time_tables[which].title, t->names.n, n);
  table_free(&tb);
  free(ids);
}

static void out_categories(out_ctx *c)
{
  static const char *const head[] = {"category", "calls", "total_ms", "percent"};
  static const int right[] = {0, 1, 1, 1};
  hp__catstat *cats;
  size_t n, i;
  table tb;

  if (c->p->t[HP__T_KERNEL].names.n == 0)
    return;
  if (hp__profile_categories(c->p, &cats, &n)) {
    c->err = HP_ENOMEM;
    return;
  }
  table_init(&tb, 4, head, right);
  for (i = 0; i < n; i++) {
    char calls[32], total[48], pct[32];
    const char *cells[4];
    snprintf(calls, sizeof(calls), "%lld", cats[i].calls);
    fmt(total, sizeof(total), "%.6f", cats[i].total_ns / 1e6);
    fmt(pct, sizeof(pct), "%.3f", cats[i].percent);
    cells[0] = cats[i].name;
    cells[1] = calls;
    cells[2] = total;
    cells[3] = pct;
    table_row(&tb, cells);
  }
  emit(c, &tb, "Pattern-based kernel categories", n, n);
  table_free(&tb);
  free(cats);
}

static void out_stacks(out_ctx *c)
{
  static const char *const head[] = {"kernel", "launches", "most_common_user_frame"};
  static const int right[] = {0, 1, 0};
  const hp_profile *p = c->p;
  size_t *ids, i, n;
  table tb;

  if (p->stk_names.n == 0)
    return;
  if ((ids = sort_by_count(p->stk_names.n, stack_launches, p)) == NULL) {
    c->err = HP_ENOMEM;
    return;
  }
  n = limit(c->o, p->stk_names.n);
  table_init(&tb, 3, head, right);
  for (i = 0; i < n; i++) {
    const hp__stack_kernel *sk = &p->stk[ids[i]];
    char launches[32], *name = name_cell(c, p->stk_names.s[ids[i]]);
    char *frame = name_cell(c, sk->no ? top_origin(sk)->frame : "n/a");
    const char *cells[3];
    snprintf(launches, sizeof(launches), "%lld", sk->launches);
    cells[0] = name;
    cells[1] = launches;
    cells[2] = frame;
    if (name == NULL || frame == NULL)
      tb.err = HP_ENOMEM;
    table_row(&tb, cells);
    free(name);
    free(frame);
  }
  emit(c, &tb, "Kernel stack summary", p->stk_names.n, n);
  table_free(&tb);
  free(ids);
}

static void out_pmc(out_ctx *c)
{
  static const char *const head[] = {"field", "value"};
  static const int right[] = {0, 0};
  static const char *const chead[] = {"counter", "sum", "rows", "avg_per_row"};
  static const int cright[] = {0, 1, 1, 1};
  const hp_profile *p = c->p;
  hp__buf b = HP__BUF_INIT;
  size_t *ids, i, k, n;

  if (p->pmc_names.n == 0)
    return;
  if ((ids = sort_by_count(p->pmc_names.n, pmc_records, p)) == NULL) {
    c->err = HP_ENOMEM;
    return;
  }
  n = limit(c->o, p->pmc_names.n);
  for (i = 0; i < n; i++) {
    const hp__pmc_kernel *pk = &p->pmc[ids[i]];
    char num[64], title[64], *name = name_cell(c, p->pmc_names.s[ids[i]]);
    const char *cells[4];
    table tb, ct;

    table_init(&tb, 2, head, right);
    cells[0] = "kernel";
    cells[1] = name;
    if (name == NULL)
      tb.err = HP_ENOMEM;
    table_row(&tb, cells);
    free(name);
    cells[0] = "records";
    snprintf(num, sizeof(num), "%lld", pk->records);
    cells[1] = num;
    table_row(&tb, cells);
    cells[0] = "dispatches";
    snprintf(num, sizeof(num), "%lld", pk->dispatches);
    table_row(&tb, cells);
    for (k = 0; k < HP__P_N; k++) {
      if (join_vals(&pk->props[k], &b))
        tb.err = HP_ENOMEM;
      cells[0] = prop_keys[k];
      cells[1] = b.data ? b.data : "";
      table_row(&tb, cells);
    }
    if (pk->tn) {
      char t[160];
      snprintf(t, sizeof(t), "avg %.3f, min %.3f, max %.3f (%lld rows)",
               pk->tsum / (double)pk->tn / 1e3, pk->tmin / 1e3, pk->tmax / 1e3, pk->tn);
      cells[0] = "kernel_time_us";
      cells[1] = t;
      table_row(&tb, cells);
    }
    snprintf(title, sizeof(title), "PMC resource summary %zu/%zu", i + 1, n);
    emit(c, &tb, n == 1 ? "PMC resource summary" : title, 0, 0);
    table_free(&tb);

    table_init(&ct, 4, chead, cright);
    for (k = 0; k < pk->ncap && k < p->counters.n; k++) {
      char sum[48], rows[32], avg[48];
      if (pk->cn[k] == 0)
        continue;
      snprintf(sum, sizeof(sum), "%.15g", pk->csum[k]);
      snprintf(rows, sizeof(rows), "%lld", pk->cn[k]);
      snprintf(avg, sizeof(avg), "%.6g", pk->csum[k] / (double)pk->cn[k]);
      cells[0] = p->counters.s[k];
      cells[1] = sum;
      cells[2] = rows;
      cells[3] = avg;
      table_row(&ct, cells);
    }
    if (ct.nrows)
      emit(c, &ct, "PMC counters (instances [i] summed)", 0, 0);
    table_free(&ct);
  }
  if (n < p->pmc_names.n)
    fprintf(c->fp,
            c->md ? "\n%zu more PMC kernels not shown.\n"
                  : "(%zu more PMC kernels; --top 0 shows all)\n",
            p->pmc_names.n - n);
  hp__buf_free(&b);
  free(ids);
}

static void out_leaks(out_ctx *c)
{
  static const char *const head[] = {"scope", "size", "bytes", "where"};
  static const int right[] = {0, 1, 1, 0};
  const hp_profile *p = c->p;
  size_t i;
  table tb;

  if (p->nleaks == 0)
    return;
  table_init(&tb, 4, head, right);
  for (i = 0; i < p->nleaks; i++) {
    char size[48], bytes[48], *where = hp__asprintf("%s:%ld", p->leaks[i].file, p->leaks[i].line);
    const char *cells[4];
    human_bytes(size, sizeof(size), p->leaks[i].bytes);
    snprintf(bytes, sizeof(bytes), "%.0f", p->leaks[i].bytes);
    cells[0] = p->leaks[i].scope;
    cells[1] = size;
    cells[2] = bytes;
    cells[3] = where;
    if (where == NULL)
      tb.err = HP_ENOMEM;
    table_row(&tb, cells);
    free(where);
  }
  emit(c, &tb, "Leak check (--memory-usage)", p->nleaks, p->nleaks);
  fprintf(c->fp, c->md ? "\n> %s\n" : "note: %s\n", leak_note);
  table_free(&tb);
}

static void out_ncu(out_ctx *c)
{
  static const char *const head[] = {"metric", "unit", "sum", "avg", "count"};
  static const int right[] = {0, 0, 1, 1, 1};
  const hp_profile *p = c->p;
  size_t *ids, i, k, n;

  if (p->ncu_names.n == 0)
    return;
  if ((ids = sort_by_count(p->ncu_names.n, ncu_launches, p)) == NULL) {
    c->err = HP_ENOMEM;
    return;
  }
  n = limit(c->o, p->ncu_names.n);
  for (i = 0; i < n; i++) {
    const hp__ncu_kernel *nk = &p->ncu[ids[i]];
    char *name = name_cell(c, p->ncu_names.s[ids[i]]), *title, *mname;
    const char *mn;
    table tb;
    title =
        hp__asprintf("ncu: %s (%lld launches, block %s%s, grid %s%s)", name ? name : "",
                     nk->launches, nk->block ? nk->block : "n/a", nk->block_varies ? " varies" : "",
                     nk->grid ? nk->grid : "n/a", nk->grid_varies ? " varies" : "");
    free(name);
    table_init(&tb, 5, head, right);
    for (k = 0; k < nk->ncap && k < p->metrics.n; k++) {
      char sum[48], avg[48], cnt[32];
      const char *cells[5];
      if (nk->mn[k] == 0)
        continue;
      snprintf(sum, sizeof(sum), "%.15g", nk->msum[k]);
      snprintf(avg, sizeof(avg), "%.6g", nk->msum[k] / (double)nk->mn[k]);
      snprintf(cnt, sizeof(cnt), "%lld", nk->mn[k]);
      mname = hp__strndup(p->metrics.s[k], hp__ncu_metric_name(p, (uint32_t)k, &mn));
      if (mname == NULL)
        tb.err = HP_ENOMEM;
      cells[0] = mname ? mname : "";
      cells[1] = p->metric_unit[k] ? p->metric_unit[k] : "";
      cells[2] = sum;
      cells[3] = avg;
      cells[4] = cnt;
      table_row(&tb, cells);
      free(mname);
    }
    if (title == NULL)
      tb.err = HP_ENOMEM;
    emit(c, &tb, title ? title : "ncu", 0, 0);
    table_free(&tb);
    free(title);
  }
  if (n < p->ncu_names.n)
    fprintf(c->fp,
            c->md ? "\n%zu more ncu kernels not shown.\n"
                  : "(%zu more ncu kernels; --top 0 shows all)\n",
            p->ncu_names.n - n);
  free(ids);
}

static void out_agents(out_ctx *c)
{
  static const char *const head[] = {"type", "name", "product", "wave_size", "cu_count"};
  static const int right[] = {0, 0, 0, 1, 1};
  const hp_profile *p = c->p;
  size_t i;
  table tb;

  if (p->nagents == 0)
    return;
  table_init(&tb, 5, head, right);
  for (i = 0; i < p->nagents; i++) {
    const hp__agent *a = &p->agents[i];
    char w[32] = "n/a", cu[32] = "n/a";
    const char *cells[5];
    if (a->wave_size >= 0)
      snprintf(w, sizeof(w), "%lld", a->wave_size);
    if (a->cu_count >= 0)
      snprintf(cu, sizeof(cu), "%lld", a->cu_count);
    cells[0] = a->type;
    cells[1] = a->name;
    cells[2] = a->product;
    cells[3] = w;
    cells[4] = cu;
    table_row(&tb, cells);
  }
  emit(c, &tb, "Agents", p->nagents, p->nagents);
  table_free(&tb);
}

static void out_files(out_ctx *c)
{
  static const char *const head[] = {"file", "format"};
  static const int right[] = {0, 0};
  const hp_profile *p = c->p;
  size_t i;
  table tb;

  if (p->nfiles == 0)
    return;
  table_init(&tb, 2, head, right);
  for (i = 0; i < p->nfiles; i++) {
    const char *cells[2];
    cells[0] = p->files[i].path;
    cells[1] = p->files[i].format;
    table_row(&tb, cells);
  }
  emit(c, &tb, "Files", p->nfiles, p->nfiles);
  table_free(&tb);
}

static int write_tables(const hp_profile *p, FILE *fp, int md, const hp_profile_opts *o)
{
  out_ctx c;
  size_t i;

  memset(&c, 0, sizeof(c));
  c.p = p;
  c.fp = fp;
  c.md = md;
  c.o = o;
  c.width = md ? 0 : (o && o->name_width > 0 ? (size_t)o->name_width : 60);
  if (md)
    fprintf(fp, "## Profile summary\n\n%zu files read, %zu ignored.\n", p->nfiles, p->nignored);
  else
    fprintf(fp, "hprun summarize: %zu files read, %zu ignored\n", p->nfiles, p->nignored);
  if (p->nfiles == 0)
    fputs(md ? "\nNo profiler output was found.\n" : "no profiler output was found\n", fp);
  for (i = 0; i < NTIME; i++) {
    out_time_table(&c, i);
    if (time_tables[i].table == HP__T_KERNEL)
      out_categories(&c);
  }
  out_stacks(&c);
  out_pmc(&c);
  out_leaks(&c);
  out_ncu(&c);
  out_agents(&c);
  out_files(&c);
  return c.err;
}

/* ---------------------------------------------------------------------------------------------- */
/* CSV.                                                                                            */

static void csv_str(FILE *fp, const char *s)
{
  if (s == NULL)
    return;
  if (strpbrk(s, ",\"\r\n") == NULL && s[0] != ' ' && s[0] != '#') {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', fp);
    fputc(*s, fp);
  }
  fputc('"', fp);
}

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

static void csv_sep(FILE *fp)
{
  fputc(',', fp);
}

static int write_csv(const hp_profile *p, FILE *fp, const hp_profile_opts *o)
{
  hp__buf b = HP__BUF_INIT;
  const char *mn;
  char *mname;
  hp__catstat *cats = NULL;
  size_t i, k, n, ncats, *ids = NULL;
  int r = 0;

  fputs("# table: files\npath,format\n", fp);
  for (i = 0; i < p->nfiles; i++) {
    csv_str(fp, p->files[i].path);
    csv_sep(fp);
    csv_str(fp, p->files[i].format);
    fputc('\n', fp);
  }
  for (i = 0; i < NTIME; i++) {
    const hp__ttable *t = &p->t[time_tables[i].table];
    double sum = table_sum(t);
    int kern = time_tables[i].table == HP__T_KERNEL;
    if ((r = hp__ttable_sorted(t, &ids)) != 0)
      goto fail;
    fprintf(fp, "\n# table: %s\nname,calls,total_ns,avg_ns,min_ns,max_ns,percent%s\n",
            time_tables[i].key, kern ? ",category" : "");
    n = limit(o, t->names.n);
    for (k = 0; k < n; k++) {
      trow tr;
      time_row(t, ids[k], sum, &tr);
      csv_str(fp, tr.name);
      fprintf(fp, ",%lld,", tr.calls);
      csv_num(fp, tr.total);
      csv_sep(fp);
      csv_num(fp, tr.avg);
      csv_sep(fp);
      csv_num(fp, tr.min);
      csv_sep(fp);
      csv_num(fp, tr.max);
      csv_sep(fp);
      csv_num(fp, tr.percent);
      if (kern) {
        csv_sep(fp);
        csv_str(fp, hp__profile_classify(p, tr.name));
      }
      fputc('\n', fp);
    }
    free(ids);
    ids = NULL;
  }

  if ((r = hp__profile_categories(p, &cats, &ncats)) != 0)
    goto fail;
  fputs("\n# table: categories\nname,calls,total_ns,percent\n", fp);
  for (i = 0; i < ncats; i++) {
    csv_str(fp, cats[i].name);
    fprintf(fp, ",%lld,", cats[i].calls);
    csv_num(fp, cats[i].total_ns);
    csv_sep(fp);
    csv_num(fp, cats[i].percent);
    fputc('\n', fp);
  }

  if ((ids = sort_by_count(p->stk_names.n, stack_launches, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  fputs("\n# table: stacks\nkernel,launches,user_frame,frame_launches\n", fp);
  n = limit(o, p->stk_names.n);
  for (i = 0; i < n; i++) {
    const hp__stack_kernel *sk = &p->stk[ids[i]];
    const hp__origin **os = sorted_origins(sk);
    if (os == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    for (k = 0; k < sk->no; k++) {
      csv_str(fp, p->stk_names.s[ids[i]]);
      fprintf(fp, ",%lld,", sk->launches);
      csv_str(fp, os[k]->frame);
      fprintf(fp, ",%lld\n", os[k]->n);
    }
    free(os);
  }
  free(ids);

  if ((ids = sort_by_count(p->pmc_names.n, pmc_records, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  fputs("\n# table: pmc\nkernel,records,dispatches", fp);
  for (k = 0; k < HP__P_N; k++)
    fprintf(fp, ",%s", prop_keys[k]);
  fputs(",kernel_time_n,kernel_time_avg_ns,kernel_time_min_ns,kernel_time_max_ns\n", fp);
  n = limit(o, p->pmc_names.n);
  for (i = 0; i < n; i++) {
    const hp__pmc_kernel *pk = &p->pmc[ids[i]];
    csv_str(fp, p->pmc_names.s[ids[i]]);
    fprintf(fp, ",%lld,%lld", pk->records, pk->dispatches);
    for (k = 0; k < HP__P_N; k++) {
      if (join_vals(&pk->props[k], &b)) {
        r = HP_ENOMEM;
        goto fail;
      }
      csv_sep(fp);
      csv_str(fp, b.data);
    }
    fprintf(fp, ",%lld,", pk->tn);
    if (pk->tn) {
      csv_num(fp, pk->tsum / (double)pk->tn);
      csv_sep(fp);
      csv_num(fp, pk->tmin);
      csv_sep(fp);
      csv_num(fp, pk->tmax);
    } else {
      fputs(",,", fp);
    }
    fputc('\n', fp);
  }
  fputs("\n# table: pmc_counters\nkernel,counter,sum,rows,avg\n", fp);
  for (i = 0; i < n; i++) {
    const hp__pmc_kernel *pk = &p->pmc[ids[i]];
    for (k = 0; k < pk->ncap && k < p->counters.n; k++) {
      if (pk->cn[k] == 0)
        continue;
      csv_str(fp, p->pmc_names.s[ids[i]]);
      csv_sep(fp);
      csv_str(fp, p->counters.s[k]);
      csv_sep(fp);
      csv_num(fp, pk->csum[k]);
      fprintf(fp, ",%lld,", pk->cn[k]);
      csv_num(fp, pk->csum[k] / (double)pk->cn[k]);
      fputc('\n', fp);
    }
  }
  free(ids);
  ids = NULL;

  fputs("\n# table: leakcheck\nfile,line,scope,bytes,text\n", fp);
  for (i = 0; i < p->nleaks; i++) {
    csv_str(fp, p->leaks[i].file);
    fprintf(fp, ",%ld,", p->leaks[i].line);
    csv_str(fp, p->leaks[i].scope);
    csv_sep(fp);
    csv_num(fp, p->leaks[i].bytes);
    csv_sep(fp);
    csv_str(fp, p->leaks[i].text);
    fputc('\n', fp);
  }

  if ((ids = sort_by_count(p->ncu_names.n, ncu_launches, p)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  fputs("\n# table: ncu\nkernel,launches,block_size,grid_size,metric,unit,sum,avg,count\n", fp);
  n = limit(o, p->ncu_names.n);
  for (i = 0; i < n; i++) {
    const hp__ncu_kernel *nk = &p->ncu[ids[i]];
    for (k = 0; k < nk->ncap && k < p->metrics.n; k++) {
      if (nk->mn[k] == 0)
        continue;
      csv_str(fp, p->ncu_names.s[ids[i]]);
      fprintf(fp, ",%lld,", nk->launches);
      csv_str(fp, nk->block);
      csv_sep(fp);
      csv_str(fp, nk->grid);
      csv_sep(fp);
      mname = hp__strndup(p->metrics.s[k], hp__ncu_metric_name(p, (uint32_t)k, &mn));
      if (mname == NULL) {
        r = HP_ENOMEM;
        goto fail;
      }
      csv_str(fp, mname);
      free(mname);
      csv_sep(fp);
      csv_str(fp, p->metric_unit[k]);
      csv_sep(fp);
      csv_num(fp, nk->msum[k]);
      csv_sep(fp);
      csv_num(fp, nk->msum[k] / (double)nk->mn[k]);
      fprintf(fp, ",%lld\n", nk->mn[k]);
    }
  }

  fputs("\n# table: agents\ntype,name,product,wave_size,cu_count\n", fp);
  for (i = 0; i < p->nagents; i++) {
    const hp__agent *a = &p->agents[i];
    csv_str(fp, a->type);
    csv_sep(fp);
    csv_str(fp, a->name);
    csv_sep(fp);
    csv_str(fp, a->product);
    csv_sep(fp);
    if (a->wave_size >= 0)
      fprintf(fp, "%lld", a->wave_size);
    csv_sep(fp);
    if (a->cu_count >= 0)
      fprintf(fp, "%lld", a->cu_count);
    fputc('\n', fp);
  }

fail:
  free(ids);
  free(cats);
  hp__buf_free(&b);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */

int hp_profile_write(const hp_profile *p, FILE *fp, hp_format f, const hp_profile_opts *o)
{
  int r;

  if (p == NULL || fp == NULL)
    return HP_EINVAL;
  switch (f) {
  case HP_FMT_TEXT: r = write_tables(p, fp, 0, o); break;
  case HP_FMT_MD: r = write_tables(p, fp, 1, o); break;
  case HP_FMT_CSV: r = write_csv(p, fp, o); break;
  case HP_FMT_JSON: {
    hp__json j;
    hp__json_init(&j, 1);
    r = hp__profile_json(p, &j, o);
    if (r == 0)
      r = hp__json_end(&j);
    if (r == 0 && fwrite(j.out.data, 1, j.out.len, fp) != j.out.len)
      r = HP_EIO;
    hp__json_free(&j);
    break;
  }
  default: return HP_EINVAL;
  }
  if (r == 0 && (fflush(fp) != 0 || ferror(fp)))
    r = HP_EIO;
  return r;
}
