/* Public declarations: sessions, results and reports. Part of lib/hprun.h; include that instead. */
#ifndef HPRUN_SESSION_H
#define HPRUN_SESSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* Declared with the profile API too (lib/include/hprun_profile.h); C11 allows the repeat. */
typedef struct hp_profile hp_profile;

/* ---------------------------------------------------------------------------------------------- */
/* Results. A session's results are plain data: they are built by running a plan, or read back
 * from a stored summary.json (hprun report / compare), and the reports are written from them.     */

typedef enum {
  HP_FLAG_BASELINE = 0, /* the uninstrumented pass (or the A/B reference) */
  HP_FLAG_OK,           /* the whole interval of the overhead lies inside `warn` */
  HP_FLAG_UNCONFIRMED,  /* too few runs for an interval */
  HP_FLAG_PERTURBED,    /* the whole interval lies beyond `warn` */
  HP_FLAG_DISTORTED,    /* ratio >= 2 and the interval's lower end beyond `warn` */
  HP_FLAG_FAILED,       /* a run failed or printed no primary metric */
  HP_FLAG_INCONCLUSIVE  /* the interval straddles `warn`: the data cannot place the overhead */
} hp_flag;

const char *hp_flag_name(hp_flag f);

/* One rank of a launched run (launcher slurm, mpirun or command), from its rank folder
 * rank<N>/ (docs/cluster.md): its own stdout.txt, stderr.txt and rank.txt. */
typedef struct hp_rank {
  int rank;
  int profiled;          /* it ran under the pass's profiler */
  long long exit_status; /* -1 when it never wrote one (killed, or never started) */
  char *host;            /* may be NULL */
  double *values;        /* one per metric, read from its stdout; NaN when absent */
} hp_rank;

/* Where a launched run ran: Slurm's job and step, its nodes, and every rank. */
typedef struct hp_run_launch {
  char *kind;     /* slurm, mpirun, command */
  char *job_id;   /* SLURM_JOB_ID as the ranks saw it; NULL outside Slurm */
  char *step_id;  /* SLURM_STEP_ID */
  char *nodelist; /* SLURM_STEP_NODELIST (else SLURM_JOB_NODELIST) */
  hp_rank *ranks; /* sorted by rank */
  size_t nranks;
} hp_run_launch;

/* The spread of the primary metric over the ranks of a pass's counted runs (lib/analyze/ranks.c):
 * each figure is the median over runs of that run's figure. */
typedef struct hp_rank_stats {
  size_t nranks; /* the most ranks one run had */
  double min, median, max;
  double imbalance; /* max / median */
  size_t nprofiled; /* ranks that ran under the profiler (in the last counted run) */
  double profiled_median, unprofiled_median; /* NaN when a side has no rank */
  double profiled_ratio; /* profiled / unprofiled median - 1; NaN when a side has no rank */
} hp_rank_stats;

typedef struct hp_run {
  int index;     /* 1-based among counted runs; 0 for a warmup run */
  int warmup;    /* 1: run but not counted */
  int round;     /* 1-based position in the session's schedule */
  char *dir;     /* relative to the session folder, e.g. "stats/2" */
  char *command; /* the command line as run (shell-quoted) */
  long long exit_status;
  int term_signal;
  int timed_out;
  int interrupted;
  char *error; /* why it could not start, or NULL */
  double wall_ms;
  long max_rss_kb;     /* -1 unknown */
  double *values;      /* one per metric; NaN when the metric was not printed */
  hp_strv files;       /* files the run left besides stdout.txt/stderr.txt (relative to dir) */
  double mem_mean_mib; /* sampled device memory; NaN when not sampled */
  double mem_peak_mib;
  long mem_samples;
  int ok;                /* exited 0, not timed out, primary metric present */
  int skipped;           /* never run: its pass's first run failed (see keep_going) */
  hp_run_launch *launch; /* NULL for a local run */
} hp_run;

typedef struct hp_metric_result {
  char *name;
  char *unit;
  int higher_is_better;
  double tolerance;     /* the plan's per-metric compare tolerance; < 0 unset */
  double abs_tolerance; /* the plan's per-metric absolute compare tolerance; < 0 unset */
  hp_summary_stats st;  /* over counted, finite runs */
  double ratio;         /* median / baseline median; NaN for the baseline or when unknown */
  /* The bootstrap interval of the ratio at level 1 - alpha (the session's thresholds.alpha: 95%
   * at the default 0.05); NaN with fewer than HP_STATS_MIN_N counted runs here or in the
   * baseline. */
  double ci_lo, ci_hi;
  double p; /* Mann-Whitney p against the baseline; NaN when either side has no value */
  hp_significance sig;
  double delta; /* median - baseline median (for gates) */
} hp_metric_result;

typedef struct hp_pass_result {
  char *name;
  char *mode; /* normal, stats, ...; "variant" for A/B variants */
  char *tool; /* profiler tool; NULL for normal, command and variants */
  char *kernel;
  int is_baseline;
  int is_variant;
  int is_reference; /* the A/B reference */
  int expect_distorted;
  hp_run *runs; /* every run, warmups included, in the order they ran */
  size_t nruns;
  hp_metric_result *metrics; /* one per plan metric */
  size_t nmetrics;
  hp_flag flag;
  char *verdict; /* variants: accepted, rejected (numerics), rejected (slower), inconclusive */
  char *advice;  /* one line for the user, or NULL */
  /* `repeat: auto`: why its runs stopped (resolved, max, budget, interrupted); NULL otherwise. */
  char *stopped;
  double mem_mean_mib, mem_peak_mib; /* over counted runs; NaN when not sampled */
  char *mem_note;                    /* why memory was not sampled, or NULL */
  long max_rss_kb;
  hp_profile *profile; /* what the profiler wrote, parsed; NULL for unprofiled passes */
  /* The cross-check: the profiler's device time for the top (or `kernel`) kernel. */
  char *xk_name;
  double xk_avg_ms; /* NaN when no profiler kernel times */
  long long xk_calls;
  long long app_launches; /* the app's own `launches=` figure, -1 unknown */
  /* The whole profile against the app's own figure (lib/analyze/crosscheck.c, docs/summary.md):
   * recomputed from the run folders whenever profiles are parsed. */
  double xc_kernel_ms;          /* kernel time of the profiled run; NaN when unknown */
  long long xc_launches;        /* its kernel launches; 0 when it has no kernels */
  double xc_span_ms;            /* first kernel start to last kernel end; NaN without timestamps */
  double xc_iterations;         /* timed iterations of that run; NaN when the plan does not say */
  double xc_iter_ms;            /* kernel time per iteration; NaN when unknown */
  double xc_busy;               /* xc_iter_ms / the baseline's primary metric; NaN when unknown */
  const char *xc_note;          /* why a figure is missing or what limits it (static), or NULL */
  struct hp_roofline *roofline; /* the profile's kernels on the roofline; NULL when none */
  hp_rank_stats *ranks;         /* over the ranks of launched runs; NULL when none */
  /* The ncu metrics the profiled run asked for (hp_ncu_requested_metrics of its command), which
   * the summary's ncu tables show; NULL: every measured metric (sections, other tools). */
  char *ncu_metrics;
  /* 1 when the profile holds only part of the run's launches (a launch count, a skip, a kernel
   * filter): xc_kernel_ms is that part's, and no time per iteration or busy fraction is given. */
  int xc_partial;
  /* The pass's own Kineto trace timeline (torch passes): trace_busy is the kernel time's share of
   * the trace's timed span, under the profiler; NaN without a trace. Per ProfilerStep#N: the
   * kernels and launch calls; NaN (and xc_steps 0) without steps. */
  double xc_trace_busy, xc_trace_span_ms, xc_kernels_per_step, xc_launches_per_step;
  long long xc_steps;
} hp_pass_result;

/* Why a session (or a comparison) fails, one per pass and reason: the exit code's explanation.
 * They are computed once (lib/analyze/causes.c, lib/analyze/compare.c) and rendered by every
 * report: the terminal as `fail: PASS: TEXT` lines, report.md under "Why this session failed",
 * JUnit as <failure> messages, summary.json as `causes`. */
typedef enum {
  HP_CAUSE_RUN_FAILED, /* a counted run failed (exit 3) */
  HP_CAUSE_THRESHOLD,  /* a significant slowdown beyond thresholds.fail (exit 1) */
  HP_CAUSE_GATE,       /* an A/B candidate outside a numeric gate: rejected (numerics) (exit 1) */
  HP_CAUSE_REGRESSION, /* compare: significant and worse than the tolerance (exit 1) */
  HP_CAUSE_MISSING,    /* compare: in OLD but not in NEW (exit 1 unless --allow-missing) */
  HP_CAUSE_REFERENCE,  /* a metric's interval wholly outside its plan `reference:` (exit 1) */
  HP_CAUSE_NOTE        /* never fails: a gate that could not be evaluated, an allowed absence */
} hp_cause_kind;

typedef struct hp_cause {
  hp_cause_kind kind;
  char *pass; /* the pass or variant it is about (owned); NULL when none */
  char *text; /* what happened, one line, without the `fail:` / `note:` prefix (owned) */
} hp_cause;

/* "run-failed", "threshold", "gate", "regression", "missing", "note" (summary.json's `kind`);
 * NULL for a value outside the enum. Static storage. */
const char *hp_cause_kind_name(hp_cause_kind k);
/* 1 when a cause of this kind fails the session or comparison (every kind but HP_CAUSE_NOTE). */
int hp_cause_fails(hp_cause_kind k);

typedef struct hp_session {
  char *name;
  char *dir; /* the session folder */
  char *plan_file;
  char *hprun_version;
  int schema;
  int complete; /* every scheduled run ran */
  int interrupted;
  char *started, *finished; /* ISO 8601 UTC */
  char *order;
  uint64_t seed;
  int repeat, warmup;
  /* The looks a `repeat: auto` session may take at each pass (1 for a fixed count): every
   * interval is at level 1 - alpha / looks, so the error rate holds over all of them. */
  int looks;
  int strict; /* `thresholds.strict` or --strict: a pass the data cannot place fails */
  double warn, fail, alpha; /* fail < 0 when unset */
  size_t baseline;          /* index of the baseline pass in passes[] */
  hp_pass_result *passes;   /* profiling passes, then variants */
  size_t npasses;
  char *error;      /* why the session stopped early (build failed...), or NULL */
  int exit_code;    /* HP_EXIT_* this session deserves */
  hp_cause *causes; /* why it deserves it (and the notes), in pass order; NULL when none */
  size_t ncauses;
  char *plan_sha256; /* read back: the plan's SHA-256 (manifest.json or plan.yaml); else NULL */
  /* The GPU's name as manifest.json records it (gpu.name), which `reference:` entries' `gpu`
   * patterns match; NULL when no vendor tool named one, and in a session read back. */
  char *gpu_name;
  unsigned written;       /* HP_WROTE_* bits: the session folder's files hp_session_run wrote */
  struct hp_peaks *peaks; /* the roofline's ceilings (plan or summary.json); NULL when none */

  /* Parameter sweeps (docs/summary.md). A combination's own session names its combination and
   * parameter values; the sweep's session holds no passes, only its combinations. */
  char *combo;   /* this session is a sweep's combination: its name (and folder); else NULL */
  hp_kv *params; /* its parameter values, in the plan's order */
  size_t nparams;
  struct hp_combo *combos; /* the sweep's combinations, in the plan's order; NULL otherwise */
  size_t ncombos;
  /* Rows per profile table (kernels, ncu kernels, ...) in summary.json and report.md: the plan's
   * `report: {top: N}` (read again from the plan copy), or `hprun report --top N`; 0: the
   * default, HP_PROFILE_SUMMARY_TOP. */
  int report_top;
} hp_session;

/* One combination of a sweep session. */
typedef struct hp_combo {
  char *name; /* "n=1048576,dtype=fp16": also its folder inside the sweep's session folder */
  hp_kv *params;
  size_t nparams;
  hp_session *s; /* its sub-session; NULL when it never ran (the sweep stopped before it) */
} hp_combo;

/* The bits of hp_session.written: only a file that was written is announced. */
enum {
  HP_WROTE_MANIFEST = 1,
  HP_WROTE_SUMMARY = 2,
  HP_WROTE_REPORT = 4,
  HP_WROTE_HTML = 8
};

void hp_session_free(hp_session *s);

/* ---------------------------------------------------------------------------------------------- */
/* Running a session.                                                                              */

typedef struct hp_run_opts {
  int quiet;          /* no progress and no live output at all (--quiet) */
  int show_output;    /* stream the children's output, each line prefixed (--show-output) */
  int verbose;        /* also print each run's command line (-v; implies show_output) */
  int dry_run;        /* print every command line with its folder, run nothing */
  FILE *log;          /* progress and live output (stderr by default) */
  double grace_s;     /* between SIGTERM and SIGKILL; 0: 5 s */
  const char *output; /* overrides the plan's output folder */
  int repeat;         /* > 0 overrides the plan's repeat */
  int keep_going;     /* like the plan's keep_going: true */
  int strict;         /* like the plan's thresholds.strict: true */
} hp_run_opts;

/* Runs the plan: builds (if any), then every run of every pass and variant, one at a time, each in
 * its own new folder; parses what the profilers wrote; writes summary.json, report.md and
 * manifest.json into the new session folder. On return *out holds the results whenever the
 * session folder was created (even when interrupted or a run failed): free with hp_session_free.
 * Returns 0 when the session ran to its end, HP_EINTR when interrupted, HP_ERUN when the build
 * failed, or another HP_E* code (with diagnostics) when nothing could be run.
 * A plan with parameters (plan->combo -1) runs one session per combination, each in a folder of
 * the sweep's session folder; *out is then the sweep's session (combos[], no passes), HP_ERUN
 * when a combination stopped early, and its exit_code the worst of theirs (docs/summary.md). */
int hp_session_run(const hp_plan *plan, const hp_run_opts *opts, hp_session **out, hp_diags *diags);

/* Prints what hp_session_run would run: every command line with its folder, and the prepare and
 * cleanup hooks; for a sweep, each combination's, expanded. */
int hp_session_dry_run(const hp_plan *plan, const hp_run_opts *opts, FILE *fp, hp_diags *diags);

/* What `hprun check` adds to a dry run: whether the session folder could be created in the plan's
 * output folder (or opts->output) as the run creates it, found without creating anything. 0, or
 * HP_EIO with the run's own `cannot create PATH: WHY` message in diags (the run's exit code for
 * it is HP_EXIT_IO), or HP_ENOMEM. */
int hp_session_check_output(const hp_plan *plan, const hp_run_opts *opts, hp_diags *diags);

/* Reads a stored session: a session folder or its summary.json. Every judgement is taken as
 * stored (flags, advice, verdicts, causes, exit code); the statistics are recomputed from the
 * stored runs with the same seeds, which gives the same numbers. The plan copy beside the file
 * (plan.yaml) supplies the kernel categories for the profiles, which are parsed again from the run
 * folders; when it is missing or no longer loads, the built-in categories are used and one warning
 * says so. The plan's hash comes from manifest.json, else from plan.yaml. */
int hp_session_load(const char *path, hp_session **out, hp_diags *diags);

/* ---------------------------------------------------------------------------------------------- */
/* Reports.                                                                                        */

/* The terminal table: pass, metric median, vs baseline, flag, one line of advice per flag, and
 * one `fail:` or `note:` line per cause. When `bars` is 1, a compact overhead bar follows each
 * pass's flag (Unicode blocks, log scale): `hprun run` and `hprun report` draw them on a TTY
 * unless --ascii, or when asked with --bars. */
void hp_report_table_bars(const hp_session *s, FILE *fp, int bars);
/* summary.json (docs/summary.md), report.md and JUnit XML, as text. *out is malloc'd. */
int hp_report_json(const hp_session *s, char **out);
int hp_report_markdown(const hp_session *s, char **out);
int hp_report_junit(const hp_session *s, char **out);
/* The overview as CSV, for plotting (docs/summary.md, "Parameter sweeps"): a header, then one row
 * per combination and pass with raw numbers (median, the baseline's or reference's median, the
 * ratio and its interval's ends, empty where none) and the flag; a sweep adds its parameters as
 * columns. A plain session gives its passes, with an empty combination. *out is malloc'd. */
int hp_report_csv(const hp_session *s, char **out);
/* report.html: one self-contained page with the tables and inline SVG charts (no script, no
 * network; docs/report-html.md). *out is malloc'd. */
int hp_report_html(const hp_session *s, char **out);

/* ---------------------------------------------------------------------------------------------- */
/* Comparing two sessions (hprun compare).                                                         */

typedef struct hp_compare_opts {
  double tolerance; /* relative change: the band +-tolerance that `unchanged` lies inside */
  double alpha;
  uint64_t seed;     /* the bootstrap's, for every row */
  int allow_missing; /* what OLD has and NEW lacks is a note, not a failure */
  /* The command line gave the tolerance: it wins over each metric's own `tolerance:` in the plan
   * (0: the plan's wins, then the tolerance above as the default). */
  int tolerance_given;
  int all_passes; /* gate distorted passes too (expect: distorted or flagged distorted) */
  int strict;     /* an inconclusive change fails the comparison */
  /* Only these passes and metrics are compared (and checked for being missing); none given:
   * every one. The strings are the caller's. */
  const char *const *passes;
  size_t npasses;
  const char *const *metrics;
  size_t nmetrics;
} hp_compare_opts;

/* Compares every pass/variant and metric present in both sessions, and lists what OLD has and NEW
 * lacks (a pass, a metric, or a metric's values). Writes a Markdown report to *md (malloc'd),
 * ending with one `fail:` or `note:` line per cause, and sets *failures to the number of causes
 * that fail the comparison: significant regressions beyond the tolerance, and (unless
 * o->allow_missing) everything missing from NEW. */
int hp_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
               char **md, size_t *failures);

/* Whether two sessions are of the same plan: the same session name, and both sweeps or neither.
 * Another version of the plan (another plan_sha256) is the same plan: the comparison then sets
 * what both measured side by side and notes what changed. *same is 1 or 0; when 0, *why
 * (malloc'd, the caller frees it) says what differs. Returns 0 or HP_ENOMEM. */
int hp_compare_same_plan(const hp_session *old_s, const hp_session *new_s, int *same, char **why);

/* The comparison as JUnit XML: one <testsuite> per session pair (per combination for two sweeps),
 * one <testcase> per compared pass and metric, a <failure> for each failing cause. *out is
 * malloc'd. Returns 0, HP_ENOMEM, or HP_ENOTSUP for a sweep against a session. */
int hp_compare_junit(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                     char **out);

#ifdef __cplusplus
}
#endif

#endif
