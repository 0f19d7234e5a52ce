/*
 * The per-kernel detail tables, each a parent table with a child table per row: kernel stacks
 * (the launching user frames) and PMC (resources, kernel time, and counters); ncu's are in
 * tables_ncu.c. Parents are sorted by their count, descending, ties by first appearance as
 * Python's stable sort in the article's script; children keep the model's order, except stack
 * origins, sorted by launches.
 */
#include "profile/tables/table.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define AT HP__C_AT
#define JC (HP__IN_JSON | HP__IN_CSV)
#define R HP__C_RIGHT

/* ---------------------------------------------------------------------------------------------- */
/* Kernel stacks: launches per kernel and the user frames that launched them.                      */

enum {
  S_KERNEL,
  S_TOP_FRAME
};

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

#define ORIGIN_AT(M) HP__AT(hp__origin, M)

static const hp__col origin_cols[] = {
    {"frame", "user_frame", NULL, HP__V_STR, JC, AT, ORIGIN_AT(frame), 0, NULL, NULL},
    {"launches", "frame_launches", NULL, HP__V_INT, JC, AT, ORIGIN_AT(n), 0, NULL, NULL},
};

static int origins_open(hp__rows *r, int arg)
{
  const hp__stack_kernel *k = &r->p->stk[r->parent];
  const hp__origin **o = malloc((k->no ? k->no : 1) * sizeof(*o));
  size_t i;

  r->src = k->o;
  r->total = k->no;
  r->id = malloc((k->no ? k->no : 1) * sizeof(*r->id));
  if (o == NULL || r->id == NULL) {
    free(o);
    return HP_ENOMEM;
  }
  for (i = 0; i < k->no; i++)
    o[i] = &k->o[i];
  qsort(o, k->no, sizeof(*o), cmp_origin);
  for (i = 0; i < k->no; i++)
    r->id[i] = (size_t)(o[i] - k->o);
  free(o);
  return 0;
}

static const hp__table origins_table = {
    .key = "origins",
    HP__COLS(origin_cols),
    .size = sizeof(hp__origin),
    .open = origins_open,
};

static const hp__col stack_cols[] = {
    {"kernel", NULL, NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME | HP__C_KNAME, S_KERNEL, 0, NULL,
     NULL},
    {"launches", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, HP__AT(hp__stack_kernel, launches), 0,
     NULL, NULL},
    {"user_frame", NULL, "most_common_user_frame", HP__V_STR, HP__IN_JSON | HP__IN_TEXT, HP__C_NAME,
     S_TOP_FRAME, 0, NULL, "n/a"},
};

static int stacks_open(hp__rows *r, int arg)
{
  r->src = r->p->stk;
  return hp__rows_sort_by_count(r, r->p->stk_names.n, r->p->stk, sizeof(*r->p->stk),
                                offsetof(hp__stack_kernel, launches));
}

static int stacks_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__stack_kernel *k = &r->p->stk[id];

  if (field == S_KERNEL)
    hp__cell_setstr(c, r->p->stk_names.s[id]);
  else
    hp__cell_setstr(c, k->no ? top_origin(k)->frame : NULL);
  return 0;
}

const hp__table hp__tab_stacks = {
    .key = "stacks",
    .title = "Kernel stack summary",
    HP__COLS(stack_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .bit = HP__TB_STACK,
    .size = sizeof(hp__stack_kernel),
    .open = stacks_open,
    .get = stacks_get,
    .child = &origins_table,
};

/* ---------------------------------------------------------------------------------------------- */
/* PMC: per kernel its resources (distinct values), kernel time, and counters.                     */

enum {
  P_KERNEL,
  P_TIME_TEXT,
  P_TIME,
  P_TIME_TOTAL,
  P_TIME_AVG,
  P_TIME_MIN,
  P_TIME_MAX,
  P_COUNTER,
  P_SUM,
  P_ROWS,
  P_AVG
};

#define PMC_AT(M) HP__AT(hp__pmc_kernel, M)
#define VALS HP__V_VALS
#define MEM HP__C_MEMBER

static const hp__col pmc_cols[] = {
    {"kernel", NULL, NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME | HP__C_KEY | HP__C_KNAME, P_KERNEL, 0,
     NULL, NULL},
    {"records", NULL, NULL, HP__V_INT, HP__IN_ALL, AT, PMC_AT(records), 0, NULL, NULL},
    {"dispatches", NULL, NULL, HP__V_INT, HP__IN_ALL, AT, PMC_AT(dispatches), 0, NULL, NULL},
    {"grid_size", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_GRID]), 0, NULL, NULL},
    {"workgroup_size", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_WG]), 0, NULL, NULL},
    {"wave_size", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_WAVE]), 0, NULL, NULL},
    {"arch_vgpr", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_AVGPR]), 0, NULL, NULL},
    {"accum_vgpr", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_ACCVGPR]), 0, NULL, NULL},
    {"sgpr", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_SGPR]), 0, NULL, NULL},
    {"lds_bytes", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_LDS]), 0, NULL, NULL},
    {"scratch_bytes", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_SCRATCH]), 0, NULL,
     NULL},
    {"lds_bank_conflict", NULL, NULL, VALS, HP__IN_ALL, AT, PMC_AT(props[HP__P_LDSBANK]), 0, NULL,
     NULL},
    {"kernel_time_us", NULL, NULL, HP__V_STR, HP__IN_TEXT, 0, P_TIME_TEXT, 0, NULL, NULL},
    /* EndNs-BeginNs of the rows that had both: null in JSON when none had. */
    {"kernel_time_ns", NULL, NULL, HP__V_OBJ, HP__IN_JSON, 0, P_TIME, 0, NULL, NULL},
    {"n", "kernel_time_n", NULL, HP__V_INT, JC, AT | MEM, PMC_AT(tn), 0, NULL, NULL},
    {"total", NULL, NULL, HP__V_NUM, HP__IN_JSON, MEM, P_TIME_TOTAL, 0, NULL, NULL},
    {"avg", "kernel_time_avg_ns", NULL, HP__V_NUM, JC, MEM, P_TIME_AVG, 0, NULL, NULL},
    {"min", "kernel_time_min_ns", NULL, HP__V_NUM, JC, MEM, P_TIME_MIN, 0, NULL, NULL},
    {"max", "kernel_time_max_ns", NULL, HP__V_NUM, JC, MEM, P_TIME_MAX, 0, NULL, NULL},
};

static const hp__col counter_cols[] = {
    {"name", "counter", NULL, HP__V_STR, HP__IN_ALL, 0, P_COUNTER, 0, NULL, NULL},
    {"sum", NULL, NULL, HP__V_NUM, HP__IN_ALL, R, P_SUM, 0, "%.15g", NULL},
    {"rows", NULL, NULL, HP__V_INT, HP__IN_ALL, R, P_ROWS, 0, NULL, NULL},
    {"avg", NULL, "avg_per_row", HP__V_NUM, HP__IN_ALL, R, P_AVG, 0, "%.6g", NULL},
};

static int counters_open(hp__rows *r, int arg)
{
  const hp__pmc_kernel *k = &r->p->pmc[r->parent];

  r->src = k;
  return hp__rows_nonzero_ids(r, k->cn, k->ncap, r->p->counters.n);
}

static int counters_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__pmc_kernel *k = r->src;

  switch (field) {
  case P_COUNTER: hp__cell_setstr(c, r->p->counters.s[id]); break;
  case P_SUM: hp__cell_setnum(c, k->csum[id]); break;
  case P_ROWS: hp__cell_setint(c, k->cn[id]); break;
  case P_AVG: hp__cell_setnum(c, k->csum[id] / (double)k->cn[id]); break;
  }
  return 0;
}

static const hp__table counters_table = {
    .key = "counters",
    .title = "PMC counters (instances [i] summed)",
    HP__COLS(counter_cols),
    .open = counters_open,
    .get = counters_get,
    .csv_table = "pmc_counters",
};

static int pmc_open(hp__rows *r, int arg)
{
  r->src = r->p->pmc;
  return hp__rows_sort_by_count(r, r->p->pmc_names.n, r->p->pmc, sizeof(*r->p->pmc),
                                offsetof(hp__pmc_kernel, records));
}

/* The kernel time's cells, missing when no row had one. */
static int pmc_time(const hp__pmc_kernel *k, int field, hp__cell *c, hp__buf *tmp)
{
  if (k->tn == 0)
    return 0;
  switch (field) {
  case P_TIME: c->ok = 1; break;
  case P_TIME_TOTAL: hp__cell_setnum(c, k->tsum); break;
  case P_TIME_AVG: hp__cell_setnum(c, k->tsum / (double)k->tn); break;
  case P_TIME_MIN: hp__cell_setnum(c, k->tmin); break;
  case P_TIME_MAX: hp__cell_setnum(c, k->tmax); break;
  case P_TIME_TEXT:
    hp__buf_reset(tmp);
    if (hp__buf_printf(tmp, "avg %.3f, min %.3f, max %.3f (%lld rows)",
                       k->tsum / (double)k->tn / 1e3, k->tmin / 1e3, k->tmax / 1e3, k->tn))
      return HP_ENOMEM;
    hp__cell_setstr(c, tmp->data);
    break;
  }
  return 0;
}

static int pmc_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  if (field != P_KERNEL)
    return pmc_time(&r->p->pmc[id], field, c, tmp);
  hp__cell_setstr(c, r->p->pmc_names.s[id]);
  return 0;
}

const hp__table hp__tab_pmc = {
    .key = "pmc",
    .title = "PMC resource summary",
    HP__COLS(pmc_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT | HP__TF_SECTIONS,
    .bit = HP__TB_PMC,
    .size = sizeof(hp__pmc_kernel),
    .open = pmc_open,
    .get = pmc_get,
    .child = &counters_table,
    .noun = "PMC kernels",
};
