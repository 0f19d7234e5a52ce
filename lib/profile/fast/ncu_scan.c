/*
 * The whole-line splitter for ncu's lines (see ncu_split.h). hp__ncu_split_line uses it when the
 * kernel's launches differ in many fields (a PyTorch capture: ~200 of 566 columns change between
 * two launches of one kernel), where following the reference line restarts at every change.
 *
 * It works in two passes, each without a branch whose outcome changes from field to field (on a
 * PyTorch row such branches cost more than the work: a mispredicted loop end per 64 bytes and a
 * mispredicted "changed?" per field):
 *   1. the separators `","` of the line, found 64 bytes at a time from vector compares (AVX2, or
 *      SSE2), their positions written out 16 at a time whatever their count, and the quotes
 *      counted with popcount;
 *   2. per field, its place from two neighbouring separators, and whether it holds the
 *      reference's bytes: one 16-byte compare of the field and its closing quote with the
 *      reference's field, its answer appended to the changed list without a branch.
 *
 * Why separators are enough: let Q be the quotes of the line and S the positions p where
 * s[p..p+2] is `","`. A line of the form ncu writes has Q = {0, n-1} + S + (S+2). Conversely, when
 * s[0] and s[n-1] are quotes, no separator starts where another one's last quote is (p != p'+2),
 * none starts at 0 and none ends at n-1, those 2 + 2|S| quotes are all different; when the line
 * holds exactly that many quotes, Q is that set, the quotes pair up in order, and the fields are
 * the bytes between 0 and the first separator, between separators, and after the last one: what
 * the reference-following splitter (and the general reader) make of the line. A line that fails
 * any of these tests is answered 0 here and left to that splitter, which decides: so the two give
 * the same answer for every line (tests/unit/test_ncu_scan.c checks it, at every ISA level).
 *
 * Why the compare of len + 1 bytes is enough: fields hold no quote (in the reference, which was
 * split; in the line, or the quote count fails), so when the reference's bytes from its field's
 * start equal the line's field and its closing quote, the reference's field closes at the same
 * byte: the same bytes, the same length.
 */
#include "profile/fast/ncu_isa.h"
#include "profile/fast/ncu_split.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
#endif

/* Pass 1's answer: the separators sep[0..nsep), the quotes counted, and where it stopped (the
 * rest is the portable loop's). nsep > max: too many fields. */
typedef struct seps {
  size_t nsep, nq, at;
} seps;

/* The lowest set bit of m (63 for none: the slot is written, then overwritten or not counted). */
static inline unsigned low(uint64_t m)
{
  return (unsigned)__builtin_ctzll(m | (uint64_t)1 << 63);
}

/* Writes the positions base + bit of the set bits of m at sep[k..]: 16 of them without looking at
 * their count, unrolled (a 64-byte block of ncu's fields holds 4 to 16 separators: a loop over
 * them would end at a different count in every block, mispredicted), the rest one by one (sep has
 * 16 slots of room past the most it takes). */
#define PUT_FIXED 16

static inline size_t put(uint32_t *sep, size_t k, size_t base, uint64_t m, size_t cnt)
{
  uint32_t *p = sep + k, b = (uint32_t)base;
  int j;

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
  for (j = 0; j < PUT_FIXED; j++) {
    p[j] = b + low(m);
    m &= m - 1;
  }
  for (j = PUT_FIXED; m; j++) {
    p[j] = b + low(m);
    m &= m - 1;
  }
  return k + cnt;
}

/* Pass 1 from byte `from`, one byte at a time. */
static void seps_portable(const char *s, size_t n, uint32_t *sep, size_t max, seps *out)
{
  size_t i;

  for (i = out->at; i < n; i++) {
    if (s[i] != '"')
      continue;
    out->nq++;
    if (i + 2 < n && s[i + 1] == ',' && s[i + 2] == '"') {
      if (out->nsep == max) {
        out->nsep = max + 1;
        return;
      }
      sep[out->nsep++] = (uint32_t)i;
    }
  }
  out->at = n;
}

#if defined(__SSE2__)
/* The quote mask of 16 bytes from s + i, and their separator mask (three loads). */
static inline unsigned block16(const char *s, size_t i, unsigned *q)
{
  const __m128i qv = _mm_set1_epi8('"'), cv = _mm_set1_epi8(',');
  __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), qv);
  __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 1)), cv);
  __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 2)), qv);

  *q = (unsigned)_mm_movemask_epi8(a);
  return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(a, b), c));
}

/* Pass 1, 64 bytes at a time while the loads stay inside the line. */
static void seps_sse2(const char *s, size_t n, uint32_t *sep, size_t max, seps *out)
{
  size_t i, k = 0, nq = 0, cnt;
  unsigned q0, q1, q2, q3;
  uint64_t m, q;

  for (i = 0; i + 66 <= n; i += 64) {
    m = (uint64_t)block16(s, i, &q0) | (uint64_t)block16(s, i + 16, &q1) << 16 |
        (uint64_t)block16(s, i + 32, &q2) << 32 | (uint64_t)block16(s, i + 48, &q3) << 48;
    q = (uint64_t)q0 | (uint64_t)q1 << 16 | (uint64_t)q2 << 32 | (uint64_t)q3 << 48;
    nq += (size_t)__builtin_popcountll(q);
    cnt = (size_t)__builtin_popcountll(m);
    if (k + cnt > max) {
      out->nsep = max + 1;
      return;
    }
    k = put(sep, k, i, m, cnt);
  }
  out->nsep = k;
  out->nq = nq;
  out->at = i;
  seps_portable(s, n, sep, max, out);
}
#endif

#if defined(HAVE_AVX2_PATH)
__attribute__((target("avx2,bmi,bmi2,popcnt"))) static inline uint64_t mask64(const char *s, char c)
{
  const __m256i v = _mm256_set1_epi8(c);
  uint32_t lo = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)s), v));
  uint32_t hi = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(s + 32)), v));

  return (uint64_t)lo | (uint64_t)hi << 32;
}

/* Pass 1 with AVX2: the same as seps_sse2, two loads per mask. */
__attribute__((target("avx2,bmi,bmi2,popcnt"))) static void seps_avx2(const char *s, size_t n,
                                                                      uint32_t *sep, size_t max,
                                                                      seps *out)
{
  size_t i, k = 0, nq = 0, cnt;
  uint64_t m, q;

  for (i = 0; i + 66 <= n; i += 64) {
    q = mask64(s + i, '"');
    m = q & mask64(s + i + 1, ',') & mask64(s + i + 2, '"');
    nq += (size_t)_mm_popcnt_u64(q);
    cnt = (size_t)_mm_popcnt_u64(m);
    if (k + cnt > max) {
      out->nsep = max + 1;
      return;
    }
    k = put(sep, k, i, m, cnt);
  }
  /* The code after this is not VEX-encoded: with the upper halves of the ymm registers left dirty,
   * every SSE instruction there would wait on them (GCC puts no vzeroupper before the tail call
   * below). */
  _mm256_zeroupper();
  out->nsep = k;
  out->nq = nq;
  out->at = i;
  seps_portable(s, n, sep, max, out);
}
#endif

/* Pass 2's inputs: the line, the reference, and the splitter's arrays. */
typedef struct scan {
  const char *s, *rs;
  size_t n, rnf;
  const uint32_t *sep, *roff;
  const size_t *rlen;
  uint32_t *off, *chg;
  size_t *len;
} scan;

/* Whether field i (len bytes at o) differs from the reference's, byte by byte. */
static int differs(const scan *sc, size_t i, size_t o, size_t len)
{
  return i >= sc->rnf || sc->rlen[i] != len || memcmp(sc->s + o, sc->rs + sc->roff[i], len) != 0;
}

/* Pass 2 for fields i.. while 16 bytes can be read from the field (the reference copy has 16
 * bytes of room after it): the loop ends at a count known before it starts, and a field's length
 * test and its change are computed, not branched on (only a field of 16 bytes or more, rare and
 * column by column the same, takes a branch). A negative length (separators that overlap) shows
 * in the sign of `acc`. Returns the next field; *nchg and *pc carry on. */
static inline size_t fields_vec(const scan *sc, size_t i, size_t fast, size_t *pc0, size_t *nchg0,
                                size_t *acc0)
{
#if defined(__SSE2__)
  const char *s = sc->s, *rs = sc->rs;
  const uint32_t *sep = sc->sep, *roff = sc->roff;
  uint32_t *off = sc->off, *chg = sc->chg;
  size_t *len = sc->len;
  size_t pc = *pc0, nchg = *nchg0, acc = *acc0, o, c, l;
  unsigned ne;

  for (; i < fast; i++) {
    c = sep[i];
    o = pc + 3;
    l = c - o;
    acc |= l;
    off[i] = (uint32_t)o;
    len[i] = l;
    chg[nchg] = (uint32_t)i;
    if (l < 16) {
      __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + o));
      __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(rs + roff[i]));
      ne = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
      nchg += (ne & ((2u << l) - 1u)) != 0;
    } else if ((ptrdiff_t)l > 0) {
      nchg += differs(sc, i, o, l);
    }
    pc = c;
  }
  *pc0 = pc;
  *nchg0 = nchg;
  *acc0 = acc;
#else
  (void)sc;
  (void)fast;
  (void)pc0;
  (void)nchg0;
  (void)acc0;
#endif
  return i;
}

#if defined(HAVE_AVX2_PATH)
/* fields_vec compiled for AVX2 and BMI2 (shlx, andn). */
__attribute__((target("avx2,bmi,bmi2,popcnt"))) static size_t fields_avx2(const scan *sc, size_t i,
                                                                          size_t fast, size_t *pc,
                                                                          size_t *nchg, size_t *acc)
{
  return fields_vec(sc, i, fast, pc, nchg, acc);
}
#endif

/* Pass 2: fields 0..nf-1 (field i closes at sep[i], the last at n - 1). Returns the number of
 * changed fields, or SIZE_MAX when two separators overlap or one touches an end. */
static size_t fields(const scan *sc, size_t nf, int isa)
{
  const uint32_t *sep = sc->sep;
  size_t i = 0, o, c, l, pc = (size_t)-2, nchg = 0, n = sc->n, acc = 0;
  size_t fast = nf < sc->rnf ? nf : sc->rnf;

  /* The vector loop takes the fields whose 16 bytes lie inside the line: field i opens 3 bytes
   * after sep[i - 1] (byte 1 for the first). */
  while (fast > 0 && (fast == 1 ? 1 : (size_t)sep[fast - 2] + 3) + 16 > n)
    fast--;
#if defined(HAVE_AVX2_PATH)
  if (isa >= HP__NCU_ISA_AVX2)
    i = fields_avx2(sc, 0, fast, &pc, &nchg, &acc);
  else
#endif
      if (isa >= HP__NCU_ISA_SSE2)
    i = fields_vec(sc, 0, fast, &pc, &nchg, &acc);
  if ((ptrdiff_t)acc < 0)
    return SIZE_MAX;
  for (; i < nf; i++) {
    o = pc + 3;
    c = sep[i];
    if (c < o)
      return SIZE_MAX;
    sc->off[i] = (uint32_t)o;
    sc->len[i] = l = c - o;
    sc->chg[nchg] = (uint32_t)i;
    nchg += differs(sc, i, o, l);
    pc = c;
  }
  return nchg;
}

size_t hp__ncu_split_scan(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n,
                          int isa)
{
  seps ps = {0, 0, 0};
  scan sc;
  size_t nf, nchg;

  sp->cur = s;
  sp->curn = n;
  sp->curnf = 0;
  sp->nchg = 0;
  sp->cfok = 0;
  if (n < 2 || s[0] != '"' || s[n - 1] != '"' || n >= UINT32_MAX || sp->cap == 0)
    return 0;
    /* At most cap fields: cap - 1 separators. */
#if defined(HAVE_AVX2_PATH)
  if (isa >= HP__NCU_ISA_AVX2)
    seps_avx2(s, n, sp->sep, sp->cap - 1, &ps);
  else
#endif
#if defined(__SSE2__)
      if (isa >= HP__NCU_ISA_SSE2)
    seps_sse2(s, n, sp->sep, sp->cap - 1, &ps);
  else
#endif
    seps_portable(s, n, sp->sep, sp->cap - 1, &ps);
  nf = ps.nsep + 1;
  if (ps.nsep >= sp->cap || ps.nq != 2 * nf)
    return 0;
  /* The last field closes at n - 1: the fast loop reads sep[nf - 1] as that. */
  sp->sep[ps.nsep] = (uint32_t)(n - 1);
  sc.s = s;
  sc.n = n;
  sc.sep = sp->sep;
  sc.rs = ref ? ref->s : NULL;
  sc.rnf = ref ? ref->nf : 0;
  sc.roff = ref ? ref->off : NULL;
  sc.rlen = ref ? ref->len : NULL;
  sc.off = sp->off;
  sc.len = sp->len;
  sc.chg = sp->chg;
  if ((nchg = fields(&sc, nf, isa)) == SIZE_MAX)
    return 0;
  sp->curnf = nf;
  sp->nchg = nchg;
  return nf;
}
