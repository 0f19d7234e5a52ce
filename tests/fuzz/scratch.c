/*
 * The fuzz harnesses' scratch folder: one mkdtemp folder per process, removed at exit. See
 * scratch.h for why the harnesses need files at all.
 */
#include "scratch.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *scratch;
static FILE *devnull;
static pid_t owner;

static void die(const char *what, const char *path)
{
  fprintf(stderr, "fuzz harness: %s %s: %s\n", what, path ? path : "", strerror(errno));
  abort();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

/* Removes the folder bottom-up. Only the process that made it does so: a process forked from it
 * inherits this exit handler and must not pull the folder from under its parent. */
static void cleanup(void)
{
  if (scratch && getpid() == owner)
    nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (devnull)
    fclose(devnull);
  free(scratch);
  scratch = NULL;
  devnull = NULL;
}

const char *fz_dir(void)
{
  const char *tmp = getenv("TMPDIR");
  char *templ, *abs;

  if (scratch)
    return scratch;
  if (tmp == NULL || *tmp == '\0')
    tmp = "/tmp";
  mkdir(tmp, 0777); /* make fuzz's build-fuzz/tmp may not exist yet */
  if (asprintf(&templ, "%s/hprun-fuzz-XXXXXX", tmp) < 0)
    die("out of memory", NULL);
  if (mkdtemp(templ) == NULL)
    die("cannot make the scratch folder", templ);
  /* Absolute, so that a path the library builds from it never depends on the current folder. */
  abs = realpath(templ, NULL);
  if (abs == NULL)
    die("cannot resolve", templ);
  free(templ);
  scratch = abs;
  owner = getpid();
  atexit(cleanup);
  return scratch;
}

char *fz_path(const char *name)
{
  char *p;

  if (asprintf(&p, "%s/%s", fz_dir(), name) < 0)
    die("out of memory", NULL);
  return p;
}

void fz_mkdirs(const char *name)
{
  char *p = fz_path(name), *s = p + strlen(fz_dir()) + 1;

  for (;; s++) {
    if (*s == '/' || *s == '\0') {
      char c = *s;
      *s = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        die("cannot make the folder", p);
      *s = c;
      if (c == '\0')
        break;
    }
  }
  free(p);
}

void fz_write(const char *path, const void *data, size_t n)
{
  FILE *fp = fopen(path, "wb");
  int bad;

  if (fp == NULL)
    die("cannot write", path);
  bad = n && fwrite(data, 1, n, fp) != n;
  if (fclose(fp) != 0 || bad)
    die("cannot write", path);
}

FILE *fz_null(void)
{
  if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
    die("cannot open", "/dev/null");
  return devnull;
}
