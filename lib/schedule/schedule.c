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

/* Unit i's counted runs. */
static int unit_repeat(int repeat, const int *repeats, size_t i)
{
  return repeats ? repeats[i] : repeat;
}

/* Sets a slot for round `rd` (0-based; the first `warmup` rounds are warmups), the unit's k-th
 * counted run when it is not a warmup. */
static void set_slot(hp__slot *s, size_t unit, int rd, int warmup, int k)
{
  s->unit = unit;
  s->warmup = rd < warmup;
  s->k = s->warmup ? rd + 1 : k;
}

/* How many runs unit i has in counted round c (0-based) with `left` counted runs still to lay
 * out: one, plus its share of a lead in the lead's rounds. */
static int round_runs(const hp__lead *lead, size_t i, int c, int left)
{
  int n = 1;

  if (lead && lead->unit == i && c < lead->rounds && lead->rounds > 0)
    n += (int)((long long)lead->runs * (c + 1) / lead->rounds -
               (long long)lead->runs * c / lead->rounds);
  return n < left ? n : left;
}

/* The rounds of every order but sequential; done[i] counts unit i's counted runs laid out. */
static size_t lay_rounds(size_t nunits, int repeat, const int *repeats, const hp__lead *lead,
                         int warmup, hp_order order, uint64_t seed, size_t *perm, int *done,
                         hp__slot *slots)
{
  size_t i, n = 0;
  int rd, j, more = 1;
  hp_rng rng;

  hp_rng_seed(&rng, seed);
  for (rd = 0; more; rd++) {
    round_order(order, rd, &rng, perm, nunits);
    more = 0;
    for (i = 0; i < nunits; i++) {
      size_t u = perm[i];
      int left = unit_repeat(repeat, repeats, u) - done[u];
      if (rd < warmup) {
        set_slot(&slots[n++], u, rd, warmup, 0);
        more = 1;
        continue;
      }
      for (j = left > 0 ? round_runs(lead, u, rd - warmup, left) : 0; j > 0; j--)
        set_slot(&slots[n++], u, rd, warmup, ++done[u]);
      more |= unit_repeat(repeat, repeats, u) > done[u];
    }
  }
  return n;
}

int hp__schedule_build(size_t nunits, int repeat, const int *repeats, const hp__lead *lead,
                       int warmup, hp_order order, uint64_t seed, hp__slot **out, size_t *nout)
{
  hp__slot *slots = NULL;
  size_t *perm = NULL, i, n = 0, total = 0;
  int *done = NULL, rd, most = repeats ? 0 : repeat;

  *out = NULL;
  *nout = 0;
  for (i = 0; repeats && i < nunits; i++)
    if (repeats[i] > most)
      most = repeats[i];
  for (i = 0; repeats && i < nunits; i++)
    if (repeats[i] < 0)
      most = -1;
  if (most < 0 || warmup < 0 || (lead && (lead->runs < 0 || lead->unit >= nunits)))
    return HP_EINVAL;
  if (most > INT_MAX - warmup)
    return HP_ERANGE;
  if (nunits && (size_t)(warmup + most) > SIZE_MAX / nunits)
    return HP_ERANGE;
  for (i = 0; i < nunits; i++)
    total += (size_t)(warmup + unit_repeat(repeat, repeats, i));
  slots = calloc(total ? total : 1, sizeof(*slots));
  perm = calloc(nunits ? nunits : 1, sizeof(*perm));
  done = calloc(nunits ? nunits : 1, sizeof(*done));
  if (slots == NULL || perm == NULL || done == NULL)
    goto fail;
  /* A unit with fewer counted runs than the others sits out the rounds after its last one; the
   * rest keep their order, so a plan without per-unit counts is laid out as before. */
  if (order == HP_ORDER_SEQUENTIAL) {
    for (i = 0; i < nunits; i++)
      for (rd = 0; rd < warmup + unit_repeat(repeat, repeats, i); rd++)
        set_slot(&slots[n++], i, rd, warmup, rd - warmup + 1);
  } else {
    n = lay_rounds(nunits, repeat, repeats, lead, warmup, order, seed, perm, done, slots);
  }
  free(done);
  free(perm);
  *out = slots;
  *nout = n;
  return 0;

fail:
  free(done);
  free(perm);
  free(slots);
  return HP_ENOMEM;
}

void hp__schedule_free(hp__slot *slots)
{
  free(slots);
}
