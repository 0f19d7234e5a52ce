/*
 * report.md's "Ranks" section (docs/cluster.md): for each pass whose runs were launched as
 * several ranks, the spread of the primary metric over ranks (min, median, max, imbalance =
 * max/median) and how the ranks that ran under the profiler compare with those that did not. A
 * session without launched runs gets no section at all.
 */
#include "report/md/markdown.h"
#include "report/core/report.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>

static int ranks_row(hp__buf *b, const hp_pass_result *pr)
{
  const hp_rank_stats *st = pr->ranks;
  char v[5][32], imb[32], ov[32];

  if (isnan(st->imbalance))
    snprintf(imb, sizeof(imb), "-");
  else
    snprintf(imb, sizeof(imb), "%.3fx", st->imbalance);
  hp__buf_adds(b, "| ");
  hp__report_md_cell(b, pr->name);
  return hp__buf_printf(
      b, " | %zu | %s | %s | %s | %s | %zu | %s | %s | %s |\n", st->nranks,
      hp__fmt_num(v[0], sizeof(v[0]), st->min), hp__fmt_num(v[1], sizeof(v[1]), st->median),
      hp__fmt_num(v[2], sizeof(v[2]), st->max), imb, st->nprofiled,
      hp__fmt_num(v[3], sizeof(v[3]), st->profiled_median),
      hp__fmt_num(v[4], sizeof(v[4]), st->unprofiled_median),
      isnan(st->profiled_ratio) ? "-" : hp__fmt_overhead(ov, sizeof(ov), 1 + st->profiled_ratio));
}

int hp__md_ranks(hp__buf *b, const hp_session *s)
{
  const hp_metric_result *m = hp__report_primary(s);
  size_t i;
  int any = 0;

  for (i = 0; i < s->npasses; i++)
    any |= s->passes[i].ranks != NULL;
  if (!any)
    return 0;
  hp__buf_printf(b,
                 "\n## Ranks\n\nThe primary metric (%s) over the ranks of each run, the "
                 "median over runs; imbalance is max / median. *profiled vs not* compares the "
                 "ranks that ran under the profiler with the others in the same runs.\n\n"
                 "| pass | ranks | min | median | max | imbalance | profiled ranks | "
                 "profiled median | unprofiled median | profiled vs not |\n"
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                 m && m->name ? m->name : "-");
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].ranks)
      ranks_row(b, &s->passes[i]);
  return hp__buf_error(b);
}
