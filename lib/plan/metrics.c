/*
 * What a session measures and how it judges it: `metrics` (what the app prints, then the built-in
 * `wall_ms`), `gates` (limits
 * on a metric's change, so they are read after the metrics they name), `thresholds` (overhead
 * levels and the significance level) and `sampler` (device memory sampling).
 */
#include "plan/plan.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* The pattern of the metric shorthand: the app prints `NAME=VALUE`. */
#define SHORTHAND_VALUE "=([-+0-9.eE]+)"

/* Escapes the regex metacharacters a metric name can hold ('.' only) for the shorthand pattern. */
static char *shorthand_pattern(const char *name)
{
  hp__buf b = HP__BUF_INIT;

  for (; *name; name++) {
    if (*name == '.')
      hp__buf_addc(&b, '\\');
    hp__buf_addc(&b, *name);
  }
  hp__buf_adds(&b, SHORTHAND_VALUE);
  return hp__buf_steal(&b); /* NULL when an append failed */
}

static void check_pattern(hp__loader *ld, yaml_node_t *at, const char *pattern)
{
  regex_t re;
  char msg[256];
  int rc = regcomp(&re, pattern, REG_EXTENDED);

  if (rc) {
    regerror(rc, &re, msg, sizeof(msg));
    hp__plan_err(ld, at, "`pattern` is not a valid extended regular expression: %s", msg);
    return;
  }
  if (re.re_nsub != 1)
    hp__plan_err(ld, at, "`pattern` must have exactly one capture group (the number), it has %zu",
                 (size_t)re.re_nsub);
  regfree(&re);
}

enum {
  M_NAME,
  M_PATTERN,
  M_UNIT,
  M_BETTER,
  M_TOLERANCE,
  M_ABS_TOLERANCE,
  M_N
};
static const char *const metric_keys[] = {"name",      "pattern",       "unit", "better",
                                          "tolerance", "abs_tolerance", NULL};
static const char *const directions[] = {"lower", "higher", NULL};
static const hp_plan_key_doc metric_docs[] = {
    [M_NAME] = {"name, unique", NULL, NULL},
    [M_PATTERN] = {"POSIX extended regex with exactly one capture group", NULL,
                   "NAME" SHORTHAND_VALUE},
    [M_UNIT] = {"string", NULL, NULL},
    [M_BETTER] = {NULL, directions, "lower"},
    [M_TOLERANCE] = {"fraction in [0, 100)", NULL, NULL},
    [M_ABS_TOLERANCE] = {"number >= 0", NULL, NULL},
};
HP__KEY_DOCS(metric_keys, metric_docs);

static void parse_metric(hp__loader *ld, yaml_node_t *it, hp_metric_spec *ms)
{
  hp__mapent e[M_N] = {{NULL, NULL}};
  yaml_node_t *pat_at = it;
  double tol;

  ms->line = hp__yaml_line(it);
  ms->tolerance = ms->abs_tolerance = -1;
  if (it->type == YAML_SCALAR_NODE && !hp__yaml_is_null(it)) {
    if (hp__plan_ident(ld, "metrics", it, &ms->name) == 1 && ms->name &&
        (ms->pattern = shorthand_pattern(ms->name)) == NULL)
      ld->oom = 1;
    return;
  }
  if (it->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, it,
                 "a metric must be a name or a mapping {name, pattern, unit, better, tolerance, "
                 "abs_tolerance}, got %s",
                 hp__yaml_kind(it));
    return;
  }
  hp__yaml_fields(ld, it, "metrics", metric_keys, e);
  if (hp__plan_ident(ld, "name", e[M_NAME].val, &ms->name) == 0)
    hp__plan_err(ld, hp__yaml_missing_at(&e[M_NAME], it), "a metric needs a `name`");
  if (hp__plan_str(ld, "pattern", e[M_PATTERN].val, HP__NONEMPTY, &ms->pattern) == 1)
    pat_at = e[M_PATTERN].val;
  else if (ms->name && hp__plan_valid_name(ms->name) && hp__yaml_is_null(e[M_PATTERN].val) &&
           (ms->pattern = shorthand_pattern(ms->name)) == NULL)
    ld->oom = 1;
  if (ms->pattern)
    check_pattern(ld, pat_at, ms->pattern);
  hp__plan_str(ld, "unit", e[M_UNIT].val, 0, &ms->unit);
  hp__plan_enum(ld, "better", e[M_BETTER].val, directions, &ms->higher_is_better);
  if (hp__plan_number(ld, "tolerance", e[M_TOLERANCE].val, 1, &tol) == 1) {
    if (!(tol >= 0 && tol < 100))
      hp__plan_err(ld, e[M_TOLERANCE].val,
                   "`tolerance` must be a fraction from 0 (or a percentage such "
                   "as 5%%), got '%.80s'",
                   hp__yaml_str(e[M_TOLERANCE].val));
    else
      ms->tolerance = tol;
  }
  /* An absolute tolerance, in the metric's unit: the one that works for a metric that can be 0
   * (an error, a count), whose relative change is undefined. */
  if (hp__plan_number(ld, "abs_tolerance", e[M_ABS_TOLERANCE].val, 0, &tol) == 1) {
    if (!(tol >= 0))
      hp__plan_err(ld, e[M_ABS_TOLERANCE].val,
                   "`abs_tolerance` must be a number >= 0 in the metric's unit, got '%.80s'",
                   hp__yaml_str(e[M_ABS_TOLERANCE].val));
    else
      ms->abs_tolerance = tol;
  }
}

/* Appends the built-in `wall_ms` after the user's metrics: lower is better, in ms, and its value
 * is the run's measured wall time, so it needs no pattern. With no user metric it is the only,
 * hence the primary, metric, as in hyperfine. */
static void add_wall_metric(hp__loader *ld, hp_plan *p)
{
  hp_metric_spec *ms = &p->metrics[p->nmetrics]; /* zeroed: calloc'd with room for it */

  ms->tolerance = ms->abs_tolerance = -1;
  ms->wall = 1;
  ms->name = hp__plan_dup(ld, HP_WALL_METRIC);
  ms->unit = hp__plan_dup(ld, "ms");
  p->nmetrics++;
}

void hp__plan_parse_metrics(hp__loader *ld, const hp__mapent *e, yaml_node_t *root, hp_plan *p)
{
  yaml_node_t **at;
  size_t i, j, n = 0;
  int r = hp__yaml_want_seq(ld, "metrics", e->val);

  (void)root;
  if (r < 0)
    return;
  if (r > 0)
    n = hp__yaml_seq_len(e->val);
  p->metrics = calloc(n + 1, sizeof(*p->metrics));
  at = calloc(n + 1, sizeof(*at));
  if (p->metrics == NULL || at == NULL) {
    free(at);
    ld->oom = 1;
    return;
  }
  p->nmetrics = n;
  for (i = 0; i < n; i++) {
    at[i] = hp__yaml_seq_item(ld, e->val, i);
    if (at[i] == NULL)
      continue;
    parse_metric(ld, at[i], &p->metrics[i]);
    if (p->metrics[i].name && strcmp(p->metrics[i].name, HP_WALL_METRIC) == 0) {
      hp__plan_err(ld, at[i],
                   "`" HP_WALL_METRIC "` is a built-in metric (each run's wall time): pick "
                   "another name");
      continue;
    }
    for (j = 0; j < i && p->metrics[i].name; j++)
      if (p->metrics[j].name && strcmp(p->metrics[j].name, p->metrics[i].name) == 0) {
        hp__plan_err(ld, at[i], "duplicate metric name `%s` (first at line %ld)",
                     p->metrics[i].name, p->metrics[j].line);
        break;
      }
  }
  free(at);
  add_wall_metric(ld, p);
}

enum {
  G_METRIC,
  G_MAX_ABS_DELTA,
  G_MAX_REL_DELTA,
  G_N
};
static const char *const gate_keys[] = {"metric", "max_abs_delta", "max_rel_delta", NULL};
static const hp_plan_key_doc gate_docs[] = {
    [G_METRIC] = {"a name from metrics", NULL, NULL},
    [G_MAX_ABS_DELTA] = {"number >= 0", NULL, NULL},
    [G_MAX_REL_DELTA] = {"fraction >= 0", NULL, NULL},
};
HP__KEY_DOCS(gate_keys, gate_docs);

void hp__plan_parse_gates(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp_strv names = {NULL, 0, 0};
  const char *hint;
  char list[256];
  size_t i, j, n;

  if (hp__yaml_want_seq(ld, "gates", v) <= 0)
    return;
  n = hp__yaml_seq_len(v);
  if (n == 0)
    return;
  if ((p->gates = calloc(n, sizeof(*p->gates))) == NULL) {
    ld->oom = 1;
    return;
  }
  p->ngates = n;
  for (i = 0; i < p->nmetrics; i++)
    if (p->metrics[i].name && hp__strv_push(&names, p->metrics[i].name))
      ld->oom = 1;
  for (i = 0; i < n; i++) {
    hp__mapent e[G_N] = {{NULL, NULL}};
    hp_gate *g = &p->gates[i];
    yaml_node_t *it = hp__yaml_seq_item(ld, v, i);
    int ra, rr;
    g->max_abs_delta = g->max_rel_delta = -1;
    if (it == NULL)
      continue;
    g->line = hp__yaml_line(it);
    if (it->type != YAML_MAPPING_NODE) {
      hp__plan_err(ld, it,
                   "a gate must be a mapping {metric, max_abs_delta, max_rel_delta}, got %s",
                   hp__yaml_kind(it));
      continue;
    }
    hp__yaml_fields(ld, it, "gates", gate_keys, e);
    if (hp__plan_str(ld, "metric", e[G_METRIC].val, HP__NONEMPTY, &g->metric) == 0)
      hp__plan_err(ld, hp__yaml_missing_at(&e[G_METRIC], it), "a gate needs a `metric`");
    if (g->metric && names.v) {
      for (j = 0; j < names.n; j++)
        if (strcmp(names.v[j], g->metric) == 0)
          break;
      if (j == names.n) {
        hint = hp__plan_suggest(g->metric, (const char *const *)names.v);
        hp__plan_join((const char *const *)names.v, list, sizeof(list));
        hp__plan_err(ld, e[G_METRIC].val,
                     "gate on unknown metric `%.80s` (declared metrics: %s%s%s%s)", g->metric, list,
                     hint ? "; did you mean `" : "", hint ? hint : "", hint ? "`?" : "");
      }
    }
    ra = hp__plan_number(ld, "max_abs_delta", e[G_MAX_ABS_DELTA].val, 0, &g->max_abs_delta);
    rr = hp__plan_number(ld, "max_rel_delta", e[G_MAX_REL_DELTA].val, 1, &g->max_rel_delta);
    if (ra == 1 && g->max_abs_delta < 0)
      hp__plan_err(ld, e[G_MAX_ABS_DELTA].val, "`max_abs_delta` must be >= 0, got '%s'",
                   hp__yaml_str(e[G_MAX_ABS_DELTA].val));
    if (rr == 1 && g->max_rel_delta < 0)
      hp__plan_err(ld, e[G_MAX_REL_DELTA].val, "`max_rel_delta` must be >= 0, got '%s'",
                   hp__yaml_str(e[G_MAX_REL_DELTA].val));
    if (ra == 0 && rr == 0)
      hp__plan_err(ld, it, "a gate needs `max_abs_delta`, `max_rel_delta` or both");
  }
  hp_strv_free(&names);
}

enum {
  T_WARN,
  T_FAIL,
  T_ALPHA,
  T_STRICT,
  T_N
};
static const char *const threshold_keys[] = {"warn", "fail", "alpha", "strict", NULL};
/* The defaults here are the ones plan_new sets (lib/plan/plan.c). */
static const hp_plan_key_doc threshold_docs[] = {
    [T_WARN] = {"fraction >= 0", NULL, "5%"},
    [T_FAIL] = {"fraction > 0, >= warn", NULL, NULL},
    [T_ALPHA] = {"fraction in (0, 1)", NULL, "0.05"},
    [T_STRICT] = {"boolean", NULL, "false"},
};
HP__KEY_DOCS(threshold_keys, threshold_docs);

void hp__plan_parse_thresholds(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[T_N] = {{NULL, NULL}};
  double w = 0.05, f = -1, a = 0.05;
  int rw, rf, ra;

  if (hp__yaml_want_map(ld, "thresholds", v) <= 0)
    return;
  hp__yaml_fields(ld, v, "thresholds", threshold_keys, e);
  rw = hp__plan_number(ld, "thresholds.warn", e[T_WARN].val, 1, &w);
  rf = hp__plan_number(ld, "thresholds.fail", e[T_FAIL].val, 1, &f);
  ra = hp__plan_number(ld, "thresholds.alpha", e[T_ALPHA].val, 1, &a);
  if (rw == 1 && w < 0) {
    hp__plan_err(ld, e[T_WARN].val, "`thresholds.warn` must be >= 0, got '%s'",
                 hp__yaml_str(e[T_WARN].val));
    rw = -1;
  }
  if (rf == 1 && f <= 0) {
    hp__plan_err(ld, e[T_FAIL].val, "`thresholds.fail` must be > 0, got '%s'",
                 hp__yaml_str(e[T_FAIL].val));
    rf = -1;
  }
  if (ra == 1 && !(a > 0 && a < 1)) {
    hp__plan_err(ld, e[T_ALPHA].val,
                 "`thresholds.alpha` must be between 0 and 1 (exclusive), got '%s'",
                 hp__yaml_str(e[T_ALPHA].val));
    ra = -1;
  }
  if (rf == 1 && rw >= 0 && f < w)
    hp__plan_err(ld, e[T_FAIL].val,
                 "`thresholds.fail` (%g) is below `thresholds.warn` (%g): fail must be "
                 ">= warn",
                 f, w);
  if (rw == 1)
    p->thresholds.warn = w;
  if (rf == 1)
    p->thresholds.fail = f;
  if (ra == 1)
    p->thresholds.alpha = a;
  hp__plan_bool(ld, "thresholds.strict", e[T_STRICT].val, &p->thresholds.strict);
}

enum {
  SM_TOOL,
  SM_COMMAND,
  SM_INTERVAL,
  SM_N
};
static const char *const sampler_keys[] = {"tool", "command", "interval", NULL};
static const char *const sampler_tools[] = {"auto",   "none",    "nvidia-smi", "rocm-smi",
                                            "hy-smi", "command", "sysfs",      NULL};
#define SAMPLER_COMMAND 5
/* The defaults here are the ones plan_new sets (lib/plan/plan.c). */
static const hp_plan_key_doc sampler_docs[] = {
    [SM_TOOL] = {NULL, sampler_tools, "auto"},
    [SM_COMMAND] = {"words", NULL, NULL},
    [SM_INTERVAL] = {"duration > 0", NULL, "2ms"},
};
HP__KEY_DOCS(sampler_keys, sampler_docs);

void hp__plan_parse_sampler(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[SM_N] = {{NULL, NULL}};
  double secs;
  int tool = -1, rt, rc;

  if (hp__yaml_is_null(v))
    return;
  if (v->type == YAML_SCALAR_NODE) {
    if (hp__plan_enum(ld, "sampler", v, sampler_tools, &tool) == 1) {
      if (tool == SAMPLER_COMMAND)
        hp__plan_err(ld, v,
                     "`sampler: command` needs `command:`; write sampler: {tool: command, "
                     "command: [...]}");
      free(p->sampler.tool);
      p->sampler.tool = hp__plan_dup(ld, sampler_tools[tool]);
    }
    return;
  }
  if (v->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, v,
                 "`sampler` must be a tool name or a mapping {tool, command, interval}, got %s",
                 hp__yaml_kind(v));
    return;
  }
  hp__yaml_fields(ld, v, "sampler", sampler_keys, e);
  rt = hp__plan_enum(ld, "sampler.tool", e[SM_TOOL].val, sampler_tools, &tool);
  rc = hp__plan_words(ld, "sampler.command", e[SM_COMMAND].val, &p->sampler.command);
  if (rt == 0 && rc != 0)
    tool = SAMPLER_COMMAND; /* a command alone says which sampler it is */
  if (tool == SAMPLER_COMMAND && rc == 0)
    hp__plan_err(ld, e[SM_TOOL].val ? e[SM_TOOL].val : v,
                 "`sampler.tool: command` needs "
                 "`sampler.command`, a program that prints one number (MiB) per line");
  else if (tool == SAMPLER_COMMAND && rc == 1 && p->sampler.command.n == 0)
    hp__plan_err(ld, e[SM_COMMAND].val, "`sampler.command` is empty");
  else if (rt == 1 && tool != SAMPLER_COMMAND && rc != 0)
    hp__plan_err(ld, e[SM_COMMAND].val,
                 "`sampler.command` is only used with `tool: command` (tool is `%s`)",
                 sampler_tools[tool]);
  if (tool >= 0) {
    free(p->sampler.tool);
    p->sampler.tool = hp__plan_dup(ld, sampler_tools[tool]);
  }
  if (hp__plan_duration(ld, "sampler.interval", e[SM_INTERVAL].val, &secs) == 1) {
    if (secs <= 0)
      hp__plan_err(ld, e[SM_INTERVAL].val, "`sampler.interval` must be greater than 0, got '%s'",
                   hp__yaml_str(e[SM_INTERVAL].val));
    else
      p->sampler.interval_ms = secs * 1000.0;
  }
}

/* The key tables above and their docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_metrics = metric_keys;
const char *const *const hp__plan_keys_gates = gate_keys;
const char *const *const hp__plan_keys_thresholds = threshold_keys;
const char *const *const hp__plan_keys_sampler = sampler_keys;
const hp_plan_key_doc *const hp__plan_docs_metrics = metric_docs;
const hp_plan_key_doc *const hp__plan_docs_gates = gate_docs;
const hp_plan_key_doc *const hp__plan_docs_thresholds = threshold_docs;
const hp_plan_key_doc *const hp__plan_docs_sampler = sampler_docs;
