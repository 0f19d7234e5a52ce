/*
 * Unit tests for the splitters of ncu's lines (lib/profile/fast/ncu_split.c, ncu_diff.c). The
 * reference-following splitter must give what the general CSV reader (hp__csv_next) gives, and
 * the diff splitter, portable and AVX2 where the CPU has it (util/sys/cpu.h), where it answers, exactly what
 * the reference-following one gives (the same fields, the same list of changed fields). Lines are
 * generated from fields chosen to sit on the edges of their tests: separators inside a field
 * (`","`), quotes next to commas, empty fields, fields of 15-17 bytes (16-byte compares), lines
 * whose ends fall anywhere in a 16-byte block, and lines spoiled in the ways ncu never writes.
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
#include "util/sys/cpu.h"
#include "profile/fast/ncu_split.h"
#include "util/csv/csv.h"

#define TEST_XORSHIFT_SEED 0x9E3779B97F4A7C15ULL
#include "test_xorshift.h"
#include "test_csv_mem.h"

#define MAXF 48

static const char *const pool[] = {"",
                                   "0",
                                   "12.5",
                                   "1,234",
                                   "1,234.56",
                                   "n/a",
                                   "NVIDIA H200",
                                   "(256, 1, 1)",
                                   "123456789012345",
                                   "1234567890123456",
                                   "12345678901234567",
                                   ",",
                                   "\",\"",
                                   "a\",\"b",
                                   "\",",
                                   ",\"",
                                   "x,\"y",
                                   "void native::vectorized_elementwise_kernel<4, float>"};

/* A line from fields: each between quotes, separated by commas (the fields may hold quotes: the
 * line is then not of ncu's form, or is, read another way). */
static size_t make_line(char *out, size_t cap, const char *const *f, size_t n)
{
  size_t i, o = 0;

  for (i = 0; i < n; i++)
    o += (size_t)snprintf(out + o, cap - o, "%s\"%s\"", i ? "," : "", f[i]);
  return o;
}

/* Breaks a line in one of the ways the general reader must judge. */
static size_t spoil(char *s, size_t n, size_t cap)
{
  size_t at = n > 2 ? 1 + rnd((unsigned)(n - 2)) : 1;

  switch (rnd(6)) {
  case 0:
    memmove(s + at + 1, s + at, n - at);
    s[at] = '"';
    return n + 1;
  case 1: s[n] = ','; return n + 1;
  case 2: s[n] = 'x'; return n + 1;
  case 3: return n - 1;
  case 4: s[0] = 'x'; return n;
  default: return n + (size_t)snprintf(s + n, cap - n, ",plain");
  }
}

/* Whether the line's fields hold no quote and none is a lone comma (whose quotes make two
 * separators that overlap): then the diff splitter must not refuse the line. */
static int plain_fields(const char *const *f, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (strchr(f[i], '"') != NULL || strcmp(f[i], ",") == 0)
      return 0;
  return 1;
}

/* The general reader's fields must be the splitter's. */
static void check_reader(const char *line, size_t n, const hp__ncu_split *sp, size_t nf)
{
  hp__csv *c;
  hp__csv_rec rec;
  size_t i;

  assert_int_equal(csv_open_bytes(&c, line, n, NULL), 0);
  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_int_equal(rec.n, nf);
  for (i = 0; i < nf; i++) {
    assert_int_equal(rec.len[i], sp->len[i]);
    assert_memory_equal(rec.f[i], line + sp->off[i], rec.len[i]);
  }
  hp__csv_free(c);
}

/* The vector levels: portable, AVX2 (util/sys/cpu.h). */
#define NSP 2

/* The diff splitters, one per level (ncu_diff.c). */
static hp__ncu_split sd[NSP];

/* The diff splitter at every level the CPU has, against the reference-following splitter's fields
 * (sp, want fields) and the changed fields chg[0..nchg): where it answers (it must when `must`),
 * the same fields, the same changed fields in order with their places, and every field found from
 * its field ends (locate) where that splitter put it. */
static void check_diff(const hp__ncu_split *sp, size_t want, const uint32_t *chg, size_t nchg,
                       const hp__ncu_ref *ref, const char *line, size_t n, int must)
{
  size_t got, i;
  int k;

  for (k = 0; k < NSP && k <= hp__cpu_avx2(); k++) {
    got = hp__ncu_split_diff(&sd[k], ref, line, n, k);
    if (must)
      assert_int_equal(got, want);
    if (got == 0)
      continue;
    assert_int_equal(got, want);
    assert_true(sd[k].lazy);
    assert_int_equal(sd[k].nchg, nchg);
    for (i = 0; i < nchg; i++) {
      assert_int_equal(sd[k].cf[i].col, chg[i]);
      assert_int_equal(sd[k].cf[i].off, sp->off[chg[i]]);
      assert_int_equal(sd[k].cf[i].len, sp->len[chg[i]]);
    }
    for (i = 0; i < got; i++) {
      hp__ncu_split_locate(&sd[k], i);
      assert_int_equal(sd[k].off[i], sp->off[i]);
      assert_int_equal(sd[k].len[i], sp->len[i]);
      assert_ptr_equal(sd[k].f[i], line + sp->off[i]);
    }
  }
}

/* Gives the reference its field ends (the diff splitter needs them), checking that every level
 * makes the same ones. */
static void ref_masks(hp__ncu_ref *ref, size_t cap)
{
  hp__ncu_masks m;
  int k, want = 0, got;

  memset(&m, 0, sizeof(m));
  for (k = 0; k < NSP && k <= hp__cpu_avx2(); k++) {
    got = hp__ncu_masks_of(k ? &m : &ref->m, ref->s, ref->n, cap, k);
    if (k == 0)
      want = got;
    assert_int_equal(got, want);
    if (k > 0 && got) {
      assert_int_equal(m.nw, ref->m.nw);
      assert_memory_equal(m.em, ref->m.em, (m.nw + 2) * sizeof(*m.em));
    }
  }
  hp__ncu_masks_free(&m);
}

/* The changed columns of the line sp split last. */
static const uint32_t *changed(const hp__ncu_split *sp)
{
  static uint32_t chg[4096];
  size_t j;

  assert_true(sp->nchg <= sizeof(chg) / sizeof(chg[0]));
  for (j = 0; j < sp->nchg; j++)
    chg[j] = sp->cf[j].col;
  return chg;
}

/* Splits `line` with the reference-following splitter, checks its fields against the general
 * reader's and the diff splitter's against its own (the diff splitter must answer when `must`). */
static void check_line(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *line, size_t n,
                       int must)
{
  size_t want, j;

  /* A reference the diff splitter made has no field offsets: the other compares with none. */
  if (ref != NULL && !ref->full)
    ref = NULL;
  want = hp__ncu_split_ref(sp, ref, line, n);
  if (must)
    assert_int_not_equal(want, 0);
  if (want > 0)
    check_reader(line, n, sp, want);
  /* Its changed fields' places are the fields'. */
  for (j = 0; j < sp->nchg; j++) {
    assert_int_equal(sp->cf[j].off, sp->off[sp->cf[j].col]);
    assert_int_equal(sp->cf[j].len, sp->len[sp->cf[j].col]);
  }
  if (ref != NULL && ref->nf > 0 && ref->m.nw > 0)
    check_diff(sp, want, changed(sp), sp->nchg, ref, line, n, must);
}

static void test_split_matches_reader(void **state)
{
  static char line[16384];
  const char *f[MAXF + 1];
  hp__ncu_split sp;
  hp__ncu_ref ref;
  size_t n, nfld, i, k, cap;
  int clean;

  (void)state;
  memset(&sp, 0, sizeof(sp));
  memset(&ref, 0, sizeof(ref));
  assert_int_equal(hp__ncu_split_room(&sp, MAXF), 0);
  for (k = 0; k < NSP; k++)
    assert_int_equal(hp__ncu_split_room(&sd[k], MAXF), 0);
  for (k = 0; k < 30000; k++) {
    nfld = 1 + rnd(MAXF);
    for (i = 0; i < nfld; i++)
      f[i] = pool[rnd(4) == 0 ? rnd(sizeof(pool) / sizeof(pool[0])) : (i * 5) % 8];
    n = make_line(line, sizeof(line) - 64, f, nfld);
    clean = rnd(6) != 0;
    if (!clean)
      n = spoil(line, n, sizeof(line));
    check_line(&sp, rnd(8) ? &ref : NULL, line, n, clean && plain_fields(f, nfld));
    /* The line becomes the reference now and then (the reference splitter's fields). */
    if (sp.curnf > 0 && rnd(3) == 0) {
      assert_int_equal(hp__ncu_split_keep(&sp, &ref), 0);
      ref_masks(&ref, MAXF);
    } else if (rnd(20) == 0)
      hp__ncu_ref_forget(&ref);
  }
  /* As many fields as there is room for, and one more. */
  for (cap = MAXF; cap <= MAXF + 1; cap++) {
    for (i = 0; i < cap; i++)
      f[i] = "1";
    n = make_line(line, sizeof(line), f, cap);
    assert_int_equal(hp__ncu_split_line(&sp, NULL, line, n), cap <= MAXF ? cap : 0);
  }
  hp__ncu_split_free(&sp);
  for (k = 0; k < NSP; k++)
    hp__ncu_split_free(&sd[k]);
  hp__ncu_ref_free(&ref);
}

/* Short lines, every length and every spot of the last separator within a 16-byte block. */
static void test_split_short_lines(void **state)
{
  static const char *const forms[] = {"\"\"",         "\"a\"",     "\"\",\"\"", "\",\"",
                                      "\"a\",\"b\"",  "\",\",\"",  "\"\"\"",    "\"a\",",
                                      "\"a\",\"\"\"", "\"\",\"\"", "\"a\",\"\""};
  hp__ncu_split sp;
  char line[64];
  size_t i, pad;

  (void)state;
  memset(&sp, 0, sizeof(sp));
  assert_int_equal(hp__ncu_split_room(&sp, 8), 0);
  for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
    check_line(&sp, NULL, forms[i], strlen(forms[i]), 0);
  /* "xxx...","b" with the separator at every offset of the first 40 bytes. */
  for (pad = 0; pad < 40; pad++) {
    line[0] = '"';
    memset(line + 1, 'x', pad);
    memcpy(line + 1 + pad, "\",\"b\"", 5);
    check_line(&sp, NULL, line, pad + 6, 1);
    assert_int_equal(sp.curnf, 2);
    assert_int_equal(sp.len[0], pad);
  }
  hp__ncu_split_free(&sp);
}

/* Long lines (ncu's --set full: 2,238 columns): quotes counted past the byte lanes' flush, a
 * changed field and a lone comma far into the line. */
static void test_split_long_lines(void **state)
{
  enum {
    NF = 3000
  };
  static const char *f[NF];
  static char line[NF * 12];
  hp__ncu_split sp;
  hp__ncu_ref ref;
  size_t n, i, k;

  (void)state;
  memset(&sp, 0, sizeof(sp));
  memset(&ref, 0, sizeof(ref));
  assert_int_equal(hp__ncu_split_room(&sp, NF + 1), 0);
  for (k = 0; k < NSP; k++)
    assert_int_equal(hp__ncu_split_room(&sd[k], NF + 1), 0);
  for (i = 0; i < NF; i++)
    f[i] = pool[i % 8];
  n = make_line(line, sizeof(line), f, NF);
  check_line(&sp, NULL, line, n, 1);
  assert_int_equal(sp.curnf, NF);
  assert_int_equal(hp__ncu_split_keep(&sp, &ref), 0);
  ref_masks(&ref, NF + 1);
  f[2500] = "99.75";
  n = make_line(line, sizeof(line), f, NF);
  check_line(&sp, &ref, line, n, 1);
  assert_int_equal(sp.nchg, 1);
  assert_int_equal(sp.cf[0].col, 2500);
  /* A lone comma: two separators share its quotes, so the diff splitter leaves the line to the
   * other splitter, which reads it. */
  f[2900] = ",";
  n = make_line(line, sizeof(line), f, NF);
  check_line(&sp, &ref, line, n, 0);
  assert_int_equal(sp.curnf, NF);
  for (k = 0; k < NSP && (int)k <= hp__cpu_avx2(); k++)
    assert_int_equal(hp__ncu_split_diff(&sd[k], &ref, line, n, (int)k), 0);
  /* Empty fields: two quotes in every three bytes. */
  for (i = 0; i < NF; i++)
    f[i] = "";
  n = make_line(line, sizeof(line), f, NF);
  check_line(&sp, NULL, line, n, 1);
  hp__ncu_split_free(&sp);
  for (k = 0; k < NSP; k++)
    hp__ncu_split_free(&sd[k]);
  hp__ncu_ref_free(&ref);
}

/* Fields for the diff splitter's edges: lengths that shift the lines by a byte or many, fields
 * longer than its 64-byte windows, empty ones. */
static const char *const dpool[] = {
    "",
    "1",
    "12.5",
    "12.55",
    "123.456",
    "1,234,567",
    "n/a",
    "0",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int)",
    "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(cutlass_80_"
    "tensorop_s1688gemm_64x64_16x6_tn_align4::Params)",
    "(256, 1, 1)",
    "x"};

/* Lines of many fields, most like the reference's, some not (other values, other lengths, long
 * fields changing inside), the reference with fewer, as many or more fields: the diff splitter at
 * every level against the reference-following splitter, with the reference made by either. */
static void test_diff_matches_reference_splitter(void **state)
{
  enum {
    NFD = 300
  };
  static char line[NFD * 160];
  static const char *f[NFD + 1], *g[NFD + 1];
  uint32_t chg[NFD + 1];
  hp__ncu_split sp;
  hp__ncu_ref ref;
  size_t n, nf, ng, i, k, nchg, np = sizeof(dpool) / sizeof(dpool[0]);
  int kept = 0, best = hp__cpu_avx2();

  (void)state;
  memset(&sp, 0, sizeof(sp));
  memset(&ref, 0, sizeof(ref));
  assert_int_equal(hp__ncu_split_room(&sp, NFD + 1), 0);
  for (k = 0; k < NSP; k++)
    assert_int_equal(hp__ncu_split_room(&sd[k], NFD + 1), 0);
  ng = 1 + rnd(NFD);
  for (i = 0; i < ng; i++)
    g[i] = dpool[rnd((unsigned)np)];
  for (k = 0; k < 4000; k++) {
    /* The reference: the last line (the fields g), with its field ends; split whole, or kept
     * from the diff splitter (a lazy line: its field ends pass to the reference). */
    if (!kept) {
      n = make_line(line, sizeof(line), g, ng);
      assert_int_equal(hp__ncu_split_ref(&sp, NULL, line, n), ng);
      assert_int_equal(hp__ncu_split_keep(&sp, &ref), 0);
      ref_masks(&ref, NFD + 1);
    }
    assert_true(ref.m.nw > 0);
    /* The line: g changed in one field in 1 to 64, and now and then longer or shorter. */
    nf = rnd(10) ? ng : 1 + rnd(NFD);
    for (i = 0; i < nf; i++)
      f[i] = i < ng && rnd(1 + rnd(64)) ? g[i] : dpool[rnd((unsigned)np)];
    n = make_line(line, sizeof(line), f, nf);
    check_line(&sp, &ref, line, n, 1);
    /* Changed: the fields that are not the last line's. */
    for (i = 0, nchg = 0; i < nf; i++)
      if (i >= ng || strcmp(f[i], g[i]) != 0)
        chg[nchg++] = (uint32_t)i;
    assert_int_equal(hp__ncu_split_ref(&sp, NULL, line, n), nf);
    check_diff(&sp, nf, chg, nchg, &ref, line, n, 1);
    memcpy(g, f, nf * sizeof(*f));
    ng = nf;
    if ((kept = rnd(2)) != 0) {
      /* The diff splitter's line as the next reference: kept lazy, with its field ends, where
       * one field in eight or more changed; else with every field's offset (then its field ends
       * are made here). */
      int lazy = sd[best].nchg * 8 >= sd[best].curnf;
      assert_true(sd[best].lazy);
      assert_int_equal(hp__ncu_split_keep(&sd[best], &ref), 0);
      assert_int_equal(ref.full, !lazy);
      if (ref.m.nw == 0)
        ref_masks(&ref, NFD + 1);
    }
  }
  hp__ncu_split_free(&sp);
  for (k = 0; k < NSP; k++)
    hp__ncu_split_free(&sd[k]);
  hp__ncu_ref_free(&ref);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_matches_reader),
      cmocka_unit_test(test_split_short_lines),
      cmocka_unit_test(test_split_long_lines),
      cmocka_unit_test(test_diff_matches_reference_splitter),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
