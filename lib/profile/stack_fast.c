/*
 * The kernel-stack row reader (stack_fast.h). Why it is fast: a row of a hipprof kernel-stack file
 * is ~200 bytes, and the general fast path (hp__csv_next_raw, hp__csv_split_fast, then the
 * parser's own compare of str_name and index with the row before) read most of them three times:
 * the search for the line's end, the search for each field's end, and the compare. Here the bytes
 * `"str_name",index,` are compared once with the row before's (memcmp, vector code in the C
 * library), stack_sq is read digit by digit (one or two digits), and one search for the first '"'
 * or '\n' finds the end of addrname and of the line together, with the quote check. Only a row
 * that starts a new launch (about one in five) has its name searched and its index read.
 *
 * The search reads 32 bytes at a time (AVX2), 16 (SSE2) or one (portable), from a place before the
 * span's last '\n', so it stops inside the span; its loads may read up to 31 bytes past it, which
 * hp__csv_lines guarantees are readable.
 */
#include "profile/stack_fast.h"
#include "profile/ncu_isa.h"

#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#define STACK_AVX2 1
#include <immintrin.h>
#else
#define STACK_AVX2 0
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int block_on = 1;

int hp__stack_block(int on)
{
  int old = block_on;

  if (on >= 0)
    block_on = on != 0;
  return old;
}

#if STACK_AVX2
/* The first '"' or '\n' at or after p. */
__attribute__((target("avx2"))) static const char *find_qn_avx2(const char *p)
{
  const __m256i q = _mm256_set1_epi8('"'), nl = _mm256_set1_epi8('\n');

  for (;; p += 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    uint32_t m = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, q), _mm256_cmpeq_epi8(v, nl)));
    if (m)
      return p + __builtin_ctz(m);
  }
}
#endif

#if defined(__SSE2__)
static const char *find_qn_sse2(const char *p)
{
  const __m128i q = _mm_set1_epi8('"'), nl = _mm_set1_epi8('\n');

  for (;; p += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned m =
        (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, nl)));
    if (m)
      return p + __builtin_ctz(m);
  }
}
#endif

static const char *find_qn_portable(const char *p)
{
  while (*p != '"' && *p != '\n')
    p++;
  return p;
}

static inline const char *find_qn(const char *p, int isa)
{
#if STACK_AVX2
  if (isa >= HP__NCU_ISA_AVX2)
    return find_qn_avx2(p);
#endif
#if defined(__SSE2__)
  if (isa >= HP__NCU_ISA_SSE2)
    return find_qn_sse2(p);
#endif
  (void)isa;
  return find_qn_portable(p);
}

static inline int is_digit(char c)
{
  return (unsigned char)(c - '0') <= 9;
}

/* `"str_name",index,` at s: its length, or 0 when the line does not start so. */
static size_t read_prefix(const char *s, int isa, hp__stack_line *ln)
{
  const char *q, *p;

  if (*s != '"')
    return 0;
  q = find_qn(s + 1, isa);
  if (*q != '"' || q[1] != ',')
    return 0;
  p = q + 2;
  while (is_digit(*p))
    p++;
  if (p == q + 2 || *p != ',')
    return 0;
  ln->name = s + 1;
  ln->nn = (size_t)(q - s - 1);
  ln->index = q + 2;
  ln->in = (size_t)(p - q - 2);
  return (size_t)(p + 1 - s);
}

int hp__stack_line_read(const char *s, const char *end, const char *pre, size_t plen, int isa,
                        hp__stack_line *ln)
{
  const char *p, *q;
  uint64_t v = 0;
  size_t k;
  int same = plen && (size_t)(end - s) > plen && memcmp(s, pre, plen) == 0;

  if (same) {
    k = plen;
    ln->name = s + 1;
    ln->index = s + ln->nn + 3;
  } else if ((k = read_prefix(s, isa, ln)) == 0) {
    return 0;
  }
  ln->pre = k;
  /* stack_sq: 1 to 16 digits, which the general split reads to the same value. */
  p = s + k;
  for (q = p; is_digit(*q) && q - p < 17; q++)
    v = v * 10 + (uint64_t)(*q - '0');
  if (q == p || q - p > 16 || *q != ',' || q[1] != '"')
    return 0;
  ln->sq = (long long)v;
  ln->addr = q + 2;
  q = find_qn(q + 2, isa);
  if (*q != '"')
    return 0;
  ln->an = (size_t)(q - ln->addr);
  if (q[1] == '\n')
    ln->len = (size_t)(q + 2 - s);
  else if (q[1] == '\r' && q[2] == '\n')
    ln->len = (size_t)(q + 3 - s);
  else
    return 0;
  return same ? 1 : 2;
}
