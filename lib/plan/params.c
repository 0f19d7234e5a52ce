/*
 * Parameter sweeps: the plan's `parameters:` and the `{name}` placeholders that use them.
 *
 * `parameters: {n: [1048576, 16777216], dtype: [fp16, fp32]}` makes a sweep of four combinations
 * (the cartesian product, the last parameter varying fastest). Each combination runs as a session
 * of its own (lib/session/sweep.c) from its own plan: the sections read again, from the document
 * the plan was parsed into, with every `{n}` and `{dtype}` replaced by that combination's values.
 * The replacing is done on libyaml's tree (placeholders.c) before any section is read: every
 * field then goes through the same checks as a plan written out by hand, and a field added to a
 * section later is read the same way in a sweep.
 *
 * Only the fields a user expects to vary are expanded (docs/plan.md lists them): the app's and the
 * variants' command, env values, cwd and build, the app's hooks, and the passes' args, command,
 * kernel, counters and env values, and profiler.args. In those fields, for every plan (sweep or not):
 *   - `{name}` of a parameter is its value; `{dir}`, `{app}` and `{rank}` belong to other
 *     templates (command passes, launchers) and stay as they are;
 *   - any other `{identifier}` is an error at its line, since it is almost always a parameter
 *     that was misspelt or never declared;
 *   - `${...}` is the shell's and stays; `{{identifier}}` is the literal text `{identifier}`.
 * A plan as written with parameters (combo -1) is only checked; its combinations' plans, made
 * when it is loaded (plan.c), have the values in.
 */
#include "plan/plan.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A combination's folder name longer than this is refused: folder names are limited (255 bytes
 * on most file systems) and the session's own name and the pass folders go below it. */
#define MAX_COMBO_NAME 200

/* Placeholder names that other templates own: a parameter may not take them. */
static const char *const reserved[] = {"dir", "app", "rank", NULL};

int hp__plan_reserved_placeholder(const char *s, size_t n)
{
  size_t i;

  for (i = 0; reserved[i]; i++)
    if (strlen(reserved[i]) == n && strncmp(reserved[i], s, n) == 0)
      return 1;
  return 0;
}

static int ident_start(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int ident_char(char c)
{
  return ident_start(c) || (c >= '0' && c <= '9');
}

size_t hp__plan_ident_len(const char *s)
{
  size_t n = 0;

  if (!ident_start(s[0]))
    return 0;
  while (ident_char(s[n]))
    n++;
  return n;
}

/* ---- combinations --------------------------------------------------------------------------- */

size_t hp_plan_combinations(const hp_plan *p)
{
  size_t i, n = 1;

  for (i = 0; p && i < p->nparams; i++) {
    if (p->params[i].values.n == 0)
      return 0;
    if (n > HP_MAX_COMBINATIONS)
      return n; /* already over the cap: the exact count does not matter, and may overflow */
    n *= p->params[i].values.n;
  }
  return n;
}

/* The index into parameter i's values that combination k takes: the last parameter varies
 * fastest, as nested loops written in the plan's order would. */
static size_t value_index(const hp_plan *p, size_t k, size_t i)
{
  size_t j;

  for (j = p->nparams; j-- > i + 1;)
    k /= p->params[j].values.n;
  return k % p->params[i].values.n;
}

const char *hp_plan_combination_value(const hp_plan *p, size_t k, size_t i)
{
  if (p == NULL || i >= p->nparams || k >= hp_plan_combinations(p))
    return NULL;
  return p->params[i].values.v[value_index(p, k, i)];
}

static int name_char(char c)
{
  return ident_char(c) || c == '.' || c == '+' || c == '-';
}

int hp_plan_combination_name(const hp_plan *p, size_t k, char **name)
{
  hp__buf b = HP__BUF_INIT;
  const char *v;
  size_t i;

  *name = NULL;
  if (p == NULL || k >= hp_plan_combinations(p))
    return HP_EINVAL;
  for (i = 0; i < p->nparams; i++) {
    hp__buf_printf(&b, "%s%s=", i ? "," : "", p->params[i].name);
    for (v = hp_plan_combination_value(p, k, i); *v; v++)
      hp__buf_addc(&b, name_char(*v) ? *v : '_');
  }
  /* "" for a plan without parameters; NULL when an append failed. */
  *name = hp__buf_steal(&b);
  return *name ? 0 : HP_ENOMEM;
}

const hp_plan *hp_plan_combination(const hp_plan *p, size_t k)
{
  if (p == NULL || p->expanded == NULL || k >= hp_plan_combinations(p))
    return NULL;
  return p->expanded[k];
}

/* ---- parameters: ---------------------------------------------------------------------------- */

/* One parameter's values: a non-empty list of distinct scalars. */
static void parse_values(hp__loader *ld, yaml_node_t *v, hp_param *pa)
{
  yaml_node_t *it;
  size_t i, j;

  if (v == NULL || v->type != YAML_SEQUENCE_NODE || hp__yaml_seq_len(v) == 0) {
    hp__plan_err(ld, v, "parameter `%s` must be a non-empty list of values, as in %s: [1, 2]",
                 pa->name, pa->name);
    return;
  }
  for (i = 0; i < hp__yaml_seq_len(v); i++) {
    if ((it = hp__yaml_seq_item(ld, v, i)) == NULL)
      continue;
    if (it->type != YAML_SCALAR_NODE || hp__yaml_is_null(it) ||
        strlen(hp__yaml_str(it)) != it->data.scalar.length) {
      hp__plan_err(ld, it, "values of parameter `%s` must be numbers or strings, got %s", pa->name,
                   it->type == YAML_SCALAR_NODE && !hp__yaml_is_null(it) ? "a NUL character"
                                                                         : hp__yaml_kind(it));
      continue;
    }
    for (j = 0; j < pa->values.n; j++)
      if (strcmp(pa->values.v[j], hp__yaml_str(it)) == 0)
        break;
    if (j < pa->values.n) {
      hp__plan_err(ld, it, "parameter `%s` has the value '%.80s' twice", pa->name,
                   hp__yaml_str(it));
      continue;
    }
    if (hp__strv_push(&pa->values, hp__yaml_str(it)))
      ld->oom = 1;
  }
}

/* One `name: [values]` entry into pa; reports a bad name. */
static void parse_param(hp__loader *ld, const hp_plan *p, size_t i, yaml_node_t *k, yaml_node_t *v)
{
  hp_param *pa = &p->params[i];
  const char *name;
  size_t j, n;

  pa->line = hp__yaml_line(k);
  if (k == NULL || k->type != YAML_SCALAR_NODE || hp__yaml_is_null(k)) {
    hp__plan_err(ld, k, "parameter names must be strings, got %s", hp__yaml_kind(k));
    return;
  }
  name = hp__yaml_str(k);
  n = strlen(name);
  if (hp__plan_ident_len(name) != n || n != k->data.scalar.length) {
    hp__plan_err(ld, k,
                 "parameter name '%.80s' is not a name: use letters, digits and '_', not starting "
                 "with a digit (it is written {name} where it is used)",
                 name);
    return;
  }
  if (hp__plan_reserved_placeholder(name, n)) {
    hp__plan_err(ld, k,
                 "parameter name `%s` is taken: {dir}, {app} and {rank} belong to other "
                 "templates; choose another name",
                 name);
    return;
  }
  for (j = 0; j < i; j++)
    if (p->params[j].name && strcmp(p->params[j].name, name) == 0) {
      hp__plan_err(ld, k, "duplicate parameter `%s` (first at line %ld)", name, p->params[j].line);
      return;
    }
  pa->name = hp__plan_dup(ld, name);
  parse_values(ld, v, pa);
}

/* Every combination has a folder of its own: their names must differ (two values that differ only
 * in characters written as '_' would share one) and stay short enough for a folder name. */
static void check_combo_names(hp__loader *ld, const hp_plan *p, yaml_node_t *at)
{
  size_t n = hp_plan_combinations(p), k, j;
  char **names = calloc(n, sizeof(*names));

  if (names == NULL) {
    ld->oom = 1;
    return;
  }
  for (k = 0; k < n; k++) {
    if (hp_plan_combination_name(p, k, &names[k]) != 0) {
      ld->oom = 1;
      break;
    }
    if (strlen(names[k]) > MAX_COMBO_NAME) {
      hp__plan_err(ld, at,
                   "combination %zu's folder name '%.60s...' is %zu characters long, more than "
                   "%d: use shorter values (or names)",
                   k + 1, names[k], strlen(names[k]), MAX_COMBO_NAME);
      break;
    }
    for (j = 0; j < k; j++)
      if (strcmp(names[j], names[k]) == 0)
        break;
    if (j < k) {
      hp__plan_err(ld, at,
                   "combinations %zu and %zu would share the folder '%.80s': their values differ "
                   "only in characters other than letters, digits, '_', '.', '+' and '-'",
                   j + 1, k + 1, names[k]);
      break;
    }
  }
  for (k = 0; k < n; k++)
    free(names[k]);
  free(names);
}

void hp__plan_parse_params(hp__loader *ld, const hp__mapent *e, hp_plan *p)
{
  yaml_node_pair_t *pr;
  size_t n, i = 0, before = ld->nerrors;
  int r = hp__yaml_want_map(ld, "parameters", e->val);

  if (r <= 0)
    return;
  n = (size_t)(e->val->data.mapping.pairs.top - e->val->data.mapping.pairs.start);
  if (n == 0) {
    hp__plan_err(ld, e->val, "`parameters` is empty: give each a list of values, or leave it out");
    return;
  }
  if ((p->params = calloc(n, sizeof(*p->params))) == NULL) {
    ld->oom = 1;
    return;
  }
  p->nparams = n;
  for (pr = e->val->data.mapping.pairs.start; pr < e->val->data.mapping.pairs.top; pr++, i++)
    parse_param(ld, p, i, hp__yaml_node(ld, pr->key), hp__yaml_node(ld, pr->value));
  if (ld->nerrors != before || ld->oom)
    return;
  if (hp_plan_combinations(p) > HP_MAX_COMBINATIONS) {
    hp__plan_err(ld, e->key,
                 "the parameters make more than %d combinations; each is a session of its own: "
                 "sweep fewer values, or split the plan",
                 HP_MAX_COMBINATIONS);
    return;
  }
  check_combo_names(ld, p, e->key);
}
