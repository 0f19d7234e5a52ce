/*
 * report.html: the session as one self-contained page for people who would rather look than read.
 * It holds what report.md holds (header, why the session failed, the pass and variant tables, the
 * advice) and the charts (lib/report/html/html_charts.c, html_profile.c, html_roofline.c), drawn as
 * inline SVG by this C code: no network, no script, no external file. It prints as it shows, and
 * it follows the reader's light or dark scheme through the stylesheet below, which is the only
 * place colours are chosen (the Okabe-Ito palette, readable by colour-blind readers, and flags
 * that differ in lightness as well as hue).
 *
 * The markup is XHTML-compatible (every element closed, only XML's five entities), so the page
 * parses as XML too and `xmllint` can check it (tests/e2e/test_html.sh).
 */
#include "report/html/html.h"
#include "analyze/crosscheck.h"
#include "report/core/pass_table.h"
#include "report/core/report.h"

#include <stdio.h>
#include <stdlib.h>

static const char css[] =
    ":root{--fg:#1b1f24;--bg:#fff;--muted:#57606a;--grid:#d8dee4;--line:#8c959f;"
    "--ok:#009e73;--unconfirmed:#9aa3ab;--perturbed:#e69f00;--distorted:#d55e00;--failed:#b00020;"
    "--baseline:#0072b2;--s0:#0072b2;--s1:#e69f00;--s2:#009e73;--s3:#cc79a7;--s4:#56b4e9;"
    "--s5:#d55e00;--s6:#7a6a00;--s7:#555;color-scheme:light dark}\n"
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;"
    "--grid:#30363d;--line:#6e7681;--ok:#3fb68b;--failed:#ff6b81;--baseline:#58a6ff;"
    "--s0:#58a6ff;--s6:#d4c04a;--s7:#aaa}}\n"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
    "background:var(--bg);max-width:980px;margin:0 auto;padding:1em 1.5em}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid var(--grid)}\n"
    "table{border-collapse:collapse;margin:.5em 0;font-variant-numeric:tabular-nums}\n"
    "th,td{padding:.2em .6em;border-bottom:1px solid var(--grid);text-align:left}"
    "td.n,th.n{text-align:right}\n"
    "code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}\n"
    ".flag{font-weight:600}.flag.ok{color:var(--ok)}.flag.perturbed{color:var(--perturbed)}"
    ".flag.distorted{color:var(--distorted)}.flag.failed{color:var(--failed)}"
    ".flag.baseline{color:var(--baseline)}.flag.unconfirmed{color:var(--muted)}\n"
    ".fail-line{color:var(--failed)}.muted{color:var(--muted)}\n"
    "figure{margin:1em 0}figcaption{color:var(--muted);font-size:.9em}\n"
    "figure p.key{font-size:.9em;margin:.3em 0;overflow-wrap:anywhere}\n"
    "svg.chart{max-width:100%;height:auto;font-size:11px}\n"
    "svg text{fill:var(--fg)}svg .tick,svg .legend,svg .label{fill:var(--muted)}"
    "svg text.num{fill:var(--fg)}\n"
    "svg .axis{stroke:var(--line)}svg .grid{stroke:var(--grid);stroke-width:.6}\n"
    "svg .ref{stroke:var(--line);stroke-width:1.2}svg text.ref{fill:var(--muted);stroke:none}\n"
    "svg .warn{stroke:var(--perturbed);stroke-dasharray:4 3}svg text.warn{fill:var(--perturbed);"
    "stroke:none}\n"
    "svg .fail{stroke:var(--failed);stroke-dasharray:6 3}svg text.fail{fill:var(--failed);"
    "stroke:none}\n"
    "svg .bar.ok{fill:var(--ok)}svg .bar.unconfirmed{fill:var(--unconfirmed)}"
    "svg .bar.perturbed{fill:var(--perturbed)}svg .bar.distorted{fill:var(--distorted)}"
    "svg .bar.failed{fill:var(--failed)}svg .bar.baseline{fill:var(--baseline)}\n"
    "svg .whisker{stroke:var(--fg);stroke-width:1.2}svg .median{stroke:var(--fg);stroke-width:2}\n"
    "svg .failed-text{fill:var(--failed)}svg .outlier{fill:none;stroke:var(--failed);"
    "stroke-width:1.5}\n"
    "svg .s0{--c:var(--s0)}svg .s1{--c:var(--s1)}svg .s2{--c:var(--s2)}svg .s3{--c:var(--s3)}"
    "svg .s4{--c:var(--s4)}svg .s5{--c:var(--s5)}svg .s6{--c:var(--s6)}svg .s7{--c:var(--s7)}\n"
    "svg .pt,svg .sw,svg .seg,svg .kbar{fill:var(--c)}svg .pt.warmup{fill:none;stroke:var(--c)}"
    "svg .box{fill:var(--c);fill-opacity:.3;stroke:var(--c)}\n"
    "svg .roof{stroke:var(--fg);stroke-width:2;fill:none}svg .roof2{stroke:var(--muted);"
    "stroke-width:1.5;stroke-dasharray:5 3;fill:none}svg .roof3{stroke:var(--muted);"
    "stroke-width:1;stroke-dasharray:2 3;fill:none}\n"
    "svg .pt.mem{stroke:var(--bg)}svg .pt.comp{stroke:var(--fg)}\n"
    "svg polyline.line{fill:none;stroke:var(--c);stroke-width:1.5}svg .pt.sweep{stroke:var(--c);"
    "stroke-width:2}svg .pt.sweep.ok{fill:var(--ok)}svg .pt.sweep.perturbed{fill:var(--perturbed)}"
    "svg .pt.sweep.distorted{fill:var(--distorted)}svg .pt.sweep.failed{fill:var(--failed)}"
    "svg .pt.sweep.unconfirmed{fill:var(--unconfirmed)}\n"
    "details{margin:.5em 0}\n"
    "@media print{body{max-width:none;padding:0}figure,table{break-inside:avoid}"
    "details{display:block}h2{break-after:avoid}}\n";

/* The schedule and the thresholds, the rest of the header's list. */
static int html_schedule(hp__buf *b, const hp_session *s)
{
  hp__buf_adds(b, "; order ");
  hp__html_text(b, s->order ? s->order : "?", 0);
  hp__buf_printf(b, ", seed %llu, repeat %d, warmup %d</li>\n<li>thresholds: warn %.3g%%",
                 (unsigned long long)s->seed, s->repeat, s->warmup, s->warn * 100);
  if (s->fail > 0)
    hp__buf_printf(b, ", fail %.3g%%", s->fail * 100);
  return hp__buf_printf(b, ", alpha %.3g</li>\n", s->alpha);
}

/* The <head> and the title block with the session's settings. */
static int html_header(hp__buf *b, const hp_session *s)
{
  hp__buf_adds(b,
               "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
               "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" "
               "content=\"width=device-width, initial-scale=1\"/>\n<title>hprun: ");
  hp__html_text(b, s->name ? s->name : "?", 0);
  hp__buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>hprun session <code>",
                 css);
  hp__html_text(b, s->name ? s->name : "?", 0);
  hp__buf_printf(b, "</code></h1>\n<ul>\n<li>complete: <strong>%s</strong>%s</li>\n",
                 s->complete ? "yes" : "no", s->interrupted ? " (interrupted)" : "");
  hp__buf_adds(b, "<li>started ");
  hp__html_text(b, s->started ? s->started : "?", 0);
  hp__buf_adds(b, ", finished ");
  hp__html_text(b, s->finished ? s->finished : "?", 0);
  /* A sweep's own session has no schedule or thresholds: each combination's page has them. */
  if (s->ncombos)
    hp__buf_printf(b, "; %zu combinations</li>\n", s->ncombos);
  else
    html_schedule(b, s);
  if (s->combo) {
    hp__buf_adds(b, "<li>combination: <code>");
    hp__html_text(b, s->combo, 0);
    hp__buf_adds(b, "</code> of a parameter sweep (its overview is one folder up)</li>\n");
  }
  if (s->error) {
    hp__buf_adds(b, "<li class=\"fail-line\"><strong>error</strong>: ");
    hp__html_text(b, s->error, 0);
    hp__buf_adds(b, "</li>\n");
  }
  return hp__buf_adds(b, "</ul>\n");
}

/* The causes of the exit code, as every report shows them. */
static int html_causes(hp__buf *b, const hp_session *s)
{
  hp__causes l = hp__report_causes(s, HP__RF_HTML);
  hp__buf line = HP__BUF_INIT;
  size_t i;
  int r;

  if (l.n == 0)
    return 0;
  hp__buf_printf(b, "<h2>%s</h2>\n<ul>\n", l.title);
  for (i = 0; i < l.shown; i++) {
    hp__buf_reset(&line);
    if ((r = hp__report_cause(&line, &l.c[i])) != 0)
      goto fail;
    hp__buf_printf(b, "<li%s><code>", hp_cause_fails(l.c[i].kind) ? " class=\"fail-line\"" : "");
    hp__html_text(b, line.data, 0);
    hp__buf_adds(b, "</code></li>\n");
  }
  hp__buf_free(&line);
  return hp__buf_adds(b, "</ul>\n");
fail:
  hp__buf_free(&line);
  return r;
}

/* A cell (th or td) of column c, right-aligned when numeric; the flag's td carries its class. */
static int cell_open(hp__buf *b, const hp__pt_col *c, const char *tag, const hp_pass_result *pr)
{
  if (pr && (c->flags & HP__PC_FLAG))
    return hp__buf_printf(b, "<%s class=\"flag %s\">", tag, hp__html_flag_class(pr->flag));
  return hp__buf_printf(b, c->flags & HP__PC_HTML_RIGHT ? "<%s class=\"n\">" : "<%s>", tag);
}

/* One row of a table, its description's cells. */
static int pass_row(hp__buf *b, const hp_pass_result *pr, int variant)
{
  char cell[HP__PT_CELL];
  size_t k;

  hp__buf_adds(b, "<tr>");
  for (k = 0; k < HP__PT_NCOLS; k++) {
    const hp__pt_col *c = &hp__pt_cols[k];
    if (!hp__pt_shows(c, HP__RF_HTML, variant, 1))
      continue;
    cell_open(b, c, "td", pr);
    hp__html_text(b, hp__pt_cell(pr, (int)k, HP__RF_HTML, cell), 0);
    hp__buf_adds(b, "</td>");
  }
  return hp__buf_adds(b, "</tr>\n");
}

/* The pass table, then the variant table (variant = 1), each only when it has rows. */
static int pass_table(hp__buf *b, const hp_session *s, int variant)
{
  hp__buf h = HP__BUF_INIT;
  size_t i, k;
  int r;

  if (!hp__pt_any(s, variant))
    return 0;
  hp__buf_adds(b, variant ? "<h2>A/B variants</h2>\n" : "<h2>Passes</h2>\n");
  hp__buf_adds(b, "<table>\n<thead><tr>");
  for (k = 0; k < HP__PT_NCOLS; k++) {
    const hp__pt_col *c = &hp__pt_cols[k];
    if (!hp__pt_shows(c, HP__RF_HTML, variant, 1))
      continue;
    cell_open(b, c, "th", NULL);
    if ((r = hp__pt_head(&h, s, c, HP__RF_HTML, variant)) != 0)
      goto fail;
    hp__html_text(b, h.data, 0);
    hp__buf_adds(b, "</th>");
  }
  hp__buf_free(&h);
  hp__buf_adds(b, "</tr></thead>\n<tbody>\n");
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].is_variant == variant)
      pass_row(b, &s->passes[i], variant);
  return hp__buf_adds(b, "</tbody>\n</table>\n");
fail:
  hp__buf_free(&h);
  return r;
}

/* Advice and the reminder of what a profiled time means. */
static int html_advice(hp__buf *b, const hp_session *s)
{
  hp__buf stops = HP__BUF_INIT;
  size_t i, n = 0;

  if (hp__report_stops(&stops, s) && !hp__buf_error(&stops)) {
    hp__buf_adds(b, "<p>");
    hp__html_text(b, stops.data, 0);
    hp__buf_adds(b, "</p>\n");
  }
  hp__buf_free(&stops);
  for (i = 0; i < s->npasses; i++)
    if (s->passes[i].advice) {
      hp__buf_adds(b, n++ ? "<li><strong>" : "<h2>Advice</h2>\n<ul>\n<li><strong>");
      hp__html_text(b, s->passes[i].name, 0);
      hp__buf_adds(b, "</strong>: ");
      hp__html_text(b, s->passes[i].advice, 0);
      hp__buf_adds(b, "</li>\n");
    }
  if (n)
    hp__buf_adds(b, "</ul>\n");
  return hp__buf_error(b);
}

/* The cross-check of every profiled pass (lib/analyze/crosscheck.c), the terminal's and
 * report.md's line: kernel time per iteration, the GPU busy fraction, launch-bound. */
static int html_crosscheck(hp__buf *b, const hp_session *s)
{
  size_t i, n = 0;

  for (i = 0; i < s->npasses; i++) {
    hp__buf t = HP__BUF_INIT;
    if (hp__crosscheck_text(s, &s->passes[i], &t) == 0 && t.data) {
      hp__buf_adds(b,
                   n++ ? "<li><strong>"
                       : "<h2>Cross-check: kernel time against the app's "
                         "own</h2>\n<ul class=\"crosscheck\">\n<li><strong>");
      hp__html_text(b, s->passes[i].name, 0);
      hp__buf_adds(b, "</strong>: ");
      hp__html_text(b, t.data, 0);
      hp__buf_adds(b, "</li>\n");
    }
    hp__buf_free(&t);
  }
  if (n)
    hp__buf_adds(b, "</ul>\n");
  return hp__buf_error(b);
}

/* The body of an ordinary session's page: charts and tables in reading order. The charts and the
 * tables allocate besides appending, so each one's code is checked. */
static int html_body(hp__buf *b, const hp_session *s)
{
  int r;

  hp__buf_adds(b, "<h2>Overhead</h2>\n");
  if ((r = hp__html_overhead(b, s)) != 0 || (r = pass_table(b, s, 0)) != 0 ||
      (r = pass_table(b, s, 1)) != 0)
    return r;
  html_advice(b, s);
  html_crosscheck(b, s);
  hp__buf_adds(b, "<h2>Runs</h2>\n");
  if ((r = hp__html_timeline(b, s)) != 0 || (r = hp__html_distributions(b, s)) != 0 ||
      (r = hp__html_profiles(b, s)) != 0 || (r = hp__html_roofline(b, s)) != 0)
    return r;
  return hp__buf_error(b);
}

int hp_report_html(const hp_session *s, char **out)
{
  hp__buf b = HP__BUF_INIT;
  int r;

  *out = NULL;
  html_header(&b, s);
  if ((r = html_causes(&b, s)) != 0)
    goto fail;
  /* A sweep's session holds its combinations, not passes: their chart and overview. */
  if ((r = s->ncombos ? hp__html_sweep(&b, s) : html_body(&b, s)) != 0)
    goto fail;
  hp__buf_adds(&b,
               "<p class=\"muted\">Times under a profiler are for attribution; quote "
               "only the baseline as performance. Written by hprun ");
  hp__html_text(&b, s->hprun_version ? s->hprun_version : HPRUN_VERSION, 0);
  hp__buf_adds(&b, "; the numbers are those of summary.json.</p>\n</body>\n</html>\n");
  if ((*out = hp__buf_steal(&b)) == NULL)
    return HP_ENOMEM;
  return 0;
fail:
  hp__buf_free(&b);
  return r;
}
