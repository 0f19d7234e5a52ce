/*
 * The schedule builder (schedule.h): which unit runs when. It holds the order rules alone, so
 * that the session, its dry run and the tests share one definition of them. Warmup rounds come
 * first in every order but `sequential`, where each unit's warmups open its own block of runs:
 * either way a unit's warmups run before its counted runs.
 */
#include "schedule/schedule.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

/* Fills one round's unit order into perm[0..n): plan order, reversed on odd rounds for abba, or
 * shuffled for random. The shuffle draws from the one generator of the whole schedule. */
static void round_order(hp_order order, int rd, hp_rng *rng, size_t *perm, size_t n)
{
  size_t i, t;

  for (i = 0; i < n; i++)
    perm[i] = i;
  if (order == HP_ORDER_ABBA && rd % 2 == 1) {
    for (i = 0; i < n / 2; i++) {
      t = perm[i];
      perm[i] = perm[n - 1 - i];
      perm[n - 1 - i] = t;
    }
  } else if (order == HP_ORDER_RANDOM) {
    hp_rng_shuffle(rng, perm, n);
  }
}

/* Sets a slot for round `rd` (0-based; the first `warmup` rounds are warmups). */
static void set_slot(hp__slot *s, size_t unit, int rd, int warmup)
{
  s->unit = unit;
  s->warmup = rd < warmup;
  s->k = s->warmup ? rd + 1 : rd - warmup + 1;
}

/* Unit i's counted runs. */
static int unit_repeat(int repeat, const int *repeats, size_t i)
{
  return repeats ? repeats[i] : repeat;
}

int hp__schedule_build(size_t nunits, int repeat, const int *repeats, int warmup, hp_order order,
                       uint64_t seed, hp__slot **out, size_t *nout)
{
  hp__slot *slots = NULL;
  size_t *perm = NULL, i, n = 0, total = 0;
  int rounds, rd, most = repeats ? 0 : repeat;
  hp_rng rng;

  *out = NULL;
  *nout = 0;
  for (i = 0; repeats && i < nunits; i++)
    if (repeats[i] > most)
      most = repeats[i];
  for (i = 0; repeats && i < nunits; i++)
    if (repeats[i] < 0)
      most = -1;
  if (most < 0 || warmup < 0)
    return HP_EINVAL;
  if (most > INT_MAX - warmup)
    return HP_ERANGE;
  rounds = warmup + most;
  if (nunits && (size_t)rounds > SIZE_MAX / nunits)
    return HP_ERANGE;
  for (i = 0; i < nunits; i++)
    total += (size_t)(warmup + unit_repeat(repeat, repeats, i));
  slots = calloc(total ? total : 1, sizeof(*slots));
  perm = calloc(nunits ? nunits : 1, sizeof(*perm));
  if (slots == NULL || perm == NULL)
    goto fail;
  /* A unit with fewer counted runs than the others sits out the rounds after its last one; the
   * rest keep their order, so a plan without per-unit counts is laid out as before. */
  if (order == HP_ORDER_SEQUENTIAL) {
    for (i = 0; i < nunits; i++)
      for (rd = 0; rd < warmup + unit_repeat(repeat, repeats, i); rd++)
        set_slot(&slots[n++], i, rd, warmup);
  } else {
    hp_rng_seed(&rng, seed);
    for (rd = 0; rd < rounds; rd++) {
      round_order(order, rd, &rng, perm, nunits);
      for (i = 0; i < nunits; i++)
        if (rd < warmup + unit_repeat(repeat, repeats, perm[i]))
          set_slot(&slots[n++], perm[i], rd, warmup);
    }
  }
  free(perm);
  *out = slots;
  *nout = total;
  return 0;

fail:
  free(perm);
  free(slots);
  return HP_ENOMEM;
}

void hp__schedule_free(hp__slot *slots)
{
  free(slots);
}
