/*
 * The pass and variant tables' one description (report/core/pass_table.h): the columns and their
 * cells. A cell formats its value through lib/util/num/fmt.h; where the formats still show a
 * value differently, the cell says so from the format, here and nowhere else.
 */
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>

#define T HP__RF_TEXT
#define M HP__RF_MD
#define H HP__RF_HTML
#define J HP__RF_JUNIT

/* Which tables show a column, for the description below: both of report.html's (HB), both of
 * every format but JUnit (EVERY), with JUnit's line (ALL), the pass tables (PASSES: report.html's
 * variant table has these columns too), the variant tables. */
#define HB (HP__PT_IN(H, 0) | HP__PT_IN(H, 1))
#define EVERY (HP__PT_IN(T, 0) | HP__PT_IN(T, 1) | HP__PT_IN(M, 0) | HP__PT_IN(M, 1) | HB)
#define ALL (EVERY | HP__PT_IN(J, 0))
#define PASSES (HP__PT_IN(T, 0) | HP__PT_IN(M, 0) | HB)
#define VARIANTS (HP__PT_IN(T, 1) | HP__PT_IN(M, 1))
#define RIGHT (HP__PC_MD_RIGHT | HP__PC_HTML_RIGHT)

/* clang-format off */
const hp__pt_col hp__pt_cols[HP__PT_NCOLS] = {
    /*                  in        flags                            hw   tw  headers */
    [HP__PT_NAME]    = {EVERY,    HP__PC_MD_ESC,                  -16, -16, {"%n", "%n", "%n"}},
    [HP__PT_MODE]    = {PASSES,   0,                              -14, -14,
                        {"mode", "mode", "mode"}},
    [HP__PT_MEDIAN]  = {ALL,      RIGHT,                           14,  14,
                        {"median", "%m median", "median %u", "median"}},
    [HP__PT_VS]      = {ALL,      RIGHT,                           12,  12,
                        {"vs %r", "vs %r", "vs %r", "ratio"}},
    [HP__PT_CI]      = {PASSES | VARIANTS | HP__PT_IN(J, 0), HP__PC_REPS | HP__PC_HTML_RIGHT, 12, 19,
                        {"%c", "%c", "%c", "change"}},
    [HP__PT_N]       = {PASSES,   HP__PC_REPS | RIGHT,              8,   3, {"n", "n", "n"}},
    [HP__PT_CV]      = {PASSES,   HP__PC_REPS | RIGHT,              6,   6, {"CV", "CV", "CV %"}},
    [HP__PT_FLAG]    = {PASSES | HP__PT_IN(J, 0), HP__PC_FLAG,    -11,   0,
                        {"flag", "flag", "flag", "flag"}},
    [HP__PT_MEM]     = {VARIANTS, HP__PC_MD_RIGHT,                 14,  14,
                        {"mem MiB (mean)", "sampled memory MiB (mean / peak)"}},
    [HP__PT_VERDICT] = {VARIANTS | HP__PT_IN(H, 1) | HP__PT_IN(J, 0), 0, -24, -24,
                        {"verdict", "verdict", "verdict", "verdict"}},
};
/* clang-format on */

const char *hp__pt_cell(const hp_pass_result *pr, int col, int f, char *buf)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  /* What the table measures against: the baseline in the pass table, the reference in the
   * variant table; report.html takes either in both. */
  int ref = f == H ? pr->is_baseline || pr->is_reference
                   : (pr->is_variant ? pr->is_reference : pr->is_baseline);
  char a[32], b[32];

  switch (col) {
  case HP__PT_NAME: return pr->name;
  case HP__PT_MODE: return pr->mode;
  case HP__PT_MEDIAN: return hp__fmt_num(buf, HP__PT_CELL, m ? m->st.median : NAN);
  case HP__PT_VS:
    /* The change against what the table measures against; JUnit shows the ratio itself. */
    if (f == J)
      return m && !pr->is_baseline ? hp__fmt_num(buf, HP__PT_CELL, m->ratio) : NULL;
    return ref ? "-" : hp__fmt_overhead(buf, HP__PT_CELL, m ? m->ratio : NAN);
  case HP__PT_CI:
    /* The interval in the change's unit; JUnit, which has no column of its own for it, gives
     * the change with it (hp__fmt_change). */
    if (f == J)
      return m && !pr->is_baseline && !isnan(m->ci_lo)
          ? hp__fmt_change(buf, HP__PT_CELL, m->ratio, m->ci_lo, m->ci_hi, HP__CHG_BOTH)
          : NULL;
    if (m == NULL || (f == H && ref))
      return "-";
    return hp__fmt_change(buf, HP__PT_CELL, m->ratio, m->ci_lo, m->ci_hi, HP__CHG_CI);
  case HP__PT_N: snprintf(buf, HP__PT_CELL, "%zu", m ? m->st.n : 0); return buf;
  case HP__PT_CV:
    /* In percent; report.html (whose header says "CV %") with six significant digits. */
    if (m == NULL || isnan(m->st.cv))
      return "-";
    if (f == H)
      return hp__fmt_num(buf, HP__PT_CELL, m->st.cv * 100);
    snprintf(buf, HP__PT_CELL, "%.2f%%", m->st.cv * 100);
    return buf;
  case HP__PT_FLAG:
    /* In bold in report.md; the terminal and report.html say when a distortion was expected. */
    snprintf(buf, HP__PT_CELL, f == M ? "**%s**%s" : "%s%s", hp_flag_name(pr->flag),
             f != M && f != J && pr->expect_distorted && pr->flag == HP_FLAG_DISTORTED
                 ? " (expected)"
                 : "");
    return buf;
  case HP__PT_MEM:
    /* The sampled memory's mean; report.md shows its peak as well. */
    if (f != M)
      return hp__fmt_num(buf, HP__PT_CELL, pr->mem_mean_mib);
    snprintf(buf, HP__PT_CELL, "%s / %s", hp__fmt_num(a, sizeof(a), pr->mem_mean_mib),
             hp__fmt_num(b, sizeof(b), pr->mem_peak_mib));
    return buf;
  case HP__PT_VERDICT:
    /* JUnit shows only a verdict that was given. */
    if (f == J)
      return pr->verdict;
    return pr->is_reference ? "reference" : pr->verdict ? pr->verdict : "-";
  }
  return NULL;
}

int hp__pt_shows(const hp__pt_col *c, int f, int variant, int reps)
{
  return (c->in & HP__PT_IN(f, variant)) && !(f == T && (c->flags & HP__PC_REPS) && !reps);
}

/* report.html shows an empty unit too, as "()". */
int hp__pt_metric(hp__buf *out, const hp_session *s, int f, int unit)
{
  const hp_metric_result *m = hp__report_primary(s);

  hp__buf_adds(out, m && m->name ? m->name : "metric");
  if (unit && m && m->unit && (*m->unit || f == H))
    hp__buf_printf(out, " (%s)", m->unit);
  return hp__buf_error(out);
}

int hp__pt_head(hp__buf *out, const hp_session *s, const hp__pt_col *c, int f, int variant)
{
  const char *t = c->head[f];
  char ci[32];

  hp__buf_reset(out);
  hp__buf_adds(out, ""); /* an empty header is "", not NULL */
  for (; t && *t; t++) {
    if (*t != '%' || t[1] == '\0') {
      hp__buf_addc(out, *t);
      continue;
    }
    t++;
    if (*t == 'n')
      hp__buf_adds(out, variant ? "variant" : "pass");
    else if (*t == 'r')
      hp__buf_adds(out, variant ? "reference" : "baseline");
    else if (*t == 'c')
      hp__buf_adds(out, hp__report_ci_label(ci, sizeof(ci), s->alpha, variant ? 1 : s->looks));
    else
      hp__pt_metric(out, s, f, *t == 'u');
  }
  return hp__buf_error(out);
}

int hp__pt_reps(const hp_session *s)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].nmetrics && s->passes[i].metrics[0].st.n > 1)
      return 1;
  return 0;
}

int hp__pt_any(const hp_session *s, int variant)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].is_variant == variant)
      return 1;
  return 0;
}
