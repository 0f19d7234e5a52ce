/*
 * The metrics an ncu run asked for. ncu's raw page carries, on every row, every device attribute
 * and launch property and, for each requested metric, all its rollups (.avg, .max, .min, .sum):
 * shown whole, the one metric a user asked for is lost among ~500 columns. A pass's command line
 * says what was asked: `--metrics a,b` alone collects those metrics only; `--section`, `--set`
 * and `--section-folder` collect the sections' metrics, which the raw page does not tell apart,
 * so with any of them every measured column is shown (tables_ncu.c drops the constants).
 */
#include "profile/tables/ncu_request.h"
#include "util/base/buf.h"
#include "util/base/strv.h"
#include "util/num/num.h"

#include <stdlib.h>
#include <string.h>

/* ncu options that take no value (ncu 2023-2025 `ncu --help`); every other option takes one, as
 * the next word or after '='. A flag missing here would swallow the program's name, and the scan
 * then stops one word late, at the program's first argument: never inside ncu's own options. */
static const char *const flags[] = {"--csv",
                                    "--nvtx",
                                    "-f",
                                    "--force-overwrite",
                                    "--quiet",
                                    "--verbose",
                                    "--open-in-ui",
                                    "--print-fp",
                                    "--print-rule-details",
                                    "--print-metric-attribution",
                                    "--disable-extra-suffixes",
                                    "--call-stack",
                                    "--support-32bit",
                                    "--list-sets",
                                    "--list-sections",
                                    "--list-rules",
                                    "--list-chips",
                                    "--query-metrics",
                                    "--version",
                                    "--help",
                                    "-v",
                                    "-h",
                                    NULL};

static int is_flag(const char *w)
{
  size_t i;

  for (i = 0; flags[i]; i++)
    if (strcmp(w, flags[i]) == 0)
      return 1;
  return 0;
}

/* The word after which ncu's options start: the first whose base name starts with "ncu" (a
 * launcher such as srun may come first), else the first word. */
static size_t ncu_word(const hp_strv *v)
{
  size_t i;

  for (i = 0; i < v->n; i++) {
    const char *b = strrchr(v->v[i], '/');
    if (strncmp(b ? b + 1 : v->v[i], "ncu", 3) == 0)
      return i + 1;
  }
  return v->n ? 1 : 0;
}

/* Adds one option's value to what was asked: --metrics lists joined with ',', a section option
 * sets *sections. */
static int take(const char *opt, size_t olen, const char *val, hp__buf *metrics, int *sections)
{
  static const char *const section_opts[] = {"--section", "--set", "--section-folder",
                                             "--section-folder-recursive", NULL};
  size_t i;

  for (i = 0; section_opts[i]; i++)
    if (strlen(section_opts[i]) == olen && memcmp(opt, section_opts[i], olen) == 0)
      *sections = 1;
  if (olen == 9 && memcmp(opt, "--metrics", 9) == 0 && val && val[0])
    return hp__buf_printf(metrics, "%s%s", metrics->len ? "," : "", val) ? HP_ENOMEM : 0;
  return 0;
}

int hp_ncu_requested_metrics(const char *command, char **out)
{
  hp__buf m = HP__BUF_INIT;
  hp_strv v = {0};
  size_t i;
  int sections = 0, r = 0;

  *out = NULL;
  if (command == NULL || hp_split_words(command, &v) != 0)
    return 0; /* nothing to read: every metric is shown */
  for (i = ncu_word(&v); i < v.n && r == 0; i++) {
    const char *w = v.v[i], *eq = strchr(w, '=');
    if (w[0] != '-' || strcmp(w, "--") == 0)
      break; /* the program */
    if (eq)
      r = take(w, (size_t)(eq - w), eq + 1, &m, &sections);
    else if (!is_flag(w))
      r = take(w, strlen(w), i + 1 < v.n ? v.v[++i] : NULL, &m, &sections);
  }
  hp_strv_free(&v);
  if (r == 0 && !sections && m.len)
    *out = hp__strdup(m.data);
  if (r == 0 && !sections && m.len && *out == NULL)
    r = HP_ENOMEM;
  hp__buf_free(&m);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Matching column names against the list.                                                        */

static int add_item(hp__ncu_want *w, const char *s, size_t n)
{
  char *item = hp__strndup(s, n);
  void *grown;

  if (item == NULL)
    return HP_ENOMEM;
  if (n > 6 && memcmp(item, "regex:", 6) == 0) {
    if ((grown = realloc(w->re, (w->nre + 1) * sizeof(*w->re))) == NULL) {
      free(item);
      return HP_ENOMEM;
    }
    w->re = grown;
    if (regcomp(&w->re[w->nre], item + 6, REG_EXTENDED | REG_NOSUB) == 0)
      w->nre++;
    else
      w->all = 1;
    free(item);
    return 0;
  }
  if (strchr(item, ':') == NULL)
    return hp__strv_push_own(&w->names, item);
  w->all = 1; /* group:, breakdown: and what newer versions add */
  free(item);
  return 0;
}

int hp__ncu_want_init(hp__ncu_want *w, const char *list)
{
  const char *s = list, *e;

  memset(w, 0, sizeof(*w));
  if (list == NULL || list[0] == '\0') {
    w->all = 1;
    return 0;
  }
  for (; *s; s = *e ? e + 1 : e) {
    size_t n;
    e = strchr(s, ',');
    if (e == NULL)
      e = s + strlen(s);
    n = (size_t)(e - s);
    hp__trim(&s, &n);
    if (n && add_item(w, s, n) != 0)
      return HP_ENOMEM;
  }
  if (w->names.n == 0 && w->nre == 0)
    w->all = 1;
  return 0;
}

int hp__ncu_want_match(const hp__ncu_want *w, const char *name, size_t n)
{
  char buf[512];
  size_t i, k;

  if (w->all)
    return 1;
  /* A base name (no '.') stands for its rollups; a full name for itself alone, not for the
   * siblings ncu prints beside it (`.sum` asked: `.avg`, `.max`, `.min` are not). */
  for (i = 0; i < w->names.n; i++) {
    k = strlen(w->names.v[i]);
    if (n >= k && memcmp(name, w->names.v[i], k) == 0 &&
        (n == k || (name[k] == '.' && strchr(w->names.v[i], '.') == NULL)))
      return 1;
  }
  if (w->nre == 0 || n >= sizeof(buf))
    return 0;
  memcpy(buf, name, n);
  buf[n] = '\0';
  for (i = 0; i < w->nre; i++)
    if (regexec(&w->re[i], buf, 0, NULL, 0) == 0)
      return 1;
  return 0;
}

void hp__ncu_want_free(hp__ncu_want *w)
{
  size_t i;

  if (w == NULL)
    return;
  hp_strv_free(&w->names);
  for (i = 0; i < w->nre; i++)
    regfree(&w->re[i]);
  free(w->re);
  memset(w, 0, sizeof(*w));
}
