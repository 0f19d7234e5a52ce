/*
 * Each profiled pass's full profile as `<pass>.profile.csv` in the session folder (profile_csv.c).
 * Callers own nothing returned except what the comment says.
 */
#ifndef HPRUN_REPORT_PROFILE_CSV_H
#define HPRUN_REPORT_PROFILE_CSV_H

#include "hprun.h"

/* The file name for pass `pass` (malloc'd; NULL when out of memory). */
char *hp__profile_csv_name(const char *pass);
/* Writes one file per pass that has a profile, into the open session folder `dirfd`; failures go
 * to diags (may be NULL). 0 or the first HP_E* code. */
int hp__report_write_profile_csvs(const hp_session *s, int dirfd, hp_diags *diags);

#endif /* HPRUN_REPORT_PROFILE_CSV_H */
