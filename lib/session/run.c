/*
 * One run of a session, and the build before the first: the run's folder <pass>/<k> (or
 * <pass>/warmup-<k>), its argv, its environment, the child itself (lib/exec/), and its record in
 * the results: status, time, memory, the metrics read from its stdout and the files it left.
 * A run that fails is a result, not an error; only what stops the whole session is returned.
 */
#include "exec/runner.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/base/secret.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What one run owns while it runs: paths, argv, environment. */
typedef struct run_io {
  char *dir;  /* absolute run folder */
  char *outp; /* its stdout.txt, stderr.txt and hprun-memory.txt */
  char *errp;
  char *memp;
  hp_strv argv;
  char **env;
  char prefix[160]; /* prefixes the live copy of the child's output */
  int dfd;          /* the run folder, open from its creation to the end of the run; -1 */
} run_io;

/* Keeps the app's own launch count (`launches=N`, at a line's start or after a blank) from each
 * line of a run's stdout as the metric scan streams it; the last one wins, -1 when absent. */
static void launches_line(void *arg, const char *line)
{
  long long *launches = arg;
  const char *p = line, *last = NULL;

  while ((p = strstr(p, "launches=")) != NULL) {
    if (p == line || p[-1] == ' ' || p[-1] == '\t')
      last = p;
    p += 9;
  }
  if (last)
    *launches = strtoll(last + 9, NULL, 10);
}

/* Sets the run's identity and its empty values before anything can fail, so that a run stopped
 * early is still a well-formed record. */
static int run_init(const hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, hp_run *run,
                    int round)
{
  size_t i;

  run->index = sl->warmup ? 0 : sl->k;
  run->warmup = sl->warmup;
  run->round = round;
  run->max_rss_kb = -1;
  run->mem_mean_mib = run->mem_peak_mib = NAN;
  run->values = malloc((c->plan->nmetrics ? c->plan->nmetrics : 1) * sizeof(double));
  run->dir = sl->warmup ? hp__asprintf("%s/warmup-%d", u->name, sl->k)
                        : hp__asprintf("%s/%d", u->name, sl->k);
  if (run->values == NULL || run->dir == NULL)
    return HP_ENOMEM;
  for (i = 0; i < c->plan->nmetrics; i++)
    run->values[i] = NAN;
  return 0;
}

/* Creates the run's folder <unit>/<k>, relative to the session folder's descriptor and never
 * through a link: the unit's folder is made at its first run, and a later run walks into it
 * without following a link, so a folder the previous runs' programs replaced or planted is
 * refused, not used. Every run folder is new: one that exists is an error, never reused. */
static int run_mkdir(hp__session_ctx *c, hp__unit *u, const char *rel, int *dfd)
{
  int r;

  if (!u->dir_made) {
    if ((r = hp__mkdir_at(c->dirfd, u->name, 0755, NULL)) != 0)
      return hp__session_io_error(c, "create", u->name, hp__fs_errno(r));
    u->dir_made = 1;
  }
  if ((r = hp__mkdir_at(c->dirfd, rel, 0755, dfd)) != 0)
    return hp__session_io_error(c, "create", rel, hp__fs_errno(r));
  return 0;
}

/* Creates the run's folder and works out its argv and output files; logs the command line. */
static int run_paths(hp__session_ctx *c, hp__unit *u, const hp__slot *sl, hp_run *run, run_io *io)
{
  char *cmd;
  int r;

  if ((io->dir = hp__path_join(c->s->dir, run->dir)) == NULL)
    return HP_ENOMEM;
  if ((r = run_mkdir(c, u, run->dir, &io->dfd)) != 0)
    return r;
  /* A driver may write an input file for its profiler into the run folder (rocprof's pmc list). */
  r = hp__cluster_argv(c, u, sl, io->dir, &io->argv);
  if (hp__fs_kind(r) == HP_EIO || hp__fs_kind(r) == HP_EEXIST)
    return hp__session_io_error(c, "write the profiler's input in", run->dir, hp__fs_errno(r));
  if (r)
    return hp__fs_kind(r);
  /* Stored (summary.json, manifest.json) and printed as it ran, less any token or URL password
   * in it: the results travel further than the machine they came from. */
  if ((cmd = hp__strv_shell_join(&io->argv)) != NULL)
    run->command = hp__redact(cmd);
  free(cmd);
  io->outp = hp__path_join(io->dir, "stdout.txt");
  io->errp = hp__path_join(io->dir, "stderr.txt");
  if (run->command == NULL || io->outp == NULL || io->errp == NULL)
    return HP_ENOMEM;
  snprintf(io->prefix, sizeof(io->prefix), "[%s %s%d] ", u->name, sl->warmup ? "warmup " : "",
           sl->k);
  /* Only with -v: the command is in summary.json, and a failed run's report repeats it. */
  if (c->opts->verbose)
    fprintf(hp__session_log(c), "hprun: %s%s run %d: %s\n", u->name, sl->warmup ? " warmup" : "",
            sl->k, run->command);
  return 0;
}

/* The plan's `env:` layers for a unit: the app's, a variant's, then a pass's, each over the one
 * before. */
typedef struct env_layer {
  const hp_kv *kv;
  size_t n;
} env_layer;

/* 1 when a layer after `from` sets `key`: its value, not this one, is the run's. */
static int overridden(const env_layer *l, size_t from, const char *key)
{
  size_t a, i;

  for (a = from + 1; a < 3; a++)
    for (i = 0; i < l[a].n; i++)
      if (strcmp(l[a].kv[i].key, key) == 0)
        return 1;
  return 0;
}

/* The plan's `env:` entries (the app's, a variant's, the pass's) whose values hold {dir}, with
 * this run's folder in: they go on top of the unit's environment. *n of them in *out (each key
 * and value malloc'd; free with free_dir_env). 0 or HP_ENOMEM. */
static int dir_env(const hp__session_ctx *c, const hp__unit *u, const char *dir, hp_kv **out,
                   size_t *n)
{
  env_layer l[3] = {{c->plan->app.env, c->plan->app.nenv}, {NULL, 0}, {NULL, 0}};
  size_t a, i;

  if (u->variant)
    l[1] = (env_layer){u->variant->app.env, u->variant->app.nenv};
  if (u->pass)
    l[2] = (env_layer){u->pass->env, u->pass->nenv};
  *n = 0;
  *out = calloc(l[0].n + l[1].n + l[2].n + 1, sizeof(**out));
  if (*out == NULL)
    return HP_ENOMEM;
  for (a = 0; a < 3; a++)
    for (i = 0; i < l[a].n; i++) {
      const hp_kv *kv = &l[a].kv[i];
      if (kv->value == NULL || strstr(kv->value, "{dir}") == NULL || overridden(l, a, kv->key))
        continue;
      (*out)[*n].key = kv->key;
      if (((*out)[(*n)++].value = hp__expand_dir(kv->value, dir)) == NULL)
        return HP_ENOMEM;
    }
  return 0;
}

static void free_dir_env(hp_kv *set, size_t n)
{
  size_t i;

  for (i = 0; set && i < n; i++)
    free(set[i].value); /* the keys are the plan's */
  free(set);
}

/* The unit's environment plus where this run is: scripts and seeded test programs use these. */
static char **run_env(const hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, int round,
                      const char *dir)
{
  char round_s[24], idx_s[24], **env = NULL;
  hp_kv set[6] = {{"HPRUN_PASS", (char *)u->name},          {"HPRUN_RUN", idx_s},
                  {"HPRUN_WARMUP", sl->warmup ? "1" : "0"}, {"HPRUN_ROUND", round_s},
                  {"HPRUN_RUN_DIR", (char *)dir},           {"HPRUN_APP_CWD", c->app_cwd}};
  hp_kv *all = NULL, *dset = NULL;
  size_t nd = 0;

  snprintf(round_s, sizeof(round_s), "%d", round);
  snprintf(idx_s, sizeof(idx_s), "%d", sl->k);
  if (dir_env(c, u, dir, &dset, &nd) == 0 && (all = calloc(nd + 6, sizeof(*all))) != NULL) {
    memcpy(all, dset, nd * sizeof(*all));
    memcpy(all + nd, set, sizeof(set));
    /* u->env lives as long as the session: only these entries are new (one allocation, which
     * copies them). */
    env = hp__env_overlay(u->env, all, nd + 6);
  }
  free(all);
  free_dir_env(dset, nd);
  return env;
}

/* Runs the child in its folder, with the unit's timeout and, when there is one, the sampler. */
static int run_child(hp__session_ctx *c, const hp__unit *u, run_io *io, hp__child_result *res)
{
  hp__child_spec spec;

  memset(&spec, 0, sizeof(spec));
  spec.argv = &io->argv;
  spec.env = io->env;
  spec.cwd = u->cwd ? u->cwd : io->dir;
  spec.timeout_s = u->timeout;
  spec.grace_s = c->opts->grace_s;
  spec.profiled = u->driver != NULL && u->launcher == NULL; /* a launcher leads: signal it */
  spec.stdout_path = io->outp;
  spec.stderr_path = io->errp;
  spec.use_dirfd = 1; /* the files go into the folder just made, not through its path */
  spec.dirfd = io->dfd;
  spec.echo = hp__session_echo(c);
  spec.prefix = io->prefix;
  if (c->sampler.n) {
    spec.sampler = &c->sampler;
    spec.sampler_scale = c->sampler_scale;
    spec.sampler_path = io->memp = hp__path_join(io->dir, "hprun-memory.txt");
  }
  spec.vram_file = c->sampler_vram;
  spec.vram_interval_ms = c->sampler_iv_ms;
  return hp__child_run(&c->loop, &spec, res);
}

/* Copies what the child did into the run record, reads the metrics from its stdout (unless its
 * copy was cut short: run->error says so then) and lists the files it left. */
static int run_record(hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, hp_pass_result *pr,
                      hp_run *run, const run_io *io, const hp__child_result *res, int out_lost)
{
  long long launches = -1;
  int r;

  run->exit_status = res->exit_status;
  run->term_signal = res->term_signal;
  run->timed_out = res->timed_out;
  run->interrupted = res->interrupted;
  run->wall_ms = res->wall_ms;
  run->max_rss_kb = res->max_rss_kb;
  run->mem_mean_mib = res->mem_mean_mib;
  run->mem_peak_mib = res->mem_peak_mib;
  run->mem_samples = res->mem_samples;
  if (res->sampler_error && !pr->mem_note)
    pr->mem_note = hp__asprintf("the sampler could not start: %s", uv_strerror(res->sampler_error));
  if (res->left_behind > 0)
    fprintf(hp__session_log(c), "hprun: run %s left %d process%s behind: killed\n", run->dir,
            res->left_behind, res->left_behind == 1 ? "" : "es");
  if (res->output_cut)
    fprintf(hp__session_log(c),
            "hprun: run %s: its output pipe was still held open 2 s after it exited; reading "
            "stopped there\n",
            run->dir);
  if (res->timed_out)
    fprintf(hp__session_log(c),
            "hprun: %s run %d timed out after %g s; its process group was stopped\n", u->name,
            sl->k, u->timeout);
  /* One streaming pass: hprun's memory stays bounded whatever the app printed. An empty stdout
   * holds no value and no launch count: nothing to read. */
  if (!out_lost && res->stdout_size != 0) {
    hp__metrics_scan_path(c->metrics, io->outp, run->values, launches_line, &launches);
    if (!sl->warmup && pr->app_launches < 0)
      pr->app_launches = launches;
  }
  /* The built-in wall_ms (the plan's last metric) is the run's measured time, not a scan. */
  if (c->plan->nmetrics > 0 && c->plan->metrics[c->plan->nmetrics - 1].wall)
    run->values[c->plan->nmetrics - 1] = res->wall_ms;
  if ((r = hp__run_files(io->dfd, io->dir, &run->files)) != 0)
    return r;
  run->ok = !run->error && res->exit_status == 0 && !res->term_signal && !res->timed_out &&
      !res->interrupted && c->plan->nmetrics > 0 && !isnan(run->values[0]);
  return 0;
}

/* A write to one of the child's files that failed after it started (a full disk, say), as the
 * exec module reports it. Returns the errno, or 0 when every byte was saved. */
static int child_write_error(const hp__child_result *res, const char **path)
{
  *path = res->write_path;
  return res->write_path ? res->write_errno : 0;
}

int hp__run_lost_output(hp__session_ctx *c, hp_run *run, const char *path, int e)
{
  size_t n = strlen(path);
  char *why;

  if (n >= 11 && strcmp(path + n - 11, "/stdout.txt") == 0 && run->error == NULL) {
    why = hp__fs_error("write", NULL, path, e);
    run->error = why ? hp__asprintf("its output could not be saved (%s), so its metrics were not "
                                    "read",
                                    why)
                     : NULL;
    free(why);
    if (run->error == NULL)
      return HP_ENOMEM;
  }
  return hp__session_io_error(c, "write", path, e);
}

/* Runs the child; a run that could not start is recorded (not an error). Sets *werr and *wpath
 * when one of its files lost bytes. */
static int run_spawn(hp__session_ctx *c, const hp__unit *u, hp_run *run, run_io *io,
                     hp__child_result *res, int *werr, const char **wpath)
{
  int r = run_child(c, u, io, res);

  if (r == HP_ESPAWN) {
    run->error =
        hp__asprintf("could not start '%s': %s", io->argv.v[0], uv_strerror(res->spawn_error));
    fprintf(hp__session_log(c), "hprun: %s\n", run->error ? run->error : "could not start");
    return 0;
  }
  if (r == HP_EIO && (*werr = child_write_error(res, wpath)) != 0)
    return 0; /* the child ran and its result is whole; one of its files is not */
  if (r == HP_EIO) {
    char *rel = hp__asprintf("%s/stdout.txt", run->dir);
    r = hp__session_io_error(c, "create", rel ? rel : run->dir, EIO);
    free(rel);
  }
  return r;
}

/* Runs the unit's `prepare` or `cleanup` hook around a run, never while hprun is stopping. A
 * failed prepare fails the run (its error says why) so that the app is not started; a failed
 * cleanup is only a warning, since the run's measurement is whole. */
static int run_hooks(hp__session_ctx *c, const hp__unit *u, hp_run *run, const run_io *io,
                     const char *which)
{
  const hp_app *a = u->variant ? &u->variant->app : &c->plan->app;
  int prepare = strcmp(which, "prepare") == 0;
  char *why = NULL;
  int r;

  if (c->stopping)
    return 0;
  r = hp__run_hook(c, which, prepare ? &a->prepare : &a->cleanup, io->dir, io->env, &why);
  if (r || why == NULL)
    return r;
  fprintf(hp__session_log(c), "hprun: %srun %s: %s\n", prepare ? "" : "warning: ", run->dir, why);
  if (prepare)
    run->error = why;
  else
    free(why);
  return 0;
}

/* The tool's own step after a run (nsys stats), outside its timing and run like a hook: its
 * output goes to <run>/<tool>-after.stdout.txt. Failing is a warning, as for cleanup: the run's
 * time is whole, only its profile lacks what the step would have written. */
static int run_after(hp__session_ctx *c, const hp__unit *u, hp_run *run, const run_io *io)
{
  hp_strv argv = {NULL, 0, 0};
  char *why = NULL, name[64];
  int r = 0;

  if (c->stopping || (r = hp__run_after_argv(c, u, io->dir, &argv)) != 0 || argv.n == 0)
    return r;
  snprintf(name, sizeof(name), "%s-after", hp__driver_name(u->driver));
  r = hp__run_hook(c, name, &argv, io->dir, io->env, &why);
  hp_strv_free(&argv);
  if (r == 0 && why)
    fprintf(hp__session_log(c), "hprun: warning: run %s: %s: %s\n", run->dir, name, why);
  free(why);
  return r;
}

int hp__run_one(hp__session_ctx *c, const hp__slot *sl, hp_pass_result *pr, hp_run *run, int round)
{
  hp__unit *u = &c->units[sl->unit];
  hp__child_result res;
  const char *wpath = NULL;
  run_io io;
  int r, werr = 0;

  memset(&io, 0, sizeof(io));
  io.dfd = -1;
  memset(&res, 0, sizeof(res));
  if ((r = run_init(c, u, sl, run, round)) != 0)
    return r;
  if ((r = run_paths(c, u, sl, run, &io)) != 0)
    goto not_run;
  if ((io.env = run_env(c, u, sl, round, io.dir)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = run_hooks(c, u, run, &io, "prepare")) != 0 || run->error)
    goto fail;
  /* What the app's folder holds before the run (after its prepare hook), so that what the run
   * adds can be moved; kept from the last run while the folder is unchanged (cwdseen.c). */
  if (u->cwd && (r = hp__cwd_seen_update(&u->seen, u->cwd)) != 0)
    goto fail;
  if ((r = run_spawn(c, u, run, &io, &res, &werr, &wpath)) != 0)
    goto not_run;
  /* hipprof has no output folder option that every DTK version reads the same way: it writes into
   * its working directory, and its files are moved into the run's folder like any other, without
   * a warning, since they are expected. */
  if (u->cwd && !hp__cwd_seen_same(&u->seen, u->cwd) &&
      (r = hp__cwd_move_new(c, u->cwd, &u->seen.names, run->dir,
                            u->driver && !strcmp(hp__driver_name(u->driver), "hipprof"),
                            &run->error)))
    goto fail;
  /* What the run lost is said before it is recorded, so that its record (ok, advice) says so. */
  if (werr && (r = hp__run_lost_output(c, run, wpath, werr)) == HP_ENOMEM)
    goto fail;
  r = run_record(c, u, sl, pr, run, &io, &res, werr && strcmp(wpath, io.outp) == 0);
  if (r == 0)
    r = hp__cluster_after(c, u, sl, run, io.dir, &res);
  if (r == 0)
    r = run_after(c, u, run, &io);
  if (r == 0)
    r = run_hooks(c, u, run, &io, "cleanup");
  if (r == 0 && werr)
    r = HP_EIO;
  goto fail;

not_run:
  /* Its record says why it never ran, so that nobody looks for a metric it could not print. */
  if (r == HP_EIO && run->error == NULL && c->io_message)
    run->error = hp__asprintf("it did not run: %s", c->io_message);

fail:
  hp_strv_free(&io.argv);
  free(io.env); /* hp__env_overlay's single allocation */
  free(io.dir);
  free(io.outp);
  free(io.errp);
  free(io.memp);
  if (io.dfd >= 0)
    close(io.dfd);
  return r;
}

int hp__run_skip(hp__session_ctx *c, const hp__slot *sl, hp_run *run, int round)
{
  int r = run_init(c, &c->units[sl->unit], sl, run, round);

  run->skipped = 1;
  /* The report's run table then says why this run has no values. */
  if (r == 0 &&
      (run->error = hp__strdup("not run: its pass's first run failed (keep_going: true "
                               "runs it anyway)")) == NULL)
    r = HP_ENOMEM;
  return r;
}

/* Why a build failed, in a few words. */
static const char *build_failure(int r, const hp__child_result *res)
{
  if (r)
    return uv_strerror(res->spawn_error);
  if (res->interrupted)
    return "interrupted";
  return res->term_signal ? "killed by a signal" : "non-zero exit";
}

/* The build runs once, in the app's folder with the first unit's environment, logging into
 * <session>/build/. When it fails, the end of its stderr is shown unless it was streamed: the
 * error is almost always there. */
int hp__run_build(hp__session_ctx *c)
{
  hp__child_spec spec;
  hp__child_result res;
  hp_strv argv = {NULL, 0, 0};
  char *dir = NULL, *outp = NULL, *errp = NULL, *log = NULL;
  const char *wpath = NULL;
  size_t len;
  int r, werr = 0;

  if (c->plan->app.build.n == 0)
    return 0;
  if ((r = hp__strv_copy(&argv, &c->plan->app.build)) != 0)
    return r;
  dir = hp__path_join(c->s->dir, "build");
  outp = dir ? hp__path_join(dir, "stdout.txt") : NULL;
  errp = dir ? hp__path_join(dir, "stderr.txt") : NULL;
  if (outp == NULL || errp == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = hp__mkdir_at(c->dirfd, "build", 0755, NULL)) != 0) {
    r = hp__session_io_error(c, "create", "build", hp__fs_errno(r));
    goto fail;
  }
  fprintf(hp__session_log(c), "hprun: build: %s\n", argv.v[0]);
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.cwd = c->app_cwd;
  spec.env = c->units[0].env;
  spec.stdout_path = outp;
  spec.stderr_path = errp;
  spec.echo = hp__session_echo(c);
  spec.prefix = "[build] ";
  r = hp__child_run(&c->loop, &spec, &res);
  if (r == HP_EIO && (werr = child_write_error(&res, &wpath)) != 0)
    r = 0; /* the build ran; its log is cut short, which is reported below */
  else if (r == HP_EIO) {
    r = hp__session_io_error(c, "create", "build/stdout.txt", EIO);
    goto fail;
  }
  if (r || res.exit_status || res.term_signal || res.interrupted) {
    c->s->error =
        hp__asprintf("the build failed (%s); its log is in %s", build_failure(r, &res), dir);
    if (hp__session_echo(c) == NULL && hp__read_file(errp, &log, &len) == 0) {
      const char *tail = len > 2000 ? log + len - 2000 : log;
      fprintf(hp__session_log(c), "hprun: build stderr (end):\n%s\n", tail);
    }
    r = HP_ERUN;
  }
  if (werr)
    r = hp__session_io_error(c, "write", wpath, werr);

fail:
  free(log);
  hp_strv_free(&argv);
  free(dir);
  free(outp);
  free(errp);
  return r;
}
