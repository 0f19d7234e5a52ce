/*
 * Folding ncu raw-page launches into their kernel's metric sums (lib/profile/fast/ncu_fold.c), used by
 * lib/profile/parse/parse_ncu.c only.
 *
 * A raw-page row has ~250 metric columns, and launch after launch most of them hold the same bytes
 * (device attributes, the launch configuration, text such as "NVIDIA H200"). The fold keeps what
 * hp__parse_num made of each column in the last row and parses only the fields the caller says
 * changed (ncu_split.h finds them). The columns that hold a number (the live ones) are summed in
 * the fold, one running sum per column, started from the kernel's sum of that metric: every row
 * adds its value to every live column's sum, in one vector loop over the row (a column that is
 * not live adds -0.0, which changes no sum, not even -0.0 or a NaN). Each sum therefore gets
 * exactly the additions hp__ncu_add would make, in the same order: the result is bit for bit
 * hp__ncu_add's. That pays where many fields change (a PyTorch capture's rows); where few do (one
 * kernel launched over and over), the fold counts instead: a value that does not change is not
 * added row by row, but the rows it lasted are added when it changes (as one product where every
 * partial sum is a whole number below 2^52, so exact, else one copy at a time), which is the
 * same. The mode follows each row's changed fields (one in eight or more: every row). The sums
 * go back into the kernel's (and the counts, the rows times one, into
 * its counts) when the kernel changes, a column turns from a number into text or back, or the
 * caller flushes. A header that names one metric twice (two columns, one sum) is added column by
 * column, row by row, as hp__ncu_add does.
 *
 * The fold owns its arrays; `mids` stays the caller's and must live until the next init or free.
 * What is pending reaches the profile only through a flush: the caller flushes before the
 * profile's sums are read, before changing columns (init), and at the end of the file; nothing
 * else may add to the kernel's sums of the fold's metrics while rows are pending.
 */
#ifndef HPRUN_PROFILE_NCU_FOLD_H
#define HPRUN_PROFILE_NCU_FOLD_H

#include "profile/fast/ncu_split.h"
#include "profile/model/profile.h"
#include "util/csv/csv.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hp__ncu_fold {
  double *add;         /* by column: what a row adds: the column's number while live, else -0.0 */
  double *sum;         /* by column: a live column's running sum of kernel kid's metric */
  long long *since;    /* by column, counting mode: the row count from which add[] has not been
                          added to sum[] */
  uint8_t *st;         /* by column: metric column, holds a number, live (ncu_fold.c) */
  uint32_t *live;      /* the live columns, in column order */
  size_t nlive;        /* their count */
  uint32_t maxmid;     /* the largest metric id of a live column, plus one (0: none) */
  const int32_t *mids; /* by column: metric id, or -1 for a column that is not a metric */
  size_t ncols;
  size_t width; /* the row width the live columns were chosen for (0: none): live columns lie
                     below it */
  int dup;      /* two columns share a metric id: rows are added column by column */
  int dense;    /* every row is added to every live sum (else counted: see above) */
  int pending;  /* rows of kernel `kid` are summed in `sum` but not yet in the kernel's sums */
  uint32_t kid;
  long long rows; /* rows summed since the last flush */
  int avx2;       /* run the AVX2 code (util/sys/cpu.h): hp__cpu_avx2() at init */
} hp__ncu_fold;

/* Sets the fold up for a header of ncols columns with metric ids `mids`; forgets the last row.
 * Flush first: what is pending is dropped. 0 or HP_ENOMEM. */
int hp__ncu_fold_init(hp__ncu_fold *fo, const int32_t *mids, size_t ncols);
/* A row's changed fields, in column order: field f[j].col is f[j].len bytes at base + f[j].off.
 * Listing a field that did not change changes nothing but the time. lim: NULL, or where the
 * memory that holds the fields ends (the line's end): a field up to 16 bytes before it may be
 * read 16 bytes at a time. */
typedef struct hp__ncu_chg {
  const hp__ncu_cf *f;
  size_t n;
  const char *base, *lim;
} hp__ncu_chg;

/* Folds one launch of kernel `kid`: the first `width` fields of `rec` (width <= ncols). chg lists
 * the fields that differ from the last row folded; NULL when unknown (every field of rec is
 * parsed). A field not listed is not read. 0 or HP_ENOMEM. */
int hp__ncu_fold_row(hp__ncu_fold *fo, hp_profile *p, uint32_t kid, const hp__csv_rec *rec,
                     size_t width, const hp__ncu_chg *chg);
/* Adds everything pending to the profile. 0 or HP_ENOMEM. */
int hp__ncu_fold_flush(hp__ncu_fold *fo, hp_profile *p);
/* The last row's number in column i: 1 with *v set, 0 when it held none. */
int hp__ncu_fold_value(const hp__ncu_fold *fo, size_t i, double *v);
void hp__ncu_fold_free(hp__ncu_fold *fo);

/* ---------------------------------------------------------------------------------------------- */
/* One fold and one reference line per kernel.                                                    */

/* Launches of one kernel are alike, kernels that take turns are not: each of the first
 * HP__NCU_SLOTS kernels gets its own reference line (ncu_split.h) and fold, which then never
 * flushes for another kernel's row; the kernels beyond share one more. About 14 KB each for ncu's
 * 265 columns (30 KB for a PyTorch capture's 566), so at most a few MB. */
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
