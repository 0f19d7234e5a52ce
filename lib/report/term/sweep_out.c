/*
 * A parameter sweep on the terminal and in report.md: each combination's own table, then the
 * overview, which is why a sweep is run: one row per pass, one column per combination, each cell
 * the pass's primary-metric overhead (median ratio against that combination's baseline, with its
 * interval), so that how a profiler's overhead grows with the problem size reads along a row.
 *
 * Wide sweeps are cut into several overview tables of a few combinations each, so that a table
 * stays readable on an 80-100 column terminal and in a PR comment; report.md stays under its
 * size budget by leaving the per-combination tables that do not fit to their own report.md.
 */
#include "report/md/markdown.h"
#include "report/core/report.h"
#include "report/core/sweep.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Overview columns per table: on the terminal within about 100 columns, in report.md 6. */
#define TERM_WIDTH 100
#define MD_COLUMNS 6
/* report.md stays under 60 KB (a PR comment): the causes show at most MD_CAUSES lines, the overview
 * stops adding tables beyond MD_OVERVIEW_BUDGET bytes, and the per-combination tables beyond
 * MD_COMBO_BUDGET; what is left out is said, and is in summary.json and each combination's own
 * report.md. */
#define MD_CAUSES 40
#define MD_OVERVIEW_BUDGET 36000
#define MD_COMBO_BUDGET 50000

const hp_pass_result *hp__sweep_pass(const hp_combo *cb, const char *name)
{
  size_t i;

  for (i = 0; cb->s && i < cb->s->npasses; i++)
    if (cb->s->passes[i].name && strcmp(cb->s->passes[i].name, name) == 0)
      return &cb->s->passes[i];
  return NULL;
}

int hp__sweep_pass_names(const hp_session *s, const char ***names, size_t *n)
{
  size_t k, i, j, cap = 0;

  *names = NULL;
  *n = 0;
  for (k = 0; k < s->ncombos; k++)
    cap += s->combos[k].s ? s->combos[k].s->npasses : 0;
  if ((*names = calloc(cap + 1, sizeof(**names))) == NULL)
    return HP_ENOMEM;
  for (k = 0; k < s->ncombos; k++)
    for (i = 0; s->combos[k].s && i < s->combos[k].s->npasses; i++) {
      const char *name = s->combos[k].s->passes[i].name;
      for (j = 0; name && j < *n; j++)
        if (strcmp((*names)[j], name) == 0)
          break;
      if (name && j == *n)
        (*names)[(*n)++] = name;
    }
  return 0;
}

char *hp__sweep_cell(char *buf, size_t len, const hp_combo *cb, const char *name, int flag)
{
  const hp_pass_result *pr = hp__sweep_pass(cb, name);
  const hp_metric_result *m = pr && pr->nmetrics ? &pr->metrics[0] : NULL;
  char x[32], ci[48] = "";

  if (cb->s == NULL)
    snprintf(buf, len, "not run");
  else if (pr == NULL)
    snprintf(buf, len, "-");
  else if (pr->is_baseline || pr->is_reference)
    snprintf(buf, len, "%s", pr->is_baseline ? "baseline" : "reference");
  else if (pr->flag == HP_FLAG_FAILED && (m == NULL || isnan(m->ratio)))
    snprintf(buf, len, "failed");
  else {
    if (m && !isnan(m->ci_lo))
      snprintf(ci, sizeof(ci), " [%.3g,%.3g]", m->ci_lo, m->ci_hi);
    snprintf(buf, len, "%s%s%s%s", hp__fmt_overhead(x, sizeof(x), m ? m->ratio : NAN), ci,
             flag ? " " : "", flag ? hp_flag_name(pr->flag) : "");
  }
  return buf;
}

const char *hp__sweep_metric(const hp_session *s, const char **unit)
{
  const hp_metric_result *m;
  size_t k;

  *unit = "";
  for (k = 0; k < s->ncombos; k++)
    if (s->combos[k].s && (m = hp__report_primary(s->combos[k].s)) != NULL && m->name) {
      *unit = m->unit ? m->unit : "";
      return m->name;
    }
  return "metric";
}

/* ---- the terminal ----------------------------------------------------------------------------- */

/* The overview, in tables of as many combinations as fit TERM_WIDTH. */
static void term_overview(FILE *fp, const hp_session *s, const char **names, size_t n)
{
  const char *unit, *metric = hp__sweep_metric(s, &unit);
  size_t width = 24, per, k0, k, i, end;
  char cell[96], ci[32];

  for (k = 0; k < s->ncombos; k++)
    if (strlen(s->combos[k].name) + 2 > width)
      width = strlen(s->combos[k].name) + 2;
  per = width < TERM_WIDTH - 16 ? (TERM_WIDTH - 16) / width : 1;
  fprintf(
      fp, "\noverview: %s%s%s%s against each combination's baseline, median ratio [%s]\n", metric,
      *unit ? " (" : "", unit, *unit ? ")" : "",
      hp__report_ci_label(ci, sizeof(ci),
                          s->ncombos && s->combos[0].s ? s->combos[0].s->alpha : HP_STATS_ALPHA));
  for (k0 = 0; k0 < s->ncombos; k0 += per) {
    /* The last column is not padded: no line ends in blanks. */
    end = k0 + per < s->ncombos ? k0 + per : s->ncombos;
    fprintf(fp, "\n%-16s", "pass");
    for (k = k0; k < end; k++)
      fprintf(fp, " %-*s", k + 1 < end ? (int)width - 1 : 0, s->combos[k].name);
    fputc('\n', fp);
    for (i = 0; i < n; i++) {
      fprintf(fp, "%-16s", names[i]);
      for (k = k0; k < end; k++)
        fprintf(fp, " %-*s", k + 1 < end ? (int)width - 1 : 0,
                hp__sweep_cell(cell, sizeof(cell), &s->combos[k], names[i], 0));
      fputc('\n', fp);
    }
  }
}

void hp__sweep_table(const hp_session *s, FILE *fp)
{
  const char **names = NULL;
  size_t n = 0, k;

  for (k = 0; k < s->ncombos; k++) {
    fprintf(fp, "\n=== combination %zu of %zu: %s ===\n", k + 1, s->ncombos, s->combos[k].name);
    if (s->combos[k].s)
      hp_report_table(s->combos[k].s, fp);
    else
      fprintf(fp, "not run\n");
  }
  fprintf(fp, "\n=== hprun sweep %s%s ===\n", s->name ? s->name : "?",
          s->complete          ? ""
              : s->interrupted ? "  (INCOMPLETE: interrupted)"
                               : "  (INCOMPLETE)");
  if (s->dir)
    fprintf(fp, "folder: %s\n", s->dir);
  if (hp__sweep_pass_names(s, &names, &n) == 0)
    term_overview(fp, s, names, n);
  free(names);
  if (s->ncauses)
    fputc('\n', fp);
  for (k = 0; k < s->ncauses; k++) {
    hp__buf b = HP__BUF_INIT;
    if (hp__report_cause(&b, &s->causes[k]) == 0 && b.data)
      fprintf(fp, "%s\n", b.data);
    hp__buf_free(&b);
  }
}

/* ---- report.md -------------------------------------------------------------------------------- */

static int md_head(hp__buf *b, const hp_session *s)
{
  const hp_combo *first = s->ncombos ? &s->combos[0] : NULL;
  size_t i;
  int r = 0;

  r |= hp__buf_printf(b, "# hprun sweep `%s`\n\n", s->name ? s->name : "?");
  r |= hp__buf_printf(b, "- complete: **%s**%s; exit code %d\n", s->complete ? "yes" : "no",
                      s->interrupted ? " (interrupted)" : "", s->exit_code);
  r |= hp__buf_printf(b, "- %zu combination%s of ", s->ncombos, s->ncombos == 1 ? "" : "s");
  for (i = 0; first && i < first->nparams; i++)
    r |= hp__buf_printf(b, "%s`%s`", i ? ", " : "", first->params[i].key);
  r |= hp__buf_printf(b, "; started %s, finished %s\n", s->started ? s->started : "?",
                      s->finished ? s->finished : "?");
  if (s->ncauses) {
    r |= hp__buf_adds(b,
                      hp__report_any_failing(s->causes, s->ncauses)
                          ? "\n## Why this sweep failed\n\n"
                          : "\n## Notes\n\n");
    for (i = 0; i < s->ncauses && i < MD_CAUSES; i++) {
      hp__buf line = HP__BUF_INIT;
      r |= hp__report_cause(&line, &s->causes[i]);
      r |= hp__buf_adds(b, "- ");
      r |= hp__md_text(b, s, line.data, HP__MD_LINE);
      r |= hp__buf_adds(b, "\n");
      hp__buf_free(&line);
    }
    if (s->ncauses > MD_CAUSES)
      r |= hp__buf_printf(b, "- \xE2\x80\xA6 and %zu more: see summary.json\n",
                          s->ncauses - MD_CAUSES);
  }
  return r;
}

static int md_overview(hp__buf *b, const hp_session *s, const char **names, size_t n)
{
  const char *unit, *metric = hp__sweep_metric(s, &unit);
  size_t k0, k, i;
  char cell[96], ci[32];
  int r = 0;

  r |= hp__buf_printf(
      b,
      "\n## Overview\n\n`%s`%s%s%s of each pass against its combination's "
      "baseline: median ratio [%s], flag.\n",
      metric, *unit ? " (" : "", unit, *unit ? ")" : "",
      hp__report_ci_label(ci, sizeof(ci),
                          s->ncombos && s->combos[0].s ? s->combos[0].s->alpha : HP_STATS_ALPHA));
  for (k0 = 0; k0 < s->ncombos; k0 += MD_COLUMNS) {
    if (b->len > MD_OVERVIEW_BUDGET) {
      r |= hp__buf_printf(b,
                          "\n\xE2\x80\xA6 and %zu more combinations: see summary.json "
                          "(`sweep.combinations`).\n",
                          s->ncombos - k0);
      break;
    }
    r |= hp__buf_adds(b, "\n| pass |");
    for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++) {
      r |= hp__buf_adds(b, " ");
      r |= hp__report_md_cell(b, s->combos[k].name);
      r |= hp__buf_adds(b, " |");
    }
    r |= hp__buf_adds(b, "\n|---|");
    for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++)
      r |= hp__buf_adds(b, "---:|");
    r |= hp__buf_adds(b, "\n");
    for (i = 0; i < n; i++) {
      r |= hp__buf_adds(b, "| ");
      r |= hp__report_md_cell(b, names[i]);
      r |= hp__buf_adds(b, " |");
      for (k = k0; k < k0 + MD_COLUMNS && k < s->ncombos; k++)
        r |= hp__buf_printf(b, " %s |",
                            hp__sweep_cell(cell, sizeof(cell), &s->combos[k], names[i], 1));
      r |= hp__buf_adds(b, "\n");
    }
  }
  return r;
}

/* Each combination's pass table, while report.md stays within its budget. */
static int md_combos(hp__buf *b, const hp_session *s)
{
  size_t k, left = 0;
  int r = 0;

  r |= hp__buf_adds(b, "\n## Combinations\n");
  for (k = 0; k < s->ncombos; k++) {
    const hp_combo *cb = &s->combos[k];
    if (b->len > MD_COMBO_BUDGET) {
      left++;
      continue;
    }
    r |= hp__buf_printf(b, "\n### `%s`\n\n", cb->name);
    if (cb->s == NULL) {
      r |= hp__buf_adds(b, "Not run.\n");
      continue;
    }
    r |= hp__buf_printf(b,
                        "complete: **%s**, exit code %d; [report.md](%s/report.md), "
                        "[summary.json](%s/summary.json)\n",
                        cb->s->complete ? "yes" : "no", cb->s->exit_code, cb->name, cb->name);
    r |= hp__md_pass_table(b, cb->s);
  }
  if (left)
    r |= hp__buf_printf(b, "\n%zu more combination%s: see %s own report.md.\n", left,
                        left == 1 ? "" : "s", left == 1 ? "its" : "their");
  r |= hp__buf_adds(b,
                    "\n> Times measured under a profiler are for attribution only; the "
                    "baseline is the performance figure.\n");
  return r;
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
  r = md_head(&b, s) | md_overview(&b, s, names, n) | md_combos(&b, s);
  free(names);
  if (r) {
    hp__buf_free(&b);
    return HP_ENOMEM;
  }
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
