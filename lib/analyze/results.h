/*
 * Statistics, flags, advice, verdicts and causes over a session's runs, and the result model's
 * allocators, lowest first (each file calls only those above it):
 *   results.c  the allocators, and statistics per pass and metric (hp__session_measure)
 *   variants.c A/B verdicts against the plan's gates (hp__session_verdicts)
 *   causes.c   why the session fails, and its exit code (hp__session_causes, _exit_code)
 *   flags.c    flags and advice, and the whole judgement in order (hp__session_analyze)
 * A hp_session and everything it points to is owned by the session (hp_session_free); these
 * functions fill or free parts of it in place. Strings they hand back are the caller's.
 */
#ifndef HPRUN_ANALYZE_RESULTS_H
#define HPRUN_ANALYZE_RESULTS_H

#include "hprun.h"
#include <stddef.h>

/* Fills every pass's metric statistics (summary, ratio, p, interval, significance, delta) and its
 * memory figures from its runs; nothing that judges them. `plan` may be NULL (a session read
 * back), else it supplies the metrics' names, units, direction and tolerance. The bootstrap of
 * the pass at index i in passes[] is seeded with s->seed + i. */
int hp__session_measure(hp_session *s, const hp_plan *plan);
/* hp__session_measure, then every pass's flag and advice, the variants' verdicts (with the plan's
 * gates; none when plan is NULL) and s->causes. */
int hp__session_analyze(hp_session *s, const hp_plan *plan);

/* `repeat: auto` (flags.c, docs/internals/stats.md "Repeated looks"). A pass is looked at when its
 * counted runs reach min, then 1.5 times the last look (rounded up), and max. hp__look_next is the
 * look after n runs (0: none left); hp__look_count the number of looks, which divides alpha. */
int hp__look_next(int min, int max, int n);
/* The flag rule (docs/summary.md "Flags") on the interval [lo, hi] of a slowdown sd: unconfirmed
 * without an interval (NaN), distorted (sd >= 2 and lo beyond warn), perturbed (wholly beyond
 * warn, either way), ok (wholly inside), else inconclusive. The run and the simulation test
 * (tests/unit/test_flag_sim.c) both decide with it. */
hp_flag hp__flag_of(double lo, double hi, double sd, double warn);
int hp__look_count(int min, int max);
/* The baseline's counted runs a look at n runs of a pass needs (n >= 1, looks >= 1, alpha in
 * (0, 1)): the fewest m >= n for which the distribution-free interval exists at 1 - alpha /
 * looks, that is C(m + n, n) >= 2 looks / alpha. 5 at n = 5 with 6 looks; 10 at n = 3 with 7.
 * The baseline runs this far ahead from the first round (its `lead`), because its runs cost a
 * fraction of a profiled pass's. Capped at 100000. */
int hp__look_base(int n, int looks, double alpha);
/* The statistics and flags of every pass, without verdicts or causes: a look during the run. */
int hp__session_look(hp_session *s, const hp_plan *plan);
/* Whether a pass needs no more runs: failed, flagged ok, perturbed or distorted, or (expect:
 * distorted) its interval within +-precision of its ratio. */
int hp__pass_resolved(const hp_pass_result *pr, double precision);
/* The A/B verdict of every candidate against the reference, with the plan's gates. */
void hp__session_verdicts(hp_session *s, const hp_plan *plan);
/* Why a candidate fails the plan's numeric gates ("rejected (numerics): proxy moved by ..."), or
 * NULL when it passes them (or on HP_ENOMEM). The caller frees the text. */
char *hp__gate_breach(const hp_plan *plan, const hp_pass_result *ref, const hp_pass_result *pr);

/* Every cause of the session's exit code, in pass order, from its flags, verdicts, statistics and
 * thresholds (docs/ci.md lists the rules). `plan` (may be NULL) only words a gate's cause. *out
 * (free with hp__causes_free) is NULL when there is none. Returns 0 or HP_ENOMEM. */
int hp__session_causes(const hp_session *s, const hp_plan *plan, hp_cause **out, size_t *n);
void hp__causes_free(hp_cause *c, size_t n);
/* Appends a cause with copies of pass (may be NULL) and text to *c (*n entries). Takes nothing
 * over; returns 0 or HP_ENOMEM. */
int hp__cause_add(hp_cause **c, size_t *n, hp_cause_kind kind, const char *pass, const char *text);
/* The exit code a finished session deserves (HP_EXIT_*), from the same causes. */
int hp__session_exit_code(const hp_session *s);
/* reference.c: one cause per `reference:` of the plan that applies on this host (the first entry
 * per pass and metric whose host pattern matches): a failure when the metric's interval lies
 * wholly outside the reference's tolerance, else a note that shows the reference next to the
 * measured value. Appended to *out. Returns 0 or HP_ENOMEM. */
int hp__reference_causes(const hp_session *s, const hp_plan *plan, hp_cause **out, size_t *n);

/* How much slower a pass is than the baseline, as a ratio where 1 means no change: the ratio of
 * medians, or its inverse for a higher-is-better metric. NaN when unknown. */
double hp__slowdown(const hp_metric_result *m);
/* The values of metric m over the counted runs (warmups and interrupted runs left out; NaN where a
 * run printed none, and for every run when m is not one of pr's metrics). *out is malloc'd (the
 * caller frees it); returns the count, 0 on HP_ENOMEM with *out NULL. */
size_t hp__counted_values(const hp_pass_result *pr, size_t m, double **out);
/* Allocates the results of one pass (all fields empty, metrics[] sized). */
int hp__pass_result_init(hp_pass_result *pr, size_t nmetrics);
void hp__pass_result_free(hp_pass_result *pr);

#endif /* HPRUN_ANALYZE_RESULTS_H */
