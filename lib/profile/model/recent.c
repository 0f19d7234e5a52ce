/*
 * The recent-key window (see recent.h), built so that nothing is ever rebuilt. Entries live in a
 * slab (`tab`, reused through a free list) and are found through an open-addressing table of
 * entry indices (`slot`), so growing the table moves 8-byte slots, not entries. Each slot also
 * holds the low half of its entry's hash, so that probing, growing and deleting read only the
 * slots: an entry is loaded only for a likely match. Every `window` rows a sweep walks the sweep
 * order once: a key not touched since the cutoff is handed to the finish callback, deleted from
 * the table (backward shift, no tombstones) and its entry freed; a key still in use goes to the
 * order's end. So a key lives between one and two windows, memory is bounded by the keys of
 * 2 * window rows, and the set of keys each sweep finishes is exactly the one "last touched
 * before row - window". The hashes of finished keys are kept in a second bounded set, so that a
 * key coming back after it was finished can be counted and reported.
 *
 * The sweep order is a ring of entry indices, so that a sweep reads it in order and loads the
 * entries a few steps ahead. The finished-key set (up to 4 MB) is touched in batches for the same
 * reason: a sweep adds its finished keys' hashes after its walk, each slot loaded a few keys
 * ahead, and the new keys since the last sweep are looked up in it at the next sweep (or at the
 * end), all together. That gives the same answers as looking each up when it is added, because
 * only a sweep changes the set, and the lookups are made before the sweep adds anything.
 */
#include "profile/model/recent.h"
#include "hprun.h"
#include "profile/model/strtab.h"
#include "util/base/buf.h"
#include "util/sys/hugemem.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_DONE_MAX ((size_t)1 << 18)
/* The filter in front of the finished-key set: 2^21 bits, one per hash (from bits the set's own
 * slot index does not use). A clear bit means "not finished" for sure; a set bit sends the lookup
 * on to the set, which decides. With the set at its cap the filter is 1/8 full, so 7 new keys in
 * 8 never touch the 4 MB set. */
#define RECENT_BITS_LOG 21

/* The finished-key set doubles from 1024 slots up to this many (64 KB); the next growth goes
 * straight to its largest size (RECENT_DONE_MAX * 2 slots, 4 MB), in huge pages where the system
 * gives them (done_table), sparing the page faults of doubling in 4 KB pages
 * (docs/internals/profile.md); the set's answers do not depend on its size. The price: a file
 * that finishes 4,096 to 32,768 keys holds the 4 MB table where it held 64 to 512 KB. */
#define RECENT_DONE_JUMP ((size_t)1 << 13)

static size_t done_bit(uint64_t h)
{
  return (size_t)(h >> 40) & (((size_t)1 << RECENT_BITS_LOG) - 1);
}

static inline void prefetch(const void *p)
{
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

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

/* A zeroed table of n hashes: at 2 MB and more in huge pages (util/sys/hugemem.h; *huge says so,
 * for done_free), else calloc'd. */
static uint64_t *done_table(size_t n, int *huge)
{
  uint64_t *t = NULL;

  if (n * sizeof(uint64_t) >= ((size_t)2 << 20))
    t = hp__huge_alloc(n * sizeof(uint64_t));
  *huge = t != NULL;
  return t ? t : calloc(n, sizeof(uint64_t));
}

/* Frees the set's table (NULL is fine). */
static void done_free(hp__recent *r)
{
  if (r->done_huge)
    hp__huge_free(r->done, r->done_cap * sizeof(uint64_t));
  else
    free(r->done);
  r->done = NULL;
  r->done_huge = 0;
}

static void done_add(hp__recent *r, uint64_t h)
{
  size_t k, mask;
  int huge;

  if (r->done_n >= RECENT_DONE_MAX)
    return;
  /* The filter is made with the set, before its first key, or never: a filter made later would
   * lack the keys added before it. */
  if (r->done_cap == 0 && r->done_bits == NULL)
    r->done_bits = calloc((size_t)1 << (RECENT_BITS_LOG - 6), sizeof(*r->done_bits));
  if ((r->done_n + 1) * 2 > r->done_cap) {
    size_t ncap = r->done_cap ? r->done_cap * 2 : 1024, i;
    uint64_t *nd;
    if (ncap > RECENT_DONE_JUMP)
      ncap = RECENT_DONE_MAX * 2;
    nd = done_table(ncap, &huge);
    if (nd == NULL)
      return; /* only the reappearance check is weakened */
    for (i = 0; i < r->done_cap; i++) {
      if (r->done[i] == 0)
        continue;
      for (k = (size_t)r->done[i] & (ncap - 1); nd[k]; k = (k + 1) & (ncap - 1))
        ;
      nd[k] = r->done[i];
    }
    done_free(r);
    r->done = nd;
    r->done_huge = huge;
    r->done_cap = ncap;
  }
  mask = r->done_cap - 1;
  for (k = (size_t)h & mask; r->done[k]; k = (k + 1) & mask)
    if (r->done[k] == h)
      return;
  r->done[k] = h;
  r->done_n++;
  if (r->done_bits)
    r->done_bits[done_bit(h) >> 6] |= (uint64_t)1 << (done_bit(h) & 63);
}

static int done_has(const hp__recent *r, uint64_t h)
{
  size_t k, mask;

  if (r->done_cap == 0)
    return 0;
  /* Without the filter (its allocation failed) every lookup goes to the set. */
  if (r->done_bits && !(r->done_bits[done_bit(h) >> 6] & ((uint64_t)1 << (done_bit(h) & 63))))
    return 0;
  mask = r->done_cap - 1;
  for (k = (size_t)h & mask; r->done[k]; k = (k + 1) & mask)
    if (r->done[k] == h)
      return 1;
  return 0;
}

/* Doubles the slot table and places every live entry's index again. Returns 0 or HP_ENOMEM. */
static int slots_grow(hp__recent *r)
{
  size_t ncap = r->slot_cap ? r->slot_cap * 2 : 256, i, k, mask = ncap - 1;
  uint64_t *ns = calloc(ncap, sizeof(*ns));

  if (ns == NULL)
    return HP_ENOMEM;
  for (i = 0; i < r->slot_cap; i++) {
    if (r->slot[i] == 0)
      continue;
    for (k = (size_t)(r->slot[i] >> 32) & mask; ns[k]; k = (k + 1) & mask)
      ;
    ns[k] = r->slot[i];
  }
  free(r->slot);
  r->slot = ns;
  r->slot_cap = ncap;
  return 0;
}

/* Deletes entry index+1 `id` from the slot table by backward shift: every later entry of the
 * probe run that may move into the hole does, so lookups never need tombstones. */
static void slots_delete(hp__recent *r, uint32_t id)
{
  size_t mask = r->slot_cap - 1, i, j, home;

  for (i = (size_t)r->tab[id - 1].h & mask; (uint32_t)r->slot[i] != id; i = (i + 1) & mask)
    ;
  for (j = (i + 1) & mask; r->slot[j]; j = (j + 1) & mask) {
    home = (size_t)(r->slot[j] >> 32) & mask;
    /* The entry at j may fill the hole at i when its home is not cyclically in (i, j]. */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      r->slot[i] = r->slot[j];
      i = j;
    }
  }
  r->slot[i] = 0;
}

/* How far ahead the batched loops load. */
#define AHEAD 8

/* Looks up the pending new keys (r->pend) in the finished-key set: first the filter for all of
 * them, keeping those it lets through, then the set for those. */
static void pend_resolve(hp__recent *r)
{
  size_t i, k = 0, n = r->pend_n, mask = r->done_cap - 1;
  uint64_t *h = r->pend;

  r->pend_n = 0;
  if (n == 0 || r->done_cap == 0)
    return;
  if (r->done_bits) {
    for (i = 0; i < n; i++) {
      if (i + AHEAD < n)
        prefetch(&r->done_bits[done_bit(h[i + AHEAD]) >> 6]);
      if (r->done_bits[done_bit(h[i]) >> 6] & ((uint64_t)1 << (done_bit(h[i]) & 63)))
        h[k++] = h[i];
    }
    n = k;
  }
  for (i = 0; i < n; i++) {
    if (i + AHEAD < n)
      prefetch(&r->done[(size_t)h[i + AHEAD] & mask]);
    for (k = (size_t)h[i] & mask; r->done[k]; k = (k + 1) & mask)
      if (r->done[k] == h[i]) {
        r->reappeared++;
        break;
      }
  }
}

/* Notes new key h for the reappearance check: at once when the finished set is empty (nothing
 * to find) or the pending list cannot grow, else at the next pend_resolve. */
static void pend_add(hp__recent *r, uint64_t h)
{
  if (r->done_cap == 0)
    return;
  if (r->pend_n == r->pend_cap) {
    size_t ncap = r->pend_cap ? r->pend_cap * 2 : 1024;
    uint64_t *np = realloc(r->pend, ncap * sizeof(*np));
    if (np == NULL) {
      r->reappeared += done_has(r, h);
      return;
    }
    r->pend = np;
    r->pend_cap = ncap;
  }
  r->pend[r->pend_n++] = h;
}

/* Whether the entry's key lives in its kbuf (decided by length, as pointers into the slab move). */
static int key_inline(const hp__recent_ent *e)
{
  return e->klen < sizeof(e->kbuf);
}

/* A free entry's index + 1, growing the slab when none is free; 0 on HP_ENOMEM. */
static uint32_t ent_alloc(hp__recent *r)
{
  uint32_t id = r->free_head;
  size_t i;

  if (id) {
    r->free_head = r->tab[id - 1].next;
    return id;
  }
  if (r->used == r->cap) {
    if (r->cap >= UINT32_MAX / 2 ||
        hp__grow((void **)&r->tab, &r->cap, r->cap + 1, sizeof(*r->tab)))
      return 0;
    r->epoch++; /* the slab moved: older entry pointers are stale, and so are inline keys' */
    for (i = 0; i < r->used; i++)
      if (r->tab[i].h != 0 && key_inline(&r->tab[i]))
        r->tab[i].key = r->tab[i].kbuf;
  }
  return (uint32_t)++r->used;
}

static void ent_release(hp__recent *r, uint32_t id)
{
  hp__recent_ent *e = &r->tab[id - 1];

  if (!key_inline(e))
    free(e->key);
  free(e->s);
  e->key = e->s = NULL;
  e->h = 0;
  e->next = r->free_head;
  r->free_head = id;
}

/* Room in the ring for one more entry than n: doubled, its entries moved to the front in order.
 * Returns 0 or HP_ENOMEM. */
static int ring_room(hp__recent *r)
{
  size_t ncap, i;
  uint32_t *nq;

  if (r->n + 1 <= r->qcap)
    return 0;
  ncap = r->qcap ? r->qcap * 2 : 256;
  if ((nq = malloc(ncap * sizeof(*nq))) == NULL)
    return HP_ENOMEM;
  for (i = 0; i < r->n; i++)
    nq[i] = r->q[(r->qhead + i) & (r->qcap - 1)];
  free(r->q);
  r->q = nq;
  r->qcap = ncap;
  r->qhead = 0;
  return 0;
}

/* Puts entry `id` at the end of the sweep order, as entry number n of the ring (the caller counts
 * it). There is room: ring_room made it, or the sweep took an entry off the front. */
static void ring_push(hp__recent *r, uint32_t id)
{
  r->q[(r->qhead + r->n) & (r->qcap - 1)] = id;
}

int hp__recent_touch(hp__recent *r, uint32_t kid, const char *key, size_t klen, long long row,
                     hp__recent_ent **out, int *added)
{
  uint64_t h = recent_hash(kid, key, klen);
  size_t k, mask;
  uint32_t id;
  hp__recent_ent *e;

  if ((r->n + 1) * 2 > r->slot_cap && slots_grow(r))
    return HP_ENOMEM;
  mask = r->slot_cap - 1;
  for (k = (size_t)h & mask; r->slot[k]; k = (k + 1) & mask) {
    if ((uint32_t)(r->slot[k] >> 32) != (uint32_t)h)
      continue;
    e = &r->tab[(uint32_t)r->slot[k] - 1];
    if (e->h == h && e->kid == kid && e->klen == klen && memcmp(e->key, key, klen) == 0) {
      e->last = row;
      *out = e;
      *added = 0;
      return 0;
    }
  }
  if (ring_room(r) || (id = ent_alloc(r)) == 0)
    return HP_ENOMEM;
  e = &r->tab[id - 1];
  e->klen = (uint32_t)klen;
  if (key_inline(e)) {
    memcpy(e->kbuf, key, klen);
    e->kbuf[klen] = '\0';
    e->key = e->kbuf;
  } else if ((e->key = hp__strndup(key, klen)) == NULL) {
    e->next = r->free_head;
    r->free_head = id;
    return HP_ENOMEM;
  }
  e->h = h;
  e->kid = kid;
  e->klen = (uint32_t)klen;
  e->first = e->last = row;
  e->a = 0;
  e->s = NULL;
  e->flag = 0;
  r->slot[k] = (uint64_t)(uint32_t)h << 32 | id;
  ring_push(r, id);
  r->n++;
  pend_add(r, h);
  *out = e;
  *added = 1;
  return 0;
}

/* Adds the hashes of the keys a sweep finished to the finished-key set, in the order they were
 * finished (which decides the ones kept once the set is full), each slot loaded a few ahead. */
static void gone_add(hp__recent *r, size_t ngone)
{
  size_t i;

  for (i = 0; i < ngone; i++) {
    if (i + AHEAD < ngone && r->done_cap)
      prefetch(&r->done[(size_t)r->gone[i + AHEAD] & (r->done_cap - 1)]);
    done_add(r, r->gone[i]);
  }
}

/* Finishes every entry last touched before `cutoff`, in one walk of the ring: each entry is taken
 * off the front and either finished or put back at the end. */
static void sweep(hp__recent *r, long long cutoff)
{
  size_t todo = r->n, ngone = 0, mask = r->qcap - 1;
  int batch;
  uint32_t id;

  pend_resolve(r); /* before this sweep adds to the finished set */
  batch = hp__grow((void **)&r->gone, &r->gone_cap, todo + 1, sizeof(*r->gone)) == 0;
  while (todo-- > 0) {
    hp__recent_ent *e;
    id = r->q[r->qhead & mask];
    r->qhead++;
    r->n--;
    if (todo > AHEAD)
      prefetch(&r->tab[r->q[(r->qhead + AHEAD) & mask] - 1]);
    e = &r->tab[id - 1];
    if (e->last >= cutoff) {
      ring_push(r, id);
      r->n++;
      continue;
    }
    if (r->fin)
      r->fin(r->ud, e);
    if (batch)
      r->gone[ngone++] = e->h;
    else
      done_add(r, e->h);
    slots_delete(r, id);
    ent_release(r, id);
  }
  gone_add(r, ngone);
  r->epoch++;
}

int hp__recent_tick(hp__recent *r, long long row)
{
  if (row < r->next_sweep)
    return 0;
  r->next_sweep = row + r->window;
  sweep(r, row - r->window);
  return 0;
}

void hp__recent_finish(hp__recent *r)
{
  long long reappeared;
  size_t i;

  pend_resolve(r);
  /* In sweep order; the results are sums and counts, and ties between origins are broken by row
   * numbers, so the order does not matter. */
  for (i = 0; i < r->n; i++) {
    hp__recent_ent *e = &r->tab[r->q[(r->qhead + i) & (r->qcap - 1)] - 1];
    if (r->fin)
      r->fin(r->ud, e);
    if (!key_inline(e))
      free(e->key);
    free(e->s);
  }
  free(r->tab);
  free(r->slot);
  done_free(r);
  free(r->done_bits);
  free(r->q);
  free(r->pend);
  free(r->gone);
  reappeared = r->reappeared;
  hp__recent_init(r, r->window, r->fin, r->ud);
  r->reappeared = reappeared;
}
