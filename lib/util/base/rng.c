/*
 * The seeded PRNG of hprun_stats.h (hp_rng_*): xoshiro256** (Blackman and Vigna), its state filled
 * by splitmix64 as the authors advise, so that any 64-bit seed, 0 included, gives a well-mixed,
 * non-zero state. It lives in util, below every user: the schedule shuffles `random` rounds with
 * it and the bootstrap resamples with it, and both must give the same sequence on every platform.
 */
#include "hprun.h"
#include "util/base/rng.h"

#include <stdint.h>

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

/* One xoshiro256** step; static inline so that the bulk draw below keeps the state in registers. */
static inline uint64_t step(uint64_t *s)
{
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

uint64_t hp_rng_next(hp_rng *r)
{
  return step(r->s);
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

/* x mod n by a multiplication: m = floor((2^64 - 1) / n) is at least 2^64 / n - 1, so for x below
 * 2^64 the quotient estimate mulhi(x, m) falls short of floor(x / n) by at most 1, and one
 * conditional subtraction corrects it; the remainder is then exact for every x. */
__extension__ typedef unsigned __int128 u128;

static uint64_t mod_by_mul(uint64_t x, uint64_t n, uint64_t m)
{
  uint64_t q = (uint64_t)(((u128)x * m) >> 64), rem = x - q * n;

  /* A select, not a loop: the branch would be mispredicted about every other draw. */
  return rem >= n ? rem - n : rem;
}

void hp__rng_below_many(hp_rng *r, size_t n, uint32_t *out, size_t count)
{
  uint64_t bound = (uint64_t)n, threshold, m, x, st[4];
  size_t i;

  if (n == 0) {
    for (i = 0; i < count; i++)
      out[i] = 0;
    return;
  }
  /* The same rejection as hp_rng_below, computed once; the state lives in a local copy. */
  threshold = (uint64_t)(0 - bound) % bound;
  m = UINT64_MAX / bound;
  for (i = 0; i < 4; i++)
    st[i] = r->s[i];
  for (i = 0; i < count; i++) {
    do
      x = step(st);
    while (x < threshold);
    out[i] = (uint32_t)mod_by_mul(x, bound, m);
  }
  for (i = 0; i < 4; i++)
    r->s[i] = st[i];
}
