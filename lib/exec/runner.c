/*
 * The child process: one at a time on a libuv loop.
 *
 * Each child is started with UV_PROCESS_DETACHED, so it leads a new session and process group;
 * everything it starts stays in that group, and a stop reaches all of it with uv_kill(-pgid, sig).
 * libuv owns SIGCHLD: we never wait(2) ourselves, and the process handle is closed only in its exit
 * callback. Its output is read by exec/output.c, its peak RSS read from /proc by exec/procfs.c,
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
 * any member still alive is killed, so no process is left behind. Contract: docs/internals/runner.md.
 */
#include "exec/runner.h"
#include "exec/output.h"
#include "exec/procfs.h"
#include "exec/sampler.h"
#include "util/buf.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

typedef struct child {
  const hp__child_spec *spec;
  hp__child_result *res;
  uv_process_t proc;
  uv_timer_t timer;     /* timeout, then the grace periods between stop phases, then the drain */
  uv_timer_t rss_timer; /* samples the group's peak RSS */
  hp__output out, err;
  hp__sampler sampler;
  int pgid;
  int exited;
  int phase; /* 0 running, 1 app signalled, 2 group SIGTERM, 3 group SIGKILL */
  uint64_t t0;
} child;

/* The child that Ctrl-C should stop. Runs are one at a time, so one pointer is enough. */
static child *current;

static void on_rss_timer(uv_timer_t *t)
{
  child *c = t->data;
  long kb;

  if (c->exited)
    return;
  kb = hp__proc_group_hwm_kb(c->pgid);
  if (kb > c->res->max_rss_kb)
    c->res->max_rss_kb = kb;
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
  child *c = t->data;

  c->res->timed_out = 1;
  escalate(c);
  arm_next(c);
}

void hp__child_stop_current(void)
{
  child *c = current;

  if (c == NULL || c->exited)
    return;
  c->res->interrupted = 1;
  /* A second request skips the remaining grace: the user wants out now. */
  if (c->phase >= 1 || c->res->timed_out) {
    c->phase = 2;
  }
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
 * exited; we stop reading after a short drain period rather than hang. */
static void on_drain(uv_timer_t *t)
{
  child *c = t->data;

  hp__output_cut(&c->out);
  hp__output_cut(&c->err);
  hp__exec_close((uv_handle_t *)&c->timer);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
  child *c = p->data;
  int pids[256];
  size_t i, n;

  c->res->wall_ms = (double)(uv_hrtime() - c->t0) / 1e6;
  c->res->exit_status = status;
  c->res->term_signal = sig;
  /* Members that outlive the leader would keep the pipes open and the GPU busy: end them now,
   * while the group id cannot yet have been reused (they still hold it). */
  /* kill(-pgid, 0) fails with ESRCH when the group is empty, the common case: only then is the
   * /proc scan skipped. */
  n = kill(-c->pgid, 0) == 0 ? hp__proc_group_members(c->pgid, pids, sizeof(pids) / sizeof(pids[0]))
                             : 0;
  for (i = 0; i < n; i++)
    uv_kill(pids[i], SIGKILL);
  c->exited = 1;
  hp__sampler_stop(&c->sampler);
  uv_timer_stop(&c->rss_timer);
  hp__exec_close((uv_handle_t *)&c->rss_timer);
  hp__exec_close((uv_handle_t *)p);
  if (c->out.open || c->err.open)
    uv_timer_start(&c->timer, on_drain, 2000, 0);
  else
    hp__exec_close((uv_handle_t *)&c->timer);
}

static void child_init(child *c, const hp__child_spec *spec, hp__child_result *res)
{
  memset(res, 0, sizeof(*res));
  res->max_rss_kb = -1;
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

  if (hp__output_create(spec->stdout_path, &c->out.fd) != 0)
    return HP_EIO;
  if (hp__output_create(spec->stderr_path, &c->err.fd) != 0)
    return HP_EIO;
  if (spec->sampler && hp__output_create(spec->sampler_path, &c->sampler.fd) != 0)
    return HP_EIO;
  return 0;
}

/* Spawns the child with its stdout and stderr on pipes. On failure every handle opened here is
 * closed and the loop run until they are, so the caller's loop is left clean. */
static int spawn(child *c, uv_loop_t *loop)
{
  uv_process_options_t opts;
  uv_stdio_container_t stdio[3];
  int r;

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
  opts.env = c->spec->env;
  opts.cwd = c->spec->cwd;
  opts.flags = UV_PROCESS_DETACHED;
  opts.stdio_count = 3;
  opts.stdio = stdio;
  opts.exit_cb = on_exit_cb;
  c->proc.data = c;

  c->t0 = uv_hrtime();
  r = uv_spawn(loop, &c->proc, &opts);
  if (r) {
    /* Even a failed spawn leaves a handle to close (libuv's process.rst). */
    c->res->spawn_error = r;
    c->exited = 1;
    hp__exec_close((uv_handle_t *)&c->proc);
    hp__exec_close((uv_handle_t *)&c->out.pipe);
    hp__exec_close((uv_handle_t *)&c->err.pipe);
    uv_run(loop, UV_RUN_DEFAULT);
    return HP_ESPAWN;
  }
  c->pgid = c->proc.pid;
  hp__output_start(&c->out);
  hp__output_start(&c->err);
  return 0;
}

static void start_timers(child *c, uv_loop_t *loop)
{
  const hp__child_spec *spec = c->spec;
  uint64_t iv = spec->rss_interval_ms > 0 ? (uint64_t)spec->rss_interval_ms : 20;

  uv_timer_init(loop, &c->timer);
  uv_timer_init(loop, &c->rss_timer);
  c->timer.data = c->rss_timer.data = c;
  if (spec->timeout_s > 0)
    uv_timer_start(&c->timer, on_timeout, (uint64_t)llround(spec->timeout_s * 1000.0), 0);
  /* The first look comes early, so short runs are seen too; RUSAGE_CHILDREN covers the rest. */
  uv_timer_start(&c->rss_timer, on_rss_timer, iv / 4 ? iv / 4 : 1, iv);
}

int hp__child_run(uv_loop_t *loop, const hp__child_spec *spec, hp__child_result *res)
{
  struct rusage ru;
  long before_kb;
  child c;
  int ret;

  child_init(&c, spec, res);
  getrusage(RUSAGE_CHILDREN, &ru);
  before_kb = ru.ru_maxrss;
  if ((ret = create_files(&c)) != 0 || (ret = spawn(&c, loop)) != 0)
    goto done;
  start_timers(&c, loop);
  if (spec->sampler && spec->sampler->n)
    hp__sampler_start(&c.sampler, loop, spec->sampler);

  current = &c;
  uv_run(loop, UV_RUN_DEFAULT);
  current = NULL;
  res->sampler_error = c.sampler.error;
  res->mem_samples = c.sampler.samples;
  res->mem_peak_mib = c.sampler.peak;
  if (c.sampler.samples > 0)
    res->mem_mean_mib = c.sampler.sum / (double)c.sampler.samples;

  /* The pipes reached EOF only when every process holding them ended; the exit callback killed
   * the stragglers, so by now the group is empty. */
  getrusage(RUSAGE_CHILDREN, &ru);
  if (ru.ru_maxrss > before_kb && ru.ru_maxrss > res->max_rss_kb)
    res->max_rss_kb = ru.ru_maxrss;

done:
  hp__output_free(&c.out);
  hp__output_free(&c.err);
  hp__sampler_free(&c.sampler);
  return ret;
}
