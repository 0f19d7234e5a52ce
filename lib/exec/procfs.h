/*
 * The processes of a child's group, read from Linux's /proc (lib/exec/procfs.c), exec-internal:
 * callers outside lib/exec include exec/runner.h only. Nothing here returns memory to free: the
 * caller owns the pid arrays and structs it passes in, and each function reads /proc afresh, so a process may be gone by the time the
 * caller acts on its pid.
 */
#ifndef HPRUN_EXEC_PROCFS_H
#define HPRUN_EXEC_PROCFS_H

#include <stddef.h>

/* The fields of /proc/<pid>/stat that tell whose a process is. */
typedef struct hp__proc_info {
  int pid;
  char state; /* 'R', 'S', 'D', 'Z' (zombie), 'X' (dead), ... */
  int ppid;
  int pgrp;
  unsigned flags;           /* the kernel's PF_* flags */
  unsigned long long start; /* start time in clock ticks after boot: later processes, larger */
} hp__proc_info;

/* PF_EXITING: the process is on its way out (its memory is already gone); a zombie soon. */
#define HP__PF_EXITING 0x4u
/* Whether p is alive and staying: not a zombie, not dead, not exiting. */
#define HP__PROC_LIVE(p) ((p)->state != 'Z' && (p)->state != 'X' && !((p)->flags & HP__PF_EXITING))

/* Parses one /proc/<pid>/stat line (NUL-terminated) into *p. 0, or -1 when it is malformed. */
int hp__proc_parse_stat(const char *line, int pid, hp__proc_info *p);
/* Reads /proc/<pid>/stat. 0, or -1 when there is no such process. */
int hp__proc_info_read(int pid, hp__proc_info *p);
/* Calls fn for every process in /proc that started at or after `since` (clock ticks since boot,
 * as hp__proc_info.start; 0 for every process), until fn returns non-zero. 0, or -1 when /proc
 * cannot be read. */
typedef int (*hp__proc_visit)(const hp__proc_info *p, void *arg);
int hp__proc_each_since(hp__proc_visit fn, void *arg, unsigned long long since);
/* The same for the processes (not threads) whose pids are first..last and that started at or
 * after `since`, reading each /proc/<pid>/stat directly: for a range known to hold every process
 * of interest (exec/leftover.c). Always 0. */
int hp__proc_each_range(hp__proc_visit fn, void *arg, unsigned long long since, int first,
                        int last);
/* Whether the environment process `pid` was started with holds `entry` ("K=V") as one whole
 * entry: 1 yes, 0 no, -1 unreadable (gone, or another user's process). */
int hp__proc_env_has(int pid, const char *entry);

/* Lists the live members of process group `pgid` (zombies and the leader excluded) by scanning
 * /proc/<pid>/stat of every process. Returns the number found (up to max); 0 when /proc cannot be read. */
size_t hp__proc_group_members(int pgid, int *pids, size_t max);
/* Lists the descendants of `pid` (children, their children, ...) through
 * /proc/<pid>/task/<tid>/children, breadth first. Returns the number found (up to max), or -1
 * when the kernel has no such files (CONFIG_PROC_CHILDREN off). */
long hp__proc_descendants(int pid, int *pids, size_t max);
/* Peak RSS (VmHWM, in kB) of one process, or -1 when unknown: no such process, or no VmHWM line
 * (a zombie or a kernel thread). */
long hp__proc_hwm_kb(int pid);
/* The largest peak RSS (kB) among the leader of group `pgid` and its descendants (or, without
 * the children files, the group's members), or -1 when none could be read. */
long hp__proc_group_hwm_kb(int pgid);
/* The last pid allocated in hprun's pid namespace (/proc/sys/kernel/ns_last_pid, a descriptor
 * kept open), or -1 when unknown. Every process and thread created anywhere in the namespace
 * (and in namespaces below it) moves it, so when it is still a run's leader at the leader's exit,
 * the run created nothing else (lib/exec/spawn.c). */
int hp__proc_last_pid(void);
/* How long after a process's creation pid order still tells what was created after it: pids wrap
 * only after pid_max allocations (/proc/sys/kernel/pid_max, read once), and no kernel hands out a
 * million a second, so pid_max microseconds, at most 1 s. In nanoseconds. */
unsigned long long hp__proc_pid_window_ns(void);

#endif /* HPRUN_EXEC_PROCFS_H */
