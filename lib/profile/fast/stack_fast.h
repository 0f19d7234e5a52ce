/*
 * The kernel-stack parser's row reader for its block loop (lib/profile/fast/stack_fast.c;
 * docs/internals/profile.md, "Kernel stacks: the block loop"). A hipprof --kernel-stack row is
 * `"str_name",index,stack_sq,"addrname"`: four fields, the two text ones quoted and ~150 bytes
 * together. The row reader (hp__stack_reader) takes such a row straight from the reader's buffer
 * (hp__csv_lines), quote-aware, without a split into fields: most rows repeat the row before's
 * `"str_name",index,` (one launch's frames come together), and one compare of those bytes
 * replaces finding, checking and comparing the two fields.
 *
 * It takes only rows of exactly that shape, whose fields are then the very ones hp__csv_next gives
 * (name and addrname without their quotes, index as text, stack_sq as its value); every other line
 * is left to the record reader, so a row is folded the same way whichever path read it.
 */
#ifndef HPRUN_PROFILE_STACK_FAST_H
#define HPRUN_PROFILE_STACK_FAST_H

#include <stddef.h>

/* One row as read: the three text fields (not NUL-terminated; pointers into the line). */
typedef struct hp__stack_line {
  const char *name, *index, *addr;
  size_t nn, in, an;
  size_t pre;   /* the bytes of `"str_name",index,` */
  size_t len;   /* the line's bytes, its line ending included */
  long long sq; /* stack_sq: 1 to 16 digits */
} hp__stack_line;

/* Reads the row at s, in a span that ends at `end` with a '\n' and is followed by at least 32
 * readable bytes. `pre`/`plen` are the prefix (`"str_name",index,`) of the last row this answered 2
 * for, or plen 0; `ln` must be the struct filled by that call (its nn and in are kept).
 * Returns 2 for a row with another prefix (every field of *ln filled), 1 for a row that starts with
 * `pre` (name, nn, index and in are the last row's, at this line's place), or 0 when the line is
 * not such a row: no quoted str_name closed before ',', an index that is not 1 or more digits, a
 * stack_sq that is not 1 to 16 digits, an addrname that is not quoted, holds a quote or a line
 * break, or is not followed by the line's end ("\n" or "\r\n"). */
typedef int (*hp__stack_read_fn)(const char *s, const char *end, const char *pre, size_t plen,
                                 hp__stack_line *ln);

/* The reader: AVX2 (only where hp__cpu_avx2() says so, util/sys/cpu.h) or portable, with the same
 * answers. */
hp__stack_read_fn hp__stack_reader(int avx2);

#endif /* HPRUN_PROFILE_STACK_FAST_H */
