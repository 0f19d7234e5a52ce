/*
 * libyaml for the plan loader: parsing the one document of a plan, and the shapes of its nodes.
 *
 * The document API gives us a tree of untyped nodes (every scalar is `tag:yaml.org,2002:str`)
 * and does not notice duplicate keys, so kinds, duplicates and unknown keys are all checked here.
 * Typed values are read by values.c on top of these helpers.
 */
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* Reports a libyaml error as `file:line:col: error: problem (context at line L)`. */
static void parser_error(hp__loader *ld, const yaml_parser_t *ps)
{
  size_t i, line = 1, col = 1;

  if (ps->error == YAML_MEMORY_ERROR) {
    ld->oom = 1;
    return;
  }
  if (ps->error == YAML_READER_ERROR) {
    /* The reader has no mark, only a byte offset: count lines ourselves. */
    for (i = 0; i < ps->problem_offset && i < ld->len; i++) {
      if (ld->text[i] == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    if (ps->problem_value != -1)
      hp__plan_err_at(ld, (long)line, (long)col, "%s (#%X at byte %zu)", ps->problem,
                      (unsigned)ps->problem_value, ps->problem_offset);
    else
      hp__plan_err_at(ld, (long)line, (long)col, "%s (at byte %zu)", ps->problem,
                      ps->problem_offset);
    return;
  }
  if (ps->context)
    hp__plan_err_at(ld, (long)ps->problem_mark.line + 1, (long)ps->problem_mark.column + 1,
                    "%s (%s at line %ld)", ps->problem ? ps->problem : "syntax error", ps->context,
                    (long)ps->context_mark.line + 1);
  else
    hp__plan_err_at(ld, (long)ps->problem_mark.line + 1, (long)ps->problem_mark.column + 1, "%s",
                    ps->problem ? ps->problem : "syntax error");
}

/* Parses the single document of `text` into *doc. Returns 1 with a document holding a root, 0
 * after reporting an error (nothing to delete), or -1 when out of memory. A second document in
 * the stream is an error: a plan is one mapping. */
int hp__yaml_load(hp__loader *ld, yaml_document_t *doc)
{
  yaml_parser_t ps;
  yaml_document_t extra;
  yaml_node_t *root;
  int ok = 1;

  if (!yaml_parser_initialize(&ps)) {
    ld->oom = 1;
    return -1;
  }
  yaml_parser_set_input_string(&ps, (const unsigned char *)ld->text, ld->len);
  if (!yaml_parser_load(&ps, doc)) {
    parser_error(ld, &ps); /* libyaml has already deleted the half-built document */
    yaml_parser_delete(&ps);
    return ld->oom ? -1 : 0;
  }
  root = yaml_document_get_root_node(doc);
  if (root == NULL) {
    hp__plan_err_at(ld, 1, 1,
                    "empty plan: expected a mapping with at least `app`, `metrics` and "
                    "`passes`");
    ok = 0;
  } else if (!yaml_parser_load(&ps, &extra)) {
    parser_error(ld, &ps);
    ok = 0;
  } else {
    if (yaml_document_get_root_node(&extra)) {
      hp__plan_err_at(ld, (long)extra.start_mark.line + 1, (long)extra.start_mark.column + 1,
                      "a second YAML document: a plan file holds exactly one");
      ok = 0;
    }
    yaml_document_delete(&extra);
  }
  yaml_parser_delete(&ps);
  if (!ok || ld->oom) {
    yaml_document_delete(doc);
    return ld->oom ? -1 : 0;
  }
  return 1;
}

long hp__yaml_line(const yaml_node_t *n)
{
  return n ? (long)n->start_mark.line + 1 : 0;
}

yaml_node_t *hp__yaml_node(hp__loader *ld, int id)
{
  return yaml_document_get_node(ld->doc, id);
}

const char *hp__yaml_str(const yaml_node_t *n)
{
  return (const char *)n->data.scalar.value;
}

/* A plain (unquoted) `~`, `null` or nothing at all: YAML's null, which we read as "not set". A
 * quoted "" or "null" is a string. */
int hp__yaml_is_null(const yaml_node_t *n)
{
  const char *s;

  if (n == NULL)
    return 1;
  if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  s = hp__yaml_str(n);
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

/* Says what a node is, for "got ..." in messages. */
const char *hp__yaml_kind(const yaml_node_t *n)
{
  if (hp__yaml_is_null(n))
    return "nothing (null)";
  switch (n->type) {
  case YAML_SEQUENCE_NODE: return "a list";
  case YAML_MAPPING_NODE: return "a mapping";
  default: return "a string";
  }
}

/* 1 when `v` is a scalar without embedded NUL bytes (YAML's "\0" escape could make one), 0 when
 * it is null (nothing is reported), -1 after reporting a wrong type. `type` names what was
 * expected, as in "`repeat` must be an integer, got a list". */
int hp__yaml_scalar(hp__loader *ld, const char *what, const char *type, yaml_node_t *v)
{
  if (hp__yaml_is_null(v))
    return 0;
  if (v->type != YAML_SCALAR_NODE) {
    hp__plan_err(ld, v, "`%s` must be %s, got %s", what, type, hp__yaml_kind(v));
    return -1;
  }
  if (strlen(hp__yaml_str(v)) != v->data.scalar.length) {
    hp__plan_err(ld, v, "`%s` must not contain a NUL character", what);
    return -1;
  }
  return 1;
}

/* Reports duplicate keys in a mapping: libyaml accepts them silently, and which one wins would
 * otherwise be an accident of our code. */
void hp__yaml_check_dups(hp__loader *ld, yaml_node_t *m)
{
  yaml_node_pair_t *p, *q;
  yaml_node_t *a, *b;

  for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    b = hp__yaml_node(ld, p->key);
    if (b == NULL || b->type != YAML_SCALAR_NODE)
      continue;
    for (q = m->data.mapping.pairs.start; q < p; q++) {
      a = hp__yaml_node(ld, q->key);
      if (a && a->type == YAML_SCALAR_NODE && a->data.scalar.length == b->data.scalar.length &&
          memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length) == 0) {
        hp__plan_err(ld, b, "duplicate key `%.80s` (first at line %ld)", hp__yaml_str(b),
                     hp__yaml_line(a));
        break;
      }
    }
  }
}

/* Walks a mapping against its known keys (NULL-terminated `keys`): unknown keys, keys that are
 * not strings and duplicates are reported; ents[i] receives the first occurrence of keys[i].
 * `section` names the mapping in messages (NULL: the plan's top level). */
void hp__yaml_fields(hp__loader *ld, yaml_node_t *m, const char *section, const char *const *keys,
                     hp__mapent *ents)
{
  yaml_node_pair_t *p;
  yaml_node_t *k;
  const char *hint;
  char list[256], where[80];
  size_t i;

  snprintf(where, sizeof(where), "%s%s%s", section ? "in `" : "at the top level",
           section ? section : "", section ? "`" : "");
  hp__yaml_check_dups(ld, m);
  for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    k = hp__yaml_node(ld, p->key);
    if (k == NULL)
      continue;
    if (k->type != YAML_SCALAR_NODE) {
      hp__plan_err(ld, k, "keys %s must be strings, got %s", where, hp__yaml_kind(k));
      continue;
    }
    for (i = 0; keys[i]; i++)
      if (strcmp(keys[i], hp__yaml_str(k)) == 0)
        break;
    if (keys[i] == NULL) {
      hint = hp__plan_suggest(hp__yaml_str(k), keys);
      hp__plan_err(ld, k, "unknown key `%.80s` %s (%s%s%s)", hp__yaml_str(k), where,
                   hint ? "did you mean `" : "known keys: ",
                   hint ? hint : hp__plan_join(keys, list, sizeof(list)), hint ? "`?" : "");
      continue;
    }
    if (ents[i].key == NULL) {
      ents[i].key = k;
      ents[i].val = hp__yaml_node(ld, p->value);
    }
  }
}

/* Where to point when a required key is missing or null: the key itself when it is there with no
 * value, else the mapping that lacks it. */
yaml_node_t *hp__yaml_missing_at(const hp__mapent *e, yaml_node_t *m)
{
  return e->key ? e->key : m;
}

/* 1 when `v` is a mapping, 0 when null, -1 after reporting a wrong type. */
int hp__yaml_want_map(hp__loader *ld, const char *what, yaml_node_t *v)
{
  if (hp__yaml_is_null(v))
    return 0;
  if (v->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, v, "`%s` must be a mapping (key: value lines), got %s", what,
                 hp__yaml_kind(v));
    return -1;
  }
  return 1;
}

int hp__yaml_want_seq(hp__loader *ld, const char *what, yaml_node_t *v)
{
  if (hp__yaml_is_null(v))
    return 0;
  if (v->type != YAML_SEQUENCE_NODE) {
    hp__plan_err(ld, v, "`%s` must be a list, got %s", what, hp__yaml_kind(v));
    return -1;
  }
  return 1;
}

size_t hp__yaml_seq_len(yaml_node_t *v)
{
  return (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
}

yaml_node_t *hp__yaml_seq_item(hp__loader *ld, yaml_node_t *v, size_t i)
{
  return hp__yaml_node(ld, v->data.sequence.items.start[i]);
}
