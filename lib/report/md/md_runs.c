/*
 * report.md's "## Runs": one <details> block per pass, which GitHub shows collapsed (open when a
 * run failed), holding that pass's run table. The tables are bounded so that report.md fits a PR
 * comment at any number of runs: at most HP__MD_RUN_ROWS rows in all and about
 * HP__MD_RUNS_BYTES of them, shared fairly among the passes; a pass with more runs than its share
 * shows its failed runs first, then its earliest, and says how many it leaves to summary.json,
 * which has every run.
 */
#include "report/md/markdown.h"
#include "report/core/report.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An error message longer than this many bytes is cut in its cell (summary.json keeps it whole),
 * so that one runaway message cannot shrink every table's share of the budget. */
#define ERROR_CELL_MAX 200

/* The run's error, cut to ERROR_CELL_MAX bytes at a character boundary with "…" after it. */
static int error_cell(hp__buf *b, const hp_session *s, const char *error)
{
  size_t n = strlen(error);
  char *cut;

  if (n <= ERROR_CELL_MAX)
    return hp__md_text(b, s, error, HP__MD_CELL);
  n = ERROR_CELL_MAX;
  while (n > 0 && ((unsigned char)error[n] & 0xC0) == 0x80)
    n--;
  if ((cut = hp__strndup(error, n)) == NULL)
    return HP_ENOMEM;
  hp__md_text(b, s, cut, HP__MD_CELL);
  free(cut);
  return hp__buf_adds(b, "\xE2\x80\xA6");
}

/* One row of the run table. The error cell allocates besides appending, so its code is checked. */
static int run_row(hp__buf *b, const hp_session *s, const hp_pass_result *pr, const hp_run *rn)
{
  char x[32];
  size_t m;
  int r;

  hp__buf_adds(b, "| ");
  hp__report_md_cell(b, pr->name);
  hp__buf_printf(b, " | %s%d | `", rn->warmup ? "warmup " : "", rn->warmup ? 0 : rn->index);
  hp__report_md_cell(b, rn->dir ? hp__md_rel(s, rn->dir) : "?");
  hp__buf_adds(b, "` | ");
  if (rn->skipped)
    hp__buf_adds(b, "skipped");
  else if (rn->error) {
    if ((r = error_cell(b, s, rn->error)) != 0)
      return r;
  } else if (rn->timed_out)
    hp__buf_adds(b, "timeout");
  else if (rn->term_signal)
    hp__buf_printf(b, "signal %d", rn->term_signal);
  else
    hp__buf_printf(b, "%lld", rn->exit_status);
  hp__buf_printf(b, " | %.1f | %ld | ", rn->wall_ms, rn->max_rss_kb);
  for (m = 0; m < pr->nmetrics; m++)
    hp__buf_printf(b, "%s%s=%s", m ? ", " : "", pr->metrics[m].name ? pr->metrics[m].name : "?",
                   hp__fmt_num(x, sizeof(x), rn->values ? rn->values[m] : NAN));
  return hp__buf_printf(b, " | %zu |\n", rn->files.n);
}

/* How many rows the tables may show in all: HP__MD_RUN_ROWS, fewer when the widest row would make
 * that many exceed HP__MD_RUNS_BYTES (many metrics, long errors). */
static int row_budget(const hp_session *s, size_t *rows)
{
  hp__buf row = HP__BUF_INIT;
  size_t i, k, widest = 0;
  int r = 0;

  for (i = 0; i < s->npasses && r == 0; i++)
    for (k = 0; k < s->passes[i].nruns && r == 0; k++) {
      hp__buf_reset(&row);
      r = run_row(&row, s, &s->passes[i], &s->passes[i].runs[k]);
      if (row.len > widest)
        widest = row.len;
    }
  hp__buf_free(&row);
  *rows = HP__MD_RUN_ROWS;
  if (widest > 0 && HP__MD_RUNS_BYTES / widest < *rows)
    *rows = HP__MD_RUNS_BYTES / widest;
  return r;
}

/* The most rows one pass shows: the largest cap at which every pass, showing up to that many,
 * stays within `rows` in all. A pass with fewer runs leaves its unused rows to the others. At
 * least 1, so that every pass shows a run. */
static size_t row_cap(const hp_session *s, size_t rows)
{
  size_t cap = 0, most = 0, i, n;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].nruns > most)
      most = s->passes[i].nruns;
  while (cap < most) {
    for (n = 0, i = 0; i < s->npasses; i++)
      n += s->passes[i].nruns < cap + 1 ? s->passes[i].nruns : cap + 1;
    if (n > rows)
      break;
    cap++;
  }
  return cap ? cap : 1;
}

/* Marks in shown[] the runs of pr its table shows: every run when they fit in cap, else the
 * failed ones first (they are what a reader looks for), then the earliest. Returns how many. */
static size_t pick_runs(const hp_pass_result *pr, size_t cap, char *shown)
{
  size_t k, n = 0;

  memset(shown, 0, pr->nruns);
  for (k = 0; k < pr->nruns && n < cap; k++)
    if (!pr->runs[k].ok) {
      shown[k] = 1;
      n++;
    }
  for (k = 0; k < pr->nruns && n < cap; k++)
    if (!shown[k]) {
      shown[k] = 1;
      n++;
    }
  return n;
}

/* The <summary> line: the pass, its runs, how many failed (then the block starts open) and how many
 * were skipped after its first run failed. */
static int pass_summary(hp__buf *b, const hp_pass_result *pr, size_t failed)
{
  size_t k, warm = 0, skipped = 0;

  for (k = 0; k < pr->nruns; k++) {
    warm += pr->runs[k].warmup != 0;
    skipped += pr->runs[k].skipped != 0;
  }
  hp__buf_adds(b, failed ? "\n<details open><summary>" : "\n<details><summary>");
  hp__report_xml(b, pr->name);
  hp__buf_printf(b, ": %zu run%s", pr->nruns, pr->nruns == 1 ? "" : "s");
  if (warm)
    hp__buf_printf(b, " (%zu warmup%s)", warm, warm == 1 ? "" : "s");
  if (failed)
    hp__buf_printf(b, ", %zu failed", failed);
  if (skipped)
    hp__buf_printf(b, ", %zu skipped", skipped);
  if (!failed && !skipped)
    hp__buf_adds(b, ", all ok");
  /* The blank line after </summary> lets GitHub read the table inside as Markdown. */
  return hp__buf_adds(b, "</summary>\n\n");
}

/* One pass's block: the summary line, the chosen rows in the order they ran, and what was left
 * out. */
static int pass_block(hp__buf *b, const hp_session *s, const hp_pass_result *pr, size_t cap,
                      char *shown)
{
  size_t k, n = pick_runs(pr, cap, shown), failed = 0, failed_shown = 0;
  int r;

  for (k = 0; k < pr->nruns; k++) {
    failed += !pr->runs[k].ok && !pr->runs[k].skipped;
    failed_shown += !pr->runs[k].ok && !pr->runs[k].skipped && shown[k];
  }
  pass_summary(b, pr, failed);
  hp__buf_adds(b,
               "| pass | run | dir | exit | wall ms | max RSS kB | values | files |\n"
               "|---|---:|---|---:|---:|---:|---|---:|\n");
  for (k = 0; k < pr->nruns; k++)
    if (shown[k] && (r = run_row(b, s, pr, &pr->runs[k])) != 0)
      return r;
  if (n < pr->nruns) {
    hp__buf_printf(b, "\n\xE2\x80\xA6 and %zu more run%s", pr->nruns - n,
                   pr->nruns - n == 1 ? "" : "s");
    if (failed > failed_shown)
      hp__buf_printf(b, " (%zu failed)", failed - failed_shown);
    hp__buf_adds(b, ": see summary.json\n");
  }
  return hp__buf_adds(b, "\n</details>\n");
}

int hp__md_runs(hp__buf *b, const hp_session *s)
{
  size_t rows, cap, i, most = 1, total = 0, shown_total = 0;
  char *shown = NULL;
  int r;

  if ((r = row_budget(s, &rows)) != 0)
    return r;
  cap = row_cap(s, rows);
  for (i = 0; i < s->npasses; i++) {
    total += s->passes[i].nruns;
    shown_total += s->passes[i].nruns < cap ? s->passes[i].nruns : cap;
    if (s->passes[i].nruns > most)
      most = s->passes[i].nruns;
  }
  if ((shown = malloc(most)) == NULL)
    return HP_ENOMEM;
  hp__buf_adds(b, "\n## Runs\n");
  if (shown_total < total)
    hp__buf_printf(b,
                   "\n%zu of the %zu runs are shown, each pass's failed runs first; "
                   "summary.json has every run.\n",
                   shown_total, total);
  /* A pass that never ran (the session stopped before it) has no table. */
  for (i = 0; i < s->npasses && r == 0; i++)
    if (s->passes[i].nruns > 0)
      r = pass_block(b, s, &s->passes[i], cap, shown);
  free(shown);
  return r != 0 ? r : hp__buf_error(b);
}
