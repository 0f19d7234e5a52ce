/*
 * Library-internal declarations of the profile module's data model: the tables every parser fills
 * (through the building API in profile/model/build.h) and every writer reads.
 * lib/profile/model/profile.c owns their lifecycle, the category rules and the runtime-frame
 * markers; the writers are in lib/profile/tables/profile_out.c. Nothing in cmd/ includes this file;
 * unit tests may. The design is in docs/internals/profile.md.
 *
 * Memory is bounded by the number of distinct names (kernels, APIs, counters, metrics, stack
 * frames chosen as origins), never by the number of rows: every parser streams its file through
 * one hp__csv reader and folds each row into per-name accumulators. An hp_profile owns every
 * string and array reachable from it; hp_profile_free releases them all.
 */
#ifndef HPRUN_PROFILE_INTERNAL_H
#define HPRUN_PROFILE_INTERNAL_H

#include "hprun.h"
#include "profile/model/strtab.h"
#include "util/csv/csv.h"
#include "util/json/json.h"

#include <stdint.h>

/* ---------------------------------------------------------------------------------------------- */
/* Time tables: API calls, memory copies and kernels, by name.                                     */

typedef struct hp__tstat {
  long long calls;
  double total_ns;
  double min_ns, max_ns; /* meaningful only when nominmax == 0 */
  double avg_reported;   /* the profiler's own AverageNs while one stats row is the only source */
  int nsources;          /* stats rows and trace files merged into this entry */
  int nominmax;          /* contributions that had no min/max */
  int have_minmax;       /* min_ns/max_ns hold at least one value */
  unsigned last_file;    /* the trace file that contributed last (to count sources) */
  double total_c;        /* merge.c: the compensation of total_ns while files are merged */
} hp__tstat;

typedef struct hp__ttable {
  hp__strtab names;
  hp__tstat *st; /* by name id */
  size_t cap;
} hp__ttable;

enum {
  HP__T_API,
  HP__T_HSA,
  HP__T_COPY,
  HP__T_KERNEL,
  HP__T_CPU, /* PyTorch's CPU ops (Kineto traces), inclusive times */
  HP__T_N
};

/* Frees a table's names and entries and leaves it empty. */
void hp__ttable_free(hp__ttable *t);

/* ---------------------------------------------------------------------------------------------- */
/* The other tables.                                                                               */

#define HP__MAX_VALS 16

/* Distinct values of one field, as the article's unique_values (kept as text): the HP__MAX_VALS
 * smallest ones (numbers by value before other text, see hp__vals_add), each with its row count,
 * and a count of the rows with other values. Keeping the smallest rather than the first makes the
 * result the same whatever order the rows come in, so per-file lists merge exactly (merge.c). */
typedef struct hp__vals {
  char *v[HP__MAX_VALS];
  size_t len[HP__MAX_VALS];
  size_t n;
  long long more;              /* rows whose value was not among the kept ones */
  long long cnt[HP__MAX_VALS]; /* rows with v[i] */
  double key[HP__MAX_VALS];    /* v[i] as a number; NaN when it is not one */
} hp__vals;

enum {
  HP__P_GRID,
  HP__P_WG,
  HP__P_WAVE,
  HP__P_AVGPR,
  HP__P_ACCVGPR,
  HP__P_SGPR,
  HP__P_LDS,
  HP__P_SCRATCH,
  HP__P_LDSBANK,
  HP__P_N
};

typedef struct hp__pmc_kernel {
  long long records;    /* rows (one per replay of a dispatch) */
  long long dispatches; /* distinct dispatch ids */
  hp__vals props[HP__P_N];
  long long tn; /* rows with EndNs-BeginNs */
  double tsum, tmin, tmax;
  double *csum;  /* by counter id, summed over [i] instances and rows */
  long long *cn; /* rows that had the counter */
  size_t ncap;
  double tsum_c, *csum_c; /* merge.c: compensations of tsum and csum[] while files are merged */
  size_t c_cap;           /* csum_c's capacity */
} hp__pmc_kernel;

typedef struct hp__origin {
  char *frame;     /* owned */
  long long n;     /* launches with this first user frame */
  long long first; /* row of the first such launch: ties go to the earliest */
} hp__origin;

typedef struct hp__stack_kernel {
  long long launches;
  hp__origin *o;
  size_t no, ocap;
} hp__stack_kernel;

typedef struct hp__ncu_kernel {
  long long launches;
  char *block, *grid; /* first seen, e.g. "(256, 1, 1)" */
  int block_varies, grid_varies;
  double *msum; /* by metric id */
  long long *mn;
  size_t ncap;
  double *msum_c; /* merge.c: compensations of msum[] while files are merged */
  size_t c_cap;   /* msum_c's capacity */
} hp__ncu_kernel;

typedef struct hp__leak {
  char *file;
  long long line;
  char *scope; /* "host", "device0", ... */
  double bytes;
  char *text; /* the line as printed */
} hp__leak;

typedef struct hp__agent {
  char *type, *name, *product;
  long long wave_size, cu_count; /* -1 unknown */
} hp__agent;

/* The table bits a file contributed to (files[].tables in the JSON). */
enum {
  HP__TB_API = 1,
  HP__TB_HSA = 2,
  HP__TB_COPY = 4,
  HP__TB_KERNEL = 8,
  HP__TB_STACK = 16,
  HP__TB_PMC = 32,
  HP__TB_NCU = 64,
  HP__TB_LEAK = 128,
  HP__TB_AGENT = 256,
  HP__TB_SAN = 512, /* compute-sanitizer reports (profile/model/san.h) */
  HP__TB_CPU = 1024,
  HP__TB_TIMELINE = 2048
};

/* One Kineto trace's own timeline (docs/summarize.md, "PyTorch traces"): the timed span (the
 * ProfilerStep#N annotations' when the trace has them, else all its events'), the union of its
 * kernel intervals inside it, and the kernels that run and kernel-launch calls made inside the
 * steps. */
typedef struct hp__timeline {
  char *file;
  double span_ns, busy_ns, busy_pct;
  long long kernels, steps, launches, step_kernels;
  double launches_per_step, kernels_per_step; /* NaN without steps */
} hp__timeline;

typedef struct hp__pfile {
  char *path;
  const char *format; /* static name, see hp__fmt_name */
  unsigned tables;
} hp__pfile;

typedef struct hp__catrule {
  char *name;
  char **pat; /* lowercased */
  size_t npat;
} hp__catrule;

struct hp_profile {
  hp__ttable t[HP__T_N];
  size_t *korder; /* kernel ids sorted by total time, rebuilt after each add_path */
  size_t nkorder;
  double ktotal; /* sum of every kernel's total_ns, for percentages */

  hp__catrule *cats;
  size_t ncats;
  char **rt; /* runtime-frame markers, lowercased; a leading '^' anchors */
  size_t nrt;

  hp__strtab stk_names;
  hp__stack_kernel *stk;
  size_t stk_cap;
  hp__strtab frame_cache; /* raw addrname -> runtime or not (frame_rt) */
  unsigned char *frame_rt;
  size_t frame_rt_cap;

  hp__strtab pmc_names;
  hp__pmc_kernel *pmc;
  size_t pmc_cap;
  hp__strtab counters;

  hp__strtab ncu_names;
  hp__ncu_kernel *ncu;
  size_t ncu_cap;
  hp__strtab metrics; /* "name\x1funit": see hp__ncu_metric_name */
  char **metric_unit; /* by metric id; may be NULL */
  size_t metric_unit_cap;

  hp__leak *leaks;
  size_t nleaks, leak_cap;
  long long leaks_dropped;
  hp__agent *agents;
  size_t nagents, agent_cap;

  hp__timeline *tl; /* one per Kineto trace, in file order */
  size_t ntl, tl_cap;
  hp__pfile *files;
  size_t nfiles, file_cap;
  size_t nignored; /* files looked at but not recognised as profiler output */
  unsigned file_seq;
  long long rowseq; /* rows across files, for hp__recent windows and tie-breaks */

  const struct hp__catset *catset; /* the built-in category set in use; NULL: the user's rules */
  int cat_auto;                    /* the set is chosen by hp__profile_pick_catset */
  unsigned char *metric_class;     /* by metric id: HP__MC_* (ncu columns that are constants) */
  size_t metric_class_cap;
  const char *cat_why; /* static: "profiler", "kernel names" or "user" */
  struct hp__san *san; /* compute-sanitizer reports; NULL when none (profile/model/san.h) */
  /* First kernel start and last kernel end over the traces with timestamps (totals.c). */
  long long span_first, span_last;
  int have_span;
  /* app.region (profile/model/region.h): owned, or borrowed from the profile a file is read for.
   * The parsers filter kernel-trace dispatches only when region_filter is set. */
  struct hp__region *region;
  int region_borrowed, region_filter;
};

/* What an ncu column is: a measured metric, a per-launch constant (launch__*, profiler__*), or a
 * property of the device (device__attribute_*, nvlink__*, ...), shown once and never summed as a
 * metric. */
enum {
  HP__MC_METRIC,
  HP__MC_LAUNCH,
  HP__MC_DEVICE
};
int hp__ncu_metric_class(const char *name, size_t n);

/* A metric's name without its unit (metrics are keyed by name and unit): returns its length. */
size_t hp__ncu_metric_name(const hp_profile *p, uint32_t id, const char **name);

/* Sanitises a stack frame as the article's sanitize_frame: trimmed, cut at " [", the part after
 * the last '/'; "unknown" when empty. Writes at most cap-1 bytes to out; returns the length. */
size_t hp__sanitize_frame(const char *s, size_t n, char *out, size_t cap);
/* 1 when a (sanitised) frame belongs to the runtime by the profile's markers. */
int hp__is_runtime_frame(const hp_profile *p, const char *s, size_t n);

/* ---------------------------------------------------------------------------------------------- */
/* Views of the model for the writers (profile/tables/out.h and table.h hold the writers' own).   */

/* In automatic mode, chooses the category set from the files and kernels read so far (catsets.c);
 * otherwise does nothing. 0 or HP_ENOMEM. */
int hp__profile_pick_catset(hp_profile *p);

/* The category of one kernel name. */
const char *hp__profile_classify(const hp_profile *p, const char *name);
/* Ids of a time table's entries sorted by total time, then name (malloc'd; free() it). */
int hp__ttable_sorted(const hp__ttable *t, size_t **ids);

#endif /* HPRUN_PROFILE_INTERNAL_H */
