/*
 * Finding and ending what a run left behind. A process is the run's when it is in the run's
 * group, or when it started no earlier than the run's leader and either hprun is its parent (an
 * orphan adopted through PR_SET_CHILD_SUBREAPER) or the environment it was started with holds
 * the session token. The start-time test keeps every older process out, so a sweep reads the
 * environment of only the few processes started during the run, and hprun's own earlier
 * children (the watchdog) are never mistaken for orphans. Every process of the run starts no
 * earlier than its leader (group members too: the leader's new session admits only its own
 * descendants), so the scans pass older processes by (hp__proc_each_since) before anything else
 * is read of them, and a young run's scan reads only the pids handed out since its leader.
 */
#include "exec/leftover.h"
#include "exec/guard.h"
#include "exec/procfs.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

void hp__leftover_init(hp__leftover *l, int pgid, unsigned long long since)
{
  memset(l, 0, sizeof(*l));
  l->self = hp__guard_self();
  l->pgid = pgid;
  l->since = since;
  l->skip_pid = hp__guard_watchdog_pid();
  l->token_entry = hp__guard_token_entry();
  l->count_members = 1;
}

typedef struct sweep {
  hp__leftover *l;
  int sig;
  int what;
  int reap;       /* wait for zombies among our children */
  size_t found;   /* live processes of the run */
  size_t pending; /* children of ours that are exiting: zombies to reap in a moment */
} sweep;

/* HP__LEFT_MEMBERS or HP__LEFT_ESCAPED when p is the run's, 0 when it is not. */
static int whose(const hp__leftover *l, const hp__proc_info *p)
{
  if (p->pid == l->self || p->pid == l->skip_pid || p->pid == l->pgid)
    return 0;
  if (l->skip_pgid && p->pgrp == l->skip_pgid)
    return 0;
  if (p->pgrp == l->pgid)
    return HP__LEFT_MEMBERS;
  if (p->start < l->since)
    return 0;
  if (p->ppid == l->self)
    return HP__LEFT_ESCAPED;
  if (l->token_entry && hp__proc_env_has(p->pid, l->token_entry) == 1)
    return HP__LEFT_ESCAPED;
  return 0;
}

static void count(hp__leftover *l, int pid)
{
  size_t i, n = l->count < HP__LEFT_MAX ? l->count : HP__LEFT_MAX;

  for (i = 0; i < n; i++)
    if (l->pids[i] == pid)
      return;
  if (l->count < HP__LEFT_MAX)
    l->pids[l->count] = pid;
  l->count++;
}

static int visit(const hp__proc_info *p, void *arg)
{
  sweep *s = arg;
  int kind;

  if (!HP__PROC_LIVE(p)) {
    /* A dead orphan: ours to wait for, or it stays a zombie for as long as hprun runs. Only one
     * that started during the run: an older child of ours may be someone else's to wait for. A
     * process that is exiting is not left behind (it leaves by itself), but a zombie soon. */
    if (s->reap && p->ppid == s->l->self && p->pid != s->l->skip_pid && p->start >= s->l->since) {
      if (p->state == 'Z' || p->state == 'X')
        waitpid(p->pid, NULL, WNOHANG);
      else
        s->pending++;
    }
    return 0;
  }
  kind = whose(s->l, p);
  if (!(kind & s->what))
    return 0;
  if (s->sig)
    kill(p->pid, s->sig);
  if (kind == HP__LEFT_ESCAPED || s->l->count_members)
    count(s->l, p->pid);
  s->found++;
  return 0;
}

/* Every process of the run was created after its leader, so while the run is young (no pid wrap
 * can have happened since) they all have pids between the leader's and the last one handed out.
 * When that range is short, reading those pids is much cheaper than listing /proc, which makes
 * procfs build an entry for every process on the machine. */
#define RANGE_MAX 32

static void each(hp__leftover *l, hp__proc_visit fn, void *arg)
{
  int last;

  if (l->t0 && uv_hrtime() - l->t0 < hp__proc_pid_window_ns()) {
    last = hp__proc_last_pid();
    if (last >= l->pgid && last - l->pgid <= RANGE_MAX) {
      hp__proc_each_range(fn, arg, l->since, l->pgid + 1, last);
      return;
    }
  }
  hp__proc_each_since(fn, arg, l->since);
}

size_t hp__leftover_sweep(hp__leftover *l, int sig, int what)
{
  sweep s = {l, sig, what, 0, 0, 0};

  if (l->none)
    return 0;
  each(l, visit, &s);
  return s.found;
}

void hp__leftover_finish(hp__leftover *l, int ms)
{
  struct timespec tick = {0, 10 * 1000 * 1000};
  sweep s = {l, SIGKILL, HP__LEFT_MEMBERS | HP__LEFT_ESCAPED, 1, 0, 0};
  int waited;

  if (l->none)
    return;
  /* Killed processes take a moment to die (and then to be reparented to us as zombies): look
   * again until nothing is left alive, or the time is up. */
  for (waited = 0;; waited += 10) {
    s.found = s.pending = 0;
    each(l, visit, &s);
    if ((s.found == 0 && s.pending == 0) || waited >= ms)
      break;
    nanosleep(&tick, NULL);
  }
  /* The last look may have seen them alive: collect the zombies they became. */
  if (s.found || s.pending) {
    s.sig = 0;
    s.what = 0;
    each(l, visit, &s);
  }
}
