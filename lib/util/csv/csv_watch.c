/*
 * Watched columns of the CSV reader's fast path (see hp__csv_splitter in csv.h): whether a line's
 * watched fields hold the very bytes of the line split before it.
 *
 * Why: a PMC row repeats the row before it in its kernel name and its nine resource fields; only
 * the ids, times and counters change. The parser compares each of those fields with what it kept
 * (the name with its cache, each resource with its first value), a large part of its work per
 * row. When the line is laid out like the one before (csv_line.c) and its watched bytes are that
 * line's, the parser's comparisons would come out as they did for that line, so it may repeat
 * their outcome (lib/profile/parse/parse_dispatch.c). One compare of the line's blocks with a copy of the
 * last one, masked to the watched fields, answers for all of them.
 */
#include "util/csv/csv_digits.h"

void hp__csv_watch_plan(hp__csv_splitter *sp, size_t nw)
{
  size_t j, b;

  memset(sp->wmask, 0, sizeof(sp->wmask));
  for (j = 0; sp->watch && j < sp->ntext + sp->nnum; j++) {
    uint32_t l = sp->len[j] & ~QUOTED_NUM;
    if (!sp->watch[sp->cols[j]])
      continue;
    for (b = sp->off[j]; b < (size_t)sp->off[j] + l && b < 64 * nw; b++)
      sp->wmask[b >> 6] |= (uint64_t)1 << (b & 63);
  }
}

/* The bits of the bytes where a[0..64) and b[0..64) differ. */
static uint64_t diff64(const char *a, const char *b)
{
  uint64_t d = 0;
  int k;

  for (k = 0; k < 64; k++)
    d |= (uint64_t)(a[k] != b[k]) << k;
  return d;
}

#if HP__HAVE_AVX2
/* hp__csv_watch_line's loop with 32-byte compares and copies, all inline. */
HP__AVX2 static int watch_avx2(hp__csv_splitter *sp, const char *s, size_t nw, int same)
{
  size_t w;

  for (w = 0; w < nw; w++) {
    const __m256i *src = (const __m256i *)(const void *)(s + 64 * w);
    __m256i *dst = (__m256i *)(void *)(sp->prev + 64 * w);
    __m256i x0, x1;
    if (sp->wmask[w] == 0)
      continue;
    x0 = _mm256_loadu_si256(src);
    x1 = _mm256_loadu_si256(src + 1);
    if (same) {
      uint32_t e0 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, _mm256_loadu_si256(dst)));
      uint32_t e1 =
          (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, _mm256_loadu_si256(dst + 1)));
      same = (~((uint64_t)e0 | (uint64_t)e1 << 32) & sp->wmask[w]) == 0;
    }
    _mm256_storeu_si256(dst, x0);
    _mm256_storeu_si256(dst + 1, x1);
  }
  return same;
}
#endif

void hp__csv_watch_line(hp__csv_splitter *sp, const char *s, size_t nw, int relaid, int avx2)
{
  size_t w;
  int same = !relaid && sp->prev_nw == nw;

#if HP__HAVE_AVX2
  if (avx2) {
    sp->watch_same = watch_avx2(sp, s, nw, same);
    sp->prev_nw = nw;
    return;
  }
#else
  (void)avx2;
#endif
  for (w = 0; w < nw; w++) {
    if (sp->wmask[w] == 0)
      continue;
    if (same)
      same = (diff64(s + 64 * w, sp->prev + 64 * w) & sp->wmask[w]) == 0;
    /* The block for the next line: read up to 64 bytes past the line's end, which the reader's
     * padding allows (csv.h, hp__csv_next_raw); bytes past the end are never watched. */
    memcpy(sp->prev + 64 * w, s + 64 * w, 64);
  }
  sp->prev_nw = nw;
  sp->watch_same = same;
}
