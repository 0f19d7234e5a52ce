/*
 * A streaming RFC 4180 CSV reader.
 *
 * One buffer is refilled from the input; a record is parsed in place when it lies wholly inside the
 * buffer, otherwise the unread tail is moved to the front, more is read, and the record is parsed
 * again from its start. Parsing never writes to the buffer until a record is known to be complete,
 * which is what makes the restart safe. Field ends are found with memchr, so the cost per byte is
 * that of the C library's vectorised search rather than a byte-at-a-time state machine.
 * docs/internals/csv.md has the details and the limits.
 */
#include "util/csv.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CSV_DEFAULT_BUF ((size_t)1 << 20)
#define CSV_DEFAULT_MAX_FIELD ((size_t)16 << 20)

/* parse_record's answers besides HP_ENOMEM. */
enum {
  REC_DONE = 1,
  REC_BLANK,
  REC_NEED_MORE,
  REC_TOO_LONG,
  REC_UNTERMINATED
};
/* fill's answer when the buffer is at max_record and still holds no whole record. */
#define FILL_FULL 1

struct hp__csv {
  int fd;
  int own_fd;
  const char *mem; /* memory input, or NULL */
  size_t memlen, memoff;
  char *name;
  hp_diags *diags;
  hp__csv_warn_fn warn;
  void *warn_ud;

  char *buf; /* cap + 1 bytes: room for a NUL after a field that ends the input */
  size_t cap, len, pos;
  unsigned long long base; /* input bytes dropped before buf[0] */
  int eof;
  int started; /* the byte-order mark has been looked for */
  long line;   /* physical line of buf[pos] */
  size_t max_field, max_record;

  char **f; /* the current record's fields */
  size_t *flen;
  unsigned char *fkind; /* per field: 1 when quotes must be undone in place */
  size_t fcap;
  size_t nf;

  size_t last_pos; /* for hp__csv_unread_line */
  long last_line;
  int can_unread;
};

static void csv_warn(hp__csv *c, long line, const char *fmt, ...) HP_PRINTF(3, 4);

static void csv_warn(hp__csv *c, long line, const char *fmt, ...)
{
  char msg[512];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (c->warn)
    c->warn(c->warn_ud, line, msg);
  else if (c->diags)
    hp_diags_add(c->diags, HP_DIAG_WARNING, c->name, line, 0, "%s", msg);
}

static int csv_new(hp__csv **out, const char *name, const hp__csv_opts *o)
{
  hp__csv *c;
  size_t bufsize = o && o->bufsize ? o->bufsize : CSV_DEFAULT_BUF;

  *out = NULL;
  c = calloc(1, sizeof(*c));
  if (c == NULL)
    return HP_ENOMEM;
  c->fd = -1;
  c->line = 1;
  c->max_field = o && o->max_field ? o->max_field : CSV_DEFAULT_MAX_FIELD;
  c->max_record = o && o->max_record ? o->max_record : c->max_field + CSV_DEFAULT_BUF;
  if (bufsize > c->max_record)
    bufsize = c->max_record;
  c->cap = bufsize;
  c->buf = malloc(c->cap + 1);
  c->name = hp__strdup(name ? name : "<input>");
  c->fcap = 32;
  c->f = malloc(c->fcap * sizeof(*c->f));
  c->flen = malloc(c->fcap * sizeof(*c->flen));
  c->fkind = malloc(c->fcap);
  if (c->buf == NULL || c->name == NULL || c->f == NULL || c->flen == NULL || c->fkind == NULL) {
    hp__csv_free(c);
    return HP_ENOMEM;
  }
  *out = c;
  return 0;
}

int hp__csv_open_fd(hp__csv **out, int fd, const char *name, const hp__csv_opts *o)
{
  int r = csv_new(out, name, o);

  if (r == 0)
    (*out)->fd = fd;
  return r;
}

int hp__csv_open_path(hp__csv **out, const char *path, const hp__csv_opts *o)
{
  int fd, r;

  *out = NULL;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? HP_ENOENT : HP_EIO;
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  r = csv_new(out, path, o);
  if (r) {
    close(fd);
    return r;
  }
  (*out)->fd = fd;
  (*out)->own_fd = 1;
  return 0;
}

int hp__csv_open_mem(hp__csv **out, const char *data, size_t len, const char *name,
                     const hp__csv_opts *o)
{
  int r = csv_new(out, name, o);

  if (r == 0) {
    (*out)->mem = data ? data : "";
    (*out)->memlen = data ? len : 0;
  }
  return r;
}

void hp__csv_free(hp__csv *c)
{
  if (c == NULL)
    return;
  if (c->own_fd && c->fd >= 0)
    close(c->fd);
  free(c->buf);
  free(c->name);
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

void hp__csv_set_diags(hp__csv *c, hp_diags *diags)
{
  c->diags = diags;
}

const char *hp__csv_name(const hp__csv *c)
{
  return c->name;
}

size_t hp__csv_bufcap(const hp__csv *c)
{
  return c->cap;
}

unsigned long long hp__csv_offset(const hp__csv *c)
{
  return c->base + c->pos;
}

/* Moves the unread bytes to the front, grows the buffer when it is full (up to max_record), and
 * reads more. Returns 0, FILL_FULL when the buffer is full at its largest, or HP_EIO/HP_ENOMEM. At
 * the end of the input it sets c->eof and returns 0. */
static int fill(hp__csv *c)
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
      return FILL_FULL;
    ncap = c->cap * 2 > c->max_record ? c->max_record : c->cap * 2;
    nb = realloc(c->buf, ncap + 1);
    if (nb == NULL)
      return HP_ENOMEM;
    c->buf = nb;
    c->cap = ncap;
  }
  want = c->cap - c->len;
  if (c->mem) {
    size_t n = c->memlen - c->memoff;
    if (n > want)
      n = want;
    memcpy(c->buf + c->len, c->mem + c->memoff, n);
    c->memoff += n;
    c->len += n;
    if (n == 0)
      c->eof = 1;
    return 0;
  }
  for (;;) {
    ssize_t n = read(c->fd, c->buf + c->len, want);
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

/* Skips a UTF-8 byte-order mark at the very start of the input. */
static int start(hp__csv *c)
{
  int r;

  while (c->len < 3 && !c->eof)
    if ((r = fill(c)) < 0)
      return r;
  if (c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0)
    c->pos = 3;
  c->started = 1;
  return 0;
}

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

/* The first comma or newline in [p, end), or NULL. Most unquoted fields are a few bytes long
 * (numbers), where a call to memchr costs more than the search: this looks at 8 bytes per step
 * with the "has a zero byte" bit trick (exact for the lowest match), then byte by byte. */
static char *find_delim(char *p, char *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const uint64_t commas = 0x2C2C2C2C2C2C2C2CULL, newlines = 0x0A0A0A0A0A0A0A0AULL;

  while (end - p >= 8) {
    uint64_t w, a, b, t;
    memcpy(&w, p, 8);
    a = w ^ commas;
    b = w ^ newlines;
    t = (((a - ones) & ~a) | ((b - ones) & ~b)) & highs;
    if (t)
      return p + (__builtin_ctzll(t) >> 3);
    p += 8;
  }
#endif
  for (; p < end; p++)
    if (*p == ',' || *p == '\n')
      return p;
  return NULL;
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

/* Parses one record starting at buf[pos]. The buffer is changed only where undo() can put it
 * back, so REC_NEED_MORE can simply be retried after a refill. NULs are written as fields are found
 * rather than in a second pass over the record, which is measurably faster on wide rows. */
static int parse_record(hp__csv *c, hp__csv_rec *rec)
{
  char *p = c->buf + c->pos, *end = c->buf + c->len;
  size_t nf = 0, i;
  long nl = 0, stray_field = -1;
  int eof = c->eof, ended_nl = 0, any_quoted = 0, any_unquote = 0;

  for (;;) {
    char *fstart, *fend, delim;
    unsigned char kind = FK_PLAIN;

    if (nf == c->fcap && grow_fields(c))
      return undo(c, nf, HP_ENOMEM);
    if (p < end && *p == '"') {
      char *q = p + 1;
      kind = FK_QUOTED;
      for (;;) {
        q = memchr(q, '"', (size_t)(end - q));
        if (q == NULL)
          return undo(c, nf, eof ? REC_UNTERMINATED : REC_NEED_MORE);
        if (q + 1 == end && !eof) /* a doubled quote may continue in the next read */
          return undo(c, nf, REC_NEED_MORE);
        if (q + 1 < end && q[1] == '"') {
          q += 2;
          kind = FK_UNQUOTE;
          continue;
        }
        break;
      }
      fstart = p + 1;
      fend = q;
      any_quoted = 1;
      nl += count_nl(fstart, q);
      p = q + 1;
      if (p < end && *p != ',' && *p != '\n' && !(*p == '\r' && (p + 1 == end || p[1] == '\n'))) {
        /* Characters after the closing quote: malformed, but keep them as most readers do. */
        char *t = p;
        while (t < end && *t != ',' && *t != '\n')
          t++;
        if (t == end && !eof)
          return undo(c, nf, REC_NEED_MORE);
        if (t > p && t[-1] == '\r')
          t--;
        kind = FK_UNQUOTE; /* the raw range now takes in the closing quote and the tail */
        fend = t;
        p = t;
        if (stray_field < 0)
          stray_field = (long)nf;
      }
    } else {
      char *q = find_delim(p, end);
      if (q == NULL) {
        if (!eof)
          return undo(c, nf, REC_NEED_MORE);
        q = end;
      }
      fstart = p;
      fend = q;
      if ((q == end || *q == '\n') && fend > fstart && fend[-1] == '\r')
        fend--;
      p = q;
    }
    if ((size_t)(fend - fstart) > c->max_field)
      return undo(c, nf, REC_TOO_LONG);
    c->f[nf] = fstart;
    c->flen[nf] = (size_t)(fend - fstart);
    c->fkind[nf] = kind;
    nf++;
    if (kind == FK_UNQUOTE)
      any_unquote = 1;
    delim = p < end ? *p : '\0';
    /* A quoted field's CR: only the next byte tells whether it ends the line. */
    if (delim == '\r' && p + 1 == end && !eof)
      return undo(c, nf - 1, REC_NEED_MORE);
    /* The NUL may land on the delimiter itself (p == fend), which is why it was read first. */
    if (kind != FK_UNQUOTE)
      *fend = '\0'; /* fend < end, or the spare byte after the input's last byte */
    if (p == end)
      break;
    if (delim == ',') {
      p++;
      continue;
    }
    if (delim == '\r' && p + 1 < end && p[1] == '\n')
      p++;
    p++;
    ended_nl = 1;
    break;
  }

  rec->line = c->line;
  c->pos = (size_t)(p - c->buf);
  c->line += nl + ended_nl;
  if (nf == 1 && c->flen[0] == 0 && !any_quoted)
    return REC_BLANK; /* an empty physical line */
  if (any_unquote)
    for (i = 0; i < nf; i++)
      if (c->fkind[i] == FK_UNQUOTE) {
        c->flen[i] = unquote(c->f[i], c->flen[i]);
        c->f[i][c->flen[i]] = '\0';
      }
  if (stray_field >= 0)
    csv_warn(c, rec->line, "characters after a closing quote in field %ld were kept as they are",
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
        csv_warn(c, start_line, "unterminated quoted field runs to the end of the input");
      return 0;
    }
    r = fill(c);
    if (r < 0)
      return r;
  }
}

int hp__csv_next(hp__csv *c, hp__csv_rec *rec)
{
  int r;

  c->can_unread = 0;
  if (!c->started && (r = start(c)) < 0)
    return r;
  for (;;) {
    if (c->pos == c->len) {
      if (c->eof)
        return 0;
      if ((r = fill(c)) < 0)
        return r;
      continue;
    }
    r = parse_record(c, rec);
    switch (r) {
    case REC_DONE: return 1;
    case REC_BLANK: continue;
    case REC_NEED_MORE:
      r = fill(c);
      if (r < 0)
        return r;
      if (r == FILL_FULL) {
        csv_warn(c, c->line,
                 "record longer than %zu bytes skipped (a field too long, or a quote "
                 "that is never closed)",
                 c->max_record);
        if ((r = skip_record(c)) < 0)
          return r;
      }
      continue;
    case REC_TOO_LONG:
      csv_warn(c, c->line, "record skipped: a field is longer than %zu bytes", c->max_field);
      if ((r = skip_record(c)) < 0)
        return r;
      continue;
    case REC_UNTERMINATED:
      csv_warn(c, c->line,
               "unterminated quoted field runs to the end of the input; the record "
               "is dropped");
      c->line += count_nl(c->buf + c->pos, c->buf + c->len);
      c->pos = c->len;
      return 0;
    default: return r;
    }
  }
}

int hp__csv_next_line(hp__csv *c, const char **s, size_t *n, long *line)
{
  int r;

  c->can_unread = 0;
  if (!c->started && (r = start(c)) < 0)
    return r;
  for (;;) {
    char *p = c->buf + c->pos, *nlp;
    size_t l;
    nlp = memchr(p, '\n', c->len - c->pos);
    if (nlp == NULL && !c->eof) {
      r = fill(c);
      if (r < 0)
        return r;
      if (r == FILL_FULL) {
        /* A line longer than the largest buffer: report it and drop it up to its newline. */
        long at = c->line;
        csv_warn(c, at, "line longer than %zu bytes skipped", c->max_record);
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
          if ((r = fill(c)) < 0)
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

void hp__csv_unread_line(hp__csv *c)
{
  if (!c->can_unread)
    return;
  c->pos = c->last_pos;
  c->line = c->last_line;
  c->can_unread = 0;
}

/* ---------------------------------------------------------------------------------------------- */

void hp__trim(const char **s, size_t *n)
{
  const char *p = *s;
  size_t l = *n;

  while (l > 0 && (*p == ' ' || *p == '\t')) {
    p++;
    l--;
  }
  while (l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'))
    l--;
  *s = p;
  *n = l;
}

int hp__csv_find(const hp__csv_rec *hdr, const char *names)
{
  const char *a = names;

  for (;;) {
    const char *bar = strchr(a, '|');
    size_t al = bar ? (size_t)(bar - a) : strlen(a), i;
    for (i = 0; i < hdr->n; i++) {
      const char *s = hdr->f[i];
      size_t n = hdr->len[i];
      hp__trim(&s, &n);
      if (n == al && strncasecmp(s, a, al) == 0)
        return (int)i;
    }
    if (bar == NULL)
      return -1;
    a = bar + 1;
  }
}

size_t hp__csv_map(const hp__csv_rec *hdr, const char *const *wanted, size_t n, int *idx)
{
  size_t i, found = 0;

  for (i = 0; i < n; i++) {
    idx[i] = hp__csv_find(hdr, wanted[i]);
    found += idx[i] >= 0;
  }
  return found;
}

static int is_no_value(const char *s, size_t n)
{
  static const char *const none[] = {"n/a", "na", "none", "nan", "null", "-", "--"};
  size_t i;

  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
    if (strlen(none[i]) == n && strncasecmp(s, none[i], n) == 0)
      return 1;
  return 0;
}

/* Copies s without its thousands separators into tmp (NUL-terminated), checking that they split
 * the integer part into groups of three. Returns 0, or HP_EPARSE when the grouping is wrong or the
 * text does not fit. */
static int strip_groups(const char *s, size_t n, char *tmp, size_t tmpsz)
{
  size_t i, o = 0, run = 0;
  int seen_comma = 0, in_int = 1, lead = 1;

  for (i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == ',') {
      if (!in_int || run == 0 || (seen_comma && run != 3) || (!seen_comma && run > 3))
        return HP_EPARSE;
      seen_comma = 1;
      run = 0;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      if (in_int)
        run++;
      lead = 0;
    } else if (lead && (ch == '+' || ch == '-')) {
      lead = 0;
    } else {
      if (in_int && seen_comma && run != 3)
        return HP_EPARSE;
      in_int = 0;
      lead = 0;
    }
    if (o + 1 >= tmpsz)
      return HP_EPARSE;
    tmp[o++] = ch;
  }
  if (in_int && seen_comma && run != 3)
    return HP_EPARSE;
  tmp[o] = '\0';
  return 0;
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

int hp__parse_num(const char *s, size_t n, double *out)
{
  char tmp[128], *end;
  const char *p, *e;
  uint64_t m = 0;
  int neg = 0, ndig = 0, nfrac = 0, dot = 0;
  double v;

  *out = NAN;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    hp__trim(&s, &n);
  /* The fast path, tried first because it is what nearly every field is: [+-]digits[.digits],
   * at most 19 digits, exact through one division. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  for (; p < e; p++) {
    if (*p >= '0' && *p <= '9') {
      if (ndig >= 19)
        break;
      m = m * 10 + (uint64_t)(*p - '0');
      ndig++;
      nfrac += dot;
    } else if (*p == '.' && !dot) {
      dot = 1;
    } else {
      break;
    }
  }
  if (p == e && ndig > 0 && m <= ((uint64_t)1 << 53) && nfrac <= 22) {
    v = (double)m;
    if (nfrac)
      v /= pow10_tab[nfrac];
    *out = neg ? -v : v;
    return 1;
  }
  if (is_no_value(s, n))
    return 0;
  if (strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  if (tmp[0] == '\0')
    return HP_EPARSE;
  errno = 0;
  v = strtod(tmp, &end);
  if (end == tmp || *end != '\0' || !isfinite(v))
    return HP_EPARSE;
  /* strtod also takes hex floats and "infinity"; profilers print neither, so refuse them. */
  for (p = tmp; *p; p++)
    if (*p == 'x' || *p == 'X' || *p == 'i' || *p == 'I' || *p == 'n' || *p == 'N')
      return HP_EPARSE;
  *out = v;
  return 1;
}

int hp__parse_ll(const char *s, size_t n, long long *out)
{
  char tmp[128];
  const char *p, *e;
  unsigned long long m = 0;
  int neg = 0, r;
  double v;

  *out = 0;
  if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    hp__trim(&s, &n);
  /* The fast path: [+-]digits, no copy. */
  p = s;
  e = s + n;
  if (p < e && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if (p < e && e - p <= 18) {
    const char *q = p;
    while (q < e && *q >= '0' && *q <= '9')
      m = m * 10 + (unsigned)(*q++ - '0');
    if (q == e) {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  if (is_no_value(s, n))
    return 0;
  if (strip_groups(s, n, tmp, sizeof(tmp)))
    return HP_EPARSE;
  m = 0;
  neg = 0;
  p = tmp;
  if (*p == '-' || *p == '+')
    neg = *p++ == '-';
  if (*p >= '0' && *p <= '9') {
    for (; *p >= '0' && *p <= '9'; p++) {
      if (m > (9223372036854775807ULL - (unsigned)(*p - '0')) / 10)
        return HP_ERANGE;
      m = m * 10 + (unsigned)(*p - '0');
    }
    if (*p == '\0') {
      *out = neg ? -(long long)m : (long long)m;
      return 1;
    }
  }
  /* "120.0" or "1.2e2": accepted when the value is a whole number that a double holds exactly. */
  r = hp__parse_num(s, n, &v);
  if (r <= 0)
    return r;
  if (v != floor(v) || fabs(v) > 9007199254740992.0)
    return HP_EPARSE;
  *out = (long long)v;
  return 1;
}
