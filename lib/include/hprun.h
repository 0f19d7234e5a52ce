/*
 * hprun: run a program uninstrumented and under each profiler mode, each pass in its own process
 * and folder, and say how far every mode distorts the program's own timing.
 *
 * This is the library's only public header. The command-line tool in cmd/ includes nothing else.
 * Conventions (like libuv): public names start with hp_, functions return 0 or a negative HP_E*
 * code (hp_strerror names it), results come back through out-parameters, and every allocator has a
 * free partner that accepts NULL.
 */
#ifndef HPRUN_H
#define HPRUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HPRUN_VERSION "0.1.0"
/* Bumped whenever a key of summary.json changes meaning or disappears (docs/summary.md). */
#define HPRUN_SUMMARY_SCHEMA 1

#if defined(__GNUC__)
#define HP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HP_PRINTF(a, b)
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Errors and exit codes                                                                          */

enum {
  HP_OK = 0,
  HP_ENOMEM = -1,   /* out of memory */
  HP_EINVAL = -2,   /* invalid argument */
  HP_EPLAN = -3,    /* the plan is invalid (details in the diagnostics) */
  HP_EIO = -4,      /* reading or writing a file failed */
  HP_ENOENT = -5,   /* no such file or program */
  HP_EEXIST = -6,   /* refusing to reuse or overwrite something that exists */
  HP_EPARSE = -7,   /* input could not be parsed (details in the diagnostics) */
  HP_ESPAWN = -8,   /* a child process could not be started */
  HP_EINTR = -9,    /* interrupted by SIGINT/SIGTERM */
  HP_ERANGE = -10,  /* a number is out of range */
  HP_ENOTSUP = -11, /* not supported (unknown tool, mode or format) */
  HP_EFORMAT = -12, /* a file's format was not recognised */
  HP_ERUN = -13     /* a measured run failed (crash, timeout, metric missing) */
};

/* Returns a static, human-readable description of an HP_E* code. Never NULL. */
const char *hp_strerror(int err);

/* Process exit codes of `hprun`, documented in docs/ci.md. */
enum {
  HP_EXIT_OK = 0,        /* completed; flags are information */
  HP_EXIT_THRESHOLD = 1, /* completed, but a `fail` threshold or a regression gate was exceeded */
  HP_EXIT_USAGE = 2,     /* plan or usage error: nothing was run */
  HP_EXIT_RUNFAIL = 3,   /* a run failed: crash, timeout, metric missing, build failed */
  HP_EXIT_IO = 4,        /* an input or output file could not be read or written */
  HP_EXIT_INTERRUPTED = 130 /* SIGINT/SIGTERM: children stopped, partial summary written */
};

/* ---------------------------------------------------------------------------------------------- */
/* Diagnostics: every message about bad input names the file and, where known, line and column.   */

typedef enum {
  HP_DIAG_ERROR,
  HP_DIAG_WARNING,
  HP_DIAG_NOTE
} hp_diag_level;

typedef struct hp_diag {
  hp_diag_level level;
  char *file; /* owned; may be NULL */
  long line;  /* 1-based; 0 when unknown */
  long col;   /* 1-based; 0 when unknown */
  char *msg;  /* owned */
  struct hp_diag *next;
} hp_diag;

typedef struct hp_diags {
  hp_diag *head, *tail;
  size_t count;   /* messages kept */
  size_t nerrors; /* messages of level HP_DIAG_ERROR, kept or not */
  size_t dropped; /* messages not kept because `limit` was reached */
  size_t limit;   /* 0 = no limit */
} hp_diags;

/* Initialises an empty list (no allocation). */
void hp_diags_init(hp_diags *d);
/* Frees every message; `d` itself stays the caller's and is left empty. Accepts NULL. */
void hp_diags_free(hp_diags *d);
/* Appends a formatted message. `file` is copied. Returns 0 or HP_ENOMEM (the message is lost). */
int hp_diags_add(hp_diags *d, hp_diag_level level, const char *file, long line, long col,
                 const char *fmt, ...) HP_PRINTF(6, 7);
/* Prints every message as `file:line:col: error: msg`, one per line, then a note if some were
 * dropped. */
void hp_diags_print(const hp_diags *d, FILE *fp);

/* ---------------------------------------------------------------------------------------------- */
/* Plan (lib/plan/): the YAML file that describes a session. Every key is in docs/plan.md.        */

/* A NULL-terminated argument vector; `n` counts the strings, not the NULL. Owned by its holder.
 * `err` is the first failed push's code (0 if none): errors are sticky, so a builder pushes every
 * word and checks once (lib/util/base/strv.h). A zeroed vector is empty. */
typedef struct hp_strv {
  char **v;
  size_t n;
  int err;
} hp_strv;

typedef struct hp_kv {
  char *key;
  char *value;
} hp_kv;

typedef enum {
  HP_ORDER_INTERLEAVED = 0, /* run 1 of every pass, then run 2 of every pass, ... */
  HP_ORDER_SEQUENTIAL,      /* all runs of pass 1, then all of pass 2, ... */
  HP_ORDER_ABBA,            /* rounds alternate forward and backward: A B C, C B A, A B C ... */
  HP_ORDER_RANDOM           /* each round in a seeded random order */
} hp_order;

/* How one program is started: used for the plan's `app` and for each A/B variant. */
typedef struct hp_app {
  hp_strv command; /* argv; a YAML string is split into words as a shell would, without a shell */
  hp_kv *env;      /* added to (or replacing in) hprun's own environment */
  size_t nenv;
  char *cwd;       /* NULL: the plan file's folder */
  double timeout;  /* seconds; 0 = none */
  hp_strv build;   /* optional; run once before anything else */
  hp_strv prepare; /* optional; run before each run, outside its timing; a failure fails the run */
  hp_strv cleanup; /* optional; run after each run, outside its timing; a failure is a warning */
  int workdir_run; /* `app.workdir: run`: runs start in their own run folder, not in cwd */
  /* The cross-check (docs/plan.md): how many timed iterations one run does, as a number or as
   * the name of a metric the app prints, and the NVTX/roctx range around them. The plan's app
   * only; variants leave them unset. */
  long iterations;         /* 0: not given */
  char *iterations_metric; /* NULL: not given */
  char *region;            /* NULL: none */
  long iterations_line;    /* where iterations_metric was given, for messages */
  long region_line;        /* where region was given, for messages */
} hp_app;

typedef struct hp_metric_spec {
  char *name;
  char *pattern;        /* POSIX ERE with one capture group; the last match in a run counts */
  char *unit;           /* may be NULL */
  int higher_is_better; /* `better: higher`; default lower (times) */
  double tolerance;     /* `hprun compare`'s regression tolerance for this metric; < 0 unset */
  double abs_tolerance; /* the same as an absolute difference (metrics that can be 0); < 0 unset */
  long line;            /* where it was declared, for messages; 0 for the built-in wall_ms */
  int wall;             /* the built-in `wall_ms`: its value is the run's wall time, no pattern */
} hp_metric_spec;

/* The built-in metric every plan gets after its own: each run's wall time in milliseconds. */
#define HP_WALL_METRIC "wall_ms"

/* How each run is started (`launcher:`, docs/cluster.md): on this machine, as a Slurm job step,
 * under mpirun as N ranks, or inside another scheduler's command template. */
typedef enum {
  HP_LAUNCH_LOCAL = 0, /* today's behaviour: the run is a child of hprun */
  HP_LAUNCH_SLURM,     /* an srun step (in SLURM_JOB_ID's allocation, hprun's, or its own job) */
  HP_LAUNCH_MPIRUN,    /* mpirun -np ntasks */
  HP_LAUNCH_COMMAND    /* `command:` template with {app}, {ntasks} and {dir} */
} hp_launch_kind;

typedef struct hp_launcher {
  hp_launch_kind kind;
  char *partition, *account, *constraint, *gpus, *gres, *mpi; /* Slurm options; NULL unset */
  double time;          /* Slurm time limit in seconds; 0 unset */
  long nodes;           /* 0 unset */
  long ntasks;          /* ranks; 0 unset (1 for mpirun) */
  int exclusive;        /* srun --exclusive */
  int allocate_session; /* `allocation: session`: one salloc --no-shell for the whole session */
  hp_strv args;         /* extra options for srun, mpirun */
  hp_strv command;      /* kind command: the template */
  char *path;           /* the launcher program (srun, mpirun); NULL: looked up on PATH */
  long *profile_ranks;  /* ranks that run under the profiler; NULL (`all`, the default): every */
  size_t nprofile_ranks;
  long line; /* where it was declared, 0 for the default */
} hp_launcher;

typedef struct hp_pass {
  char *name;   /* unique, [A-Za-z0-9_.-]+ */
  char *mode;   /* normal, trace, stats, kernel-stack, pmc, memory-usage, command, or a tool mode */
  char *tool;   /* profiler for this pass; NULL = the plan's profiler.tool */
  char *kernel; /* pmc / ncu kernel filter; may be NULL */
  hp_strv args; /* extra profiler options for this pass */
  hp_strv command;   /* mode `command`: argv template with {app} and {dir} */
  hp_strv counters;  /* counters / metrics for pmc-like modes (rocprof, rocprofv3, ncu) */
  long launch_count; /* ncu --launch-count; 0 = unset */
  long sched_wait, sched_warmup, sched_active; /* torch mode schedule (1, 1, 3 unless set) */
  double timeout;                              /* seconds; 0 = the app's timeout */
  int expect_distorted; /* `expect: distorted`: large overhead is reported, never a failure */
  int repeat;           /* counted runs of this pass; 0: the plan's `repeat` */
  double precision;     /* `repeat: auto`, expect: distorted: stop at +-this of the ratio; 0: 10% */
  hp_kv *env;           /* variables for this pass's runs only, over the app's `env` */
  size_t nenv;
  long line;
  hp_launcher *launcher; /* the pass's own `launcher:`; NULL: the plan's */
} hp_pass;

typedef struct hp_variant {
  char *name;
  hp_app app;    /* unset fields fall back to the plan's app */
  int reference; /* exactly one variant is the reference (the first, unless one says so) */
  long line;
} hp_variant;

/* A numeric gate for A/B candidates: |candidate - reference| of `metric` must stay within it. */
typedef struct hp_gate {
  char *metric;
  double max_abs_delta; /* < 0 when unset */
  double max_rel_delta; /* < 0 when unset; a fraction, 0.01 = 1% */
  long line;
} hp_gate;

/* An absolute reference (`reference:`, docs/plan.md), as in ReFrame: a metric of a pass is
 * expected at `value` within +-tolerance, on the hosts whose name matches `host` and the GPUs whose
 * name (manifest.json's gpu.name) matches `gpu` (fnmatch patterns; NULL: any). The first entry
 * that matches a pass, metric, host and GPU applies. */
typedef struct hp_reference {
  char *pass;       /* the pass's name (the baseline's when not given) */
  char *metric;     /* the metric's name (the primary metric's when not given) */
  double value;     /* in the metric's unit */
  double tolerance; /* a fraction; default 0.05 */
  char *host;       /* NULL: any host */
  char *gpu;        /* NULL: any GPU */
  long line;
} hp_reference;

/* One `parameters:` entry of a sweep: a name and its values, as written (YAML scalars). */
typedef struct hp_param {
  char *name; /* [A-Za-z_][A-Za-z0-9_]*, none of the names other templates use (dir, app, rank) */
  hp_strv values; /* at least one, no two alike */
  long line;
} hp_param;

/* One kernel-name category: a kernel belongs to the first rule with a pattern that is a
 * case-insensitive substring of its name. */
typedef struct hp_category_rule {
  char *name;
  hp_strv patterns;
} hp_category_rule;

typedef struct hp_plan {
  char *file; /* the path it was loaded from (or the name given to hp_plan_load_string) */
  char *dir;  /* the folder of `file`: relative paths in the plan are relative to it */
  char *text; /* the plan's bytes, for the manifest */
  size_t text_len;

  char *name;   /* session name; default: the plan file's base name without extension */
  char *output; /* parent folder of sessions; default "hprun-out" */
  int repeat;   /* counted runs per pass; default 1; with `repeat: auto`, the most (auto.max) */
  /* `repeat: auto` or `repeat: {min, max, budget}` (docs/plan.md): runs go in rounds, and a pass
   * stops once its flag is resolved; on is 0 for a fixed count. */
  struct {
    int on;
    int min, max;
    double budget_s; /* 0: none */
  } autorep;
  int warmup; /* uncounted runs per pass before the counted ones; default 0 */
  hp_order order;
  int keep_going; /* `keep_going: true`: a failing first run neither stops nor skips anything */
  uint64_t seed;  /* for `random` order and the bootstrap; default 1 */

  hp_app app;

  struct {
    char *tool;       /* hipprof by default; any tool of lib/tool/driver.c's table */
    char *path;       /* NULL: looked up on PATH */
    char *env_script; /* a DTK env.sh, sourced once in /bin/sh for profiled passes */
    hp_strv args;     /* extra options for every profiled pass */
  } profiler;

  hp_metric_spec *metrics; /* the first is the primary metric; the last is the built-in wall_ms */
  size_t nmetrics;

  hp_pass *passes;
  size_t npasses;
  size_t baseline; /* index of the one `normal` pass */

  hp_variant *variants;
  size_t nvariants;
  hp_gate *gates;
  size_t ngates;
  hp_reference *references;
  size_t nreferences;

  struct {
    double warn;  /* relative overhead that marks a pass perturbed; default 0.05 */
    double fail;  /* relative overhead beyond which hprun exits 1; < 0 when unset */
    double alpha; /* significance level; default 0.05 */
    int strict;   /* `strict: true`: a pass flagged inconclusive or unconfirmed fails (exit 1) */
  } thresholds;

  struct {
    char *tool;         /* auto by default; one of the sampler tools of lib/plan/metrics.c */
    hp_strv command;    /* `sampler: {command: [...]}`: prints one number (MiB) per line */
    double interval_ms; /* default 2 (the article's) */
  } sampler;

  hp_category_rule *categories; /* NULL: the built-in rules (configs/categories/pytorch.yaml) */
  size_t ncategories;
  /* `roofline:`: the ceilings, from its peaks file with the inline figures over them; NULL when
   * the plan has none (roofline points are still computed, without a roof). */
  struct hp_peaks *roofline;

  /* A parameter sweep (lib/plan/params.c, docs/plan.md): `parameters:` in the order written, and
   * which combination of their values this plan was expanded for; -1 for the plan as written,
   * whose placeholders are checked but not replaced. The plan as written owns the plan of each
   * combination (hp_plan_combination), made when it was loaded; NULL in any other plan. */
  hp_param *params;
  size_t nparams;
  long combo;
  struct hp_plan **expanded;

  hp_launcher launcher; /* `launcher:`; kind local by default */
  /* `report: {top: N}`: rows per profile table in summary.json and report.md (kernels, ncu
   * kernels, ...); 0: HP_PROFILE_SUMMARY_TOP (lib/plan/report.c). */
  int report_top;
} hp_plan;

/* Loads and validates a plan. On success *out is a new plan (free with hp_plan_free). On failure
 * returns HP_EPLAN (or HP_ENOENT/HP_EIO/HP_ENOMEM), *out is NULL and `diags` holds `file:line:col`
 * errors. */
int hp_plan_load(const char *path, hp_plan **out, hp_diags *diags);
/* The same from memory; `name` is used in messages and as `file`. `dir` is the base folder for
 * relative paths (NULL: the current folder). */
int hp_plan_load_string(const char *name, const char *dir, const char *text, size_t len,
                        hp_plan **out, hp_diags *diags);
void hp_plan_free(hp_plan *plan);

/* What the user reads about one plan key: the kind of value it takes and its default. Each
 * section's table of these stands beside the loader's key table it describes (lib/plan/), entry k
 * for key k, and a table of another length does not build. */
typedef struct hp_plan_key_doc {
  /* The value in words ("string", "integer 1..100000", "fraction in (0, 1)", "words"), or NULL
   * when `choices` says it. */
  const char *type;
  /* NULL, or the NULL-terminated words the key takes: the table the loader checks them against. */
  const char *const *choices;
  /* The default as one writes it in a plan ("hprun-out", "5%", "2ms"), or NULL when there is
   * none to write: the key is required, leaving it out leaves its feature off, or the value comes
   * from elsewhere (the app's, the plan's, the peaks file's, a PATH lookup). */
  const char *dflt;
} hp_plan_key_doc;

/* The keys the loader accepts, section i at a time (lib/plan/keys.c): the section's name ("" for
 * the top level, "app", "passes", "repeat" for `repeat: {min, max, budget}`, ...) with its
 * NULL-terminated keys in *keys and their docs in *docs ((*docs)[k] describes (*keys)[k]), or
 * NULL past the last section (then both are NULL). Either out-parameter may be NULL. The tables
 * are the loader's own, in static storage: the caller frees nothing. `hprun --plan-keys` prints
 * them, and scripts/check-plan-keys checks docs/plan.md, hprun-plan(5) and
 * configs/examples/all-keys.yaml against that list. */
const char *hp_plan_keys(size_t i, const char *const **keys, const hp_plan_key_doc **docs);

/* The most combinations a sweep may have: a plan over it is refused (a typo in a list should not
 * start a session of thousands of sub-sessions). */
#define HP_MAX_COMBINATIONS 256

/* How many combinations the plan's parameters make (the product of their value counts, in the
 * order written: the last parameter varies fastest); 1 for a plan without parameters. */
size_t hp_plan_combinations(const hp_plan *plan);
/* Combination k's name, which is also its folder inside the session folder: `name=value` pairs
 * joined by ',' ("n=1048576,dtype=fp16"), every character of a value other than letters, digits,
 * '_', '.', '+' and '-' written as '_'. *name is malloc'd. HP_EINVAL for k out of range. */
int hp_plan_combination_name(const hp_plan *plan, size_t k, char **name);
/* The value parameter i takes in combination k (the plan's string); NULL when out of range. */
const char *hp_plan_combination_value(const hp_plan *plan, size_t k, size_t i);
/* The plan of combination k of a sweep's plan as written: the same plan with every `{name}` of a
 * parameter replaced by its value in the fields docs/plan.md lists (app.command, app.env values,
 * ...), whose `combo` is k. It was read and checked when the sweep's plan was loaded and belongs
 * to it (hp_plan_free of the sweep's plan frees it). NULL for k out of range, or a plan that is
 * not a sweep's as written. */
const hp_plan *hp_plan_combination(const hp_plan *plan, size_t k);

/* Loads kernel categories from a YAML file holding `categories:` (the same form as in a plan).
 * On success *rules and *n describe new rules (free with hp_categories_free). */
int hp_categories_load(const char *path, hp_category_rule **rules, size_t *n, hp_diags *diags);
void hp_categories_free(hp_category_rule *rules, size_t n);

/* Splits `s` into words as POSIX sh would (quotes, backslashes), without expansions or a shell.
 * On success *out is a new vector (free with hp_strv_free). HP_EPARSE for an unterminated quote. */
int hp_split_words(const char *s, hp_strv *out);
void hp_strv_free(hp_strv *v);

/* Parses a duration: a plain number of seconds, or a number with ms, s, m or h. */
int hp_parse_duration(const char *s, double *seconds);

/* ---------------------------------------------------------------------------------------------- */
/* Profiler tools (lib/tool/tools.c): the tools hprun drives and their pass modes, read from the  */
/* one driver table, for help texts. Every string returned is static; the caller owns nothing.    */

/* How many tools there are. */
size_t hp_tool_count(void);
/* The i-th tool's name (hipprof first, then the table's order); NULL when i >= hp_tool_count(). */
const char *hp_tool_name(size_t i);
/* The tool's modes as "normal, command, trace, ...", the two generic modes first; NULL for NULL or
 * an unknown tool. */
const char *hp_tool_modes(const char *tool);

#ifdef __cplusplus
}
#endif

/* Areas with their own public declarations; each is part of this one public header. */
#include "hprun_stats.h"
#include "hprun_profile.h"
#include "hprun_session.h"
#include "hprun_roofline.h"

#endif /* HPRUN_H */
