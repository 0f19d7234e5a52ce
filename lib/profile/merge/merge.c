/*
 * Merging one profile into another (merge.h): the per-table rules of docs/internals/merge.md.
 *
 * Every table is keyed by interned names whose ids follow the order of first appearance. Merging
 * walks the source's names in id order and interns each in the destination, so a name new to the
 * destination gets the id one pass over both files would have given it; row orders that break
 * ties by id (tables_kernel.c) stay the same. Counts add; minima and maxima combine; what one pass
 * kept "first" (a kernel's first block size, a sanitizer kind's first example) is the
 * destination's when it has one. Row numbers of the source (stack origins' first rows) are shifted
 * by the destination's rows, so "earliest" still means earliest over every file. The sanitizer
 * report and the other lists are merged in merge_lists.c.
 */
#include "profile/merge/merge.h"
#include "profile/model/build.h"
#include "profile/model/strtab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Sums.                                                                                           */

void hp__csum_add(double *s, double *c, double x)
{
  double t = *s + x;

  /* Once the sum is not finite, the compensation would only turn it into NaN: leave it. */
  if (isfinite(t))
    *c += fabs(*s) >= fabs(x) ? (*s - t) + x : (x - t) + *s;
  *s = t;
}

double hp__csum_value(double s, double c)
{
  return isfinite(s) ? s + c : s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Time tables.                                                                                    */

/* `fileoff`: what src's file numbers are in dst's numbering; `cont`: src's first file is dst's
 * last one going on (a range of a split file), so an entry both fed from it is one source. */
static void tstat_merge(hp__tstat *a, const hp__tstat *b, unsigned fileoff, int cont)
{
  int same = cont && a->nsources > 0 && b->nsources > 0 && a->last_file == b->last_file + fileoff;

  /* The profiler's own average survives only while one source fed the entry (build.c). */
  if (a->nsources > 0)
    a->avg_reported = b->nsources > 0 ? NAN : a->avg_reported;
  else
    a->avg_reported = b->avg_reported;
  if (b->nsources > 0)
    a->last_file = b->last_file + fileoff;
  a->nsources += b->nsources - same;
  a->calls = hp__calls_add(a->calls, b->calls);
  hp__csum_add(&a->total_ns, &a->total_c, b->total_ns);
  a->total_c += b->total_c;
  a->nominmax += b->nominmax;
  if (b->have_minmax) {
    a->min_ns = a->have_minmax && a->min_ns < b->min_ns ? a->min_ns : b->min_ns;
    a->max_ns = a->have_minmax && a->max_ns > b->max_ns ? a->max_ns : b->max_ns;
    a->have_minmax = 1;
  }
}

static int ttable_merge(hp__ttable *d, const hp__ttable *s, unsigned fileoff, int cont)
{
  hp__tstat *a;
  size_t i;

  for (i = 0; i < s->names.n; i++) {
    if (hp__ttable_get(d, s->names.s[i], s->names.len[i], &a))
      return HP_ENOMEM;
    tstat_merge(a, &s->st[i], fileoff, cont);
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Per-id sums (PMC counters, ncu metrics).                                                        */

/* Grows the sums, counts and compensations of one kernel so that index `id` exists. */
static int grow3(double **sum, long long **cnt, size_t *ncap, double **comp, size_t *ccap,
                 size_t id)
{
  size_t cap = *ncap, cap2 = *ncap;

  if (id >= *ncap) {
    if (hp__grow((void **)sum, &cap, id + 1, sizeof(**sum)) ||
        hp__grow((void **)cnt, &cap2, id + 1, sizeof(**cnt)))
      return HP_ENOMEM;
    *ncap = cap < cap2 ? cap : cap2;
  }
  return hp__grow((void **)comp, ccap, id + 1, sizeof(**comp));
}

/* Adds the source's sums[0..n) and counts under the ids map[] of the destination. */
static int sums_merge(double **sum, long long **cnt, size_t *ncap, double **comp, size_t *ccap,
                      const double *bs, const long long *bn, size_t n, const uint32_t *map)
{
  size_t i;

  for (i = 0; i < n; i++) {
    if (bn[i] == 0 && bs[i] == 0)
      continue;
    if (grow3(sum, cnt, ncap, comp, ccap, map[i]))
      return HP_ENOMEM;
    hp__csum_add(&(*sum)[map[i]], &(*comp)[map[i]], bs[i]);
    (*cnt)[map[i]] += bn[i];
  }
  return 0;
}

static void sums_end(double *sum, double *comp, size_t n)
{
  size_t i;

  for (i = 0; i < n && comp; i++) {
    sum[i] = hp__csum_value(sum[i], comp[i]);
    comp[i] = 0;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* PMC.                                                                                            */

static int pmc_kernel_merge(hp__pmc_kernel *a, const hp__pmc_kernel *b, const uint32_t *cmap,
                            size_t ncounters)
{
  size_t i;

  a->records += b->records;
  a->dispatches += b->dispatches;
  for (i = 0; i < HP__P_N; i++)
    if (hp__vals_merge(&a->props[i], &b->props[i]))
      return HP_ENOMEM;
  a->tn += b->tn;
  hp__csum_add(&a->tsum, &a->tsum_c, b->tsum);
  a->tmin = b->tmin < a->tmin ? b->tmin : a->tmin;
  a->tmax = b->tmax > a->tmax ? b->tmax : a->tmax;
  return sums_merge(&a->csum, &a->cn, &a->ncap, &a->csum_c, &a->c_cap, b->csum, b->cn,
                    b->ncap < ncounters ? b->ncap : ncounters, cmap);
}

static int pmc_merge(hp_profile *d, const hp_profile *s)
{
  uint32_t *cmap = malloc((s->counters.n ? s->counters.n : 1) * sizeof(*cmap)), id;
  size_t i;
  int r = HP_ENOMEM;

  if (cmap == NULL)
    return HP_ENOMEM;
  /* Counter names first, all of them in the source's order: their ids are the columns' order. */
  for (i = 0; i < s->counters.n; i++)
    if (hp__pmc_counter(d, s->counters.s[i], s->counters.len[i], &cmap[i]))
      goto fail;
  for (i = 0; i < s->pmc_names.n; i++) {
    if (hp__pmc_kernel_get(d, s->pmc_names.s[i], s->pmc_names.len[i], &id) ||
        pmc_kernel_merge(&d->pmc[id], &s->pmc[i], cmap, s->counters.n))
      goto fail;
  }
  r = 0;

fail:
  free(cmap);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Kernel stacks.                                                                                  */

static int stack_merge(hp_profile *d, const hp_profile *s, long long rowoff)
{
  size_t i, k;
  uint32_t id;

  for (i = 0; i < s->stk_names.n; i++) {
    const hp__stack_kernel *b = &s->stk[i];
    long long launches;
    if (hp__stack_kernel_get(d, s->stk_names.s[i], s->stk_names.len[i], &id))
      return HP_ENOMEM;
    /* hp__stack_origin counts one launch per call; the source's own count is set below. */
    launches = d->stk[id].launches;
    for (k = 0; k < b->no; k++) {
      const hp__origin *o = &b->o[k];
      hp__stack_kernel *a = &d->stk[id];
      size_t j;
      for (j = 0; j < a->no && strcmp(a->o[j].frame, o->frame) != 0; j++)
        ;
      if (j == a->no) {
        /* A new frame: appended as its first launch in one pass would have appended it. */
        if (hp__stack_origin(d, id, o->frame, o->first + rowoff))
          return HP_ENOMEM;
        a->o[j].n = o->n;
      } else {
        a->o[j].n += o->n;
        if (o->first + rowoff < a->o[j].first)
          a->o[j].first = o->first + rowoff;
      }
    }
    d->stk[id].launches = launches + b->launches;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* ncu.                                                                                            */

/* Keeps the first block or grid size seen, and whether any launch differed from it. */
static int first_merge(char **a, int *avaries, const char *b, int bvaries)
{
  if (b == NULL)
    return 0;
  *avaries |= bvaries;
  if (*a == NULL)
    return (*a = hp__strdup(b)) == NULL ? HP_ENOMEM : 0;
  if (strcmp(*a, b) != 0)
    *avaries = 1;
  return 0;
}

static int ncu_metrics_map(hp_profile *d, const hp_profile *s, uint32_t *map)
{
  size_t i;

  for (i = 0; i < s->metrics.n; i++) {
    const char *key = s->metrics.s[i], *sep = memchr(key, '\x1f', s->metrics.len[i]);
    size_t n = sep ? (size_t)(sep - key) : s->metrics.len[i];
    size_t un = sep ? s->metrics.len[i] - n - 1 : 0;
    if (hp__ncu_metric(d, key, n, un ? sep + 1 : NULL, un, &map[i]))
      return HP_ENOMEM;
  }
  return 0;
}

static int ncu_merge(hp_profile *d, const hp_profile *s)
{
  uint32_t *map = malloc((s->metrics.n ? s->metrics.n : 1) * sizeof(*map)), id;
  size_t i;
  int r = HP_ENOMEM;

  if (map == NULL || ncu_metrics_map(d, s, map))
    goto fail;
  for (i = 0; i < s->ncu_names.n; i++) {
    const hp__ncu_kernel *b = &s->ncu[i];
    hp__ncu_kernel *a;
    if (hp__ncu_kernel_get(d, s->ncu_names.s[i], s->ncu_names.len[i], &id))
      goto fail;
    a = &d->ncu[id];
    a->launches += b->launches;
    if (first_merge(&a->block, &a->block_varies, b->block, b->block_varies) ||
        first_merge(&a->grid, &a->grid_varies, b->grid, b->grid_varies) ||
        sums_merge(&a->msum, &a->mn, &a->ncap, &a->msum_c, &a->c_cap, b->msum, b->mn,
                   b->ncap < s->metrics.n ? b->ncap : s->metrics.n, map))
      goto fail;
  }
  r = 0;

fail:
  free(map);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* The whole profile.                                                                              */

int hp__profile_new_like(const hp_profile *like, hp_profile **out)
{
  int r = hp_profile_new(out);

  if (r == 0 && like && like->nrt &&
      (r = hp_profile_set_runtime_frames(*out, (const char *const *)like->rt, like->nrt)) != 0) {
    hp_profile_free(*out);
    *out = NULL;
  }
  if (r == 0 && like && like->region_filter) { /* the spans are read-only while files are read */
    (*out)->region = like->region;
    (*out)->region_borrowed = 1;
    (*out)->region_filter = 1;
  }
  return r;
}

static int merge(hp_profile *dst, const hp_profile *src, int cont)
{
  long long rowoff = dst->rowseq;
  unsigned fileoff = dst->file_seq - (cont && dst->file_seq > 0);
  size_t i;

  for (i = 0; i < HP__T_N; i++)
    if (ttable_merge(&dst->t[i], &src->t[i], fileoff, cont))
      return HP_ENOMEM;
  if (pmc_merge(dst, src) || stack_merge(dst, src, rowoff) || ncu_merge(dst, src) ||
      hp__merge_lists(dst, src))
    return HP_ENOMEM;
  dst->rowseq += src->rowseq;
  dst->file_seq = fileoff + src->file_seq;
  dst->nignored += src->nignored;
  return 0;
}

int hp__profile_merge(hp_profile *dst, const hp_profile *src)
{
  return merge(dst, src, 0);
}

int hp__profile_merge_range(hp_profile *dst, const hp_profile *src)
{
  return merge(dst, src, 1);
}

void hp__profile_merge_end(hp_profile *p)
{
  size_t i, k;

  for (k = 0; k < HP__T_N; k++)
    for (i = 0; i < p->t[k].names.n; i++) {
      hp__tstat *s = &p->t[k].st[i];
      s->total_ns = hp__csum_value(s->total_ns, s->total_c);
      s->total_c = 0;
    }
  for (i = 0; i < p->pmc_names.n; i++) {
    hp__pmc_kernel *pk = &p->pmc[i];
    pk->tsum = hp__csum_value(pk->tsum, pk->tsum_c);
    pk->tsum_c = 0;
    sums_end(pk->csum, pk->csum_c, pk->c_cap < pk->ncap ? pk->c_cap : pk->ncap);
  }
  for (i = 0; i < p->ncu_names.n; i++)
    sums_end(p->ncu[i].msum, p->ncu[i].msum_c,
             p->ncu[i].c_cap < p->ncu[i].ncap ? p->ncu[i].c_cap : p->ncu[i].ncap);
}
