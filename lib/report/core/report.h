/*
 * What the report writers in lib/report/ share: the column they name after the primary metric,
 * the interval's label, the causes list (its heading and the line a cause is shown as), and
 * escaping for the text formats. Nothing here allocates; every function writes into a buffer the
 * caller owns, or returns a pointer into the session, which stays the caller's.
 */
#ifndef HPRUN_REPORT_REPORT_H
#define HPRUN_REPORT_REPORT_H

#include "hprun.h"
#include "util/base/buf.h"

/* The formats that render the descriptions shared here and in pass_table.h. */
enum {
  HP__RF_TEXT,
  HP__RF_MD,
  HP__RF_HTML,
  HP__RF_JUNIT,
  HP__RF_N
};

/* The baseline's primary (first) metric, or NULL when there is no pass or it has no metric. Every
 * table names its median column after it. */
const hp_metric_result *hp__report_primary(const hp_session *s);

/* Appends s (NULL: nothing) to b, escaped for XML text and attribute values: & < > " become
 * entities, and control characters other than newline and tab (not allowed in XML 1.0) become
 * spaces. Returns 0 or HP_ENOMEM. */
int hp__report_xml(hp__buf *b, const char *s);

/* Appends s (NULL: nothing) to b as one Markdown table cell: '|' is escaped and a newline becomes
 * a space, since a cell cannot hold either raw. Returns 0 or HP_ENOMEM. */
int hp__report_md_cell(hp__buf *b, const char *s);

/* The label of the interval's column, "95% CI", from the level it was computed at: 1 - alpha /
 * looks (alpha outside (0, 1) means HP_STATS_ALPHA, as hp_stats_compare reads it; looks < 2 means
 * one look). A pass's interval under `repeat: auto` is at 1 - alpha / looks ("99.17% CI" for
 * alpha 0.05 and 6 looks); a variant's and a comparison's at 1 - alpha (looks 1). Written into
 * buf (the caller's); returns buf. */
char *hp__report_ci_label(char *buf, size_t len, double alpha, int looks);
/* `repeat: auto`: appends one line (no newline) of each pass's counted runs and why they stopped
 * ("repeat auto (6 looks per pass, ...): normal 12 runs (resolved), ..."); returns how many
 * passes it named, 0 (nothing appended) for a fixed count. Check b's sticky error. */
int hp__report_stops(hp__buf *b, const hp_session *s);

/* The causes list, described once: what a report shows of the causes of the exit code. Each
 * format renders it with one loop (term/term.c, md/md_common.c, html/html.c): the heading, then
 * the line of each shown cause. */
typedef struct hp__causes {
  const hp_cause *c;
  size_t n;          /* causes */
  size_t shown;      /* lines shown: n, fewer where a budget says so (a sweep's report.md) */
  const char *title; /* the heading; NULL: the format shows none (the terminal, hprun compare) */
} hp__causes;
/* The causes of s as format f (HP__RF_*) shows them: report.md and report.html head them "Why
 * this session failed" when one of them fails, else "Gates not evaluated" (a sweep's report.md:
 * "Why this sweep failed", "Notes"); every cause is shown. */
hp__causes hp__report_causes(const hp_session *s, int f);
/* Appends one cause as its line, `fail: PASS: TEXT` or `note: PASS: TEXT` (no newline), the form
 * every report shows it in. Returns 0 or HP_ENOMEM. */
int hp__report_cause(hp__buf *b, const hp_cause *c);

/* The options a pass's profile is rendered with in summary.json and report.md: the session's
 * top-N (report_top, else HP_PROFILE_SUMMARY_TOP) rows per table, HP_PROFILE_SUMMARY_CHILD rows
 * per nested table, and the ncu metrics the pass asked for. Points into pr (the caller's). */
hp_profile_opts hp__report_profile_opts(const hp_session *s, const hp_pass_result *pr);

#endif /* HPRUN_REPORT_REPORT_H */
