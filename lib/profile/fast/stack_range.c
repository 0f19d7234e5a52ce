/*
 * One large kernel-stack CSV read as byte ranges (stack_range.h): a range's runs of rows, and the
 * caller's replay of them through one pass's launch window.
 *
 * Why the replay is exact (docs/internals/merge.md, "One large file"): one pass touches a launch's
 * window entry at every row and ticks the window after it. Within a run of consecutive rows of one
 * launch, only that launch is touched, so its entry, touched at the row of every sweep, is never
 * finished there, and the other entries see the same sweeps at the same rows. The replay touches
 * the launch at the run's first row, at every sweep point inside the run, and sets its last row at
 * the run's end, which leaves the window as one pass leaves it. The kept frame is the lowest
 * stack_sq of the launch's user frames, the first of equals: the run's best replaces the launch's
 * kept frame exactly when it is lower, as it would have row by row.
 */
#include "profile/fast/stack_range.h"
#include "profile/model/build.h"

#include <stdlib.h>
#include <string.h>

/* As parse_hipprof.c's FRAMES_MAX: the kept frames interned, past it copied. */
#define STACK_FRAMES_MAX 65536

void hp__stack_range_free(hp__stack_range *r)
{
  if (r == NULL)
    return;
  hp__buf_free(&r->recs);
  hp__strtab_free(&r->names);
  hp__strtab_free(&r->frames);
  hp__buf_free(&r->name);
  hp__buf_free(&r->index);
  memset(r, 0, sizeof(*r));
}

int hp__stack_range_end(hp__stack_range *r)
{
  uint32_t in = (uint32_t)r->index.len;
  unsigned char rec[8 + 64 + 20];

  if (!r->open)
    return 0;
  r->open = 0;
  if (in <= 64) { /* the usual short index: one append */
    memcpy(rec, &r->kid, 4);
    memcpy(rec + 4, &in, 4);
    if (in)
      memcpy(rec + 8, r->index.data, in);
    memcpy(rec + 8 + in, &r->n, 8);
    memcpy(rec + 16 + in, &r->sq, 8);
    memcpy(rec + 24 + in, &r->fid, 4);
    return hp__buf_add(&r->recs, rec, 28 + (size_t)in) ? HP_ENOMEM : 0;
  }
  return hp__buf_add(&r->recs, &r->kid, sizeof(r->kid)) || hp__buf_add(&r->recs, &in, sizeof(in)) ||
          (in && hp__buf_add(&r->recs, r->index.data, in)) ||
          hp__buf_add(&r->recs, &r->n, sizeof(r->n)) ||
          hp__buf_add(&r->recs, &r->sq, sizeof(r->sq)) ||
          hp__buf_add(&r->recs, &r->fid, sizeof(r->fid))
      ? HP_ENOMEM
      : 0;
}

int hp__stack_range_row(hp__stack_range *r, const char *name, size_t nn, const char *index,
                        size_t in)
{
  int same_name = r->open && r->name.len == nn && memcmp(r->name.data, name, nn) == 0;

  if (same_name && r->index.len == in && memcmp(r->index.data, index, in) == 0) {
    r->n++;
    return 0;
  }
  if (hp__stack_range_end(r))
    return HP_ENOMEM;
  if (!same_name) {
    hp__buf_reset(&r->name);
    if (hp__buf_add(&r->name, name, nn) ||
        hp__strtab_intern(&r->names, name, nn, hp__hash(name, nn), &r->kid) < 0)
      return HP_ENOMEM;
  }
  hp__buf_reset(&r->index);
  if (hp__buf_add(&r->index, index, in))
    return HP_ENOMEM;
  r->open = 1;
  r->n = 1;
  r->sq = 0;
  r->fid = 0;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The caller's side.                                                                              */

/* A launch is finished: count it, with its first user frame (or "runtime-only"), as
 * parse_hipprof.c's stack_fin does. */
static void file_fin(void *ud, hp__recent_ent *e)
{
  hp__stack_file *sf = ud;
  const char *frame = e->s ? e->s : e->flag ? sf->frames.s[e->flag - 1] : "runtime-only";

  if (sf->p && hp__stack_origin(sf->p, e->kid, frame, e->first))
    sf->err = HP_ENOMEM;
}

int hp__stack_file_new(hp__stack_file **out)
{
  if ((*out = calloc(1, sizeof(**out))) == NULL)
    return HP_ENOMEM;
  hp__recent_init(&(*out)->grp, HP__RECENT_WINDOW, file_fin, *out);
  return 0;
}

void hp__stack_file_free(hp__stack_file *sf)
{
  if (sf == NULL)
    return;
  sf->p = NULL; /* launches still open are dropped */
  if (!sf->ended)
    hp__recent_finish(&sf->grp);
  hp__strtab_free(&sf->frames);
  free(sf->kmap);
  free(sf->fmap);
  free(sf);
}

/* Keeps range frame lf (its id) at depth sq as the launch's when it is lower than the kept one. */
static int keep_frame(hp__stack_file *sf, const hp__stack_range *r, hp__recent_ent *e, long long sq,
                      uint32_t lf)
{
  uint32_t id;
  int k;

  if ((e->s != NULL || e->flag) && sq >= e->a)
    return 0;
  if (sf->fmap[lf] == 0) {
    sf->fmap[lf] = UINT32_MAX; /* past the cap: the launch keeps a copy */
    if (sf->frames.n < STACK_FRAMES_MAX) {
      if ((k = hp__strtab_intern(&sf->frames, r->frames.s[lf], r->frames.len[lf],
                                 hp__hash(r->frames.s[lf], r->frames.len[lf]), &id)) < 0)
        return HP_ENOMEM;
      sf->fmap[lf] = id + 1;
    }
  }
  free(e->s);
  e->s = NULL;
  e->flag = 0;
  if (sf->fmap[lf] != UINT32_MAX)
    e->flag = (int)sf->fmap[lf];
  else if ((e->s = hp__strndup(r->frames.s[lf], r->frames.len[lf])) == NULL)
    return HP_ENOMEM;
  e->a = sq;
  return 0;
}

/* Replays one run: n rows of launch (kid, index) after the file's rows so far, best frame fid1 - 1
 * at sq. */
static int replay_run(hp__stack_file *sf, const hp__stack_range *r, uint32_t kid, const char *index,
                      size_t in, long long n, long long sq, uint32_t fid1)
{
  hp_profile *p = sf->p;
  long long r0 = p->rowseq + 1, r1 = p->rowseq + n, at;
  unsigned long long epoch;
  hp__recent_ent *e;
  int added;

  p->rowseq = r1;
  if (hp__recent_touch(&sf->grp, kid, index, in, r0, &e, &added) ||
      (fid1 && keep_frame(sf, r, e, sq, fid1 - 1)) || hp__recent_tick(&sf->grp, r0))
    return HP_ENOMEM;
  epoch = sf->grp.epoch;
  /* The sweeps inside the run: one pass touched the launch at each such row before the sweep. */
  while ((at = sf->grp.next_sweep) <= r1) {
    if (hp__recent_touch(&sf->grp, kid, index, in, at, &e, &added) || hp__recent_tick(&sf->grp, at))
      return HP_ENOMEM;
    epoch = ~sf->grp.epoch;
  }
  if (r1 == r0)
    return 0;
  if (epoch == sf->grp.epoch) {
    e->last = r1;
    return 0;
  }
  return hp__recent_touch(&sf->grp, kid, index, in, r1, &e, &added);
}

int hp__stack_file_take(hp__stack_file *sf, hp_profile *p, const hp__stack_range *r)
{
  const unsigned char *q = (const unsigned char *)r->recs.data, *end = q ? q + r->recs.len : q;
  uint32_t lk, in, fid1, id;
  long long n, sq;
  size_t i;

  sf->p = p;
  if (hp__grow((void **)&sf->kmap, &sf->kmap_cap, r->names.n + 1, sizeof(*sf->kmap)) ||
      hp__grow((void **)&sf->fmap, &sf->fmap_cap, r->frames.n + 1, sizeof(*sf->fmap)))
    return HP_ENOMEM;
  for (i = 0; i < r->names.n; i++)
    sf->kmap[i] = 0;
  for (i = 0; i < r->frames.n; i++)
    sf->fmap[i] = 0;
  while (q && q < end) {
    memcpy(&lk, q, 4);
    memcpy(&in, q + 4, 4);
    q += 8;
    memcpy(&n, q + in, 8);
    memcpy(&sq, q + in + 8, 8);
    memcpy(&fid1, q + in + 16, 4);
    /* The file's kernels are numbered in order of first row, as one pass numbers them. */
    if (sf->kmap[lk] == 0) {
      if (hp__stack_kernel_get(p, r->names.s[lk], r->names.len[lk], &id))
        return HP_ENOMEM;
      sf->kmap[lk] = id + 1;
    }
    if (replay_run(sf, r, sf->kmap[lk] - 1, (const char *)q, in, n, sq, fid1))
      return HP_ENOMEM;
    q += in + 20;
  }
  return sf->err;
}

int hp__stack_file_end(hp__stack_file *sf, hp_profile *p, hp_diags *d, const char *path,
                       size_t *nwarn, size_t *nsupp)
{
  long long back;

  if (sf == NULL || sf->ended)
    return 0;
  sf->p = p;
  back = hp__recent_reappeared(&sf->grp);
  hp__recent_finish(&sf->grp);
  sf->ended = 1;
  if (back && *nwarn >= HP__MAX_FILE_WARNINGS) {
    (*nsupp)++;
  } else if (back) {
    (*nwarn)++;
    hp_diags_add(d, HP_DIAG_WARNING, path, 0, 0, HP__STACK_BACK_MSG, back);
  }
  return sf->err;
}
