/*
 * Folds ncu raw-page launches into their kernel's metric sums, parsing only the fields that
 * changed and adding unchanged values in counted batches (see ncu_fold.h for why and for the
 * exactness argument).
 */
#include "profile/ncu_fold.h"

#include "profile/build.h"
#include "profile/ncu_isa.h"
#include "profile/ncu_num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 2^52: whole numbers whose sums stay below it are added exactly, with room for the rounding of
 * the test itself. */
#define EXACT_LIMIT 4503599627370496.0

static int cmp_i32(const void *a, const void *b)
{
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

  return (x > y) - (x < y);
}

int hp__ncu_fold_init(hp__ncu_fold *fo, const int32_t *mids, size_t ncols)
{
  size_t n = ncols ? ncols : 1, i;
  int32_t *sorted;

  hp__ncu_fold_free(fo);
  hp__ncu_num_init();
  fo->mids = mids;
  fo->ncols = ncols;
  fo->isa = hp__ncu_isa();
  fo->wide = 32;
  fo->col = calloc(n, sizeof(*fo->col));
  sorted = malloc(n * sizeof(*sorted));
  if (!fo->col || !sorted) {
    free(sorted);
    return HP_ENOMEM;
  }
  /* Two metric columns with one id (a header that names a metric twice) are added in column
   * order, row by row, as hp__ncu_add would: a batch would change the order of their sums. */
  memcpy(sorted, mids, ncols * sizeof(*sorted));
  qsort(sorted, ncols, sizeof(*sorted), cmp_i32);
  for (i = 1; i < ncols; i++)
    if (sorted[i] >= 0 && sorted[i] == sorted[i - 1])
      fo->dup = 1;
  free(sorted);
  return 0;
}

void hp__ncu_fold_free(hp__ncu_fold *fo)
{
  free(fo->col);
  memset(fo, 0, sizeof(*fo));
}

/* Adds r copies of v to kernel kid's sum of metric mid, with the result of r additions in turn. */
static int add_copies_slow(hp_profile *p, uint32_t kid, uint32_t mid, double v, long long r)
{
  hp__ncu_kernel *nk = &p->ncu[kid];
  double s;

  if (r <= 0)
    return 0;
  if (mid >= nk->ncap) {
    if (hp__ncu_add(p, kid, mid, v)) /* grows the kernel's sums */
      return HP_ENOMEM;
    if (--r == 0)
      return 0;
  }
  s = nk->msum[mid];
  nk->mn[mid] += r;
  if (r == 1) {
    nk->msum[mid] = s + v;
    return 0;
  }
  /* Every partial sum of whole numbers below 2^53 is exact, so one product gives the same. */
  if (v == trunc(v) && s == trunc(s) && fabs(s) <= EXACT_LIMIT && fabs(v) <= EXACT_LIMIT &&
      (double)r <= EXACT_LIMIT && fabs(s) + (double)r * fabs(v) <= EXACT_LIMIT) {
    nk->msum[mid] = s + (double)r * v;
    return 0;
  }
  while (r-- > 0)
    s += v;
  nk->msum[mid] = s;
  return 0;
}

/* The same; one copy into a sum that has room (a value that changes every launch) without a call. */
static inline int add_copies(hp_profile *p, uint32_t kid, uint32_t mid, double v, long long r)
{
  hp__ncu_kernel *nk = &p->ncu[kid];

  if (r == 1 && mid < nk->ncap) {
    nk->msum[mid] += v;
    nk->mn[mid]++;
    return 0;
  }
  return add_copies_slow(p, kid, mid, v, r);
}

int hp__ncu_fold_flush(hp__ncu_fold *fo, hp_profile *p)
{
  hp__ncu_kernel *nk;
  hp__ncu_col *c, *end;
  long long r;

  /* Nothing pending also covers a file without kernels yet, where p->ncu is still NULL. */
  if (!fo->pending)
    return 0;
  fo->pending = 0;
  nk = &p->ncu[fo->kid];
  for (c = fo->col, end = fo->col + fo->width; c < end; c++) {
    if (!c->live)
      continue;
    r = fo->rows - c->since;
    c->since = 0;
    /* One row each (launches of kernels that take turns): added here, without a call. */
    if (r == 1 && (size_t)c->mid < nk->ncap) {
      nk->msum[c->mid] += c->v;
      nk->mn[c->mid]++;
    } else if (add_copies(p, fo->kid, (uint32_t)c->mid, c->v, r)) {
      return HP_ENOMEM;
    }
  }
  fo->rows = 0;
  return 0;
}

/* Builds the list from the columns' values, for rows of `width` columns. Nothing is pending. */
static void build(hp__ncu_fold *fo, size_t width)
{
  size_t i;

  fo->width = width;
  for (i = 0; i < fo->ncols; i++) {
    hp__ncu_col *c = &fo->col[i];
    /* Real ncu raw pages hold text-valued columns too (device__attribute_display_name
     * "NVIDIA H200", launch__func_cache_config "CachePreferNone"), as the details page does:
     * they are attributes, not numbers to sum, so they are skipped without a warning. */
    c->live = i < width && fo->mids[i] >= 0 && c->k > 0;
    c->mid = fo->mids[i];
    c->since = 0;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* A row's changed fields. */

/* The kernel's sums while a row is folded, in locals: the stores into the sums could otherwise
 * alias the fold's fields (rows is a long long, as the counts are) and force reloads. nk is NULL
 * on the first row after a flush: nothing is pending then. */
typedef struct sums {
  hp__ncu_kernel *nk;
  double *msum;
  long long *mn;
  size_t ncap;
  long long rows;
  uint32_t kid;
} sums;

static inline void sums_open(sums *s, const hp__ncu_fold *fo, hp_profile *p)
{
  s->nk = fo->pending ? &p->ncu[fo->kid] : NULL;
  s->msum = s->nk ? s->nk->msum : NULL;
  s->mn = s->nk ? s->nk->mn : NULL;
  s->ncap = s->nk ? s->nk->ncap : 0;
  s->rows = fo->rows;
  s->kid = fo->kid;
}

/* A live column whose value changes adds the old value for the rows that had it. 0 or
 * HP_ENOMEM. */
static inline int take_old(sums *s, hp_profile *p, hp__ncu_col *c)
{
  long long r = s->rows - c->since;

  if (r == 1 && (size_t)c->mid < s->ncap) {
    s->msum[c->mid] += c->v;
    s->mn[c->mid]++;
  } else {
    if (add_copies_slow(p, s->kid, (uint32_t)c->mid, c->v, r))
      return HP_ENOMEM;
    s->msum = s->nk->msum; /* it may have grown the sums */
    s->mn = s->nk->mn;
    s->ncap = s->nk->ncap;
  }
  c->since = s->rows;
  return 0;
}

/* Parses the changed fields (a field not listed is not read), one at a time, and folds them.
 * Returns 1 when the list must be rebuilt (a field turned from a number into text or back), 0,
 * or HP_ENOMEM. */
static int update(hp__ncu_fold *fo, hp_profile *p, const hp__csv_rec *rec, size_t width,
                  const uint32_t *chg, size_t nchg)
{
  hp__ncu_col *c;
  size_t j, i;
  sums s;
  int was, rebuild = 0;

  sums_open(&s, fo, p);
  for (j = 0; j < nchg; j++) {
    if ((i = chg[j]) >= width || fo->mids[i] < 0)
      continue;
    c = &fo->col[i];
    if ((was = c->live) && s.nk && take_old(&s, p, c))
      return HP_ENOMEM;
    c->k = hp__ncu_num(rec->f[i], rec->len[i], &c->v);
    rebuild |= was != (c->k > 0);
  }
  return rebuild;
}

#if defined(HP__NCU_NUM16)
/* Fields per batch of update_avx2: its arrays are on the stack. */
#define BATCH 64

/* update() for a row with many changed fields, on AVX2 CPUs: in batches, every number of the
 * batch first (hp__ncu_num16 where the field's 16 bytes lie before `lim`), then the fold in
 * column order. The loop that reads the numbers does nothing else, so that the CPU overlaps one
 * number's chain (its bytes, the shuffle, three multiply-adds, the conversion, the division: ~50
 * cycles) with the next ones'; reading has no side effect, so the order is free. */
static HP__NCU_AVX2 int update_avx2(hp__ncu_fold *fo, hp_profile *p, const hp__csv_rec *rec,
                                    size_t width, const uint32_t *chg, size_t nchg, uintptr_t lim)
{
  uint32_t col[BATCH];
  int k[BATCH];
  double v[BATCH];
  hp__ncu_col *c;
  size_t j = 0, cnt, t, i;
  sums s;
  int was, rebuild = 0;

  sums_open(&s, fo, p);
  while (j < nchg) {
    for (cnt = 0; j < nchg && cnt < BATCH; j++) {
      if ((i = chg[j]) >= width || fo->mids[i] < 0)
        continue;
      col[cnt] = (uint32_t)i;
      k[cnt] = (uintptr_t)rec->f[i] + 16 <= lim ? hp__ncu_num16(rec->f[i], rec->len[i], &v[cnt])
                                                : hp__ncu_num_slow(rec->f[i], rec->len[i], &v[cnt]);
      cnt++;
    }
    for (t = 0; t < cnt; t++) {
      c = &fo->col[col[t]];
      if ((was = c->live) && s.nk && take_old(&s, p, c))
        return HP_ENOMEM;
      c->k = k[t];
      c->v = v[t];
      rebuild |= was != (k[t] > 0);
    }
  }
  return rebuild;
}
#endif

/* update_avx2 for a row with many changed fields where the CPU has AVX2 (ncu_isa.h), else
 * update. */
static int update_any(hp__ncu_fold *fo, hp_profile *p, const hp__csv_rec *rec, size_t width,
                      const uint32_t *chg, size_t nchg, const char *lim)
{
#if defined(HP__NCU_NUM16)
  if (fo->isa >= HP__NCU_ISA_AVX2 && nchg >= fo->wide)
    return update_avx2(fo, p, rec, width, chg, nchg, (uintptr_t)lim);
#endif
  (void)lim;
  return update(fo, p, rec, width, chg, nchg);
}

int hp__ncu_fold_row(hp__ncu_fold *fo, hp_profile *p, uint32_t kid, const hp__csv_rec *rec,
                     size_t width, const uint32_t *chg, size_t nchg, const char *lim)
{
  size_t i;
  int r;

  if (fo->pending && fo->kid != kid && hp__ncu_fold_flush(fo, p))
    return HP_ENOMEM;
  if (chg == NULL || fo->width != width) {
    if (hp__ncu_fold_flush(fo, p))
      return HP_ENOMEM;
    for (i = 0; i < width; i++)
      if (fo->mids[i] >= 0)
        fo->col[i].k = hp__ncu_num(rec->f[i], rec->len[i], &fo->col[i].v);
    build(fo, width);
  } else if ((r = update_any(fo, p, rec, width, chg, nchg, lim)) != 0) {
    if (r < 0 || hp__ncu_fold_flush(fo, p))
      return HP_ENOMEM;
    build(fo, width);
  }
  fo->pending = 1;
  fo->kid = kid;
  fo->rows++;
  return fo->dup ? hp__ncu_fold_flush(fo, p) : 0;
}

int hp__ncu_fold_value(const hp__ncu_fold *fo, size_t i, double *v)
{
  if (i >= fo->width || fo->mids[i] < 0 || fo->col[i].k <= 0)
    return 0;
  *v = fo->col[i].v;
  return 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* One fold and one reference line per kernel.                                                    */

static void slot_free(hp__ncu_slot *sl)
{
  hp__ncu_fold_free(&sl->fold);
  hp__ncu_ref_free(&sl->ref);
}

int hp__ncu_slots_flush(hp__ncu_slots *ss, hp_profile *p)
{
  size_t i;

  /* Each kernel's sums are added to by one fold only, so the order of the folds is free. */
  for (i = 0; i < ss->n; i++)
    if (hp__ncu_fold_flush(&ss->by_kid[i].fold, p))
      return HP_ENOMEM;
  return hp__ncu_fold_flush(&ss->other.fold, p);
}

void hp__ncu_slots_header(hp__ncu_slots *ss, const int32_t *mids, size_t ncols)
{
  ss->gen++;
  ss->mids = mids;
  ss->ncols = ncols;
}

hp__ncu_slot *hp__ncu_slots_find(hp__ncu_slots *ss, uint32_t kid)
{
  hp__ncu_slot *sl = kid < HP__NCU_SLOTS ? (kid < ss->n ? &ss->by_kid[kid] : NULL) : &ss->other;

  return sl && sl->gen == ss->gen ? sl : NULL;
}

hp__ncu_slot *hp__ncu_slots_get(hp__ncu_slots *ss, uint32_t kid)
{
  hp__ncu_slot *sl;

  if (kid < HP__NCU_SLOTS && kid >= ss->n) {
    size_t n = (size_t)kid + 1 > ss->n * 2 ? (size_t)kid + 1 : ss->n * 2;
    if (n > HP__NCU_SLOTS)
      n = HP__NCU_SLOTS;
    sl = realloc(ss->by_kid, n * sizeof(*sl));
    if (sl == NULL)
      return NULL;
    memset(sl + ss->n, 0, (n - ss->n) * sizeof(*sl));
    ss->by_kid = sl;
    ss->n = n;
  }
  sl = kid < HP__NCU_SLOTS ? &ss->by_kid[kid] : &ss->other;
  if (sl->gen != ss->gen) {
    /* Flushed when the header changed: nothing is pending. */
    hp__ncu_ref_forget(&sl->ref);
    if (hp__ncu_fold_init(&sl->fold, ss->mids, ss->ncols))
      return NULL;
    sl->gen = ss->gen;
  }
  return sl;
}

void hp__ncu_slots_free(hp__ncu_slots *ss)
{
  size_t i;

  for (i = 0; i < ss->n; i++)
    slot_free(&ss->by_kid[i]);
  slot_free(&ss->other);
  free(ss->by_kid);
  memset(ss, 0, sizeof(*ss));
}
