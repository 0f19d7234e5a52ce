/*
 * The schedule of a session (lib/schedule/schedule.c): the order in which the runs of every unit
 * (the plan's passes, then its A/B variants) happen, warmups included. It is pure: plain numbers
 * in, an array out; nothing is run, read or written, so the order can be tested on its own and
 * printed by a dry run exactly as a real run will follow it.
 *
 * The caller owns the array hp__schedule_build returns and frees it with hp__schedule_free; on
 * failure nothing is allocated and *out is NULL.
 */
#ifndef HPRUN_SCHEDULE_SCHEDULE_H
#define HPRUN_SCHEDULE_SCHEDULE_H

#include "hprun.h"
#include <stddef.h>
#include <stdint.h>

/* One run of the schedule. Its position in the array, plus one, is the run's round. */
typedef struct hp__slot {
  size_t unit; /* index of the unit: the plan's passes first, then its variants */
  int warmup;  /* 1: a warmup run, run but not counted */
  int k;       /* 1-based index among this unit's counted runs, or among its warmups */
} hp__slot;

/* A unit that runs ahead (the baseline under `repeat: auto`): `runs` of its counted runs are
 * extra runs spread over its first `rounds` counted rounds, each right after its own run of that
 * round (round j of them, 0-based, gets runs*(j+1)/rounds - runs*j/rounds). Its count in
 * `repeats` includes them, so it ends `runs` rounds early. */
typedef struct hp__lead {
  size_t unit;
  int runs;
  int rounds;
} hp__lead;

/* Lays out `warmup` warmup rounds and then `repeat` counted rounds of `nunits` units, in `order`
 * (with `repeats` non-NULL, unit i has repeats[i] counted runs instead, and a counted round only
 * visits the units that still have runs left; `repeat` is then ignored; `lead`, if not NULL,
 * makes one unit run ahead as above, in every order but `sequential`, where it changes nothing):
 *   interleaved  every round visits the units in plan order;
 *   abba         every second round (counting warmup rounds) visits them in reverse;
 *   random       every round visits them in an order shuffled by hp_rng seeded with `seed` (one
 *                generator for the whole schedule, so each round differs);
 *   sequential   each unit's warmups and counted runs back to back, unit after unit.
 * On success *out holds warmup+repeat slots per unit (*nout of them, possibly 0; *out is never
 * NULL then) and 0 is returned. Returns HP_EINVAL when repeat or warmup is negative, HP_ERANGE
 * when the count overflows, HP_ENOMEM. */
int hp__schedule_build(size_t nunits, int repeat, const int *repeats, const hp__lead *lead,
                       int warmup, hp_order order, uint64_t seed, hp__slot **out, size_t *nout);
/* Frees what hp__schedule_build returned; NULL is allowed. */
void hp__schedule_free(hp__slot *slots);

#endif /* HPRUN_SCHEDULE_SCHEDULE_H */
