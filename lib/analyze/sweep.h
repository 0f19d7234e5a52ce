/*
 * A parameter sweep's judgement (lib/analyze/sweep.c): from its combinations' sessions, whether
 * the sweep is complete, the exit code it deserves and why. The sweep's session is the caller's;
 * what is computed is stored in it (complete, interrupted, exit_code, causes) and freed with it.
 */
#ifndef HPRUN_ANALYZE_SWEEP_H
#define HPRUN_ANALYZE_SWEEP_H

#include "hprun.h"

/* The exit code a combination deserves: its session's own, at least 130 when interrupted and 3
 * when it stopped before its end (a failed baseline or build); 3 for one that never ran. */
int hp__combo_exit_code(const hp_combo *cb);
/* Judges the sweep `s` from s->combos: complete when every combination ran to its end, the worst
 * exit code of them (4 over 130 over 3 over 1 over 0), and one cause per cause of a combination
 * (its pass named "COMBINATION/PASS") and per combination that never ran. 0 or HP_ENOMEM. */
int hp__sweep_judge(hp_session *s);

#endif /* HPRUN_ANALYZE_SWEEP_H */
