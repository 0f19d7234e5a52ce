/*
 * Text on report.html's charts (html_labels.c): how wide a text will be drawn, and a greedy
 * placer that puts a label beside its mark where it overlaps no other text or mark and stays
 * inside the plot. The charts are written before any browser lays them out, so every width here
 * is an estimate from the font size and the characters; it is made on the wide side (DejaVu Sans,
 * Linux's default sans-serif and one of the widest) so that a real font only leaves more room.
 *
 * Ownership: an hp__labels owns its array of taken boxes, freed by hp__labels_free (which
 * accepts NULL); the strings passed in are only read.
 */
#ifndef HPRUN_REPORT_HTML_LABELS_H
#define HPRUN_REPORT_HTML_LABELS_H

#include <stddef.h>

/* The font size of every chart's text, in pixels: html.c's stylesheet
 * (svg.chart{font-size:11px}). */
#define HP__FONT_PX 11.0

/* A box in the chart's pixels, x0 <= x1 and y0 <= y1 (y grows downwards). */
typedef struct hp__box {
  double x0, y0, x1, y1;
} hp__box;

/* Where a text goes: its x and baseline y, and its text-anchor ("start", "middle", "end"). */
typedef struct hp__spot {
  double x, y;
  const char *anchor;
} hp__spot;

/* The width in pixels of UTF-8 text s drawn at HP__FONT_PX, of at most max characters (0: all;
 * a cut text ends in "…", as hp__html_text writes it). */
double hp__text_px(const char *s, size_t max);
/* The box of a text w pixels wide drawn at spot sp: from the font's ascent above the baseline to
 * its descent below it. */
hp__box hp__text_box(hp__spot sp, double w);

/* Longest prefix of s (whole UTF-8 characters) whose width is at most px pixels, counting the "…"
 * of a cut: the characters to pass as hp__html_text's max, or 0 when the whole of s fits. */
size_t hp__text_fit(const char *s, double px);

/* Entries in rows (a legend): from x0, wrapping before x1, rows `step` pixels apart. A caller
 * lays its entries out twice through this one rule, once to count the rows (the chart's height)
 * and once to draw them. */
typedef struct hp__flow {
  double x0, x1, step;
  double x, y; /* where the next entry goes */
  int rows;
} hp__flow;

void hp__flow_init(hp__flow *f, double x0, double x1, double y, double step);
/* The place of the next entry, w pixels wide (*x, *y): on the current row when it fits or the row
 * is empty, else at the start of a new one. */
void hp__flow_next(hp__flow *f, double w, double *x, double *y);

/* A legend entry of at most `room` pixels: the characters of its text that fit (hp__text_fit's
 * count, 0: all), and the entry's width: its swatch, that text, a gap. */
size_t hp__legend_cut(const char *text, double room);
double hp__legend_width(const char *text, double room);

typedef struct hp__labels {
  hp__box area;   /* every placed label stays inside */
  hp__box *boxes; /* taken: texts and marks */
  unsigned char *is_text;
  size_t n, cap;
} hp__labels;

void hp__labels_init(hp__labels *l, hp__box area);
void hp__labels_free(hp__labels *l);
/* Marks box b as taken (a mark when is_text is 0: a dot that labels keep off). 0 or HP_ENOMEM. */
int hp__labels_take(hp__labels *l, hp__box b, int is_text);
/* Whether b lies inside the area and overlaps no taken text (and, unless texts_only, no taken
 * mark). */
int hp__labels_free_at(const hp__labels *l, hp__box b, int texts_only);
/* Places a text w pixels wide beside a mark at (x, y) of radius r, trying in turn: right of it,
 * left, above, below, then above-right, above-left, below-right, below-left; the first spot that
 * hp__labels_free_at accepts is taken (its box added) and written to *out with *placed = 1, else
 * *placed = 0 and nothing changes. Returns 0 or HP_ENOMEM. */
int hp__labels_place(hp__labels *l, double x, double y, double r, double w, hp__spot *out,
                     int *placed);

#endif /* HPRUN_REPORT_HTML_LABELS_H */
