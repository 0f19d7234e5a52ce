/*
 * Typed values of a plan: strings, integers, numbers, booleans, durations, word lists, `env`
 * mappings and names. libyaml hands us only strings, so each getter checks the text itself and
 * refuses YAML 1.1 surprises (yes/no booleans, "0x" integers, "inf") rather than guessing.
 *
 * Each returns 1 when it stored a value, 0 when the value is absent or null (the default
 * applies) and -1 after reporting an error; *out is only written on 1.
 */
#include "plan/plan.h"
#include "util/base/strv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int hp__plan_str(hp__loader *ld, const char *what, yaml_node_t *v, int flags, char **out)
{
  int r = hp__yaml_scalar(ld, what, "a string", v);

  if (r <= 0)
    return r;
  if ((flags & HP__NONEMPTY) && *hp__yaml_str(v) == '\0') {
    hp__plan_err(ld, v, "`%s` must not be empty", what);
    return -1;
  }
  free(*out);
  *out = hp__plan_dup(ld, hp__yaml_str(v));
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

int hp__plan_long(hp__loader *ld, const char *what, yaml_node_t *v, long min, long max, long *out)
{
  long n = 0;
  int r = hp__yaml_scalar(ld, what, "an integer", v), e;

  if (r <= 0)
    return r;
  e = parse_long(hp__yaml_str(v), &n);
  if (e == HP_EINVAL || (e == 0 && n < min) || (e == HP_ERANGE && hp__yaml_str(v)[0] == '-')) {
    hp__plan_err(ld, v, "`%s` must be an integer >= %ld, got '%.80s'", what, min, hp__yaml_str(v));
    return -1;
  }
  if (e || n > max) {
    hp__plan_err(ld, v, "`%s` must be an integer <= %ld, got '%.80s'", what, max, hp__yaml_str(v));
    return -1;
  }
  *out = n;
  return 1;
}

int hp__plan_u64(hp__loader *ld, const char *what, yaml_node_t *v, uint64_t *out)
{
  const char *s;
  char *end;
  unsigned long long n;
  int r = hp__yaml_scalar(ld, what, "a non-negative integer", v);

  if (r <= 0)
    return r;
  s = hp__yaml_str(v);
  if (*s == '+')
    s++;
  errno = 0;
  if (*s == '\0' || strspn(s, "0123456789") != strlen(s) ||
      ((n = strtoull(s, &end, 10)), errno == ERANGE)) {
    hp__plan_err(ld, v, "`%s` must be a non-negative integer below 2^64, got '%.80s'", what,
                 hp__yaml_str(v));
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

int hp__plan_number(hp__loader *ld, const char *what, yaml_node_t *v, int percent, double *out)
{
  int r = hp__yaml_scalar(ld, what, "a number", v);

  if (r <= 0)
    return r;
  if (parse_number(hp__yaml_str(v), percent, out)) {
    hp__plan_err(ld, v, "`%s` must be a number%s, got '%.80s'", what,
                 percent ? " (a fraction such as 0.05, or a percentage such as 5%)" : "",
                 hp__yaml_str(v));
    return -1;
  }
  return 1;
}

/* Only true and false (in YAML 1.2's three spellings). YAML 1.1's yes/no/on/off/y/n are refused
 * with a hint rather than guessed: `country: no` style surprises are what the rule prevents. */
int hp__plan_bool(hp__loader *ld, const char *what, yaml_node_t *v, int *out)
{
  static const char *const yaml12[] = {"false", "False", "FALSE", "true", "True", "TRUE", NULL};
  static const char *const yaml11[] = {"yes", "no", "on", "off", "y", "n", NULL};
  const char *s;
  size_t i;
  int r = hp__yaml_scalar(ld, what, "true or false", v);

  if (r <= 0)
    return r;
  s = hp__yaml_str(v);
  for (i = 0; yaml12[i]; i++)
    if (strcmp(s, yaml12[i]) == 0) {
      *out = i >= 3;
      return 1;
    }
  for (i = 0; yaml11[i]; i++)
    if (strcasecmp(s, yaml11[i]) == 0)
      break;
  if (yaml11[i])
    hp__plan_err(ld, v,
                 "`%s` must be true or false, got '%s' (YAML 1.1 yes/no/on/off are not accepted: "
                 "write true or false)",
                 what, s);
  else
    hp__plan_err(ld, v, "`%s` must be true or false, got '%.80s'", what, s);
  return -1;
}

int hp__plan_duration(hp__loader *ld, const char *what, yaml_node_t *v, double *out)
{
  int r = hp__yaml_scalar(ld, what, "a duration", v), e;

  if (r <= 0)
    return r;
  e = hp_parse_duration(hp__yaml_str(v), out);
  if (e == HP_ERANGE) {
    hp__plan_err(ld, v, "`%s` must be a duration >= 0, got '%.80s'", what, hp__yaml_str(v));
    return -1;
  }
  if (e) {
    hp__plan_err(ld, v, "`%s` must be a duration such as 90, 90s, 1.5m, 500ms or 2h, got '%.80s'",
                 what, hp__yaml_str(v));
    return -1;
  }
  return 1;
}

/* One of `names` (NULL-terminated); *out is its index. */
int hp__plan_enum(hp__loader *ld, const char *what, yaml_node_t *v, const char *const *names,
                  int *out)
{
  char list[256];
  const char *hint;
  int i, r = hp__yaml_scalar(ld, what, "a string", v);

  if (r <= 0)
    return r;
  for (i = 0; names[i]; i++)
    if (strcmp(names[i], hp__yaml_str(v)) == 0) {
      *out = i;
      return 1;
    }
  hint = hp__plan_suggest(hp__yaml_str(v), names);
  hp__plan_err(ld, v, "`%s` must be one of %s, got '%.80s'%s%s%s", what,
               hp__plan_join(names, list, sizeof(list)), hp__yaml_str(v),
               hint ? " (did you mean `" : "", hint ? hint : "", hint ? "`?)" : "");
  return -1;
}

/* A list of strings, or one string split into words as sh would (hp_split_words). An empty list
 * or blank string stores an empty vector and returns 1: callers decide whether empty is wrong. */
int hp__plan_words(hp__loader *ld, const char *what, yaml_node_t *v, hp_strv *out)
{
  yaml_node_t *it;
  size_t i;
  int r, bad = 0;

  if (hp__yaml_is_null(v))
    return 0;
  hp_strv_free(out);
  if (v->type == YAML_SCALAR_NODE) {
    if (hp__yaml_scalar(ld, what, "a list of strings or a string", v) < 0)
      return -1;
    r = hp_split_words(hp__yaml_str(v), out);
    if (r == HP_EPARSE) {
      hp__plan_err(ld, v, "`%s` has an unterminated quote: '%.80s'", what, hp__yaml_str(v));
      return -1;
    }
    if (r)
      ld->oom = 1;
    return r ? -1 : 1;
  }
  if (v->type != YAML_SEQUENCE_NODE) {
    hp__plan_err(ld, v, "`%s` must be a list of strings or a string, got %s", what,
                 hp__yaml_kind(v));
    return -1;
  }
  /* A list gives a vector that is NULL-terminated even when it is empty, like hp_split_words. */
  if ((out->v = calloc(1, sizeof(*out->v))) == NULL) {
    ld->oom = 1;
    return -1;
  }
  for (i = 0; i < hp__yaml_seq_len(v); i++) {
    it = hp__yaml_seq_item(ld, v, i);
    if (it == NULL)
      continue;
    if (hp__yaml_is_null(it) || it->type != YAML_SCALAR_NODE) {
      hp__plan_err(ld, it, "items of `%s` must be strings, got %s%s", what, hp__yaml_kind(it),
                   hp__yaml_is_null(it) ? " (write '' for an empty argument)" : "");
      bad = 1;
      continue;
    }
    if (strlen(hp__yaml_str(it)) != it->data.scalar.length) {
      hp__plan_err(ld, it, "items of `%s` must not contain a NUL character", what);
      bad = 1;
      continue;
    }
    if (hp__strv_push(out, hp__yaml_str(it)))
      ld->oom = 1;
  }
  return bad ? -1 : 1;
}

/* `env:` mapping of variable name -> scalar. Values are taken literally (`X:` gives ""). */
int hp__plan_env(hp__loader *ld, const char *what, yaml_node_t *v, hp_kv **env, size_t *nenv)
{
  yaml_node_pair_t *p;
  yaml_node_t *k, *val;
  size_t cap;
  int r = hp__yaml_want_map(ld, what, v);

  if (r <= 0)
    return r;
  hp__yaml_check_dups(ld, v);
  cap = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
  if (cap && (*env = calloc(cap, sizeof(**env))) == NULL) {
    ld->oom = 1;
    return -1;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    k = hp__yaml_node(ld, p->key);
    val = hp__yaml_node(ld, p->value);
    if (k == NULL || val == NULL)
      continue;
    if (k->type != YAML_SCALAR_NODE || hp__yaml_is_null(k) || strchr(hp__yaml_str(k), '=') ||
        strlen(hp__yaml_str(k)) != k->data.scalar.length) {
      hp__plan_err(
          ld, k, "`%s` keys must be variable names (a non-empty string without '='), got %s", what,
          k->type == YAML_SCALAR_NODE && !hp__yaml_is_null(k) ? "a name with '='"
                                                              : hp__yaml_kind(k));
      r = -1;
      continue;
    }
    if (val->type != YAML_SCALAR_NODE || strlen(hp__yaml_str(val)) != val->data.scalar.length) {
      hp__plan_err(ld, val, "`%s.%s` must be a string, got %s", what, hp__yaml_str(k),
                   val->type == YAML_SCALAR_NODE ? "a NUL character" : hp__yaml_kind(val));
      r = -1;
      continue;
    }
    (*env)[*nenv].key = hp__plan_dup(ld, hp__yaml_str(k));
    (*env)[*nenv].value = hp__plan_dup(ld, hp__yaml_str(val));
    (*nenv)++;
  }
  return r;
}

int hp__plan_name_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
      c == '.' || c == '-';
}

/* Letters, digits, '_', '.' and '-': names become folder names, and "." / ".." would escape. */
int hp__plan_valid_name(const char *s)
{
  if (*s == '\0' || !strcmp(s, ".") || !strcmp(s, ".."))
    return 0;
  for (; *s; s++)
    if (!hp__plan_name_char(*s))
      return 0;
  return 1;
}

/*
 * Names a pass or variant may not have, because its folder would sit beside (or be) a file the
 * session writes into its own top folder. The session's writers own these names: manifest.json
 * and plan.yaml (lib/session/manifest.c, session.c), the build log folder (session.c), and the
 * renderings of lib/report/write_all.c (summary.json, report.md, and report.html to come). A
 * writer that puts a new file there adds its name here; this is the one list. Compared without
 * regard to case, because the session folder may be on a case-insensitive file system.
 */
static const char *const reserved_names[] = {"summary.json",  "report.md", "report.html",
                                             "manifest.json", "plan.yaml", "build"};

int hp__plan_reserved_name(const char *s)
{
  size_t i;

  for (i = 0; i < sizeof(reserved_names) / sizeof(reserved_names[0]); i++)
    if (strcasecmp(s, reserved_names[i]) == 0)
      return 1;
  return 0;
}

int hp__plan_ident(hp__loader *ld, const char *what, yaml_node_t *v, char **out)
{
  int r = hp__plan_str(ld, what, v, HP__NONEMPTY, out);

  if (r == 1 && !hp__plan_valid_name(*out)) {
    hp__plan_err(ld, v,
                 "`%s` '%.80s' is not a valid name: use letters, digits, '_', '.' and '-' "
                 "(it becomes a folder name)",
                 what, *out);
    return -1;
  }
  return r;
}
