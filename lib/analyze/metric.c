/*
 * Metrics: each is a POSIX extended regex with one capture group, matched against every line of a
 * run's stdout. The last match counts, because programs often print progress first and the final
 * figure last.
 *
 * A run's stdout can be far larger than memory is willing to hold (an app that prints 2 GB), so
 * the scan of a file reads it in chunks of HP__METRIC_CHUNK bytes and keeps only the line being
 * read: memory stays below HP__METRIC_CHUNK + HP__METRIC_LINE_MAX whatever the app prints. A line
 * longer than HP__METRIC_LINE_MAX is scanned by its first HP__METRIC_LINE_MAX bytes; apart from
 * that, where the chunks happen to cut the text changes nothing.
 */
#include "analyze/metric.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  if ((m = calloc(1, sizeof(*m))) == NULL ||
      (m->re = calloc(plan->nmetrics ? plan->nmetrics : 1, sizeof(*m->re))) == NULL) {
    free(m);
    return HP_ENOMEM;
  }
  /* The built-in wall_ms comes last and has no pattern: the session fills it, the scan skips it. */
  for (i = 0; i < plan->nmetrics && !plan->metrics[i].wall; i++) {
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
  if (r)
    hp__metrics_free(m);
  else
    *out = m;
  return r;
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

/* Sets values[i] from `line` (NUL-terminated) for every metric whose pattern it matches. */
static void scan_line(const hp__metrics *m, const char *line, double *values)
{
  regmatch_t g[2];
  double v;
  size_t i;

  for (i = 0; i < m->n; i++) {
    if (regexec(&m->re[i], line, 2, g, 0) == 0 && g[1].rm_so >= 0) {
      v = parse_value(line + g[1].rm_so, (size_t)(g[1].rm_eo - g[1].rm_so));
      /* A later line that matches but holds no number does not erase a good value. */
      if (!isnan(v))
        values[i] = v;
    }
  }
}

/* The line that the previous chunk ended in the middle of, kept to at most HP__METRIC_LINE_MAX
 * bytes (the rest of a longer line is dropped until its newline). */
typedef struct partial {
  char *data; /* grows as needed, to HP__METRIC_LINE_MAX + 1 bytes at most */
  size_t len, cap;
  int any; /* bytes of a line were seen since the last newline, even if all were dropped */
} partial;

static int partial_add(partial *pl, const char *p, size_t n)
{
  size_t cap;
  char *q;

  if (n > HP__METRIC_LINE_MAX - pl->len)
    n = HP__METRIC_LINE_MAX - pl->len;
  if (pl->len + n + 1 > pl->cap) {
    cap = pl->cap ? 2 * pl->cap : 4096;
    if (cap < pl->len + n + 1)
      cap = pl->len + n + 1;
    if (cap > HP__METRIC_LINE_MAX + 1)
      cap = HP__METRIC_LINE_MAX + 1;
    if ((q = realloc(pl->data, cap)) == NULL)
      return HP_ENOMEM;
    pl->data = q;
    pl->cap = cap;
  }
  memcpy(pl->data + pl->len, p, n);
  pl->len += n;
  pl->any = 1;
  return 0;
}

/* One streaming scan: the metrics, their values, the caller's hook and the partial line. */
typedef struct stream {
  const hp__metrics *m;
  double *values;
  hp__metrics_line_fn each;
  void *arg;
  partial pl;
} stream;

static void stream_line(stream *st, const char *line)
{
  scan_line(st->m, line, st->values);
  if (st->each)
    st->each(st->arg, line);
}

/* Scans the complete lines of one chunk (which has room for a NUL after its `n` bytes), joining
 * the first to what the previous chunk left and keeping what follows the last newline. A line
 * that lies wholly in the chunk is scanned where it is. */
static int scan_chunk(stream *st, char *chunk, size_t n)
{
  char *p = chunk, *end = chunk + n, *nl;

  while (p < end) {
    nl = memchr(p, '\n', (size_t)(end - p));
    if (nl == NULL)
      return partial_add(&st->pl, p, (size_t)(end - p));
    *nl = '\0';
    if (st->pl.any) {
      if (partial_add(&st->pl, p, (size_t)(nl - p)))
        return HP_ENOMEM;
      st->pl.data[st->pl.len] = '\0';
      stream_line(st, st->pl.data);
      st->pl.len = 0;
      st->pl.any = 0;
    } else {
      stream_line(st, p);
    }
    p = nl + 1;
  }
  return 0;
}

/* The scan of hp__metrics_scan_path, over what `fd` gives until its end. */
static int scan_fd(const hp__metrics *m, int fd, double *values, hp__metrics_line_fn each,
                   void *arg)
{
  stream st = {NULL, NULL, NULL, NULL, {NULL, 0, 0, 0}};
  char *chunk;
  ssize_t n;
  size_t i;
  int r = 0;

  st.m = m;
  st.values = values;
  st.each = each;
  st.arg = arg;
  for (i = 0; i < m->n; i++)
    values[i] = NAN;
  if ((chunk = malloc(HP__METRIC_CHUNK + 1)) == NULL)
    return HP_ENOMEM;
  for (;;) {
    n = read(fd, chunk, HP__METRIC_CHUNK);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      r = HP_EIO;
      goto done;
    }
    if (n == 0)
      break;
    if ((r = scan_chunk(&st, chunk, (size_t)n)) != 0)
      goto done;
  }
  if (st.pl.any) { /* the last line, without a newline */
    st.pl.data[st.pl.len] = '\0';
    stream_line(&st, st.pl.data);
  }

done:
  free(st.pl.data);
  free(chunk);
  return r;
}

int hp__metrics_scan_path(const hp__metrics *m, const char *path, double *values,
                          hp__metrics_line_fn each, void *arg)
{
  size_t i;
  int fd, r;

  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r = errno == ENOENT || errno == ENOTDIR ? HP_ENOENT : HP_EIO;
    for (i = 0; i < m->n; i++)
      values[i] = NAN;
    return r;
  }
  r = scan_fd(m, fd, values, each, arg);
  close(fd);
  return r;
}
