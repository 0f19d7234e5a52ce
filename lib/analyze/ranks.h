/*
 * Per-rank statistics of a session's launched runs (lib/analyze/ranks.c): fills each pass's
 * `ranks` (hp_rank_stats, owned by the pass result) from its runs' rank values. Passes without
 * launched runs keep NULL.
 */
#ifndef HPRUN_ANALYZE_RANKS_H
#define HPRUN_ANALYZE_RANKS_H

#include "hprun.h"
#include <stddef.h>

/* Returns 0 or HP_ENOMEM. */
int hp__session_ranks(hp_session *s);

#endif /* HPRUN_ANALYZE_RANKS_H */
