/*
 * Tests of the summary.json reader's checks (lib/report/json/summary_read.c, summary_field.c): a file
 * with a member missing, of the wrong type or out of range, or with passes and runs that do not
 * fit together, is refused with HP_EPARSE and one error that names the member by its path; the
 * essence of every reproducer of tests/fuzz/repro/fuzz_summary/ (now in the corpus) is here as a
 * literal. Members that docs/summary.md calls nullable load when null, and the seed keeps all 64
 * bits through summary.json and back, also in the negative form older hprun versions wrote.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hprun.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

/* A session folder with `json` as its summary.json (and nothing else), loaded. */
struct loaded {
  char dir[64];
  char *file;
  hp_session *s;
  hp_diags d;
  int rc;
};

static void load(struct loaded *l, const char *json)
{
  strcpy(l->dir, "/tmp/hprun-test-summary-XXXXXX");
  assert_non_null(mkdtemp(l->dir));
  l->file = hp__asprintf("%s/summary.json", l->dir);
  assert_non_null(l->file);
  assert_int_equal(hp__write_file(l->file, json, strlen(json), 1), 0);
  hp_diags_init(&l->d);
  l->s = (hp_session *)1; /* must be set to NULL on failure */
  l->rc = hp_session_load(l->dir, &l->s, &l->d);
}

static void unload(struct loaded *l)
{
  hp_session_free(l->s);
  hp_diags_free(&l->d);
  assert_int_equal(unlink(l->file), 0);
  assert_int_equal(rmdir(l->dir), 0);
  free(l->file);
}

/* Loading json fails with HP_EPARSE and exactly one error, `want`, on the file. */
static void assert_refused(const char *json, const char *want)
{
  struct loaded l;

  load(&l, json);
  if (l.rc != HP_EPARSE || l.d.count != 1 || strcmp(l.d.head->msg, want) != 0) {
    hp_diags_print(&l.d, stderr);
    fail_msg("expected HP_EPARSE and\n  %s\ngot %d and the messages above, for\n%s", want, l.rc,
             json);
  }
  assert_null(l.s);
  assert_int_equal(l.d.head->level, HP_DIAG_ERROR);
  assert_string_equal(l.d.head->file, l.file);
  unload(&l);
}

/* The top-level members of a small valid session, before its passes. */
#define HEAD "{\"schema\": 1, \"name\": \"s\", \"seed\": 1, \"repeat\": 1, \"warmup\": 0, "
/* A baseline pass measuring `t`, whose one run has the given members. */
#define NORMAL(run)                                                                                \
  "{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": \"baseline\", \"baseline\": true, "      \
  "\"metrics\": [{\"name\": "                                                                      \
  "\"t\"}], \"runs\": [{" run "}]}"
/* The members of a good run of that pass, except those given after it. */
#define RUN_IDS "\"index\": 1, \"round\": 1, \"dir\": \"normal/1\", "
#define RUN_OK RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"ok\": true, \"values\": {\"t\": 1}"
/* A whole session of that one pass, its run given. */
#define ONE_RUN(run) HEAD "\"passes\": [" NORMAL(run) "]}"

/* The seven reproducers fuzz_summary found (tests/fuzz/corpus/fuzz_summary/, by these names). */
static void test_fuzz_reproducers(void **state)
{
  (void)state;
  /* no-schema.json: a missing schema was NaN, cast to int. */
  assert_refused("{\"name\": \"s\", \"passes\": []}", "schema: missing or not an integer");
  /* run-without-dir.json: the profile pass joined a NULL folder to the session's. */
  assert_refused(
      HEAD "\"passes\": [" NORMAL(
          RUN_OK) ", {\"name\": \"stats\", \"mode\": \"stats\", \"flag\": \"ok\", "
                  "\"metrics\": [{\"name\": \"t\"}], \"runs\": [{\"index\": 1, \"round\": 2, "
                  "\"exit_status\": 0, \"signal\": 0, \"ok\": true, \"values\": {\"t\": 1}}]}]}",
      "passes[1].runs[0].dir: missing or not a string");
  /* more-metrics-than-baseline.json: the comparison read past the baseline's values. */
  assert_refused(HEAD "\"passes\": [" NORMAL(
                     RUN_OK) ", {\"name\": \"stats\", \"mode\": \"stats\", \"flag\": \"ok\", "
                             "\"metrics\": [{\"name\": \"t\"}, {\"name\": \"u\"}], \"runs\": []}]}",
                 "passes[1].metrics: pass \"stats\" has 2 metrics, but pass \"normal\" (passes[0]) "
                 "has 1: every pass measures the same metrics");
  /* run-without-exit-status.json: the key misspelt. */
  assert_refused(ONE_RUN(RUN_IDS "\"exiti_status\": 0, \"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].exit_status: missing or not an integer");
  /* rss-out-of-range.json and app-launches-out-of-range.json: checked for NaN, not for range. */
  assert_refused(ONE_RUN(RUN_OK ", \"max_rss_kb\": 1e300"),
                 "passes[0].runs[0].max_rss_kb: 1e300 is out of range (0 to 9223372036854775807)");
  assert_refused(HEAD "\"passes\": [{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": "
                      "\"baseline\", \"metrics\": [], "
                      "\"crosscheck\": {\"app_launches\": 1e300}, \"runs\": []}]}",
                 "passes[0].crosscheck.app_launches: 1e300 is out of range (0 to "
                 "9223372036854775807)");
}

/* seed-negative.json: hprun once wrote a seed above 2^63 cast to long long, so -1 is 2^64 - 1,
 * and it must still read back as that. */
static void test_seed_negative_is_the_old_form(void **state)
{
  struct loaded l;

  (void)state;
  load(&l,
       "{\"schema\": 1, \"name\": \"s\", \"seed\": -1, \"repeat\": 1, \"warmup\": 0, "
       "\"passes\": []}");
  assert_int_equal(l.rc, 0);
  assert_true(l.s->seed == UINT64_MAX);
  unload(&l);
  load(&l,
       "{\"schema\": 1, \"name\": \"s\", \"seed\": -9223372036854775808, \"repeat\": 1, "
       "\"warmup\": 0, \"passes\": []}");
  assert_int_equal(l.rc, 0);
  assert_true(l.s->seed == (uint64_t)1 << 63);
  unload(&l);
  assert_refused("{\"schema\": 1, \"name\": \"s\", \"seed\": -9223372036854775809, \"repeat\": 1, "
                 "\"warmup\": 0, \"passes\": []}",
                 "seed: -9223372036854775809 is out of range (0 to 18446744073709551615)");
  assert_refused("{\"schema\": 1, \"name\": \"s\", \"seed\": 18446744073709551616, \"repeat\": 1, "
                 "\"warmup\": 0, \"passes\": []}",
                 "seed: 18446744073709551616 is out of range (0 to 18446744073709551615)");
}

/* A seed that a double cannot hold (2^53 + 1, 2^64 - 1) is read from the number's text and
 * written back unsigned: the same digits come out. */
static void test_seed_round_trip(void **state)
{
  static const char *const seeds[] = {"18446744073709551615", "9007199254740993", "0"};
  static const uint64_t want[] = {UINT64_MAX, 9007199254740993ULL, 0};
  struct loaded l;
  char *json, *text = NULL, *line;
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
    json = hp__asprintf("{\"schema\": 1, \"name\": \"s\", \"seed\": %s, \"repeat\": 1, "
                        "\"warmup\": 0, \"passes\": [" NORMAL(RUN_OK) "]}",
                        seeds[i]);
    load(&l, json);
    assert_int_equal(l.rc, 0);
    assert_true(l.s->seed == want[i]);
    assert_int_equal(hp_report_json(l.s, &text), 0);
    line = hp__asprintf("\n  \"seed\": %s,\n", seeds[i]);
    if (strstr(text, line) == NULL)
      fail_msg("expected %s in\n%s", line, text);
    free(line);
    free(text);
    free(json);
    unload(&l);
  }
}

/* Every integer member is read through a checked conversion: null, a string, a fraction, a
 * number beyond the member's range and one beyond any integer type are named, not cast. */
static void test_integers_checked(void **state)
{
  (void)state;
  assert_refused(ONE_RUN("\"index\": null, \"round\": 1, \"dir\": \"normal/1\", \"exit_status\": "
                         "0, \"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].index: missing or not an integer");
  assert_refused(ONE_RUN("\"index\": 1, \"round\": 1.5, \"dir\": \"normal/1\", \"exit_status\": "
                         "0, \"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].round: missing or not an integer");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": -1, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].signal: -1 is out of range (0 to 2147483647)");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 1e19, \"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].exit_status: 1e19 is out of range (-9223372036854775808 to "
                 "9223372036854775807)");
  assert_refused(HEAD "\"passes\": [" NORMAL(RUN_OK) "], \"exit_code\": 256}",
                 "exit_code: 256 is out of range (0 to 255)");
  assert_refused("{\"schema\": 1, \"name\": \"s\", \"seed\": 1, \"repeat\": \"3\", \"warmup\": "
                 "0, \"passes\": []}",
                 "repeat: missing or not an integer");
  assert_refused("{\"schema\": 1, \"name\": \"s\", \"seed\": 1, \"repeat\": 1, \"warmup\": 1e10, "
                 "\"passes\": []}",
                 "warmup: 1e10 is out of range (0 to 2147483647)");
  assert_refused("{\"schema\": 0, \"name\": \"s\", \"passes\": []}",
                 "schema: 0 is out of range (1 to 2147483647)");
  assert_refused(ONE_RUN(RUN_OK ", \"memory\": {\"samples\": 2.5}"),
                 "passes[0].runs[0].memory.samples: not an integer");
  /* A long number is cut in the message. */
  assert_refused(ONE_RUN(RUN_OK ", \"max_rss_kb\": 1234567890123456789012345678901234567890123"),
                 "passes[0].runs[0].max_rss_kb: 1234567890123456789012345678901234567890... is "
                 "out of range (0 to 9223372036854775807)");
}

/* Every run has exactly one value per metric of its pass, stored under the metric's name. */
static void test_values_fit_the_metrics(void **state)
{
  (void)state;
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"values\": {\"t\": 1, "
                                 "\"u\": 2}"),
                 "passes[0].runs[0].values: 2 values, but the pass has 1 metrics");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"values\": {\"u\": 1}"),
                 "passes[0].runs[0].values.t: missing");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"values\": {\"t\": \"1\"}"),
                 "passes[0].runs[0].values.t: not a number");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"values\": [1]"),
                 "passes[0].runs[0].values: missing or not an object");
  assert_refused(HEAD "\"passes\": [" NORMAL(
                     RUN_OK) ", {\"name\": \"stats\", \"mode\": \"stats\", \"flag\": \"ok\", "
                             "\"metrics\": [{\"name\": \"u\"}], \"runs\": []}]}",
                 "passes[1].metrics: pass \"stats\" has metric \"u\" where pass \"normal\" "
                 "(passes[0]) has \"t\": every pass measures the same metrics");
  assert_refused(HEAD "\"passes\": [{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": "
                      "\"baseline\", \"metrics\": "
                      "[{\"name\": \"t\"}, {\"name\": \"t\"}], \"runs\": []}]}",
                 "passes[0].metrics[1].name: \"t\" is also the name of metrics[0]");
}

/* Strings, booleans, objects and arrays are checked for their type, required ones for presence,
 * and a run's folder must lie inside the session's. */
static void test_shapes_checked(void **state)
{
  (void)state;
  assert_refused(HEAD "\"passes\": [" NORMAL(RUN_OK) ", 3]}", "passes[1]: not an object");
  assert_refused(HEAD "\"passes\": [{\"mode\": \"normal\", \"flag\": \"baseline\", \"metrics\": "
                      "[], \"runs\": []}]}",
                 "passes[0].name: missing or not a string");
  assert_refused(HEAD "\"passes\": [{\"name\": \"n\", \"mode\": \"normal\", \"flag\": "
                      "\"baseline\", \"runs\": []}]}",
                 "passes[0].metrics: missing or not an array");
  assert_refused(ONE_RUN(RUN_IDS "\"exit_status\": 0, \"signal\": 0, \"ok\": 1, \"values\": "
                                 "{\"t\": 1}"),
                 "passes[0].runs[0].ok: not true or false");
  assert_refused(ONE_RUN(RUN_OK ", \"command\": 5"), "passes[0].runs[0].command: not a string");
  assert_refused(ONE_RUN(RUN_OK ", \"files\": [\"a.csv\", 7]"),
                 "passes[0].runs[0].files[1]: not a string");
  assert_refused(ONE_RUN(RUN_OK ", \"memory\": []"), "passes[0].runs[0].memory: not an object");
  assert_refused(ONE_RUN("\"index\": 1, \"round\": 1, \"dir\": \"normal/../../etc\", "
                         "\"exit_status\": 0, \"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].dir: \"normal/../../etc\" leaves the session folder");
  assert_refused(ONE_RUN("\"index\": 1, \"round\": 1, \"dir\": \"/\", \"exit_status\": 0, "
                         "\"signal\": 0, \"values\": {\"t\": 1}"),
                 "passes[0].runs[0].dir: \"/\" is not a folder inside the session");
  assert_refused(HEAD "\"thresholds\": {\"alpha\": 1}, \"passes\": []}",
                 "thresholds.alpha: 1 is not between 0 and 1");
  assert_refused(HEAD "\"passes\": [], \"causes\": [{\"kind\": \"threshold\", \"pass\": \"x\"}]}",
                 "causes[0].text: missing or not a string");
  assert_refused(HEAD "\"passes\": [" NORMAL(RUN_OK) "], \"causes\": {}}", "causes: not an array");
}

/* What docs/summary.md lets be null loads when null (or absent, as in files of older hprun
 * versions), with "unknown" where the model has one. */
static void test_nullable_members_load(void **state)
{
  struct loaded l;

  (void)state;
  load(&l,
       HEAD "\"order\": null, \"error\": null, \"exit_code\": null, \"causes\": null, "
            "\"thresholds\": {\"warn\": null, \"fail\": null, \"alpha\": null}, "
            "\"passes\": [{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": \"baseline\", "
            "\"baseline\": true, "
            "\"tool\": null, \"kernel\": null, \"advice\": null, \"crosscheck\": null, "
            "\"memory\": {\"note\": null}, \"metrics\": [{\"name\": \"t\", \"unit\": null, "
            "\"tolerance\": null}], \"runs\": [{" RUN_IDS "\"exit_status\": 0, \"signal\": 0, "
            "\"ok\": true, \"wall_ms\": null, \"max_rss_kb\": null, \"error\": null, "
            "\"memory\": {\"sampled_mean_mib\": null, \"samples\": null}, "
            "\"values\": {\"t\": null}, \"files\": null}]}]}");
  if (l.rc)
    hp_diags_print(&l.d, stderr);
  assert_int_equal(l.rc, 0);
  assert_int_equal(l.s->npasses, 1);
  assert_int_equal(l.s->passes[0].runs[0].max_rss_kb, -1);
  assert_int_equal(l.s->passes[0].app_launches, -1);
  assert_int_equal(l.s->passes[0].runs[0].mem_samples, 0);
  assert_true(l.s->passes[0].metrics[0].tolerance < 0);
  assert_true(l.s->warn == 0.05 && l.s->alpha == 0.05 && l.s->fail < 0);
  assert_int_equal(l.s->passes[0].flag, HP_FLAG_BASELINE);
  unload(&l);
}

/* A pass flag that is missing, null or unknown refuses the file, naming the member: read as
 * `failed` it would invent a failed run that the stored runs do not show. */
static void test_flag_required_and_known(void **state)
{
  (void)state;
  assert_refused(HEAD "\"passes\": [{\"name\": \"normal\", \"mode\": \"normal\", \"baseline\": "
                      "true, \"metrics\": [{\"name\": \"t\"}], \"runs\": [{" RUN_OK "}]}]}",
                 "passes[0].flag: missing or not a string");
  assert_refused(HEAD "\"passes\": [{\"name\": \"normal\", \"mode\": \"normal\", \"flag\": null, "
                      "\"baseline\": true, \"metrics\": [{\"name\": \"t\"}], \"runs\": [{" RUN_OK
                      "}]}]}",
                 "passes[0].flag: missing or not a string");
  assert_refused(
      HEAD "\"passes\": [" NORMAL(
          RUN_OK) ", {\"name\": \"stats\", \"mode\": \"stats\", "
                  "\"flag\": \"healthy\", \"metrics\": [{\"name\": \"t\"}], \"runs\": []}]}",
      "passes[1].flag: \"healthy\" is not a flag this hprun knows");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuzz_reproducers),
      cmocka_unit_test(test_seed_negative_is_the_old_form),
      cmocka_unit_test(test_seed_round_trip),
      cmocka_unit_test(test_integers_checked),
      cmocka_unit_test(test_values_fit_the_metrics),
      cmocka_unit_test(test_shapes_checked),
      cmocka_unit_test(test_nullable_members_load),
      cmocka_unit_test(test_flag_required_and_known),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
