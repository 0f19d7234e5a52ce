/*
 * The kernel-stack row reader (stack_fast.h). Why it is fast: a row of a hipprof kernel-stack file
 * is ~200 bytes, and the general fast path (hp__csv_next_raw, hp__csv_split_fast, then the
 * parser's own compare of str_name and index with the row before) reads most of them three
 * times: the search for the line's end, the search for each field's end, and the compare. Here
 * the bytes `"str_name",index,` are compared once with the row before's, stack_sq is read digit
 * by digit (up to 16), and one search for the first '"' or '\n' finds the end of addrname and of
 * the line together, with the quote check. Only a row that starts a new launch (about one
 * in five) has its name searched and its index read.
 *
 * With AVX2 (util/sys/cpu.h) the compare and the search are 32-byte blocks inside one function per
 * row (read_avx2); the portable code compares with memcmp and searches byte by byte. The search
 * starts before the span's last '\n', so it stops inside the span; its loads may read up to 31
 * bytes past it, which hp__csv_lines guarantees are readable. The compare reads only the prefix's
 * bytes of the row and of the kept prefix.
 */
#include "profile/fast/stack_fast.h"
#include "util/sys/cpu.h"

#include <stdint.h>
#include <string.h>
#if HP__HAVE_AVX2
#include <immintrin.h>
#endif

#if HP__HAVE_AVX2
/* The first '"' or '\n' at or after p. */
HP__AVX2 static inline const char *find_qn_avx2(const char *p)
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

static const char *find_qn_portable(const char *p)
{
  while (*p != '"' && *p != '\n')
    p++;
  return p;
}

static inline const char *find_qn(const char *p, int avx2)
{
#if HP__HAVE_AVX2
  if (avx2)
    return find_qn_avx2(p);
#endif
  (void)avx2;
  return find_qn_portable(p);
}

static inline int is_digit(char c)
{
  return (unsigned char)(c - '0') <= 9;
}

/* `"str_name",index,` at s: its length, or 0 when the line does not start so. */
static size_t read_prefix(const char *s, int avx2, hp__stack_line *ln)
{
  const char *q, *p;

  if (*s != '"')
    return 0;
  q = find_qn(s + 1, avx2);
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

/* stack_sq at p (1 to 16 digits, which the general split reads to the same value), then ",\"":
 * where addrname's text starts, or NULL. */
static inline const char *read_sq(const char *p, hp__stack_line *ln)
{
  const char *q;
  uint64_t v = 0;

  for (q = p; is_digit(*q) && q - p < 17; q++)
    v = v * 10 + (uint64_t)(*q - '0');
  if (q == p || q - p > 16 || *q != ',' || q[1] != '"')
    return NULL;
  ln->sq = (long long)v;
  ln->addr = q + 2;
  return q + 2;
}

/* The row's end, from q, the first '"' or '\n' after addrname's opening quote: the answer of
 * the row reader (`same`: the row starts with the last prefix). */
static inline int read_end(const char *s, const char *q, int same, hp__stack_line *ln)
{
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

/* A row that starts with the last prefix: its name and index are at the last row's offsets. */
static inline void read_same(const char *s, hp__stack_line *ln)
{
  ln->name = s + 1;
  ln->index = s + ln->nn + 3;
}

/* The row at s, portable. */
static int read_portable(const char *s, const char *end, const char *pre, size_t plen,
                         hp__stack_line *ln)
{
  const char *a;
  size_t k;
  int same = plen && (size_t)(end - s) > plen && memcmp(s, pre, plen) == 0;

  if (same) {
    read_same(s, ln);
    k = plen;
  } else if ((k = read_prefix(s, 0, ln)) == 0) {
    return 0;
  }
  ln->pre = k;
  if ((a = read_sq(s + k, ln)) == NULL)
    return 0;
  return read_end(s, find_qn_portable(a), same, ln);
}

#if HP__HAVE_AVX2
/* Whether the n bytes at a and b are the same: 32 bytes at a time, the last 32 overlapping. */
HP__AVX2 static inline int same_avx2(const char *a, const char *b, size_t n)
{
  __m256i x = _mm256_setzero_si256();
  size_t i;

  if (n < 32)
    return memcmp(a, b, n) == 0;
  for (i = 0; i + 32 < n; i += 32)
    x = _mm256_or_si256(
        x,
        _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + i)),
                         _mm256_loadu_si256((const __m256i *)(const void *)(b + i))));
  x = _mm256_or_si256(
      x,
      _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + n - 32)),
                       _mm256_loadu_si256((const __m256i *)(const void *)(b + n - 32))));
  return _mm256_testz_si256(x, x);
}

/* The row reader with the compare and the search in AVX2, in one function: a row costs no
 * call but this one. */
HP__AVX2 static int read_avx2(const char *s, const char *end, const char *pre, size_t plen,
                              hp__stack_line *ln)
{
  const char *a;
  size_t k;
  int same = plen && (size_t)(end - s) > plen && same_avx2(s, pre, plen);

  if (same) {
    read_same(s, ln);
    k = plen;
  } else if ((k = read_prefix(s, 1, ln)) == 0) {
    return 0;
  }
  ln->pre = k;
  if ((a = read_sq(s + k, ln)) == NULL)
    return 0;
  return read_end(s, find_qn_avx2(a), same, ln);
}
#endif

hp__stack_read_fn hp__stack_reader(int avx2)
{
#if HP__HAVE_AVX2
  if (avx2)
    return read_avx2;
#endif
  (void)avx2;
  return read_portable;
}
