/*
 * The per-format parsers' entry points (lib/profile/parse/parse_*.c). The per-file dispatch
 * (hp__parse_file, parse_file.c) calls them; the text parser also hands ncu CSV and PMC text lines
 * on to the parsers of those formats. Each parser reads x->csv from its start and folds what it
 * finds into x->p through the building API (profile/model/build.h). It returns 0, or HP_ENOMEM /
 * HP_EIO; problems with the data are warnings, never failures. The caller keeps x and its reader.
 */
#ifndef HPRUN_PROFILE_PARSERS_H
#define HPRUN_PROFILE_PARSERS_H

#include "profile/model/build.h"
#include "profile/model/recent.h"
#include "profile/parse/detect.h"

#include <stddef.h>
#include <stdint.h>

/* Stats files of every tool, into time table `table` (parse_rocprof.c). */
int hp__parse_stats(hp__pctx *x, int table, int skip_total);
/* Per-dispatch tables; `feed_kernels` also adds their kernel times (parse_rocprof.c). */
int hp__parse_dispatch(hp__pctx *x, int feed_kernels);

/* PMC text is read line by line inside hp__parse_text; this is its state (parse_pmctext.c). */
typedef struct hp__pmctext {
  int init;
  int active; /* a dispatch line was seen: indented counter lines belong to it */
  uint32_t kid;
  hp__recent seen; /* dispatch ids, so replays count once */
} hp__pmctext;
/* Takes one text line: 1 if it was a dispatch or counter line, 0 if not, HP_ENOMEM. */
int hp__pmc_text_line(hp__pctx *x, hp__pmctext *st, const char *s, size_t n, long line);
/* Frees the state; it may be used again for another file. */
void hp__pmc_text_end(hp__pmctext *st);

/* hipprof's console tables (`HIP API statistics`, `HIPOPS API statistics`), read line by line
 * inside hp__parse_text; this is its state (parse_console.c). */
typedef struct hp__console {
  int table;  /* the HP__T_* table a title opened, or -1 */
  int col[4]; /* its Name, Calls, TotalDurationNs and AverageNs columns, or -1 */
} hp__console;
/* Takes one text line: 1 if it belonged to a console table, 0 if not, HP_ENOMEM. A table's rows
 * are added only where no stats CSV beside the file gives them (x->use_api, ...). */
int hp__console_line(hp__pctx *x, hp__console *st, const char *s, size_t n, long line);

/* Kernel-stack CSV, and text files: leak checks, PMC text, ncu in stdout (parse_hipprof.c). */
int hp__parse_stack(hp__pctx *x);
int hp__parse_text(hp__pctx *x);

/* rocprofv3 traces, counter collection and agents (parse_rocprofv3.c). */
int hp__parse_v3_trace(hp__pctx *x, int table);
int hp__parse_v3_counters(hp__pctx *x);
int hp__parse_v3_agents(hp__pctx *x);

/* PyTorch profiler (Kineto) traces, .json or .json.gz: read from x->path, not x->csv, which is
 * NULL (parse_kineto.c). */
int hp__parse_kineto(hp__pctx *x);

/* ncu --csv, details or raw page (parse_ncu.c). */
int hp__parse_ncu(hp__pctx *x);

/* nsys stats CSVs: a summary into time table `table`, or the GPU trace (parse_nsys.c). */
int hp__parse_nsys_sum(hp__pctx *x, int table);
int hp__parse_nsys_trace(hp__pctx *x);

/* ---- parse_file.c: one file, or one range of a split file (merge/chunk.h splits them) -------- */

/* One range to read: the file's header bytes [0, head), then its bytes from `from` until the
 * first record that starts at or after `stop` (ULLONG_MAX: the end of the file). ids_in: dispatch
 * ids earlier ranges saw (PMC), or NULL. */
typedef struct hp__range {
  unsigned long long head, from, stop;
  const unsigned char *ids_in;
  size_t ids_in_n;
  long hlines; /* the head's lines (0 for the first range) */
} hp__range;

/* What reading a range gave besides its profile and messages. */
typedef struct hp__range_out {
  unsigned long long end; /* the file offset where the reader stopped: its last record's end */
  long endline;           /* the line there, counted in the range reader's input */
  int complete;           /* the parser read on until the range's stop (or the file's end) */
  size_t nsupp;           /* warnings past the per-file cap, only counted */
  unsigned tables;        /* HP__TB_* the range contributed to */
  unsigned char *ids;     /* PMC: the range's dispatch ids as bits (owned), or NULL */
  size_t ids_n;
  int window;  /* PMC: some dispatch id was not a small number (kept in a window, not the bits) */
  int opened;  /* the file could be opened */
  long hlines; /* the head's lines it was read with */
} hp__range_out;

/* Parses one file (rg NULL) or one range of a split file into `p`: the messages go to `diags`
 * (may be NULL). For a whole file as hp_profile_add_path always did (the file is recorded in p, a
 * note counts the warnings past the cap); for a range the caller gets those in *o and records the
 * file once, after its last range. */
int hp__parse_file(hp_profile *p, const char *path, hp__fmt fmt, unsigned skip, hp_diags *diags,
                   const hp__range *rg, hp__range_out *o);

#endif /* HPRUN_PROFILE_PARSERS_H */
