/*
 * Starting a run's leader and learning of its exit (lib/exec/spawn.c), exec-internal: callers
 * outside lib/exec include exec/runner.h only.
 *
 * libuv 1.44 (Debian 12) spawns with fork() and then waits on a pipe until the child has exec'd;
 * the fork copies hprun's page tables and costs a SIGCHLD handler installed and removed around
 * every run. hp__proc_spawn starts the child as posix_spawn does (exec/vspawn.c: clone(CLONE_VM |
 * CLONE_VFORK), no copy), in a new session (as UV_PROCESS_DETACHED), and watches the clone's
 * pidfd (CLONE_PIDFD) with a uv_poll for its exit, then reaps exactly that pid with
 * waitid(P_PIDFD). libuv's SIGCHLD handler waitpid()s only the pids of its own uv_process_t
 * handles, so neither takes the other's children. Where that path is not available (no pidfd,
 * a name to look up on PATH, stdio libuv must set up, ENOEXEC, a clone refused) it is uv_spawn,
 * with the same options and the same results. docs/internals/runner.md says why.
 *
 * The struct is the caller's (on the runner's stack); it holds the pidfd until hp__proc_close.
 */
#ifndef HPRUN_EXEC_SPAWN_H
#define HPRUN_EXEC_SPAWN_H

#include <stdint.h>
#include <uv.h>

typedef struct hp__proc hp__proc;

/* Called once, after the process has been reaped: as libuv's uv_exit_cb. */
typedef void (*hp__proc_exit_cb)(hp__proc *p, int64_t exit_status, int term_signal);

struct hp__proc {
  uv_process_t uv;          /* libuv's process handle (the fallback) */
  uv_poll_t poll;           /* watches pidfd */
  int pid;                  /* the leader, which leads its own session and group */
  int pidfd;                /* -1: libuv watches the process */
  unsigned long long start; /* its start time (hp__proc_info.start), 0 when unknown */
  int alone;                /* at its exit no other process had been created since it (the pid
                               namespace's last pid was its own): it left nothing behind */
  uint64_t t0;              /* uv_hrtime() just before the spawn */
  long maxrss_kb; /* the leader's peak RSS in kB, from the rusage of its reap (it covers the
                     processes it reaped itself too); -1 when unknown (libuv reaped it) */
  int held[3];    /* the child's ends of its stdout/stderr pipes (-1: none), kept open until its
                  exit is seen, so that its exit wakes hprun once (the pidfd), not first for the
                  pipes' EOF and then again for the exit (exec/spawn.c) */
  hp__proc_exit_cb exit_cb;
  void *data; /* the caller's */
};

/* Starts o->file with o's args, env, cwd, stdio (UV_IGNORE, UV_CREATE_PIPE of an initialised
 * uv_pipe_t, UV_INHERIT_FD) and flags (UV_PROCESS_DETACHED) like uv_spawn; o->exit_cb is not
 * used, `cb` is. 0, or a negative libuv code (UV_ENOENT, UV_EACCES, ...), exactly as uv_spawn
 * would return; then nothing runs, but the handle must still be closed (hp__proc_close). */
int hp__proc_spawn(uv_loop_t *loop, hp__proc *p, const uv_process_options_t *o,
                   hp__proc_exit_cb cb);
/* Closes the handle: in or after the exit callback, or after a failed spawn. */
void hp__proc_close(hp__proc *p);

#endif /* HPRUN_EXEC_SPAWN_H */
