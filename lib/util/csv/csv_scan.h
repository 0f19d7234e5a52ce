/*
 * The CSV reader's byte search (static inline, included by lib/util/csv/csv_record.c only): where the
 * next delimiter of an unquoted field is, and where a quoted field's closing quote is.
 *
 * Why a block mask: a field of a profiler CSV is a few bytes long, so a search that starts afresh
 * at every field (memchr, or 8 bytes at a time) pays a load, a compare and a bit scan in a chain
 * per field. Here one pass over 64 bytes gives a bit mask of every ',' and '\n' in them, and the
 * next field's end is the next set bit: no new load until the block is used up. The kind of
 * delimiter comes from a second mask, not from reading the byte back.
 *
 * With SSE2 (every x86-64) the masks take four 16-byte compares; elsewhere a portable loop builds
 * them. Neither reads outside [start of block, end): a block that would cross `end` is built by
 * the loop, so the buffer needs no padding.
 */
#ifndef HPRUN_UTIL_CSV_SCAN_H
#define HPRUN_UTIL_CSV_SCAN_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The search runs once per field: it must be inlined into the record loop, which GCC does not do
 * on its own for functions of this size. */
#if defined(__GNUC__)
#define CSV_INLINE static inline __attribute__((always_inline))
#else
#define CSV_INLINE static inline
#endif

/* The masks of one block: bit i stands for blk[i]. Bits past the input's end are zero. */
typedef struct csv_block {
  const char *blk; /* NULL until the first load */
  uint64_t delim;  /* ',' or '\n' */
  uint64_t nl;     /* '\n' */
} csv_block;

CSV_INLINE uint64_t csv_ctz(uint64_t x)
{
  return (uint64_t)__builtin_ctzll(x);
}

#if defined(__SSE2__)
CSV_INLINE void csv_mask16(csv_block *b, const char *p, int shift)
{
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
  __m128i n = _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'));
  __m128i d = _mm_or_si128(n, _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));

  b->delim |= (uint64_t)(unsigned)_mm_movemask_epi8(d) << shift;
  b->nl |= (uint64_t)(unsigned)_mm_movemask_epi8(n) << shift;
}
#endif

/* A block that would cross `end`, byte by byte: once per buffer refill, so it stays out of line,
 * and returns by value so that the hot block can live in registers. */
static csv_block csv_block_tail(const char *at, const char *end)
{
  csv_block b = {at, 0, 0};
  size_t i, n = end - at < 64 ? (size_t)(end - at) : 64;

  for (i = 0; i < n; i++) {
    if (at[i] == '\n') {
      b.nl |= (uint64_t)1 << i;
      b.delim |= (uint64_t)1 << i;
    } else if (at[i] == ',') {
      b.delim |= (uint64_t)1 << i;
    }
  }
  return b;
}

CSV_INLINE void csv_block_load(csv_block *b, const char *at, const char *end)
{
#if defined(__SSE2__)
  if (end - at >= 64) {
    b->blk = at;
    b->delim = b->nl = 0;
    csv_mask16(b, at, 0);
    csv_mask16(b, at + 16, 16);
    csv_mask16(b, at + 32, 32);
    csv_mask16(b, at + 48, 48);
    return;
  }
#endif
  *b = csv_block_tail(at, end);
}

/* The first ',' or '\n' in [p, end), or NULL; *is_nl says which. The block is kept for the next
 * call, which is what makes short fields cheap. */
CSV_INLINE char *csv_block_find(csv_block *b, char *p, char *end, int *is_nl)
{
  uint64_t bits, off;

  if (b->blk == NULL || p < b->blk || p - b->blk >= 64)
    csv_block_load(b, p, end);
  off = (uint64_t)(p - b->blk);
  bits = b->delim & (~(uint64_t)0 << off);
  while (bits == 0) {
    if (end - b->blk <= 64)
      return NULL;
    csv_block_load(b, b->blk + 64, end);
    bits = b->delim;
  }
  off = csv_ctz(bits);
  *is_nl = (int)((b->nl >> off) & 1);
  return (char *)b->blk + off;
}

/* The first '"' in [p, end), or NULL, counting the newlines before it into *nl. */
static inline char *csv_find_quote(char *p, char *end, long *nl)
{
#if defined(__SSE2__)
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    unsigned n = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    /* Newlines inside quotes are rare: count them only when there are some (popcount is a
     * library call without -mpopcnt). */
    if (q) {
      n &= (q & (0u - q)) - 1; /* the newlines before the first quote */
      if (n)
        *nl += __builtin_popcount(n);
      return p + __builtin_ctz(q);
    }
    if (n)
      *nl += __builtin_popcount(n);
    p += 16;
  }
#endif
  for (; p < end; p++) {
    if (*p == '"')
      return p;
    *nl += *p == '\n';
  }
  return NULL;
}

#endif /* HPRUN_UTIL_CSV_SCAN_H */
