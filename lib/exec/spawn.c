/*
 * Starting a run's leader without fork, and reaping exactly it (exec/spawn.h says what and why;
 * docs/internals/runner.md, "Why the spawn is built this way", has the measurements).
 *
 * The fast path: exec/vspawn.c, clone(CLONE_VM | CLONE_VFORK) as glibc's posix_spawn does it, so
 * nothing of hprun is copied and the parent resumes once the child has exec'd (or failed to: the
 * exec's errno comes back, as libuv returns it); the child's own session and group; the signal
 * mask emptied and every signal's disposition at its default, as libuv's child has them; stdio
 * dup2'ed in. The exit comes from the pidfd the clone returns (CLONE_PIDFD), watched by a
 * uv_poll: it turns readable when the process has exited, and waitid(P_PIDFD) then reaps that
 * process only. Nobody else reaps it: libuv waits only for its own handles' pids, and hprun's
 * leftover code only for orphans it adopted (exec/leftover.h).
 *
 * Before the reap, while the zombie still holds its pid, the exit handler reads the pid
 * namespace's last allocated pid (hp__proc_last_pid). When that is still the leader's own and the
 * run was short, no process at all was created since the leader, so the leader left nothing
 * behind and the runner skips its /proc sweeps. Otherwise it reads the leader's start time, which
 * the sweeps need.
 */
#include "exec/spawn.h"
#include "exec/output.h"
#include "exec/procfs.h"
#include "exec/vspawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__) && defined(SYS_pidfd_open)
#define HAVE_FAST 1 /* clone with CLONE_PIDFD (exec/vspawn.c), pidfd_open for the probe */
#else
#define HAVE_FAST 0
#endif

/* waitid's P_PIDFD (Linux 5.4); glibc 2.36 has it in an enum, older ones not at all. */
#define HP__P_PIDFD ((idtype_t)3)

/* How many stdio entries the fast path sets up; more (rare) go to libuv. */
#define FAST_STDIO_MAX HP__VSPAWN_FDS

extern char **environ;

static void on_uv_exit(uv_process_t *h, int64_t status, int sig)
{
  hp__proc *p = h->data;

  p->exit_cb(p, status, sig);
}

/* libuv's spawn, with the leader's start time read before libuv (only the loop) can reap it. */
static int slow_spawn(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o)
{
  uv_process_options_t opts = *o;
  hp__proc_info info;
  int r;

  opts.exit_cb = on_uv_exit;
  p->uv.data = p;
  r = uv_spawn(loop, &p->uv, &opts);
  if (r)
    return r;
  p->pid = p->uv.pid;
  if (hp__proc_info_read(p->pid, &info) == 0)
    p->start = info.start;
  return 0;
}

#if HAVE_FAST
static int fast_ok = -1; /* -1: not yet probed */

/* Whether this kernel has pidfd_open and waitid(P_PIDFD): waiting for our own pidfd is ECHILD
 * with both, ENOSYS or EINVAL without. */
static int probe(void)
{
  siginfo_t si;
  int fd;

  if (fast_ok >= 0)
    return fast_ok;
  fast_ok = 0;
  if ((fd = (int)syscall(SYS_pidfd_open, getpid(), 0)) < 0)
    return 0;
  memset(&si, 0, sizeof(si));
  if (waitid(HP__P_PIDFD, (id_t)fd, &si, WEXITED | WNOHANG) != 0 && errno == ECHILD)
    fast_ok = 1;
  close(fd);
  return fast_ok;
}

/* The fast path takes what the runner asks for: a path (libuv looks a bare name up on the
 * child's PATH, execvp would on ours), no uid/gid change, stdio ignored or a one-way pipe. */
static int fast_fits(const uv_process_options_t *o)
{
  int i;

  if (o->file == NULL || strchr(o->file, '/') == NULL)
    return 0;
  if ((o->flags & ~(unsigned)UV_PROCESS_DETACHED) != 0 || o->stdio_count > FAST_STDIO_MAX)
    return 0;
  for (i = 0; i < o->stdio_count; i++) {
    int f = (int)o->stdio[i].flags;
    if (f == UV_IGNORE && i < 3)
      continue;
    if ((f & ~(UV_READABLE_PIPE | UV_WRITABLE_PIPE)) == UV_CREATE_PIPE &&
        ((f & UV_READABLE_PIPE) != 0) != ((f & UV_WRITABLE_PIPE) != 0))
      continue;
    return 0;
  }
  return probe();
}

/* Closes the child's pipe ends that hprun kept: from now on the pipes end when the last of the
 * run's processes holding them does. */
static void release_held(hp__proc *p)
{
  int i;

  for (i = 0; i < 3; i++)
    if (p->held[i] >= 0) {
      close(p->held[i]);
      p->held[i] = -1;
    }
}

static void on_pidfd(uv_poll_t *h, int status, int events)
{
  hp__proc *p = h->data;
  hp__proc_info info;
  struct rusage ru;
  siginfo_t si;
  int r;

  (void)status;
  (void)events;
  /* Within the window no wrap can have brought the last pid back to the leader's. */
  p->alone = hp__proc_last_pid() == p->pid && uv_hrtime() - p->t0 < hp__proc_pid_window_ns();
  if (!p->alone && hp__proc_info_read(p->pid, &info) == 0)
    p->start = info.start;
  memset(&si, 0, sizeof(si));
  memset(&ru, 0, sizeof(ru));
  /* The system call itself, for its fifth argument (glibc's waitid passes none): the leader's
   * rusage, whose ru_maxrss is its peak however late it came, where the RSS sampler looks only
   * once a second and RUSAGE_CHILDREN only says something when a run beats every earlier one. */
  do
    r = (int)syscall(SYS_waitid, HP__P_PIDFD, p->pidfd, &si, WEXITED | WNOHANG, &ru);
  while (r != 0 && errno == EINTR);
  if (r == 0 && si.si_pid == 0)
    return; /* not exited yet: keep watching */
  if (r == 0)
    p->maxrss_kb = ru.ru_maxrss;
  uv_poll_stop(h); /* the pidfd is closed with the handle (hp__proc_close) */
  /* Whatever the leader wrote is in the pipes now; their EOF follows in this loop turn unless
   * another process of the run holds them (the runner then drains them). */
  release_held(p);
  if (r != 0) /* ECHILD: reaped by someone else, the status is lost */
    p->exit_cb(p, -1, 0);
  else if (si.si_code == CLD_EXITED)
    p->exit_cb(p, si.si_status, 0);
  else
    p->exit_cb(p, 0, si.si_status);
}

/* /dev/null, opened once per process (O_CLOEXEC, so no child inherits it but through its
 * dup2) instead of once per run in the child, where the parent waits for it:
 * [0] read-only for stdin, [1] read-write for the others, as libuv's child opens them. */
static int null_fd[2] = {-1, -1};

static int dev_null(int i)
{
  int k = i == 0 ? 0 : 1;

  if (null_fd[k] < 0)
    null_fd[k] = open("/dev/null", (k == 0 ? O_RDONLY : O_RDWR) | O_CLOEXEC);
  return null_fd[k];
}

/* The pipes for stdio and what the child gets as each descriptor (q->src). The child's pipe ends
 * go to child_fd[] for the caller to close. */
static int set_stdio(hp__vspawn_req *q, const uv_process_options_t *o, int *child_fd,
                     int *parent_fd)
{
  int i, fds[2];

  q->nfd = o->stdio_count;
  for (i = 0; i < o->stdio_count; i++) {
    if (o->stdio[i].flags == UV_IGNORE) {
      /* As libuv's child: stdin read-only, the others read-write (opened by the child when
       * hprun could not open /dev/null). */
      q->src[i] = dev_null(i);
      continue;
    }
    if (pipe2(fds, O_CLOEXEC) != 0)
      return -errno;
    /* UV_WRITABLE_PIPE: the child writes, we read. */
    if (o->stdio[i].flags & UV_WRITABLE_PIPE) {
      child_fd[i] = fds[1];
      parent_fd[i] = fds[0];
    } else {
      child_fd[i] = fds[0];
      parent_fd[i] = fds[1];
    }
    q->src[i] = child_fd[i];
  }
  return 0;
}

/* After the spawn: the pidfd (from the clone) watched, our pipe ends handed to their
 * uv_pipe_t. */
static int watch(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o, int *parent_fd)
{
  int i, r;

  for (i = 0; i < o->stdio_count; i++) {
    if (parent_fd[i] < 0)
      continue;
    if ((r = uv_pipe_open((uv_pipe_t *)o->stdio[i].data.stream, parent_fd[i])) != 0)
      return r;
    parent_fd[i] = -1; /* the handle owns it now */
  }
  p->poll.data = p;
  if ((r = uv_poll_init(loop, &p->poll, p->pidfd)) != 0)
    return r;
  return uv_poll_start(&p->poll, UV_READABLE, on_pidfd);
}

/* 1 when the spawn was done here (*ret its result), 0 when libuv must do it (ENOEXEC: libuv
 * runs a script without #! through /bin/sh, as execvp does). */
static int fast_spawn(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o, int *ret)
{
  hp__vspawn_req q;
  int child_fd[FAST_STDIO_MAX], parent_fd[FAST_STDIO_MAX];
  int i, r, pid = 0, cloned = 1;

  for (i = 0; i < FAST_STDIO_MAX; i++)
    child_fd[i] = parent_fd[i] = -1;
  memset(&q, 0, sizeof(q));
  q.file = o->file;
  q.argv = o->args;
  q.envp = o->env ? o->env : environ;
  q.cwd = o->cwd;
  q.setsid = (o->flags & UV_PROCESS_DETACHED) != 0;
  r = set_stdio(&q, o, child_fd, parent_fd);
  if (r == 0) {
    p->t0 = uv_hrtime();
    r = hp__vspawn(&q, &pid, &p->pidfd, &cloned);
  }
  for (i = 0; i < FAST_STDIO_MAX; i++) {
    /* The child's stdout and stderr ends are kept until its exit is seen (release_held): the
     * pipes' EOF then cannot wake hprun before the exit does. */
    if (r == 0 && i > 0 && i < 3 && child_fd[i] >= 0 && (o->stdio[i].flags & UV_WRITABLE_PIPE))
      p->held[i] = child_fd[i];
    else if (child_fd[i] >= 0)
      close(child_fd[i]);
  }
  if (r == 0) {
    p->pid = pid;
    if ((r = watch(loop, p, o, parent_fd)) != 0) {
      /* Ours and not yet reaped, so the pid is still this process's. */
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
      release_held(p);
      p->pid = 0;
      if (p->poll.type != UV_POLL && p->pidfd >= 0) {
        close(p->pidfd);
        p->pidfd = -1;
      }
    }
  }
  for (i = 0; i < FAST_STDIO_MAX; i++)
    if (parent_fd[i] >= 0)
      close(parent_fd[i]);
  /* ENOEXEC: libuv runs the script through /bin/sh; no clone at all (a seccomp filter, say):
   * libuv forks. */
  if ((r == -ENOEXEC || !cloned) && pid == 0)
    return 0;
  *ret = r;
  return 1;
}
#endif

int hp__proc_spawn(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o, hp__proc_exit_cb cb)
{
  int r;

  memset(p, 0, sizeof(*p));
  p->pidfd = -1;
  p->maxrss_kb = -1;
  p->held[0] = p->held[1] = p->held[2] = -1;
  p->exit_cb = cb;
  p->t0 = uv_hrtime();
#if HAVE_FAST
  if (fast_fits(o) && fast_spawn(loop, p, o, &r))
    return r;
#endif
  return slow_spawn(loop, p, o);
}

void hp__proc_close(hp__proc *p)
{
#if HAVE_FAST
  release_held(p);
#endif
  if (p->poll.type == UV_POLL) {
    /* uv_close stops the poll at once (the fd leaves epoll); only then may the fd close. */
    hp__exec_close((uv_handle_t *)&p->poll);
    if (p->pidfd >= 0)
      close(p->pidfd);
    p->pidfd = -1;
    return;
  }
  if (p->uv.type == UV_PROCESS)
    hp__exec_close((uv_handle_t *)&p->uv);
}
