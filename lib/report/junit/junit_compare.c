/*
 * hprun compare --junit FILE: the comparison as JUnit XML, for the same CI test reporters as a
 * session's JUnit (junit.c). One <testsuite> per pair of sessions (hprun.compare.NAME, or
 * hprun.compare.NAME[COMBINATION] for two sweeps), one <testcase> per compared pass and metric
 * (classname hprun.compare.NAME.PASS, name the metric). A row whose cause fails the comparison
 * is a <failure> typed by the cause's kind (regression, missing); its figures, tolerance, verdict
 * and any note are its <system-out>; what changed between the plans is the suite's <system-out>.
 * The rows and causes are lib/analyze/compare.c's, so this file and the Markdown agree.
 */
#include "analyze/compare.h"
#include "report/core/report.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_words[] = {"new pass", "no data",   "regression",   "unconfirmed",
                                            "improved", "unchanged", "inconclusive", "missing"};

static void write_case(hp__buf *b, const hp_session *s, const hp__comparison *c,
                       const hp__compare_row *row)
{
  const hp_cause *cause = row->cause >= 0 ? &c->causes[row->cause] : NULL;
  char x[32], y[32], z[32], ci[64], tol[48];

  hp__buf_adds(b, "    <testcase classname=\"hprun.compare.");
  hp__report_xml(b, s->name ? s->name : "?");
  hp__buf_adds(b, ".");
  hp__report_xml(b, row->pass);
  hp__buf_adds(b, "\" name=\"");
  hp__report_xml(b, row->metric ? row->metric : "(pass)");
  hp__buf_adds(b, "\" time=\"0\">\n");
  if (cause && hp_cause_fails(cause->kind)) {
    hp__buf_printf(b, "      <failure type=\"%s\" message=\"", hp_cause_kind_name(cause->kind));
    hp__report_xml(b, cause->text);
    hp__buf_adds(b, "\"/>\n");
  }
  hp__buf_printf(b, "      <system-out>verdict=%s", verdict_words[row->change]);
  if (row->metric && row->change != HP__CHANGE_MISSING) {
    hp__buf_printf(b, " old=%s new=%s change=%s", hp__fmt_num(x, sizeof(x), row->old_median),
                   hp__fmt_num(y, sizeof(y), row->new_median),
                   hp__compare_change_text(row, z, sizeof(z)));
    if (!isnan(row->ci_lo))
      hp__buf_printf(b, " ci=%s", hp__compare_ci_text(row, ci, sizeof(ci)));
    hp__buf_adds(b, " tolerance=");
    hp__report_xml(b, hp__compare_tol_text(row, tol, sizeof(tol)));
    if (!row->gated)
      hp__buf_adds(b, " gated=no");
  }
  if (cause && !hp_cause_fails(cause->kind)) {
    hp__buf_adds(b, "\nnote: ");
    hp__report_xml(b, cause->text);
  }
  hp__buf_adds(b, "</system-out>\n    </testcase>\n");
}

/* The notes no row owns (what changed between the plans), as the suite's <system-out>. */
static void write_suite_notes(hp__buf *b, const hp__comparison *c)
{
  size_t i, k, n = 0;

  for (i = 0; i < c->ncauses; i++) {
    int owned = 0;
    for (k = 0; k < c->nrows && !owned; k++)
      owned = c->rows[k].cause == (long)i;
    if (owned)
      continue;
    hp__buf_adds(b, n++ ? "\n" : "    <system-out>");
    hp__report_cause(b, &c->causes[i]);
  }
  if (n)
    hp__buf_adds(b, "</system-out>\n");
}

/* One pair of sessions: its <testsuite>. combo names the combination of two sweeps, or is NULL. */
static int write_suite(hp__buf *b, const hp_session *old_s, const hp_session *new_s,
                       const char *combo, const hp_compare_opts *o)
{
  hp__comparison c;
  size_t i, nfail = 0;
  int r;

  if ((r = hp__compare_sessions(old_s, new_s, o, &c)) != 0)
    return r;
  for (i = 0; i < c.nrows; i++)
    nfail += c.rows[i].cause >= 0 && hp_cause_fails(c.causes[c.rows[i].cause].kind);
  hp__buf_adds(b, "  <testsuite name=\"hprun.compare.");
  hp__report_xml(b, new_s->name ? new_s->name : "?");
  if (combo) {
    hp__buf_adds(b, "[");
    hp__report_xml(b, combo);
    hp__buf_adds(b, "]");
  }
  hp__buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0\">\n",
                 c.nrows, nfail);
  for (i = 0; i < c.nrows; i++)
    write_case(b, new_s, &c, &c.rows[i]);
  write_suite_notes(b, &c);
  hp__buf_adds(b, "  </testsuite>\n");
  hp__comparison_free(&c);
  return hp__buf_error(b);
}

int hp_compare_junit(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                     char **out)
{
  hp__buf b = HP__BUF_INIT;
  size_t i, k;
  int r = 0;

  *out = NULL;
  if ((old_s->ncombos > 0) != (new_s->ncombos > 0))
    return HP_ENOTSUP;
  hp__buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
  if (old_s->ncombos == 0)
    r = write_suite(&b, old_s, new_s, NULL, o);
  /* Combinations matched by name, as the Markdown matches them (lib/report/md/sweep_compare.c);
   * one that is missing is that file's failure, and no suite here. */
  for (i = 0; i < old_s->ncombos && r == 0; i++)
    for (k = 0; k < new_s->ncombos && r == 0; k++)
      if (old_s->combos[i].s && new_s->combos[k].s &&
          strcmp(old_s->combos[i].name, new_s->combos[k].name) == 0)
        r = write_suite(&b, old_s->combos[i].s, new_s->combos[k].s, old_s->combos[i].name, o);
  hp__buf_adds(&b, "</testsuites>\n");
  if (r == 0 && (*out = hp__buf_steal(&b)) == NULL)
    r = HP_ENOMEM;
  hp__buf_free(&b);
  return r;
}
