/*
 * `app.region: NAME` in the profile model (profile/model/region.h): the spans of the roctx range
 * NAME, the test whether a kernel dispatch lies inside one of them, and the public side that sets
 * the region and says what became of it. A dispatch is in the region when its [start, end] lies
 * inside ANY span: several processes give several spans, and their bounding window would readmit
 * what ran between them, so spans are never merged. The spans are read from the marker traces by
 * lib/profile/parse/region.c.
 */
#include "profile/model/region.h"
#include "profile/model/build.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

int hp__region_new(const char *name, hp__region **out)
{
  hp__region *rg = calloc(1, sizeof(*rg));

  *out = NULL;
  if (rg == NULL || (rg->name = hp__strdup(name)) == NULL) {
    free(rg);
    return HP_ENOMEM;
  }
  *out = rg;
  return 0;
}

void hp__region_free(hp__region *rg)
{
  if (rg == NULL)
    return;
  free(rg->name);
  free(rg->s);
  free(rg->e);
  free(rg->emax);
  free(rg);
}

int hp__region_add(hp__region *rg, long long start, long long end)
{
  size_t c1 = rg->cap, c2 = rg->cap;

  if (hp__grow((void **)&rg->s, &c1, rg->n + 1, sizeof(*rg->s)) ||
      hp__grow((void **)&rg->e, &c2, rg->n + 1, sizeof(*rg->e)))
    return HP_ENOMEM;
  rg->cap = c1 < c2 ? c1 : c2;
  rg->s[rg->n] = start;
  rg->e[rg->n] = end;
  rg->n++;
  return 0;
}

/* Insertion sort by start, then end: a run has a few spans per process and iteration. */
void hp__region_sort(hp__region *rg)
{
  size_t i, k;

  for (i = 1; i < rg->n; i++) {
    long long s = rg->s[i], e = rg->e[i];
    for (k = i; k > 0 && (rg->s[k - 1] > s || (rg->s[k - 1] == s && rg->e[k - 1] > e)); k--) {
      rg->s[k] = rg->s[k - 1];
      rg->e[k] = rg->e[k - 1];
    }
    rg->s[k] = s;
    rg->e[k] = e;
  }
  free(rg->emax);
  rg->emax = rg->n ? malloc(rg->n * sizeof(*rg->emax)) : NULL;
  for (i = 0; rg->emax && i < rg->n; i++)
    rg->emax[i] = i && rg->emax[i - 1] > rg->e[i] ? rg->emax[i - 1] : rg->e[i];
}

/* Some span contains [b, e] iff, among the spans that start at or before b, the largest end is
 * at least e: the spans are sorted by start and emax holds the running largest end. */
int hp__region_contains(const hp__region *rg, long long b, long long e)
{
  size_t lo = 0, hi = rg->n, i;

  if (rg->n == 0)
    return 0;
  if (rg->emax == NULL) { /* no memory for emax: a linear scan says the same */
    for (i = 0; i < rg->n; i++)
      if (rg->s[i] <= b && e <= rg->e[i])
        return 1;
    return 0;
  }
  while (lo < hi) { /* lo: the number of spans with s <= b */
    size_t mid = lo + (hi - lo) / 2;
    if (rg->s[mid] <= b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && rg->emax[lo - 1] >= e;
}

/* ---------------------------------------------------------------------------------------------- */
/* The public side.                                                                                */

int hp_profile_set_region(hp_profile *p, const char *name)
{
  hp__region *rg = NULL;

  if (p == NULL)
    return HP_EINVAL;
  if (name && hp__region_new(name, &rg))
    return HP_ENOMEM;
  if (!p->region_borrowed)
    hp__region_free(p->region);
  p->region = rg;
  p->region_borrowed = 0;
  p->region_filter = 0;
  return 0;
}

int hp_profile_get_region(const hp_profile *p, hp_profile_region *out)
{
  if (p == NULL || out == NULL)
    return HP_EINVAL;
  memset(out, 0, sizeof(*out));
  if (p->region == NULL)
    return 0;
  out->name = p->region->name;
  out->state = p->region->state;
  out->spans = p->region->n;
  out->kept = p->region->kept;
  out->total = p->region->total;
  return 0;
}

char *hp_profile_region_note(const hp_profile *p)
{
  const hp__region *rg = p ? p->region : NULL;

  if (rg == NULL)
    return NULL;
  switch (rg->state) {
  case HP_REGION_APPLIED:
    return hp__asprintf("the kernel tables cover region %s only: %lld of %lld kernel dispatches, "
                        "inside %zu span%s of the marker trace",
                        rg->name, rg->kept, rg->total, rg->n, rg->n == 1 ? "" : "s");
  case HP_REGION_NOT_FOUND:
    return hp__asprintf("region %s not found in the marker trace: the tables cover the whole run",
                        rg->name);
  case HP_REGION_EMPTY:
    return hp__asprintf("region %s holds no kernel dispatch: the tables cover the whole run",
                        rg->name);
  default: return hp__asprintf("region %s was not looked for: no file was read", rg->name);
  }
}
