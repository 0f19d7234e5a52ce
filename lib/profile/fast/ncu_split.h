/*
 * The splitter for the lines ncu writes (lib/profile/fast/ncu_split.c), used by lib/profile/parse/parse_ncu.c
 * only.
 *
 * ncu's CSV quotes every field and never doubles a quote inside one, so its lines have the form
 * "a","b",...,"z" and nothing else. Such a line is one record whose fields are exactly the bytes
 * between each pair of quotes: the general reader (hp__csv_next) gives the same fields, but only
 * after a second scan of the line, with work for each of its 265 fields. Here a line is compared
 * with a reference line (the last row the caller kept, usually the previous launch): where the two
 * hold the same bytes, the reference's field boundaries are taken over, and only the fields that
 * differ are searched. Consecutive launches differ in a handful of columns (the ID, the measured
 * times), so most of a row costs one compare per 16 bytes. Where many fields change (a
 * PyTorch capture), the diff splitter (ncu_diff.c) compares the line 64 bytes at a time and gives
 * places to the changed fields only. Any line not of that form is left to the general reader.
 *
 * The splitter owns its arrays, a reference its copy and arrays (a caller keeps one reference per
 * kernel: launches of one kernel are alike, while kernels that take turns are not);
 * hp__ncu_split_free and hp__ncu_ref_free release them and accept ones that were only zeroed.
 */
#ifndef HPRUN_PROFILE_NCU_SPLIT_H
#define HPRUN_PROFILE_NCU_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/* A changed field: column col, len bytes at off in its line. */
typedef struct hp__ncu_cf {
  uint32_t col, off, len;
} hp__ncu_cf;

/* A line's field ends as bit masks (the diff splitter's, ncu_diff.c): bit i of em[w] is set where
 * byte 64 * w + i closes a field (the first quote of a separator `","`, and the line's last
 * byte). nw words hold the line, and two more words of zeros follow them. A zeroed one is
 * empty. */
typedef struct hp__ncu_masks {
  uint64_t *em;
  size_t nw, cap; /* words of the line; room in em */
} hp__ncu_masks;

/* A reference line: a copy, with its fields' offsets and lengths where `full`. nf == 0: none. A
 * zeroed one is empty. The copy has HP__NCU_REF_PAD zero bytes before and after it: the splitters
 * compare 16 or 64 bytes at a time, at any shift between the line and the copy. */
typedef struct hp__ncu_ref {
  char *s;
  size_t n, scap, nf;
  uint32_t *off;
  size_t *len;
  size_t acap;     /* room in off and len */
  size_t hint;     /* how many of its fields had changed when it was split (chooses the splitter) */
  int full;        /* off and len hold every field (the line was split whole, not by the diff) */
  hp__ncu_masks m; /* its field ends, where m.nw > 0 (the diff splitter needs them) */
} hp__ncu_ref;

#define HP__NCU_REF_PAD 64

typedef struct hp__ncu_split {
  /* The last line split: field i is len[i] bytes at cur + off[i]. cf[0..nchg) lists, in order and
   * with their places, the fields that do not hold the same bytes as the reference's field of that
   * index. f[i] is
   * cur + off[i] only once hp__ncu_split_point or hp__ncu_split_point_all has set it: a caller
   * that reads few fields of a line points only those. The fields are NOT followed by a NUL (the
   * closing quote follows) and are only read through: they are `char *` so that they fit an
   * hp__csv_rec. */
  char **f;
  size_t *len;
  uint32_t *off;
  size_t nchg;
  hp__ncu_cf *cf;
  size_t cap; /* room in the arrays: the most fields a line may have */
  const char *cur;
  size_t curn, curnf;
  /* The diff splitter's (ncu_diff.c): where lazy, only nchg and cf are set, and a field's off,
   * len and f are found from the line's field ends by hp__ncu_split_locate. */
  int lazy;
  hp__ncu_masks m;
} hp__ncu_split;

/* Makes room for lines of up to cap fields. 0 or HP_ENOMEM. */
int hp__ncu_split_room(hp__ncu_split *sp, size_t cap);
/* Splits s[0..n) when it has the form above, comparing it with `ref` (NULL or empty: every field
 * is listed as changed). Returns the number of fields, or 0 when the line is not of that form (a
 * doubled quote, a field left open so that the record goes on on the next line, text after a
 * closing quote, an unquoted field, a trailing comma), has more than cap fields, or is 2^32 bytes
 * or longer. */
size_t hp__ncu_split_line(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n);

/* The two splitters hp__ncu_split_line chooses from: it follows the reference where the kernel's
 * last line had few changed fields, and compares the line with it 64 bytes at a time otherwise.
 * hp__ncu_split_ref is the reference-following splitter, with the same answer as
 * hp__ncu_split_line; ref is NULL or has every field's offset (full). */
size_t hp__ncu_split_ref(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n);

/* The diff splitter (ncu_diff.c): the same answer as hp__ncu_split_line's, or 0 where it is not sure
 * (the line is not of the form, or is too long); ref must hold a line (nf > 0). It compares the
 * line with the reference 64 bytes at a time where the two stay aligned and looks only at the
 * fields that differ: only nchg and cf are set, and the line is left lazy (off, len and f
 * of a field are set by hp__ncu_split_point, hp__ncu_split_point_all or hp__ncu_split_locate).
 * The reference must have its field ends (ref->m.nw > 0). avx2: run the AVX2 code (only where
 * hp__cpu_avx2() says so, util/sys/cpu.h), else the portable code. */
size_t hp__ncu_split_diff(hp__ncu_split *sp, const hp__ncu_ref *ref, const char *s, size_t n,
                          int avx2);
/* Sets off[i], len[i] and f[i] of a lazy line from its field ends (i < curnf). */
void hp__ncu_split_locate(hp__ncu_split *sp, size_t i);
/* Sets off, len and f of every field of a lazy line, which is then no longer lazy. */
void hp__ncu_split_unlazy(hp__ncu_split *sp);
/* The field ends of s[0..n), a line of the form, into m (avx2: as above): 1, or 0 when the line is
 * not of the form, has more than cap fields, or memory ran out (m is then empty). */
int hp__ncu_masks_of(hp__ncu_masks *m, const char *s, size_t n, size_t cap, int avx2);
void hp__ncu_masks_free(hp__ncu_masks *m);

/* Field i of a line of that form, found by its quotes without splitting the rest (to choose the
 * reference before splitting): 1 with *f and *len set, 0 when the line does not have that form up
 * to field i. */
int hp__ncu_split_peek(const char *s, size_t n, size_t i, const char **f, size_t *len);

/* Sets f[i] for field i (nothing when the line has no such field), or for every field. */
static inline void hp__ncu_split_point(hp__ncu_split *sp, int i)
{
  if (i >= 0 && (size_t)i < sp->curnf) {
    if (sp->lazy)
      hp__ncu_split_locate(sp, (size_t)i);
    else
      sp->f[i] = (char *)(sp->cur + sp->off[i]);
  }
}
void hp__ncu_split_point_all(hp__ncu_split *sp);

/* Makes the line last split `ref`, while that line is still valid (before the reader's next call).
 * Unless the line is lazy, the splitter's offset and length arrays change hands with the
 * reference's: read the line's fields before. 0 or HP_ENOMEM (the reference is then empty). */
int hp__ncu_split_keep(hp__ncu_split *sp, hp__ncu_ref *ref);
void hp__ncu_split_free(hp__ncu_split *sp);
/* Empties a reference; frees one (a zeroed one too). */
void hp__ncu_ref_forget(hp__ncu_ref *ref);
void hp__ncu_ref_free(hp__ncu_ref *ref);

#endif /* HPRUN_PROFILE_NCU_SPLIT_H */
