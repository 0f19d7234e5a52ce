/*
 * The plan loader: reads a YAML plan with libyaml's document API and turns it into an hp_plan.
 *
 * Loading behaves like a compiler: every problem is reported with the file, line and column of
 * the offending node, and loading goes on after an error so that one run shows as many mistakes
 * as possible. Only when no error was found does the caller get a plan. Every key is described in
 * docs/plan.md; keep the two in step.
 *
 * libyaml hands us untyped strings (every scalar is `tag:yaml.org,2002:str`) and does not notice
 * duplicate keys, so typing, duplicates and YAML 1.1 surprises (yes/no booleans) are all checked
 * here. Messages are collected in a private list and sorted by position before they reach the
 * caller, because sections are checked in dependency order (metrics before gates, passes before
 * variants) rather than in the order they appear in the file.
 */
#include "tool/driver.h"
#include "util/buf.h"
#include "util/fsutil.h"
#include "util/strv.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Limits that keep a typo (repeat: 1000000000) from starting a session that never ends. */
#define MAX_REPEAT 100000L
#define MAX_WARMUP 100000L
#define MAX_LAUNCH_COUNT 1000000000L

/* The pattern of the metric shorthand: the app prints `NAME=VALUE`. */
#define SHORTHAND_VALUE "=([-+0-9.eE]+)"

typedef struct loader {
  const char *file; /* for messages */
  const char *text; /* the input, to turn a reader error's byte offset into line:col */
  size_t len;
  yaml_document_t *doc;
  hp_diags diags; /* this load's messages; sorted into the caller's list at the end */
  size_t nerrors;
  int oom;
  int tool_ok; /* the plan's profiler.tool is known */
} loader;

/* A mapping's known key as found: both NULL when the key is absent. */
typedef struct mapent {
  yaml_node_t *key;
  yaml_node_t *val;
} mapent;

/* ---------------------------------------------------------------------------------------------- */
/* Messages                                                                                        */

static void vlerr(loader *ld, long line, long col, const char *fmt, va_list ap)
{
  hp__buf b = HP__BUF_INIT;

  ld->nerrors++;
  if (hp__buf_vprintf(&b, fmt, ap) ||
      hp_diags_add(&ld->diags, HP_DIAG_ERROR, ld->file, line, col, "%s", b.data))
    ld->oom = 1;
  hp__buf_free(&b);
}

/* Reports an error at a node (libyaml marks are 0-based; ours are 1-based). */
static void lerr(loader *ld, const yaml_node_t *at, const char *fmt, ...) HP_PRINTF(3, 4);
static void lerr(loader *ld, const yaml_node_t *at, const char *fmt, ...)
{
  va_list ap;
  long line = 0, col = 0;

  if (at) {
    line = (long)at->start_mark.line + 1;
    col = (long)at->start_mark.column + 1;
  }
  va_start(ap, fmt);
  vlerr(ld, line, col, fmt, ap);
  va_end(ap);
}

static void lerr_at(loader *ld, long line, long col, const char *fmt, ...) HP_PRINTF(4, 5);
static void lerr_at(loader *ld, long line, long col, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vlerr(ld, line, col, fmt, ap);
  va_end(ap);
}

static long node_line(const yaml_node_t *n)
{
  return n ? (long)n->start_mark.line + 1 : 0;
}

/* Copies a string, remembering an allocation failure instead of making every caller check. */
static char *ldup(loader *ld, const char *s)
{
  char *p = hp__strdup(s);

  if (s && p == NULL)
    ld->oom = 1;
  return p;
}

static int lcmp_ci(char a, char b)
{
  if (a >= 'A' && a <= 'Z')
    a = (char)(a - 'A' + 'a');
  if (b >= 'A' && b <= 'Z')
    b = (char)(b - 'A' + 'a');
  return a == b;
}

/* Levenshtein distance, ignoring case; long words are simply "far". */
static size_t edit_distance(const char *a, const char *b)
{
  size_t row[65], la = strlen(a), lb = strlen(b), i, j, diag, up;

  if (la > 64 || lb > 64)
    return (size_t)-1;
  for (j = 0; j <= lb; j++)
    row[j] = j;
  for (i = 1; i <= la; i++) {
    diag = row[0];
    row[0] = i;
    for (j = 1; j <= lb; j++) {
      up = row[j];
      row[j] = diag + !lcmp_ci(a[i - 1], b[j - 1]);
      if (up + 1 < row[j])
        row[j] = up + 1;
      if (row[j - 1] + 1 < row[j])
        row[j] = row[j - 1] + 1;
      diag = up;
    }
  }
  return row[lb];
}

/* The candidate closest to `word`, or NULL when none is close enough to be a likely typo: one
 * edit for short words, two for longer ones. */
static const char *suggest(const char *word, const char *const *cands)
{
  size_t best = (size_t)-1, d, limit = strlen(word) <= 4 ? 1 : 2;
  const char *pick = NULL;

  for (; *cands; cands++) {
    d = edit_distance(word, *cands);
    if (d < best) {
      best = d;
      pick = *cands;
    }
  }
  return best <= limit ? pick : NULL;
}

/* Joins a NULL-terminated list for messages ("a, b, c") into a caller-provided buffer. */
static const char *join_names(const char *const *names, char *buf, size_t size)
{
  size_t len = 0;

  buf[0] = '\0';
  for (; *names && len < size; names++) {
    snprintf(buf + len, size - len, "%s%s", len ? ", " : "", *names);
    len += strlen(buf + len);
  }
  return buf;
}

/* ---------------------------------------------------------------------------------------------- */
/* Nodes and scalars                                                                               */

static yaml_node_t *get_node(loader *ld, int id)
{
  return yaml_document_get_node(ld->doc, id);
}

static const char *sval(const yaml_node_t *n)
{
  return (const char *)n->data.scalar.value;
}

/* A plain (unquoted) `~`, `null` or nothing at all: YAML's null, which we read as "not set". A
 * quoted "" or "null" is a string. */
static int is_null(const yaml_node_t *n)
{
  const char *s;

  if (n == NULL)
    return 1;
  if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  s = sval(n);
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

/* Says what a node is, for "got ..." in messages. */
static const char *kind(const yaml_node_t *n)
{
  if (is_null(n))
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
static int scalar(loader *ld, const char *what, const char *type, yaml_node_t *v)
{
  if (is_null(v))
    return 0;
  if (v->type != YAML_SCALAR_NODE) {
    lerr(ld, v, "`%s` must be %s, got %s", what, type, kind(v));
    return -1;
  }
  if (strlen(sval(v)) != v->data.scalar.length) {
    lerr(ld, v, "`%s` must not contain a NUL character", what);
    return -1;
  }
  return 1;
}

/* Reports duplicate keys in a mapping: libyaml accepts them silently, and which one wins would
 * otherwise be an accident of our code. */
static void check_dups(loader *ld, yaml_node_t *m)
{
  yaml_node_pair_t *p, *q;
  yaml_node_t *a, *b;

  for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    b = get_node(ld, p->key);
    if (b == NULL || b->type != YAML_SCALAR_NODE)
      continue;
    for (q = m->data.mapping.pairs.start; q < p; q++) {
      a = get_node(ld, q->key);
      if (a && a->type == YAML_SCALAR_NODE && a->data.scalar.length == b->data.scalar.length &&
          memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length) == 0) {
        lerr(ld, b, "duplicate key `%.80s` (first at line %ld)", sval(b), node_line(a));
        break;
      }
    }
  }
}

/* Walks a mapping against its known keys (NULL-terminated `keys`): unknown keys, keys that are
 * not strings and duplicates are reported; ents[i] receives the first occurrence of keys[i].
 * `section` names the mapping in messages (NULL: the plan's top level). */
static void map_fields(loader *ld, yaml_node_t *m, const char *section, const char *const *keys,
                       mapent *ents)
{
  yaml_node_pair_t *p;
  yaml_node_t *k;
  const char *hint;
  char list[256], where[80];
  size_t i;

  if (section)
    snprintf(where, sizeof(where), "in `%s`", section);
  else
    snprintf(where, sizeof(where), "at the top level");
  check_dups(ld, m);
  for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    k = get_node(ld, p->key);
    if (k == NULL)
      continue;
    if (k->type != YAML_SCALAR_NODE) {
      lerr(ld, k, "keys %s must be strings, got %s", where, kind(k));
      continue;
    }
    for (i = 0; keys[i]; i++)
      if (strcmp(keys[i], sval(k)) == 0)
        break;
    if (keys[i] == NULL) {
      hint = suggest(sval(k), keys);
      if (hint)
        lerr(ld, k, "unknown key `%.80s` %s (did you mean `%s`?)", sval(k), where, hint);
      else
        lerr(ld, k, "unknown key `%.80s` %s (known keys: %s)", sval(k), where,
             join_names(keys, list, sizeof(list)));
      continue;
    }
    if (ents[i].key == NULL) {
      ents[i].key = k;
      ents[i].val = get_node(ld, p->value);
    }
  }
}

/* Where to point when a required key is missing or null: the key itself when it is there with no
 * value, else the mapping that lacks it. */
static yaml_node_t *missing_at(const mapent *e, yaml_node_t *m)
{
  return e->key ? e->key : m;
}

/* 1 when `v` is a mapping, 0 when null, -1 after reporting a wrong type. */
static int want_map(loader *ld, const char *what, yaml_node_t *v)
{
  if (is_null(v))
    return 0;
  if (v->type != YAML_MAPPING_NODE) {
    lerr(ld, v, "`%s` must be a mapping (key: value lines), got %s", what, kind(v));
    return -1;
  }
  return 1;
}

static int want_seq(loader *ld, const char *what, yaml_node_t *v)
{
  if (is_null(v))
    return 0;
  if (v->type != YAML_SEQUENCE_NODE) {
    lerr(ld, v, "`%s` must be a list, got %s", what, kind(v));
    return -1;
  }
  return 1;
}

static size_t seq_len(yaml_node_t *v)
{
  return (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
}

static yaml_node_t *seq_item(loader *ld, yaml_node_t *v, size_t i)
{
  return get_node(ld, v->data.sequence.items.start[i]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Typed values. Each returns 1 when it stored a value, 0 when the value is absent or null (the   */
/* default applies) and -1 after reporting an error; *out is only written on 1.                   */

#define NONEMPTY 1

static int get_str(loader *ld, const char *what, yaml_node_t *v, int flags, char **out)
{
  int r = scalar(ld, what, "a string", v);

  if (r <= 0)
    return r;
  if ((flags & NONEMPTY) && *sval(v) == '\0') {
    lerr(ld, v, "`%s` must not be empty", what);
    return -1;
  }
  free(*out);
  *out = ldup(ld, sval(v));
  return 1;
}

/* Only decimal digits with an optional sign: strtol alone would accept blanks and "0x". */
static int parse_long(const char *s, long *out)
{
  const char *p = s;
  char *end;
  long v;

  if (*p == '+' || *p == '-')
    p++;
  if (*p == '\0' || strspn(p, "0123456789") != strlen(p))
    return HP_EINVAL;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno == ERANGE)
    return HP_ERANGE;
  *out = v;
  return 0;
}

static int get_long(loader *ld, const char *what, yaml_node_t *v, long min, long max, long *out)
{
  long n = 0;
  int r = scalar(ld, what, "an integer", v), e;

  if (r <= 0)
    return r;
  e = parse_long(sval(v), &n);
  if (e == HP_EINVAL || (e == 0 && n < min) || (e == HP_ERANGE && sval(v)[0] == '-')) {
    lerr(ld, v, "`%s` must be an integer >= %ld, got '%.80s'", what, min, sval(v));
    return -1;
  }
  if (e || n > max) {
    lerr(ld, v, "`%s` must be an integer <= %ld, got '%.80s'", what, max, sval(v));
    return -1;
  }
  *out = n;
  return 1;
}

static int get_u64(loader *ld, const char *what, yaml_node_t *v, uint64_t *out)
{
  const char *s;
  char *end;
  unsigned long long n;
  int r = scalar(ld, what, "a non-negative integer", v);

  if (r <= 0)
    return r;
  s = sval(v);
  if (*s == '+')
    s++;
  errno = 0;
  if (*s == '\0' || strspn(s, "0123456789") != strlen(s) ||
      ((n = strtoull(s, &end, 10)), errno == ERANGE)) {
    lerr(ld, v, "`%s` must be a non-negative integer below 2^64, got '%.80s'", what, sval(v));
    return -1;
  }
  *out = (uint64_t)n;
  return 1;
}

/* A decimal number, or with `percent` also "5%" (= 0.05). Like hp_parse_duration, the characters
 * are checked before strtod so that "inf", "nan" and hex floats are refused. */
static int parse_number(const char *s, int percent, double *out)
{
  size_t n = strlen(s);
  double scale = 1.0, v;
  char *end;

  if (percent && n > 1 && s[n - 1] == '%') {
    scale = 0.01;
    n--;
  }
  if (n == 0 || strspn(s, "0123456789.eE+-") < n)
    return HP_EINVAL;
  errno = 0;
  v = strtod(s, &end);
  if ((size_t)(end - s) != n || end == s)
    return HP_EINVAL;
  if (errno == ERANGE && v != 0)
    return HP_ERANGE;
  *out = v * scale;
  return isfinite(*out) ? 0 : HP_ERANGE;
}

static int get_number(loader *ld, const char *what, yaml_node_t *v, int percent, double *out)
{
  int r = scalar(ld, what, "a number", v);

  if (r <= 0)
    return r;
  if (parse_number(sval(v), percent, out)) {
    lerr(ld, v, "`%s` must be a number%s, got '%.80s'", what,
         percent ? " (a fraction such as 0.05, or a percentage such as 5%)" : "", sval(v));
    return -1;
  }
  return 1;
}

/* Only true and false (in YAML 1.2's three spellings). YAML 1.1's yes/no/on/off/y/n are refused
 * with a hint rather than guessed: `country: no` style surprises are what the rule prevents. */
static int get_bool(loader *ld, const char *what, yaml_node_t *v, int *out)
{
  static const char *const yaml11[] = {"yes", "no", "on", "off", "y", "n", NULL};
  const char *s;
  size_t i;
  int r = scalar(ld, what, "true or false", v);

  if (r <= 0)
    return r;
  s = sval(v);
  if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
    *out = 1;
    return 1;
  }
  if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
    *out = 0;
    return 1;
  }
  for (i = 0; yaml11[i]; i++)
    if (strcasecmp(s, yaml11[i]) == 0)
      break;
  if (yaml11[i])
    lerr(ld, v,
         "`%s` must be true or false, got '%s' (YAML 1.1 yes/no/on/off are not accepted: "
         "write true or false)",
         what, s);
  else
    lerr(ld, v, "`%s` must be true or false, got '%.80s'", what, s);
  return -1;
}

static int get_duration(loader *ld, const char *what, yaml_node_t *v, double *out)
{
  int r = scalar(ld, what, "a duration", v), e;

  if (r <= 0)
    return r;
  e = hp_parse_duration(sval(v), out);
  if (e == HP_ERANGE) {
    lerr(ld, v, "`%s` must be a duration >= 0, got '%.80s'", what, sval(v));
    return -1;
  }
  if (e) {
    lerr(ld, v, "`%s` must be a duration such as 90, 90s, 1.5m, 500ms or 2h, got '%.80s'", what,
         sval(v));
    return -1;
  }
  return 1;
}

/* One of `names` (NULL-terminated); *out is its index. */
static int get_enum(loader *ld, const char *what, yaml_node_t *v, const char *const *names,
                    int *out)
{
  char list[256];
  const char *hint;
  int i, r = scalar(ld, what, "a string", v);

  if (r <= 0)
    return r;
  for (i = 0; names[i]; i++)
    if (strcmp(names[i], sval(v)) == 0) {
      *out = i;
      return 1;
    }
  hint = suggest(sval(v), names);
  if (hint)
    lerr(ld, v, "`%s` must be one of %s, got '%.80s' (did you mean `%s`?)", what,
         join_names(names, list, sizeof(list)), sval(v), hint);
  else
    lerr(ld, v, "`%s` must be one of %s, got '%.80s'", what, join_names(names, list, sizeof(list)),
         sval(v));
  return -1;
}

/* A list of strings, or one string split into words as sh would (hp_split_words). An empty list
 * or blank string stores an empty vector and returns 1: callers decide whether empty is wrong. */
static int get_words(loader *ld, const char *what, yaml_node_t *v, hp_strv *out)
{
  yaml_node_t *it;
  size_t i;
  int r, bad = 0;

  if (is_null(v))
    return 0;
  hp_strv_free(out);
  if (v->type == YAML_SCALAR_NODE) {
    if (scalar(ld, what, "a list of strings or a string", v) < 0)
      return -1;
    r = hp_split_words(sval(v), out);
    if (r == HP_EPARSE) {
      lerr(ld, v, "`%s` has an unterminated quote: '%.80s'", what, sval(v));
      return -1;
    }
    if (r)
      ld->oom = 1;
    return r ? -1 : 1;
  }
  if (v->type != YAML_SEQUENCE_NODE) {
    lerr(ld, v, "`%s` must be a list of strings or a string, got %s", what, kind(v));
    return -1;
  }
  /* A list gives a vector that is NULL-terminated even when it is empty, like hp_split_words. */
  if ((out->v = calloc(1, sizeof(*out->v))) == NULL) {
    ld->oom = 1;
    return -1;
  }
  for (i = 0; i < seq_len(v); i++) {
    it = seq_item(ld, v, i);
    if (it == NULL)
      continue;
    if (is_null(it) || it->type != YAML_SCALAR_NODE) {
      lerr(ld, it, "items of `%s` must be strings, got %s%s", what, kind(it),
           is_null(it) ? " (write '' for an empty argument)" : "");
      bad = 1;
      continue;
    }
    if (strlen(sval(it)) != it->data.scalar.length) {
      lerr(ld, it, "items of `%s` must not contain a NUL character", what);
      bad = 1;
      continue;
    }
    if (hp__strv_push(out, sval(it)))
      ld->oom = 1;
  }
  return bad ? -1 : 1;
}

/* `env:` mapping of variable name -> scalar. Values are taken literally (`X:` gives ""). */
static int get_env(loader *ld, const char *what, yaml_node_t *v, hp_kv **env, size_t *nenv)
{
  yaml_node_pair_t *p;
  yaml_node_t *k, *val;
  size_t cap;
  int r = want_map(ld, what, v);

  if (r <= 0)
    return r;
  check_dups(ld, v);
  cap = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
  if (cap && (*env = calloc(cap, sizeof(**env))) == NULL) {
    ld->oom = 1;
    return -1;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    k = get_node(ld, p->key);
    val = get_node(ld, p->value);
    if (k == NULL || val == NULL)
      continue;
    if (k->type != YAML_SCALAR_NODE || is_null(k) || strchr(sval(k), '=') ||
        strlen(sval(k)) != k->data.scalar.length) {
      lerr(ld, k, "`%s` keys must be variable names (a non-empty string without '='), got %s", what,
           k->type == YAML_SCALAR_NODE && !is_null(k) ? "a name with '='" : kind(k));
      r = -1;
      continue;
    }
    if (val->type != YAML_SCALAR_NODE || strlen(sval(val)) != val->data.scalar.length) {
      lerr(ld, val, "`%s.%s` must be a string, got %s", what, sval(k),
           val->type == YAML_SCALAR_NODE ? "a NUL character" : kind(val));
      r = -1;
      continue;
    }
    (*env)[*nenv].key = ldup(ld, sval(k));
    (*env)[*nenv].value = ldup(ld, sval(val));
    (*nenv)++;
  }
  return r;
}

static int is_name_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
      c == '.' || c == '-';
}

/* Letters, digits, '_', '.' and '-': names become folder names, and "." / ".." would escape. */
static int valid_name(const char *s)
{
  if (*s == '\0' || !strcmp(s, ".") || !strcmp(s, ".."))
    return 0;
  for (; *s; s++)
    if (!is_name_char(*s))
      return 0;
  return 1;
}

static int get_name(loader *ld, const char *what, yaml_node_t *v, char **out)
{
  int r = get_str(ld, what, v, NONEMPTY, out);

  if (r == 1 && !valid_name(*out)) {
    lerr(ld, v,
         "`%s` '%.80s' is not a valid name: use letters, digits, '_', '.' and '-' "
         "(it becomes a folder name)",
         what, *out);
    return -1;
  }
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Freeing                                                                                         */

static void app_free(hp_app *a)
{
  size_t i;

  hp_strv_free(&a->command);
  for (i = 0; i < a->nenv; i++) {
    free(a->env[i].key);
    free(a->env[i].value);
  }
  free(a->env);
  a->env = NULL;
  a->nenv = 0;
  free(a->cwd);
  a->cwd = NULL;
  hp_strv_free(&a->build);
}

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

/* Frees the plan and everything it holds. Safe on a half-built plan: arrays are allocated zeroed
 * and their counts are set at allocation, so unfilled entries are NULL. Accepts NULL. */
void hp_plan_free(hp_plan *p)
{
  size_t i;

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
  }
  free(p->passes);
  for (i = 0; p->variants && i < p->nvariants; i++) {
    free(p->variants[i].name);
    app_free(&p->variants[i].app);
  }
  free(p->variants);
  for (i = 0; p->gates && i < p->ngates; i++)
    free(p->gates[i].metric);
  free(p->gates);
  free(p->sampler.tool);
  hp_strv_free(&p->sampler.command);
  hp_categories_free(p->categories, p->ncategories);
  free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Sections                                                                                        */

enum {
  A_COMMAND,
  A_ENV,
  A_CWD,
  A_TIMEOUT,
  A_BUILD,
  A_N
};
static const char *const app_keys[] = {"command", "env", "cwd", "timeout", "build", NULL};

/* The fields an app and a variant share. `prefix` starts each key in messages ("app." or ""). */
static void parse_app_fields(loader *ld, yaml_node_t *m, const char *prefix, const mapent *e,
                             hp_app *a)
{
  char what[64];
  int r;

  snprintf(what, sizeof(what), "%scommand", prefix);
  r = get_words(ld, what, e[A_COMMAND].val, &a->command);
  if (r == 0)
    lerr(ld, missing_at(&e[A_COMMAND], m), "missing `%s`: the program to run and its arguments",
         what);
  else if (r == 1 && a->command.n == 0)
    lerr(ld, e[A_COMMAND].val, "`%s` is empty: give the program to run", what);
  snprintf(what, sizeof(what), "%senv", prefix);
  get_env(ld, what, e[A_ENV].val, &a->env, &a->nenv);
  snprintf(what, sizeof(what), "%scwd", prefix);
  get_str(ld, what, e[A_CWD].val, NONEMPTY, &a->cwd);
  snprintf(what, sizeof(what), "%stimeout", prefix);
  get_duration(ld, what, e[A_TIMEOUT].val, &a->timeout);
  snprintf(what, sizeof(what), "%sbuild", prefix);
  get_words(ld, what, e[A_BUILD].val, &a->build);
}

static void parse_app(loader *ld, const mapent *ae, yaml_node_t *root, hp_app *a)
{
  mapent e[A_N] = {{NULL, NULL}};
  yaml_node_t *v = ae->val;
  int r = want_map(ld, "app", v);

  if (r == 0)
    lerr(ld, missing_at(ae, root), "missing `app`: the program to measure (app: {command: [...]})");
  if (r <= 0)
    return;
  map_fields(ld, v, "app", app_keys, e);
  parse_app_fields(ld, v, "app.", e, a);
}

static void check_tool(loader *ld, const char *what, yaml_node_t *v, const char *tool, int *ok)
{
  static const char *const tools[] = {"hipprof", "rocprofv3", "rocprof", "ncu", NULL};
  const char *hint;

  *ok = hp__driver_find(tool) != NULL;
  if (*ok)
    return;
  hint = suggest(tool, tools);
  if (hint)
    lerr(ld, v, "`%s`: unknown profiler '%.80s' (known: %s; did you mean `%s`?)", what, tool,
         hp__driver_tools(), hint);
  else
    lerr(ld, v, "`%s`: unknown profiler '%.80s' (known: %s)", what, tool, hp__driver_tools());
}

enum {
  P_TOOL,
  P_PATH,
  P_ENV_SCRIPT,
  P_ARGS,
  P_N
};
static const char *const profiler_keys[] = {"tool", "path", "env_script", "args", NULL};

static void parse_profiler(loader *ld, yaml_node_t *v, hp_plan *p)
{
  mapent e[P_N] = {{NULL, NULL}};

  if (want_map(ld, "profiler", v) > 0) {
    map_fields(ld, v, "profiler", profiler_keys, e);
    if (get_str(ld, "profiler.tool", e[P_TOOL].val, NONEMPTY, &p->profiler.tool) == 1 &&
        p->profiler.tool) {
      check_tool(ld, "profiler.tool", e[P_TOOL].val, p->profiler.tool, &ld->tool_ok);
    } else if (e[P_TOOL].val && !is_null(e[P_TOOL].val)) {
      ld->tool_ok = 0; /* already reported; don't judge modes against a default it didn't ask for */
    }
    get_str(ld, "profiler.path", e[P_PATH].val, NONEMPTY, &p->profiler.path);
    get_str(ld, "profiler.env_script", e[P_ENV_SCRIPT].val, NONEMPTY, &p->profiler.env_script);
    get_words(ld, "profiler.args", e[P_ARGS].val, &p->profiler.args);
  }
}

/* Escapes the regex metacharacters a metric name can hold ('.' only) for the shorthand pattern. */
static char *shorthand_pattern(const char *name)
{
  hp__buf b = HP__BUF_INIT;
  int r = 0;

  for (; *name; name++)
    r |= *name == '.' ? hp__buf_adds(&b, "\\.") : hp__buf_addc(&b, *name);
  r |= hp__buf_adds(&b, SHORTHAND_VALUE);
  if (r) {
    hp__buf_free(&b);
    return NULL;
  }
  return hp__buf_steal(&b);
}

static void check_pattern(loader *ld, yaml_node_t *at, const char *pattern)
{
  regex_t re;
  char msg[256];
  int rc = regcomp(&re, pattern, REG_EXTENDED);

  if (rc) {
    regerror(rc, &re, msg, sizeof(msg));
    lerr(ld, at, "`pattern` is not a valid extended regular expression: %s", msg);
    return;
  }
  if (re.re_nsub != 1)
    lerr(ld, at, "`pattern` must have exactly one capture group (the number), it has %zu",
         (size_t)re.re_nsub);
  regfree(&re);
}

enum {
  M_NAME,
  M_PATTERN,
  M_UNIT,
  M_BETTER,
  M_TOLERANCE,
  M_N
};
static const char *const metric_keys[] = {"name", "pattern", "unit", "better", "tolerance", NULL};

static void parse_metric(loader *ld, yaml_node_t *it, hp_metric_spec *ms)
{
  static const char *const better[] = {"lower", "higher", NULL};
  mapent e[M_N] = {{NULL, NULL}};
  yaml_node_t *pat_at = it;
  double tol;

  ms->line = node_line(it);
  ms->tolerance = -1;
  if (it->type == YAML_SCALAR_NODE && !is_null(it)) {
    if (get_name(ld, "metrics", it, &ms->name) == 1 && ms->name &&
        (ms->pattern = shorthand_pattern(ms->name)) == NULL)
      ld->oom = 1;
    return;
  }
  if (it->type != YAML_MAPPING_NODE) {
    lerr(ld, it,
         "a metric must be a name or a mapping {name, pattern, unit, better, tolerance}, got %s",
         kind(it));
    return;
  }
  map_fields(ld, it, "metrics", metric_keys, e);
  if (get_name(ld, "name", e[M_NAME].val, &ms->name) == 0)
    lerr(ld, missing_at(&e[M_NAME], it), "a metric needs a `name`");
  if (get_str(ld, "pattern", e[M_PATTERN].val, NONEMPTY, &ms->pattern) == 1)
    pat_at = e[M_PATTERN].val;
  else if (ms->name && valid_name(ms->name) && is_null(e[M_PATTERN].val) &&
           (ms->pattern = shorthand_pattern(ms->name)) == NULL)
    ld->oom = 1;
  if (ms->pattern)
    check_pattern(ld, pat_at, ms->pattern);
  get_str(ld, "unit", e[M_UNIT].val, 0, &ms->unit);
  get_enum(ld, "better", e[M_BETTER].val, better, &ms->higher_is_better);
  if (get_number(ld, "tolerance", e[M_TOLERANCE].val, 1, &tol) == 1) {
    if (!(tol >= 0 && tol < 100))
      lerr(ld, e[M_TOLERANCE].val,
           "`tolerance` must be a fraction from 0 (or a percentage such "
           "as 5%%), got '%.80s'",
           sval(e[M_TOLERANCE].val));
    else
      ms->tolerance = tol;
  }
}

static void parse_metrics(loader *ld, const mapent *e, yaml_node_t *root, hp_plan *p)
{
  yaml_node_t **at;
  size_t i, j, n;
  int r = want_seq(ld, "metrics", e->val);

  if (r == 0)
    lerr(ld, missing_at(e, root),
         "missing `metrics`: list what the app prints (e.g. `metrics: [mean_kernel_ms]`)");
  if (r <= 0)
    return;
  n = seq_len(e->val);
  if (n == 0) {
    lerr(ld, e->val, "`metrics` is empty: list at least one metric");
    return;
  }
  p->metrics = calloc(n, sizeof(*p->metrics));
  at = calloc(n, sizeof(*at));
  if (p->metrics == NULL || at == NULL) {
    free(at);
    ld->oom = 1;
    return;
  }
  p->nmetrics = n;
  for (i = 0; i < n; i++) {
    at[i] = seq_item(ld, e->val, i);
    if (at[i] == NULL)
      continue;
    parse_metric(ld, at[i], &p->metrics[i]);
    for (j = 0; j < i && p->metrics[i].name; j++)
      if (p->metrics[j].name && strcmp(p->metrics[j].name, p->metrics[i].name) == 0) {
        lerr(ld, at[i], "duplicate metric name `%s` (first at line %ld)", p->metrics[i].name,
             p->metrics[j].line);
        break;
      }
  }
  free(at);
}

/* Where each pass's parts are in the file, for checks that run after all passes are read. */
typedef struct pass_at {
  yaml_node_t *item, *name, *mode, *command;
  int tool_bad;   /* the pass's own `tool` was wrong (reported): its mode cannot be judged */
  int command_ok; /* `command` was read without error, so its template can be checked */
} pass_at;

enum {
  S_NAME,
  S_MODE,
  S_TOOL,
  S_KERNEL,
  S_ARGS,
  S_COUNTERS,
  S_LAUNCH_COUNT,
  S_COMMAND,
  S_TIMEOUT,
  S_EXPECT,
  S_N
};
static const char *const pass_keys[] = {"name",     "mode",         "tool",    "kernel",  "args",
                                        "counters", "launch_count", "command", "timeout", "expect",
                                        NULL};

static void parse_pass(loader *ld, yaml_node_t *it, hp_pass *ps, pass_at *at)
{
  static const char *const expect[] = {"ok", "distorted", NULL};
  mapent e[S_N] = {{NULL, NULL}};
  int tool_ok = 1, r;

  ps->line = node_line(it);
  at->item = at->name = at->mode = it;
  if (it->type == YAML_SCALAR_NODE && !is_null(it)) {
    get_str(ld, "passes", it, NONEMPTY, &ps->mode);
    ps->name = ldup(ld, ps->mode);
    return;
  }
  if (it->type != YAML_MAPPING_NODE) {
    lerr(ld, it, "a pass must be a mode name or a mapping {name, mode, ...}, got %s", kind(it));
    return;
  }
  map_fields(ld, it, "passes", pass_keys, e);
  r = get_words(ld, "command", e[S_COMMAND].val, &ps->command);
  if (r != 0)
    at->command = e[S_COMMAND].val;
  at->command_ok = r == 1;
  if (get_str(ld, "mode", e[S_MODE].val, NONEMPTY, &ps->mode) == 1) {
    at->mode = at->name = e[S_MODE].val;
  } else if (!e[S_MODE].val || is_null(e[S_MODE].val)) {
    if (r != 0) {
      ps->mode = ldup(ld, "command"); /* a template alone says what the pass is */
    } else {
      lerr(ld, missing_at(&e[S_MODE], it),
           "a pass needs a `mode` (normal, command or a mode of "
           "its profiler)");
    }
  }
  if (get_str(ld, "name", e[S_NAME].val, NONEMPTY, &ps->name) == 1)
    at->name = e[S_NAME].val;
  else if (ps->mode && !(e[S_NAME].val && !is_null(e[S_NAME].val)))
    ps->name = ldup(ld, ps->mode); /* at->name stays on the mode, where the name came from */
  r = get_str(ld, "tool", e[S_TOOL].val, NONEMPTY, &ps->tool);
  if (r == 1 && ps->tool)
    check_tool(ld, "tool", e[S_TOOL].val, ps->tool, &tool_ok);
  at->tool_bad = r < 0 || !tool_ok;
  get_str(ld, "kernel", e[S_KERNEL].val, NONEMPTY, &ps->kernel);
  get_words(ld, "args", e[S_ARGS].val, &ps->args);
  get_words(ld, "counters", e[S_COUNTERS].val, &ps->counters);
  get_long(ld, "launch_count", e[S_LAUNCH_COUNT].val, 1, MAX_LAUNCH_COUNT, &ps->launch_count);
  get_duration(ld, "timeout", e[S_TIMEOUT].val, &ps->timeout);
  get_enum(ld, "expect", e[S_EXPECT].val, expect, &ps->expect_distorted);
}

/* Checks a `command` template's {app}. It must be a word of its own, because it expands to the
 * app's whole argv (several words); inside a longer word it would stay literal. Returns 1 when
 * the template is good; otherwise reports at `at` and returns 0. */
static int check_template(loader *ld, yaml_node_t *at, const hp_strv *v)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    if (strcmp(v->v[i], "{app}") == 0)
      return 1;
  for (i = 0; i < v->n; i++)
    if (strstr(v->v[i], "{app}")) {
      lerr(ld, at,
           "`command`: {app} must be a word of its own, since it expands to the app's "
           "whole argv; found it inside '%.80s' (for a shell, write [sh, -c, 'time \"$@\"', sh, "
           "{app}])",
           v->v[i]);
      return 0;
    }
  lerr(ld, at,
       "`command` must contain {app} where the app's command line goes "
       "(e.g. [valgrind, --tool=none, {app}])");
  return 0;
}

/* Splits hp__driver_modes' "a, b, c" into words for suggestions; *words is freed by the caller. */
static int mode_words(const hp__driver *d, hp_strv *words)
{
  char *list = hp__strdup(hp__driver_modes(d)), *s, *save = NULL;
  int r = 0;

  words->v = NULL;
  words->n = 0;
  if (list == NULL)
    return HP_ENOMEM;
  for (s = strtok_r(list, ", ", &save); s && !r; s = strtok_r(NULL, ", ", &save))
    r = hp__strv_push(words, s);
  if (r == 0 && words->v == NULL)
    r = hp__strv_push(words, "normal");
  free(list);
  return r;
}

/* A non-generic mode must be one of its tool's modes: the pass's own tool or the plan's. */
static void check_mode(loader *ld, const hp_plan *p, const hp_pass *ps, const pass_at *at)
{
  const hp__driver *d;
  hp_strv words = {NULL, 0};
  const char *tool, *hint = NULL;

  if (ps->mode == NULL || hp__mode_is_generic(ps->mode))
    return;
  if (at->tool_bad)
    return; /* the pass's own tool is unknown: reported already */
  if (ps->tool == NULL && !ld->tool_ok)
    return; /* the plan's tool is unknown: reported already */
  tool = ps->tool ? ps->tool : p->profiler.tool;
  d = hp__driver_find(tool);
  if (d == NULL || hp__driver_has_mode(d, ps->mode))
    return;
  if (mode_words(d, &words) == 0)
    hint = suggest(ps->mode, (const char *const *)words.v);
  else
    ld->oom = 1;
  if (hint)
    lerr(ld, at->mode, "mode `%.80s` is not a mode of %s (modes: %s; did you mean `%s`?)", ps->mode,
         tool, hp__driver_modes(d), hint);
  else
    lerr(ld, at->mode, "mode `%.80s` is not a mode of %s (modes: %s)", ps->mode, tool,
         hp__driver_modes(d));
  hp_strv_free(&words);
}

static void parse_passes(loader *ld, const mapent *e, yaml_node_t *root, hp_plan *p)
{
  pass_at *at;
  hp_pass *ps;
  size_t i, j, n;
  int base = -1;
  int r = want_seq(ld, "passes", e->val);

  if (r == 0)
    lerr(ld, missing_at(e, root),
         "missing `passes`: list at least the baseline `normal` and "
         "one profiled mode");
  if (r <= 0)
    return;
  n = seq_len(e->val);
  if (n) {
    p->passes = calloc(n, sizeof(*p->passes));
    at = calloc(n, sizeof(*at));
    if (p->passes == NULL || at == NULL) {
      free(at);
      ld->oom = 1;
      return;
    }
  } else {
    at = NULL;
  }
  p->npasses = n;
  for (i = 0; i < n; i++) {
    yaml_node_t *it = seq_item(ld, e->val, i);
    if (it)
      parse_pass(ld, it, &p->passes[i], &at[i]);
  }
  for (i = 0; i < n; i++) {
    ps = &p->passes[i];
    if (ps->name && !valid_name(ps->name))
      lerr(ld, at[i].name,
           "pass name '%.80s' is not a valid name: use letters, digits, '_', '.' "
           "and '-' (it becomes a folder name)",
           ps->name);
    for (j = 0; j < i && ps->name; j++)
      if (p->passes[j].name && strcmp(p->passes[j].name, ps->name) == 0) {
        lerr(ld, at[i].name, "duplicate pass name `%s` (first at line %ld); give one a `name:`",
             ps->name, p->passes[j].line);
        break;
      }
    if (ps->mode == NULL)
      continue;
    if (strcmp(ps->mode, "command") == 0) {
      if (at[i].command == NULL)
        lerr(ld, at[i].mode, "mode `command` needs `command:`, an argv template containing {app}");
      else if (at[i].command_ok && ps->command.n == 0)
        lerr(ld, at[i].command, "`command` is empty: give an argv template containing {app}");
      else if (at[i].command_ok)
        check_template(ld, at[i].command, &ps->command);
      continue;
    }
    if (at[i].command)
      lerr(ld, at[i].command, "`command` is only used by mode `command` (this pass has mode `%s`)",
           ps->mode);
    if (strcmp(ps->mode, "normal") != 0)
      check_mode(ld, p, ps, &at[i]);
    else if (base < 0)
      base = (int)i;
    else
      lerr(ld, at[i].mode,
           "a second baseline: pass `%s` has mode normal, but pass `%s` (line %ld) "
           "is already the baseline; a plan has exactly one",
           ps->name ? ps->name : "?", p->passes[base].name ? p->passes[base].name : "?",
           p->passes[base].line);
  }
  if (base < 0)
    lerr(ld, e->key, "no baseline: add a pass with mode normal");
  else
    p->baseline = (size_t)base;
  free(at);
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

/* Fills what a variant left unset from the plan's app: env entries it does not override, cwd,
 * timeout and build. After loading, each variant is a complete app on its own. */
static void inherit_app(loader *ld, hp_app *v, const hp_app *a)
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
      env[n].key = ldup(ld, a->env[i].key);
      env[n++].value = ldup(ld, a->env[i].value);
    }
    for (j = 0; j < v->nenv; j++)
      env[n++] = v->env[j];
    free(v->env);
    v->env = env;
    v->nenv = n;
  }
  if (v->cwd == NULL && a->cwd)
    v->cwd = ldup(ld, a->cwd);
  if (v->timeout == 0)
    v->timeout = a->timeout;
  if (v->build.n == 0 && a->build.n) {
    hp_strv_free(&v->build);
    if (hp__strv_copy(&v->build, &a->build))
      ld->oom = 1;
  }
}

static void parse_variants(loader *ld, yaml_node_t *v, hp_plan *p)
{
  yaml_node_t **name_at, **ref_at;
  size_t i, j, n;
  long ref = -1;

  if (want_seq(ld, "variants", v) <= 0)
    return;
  n = seq_len(v);
  if (n == 0)
    return;
  p->variants = calloc(n, sizeof(*p->variants));
  name_at = calloc(n, sizeof(*name_at));
  ref_at = calloc(n, sizeof(*ref_at));
  if (p->variants == NULL || name_at == NULL || ref_at == NULL) {
    ld->oom = 1;
    goto done;
  }
  p->nvariants = n;
  for (i = 0; i < n; i++) {
    mapent e[V_N] = {{NULL, NULL}}, ae[A_N] = {{NULL, NULL}};
    hp_variant *va = &p->variants[i];
    yaml_node_t *it = seq_item(ld, v, i);
    if (it == NULL)
      continue;
    va->line = node_line(it);
    name_at[i] = it;
    if (it->type != YAML_MAPPING_NODE) {
      lerr(ld, it, "a variant must be a mapping {name, command, ...}, got %s", kind(it));
      continue;
    }
    map_fields(ld, it, "variants", variant_keys, e);
    if (get_name(ld, "name", e[V_NAME].val, &va->name) == 0)
      lerr(ld, missing_at(&e[V_NAME], it), "a variant needs a `name`");
    if (e[V_NAME].val)
      name_at[i] = e[V_NAME].val;
    ae[A_COMMAND] = e[V_COMMAND];
    ae[A_ENV] = e[V_ENV];
    ae[A_CWD] = e[V_CWD];
    ae[A_TIMEOUT] = e[V_TIMEOUT];
    ae[A_BUILD] = e[V_BUILD];
    parse_app_fields(ld, it, "", ae, &va->app);
    if (get_bool(ld, "reference", e[V_REFERENCE].val, &va->reference) == 1 && va->reference) {
      ref_at[i] = e[V_REFERENCE].val;
      if (ref < 0)
        ref = (long)i;
      else
        lerr(ld, ref_at[i],
             "two reference variants: `%s` and `%s` (line %ld); mark only one with "
             "`reference: true`",
             va->name ? va->name : "?", p->variants[ref].name ? p->variants[ref].name : "?",
             p->variants[ref].line);
    }
  }
  for (i = 0; i < n; i++) {
    hp_variant *va = &p->variants[i];
    if (va->name == NULL)
      continue;
    for (j = 0; j < i; j++)
      if (p->variants[j].name && strcmp(p->variants[j].name, va->name) == 0) {
        lerr(ld, name_at[i], "duplicate variant name `%s` (first at line %ld)", va->name,
             p->variants[j].line);
        break;
      }
    for (j = 0; j < p->npasses; j++)
      if (p->passes[j].name && strcmp(p->passes[j].name, va->name) == 0) {
        lerr(ld, name_at[i], "variant name `%s` is also a pass name (line %ld); names must differ",
             va->name, p->passes[j].line);
        break;
      }
  }
  /* Exactly one reference: the one marked, else the first. Later ones were reported above. */
  for (i = 0; i < n; i++)
    p->variants[i].reference = (long)i == (ref < 0 ? 0 : ref);
  for (i = 0; i < n; i++)
    inherit_app(ld, &p->variants[i].app, &p->app);

done:
  free(name_at);
  free(ref_at);
}

enum {
  G_METRIC,
  G_MAX_ABS_DELTA,
  G_MAX_REL_DELTA,
  G_N
};
static const char *const gate_keys[] = {"metric", "max_abs_delta", "max_rel_delta", NULL};

static void parse_gates(loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp_strv names = {NULL, 0};
  const char *hint;
  char list[256];
  size_t i, j, n;

  if (want_seq(ld, "gates", v) <= 0)
    return;
  n = seq_len(v);
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
    mapent e[G_N] = {{NULL, NULL}};
    hp_gate *g = &p->gates[i];
    yaml_node_t *it = seq_item(ld, v, i);
    int ra, rr;
    g->max_abs_delta = g->max_rel_delta = -1;
    if (it == NULL)
      continue;
    g->line = node_line(it);
    if (it->type != YAML_MAPPING_NODE) {
      lerr(ld, it, "a gate must be a mapping {metric, max_abs_delta, max_rel_delta}, got %s",
           kind(it));
      continue;
    }
    map_fields(ld, it, "gates", gate_keys, e);
    if (get_str(ld, "metric", e[G_METRIC].val, NONEMPTY, &g->metric) == 0)
      lerr(ld, missing_at(&e[G_METRIC], it), "a gate needs a `metric`");
    if (g->metric && names.v) {
      for (j = 0; j < names.n; j++)
        if (strcmp(names.v[j], g->metric) == 0)
          break;
      if (j == names.n) {
        hint = suggest(g->metric, (const char *const *)names.v);
        join_names((const char *const *)names.v, list, sizeof(list));
        if (hint)
          lerr(ld, e[G_METRIC].val,
               "gate on unknown metric `%.80s` (declared metrics: %s; did "
               "you mean `%s`?)",
               g->metric, list, hint);
        else
          lerr(ld, e[G_METRIC].val, "gate on unknown metric `%.80s` (declared metrics: %s)",
               g->metric, list);
      }
    }
    ra = get_number(ld, "max_abs_delta", e[G_MAX_ABS_DELTA].val, 0, &g->max_abs_delta);
    rr = get_number(ld, "max_rel_delta", e[G_MAX_REL_DELTA].val, 1, &g->max_rel_delta);
    if (ra == 1 && g->max_abs_delta < 0) {
      lerr(ld, e[G_MAX_ABS_DELTA].val, "`max_abs_delta` must be >= 0, got '%s'",
           sval(e[G_MAX_ABS_DELTA].val));
    }
    if (rr == 1 && g->max_rel_delta < 0) {
      lerr(ld, e[G_MAX_REL_DELTA].val, "`max_rel_delta` must be >= 0, got '%s'",
           sval(e[G_MAX_REL_DELTA].val));
    }
    if (ra == 0 && rr == 0)
      lerr(ld, it, "a gate needs `max_abs_delta`, `max_rel_delta` or both");
  }
  hp_strv_free(&names);
}

enum {
  T_WARN,
  T_FAIL,
  T_ALPHA,
  T_N
};
static const char *const threshold_keys[] = {"warn", "fail", "alpha", NULL};

static void parse_thresholds(loader *ld, yaml_node_t *v, hp_plan *p)
{
  mapent e[T_N] = {{NULL, NULL}};
  double w = 0.05, f = -1, a = 0.05;
  int rw, rf, ra;

  if (want_map(ld, "thresholds", v) <= 0)
    return;
  map_fields(ld, v, "thresholds", threshold_keys, e);
  rw = get_number(ld, "thresholds.warn", e[T_WARN].val, 1, &w);
  rf = get_number(ld, "thresholds.fail", e[T_FAIL].val, 1, &f);
  ra = get_number(ld, "thresholds.alpha", e[T_ALPHA].val, 1, &a);
  if (rw == 1 && w < 0) {
    lerr(ld, e[T_WARN].val, "`thresholds.warn` must be >= 0, got '%s'", sval(e[T_WARN].val));
    rw = -1;
  }
  if (rf == 1 && f <= 0) {
    lerr(ld, e[T_FAIL].val, "`thresholds.fail` must be > 0, got '%s'", sval(e[T_FAIL].val));
    rf = -1;
  }
  if (ra == 1 && !(a > 0 && a < 1)) {
    lerr(ld, e[T_ALPHA].val, "`thresholds.alpha` must be between 0 and 1 (exclusive), got '%s'",
         sval(e[T_ALPHA].val));
    ra = -1;
  }
  if (rf == 1 && rw >= 0 && f < w)
    lerr(ld, e[T_FAIL].val,
         "`thresholds.fail` (%g) is below `thresholds.warn` (%g): fail must be "
         ">= warn",
         f, w);
  if (rw == 1)
    p->thresholds.warn = w;
  if (rf == 1)
    p->thresholds.fail = f;
  if (ra == 1)
    p->thresholds.alpha = a;
}

enum {
  SM_TOOL,
  SM_COMMAND,
  SM_INTERVAL,
  SM_N
};
static const char *const sampler_keys[] = {"tool", "command", "interval", NULL};
static const char *const sampler_tools[] = {"auto",   "none",    "nvidia-smi", "rocm-smi",
                                            "hy-smi", "command", NULL};
#define SAMPLER_COMMAND 5

static void parse_sampler(loader *ld, yaml_node_t *v, hp_plan *p)
{
  mapent e[SM_N] = {{NULL, NULL}};
  double secs;
  int tool = -1, rt, rc;

  if (is_null(v))
    return;
  if (v->type == YAML_SCALAR_NODE) {
    if (get_enum(ld, "sampler", v, sampler_tools, &tool) == 1) {
      if (tool == SAMPLER_COMMAND)
        lerr(ld, v,
             "`sampler: command` needs `command:`; write sampler: {tool: command, "
             "command: [...]}");
      free(p->sampler.tool);
      p->sampler.tool = ldup(ld, sampler_tools[tool]);
    }
    return;
  }
  if (v->type != YAML_MAPPING_NODE) {
    lerr(ld, v, "`sampler` must be a tool name or a mapping {tool, command, interval}, got %s",
         kind(v));
    return;
  }
  map_fields(ld, v, "sampler", sampler_keys, e);
  rt = get_enum(ld, "sampler.tool", e[SM_TOOL].val, sampler_tools, &tool);
  rc = get_words(ld, "sampler.command", e[SM_COMMAND].val, &p->sampler.command);
  if (rt == 0 && rc != 0)
    tool = SAMPLER_COMMAND; /* a command alone says which sampler it is */
  if (tool == SAMPLER_COMMAND && rc == 0)
    lerr(ld, e[SM_TOOL].val ? e[SM_TOOL].val : v,
         "`sampler.tool: command` needs "
         "`sampler.command`, a program that prints one number (MiB) per line");
  else if (tool == SAMPLER_COMMAND && rc == 1 && p->sampler.command.n == 0)
    lerr(ld, e[SM_COMMAND].val, "`sampler.command` is empty");
  else if (rt == 1 && tool != SAMPLER_COMMAND && rc != 0)
    lerr(ld, e[SM_COMMAND].val,
         "`sampler.command` is only used with `tool: command` (tool is `%s`)", sampler_tools[tool]);
  if (tool >= 0) {
    free(p->sampler.tool);
    p->sampler.tool = ldup(ld, sampler_tools[tool]);
  }
  if (get_duration(ld, "sampler.interval", e[SM_INTERVAL].val, &secs) == 1) {
    if (secs <= 0)
      lerr(ld, e[SM_INTERVAL].val, "`sampler.interval` must be greater than 0, got '%s'",
           sval(e[SM_INTERVAL].val));
    else
      p->sampler.interval_ms = secs * 1000.0;
  }
}

enum {
  C_NAME,
  C_PATTERNS,
  C_N
};
static const char *const category_keys[] = {"name", "patterns", NULL};

/* `categories:` in a plan or a categories file. On any error the rules built so far are still
 * stored (and freed with the plan or by the caller). */
static void parse_categories(loader *ld, const mapent *ce, hp_category_rule **rules, size_t *nrules)
{
  yaml_node_t *v = ce->val;
  size_t i, j, k, n;

  if (want_seq(ld, "categories", v) <= 0)
    return;
  n = seq_len(v);
  if (n == 0) {
    lerr(ld, v, "`categories` is empty: list rules, or leave the key out to use the built-in ones");
    return;
  }
  if ((*rules = calloc(n, sizeof(**rules))) == NULL) {
    ld->oom = 1;
    return;
  }
  *nrules = n;
  for (i = 0; i < n; i++) {
    mapent e[C_N] = {{NULL, NULL}};
    hp_category_rule *c = &(*rules)[i];
    yaml_node_t *it = seq_item(ld, v, i);
    int r;
    if (it == NULL)
      continue;
    if (it->type != YAML_MAPPING_NODE) {
      lerr(ld, it, "a category must be a mapping {name, patterns}, got %s", kind(it));
      continue;
    }
    map_fields(ld, it, "categories", category_keys, e);
    if (get_str(ld, "name", e[C_NAME].val, NONEMPTY, &c->name) == 0)
      lerr(ld, missing_at(&e[C_NAME], it), "a category needs a `name`");
    for (j = 0; j < i && c->name; j++)
      if ((*rules)[j].name && strcmp((*rules)[j].name, c->name) == 0) {
        lerr(ld, e[C_NAME].val, "duplicate category name `%s`", c->name);
        break;
      }
    r = want_seq(ld, "patterns", e[C_PATTERNS].val);
    if (r == 0)
      lerr(ld, missing_at(&e[C_PATTERNS], it),
           "a category needs `patterns`, a list of "
           "substrings of kernel names");
    if (r <= 0)
      continue;
    if (seq_len(e[C_PATTERNS].val) == 0)
      lerr(ld, e[C_PATTERNS].val, "`patterns` is empty: list at least one substring");
    if (get_words(ld, "patterns", e[C_PATTERNS].val, &c->patterns) != 1)
      continue;
    for (k = 0; k < c->patterns.n; k++)
      if (c->patterns.v[k][0] == '\0') {
        lerr(ld, seq_item(ld, e[C_PATTERNS].val, k),
             "items of `patterns` must not be empty: "
             "an empty pattern would match every kernel");
      }
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Documents                                                                                       */

/* Reports a libyaml error as `file:line:col: error: problem (context at line L)`. */
static void parser_error(loader *ld, const yaml_parser_t *ps)
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
      lerr_at(ld, (long)line, (long)col, "%s (#%X at byte %zu)", ps->problem,
              (unsigned)ps->problem_value, ps->problem_offset);
    else
      lerr_at(ld, (long)line, (long)col, "%s (at byte %zu)", ps->problem, ps->problem_offset);
    return;
  }
  if (ps->context)
    lerr_at(ld, (long)ps->problem_mark.line + 1, (long)ps->problem_mark.column + 1,
            "%s (%s at line %ld)", ps->problem ? ps->problem : "syntax error", ps->context,
            (long)ps->context_mark.line + 1);
  else
    lerr_at(ld, (long)ps->problem_mark.line + 1, (long)ps->problem_mark.column + 1, "%s",
            ps->problem ? ps->problem : "syntax error");
}

/* Parses the single document of `text` into *doc. Returns 1 with a document holding a root, 0
 * after reporting an error (nothing to delete), or -1 when out of memory. A second document in
 * the stream is an error: a plan is one mapping. */
static int load_doc(loader *ld, yaml_document_t *doc)
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
    lerr_at(ld, 1, 1,
            "empty plan: expected a mapping with at least `app`, `metrics` and "
            "`passes`");
    ok = 0;
  } else if (!yaml_parser_load(&ps, &extra)) {
    parser_error(ld, &ps);
    ok = 0;
  } else {
    if (yaml_document_get_root_node(&extra)) {
      lerr_at(ld, (long)extra.start_mark.line + 1, (long)extra.start_mark.column + 1,
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

static int diag_cmp(const void *a, const void *b)
{
  const hp_diag *x = *(const hp_diag *const *)a, *y = *(const hp_diag *const *)b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  return 0;
}

/* Moves this load's messages into the caller's list (which may be NULL), in file order. Messages
 * at the same position keep their order: the sort is made stable by sorting a copy of the list
 * with insertion sort, which is fine for the few dozen messages a plan can produce. */
static void flush_diags(loader *ld, hp_diags *out)
{
  hp_diag **v, *d, *t;
  size_t n = 0, i, j;

  if (out && ld->diags.count) {
    v = malloc(ld->diags.count * sizeof(*v));
    if (v == NULL) {
      /* Out of order is better than nothing. */
      for (d = ld->diags.head; d; d = d->next)
        hp_diags_add(out, d->level, d->file, d->line, d->col, "%s", d->msg);
    } else {
      for (d = ld->diags.head; d; d = d->next)
        v[n++] = d;
      for (i = 1; i < n; i++)
        for (j = i; j > 0 && diag_cmp(&v[j - 1], &v[j]) > 0; j--) {
          t = v[j];
          v[j] = v[j - 1];
          v[j - 1] = t;
        }
      for (i = 0; i < n; i++)
        hp_diags_add(out, v[i]->level, v[i]->file, v[i]->line, v[i]->col, "%s", v[i]->msg);
      free(v);
    }
  }
  hp_diags_free(&ld->diags);
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
    if (!is_name_char(s[i]))
      s[i] = '_';
  if (!valid_name(s)) {
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
  K_N
};
static const char *const top_keys[] = {
    "name",    "output", "repeat",   "warmup", "order",      "seed",    "app",        "profiler",
    "metrics", "passes", "variants", "gates",  "thresholds", "sampler", "categories", NULL};
static const char *const orders[] = {"interleaved", "sequential", "abba", "random", NULL};

static void parse_plan(loader *ld, yaml_node_t *root, hp_plan *p)
{
  mapent e[K_N] = {{NULL, NULL}};
  long n;
  int order;

  if (root->type != YAML_MAPPING_NODE) {
    lerr(ld, root, "a plan must be a mapping of keys (app, metrics, passes, ...), got %s",
         kind(root));
    return;
  }
  map_fields(ld, root, NULL, top_keys, e);
  get_name(ld, "name", e[K_NAME].val, &p->name);
  get_str(ld, "output", e[K_OUTPUT].val, NONEMPTY, &p->output);
  if (get_long(ld, "repeat", e[K_REPEAT].val, 1, MAX_REPEAT, &n) == 1)
    p->repeat = (int)n;
  if (get_long(ld, "warmup", e[K_WARMUP].val, 0, MAX_WARMUP, &n) == 1)
    p->warmup = (int)n;
  if (get_enum(ld, "order", e[K_ORDER].val, orders, &order) == 1)
    p->order = (hp_order)order;
  get_u64(ld, "seed", e[K_SEED].val, &p->seed);
  parse_app(ld, &e[K_APP], root, &p->app);
  parse_profiler(ld, e[K_PROFILER].val, p);
  parse_metrics(ld, &e[K_METRICS], root, p);
  parse_passes(ld, &e[K_PASSES], root, p);
  parse_variants(ld, e[K_VARIANTS].val, p);
  parse_gates(ld, e[K_GATES].val, p);
  parse_thresholds(ld, e[K_THRESHOLDS].val, p);
  parse_sampler(ld, e[K_SAMPLER].val, p);
  if (e[K_CATEGORIES].key)
    parse_categories(ld, &e[K_CATEGORIES], &p->categories, &p->ncategories);
}

/* The plan with every default set, before the file is read. */
static hp_plan *plan_new(loader *ld, const char *file, const char *dir, const char *text,
                         size_t len)
{
  hp_plan *p = calloc(1, sizeof(*p));

  if (p == NULL) {
    ld->oom = 1;
    return NULL;
  }
  p->file = ldup(ld, file);
  p->dir = ldup(ld, dir);
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
  p->output = ldup(ld, "hprun-out");
  p->repeat = 1;
  p->warmup = 0;
  p->order = HP_ORDER_INTERLEAVED;
  p->seed = 1;
  p->profiler.tool = ldup(ld, "hipprof");
  p->thresholds.warn = 0.05;
  p->thresholds.fail = -1;
  p->thresholds.alpha = 0.05;
  p->sampler.tool = ldup(ld, "auto");
  p->sampler.interval_ms = 2.0;
  return p;
}

/*
 * Loads a plan from memory. `name` is used in messages and kept as plan->file; `dir` is kept as
 * plan->dir (NULL: "."). `text` is copied. On success returns 0 and *out is a new plan the caller
 * frees with hp_plan_free. On failure *out is NULL, nothing is left to free, and the result is
 * HP_EPLAN (every problem is in `diags`, sorted by position), HP_ENOMEM or HP_EINVAL.
 */
int hp_plan_load_string(const char *name, const char *dir, const char *text, size_t len,
                        hp_plan **out, hp_diags *diags)
{
  loader ld;
  yaml_document_t doc;
  hp_plan *p;
  int r;

  if (out == NULL || (text == NULL && len))
    return HP_EINVAL;
  *out = NULL;
  if (name == NULL)
    name = "<string>";
  memset(&ld, 0, sizeof(ld));
  hp_diags_init(&ld.diags);
  ld.file = name;
  ld.text = text ? text : "";
  ld.len = len;
  ld.tool_ok = 1;
  ld.doc = &doc;
  p = plan_new(&ld, name, dir ? dir : ".", ld.text, len);
  if (p && !ld.oom) {
    r = load_doc(&ld, &doc);
    if (r == 1) {
      parse_plan(&ld, yaml_document_get_root_node(&doc), p);
      yaml_document_delete(&doc);
    }
  }
  flush_diags(&ld, diags);
  if (ld.oom) {
    hp_plan_free(p);
    return HP_ENOMEM;
  }
  if (ld.nerrors) {
    hp_plan_free(p);
    return HP_EPLAN;
  }
  *out = p;
  return 0;
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
 * and plan->dir its folder. A file that cannot be read gives one message naming it and HP_EIO.
 */
int hp_plan_load(const char *path, hp_plan **out, hp_diags *diags)
{
  char *text = NULL, *dir = NULL;
  size_t len = 0;
  int r;

  if (out == NULL || path == NULL)
    return HP_EINVAL;
  *out = NULL;
  r = hp__read_file(path, &text, &len);
  if (r == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(diags, HP_DIAG_ERROR, path, 0, 0, "cannot read the plan: %s", hp_strerror(r));
    return HP_EIO;
  }
  if ((dir = dir_of(path)) == NULL) {
    free(text);
    return HP_ENOMEM;
  }
  r = hp_plan_load_string(path, dir, text, len, out, diags);
  free(dir);
  free(text);
  return r;
}

enum {
  CF_CATEGORIES,
  CF_N
};
static const char *const categories_file_keys[] = {"categories", NULL};

/*
 * Loads kernel categories from a YAML file whose only top-level key is `categories:`. On success
 * *rules and *n hold new rules (free with hp_categories_free). On failure they are NULL and 0,
 * and the result is HP_EPLAN (messages in `diags`), HP_EIO or HP_ENOMEM.
 */
int hp_categories_load(const char *path, hp_category_rule **rules, size_t *n, hp_diags *diags)
{
  loader ld;
  yaml_document_t doc;
  yaml_node_t *root;
  hp_category_rule *got = NULL;
  size_t ngot = 0;
  char *text = NULL;
  size_t len = 0;
  int r;

  if (path == NULL || rules == NULL || n == NULL)
    return HP_EINVAL;
  *rules = NULL;
  *n = 0;
  r = hp__read_file(path, &text, &len);
  if (r == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(diags, HP_DIAG_ERROR, path, 0, 0, "cannot read the categories: %s",
                 hp_strerror(r));
    return HP_EIO;
  }
  memset(&ld, 0, sizeof(ld));
  hp_diags_init(&ld.diags);
  ld.file = path;
  ld.text = text;
  ld.len = len;
  ld.doc = &doc;
  if (load_doc(&ld, &doc) == 1) {
    mapent e[CF_N] = {{NULL, NULL}};
    root = yaml_document_get_root_node(&doc);
    if (root->type != YAML_MAPPING_NODE) {
      lerr(&ld, root, "a categories file must be a mapping with one key, `categories`, got %s",
           kind(root));
    } else {
      map_fields(&ld, root, NULL, categories_file_keys, e);
      if (e[CF_CATEGORIES].key == NULL)
        lerr(&ld, root, "missing `categories`: a list of {name, patterns}");
      else
        parse_categories(&ld, &e[CF_CATEGORIES], &got, &ngot);
    }
    yaml_document_delete(&doc);
  }
  free(text);
  flush_diags(&ld, diags);
  if (ld.oom || ld.nerrors) {
    hp_categories_free(got, ngot);
    return ld.oom ? HP_ENOMEM : HP_EPLAN;
  }
  *rules = got;
  *n = ngot;
  return 0;
}
