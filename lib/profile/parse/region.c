/*
 * `app.region: NAME` for rocprofv3: the kernel tables keep only the dispatches that ran inside the
 * roctx range NAME. rocprofv3 --marker-trace writes one row per range to
 * `<pid>_marker_api_trace.csv` ("Domain","Function","Process_Id","Thread_Id","Correlation_Id",
 * "Start_Timestamp","End_Timestamp"), the range's message in Function (Name accepted too), with
 * Start/End spanning it. Domain differs between releases (MARKER_CORE_API on ROCm 6.4,
 * MARKER_CORE_RANGE_API on 7.2), so it is not looked at.
 *
 * A dispatch is in the region when its [start, end] lies inside ANY span (profile/model/region.c,
 * which holds the spans). The message must equal NAME exactly (after trimming blanks): a substring
 * rule would let "hipLaunchKernel" match "before hipLaunchKernel" in rocprofiler-sdk's own sample.
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

/* Reads the spans of one marker trace. `kernels`: count the dispatches of a kernel trace instead.
 */
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
