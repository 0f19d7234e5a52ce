/*
 * Unit tests for the fast path of the ncu raw-page reader: the line splitter (lib/profile/
 * ncu_split.c) and the launch fold (lib/profile/ncu_fold.c). Both must give exactly what the slow
 * path gives, so each is checked against it on many generated inputs: the splitter's fields
 * against the general CSV reader's (hp__csv_next) and its changed-field list against a plain
 * comparison with the reference line; the fold's sums, bit for bit, against hp__parse_num and
 * hp__ncu_add on every field of every row in order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"
#include "hprun_profile.h"
#include "profile/build.h"
#include "profile/ncu_fold.h"
#include "profile/ncu_split.h"
#include "util/csv.h"

static uint64_t rng = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* ---------------------------------------------------------------------------------------------- */
/* The splitter.                                                                                   */

#define MAXF 40

static const char *const pool[] = {"",
                                   "0",
                                   "1",
                                   "42",
                                   "1,234,567",
                                   "9.0",
                                   "n/a",
                                   "NVIDIA H200",
                                   "a,b",
                                   " 7 ",
                                   "x y",
                                   "(256, 1, 1)",
                                   "12345678901234567890",
                                   "-",
                                   "0.25"};

/* A line of the form ncu writes from the given fields. */
static size_t make_line(char *out, size_t cap, const char *const *f, size_t n)
{
  size_t i, o = 0;

  for (i = 0; i < n; i++)
    o += (size_t)snprintf(out + o, cap - o, "%s\"%s\"", i ? "," : "", f[i]);
  return o;
}

/* Breaks a clean line in one of the ways the splitter must leave to the general reader. */
static size_t spoil(char *s, size_t n, size_t cap)
{
  size_t at = n > 2 ? 1 + rnd((unsigned)(n - 2)) : 1;

  switch (rnd(5)) {
  case 0:
    memmove(s + at + 1, s + at, n - at);
    s[at] = '"';
    return n + 1;                                                 /* a stray quote */
  case 1: s[n] = ','; return n + 1;                               /* a trailing comma */
  case 2: s[n] = 'x'; return n + 1;                               /* text after a quote */
  case 3: return n - 1;                                           /* a field left open */
  default: return n + (size_t)snprintf(s + n, cap - n, ",plain"); /* an unquoted field */
  }
}

/* Reads `line` with the general reader: its fields must be the splitter's, in one record. */
static void check_against_reader(const char *line, size_t n, const hp__ncu_split *sp, size_t nf)
{
  hp__csv *c;
  hp__csv_rec rec;
  size_t i;

  assert_int_equal(hp__csv_open_mem(&c, line, n, "line", NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.n, nf);
  for (i = 0; i < nf; i++) {
    assert_int_equal(rec.len[i], sp->len[i]);
    assert_memory_equal(rec.f[i], sp->f[i], rec.len[i]);
  }
  assert_int_equal(hp__csv_next(c, &rec), 0);
  hp__csv_free(c);
}

static void test_split_matches_reader_and_reference(void **state)
{
  static char line[8192], ref[8192];
  const char *f[MAXF];
  size_t reflen[MAXF], refoff[MAXF], nref = 0, eref, n, nf, i, j, k, nfld;
  hp__ncu_split sp;
  hp__ncu_ref rf;
  int clean, listed;

  (void)state;
  memset(&sp, 0, sizeof(sp));
  memset(&rf, 0, sizeof(rf));
  assert_int_equal(hp__ncu_split_room(&sp, MAXF), 0);
  for (k = 0; k < 20000; k++) {
    /* Mostly the last line with a few fields changed, as launch rows are. */
    nfld = 1 + rnd(MAXF - 1);
    for (i = 0; i < nfld; i++)
      f[i] = pool[i % 3 == 0 ? rnd(sizeof(pool) / sizeof(pool[0])) : (i * 7) % 15];
    n = make_line(line, sizeof(line) - 64, f, nfld);
    clean = rnd(8) != 0;
    if (!clean)
      n = spoil(line, n, sizeof(line));
    /* Now and then no reference: every field is then listed. */
    eref = rnd(20) ? nref : 0;
    nf = hp__ncu_split_line(&sp, eref == nref ? &rf : NULL, line, n);
    if (clean)
      assert_int_equal(nf, nfld);
    if (nf == 0)
      continue;
    hp__ncu_split_point_all(&sp);
    check_against_reader(line, n, &sp, nf);
    /* Listed exactly when the field differs from the reference's of that index. */
    for (i = 0, j = 0; i < nf; i++) {
      listed = j < sp.nchg && sp.chg[j] == i;
      j += listed;
      assert_int_equal(listed,
                       !(i < eref && reflen[i] == sp.len[i] &&
                         memcmp(ref + refoff[i], sp.f[i], sp.len[i]) == 0));
    }
    assert_int_equal(j, sp.nchg);
    if (rnd(10) == 0) {
      hp__ncu_ref_forget(&rf);
      nref = 0;
    } else if (rnd(4) != 0) {
      /* The field arrays pass to the reference: read them first. */
      memcpy(ref, line, n);
      for (i = 0; i < nf; i++) {
        refoff[i] = (size_t)(sp.f[i] - line);
        reflen[i] = sp.len[i];
      }
      nref = nf;
      assert_int_equal(hp__ncu_split_keep(&sp, &rf), 0);
    }
  }
  /* More fields than there is room for: the general reader's. */
  for (i = 0; i < MAXF + 1; i++)
    f[i % MAXF] = "1";
  n = make_line(line, sizeof(line), f, MAXF);
  n += (size_t)snprintf(line + n, sizeof(line) - n, ",\"1\"");
  assert_int_equal(hp__ncu_split_line(&sp, &rf, line, n), 0);
  hp__ncu_split_free(&sp);
  hp__ncu_ref_free(&rf);
}

/* ---------------------------------------------------------------------------------------------- */
/* The fold.                                                                                       */

#define NCOL 12

/* clang-format off */
static const char *const vals[] = {
    "0.1", "1e16", "9007199254740993", "3", "-0", "0", "-2.5", "abc", "n/a", "",
    "4503599627370497", "1e308", "inf", "0.30000000000000004", "7", "-1e-300", "2", "1,000"};
/* Finite sums only, so that the order of additions shows in the last bits. */
static const char *const finite[] = {
    "0.1", "1e16", "3", "-2.5", "0.30000000000000004", "7", "abc", "", "1,000", "-0", "123456.789"};
/* clang-format on */

static void setup_profile(hp_profile **p, int nmetric)
{
  char name[16];
  uint32_t id;
  int i;

  assert_int_equal(hp_profile_new(p), 0);
  for (i = 0; i < 3; i++) {
    snprintf(name, sizeof(name), "k%d", i);
    assert_int_equal(hp__ncu_kernel_get(*p, name, strlen(name), &id), 0);
  }
  for (i = 0; i < nmetric; i++) {
    snprintf(name, sizeof(name), "m%d", i);
    assert_int_equal(hp__ncu_metric(*p, name, strlen(name), NULL, 0, &id), 0);
  }
}

/* One run: rows of NCOL fields whose values mostly persist, kernels that mostly repeat, some rows
 * cut short; `dup` gives two columns one metric id. */
static void fold_run(int dup, const char *const *vpool, unsigned npool)
{
  int32_t mids[NCOL] = {-1, 0, 1, 2, -1, 3, 4, 5, 6, 7, 8, 9};
  const char *cur[NCOL], *prev[NCOL];
  char *f[NCOL];
  size_t len[NCOL], i, k, width, pwidth = 0, nchg;
  uint32_t chg[NCOL], kid = 0, m;
  hp_profile *pf, *pr;
  hp__ncu_fold fo;
  hp__csv_rec rec;
  double v;

  if (dup)
    mids[11] = 3;
  setup_profile(&pf, 10);
  setup_profile(&pr, 10);
  memset(&fo, 0, sizeof(fo));
  assert_int_equal(hp__ncu_fold_init(&fo, mids, NCOL), 0);
  for (i = 0; i < NCOL; i++)
    cur[i] = prev[i] = vpool[rnd(npool)];
  for (k = 0; k < 3000; k++) {
    for (i = 0; i < NCOL; i++)
      if (rnd(6) == 0)
        cur[i] = vpool[rnd(npool)];
    if (rnd(5) == 0)
      kid = rnd(3);
    width = rnd(20) == 0 ? 1 + rnd(NCOL) : NCOL;
    for (i = 0, nchg = 0; i < width; i++) {
      f[i] = (char *)cur[i];
      len[i] = strlen(cur[i]);
      if (i >= pwidth || strcmp(cur[i], prev[i]) != 0)
        chg[nchg++] = (uint32_t)i;
    }
    rec.f = f;
    rec.len = len;
    rec.n = width;
    rec.line = (long)k;
    assert_int_equal(hp__ncu_fold_row(&fo, pf, kid, &rec, width, rnd(30) ? chg : NULL, nchg), 0);
    memcpy(prev, cur, sizeof(cur));
    pwidth = width;
    /* The slow path: every field parsed and added in column order. */
    for (i = 0; i < width; i++)
      if (mids[i] >= 0 && hp__parse_num(cur[i], strlen(cur[i]), &v) > 0)
        assert_int_equal(hp__ncu_add(pr, kid, (uint32_t)mids[i], v), 0);
    if (rnd(500) == 0)
      assert_int_equal(hp__ncu_fold_flush(&fo, pf), 0);
  }
  assert_int_equal(hp__ncu_fold_flush(&fo, pf), 0);
  for (kid = 0; kid < 3; kid++)
    for (m = 0; m < 10; m++) {
      long long nf = m < pf->ncu[kid].ncap ? pf->ncu[kid].mn[m] : 0;
      long long nr = m < pr->ncu[kid].ncap ? pr->ncu[kid].mn[m] : 0;
      assert_int_equal(nf, nr);
      if (nr > 0) /* bit for bit: NaN, infinities and -0 included */
        assert_memory_equal(&pf->ncu[kid].msum[m], &pr->ncu[kid].msum[m], sizeof(double));
    }
  hp__ncu_fold_free(&fo);
  hp_profile_free(pf);
  hp_profile_free(pr);
}

static void test_fold_matches_row_by_row_sums(void **state)
{
  int i;

  (void)state;
  for (i = 0; i < 20; i++) {
    if (i % 2)
      fold_run(0, vals, sizeof(vals) / sizeof(vals[0]));
    else
      fold_run(0, finite, sizeof(finite) / sizeof(finite[0]));
  }
}

static void test_fold_with_a_metric_named_twice(void **state)
{
  int i;

  (void)state;
  for (i = 0; i < 20; i++)
    fold_run(1, finite, sizeof(finite) / sizeof(finite[0]));
}

/* Whole numbers repeated past what a double holds exactly: each copy must round as it would. */
static void test_fold_counts_round_as_single_adds(void **state)
{
  int32_t mids[2] = {0, 1};
  const char *big[2] = {"3002399751580331", "0.1"};
  char *f[2] = {(char *)big[0], (char *)big[1]};
  size_t len[2] = {16, 3}, k;
  uint32_t none[1] = {0};
  hp_profile *pf;
  hp__ncu_fold fo;
  hp__csv_rec rec = {f, len, 2, 1};
  double s0 = 0, s1 = 0;

  (void)state;
  setup_profile(&pf, 2);
  memset(&fo, 0, sizeof(fo));
  assert_int_equal(hp__ncu_fold_init(&fo, mids, 2), 0);
  for (k = 0; k < 10; k++) {
    assert_int_equal(hp__ncu_fold_row(&fo, pf, 1, &rec, 2, none, 0), 0);
    s0 += 3002399751580331.0;
    s1 += 0.1;
  }
  assert_int_equal(hp__ncu_fold_flush(&fo, pf), 0);
  /* A whole number below 2^52 whose running sum passes 2^53 rounds at each step: ten copies make
   * 30023997515803316, not 10 * v = 30023997515803310. Ten 0.1 make 0.9999999999999999, not 1. */
  assert_true(pf->ncu[1].msum[0] == s0);
  assert_true(s0 == 30023997515803316.0 && s0 != 10 * 3002399751580331.0);
  assert_true(pf->ncu[1].msum[1] == s1);
  assert_true(s1 == 0.9999999999999999);
  assert_int_equal(pf->ncu[1].mn[0], 10);
  assert_int_equal(pf->ncu[1].mn[1], 10);
  hp__ncu_fold_free(&fo);
  hp_profile_free(pf);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_matches_reader_and_reference),
      cmocka_unit_test(test_fold_matches_row_by_row_sums),
      cmocka_unit_test(test_fold_with_a_metric_named_twice),
      cmocka_unit_test(test_fold_counts_round_as_single_adds),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
