/*
 * The diff splitter for ncu's lines (see ncu_split.h). Where many fields of a kernel's launches
 * change (a PyTorch capture's rows: hundreds of columns, a third of them different from one
 * launch to the next), finding, storing and comparing every field costs more than the rows'
 * changes; here a field that did not change costs next to nothing:
 *   1. the line's field ends (the first quote of every separator `","`, and the last byte) are
 *      found 64 bytes at a time from vector compares and kept as bit masks, one 64-bit word per
 *      64 bytes (no positions are written out), and the quotes are counted;
 *   2. the line is compared with the reference 64 bytes at a time, at the shift where the two are
 *      aligned (field 0 opens at byte 0 in both), with the reference's field ends, kept with it
 *      when it was the line. Up to the first end that only one of the two lines has, the ends
 *      agree: the fields that close there have the reference's lengths, and those holding a
 *      differing byte are found at once (the differing bytes plus the complement of the ends: a
 *      carry runs from each differing byte up to its field's end, where it leaves a bit). The
 *      field that holds the first unpaired end has another length: it is listed, and the shift
 *      becomes the distance between its two ends, where the next fields open in both lines.
 * Only the changed fields get a place (hp__ncu_cf); the other fields' places are found from the
 * masks when asked for (hp__ncu_split_locate: the parser asks for the few identity columns).
 *
 * Why pass 1's masks prove the form: let S be the positions where the line holds `","`. When the
 * line starts and ends with a quote, no separator starts at 0 or ends at n - 1, none starts
 * two bytes after another (they would share a quote), and the line holds exactly 2 + 2|S| quotes:
 * then the quotes pair up in order and the fields are the bytes between separators, what every
 * other splitter (and the general reader) makes of the line. Any other line is answered 0 here.
 *
 * Why pass 2's list is exactly the changed fields: let field k of the line and of the reference
 * start (after field k - 1's end) at bytes that the shift pairs. If both close at paired bytes,
 * they have one length, and they hold the same bytes unless a byte of the line from the end
 * before through its closing quote differs from the reference's at the shift (the separator
 * before it is `","` in both). If only one of them closes at a byte, they differ in length and
 * the field is listed; the next fields start after the two ends, which the new shift pairs. A
 * line with more fields than the reference: the reference's last end is followed by its copy's
 * zero bytes, with no end, so the line's next field has an unpaired end; it and every field after
 * it are listed as new.
 */
#include "profile/fast/ncu_split.h"
#include "util/sys/cpu.h"

#include "hprun.h"

#include <stdlib.h>
#include <string.h>
#if HP__HAVE_AVX2
#include <immintrin.h>
#endif

#if defined(__GNUC__)
#define HP__DIFF_INLINE __attribute__((always_inline)) inline
#else
#define HP__DIFF_INLINE inline
#endif

/* A line being read: its last 64 bytes (all of it, if shorter) are also read from a copy with
 * zeros after it (`tail`, holding the line's bytes from `tb` on), so that no read passes the
 * line's end; zeros are no quote and no comma. */
typedef struct line {
  const char *s, *tail;
  size_t n, nw, tb;
} line;

/* The line and the reference being compared: the reference's copy (zeros around it) and field
 * ends (rnw words and two of zeros). */
typedef struct diff {
  line ln;
  const char *rs;
  const uint64_t *rm;
  size_t rnw;
} diff;

/* The 64 bytes of word b of the line. */
static inline const char *line_word(const line *ln, size_t b)
{
  return 64 * b + 64 <= ln->n ? ln->s + 64 * b : ln->tail + (64 * b - ln->tb);
}

/* The lowest set bit of a word that has one. */
static inline size_t low(uint64_t m)
{
  return (size_t)__builtin_ctzll(m);
}

/* The 64 bits of the masks m from bit q on (m has a word after q's). */
static inline uint64_t bits(const uint64_t *m, size_t q)
{
  size_t w = q / 64;

  /* One double-word shift (shrd) where the CPU has it. */
  __extension__ typedef unsigned __int128 u128;
  return (uint64_t)((((u128)m[w + 1] << 64) | m[w]) >> (q % 64));
}

/* The first set bit of m[0..nw) at or after bit q, or SIZE_MAX. */
static size_t next_end(const uint64_t *m, size_t nw, size_t q)
{
  size_t w = q / 64;
  uint64_t x;

  if (w >= nw)
    return SIZE_MAX;
  for (x = m[w] & (~(uint64_t)0 << (q % 64)); x == 0; x = m[w])
    if (++w == nw)
      return SIZE_MAX;
  return 64 * w + low(x);
}

/* Lists fields k.. as changed (the reference has no more), after the list's first nchg; field
 * k - 1 closes at byte pc. Returns the new count of the list. */
static size_t rest(hp__ncu_split *sp, size_t n, size_t nchg, size_t k, size_t pc)
{
  size_t close;

  for (;; k++) {
    close = next_end(sp->m.em, sp->m.nw, pc + 1);
    sp->cf[nchg].col = (uint32_t)k;
    sp->cf[nchg].off = (uint32_t)(pc + 3);
    sp->cf[nchg].len = (uint32_t)(close - (pc + 3));
    nchg++;
    if (close == n - 1)
      return nchg;
    pc = close;
  }
}

/* clang-format off */
#define TPL(name) name##_portable
#define TPL_ATTR
#define TPL_AVX2 0
#include "profile/fast/ncu_diff_tpl.h"
#undef TPL
#undef TPL_ATTR
#undef TPL_AVX2
#if HP__HAVE_AVX2
#define TPL(name) name##_avx2
#define TPL_ATTR HP__AVX2
#define TPL_AVX2 1
#include "profile/fast/ncu_diff_tpl.h"
#undef TPL
#undef TPL_ATTR
#undef TPL_AVX2
#endif
/* clang-format on */

/* Room in m for a line of nw words. 0 or HP_ENOMEM. */
static int masks_room(hp__ncu_masks *m, size_t nw)
{
  uint64_t *em;

  m->nw = 0;
  if (nw + 2 <= m->cap)
    return 0;
  if ((em = realloc(m->em, (nw + 2) * sizeof(*em))) == NULL)
    return HP_ENOMEM;
  m->em = em;
  m->cap = nw + 2;
  return 0;
}

void hp__ncu_masks_free(hp__ncu_masks *m)
{
  free(m->em);
  memset(m, 0, sizeof(*m));
}

/* Sets ln up for s[0..n), its tail copied into tail[128]. */
static void line_init(line *ln, const char *s, size_t n, char *tail)
{
  ln->s = s;
  ln->n = n;
  ln->nw = (n + 63) / 64;
  ln->tb = n > 64 ? n - 64 : 0;
  memcpy(tail, s + ln->tb, n - ln->tb);
  memset(tail + (n - ln->tb), 0, 128 - (n - ln->tb));
  ln->tail = tail;
}

int hp__ncu_masks_of(hp__ncu_masks *m, const char *s, size_t n, size_t cap, int avx2)
{
  char tail[128];
  line ln;
  size_t nf;

  m->nw = 0;
  if (n < 2 || s[0] != '"' || s[n - 1] != '"' || n >= UINT32_MAX || masks_room(m, (n + 63) / 64))
    return 0;
  line_init(&ln, s, n, tail);
#if HP__HAVE_AVX2
  if (avx2)
    nf = masks_avx2(m, &ln, cap);
  else
#endif
    nf = masks_portable(m, &ln, cap);
  if (nf == 0)
    m->nw = 0;
  return nf > 0;
}

size_t hp__ncu_split_diff(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n,
                          int avx2)
{
  char tail[128];
  diff d;
  size_t nf;

  sp->cur = s;
  sp->curn = n;
  sp->curnf = 0;
  sp->nchg = 0;
  sp->lazy = 0;
  if (n < 2 || s[0] != '"' || s[n - 1] != '"' || n >= UINT32_MAX || sp->cap == 0 || ref == NULL ||
      ref->nf == 0 || ref->m.nw == 0 || masks_room(&sp->m, (n + 63) / 64))
    return 0;
  line_init(&d.ln, s, n, tail);
  d.rs = ref->s;
  d.rm = ref->m.em;
  d.rnw = ref->m.nw;
#if HP__HAVE_AVX2
  if (avx2)
    nf = split_avx2(sp, &d);
  else
#endif
    nf = split_portable(sp, &d);
  if (nf == 0) {
    sp->m.nw = 0;
    sp->nchg = 0;
    return 0;
  }
  sp->curnf = nf;
  sp->lazy = 1;
  return nf;
}

void hp__ncu_split_unlazy(hp__ncu_split *sp)
{
  const uint64_t *em = sp->m.em;
  size_t w, i = 0, open = 1, close;
  uint64_t x;

  if (!sp->lazy)
    return;
  for (w = 0; w < sp->m.nw; w++)
    for (x = em[w]; x; x &= x - 1) {
      close = 64 * w + low(x);
      sp->off[i] = (uint32_t)open;
      sp->len[i] = close - open;
      sp->f[i] = (char *)(sp->cur + open);
      i++;
      open = close + 3;
    }
  sp->lazy = 0;
}

/* The set bits of x. This function is compiled for every CPU, where __builtin_popcountll is a
 * call into libgcc; this is a few operations, inline. */
static inline size_t ones(uint64_t x)
{
  x -= (x >> 1) & 0x5555555555555555u;
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return (size_t)((x * 0x0101010101010101u) >> 56);
}

/* The r-th separator of the line (from 0; there is one). The fields asked for are most often the
 * identity columns, near the line's start. */
static size_t nth_sep(const hp__ncu_masks *m, size_t r)
{
  size_t w = 0, c;
  uint64_t x;

  while ((c = ones(m->em[w])) <= r) {
    r -= c;
    w++;
  }
  for (x = m->em[w]; r > 0; r--)
    x &= x - 1;
  return 64 * w + low(x);
}

void hp__ncu_split_locate(hp__ncu_split *sp, size_t i)
{
  size_t open, close;

  open = i == 0 ? 1 : nth_sep(&sp->m, i - 1) + 3;
  close = next_end(sp->m.em, sp->m.nw, open);
  sp->off[i] = (uint32_t)open;
  sp->len[i] = close - open;
  sp->f[i] = (char *)(sp->cur + open);
}
