/*
 * rocprof (v1 script) layouts, which hipprof shares:
 *
 *   - stats files `Name,Calls,TotalDurationNs,AverageNs,Percentage[,MinNs,MaxNs,StdDev]`
 *     (rocprof *.stats.csv, hipprof *.hiptrace.csv / *.kernel.csv with a `Total` row, rocprofv3
 *     *_stats.csv with min/max);
 *   - the per-dispatch table `Index,KernelName,...,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,sgpr,
 *     wave_size,...,BeginNs,EndNs,<counters>` (rocprof results.csv, hipprof --pmc-type 3, and with
 *     other spellings rocprofv2's plugin and rocprof-compute's pmc_perf.csv);
 *   - the PMC text `dispatch[N], key(value), ..., kernel-name("..."), time(d,b,e,c)` followed by
 *     indented `COUNTER (value)` lines (rocprof results.txt, hipprof pmc_results_<pid>.txt).
 *
 * Columns are found by name, case-insensitively, so column order and extra columns do not matter.
 */
#include "profile/profile.h"
#include "util/buf.h"
#include "util/csv.h"

#include <ctype.h>
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
/* Stats files.                                                                                    */

static unsigned table_bit(int table)
{
  switch (table) {
  case HP__T_API: return HP__TB_API;
  case HP__T_HSA: return HP__TB_HSA;
  case HP__T_COPY: return HP__TB_COPY;
  default: return HP__TB_KERNEL;
  }
}

int hp__parse_stats(hp__pctx *x, int table, int skip_total)
{
  static const char *const want[] = {"Name|KernelName|Kernel_Name|Function",
                                     "Calls|Count",
                                     "TotalDurationNs|Total_Duration_Ns|TotalDuration",
                                     "AverageNs|Average_Ns",
                                     "MinNs|Min_Ns",
                                     "MaxNs|Max_Ns"};
  enum {
    C_NAME,
    C_CALLS,
    C_TOTAL,
    C_AVG,
    C_MIN,
    C_MAX,
    C_N
  };
  int idx[C_N], r;
  hp__csv_rec rec;
  size_t ncols;
  hp__ttable *t = &x->p->t[table];

  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, C_N, idx);
  if (hp__require(x, rec.line, want, idx, 3))
    return 0;
  ncols = rec.n;
  x->tables |= table_bit(table);
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *name;
    size_t n;
    long long calls = 0;
    double total, avg, mn, mx;
    hp__tstat *st;

    hp__check_width(x, &rec, ncols);
    name = hp__fld(&rec, idx[C_NAME], &n);
    if (name)
      hp__trim(&name, &n);
    if (name == NULL || n == 0) {
      hp__pwarn(x, rec.line, "no name in column 'Name'; the row is skipped");
      continue;
    }
    /* hipprof ends its stats with a `Total` row; summing it would double everything. */
    if (skip_total && n == 5 && strncasecmp(name, "Total", 5) == 0)
      continue;
    if (hp__fnum(x, &rec, idx[C_TOTAL], "TotalDurationNs", &total) != 1) {
      if (hp__fld(&rec, idx[C_TOTAL], &n) == NULL || n == 0)
        hp__pwarn(x, rec.line, "no value in column 'TotalDurationNs'; the row is skipped");
      continue;
    }
    if (hp__fll(x, &rec, idx[C_CALLS], "Calls", &calls) != 1)
      calls = 0;
    hp__fnum(x, &rec, idx[C_AVG], "AverageNs", &avg);
    hp__fnum(x, &rec, idx[C_MIN], "MinNs", &mn);
    hp__fnum(x, &rec, idx[C_MAX], "MaxNs", &mx);
    name = hp__fld(&rec, idx[C_NAME], &n);
    hp__trim(&name, &n);
    if (hp__ttable_get(t, name, n, &st))
      return HP_ENOMEM;
    hp__tstat_add_stats(st, calls, total, avg, mn, mx);
  }
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Per-dispatch tables.                                                                            */

/* Columns that describe a dispatch rather than count something. Everything else with a name is a
 * counter. */
static const char *const not_counters[] = {"gpu-id",
                                           "queue-id",
                                           "queue-index",
                                           "pid",
                                           "tid",
                                           "sig",
                                           "obj",
                                           "DispatchNs",
                                           "CompleteNs",
                                           "GPU_ID",
                                           "Queue_ID",
                                           "PID",
                                           "TID",
                                           "Correlation_ID",
                                           "Process_Id",
                                           "Thread_Id",
                                           "Agent_Id",
                                           "Node_Id",
                                           "Kernel_Id",
                                           "Stream_Id",
                                           "Private_Segment_Size",
                                           "Group_Segment_Size",
                                           "Workgroup_Size_X",
                                           "Workgroup_Size_Y",
                                           "Workgroup_Size_Z",
                                           "Grid_Size_X",
                                           "Grid_Size_Y",
                                           "Grid_Size_Z",
                                           "Kind",
                                           "Guid",
                                           "Dispatch_Id",
                                           "Accum_VGPR",
                                           "Arch_VGPR",
                                           "SGPR"};

static int is_not_counter(const char *s, size_t n)
{
  size_t i;

  hp__trim(&s, &n);
  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(not_counters) / sizeof(not_counters[0]); i++)
    if (strlen(not_counters[i]) == n && strncasecmp(s, not_counters[i], n) == 0)
      return 1;
  return 0;
}

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

typedef struct dispatch_state {
  int idx[D_N];
  int32_t *cid; /* counter id per column, -1 for the others */
  size_t ncols;
  long long *lastrow; /* per counter id: the last row that counted it (instances share a row) */
  size_t nctr;
} dispatch_state;

static void dispatch_state_free(dispatch_state *d)
{
  free(d->cid);
  free(d->lastrow);
}

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
    if (used || is_not_counter(h->f[i], h->len[i]))
      continue;
    if (hp__pmc_counter(x->p, h->f[i], h->len[i], &id))
      return HP_ENOMEM;
    d->cid[i] = (int32_t)id;
  }
  d->nctr = x->p->counters.n;
  d->lastrow = calloc(d->nctr + 1, sizeof(*d->lastrow));
  if (d->lastrow == NULL)
    return HP_ENOMEM;
  return 0;
}

/* Dispatch ids seen in this file, when they are small whole numbers (they are: rocprof and hipprof
 * number dispatches from 0): one bit each, exact whatever the order of the rows. Anything else
 * falls back to the recent-key window. */
#define IDSET_MAX ((long long)1 << 27)

typedef struct idset {
  unsigned char *bits;
  size_t cap;
} idset;

/* 1 for a new id, 0 for one seen before, 2 when the id cannot go in the set, HP_ENOMEM. */
static int idset_add(idset *s, const char *str, size_t n)
{
  long long v;
  size_t byte;
  unsigned char bit;

  if (hp__parse_ll(str, n, &v) != 1 || v < 0 || v >= IDSET_MAX)
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

static int64_t ll_diff(long long a, long long b)
{
  return (int64_t)((unsigned long long)a - (unsigned long long)b);
}

int hp__parse_dispatch(hp__pctx *x, int feed_kernels)
{
  static const char *const req[] = {"KernelName"};
  dispatch_state d;
  hp__recent seen;
  idset ids = {NULL, 0};
  name_cache nc;
  hp__csv_rec rec;
  hp_profile *p = x->p;
  int r, req_idx[1];
  size_t i;

  memset(&d, 0, sizeof(d));
  memset(&nc, 0, sizeof(nc));
  hp__recent_init(&seen, 8192, NULL, NULL);
  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  if ((r = dispatch_setup(x, &rec, &d)) != 0)
    goto fail;
  req_idx[0] = d.idx[D_NAME];
  if (hp__require(x, rec.line, req, req_idx, 1))
    goto fail;
  x->tables |= HP__TB_PMC;
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *s;
    size_t n;
    uint32_t kid;
    hp__pmc_kernel *pk;
    long long b, e;
    double dur = NAN, v;
    int first = 1, added, k;
    long long row = ++p->rowseq;

    hp__check_width(x, &rec, d.ncols);
    s = hp__fld(&rec, d.idx[D_NAME], &n);
    if (s)
      hp__trim(&s, &n);
    if (s == NULL || n == 0) {
      hp__pwarn(x, rec.line, "no kernel name; the row is skipped");
      continue;
    }
    if (cached(&nc, s, n)) {
      kid = nc.id;
    } else {
      if (hp__pmc_kernel_get(p, s, n, &kid)) {
        r = HP_ENOMEM;
        goto fail;
      }
      cache_set(&nc, s, n, kid);
    }
    pk = &p->pmc[kid];
    pk->records++;
    /* Replays of one dispatch repeat its row: count the dispatch once. */
    s = hp__fld(&rec, d.idx[D_INDEX], &n);
    if (s && n) {
      hp__recent_ent *ent;
      first = idset_add(&ids, s, n);
      if (first < 0) {
        r = first;
        goto fail;
      }
      if (first == 2) {
        if (hp__recent_touch(&seen, 0, s, n, row, &ent, &added)) {
          r = HP_ENOMEM;
          goto fail;
        }
        first = added;
      }
    }
    pk->dispatches += first;
    for (i = 0; i < HP__P_N; i++) {
      const hp__vals *pv = &pk->props[i];
      if ((s = hp__fld(&rec, d.idx[i], &n)) == NULL)
        continue;
      /* Resources rarely change between dispatches: the first kept value usually matches. */
      if (pv->n && pv->len[0] == n && memcmp(pv->v[0], s, n) == 0)
        continue;
      if (hp__vals_add(&pk->props[i], s, n)) {
        r = HP_ENOMEM;
        goto fail;
      }
    }
    if (hp__fll(x, &rec, d.idx[D_BEGIN], "BeginNs", &b) == 1 &&
        hp__fll(x, &rec, d.idx[D_END], "EndNs", &e) == 1) {
      if (e < b)
        hp__pwarn(x, rec.line, "EndNs is before BeginNs; the kernel time is skipped");
      else
        dur = (double)ll_diff(e, b);
    } else if (d.idx[D_BEGIN] < 0 || d.idx[D_END] < 0) {
      hp__fnum(x, &rec, d.idx[D_DUR], "DurationNs", &dur);
    }
    if (!isnan(dur)) {
      hp__pmc_time(pk, dur);
      if (feed_kernels && first && x->use_kernels) {
        hp__tstat *st;
        s = hp__fld(&rec, d.idx[D_NAME], &n);
        hp__trim(&s, &n);
        if (hp__ttable_get(&p->t[HP__T_KERNEL], s, n, &st)) {
          r = HP_ENOMEM;
          goto fail;
        }
        hp__tstat_add_trace(st, dur, x->file);
        x->tables |= HP__TB_KERNEL;
      }
    }
    /* Make room for every counter of this file once, so the loop below only adds. */
    if (p->pmc[kid].ncap < d.nctr && d.nctr > 0 &&
        hp__pmc_add(p, kid, (uint32_t)d.nctr - 1, 0, 0)) {
      r = HP_ENOMEM;
      goto fail;
    }
    pk = &p->pmc[kid];
    for (i = 0; i < rec.n && i < d.ncols; i++) {
      int32_t c = d.cid[i];
      if (c < 0 || rec.len[i] == 0)
        continue;
      k = quick_num(rec.f[i], rec.len[i], &v);
      if (k != 1) {
        if (k < 0) /* parsed again only to word the warning */
          hp__fnum(x, &rec, (int)i, p->counters.s[c], &v);
        continue;
      }
      /* TCC_HIT[0], TCC_HIT[1], ... add to one sum and count as one row. */
      pk->csum[c] += v;
      if (d.lastrow[c] != row) {
        d.lastrow[c] = row;
        pk->cn[c]++;
      }
    }
    if (seen.n && hp__recent_tick(&seen, row)) {
      r = HP_ENOMEM;
      goto fail;
    }
  }

fail:
  hp__recent_finish(&seen);
  free(ids.bits);
  hp__buf_free(&nc.name);
  dispatch_state_free(&d);
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* PMC text: dispatch[N] lines and the counter lines under them.                                   */

/* hipprof's full-name text labels (DTK manual as quoted in notes) for the resource fields. */
static const struct {
  const char *label;
  int prop;
} text_props[] = {
    {"grd", HP__P_GRID},
    {"wgr", HP__P_WG},
    {"wave_size", HP__P_WAVE},
    {"arch_vgpr", HP__P_AVGPR},
    {"vgpr", HP__P_AVGPR},
    {"accum_vgpr", HP__P_ACCVGPR},
    {"sgpr", HP__P_SGPR},
    {"lds", HP__P_LDS},
    {"scr", HP__P_SCRATCH},
    {"work group size", HP__P_WG},
    {"shared memory size", HP__P_LDS},
    {"scratch size", HP__P_SCRATCH},
    {"vgpr count", HP__P_AVGPR},
    {"sgpr count", HP__P_SGPR},
    {"shared memory bank conflict", HP__P_LDSBANK},
    {"SQ_LDS_BANK_CONFLICT", HP__P_LDSBANK},
};

static int text_prop(const char *s, size_t n)
{
  size_t i;

  for (i = 0; i < sizeof(text_props) / sizeof(text_props[0]); i++)
    if (strlen(text_props[i].label) == n && strncasecmp(s, text_props[i].label, n) == 0)
      return text_props[i].prop;
  return -1;
}

/* One `key(value)` item of a dispatch line, starting at *pp; advances *pp past it. The value of
 * kernel-name is quoted and may hold parentheses and commas. Returns 0 at the end of the line. */
static int next_item(const char **pp, const char *end, const char **k, size_t *kn, const char **v,
                     size_t *vn)
{
  const char *p = *pp, *open, *close;

  while (p < end && (*p == ',' || *p == ' ' || *p == '\t'))
    p++;
  if (p >= end)
    return 0;
  open = memchr(p, '(', (size_t)(end - p));
  if (open == NULL)
    return 0;
  *k = p;
  *kn = (size_t)(open - p);
  if (open + 1 < end && open[1] == '"') {
    const char *q = open + 2;
    close = NULL;
    while (q < end && (q = memchr(q, '"', (size_t)(end - q))) != NULL) {
      if (q + 1 < end && q[1] == ')') {
        close = q + 1;
        break;
      }
      q++;
    }
    if (close == NULL)
      return 0;
    *v = open + 2;
    *vn = (size_t)(close - 1 - (open + 2));
  } else {
    close = memchr(open, ')', (size_t)(end - open));
    if (close == NULL)
      return 0;
    *v = open + 1;
    *vn = (size_t)(close - open - 1);
  }
  *pp = close + 1;
  return 1;
}

int hp__pmc_text_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  hp_profile *p = x->p;
  const char *end = s + n;

  if (!st->init) {
    hp__recent_init(&st->seen, 8192, NULL, NULL);
    st->init = 1;
  }
  if (n > 9 && memcmp(s, "dispatch[", 9) == 0) {
    const char *q = s + 9, *close = memchr(q, ']', n - 9), *k, *v, *name = NULL;
    const char *props[HP__P_N];
    size_t kn, vn, namelen = 0, propn[HP__P_N], i;
    long long begin = 0, endt = 0;
    int have_time = 0, added = 1, prop;
    hp__recent_ent *ent;
    uint32_t kid;
    hp__pmc_kernel *pk;

    if (close == NULL) {
      hp__pwarn(x, line, "dispatch line without ']'; skipped");
      st->active = 0;
      return 1;
    }
    memset(props, 0, sizeof(props));
    memset(propn, 0, sizeof(propn));
    for (q = close + 1; next_item(&q, end, &k, &kn, &v, &vn);) {
      hp__trim(&k, &kn);
      if (kn == 11 && memcmp(k, "kernel-name", 11) == 0) {
        name = v;
        namelen = vn;
      } else if (kn == 4 && memcmp(k, "time", 4) == 0) {
        /* time(dispatch,begin,end,complete) */
        const char *ve = v + vn, *c1 = memchr(v, ',', vn);
        const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(ve - c1 - 1)) : NULL;
        const char *c3 = c2 ? memchr(c2 + 1, ',', (size_t)(ve - c2 - 1)) : NULL;
        if (c1 && c2 && hp__parse_ll(c1 + 1, (size_t)(c2 - c1 - 1), &begin) == 1 &&
            hp__parse_ll(c2 + 1, (size_t)((c3 ? c3 : ve) - c2 - 1), &endt) == 1)
          have_time = 1;
        else
          hp__pwarn(x, line, "time(...) does not hold four timestamps; kernel time skipped");
      } else if ((prop = text_prop(k, kn)) >= 0) {
        props[prop] = v;
        propn[prop] = vn;
      }
    }
    if (name == NULL || namelen == 0) {
      hp__pwarn(x, line, "dispatch line without kernel-name(\"...\"); skipped");
      st->active = 0;
      return 1;
    }
    if (hp__pmc_kernel_get(p, name, namelen, &kid) ||
        hp__recent_touch(&st->seen, 0, s + 9, (size_t)(close - s - 9), ++p->rowseq, &ent, &added))
      return HP_ENOMEM;
    pk = &p->pmc[kid];
    pk->records++;
    pk->dispatches += added;
    for (i = 0; i < HP__P_N; i++)
      if (props[i] && hp__vals_add(&pk->props[i], props[i], propn[i]))
        return HP_ENOMEM;
    if (have_time && endt >= begin)
      hp__pmc_time(pk, (double)ll_diff(endt, begin));
    st->active = 1;
    st->kid = kid;
    x->tables |= HP__TB_PMC;
    return hp__recent_tick(&st->seen, p->rowseq) ? HP_ENOMEM : 1;
  }
  if (st->active && n > 0 && (s[0] == ' ' || s[0] == '\t')) {
    /* "  NAME (value)" or "  label: value" under the dispatch line. */
    const char *open = NULL, *name = s, *val;
    size_t nn, vn;
    double v;
    uint32_t cid;
    int prop, pr;
    const char *q;

    for (q = end; q > s; q--)
      if (q[-1] == '(') {
        open = q - 1;
        break;
      }
    if (open && end[-1] == ')') {
      nn = (size_t)(open - s);
      val = open + 1;
      vn = (size_t)(end - 1 - val);
    } else if ((q = memchr(s, ':', n)) != NULL) {
      nn = (size_t)(q - s);
      val = q + 1;
      vn = (size_t)(end - val);
    } else {
      return 0;
    }
    hp__trim(&name, &nn);
    hp__trim(&val, &vn);
    if (nn == 0)
      return 0;
    if (vn > 0 && val[vn - 1] == '%')
      vn--;
    prop = text_prop(name, nn);
    if (prop >= 0 && hp__vals_add(&p->pmc[st->kid].props[prop], val, vn))
      return HP_ENOMEM;
    if (prop >= 0 && prop != HP__P_LDSBANK)
      return 1;
    pr = hp__parse_num(val, vn, &v);
    if (pr < 0) {
      hp__pwarn(x, line, "counter '%.*s': \"%.*s\" is not a number; skipped", (int)nn, name,
                (int)(vn > 40 ? 40 : vn), val);
      return 1;
    }
    if (pr == 0)
      return 1;
    if (hp__pmc_counter(p, name, nn, &cid) || hp__pmc_add(p, st->kid, cid, v, 1))
      return HP_ENOMEM;
    return 1;
  }
  if (n > 0)
    st->active = 0;
  return 0;
}

void hp__pmc_text_end(hp__pmctext *st)
{
  if (st->init)
    hp__recent_finish(&st->seen);
  st->init = 0;
}
