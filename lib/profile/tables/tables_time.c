/*
 * The time tables (HIP API, HSA API, memory copies, kernels) and the pattern-based kernel
 * categories: one column list for the four time tables, one for the categories. Rows are sorted
 * by total time; everything derived (average, percent, category) is computed when a cell is
 * fetched, in O(1), so a table costs one sort of its distinct names. Last, the hint for a profile
 * whose `other` category is large: its largest kernels and a `categories:` snippet for them.
 */
#include "profile/model/build.h"
#include "profile/tables/out.h"
#include "profile/tables/table.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static double table_sum(const hp__ttable *t)
{
  double sum = 0;
  size_t i;

  for (i = 0; i < t->names.n; i++)
    sum += t->st[i].total_ns;
  return sum;
}

/* ---------------------------------------------------------------------------------------------- */
/* The time tables. The kernels table has one more column (the category): it is the last of the
 * list, and the other tables stop one column short.                                              */

enum {
  T_NAME,
  T_CALLS,
  T_TOTAL,
  T_AVG,
  T_MIN,
  T_MAX,
  T_PERCENT,
  T_CATEGORY
};

#define AT HP__C_AT
#define JC (HP__IN_JSON | HP__IN_CSV)
#define JT (HP__IN_JSON | HP__IN_TEXT)
#define NUM HP__V_NUM
#define R HP__C_RIGHT

static const hp__col time_cols[] = {
    {"name", NULL, NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME | HP__C_KNAME, T_NAME, 0, NULL, NULL},
    {"calls", NULL, NULL, HP__V_INT, HP__IN_ALL, R, T_CALLS, 0, NULL, NULL},
    {"total_ns", NULL, NULL, NUM, JC, 0, T_TOTAL, 0, NULL, NULL},
    {"total_ms", NULL, NULL, NUM, JT, R, T_TOTAL, 1e6, "%.6f", NULL},
    {"avg_ns", NULL, NULL, NUM, JC, 0, T_AVG, 0, NULL, NULL},
    {"average_us", NULL, NULL, NUM, JT, R, T_AVG, 1e3, "%.3f", NULL},
    {"min_ns", NULL, NULL, NUM, JC, 0, T_MIN, 0, NULL, NULL},
    {"max_ns", NULL, NULL, NUM, JC, 0, T_MAX, 0, NULL, NULL},
    {"percent", NULL, NULL, NUM, HP__IN_ALL, R, T_PERCENT, 0, "%.3f", NULL},
    /* min/max only where the profiler gave them (rocprofv3 stats, traces). */
    {"min_us", NULL, NULL, NUM, HP__IN_TEXT, R | HP__C_SPARSE, T_MIN, 1e3, "%.3f", NULL},
    {"max_us", NULL, NULL, NUM, HP__IN_TEXT, R | HP__C_SPARSE, T_MAX, 1e3, "%.3f", NULL},
    {"category", NULL, NULL, HP__V_STR, JC, 0, T_CATEGORY, 0, NULL, NULL},
};
#define NTIME_COLS (sizeof(time_cols) / sizeof(time_cols[0]))

static int time_open(hp__rows *r, int which)
{
  const hp__ttable *t = &r->p->t[which];

  r->src = t;
  r->total = t->names.n;
  r->sum = table_sum(t);
  return hp__ttable_sorted(t, &r->id);
}

static int time_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__ttable *t = r->src;
  const hp__tstat *s = &t->st[id];
  int minmax = s->have_minmax && !s->nominmax;

  switch (field) {
  case T_NAME: hp__cell_setstr(c, t->names.s[id]); break;
  case T_CALLS: hp__cell_setint(c, s->calls); break;
  case T_TOTAL: hp__cell_setnum(c, s->total_ns); break;
  case T_AVG:
    /* The profiler's own average while one stats row is the only source (hipprof floors it). */
    if (s->nsources == 1 && !isnan(s->avg_reported))
      hp__cell_setnum(c, s->avg_reported);
    else
      hp__cell_setnum(c, s->calls > 0 ? s->total_ns / (double)s->calls : NAN);
    break;
  case T_MIN: hp__cell_setnum(c, minmax ? s->min_ns : NAN); break;
  case T_MAX: hp__cell_setnum(c, minmax ? s->max_ns : NAN); break;
  case T_PERCENT: hp__cell_setnum(c, r->sum > 0 ? s->total_ns / r->sum * 100.0 : NAN); break;
  case T_CATEGORY: hp__cell_setstr(c, hp__profile_classify(r->p, t->names.s[id])); break;
  }
  return 0;
}

#define TIME_TABLE(KEY, TITLE, WHICH, BIT, NCOLS)                                                  \
  {                                                                                                \
    .key = KEY, .title = TITLE, .cols = time_cols, .ncols = NCOLS,                                 \
    .flags = HP__TF_TOP | HP__TF_COUNT, .bit = BIT, .arg = WHICH, .open = time_open,               \
    .get = time_get                                                                                \
  }

/* One table takes HIP and CUDA runtime and driver calls (ROCm's Kineto traces put hip* calls in
 * the cuda_runtime category): its heading says which it holds, by the calls' names. */
static const char *api_title(const hp_profile *p)
{
  const hp__strtab *n = &p->t[HP__T_API].names;
  size_t i, hip = 0, cu = 0;

  for (i = 0; i < n->n; i++) {
    hip += strncmp(n->s[i], "hip", 3) == 0;
    cu += strncmp(n->s[i], "cu", 2) == 0;
  }
  if (cu == 0)
    return "HIP API summary";
  return hip == 0 ? "CUDA API summary" : "Runtime API summary (HIP and CUDA)";
}

const hp__table hp__tab_api = {
    .key = "api",
    .title = "HIP API summary",
    .title_of = api_title,
    .cols = time_cols,
    .ncols = NTIME_COLS - 1,
    .flags = HP__TF_TOP | HP__TF_COUNT,
    .bit = HP__TB_API,
    .arg = HP__T_API,
    .open = time_open,
    .get = time_get,
};
const hp__table hp__tab_hsa =
    TIME_TABLE("hsa_api", "HSA API summary", HP__T_HSA, HP__TB_HSA, NTIME_COLS - 1);
const hp__table hp__tab_copies =
    TIME_TABLE("copies", "Memory copy summary", HP__T_COPY, HP__TB_COPY, NTIME_COLS - 1);
const hp__table hp__tab_kernels =
    TIME_TABLE("kernels", "Kernel summary", HP__T_KERNEL, HP__TB_KERNEL, NTIME_COLS);
const hp__table hp__tab_cpu_ops =
    TIME_TABLE("cpu_ops", "CPU op summary (inclusive)", HP__T_CPU, HP__TB_CPU, NTIME_COLS - 1);

/* ---------------------------------------------------------------------------------------------- */
/* The Kineto traces' own timelines, one row per trace.                                            */

#define TL_AT(M) HP__AT(hp__timeline, M)

static const hp__col timeline_cols[] = {
    {"file", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, TL_AT(file), 0, NULL, NULL},
    {"span_ns", NULL, NULL, NUM, JC, AT, TL_AT(span_ns), 0, NULL, NULL},
    {"span_ms", NULL, NULL, NUM, HP__IN_TEXT, AT | R, TL_AT(span_ns), 1e6, "%.3f", NULL},
    {"kernel_busy_ns", NULL, NULL, NUM, JC, AT, TL_AT(busy_ns), 0, NULL, NULL},
    {"busy_percent", NULL, "GPU busy %", NUM, HP__IN_ALL, AT | R, TL_AT(busy_pct), 0, "%.2f", NULL},
    {"kernels", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, TL_AT(kernels), 0, NULL, NULL},
    {"steps", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, TL_AT(steps), 0, NULL, NULL},
    {"kernels_per_step", NULL, NULL, NUM, HP__IN_ALL, AT | R, TL_AT(kernels_per_step), 0, "%.1f",
     NULL},
    {"launches_per_step", NULL, NULL, NUM, HP__IN_ALL, AT | R, TL_AT(launches_per_step), 0, "%.1f",
     NULL},
};

static int timeline_open(hp__rows *r, int arg)
{
  r->src = r->p->tl;
  r->total = r->p->ntl;
  return 0;
}

const hp__table hp__tab_timeline = {
    .key = "timeline",
    .title = "Trace timeline (Kineto)",
    HP__COLS(timeline_cols),
    .bit = HP__TB_TIMELINE,
    .size = sizeof(hp__timeline),
    .open = timeline_open,
};

/* ---------------------------------------------------------------------------------------------- */
/* Categories.                                                                                     */

int hp__profile_categories(const hp_profile *p, hp__catstat **out, size_t *n)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  hp__catstat *c;
  size_t i, k, m = 0, nc = p->ncats + 1;
  double sum = table_sum(t);

  *out = NULL;
  *n = 0;
  c = calloc(nc, sizeof(*c));
  if (c == NULL)
    return HP_ENOMEM;
  for (i = 0; i < p->ncats; i++)
    c[i].name = p->cats[i].name;
  c[p->ncats].name = "other";
  for (i = 0; i < t->names.n; i++) {
    const char *cat = hp__profile_classify(p, t->names.s[i]);
    for (k = 0; k < nc; k++)
      if (c[k].name == cat || (k == p->ncats && strcmp(cat, "other") == 0))
        break;
    if (k == nc)
      k = p->ncats;
    c[k].calls = hp__calls_add(c[k].calls, t->st[i].calls);
    c[k].total_ns += t->st[i].total_ns;
    c[k].percent = 1; /* marks a category that has kernels */
  }
  for (i = 0; i < nc; i++)
    if (c[i].percent != 0) {
      c[m] = c[i];
      c[m].percent = sum > 0 ? c[m].total_ns / sum * 100.0 : NAN;
      m++;
    }
  /* Sorted by time (a stable insertion sort keeps the rules' order for ties). */
  for (i = 1; i < m; i++) {
    hp__catstat tmp = c[i];
    for (k = i; k > 0 && c[k - 1].total_ns < tmp.total_ns; k--)
      c[k] = c[k - 1];
    c[k] = tmp;
  }
  *out = c;
  *n = m;
  return 0;
}

/* The time tables' first columns, with the percent, as members of a category's totals. */
#define CAT_AT(M) HP__AT(hp__catstat, M)

static const hp__col cat_cols[] = {
    {"name", NULL, "category", HP__V_STR, HP__IN_ALL, AT, CAT_AT(name), 0, NULL, NULL},
    {"calls", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R, CAT_AT(calls), 0, NULL, NULL},
    {"total_ns", NULL, NULL, NUM, JC, AT, CAT_AT(total_ns), 0, NULL, NULL},
    {"total_ms", NULL, NULL, NUM, JT, AT | R, CAT_AT(total_ns), 1e6, "%.6f", NULL},
    {"percent", NULL, NULL, NUM, HP__IN_ALL, AT | R, CAT_AT(percent), 0, "%.3f", NULL},
};

static int cat_open(hp__rows *r, int arg)
{
  hp__catstat *c;
  int rc = hp__profile_categories(r->p, &c, &r->total);

  r->src = r->own = c;
  return rc;
}

const hp__table hp__tab_categories = {
    .key = "categories",
    .title = "Pattern-based kernel categories",
    HP__COLS(cat_cols),
    .size = sizeof(hp__catstat),
    .open = cat_open,
};

/* ---------------------------------------------------------------------------------------------- */
/* The hint when `other` holds much of the kernel time.                                          */

#define HINT_PERCENT 10.0 /* `other` above this share of kernel time gets the hint */
#define HINT_KERNELS 5
#define HINT_PATTERN_MAX 120

/* Where a kernel's parameter list starts: the first '(' outside template arguments that is not
 * a namespace's "(anonymous namespace)"; the name's end when it has none (nsys shortens names). */
static size_t params_at(const char *name)
{
  static const char anon[] = "(anonymous namespace)";
  size_t i, depth = 0;

  for (i = 0; name[i]; i++) {
    if (name[i] == '<')
      depth++;
    else if (name[i] == '>' && depth)
      depth--;
    else if (name[i] == '(' && strncmp(name + i, anon, sizeof(anon) - 1) == 0)
      i += sizeof(anon) - 2;
    else if (name[i] == '(' && depth == 0)
      break;
  }
  return i;
}

/* A rule's pattern for a kernel: its function's own name, without the return type (which may be
 * a template such as std::enable_if<...>::type), the template arguments and the parameters, so
 * that it matches every instantiation. A name too short to tell kernels apart (`kernel`,
 * `Kernel2`) keeps its first template argument, else its last namespace; what is still shorter
 * than 4 characters gives way to the whole name. At most HINT_PATTERN_MAX bytes from *at. */
static size_t kernel_pattern(const char *name, const char **at)
{
  size_t e = params_at(name), t = e, s, depth = 0, k;

  if (e > 0 && name[e - 1] == '>') /* back to the template's '<' */
    for (t = e; t-- > 0;) {
      depth += name[t] == '>';
      if (name[t] == '<' && --depth == 0)
        break;
    }
  if (t > e)
    t = e;
  for (s = t; s > 0 && (isalnum((unsigned char)name[s - 1]) || name[s - 1] == '_'); s--)
    ;
  k = t;
  if (t - s < 8 && t < e) /* with the first template argument */
    for (k = t + 1; k < e && name[k] != ',' && name[k] != '>' && name[k] != '<'; k++)
      ;
  else if (t - s < 8 && s >= 3 && name[s - 1] == ':' && name[s - 2] == ':')
    for (s -= 2; s > 0 && (isalnum((unsigned char)name[s - 1]) || name[s - 1] == '_'); s--)
      ;
  if (k - s < 4) {
    s = 0;
    k = strlen(name);
  }
  *at = name + s;
  return k - s < HINT_PATTERN_MAX ? k - s : HINT_PATTERN_MAX;
}

/* s (n bytes) as a double-quoted YAML scalar; control characters become spaces. */
static void yaml_quoted(hp__buf *b, const char *s, size_t n)
{
  size_t i;

  hp__buf_addc(b, '"');
  for (i = 0; i < n; i++) {
    if (s[i] == '"' || s[i] == '\\')
      hp__buf_addc(b, '\\');
    hp__buf_addc(b, (unsigned char)s[i] < 0x20 ? ' ' : s[i]);
  }
  hp__buf_addc(b, '"');
}

/* The `categories:` snippet: the rules in use, then `name` with the patterns. */
static void hint_yaml(hp__buf *y, const hp_profile *p, const char *name, const char **pat,
                      const size_t *plen, size_t n)
{
  size_t i, k;

  hp__buf_adds(y, "categories:\n");
  for (i = 0; i <= p->ncats; i++) {
    size_t np = i < p->ncats ? p->cats[i].npat : n;
    hp__buf_adds(y, "  - {name: ");
    yaml_quoted(y, i < p->ncats ? p->cats[i].name : name,
                strlen(i < p->ncats ? p->cats[i].name : name));
    hp__buf_adds(y, ", patterns: [");
    for (k = 0; k < np; k++) {
      const char *s = i < p->ncats ? p->cats[i].pat[k] : pat[k];
      hp__buf_adds(y, k ? ", " : "");
      yaml_quoted(y, s, i < p->ncats ? strlen(s) : plen[k]);
    }
    hp__buf_adds(y, "]}\n");
  }
}

int hp__profile_other_hint(const hp_profile *p, char **head, char **yaml)
{
  const char *pat[HINT_KERNELS];
  size_t plen[HINT_KERNELS], i, k, n = 0, m = 0;
  char name[16] = "custom";
  hp__buf h = HP__BUF_INIT, y = HP__BUF_INIT;
  hp__catstat *c = NULL;
  double other = 0;
  hp_kernel_stat ks;
  int r;

  *head = *yaml = NULL;
  if ((r = hp__profile_categories(p, &c, &n)) != 0)
    return r;
  for (i = 0; i < n; i++)
    if (strcmp(c[i].name, "other") == 0)
      other = c[i].percent;
  free(c);
  if (!(other > HINT_PERCENT))
    return 0;
  hp__buf_printf(&h, "`other` holds %.1f%% of kernel time; its largest kernels:", other);
  for (i = 0, n = 0; i < hp_profile_nkernels(p) && n < HINT_KERNELS; i++) {
    if (hp_profile_kernel(p, i, &ks) != 0 || strcmp(hp__profile_classify(p, ks.name), "other"))
      continue;
    plen[m] = kernel_pattern(ks.name, &pat[m]);
    hp__buf_printf(&h, "%s `%.*s` (%.1f%%)", n++ ? "," : "", (int)plen[m], pat[m], ks.percent);
    for (k = 0; k < m && !(plen[k] == plen[m] && strncasecmp(pat[k], pat[m], plen[m]) == 0); k++)
      ;
    m += k == m; /* each pattern once */
  }
  /* A name no rule in use has, so that the snippet loads. */
  for (k = 2; k < 100; k++) {
    for (i = 0; i < p->ncats && strcmp(p->cats[i].name, name) != 0; i++)
      ;
    if (i == p->ncats)
      break;
    snprintf(name, sizeof(name), "custom%zu", k);
  }
  hp__buf_printf(&h,
                 ". To name them, replace the plan's `categories:` with this (the rules in "
                 "use, and `%s` for them):",
                 name);
  hint_yaml(&y, p, name, pat, plen, m);
  if ((r = hp__buf_error(&h)) != 0 || (r = hp__buf_error(&y)) != 0) {
    hp__buf_free(&h);
    hp__buf_free(&y);
    return r;
  }
  *head = hp__buf_steal(&h);
  *yaml = hp__buf_steal(&y);
  return 0;
}
