/*
 * The processes of a child's group, read from Linux's /proc (lib/exec/procfs.c), exec-internal:
 * callers outside lib/exec include exec/runner.h only. Nothing here allocates: the caller owns
 * the pid arrays it passes in, and each function reads /proc afresh, so a process may be gone by
 * the time the caller acts on its pid.
 */
#ifndef HPRUN_EXEC_PROCFS_H
#define HPRUN_EXEC_PROCFS_H

#include <stddef.h>

/* Lists the live members of process group `pgid`, leader excluded, by scanning /proc/<pid>/stat
 * of every process. Returns the number found (up to max); 0 when /proc cannot be read. */
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

#endif /* HPRUN_EXEC_PROCFS_H */
