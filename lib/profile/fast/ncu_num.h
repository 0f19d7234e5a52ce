/*
 * hp__parse_num for the numbers ncu prints on its raw page, on CPUs with AVX2 (used by
 * lib/profile/fast/ncu_fold.c): the fields that change from launch to launch are "12.34",
 * "1,234", "1,234.56" or plain digits, and a PyTorch capture changes ~190 of them a row. A byte
 * loop over such a field ends at a different byte in every field, and its mispredicted ends cost
 * more than the reading; hp__ncu_num16 has no loop over the bytes. It classifies a field's 16
 * bytes at once (digits, commas, the point), checks the shape with one compare against a table
 * chosen by the shape (the point's place, the field's length, commas or not), moves the digits
 * into place with one shuffle from the same table and converts 16 digits with three
 * multiply-adds.
 *
 * The contract is hp__parse_num's, exactly: the same answer and the same double for every input.
 * The forms taken here are a subset of what hp__parse_num's own fast path takes, converted the
 * same way: digits, the integer part plain or in groups of three split by commas (1-3 digits
 * before the first comma), at most one point (not last), at most 16 bytes, nothing else (no
 * sign, no space, no exponent); the value is the integer itself (a correctly rounded
 * conversion), or, with f digits after the point, the integer divided by 10^f (the integer is
 * then below 10^15 < 2^53: one correctly rounded division of two exact doubles, Clinger's fast
 * path, the double strtod returns). Everything else goes to hp__parse_num.
 * tests/unit/test_ncu_num.c compares the two, and strtod, on generated and edge inputs.
 */
#ifndef HPRUN_PROFILE_NCU_NUM_H
#define HPRUN_PROFILE_NCU_NUM_H

#include "util/num/num.h"
#include "util/sys/cpu.h"

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define HP__NCU_INLINE __attribute__((always_inline)) inline
#else
#define HP__NCU_INLINE inline
#endif

/* The vector reader's tables (ncu_num.c). What a field of n bytes (1..16) whose first point is at
 * byte e (n: none) must look like, with commas (c = 1) or without, at [(e * 16 + n - 1) * 2 + c]
 * (hp__ncu_num_idx): its digits' bits, and its commas' bits shifted up by 16 (0xffffffff, which
 * no field matches, where no number has that shape); 10^f, f its digits after the point; and the
 * shuffle that moves its digits into place, in a table of its own at the same index (one base
 * address serves both). hp__ncu_num_init builds them, once per process (thread-safe); call it
 * before hp__ncu_num16. */
typedef struct hp__ncu_shape {
  uint32_t want;
  uint32_t pad;
  double div;
} hp__ncu_shape;
#define HP__NCU_NSHAPES (2 * 17 * 16)
typedef struct hp__ncu_shapes {
  hp__ncu_shape sh[HP__NCU_NSHAPES];
  _Alignas(16) uint8_t shuf[HP__NCU_NSHAPES][16];
} hp__ncu_shapes;
extern hp__ncu_shapes hp__ncu_num_shapes;
/* 16 copies each of '0' and ',' (the bytes each half of a 32-byte register of a field's two
 * copies is taken from), of 9 and 0 (the most each half may then hold: a digit, a comma), and of
 * '.': loaded from memory, not built again in every field. */
extern const uint8_t hp__ncu_num_k[3][32];

static inline unsigned hp__ncu_num_idx(unsigned c, unsigned e, unsigned n)
{
  return (e * 16 + n - 1) * 2 + c;
}

void hp__ncu_num_init(void);

#if HP__HAVE_AVX2
#include <immintrin.h>

/* The first half of hp__ncu_num16: 1 with the number's digits as an integer m, converted to the
 * double *m0 (correctly rounded), and 10^f, f the count of those after the point, in *div, where
 * the value is exactly m / 10^f computed as one division of doubles (*m0 is m exactly, or f is 0
 * and the conversion alone rounds it correctly); 0 for anything else (hp__parse_num's).
 * s[0..16) may be read whatever n is. AVX2 CPUs only. The shape is checked with one compare: the
 * first point's place e (or n), whether there are commas, and n pick the one layout of digits and
 * commas a number of that shape has (hp__ncu_shape: every byte a digit but the point and the
 * commas, commas only where groups of three put them, a digit first, the point not last), and the
 * field's digit and comma masks must be that layout. Both masks come from one 32-byte compare of
 * two copies of the 16 bytes, one taken from '0' and one from ','. A point past n cannot come
 * before the bit n of e's search, so the point mask is not cut at n. A number read here has at
 * most 16 digits, and at most 15 when it has a point: m is then below 10^15 < 2^53, exact as a
 * double, whenever f > 0. m is hi * 10^8 + lo (its first eight digits and its last eight), and
 * *m0 is computed as that sum of doubles: hi and lo are below 10^8, so exact, and so is hi * 10^8
 * (hi * 5^8 < 2^53, times 2^8); the one addition then rounds m correctly, as a conversion of m
 * would. */
static HP__NCU_INLINE HP__AVX2 int hp__ncu_num16_m(const char *s, size_t n, double *m0, double *div)
{
  const hp__ncu_shape *sh;
  __m256i y, d;
  __m128i v;
  __m128d md;
  unsigned t, dc, pm, e;
  size_t o;

  if (n - 1 >= 16)
    return 0;
  y = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)s));
  d = _mm256_sub_epi8(y, _mm256_load_si256((const __m256i *)(const void *)hp__ncu_num_k[0]));
  dc = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
      _mm256_min_epu8(d, _mm256_load_si256((const __m256i *)(const void *)hp__ncu_num_k[1])), d));
  pm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
      _mm256_castsi256_si128(y), _mm_load_si128((const __m128i *)(const void *)hp__ncu_num_k[2])));
  /* Bits n and 16 + n (mod 2^32: 0x10000 for n = 16); less 0x10001, the bits below n of both
   * masks. */
  t = 0x10001u << n;
  dc &= t - 0x10001u;
  e = (unsigned)__builtin_ctz(pm | t);
  /* The shape's byte offset in both tables. */
  o = 16 * (size_t)hp__ncu_num_idx(dc > 0xffffu, e, (unsigned)n);
  sh = (const hp__ncu_shape *)(const void *)((const char *)hp__ncu_num_shapes.sh + o);
  if (dc != sh->want)
    return 0;
  v = _mm_shuffle_epi8(
      _mm256_castsi256_si128(d),
      _mm_load_si128((const __m128i *)(const void *)((const char *)hp__ncu_num_shapes.shuf + o)));
  v = _mm_maddubs_epi16(v, _mm_set1_epi16(0x010a));
  v = _mm_madd_epi16(v, _mm_set1_epi32(0x00010064));
  v = _mm_packs_epi32(v, v);
  v = _mm_madd_epi16(v, _mm_set1_epi32(0x00012710));
  /* hi and lo, the first two 32-bit lanes, as doubles: hi * 10^8 + lo. */
  md = _mm_cvtepi32_pd(v);
  *m0 = _mm_cvtsd_f64(_mm_add_sd(_mm_mul_sd(md, _mm_set_sd(1e8)), _mm_unpackhi_pd(md, md)));
  *div = sh->div;
#if FLT_EVAL_METHOD == 0
  /* A whole number is converted once, correctly rounded (dividing by 1 changes nothing); a
   * fraction is one correctly rounded division of two exact doubles. */
  return 1;
#else
  return 0;
#endif
}

/* hp__parse_num(s, n, out) where s[0..16) may be read whatever n is. AVX2 CPUs only. */
static HP__NCU_INLINE HP__AVX2 int hp__ncu_num16(const char *s, size_t n, double *out)
{
  double m, div;

  if (!hp__ncu_num16_m(s, n, &m, &div))
    return hp__parse_num(s, n, out);
  *out = m / div;
  return 1;
}
#endif

#endif /* HPRUN_PROFILE_NCU_NUM_H */
