/* Public declarations: profile. Part of lib/hprun.h; include that instead.
 *
 * Reads what the profilers wrote (hipprof, rocprof, rocprofv3, ncu: docs/summarize.md lists the
 * files) and summarises it: HIP API calls, kernels, kernel categories, the user code that launched
 * each kernel, PMC resources and counters, leak-check lines and ncu metrics. Files are streamed, so
 * memory depends on the number of distinct kernels, APIs and counters, not on file sizes.
 */
#ifndef HPRUN_PROFILE_H
#define HPRUN_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hp_profile hp_profile;

/* Creates an empty profile with the built-in category rules and runtime-frame markers. */
int hp_profile_new(hp_profile **out);
/* Frees everything, including the strings hp_profile_kernel handed out. Accepts NULL. */
void hp_profile_free(hp_profile *p);

/* Copies the kernel category rules (the first rule with a case-insensitive substring match wins;
 * else "other"). NULL/0 restores the default: a built-in set chosen by the profiler whose files
 * were read (ncu, compute-sanitizer: "cuda"; hipprof, rocprof, rocprofv3: "rocm"), else by the
 * kernel names (the set that leaves less time in "other"). Nothing is kept from `r`. HP_ENOMEM
 * leaves the previous rules in place. */
int hp_profile_set_categories(hp_profile *p, const hp_category_rule *r, size_t n);
/* Uses the built-in set `name` ("cuda", "rocm", "pytorch": configs/categories/NAME.yaml), or
 * "auto" for the default. HP_ENOENT for another name. */
int hp_profile_set_category_set(hp_profile *p, const char *name);
/* The category set in use: "cuda", "rocm", "pytorch", or "custom" (rules given by the user).
 * *why (if not NULL) says what chose it: "profiler", "kernel names" or "user". */
const char *hp_profile_category_set(const hp_profile *p, const char **why);

/* Sets the markers of runtime stack frames, skipped when looking for the first user frame of a
 * launch: a frame is runtime when it contains a marker (case-insensitive), or, for a marker that
 * starts with '^', when it starts with the rest. NULL/0 restores the defaults (the article's):
 * "^python(", "libgalaxy", "libamdhip", "libc.so", "libtorch", "libpython", "python3".
 * Affects files added afterwards. Nothing is kept from `markers`. */
int hp_profile_set_runtime_frames(hp_profile *p, const char *const *markers, size_t n);

/* Adds a file, or a folder scanned recursively (sorted, deterministic). Warnings go to diags with
 * file:line. Returns 0 even when some files had problems (they are in diags); HP_ENOENT if the
 * path does not exist, HP_EIO if it cannot be read, HP_ENOMEM. */
int hp_profile_add_path(hp_profile *p, const char *path, hp_diags *diags);
/* Adds paths[0..n) as hp_profile_add_path does one after the other, reading the files on `jobs`
 * threads (0: one per online CPU; 1: none started). Every file is read into its own profile and
 * the files are merged in their order, so the profile and the messages do not depend on `jobs`
 * (docs/internals/merge.md). errs[i] gets path i's code: 0, HP_ENOENT, HP_EIO, ... Returns 0
 * (also when some paths failed), HP_EINVAL or HP_ENOMEM. */
int hp_profile_add_paths(hp_profile *p, const char *const *paths, size_t n, int jobs,
                         hp_diags *diags, int *errs);
/* Files recognised and read. */
size_t hp_profile_nfiles(const hp_profile *p);

typedef struct hp_kernel_stat {
  const char *name; /* owned by the profile: valid until it is freed or added to */
  long long calls;
  double total_ns, avg_ns, min_ns, max_ns; /* NaN if unknown */
  double percent;                          /* of the total kernel time */
} hp_kernel_stat;

/* Kernels, sorted by total_ns descending (ties by name). */
size_t hp_profile_nkernels(const hp_profile *p);
/* The i-th kernel. HP_ERANGE when i >= hp_profile_nkernels. */
int hp_profile_kernel(const hp_profile *p, size_t i, hp_kernel_stat *out);
/* The kernel with the most time whose name contains `pattern` (case-insensitive): HP_ENOENT if
 * none does. For the cross-check of a pass's `kernel`. */
int hp_profile_kernel_find(const hp_profile *p, const char *pattern, hp_kernel_stat *out);

/* The whole profile's kernel figures, for the cross-check (lib/profile/model/totals.c). */
typedef struct hp_profile_totals {
  size_t kernels;     /* distinct kernels */
  long long launches; /* kernel launches (dispatches) over all kernels */
  double kernel_ns;   /* the sum of every kernel's time; NaN when no kernel has a time */
  double span_ns;     /* first kernel start to last kernel end; NaN when no trace had timestamps */
  /* The Kineto traces' own timelines (docs/summarize.md, "PyTorch traces"), summed over them. */
  double trace_span_ns; /* their timed spans; NaN when the profile holds no Kineto trace */
  double trace_busy_ns; /* the union of the kernel intervals inside those spans */
  long long trace_steps, trace_kernels,
      trace_launches; /* ProfilerStep#N; kernels, launches in them */
} hp_profile_totals;

/* Fills *out (never fails on a valid profile; HP_EINVAL for NULL). */
int hp_profile_get_totals(const hp_profile *p, hp_profile_totals *out);

/* `app.region` for rocprofv3 (docs/summarize.md, "Regions"): keep in the kernel tables only the
 * dispatches of *_kernel_trace.csv that lie inside a span of a *_marker_api_trace.csv row whose
 * Function (or Name) equals `name` exactly; with a region applied, the kernel figures come from
 * the traces alone (a *_kernel_stats.csv cannot be filtered). When no row has the name, or its
 * spans hold no dispatch, nothing is filtered and hp_profile_add_path(s) warns. Call it before
 * adding paths; NULL clears. 0 or HP_ENOMEM. */
int hp_profile_set_region(hp_profile *p, const char *name);

enum {
  HP_REGION_NONE,      /* no region set, or no path added since it was */
  HP_REGION_APPLIED,   /* the kernel tables cover the region only */
  HP_REGION_NOT_FOUND, /* no marker row has the name: the tables cover the whole run */
  HP_REGION_EMPTY      /* the spans hold no dispatch: the tables cover the whole run */
};

typedef struct hp_profile_region {
  const char *name; /* owned by the profile; NULL when no region is set */
  int state;        /* HP_REGION_* */
  size_t spans;     /* spans with the name in the marker traces */
  long long kept;   /* kernel-trace dispatches inside a span */
  long long total;  /* kernel-trace dispatches read (0 when no span was found) */
} hp_profile_region;

/* Fills *out; HP_EINVAL for NULL. */
int hp_profile_get_region(const hp_profile *p, hp_profile_region *out);
/* One sentence on what the region did, for notes and reports ("kernel tables cover region X: 4 of
 * 9 dispatches"), or NULL when no region is set. malloc'd: free() it. */
char *hp_profile_region_note(const hp_profile *p);

typedef enum {
  HP_FMT_TEXT,
  HP_FMT_JSON,
  HP_FMT_MD,
  HP_FMT_CSV
} hp_format;

/* "text", "json", "md" (or "markdown"), "csv". HP_EINVAL otherwise. */
int hp_format_parse(const char *s, hp_format *out);

typedef struct hp_profile_opts {
  int top;        /* rows per table; 0 = all */
  int name_width; /* terminal cut of long names in text output; 0 = 60 */
  int wide;       /* text and Markdown: full kernel names, not short ones, never cut */
  int child_top;  /* rows per nested table (a kernel's metrics, counters); 0 = all */
  /* The ncu metrics the profiled run asked for: a comma-separated list as ncu's --metrics takes
   * it (a name, a base name standing for its rollups, or `regex:ERE`). The ncu table then shows
   * only those; NULL or "" shows every measured metric (sections, --set). Launch and device
   * constants are never metrics either way. hp_ncu_requested_metrics finds it in a command. */
  const char *metrics;
} hp_profile_opts;

/* What summary.json embeds of each profile: the top HP_PROFILE_SUMMARY_TOP rows of each table and
 * HP_PROFILE_SUMMARY_CHILD rows of each nested one; the whole profile goes to a CSV file beside
 * it (docs/summary.md). */
#define HP_PROFILE_SUMMARY_TOP 20
/* The largest top-N a plan (`report: {top: N}`) or `hprun report --top` may ask for. */
#define HP_PROFILE_SUMMARY_TOP_MAX 1000
#define HP_PROFILE_SUMMARY_CHILD 20
/* What `hprun summarize` shows in the terminal (text and Markdown) by default: the first rows
 * of each table, and of each nested one (docs/summarize.md). --top 0 shows all of both. */
#define HP_PROFILE_TEXT_TOP 10
#define HP_PROFILE_TEXT_CHILD 40

/* The metrics an ncu command line asks for, for hp_profile_opts.metrics: the value of its
 * --metrics when it has no --section, --set or --section-folder (which add the sections'
 * metrics), else NULL. `command` is a shell-quoted command line (hp_run.command); the options are
 * read after the word whose base name starts with "ncu" (after a launcher such as srun), up to
 * the program. *out is malloc'd (free it) or NULL. 0 or HP_ENOMEM. */
int hp_ncu_requested_metrics(const char *command, char **out);

/* Writes the summary. Text and Markdown show kernels by short, unique names (`void
 * native::elementwise_kernel<128, 4, ...direct_copy_kernel_cuda...>(...)` as
 * `elementwise_kernel<direct_copy_kernel_cuda>`, a repeat as "... #2") and text cuts long names
 * with "…", unless o->wide; JSON and CSV keep full names. `o` may be NULL. HP_EIO when writing
 * fails. */
int hp_profile_write(const hp_profile *p, FILE *fp, hp_format f, const hp_profile_opts *o);

#ifdef __cplusplus
}
#endif

#endif /* HPRUN_PROFILE_H */
