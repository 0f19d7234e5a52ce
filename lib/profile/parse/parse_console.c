/*
 * hipprof's console tables, read from a text file (a run's stdout.txt, a saved log) when no
 * stats CSV beside it gives the same quantities. DTK 26.04 prints them after the run (seen in
 * real logs: tests/fixtures/real/hipprof/dtk-26.04-console/):
 *
 *   HIP_PROF:IP:<ESC>[31m173.1.115.4<ESC>[0m HIP API statistics
 *   ------------------------------------------------------------------- ...
 *   |Name                          |Calls   |TotalDurationNs  |AverageNs  |Percentage  |
 *   ------------------------------------------------------------------- ...
 *   |hipMalloc                     |3       |23430418         |7810139    |83.79...    |
 *   ...
 *   |Total                         |16      |27963248         |1747703    |100.0       |
 *
 * `HIP API statistics` holds the HIP calls and `HIPOPS API statistics` the device operations
 * (the kernels); a title naming copies or HSA goes to those tables. Columns are found by the
 * header's names, the `Total` row is skipped like the CSVs', and a name hipprof cut at 59
 * characters ("...") is kept as printed. The IP in the title may be wrapped in colour codes.
 */
#include "profile/model/build.h"
#include "profile/parse/parsers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
  COL_NAME,
  COL_CALLS,
  COL_TOTAL,
  COL_AVG,
  COL_N
};

/* The table a title line opens, or -1 when the line is no title. */
static int title_table(const char *s, size_t n)
{
  if (n < 9 || memcmp(s, "HIP_PROF:", 9) != 0 || !memmem(s, n, "statistics", 10))
    return -1;
  if (memmem(s, n, "COPY", 4) || memmem(s, n, "Copy", 4) || memmem(s, n, "copy", 4))
    return HP__T_COPY;
  if (memmem(s, n, "HSA", 3))
    return HP__T_HSA;
  if (memmem(s, n, "HIPOPS", 6) || memmem(s, n, "OPS", 3))
    return HP__T_KERNEL;
  return memmem(s, n, "API", 3) ? HP__T_API : -1;
}

/* The `|`-separated cells of a row into cell[] (trimmed, not NUL-terminated); their count. */
static size_t cells(const char *s, size_t n, const char **cell, size_t *len, size_t max)
{
  const char *end = s + n, *p = s + 1, *bar;
  size_t k = 0;

  while (p < end && k < max && (bar = memchr(p, '|', (size_t)(end - p))) != NULL) {
    const char *a = p, *b = bar;
    while (a < b && (*a == ' ' || *a == '\t'))
      a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    cell[k] = a;
    len[k++] = (size_t)(b - a);
    p = bar + 1;
  }
  return k;
}

static double cell_num(const char *s, size_t n)
{
  char buf[64], *end;
  double v;

  if (n == 0 || n >= sizeof(buf))
    return NAN;
  memcpy(buf, s, n);
  buf[n] = '\0';
  v = strtod(buf, &end);
  return *end == '\0' ? v : NAN;
}

static int wanted(const hp__pctx *x, int table)
{
  return table == HP__T_KERNEL ? x->use_kernels : table == HP__T_COPY ? x->use_copies : x->use_api;
}

/* One row of the open table: the header maps the columns, a data row is added. */
static int table_row(hp__pctx *x, hp__console *st, const char *s, size_t n, long line)
{
  static const char *const names[COL_N] = {"Name", "Calls", "TotalDurationNs", "AverageNs"};
  const char *cell[16];
  size_t len[16], k = cells(s, n, cell, len, 16), i, c;
  double calls, total, avg;
  hp__tstat *ts;

  if (k > 0 && len[0] == 4 && strncmp(cell[0], "Name", 4) == 0) {
    for (c = 0; c < COL_N; c++) {
      st->col[c] = -1;
      for (i = 0; i < k; i++)
        if (len[i] == strlen(names[c]) && strncasecmp(cell[i], names[c], len[i]) == 0)
          st->col[c] = (int)i;
    }
    if (st->col[COL_NAME] < 0 || st->col[COL_TOTAL] < 0) {
      hp__pwarn(x, line,
                "a hipprof console table without Name and TotalDurationNs columns; "
                "it is skipped");
      st->table = -1;
    }
    return 0;
  }
  if (st->col[COL_NAME] < 0 || (size_t)st->col[COL_TOTAL] >= k)
    return 0;
  c = (size_t)st->col[COL_NAME];
  if (len[c] == 0 || (len[c] == 5 && strncasecmp(cell[c], "Total", 5) == 0))
    return 0; /* hipprof's own sum, which would double everything */
  total = cell_num(cell[st->col[COL_TOTAL]], len[st->col[COL_TOTAL]]);
  if (isnan(total)) {
    hp__pwarn(x, line,
              "no number in column TotalDurationNs of a hipprof console table; the row "
              "is skipped");
    return 0;
  }
  calls = st->col[COL_CALLS] >= 0 && (size_t)st->col[COL_CALLS] < k
      ? cell_num(cell[st->col[COL_CALLS]], len[st->col[COL_CALLS]])
      : NAN;
  avg = st->col[COL_AVG] >= 0 && (size_t)st->col[COL_AVG] < k
      ? cell_num(cell[st->col[COL_AVG]], len[st->col[COL_AVG]])
      : NAN;
  x->tables |= hp__table_bit(st->table);
  if (!wanted(x, st->table))
    return 0; /* a stats CSV beside this file gives the same figures */
  if (hp__ttable_get(&x->p->t[st->table], cell[c], len[c], &ts))
    return HP_ENOMEM;
  hp__tstat_add_stats(ts, isnan(calls) ? 0 : (long long)calls, total, avg, NAN, NAN);
  return 0;
}

int hp__console_line(hp__pctx *x, hp__console *st, const char *s, size_t n, long line)
{
  int t = title_table(s, n);

  if (t >= 0) {
    st->table = t;
    st->col[COL_NAME] = -1;
    return 1;
  }
  if (st->table < 0)
    return 0;
  if (n > 0 && s[0] == '|')
    return table_row(x, st, s, n, line) < 0 ? HP_ENOMEM : 1;
  if (n > 0 && s[0] == '-')
    return 1;     /* a rule */
  st->table = -1; /* anything else ends the table */
  return 0;
}
