/*
 * The recent-key window (see recent.h). Entries live in an open-addressing table keyed by a hash of
 * (kid, key). Every `window` rows a sweep rebuilds the table without the keys not touched during
 * the last window, handing each to the finish callback; so a key lives between one and two windows
 * and memory is bounded by the keys of 2 * window rows. The hashes of finished keys are kept in a
 * second bounded set, so that a key coming back after it was finished can be counted and reported.
 */
#include "profile/recent.h"
#include "hprun.h"
#include "profile/strtab.h"
#include "util/buf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_DONE_MAX ((size_t)1 << 18)

void hp__recent_init(hp__recent *r, long long window, hp__recent_fin fin, void *ud)
{
  memset(r, 0, sizeof(*r));
  r->window = window > 0 ? window : HP__RECENT_WINDOW;
  r->next_sweep = r->window;
  r->fin = fin;
  r->ud = ud;
}

static uint64_t recent_hash(uint32_t kid, const char *key, size_t klen)
{
  uint64_t h = hp__hash(key, klen) ^ hp__hash_mix((uint64_t)kid + 0x9E3779B97F4A7C15ULL);
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
