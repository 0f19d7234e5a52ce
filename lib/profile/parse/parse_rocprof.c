/*
 * rocprof (v1 script) layouts, which hipprof shares:
 *
 *   - stats files `Name,Calls,TotalDurationNs,AverageNs,Percentage[,MinNs,MaxNs,StdDev]`
 *     (rocprof *.stats.csv, hipprof *.hiptrace.csv / *.kernel.csv with a `Total` row, rocprofv3
 *     *_stats.csv with min/max);
 *   - the per-dispatch table (rocprof results.csv, hipprof --pmc-type 3, ...), read in
 *     parse_dispatch.c;
 *
 * The PMC text that rocprof and hipprof write beside these tables is read in parse_pmctext.c.
 * Columns are found by name, case-insensitively, so column order and extra columns do not matter.
 */
#include "profile/model/build.h"
#include "profile/parse/parsers.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------------------------------- */
/* Stats files.                                                                                    */

int hp__parse_stats(hp__pctx *x, int table, int skip_total)
{
  static const char *const want[] = {"Name|KernelName|Kernel_Name|Function",
                                     "Calls|Count",
                                     "TotalDurationNs|Total_Duration_Ns|TotalDuration",
                                     "AverageNs|Average_Ns",
                                     "MinNs|Min_Ns",
                                     "MaxNs|Max_Ns"};
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
  hp__ttable *t = &x->p->t[table];

  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, C_N, idx);
  if (hp__require(x, rec.line, want, idx, 3))
    return 0;
  ncols = rec.n;
  x->tables |= hp__table_bit(table);
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *name;
    size_t n;
    long long calls = 0;
    double total, avg, mn, mx;
    hp__tstat *st;

    hp__check_width(x, &rec, ncols);
    name = hp__fld(&rec, idx[C_NAME], &n);
    if (name)
      hp__trim(&name, &n);
    if (name == NULL || n == 0) {
      hp__pwarn(x, rec.line, "no name in column 'Name'; the row is skipped");
      continue;
    }
    /* hipprof ends its stats with a `Total` row; summing it would double everything. */
    if (skip_total && n == 5 && strncasecmp(name, "Total", 5) == 0)
      continue;
    if (hp__fnum(x, &rec, idx[C_TOTAL], "TotalDurationNs", &total) != 1) {
      if (hp__fld(&rec, idx[C_TOTAL], &n) == NULL || n == 0)
        hp__pwarn(x, rec.line, "no value in column 'TotalDurationNs'; the row is skipped");
      continue;
    }
    if (hp__fll(x, &rec, idx[C_CALLS], "Calls", &calls) != 1)
      calls = 0;
    hp__fnum(x, &rec, idx[C_AVG], "AverageNs", &avg);
    hp__fnum(x, &rec, idx[C_MIN], "MinNs", &mn);
    hp__fnum(x, &rec, idx[C_MAX], "MaxNs", &mx);
    name = hp__fld(&rec, idx[C_NAME], &n);
    hp__trim(&name, &n);
    if (hp__ttable_get(t, name, n, &st))
      return HP_ENOMEM;
    hp__tstat_add_stats(st, calls, total, avg, mn, mx);
  }
  return r < 0 ? r : 0;
}
