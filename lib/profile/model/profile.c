/*
 * The profile summary's data model (profile.h): creating and freeing an hp_profile, the kernel
 * category rules and runtime-frame markers it is configured with, and the read side the writers
 * and the public accessors use (the kernel table in sorted order, one kernel by rank or by name).
 *
 * The tables are filled by the parsers through the building API (build.c, rows.c); which parser
 * reads which file is decided in parse/parse_file.c. The writers are in profile_out.c. Design
 * notes: docs/internals/profile.md.
 */
#include "profile/model/catsets.h"
#include "profile/model/profile.h"
#include "profile/model/region.h"
#include "profile/model/san.h"
#include "util/base/buf.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Stack frames.                                                                                   */

size_t hp__sanitize_frame(const char *s, size_t n, char *out, size_t cap)
{
  const char *cut, *slash;
  size_t i;

  /* Python's str.strip(): every ASCII whitespace character. */
  while (n > 0 && isspace((unsigned char)*s)) {
    s++;
    n--;
  }
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0) {
    s = "unknown";
    n = 7;
  }
  cut = memmem(s, n, " [", 2);
  if (cut)
    n = (size_t)(cut - s);
  slash = memrchr(s, '/', n);
  if (slash) {
    n -= (size_t)(slash + 1 - s);
    s = slash + 1;
  }
  if (n >= cap)
    n = cap - 1;
  for (i = 0; i < n; i++)
    out[i] = s[i];
  out[n] = '\0';
  return n;
}

int hp__is_runtime_frame(const hp_profile *p, const char *s, size_t n)
{
  char small[512], *low = small;
  size_t i;
  int r = 0;

  if (n >= sizeof(small) && (low = malloc(n + 1)) == NULL)
    return 0;
  for (i = 0; i < n; i++)
    low[i] = (char)tolower((unsigned char)s[i]);
  low[n] = '\0';
  for (i = 0; i < p->nrt && !r; i++) {
    const char *m = p->rt[i];
    if (m[0] == '^')
      r = strncmp(low, m + 1, strlen(m + 1)) == 0;
    else
      r = memmem(low, n, m, strlen(m)) != NULL;
  }
  if (low != small)
    free(low);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Categories and runtime markers.                                                                 */

static const char *const default_runtime[] = {"^python(", "libgalaxy", "libamdhip", "libc.so",
                                              "libtorch", "libpython", "python3"};

static char *lower_dup(const char *s)
{
  char *d = hp__strdup(s), *q;

  if (d)
    for (q = d; *q; q++)
      *q = (char)tolower((unsigned char)*q);
  return d;
}

static void free_rules(hp__catrule *r, size_t n)
{
  size_t i, k;

  for (i = 0; i < n && r; i++) {
    free(r[i].name);
    for (k = 0; k < r[i].npat; k++)
      free(r[i].pat[k]);
    free(r[i].pat);
  }
  free(r);
}

/* Builds lowercased rules from (name, patterns) given either way; nothing is kept from the input.
 */
static int build_rules(hp__catrule **out, size_t n, const hp_category_rule *user,
                       const hp__catset *set)
{
  hp__catrule *r = calloc(n ? n : 1, sizeof(*r));
  size_t i, k;

  *out = NULL;
  if (r == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++) {
    const char *name = user ? user[i].name : set->rules[i].name;
    size_t np = user ? user[i].patterns.n : set->rules[i].npat;
    r[i].name = hp__strdup(name ? name : "unnamed");
    r[i].pat = calloc(np ? np : 1, sizeof(char *));
    if (r[i].name == NULL || r[i].pat == NULL)
      goto fail;
    for (k = 0; k < np; k++) {
      const char *pt = user ? user[i].patterns.v[k] : set->rules[i].pat[k];
      if ((r[i].pat[k] = lower_dup(pt ? pt : "")) == NULL)
        goto fail;
      r[i].npat++;
    }
  }
  *out = r;
  return 0;

fail:
  free_rules(r, n);
  return HP_ENOMEM;
}

/* Installs rules: the user's (`set` NULL) or a built-in set's. */
static int install_rules(hp_profile *p, const hp_category_rule *user, size_t n,
                         const hp__catset *set)
{
  hp__catrule *nr;
  int e;

  if (set)
    n = set->nrules;
  if ((e = build_rules(&nr, n, user, set)) != 0)
    return e;
  free_rules(p->cats, p->ncats);
  p->cats = nr;
  p->ncats = n;
  p->catset = set;
  return 0;
}

/* Choosing a built-in set for a profile that was given no rules of its own. The profiler says
 * which stack a program ran on: ncu and compute-sanitizer only run on NVIDIA GPUs, hipprof,
 * rocprof and rocprofv3 only on AMD and Hygon ones, so their files choose the CUDA or the ROCm
 * set. When the files do not say (no file yet, or files of both kinds), the kernel names do: the
 * set that leaves less kernel time (or fewer kernels) in "other" wins, ROCm on a tie, as hprun's
 * first users profile DCUs. The choice is made again after every file added, so it always
 * reflects everything read. */

/* 1 for a profiler of NVIDIA GPUs, 2 for one of AMD/Hygon GPUs, 0 when the format does not say. */
static int format_stack(const char *fmt)
{
  static const char *const cuda[] = {"ncu", "sanitizer", "compute-sanitizer", "nsys"};
  static const char *const rocm[] = {"hipprof", "rocprof", "pmc", "dtk"};
  size_t i;

  for (i = 0; i < sizeof(cuda) / sizeof(cuda[0]); i++)
    if (strncmp(fmt, cuda[i], strlen(cuda[i])) == 0)
      return 1;
  for (i = 0; i < sizeof(rocm) / sizeof(rocm[0]); i++)
    if (strncmp(fmt, rocm[i], strlen(rocm[i])) == 0)
      return 2;
  return 0;
}

/* Kernel time (or, without times, kernels) that `set` leaves in "other". */
static double other_share(const hp_profile *p, const hp__catset *set)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  const hp__strtab *names = t->names.n ? &t->names : &p->ncu_names;
  double other = 0;
  size_t i;

  if (names->n == 0)
    names = &p->pmc_names;
  for (i = 0; i < names->n; i++)
    if (hp__catset_match(set, names->s[i]) == NULL)
      other += names == &t->names ? t->st[i].total_ns : 1.0;
  return other;
}

int hp__profile_pick_catset(hp_profile *p)
{
  const hp__catset *cuda = hp__catset_find("cuda"), *rocm = hp__catset_find("rocm"), *pick;
  int seen[3] = {0, 0, 0};
  size_t i;

  if (!p->cat_auto)
    return 0;
  for (i = 0; i < p->nfiles; i++)
    seen[format_stack(p->files[i].format)] = 1;
  if (seen[1] != seen[2]) {
    pick = seen[1] ? cuda : rocm;
    p->cat_why = "profiler";
  } else {
    pick = other_share(p, cuda) < other_share(p, rocm) ? cuda : rocm;
    p->cat_why = "kernel names";
  }
  if (pick == p->catset)
    return 0;
  return install_rules(p, NULL, 0, pick);
}

int hp_profile_set_categories(hp_profile *p, const hp_category_rule *r, size_t n)
{
  int e;

  if (p == NULL)
    return HP_EINVAL;
  if (r == NULL || n == 0) {
    p->cat_auto = 1;
    p->catset = NULL;
    return hp__profile_pick_catset(p);
  }
  if ((e = install_rules(p, r, n, NULL)) == 0) {
    p->cat_auto = 0;
    p->cat_why = "user";
  }
  return e;
}

int hp_profile_set_category_set(hp_profile *p, const char *name)
{
  const hp__catset *set;
  int e;

  if (p == NULL || name == NULL)
    return HP_EINVAL;
  if (strcmp(name, "auto") == 0)
    return hp_profile_set_categories(p, NULL, 0);
  if ((set = hp__catset_find(name)) == NULL)
    return HP_ENOENT;
  if ((e = install_rules(p, NULL, 0, set)) == 0) {
    p->cat_auto = 0;
    p->cat_why = "user";
  }
  return e;
}

const char *hp_profile_category_set(const hp_profile *p, const char **why)
{
  if (why)
    *why = p && p->cat_why ? p->cat_why : "user";
  if (p == NULL)
    return NULL;
  return p->catset ? p->catset->name : "custom";
}

int hp_profile_set_runtime_frames(hp_profile *p, const char *const *markers, size_t n)
{
  char **nr;
  size_t i;

  if (p == NULL)
    return HP_EINVAL;
  if (markers == NULL || n == 0) {
    markers = default_runtime;
    n = sizeof(default_runtime) / sizeof(default_runtime[0]);
  }
  nr = calloc(n, sizeof(*nr));
  if (nr == NULL)
    return HP_ENOMEM;
  for (i = 0; i < n; i++) {
    if ((nr[i] = lower_dup(markers[i] ? markers[i] : "")) == NULL) {
      while (i--)
        free(nr[i]);
      free(nr);
      return HP_ENOMEM;
    }
  }
  for (i = 0; i < p->nrt; i++)
    free(p->rt[i]);
  free(p->rt);
  p->rt = nr;
  p->nrt = n;
  /* Cached verdicts were made with the old markers. */
  hp__strtab_free(&p->frame_cache);
  free(p->frame_rt);
  p->frame_rt = NULL;
  p->frame_rt_cap = 0;
  return 0;
}

/* The first rule with a pattern (lowercased by build_rules) in the name, whatever its case. */
const char *hp__profile_classify(const hp_profile *p, const char *name)
{
  size_t i, k;

  for (i = 0; i < p->ncats; i++)
    for (k = 0; k < p->cats[i].npat; k++)
      if (strcasestr(name, p->cats[i].pat[k]))
        return p->cats[i].name;
  return "other";
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation and destruction.                                                                       */

static void vals_free(hp__vals *v)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    free(v->v[i]);
  v->n = 0;
}

void hp__ttable_free(hp__ttable *t)
{
  hp__strtab_free(&t->names);
  free(t->st);
  t->st = NULL;
  t->cap = 0;
}

int hp_profile_new(hp_profile **out)
{
  hp_profile *p;

  *out = NULL;
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return HP_ENOMEM;
  if (hp_profile_set_categories(p, NULL, 0) || hp_profile_set_runtime_frames(p, NULL, 0)) {
    hp_profile_free(p);
    return HP_ENOMEM;
  }
  *out = p;
  return 0;
}

void hp_profile_free(hp_profile *p)
{
  size_t i, k;

  if (p == NULL)
    return;
  for (i = 0; i < HP__T_N; i++)
    hp__ttable_free(&p->t[i]);
  free(p->korder);
  free_rules(p->cats, p->ncats);
  for (i = 0; i < p->nrt; i++)
    free(p->rt[i]);
  free(p->rt);
  for (i = 0; i < p->stk_names.n; i++) {
    for (k = 0; k < p->stk[i].no; k++)
      free(p->stk[i].o[k].frame);
    free(p->stk[i].o);
  }
  hp__strtab_free(&p->stk_names);
  free(p->stk);
  hp__strtab_free(&p->frame_cache);
  free(p->frame_rt);
  for (i = 0; i < p->pmc_names.n; i++) {
    for (k = 0; k < HP__P_N; k++)
      vals_free(&p->pmc[i].props[k]);
    free(p->pmc[i].csum);
    free(p->pmc[i].cn);
    free(p->pmc[i].csum_c);
  }
  hp__strtab_free(&p->pmc_names);
  free(p->pmc);
  if (!p->region_borrowed)
    hp__region_free(p->region);
  hp__strtab_free(&p->counters);
  for (i = 0; i < p->ncu_names.n; i++) {
    free(p->ncu[i].block);
    free(p->ncu[i].grid);
    free(p->ncu[i].msum);
    free(p->ncu[i].mn);
    free(p->ncu[i].msum_c);
  }
  hp__strtab_free(&p->ncu_names);
  free(p->ncu);
  for (i = 0; i < p->metrics.n; i++)
    free(p->metric_unit[i]);
  hp__strtab_free(&p->metrics);
  free(p->metric_unit);
  free(p->metric_class);
  for (i = 0; i < p->nleaks; i++) {
    free(p->leaks[i].file);
    free(p->leaks[i].scope);
    free(p->leaks[i].text);
  }
  free(p->leaks);
  for (i = 0; i < p->nagents; i++) {
    free(p->agents[i].type);
    free(p->agents[i].name);
    free(p->agents[i].product);
  }
  free(p->agents);
  for (i = 0; i < p->ntl; i++)
    free(p->tl[i].file);
  free(p->tl);
  for (i = 0; i < p->nfiles; i++)
    free(p->files[i].path);
  free(p->files);
  hp__san_free(p->san);
  free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading the kernel table.                                                                       */

typedef struct sort_item {
  double total;
  const char *name;
  size_t id;
} sort_item;

static int cmp_item(const void *a, const void *b)
{
  const sort_item *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp(x->name, y->name);
}

int hp__ttable_sorted(const hp__ttable *t, size_t **ids)
{
  sort_item *it;
  size_t i, n = t->names.n;

  *ids = malloc((n ? n : 1) * sizeof(**ids));
  it = malloc((n ? n : 1) * sizeof(*it));
  if (*ids == NULL || it == NULL) {
    free(*ids);
    free(it);
    *ids = NULL;
    return HP_ENOMEM;
  }
  for (i = 0; i < n; i++) {
    it[i].total = t->st[i].total_ns;
    it[i].name = t->names.s[i];
    it[i].id = i;
  }
  qsort(it, n, sizeof(*it), cmp_item);
  for (i = 0; i < n; i++)
    (*ids)[i] = it[i].id;
  free(it);
  return 0;
}

size_t hp_profile_nfiles(const hp_profile *p)
{
  return p ? p->nfiles : 0;
}

size_t hp_profile_nkernels(const hp_profile *p)
{
  return p ? p->nkorder : 0;
}

static void fill_kernel(const hp_profile *p, size_t id, hp_kernel_stat *out)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  const hp__tstat *s = &t->st[id];
  double sum = p->ktotal;

  out->name = t->names.s[id];
  out->calls = s->calls;
  out->total_ns = s->total_ns;
  if (s->nsources == 1 && !isnan(s->avg_reported))
    out->avg_ns = s->avg_reported;
  else
    out->avg_ns = s->calls > 0 ? s->total_ns / (double)s->calls : NAN;
  out->min_ns = s->have_minmax && !s->nominmax ? s->min_ns : NAN;
  out->max_ns = s->have_minmax && !s->nominmax ? s->max_ns : NAN;
  out->percent = sum > 0 ? s->total_ns / sum * 100.0 : NAN;
}

int hp_profile_kernel(const hp_profile *p, size_t i, hp_kernel_stat *out)
{
  if (p == NULL || out == NULL)
    return HP_EINVAL;
  if (i >= p->nkorder)
    return HP_ERANGE;
  fill_kernel(p, p->korder[i], out);
  return 0;
}

int hp_profile_kernel_find(const hp_profile *p, const char *pattern, hp_kernel_stat *out)
{
  size_t i;

  if (p == NULL || pattern == NULL || out == NULL)
    return HP_EINVAL;
  for (i = 0; i < p->nkorder; i++)
    if (strcasestr(p->t[HP__T_KERNEL].names.s[p->korder[i]], pattern)) {
      fill_kernel(p, p->korder[i], out);
      return 0;
    }
  return HP_ENOENT;
}

int hp_format_parse(const char *s, hp_format *out)
{
  if (s == NULL || out == NULL)
    return HP_EINVAL;
  if (strcmp(s, "text") == 0)
    *out = HP_FMT_TEXT;
  else if (strcmp(s, "json") == 0)
    *out = HP_FMT_JSON;
  else if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
    *out = HP_FMT_MD;
  else if (strcmp(s, "csv") == 0)
    *out = HP_FMT_CSV;
  else
    return HP_EINVAL;
  return 0;
}
