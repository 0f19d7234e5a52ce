/*
 * What every rendering of a parameter sweep shares (lib/report/core/sweep.c): the overview, one
 * row per pass, one column per combination, each cell the pass's primary-metric overhead against
 * that combination's baseline. The terminal (term/term_sweep.c), report.md (md/sweep_md.c) and
 * report.html (html/html_sweep.c) render it; each combination's own session is rendered by the
 * ordinary writers, into its folder.
 *
 * Ownership: the sessions are only read. Text goes into the caller's buffers; arrays handed back
 * are the caller's to free, the strings in them borrowed from the session.
 */
#ifndef HPRUN_REPORT_SWEEP_H
#define HPRUN_REPORT_SWEEP_H

#include "hprun.h"

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
/* The label of the overview's interval ("95% CI"), at the first combination's level (the
 * default one when it did not run). Returns buf. */
char *hp__sweep_ci_label(char *buf, size_t len, const hp_session *s);

#endif /* HPRUN_REPORT_SWEEP_H */
