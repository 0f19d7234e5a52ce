/*
 * The computation behind `hprun compare` (lib/analyze/compare.c): one row per pass and metric
 * present in both sessions, with the test's figures and what the change amounts to, one row per
 * thing OLD has and NEW lacks, and the causes that fail the comparison. Rendering the rows is the
 * report layer's (hp_compare in lib/report/md/compare_md.c).
 *
 * A hp__comparison is the caller's: free it with hp__comparison_free (which accepts one that was
 * never filled, or only partly). Its rows borrow the pass and metric names from the two sessions,
 * so they live only as long as both do; its causes are its own. On failure the comparison is left
 * empty.
 */
#ifndef HPRUN_ANALYZE_COMPARE_H
#define HPRUN_ANALYZE_COMPARE_H

#include "hprun.h"
#include <stddef.h>

/* What one change amounts to. A regression must be significant AND worse than the tolerance, so
 * run-to-run noise alone never fails CI. */
typedef enum {
  HP__CHANGE_NEW_PASS,    /* the pass is only in the new session: nothing to compare */
  HP__CHANGE_NO_DATA,     /* no ratio: a median is missing or the old one is 0 */
  HP__CHANGE_REGRESSION,  /* worse than the tolerance and significant */
  HP__CHANGE_UNCONFIRMED, /* worse than the tolerance, too few runs to test */
  HP__CHANGE_IMPROVED,    /* better than the tolerance and significant */
  HP__CHANGE_WITHIN,      /* significant, but within the tolerance */
  HP__CHANGE_NONE,        /* not significant */
  HP__CHANGE_MISSING      /* in OLD, not in NEW: a pass, a metric, or every value of a metric */
} hp__change;

typedef struct hp__compare_row {
  const char *pass;   /* borrowed from the new session (from the old one for a missing pass) */
  const char *metric; /* borrowed; NULL for a new or a missing pass (the figures are then NaN) */
  double old_median, new_median;
  double ratio;         /* new median / old median; NaN when the old one is 0 */
  double ci_lo, ci_hi;  /* bootstrap interval of the ratio; NaN when too few runs */
  double p;             /* Mann-Whitney, two-sided; NaN when either side has no value */
  size_t n_old, n_new;  /* counted runs */
  double tolerance;     /* the tolerance the change was held against */
  int higher_is_better; /* the (new) metric's direction */
  hp__change change;
  int note_only; /* the built-in wall_ms beside the app's own primary metric: its change is shown
                    and noted, never counted as a regression (wall time includes start-up and is
                    noisier than what the app measures itself) */
} hp__compare_row;

typedef struct hp__comparison {
  hp__compare_row *rows; /* in the new session's pass and metric order, then what is missing */
  size_t nrows;
  size_t nregressions; /* rows with HP__CHANGE_REGRESSION (note_only rows aside) */
  size_t nunconfirmed; /* rows with HP__CHANGE_UNCONFIRMED (note_only rows aside) */
  size_t nmissing;     /* rows with HP__CHANGE_MISSING */
  hp_cause *causes;    /* one per regression, missing row and unconfirmed row, in row order */
  size_t ncauses;
  size_t nfailures; /* causes that fail the comparison (hp_cause_fails) */
} hp__comparison;

/* Compares every pass of new_s with the pass of the same name in old_s, metric by metric (metrics
 * only in the new pass are left out), then lists what old_s has and new_s lacks: a pass, a
 * metric of a pass, or a metric with a median in OLD and none in NEW. A metric's own tolerance
 * (from the new plan) wins over o->tolerance. Missing rows are failures unless o->allow_missing,
 * which makes them notes. Returns 0 or HP_ENOMEM. */
int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out);
void hp__comparison_free(hp__comparison *c);

#endif /* HPRUN_ANALYZE_COMPARE_H */
