/*
 * The compute-sanitizer tables (docs/internals/tables.md): the runs (one row per file, with the
 * ERROR SUMMARY it printed, so a clean run is a row and not an absence), the errors by kind with
 * the first one's location, and the errors by kernel with the kinds seen there. The model is in
 * profile/model/san.h.
 */
#include "profile/model/san.h"
#include "profile/tables/table.h"

#include <stddef.h>

#define AT HP__C_AT
#define R HP__C_RIGHT

/* ---------------------------------------------------------------------------------------------- */
/* Runs. A run that printed no ERROR SUMMARY has -1 there, missing here (HP__C_OPT).               */

#define RUN_AT(M) HP__AT(hp__san_run, M)

static const hp__col run_cols[] = {
    {"file", NULL, NULL, HP__V_STR, HP__IN_ALL, AT | HP__C_NAME, RUN_AT(file), 0, NULL, NULL},
    {"error_summary", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R | HP__C_OPT, RUN_AT(summary), 0,
     NULL, "none printed"},
    {"errors_listed", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, RUN_AT(listed), 0, NULL, NULL},
};

static int runs_open(hp__rows *r, int arg)
{
  r->src = r->p->san ? r->p->san->runs : NULL;
  r->total = r->p->san ? r->p->san->nruns : 0;
  return 0;
}

const hp__table hp__tab_san_runs = {
    .key = "sanitizer_runs",
    .title = "compute-sanitizer runs",
    HP__COLS(run_cols),
    .flags = HP__TF_COUNT,
    .bit = HP__TB_SAN,
    .size = sizeof(hp__san_run),
    .open = runs_open,
    .note = "error_summary is the tool's own count; errors_listed counts the error reports "
            "printed (fewer when --print-limit cut them)",
};

/* ---------------------------------------------------------------------------------------------- */
/* Errors by kind, and by kernel: the most errors first. The name is the one column get fetches.  */

#define KIND_AT(M) HP__AT(hp__san_kind, M)
#define KERNEL_AT(M) HP__AT(hp__san_kernel, M)

static const hp__col kind_cols[] = {
    {"kind", NULL, NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME, 0, 0, NULL, NULL},
    {"errors", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, KIND_AT(n), 0, NULL, NULL},
    {"first_example", NULL, "first example", HP__V_STR, HP__IN_ALL, AT, KIND_AT(example), 0, NULL,
     NULL},
};

static const hp__col kernel_cols[] = {
    {"kernel", NULL, NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME, 0, 0, NULL, NULL},
    {"errors", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, KERNEL_AT(n), 0, NULL, NULL},
    {"kinds", NULL, NULL, HP__V_VALS, HP__IN_ALL, AT, KERNEL_AT(kinds), 0, NULL, NULL},
};

static int kinds_open(hp__rows *r, int arg)
{
  const hp__san *s = r->p->san;

  if (s == NULL)
    return 0;
  r->src = s->k;
  return hp__rows_sort_by_count(r, s->kinds.n, s->k, sizeof(*s->k), offsetof(hp__san_kind, n));
}

static int kinds_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  hp__cell_setstr(c, r->p->san->kinds.s[id]);
  return 0;
}

static int kernels_open(hp__rows *r, int arg)
{
  const hp__san *s = r->p->san;

  if (s == NULL)
    return 0;
  r->src = s->kk;
  return hp__rows_sort_by_count(r, s->kernels.n, s->kk, sizeof(*s->kk),
                                offsetof(hp__san_kernel, n));
}

static int kernels_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  hp__cell_setstr(c, r->p->san->kernels.s[id]);
  return 0;
}

const hp__table hp__tab_san_kinds = {
    .key = "sanitizer",
    .title = "compute-sanitizer errors by kind",
    HP__COLS(kind_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .size = sizeof(hp__san_kind),
    .open = kinds_open,
    .get = kinds_get,
};

const hp__table hp__tab_san_kernels = {
    .key = "sanitizer_kernels",
    .title = "compute-sanitizer errors by kernel",
    HP__COLS(kernel_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .size = sizeof(hp__san_kernel),
    .open = kernels_open,
    .get = kernels_get,
};
