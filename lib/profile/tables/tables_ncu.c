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

#define AT HP__C_AT
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
  N_LAUNCH,
  N_LAUNCH_SHORT,
  N_METRIC,
  N_UNIT,
  N_SUM,
  N_AVG,
  N_HUMAN,
  N_COUNT
};

#define NCU_AT(M) HP__AT(hp__ncu_kernel, M)

static const hp__col ncu_cols[] = {
    {"kernel", NULL, NULL, HP__V_STR, JC, HP__C_NAME | HP__C_KEY | HP__C_KNAME, N_KERNEL, 0, NULL,
     NULL},
    {"launches", NULL, NULL, HP__V_INT, JC, AT, NCU_AT(launches), 0, NULL, NULL},
    {"block_size", NULL, NULL, HP__V_STR, JC, AT, NCU_AT(block), 0, NULL, NULL},
    {"block_size_varies", NULL, NULL, HP__V_BOOL, HP__IN_JSON, AT, NCU_AT(block_varies), 0, NULL,
     NULL},
    {"grid_size", NULL, NULL, HP__V_STR, JC, AT, NCU_AT(grid), 0, NULL, NULL},
    {"grid_size_varies", NULL, NULL, HP__V_BOOL, HP__IN_JSON, AT, NCU_AT(grid_varies), 0, NULL,
     NULL},
    {"launch", NULL, NULL, HP__V_STR, JC, 0, N_LAUNCH, 0, NULL, NULL},
    {"launch", NULL, NULL, HP__V_STR, HP__IN_TEXT, 0, N_LAUNCH_SHORT, 0, NULL, NULL},
};

static const hp__col metric_cols[] = {
    {"name", "metric", NULL, HP__V_STR, HP__IN_ALL, 0, N_METRIC, 0, NULL, NULL},
    {"unit", NULL, NULL, HP__V_STR, JC, 0, N_UNIT, 0, NULL, NULL},
    {"avg_text", NULL, "avg", HP__V_STR, HP__IN_TEXT, R, N_HUMAN, 0, NULL, NULL},
    {"sum", NULL, NULL, HP__V_NUM, JC, 0, N_SUM, 0, NULL, NULL},
    {"avg", NULL, NULL, HP__V_NUM, JC, 0, N_AVG, 0, NULL, NULL},
    {"count", NULL, "launches", HP__V_INT, HP__IN_ALL, R, N_COUNT, 0, NULL, NULL},
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
    HP__COLS(metric_cols),
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
  r->src = r->p->ncu;
  return hp__rows_sort_by_count(r, r->p->ncu_names.n, r->p->ncu, sizeof(*r->p->ncu),
                                offsetof(hp__ncu_kernel, launches));
}

static int ncu_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  if (field != N_KERNEL)
    return launch_line(r, &r->p->ncu[id], field == N_LAUNCH_SHORT, c, tmp);
  hp__cell_setstr(c, r->p->ncu_names.s[id]);
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
    HP__COLS(ncu_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT | HP__TF_SECTIONS,
    .bit = HP__TB_NCU,
    .size = sizeof(hp__ncu_kernel),
    .open = ncu_open,
    .get = ncu_get,
    .child = &metrics_table,
    .noun = "ncu kernels",
    .heading = ncu_heading,
};

/* ---------------------------------------------------------------------------------------------- */
/* The constants, once, each a row of its metric id: the device's attributes, each the average over
 * every launch of every kernel (they are the same for every launch on one GPU; an average that is
 * not a whole number says they were not), and the launch constants that every kernel shares
 * (cluster sizes, the context, limits of the GPU that ncu reports per launch; those that differ
 * stay in each kernel's launch line), with the kernels that have them. */

enum {
  C_NAME,
  C_UNIT
};

/* A constant's value and count (launches of a device attribute, kernels of a launch constant). */
typedef struct const_row {
  double value;
  long long n;
} const_row;

#define CONST_AT(M) HP__AT(const_row, M)

static const hp__col device_cols[] = {
    {"name", NULL, "attribute", HP__V_STR, HP__IN_ALL, 0, C_NAME, 0, NULL, NULL},
    {"unit", NULL, NULL, HP__V_STR, HP__IN_ALL, 0, C_UNIT, 0, NULL, NULL},
    {"value", NULL, NULL, HP__V_NUM, HP__IN_ALL, AT | R, CONST_AT(value), 0, "%.10g", NULL},
    {"launches", NULL, NULL, HP__V_INT, JC, AT, CONST_AT(n), 0, NULL, NULL},
};

static const hp__col launch_cols[] = {
    {"name", NULL, "constant", HP__V_STR, HP__IN_ALL, 0, C_NAME, 0, NULL, NULL},
    {"unit", NULL, NULL, HP__V_STR, HP__IN_ALL, 0, C_UNIT, 0, NULL, NULL},
    {"value", NULL, NULL, HP__V_NUM, HP__IN_ALL, AT | R, CONST_AT(value), 0, "%.10g", NULL},
    {"kernels", NULL, NULL, HP__V_INT, JC, AT, CONST_AT(n), 0, NULL, NULL},
};

/* The metrics of class `cls` (HP__MC_DEVICE or HP__MC_LAUNCH) that are constants, in id order. */
static int consts_open(hp__rows *r, int cls)
{
  const hp_profile *p = r->p;
  size_t nm = p->metrics.n, i, k, m = 0;
  const_row *d = calloc(nm ? nm : 1, sizeof(*d));

  r->id = malloc((nm ? nm : 1) * sizeof(*r->id));
  r->src = r->own = d;
  if (d == NULL || r->id == NULL)
    return HP_ENOMEM;
  for (k = 0; k < nm; k++) {
    if (p->metric_class[k] != cls)
      continue;
    if (cls == HP__MC_LAUNCH && !launch_common(p, k, &d[k].value))
      continue;
    for (i = 0; i < p->ncu_names.n; i++) {
      if (k >= p->ncu[i].ncap || p->ncu[i].mn[k] == 0)
        continue;
      if (cls == HP__MC_LAUNCH) {
        d[k].n++;
      } else {
        d[k].value += p->ncu[i].msum[k];
        d[k].n += p->ncu[i].mn[k];
      }
    }
    if (cls == HP__MC_DEVICE && d[k].n)
      d[k].value /= (double)d[k].n;
    if (d[k].n)
      r->id[m++] = k;
  }
  r->total = m;
  return 0;
}

static int consts_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  if (field == C_UNIT) {
    hp__cell_setstr(c, r->p->metric_unit[id]);
    return 0;
  }
  c->ok = 1;
  c->len = hp__ncu_metric_name(r->p, (uint32_t)id, &c->s);
  return 0;
}

const hp__table hp__tab_ncu_device = {
    .key = "ncu_device",
    .title = "ncu: device attributes",
    HP__COLS(device_cols),
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .arg = HP__MC_DEVICE,
    .size = sizeof(const_row),
    .open = consts_open,
    .get = consts_get,
};

const hp__table hp__tab_ncu_launch = {
    .key = "ncu_launch",
    .title = "ncu: launch constants shared by every kernel",
    HP__COLS(launch_cols),
    .flags = HP__TF_COUNT,
    .arg = HP__MC_LAUNCH,
    .size = sizeof(const_row),
    .open = consts_open,
    .get = consts_get,
};
