/*
 * The ncu tables: per kernel its launches, launch shape and launch constants, with its measured
 * metrics as a child table; and the device's properties once (docs/summarize.md, "ncu").
 *
 * ncu's raw page repeats ~250 device attributes and ~50 launch properties on every row, whatever
 * was asked (parse_ncu.c classes each column, hp__ncu_metric_class). Only measured metrics are
 * metrics here: the ones asked for with --metrics, or those of the chosen sections. Launch
 * constants become one "launch" line per kernel, device attributes one small table. Text shows
 * each metric's average in a readable unit (ns as us or ms, bytes as KB/MB/GB, hz as GHz, %);
 * JSON and CSV keep ncu's own numbers and units.
 */
#include "profile/table.h"

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
     .flags = HP__C_NAME | HP__C_KNAME,
     .field = N_KERNEL},
    {.key = "launches", .type = HP__V_INT, .in = JC, .field = N_LAUNCHES},
    {.key = "block_size", .type = HP__V_STR, .in = JC, .field = N_BLOCK},
    {.key = "block_size_varies", .type = HP__V_BOOL, .in = HP__IN_JSON, .field = N_BLOCK_VARIES},
    {.key = "grid_size", .type = HP__V_STR, .in = JC, .field = N_GRID},
    {.key = "grid_size_varies", .type = HP__V_BOOL, .in = HP__IN_JSON, .field = N_GRID_VARIES},
    {.key = "launch", .type = HP__V_STR, .in = HP__IN_ALL, .field = N_LAUNCH},
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

static int metrics_open(hp__rows *r, int arg)
{
  const hp__ncu_kernel *k = &r->p->ncu[r->parent];

  r->src = k;
  return class_ids(r, k, HP__MC_METRIC);
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

static const hp__table metrics_table = {
    .key = "metrics",
    .title = "metrics",
    .cols = metric_cols,
    .ncols = sizeof(metric_cols) / sizeof(metric_cols[0]),
    .open = metrics_open,
    .get = metrics_get,
};

/* "registers_per_thread=32 shared_mem_per_block_static=0 ...": the kernel's launch constants,
 * without their launch__ prefix, each its average over the launches. */
static int launch_line(const hp__rows *r, const hp__ncu_kernel *k, hp__cell *c, hp__buf *tmp)
{
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
    n = hp__ncu_metric_name(r->p, (uint32_t)lr.id[i], &name);
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
  case N_LAUNCH: return launch_line(r, k, c, tmp);
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
/* The device's attributes, once: each the average over every launch of every kernel (they are
 * the same for every launch on one GPU; an average that is not a whole number says they were not). */

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
