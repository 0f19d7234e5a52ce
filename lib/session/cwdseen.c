/*
 * The app's folder (app.cwd) as the last run left it, so that a run which changed nothing there
 * costs two stat(2) calls instead of two listings (docs/internals/session.md, "What a run leaves
 * in the app's folder").
 *
 * A run's new top-level files in its working folder are moved into its run folder
 * (aftermath.c), which needs that folder's names before the run and after it. Adding, removing
 * or renaming a name in a folder sets the folder's modification and change times (mtime, ctime)
 * to the current time, so when both are as they were, no name came or went. That holds only
 * where the times are the kernel's own and fine enough: a change within the same clock tick (or
 * second, on a file system that keeps whole seconds) as the last one could leave them equal. So a
 * listing is trusted only
 *   - on a local file system that keeps its own times (ext2/3/4, XFS, Btrfs, tmpfs): a network
 *     file system's times come from the server's clock and its attributes may be cached;
 *   - when both times were at least two whole seconds older than the coarse real-time clock read
 *     just before the folder was looked at: any later change then carries a later time, even
 *     rounded to whole seconds;
 *   - when the folder's stamp (device, inode, mtime, ctime, size, links) was the same just before
 *     and just after the listing, so that the listing belongs to that stamp.
 * Otherwise (or when the stat fails) every look lists the folder, as before.
 */
#include "session/session.h"
#include "util/base/strv.h"

#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>

#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif

/* The file systems whose folder times are kept by this kernel, at a known fine granularity. */
static int local_times(const char *dir)
{
  struct statfs fs;

  if (statfs(dir, &fs) != 0)
    return 0;
  switch ((unsigned long)fs.f_type) {
  case EXT4_SUPER_MAGIC: /* also ext2 and ext3: one magic number */
  case XFS_SUPER_MAGIC:
  case BTRFS_SUPER_MAGIC:
  case TMPFS_MAGIC: return 1;
  default: return 0;
  }
}

static void stamp_of(const struct stat *st, hp__cwd_stamp *t)
{
  memset(t, 0, sizeof(*t));
  t->dev = (long long)st->st_dev;
  t->ino = (long long)st->st_ino;
  t->size = (long long)st->st_size;
  t->nlink = (long long)st->st_nlink;
  t->mtime_s = (long long)st->st_mtim.tv_sec;
  t->mtime_ns = (long long)st->st_mtim.tv_nsec;
  t->ctime_s = (long long)st->st_ctim.tv_sec;
  t->ctime_ns = (long long)st->st_ctim.tv_nsec;
}

static int stamp_now(const char *dir, hp__cwd_stamp *t)
{
  struct stat st;

  if (stat(dir, &st) != 0)
    return -1;
  stamp_of(&st, t);
  return 0;
}

static int stamp_eq(const hp__cwd_stamp *a, const hp__cwd_stamp *b)
{
  return memcmp(a, b, sizeof(*a)) == 0;
}

int hp__cwd_seen_same(const hp__cwd_seen *s, const char *dir)
{
  hp__cwd_stamp now;

  return s->valid && stamp_now(dir, &now) == 0 && stamp_eq(&now, &s->stamp);
}

int hp__cwd_seen_update(hp__cwd_seen *s, const char *dir)
{
  hp__cwd_stamp a, b;
  struct timespec clk;
  int r;

  if (hp__cwd_seen_same(s, dir))
    return 0;
  s->valid = 0;
  hp_strv_free(&s->names);
  if (s->local == 0)
    s->local = local_times(dir) ? 1 : -1;
  clock_gettime(CLOCK_REALTIME_COARSE, &clk);
  if (stamp_now(dir, &a) != 0)
    return hp__cwd_list(dir, &s->names); /* not there or not readable: an empty list */
  if ((r = hp__cwd_list(dir, &s->names)) != 0)
    return r;
  if (s->local > 0 && a.mtime_s <= (long long)clk.tv_sec - 3 &&
      a.ctime_s <= (long long)clk.tv_sec - 3 && stamp_now(dir, &b) == 0 && stamp_eq(&a, &b)) {
    s->stamp = a;
    s->valid = 1;
  }
  return 0;
}

void hp__cwd_seen_free(hp__cwd_seen *s)
{
  if (s == NULL)
    return;
  hp_strv_free(&s->names);
  s->valid = 0;
}
