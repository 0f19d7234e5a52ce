/*
 * The files a run left in its folder: every file below <pass>/<k>, recursively, in alphasort
 * order at each level, except hprun's own copies of its output (stdout.txt, stderr.txt,
 * hprun-memory.txt). They go into the run's record (summary.json's "files").
 *
 * The run folder itself is read from the descriptor hprun opened when it made the folder
 * (run.c): getdents64 straight on it, the entries' types from the listing, so a run that left
 * nothing costs two system calls here instead of an open, a stat, two reads and a close; and a
 * run that replaced its folder's path with a link is not followed. Sub-folders, which only
 * profilers make, are listed by path as before.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's record for getdents64(2), called through syscall(2): glibc has a wrapper only from
 * 2.30 on, and the DCU nodes' distributions can be older. */
struct ldirent64 {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Lists the files below root/rel (rel non-empty) into out, sub-folders first-class. */
static int list_files(const char *root, const char *rel, hp_strv *out)
{
  char *path = hp__path_join(root, rel);
  struct dirent **ents = NULL;
  int n, i, r = 0;

  if (path == NULL)
    return HP_ENOMEM;
  n = scandir(path, &ents, NULL, alphasort);
  for (i = 0; i < n; i++) {
    const char *name = ents[i]->d_name;
    char *sub, *full;
    struct stat st;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || r)
      goto next;
    sub = hp__asprintf("%s/%s", rel, name);
    full = hp__path_join(path, name);
    if (sub == NULL || full == NULL) {
      free(sub);
      free(full);
      r = HP_ENOMEM;
      goto next;
    }
    if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
      r = list_files(root, sub, out);
      free(sub);
    } else {
      r = hp__strv_push_own(out, sub);
    }
    free(full);
  next:
    free(ents[i]);
  }
  free(ents);
  free(path);
  return r;
}

/* One top-level entry: its name and whether it is a folder (not through a link). */
typedef struct ent {
  char *name;
  int dir;
} ent;

static int by_name(const void *a, const void *b)
{
  return strcoll(((const ent *)a)->name, ((const ent *)b)->name); /* as alphasort */
}

static int ours(const char *name)
{
  return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "stdout.txt") == 0 ||
      strcmp(name, "stderr.txt") == 0 || strcmp(name, "hprun-memory.txt") == 0;
}

/* Appends one entry of the listing to *v (grown as needed). */
static int ent_add(int dfd, const struct ldirent64 *d, ent **v, size_t *n, size_t *cap)
{
  struct stat st;
  int dir = d->d_type == DT_DIR;

  if (d->d_type == DT_UNKNOWN) /* file systems that do not say: ask, without following a link */
    dir = fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
  if (*n == *cap) {
    size_t ncap = *cap ? *cap * 2 : 8;
    ent *nv = realloc(*v, ncap * sizeof(**v));
    if (nv == NULL)
      return HP_ENOMEM;
    *v = nv;
    *cap = ncap;
  }
  if (((*v)[*n].name = hp__strdup(d->d_name)) == NULL)
    return HP_ENOMEM;
  (*v)[(*n)++].dir = dir;
  return 0;
}

/* Reads the top level from dfd (from its start) into *v, sorted; a folder that cannot be read
 * gives nothing, as scandir would. */
static int read_top(int dfd, ent **v, size_t *n)
{
  size_t cap = 0;
  char *buf = malloc(32768);
  ssize_t got;
  int r = 0;

  *v = NULL;
  *n = 0;
  if (buf == NULL)
    return HP_ENOMEM;
  while (r == 0 && (got = (ssize_t)syscall(SYS_getdents64, dfd, buf, 32768)) > 0) {
    ssize_t off = 0;
    while (r == 0 && off < got) {
      const struct ldirent64 *d = (const struct ldirent64 *)(void *)(buf + off);
      off += d->d_reclen;
      if (!ours(d->d_name))
        r = ent_add(dfd, d, v, n, &cap);
    }
  }
  free(buf);
  if (r == 0 && *n > 1)
    qsort(*v, *n, sizeof(**v), by_name);
  return r;
}

int hp__run_files(int dfd, const char *dir, hp_strv *out)
{
  ent *v = NULL;
  size_t n = 0, i;
  int r = read_top(dfd, &v, &n);

  for (i = 0; i < n; i++) {
    if (r == 0 && v[i].dir) {
      r = list_files(dir, v[i].name, out);
      free(v[i].name);
    } else if (r == 0) {
      r = hp__strv_push_own(out, v[i].name);
    } else {
      free(v[i].name);
    }
  }
  free(v);
  return r;
}
