/*
 * summary.json's members for launched runs (docs/summary.md, docs/cluster.md): each run's
 * `launch` (its Slurm job, step, nodes and every rank with its values) and each pass's `ranks`
 * (the per-rank statistics). Both are written only when there is something to say, so summaries
 * of local sessions stay as they were; both are optional when read back. The writer and the
 * reader are here together so that they cannot drift apart; the keys are in summary_keys.h.
 */
#ifndef HPRUN_REPORT_SUMMARY_LAUNCH_H
#define HPRUN_REPORT_SUMMARY_LAUNCH_H

#include "hprun.h"
#include "report/json/summary_field.h"
#include "util/json/json.h"

/* `"launch": {...}` for a launched run; nothing for a local one. */
void hp__summary_write_launch(hp__json *j, const hp_run *r, const hp_pass_result *pr);
/* `"ranks": {...}` for a pass with per-rank statistics; nothing otherwise. */
void hp__summary_write_ranks(hp__json *j, const hp_pass_result *pr);
/* Reads a run's optional `launch` back into r->launch (new; freed with the run). 0, HP_EPARSE
 * with one message in the cursor's diagnostics, or HP_ENOMEM. */
int hp__summary_read_launch(const hp__sf *rc, const hp_pass_result *pr, hp_run *r);

#endif /* HPRUN_REPORT_SUMMARY_LAUNCH_H */
