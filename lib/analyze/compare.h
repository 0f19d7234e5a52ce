/*
 * The computation behind `hprun compare` (lib/analyze/compare.c): one row per pass and metric
 * present in both sessions, with the test's figures and what the change amounts to. Rendering the
 * rows is the report layer's (hp_compare in lib/report/compare_md.c).
 *
 * A hp__comparison is the caller's: free it with hp__comparison_free (which accepts one that was
 * never filled, or only partly). Its rows borrow the pass and metric names from the NEW session,
 * so they live only as long as that session does. On failure the comparison is left empty.
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
  HP__CHANGE_NONE         /* not significant */
} hp__change;

typedef struct hp__compare_row {
  const char *pass;   /* borrowed from the new session */
  const char *metric; /* borrowed; NULL for HP__CHANGE_NEW_PASS (the figures are then NaN) */
  double old_median, new_median;
  double ratio;        /* new median / old median; NaN when the old one is 0 */
  double ci_lo, ci_hi; /* bootstrap interval of the ratio; NaN when too few runs */
  double p;            /* Mann-Whitney, two-sided; NaN when too few runs */
  size_t n_old, n_new; /* counted runs */
  hp__change change;
} hp__compare_row;

typedef struct hp__comparison {
  hp__compare_row *rows; /* in the new session's pass order, then metric order */
  size_t nrows;
  size_t nregressions; /* rows with HP__CHANGE_REGRESSION */
  size_t nunconfirmed; /* rows with HP__CHANGE_UNCONFIRMED */
} hp__comparison;

/* Compares every pass of new_s with the pass of the same name in old_s, metric by metric (metrics
 * missing from the old pass are left out). A metric's own tolerance (from the new plan) wins over
 * o->tolerance. Returns 0 or HP_ENOMEM. */
int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out);
void hp__comparison_free(hp__comparison *c);

#endif /* HPRUN_ANALYZE_COMPARE_H */
