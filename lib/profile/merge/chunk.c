/*
 * One large file read on every core (chunk.h): where a file is split, and how its ranges, parsed
 * on the pool, are checked and merged in order into the file's one profile.
 *
 * Why this is exact and not approximate (docs/internals/merge.md, "One large file"): a range
 * starts after a newline found by a plain search, which a quoted field may hold; the range before
 * it reads records with quotes and knows where its last one really ended, so a range whose start
 * was wrong is read again from there. Each range reads the file's header record first, so it maps
 * the columns as one pass did; its messages about the header are the first range's and are
 * dropped. A PMC dispatch id seen in an earlier range makes a range read again with those ids
 * known, as one pass would have known them.
 */
#include "profile/merge/chunk.h"
#include "profile/model/build.h"
#include "profile/merge/merge.h"
#include "profile/model/strtab.h"
#include "util/csv/csv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The range size. It must not depend on the number of threads: the output would. */
#define CHUNK_BYTES ((unsigned long long)32 << 20)

/* The formats whose rows hold no state that a range cannot rebuild (chunk.h). */
static int splittable(hp__fmt fmt)
{
  switch (fmt) {
  case HP__F_HIPPROF_PMC:
  case HP__F_ROCPROF_RESULTS:
  case HP__F_V3_KTRACE:
  case HP__F_V3_HIPTRACE:
  case HP__F_V3_HSATRACE:
  case HP__F_V3_COPYTRACE: return 1;
  default: return 0;
  }
}

/* The range size: CHUNK_BYTES, or in a build with the test hooks HPRUN_CHUNK_BYTES where it is
 * set (docs/internals/merge.md, "The test knob"). */
static unsigned long long chunk_bytes(void)
{
#ifdef HP_TEST_HOOKS
  const char *s = getenv("HPRUN_CHUNK_BYTES");
  char *e;
  unsigned long long v;

  if (s != NULL && *s != '\0') {
    errno = 0;
    v = strtoull(s, &e, 10);
    if (!errno && !*e && v != 0)
      return v;
  }
#endif
  return CHUNK_BYTES;
}

/* The offset just past the first '\n' at or after `at` in fd, or 0 when there is none. */
static unsigned long long line_after(int fd, unsigned long long at)
{
  char buf[65536];
  ssize_t n;
  char *nl;

  for (;;) {
    n = pread(fd, buf, sizeof(buf), (off_t)at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return 0;
    if ((nl = memchr(buf, '\n', (size_t)n)) != NULL)
      return at + (unsigned long long)(nl - buf) + 1;
    at += (unsigned long long)n;
  }
}

/* The header record's end and lines, read with quotes as the parsers read it. 1, or 0 when the
 * file has none. */
static int header_end(const char *path, unsigned long long *head, long *lines)
{
  hp__csv *c;
  hp__csv_rec rec;
  int r;

  if (hp__csv_open_path(&c, path, NULL) != 0)
    return 0;
  r = hp__csv_next(c, &rec);
  *head = hp__csv_file_offset(c);
  *lines = hp__csv_line(c) - 1;
  hp__csv_free(c);
  return r == 1;
}

int hp__chunk_plan(const char *path, hp__fmt fmt, hp__chunkfile **out)
{
  unsigned long long size, step = chunk_bytes(), b, s;
  hp__chunkfile *cf = NULL;
  struct stat st;
  size_t cap = 0;
  int fd, r = 0;

  *out = NULL;
  if (!splittable(fmt) || stat(path, &st) != 0 || (unsigned long long)st.st_size <= step)
    return 0;
  size = (unsigned long long)st.st_size;
  if ((cf = calloc(1, sizeof(*cf))) == NULL)
    return HP_ENOMEM;
  hp_diags_init(&cf->diags);
  if (!header_end(path, &cf->head, &cf->hlines))
    goto none;
  if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
    goto none;
  if (hp__grow((void **)&cf->at, &cap, 1, sizeof(*cf->at)) == 0)
    cf->n = 1; /* at[0] = 0: the first range reads the header as one pass does */
  for (b = step; r == 0 && cf->n && b < size; b += step) {
    /* A range starts after the first newline at or after its nominal start. */
    if ((s = line_after(fd, b - 1)) == 0 || s >= size)
      break;
    if (s < cf->head || s <= cf->at[cf->n - 1])
      continue;
    if ((r = hp__grow((void **)&cf->at, &cap, cf->n + 1, sizeof(*cf->at))) == 0)
      cf->at[cf->n++] = s;
  }
  close(fd);
  if (r != 0 || cf->n == 0) {
    hp__chunkfile_free(cf);
    return HP_ENOMEM;
  }
  if (cf->n < 2)
    goto none;
  *out = cf;
  return 0;

none:
  hp__chunkfile_free(cf);
  return 0;
}

void hp__chunkfile_free(hp__chunkfile *cf)
{
  if (cf == NULL)
    return;
  free(cf->at);
  hp_profile_free(cf->acc);
  hp_diags_free(&cf->diags);
  free(cf->u);
  free(cf);
}

void hp__chunk_range(const hp__chunkfile *cf, size_t k, hp__range *rg)
{
  memset(rg, 0, sizeof(*rg));
  rg->head = k == 0 ? 0 : cf->head;
  rg->from = cf->at[k];
  rg->stop = k + 1 < cf->n ? cf->at[k + 1] : ULLONG_MAX;
  rg->hlines = k == 0 ? 0 : cf->hlines;
}

/* ---------------------------------------------------------------------------------------------- */
/* Merging the ranges in order.                                                                    */

/* Whether a range's dispatch ids meet those of the ranges before it. */
static int ids_meet(const hp__chunkfile *cf, const hp__range_out *o)
{
  size_t i, n = o->ids_n < cf->u_n ? o->ids_n : cf->u_n;

  for (i = 0; i < n; i++)
    if (o->ids[i] & cf->u[i])
      return 1;
  return 0;
}

static int ids_add(hp__chunkfile *cf, const hp__range_out *o)
{
  size_t i;

  if (o->ids_n && hp__grow((void **)&cf->u, &cf->u_n, o->ids_n, 1))
    return HP_ENOMEM;
  for (i = 0; i < o->ids_n; i++)
    cf->u[i] |= o->ids[i];
  return 0;
}

/* Reads range k again on this thread, from `from`, with the earlier ranges' dispatch ids. */
static int reread(const hp_profile *tmpl, hp__chunkfile *cf, size_t k, unsigned long long from,
                  hp_profile **p, hp_diags *d, int *r, hp__range_out *o, const char *path,
                  hp__fmt fmt, unsigned skip)
{
  hp__range rg;
  size_t limit = d ? d->limit : 0;

  hp_profile_free(*p);
  *p = NULL;
  if (d) {
    hp_diags_free(d);
    d->limit = limit;
  }
  free(o->ids);
  memset(o, 0, sizeof(*o));
  hp__chunk_range(cf, k, &rg);
  rg.from = from;
  rg.ids_in = cf->u;
  rg.ids_in_n = cf->u_n;
  if (hp__profile_new_like(tmpl, p))
    return HP_ENOMEM;
  *r = hp__parse_file(*p, path, fmt, skip, d, &rg, o);
  return *r == HP_ENOMEM ? HP_ENOMEM : 0;
}

/* Moves a range's messages into the file's: the header's (the first range's) dropped from later
 * ranges, lines made the file's, and the per-file cap applied across ranges as one pass did. */
static void diags_take(hp__chunkfile *cf, size_t k, hp_diags *d, long off, size_t nsupp,
                       long hlines)
{
  const hp_diag *e;

  cf->nsupp += nsupp;
  if (d == NULL)
    return;
  for (e = d->head; e; e = e->next) {
    if (k > 0 && e->line >= 1 && e->line <= hlines)
      continue;
    if (e->level == HP_DIAG_WARNING && cf->nwarn >= HP__MAX_FILE_WARNINGS) {
      cf->nsupp++;
      continue;
    }
    cf->nwarn += e->level == HP_DIAG_WARNING;
    (void)hp_diags_add(&cf->diags, e->level, e->file, e->line > 0 ? e->line + off : e->line, e->col,
                       "%s", e->msg);
  }
  cf->diags.dropped += d->dropped;
  hp_diags_free(d);
}

/* The file is finished: its profile goes into dst as one file's. */
static int finish(hp_profile *dst, hp__chunkfile *cf, const char *path, hp__fmt fmt, int r,
                  int *fin, int *err)
{
  int m = 0;

  cf->ended = 1;
  *fin = 1;
  *err = r;
  if (cf->nsupp)
    hp_diags_add(&cf->diags, HP_DIAG_NOTE, path, 0, 0,
                 "%zu more warnings about this file not shown", cf->nsupp);
  if (cf->acc == NULL)
    return 0;
  hp__profile_merge_end(cf->acc);
  if (r == 0 && cf->opened &&
      (m = hp__profile_add_file(cf->acc, path, hp__fmt_name(fmt), cf->tables)) != 0)
    return m;
  m = hp__profile_merge(dst, cf->acc);
  hp_profile_free(cf->acc);
  cf->acc = NULL;
  return m;
}

/* Some dispatch ids were not small numbers: they were de-duplicated in a window of rows, which a
 * range cannot continue. The file is read again in one pass, here, and its ranges dropped. */
static int whole(hp_profile *dst, const hp_profile *tmpl, hp__chunkfile *cf, const char *path,
                 hp__fmt fmt, unsigned skip, int quiet, int *fin, int *err)
{
  hp_profile *p = NULL;
  size_t limit = cf->diags.limit;
  int m;

  hp_profile_free(cf->acc);
  cf->acc = NULL;
  hp_diags_free(&cf->diags);
  cf->diags.limit = limit;
  cf->ended = 1;
  *fin = 1;
  if (hp__profile_new_like(tmpl, &p))
    return HP_ENOMEM;
  *err = hp__parse_file(p, path, fmt, skip, quiet ? NULL : &cf->diags, NULL, NULL);
  m = *err == HP_ENOMEM ? HP_ENOMEM : hp__profile_merge(dst, p);
  hp_profile_free(p);
  return m;
}

int hp__chunk_take(hp_profile *dst, const hp_profile *tmpl, hp__chunkfile *cf, size_t k,
                   hp_profile **p, hp_diags *d, int r, hp__range_out *o, const char *path,
                   hp__fmt fmt, unsigned skip, int *fin, int *err)
{
  hp__range rg;
  long off;
  int m = 0;

  *fin = 0;
  if (cf->ended)
    goto out;
  hp__chunk_range(cf, k, &rg);
  if (k > 0 && cf->end >= rg.stop) {
    /* A record of the range before ran over this whole range: it holds nothing of its own. */
    if (k + 1 == cf->n)
      m = finish(dst, cf, path, fmt, 0, fin, err);
    goto out;
  }
  /* Started where the range before did not end (a newline inside a quoted field, blank lines
   * read with the record after them), or met dispatch ids seen before: read it again. */
  if ((k > 0 && cf->end != rg.from) || (o->ids && cf->u && ids_meet(cf, o)))
    if ((m = reread(tmpl, cf, k, k > 0 ? cf->end : 0, p, d, &r, o, path, fmt, skip)) != 0)
      goto out;
  if (r == HP_ENOMEM) {
    m = r;
    goto out;
  }
  off = k == 0 ? 0 : cf->endline - (o->hlines + 1);
  if (o->window) {
    m = whole(dst, tmpl, cf, path, fmt, skip, d == NULL, fin, err);
    goto out;
  }
  diags_take(cf, k, d, off, o->nsupp, o->hlines);
  if ((m = ids_add(cf, o)) != 0)
    goto out;
  if (*p && cf->acc == NULL) {
    cf->acc = *p;
    *p = NULL;
  } else if (*p && (m = hp__profile_merge_range(cf->acc, *p)) != 0) {
    goto out;
  }
  cf->end = o->end;
  cf->endline = o->endline + off;
  cf->tables |= o->tables;
  cf->opened |= o->opened;
  if (r != 0 || !o->complete || k + 1 == cf->n)
    m = finish(dst, cf, path, fmt, r, fin, err);

out:
  hp_profile_free(*p);
  *p = NULL;
  hp_diags_free(d);
  free(o->ids);
  o->ids = NULL;
  return m;
}
