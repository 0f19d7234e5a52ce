/* test_metric_line.c: checks hip/hprun_metric.h, the result-line printer of the HIP samples,
 * against the contract hprun relies on: the exact text of a line, and that a plan's metric
 * pattern (POSIX ERE, as hprun uses) captures each number whole and reads back its value.
 *
 * Plain C11 with no GPU runtime and no cmocka, so `make hip-check` runs it on every machine,
 * hipcc or not. Prints one line per failed check and exits 1 if any failed. */
#include "../hprun_metric.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

/* Reads everything written to `f` since it was opened into `buf` (NUL-terminated). */
static void slurp(FILE *f, char *buf, size_t len)
{
  size_t n;

  rewind(f);
  n = fread(buf, 1, len - 1, f);
  buf[n] = '\0';
}

/* Applies `pattern` (one capture group, as in a plan's metrics entry) to `text` and stores the
 * captured number in *value. Returns 1 on a match whose capture parses completely as a double,
 * 0 when the pattern does not match, -1 when it matched something strtod rejects. */
static int capture(const char *pattern, const char *text, double *value)
{
  regex_t re;
  regmatch_t m[2];
  char num[64];
  char *end = NULL;
  size_t len;
  int rc;

  if (regcomp(&re, pattern, REG_EXTENDED) != 0) {
    fprintf(stderr, "bad test pattern %s\n", pattern);
    exit(2);
  }
  rc = regexec(&re, text, 2, m, 0);
  regfree(&re);
  if (rc != 0)
    return 0;
  len = (size_t)(m[1].rm_eo - m[1].rm_so);
  if (len == 0 || len >= sizeof(num))
    return -1;
  memcpy(num, text + m[1].rm_so, len);
  num[len] = '\0';
  *value = strtod(num, &end);
  if (*end != '\0')
    return -1;
  /* The number must end where the field ends: at a blank or at the end of the line. */
  if (text[m[1].rm_eo] != ' ' && text[m[1].rm_eo] != '\n' && text[m[1].rm_eo] != '\0')
    return -1;
  return 1;
}

static void test_article_line(void)
{
  char buf[512];
  FILE *f = tmpfile();
  hprun_line_t line;
  double v = 0.0;

  CHECK(f != NULL);
  if (f == NULL)
    return;
  hprun_line_begin(&line, f);
  hprun_line_str(&line, "device", "NVIDIA H200");
  hprun_line_str(&line, "arch", "gfx936:sramecc+:xnack-");
  hprun_line_long(&line, "elements", 1048576);
  hprun_line_long(&line, "launches", 120);
  hprun_line_double(&line, "mean_kernel_ms", 0.0185488);
  hprun_line_double(&line, "max_abs_error", 0.0);
  CHECK(hprun_line_end(&line) == 0);
  slurp(f, buf, sizeof(buf));
  fclose(f);

  CHECK(strcmp(buf,
               "device=NVIDIA_H200 arch=gfx936:sramecc+:xnack- elements=1048576 "
               "launches=120 mean_kernel_ms=0.0185488 max_abs_error=0\n") == 0);
  CHECK(capture("mean_kernel_ms=([0-9.eE+-]+)", buf, &v) == 1);
  CHECK(v == 0.0185488);
  CHECK(capture("launches=([0-9]+)", buf, &v) == 1);
  CHECK(v == 120.0);
  CHECK(capture("max_abs_error=([0-9.eE+-]+)", buf, &v) == 1);
  CHECK(v == 0.0);
}

/* Every magnitude a timing can have comes back within %.7g's rounding, including the ones
 * printed in exponent form, which the documented pattern must still capture whole. */
static void test_number_round_trip(void)
{
  static const double values[] = {1e-9, 2.5e-6, 0.0185488, 1.48078, 42.0, 123456.789, 3.2e10};
  size_t i;

  for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
    char buf[128];
    FILE *f = tmpfile();
    hprun_line_t line;
    double v = -1.0;

    CHECK(f != NULL);
    if (f == NULL)
      return;
    hprun_line_begin(&line, f);
    hprun_line_double(&line, "mean_kernel_ms", values[i]);
    CHECK(hprun_line_end(&line) == 0);
    slurp(f, buf, sizeof(buf));
    fclose(f);
    CHECK(capture("mean_kernel_ms=([0-9.eE+-]+)", buf, &v) == 1);
    CHECK(fabs(v - values[i]) <= fabs(values[i]) * 5e-7);
  }
}

static void test_string_values(void)
{
  char buf[256];
  FILE *f = tmpfile();
  hprun_line_t line;

  CHECK(f != NULL);
  if (f == NULL)
    return;
  hprun_line_begin(&line, f);
  hprun_line_str(&line, "a", NULL);
  hprun_line_str(&line, "b", "");
  hprun_line_str(&line, "c", "x=y\tz\n");
  CHECK(hprun_line_end(&line) == 0);
  slurp(f, buf, sizeof(buf));
  fclose(f);
  CHECK(strcmp(buf, "a=unknown b=unknown c=x_y_z_\n") == 0);
}

/* A non-finite result must not look like a number to hprun: the metric then counts as missing. */
static void test_non_finite_is_not_a_number(void)
{
  char buf[128];
  FILE *f = tmpfile();
  hprun_line_t line;
  double v = 0.0;

  CHECK(f != NULL);
  if (f == NULL)
    return;
  hprun_line_begin(&line, f);
  hprun_line_double(&line, "mean_kernel_ms", nan(""));
  hprun_line_double(&line, "other_ms", HUGE_VAL);
  CHECK(hprun_line_end(&line) == 0);
  slurp(f, buf, sizeof(buf));
  fclose(f);
  CHECK(capture("mean_kernel_ms=([0-9.eE+-]+)", buf, &v) == 0);
  CHECK(capture("other_ms=([0-9.eE+-]+)", buf, &v) == 0);
}

static void test_defaults_and_write_error(void)
{
  hprun_line_t line;
  FILE *full;

  hprun_line_begin(&line, NULL);
  CHECK(line.out == stdout);
  CHECK(line.nfields == 0);

  /* /dev/full fails every write with ENOSPC: the line's end must report it. */
  full = fopen("/dev/full", "w");
  if (full == NULL) {
    fprintf(stderr, "note: no /dev/full; write-error check skipped\n");
    return;
  }
  hprun_line_begin(&line, full);
  hprun_line_double(&line, "mean_kernel_ms", 1.0);
  CHECK(hprun_line_end(&line) == -1);
  fclose(full);
}

int main(void)
{
  test_article_line();
  test_number_round_trip();
  test_string_values();
  test_non_finite_is_not_a_number();
  test_defaults_and_write_error();
  if (failures > 0) {
    fprintf(stderr, "test_metric_line: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_metric_line: all checks passed\n");
  return 0;
}
