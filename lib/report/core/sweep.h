/*
 * A parameter sweep's renderings (term/sweep_out.c, md/sweep_compare.c, html/html_sweep.c; its
 * summary.json is report/json/summary.h's): the sweep's report.md and terminal table, and the
 * overview they share: one row per pass, one column per combination, each cell the pass's
 * primary-metric overhead against that combination's baseline. Each combination's own session is
 * rendered by the ordinary writers, into its folder.
 *
 * Ownership: the sessions are only read. Text goes
 * into the caller's buffers; arrays handed back are the caller's to free, the strings in them
 * borrowed from the session.
 */
#ifndef HPRUN_REPORT_SWEEP_H
#define HPRUN_REPORT_SWEEP_H

#include "hprun.h"
#include "util/base/buf.h"

/* sweep_out.c: the terminal table and report.md of a sweep. */
void hp__sweep_table(const hp_session *s, FILE *fp);
int hp__sweep_markdown(const hp_session *s, char **out);

/* sweep_compare.c: hp_compare of two sweeps, combination by combination, matched by name. */
int hp__sweep_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                      char **md, size_t *failures);

/* The overview. */

/* The names of the passes (variants included) over every combination, in the order they first
 * appear: *names is a new array (free it) of strings borrowed from s. 0 or HP_ENOMEM. */
int hp__sweep_pass_names(const hp_session *s, const char ***names, size_t *n);
/* The pass of combination cb called `name`, or NULL (no such pass, or cb never ran). */
const hp_pass_result *hp__sweep_pass(const hp_combo *cb, const char *name);
/* The overview's cell: "79.83x [75.1,84.6]" (the interval where one was computed), "baseline",
 * "failed", "not run" or "-", with the pass's flag after it when `flag` (report.md). */
char *hp__sweep_cell(char *buf, size_t len, const hp_combo *cb, const char *name, int flag);
/* The primary metric's name and unit over the combinations ("metric", "" when none ran). */
const char *hp__sweep_metric(const hp_session *s, const char **unit);

#endif /* HPRUN_REPORT_SWEEP_H */
