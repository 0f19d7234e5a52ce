/*
 * The lists part of merging profiles (merge.h): leak-check lines, agents, the files read, the
 * profiled span and the compute-sanitizer report, and the lists of distinct values (PMC
 * resources, a sanitizer kernel's kinds). Each is appended through the same function a parser
 * uses (build.c), so its caps (1,000 leak lines, 256 agents, HP__MAX_VALS values) and its
 * de-duplication apply to the merged list exactly as they did when every file was read into one
 * profile.
 */
#include "profile/model/build.h"
#include "profile/merge/merge.h"
#include "profile/parse/sanitizer.h"

#include <stdlib.h>
#include <string.h>

int hp__vals_merge(hp__vals *a, const hp__vals *b)
{
  size_t i;

  for (i = 0; i < b->n; i++)
    if (hp__vals_addn(a, b->v[i], b->len[i], b->cnt[i]))
      return HP_ENOMEM;
  a->more += b->more;
  return 0;
}

static int san_kinds_merge(hp__san *a, const hp__san *b)
{
  size_t i;
  uint32_t id;

  for (i = 0; i < b->kinds.n; i++) {
    const char *k = b->kinds.s[i];
    size_t kl = b->kinds.len[i];
    if (hp__strtab_intern(&a->kinds, k, kl, hp__hash(k, kl), &id) < 0 ||
        hp__grow((void **)&a->k, &a->kcap, (size_t)id + 1, sizeof(*a->k)))
      return HP_ENOMEM;
    /* The example is the first block's location: the destination's when it had the kind. */
    if (a->k[id].n == 0 && b->k[i].example &&
        (a->k[id].example = hp__strdup(b->k[i].example)) == NULL)
      return HP_ENOMEM;
    a->k[id].n += b->k[i].n;
  }
  return 0;
}

static int san_kernels_merge(hp__san *a, const hp__san *b)
{
  size_t i;
  uint32_t id;

  for (i = 0; i < b->kernels.n; i++) {
    const char *s = b->kernels.s[i];
    size_t n = b->kernels.len[i];
    if (hp__strtab_intern(&a->kernels, s, n, hp__hash(s, n), &id) < 0 ||
        hp__grow((void **)&a->kk, &a->kkcap, (size_t)id + 1, sizeof(*a->kk)) ||
        hp__vals_merge(&a->kk[id].kinds, &b->kk[i].kinds))
      return HP_ENOMEM;
    a->kk[id].n += b->kk[i].n;
  }
  return 0;
}

static int san_merge(hp_profile *d, const hp__san *b)
{
  hp__san *a = d->san;
  size_t i;

  if (b == NULL)
    return 0;
  if (a == NULL && (a = d->san = calloc(1, sizeof(*a))) == NULL)
    return HP_ENOMEM;
  if (san_kinds_merge(a, b) || san_kernels_merge(a, b))
    return HP_ENOMEM;
  for (i = 0; i < b->nruns; i++) {
    if (hp__grow((void **)&a->runs, &a->rcap, a->nruns + 1, sizeof(*a->runs)) ||
        (a->runs[a->nruns].file = hp__strdup(b->runs[i].file)) == NULL)
      return HP_ENOMEM;
    a->runs[a->nruns].listed = b->runs[i].listed;
    a->runs[a->nruns].summary = b->runs[i].summary;
    a->nruns++;
  }
  return 0;
}

int hp__merge_lists(hp_profile *d, const hp_profile *s)
{
  size_t i;

  for (i = 0; i < s->nleaks; i++) {
    const hp__leak *l = &s->leaks[i];
    if (hp__leak_add(d, l->file, l->line, l->scope, strlen(l->scope), l->bytes, l->text,
                     strlen(l->text)))
      return HP_ENOMEM;
  }
  d->leaks_dropped += s->leaks_dropped;
  for (i = 0; i < s->nagents; i++) {
    const hp__agent *a = &s->agents[i];
    if (hp__agent_add(d, a->type, a->name, a->product, a->wave_size, a->cu_count))
      return HP_ENOMEM;
  }
  for (i = 0; i < s->ntl; i++)
    if (hp__timeline_add(d, &s->tl[i]))
      return HP_ENOMEM;
  for (i = 0; i < s->nfiles; i++)
    if (hp__profile_add_file(d, s->files[i].path, s->files[i].format, s->files[i].tables))
      return HP_ENOMEM;
  if (s->have_span)
    hp__kspan_add(d, s->span_first, s->span_last);
  return san_merge(d, s->san);
}
