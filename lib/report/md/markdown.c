/*
 * report.md: the session as GitHub-flavoured Markdown, for a PR comment or an archive. It holds
 * the same tables as the terminal, the runs and the advice, so the file alone tells the story, and
 * it stays small enough for a PR comment at any number of runs (budgets in report/md/markdown.h).
 * It is written in sections, top to bottom: the header, why the session failed (the terminal's
 * `fail:` and `note:` lines), the pass table, the A/B variant table, the advice, the ranks
 * (md_ranks.c), the runs (md_runs.c), the roofline, and what each profiler wrote. Every path in it
 * is relative to the session folder (hp__md_text and hp__md_rel, md_common.c), so that the report
 * names nothing of the machine that ran the session and reads the same wherever the folder has
 * moved.
 */
#include "analyze/crosscheck.h"
#include "profile/tables/out.h"
#include "report/md/markdown.h"
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "report/core/roofline_table.h"
#include "util/base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The profiles' tables: the session's top-N rows of each (as `hprun summarize --top`; the plan's
 * `report: {top: N}`, default HP_PROFILE_SUMMARY_TOP), and no table longer than PROFILE_ROWS rows
 * (a kernel's counters), or N when larger. When the profiles are too large for their budget, a
 * profile is shown with the smaller figures, or left out. */
#define PROFILE_ROWS 20
#define PROFILE_TOP_SMALL 3
#define PROFILE_ROWS_SMALL 5

/* The title and the session's settings, as a bullet list. */
static int md_header(hp__buf *b, const hp_session *s)
{
  hp__buf_printf(b, "# hprun session `%s`\n\n", s->name ? s->name : "?");
  hp__buf_printf(b, "- complete: **%s**%s\n", s->complete ? "yes" : "no",
                 s->interrupted ? " (interrupted)" : "");
  if (s->combo)
    hp__buf_printf(b, "- combination `%s` of a parameter sweep\n", s->combo);
  hp__buf_printf(b, "- started %s, finished %s; order %s, seed %llu, repeat %d, warmup %d\n",
                 s->started ? s->started : "?", s->finished ? s->finished : "?",
                 s->order ? s->order : "?", (unsigned long long)s->seed, s->repeat, s->warmup);
  hp__buf_printf(b, "- thresholds: warn %.3g%%", s->warn * 100);
  if (s->fail > 0)
    hp__buf_printf(b, ", fail %.3g%%", s->fail * 100);
  hp__buf_printf(b, ", alpha %.3g\n", s->alpha);
  if (s->error) {
    hp__buf_adds(b, "- **error**: ");
    hp__md_text(b, s, s->error, HP__MD_RAW);
    hp__buf_adds(b, "\n");
  }
  return hp__buf_error(b);
}

/* The cross-check of every profiled pass (lib/analyze/crosscheck.c), one bullet each. A pass
 * whose cross-check cannot be written (into t, a buffer of its own) gets no bullet. */
static int md_crosscheck(hp__buf *b, const hp_session *s)
{
  size_t i;
  int any = 0;

  for (i = 0; i < s->npasses; i++) {
    hp__buf t = HP__BUF_INIT;
    if (hp__crosscheck_text(s, &s->passes[i], &t) == 0 && t.data) {
      hp__buf_adds(b, any ? "" : "\n### Cross-check: kernel time against the app's own\n\n");
      hp__buf_printf(b, "- **%s**: ", s->passes[i].name);
      hp__md_text(b, s, t.data, HP__MD_CELL);
      hp__buf_adds(b, "\n");
      any = 1;
    }
    hp__buf_free(&t);
  }
  return hp__buf_error(b);
}

/* One bullet per pass with advice, then the reminder of what a profiled time means. */
static int md_advice(hp__buf *b, const hp_session *s)
{
  hp__buf stops = HP__BUF_INIT;
  size_t i;

  hp__buf_adds(b, "\n");
  if (hp__report_stops(&stops, s) && !hp__buf_error(&stops))
    hp__buf_printf(b, "- %s\n", stops.data);
  hp__buf_free(&stops);
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].advice) {
      hp__buf_printf(b, "- **%s**: ", s->passes[i].name);
      hp__md_text(b, s, s->passes[i].advice, HP__MD_CELL);
      hp__buf_adds(b, "\n");
    }
  md_crosscheck(b, s);
  return hp__buf_adds(b,
                      "\n> Times measured under a profiler are for attribution only; the "
                      "baseline is the performance figure.\n");
}

/* ---------------------------------------------------------------------------------------------- */
/* What each profiler wrote.                                                                       */

/* Appends the profile writer's Markdown to t with the session's paths relative and every table cut
 * to `rows` rows: the writer shows the top rows of each table, but all of a kernel's PMC counters
 * or ncu metrics, which can run to hundreds. The pass's <pass>.profile.csv keeps every row
 * (summary.json only the top ones). */
static int cut_tables(hp__buf *t, const hp_session *s, const char *text, size_t rows)
{
  size_t lines = 0, cut = 0, len; /* lines of the current table; rows left out of it */
  const char *end;

  for (; *text && !hp__buf_error(t); text += len) {
    end = strchr(text, '\n');
    len = end ? (size_t)(end - text) + 1 : strlen(text);
    if (text[0] != '|') {
      /* The line that ends a table; the note needs a blank line before it, or GitHub reads it
       * as one more row. */
      if (cut)
        hp__buf_printf(t, "\n\xE2\x80\xA6 and %zu more rows: see the pass's .profile.csv\n", cut);
      lines = cut = 0;
    } else if (++lines > rows + 2) { /* the header and the separator line are not rows */
      cut++;
      continue;
    }
    hp__md_text_n(t, s, text, len, HP__MD_RAW);
  }
  if (cut)
    hp__buf_printf(t, "\n\xE2\x80\xA6 and %zu more rows: see the pass's .profile.csv\n", cut);
  return hp__buf_error(t);
}

/* The profile's hint when its `other` category is large, with the snippet as a YAML block. */
static int md_other_hint(hp__buf *b, const hp_profile *p)
{
  char *head = NULL, *yaml = NULL;
  int r = hp__profile_other_hint(p, &head, &yaml);

  if (r == 0 && head)
    hp__buf_printf(b, "\n%s\n\n```yaml\n%s```\n", head, yaml);
  free(head);
  free(yaml);
  return r;
}

/* The tables `hprun summarize --format md --top TOP` prints for the profile, each cut to `rows`
 * rows, into t (emptied first), without their "## Profile summary" title: the pass's heading
 * stands for it, so that the title does not repeat once per pass. */
static int profile_text(const hp_session *s, const hp_pass_result *pr, int top, size_t rows,
                        hp__buf *t)
{
  static const char title[] = "## Profile summary\n\n";
  hp_profile_opts po = hp__report_profile_opts(s, pr);
  const hp_profile *p = pr->profile;
  const char *body;
  char *text = NULL;
  size_t tlen = 0;
  FILE *fp;
  int r;

  hp__buf_reset(t);
  po.top = top;
  po.child_top = 0;
  if ((fp = open_memstream(&text, &tlen)) == NULL)
    return HP_ENOMEM;
  r = hp_profile_write(p, fp, HP_FMT_MD, &po);
  if (fclose(fp) != 0 || text == NULL)
    r = HP_ENOMEM;
  if (r == 0) {
    body = strncmp(text, title, sizeof(title) - 1) == 0 ? text + sizeof(title) - 1 : text;
    r = cut_tables(t, s, body, rows);
  }
  free(text);
  /* The hint counts towards the profile's share of the report, as its tables do. */
  if (r == 0)
    r = md_other_hint(t, p);
  return r ? HP_ENOMEM : 0;
}

/* Makes the profile in t fit `share` bytes: fewer rows per table, else a line saying where the
 * tables are. */
static int profile_shrink(const hp_session *s, const hp_pass_result *pr, size_t share, hp__buf *t)
{
  size_t full = t->len;
  int r;

  if ((r = profile_text(s, pr, PROFILE_TOP_SMALL, PROFILE_ROWS_SMALL, t)) != 0 || t->len <= share)
    return r;
  hp__buf_reset(t);
  return hp__buf_printf(t,
                        "%zu files read. The tables (%zu kB) are left out to keep this report "
                        "small: summary.json has them (the pass's `profile`), and `hprun "
                        "summarize` prints them from the run folder.\n",
                        hp_profile_nfiles(pr->profile), (full + 1023) / 1024);
}

/* Shares HP__MD_PROFILE_BYTES among the profiles in t (one per pass; empty: none): the smallest
 * first, each to at most an equal share of what is left, so that a small profile is never cut
 * for a large one and what one leaves unused goes to the others. */
static int profiles_fit(const hp_session *s, hp__buf *t)
{
  size_t left = HP__MD_PROFILE_BYTES, todo = 0, i, j, share;
  char *done = calloc(s->npasses ? s->npasses : 1, 1);
  int r = 0;

  if (done == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses; i++)
    todo += t[i].len > 0;
  for (; todo > 0 && r == 0; todo--) {
    /* Of equal sizes the last pass goes first: what it leaves goes to the earlier ones. */
    for (j = s->npasses, i = 0; i < s->npasses; i++)
      if (t[i].len > 0 && !done[i] && (j == s->npasses || t[i].len <= t[j].len))
        j = i;
    done[j] = 1;
    share = left / todo;
    if (t[j].len > share)
      r = profile_shrink(s, &s->passes[j], share, &t[j]);
    left -= t[j].len < left ? t[j].len : left;
  }
  free(done);
  return r;
}

/* What each profiler wrote, one section per profiled pass, in pass order. Each pass parsed one
 * run (lib/analyze/profiles.c), so each profile appears once. */
static int md_profiles(hp__buf *b, const hp_session *s)
{
  hp__buf *t = calloc(s->npasses ? s->npasses : 1, sizeof(*t));
  int r = 0, top = hp__report_profile_opts(s, NULL).top;
  size_t i, rows = top > PROFILE_ROWS ? (size_t)top : PROFILE_ROWS;

  if (t == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses && r == 0; i++)
    if (s->passes[i].profile && hp_profile_nfiles(s->passes[i].profile) > 0)
      r = profile_text(s, &s->passes[i], top, rows, &t[i]);
  if (r == 0)
    r = profiles_fit(s, t);
  for (i = 0; i < s->npasses && r == 0; i++)
    if (t[i].len > 0) {
      hp__buf_adds(b, "\n## Profiler output: ");
      hp__report_md_cell(b, s->passes[i].name);
      hp__buf_adds(b, "\n\n");
      hp__buf_add(b, t[i].data, t[i].len);
    }
  for (i = 0; i < s->npasses; i++)
    hp__buf_free(&t[i]);
  free(t);
  return r != 0 ? r : hp__buf_error(b);
}

int hp__md_session(const hp_session *s, char **out)
{
  hp__causes causes = hp__report_causes(s, HP__RF_MD);
  hp__buf b = HP__BUF_INIT;
  int r;

  *out = NULL;
  md_header(&b, s);
  /* The causes of the exit code come first, since that is what a reader of a failed job looks
   * for: the terminal's lines, one bullet each. Then the profiling passes, and the A/B variants
   * against their reference when there are some. The sections that allocate besides appending
   * are checked one by one. */
  if ((r = hp__md_causes(&b, s, &causes)) != 0 || (r = hp__md_table(&b, s, 0)) != 0 ||
      (hp__pt_any(s, 1) && (r = hp__md_table(&b, s, 1)) != 0))
    goto fail;
  md_advice(&b, s);
  if ((r = hp__md_ranks(&b, s)) != 0 || (r = hp__md_runs(&b, s)) != 0 ||
      (r = hp__md_roofline(&b, s)) != 0 || (r = md_profiles(&b, s)) != 0)
    goto fail;
  /* NULL, the partial text freed, when an append failed. */
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;

fail:
  hp__buf_free(&b);
  return r;
}
