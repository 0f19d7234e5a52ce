/*
 * A streaming RFC 4180 CSV reader: the reader itself and its one buffer.
 *
 * One buffer is refilled from the input; a record is parsed in place when it lies wholly inside the
 * buffer, otherwise the unread tail is moved to the front, more is read, and the record is parsed
 * again from its start. This file owns the buffer: opening and freeing a reader, refilling from a
 * file descriptor, and reading raw lines. Records are parsed in
 * lib/util/csv/csv_record.c and header columns looked up in lib/util/csv/csv_header.c.
 * docs/internals/csv.md has the details and the limits.
 */
#include "util/csv/csv_internal.h"
#include "util/sys/hugemem.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CSV_DEFAULT_BUF ((size_t)1 << 20)
#define CSV_DEFAULT_MAX_FIELD ((size_t)16 << 20)
/* Bytes after the buffer's last one that may be read but hold no input: room for the NUL after a
 * field that ends the input, and for the block loads of hp__csv_split_fast (csv_line.c) and of
 * the kernel-stack row reader, which may look up to 64 bytes past a line's end. Zeroed, so such a load never reads memory that was
 * never written. */
#define CSV_PAD 128

void hp__csv_warn(hp__csv *c, long line, const char *fmt, ...)
{
  char msg[512];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (c->warn)
    c->warn(c->warn_ud, line, msg);
}

/* The buffer of a large file (4 MiB or more) lies in huge pages (util/sys/hugemem.h): in 4 KB pages
 * the 1 MiB buffer takes 256 page faults, each costly on the virtual machines this runs on.
 * Smaller files keep calloc: a 2 MB page costs more to zero than their few faults. */
#define CSV_HUGE_FILE ((long long)4 << 20)

static int csv_new(hp__csv **out, const hp__csv_opts *o, int huge)
{
  hp__csv *c;
  size_t bufsize = o && o->bufsize ? o->bufsize : CSV_DEFAULT_BUF;

  *out = NULL;
  c = calloc(1, sizeof(*c));
  if (c == NULL)
    return HP_ENOMEM;
  c->fd = -1;
  c->line = 1;
  c->stop = ULLONG_MAX;
  c->max_field = o && o->max_field ? o->max_field : CSV_DEFAULT_MAX_FIELD;
  c->max_record = o && o->max_record ? o->max_record : c->max_field + CSV_DEFAULT_BUF;
  if (bufsize > c->max_record)
    bufsize = c->max_record;
  c->cap = bufsize;
  if (huge && (c->buf = hp__huge_alloc(c->cap + CSV_PAD)) != NULL)
    c->huge = c->cap + CSV_PAD;
  else
    c->buf = calloc(1, c->cap + CSV_PAD);
  c->fcap = 32;
  c->f = malloc(c->fcap * sizeof(*c->f));
  c->flen = malloc(c->fcap * sizeof(*c->flen));
  c->fkind = malloc(c->fcap);
  if (c->buf == NULL || c->f == NULL || c->flen == NULL || c->fkind == NULL) {
    hp__csv_free(c);
    return HP_ENOMEM;
  }
  *out = c;
  return 0;
}

int hp__csv_open_path(hp__csv **out, const char *path, const hp__csv_opts *o)
{
  struct stat st;
  int fd, r;

  *out = NULL;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? HP_ENOENT : HP_EIO;
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  r = csv_new(out, o, fstat(fd, &st) == 0 && (long long)st.st_size >= CSV_HUGE_FILE);
  if (r) {
    close(fd);
    return r;
  }
  (*out)->fd = fd;
  return 0;
}

int hp__csv_open_range(hp__csv **out, const char *path, unsigned long long head,
                       unsigned long long from, unsigned long long stop, const hp__csv_opts *o)
{
  int r;

  if (from < head || stop <= from)
    return HP_EINVAL;
  if ((r = hp__csv_open_path(out, path, o)) == 0) {
    (*out)->ranged = 1;
    (*out)->head = head;
    (*out)->from = from;
    (*out)->stop = stop - from + head;
  }
  return r;
}

void hp__csv_free(hp__csv *c)
{
  if (c == NULL)
    return;
  if (c->fd >= 0)
    close(c->fd);
  if (c->huge)
    hp__huge_free(c->buf, c->huge);
  else
    free(c->buf);
  free(c->f);
  free(c->flen);
  free(c->fkind);
  free(c);
}

void hp__csv_set_warn(hp__csv *c, hp__csv_warn_fn fn, void *ud)
{
  c->warn = fn;
  c->warn_ud = ud;
}

unsigned long long hp__csv_file_offset(const hp__csv *c)
{
  unsigned long long s = c->base + c->pos;

  return !c->ranged || s < c->head ? s : s - c->head + c->from;
}

long hp__csv_line(const hp__csv *c)
{
  return c->line;
}

/* ---------------------------------------------------------------------------------------------- */
/* The buffer                                                                                       */

int hp__csv_fill(hp__csv *c)
{
  size_t want;

  if (c->pos > 0) {
    memmove(c->buf, c->buf + c->pos, c->len - c->pos);
    c->base += c->pos;
    c->len -= c->pos;
    c->pos = 0;
    c->can_unread = 0;
  }
  if (c->eof)
    return 0;
  if (c->len == c->cap) {
    size_t ncap;
    char *nb;
    if (c->cap >= c->max_record)
      return HP__CSV_FILL_FULL;
    ncap = c->cap * 2 > c->max_record ? c->max_record : c->cap * 2;
    if (c->huge) { /* out of the huge pages, into the heap */
      if ((nb = malloc(ncap + CSV_PAD)) == NULL)
        return HP_ENOMEM;
      memcpy(nb, c->buf, c->cap + CSV_PAD);
      hp__huge_free(c->buf, c->huge);
      c->huge = 0;
    } else if ((nb = realloc(c->buf, ncap + CSV_PAD)) == NULL) {
      return HP_ENOMEM;
    }
    memset(nb + c->cap, 0, ncap - c->cap + CSV_PAD);
    c->buf = nb;
    c->cap = ncap;
  }
  want = c->cap - c->len;
  for (;;) {
    unsigned long long s = c->base + c->len; /* the stream offset read next */
    ssize_t n;
    if (c->ranged && s < c->head && want > c->head - s)
      want = (size_t)(c->head - s); /* the header's bytes, then the range's */
    n = c->ranged
        ? pread(c->fd, c->buf + c->len, want, (off_t)(s < c->head ? s : s - c->head + c->from))
        : read(c->fd, c->buf + c->len, want);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return HP_EIO;
    if (n == 0)
      c->eof = 1;
    c->len += (size_t)n;
    return 0;
  }
}

int hp__csv_start(hp__csv *c)
{
  int r;

  while (c->len < 3 && !c->eof)
    if ((r = hp__csv_fill(c)) < 0)
      return r;
  if (c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0)
    c->pos = 3;
  c->started = 1;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Raw lines                                                                                        */

/* The next physical line, for hp__csv_next_line (`for_record` 0) and hp__csv_next_raw (1). A line
 * longer than the largest buffer is reported and dropped for the first; the second returns 2 and
 * leaves it, so that hp__csv_next reports and skips it as the record it is. */
static int next_line(hp__csv *c, const char **s, size_t *n, long *line, int for_record)
{
  int r;

  c->can_unread = 0;
  if (!c->started && (r = hp__csv_start(c)) < 0)
    return r;
  if (c->base + c->pos >= c->stop)
    return 0;
  for (;;) {
    char *p = c->buf + c->pos, *nlp;
    size_t l;
    nlp = memchr(p, '\n', c->len - c->pos);
    if (nlp == NULL && !c->eof) {
      r = hp__csv_fill(c);
      if (r < 0)
        return r;
      if (r == HP__CSV_FILL_FULL && for_record)
        return 2;
      if (r == HP__CSV_FILL_FULL) {
        /* A line longer than the largest buffer: report it and drop it up to its newline. */
        long at = c->line;
        hp__csv_warn(c, at, "line longer than %zu bytes skipped", c->max_record);
        for (;;) {
          nlp = memchr(c->buf + c->pos, '\n', c->len - c->pos);
          if (nlp) {
            c->pos = (size_t)(nlp + 1 - c->buf);
            c->line++;
            break;
          }
          c->pos = c->len;
          if (c->eof)
            break;
          if ((r = hp__csv_fill(c)) < 0)
            return r;
        }
      }
      continue;
    }
    if (nlp == NULL && c->pos == c->len)
      return 0;
    l = nlp ? (size_t)(nlp - p) : c->len - c->pos;
    c->last_pos = c->pos;
    c->last_line = c->line;
    c->can_unread = 1;
    c->pos += l + (nlp != NULL);
    *line = c->line;
    c->line++;
    if (l > 0 && p[l - 1] == '\r')
      l--;
    *s = p;
    *n = l;
    return 1;
  }
}

int hp__csv_next_line(hp__csv *c, const char **s, size_t *n, long *line)
{
  return next_line(c, s, n, line, 0);
}

int hp__csv_next_raw(hp__csv *c, const char **s, size_t *n, long *line)
{
  char *p = c->buf + c->pos, *nlp;
  size_t l;
  int r;

  /* The common case first, once per row: a whole line in the buffer. */
  if (c->started && c->pos < c->len && c->base + c->pos < c->stop &&
      (nlp = memchr(p, '\n', c->len - c->pos)) != NULL && (l = (size_t)(nlp - p)) <= c->max_field) {
    c->last_pos = c->pos;
    c->last_line = c->line;
    c->can_unread = 1;
    c->pos += l + 1;
    *line = c->line++;
    if (l > 0 && p[l - 1] == '\r')
      l--;
    *s = p;
    *n = l;
    return 1;
  }
  r = next_line(c, s, n, line, 1);

  /* A line that may hold a field over the limit goes to hp__csv_next, which judges it. */
  if (r == 1 && *n > c->max_field) {
    hp__csv_unread_line(c);
    return 2;
  }
  return r;
}

void hp__csv_unread_line(hp__csv *c)
{
  if (!c->can_unread)
    return;
  c->pos = c->last_pos;
  c->line = c->last_line;
  c->can_unread = 0;
}

int hp__csv_lines(hp__csv *c, const char **s, size_t *n, long *line)
{
  size_t lim = c->len;
  char *nl;

  /* A line longer than max_field must go to hp__csv_next, which reports it: none can be in a
   * buffer that is not larger than max_field. */
  if (!c->started || c->pos >= c->len || c->cap > c->max_field || c->base + c->pos >= c->stop)
    return 0;
  /* Lines that start at or after the range's stop are not the reader's. A range's stop is a line
   * start, so the span normally ends just before it; a line that crosses it is left out. */
  if (c->stop - c->base < lim)
    lim = (size_t)(c->stop - c->base);
  if ((nl = memrchr(c->buf + c->pos, '\n', lim - c->pos)) == NULL)
    return 0;
  c->can_unread = 0;
  *s = c->buf + c->pos;
  *n = (size_t)(nl + 1 - *s);
  *line = c->line;
  return 1;
}

void hp__csv_take_lines(hp__csv *c, size_t bytes, long lines)
{
  c->pos += bytes;
  c->line += lines;
  c->can_unread = 0;
}
