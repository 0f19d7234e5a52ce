/*
 * Building a profile (see build.h): the accumulators each parser folds its rows into. Every name is
 * interned once per table, and the arrays indexed by its id grow with the table, so a row costs a
 * lookup and a few additions whatever the file's size. Also what hp_profile_add_path does after the
 * parsers: recording the files read and sorting the kernel table.
 */
#include "profile/model/build.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Time tables.                                                                                    */

int hp__ttable_get(hp__ttable *t, const char *name, size_t n, hp__tstat **out)
{
  uint32_t id;
  int r = hp__strtab_intern(&t->names, name, n, hp__hash(name, n), &id);

  if (r < 0)
    return r;
  if (r == 1) {
    if (hp__grow((void **)&t->st, &t->cap, (size_t)id + 1, sizeof(*t->st)))
      return HP_ENOMEM;
    t->st[id].avg_reported = NAN;
  }
  *out = &t->st[id];
  return 0;
}

long long hp__calls_add(long long a, long long b)
{
  long long r;

  /* A profiler's count is read as it was printed, so a hostile or corrupt file can hold counts
   * whose sum does not fit: wrapping would be undefined behaviour and print a negative count. */
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? LLONG_MAX : LLONG_MIN;
  return r;
}

void hp__tstat_add_stats(hp__tstat *s, long long calls, double total_ns, double avg_ns,
                         double min_ns, double max_ns)
{
  /* The profiler's own average is what it printed; it is kept only while nothing was merged into
   * the entry, because a merged average must come from the merged totals. */
  s->avg_reported = s->nsources == 0 ? avg_ns : NAN;
  s->nsources++;
  s->calls = hp__calls_add(s->calls, calls);
  s->total_ns += total_ns;
  if (isnan(min_ns) || isnan(max_ns)) {
    s->nominmax++;
    return;
  }
  s->min_ns = s->have_minmax && s->min_ns < min_ns ? s->min_ns : min_ns;
  s->max_ns = s->have_minmax && s->max_ns > max_ns ? s->max_ns : max_ns;
  s->have_minmax = 1;
}

void hp__tstat_add_trace(hp__tstat *s, double dur_ns, unsigned file)
{
  if (s->nsources == 0 || s->last_file != file) {
    s->nsources++;
    s->last_file = file;
    s->avg_reported = NAN;
  }
  s->calls = hp__calls_add(s->calls, 1);
  s->total_ns += dur_ns;
  s->min_ns = s->have_minmax && s->min_ns < dur_ns ? s->min_ns : dur_ns;
  s->max_ns = s->have_minmax && s->max_ns > dur_ns ? s->max_ns : dur_ns;
  s->have_minmax = 1;
}

unsigned hp__table_bit(int table)
{
  switch (table) {
  case HP__T_API: return HP__TB_API;
  case HP__T_HSA: return HP__TB_HSA;
  case HP__T_COPY: return HP__TB_COPY;
  case HP__T_CPU: return HP__TB_CPU;
  default: return HP__TB_KERNEL;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* The other tables.                                                                               */

/* The order that picks the kept values: numbers (by value, equal values by text) before other
 * text (bytewise). It is a total order, so "the HP__MAX_VALS smallest" is one set whatever order
 * the rows come in; the writers still show the kept values in their own order (tables.c). */
static int vals_cmp(double ka, const char *a, size_t an, double kb, const char *b, size_t bn)
{
  int c;

  if (isnan(ka) != isnan(kb))
    return isnan(ka) ? 1 : -1;
  if (!isnan(ka) && ka != kb)
    return ka < kb ? -1 : 1;
  c = memcmp(a, b, an < bn ? an : bn);
  if (c == 0 && an != bn)
    c = an < bn ? -1 : 1;
  return c;
}

int hp__vals_addn(hp__vals *v, const char *s, size_t n, long long rows)
{
  size_t i, imax = 0;
  double key;
  char *copy;

  hp__trim(&s, &n);
  if (n == 0)
    return 0;
  for (i = 0; i < v->n; i++)
    if (v->len[i] == n && memcmp(v->v[i], s, n) == 0) {
      v->cnt[i] += rows;
      return 0;
    }
  if (hp__parse_num(s, n, &key) != 1)
    key = NAN;
  if (v->n == HP__MAX_VALS) {
    /* Full: the value replaces the largest kept one if it is smaller, else its rows are "more". */
    for (i = 1; i < v->n; i++)
      if (vals_cmp(v->key[i], v->v[i], v->len[i], v->key[imax], v->v[imax], v->len[imax]) > 0)
        imax = i;
    if (vals_cmp(key, s, n, v->key[imax], v->v[imax], v->len[imax]) > 0) {
      v->more += rows;
      return 0;
    }
  } else
    imax = v->n;
  if ((copy = hp__strndup(s, n)) == NULL)
    return HP_ENOMEM;
  if (imax < v->n) {
    v->more += v->cnt[imax];
    free(v->v[imax]);
  } else
    v->n++;
  v->v[imax] = copy;
  v->len[imax] = n;
  v->cnt[imax] = rows;
  v->key[imax] = key;
  return 0;
}

int hp__vals_add(hp__vals *v, const char *s, size_t n)
{
  return hp__vals_addn(v, s, n, 1);
}

int hp__pmc_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id)
{
  int r = hp__strtab_intern(&p->pmc_names, name, n, hp__hash(name, n), id);

  if (r == 1 && hp__grow((void **)&p->pmc, &p->pmc_cap, (size_t)*id + 1, sizeof(*p->pmc)))
    return HP_ENOMEM;
  if (r == 1) {
    p->pmc[*id].tmin = INFINITY;
    p->pmc[*id].tmax = -INFINITY;
  }
  return r < 0 ? r : 0;
}

/* Counter names lose their instance suffix: TCC_HIT[3] is summed into TCC_HIT. */
int hp__pmc_counter(hp_profile *p, const char *name, size_t n, uint32_t *id)
{
  int r;

  hp__trim(&name, &n);
  if (n > 2 && name[n - 1] == ']') {
    size_t k = n - 1;
    while (k > 0 && isdigit((unsigned char)name[k - 1]))
      k--;
    if (k > 0 && k < n - 1 && name[k - 1] == '[')
      n = k - 1;
  }
  r = hp__strtab_intern(&p->counters, name, n, hp__hash(name, n), id);
  return r < 0 ? r : 0;
}

/* Grows a pair of parallel per-id accumulators (sums and counts) so that index `id` exists. Both
 * arrays are zero-filled; *ncap is the capacity they share. HP_ENOMEM leaves *ncap as it was. */
static int grow_sums(double **sum, long long **cnt, size_t *ncap, uint32_t id)
{
  size_t cap = *ncap, cap2 = *ncap;

  if (id < *ncap)
    return 0;
  if (hp__grow((void **)sum, &cap, (size_t)id + 1, sizeof(**sum)) ||
      hp__grow((void **)cnt, &cap2, (size_t)id + 1, sizeof(**cnt)))
    return HP_ENOMEM;
  *ncap = cap < cap2 ? cap : cap2;
  return 0;
}

int hp__pmc_add(hp_profile *p, uint32_t k, uint32_t cid, double v, int newrow)
{
  hp__pmc_kernel *pk = &p->pmc[k];

  if (grow_sums(&pk->csum, &pk->cn, &pk->ncap, cid))
    return HP_ENOMEM;
  pk->csum[cid] += v;
  pk->cn[cid] += newrow;
  return 0;
}

void hp__pmc_time(hp__pmc_kernel *k, double ns)
{
  k->tn++;
  k->tsum += ns;
  if (ns < k->tmin)
    k->tmin = ns;
  if (ns > k->tmax)
    k->tmax = ns;
}

int hp__stack_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id)
{
  int r = hp__strtab_intern(&p->stk_names, name, n, hp__hash(name, n), id);

  if (r == 1 && hp__grow((void **)&p->stk, &p->stk_cap, (size_t)*id + 1, sizeof(*p->stk)))
    return HP_ENOMEM;
  return r < 0 ? r : 0;
}

int hp__stack_origin(hp_profile *p, uint32_t k, const char *frame, long long first_row)
{
  hp__stack_kernel *sk = &p->stk[k];
  size_t i;

  sk->launches++;
  for (i = 0; i < sk->no; i++) {
    if (strcmp(sk->o[i].frame, frame) == 0) {
      sk->o[i].n++;
      if (first_row < sk->o[i].first)
        sk->o[i].first = first_row;
      return 0;
    }
  }
  if (hp__grow((void **)&sk->o, &sk->ocap, sk->no + 1, sizeof(*sk->o)))
    return HP_ENOMEM;
  sk->o[sk->no].frame = hp__strdup(frame);
  if (sk->o[sk->no].frame == NULL)
    return HP_ENOMEM;
  sk->o[sk->no].n = 1;
  sk->o[sk->no].first = first_row;
  sk->no++;
  return 0;
}

int hp__ncu_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id)
{
  int r = hp__strtab_intern(&p->ncu_names, name, n, hp__hash(name, n), id);

  if (r == 1 && hp__grow((void **)&p->ncu, &p->ncu_cap, (size_t)*id + 1, sizeof(*p->ncu)))
    return HP_ENOMEM;
  return r < 0 ? r : 0;
}

int hp__ncu_metric(hp_profile *p, const char *name, size_t n, const char *unit, size_t un,
                   uint32_t *id)
{
  hp__buf key = HP__BUF_INIT;
  int r;

  /* One metric may come in different units (ncu's auto units, or files from several runs): the
   * key is name and unit, so values in different units are never summed together. */
  hp__trim(&name, &n);
  if (unit)
    hp__trim(&unit, &un);
  else
    un = 0;
  if (hp__buf_add(&key, name, n) || hp__buf_addc(&key, '\x1f') ||
      (un && hp__buf_add(&key, unit, un))) {
    hp__buf_free(&key);
    return HP_ENOMEM;
  }
  r = hp__strtab_intern(&p->metrics, key.data, key.len, hp__hash(key.data, key.len), id);
  hp__buf_free(&key);
  if (r < 0)
    return r;
  if (hp__grow((void **)&p->metric_unit, &p->metric_unit_cap, (size_t)*id + 1,
               sizeof(*p->metric_unit)))
    return HP_ENOMEM;
  if (r == 1 && un > 0 && (p->metric_unit[*id] = hp__strndup(unit, un)) == NULL)
    return HP_ENOMEM;
  if (hp__grow((void **)&p->metric_class, &p->metric_class_cap, (size_t)*id + 1,
               sizeof(*p->metric_class)))
    return HP_ENOMEM;
  if (r == 1)
    p->metric_class[*id] = (unsigned char)hp__ncu_metric_class(name, n);
  return 0;
}

size_t hp__ncu_metric_name(const hp_profile *p, uint32_t id, const char **name)
{
  const char *s = p->metrics.s[id], *sep = memchr(s, '\x1f', p->metrics.len[id]);

  *name = s;
  return sep ? (size_t)(sep - s) : p->metrics.len[id];
}

int hp__ncu_add(hp_profile *p, uint32_t k, uint32_t mid, double v)
{
  hp__ncu_kernel *nk = &p->ncu[k];

  if (grow_sums(&nk->msum, &nk->mn, &nk->ncap, mid))
    return HP_ENOMEM;
  nk->msum[mid] += v;
  nk->mn[mid]++;
  return 0;
}

int hp__ncu_room(hp_profile *p, uint32_t k, uint32_t mid)
{
  hp__ncu_kernel *nk = &p->ncu[k];

  return grow_sums(&nk->msum, &nk->mn, &nk->ncap, mid) ? HP_ENOMEM : 0;
}

#define LEAKS_MAX 1000

int hp__leak_add(hp_profile *p, const char *file, long long line, const char *scope, size_t sn,
                 double bytes, const char *text, size_t tn)
{
  hp__leak *l;

  if (p->nleaks >= LEAKS_MAX) {
    p->leaks_dropped++;
    return 0;
  }
  if (hp__grow((void **)&p->leaks, &p->leak_cap, p->nleaks + 1, sizeof(*p->leaks)))
    return HP_ENOMEM;
  l = &p->leaks[p->nleaks];
  l->file = hp__strdup(file);
  l->scope = hp__strndup(scope, sn);
  l->text = hp__strndup(text, tn);
  l->line = line;
  l->bytes = bytes;
  if (l->file == NULL || l->scope == NULL || l->text == NULL) {
    free(l->file);
    free(l->scope);
    free(l->text);
    memset(l, 0, sizeof(*l));
    return HP_ENOMEM;
  }
  p->nleaks++;
  return 0;
}

static int streq0(const char *a, const char *b)
{
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

int hp__agent_add(hp_profile *p, const char *type, const char *name, const char *product,
                  long long wave, long long cus)
{
  hp__agent *a;
  size_t i;

  /* Every pass of a multi-pass run writes the same agents: keep each one once. */
  for (i = 0; i < p->nagents; i++) {
    a = &p->agents[i];
    if (streq0(a->type, type) && streq0(a->name, name) && streq0(a->product, product) &&
        a->wave_size == wave && a->cu_count == cus)
      return 0;
  }
  if (p->nagents >= 256)
    return 0;
  if (hp__grow((void **)&p->agents, &p->agent_cap, p->nagents + 1, sizeof(*p->agents)))
    return HP_ENOMEM;
  a = &p->agents[p->nagents];
  a->type = type ? hp__strdup(type) : NULL;
  a->name = name ? hp__strdup(name) : NULL;
  a->product = product ? hp__strdup(product) : NULL;
  a->wave_size = wave;
  a->cu_count = cus;
  if ((type && !a->type) || (name && !a->name) || (product && !a->product)) {
    free(a->type);
    free(a->name);
    free(a->product);
    memset(a, 0, sizeof(*a));
    return HP_ENOMEM;
  }
  p->nagents++;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* After the parsers.                                                                              */

int hp__profile_add_file(hp_profile *p, const char *path, const char *format, unsigned tables)
{
  if (hp__grow((void **)&p->files, &p->file_cap, p->nfiles + 1, sizeof(*p->files)))
    return HP_ENOMEM;
  if ((p->files[p->nfiles].path = hp__strdup(path)) == NULL)
    return HP_ENOMEM;
  p->files[p->nfiles].format = format;
  p->files[p->nfiles].tables = tables;
  p->nfiles++;
  return 0;
}

int hp__profile_sort_kernels(hp_profile *p)
{
  size_t *ids, i;

  if (hp__ttable_sorted(&p->t[HP__T_KERNEL], &ids))
    return HP_ENOMEM;
  free(p->korder);
  p->korder = ids;
  p->nkorder = p->t[HP__T_KERNEL].names.n;
  p->ktotal = 0;
  for (i = 0; i < p->nkorder; i++)
    p->ktotal += p->t[HP__T_KERNEL].st[i].total_ns;
  /* The default category set follows what was read (lib/profile/model/catsets.c). */
  return hp__profile_pick_catset(p);
}
