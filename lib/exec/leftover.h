/*
 * What a run left behind (lib/exec/leftover.c), exec-internal: callers outside lib/exec include
 * exec/runner.h only. When a run's leader exits, processes of the run may live on: members of
 * its process group, and processes that left the group with setsid() (daemons). The latter are
 * found by the session token in their environment or, when they cleared it, by their parent:
 * hprun is a child subreaper (exec/guard.h), so an orphaned daemon becomes hprun's child.
 *
 * The struct is the caller's (the runner keeps one per run, on its stack); it holds no resource,
 * so it needs no free. The token entry it points to stays the guard's.
 */
#ifndef HPRUN_EXEC_LEFTOVER_H
#define HPRUN_EXEC_LEFTOVER_H

#include <stddef.h>
#include <stdint.h>

#define HP__LEFT_MEMBERS 1 /* processes still in the run's group (leader excluded) */
#define HP__LEFT_ESCAPED 2 /* processes of the run outside its group */

#define HP__LEFT_MAX 256

typedef struct hp__leftover {
  int self;                 /* hprun's pid: the parent of adopted orphans */
  int pgid;                 /* the run's group */
  int skip_pid;             /* never touched: the watchdog (0: none) */
  int skip_pgid;            /* never touched: the sampler's group (0: none) */
  unsigned long long since; /* start time of the run's leader (hp__proc_info.start) */
  const char *token_entry;  /* "HPRUN_SESSION_TOKEN=..." or NULL */
  int count_members;        /* whether group members count as left behind (not when the group
                               was being stopped: they are part of the stop) */
  int pids[HP__LEFT_MAX];   /* every process counted so far, so none is counted twice */
  size_t count;
  int none;    /* the leader was the run's only process (exec/spawn.h, `alone`): nothing to look
                 for, every sweep returns 0 at once */
  uint64_t t0; /* uv_hrtime() at the leader's spawn; 0 unknown. While the run is young, the sweeps
                  read only the pids created since the leader instead of listing /proc */
} hp__leftover;

/* Empties *l for the run whose group is `pgid` and whose leader started at `since`. */
void hp__leftover_init(hp__leftover *l, int pgid, unsigned long long since);
/* One look at /proc: sends `sig` (0: none, only look) to each live process of the run that
 * `what` (HP__LEFT_* bits) selects, and counts the new ones. Returns how many it found. */
size_t hp__leftover_sweep(hp__leftover *l, int sig, int what);
/* The run has ended: SIGKILLs what is left, waits (up to `ms`) until it is gone and reaps the
 * zombies it leaves among hprun's children (adopted orphans: libuv waits only for the pids it
 * spawned). Call only when no process spawned by libuv after the leader is still alive. */
void hp__leftover_finish(hp__leftover *l, int ms);

#endif /* HPRUN_EXEC_LEFTOVER_H */
