/*
 * report.md: the session as GitHub-flavoured Markdown, for a PR comment or an archive. It holds
 * the same table as the terminal, every run, and the advice, so the file alone tells the story.
 * It is written in sections, top to bottom: the header, why the session failed (the terminal's
 * `fail:` and `note:` lines), the pass table, the A/B variant table, the advice, every run, and
 * what each profiler wrote.
 */
#include "report/report.h"
#include "util/buf.h"
#include "util/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The name the tables give the primary metric's median column. */
static const char *primary_name(const hp_session *s)
{
  const hp_metric_result *m = hp__report_primary(s);

  return m && m->name ? m->name : "metric";
}

/* The title and the session's settings, as a bullet list. */
static int md_header(hp__buf *b, const hp_session *s)
{
  int r = 0;

  r |= hp__buf_printf(b, "# hprun session `%s`\n\n", s->name ? s->name : "?");
  r |= hp__buf_printf(b, "- complete: **%s**%s\n", s->complete ? "yes" : "no",
                      s->interrupted ? " (interrupted)" : "");
  r |= hp__buf_printf(b, "- started %s, finished %s; order %s, seed %llu, repeat %d, warmup %d\n",
                      s->started ? s->started : "?", s->finished ? s->finished : "?",
                      s->order ? s->order : "?", (unsigned long long)s->seed, s->repeat, s->warmup);
  r |= hp__buf_printf(b, "- thresholds: warn %.3g%%", s->warn * 100);
  if (s->fail > 0)
    r |= hp__buf_printf(b, ", fail %.3g%%", s->fail * 100);
  r |= hp__buf_printf(b, ", alpha %.3g\n", s->alpha);
  if (s->error)
    r |= hp__buf_printf(b, "- **error**: %s\n", s->error);
  return r;
}

/* The causes of the exit code, first, since that is what a reader of a failed job looks for: the
 * same lines as the terminal's, one bullet each. Only notes: the gates that were not evaluated. */
static int md_causes(hp__buf *b, const hp_session *s)
{
  size_t i, k;
  int r = 0;

  if (s->ncauses == 0)
    return 0;
  r |= hp__buf_adds(b,
                    hp__report_any_failing(s->causes, s->ncauses)
                        ? "\n## Why this session failed\n\n"
                        : "\n## Gates not evaluated\n\n");
  for (i = 0; i < s->ncauses; i++) {
    hp__buf line = HP__BUF_INIT;
    r |= hp__report_cause(&line, &s->causes[i]);
    /* A cause is one line; a newline from a run's error message must not end the bullet. */
    for (k = 0; k < line.len; k++)
      if (line.data[k] == '\n')
        line.data[k] = ' ';
    r |= hp__buf_printf(b, "- %s\n", line.data ? line.data : "");
    hp__buf_free(&line);
  }
  return r;
}

/* One row of the pass table: the primary metric against the baseline. */
static int md_pass_row(hp__buf *b, const hp_pass_result *pr)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  char x[32], y[32];
  int r = 0;

  r |= hp__buf_adds(b, "| ");
  r |= hp__report_md_cell(b, pr->name);
  r |= hp__buf_printf(b, " | %s | %s | %s | ", pr->mode,
                      hp__fmt_num(x, sizeof(x), m ? m->st.median : NAN),
                      pr->is_baseline ? "-" : hp__fmt_overhead(y, sizeof(y), m ? m->ratio : NAN));
  if (m && !isnan(m->ci_lo))
    r |= hp__buf_printf(b, "[%.4f, %.4f]", m->ci_lo, m->ci_hi);
  else
    r |= hp__buf_adds(b, "-");
  r |= hp__buf_printf(b, " | %s | %zu | ", hp__fmt_num(x, sizeof(x), m ? m->p : NAN),
                      m ? m->st.n : 0);
  if (m && !isnan(m->st.cv))
    r |= hp__buf_printf(b, "%.2f%%", m->st.cv * 100);
  else
    r |= hp__buf_adds(b, "-");
  r |= hp__buf_printf(b, " | **%s** |\n", hp_flag_name(pr->flag));
  return r;
}

/* The profiling passes (variants have their own table). */
static int md_pass_table(hp__buf *b, const hp_session *s)
{
  char ci[32];
  size_t i;
  int r = 0;

  r |= hp__buf_printf(
      b,
      "\n| pass | mode | %s median | vs baseline | %s of ratio | p | n | CV | flag |\n"
      "|---|---|---:|---:|---|---:|---:|---:|---|\n",
      primary_name(s), hp__report_ci_label(ci, sizeof(ci), s->alpha));
  for (i = 0; i < s->npasses; i++)
    if (!s->passes[i].is_variant)
      r |= md_pass_row(b, &s->passes[i]);
  return r;
}

static int md_variant_row(hp__buf *b, const hp_pass_result *pr)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  char x[32], y[32];
  int r = 0;

  r |= hp__buf_adds(b, "| ");
  r |= hp__report_md_cell(b, pr->name);
  r |= hp__buf_printf(b, " | %s | %s | ", hp__fmt_num(x, sizeof(x), m ? m->st.median : NAN),
                      pr->is_reference ? "-" : hp__fmt_overhead(y, sizeof(y), m ? m->ratio : NAN));
  r |= hp__buf_printf(b, "%s | ",
                      pr->is_reference ? "-" : hp__fmt_num(x, sizeof(x), m ? m->p : NAN));
  r |= hp__buf_printf(b, "%s / ", hp__fmt_num(x, sizeof(x), pr->mem_mean_mib));
  r |= hp__buf_printf(b, "%s | %s |\n", hp__fmt_num(x, sizeof(x), pr->mem_peak_mib),
                      pr->is_reference  ? "reference"
                          : pr->verdict ? pr->verdict
                                        : "-");
  return r;
}

/* The A/B variants against their reference; nothing when the plan had none. */
static int md_variant_table(hp__buf *b, const hp_session *s)
{
  size_t i;
  int r = 0, any = 0;

  for (i = 0; i < s->npasses; i++)
    any |= s->passes[i].is_variant;
  if (!any)
    return 0;
  r |= hp__buf_printf(b,
                      "\n| variant | %s median | vs reference | p | sampled memory MiB (mean / "
                      "peak) | verdict |\n|---|---:|---:|---:|---:|---|\n",
                      primary_name(s));
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].is_variant)
      r |= md_variant_row(b, &s->passes[i]);
  return r;
}

/* One bullet per pass with advice, then the reminder of what a profiled time means. */
static int md_advice(hp__buf *b, const hp_session *s)
{
  size_t i;
  int r = 0;

  r |= hp__buf_adds(b, "\n");
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].advice) {
      r |= hp__buf_printf(b, "- **%s**: ", s->passes[i].name);
      r |= hp__report_md_cell(b, s->passes[i].advice);
      r |= hp__buf_adds(b, "\n");
    }
  r |= hp__buf_adds(b,
                    "\n> Times measured under a profiler are for attribution only; the "
                    "baseline is the performance figure.\n");
  return r;
}

static int md_run_row(hp__buf *b, const hp_pass_result *pr, const hp_run *rn)
{
  char x[32];
  size_t m;
  int r = 0;

  r |= hp__buf_adds(b, "| ");
  r |= hp__report_md_cell(b, pr->name);
  r |= hp__buf_printf(b, " | %s%d | `%s` | ", rn->warmup ? "warmup " : "",
                      rn->warmup ? 0 : rn->index, rn->dir ? rn->dir : "?");
  if (rn->error)
    r |= hp__report_md_cell(b, rn->error);
  else if (rn->timed_out)
    r |= hp__buf_adds(b, "timeout");
  else if (rn->term_signal)
    r |= hp__buf_printf(b, "signal %d", rn->term_signal);
  else
    r |= hp__buf_printf(b, "%lld", rn->exit_status);
  r |= hp__buf_printf(b, " | %.1f | %ld | ", rn->wall_ms, rn->max_rss_kb);
  for (m = 0; m < pr->nmetrics; m++)
    r |=
        hp__buf_printf(b, "%s%s=%s", m ? ", " : "", pr->metrics[m].name ? pr->metrics[m].name : "?",
                       hp__fmt_num(x, sizeof(x), rn->values ? rn->values[m] : NAN));
  r |= hp__buf_printf(b, " | %zu |\n", rn->files.n);
  return r;
}

/* Every run of every pass, warmups included, in the order each pass ran them. */
static int md_runs(hp__buf *b, const hp_session *s)
{
  size_t i, k;
  int r = 0;

  r |= hp__buf_adds(b,
                    "\n## Runs\n\n"
                    "| pass | run | dir | exit | wall ms | max RSS kB | values | files |\n"
                    "|---|---:|---|---:|---:|---:|---|---:|\n");
  for (i = 0; i < s->npasses; i++)
    for (k = 0; k < s->passes[i].nruns; k++)
      r |= md_run_row(b, &s->passes[i], &s->passes[i].runs[k]);
  return r;
}

/* What each profiler wrote, as the tables `hprun summarize --format md` prints. */
static int md_profiles(hp__buf *b, const hp_session *s)
{
  size_t i;
  int r = 0;

  for (i = 0; i < s->npasses && !r; i++) {
    const hp_pass_result *pr = &s->passes[i];
    hp_profile_opts po = {10, 0};
    char *text = NULL;
    size_t tlen = 0;
    FILE *fp;
    if (pr->profile == NULL || hp_profile_nfiles(pr->profile) == 0)
      continue;
    if ((fp = open_memstream(&text, &tlen)) == NULL)
      return HP_ENOMEM;
    hp_profile_write(pr->profile, fp, HP_FMT_MD, &po);
    if (fclose(fp) == 0) {
      r |= hp__buf_adds(b, "\n## Profiler output: ");
      r |= hp__report_md_cell(b, pr->name);
      r |= hp__buf_adds(b, "\n\n");
      r |= hp__buf_add(b, text, tlen);
    }
    free(text);
  }
  return r;
}

int hp_report_markdown(const hp_session *s, char **out)
{
  hp__buf b = HP__BUF_INIT;
  int r = 0;

  *out = NULL;
  r |= md_header(&b, s);
  r |= md_causes(&b, s);
  r |= md_pass_table(&b, s);
  r |= md_variant_table(&b, s);
  r |= md_advice(&b, s);
  r |= md_runs(&b, s);
  if (r == 0)
    r = md_profiles(&b, s);
  if (r) {
    hp__buf_free(&b);
    return HP_ENOMEM;
  }
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}
