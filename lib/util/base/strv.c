/*
 * Argument vectors (hp_strv): NULL-terminated arrays of owned strings.
 */
#include "util/base/strv.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

void hp_strv_free(hp_strv *v)
{
  size_t i;

  if (v == NULL)
    return;
  for (i = 0; i < v->n; i++)
    free(v->v[i]);
  free(v->v);
  hp__strv_init(v);
}

void hp__strv_init(hp_strv *v)
{
  v->v = NULL;
  v->n = 0;
  v->err = 0;
}

int hp__strv_error(const hp_strv *v)
{
  return v->err;
}

int hp__strv_push_own(hp_strv *v, char *s)
{
  char **p = v->err || s == NULL ? NULL : realloc(v->v, (v->n + 2) * sizeof(*p));

  if (p == NULL) {
    free(s);
    return v->err = HP_ENOMEM;
  }
  v->v = p;
  v->v[v->n++] = s;
  v->v[v->n] = NULL;
  return 0;
}

int hp__strv_push(hp_strv *v, const char *s)
{
  return hp__strv_push_own(v, hp__strdup(s));
}

int hp__strv_append(hp_strv *v, const hp_strv *w)
{
  size_t i;

  for (i = 0; i < w->n; i++)
    hp__strv_push(v, w->v[i]);
  return v->err;
}

int hp__strv_copy(hp_strv *dst, const hp_strv *src)
{
  hp__strv_init(dst);
  if (hp__strv_append(dst, src)) {
    hp_strv_free(dst);
    return HP_ENOMEM;
  }
  return 0;
}

/* A word needs quoting when it is empty or holds anything beyond a conservative safe set. */
static int needs_quote(const char *s)
{
  if (*s == '\0')
    return 1;
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%", *s))
      return 1;
  return 0;
}

char *hp__strv_shell_join(const hp_strv *v)
{
  hp__buf b = HP__BUF_INIT;
  size_t i;

  /* The buffer's error is sticky: hp__buf_steal gives NULL if any append failed. */
  for (i = 0; i < v->n; i++) {
    const char *s = v->v[i];
    if (i)
      hp__buf_addc(&b, ' ');
    if (!needs_quote(s)) {
      hp__buf_adds(&b, s);
      continue;
    }
    hp__buf_addc(&b, '\'');
    for (; *s; s++)
      if (*s == '\'')
        hp__buf_adds(&b, "'\\''");
      else
        hp__buf_addc(&b, *s);
    hp__buf_addc(&b, '\'');
  }
  return hp__buf_steal(&b);
}
