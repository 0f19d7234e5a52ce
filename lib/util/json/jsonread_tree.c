/*
 * Reading and freeing a JSON tree that lib/util/json/jsonread.c built. Every accessor accepts NULL
 * and nodes of the wrong type and answers "nothing", so that callers can chain lookups on a file of
 * any shape without checking each step (see util/json/jsonread.h).
 */
#include "util/json/jsonread_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hp__jv_free(hp__jv *v)
{
  size_t i;

  if (v == NULL)
    return;
  if (v->type == HP__JV_STR) {
    free(v->u.str.s);
  } else if (v->type == HP__JV_NUM) {
    free(v->u.num.text);
  } else if (v->type == HP__JV_ARR || v->type == HP__JV_OBJ) {
    for (i = 0; i < v->u.c.n; i++) {
      hp__jv_free(v->u.c.items[i]);
      if (v->u.c.keys)
        free(v->u.c.keys[i]);
    }
    free(v->u.c.items);
    free(v->u.c.keys);
  }
  free(v);
}

hp__jv_type hp__jv_type_of(const hp__jv *v)
{
  return v ? v->type : HP__JV_NULL;
}

const hp__jv *hp__jv_get(const hp__jv *obj, const char *key)
{
  size_t i;

  if (obj == NULL || obj->type != HP__JV_OBJ || key == NULL)
    return NULL;
  for (i = obj->u.c.n; i > 0; i--)
    if (strcmp(obj->u.c.keys[i - 1], key) == 0)
      return obj->u.c.items[i - 1];
  return NULL;
}

const hp__jv *hp__jv_at(const hp__jv *arr, size_t i)
{
  if (arr == NULL || (arr->type != HP__JV_ARR && arr->type != HP__JV_OBJ) || i >= arr->u.c.n)
    return NULL;
  return arr->u.c.items[i];
}

size_t hp__jv_len(const hp__jv *v)
{
  if (v == NULL || (v->type != HP__JV_ARR && v->type != HP__JV_OBJ))
    return 0;
  return v->u.c.n;
}

const char *hp__jv_key_at(const hp__jv *obj, size_t i)
{
  if (obj == NULL || obj->type != HP__JV_OBJ || i >= obj->u.c.n)
    return NULL;
  return obj->u.c.keys[i];
}

const char *hp__jv_str(const hp__jv *v)
{
  return v && v->type == HP__JV_STR ? v->u.str.s : NULL;
}

double hp__jv_num(const hp__jv *v)
{
  return v && v->type == HP__JV_NUM ? v->u.num.v : NAN;
}

const char *hp__jv_numtext(const hp__jv *v)
{
  return v && v->type == HP__JV_NUM ? v->u.num.text : NULL;
}

int hp__jv_bool(const hp__jv *v)
{
  return v && v->type == HP__JV_BOOL ? v->u.b : -1;
}

/* 1 if the path step seg[0..n) names `key`, with "~1" read as '/' and "~0" as '~'. */
static int step_is_key(const char *seg, size_t n, const char *key)
{
  size_t i = 0;

  while (i < n) {
    char c = seg[i];
    if (c == '~' && i + 1 < n && (seg[i + 1] == '0' || seg[i + 1] == '1')) {
      c = seg[i + 1] == '0' ? '~' : '/';
      i++;
    }
    if (*key != c)
      return 0;
    key++;
    i++;
  }
  return *key == '\0';
}

const hp__jv *hp__jv_path(const hp__jv *v, const char *path)
{
  const char *seg, *slash;
  size_t n, i, idx;
  const hp__jv *next;

  if (path == NULL)
    return NULL;
  if (*path == '/')
    path++;
  if (*path == '\0')
    return v;
  seg = path;
  while (v) {
    slash = strchr(seg, '/');
    n = slash ? (size_t)(slash - seg) : strlen(seg);
    next = NULL;
    if (v->type == HP__JV_OBJ) {
      for (i = v->u.c.n; i > 0 && next == NULL; i--)
        if (step_is_key(seg, n, v->u.c.keys[i - 1]))
          next = v->u.c.items[i - 1];
    } else if (v->type == HP__JV_ARR && n > 0 && n < 20) {
      /* A decimal index without sign or leading zeros, as RFC 6901 spells array steps. */
      idx = 0;
      for (i = 0; i < n && seg[i] >= '0' && seg[i] <= '9'; i++)
        idx = idx * 10 + (size_t)(seg[i] - '0');
      if (i == n && !(n > 1 && seg[0] == '0'))
        next = hp__jv_at(v, idx);
    }
    v = next;
    if (slash == NULL)
      break;
    seg = slash + 1;
  }
  return v;
}
