/*
 * The per-file dispatch: one file, or one byte range of a split file, handed to the parser for its
 * format (parsers.h) with a fresh per-file context (build.h). The folder walk that decides which
 * files are read, in which order and with which tables skipped is lib/profile/scan.c; the split of
 * a large file into ranges and their merge is lib/profile/merge/chunk.c.
 */
#include "profile/model/build.h"
#include "profile/parse/detect.h"
#include "profile/parse/parsers.h"
#include "util/csv/csv.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* Hands one file to the parser for its format. */
static int run_parser(hp__pctx *x, hp__fmt fmt)
{
  switch (fmt) {
  case HP__F_HIPPROF_API: return hp__parse_stats(x, HP__T_API, 1);
  case HP__F_HIPPROF_KERNEL: return hp__parse_stats(x, HP__T_KERNEL, 1);
  case HP__F_ROCPROF_KSTATS: return hp__parse_stats(x, HP__T_KERNEL, 1);
  /* With app.region applied the kernel figures come from the filtered traces (region.c). */
  case HP__F_V3_KSTATS: return x->p->region_filter ? 0 : hp__parse_stats(x, HP__T_KERNEL, 1);
  case HP__F_ROCPROF_HIPSTATS:
  case HP__F_V3_HIPSTATS: return hp__parse_stats(x, HP__T_API, 1);
  case HP__F_ROCPROF_HSASTATS:
  case HP__F_V3_HSASTATS: return hp__parse_stats(x, HP__T_HSA, 1);
  case HP__F_ROCPROF_COPYSTATS:
  case HP__F_V3_COPYSTATS: return hp__parse_stats(x, HP__T_COPY, 1);
  case HP__F_HIPPROF_STACK: return hp__parse_stack(x);
  case HP__F_HIPPROF_PMC: return hp__parse_dispatch(x, 0);
  case HP__F_ROCPROF_RESULTS: return hp__parse_dispatch(x, 1);
  case HP__F_PMC_TEXT:
  case HP__F_TEXT: return hp__parse_text(x);
  case HP__F_V3_KTRACE: return hp__parse_v3_trace(x, HP__T_KERNEL);
  case HP__F_V3_HIPTRACE: return hp__parse_v3_trace(x, HP__T_API);
  case HP__F_V3_HSATRACE: return hp__parse_v3_trace(x, HP__T_HSA);
  case HP__F_V3_COPYTRACE: return hp__parse_v3_trace(x, HP__T_COPY);
  case HP__F_V3_COUNTERS: return hp__parse_v3_counters(x);
  case HP__F_V3_AGENTS: return hp__parse_v3_agents(x);
  case HP__F_NCU: return hp__parse_ncu(x);
  case HP__F_NSYS_KERNSUM: return hp__parse_nsys_sum(x, HP__T_KERNEL);
  case HP__F_NSYS_APISUM: return hp__parse_nsys_sum(x, HP__T_API);
  case HP__F_NSYS_MEMSUM: return hp__parse_nsys_sum(x, HP__T_COPY);
  case HP__F_NSYS_TRACE: return hp__parse_nsys_trace(x);
  default: return 0;
  }
}

/* A Kineto trace, whole: the context as below, without a CSV reader. */
static int parse_kineto_file(hp_profile *p, const char *path, unsigned skip, hp_diags *diags)
{
  hp__pctx x;
  int r;

  memset(&x, 0, sizeof(x));
  x.p = p;
  x.path = path;
  x.diags = diags;
  x.file = ++p->file_seq;
  x.use_kernels = !(skip & HP__TB_KERNEL);
  x.use_api = !(skip & (HP__TB_API | HP__TB_HSA));
  x.use_copies = !(skip & HP__TB_COPY);
  r = hp__parse_kineto(&x);
  if (x.nsuppressed)
    hp_diags_add(diags, HP_DIAG_NOTE, path, 0, 0, "%zu more warnings about this file not shown",
                 x.nsuppressed);
  if (r)
    return r;
  return hp__profile_add_file(p, path, hp__fmt_name(HP__F_KINETO), x.tables);
}

int hp__parse_file(hp_profile *p, const char *path, hp__fmt fmt, unsigned skip, hp_diags *diags,
                   const hp__range *rg, hp__range_out *o)
{
  hp__pctx x;
  hp__csv *c = NULL;
  int r;

  memset(&x, 0, sizeof(x));
  if (fmt == HP__F_KINETO) /* its own reader (gzip); never split into ranges (chunk.c) */
    return parse_kineto_file(p, path, skip, diags);
  r = rg ? hp__csv_open_range(&c, path, rg->head, rg->from, rg->stop, NULL)
         : hp__csv_open_path(&c, path, NULL);
  if (r == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(diags, HP_DIAG_WARNING, path, 0, 0, "cannot open: %s", strerror(errno));
    return 0;
  }
  x.p = p;
  x.csv = c;
  x.path = path;
  x.diags = diags;
  x.file = ++p->file_seq;
  x.use_kernels = !(skip & HP__TB_KERNEL) || (p->region_filter && fmt == HP__F_V3_KTRACE);
  x.use_api = !(skip & (HP__TB_API | HP__TB_HSA));
  x.use_copies = !(skip & HP__TB_COPY);
  if (rg) { /* one range of a split file (chunk.c) */
    x.ids_in = rg->ids_in;
    x.ids_in_n = rg->ids_in_n;
    x.ids_keep = 1;
    o->hlines = rg->hlines;
  }
  hp__csv_set_warn(c, hp__pwarn_csv, &x);
  r = run_parser(&x, fmt);
  if (rg) {
    o->opened = 1;
    o->end = hp__csv_file_offset(c);
    o->endline = hp__csv_line(c);
    o->complete = r == 0 && (rg->stop == ULLONG_MAX || o->end >= rg->stop);
    o->nsupp = x.nsuppressed;
    o->tables = x.tables;
    o->ids = x.ids_out;
    o->ids_n = x.ids_out_n;
    o->window = x.ids_window;
  }
  hp__csv_free(c);
  if (rg)
    return r;
  if (x.nsuppressed)
    hp_diags_add(diags, HP_DIAG_NOTE, path, 0, 0, "%zu more warnings about this file not shown",
                 x.nsuppressed);
  if (r)
    return r;
  /* A text file counts as profiler output only when something in it was. */
  if (fmt == HP__F_TEXT || fmt == HP__F_PMC_TEXT) {
    if (x.tables == 0) {
      p->nignored++;
      return 0;
    }
    fmt = x.tables & HP__TB_PMC ? HP__F_PMC_TEXT : x.tables & HP__TB_NCU ? HP__F_NCU : HP__F_TEXT;
    if (x.tables & HP__TB_SAN)
      fmt = HP__F_SANITIZER;
  }
  return hp__profile_add_file(p, path, hp__fmt_name(fmt), x.tables);
}
