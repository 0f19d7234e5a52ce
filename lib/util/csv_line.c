/*
 * The parsers' fast path through a CSV file: hp__csv_split_line takes one physical line from
 * hp__csv_next_raw and splits it in place when it is a plain record (csv.h says which lines are),
 * without writing to the buffer, and reads the numeric columns' digits while it finds their ends.
 *
 * Why: on a PMC or kernel-stack file most of the time went to finding 27 field ends a row, writing
 * a NUL after each, and then reading every numeric field a second time to parse it. Here a numeric
 * field costs one 8-byte load (two for 9 to 16 digits): the first byte that is not a digit is both
 * where the field ends and where its value stops. A line this cannot take (doubled quotes, a quote
 * left open, another field count) goes back to hp__csv_next, which returns the same fields for
 * every line this does take, so a parser gives the same results either way
 * (tests/unit/test_csv.c compares the two on every line of its inputs).
 *
 * The 8-byte loads read past a field's end, never more than 16 bytes past the line's: the reader
 * keeps that much zeroed room after its buffer (CSV_PAD in csv.c). Bytes past the line's end are
 * ignored by clamping to it.
 */
#include "util/csv.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
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

static const uint64_t pow10u[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/* A numeric field at p: its end, and its value when it is 1-16 digits (*ok). */
static inline const char *number_field(const char *p, const char *e, uint64_t *val,
                                       unsigned char *ok)
{
  uint64_t a, b;
  unsigned l = digit_run(p, &a), l2;
  size_t room = (size_t)(e - p);

  *ok = 0;
  if (l > room)
    l = (unsigned)room;
  if (l == 8 && room > 8) {
    l2 = digit_run(p + 8, &b);
    if (l2 > room - 8)
      l2 = (unsigned)(room - 8);
    /* 17 digits or more, or not a number: the caller's number functions decide. */
    if (p + 8 + l2 != e && p[8 + l2] != ',')
      return find_comma(p + 8 + l2, e);
    *val = digits8(a) * pow10u[l2] + (l2 ? digits_value(b, l2) : 0);
    *ok = 1;
    return p + 8 + l2;
  }
  if (p + l != e && p[l] != ',')
    return find_comma(p + l, e);
  if (l > 0) {
    *val = digits_value(a, l);
    *ok = 1;
  }
  return p + l;
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
      q = kind[i] == HP__CSV_NUM ? number_field(p, e, &val[i], &ok[i]) : find_comma(p, e);
      if (kind[i] != HP__CSV_NUM)
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

#if defined(__SSE2__)
/* The ',' and '"' bits of the 16 bytes at p. */
static inline void masks16(const char *p, unsigned *c, unsigned *q)
{
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

  *c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
  *q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
}
#endif

/* Bit masks of the ',' and '"' in the 64 bytes at p (bit i for p[i]). */
static inline void block_masks(const char *p, uint64_t *cm, uint64_t *qm)
{
#if defined(__SSE2__)
  unsigned c0, c1, c2, c3, q0, q1, q2, q3;

  masks16(p, &c0, &q0);
  masks16(p + 16, &c1, &q1);
  masks16(p + 32, &c2, &q2);
  masks16(p + 48, &c3, &q3);
  *cm = (uint64_t)c0 | (uint64_t)c1 << 16 | (uint64_t)c2 << 32 | (uint64_t)c3 << 48;
  *qm = (uint64_t)q0 | (uint64_t)q1 << 16 | (uint64_t)q2 << 32 | (uint64_t)q3 << 48;
#else
  uint64_t c = 0, q = 0;
  int k;

  for (k = 0; k < 64; k++) {
    c |= (uint64_t)(p[k] == ',') << k;
    q |= (uint64_t)(p[k] == '"') << k;
  }
  *cm = c;
  *qm = q;
#endif
}

/* A numeric field's value, when it is 1-19 digits and at most INT64_MAX (*ok): independent of the
 * walk, so the processor overlaps it with finding the next fields. 19 digits are nanosecond
 * timestamps (rocprofv3's). */
static inline void number_at(const char *p, size_t len, uint64_t *val, unsigned char *ok)
{
  uint64_t a, b, c = 0, v;
  unsigned l;

  if (len - 1 >= 19) {
    *ok = 0;
    return;
  }
  l = digit_run(p, &a);
  if (len <= 8) {
    *ok = l >= len;
    *val = digits_value(a, (unsigned)len);
    return;
  }
  if (l < 8) {
    *ok = 0;
    return;
  }
  l = digit_run(p + 8, &b);
  if (len <= 16) {
    *ok = l >= len - 8;
    *val = digits8(a) * pow10u[len - 8] + digits_value(b, (unsigned)(len - 8));
    return;
  }
  /* 17-19 digits: below 10^19, so no overflow; a long long must hold the value too. */
  *ok = l == 8 && digit_run(p + 16, &c) >= len - 16;
  v = (digits8(a) * 100000000 + digits8(b)) * pow10u[len - 16] +
      digits_value(c, (unsigned)(len - 16));
  *ok = *ok && v <= (uint64_t)INT64_MAX;
  *val = v;
}

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

/* The masks of every ',' and '"' of the line (the line's end counts as a ','), the commas inside
 * quotes dropped (field_ends), then two passes: one lists the field ends (a bit scan and a bit
 * clear each), the other fills the fields from that list. Finding the fields is thus a few
 * operations per field with no chain of loads from one to the next, and the numeric columns'
 * parsing (number_at) stands apart from it, so the processor overlaps them. */
int hp__csv_split_line(const char *s, size_t n, const unsigned char *kind, size_t ncols,
                       hp__csv_rec *rec, uint64_t *val, unsigned char *ok)
{
  uint64_t cm[LINE_BLOCKS], qm[LINE_BLOCKS], bits;
  uint32_t ends[LINE_BLOCKS * 64 + 1];
  char **f = rec->f;
  size_t *len = rec->len;
  size_t nw = n / 64 + 1, w, i, k = 0, start, end;

  /* Long fields (a kernel-stack row: four fields in 200 bytes) are found faster one by one, with
   * memchr, than by masks of every byte. */
  if (nw > LINE_BLOCKS || n > 16 * ncols)
    return split_seq(s, n, kind, ncols, rec, val, ok);
  for (w = 0; w < nw; w++)
    block_masks(s + 64 * w, &cm[w], &qm[w]);
  cm[nw - 1] = (cm[nw - 1] & (((uint64_t)1 << (n & 63)) - 1)) | ((uint64_t)1 << (n & 63));
  qm[nw - 1] &= ((uint64_t)1 << (n & 63)) - 1;
  if (!field_ends(cm, qm, nw))
    return 0;
  for (w = 0; w < nw; w++)
    for (bits = cm[w]; bits; bits &= bits - 1)
      ends[k++] = (uint32_t)((w << 6) + (size_t)__builtin_ctzll(bits));
  if (k != ncols)
    return 0; /* another field count */
  for (i = 0, start = 0; i < ncols; i++, start = end + 1) {
    end = ends[i];
    if (kind[i] == HP__CSV_SKIP)
      continue;
    if (s[start] == '"' && start < end) {
      /* field_ends put the closing quote just before the end */
      f[i] = (char *)(s + start + 1);
      len[i] = end - start - 2;
      ok[i] = 0;
      continue;
    }
    f[i] = (char *)(s + start);
    len[i] = end - start;
    ok[i] = 0;
    if (kind[i] == HP__CSV_NUM)
      number_at(s + start, end - start, &val[i], &ok[i]);
  }
  rec->n = ncols;
  return 1;
}
