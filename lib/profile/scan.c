/*
 * hp_profile_add_path: which files a path holds, in which order they are read, and which parser
 * reads each one. A folder is walked recursively in byte order of names, so the result never
 * depends on the file system's order. Every file's format is told first (detect.c), because a
 * folder's stats files take precedence over the traces beside them; then each file goes to the
 * parser for its format (hp__parse_file, parse/parse_file.c), whole or split into ranges
 * (merge/chunk.h).
 */
#include "profile/model/build.h"
#include "profile/merge/chunk.h"
#include "profile/parse/detect.h"
#include "profile/merge/merge.h"
#include "profile/parse/parsers.h"
#include "profile/parse/region.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/sys/pool.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------------------------------------- */
/* Walking folders.                                                                                */

typedef struct filelist {
  char **path;
  hp__fmt *fmt;
  size_t n, cap;
} filelist;

static int list_add(filelist *l, const char *path)
{
  size_t cap = l->cap, cap2 = l->cap;

  if (hp__grow((void **)&l->path, &cap, l->n + 1, sizeof(*l->path)) ||
      hp__grow((void **)&l->fmt, &cap2, l->n + 1, sizeof(*l->fmt)))
    return HP_ENOMEM;
  l->cap = cap < cap2 ? cap : cap2;
  if ((l->path[l->n] = hp__strdup(path)) == NULL)
    return HP_ENOMEM;
  l->n++;
  return 0;
}

static void list_free(filelist *l)
{
  size_t i;

  for (i = 0; i < l->n; i++)
    free(l->path[i]);
  free(l->path);
  free(l->fmt);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists regular files under `dir` recursively, each folder's entries in byte order. Symbolic links
 * to files are followed, links to folders are not (no cycles). Unreadable folders are warnings. */
static int walk(const char *dir, filelist *l, hp_diags *diags, int depth)
{
  DIR *d;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  int r = 0;

  if (depth > 64) {
    hp_diags_add(diags, HP_DIAG_WARNING, dir, 0, 0, "folders nested too deeply; not read");
    return 0;
  }
  d = opendir(dir);
  if (d == NULL) {
    hp_diags_add(diags, HP_DIAG_WARNING, dir, 0, 0, "cannot read folder: %s", strerror(errno));
    return 0;
  }
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    if (hp__grow((void **)&names, &cap, n + 1, sizeof(*names)) ||
        (names[n] = hp__strdup(e->d_name)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    n++;
  }
  qsort(names, n, sizeof(*names), cmp_str);
  for (i = 0; i < n && r == 0; i++) {
    char *path = hp__path_join(dir, names[i]);
    struct stat st;
    if (path == NULL) {
      r = HP_ENOMEM;
      break;
    }
    if (lstat(path, &st) == 0) {
      if (S_ISDIR(st.st_mode))
        r = walk(path, l, diags, depth + 1);
      else if (S_ISREG(st.st_mode) ||
               (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode)))
        r = list_add(l, path);
    }
    free(path);
  }

fail:
  closedir(d);
  for (i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return r;
}

static size_t dir_len(const char *path)
{
  const char *s = strrchr(path, '/');

  return s ? (size_t)(s - path) : 0;
}

static int same_dir(const char *a, const char *b)
{
  size_t la = dir_len(a);

  return la == dir_len(b) && strncmp(a, b, la) == 0;
}

/* Which traced quantities a stats-file format already gives. */
static unsigned stats_tables(hp__fmt f)
{
  switch (f) {
  case HP__F_HIPPROF_KERNEL:
  case HP__F_ROCPROF_KSTATS:
  case HP__F_V3_KSTATS:
  case HP__F_NSYS_KERNSUM: return HP__TB_KERNEL;
  case HP__F_NSYS_APISUM: return HP__TB_API;
  case HP__F_NSYS_MEMSUM: return HP__TB_COPY;
  case HP__F_HIPPROF_API:
  case HP__F_ROCPROF_HIPSTATS:
  case HP__F_V3_HIPSTATS: return HP__TB_API;
  case HP__F_ROCPROF_HSASTATS:
  case HP__F_V3_HSASTATS: return HP__TB_HSA;
  case HP__F_ROCPROF_COPYSTATS:
  case HP__F_V3_COPYSTATS: return HP__TB_COPY;
  default: return 0;
  }
}

/* Lists the files `path` names: itself, or every file under it when it is a folder. */
static int list_path(const char *path, filelist *l, hp_diags *diags)
{
  struct stat st;

  if (stat(path, &st) != 0)
    return errno == ENOENT || errno == ENOTDIR ? HP_ENOENT : HP_EIO;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (d == NULL)
      return HP_EIO;
    closedir(d);
    return walk(path, l, diags, 0);
  } else {
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
      return HP_EIO;
    fclose(fp);
    return list_add(l, path);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading every file into its own profile, and merging them in order.                            */

/* One file to read. */
typedef struct task {
  const char *path; /* in its PATH's file list */
  hp__fmt fmt;
  unsigned skip; /* the tables a stats file beside it already gives */
  size_t arg;    /* the PATH argument it came from */
  hp_profile *p; /* the file's own profile (made by the worker) */
  hp_diags diags;
  int r;
  hp__chunkfile *cf; /* a range of a split file (chunk.h), or NULL; range 0's task owns it */
  size_t k;          /* the range */
  hp__range_out o;   /* what reading the range gave */
} task;

/* Everything one hp_profile_add_paths call reads. The workers read `tmpl`, `diags->limit` and
 * their own task; everything else is the caller's thread's. */
typedef struct job {
  hp_profile *dst, *tmpl; /* tmpl: the settings every file's profile starts from */
  hp_diags *diags;        /* the caller's; may be NULL */
  size_t limit;           /* diags->limit, for the tasks' own lists */
  filelist *lists;        /* by PATH */
  hp_diags *ldiags;       /* by PATH: its listing's and detection's messages */
  int *errs;              /* by PATH */
  size_t npaths, flushed; /* PATHs whose listing messages are in diags */
  int split;              /* large files are read as ranges (not in the one-pass reference) */
  int jobs;               /* the threads that read the tasks */
  task *t;
  size_t nt, tcap;
} job;

/* Appends the messages of `s` to `d` (through d's limit) and empties `s`. */
static void diags_move(hp_diags *d, hp_diags *s)
{
  const hp_diag *e;
  size_t kept_errors = 0;

  for (e = s->head; d && e; e = e->next) {
    kept_errors += e->level == HP_DIAG_ERROR;
    /* A message lost for memory is lost as it would have been when it was made. */
    (void)hp_diags_add(d, e->level, e->file, e->line, e->col, "%s", e->msg);
  }
  if (d) {
    d->dropped += s->dropped;
    d->nerrors += s->nerrors - kept_errors;
  }
  hp_diags_free(s);
}

static void task_work(void *ud, size_t i)
{
  job *j = ud;
  task *t = &j->t[i];

  hp__range rg;

  t->diags.limit = j->limit;
  if (t->cf)
    hp__chunk_range(t->cf, t->k, &rg);
  if ((t->r = hp__profile_new_like(j->tmpl, &t->p)) == 0)
    t->r = hp__parse_file(t->p, t->path, t->fmt, t->skip, j->diags ? &t->diags : NULL,
                          t->cf ? &rg : NULL, t->cf ? &t->o : NULL);
}

/* Moves the listing messages of the PATHs up to `arg` (exclusive) into the caller's list. */
static void flush_listing(job *j, size_t upto)
{
  for (; j->flushed < upto && j->flushed < j->npaths; j->flushed++)
    diags_move(j->diags, &j->ldiags[j->flushed]);
}

/* Merges file i into the caller's profile, in file order. A file that failed ends its PATH as
 * one pass did: what it had read counts, the files after it in that PATH are not read. */
static int task_done(void *ud, size_t i)
{
  job *j = ud;
  task *t = &j->t[i];
  int r = 0;

  flush_listing(j, t->arg + 1);
  if (t->r == HP_ENOMEM)
    r = HP_ENOMEM;
  else if (j->errs[t->arg] == 0 && t->cf) {
    int fin, err;
    r = hp__chunk_take(j->dst, j->tmpl, t->cf, t->k, &t->p, j->diags ? &t->diags : NULL, t->r,
                       &t->o, t->path, t->fmt, t->skip, &fin, &err);
    if (r == 0 && fin) {
      diags_move(j->diags, &t->cf->diags);
      j->errs[t->arg] = err;
    }
  } else if (j->errs[t->arg] == 0) {
    if (t->p && (r = hp__profile_merge(j->dst, t->p)) == 0) {
      diags_move(j->diags, &t->diags);
      j->errs[t->arg] = t->r;
    }
  }
  hp_profile_free(t->p);
  t->p = NULL;
  hp_diags_free(&t->diags);
  return r;
}

/* Lists and tells the formats of PATH `k`'s files, and queues the ones to read. 0 or HP_ENOMEM;
 * a PATH that cannot be read gets its code in errs[k]. */
static int plan_path(job *j, const char *path, size_t k)
{
  filelist *l = &j->lists[k];
  hp_diags *d = j->diags ? &j->ldiags[k] : NULL;
  size_t i, m;
  int r;

  if ((r = list_path(path, l, d)) != 0) {
    j->errs[k] = r;
    return r == HP_ENOMEM ? r : 0;
  }
  /* First tell every file's format, so that a folder's stats files can take precedence over the
   * traces next to them: rocprof writes results.stats.csv beside results.csv, rocprofv3 writes
   * kernel_stats beside kernel_trace, and counting both would double every kernel. */
  for (i = 0; i < l->n; i++)
    l->fmt[i] = hp__detect(l->path[i], d);
  for (i = 0; i < l->n; i++) {
    hp__chunkfile *cf = NULL;
    unsigned skip = 0;
    size_t nr, c;
    if (l->fmt[i] == HP__F_UNKNOWN) {
      j->dst->nignored++;
      continue;
    }
    if (stats_tables(l->fmt[i]) == 0)
      for (m = 0; m < l->n; m++)
        if (m != i && same_dir(l->path[i], l->path[m]))
          skip |= stats_tables(l->fmt[m]);
    /* A large file of some formats is read as several ranges, a task each (chunk.h). */
    if (j->split && hp__chunk_plan(l->path[i], l->fmt[i], &cf))
      return HP_ENOMEM;
    nr = cf ? cf->n : 1;
    if (hp__grow((void **)&j->t, &j->tcap, j->nt + nr, sizeof(*j->t))) {
      hp__chunkfile_free(cf);
      return HP_ENOMEM;
    }
    for (c = 0; c < nr; c++) {
      task *t = &j->t[j->nt++];
      t->path = l->path[i];
      t->fmt = l->fmt[i];
      t->arg = k;
      t->skip = skip;
      t->cf = cf;
      t->k = c;
      if (cf)
        cf->diags.limit = j->limit;
    }
  }
  return 0;
}

/* app.region: reads the spans from every listed file (all PATHs: one span per process), and
 * lends them to the files' profiles when they hold a dispatch. 0 or HP_ENOMEM. */
static int region_prepare(job *j)
{
  char **all = NULL;
  hp__fmt *fmt = NULL;
  size_t k, i, n = 0, cap = 0, cap2 = 0;
  int r = 0;

  for (k = 0; k < j->npaths && r == 0; k++)
    for (i = 0; i < j->lists[k].n && r == 0; i++)
      if ((r = hp__grow((void **)&all, &cap, n + 1, sizeof(*all))) == 0 &&
          (r = hp__grow((void **)&fmt, &cap2, n + 1, sizeof(*fmt))) == 0) {
        all[n] = j->lists[k].path[i];
        fmt[n++] = j->lists[k].fmt[i];
      }
  if (r == 0)
    r = hp__region_prepare(j->dst->region, all, fmt, n, j->diags);
  free(all);
  free(fmt);
  j->dst->region_filter = r == 0 && j->dst->region->state == HP_REGION_APPLIED;
  j->tmpl->region = j->dst->region;
  j->tmpl->region_borrowed = 1;
  j->tmpl->region_filter = j->dst->region_filter;
  return r;
}

static void job_free(job *j)
{
  size_t i;

  for (i = 0; i < j->nt; i++) {
    hp_profile_free(j->t[i].p);
    hp_diags_free(&j->t[i].diags);
    free(j->t[i].o.ids);
    if (j->t[i].k == 0)
      hp__chunkfile_free(j->t[i].cf);
  }
  for (i = 0; i < j->npaths; i++) {
    list_free(&j->lists[i]);
    hp_diags_free(&j->ldiags[i]);
  }
  free(j->t);
  free(j->lists);
  free(j->ldiags);
  hp_profile_free(j->tmpl);
}

int hp_profile_add_paths(hp_profile *p, const char *const *paths, size_t n, int jobs,
                         hp_diags *diags, int *errs)
{
  job j;
  size_t k;
  int r;

  if (p == NULL || (n && (paths == NULL || errs == NULL)))
    return HP_EINVAL;
  memset(&j, 0, sizeof(j));
  j.dst = p;
  j.diags = diags;
  j.split = 1;
  if (jobs <= 0)
    jobs = hp__pool_cpus();
  j.jobs = jobs;
  j.limit = diags ? diags->limit : 0;
  j.errs = errs;
  j.npaths = n;
  j.lists = calloc(n ? n : 1, sizeof(*j.lists));
  j.ldiags = calloc(n ? n : 1, sizeof(*j.ldiags));
  if (j.lists == NULL || j.ldiags == NULL || (r = hp__profile_new_like(p, &j.tmpl)) != 0) {
    r = HP_ENOMEM;
    goto fail;
  }
  for (k = 0; k < n; k++) {
    errs[k] = 0;
    hp_diags_init(&j.ldiags[k]);
    j.ldiags[k].limit = j.limit;
  }
  for (k = 0; k < n; k++) {
    if (paths[k] == NULL)
      errs[k] = HP_EINVAL;
    else if ((r = plan_path(&j, paths[k], k)) != 0)
      goto fail;
  }
  if (p->region && (r = region_prepare(&j)) != 0)
    goto fail;
  /* A few files per thread ahead of the merge keep every thread busy; more would only hold more
   * finished profiles in memory. */
  if ((r = hp__pool_run(j.nt, jobs, (size_t)jobs * 4, task_work, task_done, &j)) != 0)
    goto fail;
  flush_listing(&j, n);
  hp__profile_merge_end(p);
  r = hp__profile_sort_kernels(p);

fail:
  job_free(&j);
  return r;
}

int hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags)
{
  int err = 0, r;

  if (p == NULL || path == NULL)
    return HP_EINVAL;
  r = hp_profile_add_paths(p, &path, 1, 1, diags, &err);
  return r ? r : err;
}
