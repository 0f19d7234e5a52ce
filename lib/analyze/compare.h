/*
 * The computation behind `hprun compare` (lib/analyze/compare.c, its causes in
 * compare_causes.c): one row per pass and metric present in both sessions, with the test's figures and what the change amounts to, one row per
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

/* What one change amounts to, by the interval rule: the change's interval at level 1 - alpha (of
 * the ratio of medians, or of their difference under an absolute tolerance) against the band
 * +-tolerance. Noise alone never makes a regression, and a change the data cannot place is said to
 * be inconclusive instead of being passed as unchanged. */
typedef enum {
  HP__CHANGE_NEW_PASS,     /* the pass is only in the new session: nothing to compare */
  HP__CHANGE_NO_DATA,      /* no change: a median is missing, or the old one is 0 (relative) */
  HP__CHANGE_REGRESSION,   /* the interval lies wholly beyond +tolerance (worse) */
  HP__CHANGE_UNCONFIRMED,  /* too few runs for an interval */
  HP__CHANGE_IMPROVED,     /* the interval lies wholly beyond -tolerance (better) */
  HP__CHANGE_UNCHANGED,    /* the interval lies inside +-tolerance */
  HP__CHANGE_INCONCLUSIVE, /* the interval straddles -tolerance or +tolerance */
  HP__CHANGE_MISSING       /* in OLD, not in NEW: a pass, a metric, or every value of a metric */
} hp__change;

/* Where a row's tolerance came from: a metric's `abs_tolerance:` in the (new) plan, which no
 * fraction replaces; else the command line, which wins over the metric's `tolerance:`; else the
 * default. */
typedef enum {
  HP__TOL_DEFAULT,     /* hp_compare_opts.tolerance, not given on the command line */
  HP__TOL_PLAN,        /* the metric's `tolerance:` */
  HP__TOL_PLAN_ABS,    /* the metric's `abs_tolerance:`: the change is a difference */
  HP__TOL_COMMAND_LINE /* --tolerance */
} hp__tol_source;

typedef struct hp__compare_row {
  const char *pass;   /* borrowed from the new session (from the old one for a missing pass) */
  const char *metric; /* borrowed; NULL for a new or a missing pass (the figures are then NaN) */
  double old_median, new_median;
  double ratio;        /* new median / old median; NaN when the old one is 0 */
  double ci_lo, ci_hi; /* interval of the ratio (of the difference under HP__TOL_PLAN_ABS) */
  double p;            /* Mann-Whitney, two-sided; NaN when either side has no value */
  size_t n_old, n_new; /* counted runs */
  double tolerance;    /* the tolerance the change was held against (absolute: in the unit) */
  hp__tol_source tol_source;
  double worse;         /* the point change, worse > 0: a fraction, or a difference (absolute) */
  int higher_is_better; /* the (new) metric's direction */
  hp__change change;
  int note_only; /* the built-in wall_ms beside the app's own primary metric: its change is shown
                    and noted, never counted as a regression (wall time includes start-up and is
                    noisier than what the app measures itself) */
  int distorted; /* the pass expects or shows distortion (expect: distorted, or flagged) */
  int gated;     /* its change can fail the comparison: not distorted, or --all-passes */
  long cause;    /* the index of its cause in hp__comparison.causes; -1 when none */
} hp__compare_row;

typedef struct hp__comparison {
  hp__compare_row *rows; /* in the new session's pass and metric order, then what is missing */
  size_t nrows;
  size_t nregressions;  /* gated rows with HP__CHANGE_REGRESSION (note_only rows aside) */
  size_t nunconfirmed;  /* gated rows worse than the tolerance without an interval */
  size_t ninconclusive; /* gated rows with HP__CHANGE_INCONCLUSIVE */
  size_t nmissing;      /* rows with HP__CHANGE_MISSING */
  hp_cause *causes;     /* per row that fails or needs a word, then what changed in the plan */
  size_t ncauses;
  size_t nfailures; /* causes that fail the comparison (hp_cause_fails) */
} hp__comparison;

/* Compares every pass of new_s with the pass of the same name in old_s, metric by metric (metrics
 * only in the new pass are left out), then lists what old_s has and new_s lacks: a pass, a
 * metric of a pass, or a metric with a median in OLD and none in NEW. Only the passes and metrics
 * of o's filters are looked at. Regressions of gated rows fail, inconclusive ones only when
 * o->strict; missing rows fail unless o->allow_missing, which makes them notes. What changed
 * between the two plans (the plan's hash, a pass's mode or tool) is a note. Returns 0 or
 * HP_ENOMEM. */
int hp__compare_sessions(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                         hp__comparison *out);
void hp__comparison_free(hp__comparison *c);

/* compare_causes.c: the causes of c's rows, then the notes on what changed between the plans of
 * old_s and new_s, into c (causes, ncauses, nfailures). Returns 0 or HP_ENOMEM. */
int hp__compare_causes(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                       hp__comparison *c);
/* compare_causes.c: a row's tolerance with where it came from ("5% (command line)", "abs 0.001
 * (plan)"), and its change ("+30.00%", or the difference "+0.001" under an absolute tolerance),
 * into buf; each returns buf. */
char *hp__compare_tol_text(const hp__compare_row *row, char *buf, size_t len);
char *hp__compare_change_text(const hp__compare_row *row, char *buf, size_t len);
/* The row's interval in the unit of its change (hp__fmt_change): of the ratio, or of the
 * difference under an absolute tolerance; "-" without one. */
char *hp__compare_ci_text(const hp__compare_row *row, char *buf, size_t len);
/* Whether name passes a --pass or --metric filter of n names (n 0: every name does). */
int hp__compare_wanted(const char *const *names, size_t n, const char *name);

#endif /* HPRUN_ANALYZE_COMPARE_H */
