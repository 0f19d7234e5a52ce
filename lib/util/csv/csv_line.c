/*
 * The parsers' fast path through a CSV file: hp__csv_split_fast takes one physical line from
 * hp__csv_next_raw and splits it in place when it is a plain record (csv.h says which lines are),
 * without writing to the buffer, and reads the numeric columns' digits while it finds their ends.
 *
 * Why: hp__csv_next finds every field's end, writes a NUL after each, and a parser then reads
 * every numeric field a second time to parse it. Here the field ends of a line come from bit masks
 * of its 64-byte blocks, and a numeric field costs one 8-byte load per 8 digits (number_at). A
 * line this cannot take (doubled quotes, a quote left open, another field count) goes back to
 * hp__csv_next, which returns the same fields for every line this does take, so a parser gives
 * the same results either way (tests/unit/test_csv_line.c compares the two on every line it
 * tries).
 *
 * The block and 8-byte loads read past a line's end, never more than 64 bytes: the reader keeps
 * that much zeroed room after its buffer (CSV_PAD in csv.c), and the masks and digits past the
 * line's end are cut off.
 */
#include "util/csv/csv.h"
#include "util/sys/cpu.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The AVX2 mask builder runs only where hp__cpu_avx2() says so (util/sys/cpu.h); elsewhere the
 * portable code, which gives the same results. */
#if HP__HAVE_AVX2
#include <immintrin.h>
#endif

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static inline uint64_t load8(const char *p)
{
  uint64_t x;

  memcpy(&x, p, 8);
  return x;
}

/* Eight digit values (0-9, one per byte, the first digit in the lowest byte) as a number: the
 * multiply-and-add steps of num.c's eight_digits. */
static inline uint64_t digits8(uint64_t x)
{
  x = (x * 10) + (x >> 8);
  x = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
       (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
      32;
  return x;
}

/* How many of the 8 bytes at p are digits before the first that is not (8 if all are), and their
 * digit values in *dv. A byte's digit value is its xor with '0'; it is a digit when that is 0-9.
 * Carries from a byte that is not a digit only reach later bytes, so the first such byte is found
 * exactly. */
static inline unsigned digit_run(const char *p, uint64_t *dv)
{
  uint64_t a = load8(p) ^ (0x30 * ONES), bad = ((a + 0x76 * ONES) | a) & HIGHS;

  *dv = a;
  return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* The value of the first l (1-8) digit values in a: shifted to the top, the rest zeros. */
static inline uint64_t digits_value(uint64_t a, unsigned l)
{
  return digits8(a << (8 * (8 - l)));
}

static const uint64_t pow10u[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/* A numeric field's value, when it is 1-19 digits and at most INT64_MAX (*ok): independent of the
 * walk, so the processor overlaps it with finding the next fields. 19 digits are nanosecond
 * timestamps (rocprofv3's). */
static inline void number_at(const char *p, size_t len, uint64_t *val, unsigned char *ok)
{
  uint64_t a, b = 0, c = 0, v;

  if (len - 1 >= 19) {
    *ok = 0;
    return;
  }
  if (len <= 8) {
    /* The field's digit values moved to the top bytes: the bytes shifted in are leading zeros,
     * which are digits too, so one test of all eight says whether the field is all digits. */
    a = (load8(p) ^ (0x30 * ONES)) << (8 * (8 - len));
    *ok = (((a + 0x76 * ONES) | a) & HIGHS) == 0;
    *val = digits8(a);
    return;
  }
  a = load8(p) ^ (0x30 * ONES);
  if (len <= 16) {
    b = (load8(p + 8) ^ (0x30 * ONES)) << (8 * (16 - len));
    *ok = ((((a + 0x76 * ONES) | a) | ((b + 0x76 * ONES) | b)) & HIGHS) == 0;
    *val = digits8(a) * pow10u[len - 8] + digits8(b);
    return;
  }
  /* 17-19 digits: below 10^19, so no overflow; a long long must hold the value too. */
  *ok = digit_run(p, &a) == 8 && digit_run(p + 8, &b) == 8 && digit_run(p + 16, &c) >= len - 16;
  v = (digits8(a) * 100000000 + digits8(b)) * pow10u[len - 16] +
      digits_value(c, (unsigned)(len - 16));
  *ok = *ok && v <= (uint64_t)INT64_MAX;
  *val = v;
}

/* In hp__csv_splitter.len: a NUM column whose field is quoted (never a number; its quotes are
 * taken off). */
#define QUOTED_NUM 0x80000000u

/* The first ',' in [p, e), or e. */
static inline const char *find_comma(const char *p, const char *e)
{
  const char *q;

  while (e - p >= 8) {
    uint64_t x = load8(p) ^ (0x2C * ONES), z = (x - ONES) & ~x & HIGHS;
    if (z)
      return p + (__builtin_ctzll(z) >> 3);
    p += 8;
    if (e - p > 32) {
      q = memchr(p, ',', (size_t)(e - p));
      return q ? q : e;
    }
  }
  while (p < e && *p != ',')
    p++;
  return p;
}

/* The field walk for lines longer than the masked walk takes: one field after the other. */
static int split_seq(const char *s, size_t n, const unsigned char *kind, size_t ncols,
                     hp__csv_rec *rec, uint64_t *val, unsigned char *ok)
{
  const char *p = s, *e = s + n, *q;
  size_t i;

  for (i = 0; i < ncols; i++) {
    if (p < e && *p == '"') {
      q = memchr(p + 1, '"', (size_t)(e - p - 1));
      /* A doubled quote, a quote left open, or text after the closing one: hp__csv_next. */
      if (q == NULL || (q + 1 < e && q[1] != ','))
        return 0;
      rec->f[i] = (char *)(p + 1);
      rec->len[i] = (size_t)(q - p - 1);
      ok[i] = 0;
      p = q + 1;
    } else {
      q = find_comma(p, e);
      if (kind[i] == HP__CSV_NUM)
        number_at(p, (size_t)(q - p), &val[i], &ok[i]);
      else
        ok[i] = 0;
      rec->f[i] = (char *)p;
      rec->len[i] = (size_t)(q - p);
      p = q;
    }
    /* p is at the field's ',' or at the line's end. */
    if (i + 1 < ncols) {
      if (p == e)
        return 0; /* fewer fields */
      p++;
    } else if (p != e) {
      return 0; /* more fields */
    }
  }
  rec->n = ncols;
  return 1;
}
/* The masked walk takes lines of up to this many 64-byte blocks. */
#define LINE_BLOCKS 16

/* Bit masks of the ',' and '"' in the nw 64-byte blocks at s (bit i of word w for s[64w+i]). */
static void line_masks(const char *s, size_t nw, uint64_t *cm, uint64_t *qm)
{
  size_t w;

  for (w = 0; w < nw; w++) {
    const char *p = s + 64 * w;
    uint64_t c = 0, q = 0;
    int k;

    for (k = 0; k < 64; k++) {
      c |= (uint64_t)(p[k] == ',') << k;
      q |= (uint64_t)(p[k] == '"') << k;
    }
    cm[w] = c;
    qm[w] = q;
  }
}

#if HP__HAVE_AVX2
/* line_masks with two 32-byte compares per character and block. */
HP__AVX2 static void line_masks_avx2(const char *s, size_t nw, uint64_t *cm, uint64_t *qm)
{
  const __m256i comma = _mm256_set1_epi8(','), quote = _mm256_set1_epi8('"');
  size_t w;

  for (w = 0; w < nw; w++) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + 64 * w));
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + 64 * w + 32));
    uint32_t ca = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, comma));
    uint32_t cb = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, comma));
    uint32_t qa = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, quote));
    uint32_t qb = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, quote));
    cm[w] = (uint64_t)ca | (uint64_t)cb << 32;
    qm[w] = (uint64_t)qa | (uint64_t)qb << 32;
  }
}
#endif

/* Each bit set to the xor of itself and every bit below it: with the quote mask, 1 from an
 * opening quote up to (not including) its closing one. */
static inline uint64_t prefix_xor(uint64_t x)
{
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/* Turns the comma masks (with the line's end as one more comma) into the masks of the commas that
 * end fields, checking the quotes: every opening quote must start a field and every closing quote
 * end one. Returns 0 when one does not, or a quote is left open. */
static int field_ends(uint64_t *cm, const uint64_t *qm, size_t nw)
{
  uint64_t carry = 0, prev_comma = 1; /* the line's start counts as a comma before the first byte */
  size_t w;

  for (w = 0; w < nw; w++) {
    uint64_t q = qm[w], in, open, close, before, after;
    if (q == 0) {
      prev_comma = cm[w] >> 63;
      cm[w] &= ~carry;
      continue;
    }
    in = prefix_xor(q) ^ carry;
    open = q & in;
    close = q & ~in;
    before = (cm[w] << 1) | prev_comma;
    after = (cm[w] >> 1) | (w + 1 < nw ? cm[w + 1] << 63 : 0);
    if ((open & ~before) || (close & ~after))
      return 0;
    prev_comma = cm[w] >> 63;
    carry = (uint64_t)0 - (in >> 63);
    cm[w] &= ~in;
  }
  return carry == 0;
}

/* The columns a masked line fills, each as its offset in the line and its length, quotes taken
 * off; a quoted NUM field is marked QUOTED_NUM, so that number_at is not asked. */
static void layout_fill(hp__csv_splitter *sp, const char *s, const uint32_t *ends)
{
  size_t j, c, start, end;

  for (j = 0; j < sp->ntext + sp->nnum; j++) {
    c = sp->cols[j];
    start = (uint32_t)(ends[c] + 1); /* ends[0] + 1 wraps to 0 */
    end = ends[c + 1];
    /* field_ends put a quoted field's closing quote just before its end */
    sp->off[j] = (uint32_t)start;
    sp->len[j] = (uint32_t)(end - start);
    if (s[start] == '"' && start < end) {
      sp->off[j] = (uint32_t)(start + 1);
      sp->len[j] = (uint32_t)(end - start - 2) | (j < sp->ntext ? 0 : QUOTED_NUM);
    }
  }
}

/* Lists the field ends of the line whose masks are cm and qm (nw words) into ends[1..]. Returns 0
 * when the quotes are not plain or the line has another field count. */
static int layout_find(hp__csv_splitter *sp, uint64_t *cm, const uint64_t *qm, size_t nw,
                       uint32_t *ends)
{
  uint64_t bits;
  size_t w, k = 1;

  if (!field_ends(cm, qm, nw))
    return 0;
  for (w = 0; w < nw; w++)
    for (bits = cm[w]; bits; bits &= bits - 1) {
      if (k > sp->ncols)
        return 0; /* more fields */
      ends[k++] = (uint32_t)((w << 6) + (size_t)__builtin_ctzll(bits));
    }
  return k == sp->ncols + 1;
}

/* The masks of every ',' and '"' of the line (the line's end counts as a ','). When they are the
 * last masked line's, every field starts and ends where it did, and the line reuses that layout:
 * PMC rows, which differ from the one before in a few digits, nearly always do. Otherwise the
 * commas inside quotes are dropped (field_ends), the field ends listed (a bit scan and a bit clear
 * each) and the kept columns' places noted. Then the kept columns are filled from those places,
 * so a left-out column costs its bit and nothing more, and the numeric ones parsed (number_at),
 * independently of each other, so the processor overlaps them. */
static int split_masked(hp__csv_splitter *sp, const char *s, size_t n, hp__csv_rec *rec,
                        uint64_t *val, unsigned char *ok)
{
  uint64_t cm[LINE_BLOCKS], qm[LINE_BLOCKS], same = 0;
  char **f = rec->f;
  size_t *len = rec->len;
  size_t nw = n / 64 + 1, w, j, c;
  unsigned char all_ok = 1;
  int fresh;

#if HP__HAVE_AVX2
  if (hp__cpu_avx2())
    line_masks_avx2(s, nw, cm, qm);
  else
#endif
    line_masks(s, nw, cm, qm);
  cm[nw - 1] = (cm[nw - 1] & (((uint64_t)1 << (n & 63)) - 1)) | ((uint64_t)1 << (n & 63));
  qm[nw - 1] &= ((uint64_t)1 << (n & 63)) - 1;
  if (nw == sp->nw)
    for (w = 0; w < nw; w++)
      same |= (cm[w] ^ sp->cm[w]) | (qm[w] ^ sp->qm[w]);
  /* The lengths are written only when the layout or the caller's array changed: otherwise the
   * array holds them from the last line. */
  fresh = nw != sp->nw || same || sp->lens_at != len;
  if (nw != sp->nw || same) {
    sp->nw = 0;
    sp->lens_at = NULL;
    memcpy(sp->cm, cm, nw * sizeof(*cm));
    memcpy(sp->qm, qm, nw * sizeof(*qm));
    if (!layout_find(sp, cm, qm, nw, sp->ends))
      return 0;
    layout_fill(sp, s, sp->ends);
    sp->nw = nw;
  }
  for (j = 0; j < sp->ntext; j++) {
    c = sp->cols[j];
    f[c] = (char *)(s + sp->off[j]);
    if (fresh)
      len[c] = sp->len[j];
  }
  for (; j < sp->ntext + sp->nnum; j++) {
    uint32_t l = sp->len[j];
    c = sp->cols[j];
    f[c] = (char *)(s + sp->off[j]);
    if (fresh)
      len[c] = l & ~QUOTED_NUM;
    if (l & QUOTED_NUM)
      ok[c] = 0;
    else
      number_at(f[c], l, &val[c], &ok[c]);
    all_ok &= ok[c];
  }
  sp->lens_at = len;
  sp->all_ok = all_ok;
  rec->n = sp->ncols;
  return 1;
}

int hp__csv_splitter_init(hp__csv_splitter *sp, const unsigned char *kind, size_t ncols)
{
  size_t i, k = 0, m = ncols ? ncols : 1;

  memset(sp, 0, sizeof(*sp));
  sp->kind = kind;
  sp->ncols = ncols;
  sp->cols = malloc(m * sizeof(*sp->cols));
  sp->off = malloc(m * sizeof(*sp->off));
  sp->len = malloc(m * sizeof(*sp->len));
  sp->ends = malloc((ncols + 1) * sizeof(*sp->ends));
  if (!sp->cols || !sp->off || !sp->len || !sp->ends) {
    hp__csv_splitter_free(sp);
    return HP_ENOMEM;
  }
  sp->ends[0] = UINT32_MAX;
  for (i = 0; i < ncols; i++)
    if (kind[i] == HP__CSV_TEXT)
      sp->cols[k++] = (uint32_t)i;
  sp->ntext = k;
  for (i = 0; i < ncols; i++)
    if (kind[i] == HP__CSV_NUM)
      sp->cols[k++] = (uint32_t)i;
  sp->nnum = k - sp->ntext;
  return 0;
}

void hp__csv_splitter_free(hp__csv_splitter *sp)
{
  free(sp->cols);
  free(sp->off);
  free(sp->len);
  free(sp->ends);
  memset(sp, 0, sizeof(*sp));
}

int hp__csv_split_fast(hp__csv_splitter *sp, const char *s, size_t n, hp__csv_rec *rec,
                       uint64_t *val, unsigned char *ok)
{
  /* Long fields (a kernel-stack row: four fields in 200 bytes) are found faster one by one, with
   * memchr, than by masks of every byte. */
  if (n / 64 + 1 > LINE_BLOCKS || n > 16 * sp->ncols) {
    sp->lens_at = NULL; /* split_seq writes every length */
    sp->all_ok = 0;
    return split_seq(s, n, sp->kind, sp->ncols, rec, val, ok);
  }
  return split_masked(sp, s, n, rec, val, ok);
}
