/*
 * One large hipprof kernel-stack CSV read as byte ranges (lib/profile/fast/stack_range.c;
 * docs/internals/merge.md, "One large file"). The stack parser (parse_hipprof.c) groups a file's
 * frame rows into launches with the recent-key window (recent.h), whose sweeps fall on row numbers
 * counted from the file's start: which rows make one launch, and which launches "came back after
 * the window", depend on every row before them. So a range does not run the window. It does the
 * per-row work (the fields, the kernel name, the frame's class and sanitised text) and hands the
 * caller a compact record per run of consecutive rows of one (str_name, index): the run's row
 * count and its best user frame (the lowest stack_sq, the first of equals). The caller's thread
 * replays those runs, in file order, through one pass's window (hp__stack_file), with the rows
 * numbered from the file's start, and so counts every launch and origin as one pass does.
 *
 * Ownership: an hp__stack_range owns its records and tables (hp__stack_range_free); an
 * hp__stack_file is its split file's (chunk.c) and is only touched on the caller's thread.
 */
#ifndef HPRUN_PROFILE_STACK_RANGE_H
#define HPRUN_PROFILE_STACK_RANGE_H

#include "hprun.h"
#include "profile/model/recent.h"
#include "profile/model/strtab.h"
#include "util/base/buf.h"

#include <stddef.h>
#include <stdint.h>

/* The warning a file whose launches came back after the window ends with (one pass or split). */
#define HP__STACK_BACK_MSG                                                                         \
  "%lld launches (str_name, index) came back more than 8192 rows after their last row and were "   \
  "counted again; launch counts may be too high"

/* One range's runs. */
typedef struct hp__stack_range {
  hp__buf recs;      /* per run, in order: u32 kernel (names), u32 index length, the index,
                        i64 rows, i64 best stack_sq, u32 best frame (frames id + 1; 0 = none) */
  hp__strtab names;  /* the range's kernel names */
  hp__strtab frames; /* the range's user frames, sanitised (the parser interns them here) */
  /* The run being read. */
  int open;
  uint32_t kid;
  hp__buf name, index;
  long long n, sq;
  uint32_t fid;
} hp__stack_range;

void hp__stack_range_free(hp__stack_range *r);
/* A row of launch (name, index): continues the open run or starts a new one. 0 or HP_ENOMEM. */
int hp__stack_range_row(hp__stack_range *r, const char *name, size_t nn, const char *index,
                        size_t in);
/* A row of the open run's launch (the caller knows it is: its (name, index) bytes are the last
 * row's), as hp__stack_range_row would count it without the compare. */
static inline void hp__stack_range_again(hp__stack_range *r)
{
  r->n++;
}
/* Whether a user frame at depth sq would become the open run's best. */
static inline int hp__stack_range_wants(const hp__stack_range *r, long long sq)
{
  return r->fid == 0 || sq < r->sq;
}
/* The open run's best user frame is now frames id fid1 - 1, at depth sq. */
static inline void hp__stack_range_frame(hp__stack_range *r, long long sq, uint32_t fid1)
{
  r->sq = sq;
  r->fid = fid1;
}
/* Ends the open run (at the range's end, also after an error). 0 or HP_ENOMEM. */
int hp__stack_range_end(hp__stack_range *r);

/* The file's side, on the caller's thread: one pass's window and kept frames. */
typedef struct hp__stack_file {
  hp__recent grp;    /* the launches, keyed by (kernel, index), rows numbered in the file */
  hp__strtab frames; /* the kept user frames (as the parser's, at most 65536; then copies) */
  hp_profile *p;     /* the file's profile, which the finished launches are counted in */
  int err;           /* set by the finish callback, which cannot return one */
  int ended;
  uint32_t *kmap, *fmap; /* per range: its kernel / frame id -> the file's id + 1 (0: not yet) */
  size_t kmap_cap, fmap_cap;
} hp__stack_file;

int hp__stack_file_new(hp__stack_file **out);
/* Frees sf (NULL is fine); launches still open are dropped, not counted. */
void hp__stack_file_free(hp__stack_file *sf);
/* Replays range r's runs into the file's window, counting finished launches in p (the file's
 * profile so far). 0 or HP_ENOMEM. */
int hp__stack_file_take(hp__stack_file *sf, hp_profile *p, const hp__stack_range *r);
/* The file's end: every open launch is counted in p (NULL: dropped), and the warning about
 * launches that came back is added to d as one pass gives it, under the file's warning cap
 * (*nwarn given, *nsupp only counted). 0 or HP_ENOMEM. */
int hp__stack_file_end(hp__stack_file *sf, hp_profile *p, hp_diags *d, const char *path,
                       size_t *nwarn, size_t *nsupp);

#endif /* HPRUN_PROFILE_STACK_RANGE_H */
