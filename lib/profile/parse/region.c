/*
 * `app.region: NAME` for rocprofv3: the kernel tables keep only the dispatches that ran inside the
 * roctx range NAME. rocprofv3 --marker-trace writes one row per range to
 * `<pid>_marker_api_trace.csv` ("Domain","Function","Process_Id","Thread_Id","Correlation_Id",
 * "Start_Timestamp","End_Timestamp"), the range's message in Function (Name accepted too), with
 * Start/End spanning it. Domain differs between releases (MARKER_CORE_API on ROCm 6.4,
 * MARKER_CORE_RANGE_API on 7.2), so it is not looked at.
 *
 * A dispatch is in the region when its [start, end] lies inside ANY span. Several processes give
 * several spans; their bounding window would readmit what ran between them, so spans are never
 * merged. The message must equal NAME exactly (after trimming blanks): a substring rule would let
 * "hipLaunchKernel" match "before hipLaunchKernel" in rocprofiler-sdk's own sample.
 *
 * The marker traces and the kernel traces' timestamps are read once before the files are parsed,
 * so that a region that matches nothing is known before any table is built: then nothing is
 * filtered and the user is told so (docs/summarize.md, "Regions").
 */
#include "profile/parse/region.h"
#include "profile/model/build.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/num/num.h"

#include <errno.h>
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
/* Reading the marker and kernel traces.                                                           */

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);

  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* 1 when field `col` of `rec`, trimmed, equals `name`. */
static int field_is(const hp__csv_rec *rec, int col, const char *name)
{
  size_t n;
  const char *s = hp__fld(rec, col, &n);

  if (s == NULL)
    return 0;
  hp__trim(&s, &n);
  return n == strlen(name) && memcmp(s, name, n) == 0;
}

/* Opens `path` for reading its rows with hp__fll's warnings. 1 open, 0 not (warned), or
 * HP_ENOMEM. */
static int open_file(hp__pctx *x, const char *path, hp__csv_rec *hdr)
{
  int r = hp__csv_open_path(&x->csv, path, NULL);

  x->path = path;
  if (r == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(x->diags, HP_DIAG_WARNING, path, 0, 0, "cannot open: %s", strerror(errno));
    return 0;
  }
  hp__csv_set_warn(x->csv, hp__pwarn_csv, x);
  return hp__read_header(x, hdr);
}

/* Reads the spans of one marker trace. `kernels`: count the dispatches of a kernel trace instead. */
static int read_file(hp__region *rg, hp__pctx *x, const char *path, int kernels)
{
  static const char *const want[] = {"Function", "Name", "Start_Timestamp", "End_Timestamp"};
  hp__csv_rec rec;
  int idx[4], r;
  long long b, e;

  if ((r = open_file(x, path, &rec)) <= 0)
    goto done;
  hp__csv_map(&rec, want, 4, idx);
  if (idx[2] < 0 || idx[3] < 0 || (!kernels && idx[0] < 0 && idx[1] < 0))
    goto done; /* the parser of the kernel trace says what is missing; a marker trace is told */
  rg->marker_files += !kernels;
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    if (!kernels && !field_is(&rec, idx[0], rg->name) && !field_is(&rec, idx[1], rg->name))
      continue;
    if (hp__fll(x, &rec, idx[2], "Start_Timestamp", &b) != 1 ||
        hp__fll(x, &rec, idx[3], "End_Timestamp", &e) != 1 || e < b)
      continue;
    if (kernels) {
      rg->total++;
      rg->kept += hp__region_contains(rg, b, e);
    } else if ((r = hp__region_add(rg, b, e)) != 0)
      break;
  }
done:
  hp__csv_free(x->csv);
  x->csv = NULL;
  return r < 0 ? r : 0;
}

int hp__region_prepare(hp__region *rg, char *const *paths, const hp__fmt *fmt, size_t n,
                       hp_diags *diags)
{
  hp__pctx x;
  size_t i;
  int r = 0;

  memset(&x, 0, sizeof(x));
  x.diags = diags;
  rg->n = 0;
  rg->marker_files = 0;
  rg->kept = rg->total = 0;
  for (i = 0; i < n && r == 0; i++)
    if (ends_with(paths[i], "_marker_api_trace.csv"))
      r = read_file(rg, &x, paths[i], 0);
  hp__region_sort(rg);
  for (i = 0; i < n && r == 0 && rg->n; i++)
    if (fmt[i] == HP__F_V3_KTRACE)
      r = read_file(rg, &x, paths[i], 1);
  if (r)
    return r;
  rg->state = rg->n == 0 ? HP_REGION_NOT_FOUND
      : rg->kept == 0    ? HP_REGION_EMPTY
                         : HP_REGION_APPLIED;
  if (rg->state == HP_REGION_NOT_FOUND)
    hp_diags_add(diags, HP_DIAG_WARNING, NULL, 0, 0,
                 "region %s not found in the marker trace: the tables cover the whole run (%zu "
                 "marker trace%s read; rocprofv3 writes it with --marker-trace)",
                 rg->name, rg->marker_files, rg->marker_files == 1 ? "" : "s");
  else if (rg->state == HP_REGION_EMPTY && rg->total == 0)
    hp_diags_add(diags, HP_DIAG_WARNING, NULL, 0, 0,
                 "region %s: no kernel trace to keep to its %zu span%s (*_kernel_trace.csv, "
                 "--kernel-trace): the tables cover the whole run",
                 rg->name, rg->n, rg->n == 1 ? "" : "s");
  else if (rg->state == HP_REGION_EMPTY)
    hp_diags_add(diags, HP_DIAG_WARNING, NULL, 0, 0,
                 "region %s holds no kernel dispatch (%zu span%s in the marker trace, %lld "
                 "dispatches outside them): the tables cover the whole run",
                 rg->name, rg->n, rg->n == 1 ? "" : "s", rg->total);
  return 0;
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
