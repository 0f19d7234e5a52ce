/*
 * A /proc scan that skips the processes known to be older than the run (lib/exec/procfs.h,
 * hp__proc_each_since). The leftover sweeps look for the run's processes, and every one of them
 * started no earlier than the run's leader; yet the plain scan opens and reads /proc/<pid>/stat
 * of every process on the machine, twice per run, which costs more the more processes the machine
 * runs (docs/performance.md has the measurements).
 *
 * A process found older than one run is older than every later run (each leader starts later),
 * so it is remembered by its pid and the inode number of its /proc/<pid> folder, which readdir
 * gives without any further system call. procfs gives a new process a new inode (a global
 * counter, get_next_ino), so a reused pid does not match the remembered entry and is read again.
 * Only processes started since the last scans are read: usually a handful. The entry keeps the
 * start time too, so a call with an earlier `since` skips only what is older than that, and the
 * scan that last saw it, so that entries of processes gone are dropped (old_prune).
 *
 * Shorter still, hp__proc_each_range: every process of a run was created after its leader, and
 * pids are handed out in increasing order until they wrap, so while the run is young (no wrap
 * can have happened: hp__proc_pid_window_ns) they all lie between the leader's pid and the pid
 * namespace's last. Reading those few pids needs no listing of /proc at all.
 */
#include "exec/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* pid -> inode of processes known to have started before some run's leader. Open addressing,
 * a pid of 0 is an empty slot; entries of processes gone are overwritten when the pid returns. */
typedef struct old_ent {
  int pid;
  ino_t ino;
  unsigned long long start; /* so a call with an earlier `since` still reads it */
  unsigned gen;             /* the last scan that saw the process */
} old_ent;

static old_ent *old_tab;
static size_t old_cap, old_n;
static unsigned old_gen; /* bumped by every scan */

static size_t slot_of(int pid, size_t cap)
{
  uint64_t h = (uint64_t)(unsigned)pid * 0x9E3779B97F4A7C15ULL;

  return (size_t)(h >> 32) & (cap - 1);
}

static old_ent *old_find(int pid)
{
  size_t k;

  if (old_cap == 0)
    return NULL;
  for (k = slot_of(pid, old_cap); old_tab[k].pid; k = (k + 1) & (old_cap - 1))
    if (old_tab[k].pid == pid)
      return &old_tab[k];
  return NULL;
}

/* Remembers (pid, ino); on allocation failure the cache just stays smaller. */
static void old_put(int pid, ino_t ino, unsigned long long start)
{
  old_ent *e = old_find(pid);
  size_t k, i;

  if (e) {
    e->ino = ino;
    e->start = start;
    e->gen = old_gen;
    return;
  }
  if ((old_n + 1) * 2 > old_cap) {
    size_t ncap = old_cap ? old_cap * 2 : 1024;
    old_ent *nt = calloc(ncap, sizeof(*nt));
    if (nt == NULL)
      return;
    for (i = 0; i < old_cap; i++) {
      if (old_tab[i].pid == 0)
        continue;
      for (k = slot_of(old_tab[i].pid, ncap); nt[k].pid; k = (k + 1) & (ncap - 1))
        ;
      nt[k] = old_tab[i];
    }
    free(old_tab);
    old_tab = nt;
    old_cap = ncap;
  }
  for (k = slot_of(pid, old_cap); old_tab[k].pid; k = (k + 1) & (old_cap - 1))
    ;
  old_tab[k].pid = pid;
  old_tab[k].ino = ino;
  old_tab[k].start = start;
  old_tab[k].gen = old_gen;
  old_n++;
}

/* Keeps only the entries the last full scan saw: processes that are gone leave the cache, so it
 * stays within a few times the machine's process count however long the session runs. */
static void old_prune(void)
{
  old_ent *keep = old_tab;
  size_t cap = old_cap, i;

  old_tab = NULL;
  old_cap = old_n = 0;
  for (i = 0; i < cap; i++)
    if (keep[i].pid && keep[i].gen == old_gen)
      old_put(keep[i].pid, keep[i].ino, keep[i].start);
  free(keep);
}

int hp__proc_each_since(hp__proc_visit fn, void *arg, unsigned long long since)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  hp__proc_info p;
  old_ent *o;
  size_t seen = 0;
  int pid, stopped = 0;

  if (d == NULL)
    return -1;
  old_gen++;
  while ((e = readdir(d)) != NULL) {
    if ((pid = atoi(e->d_name)) <= 0)
      continue;
    seen++;
    if ((o = old_find(pid)) != NULL && o->ino == e->d_ino && o->start < since) {
      o->gen = old_gen;
      continue;
    }
    if (hp__proc_info_read(pid, &p) != 0)
      continue;
    if (p.start < since) {
      old_put(pid, e->d_ino, p.start);
      continue;
    }
    if (fn(&p, arg)) {
      stopped = 1;
      break;
    }
  }
  closedir(d);
  if (!stopped && old_n > 2 * seen + 1024)
    old_prune();
  return 0;
}

/* Whether `pid` leads its thread group: tgkill(pid, pid, 0) finds only such a task (a thread's
 * own id names its process nowhere else), and EPERM still means found. */
static int is_process(int pid)
{
  return syscall(SYS_tgkill, pid, pid, 0) == 0 || errno == EPERM;
}

int hp__proc_each_range(hp__proc_visit fn, void *arg, unsigned long long since, int first, int last)
{
  hp__proc_info p;
  int pid;

  for (pid = first; pid > 0 && pid <= last; pid++) {
    if (hp__proc_info_read(pid, &p) != 0 || p.start < since || !is_process(pid))
      continue;
    if (fn(&p, arg))
      break;
  }
  return 0;
}
