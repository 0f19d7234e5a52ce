/*
 * Unit tests for the fast path of the ncu raw-page reader: the line splitter (lib/profile/
 * ncu_split.c) and the launch fold (lib/profile/fast/ncu_fold.c). Both must give exactly what the slow
 * path gives, so each is checked against it on many generated inputs: the splitter's fields
 * against the general CSV reader's (hp__csv_next) and its changed-field list against a plain
 * comparison with the reference line; the fold's sums, bit for bit, against hp__parse_num and
 * hp__ncu_add on every field of every row in order; and the whole parser's sums, on a generated
 * file of 300 kernels in turn with lines for the general reader among them, against sums worked
 * out here from hp__csv_next.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hprun.h"
#include "hprun_profile.h"
#include "profile/model/build.h"
#include "profile/fast/ncu_fold.h"
#include "util/sys/cpu.h"
#include "profile/fast/ncu_split.h"
#include "profile/model/strtab.h"
#include "util/csv/csv.h"
#include "test_csv_mem.h"

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

  assert_int_equal(csv_open_bytes(&c, line, n, NULL), 0);
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
  size_t reflen[MAXF], refoff[MAXF], nref = 0, eref, n, nf, i, j, k, nfld, nlazy = 0;
  hp__ncu_split sp;
  hp__ncu_ref rf;
  int clean, listed, lazy;

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
    /* A line the diff splitter split (lazy) lists its changed fields in cf, with their places;
     * its fields are found one by one (it stays lazy, as the parser leaves it) or all at once. */
    nlazy += (size_t)(lazy = sp.lazy);
    if (lazy && rnd(2))
      for (i = 0; i < nf; i++)
        hp__ncu_split_point(&sp, (int)i);
    else
      hp__ncu_split_point_all(&sp);
    check_against_reader(line, n, &sp, nf);
    /* Listed exactly when the field differs from the reference's of that index. */
    for (i = 0, j = 0; i < nf; i++) {
      listed = j < sp.nchg && sp.cf[j].col == i;
      if (listed) {
        assert_int_equal(sp.cf[j].off, (size_t)(sp.f[i] - line));
        assert_int_equal(sp.cf[j].len, sp.len[i]);
      }
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
  /* The diff splitter took a good share of the lines. */
  assert_true(nlazy > 2000);
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
    "4503599627370497", "1e308", "inf", "0.30000000000000004", "7", "-1e-300", "2", "1,000",
    "1,234,567.25", "62.06", "9,007,199,254.75", "12,34", "5."};
/* Finite sums only, so that the order of additions shows in the last bits. */
static const char *const finite[] = {
    "0.1", "1e16", "3", "-2.5", "0.30000000000000004", "7", "abc", "", "1,000", "-0", "123456.789",
    "1,234,567.25", "62.06", "0.07", "3,143,192,488.26"};
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
  char *f[NCOL], buf[NCOL * 24 + 16];
  size_t len[NCOL], i, k, width, pwidth = 0, nchg, o;
  uint32_t kid = 0, m;
  hp__ncu_cf cf[NCOL];
  hp_profile *pf, *pr;
  hp__ncu_fold fo;
  hp__ncu_chg ch;
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
    /* The fields lie in one buffer, each followed by a quote as in a line. The fold may read 16
     * bytes of a field where they lie before `lim`: the buffer's end (every field), the last
     * field's end (all but the last few), or nowhere (NULL). Now and then a field that did not
     * change is listed too. */
    for (i = 0, nchg = 0, o = 0; i < width; i++) {
      len[i] = strlen(cur[i]);
      memcpy(buf + o, cur[i], len[i]);
      f[i] = buf + o;
      if (i >= pwidth || strcmp(cur[i], prev[i]) != 0 || rnd(40) == 0) {
        cf[nchg].col = (uint32_t)i;
        cf[nchg].off = (uint32_t)o;
        cf[nchg++].len = (uint32_t)len[i];
      }
      o += len[i];
      buf[o++] = '"';
    }
    rec.f = f;
    rec.len = len;
    rec.n = width;
    rec.line = (long)k;
    ch.f = cf;
    ch.n = nchg;
    ch.base = buf;
    ch.lim = rnd(10) ? buf + sizeof(buf) : rnd(2) ? buf + o : NULL;
    assert_int_equal(hp__ncu_fold_row(&fo, pf, kid, &rec, width, rnd(30) ? &ch : NULL), 0);
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

/* The portable code, then the AVX2 code where the CPU has it (util/sys/cpu.h); the last forced is
 * undone by the caller. */
static int next_level(int *avx2)
{
  return ++*avx2 <= 1 && hp__cpu_force(*avx2) == 0;
}

static void test_fold_matches_row_by_row_sums(void **state)
{
  int i, avx2 = -1;

  (void)state;
  while (next_level(&avx2))
    for (i = 0; i < 20; i++) {
      if (i % 2)
        fold_run(0, vals, sizeof(vals) / sizeof(vals[0]));
      else
        fold_run(0, finite, sizeof(finite) / sizeof(finite[0]));
    }
  hp__cpu_force(-1);
}

static void test_fold_with_a_metric_named_twice(void **state)
{
  int i, avx2 = -1;

  (void)state;
  while (next_level(&avx2))
    for (i = 0; i < 20; i++)
      fold_run(1, finite, sizeof(finite) / sizeof(finite[0]));
  hp__cpu_force(-1);
}

/* Whole numbers repeated past what a double holds exactly: each copy must round as it would. */
static void test_fold_counts_round_as_single_adds(void **state)
{
  int32_t mids[2] = {0, 1};
  const char *big[2] = {"3002399751580331", "0.1"};
  char *f[2] = {(char *)big[0], (char *)big[1]};
  size_t len[2] = {16, 3}, k;
  hp__ncu_chg ch = {NULL, 0, NULL, NULL};
  hp_profile *pf;
  hp__ncu_fold fo;
  hp__csv_rec rec = {f, len, 2, 1};
  double s0 = 0, s1 = 0;

  (void)state;
  setup_profile(&pf, 2);
  memset(&fo, 0, sizeof(fo));
  assert_int_equal(hp__ncu_fold_init(&fo, mids, 2), 0);
  for (k = 0; k < 10; k++) {
    assert_int_equal(hp__ncu_fold_row(&fo, pf, 1, &rec, 2, &ch), 0);
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

/* ---------------------------------------------------------------------------------------------- */
/* The whole parser.                                                                               */

#define FXNCU "tests/fixtures/profile/ncu/h200-real/ncu.csv"
#define NKERN 300

/* The real H200 raw page's records of its full width: header, units row, launches. */
static size_t load_rows(char ***rows, size_t *ncols)
{
  hp__csv *c;
  hp__csv_rec rec;
  size_t n = 0, i;

  assert_int_equal(hp__csv_open_path(&c, FXNCU, NULL), 0);
  while (hp__csv_next(c, &rec) == 1) {
    if (rec.n < 100)
      continue; /* ncu's ==PROF== lines */
    *ncols = rec.n;
    rows[n] = malloc(rec.n * sizeof(char *));
    assert_non_null(rows[n]);
    for (i = 0; i < rec.n; i++)
      rows[n][i] = strdup(rec.f[i]);
    n++;
  }
  hp__csv_free(c);
  return n;
}

static void put_field(FILE *fp, const char *f, int first)
{
  fputs(first ? "\"" : ",\"", fp);
  for (; *f; f++) {
    if (*f == '"')
      fputc('"', fp); /* doubled */
    fputc(*f, fp);
  }
  fputc('"', fp);
}

/* Launches of NKERN kernels in turn (more than have a reference line each), fields changed to
 * numbers, text and no value, some lines for the general reader (a doubled quote), program output
 * between the rows. */
static void write_file(const char *path, char ***rows, size_t nrows, size_t ncols)
{
  static const char *const some[] = {"0.1", "7", "abc", "", "1,000", "-2.5", "n/a", "1e16"};
  FILE *fp = fopen(path, "w");
  char id[32], name[32];
  const char *f;
  size_t k, i, r, c1, c2;

  assert_non_null(fp);
  fputs("==PROF== Connected to process 1\n", fp);
  for (r = 0; r < 2; r++) {
    for (i = 0; i < ncols; i++)
      put_field(fp, rows[r][i], i == 0);
    fputc('\n', fp);
  }
  for (k = 0; k < 4000; k++) {
    r = 2 + rnd((unsigned)(nrows - 2));
    c1 = 11 + rnd((unsigned)(ncols - 11));
    c2 = 11 + rnd((unsigned)(ncols - 11));
    snprintf(id, sizeof(id), "%zu", k);
    snprintf(name, sizeof(name), "k%u", rnd(3) ? rnd(NKERN) : rnd(3));
    for (i = 0; i < ncols; i++) {
      f = i == 0 ? id : i == 4 ? name : rows[r][i];
      if ((i == c1 || i == c2) && rnd(2))
        f = some[rnd(sizeof(some) / sizeof(some[0]))];
      if (i == 5 && rnd(50) == 0)
        f = "a\"b";
      put_field(fp, f, i == 0);
    }
    fputc('\n', fp);
    if (rnd(100) == 0)
      fputs("the program's own output\n", fp);
  }
  fclose(fp);
}

/* Every metric sum of the file, worked out here with the general reader: each field of each launch
 * parsed and added in row order, as the parser did before its fast path. */
static void check_sums(const hp_profile *p, const char *path)
{
  size_t nk = p->ncu_names.n, nm = p->metrics.n, i, ncols = 0, kn, m;
  double *sum = calloc(nk * nm, sizeof(double)), v;
  long long *cnt = calloc(nk * nm, sizeof(long long)), got;
  long *mid = NULL, kid;
  char **names = NULL, key[512];
  hp__csv *c;
  hp__csv_rec rec;

  assert_true(sum && cnt);
  assert_int_equal(hp__csv_open_path(&c, path, NULL), 0);
  while (hp__csv_next(c, &rec) == 1) {
    if (rec.n > 100 && strcmp(rec.f[0], "ID") == 0) { /* the header, then the units */
      ncols = rec.n;
      names = calloc(ncols, sizeof(char *));
      mid = calloc(ncols, sizeof(long));
      for (i = 0; i < ncols; i++)
        names[i] = strdup(rec.f[i]);
      assert_int_equal(hp__csv_next(c, &rec), 1);
      for (i = 0; i < ncols; i++) {
        kn = (size_t)snprintf(key, sizeof(key), "%s\x1f%s", names[i], rec.f[i]);
        mid[i] = hp__strtab_find(&p->metrics, key, kn, hp__hash(key, kn));
      }
      continue;
    }
    if (ncols == 0 || rec.n != ncols)
      continue;
    kid = hp__strtab_find(&p->ncu_names, rec.f[4], rec.len[4], hp__hash(rec.f[4], rec.len[4]));
    assert_true(kid >= 0);
    for (i = 0; i < ncols; i++)
      if (mid[i] >= 0 && hp__parse_num(rec.f[i], rec.len[i], &v) > 0) {
        sum[(size_t)kid * nm + (size_t)mid[i]] += v;
        cnt[(size_t)kid * nm + (size_t)mid[i]]++;
      }
  }
  hp__csv_free(c);
  for (i = 0; i < nk; i++)
    for (m = 0; m < nm; m++) {
      got = m < p->ncu[i].ncap ? p->ncu[i].mn[m] : 0;
      assert_int_equal(got, cnt[i * nm + m]);
      if (got > 0)
        assert_memory_equal(&p->ncu[i].msum[m], &sum[i * nm + m], sizeof(double));
    }
  for (i = 0; i < ncols; i++)
    free(names[i]);
  free(names);
  free(mid);
  free(sum);
  free(cnt);
}

static void parser_run(void);

static void test_parser_sums_match_the_general_reader(void **state)
{
  int avx2 = -1;

  (void)state;
  while (next_level(&avx2))
    parser_run();
  hp__cpu_force(-1);
}

/* The whole parser at the vector level forced. */
static void parser_run(void)
{
  char **rows[32], dir[] = "/tmp/test_ncu_fast_XXXXXX", path[64];
  size_t nrows, ncols = 0, i, j;
  hp_profile *p;
  hp_diags d;

  nrows = load_rows(rows, &ncols);
  assert_true(nrows >= 4 && nrows < 32);
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/ncu.csv", dir);
  write_file(path, rows, nrows, ncols);
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, path, &d), 0);
  assert_true(p->ncu_names.n > HP__NCU_SLOTS); /* the shared fold is used too */
  check_sums(p, path);
  hp_profile_free(p);
  hp_diags_free(&d);
  unlink(path);
  rmdir(dir);
  for (i = 0; i < nrows; i++) {
    for (j = 0; j < ncols; j++)
      free(rows[i][j]);
    free(rows[i]);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_matches_reader_and_reference),
      cmocka_unit_test(test_fold_matches_row_by_row_sums),
      cmocka_unit_test(test_fold_with_a_metric_named_twice),
      cmocka_unit_test(test_fold_counts_round_as_single_adds),
      cmocka_unit_test(test_parser_sums_match_the_general_reader),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
