/*
 * The terminal table, like the article's: pass, metric median, change against the baseline, flag,
 * then one line of advice per flagged pass and the profiler cross-check. It is what a user reads
 * first, so it says plainly which numbers are performance and which are not. It is printed in
 * sections: the header and pass table, the A/B variant table, the notes, then one line per cause
 * of the exit code (`fail: ...`) and per gate that could not be evaluated (`note: ...`). The
 * tables are those of report/core/pass_table.h, the causes list report/core/report.h's.
 */
#include "analyze/crosscheck.h"
#include "profile/tables/out.h"
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "report/core/roofline_table.h"
#include "report/term/term.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The primary metric's unit, or "". */
static const char *primary_unit(const hp_session *s)
{
  const hp_metric_result *m = hp__report_primary(s);

  return m && m->unit ? m->unit : "";
}

/* The header line of a table (variant = 1: the variant table), each column's header at its width;
 * `metric`: the line under it instead, which names the metric under the median column. */
static void term_head(FILE *fp, const hp_session *s, int variant, int reps, int metric)
{
  hp__buf h = HP__BUF_INIT;
  size_t i;
  int r;

  for (i = 0; i < HP__PT_NCOLS && (!metric || i <= HP__PT_MEDIAN); i++) {
    const hp__pt_col *c = &hp__pt_cols[i];
    if (!hp__pt_shows(c, HP__RF_TEXT, variant, reps))
      continue;
    hp__buf_reset(&h);
    if (!metric)
      r = hp__pt_head(&h, s, c, HP__RF_TEXT, variant);
    else
      r = i == HP__PT_MEDIAN ? hp__pt_metric(&h, s, HP__RF_TEXT, 1) : hp__buf_adds(&h, "");
    if (r == 0)
      fprintf(fp, "%s%*s", i == 0 || (c->flags & HP__PC_REPS) ? "" : " ", c->hw, h.data);
  }
  fputc('\n', fp);
  hp__buf_free(&h);
}

/* One row, each column's cell at its width; bar_max > 0: the overhead bar after the flag, on that
 * scale (term_bar.c). */
static void term_row(FILE *fp, const hp_pass_result *pr, int variant, int reps, double bar_max)
{
  char cell[HP__PT_CELL], bar[96];
  size_t i;

  for (i = 0; i < HP__PT_NCOLS; i++) {
    const hp__pt_col *c = &hp__pt_cols[i];
    const char *text;
    if (!hp__pt_shows(c, HP__RF_TEXT, variant, reps))
      continue;
    text = hp__pt_cell(pr, (int)i, HP__RF_TEXT, cell);
    if ((c->flags & HP__PC_FLAG) && bar_max > 0 && !pr->is_baseline &&
        hp__term_bar(bar, sizeof(bar), pr->nmetrics ? pr->metrics[0].ratio : NAN, bar_max, 20) == 0)
      fprintf(fp, " %-22s %s", text, bar);
    else
      fprintf(fp, "%s%*s", i == 0 ? "" : " ", c->tw, text);
  }
  fputc('\n', fp);
}

/* The pass table (variant = 0: its metric named on a second header line) or the variant table.
 * The interval, n and CV columns are shown only when some pass ran more than once. */
static void term_table(FILE *fp, const hp_session *s, int variant, double bar_max)
{
  int reps = hp__pt_reps(s);
  size_t i;

  fputc('\n', fp);
  term_head(fp, s, variant, reps, 0);
  if (!variant)
    term_head(fp, s, variant, reps, 1);
  for (i = 0; i < s->npasses; i++)
    if (!s->passes[i].is_variant == !variant)
      term_row(fp, &s->passes[i], variant, reps, bar_max);
}

void hp__term_title(FILE *fp, const hp_session *s, const char *what, const char *end)
{
  fprintf(fp, "\n%s %s%s%s\n", what, s->name ? s->name : "?",
          s->complete          ? ""
              : s->interrupted ? "  (INCOMPLETE: interrupted)"
                               : "  (INCOMPLETE)",
          end);
  if (s->dir)
    fprintf(fp, "folder: %s\n", s->dir);
}

/* The session line, its folder, and the profiling passes; the A/B variants against their
 * reference when the plan had some. */
static void term_tables(FILE *fp, const hp_session *s, int bars)
{
  hp__term_title(fp, s, "hprun session", "");
  if (s->combo)
    fprintf(fp, "combination: %s\n", s->combo);
  term_table(fp, s, 0, bars ? fmax(hp__term_bar_max(s), 10.0) : 0);
  if (hp__pt_any(s, 1))
    term_table(fp, s, 1, 0);
}

/* The profiler's kernel time beside the app's own figure, which tells whether they agree. */
static void term_crosscheck(FILE *fp, const hp_pass_result *pr, const char *unit)
{
  char a[32], b[32];

  fprintf(fp, "  %s: profiler says %.40s%s avg %s ms over %lld launches; the app measured %s%s%s",
          pr->name, pr->xk_name, strlen(pr->xk_name) > 40 ? "…" : "",
          hp__fmt_num(a, sizeof(a), pr->xk_avg_ms), pr->xk_calls,
          hp__fmt_num(b, sizeof(b), pr->nmetrics ? pr->metrics[0].st.median : NAN),
          *unit ? " " : "", unit);
  if (pr->app_launches >= 0)
    fprintf(fp, " and %lld launches%s", pr->app_launches,
            pr->xk_calls >= 0 && pr->xk_calls != pr->app_launches
                ? " (DIFFERENT: a launch "
                  "limit or skip in this pass, or dropped or replayed dispatches)"
                : "");
  fputc('\n', fp);
}

/* The hint of the first profiled pass whose `other` category is large (each profile of a session
 * is of the same program, so one is enough here; report.md and report.html give every pass's). */
static void term_other_hint(FILE *fp, const hp_session *s)
{
  char *head = NULL, *yaml = NULL, *l;
  size_t i, n;

  for (i = 0; i < s->npasses && head == NULL; i++)
    if (s->passes[i].profile && hp__profile_other_hint(s->passes[i].profile, &head, &yaml) == 0 &&
        head) {
      fprintf(fp, "  %s: %s\n", s->passes[i].name, head);
      for (l = yaml; *l; l += n + (l[n] == '\n'))
        fprintf(fp, "    %.*s\n", (int)(n = strcspn(l, "\n")), l);
    }
  free(head);
  free(yaml);
}

/* Advice, cross-checks, the session's error, and the reminder of what a profiled time means. */
static void term_notes(FILE *fp, const hp_session *s)
{
  hp__buf stops = HP__BUF_INIT;
  size_t i;

  fputc('\n', fp);
  if (hp__report_stops(&stops, s) && !hp__buf_error(&stops))
    fprintf(fp, "  %s\n", stops.data);
  hp__buf_free(&stops);
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].advice)
      fprintf(fp, "  %s: %s\n", s->passes[i].name, s->passes[i].advice);
  /* One kernel's average against the app's whole metric only when the plan's `kernel:` names the
   * kernel the app times; the whole profile's cross-check for every profiled pass. */
  for (i = 0; i < s->npasses; i++) {
    hp__buf b = HP__BUF_INIT;
    if (s->passes[i].xk_name && s->passes[i].kernel)
      term_crosscheck(fp, &s->passes[i], primary_unit(s));
    if (hp__crosscheck_text(s, &s->passes[i], &b) == 0 && b.data)
      fprintf(fp, "  %s: %s\n", s->passes[i].name, b.data);
    hp__buf_free(&b);
  }
  term_other_hint(fp, s);
  if (s->error)
    fprintf(fp, "  error: %s\n", s->error);
  fprintf(fp,
          "\nTimes under a profiler are for attribution; quote only the baseline as "
          "performance.\n");
}

/* Last, where the eye lands when the exit status is not 0. */
void hp__term_causes(const hp_session *s, FILE *fp)
{
  hp__causes l = hp__report_causes(s, HP__RF_TEXT);
  size_t i;

  if (l.n)
    fputc('\n', fp);
  for (i = 0; i < l.shown; i++) {
    hp__buf b = HP__BUF_INIT;
    if (hp__report_cause(&b, &l.c[i]) == 0 && b.data)
      fprintf(fp, "%s\n", b.data);
    hp__buf_free(&b);
  }
}

void hp__term_session(const hp_session *s, FILE *fp, int bars)
{
  term_tables(fp, s, bars);
  term_notes(fp, s);
  hp__term_roofline(fp, s);
  hp__term_causes(s, fp);
}
