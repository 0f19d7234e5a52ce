/*
 * One large ncu raw-page CSV read as byte ranges (lib/profile/fast/ncu_range.c; docs/internals/merge.md,
 * "One large file"). The ncu parser (parse_ncu.c) keeps state across rows that a range cannot see
 * from where it starts: the header and units row in force (ncu may print a header again mid-file),
 * the (ID, Process ID) launch window, and the count of lines that are not CSV. A range reports
 * what it found of each (hp__ncu_range, filled by the parser through the hooks below); the caller's
 * thread takes the reports in order (hp__ncu_file) and either confirms that the range read what one
 * pass would have read, or asks for the range to be read again with the header in force, or for
 * the file to be read whole.
 *
 * Ownership: an hp__ncu_range owns its `keys` (hp__ncu_range_free); an hp__ncu_file is its split
 * file's (chunk.c) and is only touched on the caller's thread.
 */
#ifndef HPRUN_PROFILE_NCU_RANGE_H
#define HPRUN_PROFILE_NCU_RANGE_H

#include "hprun.h"
#include "profile/model/recent.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <stddef.h>

/* What became of a header's units row (the record after the header). */
enum {
  HP__NCU_HS_PENDING = 1, /* no record after the header yet */
  HP__NCU_HS_UNITS,       /* the units row was read */
  HP__NCU_HS_BAD          /* a launch came first, or a header a range cannot start from */
};

enum {
  HP__NCU_MONO = 1,
  HP__NCU_REPLAY
};

/* One range's report. */
typedef struct hp__ncu_range {
  long head_lines; /* in: the head's lines; what is on them belongs to an earlier range */
  /* Parser's scratch, for the hooks. */
  unsigned long long lstart; /* where the line being read starts (file offset) */
  int lid;                   /* it starts with "ID", (find_header's test) */
  /* Out. */
  long skipped, first_skipped; /* lines that are not CSV past the head; the first's (reader's)
                                  line. The parser leaves its note about them to the caller. */
  int odd;                     /* the details page, or keys past 8 MiB: the file is read whole */
  int hdr;                     /* a header past the head was read: hs, he, hstate */
  unsigned long long hs, he;   /* its record's start; the end of it, or of its units row */
  int hstate;                  /* HP__NCU_HS_* */
  int hu;                      /* no header past the head, but the head's header got its units
                                  decision here (HP__NCU_HS_UNITS or _BAD), ending at hu_end */
  unsigned long long hu_end;
  hp__buf keys; /* per launch row, in order: a 4-byte length, the key, 1 byte "added" */
  /* Whether the range's launch keys are provably all different: every ID a number, greater than
   * the one before, under one Process ID (ncu numbers a process's launches in order). */
  long long nkeys;
  int mono;
  unsigned long long id_first, id_last;
  char pid[32];
  size_t pidn;
} hp__ncu_range;

void hp__ncu_range_free(hp__ncu_range *r);

/* Parser hooks (r NULL: the file is read whole, nothing is recorded). */
/* A header record was just read at `line` (ok: the parser can start a range from it). */
void hp__ncu_range_header(hp__ncu_range *r, const hp__csv *c, long line, int ok);
/* The record after a header was just read: the units row (units 1) or a launch (0). */
void hp__ncu_range_units(hp__ncu_range *r, const hp__csv *c, long line, int units);
/* A launch row's key and whether the launch window took it as new. 0 or HP_ENOMEM. */
int hp__ncu_range_key(hp__ncu_range *r, const char *key, size_t n, int added);

/* The file's side, on the caller's thread. */
typedef struct hp__ncu_file {
  /* 0 until a range with launches was taken; then HP__NCU_MONO while every launch key so far is
   * provably different from every other (the window then took each as new in one pass too, and
   * is not replayed: their keys are only kept, up to 16 MiB), else HP__NCU_REPLAY. */
  int mode;
  unsigned long long id_last; /* HP__NCU_MONO: the last ID, and its Process ID */
  char pid[32];
  size_t pidn;
  hp__buf kept;    /* HP__NCU_MONO: the keys taken so far, as in hp__ncu_range.keys */
  int lost;        /* they passed 16 MiB and were dropped: a range that breaks the order ends the
                   file's split */
  hp__recent seen; /* one pass's launch window, rows numbered in the file */
  long long rows;  /* launch rows so far */
  long nskip, first_skip;
  int nh; /* a header past the plan's head is in force: */
  unsigned long long hs, he;
  long hlines; /* the lines of [hs, he) */
  int hstate;
} hp__ncu_file;

/* The plan's head for an ncu file: everything up to the end of the units row that must follow the
 * first header directly (a raw page). 1 with *head and *lines set, 0 when the file is not split. */
int hp__ncu_plan_head(const char *path, unsigned long long *head, long *lines);
int hp__ncu_file_new(hp__ncu_file **out);
void hp__ncu_file_free(hp__ncu_file *nf);
/* The head a range must be read with when it is not the plan's: 1 with *hfrom, *head, *lines set,
 * 0 when the plan's is right. */
int hp__ncu_file_head(const hp__ncu_file *nf, unsigned long long *hfrom, unsigned long long *head,
                      long *lines);
/* Takes range k's report (last: it is the file's last range), its lines moved by `off`: *bad is set
 * when the range did not read what one pass would have (a launch the window judged otherwise, the
 * details page) or a later range cannot be read from the header in force; the file must then be
 * read whole. 0 or HP_ENOMEM. */
int hp__ncu_file_take(hp__ncu_file *nf, const char *path, hp__ncu_range *r, long off, int last,
                      int *bad);
/* The note one pass ends the file's messages with (before the count of warnings not shown). */
void hp__ncu_file_note(const hp__ncu_file *nf, hp_diags *d, const char *path);

#endif /* HPRUN_PROFILE_NCU_RANGE_H */
