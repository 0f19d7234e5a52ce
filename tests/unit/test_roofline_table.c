/*
 * Tests of the roofline table (lib/report/core/roofline_table.c, roofline_out.c): three points and
 * the ceilings written by hand, rendered in text, Markdown, CSV and JSON. Every expected figure
 * was worked out by hand from the points' FLOPs, bytes and times below:
 *
 *   gemm: 2e9 FLOP, 1e7 bytes, 1e6 ns  -> 200 FLOP/byte, 2000 GFLOP/s, 10 GB/s; FP32 ridge
 *         10000 / 1000 = 10 FLOP/byte, so compute-bound under the FP32 roof of 10000: 20%;
 *   add:  1e6 FLOP, 1.2e7 bytes, 2e4 ns -> 1/12 FLOP/byte, 50 GFLOP/s, 600 GB/s; memory-bound
 *         under 1000 x 1/12 = 83.3333 GFLOP/s: 60%;
 *   copy: 0 FLOP, 4e6 bytes, 1e4 ns     -> 0 FLOP/byte, 400 GB/s, no precision, no efficiency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report/core/roofline_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hp_roof_point pts[3];
static hp_roofline roof = {pts, 3, "ncu", 0, NULL};
static hp_peaks peaks;

static int setup(void **state)
{
  hp_roof_point a = {"gemm(float*)",   2,     2e9, 1e7,    1e6, 200, 2000, 10, "fp32",
                     HP_BOUND_COMPUTE, 10000, 0.2, "fp32", NULL};
  hp_roof_point b = {"add(float*)",   1,           1e6, 1.2e7,       2e4, 1.0 / 12, 50, 600, "fp32",
                     HP_BOUND_MEMORY, 1000.0 / 12, 0.6, "bandwidth", NULL};
  hp_roof_point c = {"copy|x(int)",   4, 0,   4e6,         1e4, 0, 0, 400, NULL,
                     HP_BOUND_MEMORY, 0, NAN, "bandwidth", NULL};

  (void)state;
  pts[0] = a, pts[1] = b, pts[2] = c;
  hp_peaks_init(&peaks);
  peaks.bw_gbs = 1000;
  peaks.fp32_tflops = 10;
  peaks.fp64_tflops = 5;
  peaks.fp16_tflops = 100;
  peaks.source = (char *)"datasheet";
  peaks.device = (char *)"Test GPU";
  return 0;
}

/* What hp_roofline_write prints (malloc'd). */
static char *written(const hp_roofline *r, const hp_peaks *pk, hp_format f)
{
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);

  assert_non_null(fp);
  assert_int_equal(hp_roofline_write(r, pk, fp, f), 0);
  assert_int_equal(fclose(fp), 0);
  return text;
}

/* The line of `text` that starts with `start` (a copy), or fails. */
static char *line_of(const char *text, const char *start)
{
  const char *p = text;

  for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (strncmp(p, start, strlen(start)) == 0)
      return strndup(p, strcspn(p, "\n"));
  fail_msg("no line starts with '%s' in:\n%s", start, text);
  return NULL;
}

/* Words of a line, space-separated, joined by '|'. */
static void words(const char *line, char *out, size_t len)
{
  char *copy = strdup(line), *w, *save = NULL;

  out[0] = '\0';
  for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
    snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "|" : "", w);
  free(copy);
}

static void text_table(void **state)
{
  char *t = written(&roof, &peaks, HP_FMT_TEXT), *l, w[256];
  size_t end_gemm, end_add;

  (void)state;
  assert_non_null(strstr(t,
                         "ceilings (datasheet, Test GPU): bandwidth 1000 GB/s, FP32 10 TFLOP/s, "
                         "FP64 5 TFLOP/s, FP16 matrix 100 TFLOP/s\n"));
  l = line_of(t, "kernel ");
  words(l, w, sizeof(w));
  assert_string_equal(
      w, "kernel|precision|FLOP/byte|GFLOP/s|GB/s|bound|ceiling|roof|GFLOP/s|%|of|roof|note");
  free(l);
  l = line_of(t, "gemm ");
  words(l, w, sizeof(w));
  assert_string_equal(w, "gemm|fp32|200|2000|10|compute|fp32|10000|20.0|-");
  end_gemm = strstr(l, "200 ") - l + 3;
  free(l);
  l = line_of(t, "add ");
  words(l, w, sizeof(w));
  assert_string_equal(w, "add|fp32|0.0833333|50|600|memory|bandwidth|83.3333|60.0|-");
  /* Numbers are right-aligned: the intensities end in the same column. */
  end_add = strstr(l, "0.0833333") - l + 9;
  assert_int_equal(end_gemm, end_add);
  free(l);
  l = line_of(t, "copy|x ");
  words(l, w, sizeof(w));
  assert_string_equal(w, "copy|x|-|0|0|400|memory|bandwidth|0|-|-");
  free(l);
  free(t);
}

static void markdown_table(void **state)
{
  char *t = written(&roof, &peaks, HP_FMT_MD);

  (void)state;
  assert_non_null(
      strstr(t, "## Roofline\n\nCeilings (datasheet, Test GPU): bandwidth 1000 GB/s, "));
  assert_non_null(
      strstr(t,
             "| kernel | precision | FLOP/byte | GFLOP/s | GB/s | bound | ceiling "
             "| roof GFLOP/s | % of roof | note |\n|---|---|--:|--:|--:|---|---|--:|--:|---|\n"));
  assert_non_null(strstr(t,
                         "| `add` | fp32 | 0.0833333 | 50 | 600 | memory | bandwidth | 83.3333 "
                         "| 60.0 | - |\n"));
  /* A pipe in a name is escaped; a missing value is "-". */
  assert_non_null(strstr(t, "| `copy\\|x` | - | 0 | 0 | 400 | memory | bandwidth | 0 | - | - |\n"));
  free(t);
}

static void csv_table(void **state)
{
  char *t = written(&roof, &peaks, HP_FMT_CSV);

  (void)state;
  /* Whole names, exact numbers (the shortest form that reads back), efficiency as a fraction,
   * a missing value empty. */
  assert_string_equal(
      t,
      "kernel,launches,precision,flop,bytes,time_ns,intensity,gflops,gbs,bound,ceiling,"
      "roof_gflops,efficiency,note\n"
      "gemm(float*),2,fp32,2000000000,10000000,1000000,200,2000,10,compute,fp32,10000,0.2,\n"
      "add(float*),1,fp32,1000000,12000000,20000,0.083333333333333329,50,600,memory,"
      "bandwidth,83.333333333333329,0.6,\n"
      "copy|x(int),4,,0,4000000,10000,0,0,400,memory,bandwidth,0,,\n");
  free(t);
}

static void json_object(void **state)
{
  char *t = written(&roof, &peaks, HP_FMT_JSON);

  (void)state;
  assert_non_null(strstr(t, "\"peak_fp16_tflops\": 100,\n"));
  assert_non_null(strstr(t, "\"source\": \"ncu\",\n"));
  assert_non_null(strstr(t,
                         "\"name\": \"add(float*)\",\n      \"launches\": 1,\n"
                         "      \"precision\": \"fp32\",\n"));
  assert_non_null(
      strstr(t,
             "\"bound\": \"memory\",\n      \"ceiling\": \"bandwidth\",\n"
             "      \"roof_gflops\": 0,\n      \"efficiency\": null,\n      \"note\": null\n"));
  assert_non_null(strstr(t, "\"skipped\": 0\n}"));
  free(t);
}

/* Without peaks: the line says so, and an empty roofline says why there are no points. */
static void no_peaks_no_points(void **state)
{
  char *t = written(NULL, NULL, HP_FMT_TEXT);

  (void)state;
  assert_non_null(strstr(t, "ceilings: none given, so no bound, roof or efficiency"));
  assert_non_null(strstr(t, "(no kernel has FLOP counts, device-memory bytes and a time"));
  free(t);
}

/* The session's reports show the first rows, cut long names, and say how many are left out. */
static void top_and_cut(void **state)
{
  hp__buf b = HP__BUF_INIT;
  char name[80];

  (void)state;
  memset(name, 'k', 70);
  name[70] = '\0';
  pts[0].kernel = name;
  assert_int_equal(hp__roof_table(&b, &roof, HP_FMT_TEXT, 2, 4), 0);
  /* 59 k's and an ellipsis: 60 columns. */
  assert_non_null(strstr(
      b.data, "    kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\xE2\x80\xA6 "));
  assert_null(strstr(b.data, "copy"));
  assert_non_null(
      strstr(b.data, "    (1 more kernel: summary.json and report.html have them all)\n"));
  hp__buf_reset(&b);
  assert_int_equal(hp__roof_table(&b, &roof, HP_FMT_MD, 1, 0), 0);
  assert_non_null(strstr(b.data,
                         "\n1 of 3 kernels shown; summary.json and report.html have them "
                         "all.\n"));
  hp__buf_free(&b);
  pts[0].kernel = (char *)"gemm(float*)";
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(text_table, setup),
      cmocka_unit_test_setup(markdown_table, setup),
      cmocka_unit_test_setup(csv_table, setup),
      cmocka_unit_test_setup(json_object, setup),
      cmocka_unit_test_setup(no_peaks_no_points, setup),
      cmocka_unit_test_setup(top_and_cut, setup),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
