/*
 * hprun compare OLD NEW of two sessions, the Markdown: the rows that lib/analyze/compare.c
 * computed, as a table for a PR comment, with the count of regressions at the end and one `fail:`
 * or `note:` line per cause. The numbers, verdicts and causes are the analysis layer's; the public
 * entry point hp_compare (lib/report/entry.c) hands two sweeps to sweep_compare.c instead.
 */
#include "analyze/compare.h"
#include "report/core/report.h"
#include "report/md/markdown.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdlib.h>

static const char *change_text(hp__change c)
{
  switch (c) {
  case HP__CHANGE_NEW_PASS: return "new pass";
  case HP__CHANGE_NO_DATA: return "no data";
  case HP__CHANGE_REGRESSION: return "**regression**";
  case HP__CHANGE_UNCONFIRMED: return "unconfirmed (too few runs)";
  case HP__CHANGE_IMPROVED: return "improved";
  case HP__CHANGE_UNCHANGED: return "unchanged";
  case HP__CHANGE_INCONCLUSIVE: return "inconclusive";
  case HP__CHANGE_MISSING: return "**MISSING in NEW**";
  }
  return "?";
}

/* A row that cannot fail the comparison says so next to its verdict. */
static const char *row_note(const hp__compare_row *row)
{
  if (row->change != HP__CHANGE_REGRESSION && row->change != HP__CHANGE_INCONCLUSIVE)
    return "";
  if (row->note_only)
    return " (wall time: a note only)";
  if (!row->gated)
    return " (distorted pass: not gated)";
  return "";
}

static int write_head(hp__buf *b, const hp_session *old_s, const hp_session *new_s,
                      const hp_compare_opts *o)
{
  char ci[32];

  hp__buf_printf(b, "## hprun compare: `%s` → `%s`\n\n", old_s->name ? old_s->name : "?",
                 new_s->name ? new_s->name : "?");
  if (o->tolerance_given)
    hp__buf_printf(b, "Tolerance %.3g%% from the command line, for every metric",
                   o->tolerance * 100);
  else
    hp__buf_printf(b, "Tolerance: each metric's own from the plan, else %.3g%%",
                   o->tolerance * 100);
  hp__buf_printf(b,
                 "; alpha %.3g. A change is a regression when its interval lies wholly beyond the "
                 "tolerance, unchanged when it lies inside it, inconclusive otherwise%s.\n\n",
                 o->alpha, o->strict ? " (which fails, --strict)" : "");
  return hp__buf_printf(b,
                        "| pass | metric | old median | new median | change | %s | n "
                        "old/new | tolerance | verdict |\n"
                        "|---|---|---:|---:|---:|---|---|---|---|\n",
                        hp__report_ci_label(ci, sizeof(ci), o->alpha, 1));
}

static int write_row(hp__buf *b, const hp__compare_row *row)
{
  char x[32], y[32], z[32], ci[64], tol[48];

  if (row->change == HP__CHANGE_NEW_PASS || (row->change == HP__CHANGE_MISSING && !row->metric))
    return hp__buf_printf(b, "| %s | - | - | - | - | - | - | - | %s |\n", row->pass,
                          change_text(row->change));
  hp__buf_printf(
      b, "| %s | %s | %s | %s | %s | ", row->pass, row->metric,
      hp__fmt_num(x, sizeof(x), row->old_median), hp__fmt_num(y, sizeof(y), row->new_median),
      row->change == HP__CHANGE_MISSING ? "-" : hp__compare_change_text(row, z, sizeof(z)));
  hp__buf_adds(b, hp__compare_ci_text(row, ci, sizeof(ci)));
  return hp__buf_printf(
      b, " | %zu/%zu | %s | %s%s |\n", row->n_old, row->n_new,
      row->change == HP__CHANGE_MISSING ? "-" : hp__compare_tol_text(row, tol, sizeof(tol)),
      change_text(row->change), row_note(row));
}

/* The count line, then one bullet per cause (the terminal's `fail:` and `note:` lines). Returns
 * b's error, or that of the causes list's own line buffer. */
static int write_tail(hp__buf *b, const hp__comparison *c, const hp_compare_opts *o)
{
  hp__causes causes = {c->causes, c->ncauses, c->ncauses, NULL};

  hp__buf_printf(b, "\n%zu regression(s)", c->nregressions);
  if (c->ninconclusive)
    hp__buf_printf(b, "; %zu inconclusive%s", c->ninconclusive,
                   o->strict ? " (failing, --strict)" : "");
  if (c->nmissing)
    hp__buf_printf(b, "; %zu item(s) of OLD missing from NEW%s", c->nmissing,
                   o->allow_missing ? " (allowed)" : "");
  if (c->nunconfirmed)
    hp__buf_printf(b,
                   "; %zu change(s) beyond the tolerance could not be tested: run "
                   "at least %d repeats per pass",
                   c->nunconfirmed, HP_STATS_MIN_N);
  hp__buf_adds(b, ".\n");
  return hp__md_causes(b, NULL, &causes);
}

int hp__compare_md(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                   char **md, size_t *failures)
{
  hp__comparison c;
  hp__buf b = HP__BUF_INIT;
  size_t i;
  int r;

  *md = NULL;
  *failures = 0;
  if ((r = hp__compare_sessions(old_s, new_s, o, &c)) != 0)
    return r;
  write_head(&b, old_s, new_s, o);
  for (i = 0; i < c.nrows; i++)
    write_row(&b, &c.rows[i]);
  if ((r = write_tail(&b, &c, o)) != 0)
    goto fail;
  /* NULL, the partial text freed, when an append failed. */
  if ((*md = hp__buf_steal(&b)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  *failures = c.nfailures;

fail:
  hp__buf_free(&b);
  hp__comparison_free(&c);
  return r;
}
