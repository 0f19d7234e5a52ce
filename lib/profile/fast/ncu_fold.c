/*
 * Folds ncu raw-page launches into their kernel's metric sums, parsing only the fields that
 * changed and summing every live column of a row in one vector loop (see ncu_fold.h for why and
 * for the exactness argument).
 */
#include "profile/fast/ncu_fold.h"

#include "profile/fast/ncu_num.h"
#include "profile/model/build.h"
#include "util/sys/cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A column's state bits: a metric column (its id >= 0), its last field held a number (hp__parse_num
 * answered > 0), and it is live (a metric column below the width that held a number when the live
 * columns were chosen; until they are chosen again, live and number agree for every metric column
 * below the width). */
enum {
  ST_METRIC = 1,
  ST_NUM = 2,
  ST_LIVE = 4
};

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
  fo->avx2 = hp__cpu_avx2();
  fo->add = malloc(n * sizeof(*fo->add));
  fo->sum = calloc(n, sizeof(*fo->sum));
  fo->since = calloc(n, sizeof(*fo->since));
  fo->st = calloc(n, sizeof(*fo->st));
  fo->live = malloc(n * sizeof(*fo->live));
  sorted = malloc(n * sizeof(*sorted));
  if (!fo->add || !fo->sum || !fo->since || !fo->st || !fo->live || !sorted) {
    free(sorted);
    return HP_ENOMEM;
  }
  for (i = 0; i < ncols; i++) {
    fo->add[i] = -0.0;
    fo->st[i] = mids[i] >= 0 ? ST_METRIC : 0;
  }
  /* Two metric columns with one id (a header that names a metric twice) are added in column
   * order, row by row, as hp__ncu_add would: two running sums would change the order of the
   * additions to their one sum. */
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
  free(fo->add);
  free(fo->sum);
  free(fo->since);
  free(fo->st);
  free(fo->live);
  memset(fo, 0, sizeof(*fo));
}

/* s plus r copies of v, added one at a time: as one product where every partial sum is a whole
 * number below 2^52 (all exact, so the product is the same), else one addition per copy. */
static double copies(double s, double v, long long r)
{
  if (r <= 0)
    return s;
  if (r == 1)
    return s + v;
  if (v == trunc(v) && s == trunc(s) && fabs(s) <= EXACT_LIMIT && fabs(v) <= EXACT_LIMIT &&
      (double)r <= EXACT_LIMIT && fabs(s) + (double)r * fabs(v) <= EXACT_LIMIT)
    return s + (double)r * v;
  while (r-- > 0)
    s += v;
  return s;
}

/* In the counting mode: every live column's sum takes the rows its value was counted for, and
 * counting starts again from the row at hand. */
static void catch_up(hp__ncu_fold *fo)
{
  size_t j;
  uint32_t c;

  for (j = 0; j < fo->nlive; j++) {
    c = fo->live[j];
    fo->sum[c] = copies(fo->sum[c], fo->add[c], fo->rows - fo->since[c]);
    fo->since[c] = fo->rows;
  }
}

int hp__ncu_fold_flush(hp__ncu_fold *fo, hp_profile *p)
{
  hp__ncu_kernel *nk;
  size_t j;
  uint32_t c;

  /* Nothing pending also covers a file without kernels yet, where p->ncu is still NULL. */
  if (!fo->pending)
    return 0;
  fo->pending = 0;
  if (!fo->dense)
    catch_up(fo);
  /* The running sums started from the kernel's sums (open_sums) and took every row's addition in
   * order: they are the sums. */
  nk = &p->ncu[fo->kid];
  for (j = 0; j < fo->nlive; j++) {
    c = fo->live[j];
    nk->msum[fo->mids[c]] = fo->sum[c];
    nk->mn[fo->mids[c]] += fo->rows;
    fo->since[c] = 0;
  }
  fo->rows = 0;
  return 0;
}

/* Starts the running sums of the live columns from kernel kid's sums. Nothing is pending. 0 or
 * HP_ENOMEM. */
static int open_sums(hp__ncu_fold *fo, hp_profile *p, uint32_t kid)
{
  hp__ncu_kernel *nk;
  size_t j;
  uint32_t c;

  if (fo->maxmid > 0 && hp__ncu_room(p, kid, fo->maxmid - 1))
    return HP_ENOMEM;
  nk = &p->ncu[kid];
  for (j = 0; j < fo->nlive; j++) {
    c = fo->live[j];
    fo->sum[c] = nk->msum[fo->mids[c]];
  }
  return 0;
}

/* Chooses the live columns for rows of `width` columns from the columns' numbers. Nothing is
 * pending. */
static void build(hp__ncu_fold *fo, size_t width)
{
  size_t i;
  uint8_t st;

  fo->width = width;
  fo->nlive = 0;
  fo->maxmid = 0;
  for (i = 0; i < fo->ncols; i++) {
    /* Real ncu raw pages hold text-valued columns too (device__attribute_display_name
     * "NVIDIA H200", launch__func_cache_config "CachePreferNone"), as the details page does:
     * they are attributes, not numbers to sum, so they are skipped without a warning. */
    st = fo->st[i] & (uint8_t)~ST_LIVE;
    fo->since[i] = 0;
    if (i < width && (st & ST_METRIC) && (st & ST_NUM)) {
      st |= ST_LIVE;
      fo->live[fo->nlive++] = (uint32_t)i;
      if ((uint32_t)fo->mids[i] + 1 > fo->maxmid)
        fo->maxmid = (uint32_t)fo->mids[i] + 1;
    }
    fo->st[i] = st;
  }
}

/* Column i's field parsed: hp__parse_num's answer k and value v. Returns 1 when the column's
 * number turned to text or back (the live columns must then be chosen again), else 0. In the
 * counting mode a live column's sum first takes its old value for the rows it was counted. */
static inline unsigned set_col(hp__ncu_fold *fo, size_t i, int k, double v)
{
  unsigned num = k > 0, st = fo->st[i];

  if (!fo->dense && (st & ST_LIVE)) {
    fo->sum[i] = copies(fo->sum[i], fo->add[i], fo->rows - fo->since[i]);
    fo->since[i] = fo->rows;
  }
  fo->st[i] = (uint8_t)((st & ~(unsigned)ST_NUM) | (num ? ST_NUM : 0));
  fo->add[i] = num ? v : -0.0;
  return ((st / ST_LIVE) & 1) ^ num;
}

/* ---------------------------------------------------------------------------------------------- */
/* A row's sums. */

/* sum[0..n) += add[0..n): one addition per column, each rounded on its own as hp__ncu_add's. */
static void add_portable(double *sum, const double *add, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    sum[i] += add[i];
}

#if HP__HAVE_AVX2
/* sum[i..i+4) += add[i..i+4). */
#define ADD4(sum, add, i)                                                                          \
  _mm256_storeu_pd((sum) + (i),                                                                    \
                   _mm256_add_pd(_mm256_loadu_pd((sum) + (i)), _mm256_loadu_pd((add) + (i))))

static HP__AVX2 void add_avx2(double *sum, const double *add, size_t n)
{
  size_t i = 0;

  /* Sixteen columns a turn (a row has hundreds), then four. */
  for (; i + 16 <= n; i += 16) {
    ADD4(sum, add, i);
    ADD4(sum, add, i + 4);
    ADD4(sum, add, i + 8);
    ADD4(sum, add, i + 12);
  }
  for (; i + 4 <= n; i += 4)
    ADD4(sum, add, i);
  /* The rest is not VEX-encoded code: the upper halves of the ymm registers must not be left
   * dirty. */
  _mm256_zeroupper();
  add_portable(sum + i, add + i, n - i);
}
#endif

/* One row of kernel kid: every live column's number added to its sum (the running sums, or, where
 * two columns share a metric id, the kernel's sums column by column). 0 or HP_ENOMEM. */
static int add_row(hp__ncu_fold *fo, hp_profile *p, uint32_t kid)
{
  size_t j;
  uint32_t c;

  if (fo->dup) {
    for (j = 0; j < fo->nlive; j++) {
      c = fo->live[j];
      if (hp__ncu_add(p, kid, (uint32_t)fo->mids[c], fo->add[c]))
        return HP_ENOMEM;
    }
    return 0;
  }
  if (!fo->pending && open_sums(fo, p, kid))
    return HP_ENOMEM;
  fo->pending = 1;
  fo->kid = kid;
  fo->rows++;
  if (!fo->dense)
    return 0;
#if HP__HAVE_AVX2
  if (fo->avx2) {
    add_avx2(fo->sum, fo->add, fo->width);
    return 0;
  }
#endif
  add_portable(fo->sum, fo->add, fo->width);
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* A row's changed fields. */

/* Parses changed fields j0..j1-1 of chg (a field not listed is not read), one at a time. Returns
 * 1 when the live columns must be chosen again (a field turned from a number into text or back),
 * else 0. */
static unsigned update(hp__ncu_fold *fo, const hp__ncu_chg *chg, size_t j0, size_t j1)
{
  size_t j, i;
  unsigned rebuild = 0;
  double v;
  int k;

  for (j = j0; j < j1; j++) {
    if (!(fo->st[i = chg->f[j].col] & ST_METRIC))
      continue;
    k = hp__parse_num(chg->base + chg->f[j].off, chg->f[j].len, &v);
    rebuild |= set_col(fo, i, k, v);
  }
  return rebuild;
}

#if HP__HAVE_AVX2
/* The common case of update_avx2, from changed field c on: a live column whose field is still a
 * number that hp__ncu_num16_m reads only takes its new value (in the dense mode: `live` is then
 * that column's state, else 0, which no metric column's state is), and a column that is no metric
 * is passed over. Returns the first field that needs more (end: none). It calls nothing and is
 * not inlined, so that its pointers and constants stay in registers from field to field. */
static __attribute__((noinline)) HP__AVX2 const hp__ncu_cf *update_fast(const hp__ncu_cf *c,
                                                                        const hp__ncu_cf *end,
                                                                        const char *base,
                                                                        const uint8_t *st,
                                                                        double *add, unsigned live)
{
  double m, div;

  for (; c < end; c++) {
    if (!(st[c->col] & ST_METRIC))
      continue;
    if (st[c->col] != live || !hp__ncu_num16_m(base + c->off, c->len, &m, &div))
      break;
    add[c->col] = m / div;
  }
  return c;
}

/* update() of changed fields 0..j1-1, whose 16 bytes lie before the line's end, on AVX2 CPUs:
 * hp__ncu_num16. The common case runs in update_fast; anything else goes through set_col. */
static HP__AVX2 unsigned update_avx2(hp__ncu_fold *fo, const hp__ncu_chg *chg, size_t j1)
{
  const hp__ncu_cf *c = chg->f, *end = chg->f + j1;
  unsigned rebuild = 0, live = fo->dense ? ST_METRIC | ST_NUM | ST_LIVE : 0;
  double v;
  int k;

  while ((c = update_fast(c, end, chg->base, fo->st, fo->add, live)) < end) {
    k = hp__ncu_num16(chg->base + c->off, c->len, &v);
    rebuild |= set_col(fo, c->col, k, v);
    c++;
  }
  return rebuild;
}
#endif

/* Parses the changed fields below `width`: where the CPU has AVX2 (util/sys/cpu.h), those whose 16
 * bytes lie before the line's end with update_avx2, the rest with update. */
static unsigned update_any(hp__ncu_fold *fo, size_t width, const hp__ncu_chg *chg)
{
  size_t n = chg->n, fast = 0;

  /* The list is in column order, so in the line's order too: the entries past the width, and those
   * too near the line's end for a 16-byte read, are the last ones. */
  while (n > 0 && chg->f[n - 1].col >= width)
    n--;
#if HP__HAVE_AVX2
  if (fo->avx2 && chg->lim != NULL) {
    for (fast = n;
         fast > 0 && (uintptr_t)(chg->base + chg->f[fast - 1].off) + 16 > (uintptr_t)chg->lim;
         fast--)
      ;
    return update_avx2(fo, chg, fast) | update(fo, chg, fast, n);
  }
#endif
  return update(fo, chg, fast, n);
}

/* Sums every row (dense) where many fields change, else counts the rows a value lasts and adds them
 * when it changes (see ncu_fold.h). */
static void set_mode(hp__ncu_fold *fo, int dense)
{
  size_t j;

  if (dense == fo->dense)
    return;
  if (fo->dense)
    for (j = 0; j < fo->nlive; j++)
      fo->since[fo->live[j]] = fo->rows;
  else
    catch_up(fo);
  fo->dense = dense;
}

int hp__ncu_fold_row(hp__ncu_fold *fo, hp_profile *p, uint32_t kid, const hp__csv_rec *rec,
                     size_t width, const hp__ncu_chg *chg)
{
  size_t i;
  double v;
  int k;

  if (fo->pending && fo->kid != kid && hp__ncu_fold_flush(fo, p))
    return HP_ENOMEM;
  set_mode(fo, chg == NULL || chg->n * 8 >= width);
  if (chg == NULL || fo->width != width) {
    if (hp__ncu_fold_flush(fo, p))
      return HP_ENOMEM;
    for (i = 0; i < width; i++)
      if (fo->st[i] & ST_METRIC) {
        k = hp__parse_num(rec->f[i], rec->len[i], &v);
        set_col(fo, i, k, v);
      }
    build(fo, width);
  } else if (update_any(fo, width, chg)) {
    /* The rows before this one go into the kernel's sums with the old live columns. */
    if (hp__ncu_fold_flush(fo, p))
      return HP_ENOMEM;
    build(fo, width);
  }
  return add_row(fo, p, kid);
}

int hp__ncu_fold_value(const hp__ncu_fold *fo, size_t i, double *v)
{
  if (i >= fo->width || (fo->st[i] & (ST_METRIC | ST_NUM)) != (ST_METRIC | ST_NUM))
    return 0;
  *v = fo->add[i];
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
