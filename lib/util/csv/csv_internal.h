/*
 * The CSV reader's insides, shared by lib/util/csv/csv.c (the reader and its buffer) and
 * lib/util/csv/csv_record.c (records), and read by its unit tests. Other modules include
 * "util/csv/csv.h", where hp__csv stays opaque.
 *
 * The reader owns everything it points to (the buffer, the field arrays, the descriptor it opened)
 * and frees it in hp__csv_free.
 */
#ifndef HPRUN_UTIL_CSV_INTERNAL_H
#define HPRUN_UTIL_CSV_INTERNAL_H

#include "util/csv/csv.h"

#include <stddef.h>

/* hp__csv_fill's answer when the buffer is at max_record and still holds no whole record. */
#define HP__CSV_FILL_FULL 1

struct hp__csv {
  int fd;
  hp__csv_warn_fn warn;
  void *warn_ud;

  char *buf;   /* cap + CSV_PAD (csv.c) bytes: room for a NUL after a field that ends the input */
  size_t huge; /* buf's size when it lies in huge pages (hp__huge_alloc), else 0 */
  size_t cap, len, pos;
  unsigned long long base; /* input bytes dropped before buf[0] */
  int eof;
  int started; /* the byte-order mark has been looked for */
  long line;   /* physical line of buf[pos] */
  size_t max_field, max_record;

  char **f; /* the current record's fields */
  size_t *flen;
  unsigned char *fkind; /* per field: how its quotes are undone (csv_record.c's FK_ kinds) */
  size_t fcap;
  size_t nf;

  size_t last_pos; /* for hp__csv_unread_line */
  long last_line;
  int can_unread;

  /* A range of a split file (hp__csv_open_range): the stream is the file's bytes [0, head), then
   * its bytes from `from` on, read with pread; `stop` is where the range ends, as a stream offset
   * (ULLONG_MAX for a whole input). */
  int ranged;
  unsigned long long head, from, stop;
};

/* Reports a problem at `line` through the warning callback; without one it is dropped. */
void hp__csv_warn(hp__csv *c, long line, const char *fmt, ...) HP_PRINTF(3, 4);

/* Moves the unread bytes to the front, grows the buffer when it is full (up to max_record), and
 * reads more. Returns 0, HP__CSV_FILL_FULL when the buffer is full at its largest, or
 * HP_EIO/HP_ENOMEM. At the end of the input it sets c->eof and returns 0. */
int hp__csv_fill(hp__csv *c);

/* Skips a UTF-8 byte-order mark at the very start of the input; called once, before the first
 * read of either kind. Returns 0 or HP_EIO/HP_ENOMEM. */
int hp__csv_start(hp__csv *c);

#endif /* HPRUN_UTIL_CSV_INTERNAL_H */
