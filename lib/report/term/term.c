/*
 * The terminal table, like the article's: pass, metric median, change against the baseline, flag,
 * then one line of advice per flagged pass and the profiler cross-check. It is what a user reads
 * first, so it says plainly which numbers are performance and which are not. It is printed in
 * sections: the header and pass table, the A/B variant table, the notes, then one line per cause
 * of the exit code (`fail: ...`) and per gate that could not be evaluated (`note: ...`).
 */
#include "analyze/crosscheck.h"
#include "report/core/report.h"
#include "report/core/roofline_table.h"
#include "report/core/sweep.h"
#include "util/base/buf.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The interval, n and CV columns are shown only when some pass ran more than once. */
static int any_repeats(const hp_session *s)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].nmetrics && s->passes[i].metrics[0].st.n > 1)
      return 1;
  return 0;
}

/* The primary metric's unit, or "". */
static const char *primary_unit(const hp_session *s)
{
  const hp_metric_result *m = hp__report_primary(s);

  return m && m->unit ? m->unit : "";
}

/* bar_max > 0: the overhead bars are on, on that scale (term_bar.c). */
static void term_pass_row(FILE *fp, const hp_pass_result *pr, int reps, double bar_max)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  char a[32], b[32], c[48], d[32], bar[96];

  fprintf(fp, "%-16s %-14s %14s %12s", pr->name, pr->mode,
          hp__fmt_num(a, sizeof(a), m ? m->st.median : NAN),
          pr->is_baseline ? "-" : hp__fmt_overhead(b, sizeof(b), m ? m->ratio : NAN));
  if (reps) {
    if (m && !isnan(m->ci_lo))
      snprintf(c, sizeof(c), "[%.4f,%.4f]", m->ci_lo, m->ci_hi);
    else
      snprintf(c, sizeof(c), "-");
    snprintf(d, sizeof(d), "%.2f%%", m && !isnan(m->st.cv) ? m->st.cv * 100 : NAN);
    fprintf(fp, " %19s %3zu %6s", c, m ? m->st.n : 0, m && !isnan(m->st.cv) ? d : "-");
  }
  snprintf(c, sizeof(c), "%s%s", hp_flag_name(pr->flag),
           pr->expect_distorted && pr->flag == HP_FLAG_DISTORTED ? " (expected)" : "");
  if (bar_max > 0 && !pr->is_baseline &&
      hp__term_bar(bar, sizeof(bar), m ? m->ratio : NAN, bar_max, 20) == 0)
    fprintf(fp, " %-22s %s\n", c, bar);
  else
    fprintf(fp, " %s\n", c);
}

/* The session line, its folder, and the profiling passes. */
static void term_pass_table(FILE *fp, const hp_session *s, int bars)
{
  const hp_metric_result *pm = hp__report_primary(s);
  const char *mname = pm && pm->name ? pm->name : "metric", *unit = primary_unit(s);
  int reps = any_repeats(s);
  char head[96], ci[32], cols[64];
  size_t i;

  fprintf(fp, "\nhprun session %s%s\n", s->name ? s->name : "?",
          s->complete          ? ""
              : s->interrupted ? "  (INCOMPLETE: interrupted)"
                               : "  (INCOMPLETE)");
  if (s->dir)
    fprintf(fp, "folder: %s\n", s->dir);
  if (s->combo)
    fprintf(fp, "combination: %s\n", s->combo);
  snprintf(head, sizeof(head), "%s%s%s%s", mname, *unit ? " (" : "", unit, *unit ? ")" : "");
  /* The interval is labelled with the level it was computed at, 1 - alpha. */
  snprintf(cols, sizeof(cols), "%12s       n    CV", hp__report_ci_label(ci, sizeof(ci), s->alpha));
  fprintf(fp, "\n%-16s %-14s %14s %12s%s %-11s\n", "pass", "mode", "median", "vs baseline",
          reps ? cols : "", "flag");
  fprintf(fp, "%-16s %-14s %14s\n", "", "", head);
  for (i = 0; i < s->npasses; i++)
    if (!s->passes[i].is_variant)
      term_pass_row(fp, &s->passes[i], reps, bars ? fmax(hp__term_bar_max(s), 10.0) : 0);
}

/* The A/B variants against their reference; nothing when the plan had none. */
static void term_variant_table(FILE *fp, const hp_session *s)
{
  char a[32], b[32], c[32];
  size_t i;
  int any = 0;

  for (i = 0; i < s->npasses; i++)
    any |= s->passes[i].is_variant;
  if (!any)
    return;
  fprintf(fp, "\n%-16s %14s %12s %14s %-24s\n", "variant", "median", "vs reference",
          "mem MiB (mean)", "verdict");
  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
    if (!pr->is_variant)
      continue;
    fprintf(fp, "%-16s %14s %12s %14s %-24s\n", pr->name,
            hp__fmt_num(a, sizeof(a), m ? m->st.median : NAN),
            pr->is_reference ? "-" : hp__fmt_overhead(b, sizeof(b), m ? m->ratio : NAN),
            hp__fmt_num(c, sizeof(c), pr->mem_mean_mib),
            pr->is_reference  ? "reference"
                : pr->verdict ? pr->verdict
                              : "-");
  }
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

/* Advice, cross-checks, the session's error, and the reminder of what a profiled time means. */
static void term_notes(FILE *fp, const hp_session *s)
{
  size_t i;

  fputc('\n', fp);
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
  if (s->error)
    fprintf(fp, "  error: %s\n", s->error);
  fprintf(fp,
          "\nTimes under a profiler are for attribution; quote only the baseline as "
          "performance.\n");
}

/* One line per cause, last, where the eye lands when the exit status is not 0. */
static void term_causes(FILE *fp, const hp_session *s)
{
  size_t i;

  if (s->ncauses)
    fputc('\n', fp);
  for (i = 0; i < s->ncauses; i++) {
    hp__buf b = HP__BUF_INIT;
    if (hp__report_cause(&b, &s->causes[i]) == 0 && b.data)
      fprintf(fp, "%s\n", b.data);
    hp__buf_free(&b);
  }
}

void hp_report_table(const hp_session *s, FILE *fp)
{
  hp_report_table_bars(s, fp, 0);
}

void hp_report_table_bars(const hp_session *s, FILE *fp, int bars)
{
  if (s->ncombos) {
    hp__sweep_table(s, fp);
    return;
  }
  term_pass_table(fp, s, bars);
  term_variant_table(fp, s);
  term_notes(fp, s);
  hp__term_roofline(fp, s);
  term_causes(fp, s);
}
