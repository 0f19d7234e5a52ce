/*
 * Telling what a profiler's file is (lib/profile/parse/detect.c): by its name first, by its header
 * for a CSV with an unknown name, and refusing binary data. Only the folder walk
 * (lib/profile/scan.c) detects; the dispatch (parse_file.c) and the split (merge/chunk.c) take the
 * format it found (the hp__fmt type), and the parsers never need to know what the other formats
 * are.
 *
 * Paths are the caller's; nothing is kept. Files are only read, and closed before returning.
 */
#ifndef HPRUN_PROFILE_DETECT_H
#define HPRUN_PROFILE_DETECT_H

#include "hprun.h"

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
  HP__F_SANITIZER,         /* compute-sanitizer report in a text file (found while reading) */
  HP__F_KINETO,            /* *.json, *.json.gz that open with a Kineto trace's members */
  HP__F_NSYS_KERNSUM,      /* nsys stats *_cuda_gpu_kern_sum.csv, *_gpukernsum.csv */
  HP__F_NSYS_APISUM,       /* *_cuda_api_sum.csv, *_cudaapisum.csv */
  HP__F_NSYS_MEMSUM,       /* *_cuda_gpu_mem_time_sum.csv, *_gpumemtimesum.csv */
  HP__F_NSYS_TRACE,        /* *_cuda_gpu_trace.csv, *_gputrace.csv */
  HP__F_N
} hp__fmt;

/* The format's name as files[].format shows it (a static string). */
const char *hp__fmt_name(hp__fmt f);
/* The format of the file at `path`, or HP__F_UNKNOWN. A file whose name promises a profiler's CSV
 * but that holds binary data is reported to `diags` as a warning and is HP__F_UNKNOWN. */
hp__fmt hp__detect(const char *path, hp_diags *diags);

#endif /* HPRUN_PROFILE_DETECT_H */
