/*
 * The profile-building API the parsers use (lib/profile/model/build.c, lib/profile/model/rows.c):
 * finding or adding a name's accumulators in the tables of profile/model/profile.h and adding to
 * them, and the state of one file being parsed, with its capped warnings and its field and number
 * readers.
 *
 * Parsers include this header (and util headers) only; they never see how files are found
 * (lib/profile/scan.c) or which parser gets which file (lib/profile/parse/parse_file.c). Every
 * function that adds copies what it keeps, so the caller's strings stay the caller's. An HP_ENOMEM
 * leaves the profile consistent: hp_profile_free still releases everything in it.
 */
#ifndef HPRUN_PROFILE_BUILD_H
#define HPRUN_PROFILE_BUILD_H

#include "hprun.h"
#include "profile/model/profile.h"
#include "profile/model/recent.h"
#include "util/csv/csv.h"

#include <stdint.h>

/* ---------------------------------------------------------------------------------------------- */
/* Tables (lib/profile/model/build.c).                                                            */

/* Finds or adds the entry for name[0..n). *out stays valid until the next add to the table. */
int hp__ttable_get(hp__ttable *t, const char *name, size_t n, hp__tstat **out);
/* One stats row: calls and total; avg/min/max are NaN when the file has no such column. */
void hp__tstat_add_stats(hp__tstat *s, long long calls, double total_ns, double avg_ns,
                         double min_ns, double max_ns);
/* a + b, held at LLONG_MAX or LLONG_MIN where the true sum is beyond them: a call count summed over
 * rows or kernels saturates rather than wrapping (docs/summarize.md, "Calls saturate"). */
long long hp__calls_add(long long a, long long b);
/* One traced call or dispatch of `dur_ns`, from the file with sequence number `file`. */
void hp__tstat_add_trace(hp__tstat *s, double dur_ns, unsigned file);
/* The HP__TB_* bit of time table `table` (an HP__T_* value). */
unsigned hp__table_bit(int table);

/* Adds one row's value (trimmed; empty is no value) to the distinct values. */
int hp__vals_add(hp__vals *v, const char *s, size_t n);
/* The same for `rows` rows with that value (merge.c adds a file's kept values this way). */
int hp__vals_addn(hp__vals *v, const char *s, size_t n, long long rows);

/* Table accessors that grow the per-name arrays alongside their string tables. */
int hp__pmc_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
int hp__pmc_counter(hp_profile *p, const char *name, size_t n, uint32_t *id);
/* Adds `v` to counter `cid` of kernel `k` (`newrow`: count this as one more row). */
int hp__pmc_add(hp_profile *p, uint32_t k, uint32_t cid, double v, int newrow);
void hp__pmc_time(hp__pmc_kernel *k, double ns);
/* One kernel dispatch's begin and end timestamps (ns), for the profiled span (totals.c). */
void hp__kspan_add(hp_profile *p, long long begin, long long end);
int hp__stack_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
/* Records one finished launch of stack kernel `k` whose first user frame is `frame`. */
int hp__stack_origin(hp_profile *p, uint32_t k, const char *frame, long long first_row);
int hp__ncu_kernel_get(hp_profile *p, const char *name, size_t n, uint32_t *id);
int hp__ncu_metric(hp_profile *p, const char *name, size_t n, const char *unit, size_t un,
                   uint32_t *id);
int hp__ncu_add(hp_profile *p, uint32_t k, uint32_t mid, double v);
/* Makes room in kernel k's sums for metric id mid (zero-filled, as hp__ncu_add would). */
int hp__ncu_room(hp_profile *p, uint32_t k, uint32_t mid);
int hp__leak_add(hp_profile *p, const char *file, long long line, const char *scope, size_t sn,
                 double bytes, const char *text, size_t tn);
/* Appends a copy of one trace's timeline row (its file is copied too). */
int hp__timeline_add(hp_profile *p, const hp__timeline *row);
int hp__agent_add(hp_profile *p, const char *type, const char *name, const char *product,
                  long long wave, long long cus);

/* Records a file that was read, as `format` (a static name) with the HP__TB_* bits `tables`. */
int hp__profile_add_file(hp_profile *p, const char *path, const char *format, unsigned tables);
/* Sorts the kernel table and sums its time, after files were added (hp_profile_kernel reads it). */
int hp__profile_sort_kernels(hp_profile *p);

/* ---------------------------------------------------------------------------------------------- */
/* One file being parsed (lib/profile/model/rows.c).                                              */

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
  /* One range of a split file (lib/profile/merge/chunk.c, docs/internals/merge.md). The PMC parser
   * starts its set of dispatch ids from ids_in (the earlier ranges' ids; NULL: none), and when
   * ids_keep is set hands its own set back in ids_out (then the caller's, to free), with
   * ids_window set when some id could not go in the set. */
  const unsigned char *ids_in;
  size_t ids_in_n;
  int ids_keep, ids_window;
  unsigned char *ids_out;
  size_t ids_out_n;
} hp__pctx;

#define HP__MAX_FILE_WARNINGS 20

/* A warning about the file being parsed: `path:line: warning: ...`. After HP__MAX_FILE_WARNINGS
 * per file they are only counted; hp_profile_add_path then adds one note with the count. */
void hp__pwarn(hp__pctx *x, long line, const char *fmt, ...) HP_PRINTF(3, 4);
/* The hp__csv warning callback that routes through hp__pwarn. */
void hp__pwarn_csv(void *ud, long line, const char *msg);

/* Field i of a record, or NULL when the column is absent (i < 0) or the row is short. Inline: the
 * parsers call it for nearly every field of every row. */
static inline const char *hp__fld(const hp__csv_rec *r, int i, size_t *n)
{
  if (i < 0 || (size_t)i >= r->n) {
    *n = 0;
    return NULL;
  }
  *n = r->len[i];
  return r->f[i];
}
/* Reports a row whose width differs from the header's (once per row). */
void hp__check_width(hp__pctx *x, const hp__csv_rec *r, size_t ncols);
/* A numeric field: 1 parsed, 0 absent or no value, -1 not a number (reported with the column). */
int hp__fnum(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, double *out);
/* A whole-number field, as hp__fnum. */
int hp__fll(hp__pctx *x, const hp__csv_rec *r, int col, const char *colname, long long *out);
/* Reads a file's header record into *rec. Returns 1, or 0 after warning that the file is empty,
 * or a negative HP_E* code from the reader. */
int hp__read_header(hp__pctx *x, hp__csv_rec *rec);
/* Reports missing required columns: `names[i]` with idx[i] < 0. Returns 1 if any was missing. */
int hp__require(hp__pctx *x, long line, const char *const *names, const int *idx, size_t n);
/* The nanoseconds from `begin` to `end`, computed without signed overflow. */
double hp__span_ns(long long begin, long long end);

#endif /* HPRUN_PROFILE_BUILD_H */
