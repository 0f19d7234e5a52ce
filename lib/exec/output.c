/*
 * A child's output: each of its stdout and stderr comes through a pipe, so the same bytes can be
 * saved to the run's folder, collected for the caller and shown live with a prefix such as
 * "[stats 2] ". Echo works on whole lines, so the output of a run stays readable next to hprun's
 * own messages; a partial line waits for its newline, or for EOF, and a line longer than
 * HP__OUTPUT_LINE_MAX is handed on in pieces of that size, so memory stays bounded.
 */
#include "exec/output.h"
#include "util/base/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void hp__exec_close(uv_handle_t *h)
{
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

void hp__output_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
  static char slab[65536];

  (void)h;
  (void)suggested;
  buf->base = slab;
  buf->len = sizeof(slab);
}

int hp__output_create(int dirfd, const char *path, int *fd)
{
  const char *name = path ? strrchr(path, '/') : NULL;

  *fd = -1;
  if (path == NULL)
    return 0;
  /* O_EXCL: a run folder is new, so an existing file means something is wrong; never overwrite. */
  if (dirfd < 0)
    *fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  else
    *fd = openat(dirfd, name ? name + 1 : path,
                 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  return *fd < 0 ? HP_EIO : 0;
}

int hp__output_write(int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return errno ? errno : EIO;
    if (w == 0)
      return EIO; /* write(2) makes no progress only on errors it does not name */
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

void hp__output_init(hp__output *o)
{
  memset(o, 0, sizeof(*o));
  o->fd = -1;
}

int hp__output_pipe_init(hp__output *o, uv_loop_t *loop)
{
  int r = uv_pipe_init(loop, &o->pipe, 0);

  o->pipe.data = o;
  return r;
}

/* The complete line in o->line goes to the echo, behind the prefix, and to on_line. */
static void line_out(hp__output *o)
{
  if (o->echo)
    fprintf(o->echo, "%s%.*s\n", o->prefix ? o->prefix : "", (int)o->line.len,
            o->line.data ? o->line.data : "");
  if (o->on_line && o->line.data)
    o->on_line(o, o->line.data, o->line.len);
  hp__buf_reset(&o->line);
}

/* Adds p[0..n) to the partial line. A line never holds more than HP__OUTPUT_LINE_MAX bytes: once it
 * is full and more of it comes, the full piece is handed on as a line of its own. An app that
 * prints a gigabyte without a newline would otherwise keep all of it in memory, only for the
 * echo (the saved file gets every byte as it comes either way). */
static void add_part(hp__output *o, const char *p, size_t n)
{
  while (n > 0) {
    size_t take;

    if (o->line.len >= HP__OUTPUT_LINE_MAX)
      line_out(o);
    take = HP__OUTPUT_LINE_MAX - o->line.len;
    take = take < n ? take : n;
    hp__buf_add(&o->line, p, take);
    p += take;
    n -= take;
  }
}

/* Hands on every complete line; keeps a partial one for later, which at EOF is echoed only. */
static void take_lines(hp__output *o, const char *p, size_t n, int eof)
{
  size_t i, start = 0;

  if (o->echo == NULL && o->on_line == NULL)
    return;
  for (i = 0; i < n; i++) {
    if (p[i] != '\n')
      continue;
    add_part(o, p + start, i - start);
    line_out(o);
    start = i + 1;
  }
  if (start < n)
    add_part(o, p + start, n - start);
  if (eof && o->line.len && o->echo)
    fprintf(o->echo, "%s%s\n", o->prefix ? o->prefix : "", o->line.data);
  if (eof)
    hp__buf_reset(&o->line);
  if (o->echo)
    fflush(o->echo);
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
  hp__output *o = st->data;

  if (nread > 0) {
    if (o->fd >= 0 && (o->werr = hp__output_write(o->fd, buf->base, (size_t)nread)) != 0) {
      /* The file is short from here on; writing more after a gap would hide that. */
      close(o->fd);
      o->fd = -1;
    }
    if (o->capture)
      hp__buf_add(o->capture, buf->base, (size_t)nread);
    take_lines(o, buf->base, (size_t)nread, 0);
    return;
  }
  if (nread < 0) {
    /* EOF (or an error): every writer of this pipe is gone. */
    take_lines(o, NULL, 0, 1);
    o->open = 0;
    hp__exec_close((uv_handle_t *)&o->pipe);
    if (o->on_eof)
      o->on_eof(o);
  }
}

int hp__output_start(hp__output *o)
{
  o->open = 1;
  return uv_read_start((uv_stream_t *)&o->pipe, hp__output_alloc, on_read);
}

void hp__output_cut(hp__output *o)
{
  if (o->open)
    hp__exec_close((uv_handle_t *)&o->pipe);
  o->open = 0;
}

int hp__output_finish(hp__output *o)
{
  if (o->fd >= 0 && close(o->fd) != 0 && o->werr == 0)
    o->werr = errno;
  o->fd = -1;
  return o->werr;
}

void hp__output_free(hp__output *o)
{
  if (o == NULL)
    return;
  if (o->fd >= 0)
    close(o->fd);
  o->fd = -1;
  hp__buf_free(&o->line);
}
