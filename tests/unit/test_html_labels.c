/*
 * Tests of report.html's text widths and label placement (lib/report/html/html_labels.c): the
 * estimated widths against the widths headless Chromium 156 measured (getBBox) for the same texts
 * in DejaVu Sans at the charts' 11 px, the cut of a text to a room, the legend rows, and the
 * greedy placer: a label near the plot's right edge goes to the left of its dot, labels never
 * overlap each other or a dot, and one with no free spot is refused and changes nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "hprun.h"
#include "report/html/html.h"
#include "report/html/html_labels.h"
#include "util/base/buf.h"

/* Whether two boxes overlap (touching edges do not). */
static int overlap(hp__box a, hp__box b)
{
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Each estimate is at least what Chromium drew (a label's box is never too small) and at most 30%
 * more (the placer does not waste the plot). The widths were measured with getBBox() on a page of
 * these texts with report.html's stylesheet (tests/e2e/test_html.sh renders the same way). */
static void test_widths(void **state)
{
  static const struct {
    const char *text;
    double chromium;
  } m[] = {
      {"0123456789", 70.0},
      {"abcdefghijklmnopqrstuvwxyz", 161.33},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 192.65},
      {"WWWWMMMM", 81.47},
      {"iiiillll", 24.45},
      {"<>=+~#&%@", 85.34},
      {"FP16 matrix 700.5 TFLOP/s", 148.58},
      {"FP16, BF16 matrix 1050 TFLOP/s", 179.94},
      {"calls: 12, 34.5% of kernel time", 167.82},
      {"\xc3\xbc"
       "n"
       "\xc3\xaf"
       "c"
       "\xc3\xb6"
       "d"
       "\xc3\xa9"
       " "
       "\xc2\xb5"
       "s",
       60.02},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
    double w = hp__text_px(m[i].text, 0);
    if (w < m[i].chromium || w > 1.3 * m[i].chromium)
      fail_msg("%s: estimated %.1f px, Chromium drew %.1f", m[i].text, w, m[i].chromium);
  }
  /* A cut at 28 characters: Chromium drew "nvjet_sm90_tst_256x128_64x4_…" 187 px wide. */
  assert_true(hp__text_px("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 28) >= 187.0);
  assert_true(hp__text_px("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 28) <
              hp__text_px("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 0));
  assert_true(hp__text_px("", 0) == 0);
}

/* A text cut to a room: nothing when it fits; else the longest prefix whose width with the "…"
 * stays inside the room, one more character would not; at least one character. */
static void test_fit(void **state)
{
  const char *t = "a-pass-with-a-really-very-long-name";
  size_t n;

  (void)state;
  assert_int_equal(hp__text_fit(t, 1000), 0);
  n = hp__text_fit(t, 100);
  assert_true(n > 0 && n < strlen(t));
  assert_true(hp__text_px(t, n) <= 100);
  assert_true(hp__text_px(t, n + 1) > 100);
  assert_int_equal(hp__text_fit(t, 1), 1);
  /* A cut never splits a UTF-8 character: counts are of characters, as hp__html_text cuts. */
  n = hp__text_fit("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 40);
  assert_true(n >= 1 && n < 6);
  {
    hp__buf b = HP__BUF_INIT;
    assert_int_equal(hp__html_text(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", n), 0);
    assert_int_equal(b.len, 2 * n + 3); /* n two-byte characters and the three-byte "…" */
    hp__buf_free(&b);
  }
}

/* Legend rows: entries side by side until the next would pass the end, then a new row; an entry
 * wider than a whole row still starts on a row of its own rather than an endless wrap. */
static void test_flow(void **state)
{
  hp__flow f;
  double x, y;

  (void)state;
  hp__flow_init(&f, 10, 260, 50, 16);
  hp__flow_next(&f, 100, &x, &y);
  assert_true(x == 10 && y == 50);
  hp__flow_next(&f, 100, &x, &y);
  assert_true(x == 110 && y == 50);
  hp__flow_next(&f, 100, &x, &y); /* 210 + 100 > 260 */
  assert_true(x == 10 && y == 66);
  hp__flow_next(&f, 400, &x, &y);
  assert_true(x == 10 && y == 82);
  assert_int_equal(f.rows, 3);
  /* A legend entry is cut to its room: no wider than the room, whatever its text. */
  assert_true(hp__legend_width("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 200) <= 200);
  assert_int_equal(hp__legend_cut("short", 200), 0);
}

/* The placer: right of the dot when there is room; left of it near the right edge; then the
 * other spots; never over another label or a dot; refused when no spot is free. */
static void test_place(void **state)
{
  hp__box area = {0, 0, 300, 100}, dot = {145, 45, 155, 55}, got[16];
  hp__labels l;
  hp__spot sp;
  size_t n = 0, i, j;
  int placed;

  (void)state;
  hp__labels_init(&l, area);
  assert_int_equal(hp__labels_take(&l, dot, 0), 0);
  assert_int_equal(hp__labels_place(&l, 150, 50, 5, 60, &sp, &placed), 0);
  assert_true(placed);
  assert_string_equal(sp.anchor, "start");
  assert_true(sp.x > 155);
  got[n++] = hp__text_box(sp, 60);
  /* The same dot again: its right is taken, so the left. */
  assert_int_equal(hp__labels_place(&l, 150, 50, 5, 60, &sp, &placed), 0);
  assert_true(placed);
  assert_string_equal(sp.anchor, "end");
  assert_true(sp.x < 145);
  got[n++] = hp__text_box(sp, 60);
  /* A dot 10 px from the right edge: a 60 px label cannot go right of it. */
  assert_int_equal(hp__labels_place(&l, 290, 20, 5, 60, &sp, &placed), 0);
  assert_true(placed);
  assert_string_equal(sp.anchor, "end");
  got[n++] = hp__text_box(sp, 60);
  /* Fill the area around the middle dot until the placer refuses. */
  while (n < 16) {
    assert_int_equal(hp__labels_place(&l, 150, 50, 5, 60, &sp, &placed), 0);
    if (!placed)
      break;
    got[n++] = hp__text_box(sp, 60);
  }
  assert_true(n < 16);
  for (i = 0; i < n; i++) {
    assert_true(got[i].x0 >= area.x0 && got[i].x1 <= area.x1);
    assert_true(got[i].y0 >= area.y0 && got[i].y1 <= area.y1);
    assert_false(overlap(got[i], dot));
    for (j = i + 1; j < n; j++)
      assert_false(overlap(got[i], got[j]));
  }
  /* A refusal changes nothing: the taken boxes are the dot and the placed labels. */
  assert_int_equal(l.n, 1 + n);
  /* A label wider than the area is refused at once. */
  assert_int_equal(hp__labels_place(&l, 40, 90, 5, 400, &sp, &placed), 0);
  assert_false(placed);
  assert_int_equal(l.n, 1 + n);
  hp__labels_free(&l);
  hp__labels_free(&l);
  hp__labels_free(NULL);
}

/* The tick labels of a log axis: one style from 1 to a billion (1k, 10k, 100k, 1M, ...), never a
 * "1e+06" beside "100000". */
static void test_ticks(void **state)
{
  hp__buf b = HP__BUF_INIT;
  hp__axis a = {0.5, 2e9, 400, 0, 1};
  static const char *const want[] = {">1</text>",    ">10</text>",   ">100</text>", ">1k</text>",
                                     ">10k</text>",  ">100k</text>", ">1M</text>",  ">10M</text>",
                                     ">100M</text>", ">1G</text>"};
  size_t i;

  (void)state;
  assert_int_equal(hp__svg_yaxis(&b, &a, 80, 800, NULL), 0);
  for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
    if (strstr(b.data, want[i]) == NULL)
      fail_msg("no tick %s in\n%s", want[i], b.data);
  assert_null(strstr(b.data, "e+"));
  assert_null(strstr(b.data, "000<"));
  hp__buf_reset(&b);
  /* A linear axis of fractions (steps of 0.2) and one of thousands. */
  a.log = 0, a.lo = 0, a.hi = 1;
  assert_int_equal(hp__svg_xaxis(&b, &a, 0, 400, NULL), 0);
  assert_non_null(strstr(b.data, ">0.2</text>"));
  hp__buf_reset(&b);
  a.lo = 0, a.hi = 5000;
  assert_int_equal(hp__svg_xaxis(&b, &a, 0, 400, NULL), 0);
  /* 1-2-5 steps of 1000 from 0 to 5000. */
  assert_non_null(strstr(b.data, ">0</text>"));
  assert_non_null(strstr(b.data, ">1k</text>"));
  assert_non_null(strstr(b.data, ">5k</text>"));
  hp__buf_free(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_widths), cmocka_unit_test(test_fit),   cmocka_unit_test(test_flow),
      cmocka_unit_test(test_place),  cmocka_unit_test(test_ticks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
