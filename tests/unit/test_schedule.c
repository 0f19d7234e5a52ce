/*
 * Tests for lib/schedule/schedule.c: the order of a session's runs.
 *
 * Each order is written out literally, slot by slot, as {unit, warmup, k}. The random order was
 * derived independently of the C code: a small Python reference of splitmix64 seeding (checked
 * against its published first output for seed 0, 0xe220a8397b1dcdaf), xoshiro256**, the
 * rejection-sampled draw below n and a Fisher-Yates shuffle from the top, as hprun_stats.h
 * describes hp_rng, run over the same rounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "schedule/schedule.h"

typedef struct want {
  size_t unit;
  int warmup, k;
} want;

/* Builds a schedule (per-unit counts and a lead where not NULL) and requires it to equal
 * want[0..n) exactly, naming the first difference. */
static void check_layout(size_t nunits, int repeat, const int *repeats, const hp__lead *lead,
                         int warmup, hp_order order, uint64_t seed, const want *w, size_t n)
{
  hp__slot *s = NULL;
  size_t ns = 0, i;

  assert_int_equal(hp__schedule_build(nunits, repeat, repeats, lead, warmup, order, seed, &s, &ns),
                   0);
  assert_non_null(s);
  assert_int_equal(ns, n);
  for (i = 0; i < n; i++)
    if (s[i].unit != w[i].unit || s[i].warmup != w[i].warmup || s[i].k != w[i].k)
      fail_msg("round %zu: got {%zu, %d, %d}, want {%zu, %d, %d}", i + 1, s[i].unit, s[i].warmup,
               s[i].k, w[i].unit, w[i].warmup, w[i].k);
  hp__schedule_free(s);
}

#define CHECK(nunits, repeat, warmup, order, seed, w)                                              \
  check_layout(nunits, repeat, NULL, NULL, warmup, order, seed, w, sizeof(w) / sizeof(w[0]))

static void interleaved_warmup_round_first(void **state)
{
  static const want w[] = {
      {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, /* the warmup round */
      {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, /* counted round 1 */
      {0, 0, 2}, {1, 0, 2}, {2, 0, 2}, /* counted round 2 */
  };
  (void)state;
  CHECK(3, 2, 1, HP_ORDER_INTERLEAVED, 1, w);
}

/* Five passes, repeat 2: the first pass runs in rounds 1 and 6. */
static void interleaved_five_passes(void **state)
{
  static const want w[] = {
      {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}, {4, 0, 1},
      {0, 0, 2}, {1, 0, 2}, {2, 0, 2}, {3, 0, 2}, {4, 0, 2},
  };
  (void)state;
  CHECK(5, 2, 0, HP_ORDER_INTERLEAVED, 1, w);
}

/* Four units: A B C D, D C B A; the first unit runs in rounds 1 and 8. */
static void abba_four_units(void **state)
{
  static const want w[] = {
      {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}, {3, 0, 2}, {2, 0, 2}, {1, 0, 2}, {0, 0, 2},
  };
  (void)state;
  CHECK(4, 2, 0, HP_ORDER_ABBA, 1, w);
}

/* Warmup rounds count in the alternation: the first counted round is the reversed one. An odd
 * number of units keeps the middle one in place. */
static void abba_with_warmup_and_odd_units(void **state)
{
  static const want w[] = {
      {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, /* warmup, forward */
      {2, 0, 1}, {1, 0, 1}, {0, 0, 1}, /* counted 1, backward */
      {0, 0, 2}, {1, 0, 2}, {2, 0, 2}, /* counted 2, forward */
      {2, 0, 3}, {1, 0, 3}, {0, 0, 3}, /* counted 3, backward */
  };
  (void)state;
  CHECK(3, 3, 1, HP_ORDER_ABBA, 1, w);
}

static void sequential_blocks(void **state)
{
  static const want w[] = {
      {0, 1, 1}, {0, 1, 2}, {0, 0, 1}, {0, 0, 2}, {0, 0, 3},
      {1, 1, 1}, {1, 1, 2}, {1, 0, 1}, {1, 0, 2}, {1, 0, 3},
  };
  (void)state;
  CHECK(2, 3, 2, HP_ORDER_SEQUENTIAL, 1, w);
}

/* Per-unit counts (a pass's own `repeat`): unit 1 has one counted run, unit 2 three; after its
 * last run a unit sits out the rounds, and the others keep their order. Sequential gives each
 * unit its own block of its own length. */
static void per_unit_repeat(void **state)
{
  static const int repeats[] = {2, 1, 3};
  static const want inter[] = {
      {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, /* warmups: every unit */
      {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, /* counted 1 */
      {0, 0, 2}, {2, 0, 2},            /* counted 2: unit 1 is done */
      {2, 0, 3},                       /* counted 3: only unit 2 */
  };
  static const want seq[] = {{0, 0, 1}, {0, 0, 2}, {1, 0, 1}, {2, 0, 1}, {2, 0, 2}, {2, 0, 3}};
  (void)state;
  check_layout(3, 99, repeats, NULL, 1, HP_ORDER_INTERLEAVED, 1, inter,
               sizeof(inter) / sizeof(*inter));
  check_layout(3, 99, repeats, NULL, 0, HP_ORDER_SEQUENTIAL, 1, seq, sizeof(seq) / sizeof(*seq));
}

/* A lead (the baseline under `repeat: auto`): unit 0 has 3 counted runs of which 2 are extra,
 * spread over its first 2 rounds (one each, right after its own run); it ends 2 rounds early.
 * ABBA's reversed rounds keep the extra runs beside the unit's own. */
static void lead_runs_ahead(void **state)
{
  static const int repeats[] = {4, 3};
  static const want inter[] = {
      {0, 1, 1}, {1, 1, 1},            /* warmups: one each, no lead */
      {0, 0, 1}, {0, 0, 2}, {1, 0, 1}, /* counted 1: unit 0 and its first extra run */
      {0, 0, 3}, {0, 0, 4}, {1, 0, 2}, /* counted 2: the second; unit 0 is done */
      {1, 0, 3},                       /* counted 3 */
  };
  static const want abba[] = {
      {0, 0, 1}, {0, 0, 2}, {1, 0, 1}, {1, 0, 2}, {0, 0, 3}, {0, 0, 4}, {1, 0, 3},
  };
  hp__lead lead = {0, 2, 2};
  hp__slot *s = NULL;
  size_t ns = 0, i;

  (void)state;
  check_layout(2, 0, repeats, &lead, 1, HP_ORDER_INTERLEAVED, 1, inter,
               sizeof(inter) / sizeof(*inter));
  check_layout(2, 0, repeats, &lead, 0, HP_ORDER_ABBA, 1, abba, sizeof(abba) / sizeof(*abba));
  /* 7 extra runs over 3 rounds (the baseline at the default min 3): 7*1/3 = 2, 7*2/3 - 2 = 2 and
   * 7 - 4 = 3 in rounds 1-3, so it has 3, 6 and 10 runs at the ends of the rounds. */
  lead = (hp__lead){0, 7, 3};
  {
    static const int r2[] = {37, 30};
    size_t at = 0, round_end[3] = {0, 0, 0}, r = 0;
    assert_int_equal(hp__schedule_build(2, 0, r2, &lead, 0, HP_ORDER_INTERLEAVED, 1, &s, &ns), 0);
    assert_int_equal(ns, 67);
    for (i = 0; i < ns && r < 3; i++) {
      at += s[i].unit == 0;
      if (s[i].unit == 1)
        round_end[r++] = at;
    }
    assert_int_equal(round_end[0], 3);
    assert_int_equal(round_end[1], 6);
    assert_int_equal(round_end[2], 10);
    assert_int_equal(s[ns - 1].unit, 1); /* unit 0 ends 7 rounds early */
    assert_int_equal(s[ns - 1].k, 30);
    hp__schedule_free(s);
  }
  lead = (hp__lead){5, 1, 1};
  assert_int_equal(hp__schedule_build(2, 0, repeats, &lead, 0, HP_ORDER_ABBA, 1, &s, &ns),
                   HP_EINVAL);
}

static void random_seed_7(void **state)
{
  static const want w[] = {
      {1, 1, 1}, {0, 1, 1}, {3, 1, 1}, {2, 1, 1}, /* warmup round */
      {3, 0, 1}, {1, 0, 1}, {2, 0, 1}, {0, 0, 1}, /* counted 1 */
      {2, 0, 2}, {3, 0, 2}, {1, 0, 2}, {0, 0, 2}, /* counted 2 */
      {1, 0, 3}, {0, 0, 3}, {2, 0, 3}, {3, 0, 3}, /* counted 3 */
  };
  (void)state;
  CHECK(4, 3, 1, HP_ORDER_RANDOM, 7, w);
}

static void random_seed_42(void **state)
{
  static const want w[] = {{1, 0, 1}, {2, 0, 1}, {0, 0, 1}, {0, 0, 2}, {1, 0, 2}, {2, 0, 2}};
  (void)state;
  CHECK(3, 2, 0, HP_ORDER_RANDOM, 42, w);
}

/* What makes any random schedule valid, over many seeds: each round is a permutation of the units
 * with the right warmup flag and k, so every run appears exactly once and a unit's warmups come
 * before its counted runs. The same seed gives the same order; seeds 7 and 8 differ. */
static void random_properties(void **state)
{
  enum {
    U = 5,
    R = 4,
    W = 2
  };
  hp__slot *a = NULL, *b = NULL;
  size_t na, nb, i, rd;
  uint64_t seed;

  (void)state;
  for (seed = 0; seed < 50; seed++) {
    assert_int_equal(hp__schedule_build(U, R, NULL, NULL, W, HP_ORDER_RANDOM, seed, &a, &na), 0);
    assert_int_equal(na, (size_t)U * (R + W));
    for (rd = 0; rd < R + W; rd++) {
      int seen[U] = {0};
      for (i = rd * U; i < (rd + 1) * U; i++) {
        assert_true(a[i].unit < U);
        seen[a[i].unit]++;
        assert_int_equal(a[i].warmup, rd < W);
        assert_int_equal(a[i].k, rd < W ? (int)rd + 1 : (int)rd - W + 1);
      }
      for (i = 0; i < U; i++)
        assert_int_equal(seen[i], 1);
    }
    assert_int_equal(hp__schedule_build(U, R, NULL, NULL, W, HP_ORDER_RANDOM, seed, &b, &nb), 0);
    assert_memory_equal(a, b, na * sizeof(*a));
    hp__schedule_free(a);
    hp__schedule_free(b);
  }
  assert_int_equal(hp__schedule_build(4, 3, NULL, NULL, 1, HP_ORDER_RANDOM, 7, &a, &na), 0);
  assert_int_equal(hp__schedule_build(4, 3, NULL, NULL, 1, HP_ORDER_RANDOM, 8, &b, &nb), 0);
  for (i = 0; i < na && a[i].unit == b[i].unit; i++)
    ;
  assert_true(i < na);
  hp__schedule_free(a);
  hp__schedule_free(b);
}

static void edges(void **state)
{
  hp__slot *s = (hp__slot *)&s;
  size_t n = 99;

  (void)state;
  /* No units, or no rounds: an empty schedule that is still an array to free. */
  assert_int_equal(hp__schedule_build(0, 3, NULL, NULL, 1, HP_ORDER_INTERLEAVED, 1, &s, &n), 0);
  assert_non_null(s);
  assert_int_equal(n, 0);
  hp__schedule_free(s);
  assert_int_equal(hp__schedule_build(2, 0, NULL, NULL, 0, HP_ORDER_ABBA, 1, &s, &n), 0);
  assert_int_equal(n, 0);
  hp__schedule_free(s);
  /* Bad counts allocate nothing and say so. */
  assert_int_equal(hp__schedule_build(2, -1, NULL, NULL, 0, HP_ORDER_INTERLEAVED, 1, &s, &n),
                   HP_EINVAL);
  assert_null(s);
  assert_int_equal(n, 0);
  assert_int_equal(hp__schedule_build(2, 1, NULL, NULL, -1, HP_ORDER_INTERLEAVED, 1, &s, &n),
                   HP_EINVAL);
  assert_int_equal(hp__schedule_build(SIZE_MAX, 2, NULL, NULL, 0, HP_ORDER_RANDOM, 1, &s, &n),
                   HP_ERANGE);
  assert_null(s);
  hp__schedule_free(NULL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(interleaved_warmup_round_first),
      cmocka_unit_test(interleaved_five_passes),
      cmocka_unit_test(abba_four_units),
      cmocka_unit_test(abba_with_warmup_and_odd_units),
      cmocka_unit_test(sequential_blocks),
      cmocka_unit_test(random_seed_7),
      cmocka_unit_test(random_seed_42),
      cmocka_unit_test(per_unit_repeat),
      cmocka_unit_test(lead_runs_ahead),
      cmocka_unit_test(random_properties),
      cmocka_unit_test(edges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
