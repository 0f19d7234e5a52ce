/*
 * compute-sanitizer reports (lib/profile/parse/parse_sanitizer.c, tables in lib/profile/tables/san_table.c).
 *
 * memcheck, initcheck, racecheck and synccheck print one block per error, every line prefixed
 * with `=========`: a header line saying what happened, then indented detail lines saying where
 * (kernel, thread, block, address, host frames). A run with many faulting threads prints
 * thousands of blocks that differ only in the thread and the address. hprun folds them into
 * counts by kind (the header without its sizes and addresses) and by kernel, keeps the first
 * block's location per kind, and keeps the `ERROR SUMMARY` each run printed, so a clean run shows
 * up as a row with 0 errors rather than as nothing.
 *
 * The model hangs off hp_profile.san (NULL until a file holds sanitizer lines) and is owned by
 * the profile: hp__san_free releases it (hp_profile_free calls it).
 */
#ifndef HPRUN_PROFILE_SANITIZER_H
#define HPRUN_PROFILE_SANITIZER_H

#include "profile/model/build.h"
#include "profile/model/profile.h"
#include "profile/model/strtab.h"
#include "util/base/buf.h"

typedef struct hp__san_kind {
  long long n;   /* errors of this kind */
  char *example; /* where the first one was: its detail lines joined with "; " (owned) */
} hp__san_kind;

typedef struct hp__san_kernel {
  long long n;    /* errors in this kernel ("(host)": leaks and API errors) */
  hp__vals kinds; /* the distinct kinds seen in it */
} hp__san_kernel;

typedef struct hp__san_run {
  char *file;        /* the file it was read from (owned) */
  long long listed;  /* error blocks read */
  long long summary; /* the sum of its `ERROR SUMMARY: N errors` lines; -1 when none was printed */
} hp__san_run;

typedef struct hp__san {
  hp__strtab kinds;
  hp__san_kind *k; /* by kind id */
  size_t kcap;
  hp__strtab kernels;
  hp__san_kernel *kk; /* by kernel id */
  size_t kkcap;
  hp__san_run *runs;
  size_t nruns, rcap;
} hp__san;

void hp__san_free(hp__san *s);

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
