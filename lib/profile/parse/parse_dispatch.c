/*
 * The per-dispatch table that rocprof (v1 script) and hipprof share: `Index,KernelName,...,grd,wgr,
 * lds,scr,arch_vgpr,accum_vgpr,sgpr,wave_size,...,BeginNs,EndNs,<counters>` (rocprof results.csv,
 * hipprof --pmc-type 3, and with other spellings rocprofv2's plugin and rocprof-compute's
 * pmc_perf.csv). One row per replay of a dispatch: a record of its kernel, the dispatch counted
 * the first time its id is seen, its resources, its time and its counters.
 *
 * Rows are read through the CSV reader's fast path (hp__csv_next_raw and hp__csv_split_fast): a
 * plain line is split without writing to the buffer, with its numeric columns' values read while
 * their ends are found; any other line goes through hp__csv_next. Both give the row fold the same
 * fields, so the results do not depend on the path (docs/internals/csv.md).
 * Columns are found by name, case-insensitively, so column order and extra columns do not matter.
 */
#include "profile/model/build.h"
#include "profile/parse/dispatch_cols.h"
#include "profile/fast/fastrows.h"
#include "profile/parse/parsers.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Remembers the last name looked up, because rows of one kernel tend to come together and a
 * compare is cheaper than a hash lookup. */
typedef struct name_cache {
  hp__buf name;
  uint32_t id;
  int valid;
} name_cache;

static int cached(name_cache *nc, const char *s, size_t n)
{
  return nc->valid && nc->name.len == n && memcmp(nc->name.data, s, n) == 0;
}

static void cache_set(name_cache *nc, const char *s, size_t n, uint32_t id)
{
  hp__buf_reset(&nc->name);
  nc->valid = hp__buf_add(&nc->name, s, n) == 0;
  nc->id = id;
}

/* ---------------------------------------------------------------------------------------------- */
/* Per-dispatch tables.                                                                            */

/* The resource columns, in HP__P_* order, then the other named ones. */
static const char *const dwant[] = {"grd|Grid_Size|GridSize",
                                    "wgr|Workgroup_Size|WorkgroupSize",
                                    "wave_size|Wave_Size|wave",
                                    "arch_vgpr|Arch_VGPR|vgpr|VGPR_Count|Arch_VGPR_Count",
                                    "accum_vgpr|Accum_VGPR|Accum_VGPR_Count",
                                    "sgpr|SGPR|SGPR_Count",
                                    "lds|LDS_Per_Workgroup|LDS_Block_Size|Lds_Block_Size",
                                    "scr|Scratch_Per_Workitem|Scratch_Size",
                                    "SQ_LDS_BANK_CONFLICT",
                                    "KernelName|Kernel_Name|Kernel-Name|Kernel Name",
                                    "Index|Dispatch_ID|Dispatch_Id|Dispatch",
                                    "BeginNs|Start_Timestamp|Begin_Ns",
                                    "EndNs|End_Timestamp|End_Ns",
                                    "DurationNs|Duration_Ns"};
enum {
  D_NAME = HP__P_N,
  D_INDEX,
  D_BEGIN,
  D_END,
  D_DUR,
  D_N
};

/* Dispatch ids seen in this file, when they are small whole numbers (they are: rocprof and hipprof
 * number dispatches from 0): one bit each, exact whatever the order of the rows. Anything else
 * falls back to the recent-key window. */
#define IDSET_MAX ((long long)1 << 27)

typedef struct idset {
  unsigned char *bits;
  size_t cap;
} idset;

/* 1 for a new id v, 0 for one seen before, 2 when it cannot go in the set, HP_ENOMEM. */
static inline int idset_add(idset *s, long long v)
{
  size_t byte;
  unsigned char bit;

  if (v < 0 || v >= IDSET_MAX)
    return 2;
  byte = (size_t)(v >> 3);
  if (byte >= s->cap && hp__grow((void **)&s->bits, &s->cap, byte + 1, 1))
    return HP_ENOMEM;
  bit = (unsigned char)(1u << (v & 7));
  if (s->bits[byte] & bit)
    return 0;
  s->bits[byte] |= bit;
  return 1;
}

/* hp__parse_num with the common case inline: up to 15 plain digits. */
static int quick_num(const char *s, size_t n, double *v)
{
  uint64_t m = 0;
  size_t i;

  if (n > 15)
    return hp__parse_num(s, n, v);
  for (i = 0; i < n; i++) {
    unsigned d = (unsigned)(unsigned char)s[i] - '0';
    if (d > 9)
      return hp__parse_num(s, n, v);
    m = m * 10 + d;
  }
  *v = (double)m;
  return n > 0 ? 1 : hp__parse_num(s, n, v);
}

/* A row's numbers from the fast path (hp__fastrows_next), or NULL for a row from hp__csv_next. */
typedef const hp__fastrows *row_nums;

/* One per-dispatch file being read. */
typedef struct dispatch_state {
  int idx[D_N];
  int32_t *cid; /* counter id per column, -1 for the others */
  size_t ncols;
  size_t *ctr_col; /* the columns with a counter id, in column order */
  size_t nctr_col;
  long long *lastrow; /* per counter id: the last row that counted it (instances share a row) */
  size_t nctr;
  int feed_kernels; /* the kernel times go to the kernel table too */
  idset ids;        /* dispatch ids that are small numbers */
  hp__recent seen;  /* the others */
  name_cache nc;
  hp__fastrows fr; /* the fast path's arrays */
  /* Per resource: the first kept value of kernel prop_kid[i] as a word (dispatch_props). */
  uint64_t prop_word[HP__P_N];
  size_t prop_len[HP__P_N];
  uint32_t prop_kid[HP__P_N];
  uint64_t prop_mask[HP__P_N]; /* the low prop_len bytes of a word */
  int32_t *ctr_id;             /* per entry of ctr_col: its counter id */
  unsigned char *ctr_first;    /* per entry of ctr_col: the first column with its counter id */
} dispatch_state;

static void dispatch_state_free(dispatch_state *d)
{
  hp__recent_finish(&d->seen);
  free(d->ids.bits);
  hp__buf_free(&d->nc.name);
  free(d->cid);
  free(d->ctr_col);
  free(d->ctr_id);
  free(d->ctr_first);
  free(d->lastrow);
  hp__fastrows_free(&d->fr);
}

/* The arrays of the fast path, for `n` columns: the dispatch id, the timestamps, the duration and
 * the counters are read as numbers, the kernel name and the resources kept as text (resources are
 * only compared as bytes), and the other columns left out. */
static int fast_setup(dispatch_state *d, size_t n)
{
  size_t i, j;

  d->ctr_col = calloc(n ? n : 1, sizeof(*d->ctr_col));
  d->ctr_id = calloc(n ? n : 1, sizeof(*d->ctr_id));
  d->ctr_first = calloc(n ? n : 1, 1);
  if (!d->ctr_col || !d->ctr_id || !d->ctr_first || hp__fastrows_init(&d->fr, n))
    return HP_ENOMEM;
  for (i = 0; i < n; i++) {
    unsigned char *k = &d->fr.kind[i];
    *k = d->cid[i] >= 0 ? HP__CSV_NUM : HP__CSV_SKIP;
    for (j = 0; j < D_N; j++) {
      if (d->idx[j] == (int)i && *k != HP__CSV_NUM)
        *k = j >= D_INDEX ? HP__CSV_NUM : HP__CSV_TEXT;
    }
    if (d->cid[i] >= 0) {
      d->ctr_first[d->nctr_col] = 1;
      for (j = 0; j < d->nctr_col; j++)
        if (d->ctr_id[j] == d->cid[i])
          d->ctr_first[d->nctr_col] = 0;
      d->ctr_id[d->nctr_col] = d->cid[i];
      d->ctr_col[d->nctr_col++] = i;
    }
  }
  return 0;
}

/* Maps the header: the named columns, and a counter id for every other column. */
static int dispatch_setup(hp__pctx *x, const hp__csv_rec *h, dispatch_state *d)
{
  size_t i, j;
  int used;

  hp__csv_map(h, dwant, D_N, d->idx);
  d->ncols = h->n;
  d->cid = malloc((h->n ? h->n : 1) * sizeof(*d->cid));
  if (d->cid == NULL)
    return HP_ENOMEM;
  for (i = 0; i < h->n; i++) {
    uint32_t id;
    d->cid[i] = -1;
    used = 0;
    for (j = 0; j < D_N; j++)
      used |= d->idx[j] == (int)i && j != HP__P_LDSBANK;
    if (used || hp__dispatch_not_counter(h->f[i], h->len[i]))
      continue;
    if (hp__pmc_counter(x->p, h->f[i], h->len[i], &id))
      return HP_ENOMEM;
    d->cid[i] = (int32_t)id;
  }
  d->nctr = x->p->counters.n;
  d->lastrow = calloc(d->nctr + 1, sizeof(*d->lastrow));
  if (d->lastrow == NULL)
    return HP_ENOMEM;
  return fast_setup(d, h->n);
}

/* The row's kernel: *kid, and its trimmed name in *name. Returns 0, 1 when the row has no name
 * (warned), HP_ENOMEM. */
static int dispatch_kernel(hp__pctx *x, dispatch_state *d, const hp__csv_rec *rec,
                           const char **name, size_t *n, uint32_t *kid)
{
  const char *s = hp__fld(rec, d->idx[D_NAME], n);

  if (s && *n && (s[0] == ' ' || s[0] == '\t' || s[*n - 1] == ' ' || s[*n - 1] == '\t'))
    hp__trim(&s, n);
  if (s == NULL || *n == 0) {
    hp__pwarn(x, rec->line, "no kernel name; the row is skipped");
    return 1;
  }
  *name = s;
  if (cached(&d->nc, s, *n)) {
    *kid = d->nc.id;
    return 0;
  }
  if (hp__pmc_kernel_get(x->p, s, *n, kid))
    return HP_ENOMEM;
  cache_set(&d->nc, s, *n, *kid);
  return 0;
}

/* Replays of one dispatch repeat its row: *first is 1 only for the first row of a dispatch (and
 * for rows without an id). */
static int dispatch_first(dispatch_state *d, const hp__csv_rec *rec, row_nums nums, long long row,
                          int *first)
{
  hp__recent_ent *ent;
  size_t n;
  int col = d->idx[D_INDEX], added;
  const char *s = hp__fld(rec, col, &n);
  long long v;

  *first = 1;
  if (s == NULL || n == 0)
    return 0;
  if (nums && nums->ok[col])
    *first = idset_add(&d->ids, (long long)nums->val[col]);
  else
    *first = hp__parse_ll(s, n, &v) == 1 ? idset_add(&d->ids, v) : 2;
  if (*first < 0)
    return *first;
  if (*first == 2) {
    if (hp__recent_touch(&d->seen, 0, s, n, row, &ent, &added))
      return HP_ENOMEM;
    *first = added;
  }
  return 0;
}

/* The 8 bytes at p. Fields lie in the CSV reader's buffer, which has room to read 8 bytes past
 * any of them (csv.h). */
static inline uint64_t load_word(const char *p)
{
  uint64_t x;

  memcpy(&x, p, 8);
  return x;
}

/* Whether a[0..n) equals b[0..n): resource fields are a few bytes, where a library call costs more
 * than the comparison. */
static int same_bytes(const char *a, const char *b, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* Remembers resource i's first kept value of kernel `kid` as a word, when it has one of at most 8
 * bytes (the common case: "256", "1048576"); prop_len SIZE_MAX otherwise. */
static void prop_remember(dispatch_state *d, const hp__pmc_kernel *pk, uint32_t kid, size_t i)
{
  const hp__vals *pv = &pk->props[i];
  uint64_t x = 0;

  d->prop_kid[i] = kid;
  d->prop_len[i] = (size_t)-1;
  if (pv->n && pv->len[0] <= 8) {
    memcpy(&x, pv->v[0], pv->len[0]);
    d->prop_word[i] = x;
    d->prop_len[i] = pv->len[0];
    d->prop_mask[i] = pv->len[0] >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * pv->len[0])) - 1;
  }
}

static int dispatch_props(hp__pmc_kernel *pk, uint32_t kid, dispatch_state *d,
                          const hp__csv_rec *rec)
{
  const char *s;
  size_t i, n;

  for (i = 0; i < HP__P_N; i++) {
    hp__vals *pv = &pk->props[i];
    if ((s = hp__fld(rec, d->idx[i], &n)) == NULL)
      continue;
    /* Resources rarely change between dispatches: the first kept value usually matches, and it
     * is compared as a word when it is short. Its row count still counts (a value evicted later
     * moves its rows to "more", docs/internals/merge.md). */
    if (d->prop_kid[i] == kid && d->prop_len[i] == n &&
        d->prop_word[i] == (load_word(s) & d->prop_mask[i])) {
      pv->cnt[0]++;
      continue;
    }
    if (pv->n && pv->len[0] == n && same_bytes(pv->v[0], s, n))
      pv->cnt[0]++;
    else if (hp__vals_add(pv, s, n))
      return HP_ENOMEM;
    prop_remember(d, pk, kid, i);
  }
  return 0;
}

/* BeginNs and EndNs: 1 when both are whole numbers (hp__fll's answers and warnings otherwise, in
 * its order: EndNs is read only when BeginNs was one). */
static int dispatch_begin_end(hp__pctx *x, const dispatch_state *d, const hp__csv_rec *rec,
                              row_nums nums, long long *b, long long *e)
{
  int cb = d->idx[D_BEGIN], ce = d->idx[D_END];

  if (nums && cb >= 0 && ce >= 0 && nums->ok[cb] && nums->ok[ce]) {
    *b = (long long)nums->val[cb];
    *e = (long long)nums->val[ce];
    return 1;
  }
  return hp__fll(x, rec, cb, "BeginNs", b) == 1 && hp__fll(x, rec, ce, "EndNs", e) == 1;
}

/* The dispatch's time (EndNs-BeginNs, or DurationNs without them), into the PMC kernel and, for
 * the first row of a dispatch in a file that feeds kernels, into the kernel table. */
static int dispatch_time(hp__pctx *x, const dispatch_state *d, const hp__csv_rec *rec,
                         row_nums nums, const char *name, size_t n, uint32_t kid, int first)
{
  long long b, e;
  double dur = NAN;
  hp__tstat *st;

  if (dispatch_begin_end(x, d, rec, nums, &b, &e)) {
    if (e < b)
      hp__pwarn(x, rec->line, "EndNs is before BeginNs; the kernel time is skipped");
    else
      dur = hp__span_ns(b, e);
    /* hipprof's PMC rows are replays: their times are the profiler's, not the program's. */
    if (e >= b && d->feed_kernels && first)
      hp__kspan_add(x->p, b, e);
  } else if (d->idx[D_BEGIN] < 0 || d->idx[D_END] < 0) {
    hp__fnum(x, rec, d->idx[D_DUR], "DurationNs", &dur);
  }
  if (isnan(dur))
    return 0;
  hp__pmc_time(&x->p->pmc[kid], dur);
  if (!d->feed_kernels || !first || !x->use_kernels)
    return 0;
  if (hp__ttable_get(&x->p->t[HP__T_KERNEL], name, n, &st))
    return HP_ENOMEM;
  hp__tstat_add_trace(st, dur, x->file);
  x->tables |= HP__TB_KERNEL;
  return 0;
}

/* dispatch_counters for a row from the fast path whose every counter the split read (the common
 * case): each adds its value, and the first column of each counter counts the row (what lastrow
 * does in dispatch_counters, which later rows do not need from this one: their row numbers are
 * higher). */
static void fast_counters(const dispatch_state *d, row_nums nums, hp__pmc_kernel *pk)
{
  const size_t *col = d->ctr_col;
  const int32_t *id = d->ctr_id;
  const uint64_t *val = nums->val;
  double *csum = pk->csum;
  size_t j, ncol = d->nctr_col;

  for (j = 0; j < ncol; j++) {
    csum[id[j]] += (double)(long long)val[col[j]];
    pk->cn[id[j]] += d->ctr_first[j];
  }
}

/* Adds the row's counters to kernel `kid`. */
static int dispatch_counters(hp__pctx *x, dispatch_state *d, const hp__csv_rec *rec, row_nums nums,
                             uint32_t kid, long long row)
{
  hp_profile *p = x->p;
  hp__pmc_kernel *pk;
  const size_t *col = d->ctr_col;
  const int32_t *cid = d->cid;
  long long *lastrow = d->lastrow;
  double *csum;
  size_t j, i, ncol = d->nctr_col;
  double v;
  int k;

  /* Make room for every counter of this file once, so the loop below only adds. */
  if (p->pmc[kid].ncap < d->nctr && d->nctr > 0 && hp__pmc_add(p, kid, (uint32_t)d->nctr - 1, 0, 0))
    return HP_ENOMEM;
  pk = &p->pmc[kid];
  csum = pk->csum;
  if (nums && rec->n == d->ncols && nums->sp.all_ok) {
    fast_counters(d, nums, pk);
    return 0;
  }
  for (j = 0; j < ncol && (i = col[j]) < rec->n; j++) {
    int32_t c = cid[i];
    if (nums && nums->ok[i]) {
      /* Exact, as quick_num's conversion. A value the split read fits a long long, whose
       * conversion is one instruction where an unsigned one is several. */
      v = (double)(long long)nums->val[i];
    } else {
      if (rec->len[i] == 0)
        continue;
      k = quick_num(rec->f[i], rec->len[i], &v);
      if (k != 1) {
        if (k < 0) /* parsed again only to word the warning */
          hp__fnum(x, rec, (int)i, p->counters.s[c], &v);
        continue;
      }
    }
    /* TCC_HIT[0], TCC_HIT[1], ... add to one sum and count as one row. */
    csum[c] += v;
    if (lastrow[c] != row) {
      lastrow[c] = row;
      pk->cn[c]++;
    }
  }
  return 0;
}

/* Folds one row: a record of its kernel, a dispatch the first time its id is seen, resources,
 * time and counters. */
static int dispatch_row(hp__pctx *x, dispatch_state *d, const hp__csv_rec *rec, row_nums nums)
{
  hp_profile *p = x->p;
  const char *name = NULL;
  size_t n = 0;
  uint32_t kid = 0;
  long long row = ++p->rowseq;
  int first, r;

  if (rec->n != d->ncols)
    hp__check_width(x, rec, d->ncols);
  if ((r = dispatch_kernel(x, d, rec, &name, &n, &kid)) != 0)
    return r > 0 ? 0 : r;
  p->pmc[kid].records++;
  if ((r = dispatch_first(d, rec, nums, row, &first)) != 0)
    return r;
  p->pmc[kid].dispatches += first;
  if (dispatch_props(&p->pmc[kid], kid, d, rec) ||
      dispatch_time(x, d, rec, nums, name, n, kid, first) ||
      dispatch_counters(x, d, rec, nums, kid, row))
    return HP_ENOMEM;
  if (d->seen.n && hp__recent_tick(&d->seen, row))
    return HP_ENOMEM;
  return 0;
}

int hp__parse_dispatch(hp__pctx *x, int feed_kernels)
{
  static const char *const req[] = {"KernelName"};
  dispatch_state d;
  hp__csv_rec rec;
  row_nums nums;
  int r, req_idx[1];

  memset(&d, 0, sizeof(d));
  memset(d.prop_len, 0xff, sizeof(d.prop_len)); /* nothing remembered */
  d.feed_kernels = feed_kernels;
  hp__recent_init(&d.seen, HP__RECENT_WINDOW, NULL, NULL);
  if (x->ids_in_n && hp__grow((void **)&d.ids.bits, &d.ids.cap, x->ids_in_n, 1) == 0)
    memcpy(d.ids.bits, x->ids_in, x->ids_in_n); /* a split file's earlier ranges (chunk.c) */
  else if (x->ids_in_n)
    return HP_ENOMEM;
  if ((r = hp__read_header(x, &rec)) <= 0)
    goto fail;
  if ((r = dispatch_setup(x, &rec, &d)) != 0)
    goto fail;
  req_idx[0] = d.idx[D_NAME];
  if (hp__require(x, rec.line, req, req_idx, 1))
    goto fail;
  x->tables |= HP__TB_PMC;
  while ((r = hp__fastrows_next(x, &d.fr, &rec, &nums)) == 1)
    if ((r = dispatch_row(x, &d, &rec, nums)) != 0)
      break;

fail:
  if (x->ids_keep) { /* a range of a split file hands its ids over (chunk.c) */
    x->ids_out = d.ids.bits;
    x->ids_out_n = d.ids.cap;
    x->ids_window = d.seen.used > 0;
    d.ids.bits = NULL;
  }
  dispatch_state_free(&d);
  return r < 0 ? r : 0;
}
