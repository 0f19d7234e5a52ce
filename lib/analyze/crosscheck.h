/*
 * The cross-check of each profiled pass (lib/analyze/crosscheck.c): the profile's total kernel
 * time, launches and span, and, when the plan says how many timed iterations a run does, the
 * kernel time per iteration against the baseline's own time per iteration (the GPU busy
 * fraction). Results go into the pass results' xc_* fields; nothing is allocated.
 */
#ifndef HPRUN_ANALYZE_CROSSCHECK_H
#define HPRUN_ANALYZE_CROSSCHECK_H

#include "hprun.h"
#include "util/base/buf.h"

/* Below this busy fraction a pass is flagged launch-bound. */
#define HP__LAUNCH_BOUND 0.6

/* The run whose profiler files stand for the pass: the first counted run that succeeded and left
 * files, else the first counted run with a folder; NULL when none. */
const hp_run *hp__pass_profiled_run(const hp_pass_result *pr);

/* Fills every pass's xc_* fields from its parsed profile. `plan` (NULL when unknown) gives
 * app.iterations, app.iterations_metric and app.region. */
void hp__session_crosscheck(hp_session *s, const hp_plan *plan);

/* One line for pass `pr`, without its name and without a line break, e.g. "kernels 12.3 ms in
 * 520 launches over a 31.0 ms span; 10 iterations: 1.23 ms per iteration, 44% of the baseline's
 * 2.84 ms: launch-bound". Nothing is written when the pass has no kernels. Returns 0 or the
 * buffer's sticky error. */
int hp__crosscheck_text(const hp_session *s, const hp_pass_result *pr, hp__buf *b);

#endif /* HPRUN_ANALYZE_CROSSCHECK_H */
