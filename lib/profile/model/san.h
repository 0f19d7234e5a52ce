/*
 * The compute-sanitizer model of a profile (lib/profile/model/san.c): errors counted by kind and by
 * kernel, and one row per run with the ERROR SUMMARY it printed. The reader that fills it is
 * lib/profile/parse/parse_sanitizer.c (profile/parse/sanitizer.h says how reports are folded);
 * the tables that show it are in lib/profile/tables/san_table.c.
 *
 * The model hangs off hp_profile.san (NULL until a file holds sanitizer lines) and is owned by
 * the profile: hp__san_free releases it (hp_profile_free calls it). Every string in it is owned.
 */
#ifndef HPRUN_PROFILE_MODEL_SAN_H
#define HPRUN_PROFILE_MODEL_SAN_H

#include "profile/model/build.h"
#include "profile/model/strtab.h"

#include <stddef.h>

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

/* Frees the model and everything it holds; accepts NULL. */
void hp__san_free(hp__san *s);

#endif /* HPRUN_PROFILE_MODEL_SAN_H */
