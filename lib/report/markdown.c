/*
 * report.md: the session as GitHub-flavoured Markdown, for a PR comment or an archive. It holds
 * the same table as the terminal, every run, and the advice, so the file alone tells the story.
 */
#include "util/buf.h"
#include "util/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table cells cannot hold a raw '|' or newline. */
static int cell(hp__buf *b, const char *s)
{
  int r = 0;

  for (; s && *s && !r; s++)
    r = *s == '|'    ? hp__buf_adds(b, "\\|")
        : *s == '\n' ? hp__buf_addc(b, ' ')
                     : hp__buf_addc(b, *s);
  return r;
}

int hp_report_markdown(const hp_session *s, char **out)
{
  const hp_pass_result *base = s->npasses ? &s->passes[s->baseline] : NULL;
  const char *mname =
      base && base->nmetrics && base->metrics[0].name ? base->metrics[0].name : "metric";
  hp__buf b = HP__BUF_INIT;
  char x[32], y[32];
  size_t i, k;
  int r = 0, variants = 0;

  *out = NULL;
  r |= hp__buf_printf(&b, "# hprun session `%s`\n\n", s->name ? s->name : "?");
  r |= hp__buf_printf(&b, "- complete: **%s**%s\n", s->complete ? "yes" : "no",
                      s->interrupted ? " (interrupted)" : "");
  r |= hp__buf_printf(&b, "- started %s, finished %s; order %s, seed %llu, repeat %d, warmup %d\n",
                      s->started ? s->started : "?", s->finished ? s->finished : "?",
                      s->order ? s->order : "?", (unsigned long long)s->seed, s->repeat, s->warmup);
  r |= hp__buf_printf(&b, "- thresholds: warn %.3g%%", s->warn * 100);
  if (s->fail > 0)
    r |= hp__buf_printf(&b, ", fail %.3g%%", s->fail * 100);
  r |= hp__buf_printf(&b, ", alpha %.3g\n", s->alpha);
  if (s->error)
    r |= hp__buf_printf(&b, "- **error**: %s\n", s->error);
  r |= hp__buf_printf(
      &b,
      "\n| pass | mode | %s median | vs baseline | 95%% CI of ratio | p | n | CV | flag |\n"
      "|---|---|---:|---:|---|---:|---:|---:|---|\n",
      mname);
  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
    if (pr->is_variant) {
      variants = 1;
      continue;
    }
    r |= hp__buf_adds(&b, "| ");
    r |= cell(&b, pr->name);
    r |= hp__buf_printf(&b, " | %s | %s | %s | ", pr->mode,
                        hp__fmt_num(x, sizeof(x), m ? m->st.median : NAN),
                        pr->is_baseline ? "-" : hp__fmt_overhead(y, sizeof(y), m ? m->ratio : NAN));
    if (m && !isnan(m->ci_lo))
      r |= hp__buf_printf(&b, "[%.4f, %.4f]", m->ci_lo, m->ci_hi);
    else
      r |= hp__buf_adds(&b, "-");
    r |= hp__buf_printf(&b, " | %s | %zu | ", hp__fmt_num(x, sizeof(x), m ? m->p : NAN),
                        m ? m->st.n : 0);
    if (m && !isnan(m->st.cv))
      r |= hp__buf_printf(&b, "%.2f%%", m->st.cv * 100);
    else
      r |= hp__buf_adds(&b, "-");
    r |= hp__buf_printf(&b, " | **%s** |\n", hp_flag_name(pr->flag));
  }
  if (variants) {
    r |= hp__buf_printf(&b,
                        "\n| variant | %s median | vs reference | p | sampled memory MiB (mean / "
                        "peak) | verdict |\n|---|---:|---:|---:|---:|---|\n",
                        mname);
    for (i = 0; i < s->npasses; i++) {
      const hp_pass_result *pr = &s->passes[i];
      const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
      if (!pr->is_variant)
        continue;
      r |= hp__buf_adds(&b, "| ");
      r |= cell(&b, pr->name);
      r |= hp__buf_printf(&b, " | %s | %s | ", hp__fmt_num(x, sizeof(x), m ? m->st.median : NAN),
                          pr->is_reference ? "-"
                                           : hp__fmt_overhead(y, sizeof(y), m ? m->ratio : NAN));
      r |= hp__buf_printf(&b, "%s | ",
                          pr->is_reference ? "-" : hp__fmt_num(x, sizeof(x), m ? m->p : NAN));
      r |= hp__buf_printf(&b, "%s / ", hp__fmt_num(x, sizeof(x), pr->mem_mean_mib));
      r |= hp__buf_printf(&b, "%s | %s |\n", hp__fmt_num(x, sizeof(x), pr->mem_peak_mib),
                          pr->is_reference  ? "reference"
                              : pr->verdict ? pr->verdict
                                            : "-");
    }
  }
  r |= hp__buf_adds(&b, "\n");
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].advice) {
      r |= hp__buf_printf(&b, "- **%s**: ", s->passes[i].name);
      r |= cell(&b, s->passes[i].advice);
      r |= hp__buf_adds(&b, "\n");
    }
  r |= hp__buf_adds(&b,
                    "\n> Times measured under a profiler are for attribution only; the "
                    "baseline is the performance figure.\n\n## Runs\n\n"
                    "| pass | run | dir | exit | wall ms | max RSS kB | values | files |\n"
                    "|---|---:|---|---:|---:|---:|---|---:|\n");
  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    for (k = 0; k < pr->nruns; k++) {
      const hp_run *rn = &pr->runs[k];
      size_t m;
      r |= hp__buf_adds(&b, "| ");
      r |= cell(&b, pr->name);
      r |= hp__buf_printf(&b, " | %s%d | `%s` | ", rn->warmup ? "warmup " : "",
                          rn->warmup ? 0 : rn->index, rn->dir ? rn->dir : "?");
      if (rn->error)
        r |= cell(&b, rn->error);
      else if (rn->timed_out)
        r |= hp__buf_adds(&b, "timeout");
      else if (rn->term_signal)
        r |= hp__buf_printf(&b, "signal %d", rn->term_signal);
      else
        r |= hp__buf_printf(&b, "%lld", rn->exit_status);
      r |= hp__buf_printf(&b, " | %.1f | %ld | ", rn->wall_ms, rn->max_rss_kb);
      for (m = 0; m < pr->nmetrics; m++)
        r |= hp__buf_printf(&b, "%s%s=%s", m ? ", " : "",
                            pr->metrics[m].name ? pr->metrics[m].name : "?",
                            hp__fmt_num(x, sizeof(x), rn->values ? rn->values[m] : NAN));
      r |= hp__buf_printf(&b, " | %zu |\n", rn->files.n);
    }
  }
  /* What each profiler wrote, as the tables `hprun summarize --format md` prints. */
  for (i = 0; i < s->npasses && !r; i++) {
    const hp_pass_result *pr = &s->passes[i];
    hp_profile_opts po = {10, 0};
    char *text = NULL;
    size_t tlen = 0;
    FILE *fp;
    if (pr->profile == NULL || hp_profile_nfiles(pr->profile) == 0)
      continue;
    if ((fp = open_memstream(&text, &tlen)) == NULL) {
      r = HP_ENOMEM;
      break;
    }
    hp_profile_write(pr->profile, fp, HP_FMT_MD, &po);
    if (fclose(fp) == 0) {
      r |= hp__buf_adds(&b, "\n## Profiler output: ");
      r |= cell(&b, pr->name);
      r |= hp__buf_adds(&b, "\n\n");
      r |= hp__buf_add(&b, text, tlen);
    }
    free(text);
  }
  if (r) {
    hp__buf_free(&b);
    return HP_ENOMEM;
  }
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
