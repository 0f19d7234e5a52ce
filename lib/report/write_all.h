/*
 * Writing the session's renderings (lib/report/write_all.c) into its folder, given as a folder
 * descriptor that stays the caller's. The session is only read; diags, when given, receive one
 * message per file that could not be written.
 */
#ifndef HPRUN_REPORT_WRITE_ALL_H
#define HPRUN_REPORT_WRITE_ALL_H

#include "hprun.h"

/* Writes each rendering of `s` (summary.json, report.md, report.html) into the folder `dirfd` with
 * hp__write_file_at (replacing an earlier rendering, never through a link), whatever became of
 * the others, so that a failure loses that file only. Each failure is added to diags (NULL: not
 * reported) as "cannot write <s->dir>/<file>: <why>". *written (NULL: not wanted) gets the
 * HP_WROTE_* bit of every file written. Returns 0, or the HP_E* code of the first failure. */
int hp__report_write_all_at(const hp_session *s, int dirfd, hp_diags *diags, unsigned *written);

#endif /* HPRUN_REPORT_WRITE_ALL_H */
