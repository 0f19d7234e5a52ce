/*
 * One large file read on every core (lib/profile/merge/chunk.c): a file of a format whose rows
 * carry no state across a fixed distance (rocprofv3 traces, hipprof and rocprof PMC CSVs) is split
 * into byte ranges of a fixed size, each range is parsed into its own profile on the pool
 * (scan.c), and the ranges are merged in order into one profile for the file, which is then merged
 * like any file. The range size does not depend on the number of threads, so neither does the output. The
 * rules (where a range starts, the header, line numbers, warnings, dispatch ids, the fallbacks)
 * are in docs/internals/merge.md, "One large file".
 *
 * Ownership: a hp__chunkfile belongs to scan.c's job (its first range's task frees it); its
 * boundaries are read-only while workers run, the rest is the caller's thread's.
 */
#ifndef HPRUN_PROFILE_CHUNK_H
#define HPRUN_PROFILE_CHUNK_H

#include "profile/parse/detect.h"
#include "profile/model/profile.h"
#include "profile/parse/parsers.h"

#include <stddef.h>

/* A split file: where its ranges start, and while they are merged, the file's profile so far. */
typedef struct hp__chunkfile {
  unsigned long long head; /* bytes of the header record */
  long hlines;             /* its physical lines */
  unsigned long long *at;  /* at[k]: where range k starts (a line start); at[0] = 0 */
  size_t n;                /* ranges */
  /* The merge's state (caller's thread). */
  hp_profile *acc;     /* the file's profile so far (range 0's, then the others merged in) */
  hp_diags diags;      /* the file's messages so far */
  size_t nwarn, nsupp; /* warnings kept, warnings only counted */
  unsigned tables;
  unsigned long long end; /* where the last merged range stopped */
  long endline;           /* the file's line there */
  unsigned char *u;       /* PMC: every dispatch id of the merged ranges */
  size_t u_n;
  int ended;  /* finished: the later ranges are dropped */
  int opened; /* some range could open the file: it is recorded as read */
} hp__chunkfile;

/* Whether and where to split `path` of format `fmt`: *out is a new hp__chunkfile, or NULL when
 * the file is read whole (another format, at most one range, no header). 0 or HP_ENOMEM. */
int hp__chunk_plan(const char *path, hp__fmt fmt, hp__chunkfile **out);
void hp__chunkfile_free(hp__chunkfile *cf);

/* Takes range k's result, in order of k, on the caller's thread: checks that it started where
 * range k-1 really ended and that no dispatch id of it was seen before (else reads it again,
 * here), fixes its line numbers, caps its warnings with the file's, and merges it into the file's
 * profile. Takes *p (set to NULL), *d's messages and o->ids. When the file is finished (its last
 * range, an error, or a parser that stopped early), merges the file into `dst`, sets *fin and
 * *err (the file's code, as hp__parse_file's), and leaves the file's messages in cf->diags.
 * `tmpl`: the profile every range's starts from. 0 or HP_ENOMEM. */
int hp__chunk_take(hp_profile *dst, const hp_profile *tmpl, hp__chunkfile *cf, size_t k,
                   hp_profile **p, hp_diags *d, int r, hp__range_out *o, const char *path,
                   hp__fmt fmt, unsigned skip, int *fin, int *err);

/* The range for task k of cf. */
void hp__chunk_range(const hp__chunkfile *cf, size_t k, hp__range *rg);

#endif /* HPRUN_PROFILE_CHUNK_H */
