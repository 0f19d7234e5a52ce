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
  HP_FLAG_OK,           /* overhead within `warn`, or not significant */
  HP_FLAG_UNCONFIRMED,  /* beyond `warn`, but too few runs to test significance */
  HP_FLAG_PERTURBED,    /* beyond `warn` and significant (or ratio known exactly) */
  HP_FLAG_DISTORTED,    /* ratio >= 2: its timing must never be read as performance */
  HP_FLAG_FAILED        /* a run failed or printed no primary metric */
} hp_flag;

const char *hp_flag_name(hp_flag f);

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
  int ok; /* exited 0, not timed out, primary metric present */
} hp_run;

typedef struct hp_metric_result {
  char *name;
  char *unit;
  int higher_is_better;
  double tolerance;    /* the plan's per-metric compare tolerance; < 0 unset */
  hp_summary_stats st; /* over counted, finite runs */
  double ratio;        /* median / baseline median; NaN for the baseline or when unknown */
  double ci_lo, ci_hi; /* bootstrap 95% interval of the ratio; NaN when too few runs */
  double p;            /* Mann-Whitney p against the baseline; NaN when too few runs */
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
  double mem_mean_mib, mem_peak_mib; /* over counted runs; NaN when not sampled */
  char *mem_note;                    /* why memory was not sampled, or NULL */
  long max_rss_kb;
  hp_profile *profile; /* what the profiler wrote, parsed; NULL for unprofiled passes */
  /* The cross-check: the profiler's device time for the top (or `kernel`) kernel. */
  char *xk_name;
  double xk_avg_ms; /* NaN when no profiler kernel times */
  long long xk_calls;
  long long app_launches; /* the app's own `launches=` figure, -1 unknown */
} hp_pass_result;

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
  double warn, fail, alpha; /* fail < 0 when unset */
  size_t baseline;          /* index of the baseline pass in passes[] */
  hp_pass_result *passes;   /* profiling passes, then variants */
  size_t npasses;
  char *error;      /* why the session stopped early (build failed...), or NULL */
  int exit_code;    /* HP_EXIT_* this session deserves */
  unsigned written; /* HP_WROTE_* bits: the session folder's files hp_session_run wrote */
} hp_session;

/* The bits of hp_session.written: only a file that was written is announced. */
enum {
  HP_WROTE_MANIFEST = 1,
  HP_WROTE_SUMMARY = 2,
  HP_WROTE_REPORT = 4
};

void hp_session_free(hp_session *s);

/* ---------------------------------------------------------------------------------------------- */
/* Running a session.                                                                              */

typedef struct hp_run_opts {
  int quiet;          /* do not show the children's output live */
  int dry_run;        /* print every command line with its folder, run nothing */
  FILE *log;          /* progress and live output (stderr by default) */
  double grace_s;     /* between SIGTERM and SIGKILL; 0: 5 s */
  const char *output; /* overrides the plan's output folder */
  int repeat;         /* > 0 overrides the plan's repeat */
} hp_run_opts;

/* Runs the plan: builds (if any), then every run of every pass and variant, one at a time, each in
 * its own new folder; parses what the profilers wrote; writes summary.json, report.md and
 * manifest.json into the new session folder. On return *out holds the results whenever the
 * session folder was created (even when interrupted or a run failed): free with hp_session_free.
 * Returns 0 when the session ran to its end, HP_EINTR when interrupted, HP_ERUN when the build
 * failed, or another HP_E* code (with diagnostics) when nothing could be run. */
int hp_session_run(const hp_plan *plan, const hp_run_opts *opts, hp_session **out, hp_diags *diags);

/* Prints what hp_session_run would run: every command line with its folder. */
int hp_session_dry_run(const hp_plan *plan, const hp_run_opts *opts, FILE *fp, hp_diags *diags);

/* Reads a stored session: a session folder or its summary.json. */
int hp_session_load(const char *path, hp_session **out, hp_diags *diags);

/* ---------------------------------------------------------------------------------------------- */
/* Reports.                                                                                        */

/* The terminal table: pass, metric median, vs baseline, flag, and one line of advice per flag. */
void hp_report_table(const hp_session *s, FILE *fp);
/* summary.json (docs/summary.md), report.md and JUnit XML, as text. *out is malloc'd. */
int hp_report_json(const hp_session *s, char **out);
int hp_report_markdown(const hp_session *s, char **out);
int hp_report_junit(const hp_session *s, char **out);
/* Writes summary.json and report.md into the session folder (replacing earlier renderings of the
 * same session, never the measurements). Each is written even when the other fails; returns 0 or
 * the first failure's HP_E* code. */
int hp_report_write_all(const hp_session *s);

/* ---------------------------------------------------------------------------------------------- */
/* Comparing two sessions (hprun compare).                                                         */

typedef struct hp_compare_opts {
  double tolerance; /* relative change beyond which a significant change is a regression */
  double alpha;
  uint64_t seed;
} hp_compare_opts;

/* Compares every pass/variant and metric present in both sessions. Writes a Markdown report to
 * *md (malloc'd) and sets *regressions to the number of significant regressions beyond the
 * tolerance. */
int hp_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
               char **md, size_t *regressions);

#ifdef __cplusplus
}
#endif

#endif
