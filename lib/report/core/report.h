/*
 * What the report writers in lib/report/ share: the column they name after the primary metric,
 * the interval's label, the line a cause is shown as, and escaping for the text formats. Nothing here allocates; every function writes into a buffer
 * the caller owns, or returns a pointer into the session, which stays the caller's.
 */
#ifndef HPRUN_REPORT_REPORT_H
#define HPRUN_REPORT_REPORT_H

#include "hprun.h"
#include "util/base/buf.h"

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

/* The label of the bootstrap interval's column, "95% CI", from the level it was computed at:
 * 1 - alpha (alpha outside (0, 1) means HP_STATS_ALPHA, as hp_stats_compare reads it). Written
 * into buf (the caller's); returns buf. */
char *hp__report_ci_label(char *buf, size_t len, double alpha);

/* Appends one cause as its line, `fail: PASS: TEXT` or `note: PASS: TEXT` (no newline), the form
 * every report shows it in. Returns 0 or HP_ENOMEM. */
int hp__report_cause(hp__buf *b, const hp_cause *c);
/* Whether any of the causes fails (an exit-code cause rather than a note). */
int hp__report_any_failing(const hp_cause *c, size_t n);

/* The options a pass's profile is rendered with in summary.json and report.md: the session's
 * top-N (report_top, else HP_PROFILE_SUMMARY_TOP) rows per table, HP_PROFILE_SUMMARY_CHILD rows
 * per nested table, and the ncu metrics the pass asked for. Points into pr (the caller's). */
hp_profile_opts hp__report_profile_opts(const hp_session *s, const hp_pass_result *pr);

/* term_bar.c: a pass's overhead bar, `width` cells of Unicode blocks on a log scale that ends at
 * max_ratio (at least 2x), written into buf (the caller's; 3 bytes a cell); "" for no value and a
 * single tick for a ratio <= 1. Returns 0 or HP_ERANGE (len 0). */
int hp__term_bar(char *buf, size_t len, double ratio, double max_ratio, int width);
/* The largest finite primary ratio of the session's passes (0 when none): the bars' scale. */
double hp__term_bar_max(const hp_session *s);

#endif /* HPRUN_REPORT_REPORT_H */
