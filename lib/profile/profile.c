/*
 * The profile summary: what every profiler's files add up to.
 *
 * hp_profile_add_path finds the files (a folder is walked recursively in sorted order), tells what
 * each one is from its name and, failing that, its header, and hands it to the parser for its
 * format (lib/parse_*.c). The parsers fold rows into the tables kept here, keyed by interned names,
 * so memory depends on how many distinct kernels, APIs and counters there are, not on file sizes.
 * The writers are in lib/profile_out.c. Design notes: docs/internals/profile.md.
 */
#include "profile/profile.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/fsutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------------------------------------- */
/* Hashing and interning.                                                                          */

static uint64_t fmix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

uint64_t hp__hash(const void *data, size_t n)
{
  const unsigned char *p = data;
  uint64_t a = 0x243F6A8885A308D3ULL ^ (uint64_t)n, b = 0x13198A2E03707344ULL, v, w;

  /* Two independent lanes, so the multiplies of one overlap with the other's. */
  while (n >= 16) {
    memcpy(&v, p, 8);
    memcpy(&w, p + 8, 8);
    a = (a ^ v) * 0x9E3779B97F4A7C15ULL;
    b = (b ^ w) * 0xC2B2AE3D27D4EB4FULL;
    a ^= a >> 29;
    b ^= b >> 31;
    p += 16;
    n -= 16;
  }
  if (n >= 8) {
    memcpy(&v, p, 8);
    a = (a ^ v) * 0x9E3779B97F4A7C15ULL;
    a ^= a >> 29;
    p += 8;
    n -= 8;
  }
  v = 0;
  memcpy(&v, p, n);
  b = (b ^ v ^ ((uint64_t)n << 56)) * 0xC2B2AE3D27D4EB4FULL;
  return fmix(a ^ (b + 0x9E3779B97F4A7C15ULL));
}

static int strtab_rehash(hp__strtab *t, size_t nslots)
{
  hp__strtab_slot *ns = calloc(nslots, sizeof(*ns));
  size_t i, mask = nslots - 1;

  if (ns == NULL)
    return HP_ENOMEM;
  for (i = 0; i < t->n; i++) {
    uint64_t h = hp__hash(t->s[i], t->len[i]);
    size_t k = (size_t)h & mask;
    while (ns[k].id1)
      k = (k + 1) & mask;
    ns[k].id1 = (uint32_t)i + 1;
    ns[k].h32 = (uint32_t)(h >> 32);
  }
  free(t->slots);
  t->slots = ns;
  t->nslots = nslots;
  return 0;
}

long hp__strtab_find(const hp__strtab *t, const char *s, size_t n, uint64_t h)
{
  size_t k, mask;
  uint32_t h32 = (uint32_t)(h >> 32);

  if (t->nslots == 0)
    return -1;
  mask = t->nslots - 1;
  for (k = (size_t)h & mask; t->slots[k].id1; k = (k + 1) & mask) {
    uint32_t id = t->slots[k].id1 - 1;
    if (t->slots[k].h32 == h32 && t->len[id] == n && memcmp(t->s[id], s, n) == 0)
      return (long)id;
  }
  return -1;
}

int hp__strtab_intern(hp__strtab *t, const char *s, size_t n, uint64_t h, uint32_t *id)
{
  size_t k, mask;
  uint32_t h32 = (uint32_t)(h >> 32);
  char *copy;

  if ((t->n + 1) * 2 > t->nslots && strtab_rehash(t, t->nslots ? t->nslots * 2 : 16))
    return HP_ENOMEM;
  mask = t->nslots - 1;
  for (k = (size_t)h & mask; t->slots[k].id1; k = (k + 1) & mask) {
    uint32_t i = t->slots[k].id1 - 1;
    if (t->slots[k].h32 == h32 && t->len[i] == n && memcmp(t->s[i], s, n) == 0) {
      *id = i;
      return 0;
    }
  }
  if (t->n == t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 16;
    char **ns = realloc(t->s, ncap * sizeof(*ns));
    size_t *nl;
    if (ns == NULL)
      return HP_ENOMEM;
    t->s = ns;
    nl = realloc(t->len, ncap * sizeof(*nl));
    if (nl == NULL)
      return HP_ENOMEM;
    t->len = nl;
    t->cap = ncap;
  }
  copy = hp__strndup(s, n);
  if (copy == NULL)
    return HP_ENOMEM;
  t->s[t->n] = copy;
  t->len[t->n] = n;
  t->slots[k].id1 = (uint32_t)t->n + 1;
  t->slots[k].h32 = h32;
  *id = (uint32_t)t->n++;
  return 1;
}

void hp__strtab_free(hp__strtab *t)
{
  size_t i;

  if (t == NULL)
    return;
  for (i = 0; i < t->n; i++)
    free(t->s[i]);
  free(t->s);
  free(t->len);
  free(t->slots);
  memset(t, 0, sizeof(*t));
}

int hp__grow(void **p, size_t *cap, size_t need, size_t elem)
{
  size_t ncap;
  char *np;

  if (need <= *cap)
    return 0;
  ncap = *cap ? *cap : 8;
  while (ncap < need)
    ncap *= 2;
  np = realloc(*p, ncap * elem);
  if (np == NULL)
    return HP_ENOMEM;
  memset(np + *cap * elem, 0, (ncap - *cap) * elem);
  *p = np;
  *cap = ncap;
  return 0;
}

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

void hp__tstat_add_stats(hp__tstat *s, long long calls, double total_ns, double avg_ns,
                         double min_ns, double max_ns)
{
  /* The profiler's own average is what it printed; it is kept only while nothing was merged into
   * the entry, because a merged average must come from the merged totals. */
  s->avg_reported = s->nsources == 0 ? avg_ns : NAN;
  s->nsources++;
  s->calls += calls;
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
  s->calls++;
  s->total_ns += dur_ns;
  s->min_ns = s->have_minmax && s->min_ns < dur_ns ? s->min_ns : dur_ns;
  s->max_ns = s->have_minmax && s->max_ns > dur_ns ? s->max_ns : dur_ns;
  s->have_minmax = 1;
}

void hp__ttable_free(hp__ttable *t)
{
  hp__strtab_free(&t->names);
  free(t->st);
  t->st = NULL;
  t->cap = 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The recent-key window.                                                                          */

#define RECENT_DONE_MAX ((size_t)1 << 18)

void hp__recent_init(hp__recent *r, long long window, hp__recent_fin fin, void *ud)
{
  memset(r, 0, sizeof(*r));
  r->window = window > 0 ? window : 8192;
  r->next_sweep = r->window;
  r->fin = fin;
  r->ud = ud;
}

static uint64_t recent_hash(uint32_t kid, const char *key, size_t klen)
{
  uint64_t h = hp__hash(key, klen) ^ fmix((uint64_t)kid + 0x9E3779B97F4A7C15ULL);
  return h ? h : 1;
}

static void done_add(hp__recent *r, uint64_t h)
{
  size_t k, mask;

  if (r->done_n >= RECENT_DONE_MAX)
    return;
  if ((r->done_n + 1) * 2 > r->done_cap) {
    size_t ncap = r->done_cap ? r->done_cap * 2 : 1024, i;
    uint64_t *nd = calloc(ncap, sizeof(*nd));
    if (nd == NULL)
      return; /* only the reappearance check is weakened */
    for (i = 0; i < r->done_cap; i++) {
      if (r->done[i] == 0)
        continue;
      for (k = (size_t)r->done[i] & (ncap - 1); nd[k]; k = (k + 1) & (ncap - 1))
        ;
      nd[k] = r->done[i];
    }
    free(r->done);
    r->done = nd;
    r->done_cap = ncap;
  }
  mask = r->done_cap - 1;
  for (k = (size_t)h & mask; r->done[k]; k = (k + 1) & mask)
    if (r->done[k] == h)
      return;
  r->done[k] = h;
  r->done_n++;
}

static int done_has(const hp__recent *r, uint64_t h)
{
  size_t k, mask;

  if (r->done_cap == 0)
    return 0;
  mask = r->done_cap - 1;
  for (k = (size_t)h & mask; r->done[k]; k = (k + 1) & mask)
    if (r->done[k] == h)
      return 1;
  return 0;
}

static void recent_place(hp__recent_ent *tab, size_t cap, const hp__recent_ent *e)
{
  size_t k, mask = cap - 1;

  for (k = (size_t)e->h & mask; tab[k].h; k = (k + 1) & mask)
    ;
  tab[k] = *e;
}

/* Rebuilds the table with capacity `cap`, finishing every entry last touched before `cutoff`. */
static int recent_rebuild(hp__recent *r, size_t cap, long long cutoff)
{
  hp__recent_ent *nt = calloc(cap, sizeof(*nt));
  size_t i, n = 0;

  if (nt == NULL)
    return HP_ENOMEM;
  for (i = 0; i < r->cap; i++) {
    hp__recent_ent *e = &r->tab[i];
    if (e->h == 0)
      continue;
    if (e->last < cutoff) {
      if (r->fin)
        r->fin(r->ud, e);
      done_add(r, e->h);
      free(e->key);
      free(e->s);
      continue;
    }
    recent_place(nt, cap, e);
    n++;
  }
  free(r->tab);
  r->tab = nt;
  r->cap = cap;
  r->n = n;
  r->epoch++;
  return 0;
}

int hp__recent_touch(hp__recent *r, uint32_t kid, const char *key, size_t klen, long long row,
                     hp__recent_ent **out, int *added)
{
  uint64_t h = recent_hash(kid, key, klen);
  size_t k, mask;
  hp__recent_ent *e;

  if ((r->n + 1) * 2 > r->cap && recent_rebuild(r, r->cap ? r->cap * 2 : 256, LLONG_MIN))
    return HP_ENOMEM;
  mask = r->cap - 1;
  for (k = (size_t)h & mask; r->tab[k].h; k = (k + 1) & mask) {
    e = &r->tab[k];
    if (e->h == h && e->kid == kid && e->klen == klen && memcmp(e->key, key, klen) == 0) {
      e->last = row;
      *out = e;
      *added = 0;
      return 0;
    }
  }
  e = &r->tab[k];
  e->key = hp__strndup(key, klen);
  if (e->key == NULL)
    return HP_ENOMEM;
  e->h = h;
  e->kid = kid;
  e->klen = (uint32_t)klen;
  e->first = e->last = row;
  e->a = 0;
  e->s = NULL;
  e->flag = 0;
  r->n++;
  if (done_has(r, h))
    r->reappeared++;
  *out = e;
  *added = 1;
  return 0;
}

int hp__recent_tick(hp__recent *r, long long row)
{
  if (row < r->next_sweep)
    return 0;
  r->next_sweep = row + r->window;
  return recent_rebuild(r, r->cap ? r->cap : 256, row - r->window);
}

void hp__recent_finish(hp__recent *r)
{
  size_t i;

  /* Finished in row order of their first appearance would be nicer, but the results are sums and
   * counts, and ties between origins are broken by row numbers, so the order does not matter. */
  for (i = 0; i < r->cap; i++) {
    hp__recent_ent *e = &r->tab[i];
    if (e->h == 0)
      continue;
    if (r->fin)
      r->fin(r->ud, e);
    free(e->key);
    free(e->s);
  }
  free(r->tab);
  free(r->done);
  r->tab = NULL;
  r->done = NULL;
  r->cap = r->n = r->done_cap = r->done_n = 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The other tables.                                                                               */

int hp__vals_add(hp__vals *v, const char *s, size_t n)
{
  size_t i;

  hp__trim(&s, &n);
  if (n == 0)
    return 0;
  for (i = 0; i < v->n; i++)
    if (v->len[i] == n && memcmp(v->v[i], s, n) == 0)
      return 0;
  if (v->n == HP__MAX_VALS) {
    v->more++;
    return 0;
  }
  v->v[v->n] = hp__strndup(s, n);
  if (v->v[v->n] == NULL)
    return HP_ENOMEM;
  v->len[v->n++] = n;
  return 0;
}

static void vals_free(hp__vals *v)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    free(v->v[i]);
  v->n = 0;
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

#define LEAKS_MAX 1000

int hp__leak_add(hp_profile *p, const char *file, long line, const char *scope, size_t sn,
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
/* Stack frames.                                                                                   */

size_t hp__sanitize_frame(const char *s, size_t n, char *out, size_t cap)
{
  const char *cut, *slash;
  size_t i;

  /* Python's str.strip(): every ASCII whitespace character. */
  while (n > 0 && isspace((unsigned char)*s)) {
    s++;
    n--;
  }
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0) {
    s = "unknown";
    n = 7;
  }
  cut = memmem(s, n, " [", 2);
  if (cut)
    n = (size_t)(cut - s);
  slash = memrchr(s, '/', n);
  if (slash) {
    n -= (size_t)(slash + 1 - s);
    s = slash + 1;
  }
  if (n >= cap)
    n = cap - 1;
  for (i = 0; i < n; i++)
    out[i] = s[i];
  out[n] = '\0';
  return n;
}

int hp__is_runtime_frame(const hp_profile *p, const char *s, size_t n)
{
  char small[512], *low = small;
  size_t i;
  int r = 0;

  if (n >= sizeof(small) && (low = malloc(n + 1)) == NULL)
    return 0;
  for (i = 0; i < n; i++)
    low[i] = (char)tolower((unsigned char)s[i]);
  low[n] = '\0';
  for (i = 0; i < p->nrt && !r; i++) {
    const char *m = p->rt[i];
    if (m[0] == '^')
      r = strncmp(low, m + 1, strlen(m + 1)) == 0;
    else
      r = memmem(low, n, m, strlen(m)) != NULL;
  }
  if (low != small)
    free(low);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Categories and runtime markers.                                                                 */

/* The article's CATEGORY_RULES; configs/categories/pytorch.yaml holds the same (a test checks). */
static const char *const pat_vector_add[] = {"vector_add"};
static const char *const pat_direct_copy[] = {"direct_copy_kernel"};
static const char *const pat_softmax[] = {"softmax"};
static const char *const pat_add[] = {"cudafunctor_add", "addfunctor", "binary_internal::add"};
static const char *const pat_layernorm[] = {"layer_norm", "layernorm"};
static const char *const pat_gelu[] = {"gelu"};
static const char *const pat_roll[] = {"roll_cuda"};
static const char *const pat_gemm[] = {"cijk_", "gemm", "addmm"};
static const char *const pat_conv[] = {"conv3d", "convolution", "col_2_image"};
static const char *const pat_cat[] = {"catarray", "index_elementwise", "index_kernel"};

#define RULE(n, a)                                                                                 \
  {                                                                                                \
    n, a, sizeof(a) / sizeof(a[0])                                                                 \
  }
static const struct {
  const char *name;
  const char *const *pat;
  size_t npat;
} default_rules[] = {
    RULE("vector_add", pat_vector_add),
    RULE("direct_copy", pat_direct_copy),
    RULE("softmax", pat_softmax),
    RULE("add", pat_add),
    RULE("layernorm", pat_layernorm),
    RULE("gelu", pat_gelu),
    RULE("roll", pat_roll),
    RULE("gemm", pat_gemm),
    RULE("convolution", pat_conv),
    RULE("cat_or_index", pat_cat),
};

static const char *const default_runtime[] = {"^python(", "libgalaxy", "libamdhip", "libc.so",
                                              "libtorch", "libpython", "python3"};

static char *lower_dup(const char *s)
{
  char *d = hp__strdup(s), *q;

  if (d)
    for (q = d; *q; q++)
      *q = (char)tolower((unsigned char)*q);
  return d;
}

static void free_rules(hp__catrule *r, size_t n)
{
  size_t i, k;

  for (i = 0; i < n && r; i++) {
    free(r[i].name);
    for (k = 0; k < r[i].npat; k++)
      free(r[i].pat[k]);
    free(r[i].pat);
  }
  free(r);
}

/* Builds lowercased rules from (name, patterns) given either way; nothing is kept from the input. */
static int build_rules(hp__catrule **out, size_t n, const hp_category_rule *user)
{
  hp__catrule *r = calloc(n ? n : 1, sizeof(*r));
  size_t i, k;

  *out = NULL;
  if (r == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++) {
    const char *name = user ? user[i].name : default_rules[i].name;
    size_t np = user ? user[i].patterns.n : default_rules[i].npat;
    r[i].name = hp__strdup(name ? name : "unnamed");
    r[i].pat = calloc(np ? np : 1, sizeof(char *));
    if (r[i].name == NULL || r[i].pat == NULL)
      goto fail;
    for (k = 0; k < np; k++) {
      const char *pt = user ? user[i].patterns.v[k] : default_rules[i].pat[k];
      if ((r[i].pat[k] = lower_dup(pt ? pt : "")) == NULL)
        goto fail;
      r[i].npat++;
    }
  }
  *out = r;
  return 0;

fail:
  free_rules(r, n);
  return HP_ENOMEM;
}

int hp_profile_set_categories(hp_profile *p, const hp_category_rule *r, size_t n)
{
  hp__catrule *nr;
  int e;

  if (p == NULL)
    return HP_EINVAL;
  if (r == NULL || n == 0) {
    r = NULL;
    n = sizeof(default_rules) / sizeof(default_rules[0]);
  }
  if ((e = build_rules(&nr, n, r)) != 0)
    return e;
  free_rules(p->cats, p->ncats);
  p->cats = nr;
  p->ncats = n;
  return 0;
}

int hp_profile_set_runtime_frames(hp_profile *p, const char *const *markers, size_t n)
{
  char **nr;
  size_t i;

  if (p == NULL)
    return HP_EINVAL;
  if (markers == NULL || n == 0) {
    markers = default_runtime;
    n = sizeof(default_runtime) / sizeof(default_runtime[0]);
  }
  nr = calloc(n, sizeof(*nr));
  if (nr == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++) {
    if ((nr[i] = lower_dup(markers[i] ? markers[i] : "")) == NULL) {
      while (i--)
        free(nr[i]);
      free(nr);
      return HP_ENOMEM;
    }
  }
  for (i = 0; i < p->nrt; i++)
    free(p->rt[i]);
  free(p->rt);
  p->rt = nr;
  p->nrt = n;
  /* Cached verdicts were made with the old markers. */
  hp__strtab_free(&p->frame_cache);
  free(p->frame_rt);
  p->frame_rt = NULL;
  p->frame_rt_cap = 0;
  return 0;
}

const char *hp__profile_classify(const hp_profile *p, const char *name)
{
  char small[1024], *low = small;
  size_t n = strlen(name), i, k;
  const char *res = NULL;

  if (n >= sizeof(small) && (low = malloc(n + 1)) == NULL)
    return "other";
  for (i = 0; i <= n; i++)
    low[i] = (char)tolower((unsigned char)name[i]);
  for (i = 0; i < p->ncats && res == NULL; i++)
    for (k = 0; k < p->cats[i].npat; k++)
      if (strstr(low, p->cats[i].pat[k])) {
        res = p->cats[i].name;
        break;
      }
  if (low != small)
    free(low);
  return res ? res : "other";
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation and destruction.                                                                       */

int hp_profile_new(hp_profile **out)
{
  hp_profile *p;

  *out = NULL;
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return HP_ENOMEM;
  if (hp_profile_set_categories(p, NULL, 0) || hp_profile_set_runtime_frames(p, NULL, 0)) {
    hp_profile_free(p);
    return HP_ENOMEM;
  }
  *out = p;
  return 0;
}

void hp_profile_free(hp_profile *p)
{
  size_t i, k;

  if (p == NULL)
    return;
  for (i = 0; i < HP__T_N; i++)
    hp__ttable_free(&p->t[i]);
  free(p->korder);
  free_rules(p->cats, p->ncats);
  for (i = 0; i < p->nrt; i++)
    free(p->rt[i]);
  free(p->rt);
  for (i = 0; i < p->stk_names.n; i++) {
    for (k = 0; k < p->stk[i].no; k++)
      free(p->stk[i].o[k].frame);
    free(p->stk[i].o);
  }
  hp__strtab_free(&p->stk_names);
  free(p->stk);
  hp__strtab_free(&p->frame_cache);
  free(p->frame_rt);
  for (i = 0; i < p->pmc_names.n; i++) {
    for (k = 0; k < HP__P_N; k++)
      vals_free(&p->pmc[i].props[k]);
    free(p->pmc[i].csum);
    free(p->pmc[i].cn);
  }
  hp__strtab_free(&p->pmc_names);
  free(p->pmc);
  hp__strtab_free(&p->counters);
  for (i = 0; i < p->ncu_names.n; i++) {
    free(p->ncu[i].block);
    free(p->ncu[i].grid);
    free(p->ncu[i].msum);
    free(p->ncu[i].mn);
  }
  hp__strtab_free(&p->ncu_names);
  free(p->ncu);
  for (i = 0; i < p->metrics.n; i++)
    free(p->metric_unit[i]);
  hp__strtab_free(&p->metrics);
  free(p->metric_unit);
  for (i = 0; i < p->nleaks; i++) {
    free(p->leaks[i].file);
    free(p->leaks[i].scope);
    free(p->leaks[i].text);
  }
  free(p->leaks);
  for (i = 0; i < p->nagents; i++) {
    free(p->agents[i].type);
    free(p->agents[i].name);
    free(p->agents[i].product);
  }
  free(p->agents);
  for (i = 0; i < p->nfiles; i++)
    free(p->files[i].path);
  free(p->files);
  free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Helpers for the parsers.                                                                        */

void hp__pwarn(hp__pctx *x, long line, const char *fmt, ...)
{
  hp__buf b = HP__BUF_INIT;
  va_list ap;

  if (x->nwarn >= HP__MAX_FILE_WARNINGS) {
    x->nsuppressed++;
    return;
  }
  x->nwarn++;
  va_start(ap, fmt);
  if (hp__buf_vprintf(&b, fmt, ap) == 0)
    hp_diags_add(x->diags, HP_DIAG_WARNING, x->path, line, 0, "%s", b.data);
  va_end(ap);
  hp__buf_free(&b);
}

void hp__pwarn_csv(void *ud, long line, const char *msg)
{
  hp__pwarn(ud, line, "%s", msg);
}

const char *hp__fld(const hp__csv_rec *r, int i, size_t *n)
{
  if (i < 0 || (size_t)i >= r->n) {
    *n = 0;
    return NULL;
  }
  *n = r->len[i];
  return r->f[i];
}

void hp__check_width(hp__pctx *x, const hp__csv_rec *r, size_t ncols)
{
  if (r->n != ncols)
    hp__pwarn(x, r->line, "row has %zu fields, the header has %zu; %s", r->n, ncols,
              r->n < ncols ? "missing fields are taken as empty" : "extra fields are ignored");
}

/* A short, printable excerpt of a field for messages. */
static const char *excerpt(const char *s, size_t n, char *buf, size_t cap)
{
  size_t i, o = 0;

  for (i = 0; i < n && o + 4 < cap; i++)
    buf[o++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
  if (i < n) {
    buf[o++] = '.';
    buf[o++] = '.';
    buf[o++] = '.';
  }
  buf[o] = '\0';
  return buf;
}

int hp__read_header(hp__pctx *x, hp__csv_rec *rec)
{
  int r = hp__csv_next(x->csv, rec);

  if (r == 0)
    hp__pwarn(x, 1, "the file is empty (no header)");
  return r;
}

int hp__fnum(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, double *out)
{
  size_t n;
  const char *s = hp__fld(r, col, &n);
  char ex[48];
  int k;

  *out = NAN;
  if (s == NULL)
    return 0;
  k = hp__parse_num(s, n, out);
  if (k < 0) {
    hp__pwarn(x, r->line, "column '%s': \"%s\" is not a number; the value is skipped", colname,
              excerpt(s, n, ex, sizeof(ex)));
    return -1;
  }
  return k;
}

int hp__fll(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, long long *out)
{
  size_t n;
  const char *s = hp__fld(r, col, &n);
  char ex[48];
  int k;

  *out = 0;
  if (s == NULL)
    return 0;
  k = hp__parse_ll(s, n, out);
  if (k < 0) {
    hp__pwarn(x, r->line, "column '%s': \"%s\" is not a whole number; the value is skipped",
              colname, excerpt(s, n, ex, sizeof(ex)));
    return -1;
  }
  return k;
}

int hp__require(hp__pctx *x, long line, const char *const *names, const int *idx, size_t n)
{
  hp__buf b = HP__BUF_INIT;
  size_t i;
  int missing = 0;

  for (i = 0; i < n; i++) {
    if (idx[i] >= 0)
      continue;
    hp__buf_printf(&b, "%s'%.*s'", missing ? ", " : "", (int)strcspn(names[i], "|"), names[i]);
    missing = 1;
  }
  if (missing)
    hp__pwarn(x, line, "header lacks the column%s %s; the file is skipped",
              strchr(b.data ? b.data : "", ',') ? "s" : "", b.data ? b.data : "");
  hp__buf_free(&b);
  return missing;
}

/* ---------------------------------------------------------------------------------------------- */
/* Format detection.                                                                               */

const char *hp__fmt_name(hp__fmt f)
{
  static const char *const names[HP__F_N] = {"unknown",
                                             "hipprof-api-stats",
                                             "hipprof-kernel-stats",
                                             "hipprof-stack",
                                             "hipprof-pmc-csv",
                                             "pmc-text",
                                             "text",
                                             "rocprof-kernel-stats",
                                             "rocprof-hip-stats",
                                             "rocprof-hsa-stats",
                                             "rocprof-copy-stats",
                                             "rocprof-dispatch",
                                             "rocprofv3-kernel-stats",
                                             "rocprofv3-hip-api-stats",
                                             "rocprofv3-hsa-api-stats",
                                             "rocprofv3-memory-copy-stats",
                                             "rocprofv3-kernel-trace",
                                             "rocprofv3-counter-collection",
                                             "rocprofv3-agent-info",
                                             "rocprofv3-hip-api-trace",
                                             "rocprofv3-hsa-api-trace",
                                             "rocprofv3-memory-copy-trace",
                                             "ncu-csv"};

  return f >= 0 && f < HP__F_N ? names[f] : "unknown";
}

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);

  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
  return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');

  return s ? s + 1 : path;
}

/* Formats told by name alone. Longer, more specific suffixes come first. */
static const struct {
  const char *suffix;
  hp__fmt fmt;
} name_rules[] = {
    {".hiptrace.csv", HP__F_HIPPROF_API},         {".hipkernel.csv", HP__F_HIPPROF_KERNEL},
    {".kernel.csv", HP__F_HIPPROF_KERNEL},        {".stack.csv", HP__F_HIPPROF_STACK},
    {"_kernel_stats.csv", HP__F_V3_KSTATS},       {"_hip_api_stats.csv", HP__F_V3_HIPSTATS},
    {"_hsa_api_stats.csv", HP__F_V3_HSASTATS},    {"_memory_copy_stats.csv", HP__F_V3_COPYSTATS},
    {"_kernel_trace.csv", HP__F_V3_KTRACE},       {"_counter_collection.csv", HP__F_V3_COUNTERS},
    {"_agent_info.csv", HP__F_V3_AGENTS},         {"_hip_api_trace.csv", HP__F_V3_HIPTRACE},
    {"_hsa_api_trace.csv", HP__F_V3_HSATRACE},    {"_memory_copy_trace.csv", HP__F_V3_COPYTRACE},
    {".hip_stats.csv", HP__F_ROCPROF_HIPSTATS},   {".hsa_stats.csv", HP__F_ROCPROF_HSASTATS},
    {".copy_stats.csv", HP__F_ROCPROF_COPYSTATS}, {".stats.csv", HP__F_ROCPROF_KSTATS},
};

/* rocprofv3 files we know and deliberately leave alone. */
static const char *const ignored_suffixes[] = {
    "_domain_stats.csv",         "_marker_api_stats.csv",         "_marker_api_trace.csv",
    "_rccl_api_stats.csv",       "_rccl_api_trace.csv",           "_scratch_memory_stats.csv",
    "_scratch_memory_trace.csv", "_counter_collection_stats.csv", ".sysinfo.txt",
    ".memcopy_info.csv"};

static int is_text_name(const char *b)
{
  return ends_with(b, ".txt") || ends_with(b, ".log") || strcmp(b, "stdout") == 0 ||
      strcmp(b, "stderr") == 0;
}

static hp__fmt detect_by_name(const char *path)
{
  const char *b = base_name(path);
  size_t i;

  for (i = 0; i < sizeof(ignored_suffixes) / sizeof(ignored_suffixes[0]); i++)
    if (ends_with(b, ignored_suffixes[i]))
      return HP__F_UNKNOWN;
  for (i = 0; i < sizeof(name_rules) / sizeof(name_rules[0]); i++)
    if (ends_with(b, name_rules[i].suffix))
      return name_rules[i].fmt;
  if (starts_with(b, "pmc_results") && ends_with(b, ".csv"))
    return HP__F_HIPPROF_PMC;
  if (strcasecmp(b, "results.csv") == 0)
    return HP__F_ROCPROF_RESULTS;
  if (is_text_name(b))
    return HP__F_TEXT;
  return HP__F_UNKNOWN;
}

static int has(const hp__csv_rec *h, const char *names)
{
  return hp__csv_find(h, names) >= 0;
}

static int contains_ci(const char *s, const char *needle)
{
  size_t n = strlen(needle);

  for (; *s; s++)
    if (strncasecmp(s, needle, n) == 0)
      return 1;
  return 0;
}

/* Tells a CSV with an unknown name by its header. *binary is set for data with NUL bytes. */
static hp__fmt detect_by_header(const char *path, int *binary)
{
  hp__csv_opts o = {65536, 1 << 20, 1 << 20};
  hp__csv *c = NULL;
  hp__csv_rec h;
  const char *s, *b = base_name(path);
  size_t n;
  long line;
  int r, lines = 0;
  hp__fmt f = HP__F_UNKNOWN;

  *binary = 0;
  if (hp__csv_open_path(&c, path, &o))
    return HP__F_UNKNOWN;
  /* ncu writes its CSV after its own ==PROF== lines and the app's output: look a little ahead for
   * the line that starts its header. */
  while (lines < 200 && (r = hp__csv_next_line(c, &s, &n, &line)) == 1) {
    if (memchr(s, '\0', n)) {
      *binary = 1;
      goto done;
    }
    if (n >= 6 && memcmp(s, "\"ID\",\"", 6) == 0) {
      f = HP__F_NCU;
      goto done;
    }
    lines++;
  }
  hp__csv_free(c);
  c = NULL;
  if (hp__csv_open_path(&c, path, &o))
    return HP__F_UNKNOWN;
  do {
    r = hp__csv_next_line(c, &s, &n, &line);
  } while (r == 1 && n >= 2 && s[0] == '=' && s[1] == '=');
  if (r != 1)
    goto done;
  if (n >= 8 && memcmp(s, "==PROF==", 8) == 0)
    goto done;
  hp__csv_unread_line(c);
  if (hp__csv_next(c, &h) != 1)
    goto done;
  if (has(&h, "str_name") && has(&h, "stack_sq"))
    f = HP__F_HIPPROF_STACK;
  else if (has(&h, "Counter_Name") && has(&h, "Counter_Value"))
    f = HP__F_V3_COUNTERS;
  else if (has(&h, "KernelName|Kernel_Name|Kernel-Name") &&
           has(&h, "grd|wgr|Grid_Size|Workgroup_Size"))
    f = starts_with(b, "pmc_results") || ends_with(b, ".csv.csv") ? HP__F_HIPPROF_PMC
                                                                  : HP__F_ROCPROF_RESULTS;
  else if (has(&h, "Kernel_Name|KernelName") && has(&h, "Start_Timestamp") &&
           has(&h, "End_Timestamp"))
    f = HP__F_V3_KTRACE;
  else if (has(&h, "Function") && has(&h, "Start_Timestamp"))
    f = contains_ci(b, "hsa") ? HP__F_V3_HSATRACE : HP__F_V3_HIPTRACE;
  else if (has(&h, "Direction") && has(&h, "Start_Timestamp"))
    f = HP__F_V3_COPYTRACE;
  else if (has(&h, "Agent_Type") && has(&h, "Node_Id"))
    f = HP__F_V3_AGENTS;
  else if (has(&h, "Name") && has(&h, "TotalDurationNs")) {
    int v3 = has(&h, "MinNs");
    if (contains_ci(b, "kernel"))
      f = v3 ? HP__F_V3_KSTATS : HP__F_HIPPROF_KERNEL;
    else if (contains_ci(b, "copy"))
      f = v3 ? HP__F_V3_COPYSTATS : HP__F_ROCPROF_COPYSTATS;
    else if (contains_ci(b, "hsa"))
      f = v3 ? HP__F_V3_HSASTATS : HP__F_ROCPROF_HSASTATS;
    else if (contains_ci(b, "api") || contains_ci(b, "hip"))
      f = v3 ? HP__F_V3_HIPSTATS : HP__F_HIPPROF_API;
  }

done:
  hp__csv_free(c);
  return f;
}

/* Looks at the first bytes of a file for NUL bytes (binary data, not a profiler's text). */
static int looks_binary(const char *path)
{
  unsigned char buf[4096];
  FILE *fp = fopen(path, "rb");
  size_t n;

  if (fp == NULL)
    return 0;
  n = fread(buf, 1, sizeof(buf), fp);
  fclose(fp);
  return memchr(buf, 0, n) != NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Walking folders.                                                                                */

typedef struct filelist {
  char **path;
  hp__fmt *fmt;
  size_t n, cap;
} filelist;

static int list_add(filelist *l, const char *path)
{
  size_t cap = l->cap, cap2 = l->cap;

  if (hp__grow((void **)&l->path, &cap, l->n + 1, sizeof(*l->path)) ||
      hp__grow((void **)&l->fmt, &cap2, l->n + 1, sizeof(*l->fmt)))
    return HP_ENOMEM;
  l->cap = cap < cap2 ? cap : cap2;
  if ((l->path[l->n] = hp__strdup(path)) == NULL)
    return HP_ENOMEM;
  l->n++;
  return 0;
}

static void list_free(filelist *l)
{
  size_t i;

  for (i = 0; i < l->n; i++)
    free(l->path[i]);
  free(l->path);
  free(l->fmt);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists regular files under `dir` recursively, each folder's entries in byte order. Symbolic links
 * to files are followed, links to folders are not (no cycles). Unreadable folders are warnings. */
static int walk(const char *dir, filelist *l, hp_diags *diags, int depth)
{
  DIR *d;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  int r = 0;

  if (depth > 64) {
    hp_diags_add(diags, HP_DIAG_WARNING, dir, 0, 0, "folders nested too deeply; not read");
    return 0;
  }
  d = opendir(dir);
  if (d == NULL) {
    hp_diags_add(diags, HP_DIAG_WARNING, dir, 0, 0, "cannot read folder: %s", strerror(errno));
    return 0;
  }
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    if (hp__grow((void **)&names, &cap, n + 1, sizeof(*names)) ||
        (names[n] = hp__strdup(e->d_name)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    n++;
  }
  qsort(names, n, sizeof(*names), cmp_str);
  for (i = 0; i < n && r == 0; i++) {
    char *path = hp__path_join(dir, names[i]);
    struct stat st;
    if (path == NULL) {
      r = HP_ENOMEM;
      break;
    }
    if (lstat(path, &st) == 0) {
      if (S_ISDIR(st.st_mode))
        r = walk(path, l, diags, depth + 1);
      else if (S_ISREG(st.st_mode) ||
               (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode)))
        r = list_add(l, path);
    }
    free(path);
  }

fail:
  closedir(d);
  for (i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return r;
}

static size_t dir_len(const char *path)
{
  const char *s = strrchr(path, '/');

  return s ? (size_t)(s - path) : 0;
}

static int same_dir(const char *a, const char *b)
{
  size_t la = dir_len(a);

  return la == dir_len(b) && strncmp(a, b, la) == 0;
}

/* Which traced quantities a stats-file format already gives. */
static unsigned stats_tables(hp__fmt f)
{
  switch (f) {
  case HP__F_HIPPROF_KERNEL:
  case HP__F_ROCPROF_KSTATS:
  case HP__F_V3_KSTATS: return HP__TB_KERNEL;
  case HP__F_HIPPROF_API:
  case HP__F_ROCPROF_HIPSTATS:
  case HP__F_V3_HIPSTATS: return HP__TB_API;
  case HP__F_ROCPROF_HSASTATS:
  case HP__F_V3_HSASTATS: return HP__TB_HSA;
  case HP__F_ROCPROF_COPYSTATS:
  case HP__F_V3_COPYSTATS: return HP__TB_COPY;
  default: return 0;
  }
}

static int parse_one(hp_profile *p, const char *path, hp__fmt fmt, unsigned skip, hp_diags *diags)
{
  hp__pctx x;
  hp__csv *c = NULL;
  int r;

  memset(&x, 0, sizeof(x));
  r = hp__csv_open_path(&c, path, NULL);
  if (r == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(diags, HP_DIAG_WARNING, path, 0, 0, "cannot open: %s", strerror(errno));
    return 0;
  }
  x.p = p;
  x.csv = c;
  x.path = path;
  x.diags = diags;
  x.file = ++p->file_seq;
  x.use_kernels = !(skip & HP__TB_KERNEL);
  x.use_api = !(skip & (HP__TB_API | HP__TB_HSA));
  x.use_copies = !(skip & HP__TB_COPY);
  hp__csv_set_warn(c, hp__pwarn_csv, &x);

  switch (fmt) {
  case HP__F_HIPPROF_API: r = hp__parse_stats(&x, HP__T_API, 1); break;
  case HP__F_HIPPROF_KERNEL: r = hp__parse_stats(&x, HP__T_KERNEL, 1); break;
  case HP__F_ROCPROF_KSTATS:
  case HP__F_V3_KSTATS: r = hp__parse_stats(&x, HP__T_KERNEL, 1); break;
  case HP__F_ROCPROF_HIPSTATS:
  case HP__F_V3_HIPSTATS: r = hp__parse_stats(&x, HP__T_API, 1); break;
  case HP__F_ROCPROF_HSASTATS:
  case HP__F_V3_HSASTATS: r = hp__parse_stats(&x, HP__T_HSA, 1); break;
  case HP__F_ROCPROF_COPYSTATS:
  case HP__F_V3_COPYSTATS: r = hp__parse_stats(&x, HP__T_COPY, 1); break;
  case HP__F_HIPPROF_STACK: r = hp__parse_stack(&x); break;
  case HP__F_HIPPROF_PMC: r = hp__parse_dispatch(&x, 0); break;
  case HP__F_ROCPROF_RESULTS: r = hp__parse_dispatch(&x, 1); break;
  case HP__F_PMC_TEXT:
  case HP__F_TEXT: r = hp__parse_text(&x); break;
  case HP__F_V3_KTRACE: r = hp__parse_v3_trace(&x, HP__T_KERNEL); break;
  case HP__F_V3_HIPTRACE: r = hp__parse_v3_trace(&x, HP__T_API); break;
  case HP__F_V3_HSATRACE: r = hp__parse_v3_trace(&x, HP__T_HSA); break;
  case HP__F_V3_COPYTRACE: r = hp__parse_v3_trace(&x, HP__T_COPY); break;
  case HP__F_V3_COUNTERS: r = hp__parse_v3_counters(&x); break;
  case HP__F_V3_AGENTS: r = hp__parse_v3_agents(&x); break;
  case HP__F_NCU: r = hp__parse_ncu(&x); break;
  default: r = 0; break;
  }
  hp__csv_free(c);
  if (x.nsuppressed)
    hp_diags_add(diags, HP_DIAG_NOTE, path, 0, 0, "%zu more warnings about this file not shown",
                 x.nsuppressed);
  if (r)
    return r;
  /* A text file counts as profiler output only when something in it was. */
  if (fmt == HP__F_TEXT || fmt == HP__F_PMC_TEXT) {
    if (x.tables == 0) {
      p->nignored++;
      return 0;
    }
    fmt = x.tables & HP__TB_PMC ? HP__F_PMC_TEXT : x.tables & HP__TB_NCU ? HP__F_NCU : HP__F_TEXT;
  }
  if (hp__grow((void **)&p->files, &p->file_cap, p->nfiles + 1, sizeof(*p->files)))
    return HP_ENOMEM;
  if ((p->files[p->nfiles].path = hp__strdup(path)) == NULL)
    return HP_ENOMEM;
  p->files[p->nfiles].format = hp__fmt_name(fmt);
  p->files[p->nfiles].tables = x.tables;
  p->nfiles++;
  return 0;
}

typedef struct sort_item {
  double total;
  const char *name;
  size_t id;
} sort_item;

static int cmp_item(const void *a, const void *b)
{
  const sort_item *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp(x->name, y->name);
}

int hp__ttable_sorted(const hp__ttable *t, size_t **ids)
{
  sort_item *it;
  size_t i, n = t->names.n;

  *ids = malloc((n ? n : 1) * sizeof(**ids));
  it = malloc((n ? n : 1) * sizeof(*it));
  if (*ids == NULL || it == NULL) {
    free(*ids);
    free(it);
    *ids = NULL;
    return HP_ENOMEM;
  }
  for (i = 0; i < n; i++) {
    it[i].total = t->st[i].total_ns;
    it[i].name = t->names.s[i];
    it[i].id = i;
  }
  qsort(it, n, sizeof(*it), cmp_item);
  for (i = 0; i < n; i++)
    (*ids)[i] = it[i].id;
  free(it);
  return 0;
}

static int rebuild_korder(hp_profile *p)
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
  return 0;
}

int hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags)
{
  filelist l;
  struct stat st;
  size_t i, k;
  int r = 0;

  if (p == NULL || path == NULL)
    return HP_EINVAL;
  memset(&l, 0, sizeof(l));
  if (stat(path, &st) != 0)
    return errno == ENOENT || errno == ENOTDIR ? HP_ENOENT : HP_EIO;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (d == NULL)
      return HP_EIO;
    closedir(d);
    r = walk(path, &l, diags, 0);
  } else {
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
      return HP_EIO;
    fclose(fp);
    r = list_add(&l, path);
  }
  if (r)
    goto fail;

  /* First tell every file's format, so that a folder's stats files can take precedence over the
   * traces next to them: rocprof writes results.stats.csv beside results.csv, rocprofv3 writes
   * kernel_stats beside kernel_trace, and counting both would double every kernel. */
  for (i = 0; i < l.n; i++) {
    int binary = 0;
    hp__fmt f = detect_by_name(l.path[i]);
    if (f == HP__F_UNKNOWN && ends_with(l.path[i], ".csv"))
      f = detect_by_header(l.path[i], &binary);
    else if (f != HP__F_UNKNOWN && f != HP__F_TEXT && f != HP__F_PMC_TEXT)
      binary = looks_binary(l.path[i]);
    if (binary) {
      if (f != HP__F_UNKNOWN || detect_by_name(l.path[i]) != HP__F_UNKNOWN)
        hp_diags_add(diags, HP_DIAG_WARNING, l.path[i], 0, 0,
                     "binary data where a %s CSV was expected; the file is skipped",
                     hp__fmt_name(f));
      f = HP__F_UNKNOWN;
    }
    l.fmt[i] = f;
  }
  for (i = 0; i < l.n; i++) {
    unsigned skip = 0;
    if (l.fmt[i] == HP__F_UNKNOWN) {
      p->nignored++;
      continue;
    }
    if (stats_tables(l.fmt[i]) == 0)
      for (k = 0; k < l.n; k++)
        if (k != i && same_dir(l.path[i], l.path[k]))
          skip |= stats_tables(l.fmt[k]);
    if ((r = parse_one(p, l.path[i], l.fmt[i], skip, diags)) != 0)
      goto fail;
  }
  r = rebuild_korder(p);

fail:
  list_free(&l);
  return r;
}

size_t hp_profile_nfiles(const hp_profile *p)
{
  return p ? p->nfiles : 0;
}

size_t hp_profile_nignored(const hp_profile *p)
{
  return p ? p->nignored : 0;
}

size_t hp_profile_nkernels(const hp_profile *p)
{
  return p ? p->nkorder : 0;
}

static void fill_kernel(const hp_profile *p, size_t id, hp_kernel_stat *out)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  const hp__tstat *s = &t->st[id];
  double sum = p->ktotal;

  out->name = t->names.s[id];
  out->calls = s->calls;
  out->total_ns = s->total_ns;
  if (s->nsources == 1 && !isnan(s->avg_reported))
    out->avg_ns = s->avg_reported;
  else
    out->avg_ns = s->calls > 0 ? s->total_ns / (double)s->calls : NAN;
  out->min_ns = s->have_minmax && !s->nominmax ? s->min_ns : NAN;
  out->max_ns = s->have_minmax && !s->nominmax ? s->max_ns : NAN;
  out->percent = sum > 0 ? s->total_ns / sum * 100.0 : NAN;
}

int hp_profile_kernel(const hp_profile *p, size_t i, hp_kernel_stat *out)
{
  if (p == NULL || out == NULL)
    return HP_EINVAL;
  if (i >= p->nkorder)
    return HP_ERANGE;
  fill_kernel(p, p->korder[i], out);
  return 0;
}

int hp_profile_kernel_find(const hp_profile *p, const char *pattern, hp_kernel_stat *out)
{
  char *low;
  size_t i;

  if (p == NULL || pattern == NULL || out == NULL)
    return HP_EINVAL;
  if ((low = lower_dup(pattern)) == NULL)
    return HP_ENOMEM;
  for (i = 0; i < p->nkorder; i++) {
    const char *name = p->t[HP__T_KERNEL].names.s[p->korder[i]];
    char *ln = lower_dup(name);
    int hit;
    if (ln == NULL) {
      free(low);
      return HP_ENOMEM;
    }
    hit = strstr(ln, low) != NULL;
    free(ln);
    if (hit) {
      free(low);
      fill_kernel(p, p->korder[i], out);
      return 0;
    }
  }
  free(low);
  return HP_ENOENT;
}

int hp_format_parse(const char *s, hp_format *out)
{
  if (s == NULL || out == NULL)
    return HP_EINVAL;
  if (strcmp(s, "text") == 0)
    *out = HP_FMT_TEXT;
  else if (strcmp(s, "json") == 0)
    *out = HP_FMT_JSON;
  else if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
    *out = HP_FMT_MD;
  else if (strcmp(s, "csv") == 0)
    *out = HP_FMT_CSV;
  else
    return HP_EINVAL;
  return 0;
}
