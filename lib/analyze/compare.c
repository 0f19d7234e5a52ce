/*
 * hprun compare OLD NEW: every pass and variant present in both sessions, every metric, compared
 * with the same test as the overhead (Mann-Whitney p and a bootstrap interval of the ratio of
 * medians). A change is a regression only when it is significant AND worse than the tolerance, so
 * run-to-run noise does not fail CI (the complaint users have about hand-rolled gates, see
 * docs/ci.md).
 */
#include "analyze/results.h"
#include "util/buf.h"
#include "util/fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hp_pass_result *find_pass(const hp_session *s, const char *name)
{
  size_t i;

  for (i = 0; i < s->npasses; i++)
    if (strcmp(s->passes[i].name, name) == 0)
      return &s->passes[i];
  return NULL;
}

static long find_metric(const hp_pass_result *pr, const char *name)
{
  size_t i;

  for (i = 0; i < pr->nmetrics; i++)
    if (pr->metrics[i].name && strcmp(pr->metrics[i].name, name) == 0)
      return (long)i;
  return -1;
}

int hp_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
               char **md, size_t *regressions)
{
  hp__buf b = HP__BUF_INIT;
  size_t i, m, nreg = 0, nunconf = 0;
  int r = 0;

  *md = NULL;
  *regressions = 0;
  r |= hp__buf_printf(&b, "## hprun compare: `%s` → `%s`\n\n", old_s->name ? old_s->name : "?",
                      new_s->name ? new_s->name : "?");
  r |= hp__buf_printf(&b,
                      "Tolerance %.3g%%, alpha %.3g. A regression is a change that is "
                      "significant and worse than the tolerance.\n\n",
                      o->tolerance * 100, o->alpha);
  r |= hp__buf_adds(&b,
                    "| pass | metric | old median | new median | change | 95% CI of ratio | p | n "
                    "old/new | verdict |\n"
                    "|---|---|---:|---:|---:|---|---:|---|---|\n");
  for (i = 0; i < new_s->npasses && !r; i++) {
    const hp_pass_result *np = &new_s->passes[i], *op = find_pass(old_s, np->name);
    if (op == NULL) {
      r |= hp__buf_printf(&b, "| %s | - | - | - | - | - | - | - | new pass |\n", np->name);
      continue;
    }
    for (m = 0; m < np->nmetrics; m++) {
      long om = np->metrics[m].name ? find_metric(op, np->metrics[m].name) : -1;
      double *a, *c, ratio = NAN, p = NAN, lo = NAN, hi = NAN, worse, tol;
      hp_significance sig = HP_SIG_UNKNOWN;
      size_t na, nc;
      const char *verdict;
      char x[32], y[32], z[32];
      if (om < 0)
        continue;
      na = hp__counted_values(op, (size_t)om, &a);
      nc = hp__counted_values(np, m, &c);
      if (a == NULL || c == NULL) {
        free(a);
        free(c);
        r = HP_ENOMEM;
        break;
      }
      hp_stats_compare(a, na, c, nc, o->alpha, o->seed, &sig, &ratio, &p, &lo, &hi);
      ratio = op->metrics[om].st.median != 0 ? np->metrics[m].st.median / op->metrics[om].st.median
                                             : NAN;
      worse = np->metrics[m].higher_is_better ? 1.0 / ratio - 1.0 : ratio - 1.0;
      /* A metric's own tolerance in the (new) plan wins over the command line's default. */
      tol = np->metrics[m].tolerance >= 0 ? np->metrics[m].tolerance : o->tolerance;
      if (isnan(worse))
        verdict = "no data";
      else if (worse > tol && sig == HP_SIG_YES) {
        verdict = "**REGRESSION**";
        nreg++;
      } else if (worse > tol && sig == HP_SIG_UNKNOWN) {
        verdict = "worse, unconfirmed (too few runs)";
        nunconf++;
      } else if (worse < -tol && sig == HP_SIG_YES)
        verdict = "improved";
      else if (sig == HP_SIG_YES)
        verdict = "changed within tolerance";
      else
        verdict = "no significant change";
      r |= hp__buf_printf(&b, "| %s | %s | %s | %s | %s | ", np->name, np->metrics[m].name,
                          hp__fmt_num(x, sizeof(x), op->metrics[om].st.median),
                          hp__fmt_num(y, sizeof(y), np->metrics[m].st.median),
                          hp__fmt_overhead(z, sizeof(z), ratio));
      if (!isnan(lo))
        r |= hp__buf_printf(&b, "[%.4f, %.4f]", lo, hi);
      else
        r |= hp__buf_adds(&b, "-");
      r |= hp__buf_printf(&b, " | %s | %zu/%zu | %s |\n", hp__fmt_num(x, sizeof(x), p), na, nc,
                          verdict);
      free(a);
      free(c);
    }
  }
  r |= hp__buf_printf(&b, "\n%zu regression(s)", nreg);
  if (nunconf)
    r |= hp__buf_printf(&b,
                        "; %zu change(s) beyond the tolerance could not be tested: run "
                        "at least %d repeats per pass",
                        nunconf, HP_STATS_MIN_N);
  r |= hp__buf_adds(&b, ".\n");
  if (r) {
    hp__buf_free(&b);
    return r < 0 ? r : HP_ENOMEM;
  }
  *md = hp__buf_steal(&b);
  *regressions = nreg;
  return *md ? 0 : HP_ENOMEM;
}
