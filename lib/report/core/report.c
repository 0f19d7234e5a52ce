/*
 * Helpers shared by the report writers, so that every format names its columns the same way,
 * heads and words the causes the same way, and escapes text by one rule per syntax (XML for
 * JUnit, and for HTML; Markdown for report.md).
 */
#include "report/core/report.h"

#include <stdio.h>
#include <string.h>

const hp_metric_result *hp__report_primary(const hp_session *s)
{
  const hp_pass_result *base = s->npasses ? &s->passes[s->baseline] : NULL;

  return base && base->nmetrics ? &base->metrics[0] : NULL;
}

int hp__report_xml(hp__buf *b, const char *s)
{
  for (; s && *s && !hp__buf_error(b); s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '&')
      hp__buf_adds(b, "&amp;");
    else if (c == '<')
      hp__buf_adds(b, "&lt;");
    else if (c == '>')
      hp__buf_adds(b, "&gt;");
    else if (c == '"')
      hp__buf_adds(b, "&quot;");
    else if (c < 0x20 && c != '\n' && c != '\t')
      hp__buf_addc(b, ' ');
    else
      hp__buf_addc(b, (char)c);
  }
  return hp__buf_error(b);
}

int hp__report_md_cell(hp__buf *b, const char *s)
{
  for (; s && *s && !hp__buf_error(b); s++)
    if (*s == '|')
      hp__buf_adds(b, "\\|");
    else
      hp__buf_addc(b, *s == '\n' ? ' ' : *s);
  return hp__buf_error(b);
}

char *hp__report_ci_label(char *buf, size_t len, double alpha, int looks)
{
  if (!(alpha > 0 && alpha < 1))
    alpha = HP_STATS_ALPHA;
  /* %.4g: 95, 90, 99, 97.5, 99.9, 99.17 (and no binary noise such as 95.00000000000001). */
  snprintf(buf, len, "%.4g%% CI", (1 - alpha / (looks > 1 ? looks : 1)) * 100);
  return buf;
}

int hp__report_cause(hp__buf *b, const hp_cause *c)
{
  return hp__buf_printf(b, "%s: %s%s%s", hp_cause_fails(c->kind) ? "fail" : "note",
                        c->pass ? c->pass : "", c->pass ? ": " : "", c->text ? c->text : "");
}

hp__causes hp__report_causes(const hp_session *s, int f)
{
  hp__causes l = {s->causes, s->ncauses, s->ncauses, NULL};
  size_t i;
  int fails = 0;

  for (i = 0; i < s->ncauses; i++)
    fails |= hp_cause_fails(s->causes[i].kind);
  if (f == HP__RF_MD && s->ncombos)
    l.title = fails ? "Why this sweep failed" : "Notes";
  else if (f == HP__RF_MD || f == HP__RF_HTML)
    l.title = fails ? "Why this session failed" : "Gates not evaluated";
  return l;
}

hp_profile_opts hp__report_profile_opts(const hp_session *s, const hp_pass_result *pr)
{
  hp_profile_opts o;

  memset(&o, 0, sizeof(o));
  o.top = s && s->report_top > 0 ? s->report_top : HP_PROFILE_SUMMARY_TOP;
  o.child_top = HP_PROFILE_SUMMARY_CHILD;
  o.metrics = pr ? pr->ncu_metrics : NULL;
  return o;
}

int hp__report_stops(hp__buf *b, const hp_session *s)
{
  int looks = s->looks > 1 ? s->looks : 1, k = 0;
  size_t i, j, n;

  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    if (pr->stopped == NULL)
      continue;
    for (j = n = 0; j < pr->nruns; j++)
      n += !pr->runs[j].warmup;
    if (k++ == 0)
      hp__buf_printf(b, "repeat auto (%d looks per pass, each interval at %.4g%%): ", looks,
                     100 * (1 - s->alpha / looks));
    hp__buf_printf(b, "%s%s %zu runs (%s)", k > 1 ? ", " : "", pr->name, n, pr->stopped);
  }
  return k;
}
