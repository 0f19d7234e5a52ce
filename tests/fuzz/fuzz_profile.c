/*
 * fuzz_profile: the profiler-output parsers (hipprof, rocprof, rocprofv3, ncu, Kineto traces, and
 * the text forms)
 * through hp_profile_add_path, then the summary in all four formats (hp_profile_write).
 *
 * The parsers are chosen by file name (docs/summarize.md), so the first input byte picks a layout:
 * the file name(s) the rest of the input is written to. Layouts with two names split the rest at
 * its first form feed ('\f') and write the halves side by side, which runs the rule that a stats
 * file supersedes the traces in its folder. The folder holding them (inside the per-process
 * scratch folder) is added, as `hprun summarize DIR` does, and emptied after every input. Only the
 * public API (hprun.h) is used. A first byte of NLAYOUTS or more, with an odd quotient, also reads
 * the files that would be split into ranges (docs/internals/merge.md, "One large file") as
 * ranges of 48 bytes (HPRUN_CHUNK_BYTES, a test hook of the library the harnesses link), so that
 * the range reader, the boundary checks and the re-reads see the fuzzer's inputs too.
 */
#include "hprun.h"
#include "scratch.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct layout {
  const char *first;
  const char *second; /* NULL: the whole rest goes to `first` */
} layout;

/* Each name is one the detection tells by name, except data.csv and ncu.csv, which it tells by
 * their header line (ncu, or any layout found by columns). Appending keeps old corpus files
 * meaningful: an input's first byte keeps naming the same layout. */
static const layout layouts[] = {
    {"result_1.hiptrace.csv", NULL},                            /* 0 hipprof API stats */
    {"result_1.kernel.csv", NULL},                              /* 1 hipprof kernel stats */
    {"result_1.hipkernel.csv", NULL},                           /* 2 hipprof kernel stats */
    {"result_1.stack.csv", NULL},                               /* 3 hipprof --kernel-stack */
    {"pmc_results_1.csv", NULL},                                /* 4 hipprof --pmc CSV */
    {"pmc_results_1.txt", NULL},                                /* 5 PMC text */
    {"stdout.txt", NULL},                                       /* 6 leak checks, ncu on stdout */
    {"results.csv", NULL},                                      /* 7 rocprof dispatch table */
    {"results.stats.csv", NULL},                                /* 8 rocprof kernel stats */
    {"results.hip_stats.csv", NULL},                            /* 9 rocprof HIP stats */
    {"results.hsa_stats.csv", NULL},                            /* 10 rocprof HSA stats */
    {"results.copy_stats.csv", NULL},                           /* 11 rocprof copy stats */
    {"run_kernel_stats.csv", NULL},                             /* 12 rocprofv3 */
    {"run_hip_api_stats.csv", NULL},                            /* 13 */
    {"run_hsa_api_stats.csv", NULL},                            /* 14 */
    {"run_memory_copy_stats.csv", NULL},                        /* 15 */
    {"run_kernel_trace.csv", NULL},                             /* 16 */
    {"run_counter_collection.csv", NULL},                       /* 17 */
    {"run_agent_info.csv", NULL},                               /* 18 */
    {"run_hip_api_trace.csv", NULL},                            /* 19 */
    {"run_hsa_api_trace.csv", NULL},                            /* 20 */
    {"run_memory_copy_trace.csv", NULL},                        /* 21 */
    {"ncu.csv", NULL},                                          /* 22 ncu, told by header */
    {"data.csv", NULL},                                         /* 23 any CSV, told by header */
    {"results.csv", "results.stats.csv"},                       /* 24 rocprof trace + stats */
    {"run_kernel_trace.csv", "run_kernel_stats.csv"},           /* 25 rocprofv3 trace + stats */
    {"run_hip_api_trace.csv", "run_hip_api_stats.csv"},         /* 26 */
    {"run_memory_copy_trace.csv", "run_memory_copy_stats.csv"}, /* 27 */
    {"result_1.stack.csv", "result_1.kernel.csv"},              /* 28 hipprof stack + stats */
    {"trace.json", NULL},                      /* 29 Kineto, told by its first 4 KB */
    {"trace.json.gz", NULL},                   /* 30 Kineto through zlib's inflate */
    {"stats_cuda_gpu_kern_sum.csv", NULL},     /* 31 nsys stats */
    {"stats_cuda_api_sum.csv", NULL},          /* 32 */
    {"stats_cuda_gpu_mem_time_sum.csv", NULL}, /* 33 */
    {"stats_cuda_gpu_trace.csv", NULL},        /* 34 */
    {"stats_cuda_gpu_trace.csv", "stats_cuda_gpu_kern_sum.csv"}, /* 35 trace + summary */
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

static char *folder;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fz_mkdirs("profile");
  folder = fz_path("profile");
  return 0;
}

static char *write_part(const char *name, const void *data, size_t n)
{
  char *path, *full;

  if (asprintf(&path, "profile/%s", name) < 0)
    abort();
  full = fz_path(path);
  free(path);
  fz_write(full, data, n);
  return full;
}

/* Every public question a caller can ask of a profile, and every rendering. */
static void use(const hp_profile *p)
{
  static const hp_profile_opts all = {.top = 0}, cut = {.top = 2, .name_width = 8};
  hp_kernel_stat ks;
  size_t i;

  for (i = 0; i < hp_profile_nkernels(p); i++)
    hp_profile_kernel(p, i, &ks);
  hp_profile_kernel_find(p, "add", &ks);
  hp_profile_write(p, fz_null(), HP_FMT_TEXT, &all);
  hp_profile_write(p, fz_null(), HP_FMT_TEXT, &cut);
  hp_profile_write(p, fz_null(), HP_FMT_JSON, &all);
  hp_profile_write(p, fz_null(), HP_FMT_MD, &cut);
  hp_profile_write(p, fz_null(), HP_FMT_CSV, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const layout *l;
  const uint8_t *rest, *ff;
  size_t n;
  char *a, *b = NULL;
  hp_profile *p = NULL;
  hp_diags d;

  if (size == 0)
    return 0;
  l = &layouts[data[0] % NLAYOUTS];
  if (setenv("HPRUN_CHUNK_BYTES", (data[0] / NLAYOUTS) % 2 ? "48" : "", 1) != 0)
    abort();
  rest = data + 1;
  n = size - 1;
  ff = l->second ? memchr(rest, '\f', n) : NULL;
  if (l->second) {
    size_t n1 = ff ? (size_t)(ff - rest) : n;
    a = write_part(l->first, rest, n1);
    b = ff ? write_part(l->second, ff + 1, n - n1 - 1) : write_part(l->second, "", 0);
  } else {
    a = write_part(l->first, rest, n);
  }
  hp_diags_init(&d);
  if (hp_profile_new(&p) == 0 && hp_profile_add_path(p, folder, &d) == 0)
    use(p);
  hp_diags_print(&d, fz_null());
  hp_profile_free(p);
  hp_diags_free(&d);
  unlink(a);
  free(a);
  if (b) {
    unlink(b);
    free(b);
  }
  return 0;
}
