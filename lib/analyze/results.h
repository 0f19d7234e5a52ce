/*
 * Statistics, flags, advice and verdicts over a session's runs (lib/analyze/results.c), and the
 * result model's allocators. A hp_session and everything it points to is owned by the session
 * (hp_session_free); these functions fill or free parts of it in place.
 */
#ifndef HPRUN_ANALYZE_RESULTS_H
#define HPRUN_ANALYZE_RESULTS_H

#include "hprun.h"
#include <stddef.h>

/* Fills every pass's metrics[], flag, advice and (for variants) verdict from its runs. `plan` may
 * be NULL (for a session read back from summary.json: gates are then taken as stored). */
int hp__session_analyze(hp_session *s, const hp_plan *plan);
/* The exit code a finished session deserves (HP_EXIT_*). */
int hp__session_exit_code(const hp_session *s);
/* How far a pass breaches the plan's `fail` threshold: its slowdown - 1 when the CI gate trips
 * (not expected to distort, not a variant, not shown to be noise), else 0. */
double hp__pass_fail_breach(const hp_session *s, const hp_pass_result *pr);
/* The values of metric m over the counted runs (warmups and interrupted runs left out; NaN where
 * a run printed none). *out is malloc'd (the caller frees it); returns the count, 0 on HP_ENOMEM
 * with *out NULL. */
size_t hp__counted_values(const hp_pass_result *pr, size_t m, double **out);
/* Allocates the results of one pass (all fields empty, metrics[] sized). */
int hp__pass_result_init(hp_pass_result *pr, size_t nmetrics);
void hp__pass_result_free(hp_pass_result *pr);
void hp__run_free(hp_run *r);

#endif /* HPRUN_ANALYZE_RESULTS_H */
