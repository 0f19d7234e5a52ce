/*
 * Unit tests for merging per-file profiles (lib/profile/merge/merge.c, merge_lists.c), the capped lists
 * of distinct values they rely on (build.c), and the thread pool that reads the files
 * (lib/util/sys/pool.c). Every expectation is worked out by hand in the comments beside it; the
 * contract is docs/internals/merge.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/model/build.h"
#include "profile/merge/merge.h"
#include "util/base/buf.h"
#include "util/sys/pool.h"

/* ---------------------------------------------------------------------------------------------- */
/* Compensated sums.                                                                               */

static double csum3(double a, double b, double c)
{
  double s = 0, k = 0;

  hp__csum_add(&s, &k, a);
  hp__csum_add(&s, &k, b);
  hp__csum_add(&s, &k, c);
  return hp__csum_value(s, k);
}

static void test_csum(void **state)
{
  double s = 0, k = 0;

  (void)state;
  /* 0.1 + 0.2 + 0.3 in doubles, left to right, is 0.6000000000000001; the exact sum of the three
   * doubles rounds to 0.6 (Python: math.fsum([0.1, 0.2, 0.3]) == 0.6). */
  assert_true(0.1 + 0.2 + 0.3 != 0.6);
  assert_true(csum3(0.1, 0.2, 0.3) == 0.6);
  /* 1e16 + 1 loses the 1 in a plain sum; the compensation keeps it: 1e16 + 1 - 1e16 = 1. */
  assert_true(csum3(1e16, 1.0, -1e16) == 1.0);
  /* Whole numbers add exactly: no compensation at all. */
  hp__csum_add(&s, &k, 123456789.0);
  hp__csum_add(&s, &k, 987654321.0);
  assert_true(s == 1111111110.0 && k == 0.0);
  /* An overflow stays infinite (not NaN). */
  assert_true(isinf(csum3(1e308, 1e308, 1.0)));
}

/* ---------------------------------------------------------------------------------------------- */
/* Distinct values.                                                                                */

static void add_rows(hp__vals *v, const char *const *rows, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    assert_int_equal(hp__vals_add(v, rows[i], strlen(rows[i])), 0);
}

static void vals_clear(hp__vals *v)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    free(v->v[i]);
  memset(v, 0, sizeof(*v));
}

/* File A: "10".."25" once each, and "3" twice (18 rows, 17 distinct values). File B: "1", "2",
 * "30" three times and "abc" (6 rows). Over both, the 16 smallest distinct values are 1, 2, 3 and
 * 10..22; the other rows are 23, 24, 25 (one each), 30 (three) and abc (one): 7 rows. */
static const char *const file_a[] = {"10", "11", "12", "13", "14", "15", "3",  "16", "17",
                                     "18", "19", "20", "21", "22", "23", "24", "25", "3"};
static const char *const file_b[] = {"30", "1", "abc", "30", "2", "30"};

static void check_ab(const hp__vals *v)
{
  size_t i, seen = 0;
  long long rows = 0;

  assert_int_equal(v->n, HP__MAX_VALS);
  assert_int_equal(v->more, 7);
  for (i = 0; i < v->n; i++) {
    double d = atof(v->v[i]);
    assert_true(d == 1 || d == 2 || d == 3 || (d >= 10 && d <= 22));
    assert_int_equal(v->cnt[i], d == 3 ? 2 : 1);
    seen |= (size_t)1 << (d < 10 ? (size_t)d : (size_t)d - 6);
    rows += v->cnt[i];
  }
  assert_int_equal(seen, 0x1fffe); /* bits 1..3 and 4..16: each value once */
  assert_int_equal(rows + v->more, 24);
}

static void test_vals_merge_is_exact(void **state)
{
  hp__vals one, a, b, ba;
  size_t i;

  (void)state;
  memset(&one, 0, sizeof(one));
  memset(&a, 0, sizeof(a));
  memset(&b, 0, sizeof(b));
  memset(&ba, 0, sizeof(ba));
  /* One pass over A then B. */
  add_rows(&one, file_a, 18);
  add_rows(&one, file_b, 6);
  check_ab(&one);
  /* A alone keeps 3 and 10..24 and counts the row of 25 as more. */
  add_rows(&a, file_a, 18);
  assert_int_equal(a.n, HP__MAX_VALS);
  assert_int_equal(a.more, 1);
  /* Each file on its own, then merged as merge.c does. */
  add_rows(&b, file_b, 6);
  assert_int_equal(b.n, 4);
  for (i = 0; i < b.n; i++)
    assert_int_equal(hp__vals_addn(&a, b.v[i], b.len[i], b.cnt[i]), 0);
  a.more += b.more;
  check_ab(&a);
  /* The rows in the other order keep the same values. */
  add_rows(&ba, file_b, 6);
  add_rows(&ba, file_a, 18);
  check_ab(&ba);
  vals_clear(&one);
  vals_clear(&a);
  vals_clear(&b);
  vals_clear(&ba);
}

/* ---------------------------------------------------------------------------------------------- */
/* Whole profiles.                                                                                 */

static void trace(hp_profile *p, const char *name, double ns, unsigned file)
{
  hp__tstat *s;

  assert_int_equal(hp__ttable_get(&p->t[HP__T_KERNEL], name, strlen(name), &s), 0);
  hp__tstat_add_trace(s, ns, file);
}

static const hp__tstat *kstat(const hp_profile *p, const char *name, size_t id)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];

  assert_true(id < t->names.n);
  assert_string_equal(t->names.s[id], name);
  return &t->st[id];
}

static void test_merge_time_tables(void **state)
{
  hp_profile *a, *b, *d;
  hp__tstat *s;
  const hp__tstat *k;

  (void)state;
  assert_int_equal(hp_profile_new(&a), 0);
  assert_int_equal(hp_profile_new(&b), 0);
  assert_int_equal(hp_profile_new(&d), 0);
  /* A: a trace of k1 (100 ns) and k2 (50 ns). B: k2 (30 ns) traced, and a stats row of k3: 4
   * calls, 40 ns in all, average 10, no min/max. */
  trace(a, "k1", 100, 1);
  trace(a, "k2", 50, 1);
  trace(b, "k2", 30, 1);
  assert_int_equal(hp__ttable_get(&b->t[HP__T_KERNEL], "k3", 2, &s), 0);
  hp__tstat_add_stats(s, 4, 40, 10, NAN, NAN);
  assert_int_equal(hp__profile_merge(d, a), 0);
  assert_int_equal(hp__profile_merge(d, b), 0);
  hp__profile_merge_end(d);
  /* Ids in order of first appearance over A then B: k1, k2, k3. */
  k = kstat(d, "k1", 0);
  assert_true(k->calls == 1 && k->total_ns == 100 && k->nsources == 1);
  k = kstat(d, "k2", 1);
  assert_true(k->calls == 2 && k->total_ns == 80 && k->min_ns == 30 && k->max_ns == 50);
  assert_int_equal(k->nsources, 2); /* two trace files */
  assert_true(isnan(k->avg_reported));
  k = kstat(d, "k3", 2);
  assert_true(k->calls == 4 && k->total_ns == 40 && k->nominmax == 1 && !k->have_minmax);
  assert_true(k->avg_reported == 10); /* one source: the profiler's own average stays */
  /* k3 from a second file: the average now comes from the merged totals. */
  assert_int_equal(hp__profile_merge(d, b), 0);
  hp__profile_merge_end(d);
  k = kstat(d, "k3", 2);
  assert_true(k->calls == 8 && k->total_ns == 80 && isnan(k->avg_reported));
  hp_profile_free(a);
  hp_profile_free(b);
  hp_profile_free(d);
}

/* A kernel-stack profile with `rows` rows and origins (frame, first row, launches). */
static void stack(hp_profile *p, long long rows, const char *frame, long long first, int n)
{
  uint32_t id;
  int i;

  assert_int_equal(hp__stack_kernel_get(p, "gemm", 4, &id), 0);
  for (i = 0; i < n; i++)
    assert_int_equal(hp__stack_origin(p, id, frame, first + i), 0);
  p->rowseq = rows;
}

static void test_merge_stacks_shift_rows(void **state)
{
  hp_profile *a, *b, *d;
  const hp__stack_kernel *k;

  (void)state;
  assert_int_equal(hp_profile_new(&a), 0);
  assert_int_equal(hp_profile_new(&b), 0);
  assert_int_equal(hp_profile_new(&d), 0);
  /* A (10 rows): 2 launches from f (first at row 5), 1 from g (row 7). B (4 rows): 3 from g
   * (first at its row 1, row 11 over both files), 1 from h (its row 2: 12). */
  stack(a, 10, "f", 5, 2);
  stack(a, 10, "g", 7, 1);
  stack(b, 4, "g", 1, 3);
  stack(b, 4, "h", 2, 1);
  assert_int_equal(hp__profile_merge(d, a), 0);
  assert_int_equal(hp__profile_merge(d, b), 0);
  assert_int_equal(d->rowseq, 14);
  k = &d->stk[0];
  assert_int_equal(k->launches, 7);
  assert_int_equal(k->no, 3);
  assert_string_equal(k->o[0].frame, "f");
  assert_true(k->o[0].n == 2 && k->o[0].first == 5);
  assert_string_equal(k->o[1].frame, "g");
  assert_true(k->o[1].n == 4 && k->o[1].first == 7); /* A's row 7 is earlier than B's 11 */
  assert_string_equal(k->o[2].frame, "h");
  assert_true(k->o[2].n == 1 && k->o[2].first == 12);
  hp_profile_free(a);
  hp_profile_free(b);
  hp_profile_free(d);
}

/* One ncu launch of kernel "sgemm" with block size `block` and metric m (unit ms) `v`, after
 * metric `other` when it is not NULL. */
static void ncu(hp_profile *p, const char *block, const char *other, double v)
{
  uint32_t k, m;

  assert_int_equal(hp__ncu_kernel_get(p, "sgemm", 5, &k), 0);
  if (other) {
    assert_int_equal(hp__ncu_metric(p, other, strlen(other), NULL, 0, &m), 0);
    assert_int_equal(hp__ncu_add(p, k, m, 1), 0);
  }
  assert_int_equal(hp__ncu_metric(p, "m", 1, "ms", 2, &m), 0);
  assert_int_equal(hp__ncu_add(p, k, m, v), 0);
  p->ncu[k].launches++;
  if (p->ncu[k].block == NULL)
    p->ncu[k].block = hp__strdup(block);
}

static void test_merge_ncu(void **state)
{
  hp_profile *f[3], *d;
  const hp__ncu_kernel *k;
  int i;

  (void)state;
  for (i = 0; i < 3; i++)
    assert_int_equal(hp_profile_new(&f[i]), 0);
  assert_int_equal(hp_profile_new(&d), 0);
  /* Three files with m = 0.1, 0.2, 0.3 ms; the second has metric n first, and block (64,1,1)
   * where the others have (32,1,1). */
  ncu(f[0], "(32, 1, 1)", NULL, 0.1);
  ncu(f[1], "(64, 1, 1)", "n", 0.2);
  ncu(f[2], "(32, 1, 1)", NULL, 0.3);
  for (i = 0; i < 3; i++)
    assert_int_equal(hp__profile_merge(d, f[i]), 0);
  hp__profile_merge_end(d);
  /* Metric ids in order of first appearance: m (from file 1), then n. */
  assert_int_equal(d->metrics.n, 2);
  assert_string_equal(d->metric_unit[0], "ms");
  assert_true(d->metric_unit[1] == NULL);
  k = &d->ncu[0];
  assert_int_equal(k->launches, 3);
  assert_string_equal(k->block, "(32, 1, 1)");
  assert_int_equal(k->block_varies, 1);
  assert_true(k->msum[0] == 0.6); /* compensated: see test_csum */
  assert_int_equal(k->mn[0], 3);
  assert_true(k->msum[1] == 1 && k->mn[1] == 1);
  for (i = 0; i < 3; i++)
    hp_profile_free(f[i]);
  hp_profile_free(d);
}

static void test_merge_lists(void **state)
{
  hp_profile *a, *b, *d;
  int i;

  (void)state;
  assert_int_equal(hp_profile_new(&a), 0);
  assert_int_equal(hp_profile_new(&b), 0);
  assert_int_equal(hp_profile_new(&d), 0);
  /* 600 leak lines in each file: one profile keeps the first 1,000 and counts 200 as dropped. */
  for (i = 0; i < 600; i++) {
    assert_int_equal(hp__leak_add(a, "a.txt", i + 1, "host", 4, 1, "x", 1), 0);
    assert_int_equal(hp__leak_add(b, "b.txt", i + 1, "host", 4, 2, "y", 1), 0);
  }
  assert_int_equal(hp__agent_add(a, "GPU", "gfx936", "DCU", 64, 60), 0);
  assert_int_equal(hp__agent_add(b, "GPU", "gfx936", "DCU", 64, 60), 0); /* the same agent */
  assert_int_equal(hp__profile_add_file(a, "a.txt", "hipprof-text", HP__TB_LEAK), 0);
  assert_int_equal(hp__profile_add_file(b, "b.txt", "hipprof-text", HP__TB_LEAK), 0);
  hp__kspan_add(a, 100, 200);
  hp__kspan_add(b, 50, 150);
  assert_int_equal(hp__profile_merge(d, a), 0);
  assert_int_equal(hp__profile_merge(d, b), 0);
  assert_int_equal(d->nleaks, 1000);
  assert_int_equal(d->leaks_dropped, 200);
  assert_string_equal(d->leaks[999].file, "b.txt");
  assert_int_equal(d->leaks[999].line, 400);
  assert_int_equal(d->nagents, 1);
  assert_int_equal(d->nfiles, 2);
  assert_string_equal(d->files[0].path, "a.txt");
  assert_string_equal(d->files[1].path, "b.txt");
  assert_true(d->have_span && d->span_first == 50 && d->span_last == 200);
  hp_profile_free(a);
  hp_profile_free(b);
  hp_profile_free(d);
}

/* ---------------------------------------------------------------------------------------------- */
/* Merged against one pass, over fixture files.                                                    */

/* ---------------------------------------------------------------------------------------------- */
/* The pool.                                                                                       */

typedef struct pool_test {
  long long sq[64];
  size_t order[64], ndone;
  size_t stop_at;
} pool_test;

static void pt_work(void *ud, size_t i)
{
  pool_test *t = ud;

  t->sq[i] = (long long)(i * i);
}

static int pt_done(void *ud, size_t i)
{
  pool_test *t = ud;

  assert_int_equal(t->sq[i], (long long)(i * i)); /* its work has finished */
  t->order[t->ndone++] = i;
  return i == t->stop_at ? 42 : 0;
}

static void test_pool_in_order(void **state)
{
  static const int jobs[] = {1, 2, 8};
  size_t i, k;

  (void)state;
  for (k = 0; k < 3; k++) {
    pool_test t;
    memset(&t, 0, sizeof(t));
    t.stop_at = 64;
    assert_int_equal(hp__pool_run(64, jobs[k], 3, pt_work, pt_done, &t), 0);
    assert_int_equal(t.ndone, 64);
    for (i = 0; i < 64; i++)
      assert_int_equal(t.order[i], i);
    /* A done that says stop: its value comes back, and no later task is handed over. */
    memset(&t, 0, sizeof(t));
    t.stop_at = 20;
    assert_int_equal(hp__pool_run(64, jobs[k], 3, pt_work, pt_done, &t), 42);
    assert_int_equal(t.ndone, 21);
  }
  assert_true(hp__pool_cpus() >= 1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_csum),
      cmocka_unit_test(test_vals_merge_is_exact),
      cmocka_unit_test(test_merge_time_tables),
      cmocka_unit_test(test_merge_stacks_shift_rows),
      cmocka_unit_test(test_merge_ncu),
      cmocka_unit_test(test_merge_lists),
      cmocka_unit_test(test_pool_in_order),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
