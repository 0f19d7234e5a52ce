/*
 * A streaming RFC 4180 CSV reader (lib/util/csv/csv.c: the reader and its buffer; csv_record.c:
 * records; csv_header.c: header lookup), library-internal.
 *
 * The reader owns one buffer (1 MiB unless told otherwise) that is refilled from a file
 * descriptor; it never holds more than the record being parsed, so memory does not grow with the
 * size of the file. Records come back one at a time as NUL-terminated field pointers into that
 * buffer, valid until the next call on the same reader. Design notes: docs/internals/csv.md.
 */
#ifndef HPRUN_CSV_H
#define HPRUN_CSV_H

#include "hprun.h"
/* hp__trim, hp__parse_num and hp__parse_ll, which parsers use on the fields, live in their own
 * module; this include keeps them in reach of every file that reads CSV. */
#include "util/num/num.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hp__csv hp__csv;

typedef struct hp__csv_opts {
  size_t bufsize;    /* initial buffer size; 0 = 1 MiB */
  size_t max_field;  /* longest field accepted; 0 = 16 MiB */
  size_t max_record; /* longest record (the most the buffer grows to); 0 = max_field + 1 MiB */
} hp__csv_opts;

/* A record. `f[i]` points at `len[i]` bytes followed by a NUL (a field may itself hold NULs, so
 * use the length). Quotes are removed and doubled quotes undone. `line` is the physical line
 * (1-based) on which the record starts, for messages. */
typedef struct hp__csv_rec {
  char **f;
  size_t *len;
  size_t n;
  long line;
} hp__csv_rec;

/* Called for every problem the reader finds (unterminated quote, overlong record, characters after
 * a closing quote). `msg` is a complete sentence without the file name. */
typedef void (*hp__csv_warn_fn)(void *ud, long line, const char *msg);

/* Opens `path` for reading; the reader closes it. HP_ENOENT, HP_EIO or HP_ENOMEM on failure. */
int hp__csv_open_path(hp__csv **out, const char *path, const hp__csv_opts *o);
/* Reads one range of a split file (lib/profile/merge/chunk.c): the file's bytes [0, head) (its
 * header), then its bytes from offset `from` (>= head) on, as one input. Every read (a record, a
 * line) that would start at or after file offset `stop` (> from) ends the input instead; a record
 * that starts before `stop` is read whole, also past it. Line numbers count the lines of that
 * input. HP_EINVAL for offsets out of that order. */
int hp__csv_open_range(hp__csv **out, const char *path, unsigned long long head,
                       unsigned long long from, unsigned long long stop, const hp__csv_opts *o);
/* Frees the reader and closes its descriptor. Accepts NULL. */
void hp__csv_free(hp__csv *c);

/* Where problems go: to the callback, with the line; without one they are dropped. */
void hp__csv_set_warn(hp__csv *c, hp__csv_warn_fn fn, void *ud);

/* Reads the next record. Returns 1 with *rec filled, 0 at the end of the input, or HP_EIO /
 * HP_ENOMEM. Blank lines are skipped. A record longer than max_record, or holding a field longer
 * than max_field, is reported and skipped; an unterminated quote at the end of the input is
 * reported and ends the input. A UTF-8 byte-order mark at the start is skipped. */
int hp__csv_next(hp__csv *c, hp__csv_rec *rec);

/* Reads the next physical line, without its line ending and without touching quotes: for text
 * files and for the lines some tools print before their CSV header. *s and *n stay valid until the
 * next call. A line longer than max_record is reported and skipped. Returns 1, 0 at the end, or
 * HP_EIO / HP_ENOMEM. */
int hp__csv_next_line(hp__csv *c, const char **s, size_t *n, long *line);
/* Puts back the line the last hp__csv_next_line returned, so that the next call (of either kind)
 * starts at it. Only valid directly after hp__csv_next_line returned 1. */
void hp__csv_unread_line(hp__csv *c);

/* For the parsers' fast path (docs/internals/csv.md, "Raw lines for fast paths"): the next
 * physical line as hp__csv_next_line returns it, except that a line too long for the largest
 * buffer is left in place and 2 is returned, so that hp__csv_next reports and skips it as the
 * record it is. After a 1, hp__csv_unread_line puts the line back, so that a line the fast path
 * cannot take is read again by hp__csv_next. The line is followed in memory by at least 64
 * readable bytes (not part of it), which hp__csv_split_fast relies on. */
int hp__csv_next_raw(hp__csv *c, const char **s, size_t *n, long *line);

/* For a parser's block loop (docs/internals/csv.md, "Blocks of lines"): the whole physical lines
 * in the buffer from the read position, as one span *s .. *s + *n that ends with a '\n'; *line is
 * the first one's number. The span holds only lines that start before a range's stop, none longer
 * than max_field, and is followed in memory by at least 64 readable bytes. Nothing is consumed:
 * the parser takes what it read with hp__csv_take_lines and leaves the rest (a line it cannot
 * read) to hp__csv_next / hp__csv_next_raw. Returns 1, or 0 when the buffer holds no such line
 * now (the record readers refill, or find the end). */
int hp__csv_lines(hp__csv *c, const char **s, size_t *n, long *line);
/* Consumes the first `bytes` bytes of the span hp__csv_lines gave, which must be `lines` whole
 * lines of it. */
void hp__csv_take_lines(hp__csv *c, size_t bytes, long lines);

/* What hp__csv_split_fast does with a column: keeps the field (TEXT), also reads it as a number
 * (NUM), or leaves it out (SKIP: f[i] and len[i] are not set; for columns no table uses). */
enum {
  HP__CSV_TEXT = 0,
  HP__CSV_NUM = 1,
  HP__CSV_SKIP = 2
};

/* The parsers' fast path: hp__csv_split_fast splits a line from hp__csv_next_raw into its fields
 * when it is a plain record: exactly `ncols` fields, each unquoted, or quoted without doubled
 * quotes and ended by its closing quote. Such a line holds the very fields hp__csv_next would
 * return, but they are NOT NUL-terminated: rec->f[i] points into the line and rec->len[i] is its
 * length. kind[i] (the splitter's) is an HP__CSV_* per column; for a NUM column ok[i] says whether
 * val[i] holds the field's value: set for every unquoted field of 1 to 19 ASCII digits whose
 * value fits a long long; val[i] is then the value hp__parse_ll and hp__parse_num give for it.
 * rec->f, rec->len, val and ok are the caller's arrays of `ncols` entries. Returns 1, or 0 when
 * hp__csv_next must read the line (a quoted field with doubled quotes, or not closed in the line,
 * or text after a closing quote; another field count), after which the arrays hold nothing of
 * use.
 *
 * The splitter is made for many lines with the same kinds: the columns it keeps are listed once,
 * so that a line costs nothing per left-out column, and the last line's layout (where each field
 * starts and ends) is kept, so that a line whose ',' and '"' fall where the last one's did is not
 * split again. The state is the caller's: init (kind must stay valid while it is used;
 * HP_ENOMEM), free (accepts a zeroed or freed one). */
typedef struct hp__csv_splitter {
  const unsigned char *kind;
  size_t ncols;
  uint32_t *cols; /* the TEXT columns, then the NUM ones */
  size_t ntext, nnum;
  uint32_t *off, *len;     /* per entry of cols: where the last layout's field is, and its length */
  uint32_t *ends;          /* ncols + 1: ends[0] = UINT32_MAX, ends[c + 1] = where column c ends */
  uint64_t cm[16], qm[16]; /* the last layout's ',' and '"' masks */
  size_t nw;               /* their words; 0 = no layout kept */
  const size_t *lens_at;   /* the rec->len array the last layout's lengths were written to */
  int all_ok; /* after a 1 from hp__csv_split_fast: every NUM column's ok is 1 (0: unknown) */
} hp__csv_splitter;

int hp__csv_splitter_init(hp__csv_splitter *sp, const unsigned char *kind, size_t ncols);
void hp__csv_splitter_free(hp__csv_splitter *sp);
int hp__csv_split_fast(hp__csv_splitter *sp, const char *s, size_t n, hp__csv_rec *rec,
                       uint64_t *val, unsigned char *ok);

/* The file offset of the next unread byte (for a range reader, in the file), and the line that
 * begins there (1-based, counted in the reader's input). */
unsigned long long hp__csv_file_offset(const hp__csv *c);
long hp__csv_line(const hp__csv *c);

/* ---------------------------------------------------------------------------------------------- */
/* Header lookup (lib/util/csv/csv_header.c).                                                         */

/* Finds a header column by name: `names` is one name or several aliases separated by '|'
 * ("LDS_Block_Size|Lds_Block_Size|lds"). Comparison is case-insensitive and ignores spaces around
 * the header field. Returns the index of the first matching column, or -1. */
int hp__csv_find(const hp__csv_rec *hdr, const char *names);
/* Looks up n wanted names (each with aliases as above): idx[i] is its column or -1. Returns how many
 * were found. */
size_t hp__csv_map(const hp__csv_rec *hdr, const char *const *wanted, size_t n, int *idx);

#endif /* HPRUN_CSV_H */
