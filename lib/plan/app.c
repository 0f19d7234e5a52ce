/*
 * The `app` section (with its `prepare` and `cleanup` hooks, run around each run) and `variants`. A
 * variant is an app of its own (command, env, cwd, timeout, build) compared against the others;
 * what it leaves unset is inherited from `app`, so after loading each variant is complete and the
 * session never looks at `app` for it.
 */
#include "plan/plan.h"
#include "util/base/buf.h"
#include "util/base/strv.h"
#include "util/sys/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
  A_COMMAND,
  A_ENV,
  A_CWD,
  A_TIMEOUT,
  A_BUILD,
  A_PREPARE,
  A_CLEANUP,
  A_WORKDIR,
  A_ITERATIONS,
  A_ITERATIONS_METRIC,
  A_REGION,
  A_N
};
static const char *const app_keys[] = {
    "command", "env",     "cwd",        "timeout",           "build",  "prepare",
    "cleanup", "workdir", "iterations", "iterations_metric", "region", NULL};
static const char *const workdirs[] = {"cwd", "run", NULL};
/* The largest `iterations` accepted: like the limits on repeat, it turns a typo into an error. */
#define MAX_ITERATIONS 1000000000
static const hp_plan_key_doc app_docs[] = {
    [A_COMMAND] = {"words, not empty", NULL, NULL},
    [A_ENV] = {"mapping name to string", NULL, NULL},
    [A_CWD] = {"string", NULL, NULL},
    [A_TIMEOUT] = {"duration", NULL, NULL},
    [A_BUILD] = {"words", NULL, NULL},
    [A_PREPARE] = {"words, not empty", NULL, NULL},
    [A_CLEANUP] = {"words, not empty", NULL, NULL},
    [A_WORKDIR] = {NULL, workdirs, "cwd"},
    [A_ITERATIONS] = {"integer 1.." HP__STR(MAX_ITERATIONS), NULL, NULL},
    [A_ITERATIONS_METRIC] = {"a name from metrics", NULL, NULL},
    [A_REGION] = {"string without /, @, \" or a line break", NULL, NULL},
};
HP__KEY_DOCS(app_keys, app_docs);

/* A program given by a path that names a folder can never run: said now, at the key, so that
 * `hprun check` refuses it as the session would (a path that does not exist yet may come from
 * the build, and is checked before the runs). */
static void check_not_folder(hp__loader *ld, const yaml_node_t *at, const hp_app *a)
{
  const char *prog = a->command.n ? a->command.v[0] : NULL;
  char *base = NULL, *path = NULL;
  struct stat st;

  if (ld->dir == NULL || prog == NULL || strchr(prog, '/') == NULL)
    return;
  if (prog[0] != '/')
    base = a->cwd && a->cwd[0] == '/' ? hp__strdup(a->cwd)
        : a->cwd                      ? hp__path_join(ld->dir, a->cwd)
                                      : hp__strdup(ld->dir);
  path = prog[0] == '/' ? hp__strdup(prog) : base ? hp__path_join(base, prog) : NULL;
  if (path == NULL)
    ld->oom = 1;
  else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    hp__plan_err(ld, at, "`app.command`: '%s' is a folder, not a program", prog);
  free(base);
  free(path);
}

/* The fields an app and a variant share. `prefix` starts each key in messages ("app." or ""). */
static void parse_app_fields(hp__loader *ld, yaml_node_t *m, const char *prefix,
                             const hp__mapent *e, hp_app *a)
{
  char what[64];
  int r;

  snprintf(what, sizeof(what), "%scommand", prefix);
  r = hp__plan_words(ld, what, e[A_COMMAND].val, &a->command);
  if (r == 0)
    hp__plan_err(ld, hp__yaml_missing_at(&e[A_COMMAND], m),
                 "missing `%s`: the program to run and its arguments", what);
  else if (r == 1 && a->command.n == 0)
    hp__plan_err(ld, e[A_COMMAND].val, "`%s` is empty: give the program to run", what);
  snprintf(what, sizeof(what), "%senv", prefix);
  hp__plan_env(ld, what, e[A_ENV].val, &a->env, &a->nenv);
  snprintf(what, sizeof(what), "%scwd", prefix);
  hp__plan_str(ld, what, e[A_CWD].val, HP__NONEMPTY, &a->cwd);
  if (strcmp(prefix, "app.") == 0)
    check_not_folder(ld, e[A_COMMAND].val, a);
  snprintf(what, sizeof(what), "%stimeout", prefix);
  hp__plan_duration(ld, what, e[A_TIMEOUT].val, &a->timeout);
  snprintf(what, sizeof(what), "%sbuild", prefix);
  hp__plan_words(ld, what, e[A_BUILD].val, &a->build);
}

/* The cross-check's keys: the timed iterations (a number, or a metric the app prints) and the
 * marked region a profiler can keep to. A region name is what ncu's --nvtx-include and the
 * markers take, so it may not hold '/' or '@', which those read as separators. */
static void parse_crosscheck(hp__loader *ld, const hp__mapent *e, hp_app *a)
{
  yaml_node_t *it = e[A_ITERATIONS].val, *im = e[A_ITERATIONS_METRIC].val;

  hp__plan_long(ld, "app.iterations", it, 1, MAX_ITERATIONS, &a->iterations);
  if (hp__plan_str(ld, "app.iterations_metric", im, HP__NONEMPTY, &a->iterations_metric) == 1)
    a->iterations_line = (long)im->start_mark.line + 1;
  if (it && im)
    hp__plan_err(ld, im, "give `app.iterations` or `app.iterations_metric`, not both");
  if (hp__plan_str(ld, "app.region", e[A_REGION].val, HP__NONEMPTY, &a->region) == 1)
    a->region_line = (long)e[A_REGION].val->start_mark.line + 1;
  if (a->region && strpbrk(a->region, "/@\"\n") != NULL)
    hp__plan_err(ld, e[A_REGION].val,
                 "`app.region` may not hold '/', '@', '\"' or a line break (ncu reads them as "
                 "separators): give the range name as the app pushes it");
}

void hp__plan_parse_app(hp__loader *ld, const hp__mapent *ae, yaml_node_t *root, hp_app *a)
{
  hp__mapent e[A_N] = {{NULL, NULL}};
  yaml_node_t *v = ae->val;
  int r = hp__yaml_want_map(ld, "app", v);

  if (r == 0)
    hp__plan_err(ld, hp__yaml_missing_at(ae, root),
                 "missing `app`: the program to measure (app: {command: [...]})");
  if (r <= 0)
    return;
  hp__yaml_fields(ld, v, "app", app_keys, e);
  parse_app_fields(ld, v, "app.", e, a);
  /* Hooks are the app's only: variants inherit them, like its build. */
  if (hp__plan_words(ld, "app.prepare", e[A_PREPARE].val, &a->prepare) == 1 && a->prepare.n == 0)
    hp__plan_err(ld, e[A_PREPARE].val, "`app.prepare` is empty: give a command or leave it out");
  if (hp__plan_words(ld, "app.cleanup", e[A_CLEANUP].val, &a->cleanup) == 1 && a->cleanup.n == 0)
    hp__plan_err(ld, e[A_CLEANUP].val, "`app.cleanup` is empty: give a command or leave it out");
  /* Only the plan's app has a workdir: it says where every run starts, variants' included. */
  hp__plan_enum(ld, "app.workdir", e[A_WORKDIR].val, workdirs, &a->workdir_run);
  parse_crosscheck(ld, e, a);
}

void hp__plan_check_iterations(hp__loader *ld, const hp_plan *p)
{
  size_t i;

  if (p->app.iterations_metric == NULL)
    return;
  for (i = 0; i < p->nmetrics; i++)
    if (strcmp(p->metrics[i].name, p->app.iterations_metric) == 0)
      return;
  hp__plan_err_at(ld, p->app.iterations_line, 0,
                  "`app.iterations_metric: %s` names no metric: add it under `metrics:` with a "
                  "pattern that captures the number of timed iterations",
                  p->app.iterations_metric);
}

enum {
  V_NAME,
  V_COMMAND,
  V_ENV,
  V_CWD,
  V_BUILD,
  V_TIMEOUT,
  V_REFERENCE,
  V_N
};
static const char *const variant_keys[] = {"name",  "command", "env",       "cwd",
                                           "build", "timeout", "reference", NULL};
/* What a variant leaves out is the app's (inherit_app): those keys have no default of their own. */
static const hp_plan_key_doc variant_docs[] = {
    [V_NAME] = {"name, unique among passes and variants", NULL, NULL},
    [V_COMMAND] = {"words, not empty", NULL, NULL},
    [V_ENV] = {"mapping name to string", NULL, NULL},
    [V_CWD] = {"string", NULL, NULL},
    [V_BUILD] = {"words", NULL, NULL},
    [V_TIMEOUT] = {"duration", NULL, NULL},
    [V_REFERENCE] = {"boolean", NULL, "false"},
};
HP__KEY_DOCS(variant_keys, variant_docs);

/* Fills what a variant left unset from the plan's app: env entries it does not override, cwd,
 * timeout and build. After loading, each variant is a complete app on its own. */
static void inherit_app(hp__loader *ld, hp_app *v, const hp_app *a)
{
  hp_kv *env;
  size_t i, j, n = 0;

  if (a->nenv) {
    env = calloc(a->nenv + v->nenv, sizeof(*env));
    if (env == NULL) {
      ld->oom = 1;
      return;
    }
    for (i = 0; i < a->nenv; i++) {
      for (j = 0; j < v->nenv; j++)
        if (strcmp(v->env[j].key, a->env[i].key) == 0)
          break;
      if (j < v->nenv)
        continue;
      env[n].key = hp__plan_dup(ld, a->env[i].key);
      env[n++].value = hp__plan_dup(ld, a->env[i].value);
    }
    for (j = 0; j < v->nenv; j++)
      env[n++] = v->env[j];
    free(v->env);
    v->env = env;
    v->nenv = n;
  }
  if (v->cwd == NULL && a->cwd)
    v->cwd = hp__plan_dup(ld, a->cwd);
  if (v->timeout == 0)
    v->timeout = a->timeout;
  if (v->build.n == 0 && a->build.n) {
    hp_strv_free(&v->build);
    if (hp__strv_copy(&v->build, &a->build))
      ld->oom = 1;
  }
  if (hp__strv_copy(&v->prepare, &a->prepare) || hp__strv_copy(&v->cleanup, &a->cleanup))
    ld->oom = 1;
}

/* A variant's name must differ from the other variants' and from every pass name, and must not be
 * one of the session's own files: all become names in the session's folder. `name_at[i]` is where
 * variant i's name is (or the variant). */
static void check_variant_names(hp__loader *ld, const hp_plan *p, yaml_node_t *const *name_at)
{
  size_t i, j;

  for (i = 0; i < p->nvariants; i++) {
    const hp_variant *va = &p->variants[i];
    if (va->name == NULL)
      continue;
    if (hp__plan_reserved_name(va->name))
      hp__plan_err(ld, name_at[i], "variant name '%.80s' is reserved for the session's own files",
                   va->name);
    for (j = 0; j < i; j++)
      if (p->variants[j].name && strcmp(p->variants[j].name, va->name) == 0) {
        hp__plan_err(ld, name_at[i], "duplicate variant name `%s` (first at line %ld)", va->name,
                     p->variants[j].line);
        break;
      }
    for (j = 0; j < p->npasses; j++)
      if (p->passes[j].name && strcmp(p->passes[j].name, va->name) == 0) {
        hp__plan_err(ld, name_at[i],
                     "variant name `%s` is also a pass name (line %ld); names must differ",
                     va->name, p->passes[j].line);
        break;
      }
  }
}

void hp__plan_parse_variants(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  yaml_node_t **name_at;
  size_t i, n;
  long ref = -1;

  if (hp__yaml_want_seq(ld, "variants", v) <= 0)
    return;
  n = hp__yaml_seq_len(v);
  if (n == 0)
    return;
  p->variants = calloc(n, sizeof(*p->variants));
  name_at = calloc(n, sizeof(*name_at));
  if (p->variants == NULL || name_at == NULL) {
    ld->oom = 1;
    goto done;
  }
  p->nvariants = n;
  for (i = 0; i < n; i++) {
    hp__mapent e[V_N] = {{NULL, NULL}}, ae[A_N] = {{NULL, NULL}};
    hp_variant *va = &p->variants[i];
    yaml_node_t *it = hp__yaml_seq_item(ld, v, i);
    if (it == NULL)
      continue;
    va->line = hp__yaml_line(it);
    name_at[i] = it;
    if (it->type != YAML_MAPPING_NODE) {
      hp__plan_err(ld, it, "a variant must be a mapping {name, command, ...}, got %s",
                   hp__yaml_kind(it));
      continue;
    }
    hp__yaml_fields(ld, it, "variants", variant_keys, e);
    if (hp__plan_ident(ld, "name", e[V_NAME].val, &va->name) == 0)
      hp__plan_err(ld, hp__yaml_missing_at(&e[V_NAME], it), "a variant needs a `name`");
    if (e[V_NAME].val)
      name_at[i] = e[V_NAME].val;
    ae[A_COMMAND] = e[V_COMMAND];
    ae[A_ENV] = e[V_ENV];
    ae[A_CWD] = e[V_CWD];
    ae[A_TIMEOUT] = e[V_TIMEOUT];
    ae[A_BUILD] = e[V_BUILD];
    parse_app_fields(ld, it, "", ae, &va->app);
    if (hp__plan_bool(ld, "reference", e[V_REFERENCE].val, &va->reference) == 1 && va->reference) {
      if (ref < 0)
        ref = (long)i;
      else
        hp__plan_err(ld, e[V_REFERENCE].val,
                     "two reference variants: `%s` and `%s` (line %ld); mark only one with "
                     "`reference: true`",
                     va->name ? va->name : "?", p->variants[ref].name ? p->variants[ref].name : "?",
                     p->variants[ref].line);
    }
  }
  check_variant_names(ld, p, name_at);
  /* Exactly one reference: the one marked, else the first. Later ones were reported above. */
  for (i = 0; i < n; i++)
    p->variants[i].reference = (long)i == (ref < 0 ? 0 : ref);
  for (i = 0; i < n; i++)
    inherit_app(ld, &p->variants[i].app, &p->app);

done:
  free(name_at);
}

/* The key tables above and their docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_app = app_keys;
const char *const *const hp__plan_keys_variants = variant_keys;
const hp_plan_key_doc *const hp__plan_docs_app = app_docs;
const hp_plan_key_doc *const hp__plan_docs_variants = variant_docs;
