/*
 * Splits the lines ncu writes, comparing each with a reference line (see ncu_split.h for the form
 * and why). Nothing is read outside the line and the reference copy.
 *
 * The invariant that makes a run of equal bytes enough: when line and reference hold the same
 * bytes from field i's opening quote up to and including the comma after field j's closing quote,
 * fields i..j of the line are the reference's (the same quotes in the same places), shifted by
 * the same distance. A field whose span holds a difference is searched for its closing quote, and
 * the comparison starts again at the next field's opening quote in both lines.
 */
#include "profile/fast/ncu_split.h"

#include "hprun.h"
#include "util/sys/cpu.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int hp__ncu_split_room(hp__ncu_split *sp, size_t cap)
{
  if (cap <= sp->cap)
    return 0;
  free(sp->f);
  free(sp->len);
  free(sp->off);
  free(sp->cf);
  sp->cap = 0;
  sp->f = malloc(cap * sizeof(*sp->f));
  sp->len = malloc(cap * sizeof(*sp->len));
  sp->off = malloc(cap * sizeof(*sp->off));
  sp->cf = malloc(cap * sizeof(*sp->cf));
  if (!sp->f || !sp->len || !sp->off || !sp->cf)
    return HP_ENOMEM;
  sp->cap = cap;
  return 0;
}

void hp__ncu_split_free(hp__ncu_split *sp)
{
  free(sp->f);
  free(sp->len);
  free(sp->off);
  hp__ncu_masks_free(&sp->m);
  free(sp->cf);
  memset(sp, 0, sizeof(*sp));
}

void hp__ncu_ref_forget(hp__ncu_ref *ref)
{
  ref->nf = 0;
}

void hp__ncu_ref_free(hp__ncu_ref *ref)
{
  if (ref->s)
    free(ref->s - HP__NCU_REF_PAD);
  hp__ncu_masks_free(&ref->m);
  free(ref->off);
  free(ref->len);
  memset(ref, 0, sizeof(*ref));
}

/* The 8 bytes at p as a word (its first byte lowest where the CPU is little-endian). */
static inline uint64_t word8(const char *p)
{
  uint64_t x;

  memcpy(&x, p, 8);
  return x;
}

/* The index of the first nonzero byte of a nonzero word x of bytes in memory order, or 8 where
 * the byte order is not known (the caller then goes on byte by byte). */
static inline size_t first_byte(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return (size_t)__builtin_ctzll(x) / 8;
#else
  (void)x;
  return 8;
#endif
}

/* How many bytes a[] and b[] have in common from their start, at most n: 16 bytes a step, then
 * the word that differs. */
static size_t common(const char *a, const char *b, size_t n)
{
  uint64_t d;
  size_t i = 0;

  while (n - i >= 16 &&
         ((word8(a + i) ^ word8(b + i)) | (word8(a + i + 8) ^ word8(b + i + 8))) == 0)
    i += 16;
  for (; n - i >= 8; i += 8)
    if ((d = word8(a + i) ^ word8(b + i)) != 0) {
      if (first_byte(d) < 8)
        return i + first_byte(d);
      break;
    }
  while (i < n && a[i] == b[i])
    i++;
  return i;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The first '"' in s[i..n), or n: 8 bytes at a time (a byte of x ^ "..." is zero where s holds a
 * quote; the zero-byte test's false bits lie only above a true one). Fields are short: inline, no
 * call. */
static inline size_t find_quote(const char *s, size_t i, size_t n)
{
  uint64_t x, z;

  for (; n - i >= 8; i += 8) {
    x = word8(s + i) ^ ('"' * ONES);
    if ((z = (x - ONES) & ~x & HIGHS) != 0) {
      if (first_byte(z) < 8)
        return i + first_byte(z);
      break;
    }
  }
  for (; i < n; i++)
    if (s[i] == '"')
      return i;
  return n;
}

/* Whether a[0..n) and b[0..n) hold the same bytes; short fields without a call. */
static inline int same(const char *a, const char *b, size_t n)
{
  size_t i;

  if (n > 16)
    return memcmp(a, b, n) == 0;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* Takes over the reference's fields i..j-1: the line's byte lp is the reference's byte rp. */
static void take(hp__ncu_split *sp, const hp__ncu_ref *ref, size_t i, size_t j, size_t lp,
                 size_t rp)
{
  /* In locals: the stores below could alias the splitter's fields (the two arrays are distinct,
   * so four offsets a step are independent). Offsets are 32-bit, so the shift may wrap: the sums
   * are the line's true offsets. */
  const uint32_t *restrict roff = ref->off, shift = (uint32_t)lp - (uint32_t)rp;
  uint32_t *restrict off = sp->off;
  size_t k;

  memcpy(sp->len + i, ref->len + i, (j - i) * sizeof(*sp->len));
  for (k = i; k + 4 <= j; k += 4) {
    off[k] = roff[k] + shift;
    off[k + 1] = roff[k + 1] + shift;
    off[k + 2] = roff[k + 2] + shift;
    off[k + 3] = roff[k + 3] + shift;
  }
  for (; k < j; k++)
    off[k] = roff[k] + shift;
}

/* Takes over the reference's fields i.. that lie inside a run of equal bytes: the line's byte lp
 * is the reference's byte rp, and the run ends (exclusive) at the reference's byte rend. A field
 * is taken when the comma after its closing quote is in the run, or, for the reference's last
 * field, when the line ends where it does. The first few fields are looked at one by one (where
 * many fields change, runs are short), the rest by a binary search (the closing quotes are in
 * order). Returns the next field not taken; *done is set when the last field was taken. */
static size_t take_run(hp__ncu_split *sp, const hp__ncu_ref *ref, size_t rnf, size_t n, size_t i,
                       size_t lp, size_t rp, size_t rend, int *done)
{
  const uint32_t *roff = ref->off, shift = (uint32_t)lp - (uint32_t)rp;
  const size_t *rlen = ref->len;
  size_t lo = i, hi = rnf, mid, close, stop = rnf - i > 8 ? i + 8 : rnf;

  while (lo < stop && roff[lo] + rlen[lo] + 1 < rend) {
    sp->off[lo] = roff[lo] + shift;
    sp->len[lo] = rlen[lo];
    lo++;
  }
  if (lo == stop && lo < rnf) {
    while (lo < hi) {
      mid = lo + (hi - lo) / 2;
      if (roff[mid] + rlen[mid] + 1 < rend)
        lo = mid + 1;
      else
        hi = mid;
    }
    take(sp, ref, stop, lo, lp, rp);
  }
  if (lo < rnf) {
    close = roff[lo] + rlen[lo];
    if (close + 1 == ref->n && close < rend && close - rp + lp == n - 1) {
      take(sp, ref, lo, lo + 1, lp, rp);
      *done = 1;
      return lo + 1;
    }
  }
  return lo;
}

size_t hp__ncu_split_line(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n)
{
  /* The reference's fields that can be taken over: the splitter's arrays hold at most cap. */
  size_t rnf = ref == NULL ? 0 : ref->nf < sp->cap ? ref->nf : sp->cap, nf;

  /* Following the reference pays where runs of equal bytes are long (a kernel launched with the
   * same arguments over and over: a handful of 265 fields change); where one field in eight or
   * more changed last time, the diff splitter, which compares the whole line 64 bytes at a time
   * and looks only at the fields that differ, is cheaper. It needs no field offsets of the
   * reference; the other splitter does, and a reference the diff splitter made has none: without
   * a reference whose fields are known (also a kernel's first launch, a header or units row, a row
   * after one the general reader read), that splitter finds every field's closing quote and lists
   * every field as changed. */
  if (rnf > 0 && ref->m.nw > 0 && (!ref->full || ref->hint * 8 >= rnf) &&
      (nf = hp__ncu_split_diff(sp, ref, s, n, hp__cpu_avx2())) > 0)
    return nf;
  return hp__ncu_split_ref(sp, ref != NULL && ref->full ? ref : NULL, s, n);
}

size_t hp__ncu_split_ref(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n)
{
  size_t rnf = ref == NULL ? 0 : ref->nf < sp->cap ? ref->nf : sp->cap;
  size_t i = 0, lp = 0, rp, m, len, q;
  int done = 0;

  sp->lazy = 0;
  sp->cur = s;
  sp->curn = n;
  sp->curnf = 0;
  sp->nchg = 0;
  if (n < 2 || s[0] != '"' || n >= UINT32_MAX)
    return 0;
  for (;;) {
    /* s[lp] should be field i's opening quote. */
    if (i < rnf) {
      rp = ref->off[i] - 1;
      m = common(s + lp, ref->s + rp, n - lp < ref->n - rp ? n - lp : ref->n - rp);
      i = take_run(sp, ref, rnf, n, i, lp, rp, rp + m, &done);
      if (done)
        break;
      if (i < rnf)
        lp = ref->off[i] - 1 - rp + lp;
    }
    if (i == sp->cap || lp >= n || s[lp] != '"')
      return 0;
    if ((q = find_quote(s, lp + 1, n)) == n)
      return 0;
    len = q - lp - 1;
    sp->off[i] = (uint32_t)(lp + 1);
    sp->len[i] = len;
    if (!(i < rnf && ref->len[i] == len && same(ref->s + ref->off[i], s + lp + 1, len))) {
      sp->cf[sp->nchg].col = (uint32_t)i;
      sp->cf[sp->nchg].off = (uint32_t)(lp + 1);
      sp->cf[sp->nchg++].len = (uint32_t)len;
    }
    i++;
    lp = q;
    if (lp == n - 1)
      break;
    /* Anything but `","` after a closing quote (a doubled quote, text after the quote, a comma
     * that ends the line or starts an unquoted field) is the general reader's to judge. */
    if (lp + 2 >= n || s[lp + 1] != ',' || s[lp + 2] != '"')
      return 0;
    lp += 2;
  }
  sp->curnf = i;
  return i;
}

int hp__ncu_split_peek(const char *s, size_t n, size_t i, const char **f, size_t *len)
{
  size_t open = 0, close, k;

  if (n < 2 || s[0] != '"')
    return 0;
  for (k = 0;; k++) {
    if ((close = find_quote(s, open + 1, n)) == n)
      return 0;
    if (k == i) {
      *f = s + open + 1;
      *len = close - open - 1;
      return 1;
    }
    if (close + 2 >= n || s[close + 1] != ',' || s[close + 2] != '"')
      return 0;
    open = close + 2;
  }
}

void hp__ncu_split_point_all(hp__ncu_split *sp)
{
  size_t i;

  if (sp->lazy) {
    hp__ncu_split_unlazy(sp);
    return;
  }
  for (i = 0; i < sp->curnf; i++)
    sp->f[i] = (char *)(sp->cur + sp->off[i]);
}

int hp__ncu_split_keep(hp__ncu_split *sp, hp__ncu_ref *ref)
{
  size_t *tl;
  uint32_t *to;

  ref->nf = 0;
  if (sp->curnf == 0)
    return 0;
  /* The arrays change hands below: the reference's must be as large as the splitter's. */
  if (ref->acap != sp->cap) {
    free(ref->off);
    free(ref->len);
    ref->acap = 0;
    ref->off = malloc(sp->cap * sizeof(*ref->off));
    ref->len = malloc(sp->cap * sizeof(*ref->len));
    if (ref->off == NULL || ref->len == NULL)
      return HP_ENOMEM;
    ref->acap = sp->cap;
  }
  /* Room before and after the copy: the splitters compare up to 64 bytes at a time, at any shift
   * between the line and the copy. */
  if (sp->curn + 2 * HP__NCU_REF_PAD > ref->scap) {
    char *ns = realloc(ref->s ? ref->s - HP__NCU_REF_PAD : NULL, sp->curn + 2 * HP__NCU_REF_PAD);
    if (ns == NULL)
      return HP_ENOMEM;
    memset(ns, 0, HP__NCU_REF_PAD);
    ref->s = ns + HP__NCU_REF_PAD;
    ref->scap = sp->curn + 2 * HP__NCU_REF_PAD;
  }
  memcpy(ref->s, sp->cur, sp->curn);
  memset(ref->s + sp->curn, 0, HP__NCU_REF_PAD);
  ref->n = sp->curn;
  ref->hint = sp->nchg;
  /* The next line is split by the diff splitter where many fields changed (it needs the field
   * ends, which a lazy line has), else by following the reference (it needs every field's offset:
   * a lazy line's are found now, once for a kernel whose launches stop changing much). */
  if (sp->lazy && sp->nchg * 8 < sp->curnf)
    hp__ncu_split_unlazy(sp);
  ref->full = !sp->lazy;
  if (sp->lazy) {
    /* The line's field ends become the reference's; the reference's old ones take the next line. */
    hp__ncu_masks t = ref->m;
    ref->m = sp->m;
    sp->m = t;
    ref->nf = sp->curnf;
    return 0;
  }
  ref->m.nw = 0;
  if (sp->nchg * 8 >= sp->curnf)
    hp__ncu_masks_of(&ref->m, ref->s, ref->n, sp->cap, hp__cpu_avx2());
  /* The line's fields become the reference's; the reference's old arrays take the next line. */
  to = ref->off;
  tl = ref->len;
  ref->off = sp->off;
  ref->len = sp->len;
  sp->off = to;
  sp->len = tl;
  ref->nf = sp->curnf;
  return 0;
}
