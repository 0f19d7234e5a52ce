/*
 * Hygon DTK hipprof output that is not in rocprof's layouts (those are in parse_rocprof.c):
 *
 *   - the --kernel-stack CSV `str_name,index,stack_sq,addrname`: one row per frame of each launch's
 *     host call stack, summarised as the article's print_stack_summary does (launches per kernel,
 *     and the most common first user frame after the runtime's frames);
 *   - text files (stdout.txt, hipprof.txt, pmc_results_<pid>.txt, ...): --memory-usage leak-check
 *     lines are read here; PMC dispatch lines go to parse_pmctext.c, and an ncu CSV that went to
 *     stdout goes to parse_ncu.c.
 */
#include "profile/model/build.h"
#include "profile/fast/fastrows.h"
#include "profile/parse/parsers.h"
#include "profile/parse/sanitizer.h"
#include "profile/fast/stack_fast.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/sys/cpu.h"

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

enum {
  C_NAME,
  C_INDEX,
  C_SQ,
  C_ADDR,
  C_N
};

/* The frames last seen at each stack depth (stack_sq modulo FRAME_MEMO), FRAME_WAYS of them per
 * depth: a launch's rows repeat the frames of the launches before it, so comparing the raw text
 * with the ones remembered spares the hash, the lookup and the sanitising that frame_class and
 * stack_frame would do again. Several per depth, because kernels launched from different places
 * take turns (a PyTorch step's kernels), and one per depth would miss at every turn. */
#define FRAME_MEMO 8
#define FRAME_WAYS 4

typedef struct frame_memo {
  hp__buf raw;   /* the frame as the file has it */
  hp__buf clean; /* sanitised, for a user frame */
  int cls;       /* frame_class's answer; -1 = nothing remembered */
  int fid;       /* for a user frame: its id in stack_state.frames + 1; 0 = not kept there */
} frame_memo;

/* The kept user frames, interned: a launch keeps its best frame as an id (the entry's `flag`,
 * id + 1) instead of its own copy, so that a launch whose frame the memo knows costs no
 * allocation. Past this many distinct frames, launches keep copies (the entry's `s`). */
#define FRAMES_MAX 65536

/* The warning a file whose launches came back after the window ends with. */
#define STACK_BACK_MSG                                                                             \
  "%lld launches (str_name, index) came back more than 8192 rows after their last row and were "   \
  "counted again; launch counts may be too high"

/* One stack file being read. */
typedef struct stack_state {
  hp_profile *p;
  int err; /* set by stack_fin, which cannot return one */
  int idx[C_N];
  size_t ncols;
  hp__recent grp; /* the launches, keyed by (kernel, index) */
  /* The previous row's launch: rows of one launch come together, so when (str_name, index)
   * repeats, no lookup is needed. */
  hp__buf prev_name, prev_index;
  hp__recent_ent *prev_e;
  unsigned long long prev_epoch;
  uint32_t kid;
  int have_kid;
  hp__fastrows fr; /* the fast path's arrays */
  frame_memo memo[FRAME_MEMO * FRAME_WAYS];
  unsigned char memo_next[FRAME_MEMO]; /* the way each depth replaces next */
  hp__strtab frames;                   /* the kept user frames (FRAMES_MAX) */
  /* The block loop (stack_block): the prefix `"str_name",index,` of the last row it folded, when
   * that was the last row folded at all (else empty), and that row as read. */
  hp__buf pre;
  hp__stack_line ln;
} stack_state;

/* A launch is finished: count it, with its first user frame (or "runtime-only"). */
static void stack_fin(void *ud, hp__recent_ent *e)
{
  stack_state *st = ud;

  const char *frame = e->s ? e->s : e->flag ? st->frames.s[e->flag - 1] : "runtime-only";

  if (hp__stack_origin(st->p, e->kid, frame, e->first))
    st->err = HP_ENOMEM;
}

/* Field `col` of the row, or `dflt` (the article's default for a short row). */
static const char *stack_field(const stack_state *st, const hp__csv_rec *rec, int col,
                               const char *dflt, size_t *n)
{
  const char *s = hp__fld(rec, st->idx[col], n);

  if (s == NULL) {
    s = dflt;
    *n = strlen(dflt);
  }
  return s;
}

/* b = s[0, n): one copy while it fits, without hp__buf_add's calls. 0 or HP_ENOMEM. */
static int buf_set(hp__buf *b, const char *s, size_t n)
{
  if (n < b->cap) {
    memcpy(b->data, s, n);
    b->data[n] = '\0';
    b->len = n;
    return 0;
  }
  hp__buf_reset(b);
  return hp__buf_add(b, s, n) ? HP_ENOMEM : 0;
}

/* Finds or adds the launch (name, index) and marks it touched at `row`. */
static int stack_launch(stack_state *st, const char *name, size_t nn, const char *index, size_t in,
                        long long row, hp__recent_ent **e)
{
  int added;

  if (st->prev_e && st->prev_epoch == st->grp.epoch && st->prev_name.len == nn &&
      st->prev_index.len == in && memcmp(st->prev_name.data, name, nn) == 0 &&
      memcmp(st->prev_index.data, index, in) == 0) {
    *e = st->prev_e;
    (*e)->last = row;
    return 0;
  }
  if (!st->have_kid || st->prev_name.len != nn || memcmp(st->prev_name.data, name, nn) != 0) {
    if (hp__stack_kernel_get(st->p, name, nn, &st->kid))
      return HP_ENOMEM;
    st->have_kid = 1;
    if (buf_set(&st->prev_name, name, nn))
      return HP_ENOMEM;
  }
  if (hp__recent_touch(&st->grp, st->kid, index, in, row, e, &added))
    return HP_ENOMEM;
  if (buf_set(&st->prev_index, index, in))
    return HP_ENOMEM;
  st->prev_e = *e;
  st->prev_epoch = st->grp.epoch;
  return 0;
}

/* frame_class for addr[0..an) at depth sq, with the memo entry that holds it (for a user frame:
 * its sanitised text and id) in *out. */
static int memo_class(stack_state *st, long long sq, const char *addr, size_t an,
                      const frame_memo **out)
{
  char buf[FRAME_MAX];
  size_t d = (size_t)((unsigned long long)sq % FRAME_MEMO), w, sn;
  frame_memo *m = &st->memo[d * FRAME_WAYS];

  for (w = 0; w < FRAME_WAYS; w++, m++) {
    *out = m;
    if (m->cls >= 0 && m->raw.len == an && memcmp(m->raw.data, addr, an) == 0)
      return m->cls;
  }
  m = &st->memo[d * FRAME_WAYS + st->memo_next[d]];
  st->memo_next[d] = (unsigned char)((st->memo_next[d] + 1) % FRAME_WAYS);
  *out = m;
  m->cls = -1;
  hp__buf_reset(&m->raw);
  hp__buf_reset(&m->clean);
  if (hp__buf_add(&m->raw, addr, an))
    return HP_ENOMEM;
  if (frame_class(st->p, addr, an) != 0) {
    m->cls = 1; /* not a user frame: which kind does not matter here */
    return 1;
  }
  sn = hp__sanitize_frame(addr, an, buf, sizeof(buf));
  if (hp__buf_add(&m->clean, buf, sn))
    return HP_ENOMEM;
  m->fid = 0;
  if (st->frames.n < FRAMES_MAX) {
    uint32_t id;
    if (hp__strtab_intern(&st->frames, buf, sn, hp__hash(buf, sn), &id) < 0)
      return HP_ENOMEM;
    m->fid = (int)id + 1;
  }
  m->cls = 0;
  return 0;
}

/* The row's stack_sq (0 when it is not a number). `nums`: the row's numbers from the fast path, or
 * NULL for a row from hp__csv_next. */
static long long stack_sq(hp__pctx *x, const stack_state *st, const hp__csv_rec *rec,
                          const hp__fastrows *nums)
{
  long long sq = 0;
  int col = st->idx[C_SQ];

  if (nums && nums->ok[col])
    return (long long)nums->val[col];
  if (hp__fll(x, rec, col, "stack_sq", &sq) != 1)
    sq = 0;
  return sq;
}

/* Keeps the row's frame as the launch's first user frame when it is a user frame nearer the
 * kernel launch (a lower stack_sq) than the one kept so far. */
static int frame_keep(stack_state *st, hp__recent_ent *e, long long sq, const char *addr, size_t an)
{
  const frame_memo *m;
  int cls;
  char *copy;

  /* The cheap test first: a frame deeper than the kept one cannot replace it, whatever its class,
   * so most rows of a launch need no look at their frame. */
  if ((e->s != NULL || e->flag) && sq >= e->a)
    return 0;
  if ((cls = memo_class(st, sq, addr, an, &m)) != 0)
    return cls < 0 ? cls : 0;
  free(e->s);
  e->s = NULL;
  e->flag = m->fid;
  if (m->fid == 0) {
    if ((copy = hp__strndup(m->clean.data ? m->clean.data : "", m->clean.len)) == NULL)
      return HP_ENOMEM;
    e->s = copy;
  }
  e->a = sq;
  return 0;
}

static int stack_frame(hp__pctx *x, stack_state *st, const hp__csv_rec *rec, hp__recent_ent *e,
                       const hp__fastrows *nums)
{
  const char *addr;
  size_t an;

  addr = stack_field(st, rec, C_ADDR, "", &an);
  return frame_keep(st, e, stack_sq(x, st, rec, nums), addr, an);
}

/* Folds one frame row into its launch. */
static int stack_row(hp__pctx *x, stack_state *st, const hp__csv_rec *rec, const hp__fastrows *nums)
{
  const char *name, *index;
  size_t nn, in;
  long long row;
  hp__recent_ent *e;

  if (rec->n != st->ncols)
    hp__check_width(x, rec, st->ncols);
  name = stack_field(st, rec, C_NAME, "unknown", &nn);
  index = stack_field(st, rec, C_INDEX, "unknown", &in);
  row = ++st->p->rowseq;
  if (stack_launch(st, name, nn, index, in, row, &e) || stack_frame(x, st, rec, e, nums) ||
      hp__recent_tick(&st->grp, row))
    return HP_ENOMEM;
  return 0;
}

/* Folds a row the block loop read (k: the row reader's answer, hp__stack_reader) as stack_row
 * folds the same row from the record reader; k == 1 says it is the last folded row's launch. */
static int block_row(hp__pctx *x, stack_state *st, const hp__stack_line *ln, int k)
{
  hp__recent_ent *e;
  long long row;

  row = ++st->p->rowseq;
  if (k == 1 && st->prev_e && st->prev_epoch == st->grp.epoch) {
    e = st->prev_e; /* what stack_launch finds for the same name and index */
    e->last = row;
  } else if (stack_launch(st, ln->name, ln->nn, ln->index, ln->in, row, &e)) {
    return HP_ENOMEM;
  }
  /* frame_keep's first test, here: most rows end at it. */
  if (!((e->s != NULL || e->flag) && ln->sq >= e->a) && frame_keep(st, e, ln->sq, ln->addr, ln->an))
    return HP_ENOMEM;
  return row >= st->grp.next_sweep && hp__recent_tick(&st->grp, row) ? HP_ENOMEM : 0;
}

/* The block loop (docs/internals/profile.md, "Kernel stacks: the block loop"): the rows of the
 * reader's span of whole lines that the row reader (hp__stack_reader) takes, folded one after the
 * other. It stops at the first line it does not take, which the record reader reads next.
 * 0 or HP_ENOMEM. */
static int stack_block(hp__pctx *x, stack_state *st, hp__stack_read_fn rd)
{
  const char *s, *p, *end, *pre = st->pre.data;
  size_t n, plen = st->pre.len;
  long line, nl = 0;
  int k, r = 0;

  if (!hp__csv_lines(x->csv, &s, &n, &line))
    return 0;
  for (p = s, end = s + n; p < end; p += st->ln.len, nl++) {
    if ((k = rd(p, end, pre, plen, &st->ln)) == 0)
      break;
    if (k == 2) { /* the prefix is compared where it is, and kept when the span ends */
      pre = p;
      plen = st->ln.pre;
    }
    if ((r = block_row(x, st, &st->ln, k)) != 0)
      break;
  }
  if (r == 0 && pre != st->pre.data && buf_set(&st->pre, pre, plen))
    r = HP_ENOMEM;
  hp__csv_take_lines(x->csv, (size_t)(p - s), nl);
  return r;
}

int hp__parse_stack(hp__pctx *x)
{
  static const char *const want[] = {"str_name", "index", "stack_sq", "addrname"};
  stack_state st;
  hp__csv_rec rec;
  const hp__fastrows *nums;
  size_t i;
  hp__stack_read_fn rd = hp__stack_reader(hp__cpu_avx2());
  int r, block;

  memset(&st, 0, sizeof(st));
  for (i = 0; i < FRAME_MEMO * FRAME_WAYS; i++)
    st.memo[i].cls = -1;
  st.p = x->p;
  hp__recent_init(&st.grp, HP__RECENT_WINDOW, stack_fin, &st);
  if ((r = hp__read_header(x, &rec)) <= 0)
    return r;
  hp__csv_map(&rec, want, C_N, st.idx);
  if (hp__require(x, rec.line, want, st.idx, C_N))
    return 0;
  st.ncols = rec.n;
  x->tables |= HP__TB_STACK;
  if (hp__fastrows_init(&st.fr, st.ncols) == 0) {
    st.fr.kind[st.idx[C_INDEX]] = HP__CSV_NUM;
    st.fr.kind[st.idx[C_SQ]] = HP__CSV_NUM;
  } else {
    hp__fastrows_free(&st.fr); /* no fast path: every row through hp__csv_next */
  }
  /* The block loop reads the columns in the file's order: str_name,index,stack_sq,addrname. */
  block = st.ncols == C_N && st.idx[C_NAME] == 0 && st.idx[C_INDEX] == 1 && st.idx[C_SQ] == 2 &&
      st.idx[C_ADDR] == 3;
  for (;;) {
    if (block && (r = stack_block(x, &st, rd)) != 0)
      break;
    if ((r = hp__fastrows_next(x, &st.fr, &rec, &nums)) != 1)
      break;
    hp__buf_reset(&st.pre); /* a row the block loop did not fold: the next one compares afresh */
    if ((r = stack_row(x, &st, &rec, nums)) != 0)
      break;
  }
  hp__recent_finish(&st.grp);
  if (st.grp.reappeared)
    hp__pwarn(x, 0, STACK_BACK_MSG, st.grp.reappeared);
  hp__buf_free(&st.prev_name);
  hp__buf_free(&st.prev_index);
  hp__buf_free(&st.pre);
  hp__fastrows_free(&st.fr);
  for (i = 0; i < FRAME_MEMO * FRAME_WAYS; i++) {
    hp__buf_free(&st.memo[i].raw);
    hp__buf_free(&st.memo[i].clean);
  }
  hp__strtab_free(&st.frames);
  if (r == 0 && st.err)
    r = st.err;
  return r < 0 ? r : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Text files.                                                                                     */

/* A leak-check line, "host leakcheck memory size 170.06 MB" or "device0 leakcheck memory size
 * 92.00 KB": 1 if it was one, 0 if not, HP_ENOMEM. Units are taken as powers of 1024
 * (docs/summarize.md says why that is a guess). */
static int leak_line(hp__pctx *x, const char *s, size_t n, long line)
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
  hp__santext san;
  hp__console con = {-1, {-1, -1, -1, -1}};
  const char *s;
  size_t n;
  long line;
  int r;

  memset(&pt, 0, sizeof(pt));
  memset(&san, 0, sizeof(san));
  while ((r = hp__csv_next_line(x->csv, &s, &n, &line)) == 1) {
    if (n >= 15 && memcmp(s, "\"ID\",\"Process ", 14) == 0) {
      /* ncu printed its CSV to stdout: the rest of the file is its. */
      hp__csv_unread_line(x->csv);
      hp__pmc_text_end(&pt);
      if ((r = hp__san_end(x, &san)) != 0)
        return r;
      return hp__parse_ncu(x);
    }
    if (n >= 9 && s[0] == '=' && (r = hp__san_line(x, &san, s, n, line)) != 0) {
      if (r < 0)
        break;
      continue;
    }
    if ((r = hp__console_line(x, &con, s, n, line)) != 0) {
      if (r < 0)
        break;
      continue;
    }
    if ((r = hp__pmc_text_line(x, &pt, s, n, line)) != 0) {
      if (r < 0)
        break;
      continue;
    }
    if (n >= 9 && memmem(s, n, "leakcheck", 9) && (r = leak_line(x, s, n, line)) < 0)
      break;
  }
  hp__pmc_text_end(&pt);
  if (hp__san_end(x, &san) && r >= 0)
    r = HP_ENOMEM;
  return r < 0 ? r : 0;
}
