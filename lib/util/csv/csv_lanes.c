/*
 * The numeric columns of a masked line (lib/util/csv/csv_line.c), four at a time with AVX2.
 *
 * Why: once a PMC row's fields are found (its layout is nearly always the last row's), reading
 * its numbers one by one costs per number an 8-byte load, a digit test and three multiply steps,
 * each waiting for the one before. Here each number of 1 to 8 digits is one
 * 64-bit lane, and one of 9 to 16 digits two lanes (its first 8 digits and the rest); four lanes
 * are loaded into one vector, moved so that their last digit is the lane's top byte (the bytes
 * shifted in are leading zeros), tested for digits and converted together (multiply-add of digit
 * pairs, then of pairs of pairs, then the two halves of the lane). A field of another kind (17 to
 * 19 digits, quoted, empty) goes through number_at. The value of a field, and whether it is a
 * number, are exactly number_at's (tests/unit/test_csv_line.c runs both on every line it tries).
 *
 * The lanes are laid out once per layout (hp__csv_lanes_plan), so a row pays only for the loads,
 * the vector steps and copying the results to the caller's arrays.
 */
#include "util/csv/csv_digits.h"

/* One NUM column of the layout, as the lanes read it: sp->lane_plan holds these in the order
 * short (1-8 digits, one lane), long (9-16 digits, two lanes), other (number_at). */
typedef struct lane_col {
  uint32_t col, off, len; /* len may carry QUOTED_NUM */
  uint32_t lane;          /* its (first) lane */
} lane_col;

void hp__csv_lanes_plan(hp__csv_splitter *sp)
{
  lane_col *lc = (lane_col *)(void *)sp->lane_plan;
  size_t j, k = 0, n = 0, pass;

  for (pass = 0; pass < 3; pass++) {
    for (j = sp->ntext; j < sp->ntext + sp->nnum; j++) {
      uint32_t l = sp->len[j];
      size_t kind = l >= 1 && l <= 8 ? 0 : l >= 9 && l <= 16 ? 1 : 2;
      if (kind != pass)
        continue;
      lc[n].col = sp->cols[j];
      lc[n].off = sp->off[j];
      lc[n].len = l;
      lc[n].lane = (uint32_t)k;
      n++;
      if (kind == 0) {
        sp->lane_off[k] = sp->off[j];
        sp->lane_shift[k++] = 8 * (8 - l);
      } else if (kind == 1) {
        sp->lane_off[k] = sp->off[j];
        sp->lane_shift[k++] = 0;
        sp->lane_off[k] = sp->off[j] + 8;
        sp->lane_shift[k++] = 8 * (16 - l);
      }
    }
    sp->lane_cols[pass] = n;
  }
  /* Fill the last vector with lanes that read as 0 (a shift of 64 clears a lane). */
  while (k % 4) {
    sp->lane_off[k] = 0;
    sp->lane_shift[k++] = 64;
  }
  sp->nlanes = k;
  /* The lanes' digit tests are kept as one bit each in a word: past 64 lanes (a line of more than
   * 32 numbers), every number goes through number_at. */
  if (k > 64) {
    sp->lane_cols[0] = sp->lane_cols[1] = 0;
    sp->nlanes = 0;
  }
}

#if HP__HAVE_AVX2
HP__AVX2 int hp__csv_lanes_avx2(hp__csv_splitter *sp, const char *s, char **f, uint64_t *val,
                                unsigned char *ok)
{
  const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
  const __m256i ones = _mm256_set1_epi8(-1);
  const __m256i tens = _mm256_set1_epi16(0x010A);         /* bytes 10, 1: d0 * 10 + d1 */
  const __m256i hundreds = _mm256_set1_epi32(0x00010064); /* words 100, 1 */
  const __m256i tenthousand = _mm256_set1_epi64x(10000);
  const uint32_t *off = sp->lane_off;
  const lane_col *lc = (const lane_col *)(const void *)sp->lane_plan;
  const uint64_t *lv = sp->lane_val;
  size_t g, j, nlanes = sp->nlanes, ns = sp->lane_cols[0], nsl = sp->lane_cols[1];
  size_t nall = sp->lane_cols[2];
  uint64_t good = 0; /* bit k: lane k's eight bytes are all digits */
  unsigned all, o;

  for (g = 0; g < nlanes; g += 4) {
    __m256i v =
        _mm256_set_epi64x((long long)load8(s + off[g + 3]), (long long)load8(s + off[g + 2]),
                          (long long)load8(s + off[g + 1]), (long long)load8(s + off[g]));
    __m256i sh = _mm256_loadu_si256((const __m256i *)(const void *)&sp->lane_shift[g]);
    __m256i d;
    v = _mm256_sllv_epi64(_mm256_xor_si256(v, zero), sh);
    /* a digit value is at most 9 (as an unsigned byte); a lane is good when all 8 bytes are */
    d = _mm256_cmpeq_epi8(_mm256_max_epu8(v, nine), nine);
    d = _mm256_cmpeq_epi64(d, ones);
    good |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(d)) << g;
    v = _mm256_madd_epi16(_mm256_maddubs_epi16(v, tens), hundreds);
    /* the lane's first four digits (its low 32 bits) times 10^4, plus its last four */
    v = _mm256_add_epi64(_mm256_mul_epu32(v, tenthousand), _mm256_srli_epi64(v, 32));
    _mm256_storeu_si256((__m256i *)(void *)&sp->lane_val[g], v);
  }
  /* Padding lanes read as 0, which is good: every lane good means every lane field a number. */
  all = nlanes == 0 || good == (nlanes == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nlanes) - 1);
  for (j = 0; j < ns; j++) {
    f[lc[j].col] = (char *)(s + lc[j].off);
    val[lc[j].col] = lv[lc[j].lane];
    ok[lc[j].col] = (unsigned char)((good >> lc[j].lane) & 1);
  }
  for (; j < nsl; j++) {
    f[lc[j].col] = (char *)(s + lc[j].off);
    val[lc[j].col] = lv[lc[j].lane] * pow10u[lc[j].len - 8] + lv[lc[j].lane + 1];
    ok[lc[j].col] = ((good >> lc[j].lane) & 3) == 3;
  }
  for (; j < nall; j++) {
    const char *p = s + lc[j].off;
    f[lc[j].col] = (char *)p;
    if (lc[j].len & QUOTED_NUM)
      o = 0;
    else
      number_at(p, lc[j].len, &val[lc[j].col], &ok[lc[j].col]), o = ok[lc[j].col];
    ok[lc[j].col] = (unsigned char)o;
    all &= o;
  }
  return (int)all;
}
#endif
