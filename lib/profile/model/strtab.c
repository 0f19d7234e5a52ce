/*
 * String interning (see strtab.h): open addressing with linear probing. Each slot keeps the id and
 * 32 bits of the hash, so most mismatches cost no string compare. Kernel names are long (PyTorch
 * templates run to 300+ bytes) and are hashed once per row, so the hash takes 16 bytes per step in
 * two independent lanes.
 */
#include "profile/model/strtab.h"
#include "hprun.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

uint64_t hp__hash_mix(uint64_t h)
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
  return hp__hash_mix(a ^ (b + 0x9E3779B97F4A7C15ULL));
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
