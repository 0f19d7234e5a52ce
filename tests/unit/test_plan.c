/*
 * Tests for lib/plan/: the YAML plan loader and the categories loader.
 *
 * Error tests assert the exact line and column of each message, because pointing at the right
 * place is the point of the loader. Files under tests/fixtures/plans/bad/ carry their own
 * expectations as `# expect: LINE:COL text` comments; the test requires exactly those messages.
 * The programs run from the repository root (make runs them there).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hprun.h"

#define FIXTURES "tests/fixtures/plans"

/* The smallest valid plan: three lines, so errors appended to it start at line 4. */
#define BASE "app: {command: ./app}\nmetrics: [m]\npasses: [normal, stats]\n"

static void dump(const hp_diags *d)
{
  const hp_diag *p;

  for (p = d->head; p; p = p->next)
    print_message("  %s:%ld:%ld: %s\n", p->file ? p->file : "?", p->line, p->col, p->msg);
}

/* The message must be exactly the format's result (for texts that come from strerror). */
static void expect_msg(const char *msg, const char *fmt, const char *arg)
{
  char want[256];

  snprintf(want, sizeof(want), fmt, arg);
  assert_string_equal(msg, want);
}

static void write_file(const char *path, const char *text, size_t len)
{
  FILE *fp = fopen(path, "wb");

  assert_non_null(fp);
  assert_int_equal(fwrite(text, 1, len, fp), len);
  assert_int_equal(fclose(fp), 0);
}

static int load_text(const char *text, hp_plan **p, hp_diags *d)
{
  hp_diags_init(d);
  return hp_plan_load_string("t.yaml", "/plans", text, strlen(text), p, d);
}

static hp_plan *load_ok(const char *text)
{
  hp_plan *p = NULL;
  hp_diags d;
  int r = load_text(text, &p, &d);

  if (r != 0 || d.count != 0) {
    dump(&d);
    hp_diags_free(&d);
    hp_plan_free(p);
    fail_msg("plan should load (rc %d, %zu messages):\n%s", r, d.count, text);
  }
  assert_non_null(p);
  hp_diags_free(&d);
  return p;
}

static const hp_diag *find_diag(const hp_diags *d, long line, long col, const char *needle)
{
  const hp_diag *p;

  for (p = d->head; p; p = p->next)
    if (p->line == line && p->col == col && strstr(p->msg, needle))
      return p;
  return NULL;
}

/* Loading `text` must fail with HP_EPLAN and an error at line:col whose message holds every
 * needle; with `only`, that must be the only message (no cascade of follow-up errors). */
static void check_error(int only, const char *text, long line, long col, va_list ap)
{
  hp_plan *p = (hp_plan *)&p;
  hp_diags d;
  const char *needle;
  const hp_diag *hit;
  int r = load_text(text, &p, &d);

  if (r != HP_EPLAN || p != NULL) {
    dump(&d);
    hp_plan_free(p);
    hp_diags_free(&d);
    fail_msg("plan should fail with HP_EPLAN, got %d:\n%s", r, text);
  }
  while ((needle = va_arg(ap, const char *)) != NULL) {
    hit = find_diag(&d, line, col, needle);
    if (hit == NULL) {
      dump(&d);
      hp_diags_free(&d);
      fail_msg("no error at %ld:%ld containing [%s] for:\n%s", line, col, needle, text);
    }
    assert_int_equal(hit->level, HP_DIAG_ERROR);
    assert_string_equal(hit->file, "t.yaml");
  }
  if (only && d.count != 1) {
    dump(&d);
    hp_diags_free(&d);
    fail_msg("expected exactly one message, got %zu, for:\n%s", d.count, text);
  }
  assert_int_equal(d.nerrors, d.count);
  hp_diags_free(&d);
}

/* Exactly one error, at line:col, containing each of the NULL-terminated needles. */
static void expect_error1(const char *text, long line, long col, ...)
{
  va_list ap;

  va_start(ap, col);
  check_error(1, text, line, col, ap);
  va_end(ap);
}

/* An error at line:col among possibly others. */
static void expect_error(const char *text, long line, long col, ...)
{
  va_list ap;

  va_start(ap, col);
  check_error(0, text, line, col, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------------------------------------- */
/* Valid plans                                                                                     */

static const char full_plan[] = "name: full-run\n"
                                "output: out/sessions\n"
                                "repeat: 7\n"
                                "warmup: 2\n"
                                "order: abba\n"
                                "seed: 12345678901234\n"
                                "app:\n"
                                "  command: [\"./vector_add\", \"--n\", \"1 048 576\"]\n"
                                "  env: {HIP_VISIBLE_DEVICES: \"0\", EMPTY: \"\"}\n"
                                "  cwd: work\n"
                                "  timeout: 1.5m\n"
                                "  build: make -C src 'CFLAGS=-O3 -g'\n"
                                "profiler:\n"
                                "  tool: rocprofv3\n"
                                "  path: /opt/rocm/bin/rocprofv3\n"
                                "  env_script: /opt/dtk/env.sh\n"
                                "  args: [--log-level, warning]\n"
                                "metrics:\n"
                                "  - mean_kernel_ms\n"
                                "  - name: gbps\n"
                                "    pattern: 'bandwidth=([0-9.]+) GB/s'\n"
                                "    unit: GB/s\n"
                                "    better: higher\n"
                                "passes:\n"
                                "  - kernel-trace\n"
                                "  - normal\n"
                                "  - name: counters\n"
                                "    mode: pmc\n"
                                "    kernel: vector_add\n"
                                "    counters: SQ_WAVES GRBM_COUNT\n"
                                "    args: [--minimum-output-data, \"1\"]\n"
                                "    timeout: 10m\n"
                                "    expect: distorted\n"
                                "  - name: ncu-time\n"
                                "    mode: time\n"
                                "    tool: ncu\n"
                                "    launch_count: 5\n"
                                "  - name: nsys\n"
                                "    command: [nsys, profile, -o, \"{dir}/report\", \"{app}\"]\n"
                                "variants:\n"
                                "  - name: base\n"
                                "    command: ./vector_add_v1\n"
                                "  - name: tuned\n"
                                "    command: [./vector_add_v2, --tile, \"64\"]\n"
                                "    env: {HIP_VISIBLE_DEVICES: \"1\", TUNED: \"1\"}\n"
                                "    cwd: other\n"
                                "    build: [make, v2]\n"
                                "    timeout: 30s\n"
                                "    reference: true\n"
                                "gates:\n"
                                "  - metric: mean_kernel_ms\n"
                                "    max_rel_delta: 2%\n"
                                "  - metric: gbps\n"
                                "    max_abs_delta: 0.5\n"
                                "thresholds:\n"
                                "  warn: 3%\n"
                                "  fail: 0.25\n"
                                "  alpha: 0.01\n"
                                "sampler:\n"
                                "  tool: rocm-smi\n"
                                "  interval: 5ms\n"
                                "categories:\n"
                                "  - name: gemm\n"
                                "    patterns: [gemm, Cijk]\n"
                                "  - name: elementwise\n"
                                "    patterns: [vector_add]\n";

static const char *env_get(const hp_app *a, const char *key)
{
  size_t i;

  for (i = 0; i < a->nenv; i++)
    if (strcmp(a->env[i].key, key) == 0)
      return a->env[i].value;
  return NULL;
}

static void assert_words(const hp_strv *v, const char *const *want)
{
  size_t i;

  for (i = 0; want[i]; i++) {
    assert_true(i < v->n);
    assert_string_equal(v->v[i], want[i]);
  }
  assert_int_equal(v->n, i);
  assert_null(v->v[i]);
}

static void test_full_plan(void **state)
{
  hp_plan *p = load_ok(full_plan);
  const hp_pass *s;
  const hp_variant *v;

  (void)state;
  assert_string_equal(p->file, "t.yaml");
  assert_string_equal(p->dir, "/plans");
  assert_int_equal(p->text_len, strlen(full_plan));
  assert_memory_equal(p->text, full_plan, p->text_len);
  assert_string_equal(p->name, "full-run");
  assert_string_equal(p->output, "out/sessions");
  assert_int_equal(p->repeat, 7);
  assert_int_equal(p->warmup, 2);
  assert_int_equal(p->order, HP_ORDER_ABBA);
  assert_true(p->seed == UINT64_C(12345678901234));

  assert_words(&p->app.command, (const char *const[]){"./vector_add", "--n", "1 048 576", NULL});
  assert_int_equal(p->app.nenv, 2);
  assert_string_equal(env_get(&p->app, "HIP_VISIBLE_DEVICES"), "0");
  assert_string_equal(env_get(&p->app, "EMPTY"), "");
  assert_string_equal(p->app.cwd, "work");
  assert_true(p->app.timeout == 90.0);
  assert_words(&p->app.build, (const char *const[]){"make", "-C", "src", "CFLAGS=-O3 -g", NULL});

  assert_string_equal(p->profiler.tool, "rocprofv3");
  assert_string_equal(p->profiler.path, "/opt/rocm/bin/rocprofv3");
  assert_string_equal(p->profiler.env_script, "/opt/dtk/env.sh");
  assert_words(&p->profiler.args, (const char *const[]){"--log-level", "warning", NULL});

  assert_int_equal(p->nmetrics, 3);
  assert_string_equal(p->metrics[0].name, "mean_kernel_ms");
  assert_null(p->metrics[0].unit);
  assert_int_equal(p->metrics[0].higher_is_better, 0);
  assert_int_equal(p->metrics[0].line, 19);
  assert_string_equal(p->metrics[1].name, "gbps");
  assert_string_equal(p->metrics[1].pattern, "bandwidth=([0-9.]+) GB/s");
  assert_string_equal(p->metrics[1].unit, "GB/s");
  assert_int_equal(p->metrics[1].higher_is_better, 1);
  assert_int_equal(p->metrics[1].line, 20);

  assert_int_equal(p->npasses, 5);
  assert_int_equal(p->baseline, 1); /* the baseline need not come first */
  s = &p->passes[0];
  assert_string_equal(s->name, "kernel-trace");
  assert_string_equal(s->mode, "kernel-trace");
  assert_null(s->tool);
  assert_int_equal(s->line, 25);
  assert_string_equal(p->passes[1].mode, "normal");
  s = &p->passes[2];
  assert_string_equal(s->name, "counters");
  assert_string_equal(s->mode, "pmc");
  assert_string_equal(s->kernel, "vector_add");
  assert_words(&s->counters, (const char *const[]){"SQ_WAVES", "GRBM_COUNT", NULL});
  assert_words(&s->args, (const char *const[]){"--minimum-output-data", "1", NULL});
  assert_true(s->timeout == 600.0);
  assert_int_equal(s->expect_distorted, 1);
  assert_int_equal(s->launch_count, 0);
  assert_int_equal(s->line, 27);
  s = &p->passes[3];
  assert_string_equal(s->mode, "time");
  assert_string_equal(s->tool, "ncu");
  assert_int_equal(s->launch_count, 5);
  assert_int_equal(s->expect_distorted, 0);
  s = &p->passes[4];
  assert_string_equal(s->name, "nsys");
  assert_string_equal(s->mode, "command"); /* implied by `command:` */
  assert_words(&s->command,
               (const char *const[]){"nsys", "profile", "-o", "{dir}/report", "{app}", NULL});

  assert_int_equal(p->nvariants, 2);
  v = &p->variants[0];
  assert_string_equal(v->name, "base");
  assert_int_equal(v->reference, 0);
  assert_words(&v->app.command, (const char *const[]){"./vector_add_v1", NULL});
  /* Unset fields come from `app`. */
  assert_string_equal(env_get(&v->app, "HIP_VISIBLE_DEVICES"), "0");
  assert_string_equal(env_get(&v->app, "EMPTY"), "");
  assert_int_equal(v->app.nenv, 2);
  assert_string_equal(v->app.cwd, "work");
  assert_true(v->app.timeout == 90.0);
  assert_words(&v->app.build, (const char *const[]){"make", "-C", "src", "CFLAGS=-O3 -g", NULL});
  v = &p->variants[1];
  assert_string_equal(v->name, "tuned");
  assert_int_equal(v->reference, 1);
  assert_int_equal(v->line, 43);
  assert_words(&v->app.command, (const char *const[]){"./vector_add_v2", "--tile", "64", NULL});
  /* Its own env overrides per variable; the app's other variables stay. */
  assert_int_equal(v->app.nenv, 3);
  assert_string_equal(env_get(&v->app, "HIP_VISIBLE_DEVICES"), "1");
  assert_string_equal(env_get(&v->app, "TUNED"), "1");
  assert_string_equal(env_get(&v->app, "EMPTY"), "");
  assert_string_equal(v->app.cwd, "other");
  assert_true(v->app.timeout == 30.0);
  assert_words(&v->app.build, (const char *const[]){"make", "v2", NULL});

  assert_int_equal(p->ngates, 2);
  assert_string_equal(p->gates[0].metric, "mean_kernel_ms");
  assert_true(fabs(p->gates[0].max_rel_delta - 0.02) < 1e-12);
  assert_true(p->gates[0].max_abs_delta < 0);
  assert_string_equal(p->gates[1].metric, "gbps");
  assert_true(p->gates[1].max_abs_delta == 0.5);
  assert_true(p->gates[1].max_rel_delta < 0);
  assert_int_equal(p->gates[1].line, 53);

  assert_true(fabs(p->thresholds.warn - 0.03) < 1e-12);
  assert_true(p->thresholds.fail == 0.25);
  assert_true(p->thresholds.alpha == 0.01);
  assert_string_equal(p->sampler.tool, "rocm-smi");
  assert_true(fabs(p->sampler.interval_ms - 5.0) < 1e-9);
  assert_null(p->sampler.command.v);

  assert_int_equal(p->ncategories, 2);
  assert_string_equal(p->categories[0].name, "gemm");
  assert_words(&p->categories[0].patterns, (const char *const[]){"gemm", "Cijk", NULL});
  assert_string_equal(p->categories[1].name, "elementwise");
  assert_words(&p->categories[1].patterns, (const char *const[]){"vector_add", NULL});
  hp_plan_free(p);
}

static void test_defaults(void **state)
{
  hp_plan *p = load_ok(BASE);

  (void)state;
  assert_string_equal(p->name, "t"); /* the file's base name without extension */
  assert_string_equal(p->output, "hprun-out");
  assert_int_equal(p->repeat, 1);
  assert_int_equal(p->warmup, 0);
  assert_int_equal(p->order, HP_ORDER_INTERLEAVED);
  assert_true(p->seed == 1);
  assert_null(p->app.cwd);
  assert_int_equal(p->app.nenv, 0);
  assert_true(p->app.timeout == 0);
  assert_int_equal(p->app.build.n, 0);
  assert_string_equal(p->profiler.tool, "hipprof");
  assert_null(p->profiler.path);
  assert_null(p->profiler.env_script);
  assert_int_equal(p->profiler.args.n, 0);
  assert_int_equal(p->nmetrics, 2);
  assert_string_equal(p->metrics[0].name, "m");
  assert_false(p->metrics[0].wall);
  assert_string_equal(p->metrics[1].name, "wall_ms");
  assert_string_equal(p->metrics[1].unit, "ms");
  assert_null(p->metrics[1].pattern);
  assert_false(p->metrics[1].higher_is_better);
  assert_true(p->metrics[1].wall);
  assert_int_equal(p->npasses, 2);
  assert_int_equal(p->baseline, 0);
  assert_string_equal(p->passes[1].name, "stats");
  assert_string_equal(p->passes[1].mode, "stats");
  assert_null(p->passes[1].tool);
  assert_int_equal(p->passes[1].launch_count, 0);
  assert_int_equal(p->nvariants, 0);
  assert_null(p->variants);
  assert_int_equal(p->ngates, 0);
  assert_true(p->thresholds.warn == 0.05);
  assert_true(p->thresholds.fail < 0);
  assert_true(p->thresholds.alpha == 0.05);
  assert_string_equal(p->sampler.tool, "auto");
  assert_true(p->sampler.interval_ms == 2.0);
  assert_null(p->categories);
  assert_int_equal(p->ncategories, 0);
  hp_plan_free(p);
}

/* Null (`key:` or `~`) means "use the default", not the string "null". */
static void test_null_is_default(void **state)
{
  hp_plan *p = load_ok(BASE "name:\nrepeat: ~\noutput: null\nthresholds:\nsampler:\n"
                            "profiler: {tool: ~}\n");

  (void)state;
  assert_string_equal(p->name, "t");
  assert_int_equal(p->repeat, 1);
  assert_string_equal(p->output, "hprun-out");
  assert_string_equal(p->profiler.tool, "hipprof");
  assert_string_equal(p->sampler.tool, "auto");
  hp_plan_free(p);
  /* Quoted, it is a string. */
  p = load_ok(BASE "output: 'null'\n");
  assert_string_equal(p->output, "null");
  hp_plan_free(p);
}

static void test_command_forms(void **state)
{
  hp_plan *p;

  (void)state;
  p = load_ok("app:\n  command: ./app --label \"two words\" 'it''s' \\$HOME\n"
              "metrics: [m]\npasses: [normal]\n");
  assert_words(&p->app.command,
               (const char *const[]){"./app", "--label", "two words", "its", "$HOME", NULL});
  hp_plan_free(p);
  p = load_ok("app:\n  command:\n    - ./app\n    - --label\n    - two words\n    - ''\n"
              "metrics: [m]\npasses: [normal]\n");
  assert_words(&p->app.command, (const char *const[]){"./app", "--label", "two words", "", NULL});
  hp_plan_free(p);
  /* Numbers and the like in a list are strings, exactly as written. */
  p = load_ok("app: {command: [./app, 100, 1.50, true]}\nmetrics: [m]\npasses: [normal]\n");
  assert_words(&p->app.command, (const char *const[]){"./app", "100", "1.50", "true", NULL});
  hp_plan_free(p);
}

/* A plan without `metrics` (or with an empty list) is valid: the built-in wall_ms is its only,
 * hence primary, metric, and a gate may name it. */
static void test_no_metrics_wall_primary(void **state)
{
  const char *texts[] = {"app: {command: x}\npasses: [normal]\n",
                         "app: {command: x}\nmetrics: []\npasses: [normal]\n"
                         "variants: [{name: a, command: x}, {name: b, command: y}]\n"
                         "gates: [{metric: wall_ms, max_rel_delta: 10%}]\n"};
  size_t i;

  (void)state;
  for (i = 0; i < 2; i++) {
    hp_plan *p = load_ok(texts[i]);
    assert_int_equal(p->nmetrics, 1);
    assert_string_equal(p->metrics[0].name, "wall_ms");
    assert_string_equal(p->metrics[0].unit, "ms");
    assert_null(p->metrics[0].pattern);
    assert_true(p->metrics[0].wall);
    assert_true(p->metrics[0].tolerance < 0);
    hp_plan_free(p);
  }
}

/* `app.prepare` and `app.cleanup` are words (split as a shell would) or lists; variants inherit
 * them; an empty one is an error. */
static void test_app_hooks(void **state)
{
  hp_plan *p =
      load_ok("app:\n  command: x\n  prepare: \"sh -c 'echo x'\"\n"
              "  cleanup: [rm, -f, cache.bin]\n"
              "passes: [normal]\nvariants: [{name: a, command: y}, {name: b, command: z}]\n");

  (void)state;
  assert_words(&p->app.prepare, (const char *const[]){"sh", "-c", "echo x", NULL});
  assert_words(&p->app.cleanup, (const char *const[]){"rm", "-f", "cache.bin", NULL});
  assert_words(&p->variants[1].app.prepare, (const char *const[]){"sh", "-c", "echo x", NULL});
  assert_words(&p->variants[1].app.cleanup, (const char *const[]){"rm", "-f", "cache.bin", NULL});
  hp_plan_free(p);
  p = load_ok("app: {command: x}\npasses: [normal]\n");
  assert_int_equal(p->app.prepare.n, 0);
  assert_int_equal(p->app.cleanup.n, 0);
  hp_plan_free(p);
  expect_error1("app: {command: x, prepare: []}\npasses: [normal]\n", 1, 28,
                "`app.prepare` is empty", NULL);
  expect_error1("app: {command: x, cleanup: {a: b}}\npasses: [normal]\n", 1, 28, "app.cleanup",
                NULL);
}

/* The shorthand `- name` means {name, pattern: 'name=([-+0-9.eE]+)'}; check it really matches
 * what the article's app prints. */
/* A pass's own `repeat` and `env`, `thresholds.strict`, and their errors at line:col. */
static void test_pass_repeat_env(void **state)
{
  hp_plan *p = load_ok("app: {command: x}\nrepeat: 10\nthresholds: {strict: true}\n"
                       "passes:\n  - normal\n"
                       "  - {name: memcheck, mode: command, command: [cs, '{app}'], repeat: 1,\n"
                       "     env: {PYTORCH_NO_CUDA_MEMORY_CACHING: '1'}}\n");

  (void)state;
  assert_int_equal(p->repeat, 10);
  assert_int_equal(p->passes[0].repeat, 0);
  assert_int_equal(p->passes[1].repeat, 1);
  assert_int_equal(p->passes[1].nenv, 1);
  assert_string_equal(p->passes[1].env[0].key, "PYTORCH_NO_CUDA_MEMORY_CACHING");
  assert_string_equal(p->passes[1].env[0].value, "1");
  assert_int_equal(p->thresholds.strict, 1);
  hp_plan_free(p);
  expect_error1("app: {command: x}\npasses: [normal, {mode: command, command: [a, '{app}'], "
                "repeat: 0}]\n",
                2, 65, "`repeat` must be an integer >= 1", NULL);
  expect_error1("app: {command: x}\npasses: [normal, {mode: command, command: [a, '{app}'], "
                "env: [A]}]\n",
                2, 62, "`env` must be a mapping", NULL);
  expect_error1("app: {command: x}\nthresholds: {strict: yes}\npasses: [normal]\n", 2, 22,
                "thresholds.strict", NULL);
}

static void test_metric_shorthand(void **state)
{
  hp_plan *p = load_ok("app: {command: x}\nmetrics: [mean_kernel_ms, gpu.ms, {name: bw}]\n"
                       "passes: [normal]\n");
  regex_t re;
  regmatch_t m[2];
  const char *line = "elements=1048576 mean_kernel_ms=0.0185488 max_abs_error=0";

  (void)state;
  assert_int_equal(p->nmetrics, 4);
  assert_string_equal(p->metrics[0].pattern, "mean_kernel_ms=([-+0-9.eE]+)");
  assert_null(p->metrics[0].unit);
  assert_int_equal(regcomp(&re, p->metrics[0].pattern, REG_EXTENDED), 0);
  assert_int_equal(regexec(&re, line, 2, m, 0), 0);
  assert_int_equal(m[1].rm_eo - m[1].rm_so, (regoff_t)strlen("0.0185488"));
  assert_memory_equal(line + m[1].rm_so, "0.0185488", 9);
  regfree(&re);
  /* A '.' in the name is matched literally. */
  assert_string_equal(p->metrics[1].pattern, "gpu\\.ms=([-+0-9.eE]+)");
  assert_int_equal(regcomp(&re, p->metrics[1].pattern, REG_EXTENDED), 0);
  assert_int_equal(regexec(&re, "gpuXms=1", 0, NULL, 0), REG_NOMATCH);
  assert_int_equal(regexec(&re, "gpu.ms=1", 0, NULL, 0), 0);
  regfree(&re);
  /* A mapping without `pattern` gets the shorthand pattern too. */
  assert_string_equal(p->metrics[2].pattern, "bw=([-+0-9.eE]+)");
  hp_plan_free(p);
}

static void test_modes_per_tool(void **state)
{
  hp_plan *p;

  (void)state;
  p = load_ok(
      "app: {command: x}\nmetrics: [m]\nprofiler: {tool: rocprofv3}\n"
      "passes: [normal, kernel-trace, sys-trace, pmc, "
      "{name: nc, mode: full, tool: ncu}, {name: hp, mode: kernel-stack, tool: hipprof}]\n");
  assert_int_equal(p->npasses, 6);
  assert_string_equal(p->passes[4].tool, "ncu");
  hp_plan_free(p);
  /* The same mode is wrong for another tool. */
  expect_error1("app: {command: x}\nmetrics: [m]\nprofiler: {tool: rocprofv3}\n"
                "passes: [normal, kernel-stack]\n",
                4, 18, "mode `kernel-stack` is not a mode of rocprofv3",
                "(modes: normal, command, kernel-trace", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: trace, tool: ncu}]\n", 3,
                25, "mode `trace` is not a mode of ncu", "time, basic, full, default", NULL);
}

static void test_sampler_forms(void **state)
{
  hp_plan *p;

  (void)state;
  p = load_ok(BASE "sampler: none\n");
  assert_string_equal(p->sampler.tool, "none");
  hp_plan_free(p);
  p = load_ok(BASE "sampler: {command: \"./mem.sh --mib\", interval: 1s}\n");
  assert_string_equal(p->sampler.tool, "command"); /* implied by `command:` */
  assert_words(&p->sampler.command, (const char *const[]){"./mem.sh", "--mib", NULL});
  assert_true(p->sampler.interval_ms == 1000.0);
  hp_plan_free(p);
  p = load_ok(BASE "sampler: {tool: command, command: [hy-smi, --showmemuse]}\n");
  assert_string_equal(p->sampler.tool, "command");
  hp_plan_free(p);
}

static void test_variants_reference_default(void **state)
{
  hp_plan *p = load_ok(BASE "variants:\n  - {name: a, command: ./a}\n  - {name: b, command: ./b, "
                            "reference: false}\n");

  (void)state;
  assert_int_equal(p->nvariants, 2);
  assert_int_equal(p->variants[0].reference, 1);
  assert_int_equal(p->variants[1].reference, 0);
  assert_int_equal(p->variants[1].app.nenv, 0);
  assert_null(p->variants[1].app.cwd);
  hp_plan_free(p);
}

static void test_numbers(void **state)
{
  hp_plan *p;

  (void)state;
  p = load_ok(BASE "repeat: 100000\nwarmup: 0\nseed: 18446744073709551615\n"
                   "thresholds: {warn: 0, fail: 50%, alpha: .1}\n");
  assert_int_equal(p->repeat, 100000);
  assert_true(p->seed == UINT64_MAX);
  assert_true(p->thresholds.warn == 0);
  assert_true(p->thresholds.fail == 0.5);
  assert_true(p->thresholds.alpha == 0.1);
  hp_plan_free(p);
  p = load_ok(BASE "repeat: '3'\nseed: 0\n"); /* a quoted number is still that number */
  assert_int_equal(p->repeat, 3);
  assert_true(p->seed == 0);
  hp_plan_free(p);
}

static void test_load_file(void **state)
{
  hp_plan *p = NULL;
  hp_diags d;
  char *text = NULL;
  FILE *fp;
  long n;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load(FIXTURES "/good/vector-add.plan.yaml", &p, &d), 0);
  assert_int_equal(d.count, 0);
  assert_string_equal(p->file, FIXTURES "/good/vector-add.plan.yaml");
  assert_string_equal(p->dir, FIXTURES "/good");
  assert_string_equal(p->name, "vector-add.plan");
  assert_int_equal(p->repeat, 5);
  assert_true(p->app.timeout == 120.0);
  assert_int_equal(p->npasses, 4);
  assert_string_equal(p->passes[3].kernel, "vector_add");
  assert_int_equal(p->passes[3].expect_distorted, 1);
  /* The raw bytes are kept for the manifest. */
  fp = fopen(FIXTURES "/good/vector-add.plan.yaml", "rb");
  assert_non_null(fp);
  fseek(fp, 0, SEEK_END);
  n = ftell(fp);
  rewind(fp);
  text = malloc((size_t)n);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  assert_int_equal(p->text_len, (size_t)n);
  assert_memory_equal(p->text, text, (size_t)n);
  free(text);
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_load_missing_file(void **state)
{
  hp_plan *p = (hp_plan *)&p;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load(FIXTURES "/no-such-plan.yaml", &p, &d), HP_ENOENT);
  assert_null(p);
  assert_int_equal(d.nerrors, 1);
  assert_string_equal(d.head->file, FIXTURES "/no-such-plan.yaml");
  assert_int_equal(d.head->line, 0);
  expect_msg(d.head->msg, "cannot read: %s", strerror(ENOENT));
  hp_diags_free(&d);
}

/* A folder, an unreadable file and a file over the size limit: one message naming the file, with
 * the system's reason, and nothing read into a plan. */
static void test_load_unreadable(void **state)
{
  char dir[] = "/tmp/hprun-plan.XXXXXX", path[64];
  hp_plan *p = (hp_plan *)&p;
  hp_diags d;

  (void)state;
  assert_non_null(mkdtemp(dir));
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load(dir, &p, &d), HP_EPLAN); /* a folder is not a plan */
  assert_null(p);
  assert_int_equal(d.count, 1);
  assert_string_equal(d.head->file, dir);
  expect_msg(d.head->msg, "cannot read: %s", strerror(EISDIR));
  hp_diags_free(&d);

  /* Root reads any file whatever its mode bits, so EACCES can only be seen by another user. */
  snprintf(path, sizeof(path), "%s/locked.yaml", dir);
  write_file(path, BASE, strlen(BASE));
  assert_int_equal(chmod(path, 0), 0);
  if (geteuid() != 0) {
    assert_int_equal(hp_plan_load(path, &p, &d), HP_EIO);
    assert_null(p);
    assert_int_equal(d.count, 1);
    expect_msg(d.head->msg, "cannot read: %s", strerror(EACCES));
    hp_diags_free(&d);
  }
  unlink(path);
  rmdir(dir);
}

/* A size over the limit is refused from the file's size, before it is read; a pipe or a device is
 * read one byte past the limit and no further. Exactly the limit is allowed. */
static void test_load_size_limit(void **state)
{
  char dir[] = "/tmp/hprun-plan.XXXXXX", path[64];
  size_t mib = (size_t)1 << 20;
  char *text = malloc(2 * mib + 1);
  hp_plan *p = (hp_plan *)&p;
  hp_diags d;

  (void)state;
  assert_non_null(text);
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/big.yaml", dir);
  /* A valid plan padded with a comment to exactly 1 MiB loads. */
  memcpy(text, BASE, strlen(BASE));
  memset(text + strlen(BASE), '#', mib - strlen(BASE) - 1);
  text[mib - 1] = '\n';
  write_file(path, text, mib);
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load(path, &p, &d), 0);
  assert_int_equal(d.count, 0);
  assert_int_equal(p->text_len, mib);
  hp_plan_free(p);
  /* One byte more does not: in a file, and from memory. */
  text[mib] = '\n';
  write_file(path, text, mib + 1);
  assert_int_equal(hp_plan_load(path, &p, &d), HP_EPLAN);
  assert_null(p);
  assert_int_equal(d.count, 1);
  assert_int_equal(d.head->line, 0);
  assert_string_equal(d.head->msg, "the plan is 1048577 bytes; plans are limited to 1 MiB");
  hp_diags_free(&d);
  assert_int_equal(hp_plan_load_string("s.yaml", NULL, text, mib + 1, &p, &d), HP_EPLAN);
  assert_string_equal(d.head->file, "s.yaml");
  assert_string_equal(d.head->msg, "the plan is 1048577 bytes; plans are limited to 1 MiB");
  hp_diags_free(&d);
  memset(text + mib, '#', mib);
  write_file(path, text, 2 * mib);
  assert_int_equal(hp_plan_load(path, &p, &d), HP_EPLAN);
  assert_string_equal(d.head->msg, "the plan is 2 MiB; plans are limited to 1 MiB");
  hp_diags_free(&d);
  /* /dev/zero never ends: only its first MiB and one byte are read. */
  assert_int_equal(hp_plan_load("/dev/zero", &p, &d), HP_EPLAN);
  assert_string_equal(d.head->msg, "the plan is more than 1 MiB; plans are limited to 1 MiB");
  hp_diags_free(&d);
  unlink(path);
  rmdir(dir);
  free(text);
}

static void test_dir_and_name_defaults(void **state)
{
  hp_plan *p = NULL;
  const char *text = BASE;

  (void)state;
  assert_int_equal(hp_plan_load_string("my plan!.yml", NULL, text, strlen(text), &p, NULL), 0);
  assert_string_equal(p->dir, ".");
  assert_string_equal(p->name, "my_plan_"); /* a default is made valid, never an error */
  hp_plan_free(p);
  assert_int_equal(hp_plan_load_string(NULL, "d", text, strlen(text), &p, NULL), 0);
  assert_string_equal(p->name, "_string_");
  assert_string_equal(p->file, "<string>");
  hp_plan_free(p);
  hp_plan_free(NULL);
}

/* Every example plan shipped in configs/examples/ must load. */
static void test_examples_load(void **state)
{
  glob_t g;
  hp_plan *p;
  hp_diags d;
  size_t i;
  int r;

  (void)state;
  assert_int_equal(glob("configs/examples/*.yaml", 0, NULL, &g), 0);
  assert_true(g.gl_pathc >= 3);
  for (i = 0; i < g.gl_pathc; i++) {
    hp_diags_init(&d);
    p = NULL;
    r = hp_plan_load(g.gl_pathv[i], &p, &d);
    if (r != 0 || d.count) {
      dump(&d);
      fail_msg("%s does not load", g.gl_pathv[i]);
    }
    hp_plan_free(p);
    hp_diags_free(&d);
  }
  globfree(&g);
}

/* ---------------------------------------------------------------------------------------------- */
/* Errors, each at its exact position                                                              */

static void test_err_empty(void **state)
{
  hp_plan *p = (hp_plan *)&p;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load_string("t.yaml", NULL, "", 0, &p, &d), HP_EPLAN);
  assert_null(p);
  assert_int_equal(d.count, 1);
  assert_int_equal(d.head->line, 1);
  assert_int_equal(d.head->col, 1);
  assert_non_null(strstr(d.head->msg, "empty plan"));
  hp_diags_free(&d);
  expect_error1("\n\n# nothing\n", 1, 1, "empty plan", NULL);
}

static void test_err_root_not_mapping(void **state)
{
  (void)state;
  expect_error1("[normal, stats]\n", 1, 1, "a plan must be a mapping", "got a list", NULL);
  expect_error1("\n  hello\n", 2, 3, "a plan must be a mapping", "got a string", NULL);
}

static void test_err_syntax(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal\nrepeat: 2\n", 4, 7,
                "did not find expected ',' or ']'", "(while parsing a flow sequence at line 3)",
                NULL);
  expect_error1("app:\n  command: x\n\tmetrics: [m]\n", 3, 1,
                "found a tab character that violates indentation", NULL);
}

/* `report: {top: N}`: rows per profile table in summary.json and report.md (docs/plan.md). */
static void test_report_top(void **state)
{
  hp_plan *p;

  (void)state;
  p = load_ok(BASE);
  assert_int_equal(p->report_top, 0);
  hp_plan_free(p);
  p = load_ok(BASE "report: {top: 7}\n");
  assert_int_equal(p->report_top, 7);
  hp_plan_free(p);
  p = load_ok(BASE "report:\n  top: 1000\n");
  assert_int_equal(p->report_top, 1000);
  hp_plan_free(p);
  expect_error1(BASE "report: {top: 0}\n", 4, 15, "`report.top` must be an integer >= 1", NULL);
  expect_error1(BASE "report: {top: 1001}\n", 4, 15, "`report.top` must be an integer <= 1000",
                NULL);
  expect_error1(BASE "report: {top: many}\n", 4, 15, "`report.top`", NULL);
  expect_error1(BASE "report: {tpo: 3}\n", 4, 10, "unknown key `tpo` in `report` (known keys: top)",
                NULL);
  expect_error1(BASE "report: 20\n", 4, 9, "`report`", NULL);
}

/* app.region with a tool that only records the range (hipprof): the plan loads, with one
 * warning at the region's line naming the tool and the pass; with ncu or rocprofv3, whose tables
 * keep to the region, no message. */
static void test_region_warning(void **state)
{
  static const char text[] = "app: {command: ./app, region: timed}\nmetrics: [m]\n"
                             "profiler: {tool: hipprof}\npasses: [normal, {name: kt, mode: "
                             "stats}]\n";
  hp_plan *p = NULL;
  hp_diags d;
  const hp_diag *w;

  (void)state;
  assert_int_equal(load_text(text, &p, &d), 0);
  assert_int_equal(d.count, 1);
  w = d.head;
  assert_int_equal(w->level, HP_DIAG_WARNING);
  assert_int_equal(w->line, 1);
  assert_non_null(strstr(w->msg, "`app.region: timed` is not applied to pass `kt`"));
  assert_non_null(strstr(w->msg, "hipprof's kernels (it records the range, --hiptx-trace)"));
  hp_diags_free(&d);
  hp_plan_free(p);
  p = load_ok("app: {command: ./app, region: timed}\nmetrics: [m]\nprofiler: {tool: ncu}\n"
              "passes: [normal, {name: t, mode: time}]\n");
  hp_plan_free(p);
  p = load_ok("app: {command: ./app, region: timed}\nmetrics: [m]\nprofiler: {tool: rocprofv3}\n"
              "passes: [normal, {name: kt, mode: kernel-trace}]\n");
  hp_plan_free(p);
}

static void test_err_unknown_key(void **state)
{
  (void)state;
  expect_error1(BASE "repaet: 3\n", 4, 1, "unknown key `repaet` at the top level",
                "(did you mean `repeat`?)", NULL);
  expect_error1(BASE "Passes: []\n", 4, 1, "unknown key `Passes`", "did you mean `passes`?", NULL);
  expect_error1(
      BASE "colour: blue\n", 4, 1, "unknown key `colour`",
      "(known keys: name, output, "
      "repeat, warmup, order, seed, app, profiler, metrics, passes, variants, gates, "
      "thresholds, sampler, categories, keep_going, roofline, parameters, launcher, report, "
      "reference)",
      NULL);
  expect_error1("app: {command: x, cwdd: /tmp}\nmetrics: [m]\npasses: [normal]\n", 1, 19,
                "unknown key `cwdd` in `app` (did you mean `cwd`?)", NULL);
  expect_error1(BASE "profiler: {tol: ncu}\n", 4, 12,
                "unknown key `tol` in `profiler` (did you mean `tool`?)", NULL);
  expect_error1(
      "app: {command: x}\nmetrics: [m]\npasses:\n  - normal\n  - {mode: pmc, kernal: k}\n", 5, 17,
      "unknown key `kernal` in `passes` (did you mean `kernel`?)", NULL);
  expect_error1(BASE "thresholds: {worn: 1}\n", 4, 14, "did you mean `warn`?", NULL);
  expect_error1(BASE "[a]: 1\n", 4, 1, "keys at the top level must be strings, got a list", NULL);
}

static void test_err_duplicate_key(void **state)
{
  (void)state;
  expect_error1(BASE "repeat: 2\nrepeat: 3\n", 5, 1, "duplicate key `repeat` (first at line 4)",
                NULL);
  expect_error1("app:\n  command: x\n  env: {A: 1, B: 2, A: 3}\nmetrics: [m]\npasses: [normal]\n",
                3, 21, "duplicate key `A` (first at line 3)", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses:\n  - normal\n  - mode: stats\n"
                "    mode: trace\n",
                6, 5, "duplicate key `mode` (first at line 5)", NULL);
}

static void test_err_types(void **state)
{
  (void)state;
  expect_error1(BASE "repeat: [1, 2]\n", 4, 9, "`repeat` must be an integer, got a list", NULL);
  expect_error1(BASE "warmup: {a: 1}\n", 4, 9, "`warmup` must be an integer, got a mapping", NULL);
  expect_error1(BASE "name: [a]\n", 4, 7, "`name` must be a string, got a list", NULL);
  expect_error1("app: {command: {a: b}}\nmetrics: [m]\npasses: [normal]\n", 1, 16,
                "`app.command` must be a list of strings or a string, got a mapping", NULL);
  expect_error1("app: [x]\nmetrics: [m]\npasses: [normal]\n", 1, 6,
                "`app` must be a mapping (key: value lines), got a list", NULL);
  expect_error1("app: {command: x}\nmetrics: m\npasses: [normal]\n", 2, 10,
                "`metrics` must be a list, got a string", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: {normal: 1}\n", 3, 9,
                "`passes` must be a list, got a mapping", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, [stats]]\n", 3, 18,
                "a pass must be a mode name or a mapping", "got a list", NULL);
  expect_error1("app: {command: x}\nmetrics: [[m]]\npasses: [normal]\n", 2, 11,
                "a metric must be a name or a mapping", "got a list", NULL);
  expect_error1("app: {command: [./x, [a]]}\nmetrics: [m]\npasses: [normal]\n", 1, 22,
                "items of `app.command` must be strings, got a list", NULL);
  expect_error1("app: {command: [./x, ~]}\nmetrics: [m]\npasses: [normal]\n", 1, 22,
                "items of `app.command` must be strings, got nothing (null)", NULL);
  expect_error1("app: {command: x, env: {A: [1]}}\nmetrics: [m]\npasses: [normal]\n", 1, 28,
                "`app.env.A` must be a string, got a list", NULL);
  expect_error1("app: {command: x, env: [A=1]}\nmetrics: [m]\npasses: [normal]\n", 1, 24,
                "`app.env` must be a mapping", NULL);
  expect_error1("app: {command: x, env: {A=B: 1}}\nmetrics: [m]\npasses: [normal]\n", 1, 25,
                "`app.env` keys must be variable names", NULL);
  expect_error1(BASE "gates: {metric: m}\n", 4, 8, "`gates` must be a list, got a mapping", NULL);
  expect_error1(BASE "sampler: [none]\n", 4, 10, "`sampler` must be a tool name or a mapping",
                NULL);
  expect_error1(BASE "name: \"a\\0b\"\n", 4, 7, "`name` must not contain a NUL character", NULL);
}

static void test_err_numbers(void **state)
{
  (void)state;
  expect_error1(BASE "repeat: 0\n", 4, 9, "`repeat` must be an integer >= 1, got '0'", NULL);
  expect_error1(BASE "repeat: 1.5\n", 4, 9, "`repeat` must be an integer >= 1, got '1.5'", NULL);
  expect_error1(BASE "repeat: 0x10\n", 4, 9, "`repeat` must be an integer >= 1, got '0x10'", NULL);
  expect_error1(BASE "repeat: 100001\n", 4, 9,
                "`repeat` must be an integer <= 100000, got "
                "'100001'",
                NULL);
  expect_error1(BASE "repeat: 99999999999999999999\n", 4, 9, "must be an integer <= 100000", NULL);
  expect_error1(BASE "warmup: -1\n", 4, 9, "`warmup` must be an integer >= 0, got '-1'", NULL);
  expect_error1(BASE "seed: -3\n", 4, 7, "`seed` must be a non-negative integer", "got '-3'", NULL);
  expect_error1(BASE "seed: 18446744073709551616\n", 4, 7, "`seed` must be a non-negative integer",
                NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: time, tool: ncu, "
                "launch_count: 0}]\n",
                3, 56, "`launch_count` must be an integer >= 1, got '0'", NULL);
  expect_error1(BASE "thresholds: {warn: lots}\n", 4, 20, "`thresholds.warn` must be a number",
                "got 'lots'", NULL);
  expect_error1(BASE "thresholds: {warn: -1%}\n", 4, 20, "`thresholds.warn` must be >= 0", NULL);
  expect_error1(BASE "thresholds: {fail: 0}\n", 4, 20, "`thresholds.fail` must be > 0", NULL);
  expect_error1(BASE "thresholds: {alpha: 1}\n", 4, 21,
                "`thresholds.alpha` must be between 0 "
                "and 1",
                NULL);
  expect_error1(BASE "thresholds: {alpha: inf}\n", 4, 21, "`thresholds.alpha` must be a number",
                NULL);
}

static void test_err_enums(void **state)
{
  (void)state;
  expect_error1(BASE "order: shuffled\n", 4, 8,
                "`order` must be one of interleaved, sequential, "
                "abba, random, got 'shuffled'",
                NULL);
  expect_error1(BASE "order: randm\n", 4, 8, "(did you mean `random`?)", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: pmc, expect: bad}]\n", 3,
                38, "`expect` must be one of ok, distorted, got 'bad'", NULL);
  expect_error1("app: {command: x}\nmetrics: [{name: m, better: more}]\npasses: [normal]\n", 2, 29,
                "`better` must be one of lower, higher, got 'more'", NULL);
  expect_error1(BASE "sampler: {tool: hy_smi}\n", 4, 17,
                "`sampler.tool` must be one of auto, "
                "none, nvidia-smi, rocm-smi, hy-smi, command",
                "did you mean `hy-smi`?", NULL);
  expect_error1(BASE "profiler: {tool: hipprf}\n", 4, 18, "unknown profiler 'hipprf'",
                "(known: hipprof, rocprofv3, rocprof, ncu, nsys, torch; did you mean `hipprof`?)",
                NULL);
}

static void test_err_missing(void **state)
{
  (void)state;
  expect_error1("metrics: [m]\npasses: [normal]\n", 1, 1, "missing `app`", NULL);
  expect_error1("app:\nmetrics: [m]\npasses: [normal]\n", 1, 1, "missing `app`", NULL);
  expect_error1("app: {cwd: /tmp}\nmetrics: [m]\npasses: [normal]\n", 1, 6, "missing `app.command`",
                NULL);
  expect_error1("app: {command: }\nmetrics: [m]\npasses: [normal]\n", 1, 7, "missing `app.command`",
                NULL);
  expect_error1("app: {command: x}\nmetrics: [m, wall_ms]\npasses: [normal]\n", 2, 14,
                "`wall_ms` is a built-in metric", NULL);
  expect_error1(
      "app: {command: x}\nmetrics: [{name: wall_ms, pattern: 'w=(1)'}]\npasses: [normal]\n", 2, 11,
      "`wall_ms` is a built-in metric", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\n", 1, 1, "missing `passes`", NULL);
  expect_error1("app: {command: x}\nmetrics: [{pattern: 'x=(1)'}]\npasses: [normal]\n", 2, 11,
                "a metric needs a `name`", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: p}]\n", 3, 18,
                "a pass needs a `mode`", NULL);
}

static void test_err_empty_command(void **state)
{
  (void)state;
  expect_error1("app: {command: []}\nmetrics: [m]\npasses: [normal]\n", 1, 16,
                "`app.command` is empty", NULL);
  expect_error1("app: {command: '  '}\nmetrics: [m]\npasses: [normal]\n", 1, 16,
                "`app.command` is empty", NULL);
  expect_error1("app: {command: \"./x 'oops\"}\nmetrics: [m]\npasses: [normal]\n", 1, 16,
                "`app.command` has an unterminated quote", NULL);
}

static void test_err_baseline(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [stats, trace]\n", 3, 1,
                "no baseline: add a pass with mode normal", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: []\n", 3, 1,
                "no baseline: add a pass with mode normal", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses:\n  - normal\n  - stats\n"
                "  - {name: base2, mode: normal}\n",
                6, 25, "a second baseline", "pass `base2` has mode normal",
                "pass `normal` (line 4) is already the baseline", NULL);
}

static void test_err_pass_names(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, stats, {mode: stats}]\n", 3, 32,
                "duplicate pass name `stats` (first at line 3)", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses:\n  - normal\n  - {name: x, mode: stats}\n"
                "  - {name: x, mode: trace}\n",
                6, 12, "duplicate pass name `x` (first at line 5)", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: 'a b', mode: stats}]\n",
                3, 25, "pass name 'a b' is not a valid name", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: .., mode: stats}]\n", 3,
                25, "pass name '..' is not a valid name", NULL);
  expect_error1(BASE "name: ../up\n", 4, 7, "`name` '../up' is not a valid name", NULL);
}

static void test_err_reserved_names(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses:\n  - normal\n"
                "  - {name: summary.json, mode: stats}\n",
                5, 12, "pass name 'summary.json' is reserved for the session's own files", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: build, mode: stats}]\n",
                3, 25, "pass name 'build' is reserved", NULL);
  expect_error1(BASE "variants:\n  - {name: a, command: x}\n  - {name: report.md, command: y}\n", 6,
                12, "variant name 'report.md' is reserved for the session's own files", NULL);
  /* Whatever the case: the session folder may be on a case-insensitive file system. */
  expect_error1(BASE "variants:\n  - name: Manifest.JSON\n    command: y\n", 5, 11,
                "variant name 'Manifest.JSON' is reserved", NULL);
  expect_error(BASE
               "variants:\n  - {name: plan.yaml, command: x}\n  - {name: report.html, command: "
               "y}\n",
               6, 12, "variant name 'report.html' is reserved", NULL);
  /* Names that only look like them are fine. */
  hp_plan_free(load_ok("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: summary, mode: "
                       "stats}, {name: report.md.d, mode: trace}, {name: builds, mode: pmc}]\n"));
}

/* `n` copies of `unit` after `head`, in a new string. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
  size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail), i;
  char *s = malloc(hl + n * ul + tl + 1);

  assert_non_null(s);
  memcpy(s, head, hl);
  for (i = 0; i < n; i++)
    memcpy(s + hl + i * ul, unit, ul);
  memcpy(s + hl + n * ul, tail, tl + 1);
  return s;
}

/* A staircase of `n` keys, each one column further right: n levels of block mappings. */
static char *staircase(const char *head, size_t n)
{
  size_t hl = strlen(head), i, len = hl;
  char *s = malloc(hl + n * (n + 8) + 1);

  assert_non_null(s);
  memcpy(s, head, hl);
  for (i = 0; i < n; i++) {
    memset(s + len, ' ', i);
    len += i;
    len += (size_t)sprintf(s + len, "k%zu:\n", i);
  }
  s[len] = '\0';
  return s;
}

/* Loads `text` and says whether any message is about nesting. */
static int nesting_refused(const char *text, size_t len)
{
  hp_plan *p = NULL;
  hp_diags d;
  const hp_diag *m;
  int r, found = 0;

  hp_diags_init(&d);
  r = hp_plan_load_string("t.yaml", NULL, text, len, &p, &d);
  for (m = d.head; m; m = m->next)
    found |= strstr(m->msg, "nesting") != NULL;
  if (found)
    assert_int_equal(r, HP_EPLAN);
  hp_plan_free(p);
  hp_diags_free(&d);
  return found;
}

/* 64 levels are allowed, the 65th is refused at its line and column, and nothing else is said:
 * libyaml never saw the text. A top-level key is one level. */
static void test_err_depth(void **state)
{
  char *s;

  (void)state;
  s = repeat(BASE "x: ", "[", 63, "");
  assert_false(nesting_refused(s, strlen(s)));
  free(s);
  s = repeat(BASE "x: ", "[", 64, "");
  expect_error1(s, 4, 67, "nesting deeper than 64 levels", NULL);
  free(s);
  s = repeat(BASE "x: ", "{a: ", 100000, ""); /* far too deep: refused at once */
  expect_error1(s, 4, 4 + 63 * 4, "nesting deeper than 64 levels", NULL);
  free(s);
  /* Block collections: a sequence in a sequence on one line, and a staircase of mappings. */
  s = repeat(BASE "x:\n  ", "- ", 63, "a\n");
  assert_false(nesting_refused(s, strlen(s)));
  free(s);
  s = repeat(BASE "x:\n  ", "- ", 64, "a\n");
  expect_error1(s, 5, 129, "nesting deeper than 64 levels", NULL);
  free(s);
  s = staircase(BASE, 64);
  assert_false(nesting_refused(s, strlen(s)));
  free(s);
  s = staircase(BASE, 65);
  expect_error1(s, 68, 65, "nesting deeper than 64 levels", NULL);
  free(s);
  /* Block and flow levels add up: 32 keys, then 32 brackets are 64; one more is too many. */
  s = staircase("", 32);
  s = realloc(s, strlen(s) + 64);
  assert_non_null(s);
  memset(s + strlen(s) - 1, ' ', 1);
  strcat(s, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
  assert_false(nesting_refused(s, strlen(s)));
  strcat(s, "[");
  expect_error1(s, 32, 69, "nesting deeper than 64 levels", NULL);
  free(s);
  /* UTF-16 (libyaml reads it after a byte order mark) is counted too. */
  {
    char *u16 = calloc(2, 200), *p = u16;
    size_t i;
    assert_non_null(u16);
    *p++ = (char)0xFF;
    *p++ = (char)0xFE;
    for (i = 0; i < 70; i++, p += 2)
      *p = i == 0 ? 'x' : i == 1 ? ':' : i == 2 ? ' ' : '[';
    assert_true(nesting_refused(u16, (size_t)(p - u16)));
    free(u16);
  }
}

/* What looks like nesting inside text is text: quoted strings (with their escapes), comments,
 * block scalars and the continuation lines of plain strings never count. */
static void test_depth_ignores_text(void **state)
{
  char *sq = repeat("", "[", 70, ""), *dash = repeat("", "- ", 70, ""), *text;
  char *plan = malloc(4096);

  (void)state;
  assert_non_null(plan);
  snprintf(plan, 4096,
           "# %s\n"
           "app:\n"
           "  command: [\"./app\", \"%s\", '%s it''s', \"\\\"%s\", \"two\n"
           "    lines %s\"]  # %s\n"
           "  env:\n"
           "    BLOCK: |\n"
           "      %s\n"
           "\n"
           "      %s\n"
           "    FOLDED: >-\n"
           "      %s\n"
           "    PLAIN: a%s\n"
           "      %s continued\n"
           "      %s\n"
           "metrics: [m]\n"
           "passes: [normal]\n",
           sq, sq, sq, sq, sq, sq, sq, dash, sq, sq, sq, dash);
  text = plan;
  hp_plan_free(load_ok(text));
  free(sq);
  free(dash);
  free(plan);
}

static void test_err_bad_mode(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, stat]\n", 3, 18,
                "mode `stat` is not a mode of hipprof",
                "(modes: normal, command, trace, stats, "
                "kernel-stack, pmc",
                "did you mean `stats`?", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: sampling}]\n", 3, 25,
                "mode `sampling` is not a mode of hipprof", NULL);
  /* A bad name that is also a bad mode gets both messages, at the same place. */
  expect_error("app: {command: x}\nmetrics: [m]\npasses: [normal, 'kernel stack']\n", 3, 18,
               "pass name 'kernel stack' is not a valid name", NULL);
  expect_error("app: {command: x}\nmetrics: [m]\npasses: [normal, 'kernel stack']\n", 3, 18,
               "mode `kernel stack` is not a mode of hipprof", NULL);
  /* An unknown tool is reported once; its modes are not judged against another tool. */
  expect_error1("app: {command: x}\nmetrics: [m]\nprofiler: {tool: nsight}\n"
                "passes: [normal, whatever]\n",
                3, 18, "unknown profiler 'nsight'", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: x, tool: nvprof}]\n", 3,
                34, "`tool`: unknown profiler 'nvprof'", NULL);
}

static void test_err_command_mode(void **state)
{
  hp_plan *p;

  (void)state;
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: vg, command: [valgrind, "
                "./x]}]\n",
                3, 38, "`command` must contain {app}", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, command]\n", 3, 18,
                "mode `command` needs `command:`", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: stats, command: "
                "[a, '{app}']}]\n",
                3, 41, "`command` is only used by mode `command`", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: c, command: []}]\n", 3,
                37, "`command` is empty", NULL);
  /* {app} expands to several words, so inside a longer word it is refused, with a hint. */
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: t, command: "
                "\"sh -c 'time {app}'\"}]\n",
                3, 37, "{app} must be a word of its own", "found it inside 'time {app}'", NULL);
  /* As a word, with {dir} anywhere (the string form is split into words first). */
  p = load_ok("app: {command: x}\nmetrics: [m]\npasses: [normal, {name: t, mode: command, "
              "command: \"sh -c 'time \\\"$@\\\" > {dir}/t.txt' sh {app}\"}]\n");
  assert_words(&p->passes[1].command,
               (const char *const[]){"sh", "-c", "time \"$@\" > {dir}/t.txt", "sh", "{app}", NULL});
  hp_plan_free(p);
}

static void test_err_regex(void **state)
{
  (void)state;
  expect_error1("app: {command: x}\nmetrics:\n  - name: m\n    pattern: 'x=(['\npasses: [normal]\n",
                4, 14, "`pattern` is not a valid extended regular expression: ", NULL);
  expect_error1("app: {command: x}\nmetrics:\n  - name: m\n    pattern: 'x=[0-9]+'\n"
                "passes: [normal]\n",
                4, 14, "exactly one capture group", "it has 0", NULL);
  expect_error1("app: {command: x}\nmetrics:\n  - name: m\n    pattern: '(a)=(b)'\n"
                "passes: [normal]\n",
                4, 14, "exactly one capture group", "it has 2", NULL);
  expect_error1("app: {command: x}\nmetrics: [m, {name: m, pattern: 'm=(1)'}]\npasses: [normal]\n",
                2, 14, "duplicate metric name `m` (first at line 2)", NULL);
  expect_error1("app: {command: x}\nmetrics: ['m s']\npasses: [normal]\n", 2, 11,
                "`metrics` 'm s' is not a valid name", NULL);
}

static void test_err_duration(void **state)
{
  (void)state;
  expect_error1("app: {command: x, timeout: 5 parsecs}\nmetrics: [m]\npasses: [normal]\n", 1, 28,
                "`app.timeout` must be a duration such as 90, 90s, 1.5m, 500ms or 2h, got "
                "'5 parsecs'",
                NULL);
  expect_error1("app: {command: x, timeout: -1m}\nmetrics: [m]\npasses: [normal]\n", 1, 28,
                "`app.timeout` must be a duration >= 0, got '-1m'", NULL);
  expect_error1("app: {command: x}\nmetrics: [m]\npasses: [normal, {mode: stats, timeout: [1]}]\n",
                3, 41, "`timeout` must be a duration, got a list", NULL);
  expect_error1(BASE "sampler: {interval: 0}\n", 4, 21, "`sampler.interval` must be greater than 0",
                NULL);
}

static void test_err_boolean(void **state)
{
  (void)state;
  expect_error1(BASE "variants:\n  - {name: a, command: ./a, reference: yes}\n", 5, 40,
                "`reference` must be true or false, got 'yes'", "write true or false", NULL);
  expect_error1(BASE "variants:\n  - {name: a, command: ./a, reference: On}\n", 5, 40,
                "got 'On' (YAML 1.1 yes/no/on/off are not accepted", NULL);
  expect_error1(BASE "variants:\n  - {name: a, command: ./a, reference: 1}\n", 5, 40,
                "`reference` must be true or false, got '1'", NULL);
}

static void test_err_thresholds(void **state)
{
  (void)state;
  expect_error1(BASE "thresholds: {warn: 0.1, fail: 0.05}\n", 4, 31,
                "`thresholds.fail` (0.05) is below `thresholds.warn` (0.1)", NULL);
  /* Against the default warn (5%). */
  expect_error1(BASE "thresholds: {fail: 1%}\n", 4, 20,
                "`thresholds.fail` (0.01) is below `thresholds.warn` (0.05)", NULL);
}

static void test_err_gates(void **state)
{
  (void)state;
  expect_error1(BASE "gates:\n  - {metric: n, max_abs_delta: 1}\n", 5, 14,
                "gate on unknown metric `n` (declared metrics: m", NULL);
  expect_error1(
      "app: {command: x}\nmetrics: [mean_ms, p99_ms]\npasses: [normal]\n"
      "gates:\n  - {metric: mean_sm, max_rel_delta: 1%}\n",
      5, 14,
      "gate on unknown metric `mean_sm` (declared metrics: mean_ms, p99_ms, wall_ms; did you "
      "mean "
      "`mean_ms`?)",
      NULL);
  expect_error1(BASE "gates:\n  - {metric: m}\n", 5, 5,
                "a gate needs `max_abs_delta`, `max_rel_delta` or both", NULL);
  expect_error1(BASE "gates:\n  - {max_abs_delta: 1}\n", 5, 5, "a gate needs a `metric`", NULL);
  expect_error1(BASE "gates:\n  - {metric: m, max_rel_delta: -2%}\n", 5, 32,
                "`max_rel_delta` must be >= 0", NULL);
  expect_error1(BASE "gates:\n  - {metric: m, max_abs_delta: 5%}\n", 5, 32,
                "`max_abs_delta` must be a number, got '5%'", NULL);
}

static void test_err_variants(void **state)
{
  (void)state;
  expect_error1(BASE "variants:\n  - {name: a, command: ./a, reference: true}\n"
                     "  - {name: b, command: ./b, reference: true}\n",
                6, 40, "two reference variants: `b` and `a` (line 5)", NULL);
  expect_error1(BASE "variants:\n  - {name: a, command: ./a}\n  - {name: a, command: ./b}\n", 6, 12,
                "duplicate variant name `a` (first at line 5)", NULL);
  expect_error1(BASE "variants:\n  - {name: stats, command: ./a}\n", 5, 12,
                "variant name `stats` is also a pass name (line 3)", NULL);
  expect_error1(BASE "variants:\n  - {name: a}\n", 5, 5, "missing `command`", NULL);
  expect_error1(BASE "variants:\n  - {command: ./a}\n", 5, 5, "a variant needs a `name`", NULL);
  expect_error1(BASE "variants:\n  - ./a\n", 5, 5, "a variant must be a mapping", NULL);
}

static void test_err_sampler(void **state)
{
  (void)state;
  expect_error1(BASE "sampler: command\n", 4, 10, "`sampler: command` needs `command:`", NULL);
  expect_error1(BASE "sampler: {tool: command}\n", 4, 17,
                "`sampler.tool: command` needs "
                "`sampler.command`",
                NULL);
  expect_error1(BASE "sampler: {tool: rocm-smi, command: [x]}\n", 4, 36,
                "`sampler.command` is only used with `tool: command` (tool is `rocm-smi`)", NULL);
}

static void test_err_categories(void **state)
{
  (void)state;
  expect_error1(BASE "categories: []\n", 4, 13, "`categories` is empty", NULL);
  expect_error1(BASE "categories:\n  - {name: g, patterns: [gemm, '']}\n", 5, 32,
                "items of `patterns` must not be empty", NULL);
  expect_error1(BASE "categories:\n  - {name: g}\n", 5, 5, "a category needs `patterns`", NULL);
}

/* Many errors come back in one go, sorted by position, and the plan is not returned. */
static void test_err_many_sorted(void **state)
{
  hp_plan *p = NULL;
  hp_diags d;
  const hp_diag *a;
  size_t n = 0;

  (void)state;
  assert_int_equal(load_text("app: {command: []}\nmetrics: [wall_ms]\npasses: [stats]\n"
                             "repeat: 0\norder: x\n",
                             &p, &d),
                   HP_EPLAN);
  assert_null(p);
  for (a = d.head; a; a = a->next, n++)
    if (a->next)
      assert_true(a->line < a->next->line || (a->line == a->next->line && a->col <= a->next->col));
  assert_int_equal(n, 5);
  assert_int_equal(d.nerrors, 5);
  assert_int_equal(d.head->line, 1);
  assert_int_equal(d.tail->line, 5);
  hp_diags_free(&d);
}

/* A diags limit keeps the first messages and counts the rest. */
static void test_err_limit(void **state)
{
  hp_plan *p = NULL;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  d.limit = 2;
  assert_int_equal(hp_plan_load_string("t.yaml", NULL, "repeat: 0\nwarmup: -1\nseed: -1\n",
                                       strlen("repeat: 0\nwarmup: -1\nseed: -1\n"), &p, &d),
                   HP_EPLAN);
  assert_int_equal(d.count, 2);
  assert_true(d.dropped >= 3); /* the three bad numbers, plus the missing app/metrics/passes */
  assert_int_equal(d.head->line, 1);
  hp_diags_free(&d);
  /* And no list at all is fine. */
  assert_int_equal(hp_plan_load_string("t.yaml", NULL, "repeat: 0\n", 10, &p, NULL), HP_EPLAN);
  assert_null(p);
}

/* Reads `# expect: LINE:COL text` lines of a fixture. */
static size_t read_expectations(const char *path, long *lines, long *cols, char (*texts)[256],
                                size_t max)
{
  char buf[1024];
  size_t n = 0, len;
  FILE *fp = fopen(path, "rb");

  if (fp == NULL)
    fail_msg("cannot open %s (run from the repository root)", path);
  while (fgets(buf, sizeof(buf), fp) && n < max) {
    char *s = strstr(buf, "# expect: ");
    int used = 0;
    if (s == NULL)
      continue;
    if (sscanf(s, "# expect: %ld:%ld %n", &lines[n], &cols[n], &used) < 2 || used == 0)
      fail_msg("%s: bad expect line: %s", path, buf);
    snprintf(texts[n], sizeof(texts[n]), "%s", s + used);
    len = strlen(texts[n]);
    while (len && (texts[n][len - 1] == '\n' || texts[n][len - 1] == '\r'))
      texts[n][--len] = '\0';
    n++;
  }
  fclose(fp);
  return n;
}

/* Every bad fixture fails with exactly the messages its comments announce, at their positions. */
static void test_bad_fixtures(void **state)
{
  long lines[64], cols[64];
  char texts[64][256];
  glob_t g;
  size_t i, j, n;
  hp_plan *p;
  hp_diags d;
  int r;

  (void)state;
  assert_int_equal(glob(FIXTURES "/bad/*.yaml", 0, NULL, &g), 0);
  assert_true(g.gl_pathc >= 8);
  for (i = 0; i < g.gl_pathc; i++) {
    const char *path = g.gl_pathv[i];
    hp_category_rule *rules = NULL;
    size_t nrules = 0;
    n = read_expectations(path, lines, cols, texts, 64);
    if (n == 0)
      fail_msg("%s has no `# expect:` lines", path);
    hp_diags_init(&d);
    p = NULL;
    if (strstr(path, "categories"))
      r = hp_categories_load(path, &rules, &nrules, &d);
    else
      r = hp_plan_load(path, &p, &d);
    assert_int_equal(r, HP_EPLAN);
    assert_null(p);
    assert_null(rules);
    for (j = 0; j < n; j++) {
      const hp_diag *hit = find_diag(&d, lines[j], cols[j], texts[j]);
      if (hit == NULL || strcmp(hit->file, path) != 0) {
        dump(&d);
        fail_msg("%s: no error at %ld:%ld containing [%s]", path, lines[j], cols[j], texts[j]);
      }
    }
    if (d.count != n) {
      dump(&d);
      fail_msg("%s: %zu messages, but %zu expected", path, d.count, n);
    }
    hp_diags_free(&d);
  }
  globfree(&g);
}

static void test_categories_load(void **state)
{
  hp_category_rule *rules = NULL;
  size_t n = 0;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_categories_load(FIXTURES "/good/categories.yaml", &rules, &n, &d), 0);
  assert_int_equal(d.count, 0);
  assert_int_equal(n, 2);
  assert_string_equal(rules[0].name, "gemm");
  assert_words(&rules[0].patterns, (const char *const[]){"gemm", "Cijk_", NULL});
  assert_string_equal(rules[1].name, "elementwise");
  assert_words(&rules[1].patterns, (const char *const[]){"vector_add", "elementwise", NULL});
  hp_categories_free(rules, n);
  hp_categories_free(NULL, 3);
  /* A plan is not a categories file. */
  rules = (hp_category_rule *)&rules;
  assert_int_equal(hp_categories_load(FIXTURES "/good/vector-add.plan.yaml", &rules, &n, &d),
                   HP_EPLAN);
  assert_null(rules);
  assert_int_equal(n, 0);
  assert_non_null(find_diag(&d, 2, 1, "unknown key `app` at the top level"));
  assert_non_null(find_diag(&d, 2, 1, "missing `categories`"));
  hp_diags_free(&d);
  assert_int_equal(hp_categories_load(FIXTURES "/nothing.yaml", &rules, &n, &d), HP_EIO);
  assert_int_equal(d.nerrors, 1);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_full_plan),
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_null_is_default),
      cmocka_unit_test(test_command_forms),
      cmocka_unit_test(test_metric_shorthand),
      cmocka_unit_test(test_no_metrics_wall_primary),
      cmocka_unit_test(test_app_hooks),
      cmocka_unit_test(test_pass_repeat_env),
      cmocka_unit_test(test_modes_per_tool),
      cmocka_unit_test(test_sampler_forms),
      cmocka_unit_test(test_variants_reference_default),
      cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_load_file),
      cmocka_unit_test(test_load_missing_file),
      cmocka_unit_test(test_load_unreadable),
      cmocka_unit_test(test_load_size_limit),
      cmocka_unit_test(test_dir_and_name_defaults),
      cmocka_unit_test(test_examples_load),
      cmocka_unit_test(test_err_empty),
      cmocka_unit_test(test_err_root_not_mapping),
      cmocka_unit_test(test_err_syntax),
      cmocka_unit_test(test_report_top),
      cmocka_unit_test(test_region_warning),
      cmocka_unit_test(test_err_unknown_key),
      cmocka_unit_test(test_err_duplicate_key),
      cmocka_unit_test(test_err_types),
      cmocka_unit_test(test_err_numbers),
      cmocka_unit_test(test_err_enums),
      cmocka_unit_test(test_err_missing),
      cmocka_unit_test(test_err_empty_command),
      cmocka_unit_test(test_err_baseline),
      cmocka_unit_test(test_err_pass_names),
      cmocka_unit_test(test_err_reserved_names),
      cmocka_unit_test(test_err_depth),
      cmocka_unit_test(test_depth_ignores_text),
      cmocka_unit_test(test_err_bad_mode),
      cmocka_unit_test(test_err_command_mode),
      cmocka_unit_test(test_err_regex),
      cmocka_unit_test(test_err_duration),
      cmocka_unit_test(test_err_boolean),
      cmocka_unit_test(test_err_thresholds),
      cmocka_unit_test(test_err_gates),
      cmocka_unit_test(test_err_variants),
      cmocka_unit_test(test_err_sampler),
      cmocka_unit_test(test_err_categories),
      cmocka_unit_test(test_err_many_sorted),
      cmocka_unit_test(test_err_limit),
      cmocka_unit_test(test_bad_fixtures),
      cmocka_unit_test(test_categories_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
