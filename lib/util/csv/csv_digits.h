/*
 * Digits and numbers for the CSV reader's fast path (static inline, included by
 * lib/util/csv/csv_line.c and lib/util/csv/csv_lanes.c only): 8-byte SWAR digit tests and conversion,
 * number_at (one numeric field's value), and the hooks of the AVX2 number lanes (csv_lanes.c).
 *
 * Every load here reads 8 bytes at a field, which may run up to 16 bytes past the line's end:
 * hp__csv_next_raw guarantees 64 readable bytes after every line (CSV_PAD in csv.c).
 */
#ifndef HPRUN_UTIL_CSV_DIGITS_H
#define HPRUN_UTIL_CSV_DIGITS_H

#include "util/csv/csv.h"
#include "util/sys/cpu.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The AVX2 code (csv_line.c's mask builder, csv_lanes.c's number lanes)
 * runs only where hp__cpu_avx2() says so (util/sys/cpu.h); elsewhere the portable code, which
 * gives the same results. */
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

/* The AVX2 number lanes (csv_lanes.c). hp__csv_lanes_plan lays out a new layout's lanes: one per
 * NUM field of 1-8 digits, two per field of 9-16 (its first 8 and the rest), the others read by
 * number_at. hp__csv_lanes_avx2 reads a line's NUM columns with them, four lanes at a time: f, val
 * and ok as the scalar loop in csv_line.c sets them; returns 1 when every ok is 1. Call it only
 * when the CPU has AVX2. */
void hp__csv_lanes_plan(hp__csv_splitter *sp);
#if HP__HAVE_AVX2
int hp__csv_lanes_avx2(hp__csv_splitter *sp, const char *s, char **f, uint64_t *val,
                       unsigned char *ok);
#endif

#endif /* HPRUN_UTIL_CSV_DIGITS_H */
