/*
 * The device-memory sampler: a second process group that lives as long as the child. It starts
 * right after the child, so it never delays the start, and is stopped when the child exits.
 * Readings that arrive after the child ended describe nothing we ran and are ignored; the raw
 * output is still saved, so a user can see what the tool printed.
 */
#include "exec/sampler.h"
#include "exec/output.h"
#include "util/base/buf.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hp__sampler_init(hp__sampler *s, double scale)
{
  memset(s, 0, sizeof(*s));
  s->fd = -1;
  s->scale = scale;
  s->peak = NAN;
}

int hp__sampler_reading(const char *line, size_t n, double scale, double *mib)
{
  const char *p = line + n, *end;

  while (p > line && !(p[-1] >= '0' && p[-1] <= '9'))
    p--;
  end = p;
  while (p > line && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
    p--;
  if (end == p)
    return HP_EPARSE;
  *mib = strtod(p, NULL) * (scale > 0 ? scale : 1.0);
  return 0;
}

static void add_line(hp__sampler *s, const char *line, size_t n)
{
  double v;

  if (hp__sampler_reading(line, n, s->scale, &v) != 0 || s->done)
    return;
  s->samples++;
  s->sum += v;
  if (isnan(s->peak) || v > s->peak)
    s->peak = v;
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  hp__sampler *s = st->data;
  const char *p, *nl;
  size_t n;

  if (nread < 0) {
    hp__exec_close((uv_handle_t *)&s->pipe);
    return;
  }
  if (s->fd >= 0 && nread > 0 && (s->werr = hp__output_write(s->fd, buf->base, (size_t)nread))) {
    close(s->fd);
    s->fd = -1;
  }
  p = buf->base;
  n = (size_t)nread;
  while (n > 0 && (nl = memchr(p, '\n', n)) != NULL) {
    hp__buf_add(&s->line, p, (size_t)(nl - p));
    if (s->line.data)
      add_line(s, s->line.data, s->line.len);
    hp__buf_reset(&s->line);
    n -= (size_t)(nl - p) + 1;
    p = nl + 1;
  }
  if (n)
    hp__buf_add(&s->line, p, n);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
  hp__sampler *s = p->data;

  (void)status;
  (void)sig;
  s->running = 0;
  uv_timer_stop(&s->kill_timer);
  hp__exec_close((uv_handle_t *)&s->kill_timer);
  hp__exec_close((uv_handle_t *)p);
}

static void on_kill_timer(uv_timer_t *t)
{
  hp__sampler *s = t->data;

  if (s->running)
    uv_kill(-s->proc.pid, SIGKILL);
}

int hp__sampler_start(hp__sampler *s, uv_loop_t *loop, const hp_strv *argv)
{
  uv_process_options_t o;
  uv_stdio_container_t io[3];
  int r;

  memset(&o, 0, sizeof(o));
  uv_pipe_init(loop, &s->pipe, 0);
  s->pipe.data = s;
  io[0].flags = UV_IGNORE;
  io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  io[1].data.stream = (uv_stream_t *)&s->pipe;
  io[2].flags = UV_IGNORE;
  o.file = argv->v[0];
  o.args = argv->v;
  o.flags = UV_PROCESS_DETACHED; /* its own group, so a stop reaches every process it started */
  o.stdio_count = 3;
  o.stdio = io;
  o.exit_cb = on_exit_cb;
  s->proc.data = s;
  uv_timer_init(loop, &s->kill_timer);
  s->kill_timer.data = s;
  r = uv_spawn(loop, &s->proc, &o);
  if (r) {
    /* Even a failed spawn leaves a handle to close (libuv's process.rst). */
    s->error = r;
    hp__exec_close((uv_handle_t *)&s->proc);
    hp__exec_close((uv_handle_t *)&s->pipe);
    hp__exec_close((uv_handle_t *)&s->kill_timer);
    return HP_ESPAWN;
  }
  s->running = 1;
  uv_read_start((uv_stream_t *)&s->pipe, hp__output_alloc, on_read);
  return 0;
}

void hp__sampler_stop(hp__sampler *s)
{
  s->done = 1;
  if (!s->running)
    return;
  uv_kill(-s->proc.pid, SIGTERM);
  uv_timer_start(&s->kill_timer, on_kill_timer, 1000, 0);
}

int hp__sampler_finish(hp__sampler *s)
{
  if (s->fd >= 0 && close(s->fd) != 0 && s->werr == 0)
    s->werr = errno;
  s->fd = -1;
  return s->werr;
}

void hp__sampler_free(hp__sampler *s)
{
  if (s == NULL)
    return;
  if (s->fd >= 0)
    close(s->fd);
  s->fd = -1;
  hp__buf_free(&s->line);
}
