/*
 * Reading one file's rows for the parsers (see build.h): warnings about the file, capped per file
 * so that a huge file of bad rows cannot flood the output; fields by column index, absent when the
 * column or the row's field is; numbers, with a warning that names the column and quotes the
 * value when a field is not one; the header record and its required columns.
 */
#include "profile/model/build.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

void hp__pwarn(hp__pctx *x, long line, const char *fmt, ...)
{
  hp__buf b = HP__BUF_INIT;
  va_list ap;

  if (x->nwarn >= HP__MAX_FILE_WARNINGS) {
    x->nsuppressed++;
    return;
  }
  x->nwarn++;
  va_start(ap, fmt);
  if (hp__buf_vprintf(&b, fmt, ap) == 0)
    hp_diags_add(x->diags, HP_DIAG_WARNING, x->path, line, 0, "%s", b.data);
  va_end(ap);
  hp__buf_free(&b);
}

void hp__pwarn_csv(void *ud, long line, const char *msg)
{
  hp__pwarn(ud, line, "%s", msg);
}

void hp__check_width(hp__pctx *x, const hp__csv_rec *r, size_t ncols)
{
  if (r->n != ncols)
    hp__pwarn(x, r->line, "row has %zu fields, the header has %zu; %s", r->n, ncols,
              r->n < ncols ? "missing fields are taken as empty" : "extra fields are ignored");
}

/* A short, printable excerpt of a field for messages. */
static const char *excerpt(const char *s, size_t n, char *buf, size_t cap)
{
  size_t i, o = 0;

  for (i = 0; i < n && o + 4 < cap; i++)
    buf[o++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
  if (i < n) {
    buf[o++] = '.';
    buf[o++] = '.';
    buf[o++] = '.';
  }
  buf[o] = '\0';
  return buf;
}

int hp__read_header(hp__pctx *x, hp__csv_rec *rec)
{
  int r = hp__csv_next(x->csv, rec);

  if (r == 0)
    hp__pwarn(x, 1, "the file is empty (no header)");
  return r;
}

/* The answer of a number reader (k) on field s[0..n) of column `colname`: a field that is not
 * `what` is warned about, quoted. */
static int fnum_answer(hp__pctx *x, const hp__csv_rec *r, const char *colname, const char *what,
                       const char *s, size_t n, int k)
{
  char ex[48];

  if (k >= 0)
    return k;
  hp__pwarn(x, r->line, "column '%s': \"%s\" is not %s; the value is skipped", colname,
            excerpt(s, n, ex, sizeof(ex)), what);
  return -1;
}

int hp__fnum(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, double *out)
{
  size_t n;
  const char *s = hp__fld(r, col, &n);

  *out = NAN;
  return s ? fnum_answer(x, r, colname, "a number", s, n, hp__parse_num(s, n, out)) : 0;
}

int hp__fll(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, long long *out)
{
  size_t n;
  const char *s = hp__fld(r, col, &n);

  *out = 0;
  return s ? fnum_answer(x, r, colname, "a whole number", s, n, hp__parse_ll(s, n, out)) : 0;
}

int hp__require(hp__pctx *x, long line, const char *const *names, const int *idx, size_t n)
{
  hp__buf b = HP__BUF_INIT;
  size_t i;
  int missing = 0;

  for (i = 0; i < n; i++) {
    if (idx[i] >= 0)
      continue;
    hp__buf_printf(&b, "%s'%.*s'", missing ? ", " : "", (int)strcspn(names[i], "|"), names[i]);
    missing = 1;
  }
  if (missing)
    hp__pwarn(x, line, "header lacks the column%s %s; the file is skipped",
              strchr(b.data ? b.data : "", ',') ? "s" : "", b.data ? b.data : "");
  hp__buf_free(&b);
  return missing;
}

double hp__span_ns(long long begin, long long end)
{
  /* Wrapping unsigned arithmetic, then the two's-complement value: timestamps far apart (or a
   * garbage value) give a wrong span rather than undefined behaviour. */
  return (double)(int64_t)((unsigned long long)end - (unsigned long long)begin);
}
