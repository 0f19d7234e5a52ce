/*
 * The seeded PRNG of hprun_stats.h: xoshiro256** (Blackman and Vigna), its state filled by
 * splitmix64 as the authors advise, so that any 64-bit seed, 0 included, gives a well-mixed,
 * non-zero state. The bootstrap (stats.c) and the `random` run order draw from it; it is our own
 * so that a seed replays the same session on every platform (docs/internals/stats.md, "PRNG").
 */
#include "hprun.h"

static uint64_t splitmix64(uint64_t *x)
{
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

void hp_rng_seed(hp_rng *r, uint64_t seed)
{
  int i;

  for (i = 0; i < 4; i++)
    r->s[i] = splitmix64(&seed);
}

uint64_t hp_rng_next(hp_rng *r)
{
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double hp_rng_uniform(hp_rng *r)
{
  /* The top 53 bits fill a double's mantissa exactly, so every value is k / 2^53. */
  return (double)(hp_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

size_t hp_rng_below(hp_rng *r, size_t n)
{
  uint64_t bound = (uint64_t)n, threshold, x;

  if (n == 0)
    return 0;
  /* Rejecting the lowest 2^64 mod n values leaves a range that is a whole multiple of n, so the
   * modulo below is unbiased. At most half the range is ever rejected. */
  threshold = (uint64_t)(0 - bound) % bound;
  do
    x = hp_rng_next(r);
  while (x < threshold);
  return (size_t)(x % bound);
}

void hp_rng_shuffle(hp_rng *r, size_t *idx, size_t n)
{
  size_t i, j, t;

  for (i = n; i > 1; i--) {
    j = hp_rng_below(r, i);
    t = idx[i - 1];
    idx[i - 1] = idx[j];
    idx[j] = t;
  }
}
