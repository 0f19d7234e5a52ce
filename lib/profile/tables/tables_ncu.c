/*
 * The ncu tables: per kernel its launches, launch shape and launch constants, with its measured
 * metrics as a child table; and the device's properties once (docs/summarize.md, "ncu").
 *
 * ncu's raw page repeats ~250 device attributes and ~50 launch properties on every row, whatever
 * was asked (parse_ncu.c classes each column, hp__ncu_metric_class). Only measured metrics are
 * metrics here: the ones asked for with --metrics (hp_profile_opts.metrics, from the pass's
 * command line: ncu_request.c), or those of the chosen sections. Launch constants the same for
 * every kernel form one table (ncu_launch), the rest one "launch" line per kernel; device
 * attributes one small table. Text shows
 * each metric's average in a readable unit (ns as us or ms, bytes as KB/MB/GB, hz as GHz, %);
 * JSON and CSV keep ncu's own numbers and units.
 */
#include "profile/tables/ncu_request.h"
#include "profile/tables/table.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JC (HP__IN_JSON | HP__IN_CSV)
#define R HP__C_RIGHT

/* A value with ncu's unit, in a unit a person reads ("8.22 us", "1.50 MB", "45.30 %"). */
static int human(double v, const char *unit, hp__buf *out)
{
  static const struct {
    const char *unit;
    double scale[4];
    const char *name[4];
  } scales[] = {
      {"ns", {1, 1e3, 1e6, 1e9}, {"ns", "us", "ms", "s"}},
      {"nsecond", {1, 1e3, 1e6, 1e9}, {"ns", "us", "ms", "s"}},
      {"usecond", {1, 1e3, 1e6, 0}, {"us", "ms", "s", NULL}},
      {"msecond", {1, 1e3, 0, 0}, {"ms", "s", NULL, NULL}},
      {"byte", {1, 1024, 1048576, 1073741824}, {"B", "KB", "MB", "GB"}},
      {"hz", {1, 1e3, 1e6, 1e9}, {"Hz", "kHz", "MHz", "GHz"}},
      {"byte/second", {1, 1e3 * 1024 / 1000, 1048576, 1073741824}, {"B/s", "KB/s", "MB/s", "GB/s"}},
  };
  size_t i, k;

  hp__buf_reset(out);
  if (unit == NULL || unit[0] == '\0')
    return hp__buf_printf(out, "%.6g", v) ? HP_ENOMEM : 0;
  if (strcmp(unit, "%") == 0)
    return hp__buf_printf(out, "%.2f %%", v) ? HP_ENOMEM : 0;
  for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
    if (strcmp(unit, scales[i].unit) != 0)
      continue;
    for (k = 3; k > 0; k--)
      if (scales[i].name[k] && scales[i].scale[k] > 0 && fabs(v) >= scales[i].scale[k])
        break;
    return hp__buf_printf(out, "%.2f %s", v / scales[i].scale[k], scales[i].name[k]) ? HP_ENOMEM
                                                                                     : 0;
  }
  return hp__buf_printf(out, "%.6g %s", v, unit) ? HP_ENOMEM : 0;
}

enum {
  N_KERNEL,
  N_LAUNCHES,
  N_BLOCK,
  N_BLOCK_VARIES,
  N_GRID,
  N_GRID_VARIES,
  N_LAUNCH,
  N_LAUNCH_SHORT,
  N_METRIC,
  N_UNIT,
  N_SUM,
  N_AVG,
  N_HUMAN,
  N_COUNT
};

static const hp__col ncu_cols[] = {
    {.key = "kernel",
     .type = HP__V_STR,
     .in = JC,
     .flags = HP__C_NAME | HP__C_KEY | HP__C_KNAME,
     .field = N_KERNEL},
    {.key = "launches", .type = HP__V_INT, .in = JC, .field = N_LAUNCHES},
    {.key = "block_size", .type = HP__V_STR, .in = JC, .field = N_BLOCK},
    {.key = "block_size_varies", .type = HP__V_BOOL, .in = HP__IN_JSON, .field = N_BLOCK_VARIES},
    {.key = "grid_size", .type = HP__V_STR, .in = JC, .field = N_GRID},
    {.key = "grid_size_varies", .type = HP__V_BOOL, .in = HP__IN_JSON, .field = N_GRID_VARIES},
    {.key = "launch", .type = HP__V_STR, .in = JC, .field = N_LAUNCH},
    {.key = "launch", .type = HP__V_STR, .in = HP__IN_TEXT, .field = N_LAUNCH_SHORT},
};

static const hp__col metric_cols[] = {
    {.key = "name", .csv = "metric", .type = HP__V_STR, .in = HP__IN_ALL, .field = N_METRIC},
    {.key = "unit", .type = HP__V_STR, .in = JC, .field = N_UNIT},
    {.key = "avg_text",
     .head = "avg",
     .type = HP__V_STR,
     .in = HP__IN_TEXT,
     .flags = R,
     .field = N_HUMAN},
    {.key = "sum", .type = HP__V_NUM, .in = JC, .field = N_SUM},
    {.key = "avg", .type = HP__V_NUM, .in = JC, .field = N_AVG},
    {.key = "count",
     .head = "launches",
     .type = HP__V_INT,
     .in = HP__IN_ALL,
     .flags = R,
     .field = N_COUNT},
};

/* The ids of kernel k's metrics of class `cls`. */
static int class_ids(hp__rows *r, const hp__ncu_kernel *k, int cls)
{
  size_t i, m = 0;
  int rc = hp__rows_nonzero_ids(r, k->mn, k->ncap, r->p->metrics.n);

  for (i = 0; rc == 0 && i < r->total; i++)
    if (r->p->metric_class[r->id[i]] == cls)
      r->id[m++] = r->id[i];
  r->total = m;
  return rc;
}

/* The metrics ncu's Speed Of Light and Occupancy sections show (ncu's SpeedOfLight.section and
 * Occupancy.section: Duration, Compute (SM) and Memory Throughput, ...). A section's raw page
 * carries ~300 metrics in name order; a summary cut to its first rows shows these first. */
static const char *const headline[] = {
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__warps_active.avg.per_cycle_active",
    "gpc__cycles_elapsed.max",
    "sm__cycles_active.avg",
    "dram__cycles_elapsed.avg.per_second",
    "gpc__cycles_elapsed.avg.per_second",
    "dram__bytes.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};

typedef struct ranked {
  size_t rank, id;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
  const ranked *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Puts the headline metrics first, in headline order; the rest keep theirs. */
static int headline_first(hp__rows *r)
{
  size_t nh = sizeof(headline) / sizeof(headline[0]), i, h, n;
  ranked *v = malloc((r->total ? r->total : 1) * sizeof(*v));
  const char *name;

  if (v == NULL)
    return HP_ENOMEM;
  for (i = 0; i < r->total; i++) {
    n = hp__ncu_metric_name(r->p, (uint32_t)r->id[i], &name);
    for (h = 0; h < nh && !(strlen(headline[h]) == n && memcmp(headline[h], name, n) == 0); h++)
      ;
    v[i].rank = h;
    v[i].id = r->id[i];
  }
  qsort(v, r->total, sizeof(*v), cmp_ranked);
  for (i = 0; i < r->total; i++)
    r->id[i] = v[i].id;
  free(v);
  return 0;
}

/* The kernel's measured metrics, only the requested ones when the run named them, the headline
 * ones first. A kernel none of whose metrics match (a list from another run, a name ncu spells
 * differently) shows them all: an empty table would hide that the filter, not the profile, is at
 * fault. */
static int metrics_open(hp__rows *r, int arg)
{
  const hp__ncu_kernel *k = &r->p->ncu[r->parent];
  hp__ncu_want w;
  const char *name;
  size_t i, m = 0, n;
  int rc;

  r->src = k;
  if ((rc = class_ids(r, k, HP__MC_METRIC)) != 0 || (rc = headline_first(r)) != 0 || r->o == NULL ||
      r->o->metrics == NULL)
    return rc;
  if ((rc = hp__ncu_want_init(&w, r->o->metrics)) == 0 && !w.all) {
    for (i = 0; i < r->total; i++) {
      n = hp__ncu_metric_name(r->p, (uint32_t)r->id[i], &name);
      if (hp__ncu_want_match(&w, name, n))
        r->id[m++] = r->id[i];
    }
    if (m > 0)
      r->total = m;
  }
  hp__ncu_want_free(&w);
  return rc;
}

static int metrics_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__ncu_kernel *k = r->src;

  switch (field) {
  case N_METRIC:
    /* The name without its unit: not NUL-terminated at len. */
    c->ok = 1;
    c->len = hp__ncu_metric_name(r->p, (uint32_t)id, &c->s);
    break;
  case N_UNIT: hp__cell_setstr(c, r->p->metric_unit[id]); break;
  case N_SUM: hp__cell_setnum(c, k->msum[id]); break;
  case N_AVG: hp__cell_setnum(c, k->msum[id] / (double)k->mn[id]); break;
  case N_COUNT: hp__cell_setint(c, k->mn[id]); break;
  case N_HUMAN:
    if (human(k->msum[id] / (double)k->mn[id], r->p->metric_unit[id], tmp))
      return HP_ENOMEM;
    hp__cell_setstr(c, tmp->data);
    break;
  }
  return 0;
}

/* In CSV a table of its own, led by the kernel: flattened into the ncu table, each of a --set
 * basic kernel's ~300 metric rows repeated the kernel's launch line (18 MB from a 1.7 MB CSV). */
static const hp__table metrics_table = {
    .key = "metrics",
    .title = "metrics",
    .csv_table = "ncu_metrics",
    .cols = metric_cols,
    .ncols = sizeof(metric_cols) / sizeof(metric_cols[0]),
    .open = metrics_open,
    .get = metrics_get,
};

/* 1 when launch constant `id` has one value, *v, over every kernel that has it: it then belongs
 * in the ncu_launch table, once, not in each kernel's launch line. */
static int launch_common(const hp_profile *p, size_t id, double *v)
{
  size_t i, seen = 0;
  double x;

  for (i = 0; i < p->ncu_names.n; i++) {
    if (id >= p->ncu[i].ncap || p->ncu[i].mn[id] == 0)
      continue;
    x = p->ncu[i].msum[id] / (double)p->ncu[i].mn[id];
    if (seen++ && x != *v)
      return 0;
    *v = x;
  }
  return seen > 0;
}

/* What text and Markdown show of a kernel's launch (ncu's Launch Statistics and Occupancy
 * sections): the whole line is ~50 values and ~1.5 KB a kernel; JSON and CSV have it. */
static const char *const launch_short[] = {
    "launch__registers_per_thread", "launch__shared_mem_per_block",
    "launch__waves_per_multiprocessor", "sm__maximum_warps_per_active_cycle_pct", NULL};

static int is_short(const char *name, size_t n)
{
  size_t i;

  for (i = 0; launch_short[i]; i++)
    if (strlen(launch_short[i]) == n && memcmp(launch_short[i], name, n) == 0)
      return 1;
  return 0;
}

/* "registers_per_thread=32 shared_mem_per_block_static=0 ...": the kernel's launch constants that
 * differ between kernels (r->own marks the common ones), without their launch__ prefix, each its
 * average over the launches; with `brief`, only those of launch_short. */
static int launch_line(const hp__rows *r, const hp__ncu_kernel *k, int brief, hp__cell *c,
                       hp__buf *tmp)
{
  const unsigned char *common = r->own;
  hp__rows lr;
  const char *name;
  size_t i, n;
  int rc;

  memset(&lr, 0, sizeof(lr));
  lr.p = r->p;
  hp__buf_reset(tmp);
  if ((rc = class_ids(&lr, k, HP__MC_LAUNCH)) != 0) {
    free(lr.id);
    return rc;
  }
  for (i = 0; i < lr.total && rc == 0; i++) {
    if (common && common[lr.id[i]])
      continue;
    n = hp__ncu_metric_name(r->p, (uint32_t)lr.id[i], &name);
    if (brief && !is_short(name, n))
      continue;
    if (n > 8 && memcmp(name, "launch__", 8) == 0) {
      name += 8;
      n -= 8;
    }
    rc = hp__buf_printf(tmp, "%s%.*s=%.6g", tmp->len ? " " : "", (int)n, name,
                        k->msum[lr.id[i]] / (double)k->mn[lr.id[i]]);
  }
  free(lr.id);
  if (rc)
    return HP_ENOMEM;
  if (tmp->len)
    hp__cell_setstr(c, tmp->data);
  return 0;
}

static int ncu_open(hp__rows *r, int arg)
{
  size_t nm = r->p->metrics.n, i;
  unsigned char *common = calloc(nm ? nm : 1, 1);
  double v;

  if ((r->own = common) == NULL)
    return HP_ENOMEM;
  for (i = 0; i < nm; i++)
    common[i] = r->p->metric_class[i] == HP__MC_LAUNCH && launch_common(r->p, i, &v);
  return hp__rows_sort_by_count(r, r->p->ncu_names.n, r->p->ncu, sizeof(*r->p->ncu),
                                offsetof(hp__ncu_kernel, launches));
}

static int ncu_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__ncu_kernel *k = &r->p->ncu[id];

  switch (field) {
  case N_KERNEL: hp__cell_setstr(c, r->p->ncu_names.s[id]); break;
  case N_LAUNCHES: hp__cell_setint(c, k->launches); break;
  case N_BLOCK: hp__cell_setstr(c, k->block); break;
  case N_GRID: hp__cell_setstr(c, k->grid); break;
  case N_BLOCK_VARIES: hp__cell_setint(c, k->block_varies); break;
  case N_GRID_VARIES: hp__cell_setint(c, k->grid_varies); break;
  case N_LAUNCH: return launch_line(r, k, 0, c, tmp);
  case N_LAUNCH_SHORT: return launch_line(r, k, 1, c, tmp);
  }
  return 0;
}

/* "ncu: NAME (3 launches, block (256, 1, 1), grid (4096, 1, 1) varies)" */
static int ncu_heading(const hp__rows *r, size_t id, const char *name, hp__buf *out)
{
  const hp__ncu_kernel *k = &r->p->ncu[id];

  hp__buf_reset(out);
  return hp__buf_printf(out, "ncu: %s (%lld launches, block %s%s, grid %s%s)", name ? name : "",
                        k->launches, k->block ? k->block : "n/a", k->block_varies ? " varies" : "",
                        k->grid ? k->grid : "n/a", k->grid_varies ? " varies" : "")
      ? HP_ENOMEM
      : 0;
}

const hp__table hp__tab_ncu = {
    .key = "ncu",
    .title = "ncu",
    .cols = ncu_cols,
    .ncols = sizeof(ncu_cols) / sizeof(ncu_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT | HP__TF_SECTIONS,
    .bit = HP__TB_NCU,
    .open = ncu_open,
    .get = ncu_get,
    .child = &metrics_table,
    .noun = "ncu kernels",
    .heading = ncu_heading,
};

/* ---------------------------------------------------------------------------------------------- */
/* The device's attributes, once: each the average over every launch of every kernel (they are the
 * same for every launch on one GPU; an average that is not a whole number says they were not). */

enum {
  D_NAME,
  D_UNIT,
  D_VALUE,
  D_LAUNCHES
};

static const hp__col device_cols[] = {
    {.key = "name", .head = "attribute", .type = HP__V_STR, .in = HP__IN_ALL, .field = D_NAME},
    {.key = "unit", .type = HP__V_STR, .in = HP__IN_ALL, .field = D_UNIT},
    {.key = "value",
     .type = HP__V_NUM,
     .in = HP__IN_ALL,
     .flags = R,
     .field = D_VALUE,
     .tfmt = "%.10g"},
    {.key = "launches", .type = HP__V_INT, .in = JC, .field = D_LAUNCHES},
};

typedef struct dev_sum {
  double sum;
  long long n;
} dev_sum;

static int device_open(hp__rows *r, int arg)
{
  const hp_profile *p = r->p;
  size_t nm = p->metrics.n, i, k, m = 0;
  dev_sum *d = calloc(nm ? nm : 1, sizeof(*d));

  r->id = malloc((nm ? nm : 1) * sizeof(*r->id));
  r->own = d;
  if (d == NULL || r->id == NULL)
    return HP_ENOMEM;
  for (i = 0; i < p->ncu_names.n; i++)
    for (k = 0; k < p->ncu[i].ncap && k < nm; k++)
      if (p->metric_class[k] == HP__MC_DEVICE && p->ncu[i].mn[k]) {
        d[k].sum += p->ncu[i].msum[k];
        d[k].n += p->ncu[i].mn[k];
      }
  for (k = 0; k < nm; k++)
    if (d[k].n)
      r->id[m++] = k;
  r->total = m;
  return 0;
}

static int device_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const dev_sum *d = (const dev_sum *)r->own + id;

  switch (field) {
  case D_NAME:
    c->ok = 1;
    c->len = hp__ncu_metric_name(r->p, (uint32_t)id, &c->s);
    break;
  case D_UNIT: hp__cell_setstr(c, r->p->metric_unit[id]); break;
  case D_VALUE: hp__cell_setnum(c, d->sum / (double)d->n); break;
  case D_LAUNCHES: hp__cell_setint(c, d->n); break;
  }
  return 0;
}

const hp__table hp__tab_ncu_device = {
    .key = "ncu_device",
    .title = "ncu: device attributes",
    .cols = device_cols,
    .ncols = sizeof(device_cols) / sizeof(device_cols[0]),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .open = device_open,
    .get = device_get,
};

/* ---------------------------------------------------------------------------------------------- */
/* The launch constants that every kernel shares (cluster sizes, the context, limits of the GPU
 * that ncu reports per launch), once; those that differ stay in each kernel's launch line. */

enum {
  L_NAME,
  L_UNIT,
  L_VALUE,
  L_KERNELS
};

static const hp__col launch_cols[] = {
    {.key = "name", .head = "constant", .type = HP__V_STR, .in = HP__IN_ALL, .field = L_NAME},
    {.key = "unit", .type = HP__V_STR, .in = HP__IN_ALL, .field = L_UNIT},
    {.key = "value",
     .type = HP__V_NUM,
     .in = HP__IN_ALL,
     .flags = R,
     .field = L_VALUE,
     .tfmt = "%.10g"},
    {.key = "kernels", .type = HP__V_INT, .in = JC, .field = L_KERNELS},
};

static int launch_open(hp__rows *r, int arg)
{
  const hp_profile *p = r->p;
  size_t nm = p->metrics.n, k, m = 0;
  double v;

  if ((r->id = malloc((nm ? nm : 1) * sizeof(*r->id))) == NULL)
    return HP_ENOMEM;
  for (k = 0; k < nm; k++)
    if (p->metric_class[k] == HP__MC_LAUNCH && launch_common(p, k, &v))
      r->id[m++] = k;
  r->total = m;
  return 0;
}

static int launch_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp_profile *p = r->p;
  long long kernels = 0;
  double v = 0;
  size_t i;

  switch (field) {
  case L_NAME:
    c->ok = 1;
    c->len = hp__ncu_metric_name(p, (uint32_t)id, &c->s);
    break;
  case L_UNIT: hp__cell_setstr(c, p->metric_unit[id]); break;
  case L_VALUE:
    launch_common(p, id, &v);
    hp__cell_setnum(c, v);
    break;
  case L_KERNELS:
    for (i = 0; i < p->ncu_names.n; i++)
      kernels += id < p->ncu[i].ncap && p->ncu[i].mn[id] > 0;
    hp__cell_setint(c, kernels);
    break;
  }
  return 0;
}

const hp__table hp__tab_ncu_launch = {
    .key = "ncu_launch",
    .title = "ncu: launch constants shared by every kernel",
    .cols = launch_cols,
    .ncols = sizeof(launch_cols) / sizeof(launch_cols[0]),
    .flags = HP__TF_COUNT,
    .open = launch_open,
    .get = launch_get,
};
