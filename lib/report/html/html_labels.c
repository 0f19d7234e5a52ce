/*
 * Text widths and label placement on report.html's charts (html_labels.h says what each does).
 *
 * A width is the sum of per-character widths, in em, of a few classes of characters taken from
 * DejaVu Sans (narrow "il.,", mid "ftr()", lower case and digits, upper case, wide "mwMW%"; outside
 * ASCII, letters of two UTF-8 bytes as upper case and anything longer as 1 em), plus a margin.
 * Checked against Chromium's own widths of every text of the test pages, the estimate was never
 * smaller and a median 10% larger: a browser that picks a narrower font (Segoe UI, San
 * Francisco, Helvetica) then draws the text inside the estimated box, never beyond it.
 *
 * The placer is greedy and deterministic: a caller offers its labels in order of importance and
 * each takes the first free one of a fixed list of spots, so the same chart gives the same page.
 */
#include "report/html/html_labels.h"
#include "hprun.h"

#include <stdlib.h>
#include <string.h>

/* The margin on every estimated width, for fonts and hinting a little wider than the classes. */
#define WIDTH_MARGIN 1.06
/* The font's ascent and descent, in em (DejaVu Sans: 0.928 and 0.236; most fonts have less). */
#define ASCENT 0.93
#define DESCENT 0.25
/* Pixels kept clear around a label's box, so that two placed labels never touch. */
#define PAD 1.0
/* The gap between a mark's edge and its label. */
#define GAP 3.0

/* The width of ASCII character c, in em. */
static double char_em(unsigned char c)
{
  if (strchr("il.,:;'|!` ", c))
    return 0.34;
  if (strchr("fjtr()[]-/\\\"", c))
    return 0.42;
  if (strchr("_*", c))
    return 0.52;
  if (strchr("mwMW%@", c))
    return 1.0;
  if (strchr("<>=+~#&^", c))
    return 0.84;
  if (c >= 'A' && c <= 'Z')
    return 0.74;
  return 0.64;
}

/* The width of the UTF-8 character at s in em, and its length in bytes (*len). */
static double utf8_em(const unsigned char *s, size_t *len)
{
  size_t n = 1;

  if (*s < 0x80) {
    *len = 1;
    return char_em(*s);
  }
  while (s[n] && (s[n] & 0xC0) == 0x80 && n < 4)
    n++;
  *len = n;
  /* Two bytes: Latin, Greek and Cyrillic letters, as wide as upper case at most; three or more:
   * CJK, symbols and "…", a whole em. */
  return n == 2 ? 0.74 : 1.0;
}

double hp__text_px(const char *s, size_t max)
{
  const unsigned char *p = (const unsigned char *)s;
  double em = 0;
  size_t chars = 0, len;

  for (; p && *p; p += len, chars++) {
    if (max && chars == max) {
      em += 1.0; /* the "…" of the cut */
      break;
    }
    em += utf8_em(p, &len);
  }
  return em * HP__FONT_PX * WIDTH_MARGIN;
}

size_t hp__text_fit(const char *s, double px)
{
  const unsigned char *p = (const unsigned char *)s;
  double limit = px / (HP__FONT_PX * WIDTH_MARGIN), em = 0, ell = 1.0;
  size_t chars = 0, fit = 1, len;

  if (hp__text_px(s, 0) <= px)
    return 0;
  /* The longest prefix that leaves room for the ellipsis; at least one character. */
  for (; *p; p += len, chars++) {
    em += utf8_em(p, &len);
    if (em + ell > limit)
      break;
    fit = chars + 1;
  }
  return fit;
}

hp__box hp__text_box(hp__spot sp, double w)
{
  hp__box b;

  b.x0 = *sp.anchor == 'e' ? sp.x - w : *sp.anchor == 'm' ? sp.x - w / 2 : sp.x;
  b.x1 = b.x0 + w;
  b.y0 = sp.y - ASCENT * HP__FONT_PX;
  b.y1 = sp.y + DESCENT * HP__FONT_PX;
  return b;
}

void hp__flow_init(hp__flow *f, double x0, double x1, double y, double step)
{
  f->x0 = f->x = x0;
  f->x1 = x1;
  f->y = y;
  f->step = step;
  f->rows = 1;
}

void hp__flow_next(hp__flow *f, double w, double *x, double *y)
{
  if (f->x > f->x0 && f->x + w > f->x1) {
    f->x = f->x0;
    f->y += f->step;
    f->rows++;
  }
  *x = f->x;
  *y = f->y;
  f->x += w;
}

/* A legend's swatch and the gap before its text, and the gap after it. */
#define SWATCH 14.0
#define AFTER 16.0

size_t hp__legend_cut(const char *text, double room)
{
  return hp__text_fit(text, room - SWATCH - AFTER);
}

double hp__legend_width(const char *text, double room)
{
  return SWATCH + hp__text_px(text, hp__legend_cut(text, room)) + AFTER;
}

void hp__labels_init(hp__labels *l, hp__box area)
{
  memset(l, 0, sizeof(*l));
  l->area = area;
}

void hp__labels_free(hp__labels *l)
{
  if (l == NULL)
    return;
  free(l->boxes);
  free(l->is_text);
  l->boxes = NULL;
  l->is_text = NULL;
  l->n = l->cap = 0;
}

int hp__labels_take(hp__labels *l, hp__box b, int is_text)
{
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 32;
    hp__box *nb = realloc(l->boxes, cap * sizeof(*nb));
    unsigned char *nt;
    if (nb == NULL)
      return HP_ENOMEM;
    l->boxes = nb;
    if ((nt = realloc(l->is_text, cap)) == NULL)
      return HP_ENOMEM;
    l->is_text = nt;
    l->cap = cap;
  }
  l->boxes[l->n] = b;
  l->is_text[l->n++] = (unsigned char)(is_text != 0);
  return 0;
}

int hp__labels_free_at(const hp__labels *l, hp__box b, int texts_only)
{
  size_t i;

  if (b.x0 < l->area.x0 || b.x1 > l->area.x1 || b.y0 < l->area.y0 || b.y1 > l->area.y1)
    return 0;
  for (i = 0; i < l->n; i++) {
    const hp__box *o = &l->boxes[i];
    if (texts_only && !l->is_text[i])
      continue;
    if (b.x0 - PAD < o->x1 && o->x0 < b.x1 + PAD && b.y0 - PAD < o->y1 && o->y0 < b.y1 + PAD)
      return 0;
  }
  return 1;
}

int hp__labels_place(hp__labels *l, double x, double y, double r, double w, hp__spot *out,
                     int *placed)
{
  /* The baseline that centres a text on y, and those that put it clear above and below the mark. */
  double mid = y + (ASCENT - DESCENT) / 2 * HP__FONT_PX;
  double up = y - r - GAP - DESCENT * HP__FONT_PX, down = y + r + GAP + ASCENT * HP__FONT_PX;
  double side = r + GAP, corner = r * 0.7;
  const hp__spot spots[] = {
      {x + side, mid, "start"},    {x - side, mid, "end"},    {x, up, "middle"},
      {x, down, "middle"},         {x + corner, up, "start"}, {x - corner, up, "end"},
      {x + corner, down, "start"}, {x - corner, down, "end"},
  };
  size_t i;

  *placed = 0;
  for (i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
    hp__box b = hp__text_box(spots[i], w);
    if (hp__labels_free_at(l, b, 0)) {
      int rc = hp__labels_take(l, b, 1);
      if (rc == 0) {
        *out = spots[i];
        *placed = 1;
      }
      return rc;
    }
  }
  return 0;
}
