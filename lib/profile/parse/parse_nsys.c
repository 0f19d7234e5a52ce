/*
 * Nsight Systems `nsys stats --format csv` reports: the summaries cuda_gpu_kern_sum, cuda_api_sum
 * and cuda_gpu_mem_time_sum (gpukernsum, cudaapisum and gpumemtimesum before the 2023 renaming)
 * into the kernel, API and copy tables, and the per-launch cuda_gpu_trace (gputrace) into the same
 * tables a traced call at a time. The column names changed across versions ("Avg (ns)", "Average
 * (ns)", "Average"), so columns are found by any of their names.
 *
 * What the files hold besides the table, from real captures (docs/summarize.md): nsys may print
 * lines before the header ("Generating SQLite file ...", "Processing [...]"), which are skipped; a
 * report with no data is a `SKIPPED: ... does not contain ...` line, which is a note and no
 * table; names with commas are quoted. A locale with a decimal comma writes "173569,0": a value
 * that is not a number as written, holds one comma and no point, is read with the comma as the
 * point (nsys writes no thousands separators into its CSV).
 */
#include "profile/model/build.h"
#include "profile/parse/parsers.h"
#include "util/csv/csv.h"
#include "util/num/num.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* How many lines before the header a file may hold. */
#define MAX_PREAMBLE 64

/* Reads on to the first record that names every one of the `nreq` first columns of `want`, and
 * maps them into idx. Returns 1 there, 0 when the report was skipped or has no header (said in a
 * note or warning), or a negative HP_E* code. */
static int find_header(hp__pctx *x, const char *const *want, size_t nwant, size_t nreq, int *idx,
                       hp__csv_rec *rec)
{
  const char *s;
  size_t n, i;
  long line;
  int r;

  for (i = 0; i < MAX_PREAMBLE; i++) {
    if ((r = hp__csv_next_line(x->csv, &s, &n, &line)) != 1)
      break;
    if (n >= 8 && strncmp(s, "SKIPPED:", 8) == 0) {
      hp_diags_add(x->diags, HP_DIAG_NOTE, x->path, line, 0, "nsys skipped this report: %.*s",
                   (int)(n > 200 ? 200 : n), s);
      return 0;
    }
    hp__csv_unread_line(x->csv);
    if ((r = hp__csv_next(x->csv, rec)) != 1)
      break;
    if (hp__csv_map(rec, want, nwant, idx) >= nreq) {
      size_t k;
      for (k = 0; k < nreq && idx[k] >= 0; k++)
        ;
      if (k == nreq)
        return 1;
    }
  }
  if (r < 0)
    return r;
  hp__pwarn(x, 0, "no nsys stats header (a '%.*s' column) was found", (int)strcspn(want[0], "|"),
            want[0]);
  return 0;
}

/* A numeric field as hp__fnum reads it, and a decimal comma as a point when that is the only way
 * it is a number. 1 parsed, 0 no value, -1 not a number (warned). */
static int num(hp__pctx *x, const hp__csv_rec *rec, int col, const char *colname, double *out)
{
  char buf[64];
  const char *s, *comma;
  size_t n = 0;
  int r;

  *out = NAN;
  if ((s = hp__fld(rec, col, &n)) == NULL)
    return 0;
  r = hp__parse_num(s, n, out);
  if (r == HP_EPARSE && n < sizeof(buf) && (comma = memchr(s, ',', n)) != NULL &&
      memchr(comma + 1, ',', n - (size_t)(comma + 1 - s)) == NULL && memchr(s, '.', n) == NULL) {
    memcpy(buf, s, n);
    buf[comma - s] = '.';
    r = hp__parse_num(buf, n, out);
  }
  if (r == 1 || r == 0)
    return r;
  hp__pwarn(x, rec->line, "column '%s': '%.*s' is not a number; the value is skipped", colname,
            (int)(n > 40 ? 40 : n), s);
  return -1;
}

int hp__parse_nsys_sum(hp__pctx *x, int table)
{
  static const char *const want[] = {"Name|Operation",
                                     "Instances|Num Calls|Count|Calls|Operations",
                                     "Total Time (ns)|Total Time",
                                     "Avg (ns)|Average (ns)|Average",
                                     "Min (ns)|Minimum (ns)|Minimum",
                                     "Max (ns)|Maximum (ns)|Maximum"};
  enum {
    C_NAME,
    C_CALLS,
    C_TOTAL,
    C_AVG,
    C_MIN,
    C_MAX,
    C_N
  };
  int idx[C_N], r;
  hp__csv_rec rec;
  size_t ncols;
  int use = table == HP__T_KERNEL ? x->use_kernels
      : table == HP__T_COPY       ? x->use_copies
                                  : x->use_api;

  if (!use)
    return 0;
  if ((r = find_header(x, want, C_N, 3, idx, &rec)) <= 0)
    return r;
  ncols = rec.n;
  x->tables |= hp__table_bit(table);
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *name;
    size_t n;
    double calls, total, avg, mn, mx;
    hp__tstat *st;

    hp__check_width(x, &rec, ncols);
    name = hp__fld(&rec, idx[C_NAME], &n);
    if (name)
      hp__trim(&name, &n);
    if (name == NULL || n == 0) {
      hp__pwarn(x, rec.line, "no name in column 'Name'; the row is skipped");
      continue;
    }
    if (num(x, &rec, idx[C_TOTAL], "Total Time (ns)", &total) != 1)
      continue;
    if (num(x, &rec, idx[C_CALLS], "Instances", &calls) != 1 || calls < 0 || calls > 9e18)
      calls = 0;
    num(x, &rec, idx[C_AVG], "Avg (ns)", &avg);
    num(x, &rec, idx[C_MIN], "Min (ns)", &mn);
    num(x, &rec, idx[C_MAX], "Max (ns)", &mx);
    name = hp__fld(&rec, idx[C_NAME], &n);
    hp__trim(&name, &n);
    if (hp__ttable_get(&x->p->t[table], name, n, &st))
      return HP_ENOMEM;
    hp__tstat_add_stats(st, (long long)calls, total, avg, mn, mx);
  }
  return r < 0 ? r : 0;
}

/* 1 for a cuda_gpu_trace row that is a memory operation ("[CUDA memcpy Host-to-Device]", "[CUDA
 * memset]"; "[CUDA memcpy HtoD]" before 2023) rather than a kernel. */
static int is_memop(const char *s, size_t n)
{
  return n >= 10 && strncasecmp(s, "[CUDA mem", 9) == 0;
}

int hp__parse_nsys_trace(hp__pctx *x)
{
  static const char *const want[] = {"Name", "Start (ns)|Start(ns)|Start",
                                     "Duration (ns)|Duration(ns)|Duration"};
  int idx[3], r;
  hp__csv_rec rec;
  size_t ncols;

  if ((r = find_header(x, want, 3, 3, idx, &rec)) <= 0)
    return r;
  ncols = rec.n;
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *name;
    size_t n;
    double start, dur;
    int table;
    hp__tstat *st;

    hp__check_width(x, &rec, ncols);
    name = hp__fld(&rec, idx[0], &n);
    if (name)
      hp__trim(&name, &n);
    if (name == NULL || n == 0 || num(x, &rec, idx[1], "Start (ns)", &start) != 1 ||
        num(x, &rec, idx[2], "Duration (ns)", &dur) != 1)
      continue;
    table = is_memop(name, n) ? HP__T_COPY : HP__T_KERNEL;
    /* The launch's span counts for the cross-check even when a summary beside the trace gives
     * the kernel totals, as it does for rocprofv3's kernel trace. */
    if (table == HP__T_KERNEL && start >= 0 && start + dur < 9e18)
      hp__kspan_add(x->p, (long long)start, (long long)(start + dur));
    if (!(table == HP__T_KERNEL ? x->use_kernels : x->use_copies))
      continue;
    x->tables |= hp__table_bit(table);
    if (hp__ttable_get(&x->p->t[table], name, n, &st))
      return HP_ENOMEM;
    hp__tstat_add_trace(st, dur, x->file);
  }
  return r < 0 ? r : 0;
}
