/*
 * Library-internal declarations (hp__ names). Nothing in cmd/ includes this file; unit tests in
 * tests/unit/ may, to test internals directly.
 */
#ifndef HPRUN_INTERNAL_H
#define HPRUN_INTERNAL_H

#include "hprun.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* ---------------------------------------------------------------------------------------------- */
/* lib/buf.c: a growable byte buffer, always NUL-terminated (like redis' sds, but a plain struct).  */

typedef struct hp__buf {
  char *data;  /* NUL-terminated; NULL until the first append */
  size_t len;
  size_t cap;
} hp__buf;

#define HP__BUF_INIT {NULL, 0, 0}

/* Appends; on HP_ENOMEM the buffer is unchanged and still valid. */
int hp__buf_add(hp__buf *b, const void *p, size_t n);
int hp__buf_adds(hp__buf *b, const char *s);
int hp__buf_addc(hp__buf *b, char c);
int hp__buf_printf(hp__buf *b, const char *fmt, ...) HP_PRINTF(2, 3);
int hp__buf_vprintf(hp__buf *b, const char *fmt, va_list ap);
/* Empties without freeing. */
void hp__buf_reset(hp__buf *b);
/* Frees the storage and leaves an empty buffer. Accepts NULL. */
void hp__buf_free(hp__buf *b);
/* Hands the storage to the caller (free() it) and leaves the buffer empty. Never NULL on success:
 * an empty buffer gives "". Returns NULL only on HP_ENOMEM. */
char *hp__buf_steal(hp__buf *b);

/* Small allocation helpers that return NULL on failure (callers check). */
char *hp__strdup(const char *s);
char *hp__strndup(const char *s, size_t n);
char *hp__asprintf(const char *fmt, ...) HP_PRINTF(1, 2);

/* ---------------------------------------------------------------------------------------------- */
/* lib/json.c: a streaming JSON writer with indentation. Errors are sticky: check hp__json_end.    */

typedef struct hp__json {
  hp__buf out;
  int depth;
  int first[64];   /* per depth: no member written yet */
  int pretty;
  int after_key;   /* a key was written; its value comes next */
  int err;         /* first error, 0 if none */
} hp__json;

void hp__json_init(hp__json *j, int pretty);
void hp__json_obj_begin(hp__json *j);          /* as a value (top level or array item) */
void hp__json_obj_end(hp__json *j);
void hp__json_arr_begin(hp__json *j);
void hp__json_arr_end(hp__json *j);
void hp__json_key(hp__json *j, const char *key); /* inside an object, before its value */
void hp__json_str(hp__json *j, const char *s);  /* NULL writes null */
void hp__json_strn(hp__json *j, const char *s, size_t n);
void hp__json_num(hp__json *j, double v);       /* NaN and infinities write null */
void hp__json_int(hp__json *j, long long v);
void hp__json_bool(hp__json *j, int v);
void hp__json_null(hp__json *j);
/* Shorthands for `key: value` members. */
void hp__json_kstr(hp__json *j, const char *key, const char *s);
void hp__json_knum(hp__json *j, const char *key, double v);
void hp__json_kint(hp__json *j, const char *key, long long v);
void hp__json_kbool(hp__json *j, const char *key, int v);
/* Returns 0 or the first error; the text is in j->out.data. */
int hp__json_end(hp__json *j);
void hp__json_free(hp__json *j);

/* ---------------------------------------------------------------------------------------------- */
/* lib/fsutil.c: files and folders.                                                                */

/* Writes `len` bytes to `path` through a temporary file and rename(2), so a reader never sees a
 * half-written file. With `exclusive`, fails with HP_EEXIST if `path` exists. */
int hp__write_file(const char *path, const char *data, size_t len, int exclusive);
/* Reads a whole file (NUL-terminated). *out is malloc'd; the caller frees it. */
int hp__read_file(const char *path, char **out, size_t *len);
/* mkdir -p. Existing folders are fine. */
int hp__mkdirs(const char *path, int mode);
/* Joins two path parts with one slash. Returns NULL on HP_ENOMEM. */
char *hp__path_join(const char *a, const char *b);
/* Looks `prog` up on PATH as execvp would; *out is malloc'd. HP_ENOENT when not found. */
int hp__which(const char *prog, char **out);

/* ---------------------------------------------------------------------------------------------- */
/* lib/strv.c: argument vectors and environment lists.                                             */

int hp__strv_push(hp_strv *v, const char *s);       /* copies s */
int hp__strv_push_own(hp_strv *v, char *s);         /* takes s (freed on failure too) */
int hp__strv_append(hp_strv *v, const hp_strv *w);  /* copies every string of w */
int hp__strv_copy(hp_strv *dst, const hp_strv *src);
/* Joins with spaces, quoting words that need it for sh, so a printed line can be pasted. */
char *hp__strv_shell_join(const hp_strv *v);

/* ---------------------------------------------------------------------------------------------- */
/* lib/driver.c: how each profiler tool turns a pass into a command line.                          */

typedef struct hp__driver hp__driver;

/* Everything a driver needs to build one run's command line. Nothing here is owned. */
typedef struct hp__run_spec {
  const hp_plan *plan;
  const hp_pass *pass;
  const char *tool_path;  /* the profiler's resolved path */
  const char *run_dir;    /* the run's own folder (absolute) */
  const hp_strv *app;     /* the app's argv, resolved */
} hp__run_spec;

/* Finds a driver by tool name: hipprof, rocprof, rocprofv3, ncu. NULL when unknown. */
const hp__driver *hp__driver_find(const char *tool);
/* 1 if `mode` is valid for this driver (the generic modes normal and command are valid for all). */
int hp__driver_has_mode(const hp__driver *d, const char *mode);
/* A comma-separated list of the driver's modes, for messages. Static storage. */
const char *hp__driver_modes(const hp__driver *d);
/* A comma-separated list of known tools, for messages. Static storage. */
const char *hp__driver_tools(void);
/* 1 for the modes every tool has: normal (no profiler) and command (an argv template). */
int hp__mode_is_generic(const char *mode);
const char *hp__driver_name(const hp__driver *d);
/* One line describing a mode, or NULL. */
const char *hp__driver_mode_doc(const hp__driver *d, const char *mode);
/* Builds the whole argv of one run of a profiled pass into *out (new; free with hp_strv_free).
 * Some drivers also write an input file into rs->run_dir. HP_ENOTSUP for an unknown mode. */
int hp__driver_argv(const hp__driver *d, const hp__run_spec *rs, hp_strv *out);


/* ---------------------------------------------------------------------------------------------- */
/* lib/runner.c: one child process at a time, on a libuv loop.                                     */

#include <uv.h>

typedef struct hp__child_spec {
  const hp_strv *argv;      /* argv[0] is looked up on PATH by libuv (execvp) */
  char **env;               /* NULL-terminated "K=V"; NULL inherits hprun's environment */
  const char *cwd;          /* NULL: hprun's */
  double timeout_s;         /* 0: none */
  double grace_s;           /* between SIGTERM and SIGKILL; 0: 5 s */
  int profiled;             /* a profiler leads the group: on stop, signal its children first */
  const char *stdout_path;  /* saved here (created, never overwritten); NULL: not saved */
  const char *stderr_path;
  FILE *echo;               /* live copy of the child's output, lines prefixed; NULL: quiet */
  const char *prefix;       /* e.g. "[stats 1] " */
  hp__buf *capture;         /* if set, stdout is collected here instead */
  double rss_interval_ms;   /* how often the group's peak RSS is sampled; 0: 20 ms */
  const hp_strv *sampler;   /* a long-lived command printing device memory, one reading per
                               line (the line's last number); NULL: none */
  double sampler_scale;     /* multiplies each reading to give MiB; 0: 1 */
  const char *sampler_path; /* its raw output is saved here; NULL: not saved */
} hp__child_spec;

typedef struct hp__child_result {
  int spawn_error;          /* 0, or a negative libuv code (uv_strerror) */
  long long exit_status;
  int term_signal;
  int timed_out;
  int interrupted;          /* stopped because hprun was asked to stop */
  double wall_ms;
  long max_rss_kb;          /* peak RSS of the largest process in the group; -1 unknown */
  long mem_samples;         /* device-memory readings taken while the child lived */
  double mem_mean_mib;      /* NaN when none */
  double mem_peak_mib;
  int sampler_error;        /* the sampler could not start (negative libuv code), or 0 */
} hp__child_result;

/* Runs one child to completion on `loop` (which must have nothing else that keeps it alive) and
 * fills *res. Returns 0 when the child ran (whatever its status), HP_ESPAWN when it could not be
 * started (res->spawn_error says why), HP_EIO when an output file could not be created. No
 * process of the child's group is left behind when this returns. */
int hp__child_run(uv_loop_t *loop, const hp__child_spec *spec, hp__child_result *res);
/* Asks the running child (if any) to stop, as a timeout would; a second call escalates to
 * SIGKILL. Safe to call from a libuv signal callback. */
void hp__child_stop_current(void);
/* Builds a NULL-terminated environment: `base` (NULL: environ) with `set` applied (K=V entries
 * replace or add). Free with hp__env_free. */
char **hp__env_build(char **base, const hp_kv *set, size_t nset);
void hp__env_free(char **env);
/* Sources a POSIX sh script in /bin/sh and returns the environment it leaves (NULL-terminated,
 * free with hp__env_free). HP_EIO with a message in diags if the script fails. */
int hp__env_from_script(uv_loop_t *loop, const char *script, char ***out, hp_diags *diags);

/* ---------------------------------------------------------------------------------------------- */
/* lib/metric.c: metric values from a run's stdout.                                                */

typedef struct hp__metrics hp__metrics;

/* Compiles every metric pattern of the plan. Errors go to diags with the metric's line. */
int hp__metrics_new(const hp_plan *plan, hp__metrics **out, hp_diags *diags);
void hp__metrics_free(hp__metrics *m);
/* Scans text line by line; values[i] is set to the capture of the LAST line matching metric i,
 * or NaN when none matched or the capture is not a number. */
void hp__metrics_scan(const hp__metrics *m, const char *text, size_t len, double *values);

/* ---------------------------------------------------------------------------------------------- */
/* lib/results.c: statistics, flags, advice and verdicts over a session's runs.                    */

/* Fills every pass's metrics[], flag, advice and (for variants) verdict from its runs. `plan` may
 * be NULL (for a session read back from summary.json: gates are then taken as stored). */
int hp__session_analyze(hp_session *s, const hp_plan *plan);
/* The exit code a finished session deserves (HP_EXIT_*). */
int hp__session_exit_code(const hp_session *s);
/* How far a pass breaches the plan's `fail` threshold: its slowdown - 1 when the CI gate trips
 * (not expected to distort, not a variant, not shown to be noise), else 0. */
double hp__pass_fail_breach(const hp_session *s, const hp_pass_result *pr);
/* The values of metric m over the counted runs (warmups and interrupted runs left out; NaN where
 * a run printed none). *out is malloc'd (the caller frees it); returns the count, 0 on HP_ENOMEM
 * with *out NULL. */
size_t hp__counted_values(const hp_pass_result *pr, size_t m, double **out);
/* Allocates the results of one pass (all fields empty, metrics[] sized). */
int hp__pass_result_init(hp_pass_result *pr, size_t nmetrics);
void hp__pass_result_free(hp_pass_result *pr);
void hp__run_free(hp_run *r);
/* Current UTC time as ISO 8601 (malloc'd). */
char *hp__now_iso(void);

/* Parses what the profiler wrote in one counted run of each profiled pass (the first that
 * succeeded) into pass->profile, and fills the cross-check fields. */
void hp__session_parse_profiles(hp_session *s, const hp_category_rule *cats, size_t ncats,
                                hp_diags *diags);

/* lib/report_term.c: number formatting shared by the text writers. */
/* Formats v with 6 significant digits (or "-" for NaN) into buf. Returns buf. */
char *hp__fmt_num(char *buf, size_t len, double v);
/* "+1.27%" / "79.83x" / "-", the way tables show an overhead ratio. */
char *hp__fmt_overhead(char *buf, size_t len, double ratio);



/* lib/sha256.c: hex SHA-256 of len bytes into out (64 hex digits and a NUL). */
void hp__sha256_hex(const void *data, size_t len, char out[65]);

/* lib/manifest.c: manifest.json, what a session needs to be reproduced (docs/summary.md). */
int hp__manifest_write(uv_loop_t *loop, const hp_plan *plan, const hp_session *s,
                       const hp_strv *tools, char **env);

#endif /* HPRUN_INTERNAL_H */
