/*
 * The processes of a child's group, read from /proc. The runner needs two things from the
 * kernel that libuv does not give: who is still in the group (to stop a profiler's app first and
 * to end stragglers when the leader exits) and how much memory the largest of them used (VmHWM,
 * sampled while they live, since RUSAGE_CHILDREN only covers processes hprun reaps itself).
 * Every file is opened O_CLOEXEC so no child inherits it.
 */
#include "exec/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads up to size-1 bytes of a small /proc file into buf, NUL-terminated. Returns the length
 * (0 when empty or unreadable), or -1 when the file cannot be opened (errno says why). */
static long read_small(const char *path, char *buf, size_t size)
{
  ssize_t len;
  int fd = open(path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return -1;
  len = read(fd, buf, size - 1);
  close(fd);
  if (len <= 0)
    return 0;
  buf[len] = '\0';
  return (long)len;
}

size_t hp__proc_group_members(int pgid, int *pids, size_t max)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  size_t n = 0;

  if (d == NULL)
    return 0;
  while ((e = readdir(d)) != NULL && n < max) {
    char path[64], buf[512], *p;
    int pid, pgrp = -1;

    pid = atoi(e->d_name);
    if (pid <= 0 || pid == pgid)
      continue;
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    if (read_small(path, buf, sizeof(buf)) <= 0)
      continue;
    /* The command name may hold spaces and parentheses: fields start after the last ')'. */
    p = strrchr(buf, ')');
    if (p && sscanf(p + 1, " %*c %*d %d", &pgrp) == 1 && pgrp == pgid)
      pids[n++] = pid;
  }
  closedir(d);
  return n;
}

long hp__proc_hwm_kb(int pid)
{
  char path[64], buf[4096], *p;

  snprintf(path, sizeof(path), "/proc/%d/status", pid);
  if (read_small(path, buf, sizeof(buf)) <= 0)
    return -1;
  p = strstr(buf, "VmHWM:");
  return p ? strtol(p + 6, NULL, 10) : -1;
}

/* Appends the pids listed in the children files of every thread of `cur` to pids[*n..max).
 * Returns -1 when the kernel has no children files, which is only decided on the first file
 * looked at (of `root`, before anything was found), as a missing file later only means that
 * thread or process is gone. */
static int add_children(int root, int cur, int *pids, size_t *n, size_t max)
{
  char path[64];
  DIR *d;
  struct dirent *e;

  snprintf(path, sizeof(path), "/proc/%d/task", cur);
  if ((d = opendir(path)) == NULL)
    return 0;
  while ((e = readdir(d)) != NULL && *n < max) {
    char cpath[320], buf[1024], *p, *end;
    long len;
    if (e->d_name[0] == '.')
      continue;
    snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children", cur, e->d_name);
    len = read_small(cpath, buf, sizeof(buf));
    if (len < 0 && errno == ENOENT && cur == root && *n == 0) {
      closedir(d);
      return -1;
    }
    if (len <= 0)
      continue;
    for (p = buf; *n < max; p = end) {
      long v = strtol(p, &end, 10);
      if (end == p)
        break;
      pids[(*n)++] = (int)v;
    }
  }
  closedir(d);
  return 0;
}

/* Walks the tree breadth first, using pids[] itself as the queue: a few reads per process
 * instead of a scan of every process on the machine. */
long hp__proc_descendants(int pid, int *pids, size_t max)
{
  size_t head = 0, n = 0;
  int cur = pid;

  for (;;) {
    if (add_children(pid, cur, pids, &n, max) < 0)
      return -1;
    if (head >= n)
      break;
    cur = pids[head++];
  }
  return (long)n;
}

long hp__proc_group_hwm_kb(int pgid)
{
  int pids[256];
  long i, n, kb, best;

  best = hp__proc_hwm_kb(pgid);
  n = hp__proc_descendants(pgid, pids, sizeof(pids) / sizeof(pids[0]));
  if (n < 0)
    n = (long)hp__proc_group_members(pgid, pids, sizeof(pids) / sizeof(pids[0]));
  for (i = 0; i < n; i++) {
    kb = hp__proc_hwm_kb(pids[i]);
    if (kb > best)
      best = kb;
  }
  return best;
}
