/* hprun_metric.h: print result lines in the form hprun plans match. Header-only; plain C (C99
 * and later) and C++, no GPU runtime needed, so CPU programs and tests can use it too.
 *
 * The contract (docs/hip.md has the long version):
 *   - A result line is one line on stdout of space-separated `name=value` fields, for example
 *       device=BW arch=gfx936:sramecc+:xnack- elements=1048576 mean_kernel_ms=0.0185488
 *     (all on one line), or a single field: `mean_kernel_ms=0.0185488`.
 *   - Numbers are printed with "%.7g" (HPRUN_METRIC_FMT): 7 significant digits, about what a
 *     float event time holds, and never a thousands separator or a unit, so the plan pattern
 *     'mean_kernel_ms=([0-9.eE+-]+)' captures exactly the number. (A program that calls
 *     setlocale(LC_NUMERIC, ...) may get a decimal comma; the samples never do.) The unit
 *     lives in the plan (`unit: ms`); put it in the name too (`_ms`, `_us`, `_gbps`) so the
 *     line reads by itself.
 *   - String values never contain blanks or '=': each such character becomes '_'
 *     ("NVIDIA H200" prints as NVIDIA_H200), so every field stays one token.
 *   - The line is flushed at its end: a sample killed or timed out later still leaves its result
 *     in the captured output, and interleaving with stderr stays in order on a terminal.
 *   - A non-finite number prints as nan/inf, which the pattern does not match; hprun then reports
 *     the metric as missing instead of recording a bogus value.
 *
 * Field names should be identifiers ([A-Za-z_][A-Za-z0-9_]*); they are printed as given.
 *
 *   hprun_line_t line;
 *   hprun_line_begin(&line, stdout);
 *   hprun_line_str(&line, "device", prop.name);
 *   hprun_line_double(&line, "mean_kernel_ms", ms);
 *   hprun_line_end(&line);
 *
 *   hprun_print_metric("mean_kernel_ms", ms);    (one field, one line, to stdout) */
#ifndef HPRUN_METRIC_H
#define HPRUN_METRIC_H

#include <stdio.h>

#define HPRUN_METRIC_FMT "%.7g"

/* One result line being written. The caller owns it (usually on the stack) and the stream;
 * nothing is allocated, so there is nothing to free. */
typedef struct hprun_line {
  FILE *out;
  int nfields;
} hprun_line_t;

/* Starts a line on `out` (stdout when NULL). Prints nothing yet. */
static inline void hprun_line_begin(hprun_line_t *line, FILE *out)
{
  line->out = out != NULL ? out : stdout;
  line->nfields = 0;
}

/* The separator goes before every field but the first, so a line never has a leading or
 * trailing blank that a strict pattern would trip over. */
static inline void hprun_line_name_(hprun_line_t *line, const char *name)
{
  if (line->nfields++ > 0)
    fputc(' ', line->out);
  fputs(name, line->out);
  fputc('=', line->out);
}

/* Adds `name=value`; blanks and '=' in `value` become '_', and NULL or "" prints as
 * "unknown", so the field is always exactly one non-empty token. */
static inline void hprun_line_str(hprun_line_t *line, const char *name, const char *value)
{
  const char *p;

  hprun_line_name_(line, name);
  if (value == NULL || value[0] == '\0')
    value = "unknown";
  for (p = value; *p != '\0'; p++) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == '=')
      c = '_';
    fputc(c, line->out);
  }
}

/* Adds `name=value` with HPRUN_METRIC_FMT. */
static inline void hprun_line_double(hprun_line_t *line, const char *name, double value)
{
  hprun_line_name_(line, name);
  fprintf(line->out, HPRUN_METRIC_FMT, value);
}

/* Adds `name=value` for an integer (counts: elements, iterations, launches). */
static inline void hprun_line_long(hprun_line_t *line, const char *name, long long value)
{
  hprun_line_name_(line, name);
  fprintf(line->out, "%lld", value);
}

/* Ends the line and flushes the stream. Returns 0, or -1 when the stream reported a write
 * error (a closed pipe, a full disk), which the caller may turn into a failing exit status. */
static inline int hprun_line_end(hprun_line_t *line)
{
  fputc('\n', line->out);
  if (fflush(line->out) != 0 || ferror(line->out))
    return -1;
  return 0;
}

/* Prints the one-field line `name=value` on stdout and flushes. Returns as hprun_line_end. */
static inline int hprun_print_metric(const char *name, double value)
{
  hprun_line_t line;

  hprun_line_begin(&line, stdout);
  hprun_line_double(&line, name, value);
  return hprun_line_end(&line);
}

#endif /* HPRUN_METRIC_H */
