/*
 * ROCm rocprofv3 (rocprofiler-sdk) CSV output. Its stats files share rocprof's layout (with
 * MinNs/MaxNs) and go through hp__parse_stats; here are the rest:
 *
 *   - traces (*_kernel_trace, *_hip_api_trace, *_hsa_api_trace, *_memory_copy_trace): one row per
 *     dispatch or call with Start_Timestamp/End_Timestamp, folded into the time tables;
 *   - *_counter_collection.csv: long format, one row per (dispatch, counter);
 *   - *_agent_info.csv: the devices.
 *
 * Columns changed between releases (6.2/6.3, 6.4/7.x, CSVs exported from rocpd with a leading
 * Guid and `Lds_Block_Size`-style spellings): every column is found by name with its aliases,
 * case-insensitively.
 */
#include "profile/model/build.h"
#include "profile/fast/fastrows.h"
#include "profile/parse/parsers.h"
#include "profile/parse/region.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One trace file being read. Rows go through the CSV reader's fast path when they are plain
 * (hp__csv_split_fast: only the name and the two timestamps are kept, the timestamps read as they
 * are split), else through hp__csv_next; the row fold is the same. */
typedef struct trace_state {
  int idx[3];
  int table, use;
  size_t ncols;
  hp__ttable *t;
  hp__buf prev; /* the previous row's name, whose entry is st */
  hp__tstat *st;
  hp__fastrows fr; /* the fast path's arrays */
} trace_state;

/* A timestamp: from the split when it read one, else parsed (with hp__fll's warning). */
static int trace_ts(hp__pctx *x, const hp__csv_rec *rec, const hp__fastrows *nums, int col,
                    const char *name, long long *out)
{
  if (nums && col >= 0 && nums->ok[col]) {
    *out = (long long)nums->val[col];
    return 1;
  }
  return hp__fll(x, rec, col, name, out);
}

/* Folds one row. nums: the fast path's numbers, or NULL for a row from hp__csv_next. */
static int trace_row(hp__pctx *x, trace_state *ts, const hp__csv_rec *rec, const hp__fastrows *nums)
{
  const char *name;
  size_t n;
  long long b, e;

  if (rec->n != ts->ncols)
    hp__check_width(x, rec, ts->ncols);
  name = hp__fld(rec, ts->idx[0], &n);
  if (name)
    hp__trim(&name, &n);
  if (name == NULL || n == 0) {
    hp__pwarn(x, rec->line, "no name; the row is skipped");
    return 0;
  }
  if (trace_ts(x, rec, nums, ts->idx[1], "Start_Timestamp", &b) != 1 ||
      trace_ts(x, rec, nums, ts->idx[2], "End_Timestamp", &e) != 1)
    return 0;
  if (e < b) {
    hp__pwarn(x, rec->line, "End_Timestamp is before Start_Timestamp; the row is skipped");
    return 0;
  }
  /* app.region: a dispatch outside every span of the region is not the region's (region.c). */
  if (ts->table == HP__T_KERNEL && x->p->region_filter && !hp__region_contains(x->p->region, b, e))
    return 0;
  if (ts->table == HP__T_KERNEL)
    hp__kspan_add(x->p, b, e);
  if (!ts->use)
    return 0;
  if (ts->st == NULL || ts->prev.len != n || memcmp(ts->prev.data, name, n) != 0) {
    hp__buf_reset(&ts->prev);
    if (hp__buf_add(&ts->prev, name, n) || hp__ttable_get(ts->t, name, n, &ts->st))
      return HP_ENOMEM;
  }
  hp__tstat_add_trace(ts->st, hp__span_ns(b, e), x->file);
  return 0;
}

/* The fast path's arrays: the name kept, the timestamps read as numbers, the rest left out. Without
 * them (no memory) every row goes through hp__csv_next. */
static void trace_arrays(trace_state *ts)
{
  size_t i;

  if (hp__fastrows_init(&ts->fr, ts->ncols)) {
    hp__fastrows_free(&ts->fr);
    return;
  }
  for (i = 0; i < ts->ncols; i++)
    ts->fr.kind[i] = (int)i == ts->idx[0]              ? HP__CSV_TEXT
        : (int)i == ts->idx[1] || (int)i == ts->idx[2] ? HP__CSV_NUM
                                                       : HP__CSV_SKIP;
}

int hp__parse_v3_trace(hp__pctx *x, int table)
{
  static const char *const names[HP__T_N] = {"Function|Name|Operation", "Function|Name|Operation",
                                             "Direction|Operation|Kind|Name",
                                             "Kernel_Name|KernelName|Kernel-Name|Name"};
  const char *want[3];
  trace_state ts;
  hp__csv_rec rec;
  const hp__fastrows *nums;
  int r;

  memset(&ts, 0, sizeof(ts));
  ts.table = table;
  ts.t = &x->p->t[table];
  ts.use = table == HP__T_KERNEL ? x->use_kernels
      : table == HP__T_COPY      ? x->use_copies
                                 : x->use_api;
  /* A stats file in the same folder already gives these totals: reading the trace as well would
   * count every call twice. A kernel trace is still read for its timestamps alone: the profiled
   * span of the cross-check comes only from traces. */
  if (!ts.use && table != HP__T_KERNEL)
    return 0;
  want[0] = names[table];
  want[1] = "Start_Timestamp|Start_Ns|BeginNs|Start";
  want[2] = "End_Timestamp|End_Ns|EndNs|End";
  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, 3, ts.idx);
  if (hp__require(x, rec.line, want, ts.idx, 3))
    return 0;
  ts.ncols = rec.n;
  if (ts.use)
    x->tables |= hp__table_bit(table);
  trace_arrays(&ts);
  while ((r = hp__fastrows_next(x, &ts.fr, &rec, &nums)) == 1)
    if ((r = trace_row(x, &ts, &rec, nums)) != 0)
      break;
  hp__buf_free(&ts.prev);
  hp__fastrows_free(&ts.fr);
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */

/* Resource columns in HP__P_* order (wave size is not in this file: the agent's Wave_Front_Size
 * is), then the others. */
static const char *const cwant[] = {
    "Grid_Size|grd",
    "Workgroup_Size|wgr",
    "Wave_Size|Wave_Front_Size|wave_size",
    "VGPR_Count|Arch_VGPR_Count|Vgpr_Count|Arch_Vgpr_Count|arch_vgpr",
    "Accum_VGPR_Count|Accum_Vgpr_Count|accum_vgpr",
    "SGPR_Count|Sgpr_Count|sgpr",
    "LDS_Block_Size|Lds_Block_Size|LDS_Per_Workgroup|lds",
    "Scratch_Size|Scratch_Per_Workitem|scr",
    "-", /* LDS bank conflicts come as a counter row */
    "Kernel_Name|KernelName",
    "Dispatch_Id|Dispatch_ID|Correlation_Id",
    "Counter_Name",
    "Counter_Value",
    "Start_Timestamp",
    "End_Timestamp",
    "Agent_Id"};
enum {
  V_NAME = HP__P_N,
  V_DISPATCH,
  V_CNAME,
  V_CVALUE,
  V_START,
  V_END,
  V_AGENT,
  V_N
};

/* Splits "NAME[3]" into NAME and instance 3; *inst is -1 without a suffix. */
static size_t split_instance(const char *s, size_t n, long *inst)
{
  size_t k;

  *inst = -1;
  if (n < 3 || s[n - 1] != ']')
    return n;
  k = n - 1;
  while (k > 0 && isdigit((unsigned char)s[k - 1]))
    k--;
  if (k == 0 || k == n - 1 || s[k - 1] != '[')
    return n;
  *inst = strtol(s + k, NULL, 10);
  return k - 1;
}

/* One counter-collection file being read. */
typedef struct counters_state {
  int idx[V_N];
  size_t ncols;
  hp__recent seen; /* (dispatch, agent) keys, so a dispatch's resources and time count once */
  hp__buf prev;    /* the previous row's kernel name; kid is its id */
  uint32_t kid;
  int have_kid;
  hp__buf key;
} counters_state;

/* The row's kernel in c->kid. Returns 0, 1 when the row has no kernel name (warned), HP_ENOMEM. */
static int counters_kernel(hp__pctx *x, counters_state *c, const hp__csv_rec *rec)
{
  size_t n;
  const char *s = hp__fld(rec, c->idx[V_NAME], &n);

  if (s)
    hp__trim(&s, &n);
  if (s == NULL || n == 0) {
    hp__pwarn(x, rec->line, "no kernel name; the row is skipped");
    return 1;
  }
  if (c->have_kid && c->prev.len == n && memcmp(c->prev.data, s, n) == 0)
    return 0;
  hp__buf_reset(&c->prev);
  if (hp__buf_add(&c->prev, s, n) || hp__pmc_kernel_get(x->p, s, n, &c->kid))
    return HP_ENOMEM;
  c->have_kid = 1;
  return 0;
}

/* A dispatch spans one row per counter: its resources and time are taken from its first row. */
static int counters_dispatch(hp__pctx *x, counters_state *c, const hp__csv_rec *rec, long long row)
{
  hp__pmc_kernel *pk = &x->p->pmc[c->kid];
  hp__recent_ent *ent;
  const char *s, *ag;
  size_t i, n, agn;
  long long b, e;
  int added = 1;

  s = hp__fld(rec, c->idx[V_DISPATCH], &n);
  if (s && n) {
    hp__buf_reset(&c->key);
    hp__buf_add(&c->key, s, n);
    if ((ag = hp__fld(rec, c->idx[V_AGENT], &agn)) != NULL) {
      hp__buf_addc(&c->key, '\x1f');
      hp__buf_add(&c->key, ag, agn);
    }
    if (hp__buf_error(&c->key) ||
        hp__recent_touch(&c->seen, 0, c->key.data, c->key.len, row, &ent, &added))
      return HP_ENOMEM;
  }
  if (!added)
    return 0;
  pk->records++;
  pk->dispatches++;
  for (i = 0; i < HP__P_LDSBANK; i++)
    if ((s = hp__fld(rec, c->idx[i], &n)) && hp__vals_add(&pk->props[i], s, n))
      return HP_ENOMEM;
  if (c->idx[V_START] >= 0 && c->idx[V_END] >= 0 &&
      hp__fll(x, rec, c->idx[V_START], "Start_Timestamp", &b) == 1 &&
      hp__fll(x, rec, c->idx[V_END], "End_Timestamp", &e) == 1 && e >= b)
    hp__pmc_time(pk, hp__span_ns(b, e));
  return 0;
}

/* The row's counter value, added to its kernel. Returns 0, 1 when the row has no usable value
 * (warned where that is news), HP_ENOMEM. */
static int counters_value(hp__pctx *x, counters_state *c, const hp__csv_rec *rec)
{
  hp_profile *p = x->p;
  const char *cn, *s;
  size_t cnn, n;
  uint32_t cid;
  double v;
  long inst;

  cn = hp__fld(rec, c->idx[V_CNAME], &cnn);
  if (cn)
    hp__trim(&cn, &cnn);
  if (cn == NULL || cnn == 0) {
    hp__pwarn(x, rec->line, "no counter name; the value is skipped");
    return 1;
  }
  if (hp__fnum(x, rec, c->idx[V_CVALUE], "Counter_Value", &v) != 1)
    return 1;
  cnn = split_instance(cn, cnn, &inst);
  if (cnn == 20 && strncasecmp(cn, "SQ_LDS_BANK_CONFLICT", 20) == 0) {
    s = hp__fld(rec, c->idx[V_CVALUE], &n);
    if (hp__vals_add(&p->pmc[c->kid].props[HP__P_LDSBANK], s, n))
      return HP_ENOMEM;
  }
  /* Instances [1], [2], ... add to the sum of the same dispatch without counting a new row. */
  if (hp__pmc_counter(p, cn, cnn, &cid) || hp__pmc_add(p, c->kid, cid, v, inst <= 0))
    return HP_ENOMEM;
  return 0;
}

/* Folds one (dispatch, counter) row. */
static int counters_row(hp__pctx *x, counters_state *c, const hp__csv_rec *rec)
{
  long long row = ++x->p->rowseq;
  int r;

  if (rec->n != c->ncols)
    hp__check_width(x, rec, c->ncols);
  if ((r = counters_kernel(x, c, rec)) != 0)
    return r > 0 ? 0 : r;
  if (counters_dispatch(x, c, rec, row))
    return HP_ENOMEM;
  if ((r = counters_value(x, c, rec)) != 0)
    return r > 0 ? 0 : r;
  return hp__recent_tick(&c->seen, row) ? HP_ENOMEM : 0;
}

int hp__parse_v3_counters(hp__pctx *x)
{
  static const char *const req[] = {"Kernel_Name", "Counter_Name", "Counter_Value"};
  counters_state c;
  int ridx[3], r;
  hp__csv_rec rec;

  memset(&c, 0, sizeof(c));
  hp__recent_init(&c.seen, HP__RECENT_WINDOW, NULL, NULL);
  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, cwant, V_N, c.idx);
  ridx[0] = c.idx[V_NAME];
  ridx[1] = c.idx[V_CNAME];
  ridx[2] = c.idx[V_CVALUE];
  if (hp__require(x, rec.line, req, ridx, 3))
    return 0;
  c.ncols = rec.n;
  x->tables |= HP__TB_PMC;
  while ((r = hp__csv_next(x->csv, &rec)) == 1)
    if ((r = counters_row(x, &c, &rec)) != 0)
      break;
  hp__recent_finish(&c.seen);
  hp__buf_free(&c.prev);
  hp__buf_free(&c.key);
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */

int hp__parse_v3_agents(hp__pctx *x)
{
  static const char *const want[] = {"Agent_Type|Type", "Name", "Product_Name|Marketing_Name",
                                     "Wave_Front_Size|Wavefront_Size", "Cu_Count|Compute_Unit"};
  int idx[5], r;
  hp__csv_rec rec;
  size_t ncols;

  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, 5, idx);
  if (hp__require(x, rec.line, want, idx, 2))
    return 0;
  ncols = rec.n;
  x->tables |= HP__TB_AGENT;
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    char *f[3] = {NULL, NULL, NULL};
    long long wave = -1, cus = -1;
    size_t i, n;
    int bad = 0;

    if (rec.n != ncols)
      hp__check_width(x, &rec, ncols);
    for (i = 0; i < 3; i++) {
      const char *s = hp__fld(&rec, idx[i], &n);
      if (s) {
        hp__trim(&s, &n);
        if ((f[i] = hp__strndup(s, n)) == NULL)
          bad = 1;
      }
    }
    if (hp__fll(x, &rec, idx[3], "Wave_Front_Size", &wave) != 1)
      wave = -1;
    if (hp__fll(x, &rec, idx[4], "Cu_Count", &cus) != 1)
      cus = -1;
    if (!bad && hp__agent_add(x->p, f[0], f[1], f[2], wave, cus))
      bad = 1;
    free(f[0]);
    free(f[1]);
    free(f[2]);
    if (bad)
      return HP_ENOMEM;
  }
  return r < 0 ? r : 0;
}
