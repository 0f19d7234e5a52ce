/*
 * Kernel categories: rules that sort kernel names into groups (GEMM, attention, copies ...) for
 * profile summaries. They come from a plan's `categories:` or from a file of their own, loaded
 * with hp_categories_load; both go through the same section reader.
 */
#include "plan/plan.h"
#include "util/sys/fsutil.h"

#include <stdlib.h>
#include <string.h>

/* Frees every rule and the array. Accepts NULL (with any n). */
void hp_categories_free(hp_category_rule *rules, size_t n)
{
  size_t i;

  if (rules == NULL)
    return;
  for (i = 0; i < n; i++) {
    free(rules[i].name);
    hp_strv_free(&rules[i].patterns);
  }
  free(rules);
}

enum {
  C_NAME,
  C_PATTERNS,
  C_N
};
static const char *const category_keys[] = {"name", "patterns", NULL};
static const hp_plan_key_doc category_docs[] = {
    [C_NAME] = {"string, unique", NULL, NULL},
    [C_PATTERNS] = {"list of non-empty strings", NULL, NULL},
};
HP__KEY_DOCS(category_keys, category_docs);

/* `categories:` in a plan or a categories file. On any error the rules built so far are still
 * stored (and freed with the plan or by the caller). */
void hp__plan_parse_categories(hp__loader *ld, const hp__mapent *ce, hp_category_rule **rules,
                               size_t *nrules)
{
  yaml_node_t *v = ce->val;
  size_t i, j, k, n;

  if (hp__yaml_want_seq(ld, "categories", v) <= 0)
    return;
  n = hp__yaml_seq_len(v);
  if (n == 0) {
    hp__plan_err(
        ld, v, "`categories` is empty: list rules, or leave the key out to use the built-in ones");
    return;
  }
  if ((*rules = calloc(n, sizeof(**rules))) == NULL) {
    ld->oom = 1;
    return;
  }
  *nrules = n;
  for (i = 0; i < n; i++) {
    hp__mapent e[C_N] = {{NULL, NULL}};
    hp_category_rule *c = &(*rules)[i];
    yaml_node_t *it = hp__yaml_seq_item(ld, v, i);
    int r;
    if (it == NULL)
      continue;
    if (it->type != YAML_MAPPING_NODE) {
      hp__plan_err(ld, it, "a category must be a mapping {name, patterns}, got %s",
                   hp__yaml_kind(it));
      continue;
    }
    hp__yaml_fields(ld, it, "categories", category_keys, e);
    if (hp__plan_str(ld, "name", e[C_NAME].val, HP__NONEMPTY, &c->name) == 0)
      hp__plan_err(ld, hp__yaml_missing_at(&e[C_NAME], it), "a category needs a `name`");
    for (j = 0; j < i && c->name; j++)
      if ((*rules)[j].name && strcmp((*rules)[j].name, c->name) == 0) {
        hp__plan_err(ld, e[C_NAME].val, "duplicate category name `%s`", c->name);
        break;
      }
    r = hp__yaml_want_seq(ld, "patterns", e[C_PATTERNS].val);
    if (r == 0)
      hp__plan_err(ld, hp__yaml_missing_at(&e[C_PATTERNS], it),
                   "a category needs `patterns`, a list of "
                   "substrings of kernel names");
    if (r <= 0)
      continue;
    if (hp__yaml_seq_len(e[C_PATTERNS].val) == 0)
      hp__plan_err(ld, e[C_PATTERNS].val, "`patterns` is empty: list at least one substring");
    if (hp__plan_words(ld, "patterns", e[C_PATTERNS].val, &c->patterns) != 1)
      continue;
    for (k = 0; k < c->patterns.n; k++)
      if (c->patterns.v[k][0] == '\0')
        hp__plan_err(ld, hp__yaml_seq_item(ld, e[C_PATTERNS].val, k),
                     "items of `patterns` must not be empty: "
                     "an empty pattern would match every kernel");
  }
}

enum {
  CF_CATEGORIES,
  CF_N
};
static const char *const categories_file_keys[] = {"categories", NULL};

/* What a categories file gives while it is parsed. */
struct cat_file {
  hp_category_rule *rules;
  size_t n;
};

/* hp__side_parse for a categories file: its only top-level key is `categories:`. */
static void parse_categories_root(hp__loader *ld, yaml_node_t *root, void *arg)
{
  struct cat_file *f = arg;
  hp__mapent e[CF_N] = {{NULL, NULL}};

  if (root->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, root, "a categories file must be a mapping with one key, `categories`, got %s",
                 hp__yaml_kind(root));
    return;
  }
  hp__yaml_fields(ld, root, NULL, categories_file_keys, e);
  if (e[CF_CATEGORIES].key == NULL)
    hp__plan_err(ld, root, "missing `categories`: a list of {name, patterns}");
  else
    hp__plan_parse_categories(ld, &e[CF_CATEGORIES], &f->rules, &f->n);
}

/*
 * Loads kernel categories from a YAML file whose only top-level key is `categories:`. On success
 * *rules and *n hold new rules (free with hp_categories_free). On failure they are NULL and 0,
 * and the result is HP_EPLAN (messages in `diags`), HP_EIO or HP_ENOMEM.
 */
int hp_categories_load(const char *path, hp_category_rule **rules, size_t *n, hp_diags *diags)
{
  struct cat_file f = {NULL, 0};
  int r;

  if (path == NULL || rules == NULL || n == NULL)
    return HP_EINVAL;
  *rules = NULL;
  *n = 0;
  r = hp__plan_load_side(path, "categories", parse_categories_root, &f, diags);
  if (r) {
    hp_categories_free(f.rules, f.n);
    return r;
  }
  *rules = f.rules;
  *n = f.n;
  return 0;
}

/* The key table above and its docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_categories = category_keys;
const hp_plan_key_doc *const hp__plan_docs_categories = category_docs;
