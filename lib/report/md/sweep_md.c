/*
 * report.md of a parameter sweep: its header and causes, the overview (report/core/sweep.h), cut
 * into tables of a few combinations each so that a table stays readable in a PR comment, then
 * each combination's pass table. It stays under its size budget by leaving the per-combination
 * tables that do not fit to their own report.md.
 */
#include "report/md/markdown.h"
#include "report/core/report.h"
#include "report/core/sweep.h"
#include "util/base/buf.h"

#include <stdlib.h>

/* Overview columns per table. */
#define MD_COLUMNS 6
/* report.md stays under 60 KB (a PR comment): the causes show at most MD_CAUSES lines, the overview
 * stops adding tables beyond MD_OVERVIEW_BUDGET bytes, and the per-combination tables beyond
 * MD_COMBO_BUDGET; what is left out is said, and is in summary.json and each combination's own
 * report.md. */
#define MD_CAUSES 40
#define MD_OVERVIEW_BUDGET 36000
#define MD_COMBO_BUDGET 50000

/* The title, the settings and the causes list, whose code (it allocates besides appending) is the
 * one returned. */
static int md_head(hp__buf *b, const hp_session *s)
{
  const hp_combo *first = s->ncombos ? &s->combos[0] : NULL;
  hp__causes causes = hp__report_causes(s, HP__RF_MD);
  size_t i;

  hp__buf_printf(b, "# hprun sweep `%s`\n\n", s->name ? s->name : "?");
  hp__buf_printf(b, "- complete: **%s**%s; exit code %d\n", s->complete ? "yes" : "no",
                 s->interrupted ? " (interrupted)" : "", s->exit_code);
  hp__buf_printf(b, "- %zu combination%s of ", s->ncombos, s->ncombos == 1 ? "" : "s");
  for (i = 0; first && i < first->nparams; i++)
    hp__buf_printf(b, "%s`%s`", i ? ", " : "", first->params[i].key);
  hp__buf_printf(b, "; started %s, finished %s\n", s->started ? s->started : "?",
                 s->finished ? s->finished : "?");
  if (causes.shown > MD_CAUSES)
    causes.shown = MD_CAUSES;
  return hp__md_causes(b, s, &causes);
}

static int md_overview(hp__buf *b, const hp_session *s, const char **names, size_t n)
{
  const char *unit, *metric = hp__sweep_metric(s, &unit);
  size_t k0, k, i;
  char cell[96], ci[32];

  hp__buf_printf(b,
                 "\n## Overview\n\n`%s`%s%s%s: the baseline's median in each combination, and "
                 "each pass's change against it [%s], flag.\n",
                 metric, *unit ? " (" : "", unit, *unit ? ")" : "",
                 hp__sweep_ci_label(ci, sizeof(ci), s));
  for (k0 = 0; k0 < s->ncombos; k0 += MD_COLUMNS) {
    if (b->len > MD_OVERVIEW_BUDGET) {
      hp__buf_printf(b,
                     "\n\xE2\x80\xA6 and %zu more combinations: see summary.json "
                     "(`sweep.combinations`).\n",
                     s->ncombos - k0);
      break;
    }
    hp__buf_adds(b, "\n| pass |");
    for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++) {
      hp__buf_adds(b, " ");
      hp__report_md_cell(b, s->combos[k].name);
      hp__buf_adds(b, " |");
    }
    hp__buf_adds(b, "\n|---|");
    for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++)
      hp__buf_adds(b, "---:|");
    hp__buf_adds(b, "\n");
    for (i = 0; i < n; i++) {
      hp__buf_adds(b, "| ");
      hp__report_md_cell(b, names[i]);
      hp__buf_adds(b, " |");
      for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++)
        hp__buf_printf(b, " %s |", hp__sweep_cell(cell, sizeof(cell), &s->combos[k], names[i], 1));
      hp__buf_adds(b, "\n");
    }
  }
  return hp__buf_error(b);
}

/* Each combination's pass table, while report.md stays within its budget. */
static int md_combos(hp__buf *b, const hp_session *s)
{
  size_t k, left = 0;
  int r;

  hp__buf_adds(b, "\n## Combinations\n");
  for (k = 0; k < s->ncombos; k++) {
    const hp_combo *cb = &s->combos[k];
    if (b->len > MD_COMBO_BUDGET) {
      left++;
      continue;
    }
    hp__buf_printf(b, "\n### `%s`\n\n", cb->name);
    if (cb->s == NULL) {
      hp__buf_adds(b, "Not run.\n");
      continue;
    }
    hp__buf_printf(b,
                   "complete: **%s**, exit code %d; [report.md](%s/report.md), "
                   "[summary.json](%s/summary.json)\n",
                   cb->s->complete ? "yes" : "no", cb->s->exit_code, cb->name, cb->name);
    if ((r = hp__md_table(b, cb->s, 0)) != 0)
      return r;
  }
  if (left)
    hp__buf_printf(b, "\n%zu more combination%s: see %s own report.md.\n", left,
                   left == 1 ? "" : "s", left == 1 ? "its" : "their");
  return hp__buf_adds(b,
                      "\n> Times measured under a profiler are for attribution only; the "
                      "baseline is the performance figure.\n");
}

int hp__sweep_markdown(const hp_session *s, char **out)
{
  hp__buf b = HP__BUF_INIT;
  const char **names = NULL;
  size_t n = 0;
  int r;

  *out = NULL;
  if ((r = hp__sweep_pass_names(s, &names, &n)) != 0)
    return r;
  if ((r = md_head(&b, s)) == 0) {
    md_overview(&b, s, names, n);
    r = md_combos(&b, s);
  }
  free(names);
  if (r != 0) {
    hp__buf_free(&b);
    return r;
  }
  /* NULL, the partial text freed, when an append failed. */
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
