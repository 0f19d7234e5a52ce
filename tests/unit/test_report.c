/*
 * Tests of the report writers (lib/report/): the terminal table, report.md, JUnit XML and
 * summary.json, on a session built here by hand so that every figure they print is known, and a
 * summary.json round trip through a temporary session folder: written, read back with
 * hp_session_load, written again, the two texts identical to the byte; the stored judgements and
 * the plan copy's categories are what the read-back session shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/crosscheck.h"
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "report/html/html.h"
#include "report/md/markdown.h"
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "report/term/term.h"
#include "report/write_all.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"
#include "util/base/strv.h"

static void assert_contains(const char *text, const char *want)
{
  if (strstr(text, want) == NULL)
    fail_msg("expected to find\n%s\nin\n%s", want, text);
}

static size_t count(const char *text, const char *what)
{
  size_t n = 0;

  for (; (text = strstr(text, what)) != NULL; text += strlen(what))
    n++;
  return n;
}

/* Room for runs in each hand-built pass. */
#define MAX_RUNS 8

/* Appends a run of 10 ms with primary value v to pr. */
static hp_run *add_run(hp_pass_result *pr, int index, int warmup, double v, int ok)
{
  hp_run *r;

  assert_true(pr->nruns < MAX_RUNS);
  r = &pr->runs[pr->nruns++];

  r->index = index;
  r->warmup = warmup;
  r->round = (int)pr->nruns;
  r->dir = warmup ? hp__asprintf("%s/warmup-1", pr->name) : hp__asprintf("%s/%d", pr->name, index);
  r->command = hp__strdup("app --run");
  r->wall_ms = 10.0;
  r->max_rss_kb = 1000;
  r->mem_mean_mib = r->mem_peak_mib = NAN;
  r->values = malloc(sizeof(double));
  r->values[0] = v;
  r->ok = ok;
  return r;
}

/* A pass with one metric `t` (ms) and n counted runs of value v. */
static hp_pass_result *add_pass(hp_session *s, const char *name, const char *mode, size_t n,
                                double v)
{
  hp_pass_result *pr = &s->passes[s->npasses++];
  size_t k;

  assert_int_equal(hp__pass_result_init(pr, 1), 0);
  pr->name = hp__strdup(name);
  pr->mode = hp__strdup(mode);
  pr->metrics[0].name = hp__strdup("t");
  pr->metrics[0].unit = hp__strdup("ms");
  pr->runs = calloc(MAX_RUNS, sizeof(*pr->runs));
  assert_non_null(pr->runs);
  for (k = 0; k < n; k++)
    add_run(pr, (int)k + 1, 0, v, 1);
  return pr;
}

static hp_session *new_session(const char *dir)
{
  hp_session *s = calloc(1, sizeof(*s));

  assert_non_null(s);
  s->name = hp__strdup("demo");
  s->dir = hp__strdup(dir);
  s->started = hp__strdup("2026-01-02T03:04:05Z");
  s->finished = hp__strdup("2026-01-02T03:05:00Z");
  s->order = hp__strdup("abba");
  s->seed = 7;
  s->repeat = 3;
  s->complete = 1;
  s->warn = 0.05;
  s->fail = 0.10;
  s->alpha = 0.05;
  s->passes = calloc(8, sizeof(*s->passes));
  assert_non_null(s->passes);
  return s;
}

/* Every result filled in by hand, not by the analysis: the writers must print exactly these. A
 * baseline with a warmup, a perturbed pass beyond the fail threshold, a failed pass, and an A/B
 * reference with one candidate. */
static hp_session *demo(void)
{
  hp_session *s = new_session("sessions/demo-1");
  hp_pass_result *pr;
  hp_metric_result *m;
  hp_run *r;

  pr = add_pass(s, "normal", "normal", 0, 1.0);
  add_run(pr, 0, 1, 1.0, 1);
  add_run(pr, 1, 0, 1.0, 1);
  add_run(pr, 2, 0, 1.0, 1);
  add_run(pr, 3, 0, 1.0, 1);
  pr->is_baseline = 1;
  pr->flag = HP_FLAG_BASELINE;
  pr->metrics[0].st.n = 3;
  pr->metrics[0].st.median = 1.0;
  pr->metrics[0].st.cv = 0.01;

  pr = add_pass(s, "stats", "stats", 3, 1.3);
  pr->tool = hp__strdup("hipprof");
  pr->flag = HP_FLAG_PERTURBED;
  pr->advice = hp__strdup("t & co < 2x | noted");
  pr->kernel = hp__strdup("vector_add"); /* the only timed kernel: its average is compared */
  pr->xk_name = hp__strdup("vector_add(float*)");
  pr->xk_avg_ms = 0.02;
  pr->xk_calls = 100;
  pr->app_launches = 100;
  /* The whole profile: 100 launches, 2.5 ms, 100 iterations against the baseline's 1 ms. */
  pr->xc_launches = 100;
  pr->xc_kernel_ms = 2.5;
  pr->xc_span_ms = NAN;
  pr->xc_iterations = 100;
  pr->xc_iter_ms = 0.025;
  pr->xc_busy = 0.025;
  assert_int_equal(hp__strv_push(&pr->runs[0].files, "result_1.kernel.csv"), 0);
  m = &pr->metrics[0];
  m->st.n = 3;
  m->st.median = 1.3;
  m->ratio = 1.3;
  m->ci_lo = 1.25;
  m->ci_hi = 1.35;
  m->p = 0.01;
  m->sig = HP_SIG_YES;

  pr = add_pass(s, "pmc", "pmc", 0, NAN);
  r = add_run(pr, 1, 0, NAN, 0);
  r->exit_status = 2;
  pr->flag = HP_FLAG_FAILED;
  pr->advice = hp__strdup("run 1 exited with status 2; see pmc/1/stderr.txt");

  pr = add_pass(s, "ref", "variant", 3, 1.0);
  pr->is_variant = pr->is_reference = 1;
  pr->flag = HP_FLAG_BASELINE;
  pr->metrics[0].st.n = 3;
  pr->metrics[0].st.median = 1.0;

  pr = add_pass(s, "cand", "variant", 3, 0.9);
  pr->is_variant = 1;
  pr->flag = HP_FLAG_PERTURBED;
  pr->verdict = hp__strdup("accepted");
  pr->mem_mean_mib = 512;
  pr->mem_peak_mib = 600;
  m = &pr->metrics[0];
  m->st.n = 3;
  m->st.median = 0.9;
  m->ratio = 0.9;
  m->p = 0.002;
  m->sig = HP_SIG_YES;

  /* The causes, as the analysis would word them; the writers only render them. */
  assert_int_equal(hp__cause_add(&s->causes, &s->ncauses, HP_CAUSE_THRESHOLD, "stats",
                                 "t +30.00% > fail 10% (p=0.01)"),
                   0);
  assert_int_equal(hp__cause_add(&s->causes, &s->ncauses, HP_CAUSE_RUN_FAILED, "pmc",
                                 "run 1 exited with status 2; see pmc/1/stderr.txt"),
                   0);
  assert_int_equal(hp__cause_add(&s->causes, &s->ncauses, HP_CAUSE_NOTE, "cand",
                                 "a gate & <its> limit were not evaluated"),
                   0);
  s->exit_code = HP_EXIT_RUNFAIL;
  return s;
}

/* report.html: the same figures and causes, every text escaped, and the charts drawn where hand
 * arithmetic puts them. The overhead axis is log10 over [0.8775, 1.3725] (the ratios 0.9..1.35 and
 * the interval 1.25..1.35 padded by 5% of their span) on pixels 180..710, so 1x sits at 334.8 and
 * the stats bar (1.3x) ends at 645.7: x=334.8, width=310.9; warn (1.05) at 392.6, fail at 447.8. */
static void test_html(void **state)
{
  hp_session *s = demo();
  char *text = NULL;
  const char *p;
  int n = 0;

  (void)state;
  assert_int_equal(hp_report_html(s, &text), 0);
  assert_contains(text, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">");
  for (p = text; (p = strstr(p, "<svg ")) != NULL; p++)
    n++;
  assert_int_equal(n, 3);
  assert_contains(text, "id=\"chart-overhead\"");
  assert_contains(text, "id=\"chart-timeline\"");
  assert_contains(text, "id=\"chart-distributions\"");
  assert_contains(text,
                  "<rect x=\"334.8\" y=\"33.0\" width=\"310.9\" height=\"16.0\" "
                  "class=\"bar perturbed\"><title>stats (stats): +30.00% of the baseline, "
                  "95% CI [+25%, +35%], perturbed</title></rect>");
  assert_contains(text, "<line x1=\"392.6\" y1=\"22.0\" x2=\"392.6\"");
  assert_contains(text, "<line x1=\"447.8\" y1=\"22.0\" x2=\"447.8\"");
  assert_contains(text, ">+30.00% perturbed</text>");
  assert_contains(text, ">failed: no value</text>");
  assert_contains(text, ">-10.00% perturbed</text>");
  assert_contains(text, "<td class=\"flag perturbed\">perturbed</td><td>accepted</td>");
  /* The tables: the terminal's columns, the interval in the change's unit, CV in %. */
  assert_contains(text,
                  "<h2>Passes</h2>\n<table>\n<thead><tr><th>pass</th><th>mode</th><th "
                  "class=\"n\">median t (ms)</th><th class=\"n\">vs baseline</th><th "
                  "class=\"n\">95% CI</th><th class=\"n\">n</th><th class=\"n\">CV %</th>"
                  "<th>flag</th></tr></thead>\n<tbody>\n<tr><td>normal</td><td>normal</td><td "
                  "class=\"n\">1</td><td class=\"n\">-</td><td class=\"n\">-</td><td "
                  "class=\"n\">3</td><td class=\"n\">1</td><td class=\"flag baseline\">"
                  "baseline</td></tr>\n<tr><td>stats</td><td>stats</td><td class=\"n\">1.3</td>"
                  "<td class=\"n\">+30.00%</td><td class=\"n\">[+25%, +35%]</td><td "
                  "class=\"n\">3</td><td class=\"n\">-</td><td class=\"flag perturbed\">"
                  "perturbed</td></tr>\n");
  assert_contains(text, "<th class=\"n\">vs reference</th>");
  assert_contains(text,
                  "<th>flag</th><th>verdict</th></tr></thead>\n<tbody>\n<tr><td>ref</td>"
                  "<td>variant</td><td class=\"n\">1</td><td class=\"n\">-</td>");
  /* Text from the session is escaped everywhere. */
  assert_contains(text, "t &amp; co &lt; 2x | noted");
  assert_contains(text,
                  "<code>note: cand: a gate &amp; &lt;its&gt; limit were not evaluated</code>");
  assert_contains(text,
                  "<li class=\"fail-line\"><code>fail: stats: t +30.00% &gt; fail 10% "
                  "(p=0.01)</code></li>");
  assert_null(strstr(text, "<its>"));
  free(text);
  hp_session_free(s);
}

/* Escaping for XML (invalid UTF-8 and control bytes become '?', a cut ends in "…") and the axis
 * ticks: decades on a log axis, 1-2-5 steps on a linear one. */
static void test_html_helpers(void **state)
{
  hp__buf b = HP__BUF_INIT;
  hp__axis a = {0.5, 150, 0, 100, 1};
  double t[16];

  (void)state;
  assert_int_equal(hp__html_text(&b, "k<T&U>(\"x\") \xff\x01 \xc3\xa9", 0), 0);
  assert_string_equal(b.data, "k&lt;T&amp;U&gt;(&quot;x&quot;) ?? \xc3\xa9");
  hp__buf_reset(&b);
  assert_int_equal(hp__html_text(&b, "abcdef", 3), 0);
  assert_string_equal(b.data, "abc\xe2\x80\xa6");
  hp__buf_free(&b);
  assert_int_equal(hp__axis_ticks(&a, t, 16), 3);
  assert_true(t[0] == 1 && t[1] == 10 && t[2] == 100);
  a.log = 0, a.lo = 0, a.hi = 10;
  assert_int_equal(hp__axis_ticks(&a, t, 16), 6);
  assert_true(t[0] == 0 && t[1] == 2 && t[5] == 10);
  a.log = 1, a.lo = 1, a.hi = 1000, a.p0 = 0, a.p1 = 300;
  assert_true(fabs(hp__axis_px(&a, 10) - 100) < 1e-9);
}

/* The terminal's overhead bars: log10(ratio) / log10(scale) of 20 cells, in eighths. */
static void test_term_bars(void **state)
{
  hp_session *s = demo();
  char bar[96], *text = NULL;
  size_t len = 0;
  FILE *fp;

  (void)state;
  assert_int_equal(hp__term_bar(bar, sizeof(bar), 10, 100, 20), 0);
  assert_string_equal(bar, "██████████");
  assert_int_equal(hp__term_bar(bar, sizeof(bar), 2, 100, 20), 0);
  assert_string_equal(bar, "███"); /* 3.01 cells */
  assert_int_equal(hp__term_bar(bar, sizeof(bar), 1.0, 100, 20), 0);
  assert_string_equal(bar, "▏");
  assert_int_equal(hp__term_bar(bar, sizeof(bar), NAN, 100, 20), 0);
  assert_string_equal(bar, "");
  /* In the table: the scale is at least 10x, so stats' 1.3x is log10(1.3) x 20 = 2.28 cells. */
  fp = open_memstream(&text, &len);
  assert_non_null(fp);
  hp_report_table_bars(s, fp, 1);
  assert_int_equal(fclose(fp), 0);
  assert_contains(text, " perturbed              ██▎\n");
  assert_contains(text, " baseline\n");
  free(text);
  hp_session_free(s);
}

/* The roofline's labels (html_roofline.c, placed by html_labels.c), on a pass whose kernels are
 * placed by hand: the kernel with the most time, alone at the lower left, is named right of its
 * dot; the next, at the plot's right edge (10^4 FLOP/byte on an axis to 2x10^4: 795 px of 830),
 * has no room there for its name and gets it on the left; ten kernels on one spot get names where
 * they fit and numbers 1, 2, ... for the rest, in order of time, listed under the chart. Equal
 * FP16 and BF16 ceilings share one label. */
static void test_html_roofline_labels(void **state)
{
  hp_session *s = new_session("sessions/roof");
  hp_pass_result *pr = add_pass(s, "ncu", "time", 1, 5.0);
  hp_roofline *rl = calloc(1, sizeof(*rl));
  char *html = NULL, *svg, want[80];
  size_t k, named = 0, numbered = 0;

  (void)state;
  assert_non_null(rl);
  assert_non_null(rl->pts = calloc(12, sizeof(*rl->pts)));
  rl->source = "ncu";
  for (k = 0; k < 12; k++) {
    hp_roof_point *p = &rl->pts[rl->n++];
    p->kernel = k == 0 ? hp__strdup("alone")
        : k == 1       ? hp__strdup("at_the_edge")
                       : hp__asprintf("crowd_%02zu", k);
    p->launches = 1;
    p->time_ns = 1e6 / (double)(k + 1);
    p->ai = k == 0 ? 0.01 : k == 1 ? 1e4 : 10;
    p->gflops = k == 0 ? 10 : 1000;
    p->flop = p->bytes = p->gbs = p->roof_gflops = p->efficiency = NAN;
    p->bound = HP_BOUND_MEMORY;
  }
  pr->roofline = rl;
  assert_non_null(s->peaks = calloc(1, sizeof(*s->peaks)));
  hp_peaks_init(s->peaks);
  s->peaks->bw_gbs = 1000;
  s->peaks->fp32_tflops = 10;
  s->peaks->fp16_tflops = s->peaks->bf16_tflops = 100;
  assert_int_equal(hp_report_html(s, &html), 0);
  assert_non_null(svg = strstr(html, "id=\"chart-roofline\""));
  *strstr(svg, "</svg>") = '\0';
  assert_contains(svg, "text-anchor=\"start\" class=\"legend\">alone</text>");
  assert_contains(svg, "text-anchor=\"end\" class=\"legend\">at_the_edge</text>");
  assert_int_equal(count(svg, ">FP16, BF16 matrix 100 TFLOP/s</text>"), 1);
  assert_null(strstr(svg, ">BF16 matrix"));
  for (k = 2; k < 12; k++) {
    snprintf(want, sizeof(want), "class=\"legend\">crowd_%02zu</text>", k);
    named += count(svg, want);
  }
  /* The crowd's numbers on the chart, each once, and the key under it in the same order. */
  for (k = 1; k <= 10; k++) {
    snprintf(want, sizeof(want), "class=\"legend num\">%zu</text>", k);
    if (count(svg, want) == 0)
      break;
    assert_int_equal(count(svg, want), 1);
    numbered++;
  }
  assert_true(named >= 1 && numbered >= 1);
  assert_int_equal(named + numbered, 10);
  svg += strlen(svg) + 1;
  assert_contains(svg,
                  "<p class=\"key\">Numbered dots (no room for their names): <b>1</b> "
                  "<code>crowd_");
  snprintf(want, sizeof(want), "<b>%zu</b> <code>crowd_", numbered);
  assert_contains(svg, want);
  assert_null(strstr(svg, "without room for a name or a number"));
  free(html);
  hp_session_free(s);
}

/* A sweep's page: one line per measured pass across the combinations, on the parameter's axis
 * (10 and 1000: a log axis, since they span 100x), a link to each combination's page. */
static void test_html_sweep(void **state)
{
  static const char *const names[] = {"n=10", "n=1000"}, *const values[] = {"10", "1000"};
  hp_session *s = new_session("sessions/sweep-1");
  char *html = NULL;
  size_t i;

  (void)state;
  s->combos = calloc(2, sizeof(*s->combos));
  assert_non_null(s->combos);
  s->ncombos = 2;
  for (i = 0; i < 2; i++) {
    s->combos[i].name = hp__strdup(names[i]);
    s->combos[i].params = calloc(1, sizeof(hp_kv));
    assert_non_null(s->combos[i].params);
    s->combos[i].params[0].key = hp__strdup("n");
    s->combos[i].params[0].value = hp__strdup(values[i]);
    s->combos[i].nparams = 1;
    s->combos[i].s = demo();
  }
  assert_int_equal(hp_report_html(s, &html), 0);
  assert_contains(html, "id=\"chart-sweep\"");
  assert_contains(html, "<a href=\"n=10/report.html\">n=10</a>");
  assert_contains(html, "<a href=\"n=1000/report.html\">n=1000</a>");
  /* stats (1.3x) and the candidate (0.9x) have lines; pmc (failed) has none. */
  assert_int_equal(count(html, "<polyline class=\"line\""), 2);
  assert_contains(html, "<title>stats at n=1000: +30.00%, perturbed</title>");
  /* The x axis is the parameter, labelled with its name; 10 and 1000 are ticks of a log axis. */
  assert_contains(html, ">n</text>");
  assert_contains(html, ">100</text>");
  assert_null(strstr(html, "id=\"chart-overhead\""));
  free(html);
  hp_session_free(s);
}

static void test_table(void **state)
{
  hp_session *s = demo();
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);

  (void)state;
  assert_non_null(fp);
  hp_report_table_bars(s, fp, 0);
  assert_int_equal(fclose(fp), 0);
  assert_contains(text, "\nhprun session demo\nfolder: sessions/demo-1\n");
  assert_contains(text,
                  "\npass             mode                   median  vs baseline      95% CI "
                  "      n    CV flag       \n"
                  "                                        t (ms)\n");
  assert_contains(text,
                  "\nnormal           normal                      1            -          "
                  "         -   3  1.00% baseline\n");
  assert_contains(text,
                  "\nstats            stats                     1.3      +30.00%        "
                  "[+25%, +35%]   3      - perturbed\n");
  assert_contains(text,
                  "\npmc              pmc                         -            -          "
                  "         -   0      - failed\n");
  /* Variants have their own table, against the reference. */
  assert_null(strstr(text, "\ncand             variant"));
  assert_contains(
      text,
      "\nref                           1            -                   -              - "
      "reference               \n");
  assert_contains(
      text,
      "\ncand                        0.9      -10.00%                   -            512 "
      "accepted                \n");
  assert_contains(text, "\n  stats: t & co < 2x | noted\n");
  assert_contains(text,
                  "\n  stats: profiler says vector_add(float*) avg 0.02 ms over 100 "
                  "launches; the app measured 1.3 ms and 100 launches\n");
  assert_contains(text,
                  "\n  stats: kernels 2.5 ms in 100 launches; 100 iterations: 0.025 ms of "
                  "kernels per iteration, 2.5% of the baseline's 1 ms: launch-bound (GPU "
                  "busy below 60%)\n");
  /* The causes come last, one line each. */
  assert_contains(text,
                  "quote only the baseline as performance.\n\n"
                  "fail: stats: t +30.00% > fail 10% (p=0.01)\n"
                  "fail: pmc: run 1 exited with status 2; see pmc/1/stderr.txt\n"
                  "note: cand: a gate & <its> limit were not evaluated\n");
  free(text);

  /* The interval is labelled with its level: 1 - alpha. */
  s->alpha = 0.1;
  fp = open_memstream(&text, &len);
  assert_non_null(fp);
  hp_report_table_bars(s, fp, 0);
  assert_int_equal(fclose(fp), 0);
  assert_contains(text, "  vs baseline      90% CI       n    CV flag");
  assert_null(strstr(text, "95%"));
  free(text);
  hp_session_free(s);
}

/* The tables' one description: a header per format with its placeholders filled in, and which
 * columns each format shows. */
static void check_head(const hp_session *s, int col, int f, int variant, const char *want)
{
  hp__buf h = HP__BUF_INIT;

  assert_int_equal(hp__pt_head(&h, s, &hp__pt_cols[col], f, variant), 0);
  assert_string_equal(h.data, want);
  hp__buf_free(&h);
}

static void test_pass_table(void **state)
{
  hp_session *s = demo();
  char cell[HP__PT_CELL];

  (void)state;
  check_head(s, HP__PT_NAME, HP__RF_TEXT, 1, "variant");
  check_head(s, HP__PT_MEDIAN, HP__RF_MD, 0, "t median");
  check_head(s, HP__PT_MEDIAN, HP__RF_HTML, 0, "median t (ms)");
  check_head(s, HP__PT_VS, HP__RF_HTML, 1, "vs reference");
  check_head(s, HP__PT_CI, HP__RF_MD, 0, "95% CI");
  check_head(s, HP__PT_CV, HP__RF_HTML, 0, "CV %");
  check_head(s, HP__PT_VS, HP__RF_JUNIT, 0, "ratio");
  /* An empty unit: the terminal leaves it out, report.html shows "()". */
  free(s->passes[0].metrics[0].unit);
  s->passes[0].metrics[0].unit = hp__strdup("");
  check_head(s, HP__PT_MEDIAN, HP__RF_HTML, 0, "median t ()");
  /* The interval, n and CV are on the terminal only when some pass ran more than once. */
  assert_true(hp__pt_shows(&hp__pt_cols[HP__PT_CI], HP__RF_TEXT, 0, 1));
  assert_false(hp__pt_shows(&hp__pt_cols[HP__PT_CI], HP__RF_TEXT, 0, 0));
  assert_true(hp__pt_shows(&hp__pt_cols[HP__PT_CI], HP__RF_MD, 0, 0));
  assert_false(hp__pt_shows(&hp__pt_cols[HP__PT_MODE], HP__RF_MD, 1, 1));
  assert_true(hp__pt_shows(&hp__pt_cols[HP__PT_MODE], HP__RF_HTML, 1, 1));
  /* JUnit leaves out what a pass has not: the baseline's ratio, a verdict never given. */
  assert_null(hp__pt_cell(&s->passes[0], HP__PT_VS, HP__RF_JUNIT, cell));
  assert_null(hp__pt_cell(&s->passes[0], HP__PT_VERDICT, HP__RF_JUNIT, cell));
  assert_string_equal(hp__pt_cell(&s->passes[4], HP__PT_VS, HP__RF_JUNIT, cell), "0.9");
  assert_string_equal(hp__pt_cell(&s->passes[4], HP__PT_MEM, HP__RF_MD, cell), "512 / 600");
  assert_string_equal(hp__pt_cell(&s->passes[1], HP__PT_FLAG, HP__RF_MD, cell), "**perturbed**");
  hp_session_free(s);
}

static void test_markdown(void **state)
{
  hp_session *s = demo();
  char *md = NULL;

  (void)state;
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_contains(md,
                  "# hprun session `demo`\n\n- complete: **yes**\n"
                  "- started 2026-01-02T03:04:05Z, finished 2026-01-02T03:05:00Z; order abba, "
                  "seed 7, repeat 3, warmup 0\n"
                  "- thresholds: warn 5%, fail 10%, alpha 0.05\n");
  /* Why it failed comes right after the header: the terminal's lines, as bullets. */
  assert_contains(md,
                  "- thresholds: warn 5%, fail 10%, alpha 0.05\n\n## Why this session failed\n\n"
                  "- fail: stats: t +30.00% > fail 10% (p=0.01)\n"
                  "- fail: pmc: run 1 exited with status 2; see pmc/1/stderr.txt\n"
                  "- note: cand: a gate & <its> limit were not evaluated\n\n| pass |");
  assert_contains(md, "\n| pass | mode | t median | vs baseline | 95% CI | n | CV | flag |\n");
  assert_contains(md, "\n| normal | normal | 1 | - | - | 3 | 1.00% | **baseline** |\n");
  assert_contains(md,
                  "\n| stats | stats | 1.3 | +30.00% | [+25%, +35%] | 3 | - | **perturbed** |\n");
  assert_contains(md, "\n| pmc | pmc | - | - | - | 0 | - | **failed** |\n");
  assert_null(strstr(md, "| cand | variant |"));
  assert_contains(md, "\n| ref | 1 | - | - | - / - | reference |\n");
  /* p is on no surface (docs/summary.md): the variant's interval stands where it was. */
  assert_contains(md, "\n| cand | 0.9 | -10.00% | - | 512 / 600 | accepted |\n");
  assert_null(strstr(md, "0.002"));
  /* A '|' inside a cell would end it: it is escaped. */
  assert_contains(md, "\n- **stats**: t & co < 2x \\| noted\n");
  assert_contains(md, "\n| normal | warmup 0 | `normal/warmup-1` | 0 | 10.0 | 1000 | t=1 | 0 |\n");
  assert_contains(md, "\n| stats | 1 | `stats/1` | 0 | 10.0 | 1000 | t=1.3 | 1 |\n");
  assert_contains(md, "\n| pmc | 1 | `pmc/1` | 2 | 10.0 | 1000 | t=- | 0 |\n");
  /* 4 + 3 + 1 + 3 + 3 runs, one row each, every pass's table in a block of its own that GitHub
   * shows collapsed, open when a run of the pass failed. The blank line after </summary> lets the
   * table inside render. */
  assert_int_equal(count(md, " | 10.0 | 1000 | "), 14);
  assert_contains(md,
                  "\n## Runs\n\n<details><summary>normal: 4 runs (1 warmup), all ok</summary>\n\n"
                  "| pass | run | dir | exit | wall ms | max RSS kB | values | files |\n"
                  "|---|---:|---|---:|---:|---:|---|---:|\n"
                  "| normal | warmup 0 | `normal/warmup-1` |");
  assert_contains(md,
                  "| t=1 | 0 |\n\n</details>\n\n<details><summary>stats: 3 runs, all ok</summary>");
  assert_contains(md, "\n<details open><summary>pmc: 1 run, 1 failed</summary>\n\n");
  assert_int_equal(count(md, "<details"), 5);
  assert_int_equal(count(md, "\n</details>\n"), 5);
  /* Every run fits: nothing is left to summary.json. */
  assert_null(strstr(md, "more run"));
  assert_null(strstr(md, "runs are shown"));
  /* No profile was parsed into this session. */
  assert_null(strstr(md, "## Profiler output"));
  free(md);

  /* Only notes: nothing failed, the heading says what they are. At alpha 0.01, a 99% CI. */
  s->causes[0].kind = s->causes[1].kind = HP_CAUSE_NOTE;
  s->alpha = 0.01;
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_null(strstr(md, "Why this session failed"));
  assert_contains(md, "\n## Gates not evaluated\n\n- note: stats: t +30.00% > fail 10%");
  assert_contains(md, " | vs baseline | 99% CI | ");
  free(md);
  hp_session_free(s);
}

static void test_junit(void **state)
{
  hp_session *s = demo();
  char *x = NULL;

  (void)state;
  assert_int_equal(hp_report_junit(s, &x), 0);
  assert_contains(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
  /* 14 runs of 10 ms; the threshold breach and the failed run are the two failures. */
  assert_contains(x,
                  "  <testsuite name=\"hprun.demo\" tests=\"5\" failures=\"2\" errors=\"0\" "
                  "skipped=\"0\" time=\"0.140\" timestamp=\"2026-01-02T03:04:05Z\">\n");
  assert_int_equal(count(x, "<testcase "), 5);
  assert_int_equal(count(x, "<failure "), 2);
  assert_contains(x,
                  "    <testcase classname=\"hprun.demo.passes\" name=\"normal\" "
                  "time=\"0.040\">\n      <system-out>flag=baseline median=1</system-out>\n");
  assert_contains(
      x,
      "    <testcase classname=\"hprun.demo.passes\" name=\"stats\" time=\"0.030\">\n"
      "      <failure type=\"threshold\" message=\"t +30.00% &gt; fail 10% "
      "(p=0.01)\"/>\n"
      "      <system-out>flag=perturbed median=1.3 ratio=1.3 change=+30.00% [+25%, +35%]\n"
      "t &amp; co &lt; 2x | noted</system-out>\n    </testcase>\n");
  assert_contains(x,
                  "      <failure type=\"run-failed\" message=\"run 1 exited with status 2; see "
                  "pmc/1/stderr.txt\"/>\n");
  assert_contains(x,
                  "    <testcase classname=\"hprun.demo.variants\" name=\"cand\" "
                  "time=\"0.030\">\n      <system-out>flag=perturbed median=0.9 ratio=0.9 "
                  "verdict=accepted\nnote: a gate &amp; &lt;its&gt; limit were not "
                  "evaluated</system-out>\n");
  assert_contains(x, "  </testsuite>\n</testsuites>\n");
  free(x);
  hp_session_free(s);
}

static const hp__jv *at(const hp__jv *root, const char *path)
{
  const hp__jv *v = hp__jv_path(root, path);

  if (v == NULL)
    fail_msg("summary.json has no %s", path);
  return v;
}

static void test_json(void **state)
{
  hp_session *s = demo();
  hp__jv *root = NULL;
  char *text = NULL, err[128];

  (void)state;
  assert_int_equal(hp_report_json(s, &text), 0);
  assert_int_equal(hp__jv_parse(text, strlen(text), &root, err, sizeof(err)), 0);
  assert_true(hp__jv_num(at(root, "schema")) == 1);
  assert_string_equal(hp__jv_str(at(root, "hprun_version")), HPRUN_VERSION);
  assert_string_equal(hp__jv_str(at(root, "name")), "demo");
  assert_string_equal(hp__jv_str(at(root, "baseline")), "normal");
  assert_true(hp__jv_num(at(root, "thresholds/fail")) == 0.10);
  assert_int_equal(hp__jv_len(at(root, "passes")), 5);
  assert_int_equal(hp__jv_type_of(at(root, "passes/0/overhead")), HP__JV_NULL);
  assert_int_equal(hp__jv_bool(at(root, "passes/0/runs/0/warmup")), 1);
  assert_string_equal(hp__jv_str(at(root, "passes/0/metrics/0/better")), "lower");
  assert_int_equal(hp__jv_type_of(at(root, "passes/0/metrics/0/tolerance")), HP__JV_NULL);
  assert_string_equal(hp__jv_str(at(root, "passes/1/tool")), "hipprof");
  assert_string_equal(hp__jv_str(at(root, "passes/1/flag")), "perturbed");
  assert_string_equal(hp__jv_str(at(root, "passes/1/advice")), "t & co < 2x | noted");
  assert_true(hp__jv_num(at(root, "passes/1/overhead/ratio")) == 1.3);
  assert_true(fabs(hp__jv_num(at(root, "passes/1/overhead/percent")) - 30.0) < 1e-9);
  assert_true(hp__jv_num(at(root, "passes/1/overhead/ci95/0")) == 1.25);
  assert_true(hp__jv_num(at(root, "passes/1/overhead/ci95/1")) == 1.35);
  assert_string_equal(hp__jv_str(at(root, "passes/1/overhead/significant")), "yes");
  assert_string_equal(hp__jv_str(at(root, "passes/1/crosscheck/kernel")), "vector_add(float*)");
  assert_true(hp__jv_num(at(root, "passes/1/crosscheck/app_launches")) == 100);
  assert_string_equal(hp__jv_str(at(root, "passes/1/runs/0/files/0")), "result_1.kernel.csv");
  assert_int_equal(hp__jv_type_of(at(root, "passes/1/memory/host_peak_rss_kb")), HP__JV_NULL);
  assert_int_equal(hp__jv_type_of(at(root, "passes/2/crosscheck")), HP__JV_NULL);
  assert_true(hp__jv_num(at(root, "passes/2/runs/0/exit_status")) == 2);
  assert_int_equal(hp__jv_type_of(at(root, "passes/2/runs/0/values/t")), HP__JV_NULL);
  assert_int_equal(hp__jv_bool(at(root, "passes/3/reference")), 1);
  assert_string_equal(hp__jv_str(at(root, "passes/4/verdict")), "accepted");
  assert_true(hp__jv_num(at(root, "passes/4/memory/sampled_peak_mib")) == 600);
  assert_true(hp__jv_num(at(root, "exit_code")) == HP_EXIT_RUNFAIL);
  assert_int_equal(hp__jv_len(at(root, "causes")), 3);
  assert_string_equal(hp__jv_str(at(root, "causes/0/kind")), "threshold");
  assert_string_equal(hp__jv_str(at(root, "causes/0/pass")), "stats");
  assert_string_equal(hp__jv_str(at(root, "causes/0/text")), "t +30.00% > fail 10% (p=0.01)");
  assert_string_equal(hp__jv_str(at(root, "causes/1/kind")), "run-failed");
  assert_string_equal(hp__jv_str(at(root, "causes/2/kind")), "note");
  hp__jv_free(root);
  free(text);
  hp_session_free(s);
}

/* The plan copy every session folder holds; its categories are not the built-in ones. */
static const char plan_yaml[] = "name: demo\n"
                                "app: {command: [app, --run]}\n"
                                "metrics: [{name: t, unit: ms}]\n"
                                "passes: [normal, stats]\n"
                                "thresholds: {fail: 0.10}\n"
                                "categories:\n"
                                "  - {name: vec-kernels, patterns: [vector]}\n";

/* A session as `hprun run` leaves it: the plan copied into its folder, runs measured, the
 * profiled pass's files parsed with the plan's categories, analysed, the exit code decided. */
static hp_session *measured(const char *dir)
{
  static const char kernel_csv[] = "Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
                                   "\"vector_add\",120,2255999,18799,100.0\n"
                                   "\"Total\",120,2255999,18799,100.0\n";
  hp_session *s = new_session(dir);
  hp_plan *plan = NULL;
  hp_pass_result *pr;
  hp_diags d;
  char *path;
  size_t k;

  path = hp__asprintf("%s/plan.yaml", dir);
  assert_int_equal(hp__write_file(path, plan_yaml, strlen(plan_yaml), 0), 0);
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load(path, &plan, &d), 0);
  free(path);

  add_pass(s, "normal", "normal", 0, 0)->is_baseline = 1;
  for (k = 0; k < 4; k++)
    add_run(&s->passes[0], (int)k + 1, 0, 1.0 + 0.01 * (double)(k % 2), 1);
  pr = add_pass(s, "stats", "stats", 0, 0);
  pr->tool = hp__strdup("hipprof");
  for (k = 0; k < 4; k++)
    add_run(pr, (int)k + 1, 0, 1.3 + 0.01 * (double)(k % 3), 1);
  assert_int_equal(hp__strv_push(&pr->runs[0].files, "result_1.kernel.csv"), 0);
  path = hp__asprintf("%s/stats/1", dir);
  assert_int_equal(hp__mkdirs(path, 0755), 0);
  free(path);
  path = hp__asprintf("%s/stats/1/result_1.kernel.csv", dir);
  assert_int_equal(hp__write_file(path, kernel_csv, strlen(kernel_csv), 0), 0);
  free(path);
  hp__session_parse_profiles(s, plan->categories, plan->ncategories, NULL, &d);
  assert_int_equal(hp__session_analyze(s, plan), 0);
  hp__session_crosscheck(s, plan);
  hp_diags_free(&d);
  s->exit_code = hp__session_exit_code(s);
  hp_plan_free(plan);
  return s;
}

/* The text of dir/name, which must exist. */
static char *slurp(const char *dir, const char *name)
{
  char *path = hp__asprintf("%s/%s", dir, name), *text = NULL;
  size_t len;

  assert_non_null(path);
  assert_int_equal(hp__read_file(path, &text, &len), 0);
  assert_int_equal(strlen(text), len);
  free(path);
  return text;
}

static void remove_in(const char *dir, const char *name, int is_dir)
{
  char *path = hp__asprintf("%s/%s", dir, name);

  assert_int_equal(is_dir ? rmdir(path) : unlink(path), 0);
  free(path);
}

/* Writes dir's summary again from the session that path (a folder or the file) reads back to. */
static char *reread(const char *path, const char *dir)
{
  hp_session *back = NULL;
  char *text = NULL;
  hp_diags d;

  hp_diags_init(&d);
  assert_int_equal(hp_session_load(path, &back, &d), 0);
  if (d.count)
    hp_diags_print(&d, stderr);
  assert_int_equal(d.count, 0);
  assert_string_equal(back->dir, dir);
  assert_non_null(back->passes[1].profile);
  assert_int_equal(hp_report_json(back, &text), 0);
  hp_session_free(back);
  hp_diags_free(&d);
  return text;
}

/* Writes every rendering of s into its folder, as the end of a session does (write_all.c). */
static void write_all(const hp_session *s)
{
  int fd;

  assert_int_equal(hp__dir_open(s->dir, &fd), 0);
  assert_int_equal(hp__report_write_all_at(s, fd, NULL, NULL), 0);
  close(fd);
}

static void test_summary_round_trip(void **state)
{
  char dir[] = "/tmp/hprun-test-report-XXXXXX", *first = NULL, *md = NULL, *text, *file;
  hp_session *s;

  (void)state;
  assert_non_null(mkdtemp(dir));
  s = measured(dir);
  assert_non_null(s->passes[1].profile);
  assert_int_equal(hp_report_json(s, &first), 0);
  assert_int_equal(hp_report_markdown(s, &md), 0);
  /* What the analysis and the profile parse put in is there to be read back. */
  assert_contains(first, "\"flag\": \"perturbed\"");
  assert_contains(first, "\"crosscheck\": {\n");
  assert_contains(first, "\"kernel\": \"vector_add\"");
  assert_contains(first, "\"name\": \"vec-kernels\"");
  assert_contains(first,
                  "\"exit_code\": 1,\n  \"causes\": [\n    {\n      \"kind\": \"threshold\"");
  assert_contains(md, "\n## Profiler output: stats\n\n1 files read, 0 ignored.\n");
  /* The profile's file, as the session folder (an absolute path here) sees it. */
  assert_contains(md, "\n| `stats/1/result_1.kernel.csv` | hipprof-kernel-stats |\n");
  assert_null(strstr(md, dir));

  /* The session's own renderings are the writers' texts, byte for byte. */
  write_all(s);
  text = slurp(dir, "summary.json");
  assert_string_equal(text, first);
  free(text);
  text = slurp(dir, "report.md");
  assert_string_equal(text, md);
  free(text);

  /* Read back (from the folder, then from the file) and written again: the same bytes. */
  text = reread(dir, dir);
  assert_int_equal(strlen(text), strlen(first));
  assert_memory_equal(text, first, strlen(first));
  free(text);
  file = hp__asprintf("%s/summary.json", dir);
  text = reread(file, dir);
  assert_string_equal(text, first);
  free(text);
  free(file);

  remove_in(dir, "summary.json", 0);
  remove_in(dir, "report.md", 0);
  remove_in(dir, "report.html", 0);
  remove_in(dir, "plan.yaml", 0);
  remove_in(dir, "stats.profile.csv", 0); /* the full profile (report/core/profile_csv.c) */
  remove_in(dir, "stats/1/result_1.kernel.csv", 0);
  remove_in(dir, "stats/1", 1);
  remove_in(dir, "stats", 1);
  assert_int_equal(rmdir(dir), 0);
  free(first);
  free(md);
  hp_session_free(s);
}

/* What was stored is what is shown: a read-back session keeps the stored flags, advice, verdicts,
 * causes and exit code, even where re-analysing its runs would say something else. Without its
 * plan copy it still loads, with one warning, and the profiles get the built-in categories. */
static void test_reread_keeps_judgements(void **state)
{
  char dir[] = "/tmp/hprun-test-report-XXXXXX", *path, *text = NULL;
  hp_session *s, *back = NULL;
  hp_diags d;

  (void)state;
  assert_non_null(mkdtemp(dir));
  s = measured(dir);
  free(s->passes[1].advice);
  s->passes[1].advice = hp__strdup("advice as the run wrote it");
  s->passes[1].flag = HP_FLAG_UNCONFIRMED;
  s->passes[1].verdict = hp__strdup("a stored verdict");
  free(s->causes[0].text);
  s->causes[0].text = hp__strdup("the cause as the run wrote it");
  s->exit_code = HP_EXIT_INTERRUPTED;
  write_all(s);

  hp_diags_init(&d);
  assert_int_equal(hp_session_load(dir, &back, &d), 0);
  assert_int_equal(d.count, 0);
  assert_string_equal(back->passes[1].advice, "advice as the run wrote it");
  assert_int_equal(back->passes[1].flag, HP_FLAG_UNCONFIRMED);
  assert_string_equal(back->passes[1].verdict, "a stored verdict");
  assert_int_equal(back->ncauses, 1);
  assert_string_equal(back->causes[0].text, "the cause as the run wrote it");
  assert_int_equal(back->exit_code, HP_EXIT_INTERRUPTED);
  /* The statistics are recomputed, and come out as stored. */
  assert_true(back->passes[1].metrics[0].st.median == s->passes[1].metrics[0].st.median);
  assert_true(back->passes[1].metrics[0].ci_lo == s->passes[1].metrics[0].ci_lo);
  assert_non_null(back->plan_sha256);
  assert_int_equal(strlen(back->plan_sha256), 64);
  hp_session_free(back);
  hp_diags_free(&d);

  /* No plan copy: one warning naming it, the built-in categories, the same judgements. */
  remove_in(dir, "plan.yaml", 0);
  hp_diags_init(&d);
  assert_int_equal(hp_session_load(dir, &back, &d), 0);
  assert_int_equal(d.count, 1);
  assert_int_equal(d.head->level, HP_DIAG_WARNING);
  path = hp__asprintf("%s/plan.yaml", dir);
  assert_string_equal(d.head->file, path);
  free(path);
  assert_contains(d.head->msg, "the plan copy is missing");
  assert_string_equal(back->passes[1].advice, "advice as the run wrote it");
  assert_null(back->plan_sha256);
  assert_int_equal(hp_report_json(back, &text), 0);
  assert_null(strstr(text, "vec-kernels"));
  free(text);
  hp_session_free(back);
  hp_diags_free(&d);

  remove_in(dir, "summary.json", 0);
  remove_in(dir, "report.md", 0);
  remove_in(dir, "stats.profile.csv", 0);
  remove_in(dir, "report.html", 0);
  remove_in(dir, "stats/1/result_1.kernel.csv", 0);
  remove_in(dir, "stats/1", 1);
  remove_in(dir, "stats", 1);
  assert_int_equal(rmdir(dir), 0);
  hp_session_free(s);
}

/* ---------------------------------------------------------------------------------------------- */
/* report.md stays small and names no absolute path.                                               */

/* The largest report.md may be: a GitHub PR comment holds 65,536 characters. */
#define MD_MAX (60 * 1024)

/* Where "/" starts an absolute path in a Markdown text: at its start or after a space, backtick,
 * '(' or '|', and followed by a name (the "/" of "mean / peak" is not a path). Returns the first
 * such place, or NULL. */
static const char *absolute_path(const char *md)
{
  const char *p;

  for (p = md; *p; p++)
    if (*p == '/' && (p == md || strchr(" `(|\n", p[-1])) &&
        (isalnum((unsigned char)p[1]) || p[1] == '.'))
      return p;
  return NULL;
}

static void assert_no_absolute_path(const char *md)
{
  const char *p = absolute_path(md);

  if (p)
    fail_msg("an absolute path in report.md: %.60s", p);
}

/* A session of npasses passes (at most 4) of nruns runs each, with nmetrics metrics, every run ok
 * and 10 ms long, in an absolute folder as `hprun run` makes it. */
static hp_session *many_runs(size_t npasses, size_t nruns, size_t nmetrics)
{
  static const char *const names[] = {"normal", "stats", "kernel-stack", "memory-usage"};
  hp_session *s = new_session("/tmp/hprun-md-big/big-1");
  size_t i, k, m;

  for (i = 0; i < npasses; i++) {
    hp_pass_result *pr = &s->passes[s->npasses++];
    assert_int_equal(hp__pass_result_init(pr, nmetrics), 0);
    pr->name = hp__strdup(names[i]);
    pr->mode = hp__strdup(names[i]);
    pr->is_baseline = i == 0;
    for (m = 0; m < nmetrics; m++)
      pr->metrics[m].name = hp__asprintf("metric_%zu", m);
    pr->runs = calloc(nruns, sizeof(*pr->runs));
    assert_non_null(pr->runs);
    for (k = 0; k < nruns; k++) {
      hp_run *r = &pr->runs[pr->nruns++];
      r->index = (int)k + 1;
      r->round = (int)(k * npasses + i + 1);
      r->dir = hp__asprintf("%s/%zu", names[i], k + 1);
      r->command = hp__strdup("app --run");
      r->wall_ms = 10.0;
      r->max_rss_kb = 1000;
      r->mem_mean_mib = r->mem_peak_mib = NAN;
      r->values = malloc((nmetrics ? nmetrics : 1) * sizeof(double));
      assert_non_null(r->values);
      for (m = 0; m < nmetrics; m++)
        r->values[m] = 1.0 + (double)m;
      r->ok = 1;
    }
  }
  s->repeat = (int)nruns;
  return s;
}

/* 1,000 runs (4 passes of 250): report.md shows 200 rows, 50 per pass, each pass's failed run
 * among them, says how many it left out, and stays far below a PR comment's limit. */
/* A pass of 5000 runs: the timeline draws every third run (stride ceil(5000 / 2000)), 1667 of
 * them, plus the one outlier, and its caption says so; the distribution strip draws 1667 dots. */
static void test_html_many_runs(void **state)
{
  hp_session *s = many_runs(2, 5000, 1);
  char *html = NULL;
  const char *tl, *dist;
  size_t k;

  (void)state;
  for (k = 0; k < 5000; k++)
    s->passes[1].runs[k].values[0] = 1.0 + (double)(k % 7) * 0.01;
  s->passes[1].runs[4000].values[0] = 50.0; /* an outlier, and 4000 is not a multiple of 3 */
  assert_int_equal(hp_report_html(s, &html), 0);
  tl = strstr(html, "id=\"chart-timeline\"");
  dist = strstr(html, "id=\"chart-distributions\"");
  assert_non_null(tl);
  assert_non_null(dist);
  assert_int_equal(count(html, "class=\"outlier\""), 1);
  assert_contains(html, "<title>stats, round 8002: 50 (outlier)</title>");
  assert_contains(html, "Passes with more than 2000 runs show an evenly spaced selection");
  /* Timeline points of pass 1 (series s1) carry a tooltip; strip dots do not. */
  assert_int_equal(count(html, "<title>stats, round"), 1667 + 1);
  free(html);
  hp_session_free(s);
}

static void test_markdown_thousand_runs(void **state)
{
  hp_session *s = many_runs(4, 250, 1);
  hp_run *bad = &s->passes[1].runs[239];
  char *md = NULL;

  (void)state;
  bad->exit_status = 1;
  bad->ok = 0;
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_true(strlen(md) < MD_MAX);
  assert_null(strstr(md, "/tmp"));
  assert_no_absolute_path(md);
  assert_int_equal(count(md, " | 10.0 | 1000 | "), 200);
  assert_contains(md,
                  "\n## Runs\n\n200 of the 1000 runs are shown, each pass's failed runs "
                  "first; summary.json has every run.\n\n<details><summary>normal: 250 "
                  "runs, all ok</summary>\n\n| pass |");
  assert_int_equal(
      count(md, "\n\n\xE2\x80\xA6 and 200 more runs: see summary.json\n\n</details>\n"), 4);
  /* The first 50 of each pass; in stats, the failed run 240 takes the last place, in the order
   * the runs ran, and opens the block. */
  assert_contains(md, "\n| normal | 50 | `normal/50` | 0 |");
  assert_null(strstr(md, "| normal | 51 |"));
  assert_contains(md, "\n<details open><summary>stats: 250 runs, 1 failed</summary>\n");
  assert_contains(md,
                  "\n| stats | 49 | `stats/49` | 0 | 10.0 | 1000 | metric_0=1 | 0 |\n"
                  "| stats | 240 | `stats/240` | 1 | 10.0 | 1000 | metric_0=1 | 0 |\n\n");
  assert_null(strstr(md, "| stats | 50 |"));
  assert_int_equal(count(md, "<details"), 4);
  free(md);

  /* More failures than room: the ones left out are counted. */
  for (size_t k = 0; k < 100; k++)
    s->passes[2].runs[k].ok = 0;
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_contains(md, "<details open><summary>kernel-stack: 250 runs, 100 failed</summary>");
  assert_contains(md, "\n\xE2\x80\xA6 and 200 more runs (50 failed): see summary.json\n");
  free(md);
  hp_session_free(s);
}

/* Whatever the number of runs or metrics, the run tables stay within their budget. */
static void test_markdown_bounded(void **state)
{
  static const size_t shapes[][3] = {{4, 20000, 1}, {1, 1, 1}, {4, 300, 30}, {2, 5000, 8}};
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
    hp_session *s = many_runs(shapes[i][0], shapes[i][1], shapes[i][2]);
    size_t total = shapes[i][0] * shapes[i][1], rows;
    char *md = NULL, *more;

    assert_int_equal(hp_report_markdown(s, &md), 0);
    rows = count(md, " | 10.0 | 1000 | ");
    if (strlen(md) >= MD_MAX || rows > 200 || rows == 0)
      fail_msg("%zu passes of %zu runs, %zu metrics: %zu bytes, %zu rows", shapes[i][0],
               shapes[i][1], shapes[i][2], strlen(md), rows);
    /* What is not shown is counted: the rows and the "more" lines add up to every run. */
    for (more = md; (more = strstr(more, "\xE2\x80\xA6 and ")) != NULL; more += 4)
      rows += strtoul(more + strlen("\xE2\x80\xA6 and "), NULL, 10);
    assert_int_equal(rows, total);
    assert_no_absolute_path(md);
    free(md);
    hp_session_free(s);
  }
}

/* Paths inside the session folder are written relative to it, wherever they appear; a path that
 * merely starts with the folder's name is another folder and stays as it is. */
static void test_markdown_relative_paths(void **state)
{
  hp_session *s = demo();
  hp__buf b = HP__BUF_INIT;
  char *md = NULL;

  (void)state;
  free(s->dir);
  s->dir = hp__strdup("/tmp/hprun-md/demo-1/");
  assert_string_equal(hp__md_rel(s, "/tmp/hprun-md/demo-1/stats/1"), "stats/1");
  assert_string_equal(hp__md_rel(s, "/tmp/hprun-md/demo-1//stats/1"), "stats/1");
  assert_string_equal(hp__md_rel(s, "/tmp/hprun-md/demo-1"), ".");
  assert_string_equal(hp__md_rel(s, "/tmp/hprun-md/demo-10/stats"), "/tmp/hprun-md/demo-10/stats");
  assert_string_equal(hp__md_rel(s, "stats/1"), "stats/1");
  /* The check the tests use finds what it looks for. */
  assert_non_null(absolute_path("in `/tmp/x`"));
  assert_null(absolute_path("mean / peak, 1/2"));
  assert_int_equal(hp__md_text(&b, s,
                               "see /tmp/hprun-md/demo-1/pmc/1/stderr.txt|x\n"
                               "in `/tmp/hprun-md/demo-1` (/tmp/hprun-md/demo-1/a), not "
                               "/tmp/hprun-md/demo-10/a or x/tmp/hprun-md/demo-1/a",
                               HP__MD_CELL),
                   0);
  assert_string_equal(b.data,
                      "see pmc/1/stderr.txt\\|x in `.` (a), not /tmp/hprun-md/demo-10/a "
                      "or x/tmp/hprun-md/demo-1/a");
  hp__buf_free(&b);

  /* Everything report.md takes from the session: the error, the causes, the advice, a run's
   * folder and its error. */
  s->error = hp__strdup("cannot write /tmp/hprun-md/demo-1/build/stdout.txt");
  free(s->causes[1].text);
  s->causes[1].text = hp__strdup("run 1 exited with status 2; see /tmp/hprun-md/demo-1/pmc/1/x");
  free(s->passes[2].advice);
  s->passes[2].advice = hp__strdup("see /tmp/hprun-md/demo-1/pmc/1/stderr.txt");
  free(s->passes[2].runs[0].dir);
  s->passes[2].runs[0].dir = hp__strdup("/tmp/hprun-md/demo-1/pmc/1");
  s->passes[2].runs[0].error = hp__strdup("cannot create /tmp/hprun-md/demo-1/pmc/1: EEXIST");
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_null(strstr(md, "/tmp"));
  assert_no_absolute_path(md);
  assert_contains(md, "\n- **error**: cannot write build/stdout.txt\n");
  assert_contains(md, "\n- fail: pmc: run 1 exited with status 2; see pmc/1/x\n");
  assert_contains(md, "\n- **pmc**: see pmc/1/stderr.txt\n");
  assert_contains(md, "\n| pmc | 1 | `pmc/1` | cannot create pmc/1: EEXIST | 10.0 |");
  free(md);

  /* A session read back from ./summary.json has the folder ".". */
  free(s->dir);
  s->dir = hp__strdup(".");
  assert_int_equal(hp__md_text(&b, s, "./stats/1/a.csv and ../b and x./c", HP__MD_RAW), 0);
  assert_string_equal(b.data, "stats/1/a.csv and ../b and x./c");
  hp__buf_free(&b);
  hp_session_free(s);
}

/* A session of n passes without runs, each with what the ncu fixtures hold as its profile, in the
 * folder that holds them. */
static hp_session *profiled(size_t n)
{
  hp_session *s = new_session("tests/fixtures/profile");
  hp_diags d;
  size_t i;

  hp_diags_init(&d);
  free(s->passes);
  s->passes = calloc(n, sizeof(*s->passes));
  assert_non_null(s->passes);
  for (i = 0; i < n; i++) {
    hp_pass_result *pr = &s->passes[s->npasses++];
    assert_int_equal(hp__pass_result_init(pr, 1), 0);
    pr->name = hp__asprintf("p%zu", i);
    pr->mode = hp__strdup("time");
    pr->metrics[0].name = hp__strdup("t");
    assert_int_equal(hp_profile_new(&pr->profile), 0);
    assert_int_equal(hp_profile_add_path(pr->profile, "tests/fixtures/profile/ncu", &d), 0);
  }
  s->passes[0].is_baseline = 1;
  hp_diags_free(&d);
  return s;
}

/* The bytes of md's profile sections, their headings not counted. */
static size_t profile_bytes(const char *md, const hp_session *s)
{
  const char *first = strstr(md, "\n## Profiler output: ");
  size_t n, i;

  assert_non_null(first);
  n = strlen(first);
  for (i = 0; i < s->npasses; i++)
    n -= strlen("\n## Profiler output: \n\n") + strlen(s->passes[i].name);
  return n;
}

/* The first "… and N more rows" line under pass `name`'s profile counts `n` rows. */
/* The profiles: the writer's own title is not repeated under every pass, a kernel's long metric
 * table is cut with a line saying how much, and when the profiles exceed their budget they are
 * shown smaller, or left out with a line saying where they are. */
static void test_markdown_profiles(void **state)
{
  hp_session *s = profiled(1);
  char *md = NULL;

  (void)state;
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_int_equal(count(md, "## Profiler output: "), 1);
  assert_null(strstr(md, "## Profile summary"));
  assert_contains(
      md,
      "\n## Profiler output: p0\n\n4 files read, 0 ignored.\nKernel categories: the built-in "
      "`cuda` set (chosen by the profiler).\n\n### Kernel summary\n");
  /* The H200 fixture's 257 columns are mostly device attributes: they are one table of their
   * own, not metrics of the kernel, whose metric is its time (mean 57910.4 ns over 10 launches,
   * by python3 csv over tests/fixtures/profile/ncu/h200-real/ncu.csv). */
  assert_contains(md, "| `gpu__time_duration.sum` | 57.91 us | 10 |\n");
  assert_non_null(strstr(md, "### ncu: device attributes"));
  {
    const char *dev = strstr(md, "### ncu: device attributes"), *attr = strstr(md, "`device__");
    assert_true(attr != NULL && attr > dev); /* no device attribute among a kernel's metrics */
  }
  assert_contains(md, "\n| `ncu/details/ncu.csv` | ncu-csv |\n");
  assert_no_absolute_path(md);
  assert_true(profile_bytes(md, s) < HP__MD_PROFILE_BYTES);
  free(md);
  hp_session_free(s);

  /* 12 of them: each shown, within the profiles' share of the report. */
  s = profiled(12);
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_int_equal(count(md, "## Profiler output: "), 12);
  assert_true(profile_bytes(md, s) <= HP__MD_PROFILE_BYTES);
  free(md);
  hp_session_free(s);

  /* 40: too many to show even that way; the last ones give up their room first. */
  s = profiled(40);
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_true(strlen(md) < MD_MAX);
  assert_int_equal(count(md, "## Profiler output: "), 40);
  assert_contains(md, "\n## Profiler output: p39\n\n4 files read. The tables (");
  assert_contains(md,
                  " kB) are left out to keep this report small: summary.json has them (the "
                  "pass's `profile`), and `hprun summarize` prints them from the run folder.\n");
  assert_contains(md, "\n## Profiler output: p0\n\n4 files read, 0 ignored.\n");
  assert_true(profile_bytes(md, s) <= HP__MD_PROFILE_BYTES);
  free(md);
  hp_session_free(s);
}

/* The report sections append without checking each append: a failed append's error sticks in the
 * buffer, every later one does nothing, and the section returns that error. A buffer already in
 * error (as an earlier section would leave it) must come back unchanged, with HP_ENOMEM. */
static void test_sections_keep_buffer_error(void **state)
{
  hp_session *s = demo();
  hp__causes causes = hp__report_causes(s, HP__RF_MD);
  hp__buf b = HP__BUF_INIT;

  (void)state;
  assert_int_equal(hp__buf_adds(&b, "kept"), 0);
  b.err = HP_ENOMEM;
  assert_int_equal(hp__html_text(&b, "a<b", 0), HP_ENOMEM);
  assert_int_equal(hp__report_xml(&b, "a&b"), HP_ENOMEM);
  assert_int_equal(hp__report_md_cell(&b, "a|b"), HP_ENOMEM);
  assert_int_equal(hp__md_text(&b, s, "sessions/demo-1/x", HP__MD_CELL), HP_ENOMEM);
  assert_int_equal(hp__md_text(&b, s, NULL, HP__MD_CELL), HP_ENOMEM);
  assert_int_equal(hp__md_table(&b, s, 0), HP_ENOMEM);
  assert_int_equal(hp__md_table(&b, s, 1), HP_ENOMEM);
  assert_int_equal(hp__md_causes(&b, s, &causes), HP_ENOMEM);
  assert_int_equal(hp__md_runs(&b, s), HP_ENOMEM);
  assert_int_equal(hp__html_overhead(&b, s), HP_ENOMEM);
  assert_int_equal(hp__html_timeline(&b, s), HP_ENOMEM);
  assert_int_equal(hp__html_distributions(&b, s), HP_ENOMEM);
  assert_int_equal(hp__html_profiles(&b, s), HP_ENOMEM);
  assert_int_equal(b.len, 4);
  assert_string_equal(b.data, "kept");
  /* hp__buf_steal refuses a buffer in error and frees its text. */
  assert_null(hp__buf_steal(&b));
  assert_null(b.data);
  hp_session_free(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_pass_table),
      cmocka_unit_test(test_html),
      cmocka_unit_test(test_html_sweep),
      cmocka_unit_test(test_html_roofline_labels),
      cmocka_unit_test(test_html_many_runs),
      cmocka_unit_test(test_term_bars),
      cmocka_unit_test(test_html_helpers),
      cmocka_unit_test(test_markdown),
      cmocka_unit_test(test_markdown_thousand_runs),
      cmocka_unit_test(test_markdown_bounded),
      cmocka_unit_test(test_markdown_relative_paths),
      cmocka_unit_test(test_markdown_profiles),
      cmocka_unit_test(test_junit),
      cmocka_unit_test(test_sections_keep_buffer_error),
      cmocka_unit_test(test_json),
      cmocka_unit_test(test_summary_round_trip),
      cmocka_unit_test(test_reread_keeps_judgements),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
