/*
 * The processes of a child's group, read from /proc. The runner needs three things from the
 * kernel that libuv does not give: who is still in the group (to stop a profiler's app first and
 * to end stragglers when the leader exits), which processes escaped the group but are still the
 * run's (their parent, and the session token in the environment they were started with: see
 * exec/leftover.c), and how much memory the largest of them used (VmHWM, sampled while they
 * live, since RUSAGE_CHILDREN only covers processes hprun reaps itself). Every file is opened
 * O_CLOEXEC so no child inherits it.
 */
#include "exec/procfs.h"
#include "hprun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Reads up to size-1 bytes of a small /proc file into buf, NUL-terminated. Returns the length
 * (0 when empty or unreadable), or, when the file cannot be opened, HP_ENOENT for a missing one
 * and HP_EIO for any other reason. */
static long read_small(const char *path, char *buf, size_t size)
{
  ssize_t len;
  int fd = open(path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return errno == ENOENT ? HP_ENOENT : HP_EIO;
  len = read(fd, buf, size - 1);
  close(fd);
  if (len <= 0)
    return 0;
  buf[len] = '\0';
  return (long)len;
}

int hp__proc_parse_stat(const char *line, int pid, hp__proc_info *p)
{
  const char *q = strrchr(line, ')');

  memset(p, 0, sizeof(*p));
  p->pid = pid;
  /* The command name may hold spaces and parentheses: fields start after the last ')'. The
   * kernel's flags are field 9 and the start time field 22; the others are skipped as words. */
  if (q == NULL ||
      sscanf(q + 1,
             " %c %d %d %*s %*s %*s %u %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s"
             " %*s %*s %llu",
             &p->state, &p->ppid, &p->pgrp, &p->flags, &p->start) != 5)
    return -1;
  return 0;
}

int hp__proc_info_read(int pid, hp__proc_info *p)
{
  char path[64], buf[1024];

  snprintf(path, sizeof(path), "/proc/%d/stat", pid);
  if (read_small(path, buf, sizeof(buf)) <= 0)
    return -1;
  return hp__proc_parse_stat(buf, pid, p);
}

int hp__proc_each_since(hp__proc_visit fn, void *arg, unsigned long long since)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  hp__proc_info p;
  int pid;

  if (d == NULL)
    return -1;
  while ((e = readdir(d)) != NULL) {
    if ((pid = atoi(e->d_name)) <= 0 || hp__proc_info_read(pid, &p) != 0 || p.start < since)
      continue;
    if (fn(&p, arg))
      break;
  }
  closedir(d);
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

int hp__proc_env_has(int pid, const char *entry)
{
  /* The needle is the entry between NULs; the buffer starts with one, standing for the NUL
   * before the first entry. What did not match is kept, less than a needle long, so an entry cut
   * between two reads is still found. */
  char path[64], buf[8192], needle[256];
  size_t elen = strlen(entry), have = 1;
  ssize_t n;
  int fd, found = 0;

  if (elen + 2 > sizeof(needle) || elen == 0)
    return 0;
  needle[0] = '\0';
  memcpy(needle + 1, entry, elen);
  needle[elen + 1] = '\0';
  snprintf(path, sizeof(path), "/proc/%d/environ", pid);
  if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
    return -1;
  buf[0] = '\0';
  for (;;) {
    n = read(fd, buf + have, sizeof(buf) - have - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      buf[have++] = '\0'; /* the last entry may lack its NUL */
      found = memmem(buf, have, needle, elen + 2) != NULL;
      break;
    }
    have += (size_t)n;
    if (memmem(buf, have, needle, elen + 2) != NULL) {
      found = 1;
      break;
    }
    if (have > elen + 1) {
      memmove(buf, buf + have - (elen + 1), elen + 1);
      have = elen + 1;
    }
  }
  close(fd);
  return found;
}

typedef struct members {
  int pgid;
  int *pids;
  size_t n, max;
} members;

static int add_member(const hp__proc_info *p, void *arg)
{
  members *m = arg;

  if (p->pgrp == m->pgid && p->pid != m->pgid && HP__PROC_LIVE(p))
    m->pids[m->n++] = p->pid;
  return m->n >= m->max;
}

size_t hp__proc_group_members(int pgid, int *pids, size_t max)
{
  members m = {pgid, pids, 0, max};

  if (max > 0)
    hp__proc_each_since(add_member, &m, 0);
  return m.n;
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
    if (len == HP_ENOENT && cur == root && *n == 0) {
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

int hp__proc_last_pid(void)
{
  static int fd = -2; /* kept open: one pread per call */
  char b[32];
  ssize_t n;

  if (fd == -2)
    fd = open("/proc/sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  n = pread(fd, b, sizeof(b) - 1, 0);
  if (n <= 0)
    return -1;
  b[n] = '\0';
  return atoi(b);
}

unsigned long long hp__proc_pid_window_ns(void)
{
  static unsigned long long ns;
  char b[32];

  if (ns == 0) {
    /* 32768, the smallest default, when unreadable. */
    long max = read_small("/proc/sys/kernel/pid_max", b, sizeof(b)) > 0 ? atol(b) : 32768;
    if (max < 300 || max > 1000000)
      max = max < 300 ? 300 : 1000000;
    ns = (unsigned long long)max * 1000ull;
  }
  return ns;
}
