/*
 * The plan loader's entry points: reads a YAML plan with libyaml's document API and turns it into
 * an hp_plan. Every key is described in docs/plan.md; keep the two in step.
 *
 * A plan starts with every default set, then each section is read in dependency order (see
 * plan.h for the files that read them). Only when no error was found does the caller get a plan;
 * otherwise every message, sorted by position, is in the caller's list. A sweep's plan holds the
 * plan of each of its combinations, read here from the same libyaml document.
 */
#include "plan/plan.h"
#include "tool/driver.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

/* Limits that keep a typo (repeat: 1000000000) from starting a session that never ends. */
#define MAX_REPEAT 100000
#define MAX_WARMUP 100000
/* `repeat: auto`'s looks: the first after AUTO_MIN runs, the last at AUTO_MAX. */
#define AUTO_MIN 3
#define AUTO_MAX 30
/* The parent folder of session folders when the plan names none. */
#define DEFAULT_OUTPUT "hprun-out"

/* Frees what an app holds (the plan's or a variant's), whose plan is being freed. */
static void app_free(hp_app *a)
{
  size_t i;

  hp_strv_free(&a->command);
  for (i = 0; i < a->nenv; i++) {
    free(a->env[i].key);
    free(a->env[i].value);
  }
  free(a->env);
  free(a->cwd);
  hp_strv_free(&a->build);
  hp_strv_free(&a->prepare);
  hp_strv_free(&a->cleanup);
  free(a->iterations_metric);
  free(a->region);
}

/* Frees the plan and everything it holds. Safe on a half-built plan: arrays are allocated zeroed
 * and their counts are set at allocation, so unfilled entries are NULL. Accepts NULL. */
void hp_plan_free(hp_plan *p)
{
  size_t i, k;

  if (p == NULL)
    return;
  free(p->file);
  free(p->dir);
  free(p->text);
  free(p->name);
  free(p->output);
  app_free(&p->app);
  free(p->profiler.tool);
  free(p->profiler.path);
  free(p->profiler.env_script);
  hp_strv_free(&p->profiler.args);
  for (i = 0; p->metrics && i < p->nmetrics; i++) {
    free(p->metrics[i].name);
    free(p->metrics[i].pattern);
    free(p->metrics[i].unit);
  }
  free(p->metrics);
  for (i = 0; p->passes && i < p->npasses; i++) {
    hp_pass *s = &p->passes[i];
    free(s->name);
    free(s->mode);
    free(s->tool);
    free(s->kernel);
    hp_strv_free(&s->args);
    hp_strv_free(&s->command);
    hp_strv_free(&s->counters);
    for (k = 0; k < s->nenv; k++) {
      free(s->env[k].key);
      free(s->env[k].value);
    }
    free(s->env);
    hp__plan_launcher_free(s->launcher);
    free(s->launcher);
  }
  free(p->passes);
  for (i = 0; p->variants && i < p->nvariants; i++) {
    free(p->variants[i].name);
    app_free(&p->variants[i].app);
  }
  free(p->variants);
  hp__plan_launcher_free(&p->launcher);
  for (i = 0; p->gates && i < p->ngates; i++)
    free(p->gates[i].metric);
  free(p->gates);
  for (i = 0; p->references && i < p->nreferences; i++) {
    free(p->references[i].pass);
    free(p->references[i].metric);
    free(p->references[i].host);
    free(p->references[i].gpu);
  }
  free(p->references);
  free(p->sampler.tool);
  hp_strv_free(&p->sampler.command);
  hp_categories_free(p->categories, p->ncategories);
  hp_peaks_clear(p->roofline);
  free(p->roofline);
  /* Before the parameters, which count the combinations. */
  for (i = 0; p->expanded && i < hp_plan_combinations(p); i++)
    hp_plan_free(p->expanded[i]);
  free(p->expanded);
  for (i = 0; p->params && i < p->nparams; i++) {
    free(p->params[i].name);
    hp_strv_free(&p->params[i].values);
  }
  free(p->params);
  free(p);
}

/* The default session name: the file's base name without its extension, with characters that
 * are not allowed in a name replaced by '_' (a default should not make a plan invalid). */
static char *default_name(const char *file)
{
  const char *base = strrchr(file, '/'), *dot;
  char *s;
  size_t n, i;

  base = base ? base + 1 : file;
  dot = strrchr(base, '.');
  n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  s = hp__strndup(base, n);
  if (s == NULL)
    return NULL;
  for (i = 0; i < n; i++)
    if (!hp__plan_name_char(s[i]))
      s[i] = '_';
  if (!hp__plan_valid_name(s)) {
    free(s);
    s = hp__strdup("plan");
  }
  return s;
}

enum {
  K_NAME,
  K_OUTPUT,
  K_REPEAT,
  K_WARMUP,
  K_ORDER,
  K_SEED,
  K_APP,
  K_PROFILER,
  K_METRICS,
  K_PASSES,
  K_VARIANTS,
  K_GATES,
  K_THRESHOLDS,
  K_SAMPLER,
  K_CATEGORIES,
  K_KEEP_GOING,
  K_ROOFLINE,
  K_PARAMETERS,
  K_LAUNCHER,
  K_REPORT,
  K_REFERENCE,
  K_N
};
static const char *const top_keys[] = {
    "name",       "output",   "repeat",     "warmup",     "order",    "seed",
    "app",        "profiler", "metrics",    "passes",     "variants", "gates",
    "thresholds", "sampler",  "categories", "keep_going", "roofline", "parameters",
    "launcher",   "report",   "reference",  NULL};
static const char *const orders[] = {"interleaved", "sequential", "abba", "random", NULL};
/* The defaults here are the ones plan_new sets. */
static const hp_plan_key_doc top_docs[] = {
    [K_NAME] = {"name", NULL, NULL},
    [K_OUTPUT] = {"string", NULL, DEFAULT_OUTPUT},
    [K_REPEAT] = {"integer 1.." HP__STR(MAX_REPEAT) ", auto, or {min, max, budget}", NULL, "1"},
    [K_WARMUP] = {"integer 0.." HP__STR(MAX_WARMUP), NULL, "0"},
    [K_ORDER] = {NULL, orders, "interleaved"},
    [K_SEED] = {"integer 0..2^64-1", NULL, "1"},
    [K_APP] = {"mapping", NULL, NULL},
    [K_PROFILER] = {"mapping", NULL, NULL},
    [K_METRICS] = {"list", NULL, NULL},
    [K_PASSES] = {"list", NULL, NULL},
    [K_VARIANTS] = {"list", NULL, NULL},
    [K_GATES] = {"list", NULL, NULL},
    [K_THRESHOLDS] = {"mapping", NULL, NULL},
    [K_SAMPLER] = {"tool name or mapping", NULL, "auto"},
    [K_CATEGORIES] = {"list", NULL, NULL},
    [K_KEEP_GOING] = {"boolean", NULL, "false"},
    [K_ROOFLINE] = {"mapping", NULL, NULL},
    [K_PARAMETERS] = {"mapping name to list of values", NULL, NULL},
    [K_LAUNCHER] = {"kind or mapping", NULL, "local"},
    [K_REPORT] = {"mapping", NULL, NULL},
    [K_REFERENCE] = {"list", NULL, NULL},
};
HP__KEY_DOCS(top_keys, top_docs);

enum {
  RP_MIN,
  RP_MAX,
  RP_BUDGET,
  RP_N
};
static const char *const repeat_keys[] = {"min", "max", "budget", NULL};
static const hp_plan_key_doc repeat_docs[] = {
    [RP_MIN] = {"integer 2.." HP__STR(MAX_REPEAT), NULL, HP__STR(AUTO_MIN)},
    [RP_MAX] = {"integer 2.." HP__STR(MAX_REPEAT) ", >= min", NULL, HP__STR(AUTO_MAX)},
    [RP_BUDGET] = {"duration", NULL, NULL},
};
HP__KEY_DOCS(repeat_keys, repeat_docs);

/* `repeat: N`, `repeat: auto` (AUTO_MIN, AUTO_MAX) or `repeat: {min, max, budget}`. */
static void parse_repeat(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[RP_N] = {{NULL, NULL}};
  long lo = AUTO_MIN, hi = AUTO_MAX, n;

  if (v && v->type == YAML_SCALAR_NODE && strcmp(hp__yaml_str(v), "auto") == 0) {
    p->autorep.on = 1;
  } else if (v && v->type == YAML_MAPPING_NODE) {
    p->autorep.on = 1;
    hp__yaml_fields(ld, v, "repeat", repeat_keys, e);
    hp__plan_long(ld, "repeat.min", e[RP_MIN].val, 2, MAX_REPEAT, &lo);
    hp__plan_long(ld, "repeat.max", e[RP_MAX].val, 2, MAX_REPEAT, &hi);
    hp__plan_duration(ld, "repeat.budget", e[RP_BUDGET].val, &p->autorep.budget_s);
    if (lo > hi)
      hp__plan_err(ld, e[RP_MAX].val ? e[RP_MAX].val : v,
                   "`repeat.max` (%ld) is below `repeat.min` (%ld)", hi, lo);
  } else {
    if (hp__plan_long(ld, "repeat", v, 1, MAX_REPEAT, &n) == 1)
      p->repeat = (int)n;
    return;
  }
  p->autorep.min = (int)lo;
  p->autorep.max = (int)hi;
  p->repeat = (int)hi;
}

static void parse_plan(hp__loader *ld, yaml_node_t *root, hp_plan *p)
{
  hp__mapent e[K_N] = {{NULL, NULL}};
  long n;
  int order;

  if (root->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, root, "a plan must be a mapping of keys (app, metrics, passes, ...), got %s",
                 hp__yaml_kind(root));
    return;
  }
  hp__yaml_fields(ld, root, NULL, top_keys, e);
  /* A sweep's placeholders are replaced before the sections that hold them are read. */
  hp__plan_parse_params(ld, &e[K_PARAMETERS], p);
  hp__plan_placeholders(ld, root, p);
  hp__plan_ident(ld, "name", e[K_NAME].val, &p->name);
  hp__plan_str(ld, "output", e[K_OUTPUT].val, HP__NONEMPTY, &p->output);
  parse_repeat(ld, e[K_REPEAT].val, p);
  if (hp__plan_long(ld, "warmup", e[K_WARMUP].val, 0, MAX_WARMUP, &n) == 1)
    p->warmup = (int)n;
  if (hp__plan_enum(ld, "order", e[K_ORDER].val, orders, &order) == 1)
    p->order = (hp_order)order;
  /* Sequential runs the baseline's runs all first: no pass could be looked at before it ends. */
  if (p->autorep.on && p->order == HP_ORDER_SEQUENTIAL)
    hp__plan_err(ld, e[K_ORDER].val,
                 "`repeat: auto` needs rounds that visit every pass: use "
                 "order interleaved, abba or random, not sequential");
  hp__plan_u64(ld, "seed", e[K_SEED].val, &p->seed);
  hp__plan_bool(ld, "keep_going", e[K_KEEP_GOING].val, &p->keep_going);
  hp__plan_parse_app(ld, &e[K_APP], root, &p->app);
  hp__plan_parse_profiler(ld, e[K_PROFILER].val, p);
  hp__plan_parse_metrics(ld, &e[K_METRICS], root, p);
  hp__plan_check_iterations(ld, p);
  hp__plan_parse_passes(ld, &e[K_PASSES], root, p);
  hp__plan_parse_variants(ld, e[K_VARIANTS].val, p);
  hp__plan_parse_gates(ld, e[K_GATES].val, p);
  hp__plan_parse_thresholds(ld, e[K_THRESHOLDS].val, p);
  hp__plan_parse_sampler(ld, e[K_SAMPLER].val, p);
  if (e[K_CATEGORIES].key)
    hp__plan_parse_categories(ld, &e[K_CATEGORIES], &p->categories, &p->ncategories);
  hp__plan_parse_roofline(ld, e[K_ROOFLINE].val, p);
  hp__plan_parse_launcher(ld, e[K_LAUNCHER].val, &p->launcher);
  hp__plan_parse_references(ld, e[K_REFERENCE].val, p);
  hp__plan_parse_report(ld, e[K_REPORT].val, p);
  hp__plan_check_region(ld, p);
}

/* The plan with every default set, before the file is read. */
static hp_plan *plan_new(hp__loader *ld, const char *file, const char *dir, const char *text,
                         size_t len)
{
  hp_plan *p = calloc(1, sizeof(*p));

  if (p == NULL) {
    ld->oom = 1;
    return NULL;
  }
  p->file = hp__plan_dup(ld, file);
  p->dir = hp__plan_dup(ld, dir);
  if ((p->text = malloc(len + 1)) == NULL) {
    ld->oom = 1;
  } else {
    if (len)
      memcpy(p->text, text, len);
    p->text[len] = '\0';
    p->text_len = len;
  }
  if ((p->name = default_name(file)) == NULL)
    ld->oom = 1;
  p->output = hp__plan_dup(ld, DEFAULT_OUTPUT);
  p->repeat = 1;
  p->warmup = 0;
  p->order = HP_ORDER_INTERLEAVED;
  p->seed = 1;
  p->profiler.tool = hp__plan_dup(ld, HP__DEFAULT_TOOL);
  p->thresholds.warn = 0.05;
  p->thresholds.fail = -1;
  p->thresholds.alpha = 0.05;
  p->sampler.tool = hp__plan_dup(ld, "auto");
  p->sampler.interval_ms = 2.0;
  p->combo = ld->combo;
  return p;
}

/* Reads the plan of combination k of the sweep p from the document p was read from, with its
 * values in the expanded fields, into p->expanded[k]; the document reads as written again
 * afterwards. A value that makes the combination invalid (a string command with an unterminated
 * quote, say) fails the plan, with a note naming the combination. Returns 0, HP_EPLAN or
 * HP_ENOMEM; the messages go to `diags`. */
static int read_combo(hp_plan *p, yaml_document_t *doc, size_t k, hp_diags *diags)
{
  hp__loader ld;
  hp_plan *one;
  char *name = NULL;

  hp__plan_loader_init(&ld, p->file, p->text, p->text_len, (long)k, doc);
  ld.dir = p->dir;
  one = plan_new(&ld, p->file, p->dir, p->text, p->text_len);
  if (one && !ld.oom)
    parse_plan(&ld, yaml_document_get_root_node(doc), one);
  hp__plan_placeholders_undo(&ld);
  hp__plan_flush(&ld, diags);
  p->expanded[k] = one;
  if (ld.oom)
    return HP_ENOMEM;
  if (ld.nerrors == 0)
    return 0;
  if (hp_plan_combination_name(p, k, &name) == 0)
    hp_diags_add(diags, HP_DIAG_NOTE, p->file, 0, 0,
                 "in combination %zu of %zu (%s), where the placeholders have its values", k + 1,
                 hp_plan_combinations(p), name);
  free(name);
  return HP_EPLAN;
}

/* Every combination's plan of the sweep p, in order, until the first that fails. */
static int read_combos(hp_plan *p, yaml_document_t *doc, hp_diags *diags)
{
  size_t k, n = hp_plan_combinations(p);
  int r = 0;

  if ((p->expanded = calloc(n, sizeof(*p->expanded))) == NULL)
    return HP_ENOMEM;
  for (k = 0; k < n && r == 0; k++)
    r = read_combo(p, doc, k, diags);
  return r;
}

/*
 * Loads a plan from memory. `name` is used in messages and kept as plan->file; `dir` is kept as
 * plan->dir (NULL: "."). `text` is copied. On success returns 0 and *out is a new plan the caller
 * frees with hp_plan_free. On failure *out is NULL, nothing is left to free, and the result is
 * HP_EPLAN (every problem is in `diags`, sorted by position), HP_ENOMEM or HP_EINVAL. A text over
 * HP__PLAN_MAX_BYTES, or nesting deeper than HP__PLAN_MAX_DEPTH, is refused before it is parsed.
 * libyaml parses the text once: a sweep's combinations are read from the same document.
 */
int hp_plan_load_string(const char *name, const char *dir, const char *text, size_t len,
                        hp_plan **out, hp_diags *diags)
{
  hp__loader ld;
  yaml_document_t doc;
  hp_plan *p;
  int r = 0, parsed = 0;

  if (out == NULL || (text == NULL && len))
    return HP_EINVAL;
  *out = NULL;
  if (name == NULL)
    name = "<string>";
  hp__plan_loader_init(&ld, name, text ? text : "", len, -1, &doc);
  ld.dir = dir ? dir : ".";
  if (len > HP__PLAN_MAX_BYTES)
    return hp__plan_err_size(diags, name, len, 0);
  /* Counted before libyaml sees the text, which is what the depth limit is for. */
  if (hp__plan_check_depth(&ld)) {
    hp__plan_flush(&ld, diags);
    return ld.oom ? HP_ENOMEM : HP_EPLAN;
  }
  p = plan_new(&ld, name, dir ? dir : ".", ld.text, len);
  if (p && !ld.oom && (parsed = hp__yaml_load(&ld, &doc)) == 1)
    parse_plan(&ld, yaml_document_get_root_node(&doc), p);
  hp__plan_flush(&ld, diags);
  if (ld.oom)
    r = HP_ENOMEM;
  else if (ld.nerrors)
    r = HP_EPLAN;
  else if (p->nparams) /* a sweep is valid when every one of its combinations is */
    r = read_combos(p, &doc, diags);
  if (parsed == 1)
    yaml_document_delete(&doc);
  if (r)
    hp_plan_free(p);
  else
    *out = p;
  return r;
}

/* plan->dir is the folder part of `path` ("." when there is none, "/" for a file at the root). */
static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');

  if (slash == NULL)
    return hp__strdup(".");
  if (slash == path)
    return hp__strdup("/");
  return hp__strndup(path, (size_t)(slash - path));
}

/*
 * Reads and loads the plan at `path`, as hp_plan_load_string does; plan->file is `path` as given
 * and plan->dir its folder. A file that cannot be read gives one message naming it and the
 * system's reason: HP_ENOENT when it does not exist, HP_EPLAN when it is a folder or over the
 * size limit, HP_EIO for any other reason (permission, a read error).
 */
int hp_plan_load(const char *path, hp_plan **out, hp_diags *diags)
{
  char *text = NULL, *dir = NULL;
  size_t len = 0;
  int r;

  if (out == NULL || path == NULL)
    return HP_EINVAL;
  *out = NULL;
  if ((r = hp__plan_read(path, &text, &len, diags)) != 0)
    return r;
  if ((dir = dir_of(path)) == NULL) {
    free(text);
    return HP_ENOMEM;
  }
  r = hp_plan_load_string(path, dir, text, len, out, diags);
  free(dir);
  free(text);
  return r;
}

/* The key tables above and their docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_top = top_keys;
const char *const *const hp__plan_keys_repeat = repeat_keys;
const hp_plan_key_doc *const hp__plan_docs_top = top_docs;
const hp_plan_key_doc *const hp__plan_docs_repeat = repeat_docs;
