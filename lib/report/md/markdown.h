/*
 * What the two halves of report.md share (lib/report/md/markdown.c writes the summary and the
 * profiles, lib/report/md/md_runs.c the per-run tables): its size budgets, and the rule that every
 * path in it is relative to the session folder, so that a report pasted into a PR comment names
 * `stats/1/stderr.txt`, not the folder of the machine that ran it.
 *
 * Ownership: nothing here allocates for the caller. Text goes into the caller's buffer; on
 * HP_ENOMEM the buffer holds what was appended before the failure and is still the caller's to
 * free. The session is only read.
 */
#ifndef HPRUN_REPORT_MARKDOWN_H
#define HPRUN_REPORT_MARKDOWN_H

#include "hprun.h"
#include "util/base/buf.h"

/* report.md must fit a GitHub PR comment (65,536 characters) whatever the number of runs, with
 * room to spare: it stays under 60 KB. The per-run tables show at most HP__MD_RUN_ROWS rows in
 * all and spend at most HP__MD_RUNS_BYTES on rows; the profiles share HP__MD_PROFILE_BYTES. The
 * rest (header, causes, pass tables, advice) grows with the number of passes only. */
#define HP__MD_RUN_ROWS 200
#define HP__MD_RUNS_BYTES 24000
#define HP__MD_PROFILE_BYTES 24000

/* How hp__md_text writes its text besides shortening paths. */
enum {
  HP__MD_RAW,  /* as it is */
  HP__MD_LINE, /* a newline becomes a space: one bullet stays one bullet */
  HP__MD_CELL  /* also '|' escaped: one table cell */
};

/* `path` relative to the session folder when it lies inside it (the folder itself is "."),
 * else `path` itself. Returns a pointer into `path` or a static ".". */
const char *hp__md_rel(const hp_session *s, const char *path);

/* Appends `text` (NULL: nothing) with every path that starts with the session folder made
 * relative to it (the folder itself becomes "."), written as `mode` says. A path is recognised
 * only where it starts: at the start of the text or after a character no path has (a space, a
 * backtick, a quote). Returns 0 or HP_ENOMEM. */
int hp__md_text(hp__buf *b, const hp_session *s, const char *text, int mode);

/* The table of the profiling passes (one row each: the primary metric against the baseline), as
 * report.md shows it; a sweep's report.md shows one per combination. Returns 0 or HP_ENOMEM. */
int hp__md_pass_table(hp__buf *b, const hp_session *s);

/* The "## Runs" section: one collapsed <details> block per pass holding its run table, bounded
 * as above. Returns 0 or HP_ENOMEM. */
int hp__md_runs(hp__buf *b, const hp_session *s);

/* The "## Ranks" section (lib/report/md/md_ranks.c), only when a pass has per-rank statistics.
 * Returns 0 or HP_ENOMEM. */
int hp__md_ranks(hp__buf *b, const hp_session *s);

#endif /* HPRUN_REPORT_MARKDOWN_H */
