/*
 * The plan loader's messages. Loading behaves like a compiler: every problem is reported with the
 * file, line and column of the offending node, and loading goes on after an error so that one run
 * shows as many mistakes as possible.
 *
 * Messages are collected in the loader's own list and sorted by position before they reach the
 * caller, because sections are checked in dependency order (metrics before gates, passes before
 * variants) rather than in the order they appear in the file. An unknown word (a key, a mode, a
 * tool, a metric) gets a "did you mean" hint when a known one is a likely typo of it.
 */
#include "plan/plan.h"
#include "util/base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vlerr(hp__loader *ld, long line, long col, const char *fmt, va_list ap)
{
  hp__buf b = HP__BUF_INIT;

  ld->nerrors++;
  if (hp__buf_vprintf(&b, fmt, ap) ||
      hp_diags_add(&ld->diags, HP_DIAG_ERROR, ld->file, line, col, "%s", b.data))
    ld->oom = 1;
  hp__buf_free(&b);
}

/* Reports an error at a node (libyaml marks are 0-based; ours are 1-based). */
void hp__plan_err(hp__loader *ld, const yaml_node_t *at, const char *fmt, ...)
{
  va_list ap;
  long line = at ? (long)at->start_mark.line + 1 : 0,
       col = at ? (long)at->start_mark.column + 1 : 0;

  va_start(ap, fmt);
  vlerr(ld, line, col, fmt, ap);
  va_end(ap);
}

void hp__plan_err_at(hp__loader *ld, long line, long col, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vlerr(ld, line, col, fmt, ap);
  va_end(ap);
}

/* Copies a string, remembering an allocation failure instead of making every caller check. */
char *hp__plan_dup(hp__loader *ld, const char *s)
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
const char *hp__plan_suggest(const char *word, const char *const *cands)
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
const char *hp__plan_join(const char *const *names, char *buf, size_t size)
{
  size_t len = 0;

  buf[0] = '\0';
  for (; *names && len < size; names++) {
    snprintf(buf + len, size - len, "%s%s", len ? ", " : "", *names);
    len += strlen(buf + len);
  }
  return buf;
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
void hp__plan_flush(hp__loader *ld, hp_diags *out)
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
