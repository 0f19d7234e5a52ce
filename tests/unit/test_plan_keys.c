/*
 * Tests for hp_plan_keys (lib/plan/keys.c): the list of every plan key with its type and default,
 * which `hprun --plan-keys` prints and scripts/check-plan-keys holds the docs to.
 *
 * The docs tables stand beside the loader's key tables, so these tests hold them to what the
 * loader does rather than to what they say: a default is real when a plan that writes it loads
 * into the same plan as one that leaves the key out, and a key's choices are real when the loader
 * names exactly them in refusing another word. The programs run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprun.h"

/* The smallest valid plan, as in test_plan.c. */
#define BASE "app: {command: ./app}\nmetrics: [m]\npasses: [normal, stats]\n"

/* A plan in which a key of `section` can be written: `@` is where the line `key: value` goes, at
 * `indent`. A plan with nothing at `@` is the same plan with the key left out. `key` (when not
 * NULL) picks a template for one key whose neighbours would not let it apply. */
static const struct {
  const char *section, *key, *indent, *text;
} templates[] = {
    {"", NULL, "", BASE "@"},
    {"repeat", NULL, "  ", BASE "repeat:\n  budget: 1h\n@"},
    {"app", NULL, "  ", "app:\n  command: ./app\n@metrics: [m]\npasses: [normal, stats]\n"},
    {"profiler", NULL, "  ", BASE "profiler:\n  args: []\n@"},
    {"metrics", NULL, "    ", "app: {command: ./app}\nmetrics:\n  - name: m\n@passes: [normal]\n"},
    /* A torch schedule pass, the one mode that takes `schedule`. */
    {"passes", NULL, "    ",
     "app: {command: ./app}\nmetrics: [m]\npasses:\n  - normal\n  - name: s\n    tool: torch\n"
     "    mode: schedule\n@"},
    /* `precision` applies only to an `expect: distorted` pass of `repeat: auto`. */
    {"passes", "precision", "    ",
     "app: {command: ./app}\nmetrics: [m]\nrepeat: auto\npasses:\n  - normal\n  - name: s\n"
     "    mode: stats\n    expect: distorted\n@"},
    {"variants", NULL, "    ",
     BASE "variants:\n  - name: a\n    command: ./a\n  - name: b\n    command: ./b\n@"},
    {"reference", NULL, "    ", BASE "reference:\n  - value: 1\n@"},
    {"thresholds", NULL, "  ", BASE "thresholds:\n  fail: 0.5\n@"},
    {"sampler", NULL, "  ", BASE "sampler:\n@"},
    {"launcher", NULL, "  ", BASE "launcher:\n  kind: slurm\n@"},
    {"launcher", "kind", "  ", BASE "launcher:\n@"},
    {"report", NULL, "  ", BASE "report:\n@"},
};

static int find_template(const char *section, const char *key)
{
  int i, n = (int)(sizeof(templates) / sizeof(templates[0])), any = -1;

  for (i = 0; i < n; i++)
    if (strcmp(templates[i].section, section) == 0) {
      if (templates[i].key && strcmp(templates[i].key, key) == 0)
        return i;
      if (templates[i].key == NULL && any < 0)
        any = i;
    }
  return any;
}

/* Template t with `line` (NULL: nothing) at its `@`. The docs write a metric's default pattern
 * with NAME for the metric's name, which is `m` in every template. */
static char *plan_text(int t, const char *key, const char *value)
{
  const char *at = strchr(templates[t].text, '@'), *name;
  char line[256] = "", *out;
  size_t n;

  assert_non_null(at);
  if (key) {
    name = strstr(value, "NAME");
    if (name)
      snprintf(line, sizeof(line), "%s%s: %.*sm%s\n", templates[t].indent, key, (int)(name - value),
               value, name + 4);
    else
      snprintf(line, sizeof(line), "%s%s: %s\n", templates[t].indent, key, value);
  }
  n = strlen(templates[t].text) + strlen(line);
  out = malloc(n);
  assert_non_null(out);
  snprintf(out, n, "%.*s%s%s", (int)(at - templates[t].text), templates[t].text, line, at + 1);
  return out;
}

/* The fields of a plan that a key with a default sets, as text, so that two plans compare with
 * one string comparison. A zero that the header documents as a default is written as that
 * default (report_top 0 is HP_PROFILE_SUMMARY_TOP, a pass's precision 0 is 10%). */
static void describe(const hp_plan *p, char *buf, size_t size)
{
  size_t i, n;

  n = (size_t)snprintf(
      buf, size,
      "output=%s repeat=%d auto=%d,%d,%d,%g warmup=%d order=%d seed=%llu "
      "keep_going=%d workdir_run=%d tool=%s warn=%.17g fail=%.17g alpha=%.17g "
      "strict=%d sampler=%s,%.17g launcher=%d,%d,%d,%zu top=%d",
      p->output, p->repeat, p->autorep.on, p->autorep.min, p->autorep.max, p->autorep.budget_s,
      p->warmup, (int)p->order, (unsigned long long)p->seed, p->keep_going, p->app.workdir_run,
      p->profiler.tool, p->thresholds.warn, p->thresholds.fail, p->thresholds.alpha,
      p->thresholds.strict, p->sampler.tool, p->sampler.interval_ms, (int)p->launcher.kind,
      p->launcher.exclusive, p->launcher.allocate_session, p->launcher.nprofile_ranks,
      p->report_top ? p->report_top : HP_PROFILE_SUMMARY_TOP);
  for (i = 0; i < p->nmetrics && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, " metric=%s,%d",
                          p->metrics[i].pattern ? p->metrics[i].pattern : "-",
                          p->metrics[i].higher_is_better);
  for (i = 0; i < p->npasses && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, " pass=%d,%ld,%ld,%ld,%.17g",
                          p->passes[i].expect_distorted, p->passes[i].sched_wait,
                          p->passes[i].sched_warmup, p->passes[i].sched_active,
                          p->passes[i].precision > 0 ? p->passes[i].precision : 0.1);
  for (i = 0; i < p->nvariants && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, " variant=%d", p->variants[i].reference);
  for (i = 0; i < p->nreferences && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, " reference=%.17g", p->references[i].tolerance);
  assert_true(n < size);
}

/* Loads `text`, which must load without a message, and describes it. */
static void load_described(const char *text, char *buf, size_t size)
{
  hp_plan *p = NULL;
  hp_diags d;
  int r;

  hp_diags_init(&d);
  r = hp_plan_load_string("t.yaml", "/plans", text, strlen(text), &p, &d);
  if (r != 0 || d.count != 0)
    fail_msg("plan should load (rc %d, %zu messages, first: %s):\n%s", r, d.count,
             d.head ? d.head->msg : "", text);
  describe(p, buf, size);
  hp_plan_free(p);
  hp_diags_free(&d);
}

/* Every key has one entry: a type in words or a list of choices (not both), and a default that
 * is absent or one line of text. A key added to a key table without its entry fails here (or, at
 * the end of the table, does not build). */
static void test_docs_complete(void **state)
{
  static const char *const filled[] = {"x", NULL};
  static const hp_plan_key_doc filled_doc = {"x", NULL, NULL};
  const char *const *keys, *section;
  const hp_plan_key_doc *docs;
  size_t i, k, total = 0;

  (void)state;
  for (i = 0; (section = hp_plan_keys(i, &keys, &docs)) != NULL; i++) {
    assert_non_null(keys);
    assert_non_null(docs);
    for (k = 0; keys[k]; k++, total++) {
      const hp_plan_key_doc *d = &docs[k];
      if ((d->type == NULL) == (d->choices == NULL))
        fail_msg("`%s.%s`: give a type or choices, one of them", section, keys[k]);
      if (d->type)
        assert_true(d->type[0] != '\0' && strpbrk(d->type, "\t\n") == NULL);
      if (d->choices)
        assert_non_null(d->choices[0]);
      if (d->dflt)
        assert_true(d->dflt[0] != '\0' && strpbrk(d->dflt, "\t\n") == NULL);
    }
  }
  assert_true(total >= 100);
  /* Past the last section both out-parameters are emptied. */
  keys = filled;
  docs = &filled_doc;
  assert_null(hp_plan_keys(i, &keys, &docs));
  assert_null(keys);
  assert_null(docs);
  assert_null(hp_plan_keys(i + 1, NULL, NULL));
}

/* A few entries as docs/plan.md has always stated them, so that a table whose entries slid to
 * the wrong keys fails even where each entry on its own looks plausible. */
static void test_known_entries(void **state)
{
  static const struct {
    const char *section, *key, *type, *dflt;
  } want[] = {
      {"", "output", "string", "hprun-out"},
      {"", "keep_going", "boolean", "false"},
      {"repeat", "max", "integer 2..100000, >= min", "30"},
      {"app", "timeout", "duration", NULL},
      {"passes", "expect", NULL, "ok"},
      {"thresholds", "alpha", "fraction in (0, 1)", "0.05"},
      {"sampler", "interval", "duration > 0", "2ms"},
      {"launcher", "profile_ranks", "all or a list of ranks", "all"},
      {"report", "top", "integer 1..1000", "20"},
  };
  const char *const *keys, *section;
  const hp_plan_key_doc *docs;
  size_t w, i, k, found;

  (void)state;
  for (w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
    found = 0;
    for (i = 0; (section = hp_plan_keys(i, &keys, &docs)) != NULL; i++)
      for (k = 0; keys[k]; k++) {
        if (strcmp(section, want[w].section) != 0 || strcmp(keys[k], want[w].key) != 0)
          continue;
        found++;
        if (want[w].type)
          assert_string_equal(docs[k].type, want[w].type);
        else
          assert_null(docs[k].type);
        if (want[w].dflt)
          assert_string_equal(docs[k].dflt, want[w].dflt);
        else
          assert_null(docs[k].dflt);
      }
    if (found != 1)
      fail_msg("`%s.%s` found %zu times", want[w].section, want[w].key, found);
  }
}

/* Writing a key's default gives the plan that leaving it out gives. */
static void test_defaults_are_the_loaders(void **state)
{
  const char *const *keys, *section;
  const hp_plan_key_doc *docs;
  char without[2048], with[2048], *text;
  size_t i, k, tested = 0;
  int t;

  (void)state;
  for (i = 0; (section = hp_plan_keys(i, &keys, &docs)) != NULL; i++)
    for (k = 0; keys[k]; k++) {
      if (docs[k].dflt == NULL)
        continue;
      if ((t = find_template(section, keys[k])) < 0)
        fail_msg("no template plan for `%s.%s`, whose default is `%s`", section, keys[k],
                 docs[k].dflt);
      text = plan_text(t, NULL, NULL);
      load_described(text, without, sizeof(without));
      free(text);
      text = plan_text(t, keys[k], docs[k].dflt);
      load_described(text, with, sizeof(with));
      if (strcmp(without, with) != 0)
        fail_msg("`%s.%s: %s` is not its default:\nwithout: %s\nwith:    %s\n%s", section, keys[k],
                 docs[k].dflt, without, with, text);
      free(text);
      tested++;
    }
  assert_true(tested >= 25);
}

/* A key's choices are the words the loader names when it refuses another. */
static void test_choices_are_the_loaders(void **state)
{
  const char *const *keys, *section;
  const hp_plan_key_doc *docs;
  char want[256], *text;
  size_t i, k, c, n, tested = 0;
  hp_plan *p;
  hp_diags d;
  int t;

  (void)state;
  for (i = 0; (section = hp_plan_keys(i, &keys, &docs)) != NULL; i++)
    for (k = 0; keys[k]; k++) {
      if (docs[k].choices == NULL)
        continue;
      n = (size_t)snprintf(want, sizeof(want), "must be one of ");
      for (c = 0; docs[k].choices[c]; c++)
        n +=
            (size_t)snprintf(want + n, sizeof(want) - n, "%s%s", c ? ", " : "", docs[k].choices[c]);
      snprintf(want + n, sizeof(want) - n, ", got 'frobnicate'");
      assert_true((t = find_template(section, keys[k])) >= 0);
      text = plan_text(t, keys[k], "frobnicate");
      p = NULL;
      hp_diags_init(&d);
      assert_int_equal(hp_plan_load_string("t.yaml", "/plans", text, strlen(text), &p, &d),
                       HP_EPLAN);
      assert_null(p);
      if (d.count != 1 || strstr(d.head->msg, want) == NULL)
        fail_msg("`%s.%s`: expected one message with \"%s\", got %zu, first: %s", section, keys[k],
                 want, d.count, d.head ? d.head->msg : "");
      hp_diags_free(&d);
      free(text);
      tested++;
    }
  assert_true(tested >= 7);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_docs_complete),
      cmocka_unit_test(test_known_entries),
      cmocka_unit_test(test_defaults_are_the_loaders),
      cmocka_unit_test(test_choices_are_the_loaders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
