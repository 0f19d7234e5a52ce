/*
 * JUnit XML, as CI servers read it (Jenkins, GitLab, GitHub test reporters): one <testsuite> per
 * session, one <testcase> per pass and variant. Each failing cause of the session's exit code
 * (s->causes) is a <failure> of its pass, typed by its kind (run-failed, threshold, gate), with
 * the cause's text as its message; a note (a gate that could not be evaluated) is a line of the
 * pass's <system-out>. Passes that never ran because the session was interrupted are <skipped>.
 * Flags such as `distorted` are information, not failures.
 */
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

/* The first cause of pass pr that fails (notes == 0) or that is a note (notes == 1), or NULL. */
static const hp_cause *cause_of(const hp_session *s, const hp_pass_result *pr, int notes)
{
  size_t i;

  for (i = 0; i < s->ncauses; i++)
    if (s->causes[i].pass && strcmp(s->causes[i].pass, pr->name) == 0 &&
        hp_cause_fails(s->causes[i].kind) == !notes)
      return &s->causes[i];
  return NULL;
}

/* The pass's line of key=value pairs, from the pass table's description (report/core/
 * pass_table.h): the columns JUnit shows, the flag first, each only when it has a value. */
static int write_values(hp__buf *b, const hp_pass_result *pr)
{
  static const int keys[] = {HP__PT_FLAG, HP__PT_MEDIAN, HP__PT_VS, HP__PT_CI, HP__PT_VERDICT};
  char cell[HP__PT_CELL];
  const char *text;
  size_t k, n;

  for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
    const hp__pt_col *c = &hp__pt_cols[keys[k]];
    if (!hp__pt_shows(c, HP__RF_JUNIT, 0, 1) ||
        (text = hp__pt_cell(pr, keys[k], HP__RF_JUNIT, cell)) == NULL)
      continue;
    hp__buf_printf(b, "%s%s=", k ? " " : "", c->head[HP__RF_JUNIT]);
    hp__report_xml(b, text);
  }
  /* Under `repeat: auto` a pass's run count is its own: how many it took and why it stopped
   * (summary.json's `stopped`: resolved, max, budget, interrupted). */
  if (pr->stopped) {
    for (k = 0, n = 0; k < pr->nruns; k++)
      n += !pr->runs[k].warmup;
    hp__buf_printf(b, " runs=%zu stopped=", n);
    hp__report_xml(b, pr->stopped);
  }
  return hp__buf_error(b);
}

/* One <testcase>: skipped when it never ran, a <failure> when it fails the build, and the flag,
 * median and ratio as its output either way. */
static int write_testcase(hp__buf *b, const hp_session *s, const hp_pass_result *pr)
{
  const hp_cause *f = cause_of(s, pr, 0), *note = cause_of(s, pr, 1);
  double t = 0;
  size_t k;

  for (k = 0; k < pr->nruns; k++)
    t += pr->runs[k].wall_ms;
  hp__buf_adds(b, "    <testcase classname=\"hprun.");
  hp__report_xml(b, s->name);
  if (s->combo) {
    hp__buf_adds(b, "[");
    hp__report_xml(b, s->combo);
    hp__buf_adds(b, "]");
  }
  hp__buf_adds(b, pr->is_variant ? ".variants\" name=\"" : ".passes\" name=\"");
  hp__report_xml(b, pr->name);
  hp__buf_printf(b, "\" time=\"%.3f\">\n", t / 1000.0);
  if (pr->nruns == 0) {
    hp__buf_adds(b, "      <skipped message=\"not run (session interrupted)\"/>\n");
  } else if (f) {
    hp__buf_adds(b, "      <failure type=\"");
    hp__buf_adds(b, hp_cause_kind_name(f->kind));
    hp__buf_adds(b, "\" message=\"");
    hp__report_xml(b, f->text);
    hp__buf_adds(b, "\"/>\n");
  }
  hp__buf_adds(b, "      <system-out>");
  write_values(b, pr);
  if (pr->advice) {
    hp__buf_adds(b, "\n");
    hp__report_xml(b, pr->advice);
  }
  if (note) {
    hp__buf_adds(b, "\nnote: ");
    hp__report_xml(b, note->text);
  }
  return hp__buf_adds(b, "</system-out>\n    </testcase>\n");
}

/* One session's <testsuite>, named hprun.NAME, or hprun.NAME[COMBINATION] for a sweep's
 * combination, so that a CI page lists each combination's passes apart. */
static int write_suite(hp__buf *b, const hp_session *s)
{
  size_t i, k, nfail = 0, nskip = 0;
  double total = 0;

  for (i = 0; i < s->npasses; i++) {
    nfail += s->passes[i].nruns > 0 && cause_of(s, &s->passes[i], 0) != NULL;
    nskip += s->passes[i].nruns == 0;
    for (k = 0; k < s->passes[i].nruns; k++)
      total += s->passes[i].runs[k].wall_ms;
  }
  hp__buf_adds(b, "  <testsuite name=\"hprun.");
  hp__report_xml(b, s->name);
  if (s->combo) {
    hp__buf_adds(b, "[");
    hp__report_xml(b, s->combo);
    hp__buf_adds(b, "]");
  }
  hp__buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\"",
                 s->npasses, nfail, nskip, total / 1000.0);
  if (s->started) {
    hp__buf_adds(b, " timestamp=\"");
    hp__report_xml(b, s->started);
    hp__buf_adds(b, "\"");
  }
  hp__buf_adds(b, ">\n");
  for (i = 0; i < s->npasses; i++)
    write_testcase(b, s, &s->passes[i]);
  return hp__buf_adds(b, "  </testsuite>\n");
}

/* One <testsuite> per session: the session's, or each combination's of a sweep that ran. */
int hp_report_junit(const hp_session *s, char **out)
{
  hp__buf b = HP__BUF_INIT;
  size_t k;

  *out = NULL;
  hp__buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
  if (s->ncombos == 0)
    write_suite(&b, s);
  for (k = 0; k < s->ncombos; k++)
    if (s->combos[k].s)
      write_suite(&b, s->combos[k].s);
  hp__buf_adds(&b, "</testsuites>\n");
  /* NULL, the partial text freed, when an append failed. */
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
