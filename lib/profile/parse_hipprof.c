/*
 * Hygon DTK hipprof output that is not in rocprof's layouts (those are in parse_rocprof.c):
 *
 *   - the --kernel-stack CSV `str_name,index,stack_sq,addrname`: one row per frame of each launch's
 *     host call stack, summarised as the article's print_stack_summary does (launches per kernel,
 *     and the most common first user frame after the runtime's frames);
 *   - text files (stdout.txt, hipprof.txt, pmc_results_<pid>.txt, ...): --memory-usage leak-check
 *     lines, PMC dispatch lines, and an ncu CSV that went to stdout.
 */
#include "profile/profile.h"
#include "util/buf.h"
#include "util/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------------------------------- */
/* Kernel stacks.                                                                                  */

#define FRAME_CACHE_MAX 65536
#define FRAME_MAX 4096

/* 0: a user frame, 1: a runtime frame, 2: nothing left after sanitising (never an origin). The
 * verdict is cached by the raw frame text, since a program has far fewer distinct frames than a
 * stack file has rows. */
static int frame_class(hp_profile *p, const char *raw, size_t n)
{
  char buf[FRAME_MAX];
  uint64_t h = hp__hash(raw, n);
  long id = hp__strtab_find(&p->frame_cache, raw, n, h);
  size_t sn;
  uint32_t nid;
  int cls;

  if (id >= 0)
    return p->frame_rt[id];
  sn = hp__sanitize_frame(raw, n, buf, sizeof(buf));
  cls = sn == 0 ? 2 : hp__is_runtime_frame(p, buf, sn);
  if (p->frame_cache.n < FRAME_CACHE_MAX &&
      hp__strtab_intern(&p->frame_cache, raw, n, h, &nid) == 1 &&
      hp__grow((void **)&p->frame_rt, &p->frame_rt_cap, (size_t)nid + 1, 1) == 0)
    p->frame_rt[nid] = (unsigned char)cls;
  return cls;
}

typedef struct stack_state {
  hp_profile *p;
  int err;
} stack_state;

/* A launch is finished: count it, with its first user frame (or "runtime-only"). */
static void stack_fin(void *ud, hp__recent_ent *e)
{
  stack_state *st = ud;

  if (hp__stack_origin(st->p, e->kid, e->s ? e->s : "runtime-only", e->first))
    st->err = HP_ENOMEM;
}

int hp__parse_stack(hp__pctx *x)
{
  static const char *const want[] = {"str_name", "index", "stack_sq", "addrname"};
  enum {
    C_NAME,
    C_INDEX,
    C_SQ,
    C_ADDR,
    C_N
  };
  hp_profile *p = x->p;
  int idx[C_N], r;
  hp__csv_rec rec;
  hp__recent grp;
  stack_state st;
  hp__buf prev_name = HP__BUF_INIT, prev_index = HP__BUF_INIT;
  hp__recent_ent *prev_e = NULL;
  unsigned long long prev_epoch = 0;
  uint32_t kid = 0;
  size_t ncols;
  int have_kid = 0;

  st.p = p;
  st.err = 0;
  hp__recent_init(&grp, 8192, stack_fin, &st);
  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, C_N, idx);
  if (hp__require(x, rec.line, want, idx, C_N))
    return 0;
  ncols = rec.n;
  x->tables |= HP__TB_STACK;
  while ((r = hp__csv_next(x->csv, &rec)) == 1) {
    const char *name, *index, *addr;
    size_t nn, in, an;
    long long sq = 0, row = ++p->rowseq;
    hp__recent_ent *e;
    int cls, added;

    if (rec.n != ncols)
      hp__check_width(x, &rec, ncols);
    name = hp__fld(&rec, idx[C_NAME], &nn);
    index = hp__fld(&rec, idx[C_INDEX], &in);
    addr = hp__fld(&rec, idx[C_ADDR], &an);
    /* The article's defaults for a short row. */
    if (name == NULL) {
      name = "unknown";
      nn = 7;
    }
    if (index == NULL) {
      index = "unknown";
      in = 7;
    }
    if (addr == NULL) {
      addr = "";
      an = 0;
    }
    /* Rows of one launch come together: when (str_name, index) repeats, no lookup is needed. */
    if (prev_e && prev_epoch == grp.epoch && prev_name.len == nn && prev_index.len == in &&
        memcmp(prev_name.data, name, nn) == 0 && memcmp(prev_index.data, index, in) == 0) {
      e = prev_e;
      e->last = row;
    } else {
      if (!have_kid || prev_name.len != nn || memcmp(prev_name.data, name, nn) != 0) {
        if (hp__stack_kernel_get(p, name, nn, &kid)) {
          r = HP_ENOMEM;
          goto fail;
        }
        have_kid = 1;
        hp__buf_reset(&prev_name);
        if (hp__buf_add(&prev_name, name, nn)) {
          r = HP_ENOMEM;
          goto fail;
        }
      }
      if (hp__recent_touch(&grp, kid, index, in, row, &e, &added)) {
        r = HP_ENOMEM;
        goto fail;
      }
      hp__buf_reset(&prev_index);
      if (hp__buf_add(&prev_index, index, in)) {
        r = HP_ENOMEM;
        goto fail;
      }
      prev_e = e;
      prev_epoch = grp.epoch;
    }
    if (hp__fll(x, &rec, idx[C_SQ], "stack_sq", &sq) != 1)
      sq = 0;
    cls = frame_class(p, addr, an);
    if (cls == 0 && (e->s == NULL || sq < e->a)) {
      char buf[FRAME_MAX];
      size_t sn = hp__sanitize_frame(addr, an, buf, sizeof(buf));
      char *copy = hp__strndup(buf, sn);
      if (copy == NULL) {
        r = HP_ENOMEM;
        goto fail;
      }
      free(e->s);
      e->s = copy;
      e->a = sq;
    }
    if (hp__recent_tick(&grp, row)) {
      r = HP_ENOMEM;
      goto fail;
    }
  }

fail:
  hp__recent_finish(&grp);
  if (grp.reappeared)
    hp__pwarn(x, 0,
              "%lld launches (str_name, index) came back more than 8192 rows after their "
              "last row and were counted again; launch counts may be too high",
              grp.reappeared);
  hp__buf_free(&prev_name);
  hp__buf_free(&prev_index);
  if (r == 0 && st.err)
    r = st.err;
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Text files.                                                                                     */

/* "host leakcheck memory size 170.06 MB", "device0 leakcheck memory size 92.00 KB". Units are
 * taken as powers of 1024 (docs/summarize.md says why that is a guess). */
int hp__leak_line(hp__pctx *x, const char *s, size_t n, long line)
{
  static const char key[] = "leakcheck memory size";
  const char *k = memmem(s, n, key, sizeof(key) - 1), *scope, *q, *end = s + n, *tn;
  char num[64], *ep;
  size_t sn, len, txn;
  double v, mult = 1;

  if (k == NULL)
    return 0;
  /* The scope is the word before "leakcheck". */
  q = k;
  while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
    q--;
  scope = q;
  while (scope > s && !isspace((unsigned char)scope[-1]) && scope[-1] != ']' && scope[-1] != ':')
    scope--;
  sn = (size_t)(q - scope);
  if (sn == 0) {
    scope = "unknown";
    sn = 7;
  }
  q = k + sizeof(key) - 1;
  while (q < end && (*q == ' ' || *q == '\t' || *q == ':'))
    q++;
  len = 0;
  while (q + len < end && len + 1 < sizeof(num) &&
         (isdigit((unsigned char)q[len]) || q[len] == '.' || q[len] == ','))
    len++;
  memcpy(num, q, len);
  num[len] = '\0';
  v = strtod(num, &ep);
  tn = s;
  txn = n;
  hp__trim(&tn, &txn);
  if (len == 0 || *ep != '\0') {
    hp__pwarn(x, line, "leak-check line without a size: \"%.*s\"", (int)(txn > 80 ? 80 : txn), tn);
    return 1;
  }
  q += len;
  while (q < end && *q == ' ')
    q++;
  if (end - q >= 1) {
    char u = (char)toupper((unsigned char)*q);
    mult = u == 'K' ? 1024.0
        : u == 'M'  ? 1048576.0
        : u == 'G'  ? 1073741824.0
        : u == 'T'  ? 1099511627776.0
                    : 1.0;
  }
  /* Whole bytes: "170.06 MB" is itself rounded, so a fraction of a byte means nothing. */
  if (hp__leak_add(x->p, x->path, line, scope, sn, floor(v * mult + 0.5), tn,
                   txn > 200 ? 200 : txn))
    return HP_ENOMEM;
  x->tables |= HP__TB_LEAK;
  return 1;
}

int hp__parse_text(hp__pctx *x)
{
  hp__pmctext pt;
  const char *s;
  size_t n;
  long line;
  int r;

  memset(&pt, 0, sizeof(pt));
  while ((r = hp__csv_next_line(x->csv, &s, &n, &line)) == 1) {
    if (n >= 15 && memcmp(s, "\"ID\",\"Process ", 14) == 0) {
      /* ncu printed its CSV to stdout: the rest of the file is its. */
      hp__csv_unread_line(x->csv);
      hp__pmc_text_end(&pt);
      return hp__parse_ncu(x);
    }
    if ((r = hp__pmc_text_line(x, &pt, s, n, line)) != 0) {
      if (r < 0)
        break;
      continue;
    }
    if (n >= 9 && memmem(s, n, "leakcheck", 9) && (r = hp__leak_line(x, s, n, line)) < 0)
      break;
  }
  hp__pmc_text_end(&pt);
  return r < 0 ? r : 0;
}
