/*
 * Folding ncu raw-page launches into their kernel's metric sums (lib/profile/ncu_fold.c), used by
 * lib/profile/parse_ncu.c only.
 *
 * A raw-page row has ~250 metric columns, and launch after launch most of them hold the same bytes
 * (device attributes, the launch configuration, text such as "NVIDIA H200"). The fold keeps what
 * hp__parse_num made of each column in the last row and parses only the fields the caller says
 * changed (ncu_split.h finds them). The row's numbers form a list in column order; while the
 * fold's rows are of one kernel (the caller keeps a fold per kernel: hp__ncu_slots below), an
 * unchanged entry is not added row by row but counted, and the count is added when the entry
 * changes, another kernel comes, or the caller flushes. The result is
 * bit for bit what adding every row in order gives (hp__ncu_add's sums): a count of whole numbers
 * is added as one product only where every partial sum is an exact double, and otherwise one copy
 * at a time; entries that share a metric id are never deferred, so no two sums change order.
 *
 * The fold owns its arrays; `mids` stays the caller's and must live until the next init or free.
 * What is pending reaches the profile only through a flush (or its entry changing): the caller
 * flushes before the profile's sums are read, before changing columns (init), and at the end of
 * the file.
 */
#ifndef HPRUN_PROFILE_NCU_FOLD_H
#define HPRUN_PROFILE_NCU_FOLD_H

#include "profile/ncu_split.h"
#include "profile/profile.h"
#include "util/csv.h"

#include <stddef.h>
#include <stdint.h>

/* One column: what hp__parse_num made of it in the last row folded, and, while it is in the list
 * (live), its metric id and the pending row count at which its value began. One record per column
 * (32 bytes), so that a changed field touches one cache line of the fold. */
typedef struct hp__ncu_col {
  double v;
  long long since;
  int32_t mid;  /* the metric id when the list was built */
  int32_t k;    /* hp__parse_num's answer: > 0 a number, else not summed */
  int32_t live; /* in the list: a metric column that held a number when the list was built */
  int32_t pad;
} hp__ncu_col;

typedef struct hp__ncu_fold {
  hp__ncu_col *col;    /* by column */
  const int32_t *mids; /* by column: metric id, or -1 for a column that is not a metric */
  size_t ncols;
  size_t width; /* the row width the list was built for (0: none); the list is the live columns
                     below it, in column order */
  int dup;      /* two columns share a metric id: nothing is deferred */
  int pending;  /* rows of kernel `kid` are counted but not yet added */
  uint32_t kid;
  long long rows; /* rows counted since the last flush */
  int isa;        /* the vector code to run (ncu_isa.h), from hp__ncu_isa() at init */
  size_t wide;    /* rows with at least this many changed fields are read with hp__ncu_num16
                     (ncu_num.h) where isa allows: on rows with few, the same fields change row
                     after row and the byte loop's ends are predicted. Tests set it to 0. */
} hp__ncu_fold;

/* Sets the fold up for a header of ncols columns with metric ids `mids`; forgets the last row.
 * Flush first: what is pending is dropped. 0 or HP_ENOMEM. */
int hp__ncu_fold_init(hp__ncu_fold *fo, const int32_t *mids, size_t ncols);
/* Folds one launch of kernel `kid`: the first `width` fields of `rec` (width <= ncols). chg lists,
 * in order, the fields that differ from the last row folded; NULL when unknown (every field is
 * parsed). A field not listed is not read. lim: NULL, or where the memory that holds the fields
 * ends (the line's end): a field up to 16 bytes before it may be read 16 bytes at a time. 0 or
 * HP_ENOMEM. */
int hp__ncu_fold_row(hp__ncu_fold *fo, hp_profile *p, uint32_t kid, const hp__csv_rec *rec,
                     size_t width, const uint32_t *chg, size_t nchg, const char *lim);
/* Adds everything pending to the profile. 0 or HP_ENOMEM. */
int hp__ncu_fold_flush(hp__ncu_fold *fo, hp_profile *p);
/* The last row's number in column i: 1 with *v set, 0 when it held none. */
int hp__ncu_fold_value(const hp__ncu_fold *fo, size_t i, double *v);
void hp__ncu_fold_free(hp__ncu_fold *fo);

/* ---------------------------------------------------------------------------------------------- */
/* One fold and one reference line per kernel.                                                    */

/* Launches of one kernel are alike, kernels that take turns are not: each of the first
 * HP__NCU_SLOTS kernels gets its own reference line (ncu_split.h) and fold, which then never
 * flushes for another kernel's row; the kernels beyond share one more. About 15 KB each for ncu's
 * 265 columns, so at most a few MB. */
#define HP__NCU_SLOTS 256

typedef struct hp__ncu_slot {
  hp__ncu_ref ref; /* the last row folded, when the caller could keep it */
  hp__ncu_fold fold;
  unsigned gen; /* the header the fold was set up for */
} hp__ncu_slot;

typedef struct hp__ncu_slots {
  hp__ncu_slot *by_kid; /* kernels 0..n-1 */
  size_t n;
  hp__ncu_slot other;  /* kernels from HP__NCU_SLOTS on */
  unsigned gen;        /* the current header; 0 before the first */
  const int32_t *mids; /* its metric ids by column (the caller's) */
  size_t ncols;
} hp__ncu_slots;

/* Adds everything pending in every fold to the profile. 0 or HP_ENOMEM. */
int hp__ncu_slots_flush(hp__ncu_slots *ss, hp_profile *p);
/* A new header (flush first): every reference is forgotten and each fold is set up again for
 * `mids` when its kernel next comes. */
void hp__ncu_slots_header(hp__ncu_slots *ss, const int32_t *mids, size_t ncols);
/* The slot of kernel kid, set up for the current header; NULL on HP_ENOMEM. The pointer lasts
 * until the next call. */
hp__ncu_slot *hp__ncu_slots_get(hp__ncu_slots *ss, uint32_t kid);
/* The slot of kernel kid when it is set up for the current header, else NULL. */
hp__ncu_slot *hp__ncu_slots_find(hp__ncu_slots *ss, uint32_t kid);
void hp__ncu_slots_free(hp__ncu_slots *ss);

#endif /* HPRUN_PROFILE_NCU_FOLD_H */
