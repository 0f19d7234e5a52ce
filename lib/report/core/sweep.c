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
    snprintf(buf, len, "%s", pr->is_baseline ? "baseline" : "reference");
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
