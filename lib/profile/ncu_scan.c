/*
 * The whole-line splitter for ncu's lines (see ncu_split.h): it finds every separator `","` of a
 * line in one vector pass, 16 bytes at a time, instead of following a reference line field by
 * field. hp__ncu_split_line uses it when the kernel's launches differ in many fields (a PyTorch
 * capture: ~200 of 566 columns change between two launches of one kernel), where runs of equal
 * bytes are short and the reference-following splitter spends its time restarting them.
 *
 * Why separators are enough: let Q be the quotes of the line and S the positions p where
 * s[p..p+2] is `","`. A line of the form ncu writes has Q = {0, n-1} + S + (S+2). Conversely, when
 * s[0] and s[n-1] are quotes, no separator starts where another one's last quote is (p != p'+2),
 * none starts at 0 and none ends at n-1, those 2 + 2|S| quotes are all different; when the line
 * holds exactly that many quotes, Q is that set, the quotes pair up in order, and the fields are
 * the bytes between 0 and the first separator, between separators, and after the last one: what
 * the reference-following splitter (and the general reader) make of the line. A line that fails
 * any of these tests is answered 0 here and left to that splitter, which decides: so the two give
 * the same answer for every line (tests/unit/test_ncu_scan.c checks it).
 *
 * The vector code uses SSE2 (baseline on x86-64); the portable loop below gives the same answer
 * everywhere and is tested on every machine.
 */
#include "profile/ncu_split.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* One line being scanned: what stays the same over the line (copied into locals by the loops, so
 * that the stores into the field arrays do not make the compiler reload it), and the state that
 * changes: the fields closed so far, the changed ones, the open field's first byte, the quotes
 * counted. */
typedef struct scan {
  const char *s, *rs; /* the line, the reference's copy */
  size_t n, rnf, cap;
  uint32_t *off, *chg;
  size_t *len;
  const uint32_t *roff;
  const size_t *rlen;
  int vec;
} scan;

typedef struct scan_at {
  size_t nf, nchg, nq;
  size_t open; /* the first byte of field nf */
} scan_at;

/* Whether the field of len bytes at line byte o holds the reference's field i. Fields are short:
 * where 16 bytes can be read on both sides (the reference copy has 16 bytes of room after it), one
 * compare decides. */
static inline int same_field(const scan *sc, size_t i, size_t o, size_t len)
{
  const char *a = sc->s + o, *b;

  if (i >= sc->rnf || sc->rlen[i] != len)
    return 0;
  b = sc->rs + sc->roff[i];
#if defined(__SSE2__)
  if (sc->vec && len <= 16 && o + 16 <= sc->n) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
    unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) & 0xffffu;
    return (m & ((1u << len) - 1u)) == 0;
  }
#endif
  return memcmp(a, b, len) == 0;
}

/* The open field closes at the quote p: its place, and whether it changed. */
static inline void close_field(const scan *sc, scan_at *at, size_t p)
{
  size_t i = at->nf, o = at->open, len = p - o;

  sc->off[i] = (uint32_t)o;
  sc->len[i] = len;
  sc->chg[at->nchg] = (uint32_t)i;
  at->nchg += !same_field(sc, i, o, len);
  at->nf = i + 1;
}

/* A separator at p: the open field closes, the next one opens after it. 0, or -1 when p starts
 * where the last separator ends (they overlap) or there is no room for another field. */
static inline int sep(const scan *sc, scan_at *at, size_t p)
{
  if (p < at->open || at->nf + 1 >= sc->cap)
    return -1;
  close_field(sc, at, p);
  at->open = p + 3;
  return 0;
}

/* The separators of the line from byte `from` on, one byte at a time, counting quotes. 0 or -1 as
 * sep(). */
static int seps_portable(const scan *sc, scan_at *at, size_t from)
{
  const char *s = sc->s;
  size_t i, n = sc->n;

  for (i = from; i < n; i++) {
    if (s[i] != '"')
      continue;
    at->nq++;
    if (i + 2 < n && s[i + 1] == ',' && s[i + 2] == '"' && sep(sc, at, i))
      return -1;
  }
  return 0;
}

#if defined(__SSE2__)
/* The separator and quote masks of the 16 positions from s + i (three loads of 16 bytes). */
static inline unsigned block16(const char *s, size_t i, __m128i *acc)
{
  const __m128i qv = _mm_set1_epi8('"'), cv = _mm_set1_epi8(',');
  __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), qv);
  __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 1)), cv);
  __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 2)), qv);

  *acc = _mm_sub_epi8(*acc, a);
  return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(a, b), c));
}

/* The same as seps_portable, 64 positions at a time while the loads stay inside the line (one
 * 64-bit mask: the loop over its separators, whose count varies, ends once per 64 bytes rather
 * than once per 16), then 16, then one at a time. Quotes are counted in byte lanes (at most 4 per
 * lane per step), added up before a lane could overflow. */
static int seps_sse2(const scan *sc0, scan_at *at0)
{
  const __m128i zero = _mm_setzero_si128();
  __m128i acc = zero, sum = zero;
  const scan sc = *sc0;
  scan_at at = *at0;
  const char *s = sc.s;
  size_t i = 0, n = sc.n;
  uint64_t m;
  unsigned k = 0;

  for (; i + 66 <= n; i += 64) {
    m = (uint64_t)block16(s, i, &acc) | (uint64_t)block16(s, i + 16, &acc) << 16 |
        (uint64_t)block16(s, i + 32, &acc) << 32 | (uint64_t)block16(s, i + 48, &acc) << 48;
    while (m) {
      if (sep(&sc, &at, i + (size_t)__builtin_ctzll(m)))
        return -1;
      m &= m - 1;
    }
    if (++k == 63) {
      sum = _mm_add_epi64(sum, _mm_sad_epu8(acc, zero));
      acc = zero;
      k = 0;
    }
  }
  for (; i + 18 <= n; i += 16) {
    m = block16(s, i, &acc);
    while (m) {
      if (sep(&sc, &at, i + (size_t)__builtin_ctzll(m)))
        return -1;
      m &= m - 1;
    }
  }
  sum = _mm_add_epi64(sum, _mm_sad_epu8(acc, zero));
  at.nq += (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sum, 8));
  *at0 = at;
  return seps_portable(sc0, at0, i);
}
#endif

size_t hp__ncu_split_scan(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n,
                          int portable)
{
  scan sc;
  scan_at at = {0, 0, 0, 1};
  int r;

  sp->cur = s;
  sp->curn = n;
  sp->curnf = 0;
  sp->nchg = 0;
  if (n < 2 || s[0] != '"' || s[n - 1] != '"' || n >= UINT32_MAX || sp->cap == 0)
    return 0;
  /* Every field the reference does not have is changed, else those whose bytes differ. */
  sc.s = s;
  sc.n = n;
  sc.rs = ref ? ref->s : NULL;
  sc.rnf = ref ? ref->nf : 0;
  sc.roff = ref ? ref->off : NULL;
  sc.rlen = ref ? ref->len : NULL;
  sc.cap = sp->cap;
  sc.off = sp->off;
  sc.len = sp->len;
  sc.chg = sp->chg;
  sc.vec = !portable;
#if defined(__SSE2__)
  r = portable ? seps_portable(&sc, &at, 0) : seps_sse2(&sc, &at);
#else
  r = seps_portable(&sc, &at, 0);
#endif
  /* The last field runs to the closing quote, which must not be a separator's last quote. */
  if (r != 0 || n - 1 < at.open || at.nq != 2 * (at.nf + 1))
    return 0;
  close_field(&sc, &at, n - 1);
  sp->curnf = at.nf;
  sp->nchg = at.nchg;
  return at.nf;
}
