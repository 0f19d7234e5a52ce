/*
 * Tests for a sweep's judgement (lib/analyze/sweep.c) and renderings (lib/report/core/sweep.c and
 * the writers' sweep files) on sweeps built in memory: the overview's cells from known ratios and
 * intervals, the worst exit code over the combinations, the causes named COMBINATION/PASS, and
 * report.md's size bound at the largest sweep a plan may have (256 combinations). Expected strings
 * are written by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/results.h"
#include "analyze/sweep.h"
#include "hprun.h"

static char *dup(const char *s)
{
  char *p = strdup(s);

  assert_non_null(p);
  return p;
}

/* A combination's session: a baseline and `n` more passes; pass i (1-based) has the ratio
 * ratios[i - 1] with the interval [ratio - 0.5, ratio + 0.5], or is failed when it is NaN. */
static hp_session *sub(const char *combo, size_t n, const double *ratios, int exit_code)
{
  hp_session *s = calloc(1, sizeof(*s));
  size_t i;
  char name[32];

  assert_non_null(s);
  s->name = dup("sw");
  s->combo = dup(combo);
  s->complete = 1;
  s->alpha = 0.05;
  s->exit_code = exit_code;
  s->npasses = n + 1;
  s->passes = calloc(n + 1, sizeof(*s->passes));
  assert_non_null(s->passes);
  for (i = 0; i <= n; i++) {
    hp_pass_result *pr = &s->passes[i];
    assert_int_equal(hp__pass_result_init(pr, 1), 0);
    snprintf(name, sizeof(name), i ? "pass%zu" : "normal", i);
    pr->name = dup(name);
    pr->mode = dup(i ? "stats" : "normal");
    pr->metrics[0].name = dup("m");
    pr->metrics[0].unit = dup("ms");
    pr->is_baseline = i == 0;
    pr->flag = i == 0 ? HP_FLAG_BASELINE : HP_FLAG_DISTORTED;
    if (i > 0) {
      pr->metrics[0].ratio = ratios[i - 1];
      pr->metrics[0].ci_lo = ratios[i - 1] - 0.5;
      pr->metrics[0].ci_hi = ratios[i - 1] + 0.5;
      if (isnan(ratios[i - 1]))
        pr->flag = HP_FLAG_FAILED;
    }
  }
  return s;
}

/* A sweep of `n` combinations named c1, c2, ...; their sessions are the caller's to set. */
static hp_session *sweep(size_t n)
{
  hp_session *s = calloc(1, sizeof(*s));
  char name[32];
  size_t k;

  assert_non_null(s);
  s->name = dup("sw");
  s->ncombos = n;
  s->combos = calloc(n, sizeof(*s->combos));
  assert_non_null(s->combos);
  for (k = 0; k < n; k++) {
    snprintf(name, sizeof(name), "c%zu", k + 1);
    s->combos[k].name = dup(name);
    s->combos[k].nparams = 1;
    s->combos[k].params = calloc(1, sizeof(hp_kv));
    assert_non_null(s->combos[k].params);
    s->combos[k].params[0].key = dup("c");
    s->combos[k].params[0].value = dup(name + 1);
  }
  return s;
}

static char *table(const hp_session *s)
{
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);

  assert_non_null(fp);
  hp_report_table_bars(s, fp, 0);
  fclose(fp);
  return text;
}

static void test_overview_cells(void **state)
{
  static const double r1[] = {2.0, NAN}, r2[] = {1.02, 3.5};
  hp_session *s = sweep(3);
  char *t, *md = NULL;

  (void)state;
  s->combos[0].s = sub("c1", 2, r1, 3);
  s->combos[1].s = sub("c2", 2, r2, 0);
  /* The baseline's own value in each combination, which the overview shows in its row. */
  s->combos[0].s->passes[0].metrics[0].st.median = 0.25;
  s->combos[1].s->passes[0].metrics[0].st.median = 4;
  /* c3 never ran. */
  assert_int_equal(hp__sweep_judge(s), 0);
  t = table(s);
  /* Three columns of 24 characters, the last one unpadded. */
  assert_non_null(
      strstr(t, "\npass             c1                      c2                      c3\n"));
  assert_non_null(
      strstr(t, "\nnormal           0.25 (baseline)         4 (baseline)            not run\n"));
  assert_non_null(
      strstr(t, "\npass1            2.00x [1.5x, 2.5x]      +2.00% [-48%, +52%]     not run\n"));
  assert_non_null(
      strstr(t, "\npass2            failed                  3.50x [3x, 4x]          not run\n"));
  assert_non_null(strstr(t, "=== combination 3 of 3: c3 ===\nnot run\n"));
  free(t);
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_non_null(strstr(md, "\n| pass | c1 | c2 | c3 |\n|---|---:|---:|---:|\n"));
  assert_non_null(strstr(md,
                         "\n| pass1 | 2.00x [1.5x, 2.5x] distorted | +2.00% [-48%, +52%] distorted "
                         "| not run |\n"));
  assert_non_null(strstr(md, "\n### `c3`\n\nNot run.\n"));
  free(md);
  hp_session_free(s);
}

/* The overview as CSV: one row per combination and pass, its parameter as a column, raw numbers
 * (the fixture's: pass i's interval is its ratio +- 0.5), empty where there are none. */
static void test_overview_csv(void **state)
{
  static const double r1[] = {2.0}, r2[] = {1.02};
  hp_session *s = sweep(2);
  char *csv = NULL;

  (void)state;
  s->combos[0].s = sub("c1", 1, r1, 0);
  s->combos[1].s = sub("c2", 1, r2, 0);
  s->combos[0].s->passes[0].metrics[0].st.median = 0.25;
  s->combos[0].s->passes[1].metrics[0].st.median = 0.5;
  s->combos[1].s->passes[0].metrics[0].st.median = 4;
  assert_int_equal(hp_report_csv(s, &csv), 0);
  assert_string_equal(csv,
                      "combination,c,pass,mode,metric,unit,median,against,against_median,ratio,"
                      "ci_lo,ci_hi,flag\n"
                      "c1,1,normal,normal,m,ms,0.25,baseline,0.25,,,,baseline\n"
                      "c1,1,pass1,stats,m,ms,0.5,baseline,0.25,2,1.5,2.5,distorted\n"
                      "c2,2,normal,normal,m,ms,4,baseline,4,,,,baseline\n"
                      "c2,2,pass1,stats,m,ms,,baseline,4,1.02,0.52,1.52,distorted\n");
  free(csv);
  hp_session_free(s);
}

static void test_judge(void **state)
{
  static const double r[] = {2.0};
  hp_session *s = sweep(3);
  size_t i;
  int found = 0;

  (void)state;
  s->combos[0].s = sub("c1", 1, r, 1);
  s->combos[1].s = sub("c2", 1, r, 0);
  s->combos[2].s = sub("c3", 1, r, 0);
  assert_int_equal(hp__cause_add(&s->combos[0].s->causes, &s->combos[0].s->ncauses,
                                 HP_CAUSE_THRESHOLD, "pass1", "too slow"),
                   0);
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->exit_code, 1);
  assert_true(s->complete);
  assert_int_equal(s->ncauses, 1);
  assert_string_equal(s->causes[0].pass, "c1/pass1");
  assert_string_equal(s->causes[0].text, "too slow");
  /* A combination that stopped early counts 3 at least, and its error is its cause. */
  s->combos[1].s->complete = 0;
  s->combos[1].s->error = dup("the build failed");
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->exit_code, 3);
  assert_false(s->complete);
  for (i = 0; i < s->ncauses; i++)
    found |= !strcmp(s->causes[i].pass, "c2") && !strcmp(s->causes[i].text, "the build failed");
  assert_true(found);
  /* 130 (interrupted) over 3, and 4 (a file) over everything, as in one session (docs/ci.md). */
  s->combos[2].s->interrupted = 1;
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->exit_code, 130);
  assert_true(s->interrupted);
  s->combos[2].s->exit_code = 4;
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->exit_code, 4);
  hp_session_free(s);
}

/* Interrupted between two combinations: the first is whole, the second never ran; only the sweep
 * knows it was interrupted, and says so (130, a note for the one not run). */
static void test_interrupted_between(void **state)
{
  static const double r[] = {2.0};
  hp_session *s = sweep(2);

  (void)state;
  s->combos[0].s = sub("c1", 1, r, 0);
  s->interrupted = 1;
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->exit_code, 130);
  assert_false(s->complete);
  assert_int_equal(s->ncauses, 1);
  assert_int_equal(s->causes[0].kind, HP_CAUSE_NOTE);
  assert_string_equal(s->causes[0].pass, "c2");
  assert_string_equal(s->causes[0].text, "not run: the sweep was interrupted before it");
  hp_session_free(s);
}

/* 256 combinations of 8 passes with two causes each: report.md stays under 60 KB and says what it
 * leaves out. */
static void test_markdown_bounded(void **state)
{
  static const double r[] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5};
  hp_session *s = sweep(256);
  char *md = NULL, name[16];
  size_t k;

  (void)state;
  for (k = 0; k < 256; k++) {
    snprintf(name, sizeof(name), "c%zu", k + 1);
    s->combos[k].s = sub(name, 7, r, 1);
    assert_int_equal(hp__cause_add(&s->combos[k].s->causes, &s->combos[k].s->ncauses,
                                   HP_CAUSE_THRESHOLD, "pass1", "a significant slowdown of 50%"),
                     0);
    assert_int_equal(hp__cause_add(&s->combos[k].s->causes, &s->combos[k].s->ncauses,
                                   HP_CAUSE_THRESHOLD, "pass2", "a significant slowdown of 150%"),
                     0);
  }
  assert_int_equal(hp__sweep_judge(s), 0);
  assert_int_equal(s->ncauses, 512);
  assert_int_equal(hp_report_markdown(s, &md), 0);
  assert_true(strlen(md) < 60000);
  assert_non_null(strstr(md, "- \xE2\x80\xA6 and 472 more: see summary.json\n"));
  assert_non_null(strstr(md, "more combinations: see summary.json"));
  assert_non_null(strstr(md, "their own report.md"));
  free(md);
  hp_session_free(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_overview_cells),
      cmocka_unit_test(test_overview_csv),
      cmocka_unit_test(test_judge),
      cmocka_unit_test(test_interrupted_between),
      cmocka_unit_test(test_markdown_bounded),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
