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

#define JC (HP__IN_JSON | HP__IN_CSV)
#define R HP__C_RIGHT

/* ---------------------------------------------------------------------------------------------- */
/* Kernel stacks: launches per kernel and the user frames that launched them.                      */

enum {
  S_KERNEL,
  S_LAUNCHES,
  S_TOP_FRAME,
  S_FRAME,
  S_FRAME_LAUNCHES
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

static const hp__col origin_cols[] = {
    {.key = "frame", .csv = "user_frame", .type = HP__V_STR, .in = JC, .field = S_FRAME},
    {.key = "launches",
     .csv = "frame_launches",
     .type = HP__V_INT,
     .in = JC,
     .field = S_FRAME_LAUNCHES},
};

static int origins_open(hp__rows *r, int arg)
{
  const hp__stack_kernel *k = &r->p->stk[r->parent];
  const hp__origin **o = malloc((k->no ? k->no : 1) * sizeof(*o));
  size_t i;

  r->src = k;
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

static int origins_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__origin *o = &((const hp__stack_kernel *)r->src)->o[id];

  if (field == S_FRAME)
    hp__cell_setstr(c, o->frame);
  else
    hp__cell_setint(c, o->n);
  return 0;
}

static const hp__table origins_table = {
    .key = "origins",
    .cols = origin_cols,
    .ncols = sizeof(origin_cols) / sizeof(origin_cols[0]),
    .open = origins_open,
    .get = origins_get,
};

static const hp__col stack_cols[] = {
    {.key = "kernel",
     .type = HP__V_STR,
     .in = HP__IN_ALL,
     .flags = HP__C_NAME | HP__C_KNAME,
     .field = S_KERNEL},
    {.key = "launches", .type = HP__V_INT, .in = HP__IN_ALL, .flags = R, .field = S_LAUNCHES},
    {.key = "user_frame",
     .head = "most_common_user_frame",
     .type = HP__V_STR,
     .in = HP__IN_JSON | HP__IN_TEXT,
     .flags = HP__C_NAME,
     .field = S_TOP_FRAME,
     .missing = "n/a"},
};

static int stacks_open(hp__rows *r, int arg)
{
  return hp__rows_sort_by_count(r, r->p->stk_names.n, r->p->stk, sizeof(*r->p->stk),
                                offsetof(hp__stack_kernel, launches));
}

static int stacks_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__stack_kernel *k = &r->p->stk[id];

  switch (field) {
  case S_KERNEL: hp__cell_setstr(c, r->p->stk_names.s[id]); break;
  case S_LAUNCHES: hp__cell_setint(c, k->launches); break;
  case S_TOP_FRAME: hp__cell_setstr(c, k->no ? top_origin(k)->frame : NULL); break;
  }
  return 0;
}

const hp__table hp__tab_stacks = {
    .key = "stacks",
    .title = "Kernel stack summary",
    .cols = stack_cols,
    .ncols = sizeof(stack_cols) / sizeof(stack_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .bit = HP__TB_STACK,
    .open = stacks_open,
    .get = stacks_get,
    .child = &origins_table,
};

/* ---------------------------------------------------------------------------------------------- */
/* PMC: per kernel its resources (distinct values), kernel time, and counters.                     */

enum {
  P_KERNEL,
  P_RECORDS,
  P_DISPATCHES,
  P_TIME_TEXT,
  P_TIME,
  P_TIME_N,
  P_TIME_TOTAL,
  P_TIME_AVG,
  P_TIME_MIN,
  P_TIME_MAX,
  P_COUNTER,
  P_SUM,
  P_ROWS,
  P_AVG,
  P_PROP /* + HP__P_*: the last */
};

#define PROP(KEY, WHICH)                                                                           \
  {                                                                                                \
    .key = KEY, .type = HP__V_VALS, .in = HP__IN_ALL, .field = P_PROP + WHICH                      \
  }
#define TIME(KEY, CSV, IN, FIELD)                                                                  \
  {                                                                                                \
    .key = KEY, .csv = CSV, .type = HP__V_NUM, .in = IN, .flags = HP__C_MEMBER, .field = FIELD     \
  }

static const hp__col pmc_cols[] = {
    {.key = "kernel",
     .type = HP__V_STR,
     .in = HP__IN_ALL,
     .flags = HP__C_NAME | HP__C_KEY | HP__C_KNAME,
     .field = P_KERNEL},
    {.key = "records", .type = HP__V_INT, .in = HP__IN_ALL, .field = P_RECORDS},
    {.key = "dispatches", .type = HP__V_INT, .in = HP__IN_ALL, .field = P_DISPATCHES},
    PROP("grid_size", HP__P_GRID),
    PROP("workgroup_size", HP__P_WG),
    PROP("wave_size", HP__P_WAVE),
    PROP("arch_vgpr", HP__P_AVGPR),
    PROP("accum_vgpr", HP__P_ACCVGPR),
    PROP("sgpr", HP__P_SGPR),
    PROP("lds_bytes", HP__P_LDS),
    PROP("scratch_bytes", HP__P_SCRATCH),
    PROP("lds_bank_conflict", HP__P_LDSBANK),
    {.key = "kernel_time_us", .type = HP__V_STR, .in = HP__IN_TEXT, .field = P_TIME_TEXT},
    /* EndNs-BeginNs of the rows that had both: null in JSON when none had. */
    {.key = "kernel_time_ns", .type = HP__V_OBJ, .in = HP__IN_JSON, .field = P_TIME},
    {.key = "n",
     .csv = "kernel_time_n",
     .type = HP__V_INT,
     .in = JC,
     .flags = HP__C_MEMBER,
     .field = P_TIME_N},
    TIME("total", NULL, HP__IN_JSON, P_TIME_TOTAL),
    TIME("avg", "kernel_time_avg_ns", JC, P_TIME_AVG),
    TIME("min", "kernel_time_min_ns", JC, P_TIME_MIN),
    TIME("max", "kernel_time_max_ns", JC, P_TIME_MAX),
};

static const hp__col counter_cols[] = {
    {.key = "name", .csv = "counter", .type = HP__V_STR, .in = HP__IN_ALL, .field = P_COUNTER},
    {.key = "sum",
     .type = HP__V_NUM,
     .in = HP__IN_ALL,
     .flags = R,
     .field = P_SUM,
     .tfmt = "%.15g"},
    {.key = "rows", .type = HP__V_INT, .in = HP__IN_ALL, .flags = R, .field = P_ROWS},
    {.key = "avg",
     .head = "avg_per_row",
     .type = HP__V_NUM,
     .in = HP__IN_ALL,
     .flags = R,
     .field = P_AVG,
     .tfmt = "%.6g"},
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
    .cols = counter_cols,
    .ncols = sizeof(counter_cols) / sizeof(counter_cols[0]),
    .open = counters_open,
    .get = counters_get,
    .csv_table = "pmc_counters",
};

static int pmc_open(hp__rows *r, int arg)
{
  return hp__rows_sort_by_count(r, r->p->pmc_names.n, r->p->pmc, sizeof(*r->p->pmc),
                                offsetof(hp__pmc_kernel, records));
}

static int pmc_time(const hp__pmc_kernel *k, int field, hp__cell *c, hp__buf *tmp)
{
  if (field == P_TIME_N) {
    hp__cell_setint(c, k->tn);
    return 0;
  }
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
  const hp__pmc_kernel *k = &r->p->pmc[id];

  switch (field) {
  case P_KERNEL: hp__cell_setstr(c, r->p->pmc_names.s[id]); break;
  case P_RECORDS: hp__cell_setint(c, k->records); break;
  case P_DISPATCHES: hp__cell_setint(c, k->dispatches); break;
  default:
    if (field >= P_PROP) {
      c->ok = 1;
      c->v = &k->props[field - P_PROP];
      break;
    }
    return pmc_time(k, field, c, tmp);
  }
  return 0;
}

const hp__table hp__tab_pmc = {
    .key = "pmc",
    .title = "PMC resource summary",
    .cols = pmc_cols,
    .ncols = sizeof(pmc_cols) / sizeof(pmc_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT | HP__TF_SECTIONS,
    .bit = HP__TB_PMC,
    .open = pmc_open,
    .get = pmc_get,
    .child = &counters_table,
    .noun = "PMC kernels",
};
