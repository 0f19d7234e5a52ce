/*
 * The compute-sanitizer tables (docs/internals/tables.md): the runs (one row per file, with the
 * ERROR SUMMARY it printed, so a clean run is a row and not an absence), the errors by kind with
 * the first one's location, and the errors by kernel with the kinds seen there. The model is in
 * profile/model/san.h.
 */
#include "profile/model/san.h"
#include "profile/tables/table.h"

#include <stdlib.h>

/* Row ids of `n` counts (stride `size`, the count first) sorted by count, then id. */
typedef struct san_sort {
  long long n;
  size_t id;
} san_sort;

static int cmp_sort(const void *a, const void *b)
{
  const san_sort *x = a, *y = b;

  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static int sort_counts(hp__rows *r, size_t n, const void *base, size_t size)
{
  san_sort *s = malloc((n ? n : 1) * sizeof(*s));
  size_t i;

  r->total = n;
  r->id = malloc((n ? n : 1) * sizeof(*r->id));
  if (s == NULL || r->id == NULL) {
    free(s);
    return HP_ENOMEM;
  }
  for (i = 0; i < n; i++) {
    s[i].n = *(const long long *)((const char *)base + i * size);
    s[i].id = i;
  }
  qsort(s, n, sizeof(*s), cmp_sort);
  for (i = 0; i < n; i++)
    r->id[i] = s[i].id;
  free(s);
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Runs.                                                                                           */

enum {
  R_FILE,
  R_SUMMARY,
  R_LISTED
};

static const hp__col run_cols[] = {
    {.key = "file", .type = HP__V_STR, .in = HP__IN_ALL, .flags = HP__C_NAME, .field = R_FILE},
    {.key = "error_summary",
     .type = HP__V_INT,
     .in = HP__IN_ALL,
     .flags = HP__C_RIGHT,
     .field = R_SUMMARY,
     .missing = "none printed"},
    {.key = "errors_listed",
     .type = HP__V_INT,
     .in = HP__IN_ALL,
     .flags = HP__C_RIGHT,
     .field = R_LISTED},
};

static int runs_open(hp__rows *r, int arg)
{
  r->total = r->p->san ? r->p->san->nruns : 0;
  return 0;
}

static int runs_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__san_run *run = &r->p->san->runs[id];

  switch (field) {
  case R_FILE: hp__cell_setstr(c, run->file); break;
  case R_SUMMARY:
    if (run->summary >= 0)
      hp__cell_setint(c, run->summary);
    break;
  case R_LISTED: hp__cell_setint(c, run->listed); break;
  }
  return 0;
}

const hp__table hp__tab_san_runs = {
    .key = "sanitizer_runs",
    .title = "compute-sanitizer runs",
    .cols = run_cols,
    .ncols = sizeof(run_cols) / sizeof(run_cols[0]),
    .flags = HP__TF_COUNT,
    .bit = HP__TB_SAN,
    .open = runs_open,
    .get = runs_get,
    .note = "error_summary is the tool's own count; errors_listed counts the error reports "
            "printed (fewer when --print-limit cut them)",
};

/* ---------------------------------------------------------------------------------------------- */
/* Errors by kind.                                                                                 */

enum {
  K_KIND,
  K_ERRORS,
  K_EXAMPLE
};

static const hp__col kind_cols[] = {
    {.key = "kind", .type = HP__V_STR, .in = HP__IN_ALL, .flags = HP__C_NAME, .field = K_KIND},
    {.key = "errors", .type = HP__V_INT, .in = HP__IN_ALL, .flags = HP__C_RIGHT, .field = K_ERRORS},
    {.key = "first_example",
     .head = "first example",
     .type = HP__V_STR,
     .in = HP__IN_ALL,
     .field = K_EXAMPLE},
};

static int kinds_open(hp__rows *r, int arg)
{
  const hp__san *s = r->p->san;

  return s ? sort_counts(r, s->kinds.n, s->k, sizeof(*s->k)) : 0;
}

static int kinds_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__san *s = r->p->san;

  switch (field) {
  case K_KIND: hp__cell_setstr(c, s->kinds.s[id]); break;
  case K_ERRORS: hp__cell_setint(c, s->k[id].n); break;
  case K_EXAMPLE: hp__cell_setstr(c, s->k[id].example); break;
  }
  return 0;
}

const hp__table hp__tab_san_kinds = {
    .key = "sanitizer",
    .title = "compute-sanitizer errors by kind",
    .cols = kind_cols,
    .ncols = sizeof(kind_cols) / sizeof(kind_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .open = kinds_open,
    .get = kinds_get,
};

/* ---------------------------------------------------------------------------------------------- */
/* Errors by kernel.                                                                               */

enum {
  N_KERNEL,
  N_ERRORS,
  N_KINDS
};

static const hp__col kernel_cols[] = {
    {.key = "kernel", .type = HP__V_STR, .in = HP__IN_ALL, .flags = HP__C_NAME, .field = N_KERNEL},
    {.key = "errors", .type = HP__V_INT, .in = HP__IN_ALL, .flags = HP__C_RIGHT, .field = N_ERRORS},
    {.key = "kinds", .type = HP__V_VALS, .in = HP__IN_ALL, .field = N_KINDS},
};

static int kernels_open(hp__rows *r, int arg)
{
  const hp__san *s = r->p->san;

  return s ? sort_counts(r, s->kernels.n, s->kk, sizeof(*s->kk)) : 0;
}

static int kernels_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__san *s = r->p->san;

  switch (field) {
  case N_KERNEL: hp__cell_setstr(c, s->kernels.s[id]); break;
  case N_ERRORS: hp__cell_setint(c, s->kk[id].n); break;
  case N_KINDS:
    c->ok = 1;
    c->v = &s->kk[id].kinds;
    break;
  }
  return 0;
}

const hp__table hp__tab_san_kernels = {
    .key = "sanitizer_kernels",
    .title = "compute-sanitizer errors by kernel",
    .cols = kernel_cols,
    .ncols = sizeof(kernel_cols) / sizeof(kernel_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .open = kernels_open,
    .get = kernels_get,
};
