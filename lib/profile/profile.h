/*
 * Library-internal declarations of the profile module: the summary's data model (lib/profile.c),
 * the per-format parsers (lib/parse_*.c) and the writers (lib/profile_out.c). Nothing in cmd/
 * includes this file; unit tests may. The design is in docs/internals/profile.md.
 *
 * Memory is bounded by the number of distinct names (kernels, APIs, counters, metrics, stack
 * frames chosen as origins), never by the number of rows: every parser streams its file through
 * one hp__csv reader and folds each row into per-name accumulators.
 */
#ifndef HPRUN_PROFILE_INTERNAL_H
#define HPRUN_PROFILE_INTERNAL_H

#include "hprun.h"
#include "util/csv.h"
#include "util/json.h"

#include <stdint.h>

/* ---------------------------------------------------------------------------------------------- */
/* String interning: byte strings to dense ids 0..n-1, in order of first appearance.              */

typedef struct hp__strtab_slot {
  uint32_t id1; /* id + 1; 0 = empty */
  uint32_t h32; /* low bits of the hash, to skip most string compares */
} hp__strtab_slot;

typedef struct hp__strtab {
  hp__strtab_slot *slots;
  size_t nslots; /* a power of two, at least twice n */
  char **s;      /* owned, NUL-terminated copies */
  size_t *len;
  size_t n, cap;
} hp__strtab;

/* A fast 64-bit hash of n bytes (8 bytes per step, multiply-xorshift mixing). */
uint64_t hp__hash(const void *p, size_t n);
/* Finds s[0..n) or adds a copy. *id is its id; returns 1 when it was added, 0 when it was there,
 * HP_ENOMEM (the table is unchanged). `h` must be hp__hash(s, n). */
int hp__strtab_intern(hp__strtab *t, const char *s, size_t n, uint64_t h, uint32_t *id);
/* Returns the id of s[0..n), or -1. */
long hp__strtab_find(const hp__strtab *t, const char *s, size_t n, uint64_t h);
void hp__strtab_free(hp__strtab *t);

/* Grows a zero-filled array of `elem`-byte items so that index `need - 1` exists. */
int hp__grow(void **p, size_t *cap, size_t need, size_t elem);

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
  HP__T_N
};

/* Finds or adds the entry for name[0..n). *out stays valid until the next add to the table. */
int hp__ttable_get(hp__ttable *t, const char *name, size_t n, hp__tstat **out);
/* One stats row: calls and total; avg/min/max are NaN when the file has no such column. */
void hp__tstat_add_stats(hp__tstat *s, long long calls, double total_ns, double avg_ns,
                         double min_ns, double max_ns);
/* One traced call or dispatch of `dur_ns`, from the file with sequence number `file`. */
void hp__tstat_add_trace(hp__tstat *s, double dur_ns, unsigned file);
void hp__ttable_free(hp__ttable *t);

/* ---------------------------------------------------------------------------------------------- */
/* A bounded set of recently seen keys (launch groups, dispatch ids). Rows of one launch or one
 * dispatch sit close together in every profiler's output, so a key untouched for `window` rows is
 * finished: it is handed to `fin` and forgotten. This keeps memory constant for any file size and
 * is exact as long as a group's rows are less than `window` rows apart
 * (docs/internals/profile.md). */

typedef struct hp__recent_ent {
  uint64_t h;   /* 0 = empty slot */
  uint32_t kid; /* the kernel the key belongs to */
  uint32_t klen;
  char *key;             /* owned */
  long long first, last; /* row numbers */
  long long a;           /* payload: stacks keep the best frame's stack_sq here */
  char *s;               /* payload: an owned string (stacks: the best user frame) */
  int flag;              /* payload: e.g. "this launch already has a duration" */
} hp__recent_ent;

typedef void (*hp__recent_fin)(void *ud, hp__recent_ent *e);

typedef struct hp__recent {
  hp__recent_ent *tab;
  size_t cap, n;
  long long window, next_sweep;
  hp__recent_fin fin; /* may be NULL */
  void *ud;
  unsigned long long epoch; /* bumped by every sweep: entry pointers from before are stale */
  uint64_t *done;           /* hashes of finished keys (bounded), to notice a key coming back */
  size_t done_cap, done_n;
  long long reappeared; /* new keys whose hash was among the finished ones */
} hp__recent;

void hp__recent_init(hp__recent *r, long long window, hp__recent_fin fin, void *ud);
/* Finds or adds (kid, key) and marks it touched at `row`. *added is 1 for a new key. The entry
 * pointer stays valid until the next touch or sweep. */
int hp__recent_touch(hp__recent *r, uint32_t kid, const char *key, size_t klen, long long row,
                     hp__recent_ent **out, int *added);
/* Finishes keys older than the window when `row` has passed the next sweep point. */
int hp__recent_tick(hp__recent *r, long long row);
/* Finishes every key (end of file) and frees everything. */
void hp__recent_finish(hp__recent *r);

/* ---------------------------------------------------------------------------------------------- */
/* The other tables.                                                                               */

#define HP__MAX_VALS 16

/* Distinct values of one field, as the article's unique_values (kept as text). */
typedef struct hp__vals {
  char *v[HP__MAX_VALS];
  size_t len[HP__MAX_VALS];
  size_t n;
  long long more; /* rows whose value was not among the kept ones */
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
} hp__ncu_kernel;

typedef struct hp__leak {
  char *file;
  long line;
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
  HP__TB_AGENT = 256
};

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

  hp__pfile *files;
  size_t nfiles, file_cap;
  size_t nignored;
  unsigned file_seq;
  long long rowseq; /* rows across files, for hp__recent windows and tie-breaks */
};

/* ---------------------------------------------------------------------------------------------- */
/* Parsing one file.                                                                               */

typedef enum {
  HP__F_UNKNOWN = 0,
  HP__F_HIPPROF_API,       /* *.hiptrace.csv */
  HP__F_HIPPROF_KERNEL,    /* *.kernel.csv, *.hipkernel.csv */
  HP__F_HIPPROF_STACK,     /* *.stack.csv or header str_name,index,stack_sq,addrname */
  HP__F_HIPPROF_PMC,       /* pmc_results_*.csv or a KernelName + grd/wgr header */
  HP__F_PMC_TEXT,          /* pmc_results_*.txt, results.txt: dispatch[N] lines */
  HP__F_TEXT,              /* *.txt, *.log, stdout: leak-check lines, ncu CSV */
  HP__F_ROCPROF_KSTATS,    /* results.stats.csv */
  HP__F_ROCPROF_HIPSTATS,  /* *.hip_stats.csv */
  HP__F_ROCPROF_HSASTATS,  /* *.hsa_stats.csv */
  HP__F_ROCPROF_COPYSTATS, /* *.copy_stats.csv */
  HP__F_ROCPROF_RESULTS,   /* results.csv: one row per dispatch */
  HP__F_V3_KSTATS,         /* *_kernel_stats.csv */
  HP__F_V3_HIPSTATS,       /* *_hip_api_stats.csv */
  HP__F_V3_HSASTATS,       /* *_hsa_api_stats.csv */
  HP__F_V3_COPYSTATS,      /* *_memory_copy_stats.csv */
  HP__F_V3_KTRACE,         /* *_kernel_trace.csv */
  HP__F_V3_COUNTERS,       /* *_counter_collection.csv */
  HP__F_V3_AGENTS,         /* *_agent_info.csv */
  HP__F_V3_HIPTRACE,       /* *_hip_api_trace.csv */
  HP__F_V3_HSATRACE,       /* *_hsa_api_trace.csv */
  HP__F_V3_COPYTRACE,      /* *_memory_copy_trace.csv */
  HP__F_NCU,               /* ncu --csv, details or raw page */
  HP__F_N
} hp__fmt;

const char *hp__fmt_name(hp__fmt f);

/* The state of one file being parsed. */
typedef struct hp__pctx {
  hp_profile *p;
  hp__csv *csv;
  const char *path;
  hp_diags *diags;
  size_t nwarn;       /* warnings given for this file */
  size_t nsuppressed; /* warnings beyond HP__MAX_FILE_WARNINGS, summarised at the end */
  unsigned file;      /* sequence number of this file */
  int use_kernels;    /* 0: a kernel stats file in the same folder already gives kernel times */
  int use_api, use_copies; /* the same for API calls and memory copies */
  unsigned tables;         /* HP__TB_* this file contributed to */
} hp__pctx;

#define HP__MAX_FILE_WARNINGS 20

/* A warning about the file being parsed: `path:line: warning: ...`. After HP__MAX_FILE_WARNINGS
 * per file they are only counted; hp__profile_add_path then adds one note with the count. */
void hp__pwarn(hp__pctx *x, long line, const char *fmt, ...) HP_PRINTF(3, 4);
/* The hp__csv warning callback that routes through hp__pwarn. */
void hp__pwarn_csv(void *ud, long line, const char *msg);

/* Field i of a record, or NULL when the column is absent (i < 0) or the row is short. */
const char *hp__fld(const hp__csv_rec *r, int i, size_t *n);
/* Reports a row whose width differs from the header's (once per row). */
void hp__check_width(hp__pctx *x, const hp__csv_rec *r, size_t ncols);
/* A numeric field: 1 parsed, 0 absent or no value, -1 not a number (reported with the column). */
int hp__fnum(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, double *out);
/* Reads a file's header record into *rec. Returns 1, or 0 after warning that the file is empty,
 * or a negative HP_E* code from the reader. */
int hp__read_header(hp__pctx *x, hp__csv_rec *rec);
int hp__fll(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, long long *out);
/* Reports missing required columns: `names[i]` with idx[i] < 0. Returns 1 if any was missing. */
int hp__require(hp__pctx *x, long line, const char *const *names, const int *idx, size_t n);

/* Adds a distinct value (trimmed). */
int hp__vals_add(hp__vals *v, const char *s, size_t n);

/* Table accessors that grow the per-name arrays alongside their string tables. */
int hp__pmc_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
int hp__pmc_counter(hp_profile *p, const char *name, size_t n, uint32_t *id);
/* Adds `v` to counter `cid` of kernel `k` (`newrow`: count this as one more row). */
int hp__pmc_add(hp_profile *p, uint32_t k, uint32_t cid, double v, int newrow);
void hp__pmc_time(hp__pmc_kernel *k, double ns);
int hp__stack_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
/* Records one finished launch of stack kernel `k` whose first user frame is `frame`. */
int hp__stack_origin(hp_profile *p, uint32_t k, const char *frame, long long first_row);
int hp__ncu_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
int hp__ncu_metric(hp_profile *p, const char *name, size_t n, const char *unit, size_t un,
                   uint32_t *id);
int hp__ncu_add(hp_profile *p, uint32_t k, uint32_t mid, double v);
/* A metric's name without its unit (metrics are keyed by name and unit): returns its length. */
size_t hp__ncu_metric_name(const hp_profile *p, uint32_t id, const char **name);
int hp__leak_add(hp_profile *p, const char *file, long line, const char *scope, size_t sn,
                 double bytes, const char *text, size_t tn);
int hp__agent_add(hp_profile *p, const char *type, const char *name, const char *product,
                  long long wave, long long cus);

/* Sanitises a stack frame as the article's sanitize_frame: trimmed, cut at " [", the part after
 * the last '/'; "unknown" when empty. Writes at most cap-1 bytes to out; returns the length. */
size_t hp__sanitize_frame(const char *s, size_t n, char *out, size_t cap);
/* 1 when a (sanitised) frame belongs to the runtime by the profile's markers. */
int hp__is_runtime_frame(const hp_profile *p, const char *s, size_t n);

/* The parsers. Each reads x->csv from its start and returns 0, or HP_ENOMEM / HP_EIO; problems
 * with the data are warnings, never failures. */
int hp__parse_stats(hp__pctx *x, int table, int skip_total);
int hp__parse_dispatch(hp__pctx *x, int feed_kernels);
/* PMC text is read line by line inside hp__parse_text; this is its state. */
typedef struct hp__pmctext {
  int init;
  int active; /* a dispatch line was seen: indented counter lines belong to it */
  uint32_t kid;
  hp__recent seen; /* dispatch ids, so replays count once */
} hp__pmctext;
/* Takes one text line: 1 if it was a dispatch or counter line, 0 if not, HP_ENOMEM. */
int hp__pmc_text_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line);
void hp__pmc_text_end(hp__pmctext *st);
int hp__parse_stack(hp__pctx *x);
int hp__parse_text(hp__pctx *x);
int hp__parse_v3_trace(hp__pctx *x, int table);
int hp__parse_v3_counters(hp__pctx *x);
int hp__parse_v3_agents(hp__pctx *x);
int hp__parse_ncu(hp__pctx *x);
/* Parses one leak-check line ("host leakcheck memory size 170.06 MB"); 1 if it was one. */
int hp__leak_line(hp__pctx *x, const char *s, size_t n, long line);

/* ---------------------------------------------------------------------------------------------- */
/* Views of the model for the writers (lib/profile/out.h and table.h hold the writers' own).      */

/* The category of one kernel name. */
const char *hp__profile_classify(const hp_profile *p, const char *name);
/* Ids of a time table's entries sorted by total time, then name (malloc'd; free() it). */
int hp__ttable_sorted(const hp__ttable *t, size_t **ids);

#endif /* HPRUN_PROFILE_INTERNAL_H */
