/*
 * PMC text, as rocprof writes results.txt and hipprof writes pmc_results_<pid>.txt:
 *
 *   dispatch[3], gpu-id(0), ..., grd(1048576), wgr(256), ..., kernel-name("vector_add"),
 *   time(1000,2000,3000,4000)
 *     SQ_WAVES (4096)
 *     shared memory bank conflict: 0
 *
 * A dispatch line names the kernel, its resources and its time; the indented lines under it are
 * its counters (or, in hipprof's wording, resources given as `label: value`). hp__parse_text
 * (parse_hipprof.c) reads text files line by line and hands every line here first.
 *
 * DTK 26.04 hipprof writes another layout (seen in a real file: tests/fixtures/real/hipprof/):
 * one block per dispatch, opened by the kernel's mangled name, then `label  value` lines whose
 * unit, if any, sits in brackets after the number, and a blank line:
 *
 *   kernel-name:"_Z31flash_fwd_kernel_16x64_prefetch..."
 *    kernel dispatch index                     0
 *    work group size                           256
 *    kernel time                               0.143125(s)
 *    L2 cache hit rate                         98.461029(%)
 *
 * Its resources go where the other layout's do, `kernel time` is the dispatch's time, the
 * identifiers (gpu, queue, process, thread, signal) are skipped, and every other line is a
 * counter named with its unit (`L2 cache hit rate (%)`), so values in different units never mix.
 */
#include "profile/model/build.h"
#include "profile/parse/parsers.h"
#include "util/csv/csv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* hipprof's full-name text labels (DTK manual as quoted in notes) for the resource fields. */
static const struct {
  const char *label;
  int prop;
} text_props[] = {
    {"grd", HP__P_GRID},
    {"grid size", HP__P_GRID},
    {"wgr", HP__P_WG},
    {"wave_size", HP__P_WAVE},
    {"arch_vgpr", HP__P_AVGPR},
    {"vgpr", HP__P_AVGPR},
    {"accum_vgpr", HP__P_ACCVGPR},
    {"sgpr", HP__P_SGPR},
    {"lds", HP__P_LDS},
    {"scr", HP__P_SCRATCH},
    {"work group size", HP__P_WG},
    {"shared memory size", HP__P_LDS},
    {"scratch size", HP__P_SCRATCH},
    {"vgpr count", HP__P_AVGPR},
    {"sgpr count", HP__P_SGPR},
    {"shared memory bank conflict", HP__P_LDSBANK},
    {"SQ_LDS_BANK_CONFLICT", HP__P_LDSBANK},
};

static int text_prop(const char *s, size_t n)
{
  size_t i;

  for (i = 0; i < sizeof(text_props) / sizeof(text_props[0]); i++)
    if (strlen(text_props[i].label) == n && strncasecmp(s, text_props[i].label, n) == 0)
      return text_props[i].prop;
  return -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Dispatch lines.                                                                                 */

/* One `key(value)` item of a dispatch line, starting at *pp; advances *pp past it. The value of
 * kernel-name is quoted and may hold parentheses and commas. Returns 0 at the end of the line. */
static int next_item(const char **pp, const char *end, const char **k, size_t *kn, const char **v,
                     size_t *vn)
{
  const char *p = *pp, *open, *close;

  while (p < end && (*p == ',' || *p == ' ' || *p == '\t'))
    p++;
  if (p >= end)
    return 0;
  open = memchr(p, '(', (size_t)(end - p));
  if (open == NULL)
    return 0;
  *k = p;
  *kn = (size_t)(open - p);
  if (open + 1 < end && open[1] == '"') {
    const char *q = open + 2;
    close = NULL;
    while (q < end && (q = memchr(q, '"', (size_t)(end - q))) != NULL) {
      if (q + 1 < end && q[1] == ')') {
        close = q + 1;
        break;
      }
      q++;
    }
    if (close == NULL)
      return 0;
    *v = open + 2;
    *vn = (size_t)(close - 1 - (open + 2));
  } else {
    close = memchr(open, ')', (size_t)(end - open));
    if (close == NULL)
      return 0;
    *v = open + 1;
    *vn = (size_t)(close - open - 1);
  }
  *pp = close + 1;
  return 1;
}

/* What one dispatch line says; the strings point into the line. */
typedef struct dispatch_items {
  const char *name;
  size_t namelen;
  const char *props[HP__P_N];
  size_t propn[HP__P_N];
  long long begin, end;
  int have_time;
} dispatch_items;

/* time(dispatch,begin,end,complete): the begin and end timestamps. */
static void read_time(hp__pctx *x, const char *v, size_t vn, dispatch_items *it, long line)
{
  const char *ve = v + vn, *c1 = memchr(v, ',', vn);
  const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(ve - c1 - 1)) : NULL;
  const char *c3 = c2 ? memchr(c2 + 1, ',', (size_t)(ve - c2 - 1)) : NULL;

  if (c1 && c2 && hp__parse_ll(c1 + 1, (size_t)(c2 - c1 - 1), &it->begin) == 1 &&
      hp__parse_ll(c2 + 1, (size_t)((c3 ? c3 : ve) - c2 - 1), &it->end) == 1)
    it->have_time = 1;
  else
    hp__pwarn(x, line, "time(...) does not hold four timestamps; kernel time skipped");
}

/* Reads the items after `dispatch[N]` (from q to end) into *it. */
static void read_items(hp__pctx *x, const char *q, const char *end, dispatch_items *it, long line)
{
  const char *k, *v;
  size_t kn, vn;
  int prop;

  memset(it, 0, sizeof(*it));
  while (next_item(&q, end, &k, &kn, &v, &vn)) {
    hp__trim(&k, &kn);
    if (kn == 11 && memcmp(k, "kernel-name", 11) == 0) {
      it->name = v;
      it->namelen = vn;
    } else if (kn == 4 && memcmp(k, "time", 4) == 0) {
      read_time(x, v, vn, it, line);
    } else if ((prop = text_prop(k, kn)) >= 0) {
      it->props[prop] = v;
      it->propn[prop] = vn;
    }
  }
}

/* A `dispatch[N], ...` line: counts the dispatch (once, however often it was replayed) and makes
 * its kernel the one the counter lines below belong to. Returns 1 or HP_ENOMEM. */
static int dispatch_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  hp_profile *p = x->p;
  const char *close = memchr(s + 9, ']', n - 9);
  dispatch_items it;
  hp__recent_ent *ent;
  hp__pmc_kernel *pk;
  uint32_t kid;
  size_t i;
  int added = 1;

  if (close == NULL) {
    hp__pwarn(x, line, "dispatch line without ']'; skipped");
    st->active = 0;
    return 1;
  }
  read_items(x, close + 1, s + n, &it, line);
  if (it.name == NULL || it.namelen == 0) {
    hp__pwarn(x, line, "dispatch line without kernel-name(\"...\"); skipped");
    st->active = 0;
    return 1;
  }
  if (hp__pmc_kernel_get(p, it.name, it.namelen, &kid) ||
      hp__recent_touch(&st->seen, 0, s + 9, (size_t)(close - s - 9), ++p->rowseq, &ent, &added))
    return HP_ENOMEM;
  pk = &p->pmc[kid];
  pk->records++;
  pk->dispatches += added;
  for (i = 0; i < HP__P_N; i++)
    if (it.props[i] && hp__vals_add(&pk->props[i], it.props[i], it.propn[i]))
      return HP_ENOMEM;
  if (it.have_time && it.end >= it.begin)
    hp__pmc_time(pk, hp__span_ns(it.begin, it.end));
  st->active = 1;
  st->kid = kid;
  x->tables |= HP__TB_PMC;
  return hp__recent_tick(&st->seen, p->rowseq) ? HP_ENOMEM : 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Counter lines.                                                                                  */

/* Splits "  NAME (value)" or "  label: value" into name and value, both trimmed and the value
 * without a trailing '%'. Returns 0 when the line is neither or has no name. */
static int split_counter(const char *s, size_t n, const char **name, size_t *nn, const char **val,
                         size_t *vn)
{
  const char *end = s + n, *open = NULL, *q;

  for (q = end; q > s; q--)
    if (q[-1] == '(') {
      open = q - 1;
      break;
    }
  *name = s;
  if (open && end[-1] == ')') {
    *nn = (size_t)(open - s);
    *val = open + 1;
    *vn = (size_t)(end - 1 - *val);
  } else if ((q = memchr(s, ':', n)) != NULL) {
    *nn = (size_t)(q - s);
    *val = q + 1;
    *vn = (size_t)(end - *val);
  } else {
    return 0;
  }
  hp__trim(name, nn);
  hp__trim(val, vn);
  if (*nn == 0)
    return 0;
  if (*vn > 0 && (*val)[*vn - 1] == '%')
    (*vn)--;
  return 1;
}

/* The value of label lab[0..ln) of the dispatch's kernel, in both layouts: a resource's joins
 * its distinct values (the bank conflicts are a counter too), a number goes to *v. `what` leads
 * the warning about a value that is not one. Returns 1 with a counter's value in *v, 0 when
 * there is none, HP_ENOMEM. */
static int label_value(hp__pctx *x, hp__pmctext *st, const char *what, const char *lab, size_t ln,
                       const char *val, size_t vn, long line, double *v)
{
  int prop = text_prop(lab, ln), pr;

  if (prop >= 0 && hp__vals_add(&x->p->pmc[st->kid].props[prop], val, vn))
    return HP_ENOMEM;
  if (prop >= 0 && prop != HP__P_LDSBANK)
    return 0;
  if ((pr = hp__parse_num(val, vn, v)) < 0)
    hp__pwarn(x, line, "%s'%.*s': \"%.*s\" is not a number; skipped", what, (int)ln, lab,
              (int)(vn > 40 ? 40 : vn), val);
  return pr > 0;
}

/* An indented line under a dispatch line: a resource or a counter of its kernel. Returns 1 when
 * it was one, 0 when not, HP_ENOMEM. */
static int counter_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  hp_profile *p = x->p;
  const char *name, *val;
  size_t nn, vn;
  double v;
  uint32_t cid;
  int k;

  if (!split_counter(s, n, &name, &nn, &val, &vn))
    return 0;
  if ((k = label_value(x, st, "counter ", name, nn, val, vn, line, &v)) <= 0)
    return k < 0 ? k : 1;
  if (hp__pmc_counter(p, name, nn, &cid) || hp__pmc_add(p, st->kid, cid, v, 1))
    return HP_ENOMEM;
  return 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* The DTK 26.04 layout.                                                                           */

/* Labels that identify a dispatch rather than measure it. */
static const char *const dtk_ids[] = {"gpu id",     "dispatch queue id", "dispatch queue index",
                                      "process id", "thread id",         "signal handle"};

/* `kernel-name:"NAME"`: a new dispatch of kernel NAME; the lines below are its values. */
static int dtk_kernel_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  const char *name = s + 13;
  size_t len = n - 13;
  hp__pmc_kernel *pk;
  uint32_t kid;

  while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\t' || name[len - 1] == '\r'))
    len--;
  if (len < 2 || name[len - 1] != '"') {
    hp__pwarn(x, line, "kernel-name:\"...\" without its closing quote; the dispatch is skipped");
    st->active = 0;
    return 1;
  }
  len--;
  if (len == 0) {
    hp__pwarn(x, line, "empty kernel-name; the dispatch is skipped");
    st->active = 0;
    return 1;
  }
  if (hp__pmc_kernel_get(x->p, name, len, &kid))
    return HP_ENOMEM;
  pk = &x->p->pmc[kid];
  pk->records++;
  pk->dispatches++;
  st->active = 2;
  st->kid = kid;
  x->tables |= HP__TB_PMC;
  return 1;
}

/* Splits " label    value(unit)" into the label, the number and the unit (empty when none). The
 * value is the last word: DTK's values never hold spaces, its labels do. Returns 0 when the line
 * has no label or no value. */
static int dtk_split(const char *s, size_t n, const char **lab, size_t *ln, const char **num,
                     size_t *nn, const char **unit, size_t *un)
{
  const char *b = s, *e = s + n, *v;

  while (b < e && (*b == ' ' || *b == '\t'))
    b++;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  for (v = e; v > b && v[-1] != ' ' && v[-1] != '\t'; v--)
    ;
  if (v == b || v == e)
    return 0;
  *lab = b;
  *ln = (size_t)(v - b);
  hp__trim(lab, ln);
  *num = v;
  *nn = (size_t)(e - v);
  *unit = e;
  *un = 0;
  if (e[-1] == ')') {
    const char *open = memchr(v, '(', (size_t)(e - v));
    if (open) {
      *nn = (size_t)(open - v);
      *unit = open + 1;
      *un = (size_t)(e - 1 - *unit);
    }
  }
  return *ln > 0;
}

/* A dispatch's time in its unit (DTK writes seconds), in nanoseconds; NaN for an unknown unit. */
static double dtk_time_ns(double v, const char *u, size_t un)
{
  static const struct {
    const char *unit;
    double ns;
  } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}, {"", 1e9}};
  size_t i;

  for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
    if (strlen(units[i].unit) == un && strncasecmp(u, units[i].unit, un) == 0)
      return v * units[i].ns;
  return NAN;
}

/* The dispatch index: a replayed dispatch (an index seen before) is a record, not a dispatch. */
static int dtk_index(hp__pctx *x, hp__pmctext *st, const char *v, size_t vn)
{
  hp__recent_ent *ent;
  int added = 1;

  if (hp__recent_touch(&st->seen, 0, v, vn, ++x->p->rowseq, &ent, &added))
    return HP_ENOMEM;
  if (!added)
    x->p->pmc[st->kid].dispatches--;
  return hp__recent_tick(&st->seen, x->p->rowseq) ? HP_ENOMEM : 0;
}

/* One ` label  value(unit)` line of a DTK block. Returns 1 or HP_ENOMEM. */
static int dtk_value_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  hp_profile *p = x->p;
  const char *lab, *num, *unit;
  size_t ln, nn, un, i;
  char cname[256];
  double v;
  uint32_t cid;
  int k;

  if (!dtk_split(s, n, &lab, &ln, &num, &nn, &unit, &un))
    return 1;
  for (i = 0; i < sizeof(dtk_ids) / sizeof(dtk_ids[0]); i++)
    if (strlen(dtk_ids[i]) == ln && strncasecmp(lab, dtk_ids[i], ln) == 0)
      return 1;
  if (ln == 21 && strncasecmp(lab, "kernel dispatch index", 21) == 0)
    return dtk_index(x, st, num, nn) ? HP_ENOMEM : 1;
  if ((k = label_value(x, st, "", lab, ln, num, nn, line, &v)) <= 0)
    return k < 0 ? k : 1;
  if (ln == 11 && strncasecmp(lab, "kernel time", 11) == 0) {
    double ns = dtk_time_ns(v, unit, un);
    if (isnan(ns))
      hp__pwarn(x, line, "kernel time in an unknown unit '%.*s'; skipped", (int)un, unit);
    else
      hp__pmc_time(&p->pmc[st->kid], ns);
    return 1;
  }
  if (un)
    snprintf(cname, sizeof(cname), "%.*s (%.*s)", (int)(ln > 200 ? 200 : ln), lab,
             (int)(un > 40 ? 40 : un), unit);
  else
    snprintf(cname, sizeof(cname), "%.*s", (int)(ln > 200 ? 200 : ln), lab);
  if (hp__pmc_counter(p, cname, strlen(cname), &cid) || hp__pmc_add(p, st->kid, cid, v, 1))
    return HP_ENOMEM;
  return 1;
}

int hp__pmc_text_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line)
{
  if (!st->init) {
    hp__recent_init(&st->seen, HP__RECENT_WINDOW, NULL, NULL);
    st->init = 1;
  }
  if (n > 9 && memcmp(s, "dispatch[", 9) == 0)
    return dispatch_line(x, st, s, n, line);
  if (n > 13 && memcmp(s, "kernel-name:\"", 13) == 0)
    return dtk_kernel_line(x, st, s, n, line);
  if (st->active == 2 && n > 0 && (s[0] == ' ' || s[0] == '\t'))
    return dtk_value_line(x, st, s, n, line);
  if (st->active && n > 0 && (s[0] == ' ' || s[0] == '\t'))
    return counter_line(x, st, s, n, line);
  if (n > 0)
    st->active = 0;
  return 0;
}

void hp__pmc_text_end(hp__pmctext *st)
{
  if (st->init)
    hp__recent_finish(&st->seen);
  st->init = 0;
}
