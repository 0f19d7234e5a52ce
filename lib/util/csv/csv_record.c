/*
 * CSV records: finding the fields of one record in the reader's buffer, undoing their quotes, and
 * skipping records that are too long or never end.
 *
 * Parsing never changes the buffer in a way it cannot take back until a record is known to be
 * complete, which is what makes the restart after a refill safe (see lib/util/csv/csv.c). Field ends
 * are found with the block masks of lib/util/csv/csv_scan.h: one pass over 64 bytes finds every
 * delimiter in them, so a short field costs a bit scan, not a search.
 */
#include "util/csv/csv_internal.h"
#include "util/csv/csv_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* parse_record's answers besides HP_ENOMEM. */
enum {
  REC_DONE = 1,
  REC_BLANK,
  REC_NEED_MORE,
  REC_TOO_LONG,
  REC_UNTERMINATED
};

/* Doubles the three per-field arrays. A failure leaves the ones already grown in place (fcap, the
 * smallest of them, still holds), so the reader stays consistent and hp__csv_free frees them. */
static int grow_fields(hp__csv *c)
{
  size_t ncap = c->fcap * 2;
  char **f;
  size_t *l;
  unsigned char *k;

  f = realloc(c->f, ncap * sizeof(*f));
  if (f == NULL)
    return HP_ENOMEM;
  c->f = f;
  l = realloc(c->flen, ncap * sizeof(*l));
  if (l == NULL)
    return HP_ENOMEM;
  c->flen = l;
  k = realloc(c->fkind, ncap);
  if (k == NULL)
    return HP_ENOMEM;
  c->fkind = k;
  c->fcap = ncap;
  return 0;
}

static long count_nl(const char *p, const char *end)
{
  long n = 0;

  while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    n++;
    p++;
  }
  return n;
}

/* Undoes the quoting of a field in place: doubled quotes become one, the closing quote goes, and
 * whatever followed it (a malformed field) is kept as it is. Returns the new length. */
static size_t unquote(char *s, size_t n)
{
  char *r = s, *w = s, *end = s + n;
  int closed = 0;

  while (r < end) {
    if (!closed && *r == '"') {
      if (r + 1 < end && r[1] == '"') {
        *w++ = '"';
        r += 2;
        continue;
      }
      closed = 1;
      r++;
      continue;
    }
    *w++ = *r++;
  }
  return (size_t)(w - s);
}

/* Field kinds while a record is parsed. An unquoted field and a clean quoted one get their NUL at
 * once (over the ',' or the closing quote that ended them); a field with doubled quotes or text
 * after its closing quote is unquoted in place once the record is complete. */
enum {
  FK_PLAIN,
  FK_QUOTED,
  FK_UNQUOTE
};

/* Puts back the delimiters that NULs replaced, so that an incomplete record can be parsed again
 * from its start (or skipped) after a refill. */
static int undo(hp__csv *c, size_t nf, int r)
{
  size_t i;

  for (i = 0; i < nf; i++)
    if (c->fkind[i] != FK_UNQUOTE)
      c->f[i][c->flen[i]] = c->fkind[i] == FK_QUOTED ? '"' : ',';
  return r;
}

/* One field as scan_quoted or scan_plain found it. */
typedef struct field {
  char *start, *end;  /* the field's raw bytes; a clean quoted field's exclude its quotes */
  char *next;         /* what ended it: a delimiter, or the end of the data */
  long nl;            /* newlines inside its quotes */
  unsigned char kind; /* FK_PLAIN, FK_QUOTED or FK_UNQUOTE */
  int stray;          /* characters after its closing quote were kept */
} field;

/* Finds the end of the quoted field whose opening quote is at p. Returns 0 with *fl filled, or
 * REC_NEED_MORE / REC_UNTERMINATED when the data ends before the field does. */
static int scan_quoted(char *p, char *end, int eof, field *fl)
{
  char *q = p + 1;

  fl->kind = FK_QUOTED;
  fl->nl = 0;
  for (;;) {
    q = csv_find_quote(q, end, &fl->nl);
    if (q == NULL)
      return eof ? REC_UNTERMINATED : REC_NEED_MORE;
    if (q + 1 == end && !eof) /* a doubled quote may continue in the next read */
      return REC_NEED_MORE;
    if (q + 1 < end && q[1] == '"') {
      q += 2;
      fl->kind = FK_UNQUOTE;
      continue;
    }
    break;
  }
  fl->start = p + 1;
  fl->end = q;
  fl->stray = 0;
  p = q + 1;
  if (p < end && *p != ',' && *p != '\n' && !(*p == '\r' && (p + 1 == end || p[1] == '\n'))) {
    /* Characters after the closing quote: malformed, but keep them as most readers do. */
    char *t = p;
    while (t < end && *t != ',' && *t != '\n')
      t++;
    if (t == end && !eof)
      return REC_NEED_MORE;
    if (t > p && t[-1] == '\r')
      t--;
    fl->kind = FK_UNQUOTE; /* the raw range now takes in the closing quote and the tail */
    fl->end = t;
    fl->stray = 1;
    p = t;
  }
  fl->next = p;
  return 0;
}

/* Finds the end of the unquoted field that starts at p. Returns 0 with *fl filled, or
 * REC_NEED_MORE when the data ends before the field does. */
CSV_INLINE int scan_plain(csv_block *blk, char *p, char *end, int eof, field *fl)
{
  int is_nl = 0;
  char *q = csv_block_find(blk, p, end, &is_nl);

  if (q == NULL) {
    if (!eof)
      return REC_NEED_MORE;
    q = end;
  }
  fl->kind = FK_PLAIN;
  fl->start = p;
  fl->end = q;
  fl->nl = 0;
  fl->stray = 0;
  if ((q == end || is_nl) && q > p && q[-1] == '\r')
    fl->end--;
  fl->next = q;
  return 0;
}

/* Parses one record starting at buf[pos]. The buffer is changed only where undo() can put it
 * back, so REC_NEED_MORE can simply be retried after a refill. NULs are written as fields are found
 * rather than in a second pass over the record, which is measurably faster on wide rows. */
static int parse_record(hp__csv *c, hp__csv_rec *rec)
{
  char *p = c->buf + c->pos, *end = c->buf + c->len, delim;
  size_t nf = 0, i;
  long nl = 0, stray_field = -1;
  int eof = c->eof, any_unquote = 0, r;
  csv_block blk = {NULL, 0, 0};
  field fl;

  for (;;) {
    if (nf == c->fcap && grow_fields(c))
      return undo(c, nf, HP_ENOMEM);
    if (p < end && *p == '"')
      r = scan_quoted(p, end, eof, &fl);
    else
      r = scan_plain(&blk, p, end, eof, &fl);
    if (r)
      return undo(c, nf, r);
    if ((size_t)(fl.end - fl.start) > c->max_field)
      return undo(c, nf, REC_TOO_LONG);
    p = fl.next;
    nl += fl.nl;
    if (fl.stray && stray_field < 0)
      stray_field = (long)nf;
    any_unquote |= fl.kind == FK_UNQUOTE;
    c->f[nf] = fl.start;
    c->flen[nf] = (size_t)(fl.end - fl.start);
    c->fkind[nf] = fl.kind;
    nf++;
    delim = p < end ? *p : '\0';
    /* A quoted field's CR: only the next byte tells whether it ends the line. */
    if (delim == '\r' && p + 1 == end && !eof)
      return undo(c, nf - 1, REC_NEED_MORE);
    /* The NUL may land on the delimiter itself (p == fl.end), which is why it was read first. */
    if (fl.kind != FK_UNQUOTE)
      *fl.end = '\0'; /* fl.end < end, or the spare byte after the input's last byte */
    if (p == end)
      break;
    if (delim == ',') {
      p++;
      continue;
    }
    if (delim == '\r' && p + 1 < end && p[1] == '\n')
      p++;
    p++;
    nl++; /* the newline that ends the record */
    break;
  }

  rec->line = c->line;
  c->pos = (size_t)(p - c->buf);
  c->line += nl;
  if (nf == 1 && c->flen[0] == 0 && c->fkind[0] == FK_PLAIN)
    return REC_BLANK; /* an empty physical line */
  if (any_unquote)
    for (i = 0; i < nf; i++)
      if (c->fkind[i] == FK_UNQUOTE) {
        c->flen[i] = unquote(c->f[i], c->flen[i]);
        c->f[i][c->flen[i]] = '\0';
      }
  if (stray_field >= 0)
    hp__csv_warn(c, rec->line,
                 "characters after a closing quote in field %ld were kept as they are",
                 stray_field + 1);
  c->nf = nf;
  rec->f = c->f;
  rec->len = c->flen;
  rec->n = nf;
  return REC_DONE;
}

/* Discards the record starting at buf[pos] without keeping it: a byte-level state machine that
 * follows quotes across refills, so a too-long quoted field is skipped as a whole. */
static int skip_record(hp__csv *c)
{
  int state = 0; /* 0 field start, 1 unquoted, 2 in quotes, 3 after a quote inside quotes */
  long start_line = c->line, nl = 0;
  int r;

  for (;;) {
    char *p = c->buf + c->pos, *end = c->buf + c->len;
    for (; p < end; p++) {
      char ch = *p;
      switch (state) {
      case 0: state = ch == '"' ? 2 : ch == ',' ? 0 : 1; break;
      case 1:
        if (ch == ',')
          state = 0;
        break;
      case 2:
        if (ch == '"')
          state = 3;
        break;
      default: state = ch == '"' ? 2 : ch == ',' ? 0 : 1; break;
      }
      if (ch == '\n') {
        if (state == 2) {
          nl++;
          continue;
        }
        c->pos = (size_t)(p + 1 - c->buf);
        c->line = start_line + nl + 1;
        return 0;
      }
    }
    c->pos = c->len;
    if (c->eof) {
      c->line = start_line + nl;
      if (state == 2)
        hp__csv_warn(c, start_line, "unterminated quoted field runs to the end of the input");
      return 0;
    }
    r = hp__csv_fill(c);
    if (r < 0)
      return r;
  }
}

int hp__csv_next(hp__csv *c, hp__csv_rec *rec)
{
  int r;

  c->can_unread = 0;
  if (!c->started && (r = hp__csv_start(c)) < 0)
    return r;
  if (c->base + c->pos >= c->stop) /* the end of a range (hp__csv_open_range) */
    return 0;
  for (;;) {
    if (c->pos == c->len) {
      if (c->eof)
        return 0;
      if ((r = hp__csv_fill(c)) < 0)
        return r;
      continue;
    }
    r = parse_record(c, rec);
    switch (r) {
    case REC_DONE: return 1;
    case REC_BLANK: continue;
    case REC_NEED_MORE:
      r = hp__csv_fill(c);
      if (r < 0)
        return r;
      if (r == HP__CSV_FILL_FULL) {
        hp__csv_warn(c, c->line,
                     "record longer than %zu bytes skipped (a field too long, or a quote "
                     "that is never closed)",
                     c->max_record);
        if ((r = skip_record(c)) < 0)
          return r;
      }
      continue;
    case REC_TOO_LONG:
      hp__csv_warn(c, c->line, "record skipped: a field is longer than %zu bytes", c->max_field);
      if ((r = skip_record(c)) < 0)
        return r;
      continue;
    case REC_UNTERMINATED:
      hp__csv_warn(c, c->line,
                   "unterminated quoted field runs to the end of the input; the record "
                   "is dropped");
      c->line += count_nl(c->buf + c->pos, c->buf + c->len);
      c->pos = c->len;
      return 0;
    default: return r;
    }
  }
}
