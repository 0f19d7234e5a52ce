/*
 * Format detection (see detect.h). Names decide when they can, because they are cheap and exact:
 * every profiler names its files by what they hold. A CSV with an unknown name is told by its
 * header's column names, and ncu's CSV by the line that starts its header, which may follow the
 * app's own output. Files with NUL bytes in their first 4 KiB are binary and are skipped.
 */
#include "profile/parse/detect.h"
#include "util/csv/csv.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

const char *hp__fmt_name(hp__fmt f)
{
  static const char *const names[HP__F_N] = {"unknown",
                                             "hipprof-api-stats",
                                             "hipprof-kernel-stats",
                                             "hipprof-stack",
                                             "hipprof-pmc-csv",
                                             "pmc-text",
                                             "text",
                                             "rocprof-kernel-stats",
                                             "rocprof-hip-stats",
                                             "rocprof-hsa-stats",
                                             "rocprof-copy-stats",
                                             "rocprof-dispatch",
                                             "rocprofv3-kernel-stats",
                                             "rocprofv3-hip-api-stats",
                                             "rocprofv3-hsa-api-stats",
                                             "rocprofv3-memory-copy-stats",
                                             "rocprofv3-kernel-trace",
                                             "rocprofv3-counter-collection",
                                             "rocprofv3-agent-info",
                                             "rocprofv3-hip-api-trace",
                                             "rocprofv3-hsa-api-trace",
                                             "rocprofv3-memory-copy-trace",
                                             "ncu-csv",
                                             "compute-sanitizer",
                                             "kineto-trace",
                                             "nsys-kernel-sum",
                                             "nsys-api-sum",
                                             "nsys-mem-time-sum",
                                             "nsys-gpu-trace"};

  return f >= 0 && f < HP__F_N ? names[f] : "unknown";
}

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);

  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
  return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');

  return s ? s + 1 : path;
}

/* Formats told by name alone. Longer, more specific suffixes come first. */
static const struct {
  const char *suffix;
  hp__fmt fmt;
} name_rules[] = {
    {".hiptrace.csv", HP__F_HIPPROF_API},
    {".hipkernel.csv", HP__F_HIPPROF_KERNEL},
    {".kernel.csv", HP__F_HIPPROF_KERNEL},
    {".stack.csv", HP__F_HIPPROF_STACK},
    {"_kernel_stats.csv", HP__F_V3_KSTATS},
    {"_hip_api_stats.csv", HP__F_V3_HIPSTATS},
    {"_hsa_api_stats.csv", HP__F_V3_HSASTATS},
    {"_memory_copy_stats.csv", HP__F_V3_COPYSTATS},
    {"_kernel_trace.csv", HP__F_V3_KTRACE},
    {"_counter_collection.csv", HP__F_V3_COUNTERS},
    {"_agent_info.csv", HP__F_V3_AGENTS},
    {"_hip_api_trace.csv", HP__F_V3_HIPTRACE},
    {"_hsa_api_trace.csv", HP__F_V3_HSATRACE},
    {"_memory_copy_trace.csv", HP__F_V3_COPYTRACE},
    {".hip_stats.csv", HP__F_ROCPROF_HIPSTATS},
    {".hsa_stats.csv", HP__F_ROCPROF_HSASTATS},
    {".copy_stats.csv", HP__F_ROCPROF_COPYSTATS},
    {".stats.csv", HP__F_ROCPROF_KSTATS},
    /* nsys stats --output BASE names each report's file BASE_<report>.csv; the report names
     * before 2023 follow. */
    {"_cuda_gpu_kern_sum.csv", HP__F_NSYS_KERNSUM},
    {"_gpukernsum.csv", HP__F_NSYS_KERNSUM},
    {"_cuda_api_sum.csv", HP__F_NSYS_APISUM},
    {"_cudaapisum.csv", HP__F_NSYS_APISUM},
    {"_cuda_gpu_mem_time_sum.csv", HP__F_NSYS_MEMSUM},
    {"_gpumemtimesum.csv", HP__F_NSYS_MEMSUM},
    {"_cuda_gpu_trace.csv", HP__F_NSYS_TRACE},
    {"_gputrace.csv", HP__F_NSYS_TRACE},
};

/* rocprofv3 files we know and deliberately leave alone. */
static const char *const ignored_suffixes[] = {
    "_domain_stats.csv",         "_marker_api_stats.csv",         "_marker_api_trace.csv",
    "_rccl_api_stats.csv",       "_rccl_api_trace.csv",           "_scratch_memory_stats.csv",
    "_scratch_memory_trace.csv", "_counter_collection_stats.csv", ".sysinfo.txt",
    ".memcopy_info.csv"};

static int is_text_name(const char *b)
{
  return ends_with(b, ".txt") || ends_with(b, ".log") || strcmp(b, "stdout") == 0 ||
      strcmp(b, "stderr") == 0;
}

/* 1 for a rocprofv3 file left alone on purpose. Its header must not be looked at either: a
 * marker trace's "Function" and "Start_Timestamp" would pass it for a HIP API trace, and roctx
 * ranges would show as API calls (lib/profile/parse/region.c reads it for app.region). */
static int ignored_name(const char *b)
{
  size_t i;

  for (i = 0; i < sizeof(ignored_suffixes) / sizeof(ignored_suffixes[0]); i++)
    if (ends_with(b, ignored_suffixes[i]))
      return 1;
  return 0;
}

static hp__fmt detect_by_name(const char *path)
{
  const char *b = base_name(path);
  size_t i;

  if (ignored_name(b))
    return HP__F_UNKNOWN;
  for (i = 0; i < sizeof(name_rules) / sizeof(name_rules[0]); i++)
    if (ends_with(b, name_rules[i].suffix))
      return name_rules[i].fmt;
  if (starts_with(b, "pmc_results") && ends_with(b, ".csv"))
    return HP__F_HIPPROF_PMC;
  if (strcasecmp(b, "results.csv") == 0)
    return HP__F_ROCPROF_RESULTS;
  if (is_text_name(b))
    return HP__F_TEXT;
  return HP__F_UNKNOWN;
}

static int has(const hp__csv_rec *h, const char *names)
{
  return hp__csv_find(h, names) >= 0;
}

static int contains_ci(const char *s, const char *needle)
{
  size_t n = strlen(needle);

  for (; *s; s++)
    if (strncasecmp(s, needle, n) == 0)
      return 1;
  return 0;
}

/* The format a header record's column names say; `b` is the file's base name, which tells apart
 * layouts that several tools share. */
static hp__fmt by_columns(const hp__csv_rec *h, const char *b)
{
  if (has(h, "str_name") && has(h, "stack_sq"))
    return HP__F_HIPPROF_STACK;
  if (has(h, "Counter_Name") && has(h, "Counter_Value"))
    return HP__F_V3_COUNTERS;
  if (has(h, "KernelName|Kernel_Name|Kernel-Name") && has(h, "grd|wgr|Grid_Size|Workgroup_Size"))
    return starts_with(b, "pmc_results") || ends_with(b, ".csv.csv") ? HP__F_HIPPROF_PMC
                                                                     : HP__F_ROCPROF_RESULTS;
  if (has(h, "Kernel_Name|KernelName") && has(h, "Start_Timestamp") && has(h, "End_Timestamp"))
    return HP__F_V3_KTRACE;
  if (has(h, "Function") && has(h, "Start_Timestamp"))
    return contains_ci(b, "hsa") ? HP__F_V3_HSATRACE : HP__F_V3_HIPTRACE;
  if (has(h, "Direction") && has(h, "Start_Timestamp"))
    return HP__F_V3_COPYTRACE;
  if (has(h, "Agent_Type") && has(h, "Node_Id"))
    return HP__F_V3_AGENTS;
  if (has(h, "Name") && has(h, "TotalDurationNs")) {
    int v3 = has(h, "MinNs");
    if (contains_ci(b, "kernel"))
      return v3 ? HP__F_V3_KSTATS : HP__F_HIPPROF_KERNEL;
    if (contains_ci(b, "copy"))
      return v3 ? HP__F_V3_COPYSTATS : HP__F_ROCPROF_COPYSTATS;
    if (contains_ci(b, "hsa"))
      return v3 ? HP__F_V3_HSASTATS : HP__F_ROCPROF_HSASTATS;
    if (contains_ci(b, "api") || contains_ci(b, "hip"))
      return v3 ? HP__F_V3_HIPSTATS : HP__F_HIPPROF_API;
  }
  return HP__F_UNKNOWN;
}

/* Tells a CSV with an unknown name by its header. *binary is set for data with NUL bytes. */
static hp__fmt detect_by_header(const char *path, int *binary)
{
  hp__csv_opts o = {65536, 1 << 20, 1 << 20};
  hp__csv *c = NULL;
  hp__csv_rec h;
  const char *s, *b = base_name(path);
  size_t n;
  long line;
  int r, lines = 0;
  hp__fmt f = HP__F_UNKNOWN;

  *binary = 0;
  if (hp__csv_open_path(&c, path, &o))
    return HP__F_UNKNOWN;
  /* ncu writes its CSV after its own ==PROF== lines and the app's output: look a little ahead for
   * the line that starts its header. */
  while (lines < 200 && (r = hp__csv_next_line(c, &s, &n, &line)) == 1) {
    if (memchr(s, '\0', n)) {
      *binary = 1;
      goto done;
    }
    if (n >= 6 && memcmp(s, "\"ID\",\"", 6) == 0) {
      f = HP__F_NCU;
      goto done;
    }
    lines++;
  }
  hp__csv_free(c);
  c = NULL;
  if (hp__csv_open_path(&c, path, &o))
    return HP__F_UNKNOWN;
  do {
    r = hp__csv_next_line(c, &s, &n, &line);
  } while (r == 1 && n >= 2 && s[0] == '=' && s[1] == '=');
  if (r != 1)
    goto done;
  if (n >= 8 && memcmp(s, "==PROF==", 8) == 0)
    goto done;
  hp__csv_unread_line(c);
  if (hp__csv_next(c, &h) != 1)
    goto done;
  f = by_columns(&h, b);

done:
  hp__csv_free(c);
  return f;
}

/* Looks at the first bytes of a file for NUL bytes (binary data, not a profiler's text). */
static int looks_binary(const char *path)
{
  unsigned char buf[4096];
  FILE *fp = fopen(path, "rb");
  size_t n;

  if (fp == NULL)
    return 0;
  n = fread(buf, 1, sizeof(buf), fp);
  fclose(fp);
  return memchr(buf, 0, n) != NULL;
}

/* A .json or .json.gz (through zlib, which reads plain files as they are) whose first 4 KB hold
 * the members Kineto writes before its events: "schemaVersion" and "traceEvents" or
 * "deviceProperties". Other Chrome traces (hipprof's) have no schemaVersion. */
static int is_kineto(const char *path)
{
  char buf[4097];
  gzFile gz;
  int n;

  if (!ends_with(path, ".json") && !ends_with(path, ".json.gz"))
    return 0;
  if ((gz = gzopen(path, "rb")) == NULL)
    return 0;
  n = gzread(gz, buf, sizeof(buf) - 1);
  gzclose(gz);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  return strstr(buf, "\"schemaVersion\"") &&
      (strstr(buf, "\"traceEvents\"") || strstr(buf, "\"deviceProperties\""));
}

hp__fmt hp__detect(const char *path, hp_diags *diags)
{
  int binary = 0;
  hp__fmt f = detect_by_name(path);

  if (f == HP__F_UNKNOWN && is_kineto(path))
    return HP__F_KINETO;

  if (f == HP__F_UNKNOWN && ends_with(path, ".csv") && !ignored_name(base_name(path)))
    f = detect_by_header(path, &binary);
  else if (f != HP__F_UNKNOWN && f != HP__F_TEXT && f != HP__F_PMC_TEXT)
    binary = looks_binary(path);
  if (binary) {
    if (f != HP__F_UNKNOWN || detect_by_name(path) != HP__F_UNKNOWN)
      hp_diags_add(diags, HP_DIAG_WARNING, path, 0, 0,
                   "binary data where a %s CSV was expected; the file is skipped", hp__fmt_name(f));
    f = HP__F_UNKNOWN;
  }
  return f;
}
