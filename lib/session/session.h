/*
 * The session's internal names, shared by the files of lib/session/ and by nobody else:
 *   folder.c   the session folder: where it goes, its unique name, the plan copy;
 *   argv.c     the argv of a unit's run, run locally (cluster.c wraps it in a launcher's);
 *   prepare.c  the units (argv, environment, profiler), the sampler and the schedule;
 *   run.c      one run (and the build): its folder, argv, environment, child and record;
 *   dryrun.c   the dry run of one session (hp__session_dry_run_in);
 *   session.c  one session (hp__session_run_in): signals, the record, the schedule loop, the
 *              reports;
 *   sweep.c    a sweep's sessions, and the public hp_session_run and hp_session_dry_run, which
 *              send a plan with parameters to the sweep and any other to one session.
 *
 * A context is the caller's (usually on its stack). hp__session_prepare fills it and
 * hp__session_ctx_free releases what it filled, also after a failed prepare; plan, opts, diags
 * and the session record it points to are never the context's, nor is dirfd (hp_session_run opens
 * and closes it).
 */
#ifndef HPRUN_SESSION_SESSION_H
#define HPRUN_SESSION_SESSION_H

#include "analyze/metric.h"
#include "hprun.h"
#include "schedule/schedule.h"
#include "tool/driver.h"
#include <stdio.h>
#include <uv.h>

/* A folder's identity and times (cwdseen.c); every field 8 bytes, so that it compares whole. */
typedef struct hp__cwd_stamp {
  long long dev, ino, size, nlink;
  long long mtime_s, mtime_ns, ctime_s, ctime_ns;
} hp__cwd_stamp;

/* The app's folder as the last look saw it (cwdseen.c): its names, and the stamp they hold for
 * while `valid`. Zeroed is empty. */
typedef struct hp__cwd_seen {
  hp_strv names;
  hp__cwd_stamp stamp;
  int valid; /* names are the folder's as long as its stamp is `stamp` */
  int local; /* 0 not yet known, 1 its file system keeps fine local times, -1 not */
} hp__cwd_seen;

/* One unit of the schedule: a plan pass or an A/B variant. */
typedef struct hp__unit {
  const hp_pass *pass;       /* NULL for a variant */
  const hp_variant *variant; /* NULL for a pass */
  const char *name;
  hp_strv app;     /* resolved argv of the program */
  char **env;      /* the environment its runs get */
  char *tool_path; /* the profiler, for profiled passes */
  unsigned caps;   /* the HP__CAP_* options its tool's help lists that its runs use */
  const hp__driver *driver;
  double timeout;
  int repeat;   /* its counted runs: the pass's own `repeat`, else --repeat, else the plan's */
  int done;     /* `repeat: auto`: its runs have stopped (s->passes[]'s `stopped` says why) */
  int look;     /* `repeat: auto`: the counted runs of its next planned look (0: none left) */
  int dir_made; /* hprun created its folder <session>/<name> (at its first run) */
  char *cwd;    /* where its runs start (absolute); NULL: each run's own folder (workdir: run) */
  int skip;     /* its first run failed: the rest are recorded as skipped, not run */
  int failure_shown; /* a failed run of it was reported with its stderr (hp__run_failed_show) */
  const hp_launcher *launcher; /* how its runs start (cluster.c); NULL: locally */
  hp__cwd_seen seen;           /* cwd as its last run left it (cwdseen.c) */
} hp__unit;

typedef struct hp__session_ctx {
  const hp_plan *plan;
  const hp_run_opts *opts;
  hp_diags *diags;
  uv_loop_t loop;
  uv_signal_t sigint, sigterm;
  int stopping;
  hp__unit *units; /* the plan's passes, then its variants */
  size_t nunits;
  hp__slot *slots; /* every run in the order it runs */
  size_t nslots;
  hp__metrics *metrics;
  char *app_cwd;   /* absolute folder relative app paths are resolved against */
  char **base_env; /* env_script's environment, or NULL for hprun's own */
  char *help_tool; /* the profiler whose help text was read (prepare.c), and what it lists */
  unsigned help_caps;
  hp_strv sampler;      /* device-memory sampler command, empty when none */
  double sampler_scale; /* its readings times this give MiB */
  char *sampler_vram;   /* the amdgpu sysfs file read in-process instead (prepare.c), or NULL */
  double sampler_iv_ms; /* how often it is read */
  char *sampler_note;   /* why memory is not sampled, or NULL */
  hp_session *s;        /* the record being filled; NULL in a dry run */
  int cwd_lock;         /* app.cwd, open and flocked (aftermath.c), or -1 */
  int dirfd;            /* the session folder, open (O_CLOEXEC) from its creation to the end; every
                           file and folder of the session is made relative to it; -1 when none */
  int io_failed;        /* a file or folder of the session could not be written: exit 4 */
  char *io_message;     /* the first such failure, "cannot write PATH: WHY" */
  struct hp__progress *progress; /* progress.c's state while the schedule runs, or NULL */
  FILE *log_wrap; /* on a terminal, the log through the status line (progress.c), or NULL */
  const struct hp__sweep_dir *sub; /* a sweep's combination: where its folder goes; else NULL */
  char *alloc_job;                 /* the session's own Slurm allocation (cluster.c), or NULL */
  int autorep;                     /* `repeat: auto` applies (not overridden by --repeat) */
  char open_note[160]; /* `repeat: auto`: the passes still open, for the progress line */
} hp__session_ctx;

/* Where a sweep's combination runs: the folder <dir>/<name>, made in the sweep's own session
 * folder (open as fd) instead of a new session folder. Everything is the sweep's (sweep.c). */
typedef struct hp__sweep_dir {
  int fd;
  const char *dir;
  const char *name;
} hp__sweep_dir;

/* Where progress and the children's live output go. */
static inline FILE *hp__session_log(const hp__session_ctx *c)
{
  if (c->log_wrap)
    return c->log_wrap;
  return c->opts->log ? c->opts->log : stderr;
}

/* Where the children's output is streamed live: the log with --show-output or -v, else nowhere
 * (it is saved in each run folder either way, and a failed run's stderr tail is shown). */
static inline FILE *hp__session_echo(const hp__session_ctx *c)
{
  return (c->opts->show_output || c->opts->verbose) && !c->opts->quiet ? hp__session_log(c) : NULL;
}

/* folder.c */

/* Makes `p` absolute against `base` (NULL: the current folder); existing paths are resolved
 * without `..` and symlinks. Returns a malloc'd path or NULL when out of memory. */
char *hp__session_abspath(const char *base, const char *p);
/* The absolute folder sessions of this plan go into: --output (relative to where hprun started)
 * or the plan's `output` (relative to the plan). NULL when out of memory. */
char *hp__session_parent(const hp_plan *plan, const hp_run_opts *opts);
/* Creates a new <parent>/<name>-<stamp>[-N] (and parent, if missing) and opens it: *out is
 * malloc'd, *fd is the folder's descriptor (O_CLOEXEC), both the caller's. Returns 0, HP_EEXIST
 * when every name is taken, HP_EIO or HP_ENOMEM; a failure is also added to diags (NULL: not) as
 * "cannot create PATH: WHY". */
int hp__session_dir_make(const char *parent, const char *name, char **out, int *fd,
                         hp_diags *diags);
/* Copies the plan's text, verbatim, into plan.yaml of the session folder `dirfd` (never replacing
 * anything). Returns 0 or hp__write_file_at's code (util/sys/fsutil.h: its kind, and why). */
int hp__session_copy_plan(const hp_plan *plan, int dirfd);
/* Reports a file or folder of the session that could not be made: adds "cannot VERB PATH: WHY"
 * (hp__fs_error: VERB "create" for what must be new, "write" for a replacing write; PATH is `rel`
 * below the session folder, or `rel` itself when absolute) to diags, keeps the first such message
 * for the session's `error`, and marks the session for exit 4. Returns HP_EIO, for the caller to
 * return when the session cannot go on. */
int hp__session_io_error(hp__session_ctx *c, const char *verb, const char *rel, int e);
/* The current time as ISO 8601 UTC, malloc'd; NULL when out of memory. */
char *hp__session_now_iso(void);
/* Points <parent>/<name>-latest at the session folder `dir` (<parent>/<leaf>), atomically: a
 * relative link to <leaf> is made under a temporary name, then renamed over the old one. Returns
 * 0 or a negative code that holds the system's reason (hp__fs_errno); the caller warns, since a
 * stale link loses no measurement. */
int hp__session_link_latest(const char *dir, const char *name);
/* Makes the sweep combination's folder c->sub says and opens it as c->dirfd; sets c->s->dir. */
int hp__sweep_dir_make(hp__session_ctx *c);

/* sweep.c: parameter sweeps, one session per combination of the plan's parameters */

/* Copies the plan's settings that the results are read with (name, file, seed, repeat, warmup,
 * thresholds) and hprun's version and the start time into a session's or a sweep's record
 * (session.c). 0 or HP_ENOMEM. */
int hp__session_record_init(hp_session *s, const hp_plan *plan, const hp_run_opts *opts);
/* hp_session_run in the folder `sub` says (NULL: a new session folder, as hp_session_run). */
int hp__session_run_in(const hp_plan *plan, const hp_run_opts *opts, const hp__sweep_dir *sub,
                       hp_session **out, hp_diags *diags);
/* hp_session_dry_run with its runs shown below `sdir` (NULL: the session folder a run would make).
 */
int hp__session_dry_run_in(const hp_plan *plan, const hp_run_opts *opts, const char *sdir, FILE *fp,
                           hp_diags *diags);

/* hooks.c */

/* Runs the app's hook `which` ("prepare" or "cleanup", argv; nothing when empty) in the app's
 * folder with `env`, saving its output as <dir>/<which>.stdout.txt and .stderr.txt. Returns 0
 * with *why NULL when it succeeded, 0 with *why (malloc'd, the caller's) saying how it failed,
 * or HP_ENOMEM. */
int hp__run_hook(hp__session_ctx *c, const char *which, const hp_strv *argv, const char *dir,
                 char **env, char **why);

/* prepare.c */

/* Everything a real or dry run needs before its first run: the app's folder, the metric
 * patterns, env_script's environment, the units, the sampler and the schedule. Failures are
 * plan or usage errors, reported in diags; the caller frees the context either way. */
int hp__session_prepare(hp__session_ctx *c);
/* Empties `c`, points it at the caller's plan, options and diagnostics (kept, not copied) and
 * starts its loop. No session folder yet (dirfd -1). HP_EIO when the loop cannot start. */
int hp__session_ctx_init(hp__session_ctx *c, const hp_plan *plan, const hp_run_opts *opts,
                         hp_diags *diags);
void hp__session_ctx_free(hp__session_ctx *c);

/* argv.c */

/* `w` with every {dir} replaced by `dir` (malloc'd; NULL on HP_ENOMEM): the run folder's
 * placeholder in app.command, app.env values, the hooks and a pass's args, counters and command. */
char *hp__expand_dir(const char *w, const char *dir);
/* hp__expand_dir of every word of `in` into *out (new); 0 or HP_ENOMEM (*out empty then). */
int hp__expand_dir_v(const hp_strv *in, const char *dir, hp_strv *out);
/* The argv of one run of unit `u` in folder `dir`, run locally. A profiler's input file the
 * driver could not write gives hp__write_file's code (util/sys/fsutil.h: its kind, and why). */
int hp__run_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out);
/* The command that follows a run of unit `u` in folder `dir` outside its timing (the driver's
 * hp__driver_after_argv), empty when there is none. 0 or HP_ENOMEM. */
int hp__run_after_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out);

/* run.c */

/* Runs slot `sl` (the schedule's `round`-th) and records it into `run`, which belongs to `pr`.
 * A run that fails or cannot start is recorded, not an error: returns 0 then, and an HP_E* code
 * only when the session itself cannot go on (memory, files). */
int hp__run_one(hp__session_ctx *c, const hp__slot *sl, hp_pass_result *pr, hp_run *run, int round);
/* Records slot `sl` as skipped (its unit's first run failed) without running it. 0 or HP_ENOMEM. */
int hp__run_skip(hp__session_ctx *c, const hp__slot *sl, hp_run *run, int round);
/* Runs the plan's build command, if any. Returns 0, HP_ERUN (with s->error set) when it failed,
 * or another HP_E* code. */
int hp__run_build(hp__session_ctx *c);
/* Records that a run's output file `path` (absolute) lost bytes the child wrote (errno `e`):
 * reports it (hp__session_io_error). When it is the run's stdout.txt, the run fails with an
 * error saying its output could not be saved, and its metrics stay unread, since a cut file could
 * hold a value that was not the last; the advice then names the file, not the metric pattern.
 * Returns HP_EIO: the session stops (the disk that lost it would lose the next run's too). */
int hp__run_lost_output(hp__session_ctx *c, hp_run *run, const char *path, int e);

/* cluster.c: launchers (docs/cluster.md) */

struct hp__child_result;
/* Sets each unit's launcher (NULL: local) and checks that srun, mpirun or the command's program
 * exists. A plan error (in diags) otherwise. */
int hp__cluster_prepare(hp__session_ctx *c);
/* The session's `allocation: session`: salloc --no-shell before the first run (HP_ERUN with
 * s->error when it grants none), scancel after the last. Nothing inside SLURM_JOB_ID's
 * allocation. */
int hp__cluster_open(hp__session_ctx *c);
void hp__cluster_close(hp__session_ctx *c);
/* The argv of one run: hp__run_argv's for a local unit, else its launcher around the rank
 * wrapper (written into `dir`). A file that could not be written gives hp__write_file's code. */
int hp__cluster_argv(hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, const char *dir,
                     hp_strv *out);
/* hp__run_argv, with a launched unit's output folder <dir>/rank{rank} (each rank's own). */
int hp__cluster_inner_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out);
/* The dry run's line for a launched unit: the launcher's command around the rank wrapper. */
void hp__cluster_dry_run(hp__session_ctx *c, const hp__unit *u, const char *dir, FILE *fp);
/* After a launched run: cancels what a timeout or stop left in Slurm, reads the ranks into
 * run->launch and their metrics (the lowest rank's stand for the run). 0 or HP_ENOMEM. */
int hp__cluster_after(hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, hp_run *run,
                      const char *dir, const struct hp__child_result *res);

/* aftermath.c */

/* The names in folder `dir` (top level only, without . and ..) into *out (the caller's; empty on
 * failure). Returns 0 or HP_ENOMEM; a folder that cannot be read gives an empty list. */
int hp__cwd_list(const char *dir, hp_strv *out);
/* The names of `after` that are not in `before`, into *out (the caller's). 0 or HP_ENOMEM. */
int hp__cwd_new_names(const hp_strv *before, const hp_strv *after, hp_strv *out);
/* Moves every top-level file or folder that appeared in `cwd` since `before` was listed into the
 * run's folder `rel` (below the session folder, reached without following a link), never
 * replacing anything there (hp__move_at: across file systems by copy); each move is warned about
 * unless `quiet`. Returns 0 or HP_ENOMEM; what cannot be moved is said as an error and left, and
 * the first such file is described in *lost (malloc'd, the caller's; set only while NULL), the
 * reason its run failed. */
/* Takes an flock on the folder app.cwd itself, unless runs start in their own folders
 * (`app.workdir: run`) or this is a dry run: another live session there would take the files
 * this one's runs leave, and the other way round. HP_EINVAL, with an error naming the other
 * session's pid (from /proc/locks), when it is held; a folder that cannot be locked is warned
 * about. Nothing is written; the kernel drops the lock when hprun ends, however it ends. */
int hp__cwd_lock(hp__session_ctx *c);
/* Releases the lock, if held. */
void hp__cwd_unlock(hp__session_ctx *c);
int hp__cwd_move_new(hp__session_ctx *c, const char *cwd, const hp_strv *before, const char *rel,
                     int quiet, char **lost);

/* runfiles.c */

/* The files a run left in its folder `dir` (open as dfd, read from its start, so a new
 * descriptor; the caller keeps it), recursively, in alphasort order, without stdout.txt,
 * stderr.txt and hprun-memory.txt, appended to *out. 0 or HP_ENOMEM. */
int hp__run_files(int dfd, const char *dir, hp_strv *out);

/* cwdseen.c */

/* Makes s->names the names in `dir` now (as hp__cwd_list): those of the last look when the
 * folder's stamp says no name came or went since, else a new listing. 0 or HP_ENOMEM. */
int hp__cwd_seen_update(hp__cwd_seen *s, const char *dir);
/* 1 when s->names are still the names in `dir` (its stamp is unchanged and trusted), else 0. */
int hp__cwd_seen_same(const hp__cwd_seen *s, const char *dir);
/* Frees the names; accepts NULL. */
void hp__cwd_seen_free(hp__cwd_seen *s);

/* Whether a run failed: it could not start, exited non-zero, was killed or timed out. A run
 * without its metric has not failed in this sense: it ran, and the report says why it has no
 * value. */
int hp__run_failed(const hp_run *run);
/* A one-sentence hint at why a run failed, from its stderr `err` (may be NULL), whether it timed
 * out, and whether runs start in their own folder. Static text. */
const char *hp__failure_hint(const char *err, int timed_out, int cwd_is_run_dir);
/* Shows on the log that unit u's run failed and `what` hprun does about it, the end of its stderr
 * and a hint. */
void hp__run_failed_show(hp__session_ctx *c, const hp__unit *u, const hp_run *run,
                         const char *what);

#endif /* HPRUN_SESSION_SESSION_H */
