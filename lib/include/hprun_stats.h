/* Public declarations: stats. Part of lib/hprun.h; include that instead.
 *
 * Robust summaries, the Mann-Whitney U test, a bootstrap interval for a ratio of medians, a seeded
 * PRNG and the verdict helper that turns them into "does pass b differ from baseline a". The design
 * and the numbers behind the defaults are in docs/internals/stats.md.
 *
 * Every function that takes samples ignores NaN and infinite values: they are filtered out before
 * anything is computed, so a failed run recorded as NaN never poisons a summary. Counts (`n`) are
 * of the finite samples used. A sample pointer may be NULL only when its count is 0.
 */
#ifndef HPRUN_STATS_H
#define HPRUN_STATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The modified z-score beyond which a sample is an outlier (Iglewicz and Hoaglin): 3.5, the
 * authors' recommendation. This is not hyperfine's rule (docs/internals/stats.md says how they
 * differ). */
#define HP_STATS_OUTLIER_Z 3.5
/* Bootstrap resamples when the caller passes 0. */
#define HP_STATS_BOOTSTRAP_ITERS 2000
/* hp_stats_compare answers HP_SIG_UNKNOWN below this many finite runs in either sample. */
#define HP_STATS_MIN_N 3
/* hp_stats_compare's significance level when the caller passes alpha <= 0. */
#define HP_STATS_ALPHA 0.05
/* Both samples at most this large and free of ties: the Mann-Whitney p is exact. */
#define HP_STATS_MW_EXACT_MAX 20
/* The relative tolerance of threshold comparisons (hp_stats_beyond): a ratio computed from two
 * medians carries rounding errors near 1e-16, so a change of exactly `warn` must not read as
 * beyond it. */
#define HP_STATS_REL_TOL 1e-9

typedef struct hp_summary_stats {
  size_t n; /* finite samples used */
  double median;
  double mean;
  double sd;  /* sample standard deviation (n - 1); NaN if n < 2 */
  double mad; /* raw median absolute deviation (not scaled by 1.4826) */
  double cv;  /* sd / mean; NaN if mean == 0 or n < 2 */
  double min;
  double max;
  size_t noutliers; /* samples with |0.6745 * (x - median) / MAD| > outlier_z */
} hp_summary_stats;

/* Summarises x[0..n). outlier_z <= 0 means HP_STATS_OUTLIER_Z. When MAD == 0 no point is an
 * outlier. With no finite sample, out->n is 0, noutliers 0 and every double NaN (still success).
 * Returns 0, HP_EINVAL (out NULL, or x NULL with n > 0) or HP_ENOMEM (out is then untouched).
 * Nothing is kept: x stays the caller's and is not modified. */
int hp_stats_summarize(const double *x, size_t n, double outlier_z, hp_summary_stats *out);

/* Sets flags[i] to 1 when x[i] is an outlier by the rule of hp_stats_summarize, else 0. Non-finite
 * samples are ignored for the median and MAD and always get 0. flags has n entries, owned by the
 * caller. Returns 0, HP_EINVAL or HP_ENOMEM (flags then all 0). */
int hp_stats_outliers(const double *x, size_t n, double outlier_z, unsigned char *flags);

/* The median of the finite samples (mean of the two middle ones for an even count). NaN when
 * there is none, when x is NULL, or when memory runs out. x is not modified. */
double hp_stats_median(const double *x, size_t n);

/* Mann-Whitney U test, two-sided, of a against b. *u is U of sample a: the number of pairs (ai, bj)
 * with ai > bj, ties counting one half. The p value is exact (the U distribution counted, no
 * approximation) when both samples have at most HP_STATS_MW_EXACT_MAX finite values and there are
 * no ties; otherwise it uses the normal approximation with tie and continuity corrections, as
 * scipy.stats.mannwhitneyu does. *p is in [0, 1]. When either sample has no finite value, *u and
 * *p are NaN and 0 is returned. Returns 0, HP_EINVAL (u or p NULL) or HP_ENOMEM. */
int hp_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
                          double *p);

/* Percentile bootstrap confidence interval of median(b) / median(a): the overhead ratio of a pass
 * b against baseline a. `iters` resamples (0: HP_STATS_BOOTSTRAP_ITERS), level in (0, 1), e.g.
 * 0.95. Resampling uses hp_rng seeded with `seed`, so the same inputs and seed give the same
 * interval on every platform. Resamples whose ratio is NaN (0 / 0) are dropped. When either
 * sample has no finite value, or every resample was dropped, *lo and *hi are NaN (still success).
 * Returns 0, HP_EINVAL (lo or hi NULL, level outside (0, 1)) or HP_ENOMEM. */
int hp_stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                             double level, uint64_t seed, double *lo, double *hi);
/* The same interval of median(b) - median(a), with the same resamples: for a change measured
 * against an absolute tolerance (a metric whose old median can be 0). */
int hp_stats_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
                            double level, uint64_t seed, double *lo, double *hi);

/* hp_stats_shift_interval gives no interval beyond this many pairs (na * nb): the pairwise
 * differences are held in memory. */
#define HP_STATS_SHIFT_MAX_PAIRS ((size_t)1 << 21)

/* A distribution-free confidence interval, at `level`, of the factor by which b's distribution is
 * a's scaled (b ~ a * r): the Hodges-Lehmann / Moses interval of the shift of log(b) against
 * log(a), bounded by the k-th smallest and k-th largest of the na * nb pairwise differences of
 * logs, with k from the Mann-Whitney null distribution (exact up to HP_STATS_MW_EXACT_MAX per
 * sample, else its normal approximation). Its coverage is exact for any continuous distribution
 * when b is a scaled like that, and under that model r is also the ratio of the medians. *lo and
 * *hi are NaN (still success) when a sample has no finite value, a value is not positive, there
 * are more than HP_STATS_SHIFT_MAX_PAIRS pairs, or the sizes are too small to bound the interval
 * at this level (3 against 3 at 0.95: the extremes have probability 1/20 each). Returns 0,
 * HP_EINVAL (lo or hi NULL, level outside (0, 1)) or HP_ENOMEM. docs/internals/stats.md. */
int hp_stats_shift_interval(const double *a, size_t na, const double *b, size_t nb, double level,
                            double *lo, double *hi);

/* A seeded PRNG (xoshiro256** seeded through splitmix64), used by the bootstrap and by hprun's
 * `random` run order. It is the same on every platform; the state is the caller's. */
typedef struct hp_rng {
  uint64_t s[4];
} hp_rng;

void hp_rng_seed(hp_rng *r, uint64_t seed);
uint64_t hp_rng_next(hp_rng *r);
/* Uniform and unbiased in [0, n); 0 when n is 0. */
size_t hp_rng_below(hp_rng *r, size_t n);
/* Fisher-Yates shuffle of idx[0..n) in place. */
void hp_rng_shuffle(hp_rng *r, size_t *idx, size_t n);

typedef enum {
  HP_SIG_UNKNOWN, /* too few runs to tell */
  HP_SIG_NO,
  HP_SIG_YES
} hp_significance;

/* Decides whether b differs from a. Fewer than HP_STATS_MIN_N finite runs in either sample gives
 * HP_SIG_UNKNOWN, and so does a pair of sizes whose smallest exact two-sided p, 2 / C(na + nb,
 * na), is not below alpha (3 against 3 at 0.05). Otherwise HP_SIG_YES when the Mann-Whitney
 * p < alpha AND the bootstrap interval of median(b) / median(a) at level 1 - alpha
 * (HP_STATS_BOOTSTRAP_ITERS resamples, `seed`) excludes 1.0; else HP_SIG_NO. alpha <= 0 means
 * HP_STATS_ALPHA. Writes the ratio of medians and p whenever both samples have a finite value, and
 * the interval only when both have at least HP_STATS_MIN_N (a bootstrap of one or two values is
 * no interval); NaN otherwise. Every out-parameter but sig may be NULL. Returns 0, HP_EINVAL
 * (sig NULL, alpha >= 1) or HP_ENOMEM (*sig is then UNKNOWN). */
int hp_stats_compare(const double *a, size_t na, const double *b, size_t nb, double alpha,
                     uint64_t seed, hp_significance *sig, double *ratio, double *p, double *ci_lo,
                     double *ci_hi);

/* "unknown", "no" or "yes". Static storage. */
const char *hp_significance_name(hp_significance s);

/* Whether a relative change (0.05 = 5%) is beyond a threshold: change > limit, with a relative
 * tolerance of HP_STATS_REL_TOL on the ratio 1 + limit, so that a change of exactly the threshold
 * computed from real medians (1.05 / 1.0, 0.021 / 0.02, both 0.050000000000000044) is not beyond
 * it. NaN is never beyond anything. */
int hp_stats_beyond(double change, double limit);

#ifdef __cplusplus
}
#endif

#endif /* HPRUN_STATS_H */
