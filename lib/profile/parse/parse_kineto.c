/*
 * PyTorch profiler (Kineto) Chrome traces, .json or .json.gz, streamed: the file is read through
 * zlib (which reads a plain file as it is) into one buffer, and each element of `traceEvents` is
 * parsed in place when it lies whole in the buffer; one that runs past the buffer's end is parsed
 * again after the buffer is refilled (and grown, up to MAX_EVENT, for a huge one). No tree is
 * built: memory is the buffer, the tables' names, 16 bytes per kernel interval and 8 per kernel
 * start and launch call, which the timeline needs at the end.
 *
 * Complete events (`ph: "X"`) fold into the tables by `cat`: kernel, gpu_memcpy and gpu_memset,
 * cuda_runtime and cuda_driver (ROCm builds use them for hip* calls too), cpu_op. Times are
 * microseconds with up to three decimals: they are read as whole nanoseconds, exactly. The
 * definitions of the timeline row are in docs/summarize.md ("PyTorch traces").
 */
#include "profile/model/build.h"
#include "profile/parse/parsers.h"
#include "util/base/buf.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CHUNK (1u << 20)
#define MAX_EVENT (16u << 20) /* the largest one event may be */

typedef struct iv {
  long long b, e;
} iv;

typedef struct kin {
  hp__pctx *x;
  gzFile gz;
  char *buf;
  size_t cap, len, pos;
  int eof;
  iv *k; /* kernel intervals, compacted into disjoint ones when the array fills */
  size_t nk, kcap;
  iv *steps;
  size_t nsteps, scap;
  long long *l; /* kernel-launch calls' start times */
  size_t nl, lcap;
  long long *ks; /* kernels' start times: the intervals above lose their count when compacted */
  size_t nks, kscap;
  long long first, last, kernels;
  int have;
  hp__buf name; /* an escaped name, decoded */
} kin;

/* One event's members; strings point into the buffer. */
typedef struct ev {
  const char *cat, *name;
  size_t catn, namen;
  int name_esc, ph;
  long long ts, dur;
  int have_ts, have_dur;
} ev;

/* Reads more of the file after moving the bytes from `keep` on to the buffer's front. 1 when
 * something was read, 0 at the end of the file, HP_ENOMEM or HP_EIO. */
static int refill(kin *k, size_t keep)
{
  int n;

  memmove(k->buf, k->buf + keep, k->len - keep);
  k->len -= keep;
  k->pos = 0;
  if (k->eof)
    return 0;
  if (k->len == k->cap) {
    char *nb;
    if (k->cap >= MAX_EVENT)
      return HP_EIO;
    if ((nb = realloc(k->buf, k->cap * 2)) == NULL)
      return HP_ENOMEM;
    k->buf = nb;
    k->cap *= 2;
  }
  n = gzread(k->gz, k->buf + k->len, (unsigned)(k->cap - k->len));
  if (n < 0)
    return HP_EIO;
  if (n == 0)
    k->eof = 1;
  k->len += (size_t)n;
  return n > 0;
}

static const char *ws(const char *p, const char *e)
{
  while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

/* Past the closing quote of a string whose body starts at p; NULL when it ends past e. */
static const char *str_end(const char *p, const char *e, int *esc)
{
  const char *q;

  for (;;) {
    if ((q = memchr(p, '"', (size_t)(e - p))) == NULL)
      return NULL;
    if (q > p && q[-1] == '\\') {
      const char *b = q - 1;
      while (b > p && b[-1] == '\\')
        b--;
      *esc = 1;
      if ((q - b) % 2) { /* an odd run of backslashes escapes the quote */
        p = q + 1;
        continue;
      }
    } else if (memchr(p, '\\', (size_t)(q - p))) {
      *esc = 1;
    }
    return q + 1;
  }
}

/* Past one JSON value at p (after blanks); NULL when it ends past e. Not a validator: a
 * malformed value is found by what follows it. */
static const char *skip_value(const char *p, const char *e)
{
  int depth = 0, esc;

  p = ws(p, e);
  while (p < e) {
    char c = *p;
    if (c == '"') {
      if ((p = str_end(p + 1, e, &esc)) == NULL)
        return NULL;
    } else if (c == '{' || c == '[') {
      depth++;
      p++;
    } else if (c == '}' || c == ']') {
      if (depth == 0)
        return p;
      p++;
      if (--depth == 0)
        return p;
    } else if (depth == 0) {
      while (p < e && !strchr(",}] \t\r\n", *p))
        p++;
      return p < e ? p : NULL;
    } else {
      p++;
    }
    if (depth == 0)
      return p;
  }
  return NULL;
}

/* A number of microseconds as whole nanoseconds: three decimals exactly, the fourth rounds. */
static const char *read_us(const char *p, const char *e, long long *ns, int *ok)
{
  const char *s = p;
  long long v = 0;
  int neg = 0, frac = 0, big = 0;

  if (p < e && *p == '-') {
    neg = 1;
    p++;
  }
  /* Held below LLONG_MAX / 1000 so that the nanoseconds fit; a longer number reads as none. */
  for (; p < e && *p >= '0' && *p <= '9'; p++) {
    if (v >= LLONG_MAX / 10000)
      big = 1;
    v = big ? v : v * 10 + (*p - '0');
  }
  v *= 1000;
  if (p < e && *p == '.') {
    long long scale = 100;
    for (p++; p < e && *p >= '0' && *p <= '9'; p++, frac++) {
      if (frac < 3)
        v += (*p - '0') * scale, scale /= 10;
      else if (frac == 3 && *p >= '5')
        v++;
    }
  }
  if (p < e && (*p == 'e' || *p == 'E')) { /* rare: through a double */
    char tmp[64];
    const char *q = p + 1;
    while (q < e && strchr("+-0123456789", *q))
      q++;
    if (q >= e || (size_t)(q - s) >= sizeof(tmp))
      return q >= e ? NULL : q;
    memcpy(tmp, s, (size_t)(q - s));
    tmp[q - s] = '\0';
    *ns = llround(strtod(tmp, NULL) * 1000.0);
    *ok = 1;
    return q;
  }
  if (p >= e)
    return NULL;
  *ns = neg ? -v : v;
  *ok = p > s + neg && !big;
  return p;
}

#define KEYIS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp((k), (lit), sizeof(lit) - 1) == 0)

/* One event object at *pp: 1 parsed (and *pp moved past it), 0 it ends past e, -1 malformed. */
static int parse_event(const char **pp, const char *e, ev *v)
{
  const char *p = ws(*pp, e), *key, *q;
  size_t kn;
  int esc;

  memset(v, 0, sizeof(*v));
  if (p >= e)
    return 0;
  if (*p++ != '{')
    return -1;
  for (;;) {
    if ((p = ws(p, e)) >= e)
      return 0;
    if (*p == '}')
      break;
    if (*p++ != '"')
      return -1;
    key = p;
    esc = 0;
    if ((p = str_end(p, e, &esc)) == NULL)
      return 0;
    kn = (size_t)(p - key - 1);
    if ((p = ws(p, e)) >= e)
      return 0;
    if (*p++ != ':')
      return -1;
    if ((p = ws(p, e)) >= e)
      return 0;
    if (*p == '"' && (KEYIS(key, kn, "ph") || KEYIS(key, kn, "cat") || KEYIS(key, kn, "name"))) {
      esc = 0;
      if ((q = str_end(p + 1, e, &esc)) == NULL)
        return 0;
      if (key[0] == 'p') {
        v->ph = q - p > 2 ? p[1] : 0;
      } else if (key[0] == 'c') {
        v->cat = p + 1;
        v->catn = (size_t)(q - p - 2);
      } else {
        v->name = p + 1;
        v->namen = (size_t)(q - p - 2);
        v->name_esc = esc;
      }
      p = q;
    } else if (KEYIS(key, kn, "ts")) {
      if ((p = read_us(p, e, &v->ts, &v->have_ts)) == NULL)
        return 0;
    } else if (KEYIS(key, kn, "dur")) {
      if ((p = read_us(p, e, &v->dur, &v->have_dur)) == NULL)
        return 0;
    } else if ((p = skip_value(p, e)) == NULL) {
      return 0;
    }
    if ((p = ws(p, e)) >= e)
      return 0;
    if (*p == ',')
      p++;
    else if (*p != '}')
      return -1;
  }
  *pp = p + 1;
  return 1;
}

/* Appends the UTF-8 of code point c. */
static void put_utf8(hp__buf *b, unsigned long c)
{
  if (c < 0x80) {
    hp__buf_addc(b, (char)c);
  } else if (c < 0x800) {
    hp__buf_addc(b, (char)(0xC0 | (c >> 6)));
    hp__buf_addc(b, (char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    hp__buf_addc(b, (char)(0xE0 | (c >> 12)));
    hp__buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    hp__buf_addc(b, (char)(0x80 | (c & 0x3F)));
  } else {
    hp__buf_addc(b, (char)(0xF0 | (c >> 18)));
    hp__buf_addc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
    hp__buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    hp__buf_addc(b, (char)(0x80 | (c & 0x3F)));
  }
}

/* Decodes the escapes of a name into k->name: "\u" with surrogate pairs, and the one-letter ones. */
static int unescape(kin *k, const char *s, size_t n, const char **out, size_t *outn)
{
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  size_t i;

  k->name.len = 0;
  for (i = 0; i < n; i++) {
    const char *f;
    if (s[i] != '\\' || i + 1 >= n) {
      hp__buf_addc(&k->name, s[i]);
    } else if (s[++i] == 'u' && i + 4 < n) {
      unsigned long c = strtoul((char[5]){s[i + 1], s[i + 2], s[i + 3], s[i + 4], 0}, NULL, 16);
      i += 4;
      if (c >= 0xD800 && c < 0xDC00 && i + 6 < n && s[i + 1] == '\\' && s[i + 2] == 'u') {
        unsigned long lo = strtoul((char[5]){s[i + 3], s[i + 4], s[i + 5], s[i + 6], 0}, NULL, 16);
        c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
        i += 6;
      }
      put_utf8(&k->name, c);
    } else if ((f = strchr(from, s[i])) != NULL && *f) {
      hp__buf_addc(&k->name, to[f - from]);
    } else {
      hp__buf_addc(&k->name, s[i]);
    }
  }
  if (hp__buf_error(&k->name))
    return HP_ENOMEM;
  *out = k->name.data ? k->name.data : "";
  *outn = k->name.len;
  return 0;
}

static int cmp_iv(const void *a, const void *b)
{
  const iv *x = a, *y = b;

  return x->b < y->b ? -1 : x->b > y->b;
}

/* Sorts and merges intervals[0..n) into disjoint ones in place; returns how many remain. */
static size_t union_iv(iv *v, size_t n)
{
  size_t i, m = 0;

  if (n == 0)
    return 0;
  qsort(v, n, sizeof(*v), cmp_iv);
  for (i = 1; i < n; i++) {
    if (v[i].b <= v[m].e) {
      if (v[i].e > v[m].e)
        v[m].e = v[i].e;
    } else {
      v[++m] = v[i];
    }
  }
  return m + 1;
}

static int push_iv(iv **v, size_t *n, size_t *cap, long long b, long long e, int compact)
{
  if (*n == *cap && compact && *cap >= (1u << 16)) {
    *n = union_iv(*v, *n);
    if (*n < *cap / 2) {
      (*v)[(*n)++] = (iv){b, e};
      return 0;
    }
  }
  if (hp__grow((void **)v, cap, *n + 1, sizeof(**v)))
    return HP_ENOMEM;
  (*v)[(*n)++] = (iv){b, e};
  return 0;
}

static int push_ts(long long **v, size_t *n, size_t *cap, long long ts)
{
  if (hp__grow((void **)v, cap, *n + 1, sizeof(**v)))
    return HP_ENOMEM;
  (*v)[(*n)++] = ts;
  return 0;
}

#define CATIS(v, lit) KEYIS((v)->cat, (v)->catn, lit)

/* The table a category folds into, or -1; *launch for the calls that launch kernels. */
static int cat_table(const hp__pctx *x, const ev *v, int *timeline)
{
  *timeline = 1;
  if (CATIS(v, "kernel"))
    return x->use_kernels ? HP__T_KERNEL : -2;
  if (CATIS(v, "gpu_memcpy") || CATIS(v, "gpu_memset"))
    return x->use_copies ? HP__T_COPY : -2;
  if (CATIS(v, "cuda_runtime") || CATIS(v, "cuda_driver"))
    return x->use_api ? HP__T_API : -2;
  if (CATIS(v, "cpu_op"))
    return HP__T_CPU;
  *timeline = CATIS(v, "user_annotation");
  return -1;
}

/* Folds one complete event into the tables and the timeline. */
static int fold(kin *k, const ev *v)
{
  hp__tstat *st;
  const char *name = v->name;
  size_t namen = v->namen;
  long long end;
  int t, tl, r;

  if (v->ph != 'X' || v->cat == NULL || !v->have_ts || name == NULL)
    return 0;
  t = cat_table(k->x, v, &tl);
  if (!tl)
    return 0;
  end = v->ts + (v->have_dur && v->dur > 0 ? v->dur : 0);
  if (!k->have || v->ts < k->first)
    k->first = v->ts;
  if (!k->have || end > k->last)
    k->last = end;
  k->have = 1;
  if (t == -1) { /* a user annotation: only ProfilerStep#N is kept, as a step */
    if (namen > 13 && memcmp(name, "ProfilerStep#", 13) == 0)
      return push_iv(&k->steps, &k->nsteps, &k->scap, v->ts, end, 0);
    return 0;
  }
  if (t == HP__T_KERNEL) {
    k->kernels++;
    hp__kspan_add(k->x->p, v->ts, end);
    if ((r = push_iv(&k->k, &k->nk, &k->kcap, v->ts, end, 1)) != 0 ||
        (r = push_ts(&k->ks, &k->nks, &k->kscap, v->ts)) != 0)
      return r;
  }
  if (t == HP__T_API && memmem(name, namen, "Launch", 6) &&
      (r = push_ts(&k->l, &k->nl, &k->lcap, v->ts)) != 0)
    return r;
  if (t < 0)
    return 0;
  if (v->name_esc && (r = unescape(k, v->name, v->namen, &name, &namen)) != 0)
    return r;
  if (hp__ttable_get(&k->x->p->t[t], name, namen, &st))
    return HP_ENOMEM;
  hp__tstat_add_trace(st, v->have_dur ? (double)v->dur : 0, k->x->file);
  k->x->tables |= hp__table_bit(t);
  return 0;
}

/* The step whose start is the last at or before ts contains it, or none does. */
static int in_steps(const iv *s, size_t n, long long ts)
{
  size_t lo = 0, hi = n;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid].b <= ts)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && ts < s[lo - 1].e;
}

/* The trace's timeline row, once every event is in. */
static int timeline(kin *k)
{
  hp__timeline row = {NULL, NAN, 0, NAN, k->kernels, (long long)k->nsteps, 0, 0, NAN, NAN};
  long long b = k->first, e = k->last, busy = 0;
  size_t i;

  if (!k->have)
    return 0;
  if (k->nsteps) {
    k->nsteps = union_iv(k->steps, k->nsteps);
    b = k->steps[0].b;
    e = k->steps[k->nsteps - 1].e;
    for (i = 0; i < k->nl; i++)
      row.launches += in_steps(k->steps, k->nsteps, k->l[i]);
    /* A kernel runs after its launch, and often in the next step: one that starts anywhere in
     * the span counts, not only inside a step. */
    for (i = 0; i < k->nks; i++)
      row.step_kernels += k->ks[i] >= b && k->ks[i] < e;
    row.launches_per_step = (double)row.launches / (double)row.steps;
    row.kernels_per_step = (double)row.step_kernels / (double)row.steps;
  }
  k->nk = union_iv(k->k, k->nk);
  for (i = 0; i < k->nk; i++) {
    long long kb = k->k[i].b > b ? k->k[i].b : b, ke = k->k[i].e < e ? k->k[i].e : e;
    if (ke > kb)
      busy += ke - kb;
  }
  row.file = (char *)k->x->path;
  row.span_ns = (double)(e - b);
  row.busy_ns = (double)busy;
  row.busy_pct = e > b ? 100.0 * (double)busy / (double)(e - b) : NAN;
  k->x->tables |= HP__TB_TIMELINE;
  return hp__timeline_add(k->x->p, &row);
}

/* Finds `"traceEvents"` among the top object's members, skipping the others: 1 found (k->pos
 * just inside its '['), 0 not there, or a negative code. */
static int find_events(kin *k)
{
  const char *p, *e, *key, *q;
  int r, esc, top = 0;

  for (;;) {
    p = ws(k->buf + k->pos, k->buf + k->len);
    e = k->buf + k->len;
    if (p < e && (!top || *p == ',')) {
      if (!top && *p != '{')
        return 0;
      top = 1;
      k->pos = (size_t)(p + 1 - k->buf);
      continue;
    }
    if (p < e && *p != '"')
      return 0;
    key = p + 1;
    if (p < e && (q = str_end(key, e, &esc)) != NULL && (p = ws(q, e)) < e) {
      if (*p != ':')
        return 0;
      if (KEYIS(key, (size_t)(q - key - 1), "traceEvents")) {
        if ((p = ws(p + 1, e)) < e) {
          k->pos = (size_t)(p + 1 - k->buf);
          return *p == '[';
        }
      } else if ((p = skip_value(p + 1, e)) != NULL) {
        k->pos = (size_t)(p - k->buf);
        continue;
      }
    }
    if ((r = refill(k, k->pos)) <= 0)
      return r;
  }
}

/* Reads the elements of traceEvents up to its ']': 1 at its end, 0 when the data ends or breaks
 * first (warned), or a negative code. */
static int read_events(kin *k)
{
  const char *p, *e;
  ev v;
  int r;

  for (;;) {
    e = k->buf + k->len;
    p = ws(k->buf + k->pos, e);
    if (p < e && *p == ',')
      p = ws(p + 1, e);
    if (p < e && *p == ']')
      return 1;
    k->pos = (size_t)(p - k->buf);
    if ((r = parse_event(&p, e, &v)) == 1) {
      k->pos = (size_t)(p - k->buf);
      if ((r = fold(k, &v)) != 0)
        return r;
      continue;
    }
    if (r < 0) {
      hp__pwarn(k->x, 0,
                "malformed event in traceEvents (byte %zu of a buffer): the rest is unread",
                k->pos);
      return 0;
    }
    if ((r = refill(k, k->pos)) < 0)
      return r;
    if (r == 0) {
      hp__pwarn(k->x, 0, "the trace ends inside traceEvents (a cut file?): what was read is kept");
      return 0;
    }
  }
}

int hp__parse_kineto(hp__pctx *x)
{
  kin k = {.x = x, .name = HP__BUF_INIT};
  int r;

  if ((k.gz = gzopen(x->path, "rb")) == NULL) {
    hp__pwarn(x, 0, "cannot open the trace");
    return 0;
  }
  gzbuffer(k.gz, 1u << 18);
  if ((k.buf = malloc(CHUNK)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  k.cap = CHUNK;
  r = find_events(&k);
  if (r == 0)
    hp__pwarn(x, 0, "no traceEvents array: not a Kineto trace");
  else if (r == 1)
    r = read_events(&k);
  if (r >= 0)
    r = timeline(&k);
  if (r == HP_EIO) {
    hp__pwarn(x, 0,
              "the trace cannot be read to its end (corrupt gzip data, or one event "
              "over %u MB): what was read is kept",
              MAX_EVENT >> 20);
    r = timeline(&k);
  }

fail:
  gzclose(k.gz);
  free(k.buf);
  free(k.k);
  free(k.steps);
  free(k.l);
  free(k.ks);
  hp__buf_free(&k.name);
  return r < 0 ? r : 0;
}
