/*
 * Rows through the CSV reader's fast path (lib/profile/fast/fastrows.c), for the parsers of files whose
 * rows are nearly all plain lines: hipprof PMC, kernel-stack, rocprofv3 traces. One call gives the
 * next record, split by hp__csv_split_fast when the line is plain (its
 * fields not NUL-terminated, the numeric columns' values in val/ok), else read by hp__csv_next.
 * Either way the record holds the same fields, so a parser folds it the same way
 * (docs/internals/csv.md, "Raw lines for fast paths").
 *
 * The arrays are the state's own (hp__fastrows_init allocates them, hp__fastrows_free frees them
 * and accepts a state that was only zeroed).
 */
#ifndef HPRUN_PROFILE_FASTROWS_H
#define HPRUN_PROFILE_FASTROWS_H

#include "profile/model/build.h"
#include "util/csv/csv.h"

#include <stdint.h>

typedef struct hp__fastrows {
  size_t ncols;
  unsigned char *kind; /* per column an HP__CSV_* (the caller sets them after init) */
  unsigned char *ok;   /* per column: val holds the field's value (a fast row's NUM columns) */
  uint64_t *val;
  char **f;
  size_t *len;
  long long lines, slow; /* lines tried, and those that needed hp__csv_next */
  hp__csv_splitter sp;   /* made at the first line, from kind */
  int have_sp;
} hp__fastrows;

/* Allocates the arrays for `ncols` columns, every kind HP__CSV_TEXT. Returns 0 or HP_ENOMEM. */
int hp__fastrows_init(hp__fastrows *fr, size_t ncols);
void hp__fastrows_free(hp__fastrows *fr);

/* The next record: 1 with *rec filled and *nums set to the state's values when the fast path split
 * it (NULL when hp__csv_next read it), 0 at the end, or a negative HP_E* code. */
int hp__fastrows_next(hp__pctx *x, hp__fastrows *fr, hp__csv_rec *rec, const hp__fastrows **nums);

#endif /* HPRUN_PROFILE_FASTROWS_H */
