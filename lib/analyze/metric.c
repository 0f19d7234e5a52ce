/*
 * Metrics: each is a POSIX extended regex with one capture group, matched against every line of a
 * run's stdout. The last match counts, because programs often print progress first and the final
 * figure last.
 */
#include "analyze/metric.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

struct hp__metrics {
  size_t n;
  regex_t *re;
};

int hp__metrics_new(const hp_plan *plan, hp__metrics **out, hp_diags *diags)
{
  hp__metrics *m;
  size_t i;
  int r = 0;

  *out = NULL;
  m = calloc(1, sizeof(*m));
  if (m == NULL)
    return HP_ENOMEM;
  m->re = calloc(plan->nmetrics ? plan->nmetrics : 1, sizeof(*m->re));
  if (m->re == NULL) {
    free(m);
    return HP_ENOMEM;
  }
  for (i = 0; i < plan->nmetrics; i++) {
    int e = regcomp(&m->re[i], plan->metrics[i].pattern, REG_EXTENDED);
    if (e) {
      char msg[256];
      regerror(e, &m->re[i], msg, sizeof(msg));
      hp_diags_add(diags, HP_DIAG_ERROR, plan->file, plan->metrics[i].line, 0,
                   "metric '%s': bad pattern: %s", plan->metrics[i].name, msg);
      r = HP_EPLAN;
      break;
    }
    m->n++;
  }
  if (r) {
    hp__metrics_free(m);
    return r;
  }
  *out = m;
  return 0;
}

void hp__metrics_free(hp__metrics *m)
{
  size_t i;

  if (m == NULL)
    return;
  for (i = 0; i < m->n; i++)
    regfree(&m->re[i]);
  free(m->re);
  free(m);
}

/* Parses a captured number strictly: the whole capture (spaces aside) must be a finite number. */
static double parse_value(const char *s, size_t n)
{
  char tmp[128], *end;
  double v;

  while (n && (*s == ' ' || *s == '\t')) {
    s++;
    n--;
  }
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    n--;
  if (n == 0 || n >= sizeof(tmp))
    return NAN;
  memcpy(tmp, s, n);
  tmp[n] = '\0';
  errno = 0;
  v = strtod(tmp, &end);
  if (*end != '\0' || errno == ERANGE || !isfinite(v))
    return NAN;
  return v;
}

void hp__metrics_scan(const hp__metrics *m, const char *text, size_t len, double *values)
{
  const char *p = text, *end = text + len, *nl;
  char *line = NULL;
  size_t i, cap = 0;

  for (i = 0; i < m->n; i++)
    values[i] = NAN;
  while (p < end) {
    size_t n;
    nl = memchr(p, '\n', (size_t)(end - p));
    n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n + 1 > cap) {
      char *q = realloc(line, n + 1);
      if (q == NULL)
        break;
      line = q;
      cap = n + 1;
    }
    memcpy(line, p, n);
    line[n] = '\0';
    for (i = 0; i < m->n; i++) {
      regmatch_t g[2];
      if (regexec(&m->re[i], line, 2, g, 0) == 0 && g[1].rm_so >= 0) {
        double v = parse_value(line + g[1].rm_so, (size_t)(g[1].rm_eo - g[1].rm_so));
        /* A later line that matches but holds no number does not erase a good value. */
        if (!isnan(v))
          values[i] = v;
      }
    }
    p = nl ? nl + 1 : end;
  }
  free(line);
}
