/*
 * The Markdown renderings (lib/report/md/): report.md of a session (markdown.c, with its per-run
 * tables in md_runs.c and its ranks in md_ranks.c) and of a sweep (sweep_md.c), hprun compare of
 * two sessions (compare_md.c) and of two sweeps (sweep_compare.c), and what they share
 * (md_common.c): the rule that every path is relative to the session folder, so that a report
 * pasted into a PR comment names `stats/1/stderr.txt`, not the folder of the machine that ran
 * it, and the pass tables and causes list rendered from their descriptions in report/core/. The
 * public entry points hp_report_markdown and hp_compare (lib/report/entry.c) choose between a
 * session and a sweep.
 *
 * Ownership: nothing here allocates for the caller except the `char **out` texts (malloc'd, the
 * caller's). Text goes into the caller's buffer; on HP_ENOMEM the buffer holds what was appended
 * before the failure and is still the caller's to free. The sessions are only read.
 */
#ifndef HPRUN_REPORT_MARKDOWN_H
#define HPRUN_REPORT_MARKDOWN_H

#include "hprun.h"
#include "report/core/report.h"
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

/* md_common.c: `path` relative to the session folder when it lies inside it (the folder itself
 * is "."), else `path` itself. Returns a pointer into `path` or a static ".". */
const char *hp__md_rel(const hp_session *s, const char *path);

/* Appends `text` (NULL: nothing) with every path that starts with the session folder made
 * relative to it (the folder itself becomes "."), written as `mode` says. A path is recognised
 * only where it starts: at the start of the text or after a character no path has (a space, a
 * backtick, a quote). Returns 0 or HP_ENOMEM. */
int hp__md_text(hp__buf *b, const hp_session *s, const char *text, int mode);
/* The same for the first n bytes of text. */
int hp__md_text_n(hp__buf *b, const hp_session *s, const char *text, size_t n, int mode);

/* The pass table (variant = 0: the profiling passes, one row each: the primary metric against
 * the baseline) or the A/B variant table (1: against the reference) of s, as report.md shows
 * them; a sweep's report.md shows a pass table per combination. Returns 0 or HP_ENOMEM. */
int hp__md_table(hp__buf *b, const hp_session *s, int variant);

/* The causes list `l` (report/core/report.h): its heading, or a blank line without one, then one
 * bullet per shown cause and a line for those left out; nothing when there are none. With a
 * session, paths in the lines are made relative to its folder and a newline becomes a space;
 * without (hprun compare), the lines are written as they are. Returns 0 or HP_ENOMEM. */
int hp__md_causes(hp__buf *b, const hp_session *s, const hp__causes *l);

/* markdown.c: report.md of a session that is not a sweep. 0 or HP_ENOMEM. */
int hp__md_session(const hp_session *s, char **out);

/* The "## Runs" section (md_runs.c): one collapsed <details> block per pass holding its run table,
 * bounded as above. Returns 0 or HP_ENOMEM. */
int hp__md_runs(hp__buf *b, const hp_session *s);

/* The "## Ranks" section (md_ranks.c), only when a pass has per-rank statistics. Returns 0 or
 * HP_ENOMEM. */
int hp__md_ranks(hp__buf *b, const hp_session *s);

/* sweep_md.c: report.md of a sweep. 0 or HP_ENOMEM. */
int hp__sweep_markdown(const hp_session *s, char **out);

/* compare_md.c: hprun compare of two sessions that are not sweeps (hp_compare's contract). */
int hp__compare_md(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                   char **md, size_t *failures);
/* sweep_compare.c: hprun compare of two sweeps, combination by combination, matched by name;
 * HP_ENOTSUP when only one of them is a sweep. */
int hp__sweep_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                      char **md, size_t *failures);

#endif /* HPRUN_REPORT_MARKDOWN_H */
