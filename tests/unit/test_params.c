/*
 * Tests for lib/plan/params.c and placeholders.c: a sweep's `parameters:`, its combinations, their
 * names, and the plan of each combination (hp_plan_combination). The expected words, orders and
 * names are written out by hand from the plans below: the cartesian product in the order written,
 * the last parameter varying fastest.
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

/* A 2x2 sweep using its parameters in every expanded field, and one text left alone. */
static const char sweep[] =
    "name: sw\n"
    "parameters:\n"
    "  n: [1048576, 16777216]\n"
    "  dtype: [fp16, fp32]\n"
    "app:\n"
    "  command: [./bench, \"--n={n}\", \"{dtype}\", \"${HOME}\", \"{{n}}\", \"{app}x\"]\n"
    "  env: {N: \"{n}\", FIXED: \"1\"}\n"
    "  cwd: \"data/{dtype}\"\n"
    "  prepare: \"touch {n}.ready\"\n"
    "  cleanup: [rm, \"{n}.ready\"]\n"
    "profiler: {args: [\"--tag={dtype}\"]}\n"
    "metrics:\n"
    "  - {name: m, pattern: 'm=([0-9]{1,3})'}\n"
    "passes:\n"
    "  - normal\n"
    "  - {name: pmc, mode: pmc, kernel: \"k_{dtype}\", args: [\"-n\", \"{n}\"]}\n"
    "  - {name: v, command: [valgrind, \"--log-file={dir}/{n}.log\", \"{app}\"],\n"
    "     env: {T: \"{dir}/{dtype}\"}}\n"
    "variants:\n"
    "  - {name: a, command: \"./a {n} {dtype}\"}\n";

static hp_plan *load(const char *text, int want, hp_diags *d)
{
  hp_plan *p = NULL;
  int r;

  hp_diags_init(d);
  r = hp_plan_load_string("t.yaml", "/plans", text, strlen(text), &p, d);
  if (r != want) {
    const hp_diag *g;
    for (g = d->head; g; g = g->next)
      print_message("  %ld:%ld: %s\n", g->line, g->col, g->msg);
    fail_msg("load returned %d, wanted %d", r, want);
  }
  return p;
}

/* Whether some error is at `line` and holds `needle`. */
static int has_error(const hp_diags *d, long line, const char *needle)
{
  const hp_diag *g;

  for (g = d->head; g; g = g->next)
    if (g->level == HP_DIAG_ERROR && g->line == line && strstr(g->msg, needle))
      return 1;
  return 0;
}

static void test_parse_and_names(void **state)
{
  static const char *const names[] = {"n=1048576,dtype=fp16", "n=1048576,dtype=fp32",
                                      "n=16777216,dtype=fp16", "n=16777216,dtype=fp32"};
  hp_diags d;
  hp_plan *p = load(sweep, 0, &d);
  char *name;
  size_t k;

  (void)state;
  assert_int_equal(p->nparams, 2);
  assert_string_equal(p->params[0].name, "n");
  assert_int_equal(p->params[0].line, 3);
  assert_string_equal(p->params[1].values.v[1], "fp32");
  assert_int_equal(p->combo, -1);
  assert_int_equal(hp_plan_combinations(p), 4);
  for (k = 0; k < 4; k++) {
    assert_int_equal(hp_plan_combination_name(p, k, &name), 0);
    assert_string_equal(name, names[k]);
    free(name);
  }
  assert_string_equal(hp_plan_combination_value(p, 2, 0), "16777216");
  assert_string_equal(hp_plan_combination_value(p, 2, 1), "fp16");
  assert_null(hp_plan_combination_value(p, 4, 0));
  assert_null(hp_plan_combination_value(p, 0, 2));
  assert_int_equal(hp_plan_combination_name(p, 4, &name), HP_EINVAL);
  assert_null(name);
  /* The plan as written keeps its placeholders. */
  assert_string_equal(p->app.command.v[1], "--n={n}");
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_expand_every_field(void **state)
{
  hp_diags d;
  hp_plan *p = load(sweep, 0, &d);
  const hp_plan *e;

  (void)state;
  /* Combination 3 is read after 0, 1 and 2 from the same document: it must see its own values
   * only, not theirs. */
  assert_non_null(e = hp_plan_combination(p, 3));
  assert_int_equal(e->combo, 3);
  assert_int_equal(e->app.command.n, 6);
  assert_string_equal(e->app.command.v[1], "--n=16777216");
  assert_string_equal(e->app.command.v[2], "fp32");
  assert_string_equal(e->app.command.v[3], "${HOME}"); /* the shell's */
  assert_string_equal(e->app.command.v[4], "{n}");     /* {{n}} is the text {n} */
  assert_string_equal(e->app.command.v[5], "{app}x");  /* another template's name */
  assert_string_equal(e->app.env[0].key, "N");
  assert_string_equal(e->app.env[0].value, "16777216");
  assert_string_equal(e->app.env[1].value, "1");
  assert_string_equal(e->app.cwd, "data/fp32");
  assert_string_equal(e->app.prepare.v[1], "16777216.ready");
  assert_string_equal(e->app.cleanup.v[1], "16777216.ready");
  assert_string_equal(e->profiler.args.v[0], "--tag=fp32");
  assert_string_equal(e->passes[1].kernel, "k_fp32");
  assert_string_equal(e->passes[1].args.v[1], "16777216");
  assert_string_equal(e->passes[2].command.v[1], "--log-file={dir}/16777216.log");
  assert_string_equal(e->passes[2].command.v[2], "{app}");
  assert_string_equal(e->passes[2].env[0].value, "{dir}/fp32"); /* {dir}: each run's (run.c) */
  /* A string command is split after the values are in. */
  assert_int_equal(e->variants[0].app.command.n, 3);
  assert_string_equal(e->variants[0].app.command.v[1], "16777216");
  assert_string_equal(e->variants[0].app.command.v[2], "fp32");
  /* Not an expanded field: a metric's pattern keeps its braces. */
  assert_string_equal(e->metrics[0].pattern, "m=([0-9]{1,3})");
  /* The text is the plan's, unchanged (the manifest hashes it). */
  assert_string_equal(e->text, p->text);
  assert_non_null(e = hp_plan_combination(p, 0));
  assert_int_equal(e->combo, 0);
  assert_string_equal(e->app.command.v[1], "--n=1048576");
  assert_string_equal(e->app.command.v[2], "fp16");
  assert_non_null(e = hp_plan_combination(p, 1));
  assert_string_equal(e->app.command.v[1], "--n=1048576");
  assert_string_equal(e->app.command.v[2], "fp32");
  assert_string_equal(e->app.env[0].value, "1048576");
  /* A combination's plan is a plan as written, not a sweep of its own. */
  assert_null(hp_plan_combination(e, 0));
  assert_null(hp_plan_combination(p, 4));
  /* After every combination, the plan as written still has its placeholders. */
  assert_string_equal(p->app.command.v[1], "--n={n}");
  hp_plan_free(p);
  hp_diags_free(&d);
}

/* Without parameters nothing changes but {{name}}, and the plan is its own only combination. */
static void test_no_parameters(void **state)
{
  hp_diags d;
  hp_plan *p = load("app: {command: [./a, \"{{x}}\", \"${y}\", \"{dir}\", \"{ 1}\", \"{}\"]}\n"
                    "passes: [normal]\n",
                    0, &d);
  char *name = NULL;

  (void)state;
  assert_int_equal(p->nparams, 0);
  assert_int_equal(hp_plan_combinations(p), 1);
  assert_string_equal(p->app.command.v[1], "{x}");
  assert_string_equal(p->app.command.v[2], "${y}");
  assert_string_equal(p->app.command.v[3], "{dir}");
  assert_string_equal(p->app.command.v[4], "{ 1}");
  assert_string_equal(p->app.command.v[5], "{}");
  assert_int_equal(hp_plan_combination_name(p, 0, &name), 0);
  assert_string_equal(name, "");
  free(name);
  assert_null(hp_plan_combination(p, 0)); /* not a sweep: nothing to expand */
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_value_names_sanitized(void **state)
{
  hp_diags d;
  hp_plan *p = load("parameters: {file: [data/big.bin, \"a b\", x+1e-3]}\n"
                    "app: {command: [./a, \"{file}\"]}\npasses: [normal]\n",
                    0, &d);
  char *name;

  (void)state;
  assert_int_equal(hp_plan_combination_name(p, 0, &name), 0);
  assert_string_equal(name, "file=data_big.bin");
  free(name);
  assert_int_equal(hp_plan_combination_name(p, 1, &name), 0);
  assert_string_equal(name, "file=a_b");
  free(name);
  assert_int_equal(hp_plan_combination_name(p, 2, &name), 0);
  assert_string_equal(name, "file=x+1e-3");
  free(name);
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_errors(void **state)
{
  hp_diags d;
  hp_plan *p;

  (void)state;
  p = load("parameters: {n: [1, 2]}\napp: {command: [./a, \"{size}\"]}\npasses: [normal]\n",
           HP_EPLAN, &d);
  assert_null(p);
  assert_true(has_error(&d, 2, "`{size}` in `app.command` is not a parameter (parameters: n)"));
  hp_diags_free(&d);

  /* A likely typo of a parameter gets a hint. */
  load("parameters: {dtype: [a]}\napp: {command: [./a, \"--t={dtyp}\"]}\npasses: [normal]\n",
       HP_EPLAN, &d);
  assert_true(
      has_error(&d, 2, "`{dtyp}` in `app.command` is not a parameter (did you mean `{dtype}`?)"));
  hp_diags_free(&d);

  /* Without parameters a placeholder is still an error: a forgotten `parameters:`. */
  load("app: {command: ./a}\npasses:\n  - normal\n  - {name: s, mode: stats, args: [\"{n}\"]}\n",
       HP_EPLAN, &d);
  assert_true(has_error(&d, 4, "this plan has no `parameters:`"));
  hp_diags_free(&d);

  load("parameters:\n  9n: [1]\n  dir: [a]\n  e: []\n  s: x\n  l: [[1]]\n  d: [1, 1]\n"
       "app: {command: ./a}\npasses: [normal]\n",
       HP_EPLAN, &d);
  assert_true(has_error(&d, 2, "'9n' is not a name"));
  assert_true(has_error(&d, 3, "`dir` is taken"));
  assert_true(has_error(&d, 4, "must be a non-empty list"));
  assert_true(has_error(&d, 5, "must be a non-empty list"));
  assert_true(has_error(&d, 6, "must be numbers or strings, got a list"));
  assert_true(has_error(&d, 7, "has the value '1' twice"));
  hp_diags_free(&d);

  load("parameters: {}\napp: {command: ./a}\npasses: [normal]\n", HP_EPLAN, &d);
  assert_true(has_error(&d, 1, "`parameters` is empty"));
  hp_diags_free(&d);

  load("parameters: {n: [1], n: [2]}\napp: {command: ./a}\npasses: [normal]\n", HP_EPLAN, &d);
  assert_true(has_error(&d, 1, "duplicate parameter `n`"));
  hp_diags_free(&d);

  /* Two values that share a folder name. */
  load("parameters: {f: [a/b, a_b]}\napp: {command: ./a}\npasses: [normal]\n", HP_EPLAN, &d);
  assert_true(has_error(&d, 1, "combinations 1 and 2 would share the folder 'f=a_b'"));
  hp_diags_free(&d);
}

/* 4 x 8 x 9 = 288 combinations: over the cap of 256. 4 x 8 x 8 = 256 is allowed. */
static void test_cap(void **state)
{
  static const char over[] = "parameters:\n  a: [1, 2, 3, 4]\n  b: [1, 2, 3, 4, 5, 6, 7, 8]\n"
                             "  c: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
                             "app: {command: ./a}\npasses: [normal]\n";
  static const char at[] = "parameters:\n  a: [1, 2, 3, 4]\n  b: [1, 2, 3, 4, 5, 6, 7, 8]\n"
                           "  c: [1, 2, 3, 4, 5, 6, 7, 8]\n"
                           "app: {command: ./a}\npasses: [normal]\n";
  hp_diags d;
  hp_plan *p;
  char *name;

  (void)state;
  load(over, HP_EPLAN, &d);
  assert_true(has_error(&d, 1, "more than 256 combinations"));
  hp_diags_free(&d);
  p = load(at, 0, &d);
  assert_int_equal(hp_plan_combinations(p), 256);
  /* Combination 255 is the last: a=4, b=8, c=8; 100 = 1*64 + 4*8 + 4: a=2, b=5, c=5. */
  assert_int_equal(hp_plan_combination_name(p, 255, &name), 0);
  assert_string_equal(name, "a=4,b=8,c=8");
  free(name);
  assert_int_equal(hp_plan_combination_name(p, 100, &name), 0);
  assert_string_equal(name, "a=2,b=5,c=5");
  free(name);
  hp_plan_free(p);
  hp_diags_free(&d);
}

/* A value that makes one combination invalid fails the plan, naming the combination. */
static void test_bad_combination(void **state)
{
  const hp_diag *g;
  hp_diags d;
  int noted = 0;

  (void)state;
  load("parameters: {q: [ok, \"a'b\"]}\napp: {command: \"./a {q}\"}\npasses: [normal]\n", HP_EPLAN,
       &d);
  assert_true(has_error(&d, 2, "unterminated quote"));
  for (g = d.head; g; g = g->next)
    noted |= g->level == HP_DIAG_NOTE && strstr(g->msg, "in combination 2 of 2 (q=a_b)") != NULL;
  assert_true(noted);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_and_names), cmocka_unit_test(test_expand_every_field),
      cmocka_unit_test(test_no_parameters),   cmocka_unit_test(test_value_names_sanitized),
      cmocka_unit_test(test_errors),          cmocka_unit_test(test_cap),
      cmocka_unit_test(test_bad_combination),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
