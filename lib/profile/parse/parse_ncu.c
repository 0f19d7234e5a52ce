/*
 * NVIDIA Nsight Compute `ncu --csv` output, from a --log-file or from the app's stdout:
 *
 *   - `--page details` (the default): long format, one row per (launch, metric) with
 *     "Metric Name","Metric Unit","Metric Value";
 *   - `--page raw`: wide format, one row per launch and one column per metric, the second line
 *     holding the units.
 *
 * Anything before the header line (which starts with "ID") is skipped: ==PROF== lines, the app's
 * own output. Lines after it that are not CSV rows (they do not start with a quote) are skipped
 * too, because the app may keep printing while ncu writes. Values may carry thousands separators
 * ("1,234,567.5") or be "n/a". Metrics are summed per kernel over launches; the launch duration
 * (gpu__time_duration.sum, or "Duration" on the details page) also feeds the kernel table.
 */
#include "profile/model/build.h"
#include "profile/fast/ncu_fold.h"
#include "profile/fast/ncu_split.h"
#include "profile/parse/parsers.h"
#include "profile/model/strtab.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The columns that identify a launch; on the raw page every other column is a metric. */
/* clang-format off */
static const char *const ident[] = {
    "ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
    "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit",
    "Metric Value", "Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type",
    "Estimated Speedup", "Kernel Time", "Function Name", "Demangled Name", "Mangled Name"};
/* clang-format on */

enum {
  N_ID,
  N_PID,
  N_KERNEL,
  N_BLOCK,
  N_GRID,
  N_MNAME,
  N_MUNIT,
  N_MVALUE,
  N_N
};
static const char *const nwant[] = {
    "ID",          "Process ID",  "Kernel Name|Function Name|Demangled Name",
    "Block Size",  "Grid Size",   "Metric Name",
    "Metric Unit", "Metric Value"};

static int is_ident(const char *s, size_t n)
{
  size_t i;

  hp__trim(&s, &n);
  for (i = 0; i < sizeof(ident) / sizeof(ident[0]); i++)
    if (strlen(ident[i]) == n && strncasecmp(s, ident[i], n) == 0)
      return 1;
  return n == 0;
}

static int is_duration(const char *s, size_t n)
{
  hp__trim(&s, &n);
  return (n == 8 && strncasecmp(s, "Duration", 8) == 0) ||
      (n == 22 && strncmp(s, "gpu__time_duration.sum", 22) == 0) ||
      (n == 18 && strncmp(s, "gpu__time_duration", 18) == 0);
}

/* Nanoseconds per unit; NaN for a unit that is not a time. */
static double ns_per(const char *u, size_t n)
{
  static const struct {
    const char *name;
    double ns;
  } units[] = {{"nsecond", 1},   {"ns", 1},   {"usecond", 1e3}, {"us", 1e3},
               {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9},  {"s", 1e9}};
  size_t i;

  if (u == NULL)
    return 1; /* --csv implies --print-units base: nanoseconds */
  hp__trim(&u, &n);
  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
    if (strlen(units[i].name) == n && strncasecmp(u, units[i].name, n) == 0)
      return units[i].ns;
  return NAN;
}

/* One ncu CSV being read. */
typedef struct ncu_state {
  int idx[N_N];
  int details;
  size_t ncols;
  int32_t *mid;                /* raw page: metric id per column, -1 for identity columns */
  int dur_col;                 /* raw page: the duration column, or -1 */
  char *dur_unit;              /* raw page: its unit, from the units row */
  int want_units;              /* raw page: the next row may be the units row */
  hp__recent seen;             /* launches, keyed by (ID, Process ID) */
  long skipped, first_skipped; /* lines among the rows that are not CSV */
  hp__ncu_slots slots;         /* raw page: each kernel's reference line and sums */
  long split_ix;               /* the slot whose reference the split line was compared with */
  hp__ncu_split sp;            /* splits the lines of the form ncu writes */
  int split;                   /* the record at hand came from sp */
  hp__buf kname;               /* the last row's kernel name (trimmed), when khave */
  int khave;
  uint32_t kid;   /* its ncu kernel id */
  ptrdiff_t ktid; /* its kernel time table entry, or -1 not looked up yet */
} ncu_state;

/* Maps a header record (the first, or another process's): the page, and on the raw page a metric
 * id for every column that is not an identity column. */
static int setup(hp__pctx *x, const hp__csv_rec *h, ncu_state *s)
{
  size_t i;

  /* What the old columns folded goes in before their ids go. */
  if (hp__ncu_slots_flush(&s->slots, x->p))
    return HP_ENOMEM;
  free(s->mid);
  free(s->dur_unit);
  s->mid = NULL;
  s->dur_unit = NULL;
  hp__csv_map(h, nwant, N_N, s->idx);
  s->ncols = h->n;
  s->details = s->idx[N_MNAME] >= 0 && s->idx[N_MVALUE] >= 0;
  s->dur_col = -1;
  s->want_units = !s->details;
  if (s->details)
    return 0;
  s->mid = malloc((h->n ? h->n : 1) * sizeof(*s->mid));
  if (s->mid == NULL)
    return HP_ENOMEM;
  for (i = 0; i < h->n; i++) {
    uint32_t id;
    s->mid[i] = -1;
    if (is_ident(h->f[i], h->len[i]))
      continue;
    if (hp__ncu_metric(x->p, h->f[i], h->len[i], NULL, 0, &id))
      return HP_ENOMEM;
    s->mid[i] = (int32_t)id;
    if (s->dur_col < 0 && is_duration(h->f[i], h->len[i]))
      s->dur_col = (int)i;
  }
  hp__ncu_slots_header(&s->slots, s->mid, h->n);
  return 0;
}

/* Room for the fields of a split line: one more than the header has, so that a longer row is
 * still split (and reported as the general reader's would be). Called after setup(), which may
 * have read the header out of the old arrays; nothing reads them afterwards. */
static int split_room(ncu_state *s)
{
  return hp__ncu_split_room(&s->sp, s->ncols + 1);
}

/* Counts a launch of kernel `kid` once and notes its block and grid sizes. Returns 1 for a new
 * launch, 0 for one already seen, HP_ENOMEM. */
static int launch(hp__pctx *x, ncu_state *s, const hp__csv_rec *rec, uint32_t kid, long long row,
                  hp__recent_ent **ent)
{
  hp__ncu_kernel *k = &x->p->ncu[kid];
  hp__buf key = HP__BUF_INIT;
  const char *id, *pid, *bs, *gs;
  size_t idn, pidn, bn, gn;
  char kb[64]; /* the usual key, without a malloc per row */
  int added = 1, r;

  id = hp__fld(rec, s->idx[N_ID], &idn);
  pid = hp__fld(rec, s->idx[N_PID], &pidn);
  if (id == NULL)
    idn = 0;
  if (pid == NULL)
    pidn = 0;
  if (idn + 1 + pidn <= sizeof(kb)) {
    /* memcpy must not see a NULL source even for 0 bytes (a row without the ID or PID field). */
    if (idn)
      memcpy(kb, id, idn);
    kb[idn] = '\x1f';
    if (pidn)
      memcpy(kb + idn + 1, pid, pidn);
    r = hp__recent_touch(&s->seen, 0, kb, idn + 1 + pidn, row, ent, &added);
  } else {
    r = hp__buf_add(&key, id, idn) || hp__buf_addc(&key, '\x1f') ||
        (pid && hp__buf_add(&key, pid, pidn)) ||
        hp__recent_touch(&s->seen, 0, key.data, key.len, row, ent, &added);
    hp__buf_free(&key);
  }
  if (r)
    return HP_ENOMEM;
  if (!added)
    return 0;
  k->launches++;
  bs = hp__fld(rec, s->idx[N_BLOCK], &bn);
  gs = hp__fld(rec, s->idx[N_GRID], &gn);
  if (bs) {
    hp__trim(&bs, &bn);
    if (k->block == NULL)
      k->block = hp__strndup(bs, bn);
    else if (strlen(k->block) != bn || memcmp(k->block, bs, bn) != 0)
      k->block_varies = 1;
  }
  if (gs) {
    hp__trim(&gs, &gn);
    if (k->grid == NULL)
      k->grid = hp__strndup(gs, gn);
    else if (strlen(k->grid) != gn || memcmp(k->grid, gs, gn) != 0)
      k->grid_varies = 1;
  }
  if ((bs && k->block == NULL) || (gs && k->grid == NULL))
    return HP_ENOMEM;
  return 1;
}

/* A launch's duration `v` in `unit`, into the kernel table (unless a kernel stats file beside this
 * one already gives kernel times). A unit that is not a time is warned about and skipped. */
static int add_duration(hp__pctx *x, ncu_state *s, const char *name, size_t n, double v,
                        const char *unit, size_t un, long line)
{
  double mult = ns_per(unit, un);
  hp__ttable *t = &x->p->t[HP__T_KERNEL];
  hp__tstat *st;

  if (isnan(mult)) {
    hp__pwarn(x, line, "duration unit \"%.*s\" is not a time unit; the duration is skipped",
              (int)(un > 20 ? 20 : un), unit);
    return 0;
  }
  if (!x->use_kernels)
    return 0;
  /* The row's kernel is the one kernel_id() remembered: its entry's index is kept with it. */
  if (s->ktid >= 0) {
    st = &t->st[s->ktid];
  } else {
    if (hp__ttable_get(t, name, n, &st))
      return HP_ENOMEM;
    s->ktid = st - t->st;
  }
  hp__tstat_add_trace(st, v * mult, x->file);
  x->tables |= HP__TB_KERNEL;
  return 0;
}

/* Skips to the header line (the first that starts with "ID") and leaves it unread. Returns 1, 0
 * when there is none (warned), or an HP_E* code from the reader. */
static int find_header(hp__pctx *x)
{
  const char *s;
  size_t n;
  long line;
  int r;

  for (;;) {
    r = hp__csv_next_line(x->csv, &s, &n, &line);
    if (r < 0)
      return r;
    if (r == 0) {
      hp__pwarn(x, 0, "no ncu CSV header (a line starting with \"ID\") was found");
      return 0;
    }
    if (n >= 5 && memcmp(s, "\"ID\",", 5) == 0)
      break;
  }
  hp__csv_unread_line(x->csv);
  return 1;
}

/* Points the fields of a split line that will be read (see hp__ncu_split_point): the identity
 * columns, the fields that changed since the reference row (all that raw_row parses), and every
 * field of a header or units row. */
static void split_point(ncu_state *s)
{
  hp__ncu_split *sp = &s->sp;
  int id = s->idx[N_ID];
  size_t j;

  for (j = 0; j < N_N; j++)
    hp__ncu_split_point(sp, s->idx[j]);
  if (s->want_units ||
      (id >= 0 && (size_t)id < sp->curnf && sp->len[id] == 2 && memcmp(sp->f[id], "ID", 2) == 0))
    hp__ncu_split_point_all(sp);
}

/* Kernel kid, named name[0..nn), becomes the last row's kernel (kernel_id's). 0 or HP_ENOMEM. */
static int last_kernel(ncu_state *s, const char *name, size_t nn, uint32_t kid)
{
  s->khave = 0;
  s->kname.len = 0;
  if (hp__buf_add(&s->kname, name, nn))
    return HP_ENOMEM;
  s->kid = kid;
  s->ktid = -1;
  s->khave = 1;
  return 0;
}

/* The reference line to compare a raw-page launch row with: the last row of its kernel, found by
 * the kernel name alone (a kernel not seen yet has none, and is not added here: the row may yet be
 * skipped). A kernel found becomes the last kernel (kernel_id), so that its long name is hashed
 * once for the row, not twice. Sets s->split_ix to the slot's index, -1 for none. */
static const hp__ncu_ref *pick_ref(hp__pctx *x, ncu_state *s, const char *ls, size_t ln)
{
  const char *kn;
  size_t knn;
  long kid;
  hp__ncu_slot *sl;

  s->split_ix = -1;
  if (s->details || s->want_units || s->idx[N_KERNEL] < 0 ||
      !hp__ncu_split_peek(ls, ln, (size_t)s->idx[N_KERNEL], &kn, &knn))
    return NULL;
  hp__trim(&kn, &knn);
  if (s->khave && s->kname.len == knn && memcmp(s->kname.data, kn, knn) == 0)
    kid = (long)s->kid;
  else if ((kid = hp__strtab_find(&x->p->ncu_names, kn, knn, hp__hash(kn, knn))) < 0 ||
           last_kernel(s, kn, knn, (uint32_t)kid))
    return NULL;
  if ((sl = hp__ncu_slots_find(&s->slots, (uint32_t)kid)) == NULL)
    return NULL;
  s->split_ix = kid < HP__NCU_SLOTS ? kid : HP__NCU_SLOTS;
  return &sl->ref;
}

/* The next CSV record among the rows, skipping empty lines and counting lines that are not CSV.
 * A line of the form ncu writes is split here, in the pass that found it (its fields are not
 * NUL-terminated: everything in this file reads them by length); any other line goes back to the
 * general reader, which gives the same fields for a line of that form. Returns 1, 0 at the end,
 * or an HP_E* code. */
static int next_record(hp__pctx *x, ncu_state *s, hp__csv_rec *rec)
{
  const char *ls;
  size_t ln, nf;
  long line;
  int r;

  for (;;) {
    if ((r = hp__csv_next_line(x->csv, &ls, &ln, &line)) <= 0)
      return r;
    if (ln == 0)
      continue;
    if (ls[0] == '"')
      break;
    /* ncu's own ==PROF== lines are expected; anything else is the program's output. */
    if (!(ln >= 2 && ls[0] == '=' && ls[1] == '=') && s->skipped++ == 0)
      s->first_skipped = line;
  }
  /* Below a megabyte no field can be longer than the reader's limit, which it would report. */
  s->split = ln < ((size_t)1 << 20) &&
      (nf = hp__ncu_split_line(&s->sp, pick_ref(x, s, ls, ln), ls, ln)) > 0;
  if (s->split) {
    split_point(s);
    rec->f = s->sp.f;
    rec->len = s->sp.len;
    rec->n = nf;
    rec->line = line;
    return 1;
  }
  hp__csv_unread_line(x->csv);
  return hp__csv_next(x->csv, rec);
}

/* A record that is not a launch: another header, or the raw page's units row (no ID) that gives
 * each metric its unit. Returns 1 when it was one, 0 when not, HP_ENOMEM. */
static int header_or_units(hp__pctx *x, ncu_state *s, const hp__csv_rec *rec)
{
  size_t idn, i, mn;
  const char *id = hp__fld(rec, s->idx[N_ID], &idn), *mname;
  uint32_t mid;

  if (id && idn == 2 && memcmp(id, "ID", 2) == 0) { /* another process: its columns may differ */
    if (setup(x, rec, s) || split_room(s))
      return HP_ENOMEM;
    return 1;
  }
  if (!s->want_units)
    return 0;
  s->want_units = 0;
  if (id != NULL && idn != 0)
    return 0;
  for (i = 0; i < rec->n && i < s->ncols; i++) {
    if (s->mid[i] < 0)
      continue;
    mn = hp__ncu_metric_name(x->p, (uint32_t)s->mid[i], &mname);
    if (hp__ncu_metric(x->p, mname, mn, rec->f[i], rec->len[i], &mid))
      return HP_ENOMEM;
    s->mid[i] = (int32_t)mid;
  }
  if (s->dur_col >= 0 && (size_t)s->dur_col < rec->n &&
      (s->dur_unit = hp__strndup(rec->f[s->dur_col], rec->len[s->dur_col])) == NULL)
    return HP_ENOMEM;
  return 1;
}

/* A details-page row: one metric of one launch. Returns 0, 1 when the value is not a number, or
 * HP_ENOMEM. */
static int details_row(hp__pctx *x, ncu_state *s, const hp__csv_rec *rec, uint32_t kid,
                       const char *name, size_t nn, hp__recent_ent *ent)
{
  const char *mn, *mu, *mv;
  size_t mnn, mun, mvn;
  uint32_t mid;
  double v;

  mn = hp__fld(rec, s->idx[N_MNAME], &mnn);
  mu = hp__fld(rec, s->idx[N_MUNIT], &mun);
  mv = hp__fld(rec, s->idx[N_MVALUE], &mvn);
  if (mn == NULL || mv == NULL)
    return 1;
  /* Text values ("CachePreferNone") are normal on the details page: they are not summed. */
  if (hp__parse_num(mv, mvn, &v) != 1)
    return 1;
  if (hp__ncu_metric(x->p, mn, mnn, mu, mun, &mid) || hp__ncu_add(x->p, kid, mid, v))
    return HP_ENOMEM;
  if (is_duration(mn, mnn) && !ent->flag) {
    ent->flag = 1;
    return add_duration(x, s, name, nn, v, mu, mun, rec->line);
  }
  return 0;
}

/* A raw-page row: every metric of one launch, folded (ncu_fold.h) with only the fields that
 * changed since the kernel's last row parsed; the row then becomes the kernel's reference line. */
static int raw_row(hp__pctx *x, ncu_state *s, const hp__csv_rec *rec, uint32_t kid,
                   const char *name, size_t nn)
{
  size_t width = rec->n < s->ncols ? rec->n : s->ncols;
  long ix = kid < HP__NCU_SLOTS ? (long)kid : HP__NCU_SLOTS;
  hp__ncu_slot *sl = hp__ncu_slots_get(&s->slots, kid);
  hp__ncu_split *sp = &s->sp;
  hp__ncu_chg chg, *cp = NULL;
  int d = s->dur_col, r;
  double v;

  if (sl == NULL)
    return HP_ENOMEM;
  /* The slot's reference is its fold's last row, unless it was forgotten (a row came through the
   * general reader: every field of the next line is then read). */
  if (s->split && s->split_ix == ix && sl->fold.width == width) {
    chg.f = sp->cf;
    chg.n = sp->nchg;
    chg.base = sp->cur;
    chg.lim = sp->cur + sp->curn;
    cp = &chg;
  } else if (s->split) {
    hp__ncu_split_point_all(sp);
  }
  if (hp__ncu_fold_row(&sl->fold, x->p, kid, rec, width, cp))
    return HP_ENOMEM;
  /* The duration also feeds the kernel table. */
  if (d >= 0 && hp__ncu_fold_value(&sl->fold, (size_t)d, &v) &&
      (r = add_duration(x, s, name, nn, v, s->dur_unit, s->dur_unit ? strlen(s->dur_unit) : 0,
                        rec->line)) != 0)
    return r;
  if (!s->split) {
    hp__ncu_ref_forget(&sl->ref);
    return 0;
  }
  return hp__ncu_split_keep(sp, &sl->ref);
}

/* The id of the kernel `name`, from the last row's when the name is the same (most rows are): a
 * long name is then not hashed again for every launch. */
static int kernel_id(hp__pctx *x, ncu_state *s, const char *name, size_t nn, uint32_t *kid)
{
  if (s->khave && s->kname.len == nn && memcmp(s->kname.data, name, nn) == 0) {
    *kid = s->kid;
    return 0;
  }
  s->khave = 0;
  return hp__ncu_kernel_get(x->p, name, nn, kid) || last_kernel(s, name, nn, *kid) ? HP_ENOMEM : 0;
}

/* Folds one launch row. Returns 0, 1 when the row was skipped, or HP_ENOMEM. */
static int launch_row(hp__pctx *x, ncu_state *s, const hp__csv_rec *rec)
{
  hp_profile *p = x->p;
  const char *name, *id;
  size_t nn, idn;
  long long idv, row;
  uint32_t kid;
  hp__recent_ent *ent;
  int isnew, r = 0;

  /* Newer ncu ends the details page's header with five rule columns (Rule Name ... Estimated
   * Speedup) that only its rule rows fill: metric rows stop after Metric Value. */
  if (rec->n != s->ncols &&
      !(s->details && s->idx[N_MVALUE] >= 0 && rec->n > (size_t)s->idx[N_MVALUE] &&
        rec->n < s->ncols))
    hp__check_width(x, rec, s->ncols);
  id = hp__fld(rec, s->idx[N_ID], &idn);
  if (id == NULL || hp__parse_ll(id, idn, &idv) != 1) {
    hp__pwarn(x, rec->line, "the ID column is not a number; the row is skipped");
    return 1;
  }
  name = hp__fld(rec, s->idx[N_KERNEL], &nn);
  if (name)
    hp__trim(&name, &nn);
  if (name == NULL || nn == 0) {
    hp__pwarn(x, rec->line, "no kernel name; the row is skipped");
    return 1;
  }
  if (kernel_id(x, s, name, nn, &kid))
    return HP_ENOMEM;
  row = ++p->rowseq;
  if ((isnew = launch(x, s, rec, kid, row, &ent)) < 0)
    return isnew;
  if (s->details)
    r = details_row(x, s, rec, kid, name, nn, ent);
  else if (isnew)
    r = raw_row(x, s, rec, kid, name, nn);
  if (r != 0)
    return r;
  return hp__recent_tick(&s->seen, row) ? HP_ENOMEM : 0;
}

int hp__parse_ncu(hp__pctx *x)
{
  static const char *const req[] = {"Kernel Name"};
  ncu_state s;
  hp__csv_rec rec;
  int r;

  memset(&s, 0, sizeof(s));
  hp__recent_init(&s.seen, HP__RECENT_WINDOW, NULL, NULL);
  if ((r = find_header(x)) <= 0)
    return r;
  if ((r = hp__csv_next(x->csv, &rec)) != 1)
    return r < 0 ? r : 0;
  if ((r = setup(x, &rec, &s)) != 0 || (r = split_room(&s)) != 0)
    goto fail;
  if (s.idx[N_KERNEL] < 0) {
    hp__require(x, rec.line, req, &s.idx[N_KERNEL], 1);
    goto fail;
  }
  x->tables |= HP__TB_NCU;
  while ((r = next_record(x, &s, &rec)) == 1) {
    if ((r = header_or_units(x, &s, &rec)) == 0)
      r = launch_row(x, &s, &rec);
    if (r < 0)
      break;
  }
  /* The launches folded last are added now: nothing reads the sums before the file is done. */
  if (r >= 0 && hp__ncu_slots_flush(&s.slots, x->p))
    r = HP_ENOMEM;
  if (s.skipped)
    hp_diags_add(x->diags, HP_DIAG_NOTE, x->path, s.first_skipped, 0,
                 "%ld lines among the ncu rows are not CSV (the program's own output?) and were "
                 "skipped",
                 s.skipped);

fail:
  hp__recent_finish(&s.seen);
  free(s.mid);
  hp__ncu_slots_free(&s.slots);
  hp__ncu_split_free(&s.sp);
  hp__buf_free(&s.kname);
  free(s.dur_unit);
  return r < 0 ? r : 0;
}
