/*
 * Starting a run's leader without fork, and reaping exactly it (exec/spawn.h says what and why;
 * docs/internals/runner.md, "Why the spawn is built this way", has the measurements).
 *
 * The fast path: posix_spawn, which glibc runs as clone(CLONE_VM | CLONE_VFORK), so nothing of
 * hprun is copied and the parent resumes once the child has exec'd (or failed to: glibc then
 * returns the exec's errno, as libuv does); POSIX_SPAWN_SETSID for the child's own session and
 * group; the signal mask emptied and every signal's disposition reset, as libuv does in its
 * child; stdio through file actions. The exit comes from a pidfd watched by a uv_poll: it turns
 * readable when the process has exited, and waitid(P_PIDFD) then reaps that process only. A pid
 * cannot be reused before its parent reaps it, so opening the pidfd right after the spawn is
 * safe, and nobody else reaps it: libuv waits only for its own handles' pids, and hprun's
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

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__) && defined(SYS_pidfd_open) && defined(POSIX_SPAWN_SETSID) &&                \
    defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
#define HAVE_FAST 1 /* posix_spawn with SETSID and addchdir_np (glibc 2.29), pidfd_open */
#else
#define HAVE_FAST 0
#endif

/* waitid's P_PIDFD (Linux 5.4); glibc 2.36 has it in an enum, older ones not at all. */
#define HP__P_PIDFD ((idtype_t)3)

/* How many stdio entries the fast path sets up; more (rare) go to libuv. */
#define FAST_STDIO_MAX 8

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
 * child's PATH, posix_spawnp on ours), no uid/gid change, stdio ignored or a one-way pipe. */
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
  siginfo_t si;
  int r;

  (void)status;
  (void)events;
  /* Within the window no wrap can have brought the last pid back to the leader's. */
  p->alone = hp__proc_last_pid() == p->pid && uv_hrtime() - p->t0 < hp__proc_pid_window_ns();
  if (!p->alone && hp__proc_info_read(p->pid, &info) == 0)
    p->start = info.start;
  memset(&si, 0, sizeof(si));
  do
    r = waitid(HP__P_PIDFD, (id_t)p->pidfd, &si, WEXITED | WNOHANG);
  while (r != 0 && errno == EINTR);
  if (r == 0 && si.si_pid == 0)
    return;        /* not exited yet: keep watching */
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

/* /dev/null, opened once per process (O_CLOEXEC, so no child inherits it but through the dup2
 * of its file actions) instead of once per run in the child, where the parent waits for it:
 * [0] read-only for stdin, [1] read-write for the others, as libuv's child opens them. */
static int null_fd[2] = {-1, -1};

static int dev_null(int i)
{
  int k = i == 0 ? 0 : 1;

  if (null_fd[k] < 0)
    null_fd[k] = open("/dev/null", (k == 0 ? O_RDONLY : O_RDWR) | O_CLOEXEC);
  return null_fd[k];
}

/* The file actions of the last fast spawn, kept for the next: glibc checks both descriptors of
 * every dup2 action against the descriptor limit, two getrlimit(2) calls each, six per run. A run
 * gets the same descriptors as the last one (the lowest free ones, and the last run's were all
 * closed) and usually the same folder, so the same actions serve it; they hold only those numbers
 * and a copy of the folder's path. */
static struct {
  int valid;
  posix_spawn_file_actions_t fa;
  int n;                   /* stdio entries */
  int src[FAST_STDIO_MAX]; /* the descriptor dup2'ed onto each; -1: /dev/null opened there */
  char *cwd;               /* the folder to change to, or NULL */
} kept;

static int same_actions(const int *src, int n, const char *cwd)
{
  if (!kept.valid || kept.n != n || memcmp(kept.src, src, (size_t)n * sizeof(*src)) != 0)
    return 0;
  return cwd == NULL ? kept.cwd == NULL : kept.cwd != NULL && strcmp(cwd, kept.cwd) == 0;
}

/* Builds the actions for src[] and cwd into the kept ones (invalid on failure). */
static int keep_actions(const int *src, int n, const char *cwd)
{
  int i, r = 0;

  if (kept.valid)
    posix_spawn_file_actions_destroy(&kept.fa);
  free(kept.cwd);
  kept.cwd = NULL;
  kept.valid = 0;
  posix_spawn_file_actions_init(&kept.fa);
  for (i = 0; i < n && r == 0; i++)
    r = src[i] >= 0
        ? posix_spawn_file_actions_adddup2(&kept.fa, src[i], i)
        : posix_spawn_file_actions_addopen(&kept.fa, i, "/dev/null", i == 0 ? O_RDONLY : O_RDWR, 0);
  if (r == 0 && cwd && ((kept.cwd = strdup(cwd)) == NULL))
    r = ENOMEM;
  if (r == 0 && cwd)
    r = posix_spawn_file_actions_addchdir_np(&kept.fa, cwd);
  if (r != 0) {
    posix_spawn_file_actions_destroy(&kept.fa);
    return -r;
  }
  memcpy(kept.src, src, (size_t)n * sizeof(*src));
  kept.n = n;
  kept.valid = 1;
  return 0;
}

/* The pipes for stdio, and the file actions that put them (and /dev/null) in place: *fa points
 * to the kept ones. The child's pipe ends go to child_fd[] for the caller to close. */
static int set_stdio(posix_spawn_file_actions_t **fa, const uv_process_options_t *o, int *child_fd,
                     int *parent_fd)
{
  int i, fds[2], r, src[FAST_STDIO_MAX];

  for (i = 0; i < o->stdio_count; i++) {
    if (o->stdio[i].flags == UV_IGNORE) {
      /* As libuv's child: stdin read-only, the others read-write (opened by the child when
       * hprun could not open /dev/null). */
      src[i] = dev_null(i);
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
    src[i] = child_fd[i];
  }
  if (!same_actions(src, o->stdio_count, o->cwd) &&
      (r = keep_actions(src, o->stdio_count, o->cwd)) != 0)
    return r;
  *fa = &kept.fa;
  return 0;
}

static int set_attr(posix_spawnattr_t *at, const uv_process_options_t *o)
{
  sigset_t none, all;
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;

  if (o->flags & UV_PROCESS_DETACHED)
    flags |= POSIX_SPAWN_SETSID;
  sigemptyset(&none);
  /* Not sigfillset: it leaves out the two real-time signals glibc keeps for itself (32, 33),
   * which posix_spawn's child would then ignore, and SIG_IGN survives exec. libuv's child
   * leaves them at their default (exec resets glibc's handlers), and so does this. */
  memset(&all, 0xff, sizeof(all));
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  if (posix_spawnattr_setflags(at, flags) || posix_spawnattr_setsigmask(at, &none) ||
      posix_spawnattr_setsigdefault(at, &all))
    return UV_EINVAL;
  return 0;
}

/* After the spawn: the pidfd watched, our pipe ends handed to their uv_pipe_t. */
static int watch(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o, int *parent_fd)
{
  int i, r;

  if ((p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0)) < 0)
    return -errno;
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
  posix_spawn_file_actions_t *fa = NULL;
  posix_spawnattr_t at;
  int child_fd[FAST_STDIO_MAX], parent_fd[FAST_STDIO_MAX];
  int i, r, pid = 0;

  for (i = 0; i < FAST_STDIO_MAX; i++)
    child_fd[i] = parent_fd[i] = -1;
  posix_spawnattr_init(&at);
  r = set_stdio(&fa, o, child_fd, parent_fd);
  if (r == 0)
    r = set_attr(&at, o);
  if (r == 0) {
    p->t0 = uv_hrtime();
    r = -posix_spawn(&pid, o->file, fa, &at, o->args, o->env ? o->env : environ);
  }
  posix_spawnattr_destroy(&at);
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
  if (r == -ENOEXEC && pid == 0)
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
