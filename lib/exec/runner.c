/*
 * The child process: one at a time on a libuv loop.
 *
 * Each child is started in a new session (exec/spawn.c: a vfork-like clone with a pidfd for its
 * exit, or uv_spawn with UV_PROCESS_DETACHED), so it leads its own process group;
 * everything it starts stays in that group, and a stop reaches all of it with uv_kill(-pgid, sig).
 * Nothing here waits for any pid but the leader's (by its pidfd, or libuv for its own handles); the
 * handle is closed only in the exit callback (exec/leftover.c waits for orphans hprun adopted, by
 * their own pids). Its output is read by exec/output.c, its peak RSS read from /proc by
 * exec/procfs.c,
 * and the optional device-memory sampler is exec/sampler.c; this file ties them to the child's
 * life: spawn, timeout, stop, exit.
 *
 * Stopping (timeout or Ctrl-C) goes in phases, because a profiler must not be killed before it has
 * written its files (profiler-formats.md §1.4: hipprof loses its database when killed):
 *   1. profiled runs only: SIGTERM to the group's members other than the leader (the app), so the
 *      profiler sees its app end and writes its files;
 *   2. SIGTERM to the whole group;
 *   3. SIGKILL to the whole group.
 * Each phase waits `grace_s` for the leader to exit before the next. When the leader has exited,
 * any member still alive is killed, and so is every process of the run that left the group
 * (exec/leftover.c finds them: the session token in their environment, or hprun as their adoptive
 * parent), so no process is left behind; the count goes back in res->left_behind. The session
 * guard (exec/guard.c) gives each child the token and keeps a watchdog that stops the run when
 * hprun itself is killed. Contract: docs/internals/runner.md.
 */
#include "exec/runner.h"
#include "exec/guard.h"
#include "exec/leftover.h"
#include "exec/output.h"
#include "exec/procfs.h"
#include "exec/sampler.h"
#include "exec/spawn.h"
#include "util/base/buf.h"

#include <math.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

typedef struct child {
  const hp__child_spec *spec;
  hp__child_result *res;
  hp__proc proc;        /* the leader: a vfork-like clone and a pidfd, or uv_spawn (exec/spawn.h) */
  uv_timer_t timer;     /* timeout, then the grace periods between stop phases, then the drain */
  uv_timer_t rss_timer; /* samples the group's peak RSS */
  uv_timer_t vram_timer; /* reads spec->vram_file into the sampler's readings */
  uv_timer_t left_timer; /* after the leader's exit: waits for what it left behind to end */
  hp__output out, err;
  hp__sampler sampler;
  hp__leftover left; /* what the run left behind */
  char **env;        /* the child's environment: the spec's (or ours) with the session token, in one
                allocation of ours (hp__env_overlay) that points at the spec's strings */
  int pgid;
  int exited;
  int phase; /* 0 running, 1 app signalled, 2 group SIGTERM, 3 group SIGKILL */
  uint64_t t0;
  uint64_t left_t0;                /* when the leftovers were sent SIGTERM */
  uint64_t rss_base_ms, rss_iv_ms; /* the sampler's dense interval and its current one */
} child;

extern char **environ;

/* How long the leftovers get between SIGTERM and SIGKILL: the run is over, so a short grace. */
#define LEFT_GRACE_MS 1000
/* How long the pipes are read after the leader's exit while another process still holds them. */
#define DRAIN_MS 2000

/* The child that Ctrl-C should stop. Runs are one at a time, so one pointer is enough. */
static child *current;

/* The RSS sampler backs off: every interval (20 ms) during the first RSS_DENSE_MS, where short
 * runs live and most programs reach their peak, then twice as long each time up to RSS_SLOW_MS,
 * so that a long run wakes hprun once a second: each wakeup costs CPU beside a child that may be
 * idle. VmHWM is a high-water mark, so a slow look misses nothing of a process still alive; what
 * a process that exits between looks used is caught by RUSAGE_CHILDREN (finish()) when hprun
 * reaps it. */
#define RSS_DENSE_MS 100
#define RSS_SLOW_MS 1000

static uint64_t rss_next_ms(const child *c, uint64_t iv)
{
  double ms = (double)(uv_hrtime() - c->t0) / 1e6;
  uint64_t next = c->rss_iv_ms;

  if (ms < RSS_DENSE_MS)
    return iv;
  next = next * 2 > RSS_SLOW_MS ? RSS_SLOW_MS : next * 2;
  return next < iv ? iv : next;
}

static void on_rss_timer(uv_timer_t *t)
{
  child *c = t->data;
  long kb;

  if (c->exited)
    return;
  kb = hp__proc_group_hwm_kb(c->pgid);
  if (kb > c->res->max_rss_kb)
    c->res->max_rss_kb = kb;
  c->rss_iv_ms = rss_next_ms(c, c->rss_base_ms);
  uv_timer_start(&c->rss_timer, on_rss_timer, c->rss_iv_ms, 0);
}

/* Device memory from amdgpu's sysfs file: a read(2) per reading, no process beside the app. */
static void on_vram_timer(uv_timer_t *t)
{
  child *c = t->data;
  double mib;

  if (!c->exited && hp__sampler_read_vram(c->spec->vram_file, &mib) == 0)
    hp__sampler_add(&c->sampler, mib);
}

static double grace_ms(const child *c)
{
  return (c->spec->grace_s > 0 ? c->spec->grace_s : 5.0) * 1000.0;
}

/* Moves to the next stop phase and arms the timer for the one after. Never signals a group whose
 * leader has been reaped: its id could belong to someone else by now. */
static void escalate(child *c)
{
  int pids[256];
  size_t i, n;

  if (c->exited)
    return;
  if (c->phase == 0 && c->spec->profiled) {
    c->phase = 1;
    n = hp__proc_group_members(c->pgid, pids, sizeof(pids) / sizeof(pids[0]));
    for (i = 0; i < n; i++)
      uv_kill(pids[i], SIGTERM);
    if (n > 0)
      return; /* give the profiler a grace period to notice and write its files */
  }
  if (c->phase < 2) {
    c->phase = 2;
    uv_kill(-c->pgid, SIGTERM);
    return;
  }
  c->phase = 3;
  uv_kill(-c->pgid, SIGKILL);
}

static void on_stop_timer(uv_timer_t *t);

static void arm_next(child *c)
{
  if (!c->exited && c->phase < 3)
    uv_timer_start(&c->timer, on_stop_timer, (uint64_t)grace_ms(c), 0);
}

static void on_stop_timer(uv_timer_t *t)
{
  child *c = t->data;

  escalate(c);
  arm_next(c);
}

static void on_timeout(uv_timer_t *t)
{
  ((child *)t->data)->res->timed_out = 1;
  on_stop_timer(t);
}

void hp__child_stop_current(void)
{
  child *c = current;

  if (c == NULL || c->exited)
    return;
  c->res->interrupted = 1;
  /* A second request skips the remaining grace: the user wants out now. */
  if (c->phase >= 1 || c->res->timed_out)
    c->phase = 2;
  escalate(c);
  arm_next(c);
}

/* The last pipe reached EOF after the leader exited: nothing is left to wait for. */
static void on_output_eof(hp__output *o)
{
  child *c = o->data;

  if (c->exited && !c->out.open && !c->err.open)
    hp__exec_close((uv_handle_t *)&c->timer);
}

/* A process that left the group (setsid) could hold our pipes open forever after the leader
 * exited; we stop reading after a short drain period rather than hang. The leftovers were killed
 * by then, so this takes a process that does not die (uninterruptible sleep) or one we could not
 * find (started by another program for us); the caller is told. */
static void on_drain(uv_timer_t *t)
{
  child *c = t->data;

  c->res->output_cut = 1;
  hp__output_cut(&c->out);
  hp__output_cut(&c->err);
  hp__exec_close((uv_handle_t *)&c->timer);
}

/* Polls the leftovers sent SIGTERM at the leader's exit: done when they are gone, SIGKILL for
 * those still alive after the grace. */
static void on_left_timer(uv_timer_t *t)
{
  child *c = t->data;
  double ms = (double)(uv_hrtime() - c->left_t0) / 1e6;
  double grace = grace_ms(c) < LEFT_GRACE_MS ? grace_ms(c) : LEFT_GRACE_MS;

  if (hp__leftover_sweep(&c->left, 0, HP__LEFT_ESCAPED) == 0)
    hp__exec_close((uv_handle_t *)t);
  else if (ms >= grace) {
    hp__leftover_sweep(&c->left, SIGKILL, HP__LEFT_ESCAPED);
    hp__exec_close((uv_handle_t *)t);
  }
}

/* The leader's exit ends the run: whatever it left behind is stopped now, so it can neither hold
 * the pipes open nor keep the GPU busy. */
static void end_leftovers(child *c)
{
  /* Members of a group that was being stopped are part of the stop, not left behind. */
  c->left.count_members = c->phase == 0;
  c->left.since = c->proc.start;
  c->left.t0 = c->proc.t0;
  /* No process was created since the leader: there is nothing to look for (exec/spawn.c). */
  c->left.none = c->proc.alone;
  if (c->left.none) {
    hp__exec_close((uv_handle_t *)&c->left_timer);
    return;
  }
  /* Members die at once, while the group id cannot yet have been reused (they still hold it).
   * kill(-pgid, 0) fails with ESRCH when the group is empty, the common case: only then is the
   * /proc scan skipped. */
  if (kill(-c->pgid, 0) == 0)
    hp__leftover_sweep(&c->left, SIGKILL, HP__LEFT_MEMBERS);
  /* Processes that left the group get a SIGTERM and a short grace, like the run's own stop. */
  if (hp__leftover_sweep(&c->left, SIGTERM, HP__LEFT_ESCAPED) > 0) {
    c->left_t0 = uv_hrtime();
    uv_timer_start(&c->left_timer, on_left_timer, 50, 50);
  } else {
    hp__exec_close((uv_handle_t *)&c->left_timer);
  }
}

static void on_exit_cb(hp__proc *p, int64_t status, int sig)
{
  child *c = p->data;

  c->res->wall_ms = (double)(uv_hrtime() - c->t0) / 1e6;
  c->res->exit_status = status;
  c->res->term_signal = sig;
  end_leftovers(c);
  c->exited = 1;
  hp__sampler_stop(&c->sampler);
  uv_timer_stop(&c->rss_timer);
  hp__exec_close((uv_handle_t *)&c->rss_timer);
  uv_timer_stop(&c->vram_timer);
  hp__exec_close((uv_handle_t *)&c->vram_timer);
  hp__proc_close(p);
  if (c->out.open || c->err.open)
    uv_timer_start(&c->timer, on_drain, DRAIN_MS, 0);
  else
    hp__exec_close((uv_handle_t *)&c->timer);
}

static void child_init(child *c, const hp__child_spec *spec, hp__child_result *res)
{
  memset(res, 0, sizeof(*res));
  res->max_rss_kb = -1;
  res->stdout_size = -1;
  res->mem_mean_mib = res->mem_peak_mib = NAN;
  memset(c, 0, sizeof(*c));
  c->spec = spec;
  c->res = res;
  hp__output_init(&c->out);
  hp__output_init(&c->err);
  c->out.capture = spec->capture;
  c->out.echo = c->err.echo = spec->echo;
  c->out.prefix = c->err.prefix = spec->prefix ? spec->prefix : "";
  c->out.on_eof = c->err.on_eof = on_output_eof;
  c->out.data = c->err.data = c;
  hp__sampler_init(&c->sampler, spec->sampler_scale);
}

/* Creates the run's output files before anything starts, so a clash costs no run. */
static int create_files(child *c)
{
  const hp__child_spec *spec = c->spec;
  int d = spec->use_dirfd ? spec->dirfd : -1;

  if (hp__output_create(d, spec->stdout_path, &c->out.fd) != 0 ||
      hp__output_create(d, spec->stderr_path, &c->err.fd) != 0 ||
      (spec->sampler && hp__output_create(d, spec->sampler_path, &c->sampler.out.fd) != 0))
    return HP_EIO;
  return 0;
}

/* Whether base entry `e` is one of set's keys (then the set's entry replaces it). */
static int replaced(const char *e, const hp_kv *set, size_t nset)
{
  const char *eq = strchr(e, '=');
  size_t klen = eq ? (size_t)(eq - e) : strlen(e), j;

  for (j = 0; j < nset; j++)
    if (strlen(set[j].key) == klen && strncmp(set[j].key, e, klen) == 0)
      return 1;
  return 0;
}

/* Here rather than in env.c because the runner adds the session token with it, and env.c's
 * sourcing runs through the runner: env.c builds on this file, not the other way round. */
char **hp__env_overlay(char **base, const hp_kv *set, size_t nset)
{
  size_t n = 0, i, j, k = 0, bytes = 0, head;
  char **env, *p;

  if (base == NULL)
    base = environ;
  while (base[n])
    n++;
  for (j = 0; j < nset; j++)
    bytes += strlen(set[j].key) + strlen(set[j].value) + 2;
  head = (n + nset + 1) * sizeof(*env);
  if ((env = malloc(head + bytes)) == NULL)
    return NULL;
  p = (char *)env + head;
  for (i = 0; i < n; i++)
    if (!replaced(base[i], set, nset))
      env[k++] = base[i];
  for (j = 0; j < nset; j++) {
    size_t kl = strlen(set[j].key), vl = strlen(set[j].value);
    env[k++] = p;
    memcpy(p, set[j].key, kl);
    p[kl] = '=';
    memcpy(p + kl + 1, set[j].value, vl + 1);
    p += kl + vl + 2;
  }
  env[k] = NULL;
  return env;
}

/* Spawns the child with its stdout and stderr on pipes. On failure every handle opened here is
 * closed and the loop run until they are, so the caller's loop is left clean. */
static int spawn(child *c, uv_loop_t *loop)
{
  uv_process_options_t opts;
  uv_stdio_container_t stdio[3];
  const char *entry = hp__guard_token_entry();
  hp_kv token = {HP__TOKEN_VAR, entry ? (char *)entry + sizeof(HP__TOKEN_VAR) : NULL};
  int r;

  /* The token goes into every child's environment (replacing one it inherited from an outer
   * hprun): the run's processes carry it wherever they go. The spec's strings are not copied. */
  if (entry && (c->env = hp__env_overlay(c->spec->env, &token, 1)) == NULL)
    return HP_ENOMEM;
  memset(&opts, 0, sizeof(opts));
  hp__output_pipe_init(&c->out, loop);
  hp__output_pipe_init(&c->err, loop);
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[1].data.stream = (uv_stream_t *)&c->out.pipe;
  stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[2].data.stream = (uv_stream_t *)&c->err.pipe;
  opts.file = c->spec->argv->v[0];
  opts.args = c->spec->argv->v;
  opts.env = c->env ? c->env : c->spec->env;
  opts.cwd = c->spec->cwd;
  opts.flags = UV_PROCESS_DETACHED;
  opts.stdio_count = 3;
  opts.stdio = stdio;

  c->t0 = uv_hrtime();
  r = hp__proc_spawn(loop, &c->proc, &opts, on_exit_cb);
  c->proc.data = c;
  if (r) {
    /* Even a failed spawn leaves a handle to close (libuv's process.rst). */
    c->res->spawn_error = r;
    c->exited = 1;
    hp__proc_close(&c->proc);
    hp__exec_close((uv_handle_t *)&c->out.pipe);
    hp__exec_close((uv_handle_t *)&c->err.pipe);
    uv_run(loop, UV_RUN_DEFAULT);
    return HP_ESPAWN;
  }
  c->pgid = c->proc.pid;
  hp__guard_watch(c->pgid);
  /* The leader's start time, which the sweeps go by, is known at its exit (end_leftovers). */
  hp__leftover_init(&c->left, c->pgid, c->proc.start);
  hp__output_start(&c->out);
  hp__output_start(&c->err);
  return 0;
}

static void start_timers(child *c, uv_loop_t *loop)
{
  const hp__child_spec *spec = c->spec;
  uint64_t iv = spec->rss_interval_ms > 0 ? (uint64_t)spec->rss_interval_ms : 20;

  /* The loop's clock was last updated when the previous uv_run began: without this, the timers
   * would count from then, and the first RSS look (and a short timeout) would come at once. */
  uv_update_time(loop);
  uv_timer_init(loop, &c->timer);
  uv_timer_init(loop, &c->rss_timer);
  uv_timer_init(loop, &c->left_timer);
  uv_timer_init(loop, &c->vram_timer);
  c->timer.data = c->rss_timer.data = c->left_timer.data = c->vram_timer.data = c;
  if (spec->vram_file) {
    uint64_t viv = spec->vram_interval_ms >= 1 ? (uint64_t)spec->vram_interval_ms : 1;
    on_vram_timer(&c->vram_timer); /* one reading as the child starts */
    uv_timer_start(&c->vram_timer, on_vram_timer, viv, viv);
  }
  if (spec->timeout_s > 0)
    uv_timer_start(&c->timer, on_timeout, (uint64_t)llround(spec->timeout_s * 1000.0), 0);
  /* The first look comes early, so short runs are seen too; RUSAGE_CHILDREN covers the rest.
   * Each look arms the next (on_rss_timer), further apart as the run goes on. */
  c->rss_base_ms = c->rss_iv_ms = iv;
  uv_timer_start(&c->rss_timer, on_rss_timer, iv / 4 ? iv / 4 : 1, 0);
}

/* Keeps the first failure to write an output file; its path is the spec's. */
static void write_error(hp__child_result *res, const char *path, int err)
{
  if (err && !res->write_errno) {
    res->write_errno = err;
    res->write_path = path;
  }
}

/* After the loop: the sampler's readings, the last of what the run left behind, the output
 * files' errors and the kernel's peak RSS. Returns HP_EIO when an output file lost bytes. */
static int finish(child *c, long before_kb)
{
  hp__child_result *res = c->res;
  struct rusage ru;
  struct stat st;

  res->sampler_error = c->sampler.error;
  res->mem_samples = c->sampler.samples;
  res->mem_peak_mib = c->sampler.peak;
  if (c->sampler.samples > 0)
    res->mem_mean_mib = c->sampler.sum / (double)c->sampler.samples;
  /* The exit callback stopped what the leader left behind; this look catches what was still
   * dying, or was reparented to us only later, and reaps the orphans we adopted. */
  hp__leftover_finish(&c->left, LEFT_GRACE_MS);
  res->left_behind = (int)c->left.count;
  hp__guard_unwatch(c->pgid);
  if (c->sampler.proc.pid > 0 && c->sampler.error == 0)
    hp__guard_unwatch(c->sampler.proc.pid);
  /* Whatever wrote to it (the pipe's reader here, or anyone holding its name), the file's size
   * says whether there is anything to read back. */
  if (c->out.fd >= 0 && fstat(c->out.fd, &st) == 0)
    res->stdout_size = (long long)st.st_size;
  write_error(res, c->spec->stdout_path, hp__output_finish(&c->out));
  write_error(res, c->spec->stderr_path, hp__output_finish(&c->err));
  write_error(res, c->spec->sampler_path, hp__sampler_finish(&c->sampler));
  getrusage(RUSAGE_CHILDREN, &ru);
  if (ru.ru_maxrss > before_kb && ru.ru_maxrss > res->max_rss_kb)
    res->max_rss_kb = ru.ru_maxrss;
  /* The leader's own peak, however late it came (exec/spawn.h). It shared hprun's memory until
   * its exec, and the kernel records the memory an exec leaves in the peak, so a value up to
   * hprun's own peak may be hprun's: only one above it is the run's. */
  getrusage(RUSAGE_SELF, &ru);
  if (c->proc.maxrss_kb > ru.ru_maxrss && c->proc.maxrss_kb > res->max_rss_kb)
    res->max_rss_kb = c->proc.maxrss_kb;
  return res->write_errno ? HP_EIO : 0;
}

int hp__child_run(uv_loop_t *loop, const hp__child_spec *spec, hp__child_result *res)
{
  struct rusage ru;
  long before_kb;
  child c;
  int ret;

  hp__guard_start();
  child_init(&c, spec, res);
  getrusage(RUSAGE_CHILDREN, &ru);
  before_kb = ru.ru_maxrss;
  if ((ret = create_files(&c)) != 0 || (ret = spawn(&c, loop)) != 0)
    goto done;
  start_timers(&c, loop);
  if (spec->sampler && spec->sampler->n &&
      hp__sampler_start(&c.sampler, loop, spec->sampler, spec->env) == 0) {
    c.left.skip_pgid = c.sampler.proc.pid; /* its own group: stopped by the sampler code */
    hp__guard_watch(c.sampler.proc.pid);
  }

  current = &c;
  uv_run(loop, UV_RUN_DEFAULT);
  current = NULL;
  ret = finish(&c, before_kb);

done:
  hp__output_free(&c.out);
  hp__output_free(&c.err);
  hp__sampler_free(&c.sampler);
  free(c.env); /* hp__env_overlay's single allocation: its other strings are the spec's */
  return ret;
}

void hp__exec_shutdown(void)
{
  hp__guard_stop();
}
