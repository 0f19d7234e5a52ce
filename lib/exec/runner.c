/*
 * The runner: one child process at a time on a libuv loop.
 *
 * Each child is started with UV_PROCESS_DETACHED, so it leads a new session and process group;
 * everything it starts stays in that group, and a stop reaches all of it with uv_kill(-pgid, sig).
 * libuv owns SIGCHLD: we never wait(2) ourselves, and the process handle is closed only in its exit
 * callback. The child's stdout and stderr come through pipes so they can be saved to the run's
 * folder and, at the same time, shown live with a prefix.
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
#include "util/buf.h"
#include "util/strv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

typedef struct child_stream {
  uv_pipe_t pipe;
  int fd;       /* the file it is saved to, or -1 */
  hp__buf line; /* a partial line waiting for its newline (echo only) */
  hp__buf *capture;
  struct child *c;
  int open;
} child_stream;

typedef struct child {
  const hp__child_spec *spec;
  hp__child_result *res;
  uv_loop_t *loop;
  uv_process_t proc;
  uv_timer_t timer;     /* timeout, then the grace periods between stop phases */
  uv_timer_t rss_timer; /* samples the group's peak RSS */
  child_stream out, err;
  /* The device-memory sampler: a second process group that lives as long as the child. */
  uv_process_t sproc;
  uv_pipe_t spipe;
  uv_timer_t stimer;
  hp__buf sline;
  int sfd;
  int sampling; /* the sampler's process is running */
  double ssum;
  int pgid;
  int exited;
  int phase; /* 0 running, 1 app signalled, 2 group SIGTERM, 3 group SIGKILL */
  uint64_t t0;
} child;

/* The child that Ctrl-C should stop. Runs are one at a time, so one pointer is enough. */
static child *current;

/* Every handle lives in the `child` on hp__child_run's stack, which returns only when uv_run has
 * nothing left, i.e. after every close has completed: no close callback is needed. */
static void close_handle(uv_handle_t *h)
{
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

/* Lists the live members of process group `pgid`, leader excluded, by reading /proc. Returns the
 * number found (up to max). */
static size_t group_members(int pgid, int *pids, size_t max)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  size_t n = 0;

  if (d == NULL)
    return 0;
  while ((e = readdir(d)) != NULL && n < max) {
    char path[64], buf[512], *p;
    int pid, pgrp = -1, fd;
    ssize_t len;

    pid = atoi(e->d_name);
    if (pid <= 0 || pid == pgid)
      continue;
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0)
      continue;
    buf[len] = '\0';
    /* The command name may hold spaces and parentheses: fields start after the last ')'. */
    p = strrchr(buf, ')');
    if (p && sscanf(p + 1, " %*c %*d %d", &pgrp) == 1 && pgrp == pgid)
      pids[n++] = pid;
  }
  closedir(d);
  return n;
}

/* Peak RSS (VmHWM, kB) of one process, or -1. */
static long proc_hwm_kb(int pid)
{
  char path[64], buf[4096], *p;
  long kb = -1;
  ssize_t len;
  int fd;

  snprintf(path, sizeof(path), "/proc/%d/status", pid);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  len = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (len <= 0)
    return -1;
  buf[len] = '\0';
  p = strstr(buf, "VmHWM:");
  if (p)
    kb = strtol(p + 6, NULL, 10);
  return kb;
}

/* Lists the descendants of `pid` through /proc/<pid>/task/<tid>/children, which costs a few reads
 * per process instead of a scan of every process on the machine. Returns -1 when the kernel has
 * no such files (CONFIG_PROC_CHILDREN off), so the caller can fall back to the full scan. */
static long descendants(int pid, int *pids, size_t max)
{
  size_t head = 0, n = 0;
  int cur = pid;

  for (;;) {
    char path[64];
    DIR *d;
    struct dirent *e;
    snprintf(path, sizeof(path), "/proc/%d/task", cur);
    if ((d = opendir(path)) != NULL) {
      while ((e = readdir(d)) != NULL && n < max) {
        char cpath[320], buf[1024], *p, *end;
        ssize_t len;
        int fd;
        if (e->d_name[0] == '.')
          continue;
        snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children", cur, e->d_name);
        fd = open(cpath, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
          if (errno == ENOENT && cur == pid && n == 0) {
            closedir(d);
            return -1;
          }
          continue;
        }
        len = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (len <= 0)
          continue;
        buf[len] = '\0';
        for (p = buf; n < max; p = end) {
          long v = strtol(p, &end, 10);
          if (end == p)
            break;
          pids[n++] = (int)v;
        }
      }
      closedir(d);
    }
    if (head >= n)
      break;
    cur = pids[head++];
  }
  return (long)n;
}

static void sample_rss(child *c)
{
  int pids[256];
  long i, n;
  long kb;

  if (c->exited)
    return;
  kb = proc_hwm_kb(c->pgid);
  if (kb > c->res->max_rss_kb)
    c->res->max_rss_kb = kb;
  n = descendants(c->pgid, pids, sizeof(pids) / sizeof(pids[0]));
  if (n < 0)
    n = (long)group_members(c->pgid, pids, sizeof(pids) / sizeof(pids[0]));
  for (i = 0; i < n; i++) {
    kb = proc_hwm_kb(pids[i]);
    if (kb > c->res->max_rss_kb)
      c->res->max_rss_kb = kb;
  }
}

static void on_rss_timer(uv_timer_t *t)
{
  sample_rss(t->data);
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
    n = group_members(c->pgid, pids, sizeof(pids) / sizeof(pids[0]));
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

static void write_all(int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

/* Shows complete lines live, each behind the run's prefix; keeps a partial line for later. */
static void echo_lines(child_stream *s, const char *p, size_t n, int flush)
{
  FILE *fp = s->c->spec->echo;
  const char *prefix = s->c->spec->prefix ? s->c->spec->prefix : "";
  size_t i, start = 0;

  if (fp == NULL)
    return;
  for (i = 0; i < n; i++) {
    if (p[i] != '\n')
      continue;
    fprintf(fp, "%s%.*s%.*s\n", prefix, (int)s->line.len, s->line.data ? s->line.data : "",
            (int)(i - start), p + start);
    hp__buf_reset(&s->line);
    start = i + 1;
  }
  if (start < n)
    hp__buf_add(&s->line, p + start, n - start);
  if (flush && s->line.len) {
    fprintf(fp, "%s%s\n", prefix, s->line.data);
    hp__buf_reset(&s->line);
  }
  fflush(fp);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
  static char slab[65536];

  (void)h;
  (void)suggested;
  buf->base = slab;
  buf->len = sizeof(slab);
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  child_stream *s = st->data;

  if (nread > 0) {
    if (s->fd >= 0)
      write_all(s->fd, buf->base, (size_t)nread);
    if (s->capture)
      hp__buf_add(s->capture, buf->base, (size_t)nread);
    echo_lines(s, buf->base, (size_t)nread, 0);
    return;
  }
  if (nread < 0) {
    /* EOF (or an error): every writer of this pipe is gone. */
    echo_lines(s, NULL, 0, 1);
    s->open = 0;
    close_handle((uv_handle_t *)&s->pipe);
    if (s->c->exited && !s->c->out.open && !s->c->err.open)
      close_handle((uv_handle_t *)&s->c->timer);
  }
}

/* A process that left the group (setsid) could hold our pipes open forever after the leader
 * exited; we stop reading after a short drain period rather than hang. */
static void on_drain(uv_timer_t *t)
{
  child *c = t->data;

  if (c->out.open)
    close_handle((uv_handle_t *)&c->out.pipe);
  if (c->err.open)
    close_handle((uv_handle_t *)&c->err.pipe);
  c->out.open = c->err.open = 0;
  close_handle((uv_handle_t *)&c->timer);
}

/* One reading per line: the line's last number, so `nvidia-smi` ("2048") and `rocm-smi --csv`
 * ("card0,<total>,<used>") both work. Lines without a number (headers) are skipped. */
static void sampler_line(child *c, const char *line, size_t n)
{
  const char *p = line + n, *end;
  double v;

  while (p > line && !(p[-1] >= '0' && p[-1] <= '9'))
    p--;
  end = p;
  while (p > line && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
    p--;
  if (end == p)
    return;
  v = strtod(p, NULL) * (c->spec->sampler_scale > 0 ? c->spec->sampler_scale : 1.0);
  if (c->exited)
    return; /* readings after the child ended describe nothing we ran */
  c->res->mem_samples++;
  c->ssum += v;
  if (isnan(c->res->mem_peak_mib) || v > c->res->mem_peak_mib)
    c->res->mem_peak_mib = v;
}

static void on_sampler_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  child *c = st->data;
  const char *p, *nl;
  size_t n;

  if (nread < 0) {
    close_handle((uv_handle_t *)&c->spipe);
    return;
  }
  if (c->sfd >= 0 && nread > 0)
    write_all(c->sfd, buf->base, (size_t)nread);
  p = buf->base;
  n = (size_t)nread;
  while (n > 0 && (nl = memchr(p, '\n', n)) != NULL) {
    hp__buf_add(&c->sline, p, (size_t)(nl - p));
    if (c->sline.data)
      sampler_line(c, c->sline.data, c->sline.len);
    hp__buf_reset(&c->sline);
    n -= (size_t)(nl - p) + 1;
    p = nl + 1;
  }
  if (n)
    hp__buf_add(&c->sline, p, n);
}

static void on_sampler_exit(uv_process_t *p, int64_t status, int sig)
{
  child *c = p->data;

  c->sampling = 0;
  uv_timer_stop(&c->stimer);
  close_handle((uv_handle_t *)&c->stimer);
  close_handle((uv_handle_t *)p);
}

static void on_sampler_kill(uv_timer_t *t)
{
  child *c = t->data;

  if (c->sampling)
    uv_kill(-c->sproc.pid, SIGKILL);
}

/* Starts the sampler in its own process group, after the child, so it never delays the start. */
static void start_sampler(child *c)
{
  uv_process_options_t o;
  uv_stdio_container_t io[3];
  int r;

  memset(&o, 0, sizeof(o));
  uv_pipe_init(c->loop, &c->spipe, 0);
  c->spipe.data = c;
  io[0].flags = UV_IGNORE;
  io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  io[1].data.stream = (uv_stream_t *)&c->spipe;
  io[2].flags = UV_IGNORE;
  o.file = c->spec->sampler->v[0];
  o.args = c->spec->sampler->v;
  o.flags = UV_PROCESS_DETACHED;
  o.stdio_count = 3;
  o.stdio = io;
  o.exit_cb = on_sampler_exit;
  c->sproc.data = c;
  uv_timer_init(c->loop, &c->stimer);
  c->stimer.data = c;
  r = uv_spawn(c->loop, &c->sproc, &o);
  if (r) {
    c->res->sampler_error = r;
    close_handle((uv_handle_t *)&c->sproc);
    close_handle((uv_handle_t *)&c->spipe);
    close_handle((uv_handle_t *)&c->stimer);
    return;
  }
  c->sampling = 1;
  uv_read_start((uv_stream_t *)&c->spipe, on_alloc, on_sampler_read);
}

static void stop_sampler(child *c)
{
  if (!c->sampling)
    return;
  uv_kill(-c->sproc.pid, SIGTERM);
  uv_timer_start(&c->stimer, on_sampler_kill, 1000, 0);
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
  n = kill(-c->pgid, 0) == 0 ? group_members(c->pgid, pids, sizeof(pids) / sizeof(pids[0])) : 0;
  for (i = 0; i < n; i++)
    uv_kill(pids[i], SIGKILL);
  c->exited = 1;
  stop_sampler(c);
  uv_timer_stop(&c->rss_timer);
  close_handle((uv_handle_t *)&c->rss_timer);
  close_handle((uv_handle_t *)p);
  if (c->out.open || c->err.open)
    uv_timer_start(&c->timer, on_drain, 2000, 0);
  else
    close_handle((uv_handle_t *)&c->timer);
}

static int open_out(const char *path)
{
  if (path == NULL)
    return -1;
  /* O_EXCL: a run folder is new, so an existing file means something is wrong; never overwrite. */
  return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
}

int hp__child_run(uv_loop_t *loop, const hp__child_spec *spec, hp__child_result *res)
{
  uv_process_options_t opts;
  uv_stdio_container_t stdio[3];
  struct rusage ru;
  long before_kb;
  child c;
  int r, ret = 0;

  memset(res, 0, sizeof(*res));
  res->max_rss_kb = -1;
  res->mem_mean_mib = res->mem_peak_mib = NAN;
  memset(&c, 0, sizeof(c));
  memset(&opts, 0, sizeof(opts));
  c.spec = spec;
  c.res = res;
  c.loop = loop;
  c.out.fd = c.err.fd = c.sfd = -1;
  c.out.c = c.err.c = &c;
  c.out.capture = spec->capture;

  getrusage(RUSAGE_CHILDREN, &ru);
  before_kb = ru.ru_maxrss;

  if (spec->stdout_path && (c.out.fd = open_out(spec->stdout_path)) < 0) {
    ret = HP_EIO;
    goto done;
  }
  if (spec->stderr_path && (c.err.fd = open_out(spec->stderr_path)) < 0) {
    ret = HP_EIO;
    goto done;
  }
  if (spec->sampler && spec->sampler_path && (c.sfd = open_out(spec->sampler_path)) < 0) {
    ret = HP_EIO;
    goto done;
  }

  uv_pipe_init(loop, &c.out.pipe, 0);
  uv_pipe_init(loop, &c.err.pipe, 0);
  c.out.pipe.data = &c.out;
  c.err.pipe.data = &c.err;
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[1].data.stream = (uv_stream_t *)&c.out.pipe;
  stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[2].data.stream = (uv_stream_t *)&c.err.pipe;

  opts.file = spec->argv->v[0];
  opts.args = spec->argv->v;
  opts.env = spec->env;
  opts.cwd = spec->cwd;
  opts.flags = UV_PROCESS_DETACHED;
  opts.stdio_count = 3;
  opts.stdio = stdio;
  opts.exit_cb = on_exit_cb;
  c.proc.data = &c;

  c.t0 = uv_hrtime();
  r = uv_spawn(loop, &c.proc, &opts);
  if (r) {
    /* Even a failed spawn leaves a handle to close (libuv's process.rst). */
    res->spawn_error = r;
    c.exited = 1;
    close_handle((uv_handle_t *)&c.proc);
    close_handle((uv_handle_t *)&c.out.pipe);
    close_handle((uv_handle_t *)&c.err.pipe);
    uv_run(loop, UV_RUN_DEFAULT);
    ret = HP_ESPAWN;
    goto done;
  }
  c.pgid = c.proc.pid;
  c.out.open = c.err.open = 1;
  uv_read_start((uv_stream_t *)&c.out.pipe, on_alloc, on_read);
  uv_read_start((uv_stream_t *)&c.err.pipe, on_alloc, on_read);

  uv_timer_init(loop, &c.timer);
  uv_timer_init(loop, &c.rss_timer);
  c.timer.data = c.rss_timer.data = &c;
  if (spec->timeout_s > 0)
    uv_timer_start(&c.timer, on_timeout, (uint64_t)llround(spec->timeout_s * 1000.0), 0);
  {
    uint64_t iv = spec->rss_interval_ms > 0 ? (uint64_t)spec->rss_interval_ms : 20;
    /* The first look comes early, so short runs are seen too; RUSAGE_CHILDREN covers the rest. */
    uv_timer_start(&c.rss_timer, on_rss_timer, iv / 4 ? iv / 4 : 1, iv);
  }

  if (spec->sampler && spec->sampler->n)
    start_sampler(&c);

  current = &c;
  uv_run(loop, UV_RUN_DEFAULT);
  current = NULL;
  if (res->mem_samples > 0)
    res->mem_mean_mib = c.ssum / (double)res->mem_samples;

  /* The pipes reached EOF only when every process holding them ended; the exit callback killed
   * the stragglers, so by now the group is empty. */
  getrusage(RUSAGE_CHILDREN, &ru);
  if (ru.ru_maxrss > before_kb && ru.ru_maxrss > res->max_rss_kb)
    res->max_rss_kb = ru.ru_maxrss;

done:
  if (c.out.fd >= 0)
    close(c.out.fd);
  if (c.err.fd >= 0)
    close(c.err.fd);
  if (c.sfd >= 0)
    close(c.sfd);
  hp__buf_free(&c.sline);
  hp__buf_free(&c.out.line);
  hp__buf_free(&c.err.line);
  return ret;
}

char **hp__env_build(char **base, const hp_kv *set, size_t nset)
{
  size_t n = 0, i, j, k = 0;
  char **env;

  if (base == NULL)
    base = environ;
  while (base[n])
    n++;
  env = calloc(n + nset + 1, sizeof(*env));
  if (env == NULL)
    return NULL;
  for (i = 0; i < n; i++) {
    const char *eq = strchr(base[i], '=');
    size_t klen = eq ? (size_t)(eq - base[i]) : strlen(base[i]);
    for (j = 0; j < nset; j++)
      if (strlen(set[j].key) == klen && strncmp(set[j].key, base[i], klen) == 0)
        break;
    if (j < nset)
      continue; /* replaced below */
    if ((env[k++] = hp__strdup(base[i])) == NULL)
      goto fail;
  }
  for (j = 0; j < nset; j++)
    if ((env[k++] = hp__asprintf("%s=%s", set[j].key, set[j].value)) == NULL)
      goto fail;
  env[k] = NULL;
  return env;

fail:
  hp__env_free(env);
  return NULL;
}

void hp__env_free(char **env)
{
  size_t i;

  if (env == NULL)
    return;
  for (i = 0; env[i]; i++)
    free(env[i]);
  free(env);
}

int hp__env_from_script(uv_loop_t *loop, const char *script, char ***out, hp_diags *diags)
{
  hp__buf cap = HP__BUF_INIT;
  hp_strv argv = {NULL, 0};
  hp__child_spec spec;
  hp__child_result res;
  size_t n = 0, i;
  char **env = NULL;
  const char *p, *end;
  int r;

  *out = NULL;
  /* `env -0` separates entries with NUL, so values holding newlines survive. The script's own
   * output goes to stderr so it cannot be mistaken for the environment. */
  r = hp__strv_push(&argv, "/bin/sh");
  r |= hp__strv_push(&argv, "-c");
  r |= hp__strv_push(&argv, "set +u; . \"$1\" 1>&2 || exit 97; exec env -0");
  r |= hp__strv_push(&argv, "hprun-env");
  r |= hp__strv_push(&argv, script);
  if (r) {
    r = HP_ENOMEM;
    goto fail;
  }
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.capture = &cap;
  spec.timeout_s = 60;
  r = hp__child_run(loop, &spec, &res);
  if (r || res.exit_status != 0 || res.term_signal || cap.len == 0) {
    hp_diags_add(diags, HP_DIAG_ERROR, script, 0, 0,
                 "sourcing the profiler's env_script in /bin/sh failed (%s)",
                 r                           ? hp_strerror(r)
                     : res.timed_out         ? "timed out after 60 s"
                     : res.exit_status == 97 ? "the script returned an error"
                                             : "no environment");
    r = HP_EIO;
    goto fail;
  }
  for (p = cap.data; p < cap.data + cap.len; p += strlen(p) + 1)
    n++;
  env = calloc(n + 1, sizeof(*env));
  if (env == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  end = cap.data + cap.len;
  for (i = 0, p = cap.data; p < end && i < n; p += strlen(p) + 1)
    if ((env[i++] = hp__strdup(p)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
  *out = env;
  env = NULL;
  r = 0;

fail:
  hp__env_free(env);
  hp_strv_free(&argv);
  hp__buf_free(&cap);
  return r;
}
