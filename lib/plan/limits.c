/*
 * What a plan may cost before libyaml sees it: its size and how deeply it nests.
 *
 * libyaml's time grows much faster than its input when collections nest deeply (a plan of
 * 100,000 nested `[` costs it 45 s of CPU), and plans are read by `hprun check` in CI and by
 * anyone who runs a plan they were sent. So a plan over HP__PLAN_MAX_BYTES is refused without
 * being read (read.c), and one pass over the bytes counts the nesting before libyaml is called.
 *
 * The count follows libyaml's scanner: every open `[` and `{` is a level, and so is every block
 * collection, counted as libyaml's indentation stack counts it (a `- ` entry, a `? ` key or a
 * `key:` further right than the collection it is in opens one; a line further left closes those
 * it leaves). Quoted strings, comments, block scalars (`|`, `>`) and the continuation lines of
 * plain multi-line strings are skipped, so brackets, dashes and colons inside text never count.
 * Where the two could differ, the count is the smaller (an indentless sequence, `key:` then `- `
 * at the same column, adds no indentation), so a valid plan is not refused for a level it does
 * not have. UTF-16 plans (which libyaml accepts after a byte order mark) are counted in 16-bit
 * units, so they cannot slip past.
 */
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

/* Describes a size for a message: whole MiB as such, sizes close to the limit in bytes (so that
 * 1 MiB and one byte does not read as "1.0 MiB"), others to a tenth of a MiB. */
static void size_words(size_t size, int at_least, char *buf, size_t n)
{
  if (at_least)
    snprintf(buf, n, "more than %zu MiB", HP__PLAN_MAX_BYTES / MIB);
  else if (size % MIB == 0)
    snprintf(buf, n, "%zu MiB", size / MIB);
  else if (size < HP__PLAN_MAX_BYTES + MIB / 10)
    snprintf(buf, n, "%zu bytes", size);
  else
    snprintf(buf, n, "%.1f MiB", (double)size / (double)MIB);
}

int hp__plan_err_size(hp_diags *diags, const char *file, size_t size, int at_least)
{
  char words[64];

  size_words(size, at_least, words, sizeof(words));
  if (hp_diags_add(diags, HP_DIAG_ERROR, file, 0, 0, "the plan is %s; plans are limited to %zu MiB",
                   words, HP__PLAN_MAX_BYTES / MIB))
    return HP_ENOMEM;
  return HP_EPLAN;
}

/* The scan's state. Positions count code units: bytes, or 16-bit units in UTF-16. */
typedef struct depth_scan {
  hp__loader *ld;
  const unsigned char *s;
  size_t n;                           /* code units */
  size_t i;                           /* the current unit */
  int wide;                           /* 0: UTF-8; 1: UTF-16 little-endian; 2: UTF-16 big-endian */
  long line;                          /* 1-based */
  long col;                           /* 0-based, in characters, as libyaml counts columns */
  long stack[HP__PLAN_MAX_DEPTH + 1]; /* columns of the open block collections, innermost last */
  size_t nstack;
  size_t flow;    /* open `[` and `{` */
  int quote;      /* the quote character of an open quoted string (which may span lines), or 0 */
  int in_block;   /* in a block scalar: lines indented more than block_at belong to it */
  long block_at;  /* the block scalar's parent column (-1: the document's) */
  int plain_open; /* the last line ended in a plain string, which more indented lines continue */
} depth_scan;

static long unit_at(const depth_scan *sc, size_t k)
{
  const unsigned char *p = sc->s + (sc->wide ? 2 * k : k);

  if (k >= sc->n)
    return -1;
  if (sc->wide == 1)
    return (long)p[0] | (long)p[1] << 8;
  if (sc->wide == 2)
    return (long)p[0] << 8 | (long)p[1];
  return p[0];
}

static long cur(const depth_scan *sc)
{
  return unit_at(sc, sc->i);
}

static long ahead(const depth_scan *sc, size_t k)
{
  return unit_at(sc, sc->i + k);
}

/* Moves one unit on. A unit that continues a character (a UTF-8 continuation byte, a UTF-16 low
 * surrogate) does not start a column of its own. */
static void step(depth_scan *sc)
{
  long u = cur(sc);

  if (sc->wide ? (u < 0xDC00 || u > 0xDFFF) : (u & 0xC0) != 0x80)
    sc->col++;
  sc->i++;
}

static int is_break(long u)
{
  return u == '\n' || u == '\r';
}

static int is_blank(long u)
{
  return u == ' ' || u == '\t';
}

/* What must follow `-`, `?` and `:` for them to be indicators rather than text. */
static int is_sep(long u)
{
  return u < 0 || is_blank(u) || is_break(u);
}

static int is_flow_ind(long u)
{
  return u == ',' || u == '[' || u == ']' || u == '{' || u == '}';
}

static void skip_line(depth_scan *sc)
{
  long u;

  while ((u = cur(sc)) >= 0 && !is_break(u))
    step(sc);
}

/* Reports the level that is one too many, at the 0-based column `col` of the current line. */
static int deeper(depth_scan *sc, long col)
{
  if (sc->nstack + sc->flow <= HP__PLAN_MAX_DEPTH)
    return 0;
  hp__plan_err_at(sc->ld, sc->line, col + 1, "nesting deeper than %d levels", HP__PLAN_MAX_DEPTH);
  return -1;
}

/* A block collection starts at `col` unless one is open at that column or further right: what
 * libyaml's roll_indent does. */
static int roll(depth_scan *sc, long col)
{
  if (sc->nstack && sc->stack[sc->nstack - 1] >= col)
    return 0;
  sc->stack[sc->nstack++] = col; /* room for one more than the limit: deeper() stops there */
  return deeper(sc, col);
}

static int is_doc_marker(const depth_scan *sc)
{
  long u = cur(sc);

  return (u == '-' || u == '.') && ahead(sc, 1) == u && ahead(sc, 2) == u && is_sep(ahead(sc, 3));
}

/* A line's indentation, in block context. Returns 1 when the whole line was consumed (blank,
 * a comment, a directive, text of a block scalar or of a multi-line plain string), else 0 with
 * the collections the line leaves closed and the scan at its first token. */
static int line_start(depth_scan *sc)
{
  long ind, top, u;

  while (cur(sc) == ' ')
    step(sc);
  ind = sc->col;
  while (is_blank(cur(sc)))
    step(sc);
  u = cur(sc);
  if (u < 0 || is_break(u))
    return 1; /* blank lines belong to whatever they are in */
  top = sc->nstack ? sc->stack[sc->nstack - 1] : -1;
  if (sc->in_block && ind > sc->block_at) {
    skip_line(sc);
    return 1;
  }
  sc->in_block = 0;
  if (ind == 0 && is_doc_marker(sc)) {
    sc->nstack = sc->flow = 0;
    sc->plain_open = 0;
    step(sc);
    step(sc);
    step(sc);
    return 0;
  }
  if (u == '#' || (ind == 0 && u == '%') || (sc->plain_open && ind > top)) {
    if (u == '#')
      sc->plain_open = 0; /* a comment line ends a plain string */
    skip_line(sc);
    return 1;
  }
  sc->plain_open = 0;
  while (sc->nstack && sc->stack[sc->nstack - 1] > ind)
    sc->nstack--;
  return 0;
}

/* The rest of an open quoted string on this line; 1 when it closed. */
static int in_quote(depth_scan *sc)
{
  long u;

  while ((u = cur(sc)) >= 0 && !is_break(u)) {
    if (u == '\\' && sc->quote == '"') {
      step(sc); /* an escape: the next character is text (a line break is left to the caller) */
      if ((u = cur(sc)) < 0 || is_break(u))
        return 0;
    } else if (u == sc->quote) {
      step(sc);
      if (sc->quote == '\'' && cur(sc) == '\'') {
        step(sc); /* '' is a quote inside '...' */
        continue;
      }
      sc->quote = 0;
      return 1;
    }
    step(sc);
  }
  return 0;
}

/* The line's tokens from the scan's position to its end. `key` is the column where the current
 * node's first token on this line started (-1: none yet): a `:` after it makes it a key, which
 * opens a block mapping at that column. Returns -1 when too deep. */
static int tokens(depth_scan *sc)
{
  int tok = 1, blank = 1, plain = 0;
  long u, key = -1;

  sc->plain_open = 0;
  while ((u = cur(sc)) >= 0 && !is_break(u)) {
    if (sc->quote) {
      if (!in_quote(sc))
        return 0;
      tok = blank = plain = 0;
      continue;
    }
    if (is_blank(u)) {
      blank = 1;
      step(sc);
      continue;
    }
    if (u == '#' && (blank || tok)) {
      skip_line(sc);
      return 0; /* the comment ended a plain string, if one was open */
    }
    if ((u == '[' || u == '{') && (tok || sc->flow)) {
      if (!sc->flow && key < 0)
        key = sc->col;
      sc->flow++;
      if (deeper(sc, sc->col))
        return -1;
      tok = 1;
      plain = 0;
    } else if ((u == ']' || u == '}') && sc->flow) {
      sc->flow--;
      tok = plain = 0;
    } else if (u == ',' && sc->flow) {
      tok = 1;
      plain = 0;
    } else if (u == ':' && (is_sep(ahead(sc, 1)) || (sc->flow && is_flow_ind(ahead(sc, 1))))) {
      if (!sc->flow && roll(sc, key >= 0 ? key : sc->col))
        return -1;
      key = -1;
      tok = 1;
      plain = 0;
    } else if (tok && (u == '-' || u == '?') && is_sep(ahead(sc, 1))) {
      if (!sc->flow && roll(sc, sc->col))
        return -1;
      key = -1;
    } else if (tok && !sc->flow && (u == '|' || u == '>')) {
      sc->in_block = 1;
      sc->block_at = sc->nstack ? sc->stack[sc->nstack - 1] : -1;
      skip_line(sc); /* the header, and perhaps a comment */
      return 0;
    } else if (tok && (u == '"' || u == '\'')) {
      if (!sc->flow && key < 0)
        key = sc->col;
      sc->quote = (int)u;
    } else if (tok && (u == '&' || u == '!' || u == '*')) {
      /* An anchor, a tag or an alias: one word, after which a node may still start. */
      if (!sc->flow && key < 0)
        key = sc->col;
      while ((u = cur(sc)) >= 0 && !is_sep(u) && !(sc->flow && is_flow_ind(u)))
        step(sc);
      blank = 0;
      continue;
    } else if (tok) {
      if (!sc->flow && key < 0)
        key = sc->col;
      tok = 0;
      plain = 1;
    }
    blank = 0;
    step(sc);
  }
  sc->plain_open = plain && !sc->flow;
  return 0;
}

int hp__plan_check_depth(hp__loader *ld)
{
  depth_scan sc;
  const unsigned char *s = (const unsigned char *)ld->text;
  long u;

  memset(&sc, 0, sizeof(sc));
  sc.ld = ld;
  sc.s = s;
  sc.n = ld->len;
  sc.line = 1;
  if (ld->len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
    sc.wide = s[0] == 0xFF ? 1 : 2;
    sc.n = ld->len / 2;
    sc.i = 1;
  } else if (ld->len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    sc.i = 3;
  }
  while ((u = cur(&sc)) >= 0) {
    if (!is_break(u) && (sc.quote || sc.flow || !line_start(&sc)) && tokens(&sc))
      return -1;
    if ((u = cur(&sc)) < 0)
      break;
    sc.i++; /* the line break: \n, \r\n or a lone \r, as libyaml reads them */
    if (u == '\r' && cur(&sc) == '\n')
      sc.i++;
    sc.line++;
    sc.col = 0;
  }
  return 0;
}
