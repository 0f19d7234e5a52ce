/*
 * The parsers' loop over rows through the CSV reader's fast path (see fastrows.h): a line read
 * whole (hp__csv_next_raw) and split in place (hp__csv_split_fast), and for a line that is not
 * plain, hp__csv_next. A file whose lines mostly need hp__csv_next (more than a
 * quarter, after 64 of them) stops trying, so such a file costs what it cost before the fast path.
 */
#include "profile/fast/fastrows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int hp__fastrows_init(hp__fastrows *fr, size_t ncols)
{
  size_t k = ncols ? ncols : 1;

  fr->ncols = ncols;
  fr->kind = calloc(k, 1);
  fr->ok = calloc(k, 1);
  fr->val = calloc(k, sizeof(*fr->val));
  fr->f = calloc(k, sizeof(*fr->f));
  fr->len = calloc(k, sizeof(*fr->len));
  fr->have_sp = 0; /* made at the first line: the caller sets the kinds after this */
  if (!fr->kind || !fr->ok || !fr->val || !fr->f || !fr->len)
    return HP_ENOMEM;
  return 0;
}

void hp__fastrows_free(hp__fastrows *fr)
{
  free(fr->kind);
  free(fr->ok);
  free(fr->val);
  free(fr->f);
  free(fr->len);
  hp__csv_splitter_free(&fr->sp);
  fr->have_sp = 0;
  fr->kind = fr->ok = NULL;
  fr->val = NULL;
  fr->f = NULL;
  fr->len = NULL;
}

int hp__fastrows_next(hp__pctx *x, hp__fastrows *fr, hp__csv_rec *rec, const hp__fastrows **nums)
{
  const char *s;
  size_t n;
  int r = 2;

  *nums = NULL;
  rec->f = fr->f;
  rec->len = fr->len;
  if (fr->kind && (fr->slow <= 64 || fr->slow * 4 <= fr->lines)) {
    fr->lines++;
    if (!fr->have_sp) {
      if (hp__csv_splitter_init(&fr->sp, fr->kind, fr->ncols))
        return HP_ENOMEM;
      fr->have_sp = 1;
    }
    while ((r = hp__csv_next_raw(x->csv, &s, &n, &rec->line)) == 1 && n == 0)
      ; /* blank lines, which hp__csv_next skips too */
    if (r == 1) {
      if (hp__csv_split_fast(&fr->sp, s, n, rec, fr->val, fr->ok)) {
        *nums = fr;
        return 1;
      }
      hp__csv_unread_line(x->csv);
    }
    if (r < 0)
      return r;
    if (r == 0)
      return 0;
    fr->slow++;
  }
  return hp__csv_next(x->csv, rec);
}
