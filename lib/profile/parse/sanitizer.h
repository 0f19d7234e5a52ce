/*
 * compute-sanitizer reports (lib/profile/parse/parse_sanitizer.c, tables in
 * lib/profile/tables/san_table.c).
 *
 * memcheck, initcheck, racecheck and synccheck print one block per error, every line prefixed
 * with `=========`: a header line saying what happened, then indented detail lines saying where
 * (kernel, thread, block, address, host frames). A run with many faulting threads prints
 * thousands of blocks that differ only in the thread and the address. hprun folds them into
 * counts by kind (the header without its sizes and addresses) and by kernel, keeps the first
 * block's location per kind, and keeps the `ERROR SUMMARY` each run printed, so a clean run shows
 * up as a row with 0 errors rather than as nothing.
 *
 * The model it fills is in profile/model/san.h; the reading state below belongs to the caller
 * (hp__parse_text), and hp__san_end frees what it holds.
 */
#ifndef HPRUN_PROFILE_SANITIZER_H
#define HPRUN_PROFILE_SANITIZER_H

#include "profile/model/build.h"
#include "profile/model/profile.h"
#include "profile/model/san.h"
#include "util/base/buf.h"

/* The per-file reading state, kept by hp__parse_text beside the PMC text state. */
typedef struct hp__santext {
  int seen;      /* a sanitizer line was read: the file has a run row */
  size_t run;    /* that row */
  int open;      /* an error block is open */
  hp__buf kind;  /* its kind */
  hp__buf where; /* its location lines, joined */
  hp__buf kernel;
  int nwhere; /* location lines kept */
} hp__santext;

/* Takes one text line: 1 if it was a sanitizer line, 0 if not, HP_ENOMEM. */
int hp__san_line(hp__pctx *x, hp__santext *st, const char *s, size_t n, long line);
/* Ends the file: closes an open block and frees the state (reusable). 0 or HP_ENOMEM. */
int hp__san_end(hp__pctx *x, hp__santext *st);

#endif /* HPRUN_PROFILE_SANITIZER_H */
