/*
 * compute-sanitizer output (see profile/parse/sanitizer.h): error blocks folded into counts by kind
 * and by kernel. hp__parse_text (parse_hipprof.c) hands every line of a text file here first, since
 * the report usually sits in the program's own stdout.txt.
 *
 *   ========= Invalid __global__ write of size 4 bytes                     <- header: the kind
 *   =========     at write_past_end(float *, int)+0x70 in bad.cu:16       <- details: where
 *   =========     by thread (232,0,0) in block (3,0,0)
 *   =========     Address 0x7f3c4b2003e8 is out of bounds
 *   =========
 *   ========= ERROR SUMMARY: 32 errors
 *
 * A header has at most two spaces after the prefix, a detail line more (initcheck indents its
 * `Unused memory` header by two). The kind is the header without what varies between errors of
 * one cause: sizes (` of size 4 bytes`), addresses and allocation names.
 */
#include "profile/parse/sanitizer.h"
#include "util/num/num.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PREFIX "========="
#define PREFIX_LEN 9
#define MAX_WHERE 4

static int starts(const char *s, size_t n, const char *pre)
{
  size_t m = strlen(pre);

  return n >= m && strncmp(s, pre, m) == 0;
}

static const char *find(const char *s, size_t n, const char *needle)
{
  size_t m = strlen(needle);

  return n >= m ? memmem(s, n, needle, m) : NULL;
}

/* The file's run row, made on its first sanitizer line. */
static int run_row(hp__pctx *x, hp__santext *st)
{
  hp__san *s = x->p->san;

  if (s == NULL && (s = x->p->san = calloc(1, sizeof(*s))) == NULL)
    return HP_ENOMEM;
  if (st->seen)
    return 0;
  if (hp__grow((void **)&s->runs, &s->rcap, s->nruns + 1, sizeof(*s->runs)))
    return HP_ENOMEM;
  if ((s->runs[s->nruns].file = strdup(x->path)) == NULL)
    return HP_ENOMEM;
  s->runs[s->nruns].summary = -1;
  st->run = s->nruns++;
  st->seen = 1;
  x->tables |= HP__TB_SAN;
  return 0;
}

/* Counts the open block under its kind and kernel. */
static int close_block(hp__pctx *x, hp__santext *st)
{
  hp__san *s = x->p->san;
  const char *kind = st->kind.data, *kern = st->kernel.len ? st->kernel.data : "(host)";
  size_t kl = st->kind.len, kn = strlen(kern);
  uint32_t id, kid;
  int r;

  if (!st->open)
    return 0;
  st->open = 0;
  if ((r = hp__strtab_intern(&s->kinds, kind, kl, hp__hash(kind, kl), &id)) < 0 ||
      hp__grow((void **)&s->k, &s->kcap, (size_t)id + 1, sizeof(*s->k)))
    return HP_ENOMEM;
  if (s->k[id].n++ == 0 && st->where.len && (s->k[id].example = hp__strdup(st->where.data)) == NULL)
    return HP_ENOMEM;
  if (hp__strtab_intern(&s->kernels, kern, kn, hp__hash(kern, kn), &kid) < 0 ||
      hp__grow((void **)&s->kk, &s->kkcap, (size_t)kid + 1, sizeof(*s->kk)) ||
      hp__vals_add(&s->kk[kid].kinds, kind, kl))
    return HP_ENOMEM;
  s->kk[kid].n++;
  s->runs[st->run].listed++;
  return 0;
}

/* The kind of a header: cut where the per-error details start. */
static size_t kind_len(const char *h, size_t n)
{
  static const char *const cuts[] = {" of size ", " at 0x", " at ", " in allocation 0x"};
  const char *c;
  size_t i, len = n;

  for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
    if ((c = find(h, len, cuts[i])) != NULL)
      len = (size_t)(c - h) + (i == 3 ? 14 : 0); /* keeps "in allocation" */
  while (len > 0 && (h[len - 1] == '.' || h[len - 1] == ' '))
    len--;
  return len;
}

/* Headers that are not errors. */
static int is_banner(const char *h, size_t n)
{
  static const char *const banners[] = {"COMPUTE-SANITIZER",
                                        "LEAK SUMMARY:", "Target application returned", "This is ",
                                        "Saved host backtrace"};
  size_t i;

  for (i = 0; i < sizeof(banners) / sizeof(banners[0]); i++)
    if (starts(h, n, banners[i]))
      return 1;
  return 0;
}

/* "Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API
 * call to cudaFree." is kind "Program hit cudaErrorLaunchFailure on cudaFree": the error and the
 * call, without the explanation every such line repeats. */
static int api_kind(hp__buf *kind, const char *h, size_t n)
{
  const char *err = h + 12, *e = err, *call = find(h, n, "API call to "), *ce;

  while (e < h + n && *e != ' ')
    e++;
  if (call == NULL)
    return hp__buf_add(kind, h, kind_len(h, n));
  call += 12;
  for (ce = call; ce < h + n && *ce != ' ' && *ce != '.'; ce++)
    ;
  return hp__buf_printf(kind, "Program hit %.*s on %.*s", (int)(e - err), err, (int)(ce - call),
                        call);
}

/* A header line: closes the open block and opens one of this kind. */
static int header(hp__pctx *x, hp__santext *st, const char *h, size_t n, long line)
{
  hp__san_run *run;
  long long v;
  const char *q;
  int r;

  if ((r = close_block(x, st)) != 0)
    return r;
  run = &x->p->san->runs[st->run];
  if (starts(h, n, "ERROR SUMMARY:")) {
    /* "ERROR SUMMARY: 1000 errors", then, past --print-limit, a second line "ERROR SUMMARY: 900
     * errors were not printed. Use --print-limit ..." that is no new count. */
    const char *num = h + 14;
    size_t nn = n - 14;
    hp__trim(&num, &nn);
    q = memchr(num, ' ', nn);
    if (find(h, n, "not printed"))
      return 1;
    if (hp__parse_ll(num, q ? (size_t)(q - num) : nn, &v) == 1)
      run->summary = (run->summary < 0 ? 0 : run->summary) + v;
    else
      hp__pwarn(x, line, "ERROR SUMMARY without a count; skipped");
    return 1;
  }
  /* racecheck: "RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warnings)". */
  if (starts(h, n, "RACECHECK SUMMARY:")) {
    if ((q = find(h, n, "(")) != NULL) {
      const char *e = memchr(q, ' ', (size_t)(h + n - q));
      if (e && hp__parse_ll(q + 1, (size_t)(e - q - 1), &v) == 1)
        run->summary = (run->summary < 0 ? 0 : run->summary) + v;
    }
    return 1;
  }
  if (is_banner(h, n))
    return 1;
  hp__buf_reset(&st->kind);
  hp__buf_reset(&st->where);
  hp__buf_reset(&st->kernel);
  st->nwhere = 0;
  /* The header is the example until a location line replaces it (leaks have none). Both
   * buffers were just reset, so their sticky errors are this header's alone. */
  hp__buf_add(&st->where, h, n);
  if (starts(h, n, "Leaked "))
    hp__buf_adds(&st->kind, "Leaked memory");
  else if (starts(h, n, "Program hit "))
    api_kind(&st->kind, h, n);
  else
    hp__buf_add(&st->kind, h, kind_len(h, n));
  if (hp__buf_error(&st->where) || hp__buf_error(&st->kind))
    return HP_ENOMEM;
  st->open = 1;
  return 1;
}

/* The kernel an `at ...` line names: `at KERNEL+0x70 in FILE:LINE` (CUDA 12) or `at 0x150 in
 * KERNEL`, where older versions wrote `FILE:LINE:KERNEL`. */
static int at_kernel(hp__santext *st, const char *d, size_t n)
{
  const char *plus = find(d, n, "+0x"), *in, *k = d + 3, *e;

  if (plus && (!(in = find(d, n, " in ")) || plus < in))
    return hp__buf_add(&st->kernel, k, (size_t)(plus - k));
  if ((in = find(d, n, " in ")) == NULL)
    return 0;
  k = in + 4;
  e = d + n;
  /* FILE:LINE:KERNEL: the kernel follows the first ":digits:". */
  for (in = k; in < e; in++)
    if (*in == ':' && in + 1 < e && in[1] >= '0' && in[1] <= '9') {
      const char *q = in + 1;
      while (q < e && *q >= '0' && *q <= '9')
        q++;
      if (q < e && *q == ':') {
        k = q + 1;
        break;
      }
    }
  return hp__buf_add(&st->kernel, k, (size_t)(e - k));
}

/* A detail line of the open block. Location lines are kept for the kind's example; the first
 * `at` line names the kernel; racecheck's `and Read access at` line completes the kind. */
static int detail(hp__santext *st, const char *d, size_t n)
{
  int keep = starts(d, n, "at ") || starts(d, n, "by thread") || starts(d, n, "Address ") ||
      starts(d, n, "Access to ") || starts(d, n, "and ");

  if (!st->open)
    return 1;
  if (starts(d, n, "at ") && st->kernel.len == 0 && at_kernel(st, d, n))
    return HP_ENOMEM;
  if (starts(d, n, "and ") && find(d, n, " access")) {
    const char *c = find(d, n, " at ");
    hp__buf_addc(&st->kind, ' ');
    hp__buf_add(&st->kind, d, c ? (size_t)(c - d) : n);
  }
  if (keep && st->nwhere == 0)
    hp__buf_reset(&st->where);
  if (keep && st->nwhere < MAX_WHERE) {
    if (st->where.len)
      hp__buf_adds(&st->where, "; ");
    hp__buf_add(&st->where, d, n);
    st->nwhere++;
  }
  /* An error of an earlier line has already ended the file, so these are this line's. */
  return hp__buf_error(&st->kind) || hp__buf_error(&st->where) ? HP_ENOMEM : 1;
}

int hp__san_line(hp__pctx *x, hp__santext *st, const char *s, size_t n, long line)
{
  const char *b;
  size_t sp, len;

  if (n < PREFIX_LEN || memcmp(s, PREFIX, PREFIX_LEN) != 0)
    return 0;
  b = s + PREFIX_LEN;
  len = n - PREFIX_LEN;
  if (len > 0 && b[0] == '=')
    return 0; /* a longer rule of '=' is not the sanitizer's prefix */
  while (len > 0 && (b[len - 1] == ' ' || b[len - 1] == '\r'))
    len--;
  for (sp = 0; sp < len && b[sp] == ' '; sp++)
    ;
  if (run_row(x, st))
    return HP_ENOMEM;
  if (sp == len) /* "=========" alone ends a block */
    return close_block(x, st) ? HP_ENOMEM : 1;
  if (sp > 2)
    return detail(st, b + sp, len - sp);
  return header(x, st, b + sp, len - sp, line);
}

int hp__san_end(hp__pctx *x, hp__santext *st)
{
  int r = st->seen ? close_block(x, st) : 0;

  hp__buf_free(&st->kind);
  hp__buf_free(&st->where);
  hp__buf_free(&st->kernel);
  memset(st, 0, sizeof(*st));
  return r;
}
