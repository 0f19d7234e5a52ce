/*
 * The device-memory sampler: a second process group that lives as long as the child. It starts
 * right after the child, so it never delays the start, and is stopped when the child exits.
 * Readings that arrive after the child ended describe nothing we ran and are ignored; the raw
 * output is still saved, so a user can see what the tool printed.
 */
#include "exec/sampler.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_line(hp__output *o, const char *line, size_t n);

void hp__sampler_init(hp__sampler *s, double scale)
{
  memset(s, 0, sizeof(*s));
  hp__output_init(&s->out);
  s->out.on_line = add_line;
  s->out.data = s;
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

void hp__sampler_add(hp__sampler *s, double mib)
{
  if (s->done)
    return;
  s->samples++;
  s->sum += mib;
  if (isnan(s->peak) || mib > s->peak)
    s->peak = mib;
}

int hp__sampler_read_vram(const char *path, double *mib)
{
  char buf[64], *end;
  ssize_t n;
  double v;
  int fd = open(path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return HP_EIO;
  n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0)
    return HP_EIO;
  buf[n] = '\0';
  v = strtod(buf, &end);
  if (end == buf)
    return HP_EIO;
  *mib = v / (1024.0 * 1024.0);
  return 0;
}

/* One line of the sampler's output (out.on_line): a reading, unless the child has ended. */
static void add_line(hp__output *o, const char *line, size_t n)
{
  double v;

  if (hp__sampler_reading(line, n, ((hp__sampler *)o->data)->scale, &v) == 0)
    hp__sampler_add(o->data, v);
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

int hp__sampler_start(hp__sampler *s, uv_loop_t *loop, const hp_strv *argv, char **env)
{
  uv_process_options_t o;
  uv_stdio_container_t io[3];
  int r;

  memset(&o, 0, sizeof(o));
  hp__output_pipe_init(&s->out, loop);
  io[0].flags = UV_IGNORE;
  io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  io[1].data.stream = (uv_stream_t *)&s->out.pipe;
  io[2].flags = UV_IGNORE;
  o.file = argv->v[0];
  o.args = argv->v;
  o.env = env; /* the run's, so a tool that env_script puts on PATH finds its libraries */
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
    hp__exec_close((uv_handle_t *)&s->out.pipe);
    hp__exec_close((uv_handle_t *)&s->kill_timer);
    return HP_ESPAWN;
  }
  s->running = 1;
  hp__output_start(&s->out);
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
  return hp__output_finish(&s->out);
}

void hp__sampler_free(hp__sampler *s)
{
  if (s != NULL)
    hp__output_free(&s->out);
}
