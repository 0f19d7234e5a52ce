/*
 * One large ncu raw-page CSV read as byte ranges (ncu_range.h): the parser's hooks that record what
 * a range found, and the caller's checks that make the merged ranges what one pass gives.
 *
 * Why each piece is exact (docs/internals/merge.md, "One large file"):
 *   - the header in force: every range is read after a head holding the file's first header and
 *     its units row; once a range reads another header, the ranges after it are read again on the
 *     caller's thread with that header (and its units row, when it had been read) as their head;
 *   - the launch window: one pass's window is replayed here with every launch row's key at its
 *     row number in the file, and a range whose window took any launch otherwise (a launch seen on
 *     both sides of a cut, or a repeat whose sweep fell elsewhere) makes the file be read whole;
 *   - the lines that are not CSV: counted per range past its head, summed here, and the note is
 *     given once, with the file's first such line, where one pass gave it.
 */
#include "profile/fast/ncu_range.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hp__ncu_range_free(hp__ncu_range *r)
{
  if (r == NULL)
    return;
  hp__buf_free(&r->keys);
  memset(r, 0, sizeof(*r));
}

void hp__ncu_range_header(hp__ncu_range *r, const hp__csv *c, long line, int ok)
{
  if (r == NULL || line <= r->head_lines)
    return;
  r->hdr = 1;
  r->hs = r->lstart;
  r->he = hp__csv_file_offset(c);
  /* A range's reader finds its head's header by the test find_header makes. */
  r->hstate = ok && r->lid ? HP__NCU_HS_PENDING : HP__NCU_HS_BAD;
}

void hp__ncu_range_units(hp__ncu_range *r, const hp__csv *c, long line, int units)
{
  int st = units ? HP__NCU_HS_UNITS : HP__NCU_HS_BAD;

  if (r == NULL || line <= r->head_lines)
    return;
  if (r->hdr && r->hstate == HP__NCU_HS_PENDING) {
    r->hstate = st;
    if (units)
      r->he = hp__csv_file_offset(c);
  } else if (!r->hdr) {
    r->hu = st;
    r->hu_end = hp__csv_file_offset(c);
  }
}

/* The most key bytes a range hands back. Real raw-page rows are kilobytes (hundreds of columns),
 * so a 32 MiB range has a few thousand launches; a range of rows so short that their keys pass
 * this is read whole instead of holding memory in proportion to the file. */
#define KEYS_MAX ((size_t)8 << 20)

/* Follows whether the range's keys ("ID" 0x1f "Process ID") are numbers that grow under one
 * Process ID, each new to the range's window: then no two are the same. */
static void key_order(hp__ncu_range *r, const char *key, size_t n, int added)
{
  const char *sep = memchr(key, '\x1f', n);
  unsigned long long v = 0;
  size_t i, idn = sep ? (size_t)(sep - key) : n, pidn = sep ? n - idn - 1 : 0;
  int ok = sep && added && idn > 0 && idn <= 18 && pidn <= sizeof(r->pid);

  for (i = 0; ok && i < idn; i++) {
    ok = key[i] >= '0' && key[i] <= '9';
    v = v * 10 + (unsigned)(key[i] - '0');
  }
  if (r->nkeys++ == 0) {
    r->mono = ok;
    r->id_first = v;
    r->pidn = ok ? pidn : 0;
    if (ok && pidn)
      memcpy(r->pid, sep + 1, pidn);
  } else if (r->mono) {
    r->mono = ok && v > r->id_last && pidn == r->pidn && memcmp(r->pid, sep + 1, pidn) == 0;
  }
  r->id_last = v;
}

int hp__ncu_range_key(hp__ncu_range *r, const char *key, size_t n, int added)
{
  uint32_t len = (uint32_t)n;
  unsigned char a = (unsigned char)(added != 0);

  if (r->odd)
    return 0;
  key_order(r, key, n, added);
  if (r->keys.len + n + 5 > KEYS_MAX) {
    r->odd = 1; /* the file is read whole (hp__ncu_file_take) */
    hp__buf_free(&r->keys);
    return 0;
  }
  return hp__buf_add(&r->keys, &len, sizeof(len)) || hp__buf_add(&r->keys, key, n) ||
          hp__buf_add(&r->keys, &a, 1)
      ? HP_ENOMEM
      : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The caller's side.                                                                              */

int hp__ncu_plan_head(const char *path, unsigned long long *head, long *lines)
{
  hp__csv *c;
  hp__csv_rec rec;
  const char *s;
  size_t n;
  long line;
  int r, ok = 0;

  if (hp__csv_open_path(&c, path, NULL) != 0)
    return 0;
  /* The header: the first line that starts with "ID", (parse_ncu.c's find_header). */
  while ((r = hp__csv_next_line(c, &s, &n, &line)) == 1)
    if (n >= 5 && memcmp(s, "\"ID\",", 5) == 0)
      break;
  if (r == 1) {
    hp__csv_unread_line(c);
    r = hp__csv_next(c, &rec);
  }
  /* The very next line must be the raw page's units row (an empty ID); anything else is read in
   * one pass. */
  if (r == 1 && hp__csv_next_line(c, &s, &n, &line) == 1 && n >= 3 && memcmp(s, "\"\",", 3) == 0) {
    hp__csv_unread_line(c);
    if (hp__csv_next(c, &rec) == 1) {
      *head = hp__csv_file_offset(c);
      *lines = hp__csv_line(c) - 1;
      ok = 1;
    }
  }
  hp__csv_free(c);
  return ok;
}

int hp__ncu_file_new(hp__ncu_file **out)
{
  if ((*out = calloc(1, sizeof(**out))) == NULL)
    return HP_ENOMEM;
  hp__recent_init(&(*out)->seen, HP__RECENT_WINDOW, NULL, NULL);
  return 0;
}

void hp__ncu_file_free(hp__ncu_file *nf)
{
  if (nf == NULL)
    return;
  hp__recent_finish(&nf->seen);
  hp__buf_free(&nf->kept);
  free(nf);
}

int hp__ncu_file_head(const hp__ncu_file *nf, unsigned long long *hfrom, unsigned long long *head,
                      long *lines)
{
  if (nf == NULL || !nf->nh)
    return 0;
  *hfrom = nf->hs;
  *head = nf->he - nf->hs;
  *lines = nf->hlines;
  return 1;
}

/* The newlines in the file's bytes [a, b), or -1. */
static long count_lines(const char *path, unsigned long long a, unsigned long long b)
{
  char buf[65536];
  long nl = 0;
  ssize_t n, i;
  int fd = open(path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return -1;
  while (a < b) {
    size_t want = b - a < sizeof(buf) ? (size_t)(b - a) : sizeof(buf);
    if ((n = pread(fd, buf, want, (off_t)a)) < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      nl = -1;
      break;
    }
    for (i = 0; i < n; i++)
      nl += buf[i] == '\n';
    a += (unsigned long long)n;
  }
  close(fd);
  return nl;
}

/* Replays launch rows (keys as in hp__ncu_range.keys) in one pass's window. 1 when every row was
 * judged alike, 0 when not, HP_ENOMEM. */
static int replay(hp__ncu_file *nf, const hp__buf *keys)
{
  const unsigned char *p = (const unsigned char *)keys->data, *end = p + keys->len;
  hp__recent_ent *ent;
  uint32_t n;
  int added;

  while (p && p < end) {
    memcpy(&n, p, sizeof(n));
    if (hp__recent_touch(&nf->seen, 0, (const char *)p + 4, n, ++nf->rows, &ent, &added) ||
        hp__recent_tick(&nf->seen, nf->rows))
      return HP_ENOMEM;
    if (added != p[4 + n])
      return 0;
    p += 4 + (size_t)n + 1;
  }
  return 1;
}

/* Whether range r's launches continue the file's run of provably different keys: its own keys
 * are, and its first ID is greater than the last one before it, under the same Process ID. Such
 * keys are new to one pass's window whatever its sweeps, as they were to the range's. */
static int continues_mono(const hp__ncu_file *nf, const hp__ncu_range *r)
{
  return r->mono &&
      (nf->mode == 0 ||
       (r->id_first > nf->id_last && r->pidn == nf->pidn && memcmp(r->pid, nf->pid, r->pidn) == 0));
}

/* The window's part of taking a range: 1 when one pass's window judged its launches as the range
 * did, 0 when not (or when that can no longer be known: the file is then read whole), HP_ENOMEM.
 * While every key is provably new (the common case: one process, IDs in order) nothing is
 * replayed, the keys are only kept; the first range that breaks the order has them replayed
 * first, and every range after it is replayed. */
static int take_keys(hp__ncu_file *nf, const hp__ncu_range *r)
{
  int m;

  if (r->nkeys == 0)
    return 1;
  if (nf->mode != HP__NCU_REPLAY && continues_mono(nf, r)) {
    nf->mode = HP__NCU_MONO;
    nf->id_last = r->id_last;
    nf->pidn = r->pidn;
    memcpy(nf->pid, r->pid, r->pidn);
    if (!nf->lost && nf->kept.len + r->keys.len > 2 * KEYS_MAX) {
      hp__buf_free(&nf->kept);
      nf->lost = 1;
    }
    return nf->lost || hp__buf_add(&nf->kept, r->keys.data, r->keys.len) == 0 ? 1 : HP_ENOMEM;
  }
  if (nf->mode == HP__NCU_MONO) {
    if (nf->lost)
      return 0;
    m = replay(nf, &nf->kept);
    hp__buf_free(&nf->kept);
    if (m <= 0)
      return m;
  }
  nf->mode = HP__NCU_REPLAY;
  return replay(nf, &r->keys);
}

int hp__ncu_file_take(hp__ncu_file *nf, const char *path, hp__ncu_range *r, long off, int last,
                      int *bad)
{
  int m;

  *bad = 1;
  if (r->odd)
    return 0;
  if ((m = take_keys(nf, r)) <= 0)
    return m;
  if (r->skipped && nf->nskip == 0)
    nf->first_skip = r->first_skipped + off;
  nf->nskip += r->skipped;
  if (r->hdr) {
    nf->nh = 1;
    nf->hs = r->hs;
    nf->he = r->he;
    nf->hstate = r->hstate;
  } else if (r->hu && nf->nh && nf->hstate == HP__NCU_HS_PENDING) {
    nf->hstate = r->hu;
    if (r->hu == HP__NCU_HS_UNITS)
      nf->he = r->hu_end;
  }
  if ((r->hdr || r->hu) && nf->nh && (nf->hlines = count_lines(path, nf->hs, nf->he)) < 0)
    nf->hstate = HP__NCU_HS_BAD;
  /* A later range cannot start from a header it cannot read as one pass had it. */
  *bad = !last && nf->nh && nf->hstate == HP__NCU_HS_BAD;
  return 0;
}

void hp__ncu_file_note(const hp__ncu_file *nf, hp_diags *d, const char *path)
{
  if (nf && nf->nskip)
    hp_diags_add(d, HP_DIAG_NOTE, path, nf->first_skip, 0,
                 "%ld lines among the ncu rows are not CSV (the program's own output?) and were "
                 "skipped",
                 nf->nskip);
}
