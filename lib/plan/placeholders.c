/*
 * The `{name}` placeholders of a plan's expanded fields (params.c says which and why): each is
 * checked against the plan's parameters, and, for a combination's plan or a plan without
 * parameters, replaced in libyaml's tree before the sections read it.
 *
 * Working on the tree rather than on the finished hp_plan keeps the line of every field for the
 * messages, and keeps the expansion independent of the plan's structures: the plan of a
 * combination is simply the plan's sections read again with other text in a few scalars. A scalar
 * that is changed gets a new malloc'd value. In a plan without parameters the old one is freed,
 * and yaml_document_delete frees the new one as libyaml's own (libyaml allocates with malloc and
 * frees with free). A combination keeps the old one in ld->saved, and hp__plan_placeholders_undo
 * puts it back, so that every combination is read from the one document as written. A node
 * reached twice (a YAML alias) is done once.
 */
#include "plan/plan.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

enum {
  F_WORDS, /* a string, or a list of strings */
  F_ENV    /* a mapping whose values are expanded, not its keys */
};

/* The expanded fields of each section. */
typedef struct field {
  const char *key;
  int kind;
} field;

static const field app_fields[] = {
    {"command", F_WORDS}, {"env", F_ENV},       {"cwd", F_WORDS}, {"build", F_WORDS},
    {"prepare", F_WORDS}, {"cleanup", F_WORDS}, {NULL, 0}};
static const field variant_fields[] = {
    {"command", F_WORDS}, {"env", F_ENV}, {"cwd", F_WORDS}, {"build", F_WORDS}, {NULL, 0}};
static const field pass_fields[] = {{"args", F_WORDS},   {"command", F_WORDS},
                                    {"kernel", F_WORDS}, {"counters", F_WORDS},
                                    {"env", F_ENV},      {NULL, 0}};
static const field profiler_fields[] = {{"args", F_WORDS}, {NULL, 0}};

/* A scalar a combination replaced, and its text as written. */
struct hp__yaml_saved {
  yaml_node_t *node;
  yaml_char_t *value;
  size_t length;
  yaml_scalar_style_t style;
};

typedef struct walk {
  hp__loader *ld;
  const hp_plan *p;
  int rewrite;         /* replace, rather than only check */
  unsigned char *seen; /* by node id - 1: done already */
  size_t nnodes;
} walk;

/* The parameter called s[0..n), or -1; -2 for a name another template owns. */
static long lookup(const walk *w, const char *s, size_t n)
{
  size_t i;

  for (i = 0; i < w->p->nparams; i++)
    if (w->p->params[i].name && strlen(w->p->params[i].name) == n &&
        strncmp(w->p->params[i].name, s, n) == 0)
      return (long)i;
  return hp__plan_reserved_placeholder(s, n) ? -2 : -1;
}

/* The parameter whose name `name` is a likely typo of, or NULL. */
static const char *suggest(const walk *w, const char *name, size_t len)
{
  const char *names[65], *hint = NULL;
  char *word = hp__strndup(name, len);
  size_t i, n = 0;

  for (i = 0; i < w->p->nparams && n < 64; i++)
    if (w->p->params[i].name)
      names[n++] = w->p->params[i].name;
  names[n] = NULL;
  if (word)
    hint = hp__plan_suggest(word, names);
  free(word);
  return hint;
}

/* Reports `{name}` that is no parameter, with the parameters there are. */
static void unknown(walk *w, yaml_node_t *n, const char *what, const char *name, size_t len)
{
  hp__buf list = HP__BUF_INIT;
  const char *hint = suggest(w, name, len);
  size_t i;

  for (i = 0; i < w->p->nparams; i++)
    if (w->p->params[i].name)
      hp__buf_printf(&list, "%s%s", list.len ? ", " : "", w->p->params[i].name);
  if (list.len && hint)
    hp__plan_err(w->ld, n, "`{%.*s}` in `%s` is not a parameter (did you mean `{%s}`?)", (int)len,
                 name, what, hint);
  else if (list.len)
    hp__plan_err(w->ld, n,
                 "`{%.*s}` in `%s` is not a parameter (parameters: %s); write {{%.*s}} for the "
                 "text {%.*s}",
                 (int)len, name, what, list.data, (int)len, name, (int)len, name);
  else
    hp__plan_err(w->ld, n,
                 "`{%.*s}` in `%s` is not a parameter: this plan has no `parameters:` (a sweep "
                 "declares them, as in parameters: {%.*s: [1, 2]}); write {{%.*s}} for the text "
                 "{%.*s}",
                 (int)len, name, what, (int)len, name, (int)len, name, (int)len, name);
  hp__buf_free(&list);
}

/* Scans one string: each placeholder is checked and, when rewriting, replaced in `out`.
 * *changed says whether the text differs. Returns 0 or HP_ENOMEM. */
static int scan(walk *w, yaml_node_t *n, const char *what, const char *s, hp__buf *out,
                int *changed)
{
  size_t i = 0, len;
  long k;
  int r = 0;

  while (s[i] && !r) {
    if (s[i] != '{' || (i > 0 && s[i - 1] == '$')) {
      r = hp__buf_addc(out, s[i++]);
      continue;
    }
    /* {{name}}: the text {name}. */
    if (s[i + 1] == '{' && (len = hp__plan_ident_len(s + i + 2)) > 0 && s[i + 2 + len] == '}' &&
        s[i + 3 + len] == '}') {
      r = hp__buf_add(out, s + i + 1, len + 2);
      i += len + 4;
      *changed = 1;
      continue;
    }
    len = hp__plan_ident_len(s + i + 1);
    if (len == 0 || s[i + 1 + len] != '}') {
      r = hp__buf_addc(out, s[i++]);
      continue;
    }
    k = lookup(w, s + i + 1, len);
    if (k >= 0 && w->p->combo >= 0) {
      r = hp__buf_adds(out, hp_plan_combination_value(w->p, (size_t)w->p->combo, (size_t)k));
      *changed = 1;
    } else {
      if (k == -1)
        unknown(w, n, what, s + i + 1, len);
      r = hp__buf_add(out, s + i, len + 2);
    }
    i += len + 2;
  }
  return r;
}

/* Keeps scalar n's text as written in ld->saved, before a combination replaces it. */
static int save(hp__loader *ld, yaml_node_t *n)
{
  struct hp__yaml_saved *grown = realloc(ld->saved, (ld->nsaved + 1) * sizeof(*grown));

  if (grown == NULL) {
    ld->oom = 1;
    return HP_ENOMEM;
  }
  ld->saved = grown;
  grown[ld->nsaved++] =
      (struct hp__yaml_saved){n, n->data.scalar.value, n->data.scalar.length, n->data.scalar.style};
  return 0;
}

void hp__plan_placeholders_undo(hp__loader *ld)
{
  size_t i;

  for (i = 0; i < ld->nsaved; i++) {
    yaml_node_t *n = ld->saved[i].node;
    free(n->data.scalar.value);
    n->data.scalar.value = ld->saved[i].value;
    n->data.scalar.length = ld->saved[i].length;
    n->data.scalar.style = ld->saved[i].style;
  }
  free(ld->saved);
  ld->saved = NULL;
  ld->nsaved = 0;
}

/* Checks (and when rewriting replaces) the placeholders of one scalar node. */
static void do_scalar(walk *w, yaml_node_t *n, const char *what)
{
  hp__buf out = HP__BUF_INIT;
  int changed = 0;
  size_t id;

  if (n == NULL || n->type != YAML_SCALAR_NODE)
    return;
  id = (size_t)(n - w->ld->doc->nodes.start);
  if (id < w->nnodes && w->seen[id])
    return;
  if (id < w->nnodes)
    w->seen[id] = 1;
  if (strlen(hp__yaml_str(n)) != n->data.scalar.length)
    return; /* a NUL inside: the section's reader reports it */
  if (scan(w, n, what, hp__yaml_str(n), &out, &changed) || hp__buf_adds(&out, "")) {
    w->ld->oom = 1;
  } else if (changed && w->rewrite) {
    if (w->p->combo < 0)
      free(n->data.scalar.value);
    else if (save(w->ld, n) != 0) {
      hp__buf_free(&out);
      return;
    }
    n->data.scalar.length = out.len;
    n->data.scalar.value = (yaml_char_t *)hp__buf_steal(&out);
    /* A value is data: an expanded plain `null` or `~` must not turn the field into "unset". */
    n->data.scalar.style = YAML_SINGLE_QUOTED_SCALAR_STYLE;
  }
  hp__buf_free(&out);
}

/* The node of `key` in mapping m (the first one), or NULL. */
static yaml_node_t *get(walk *w, yaml_node_t *m, const char *key)
{
  yaml_node_pair_t *p;
  yaml_node_t *k;

  if (m == NULL || m->type != YAML_MAPPING_NODE)
    return NULL;
  for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    k = hp__yaml_node(w->ld, p->key);
    if (k && k->type == YAML_SCALAR_NODE && strcmp(hp__yaml_str(k), key) == 0)
      return hp__yaml_node(w->ld, p->value);
  }
  return NULL;
}

/* The expanded fields of one section mapping m. */
static void do_fields(walk *w, yaml_node_t *m, const char *section, const field *fs)
{
  yaml_node_pair_t *p;
  yaml_node_t *v;
  char what[64];
  size_t i;

  for (; fs->key; fs++) {
    if ((v = get(w, m, fs->key)) == NULL)
      continue;
    snprintf(what, sizeof(what), "%s%s", section, fs->key);
    if (v->type == YAML_SCALAR_NODE)
      do_scalar(w, v, what);
    else if (v->type == YAML_SEQUENCE_NODE && fs->kind == F_WORDS)
      for (i = 0; i < hp__yaml_seq_len(v); i++)
        do_scalar(w, hp__yaml_seq_item(w->ld, v, i), what);
    else if (v->type == YAML_MAPPING_NODE && fs->kind == F_ENV)
      for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++)
        do_scalar(w, hp__yaml_node(w->ld, p->value), what);
  }
}

/* Every item of the list `key` (a mapping each) in root. */
static void do_list(walk *w, yaml_node_t *root, const char *key, const char *section,
                    const field *fs)
{
  yaml_node_t *v = get(w, root, key);
  size_t i;

  if (v == NULL || v->type != YAML_SEQUENCE_NODE)
    return;
  for (i = 0; i < hp__yaml_seq_len(v); i++)
    do_fields(w, hp__yaml_seq_item(w->ld, v, i), section, fs);
}

void hp__plan_placeholders(hp__loader *ld, yaml_node_t *root, const hp_plan *p)
{
  walk w;

  memset(&w, 0, sizeof(w));
  w.ld = ld;
  w.p = p;
  /* A sweep's plan as written keeps its placeholders: only a combination's plan is run. */
  w.rewrite = p->nparams == 0 || p->combo >= 0;
  w.nnodes = (size_t)(ld->doc->nodes.top - ld->doc->nodes.start);
  if ((w.seen = calloc(w.nnodes + 1, 1)) == NULL) {
    ld->oom = 1;
    return;
  }
  do_fields(&w, get(&w, root, "app"), "app.", app_fields);
  do_fields(&w, get(&w, root, "profiler"), "profiler.", profiler_fields);
  do_list(&w, root, "passes", "passes: ", pass_fields);
  do_list(&w, root, "variants", "variants: ", variant_fields);
  free(w.seen);
}
