/*
 * The overview of a parameter sweep (report/core/sweep.h), which is why a sweep is run: one row per
 * pass, one column per combination, each cell the pass's primary-metric overhead (median ratio
 * against that combination's baseline, with its interval), so that how a profiler's overhead grows
 * with the problem size reads along a row. Its cells are made here once for every format.
 */
#include "report/core/sweep.h"
#include "report/core/report.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  char x[64];

  if (cb->s == NULL)
    snprintf(buf, len, "not run");
  else if (pr == NULL)
    snprintf(buf, len, "-");
  else if (pr->is_baseline || pr->is_reference)
    /* Its own value, which is what a sweep is run for: the time at each size. */
    snprintf(buf, len, "%s (%s)", hp__fmt_num(x, sizeof(x), m ? m->st.median : NAN),
             pr->is_baseline ? "baseline" : "reference");
  else if (pr->flag == HP_FLAG_FAILED && (m == NULL || isnan(m->ratio)))
    snprintf(buf, len, "failed");
  else
    snprintf(buf, len, "%s%s%s",
             m ? hp__fmt_change(x, sizeof(x), m->ratio, m->ci_lo, m->ci_hi, HP__CHG_BOTH) : "-",
             flag ? " " : "", flag ? hp_flag_name(pr->flag) : "");
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

char *hp__sweep_ci_label(char *buf, size_t len, const hp_session *s)
{
  const hp_session *c = s->ncombos ? s->combos[0].s : NULL;

  return hp__report_ci_label(buf, len, c ? c->alpha : HP_STATS_ALPHA, c ? c->looks : 1);
}

/* One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(hp__buf *b, const char *v, int last)
{
  if (v && strpbrk(v, ",\"\r\n")) {
    hp__buf_addc(b, '"');
    for (; *v; v++) {
      if (*v == '"')
        hp__buf_addc(b, '"');
      hp__buf_addc(b, *v);
    }
    hp__buf_addc(b, '"');
  } else
    hp__buf_adds(b, v ? v : "");
  hp__buf_addc(b, last ? '\n' : ',');
}

/* A raw number for plotting: 9 significant digits, empty when there is none. */
static void csv_num(hp__buf *b, double v)
{
  char x[40] = "";

  if (!isnan(v))
    snprintf(x, sizeof(x), "%.9g", v);
  csv_field(b, x, 0);
}

/* The rows of one session (a combination, or a plain session when cb is NULL). */
static void csv_rows(hp__buf *b, const hp_session *s, const hp_combo *cb, const hp_session *top)
{
  size_t i, k, j;

  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i], *ag = &s->passes[s->baseline];
    const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
    for (j = 0; pr->is_variant && j < s->npasses; j++)
      if (s->passes[j].is_reference)
        ag = &s->passes[j];
    csv_field(b, cb ? cb->name : "", 0);
    for (k = 0; top->ncombos && k < top->combos[0].nparams; k++)
      csv_field(b, cb && k < cb->nparams ? cb->params[k].value : "", 0);
    csv_field(b, pr->name, 0);
    csv_field(b, pr->mode, 0);
    csv_field(b, m ? m->name : "", 0);
    csv_field(b, m ? m->unit : "", 0);
    csv_num(b, m ? m->st.median : NAN);
    csv_field(b, pr->is_variant ? "reference" : "baseline", 0);
    csv_num(b, ag->nmetrics ? ag->metrics[0].st.median : NAN);
    csv_num(b, m && !pr->is_baseline && !pr->is_reference ? m->ratio : NAN);
    csv_num(b, m ? m->ci_lo : NAN);
    csv_num(b, m ? m->ci_hi : NAN);
    csv_field(b, hp_flag_name(pr->flag), 1);
  }
}

int hp_report_csv(const hp_session *s, char **out)
{
  hp__buf b = HP__BUF_INIT;
  size_t k;

  *out = NULL;
  hp__buf_adds(&b, "combination,");
  for (k = 0; s->ncombos && k < s->combos[0].nparams; k++)
    csv_field(&b, s->combos[0].params[k].key, 0);
  hp__buf_adds(&b, "pass,mode,metric,unit,median,against,against_median,ratio,ci_lo,ci_hi,flag\n");
  for (k = 0; k < s->ncombos; k++)
    if (s->combos[k].s)
      csv_rows(&b, s->combos[k].s, &s->combos[k], s);
  if (s->ncombos == 0)
    csv_rows(&b, s, NULL, s);
  if (hp__buf_error(&b)) {
    hp__buf_free(&b);
    return HP_ENOMEM;
  }
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
