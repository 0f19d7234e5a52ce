/*
 * Library-internal extras of the seeded PRNG (lib/util/base/rng.c; the public part is in
 * hprun_stats.h). The bulk draw exists for the bootstrap, which draws millions of indices below
 * one bound: it gives exactly the sequence that as many hp_rng_below calls would give, without a
 * call and two 64-bit divisions per draw. The caller owns `out`.
 */
#ifndef HPRUN_UTIL_RNG_H
#define HPRUN_UTIL_RNG_H

#include "hprun.h"

#include <stddef.h>
#include <stdint.h>

/* Fills out[0..count) with what count successive hp_rng_below(r, n) calls would return, leaving
 * *r in the same state. n must be in [1, 2^32]; n == 0 fills zeros, as hp_rng_below returns. */
void hp__rng_below_many(hp_rng *r, size_t n, uint32_t *out, size_t count);

#endif
