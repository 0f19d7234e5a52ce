/*
 * A child's output (lib/exec/output.c), exec-internal: callers outside lib/exec include
 * exec/runner.h only. One hp__output reads one pipe of a child and, at the same time, saves the
 * bytes to a file, collects them into a buffer and echoes them line by line behind a prefix.
 * Also the small libuv helpers every exec file shares (the read slab, handle closing).
 *
 * The hp__output struct is the caller's (usually on the runner's stack); the caller sets its
 * fields after hp__output_init and frees it with hp__output_free once the loop has closed its
 * pipe. The capture buffer, echo stream and prefix stay the caller's.
 */
#ifndef HPRUN_EXEC_OUTPUT_H
#define HPRUN_EXEC_OUTPUT_H

#include "util/base/buf.h"
#include <stdio.h>
#include <uv.h>

/* The longest line that is echoed or handed to on_line whole; a longer one comes in pieces of
 * this many bytes, each as a line of its own (docs/internals/runner.md). */
#define HP__OUTPUT_LINE_MAX 65536

typedef struct hp__output hp__output;

/* Called once the pipe reached EOF (every writer is gone) and its handle is closing. */
typedef void (*hp__output_eof_cb)(hp__output *o);
/* Called with each complete line, without its newline (NUL-terminated, n bytes). */
typedef void (*hp__output_line_cb)(hp__output *o, const char *line, size_t n);

struct hp__output {
  uv_pipe_t pipe;
  int fd;             /* the file the bytes are saved to, or -1 */
  hp__buf *capture;   /* if set, the bytes are collected here too */
  FILE *echo;         /* live copy, complete lines behind `prefix`; NULL: quiet */
  const char *prefix; /* never NULL when echo is set */
  hp__buf line;       /* a partial line waiting for its newline (echo and on_line only), at
                       * most HP__OUTPUT_LINE_MAX bytes */
  int open;           /* the pipe is being read: no EOF yet, not cut */
  int werr;           /* errno of the first failed write of the file (then closed), or 0 */
  hp__output_eof_cb on_eof;
  hp__output_line_cb on_line; /* NULL: lines are not handed on */
  void *data;                 /* the caller's, for on_eof and on_line */
};

/* Empties *o: no file, no capture, no echo, pipe not initialised. */
void hp__output_init(hp__output *o);
/* Initialises o->pipe on `loop`, ready to be handed to uv_spawn as a UV_CREATE_PIPE. */
int hp__output_pipe_init(hp__output *o, uv_loop_t *loop);
/* Starts reading the pipe (after a successful uv_spawn). */
int hp__output_start(hp__output *o);
/* Stops reading and closes the pipe without waiting for EOF; a partial echo line is dropped. */
void hp__output_cut(hp__output *o);
/* Closes the saved file. Returns 0, or the errno of its first failed write or of the close (a
 * file system may report a full disk only then): the file lacks bytes the child wrote. */
int hp__output_finish(hp__output *o);
/* Closes the saved file (if hp__output_finish did not) and frees the partial line. Accepts
 * NULL. */
void hp__output_free(hp__output *o);

/* Creates `path` for a run's output: *fd is the new descriptor (O_CLOEXEC), or -1 when path is
 * NULL. With an open folder `dirfd` (>= 0) the file is made there, by the last component of
 * `path`, never through a link (openat with O_NOFOLLOW). HP_EIO when it cannot be created, which
 * includes when it exists already: a run folder is new, so an existing file means something is
 * wrong, and nothing is ever overwritten. */
int hp__output_create(int dirfd, const char *path, int *fd);
/* Writes all of p to fd, retrying on EINTR. Returns 0, or the errno of a failed write (ENOSPC,
 * EFBIG, EIO, ...): the caller records it and stops writing that file, while the run goes on
 * (the run itself matters more than its copy, but the copy's loss must be reported). */
int hp__output_write(int fd, const char *p, size_t n);

/* The uv_alloc_cb of every exec pipe: one static slab, which is safe because the loop is single
 * threaded and each read callback consumes its bytes before returning. */
void hp__output_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
/* Closes a handle unless it is already closing. Every exec handle lives on hp__child_run's stack,
 * which returns only when uv_run has nothing left, i.e. after every close has completed: no close
 * callback is needed. */
void hp__exec_close(uv_handle_t *h);

#endif /* HPRUN_EXEC_OUTPUT_H */
