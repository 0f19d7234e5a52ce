/* Public declarations: the roofline. Part of lib/hprun.h; include that instead.
 *
 * A roofline places each kernel by its arithmetic intensity (FLOP per byte of device memory) and
 * its achieved FLOP rate under two ceilings: the memory bandwidth times the intensity, and the
 * compute peak. The ceilings ("peaks") are measured by hip/roofline_peaks.hip (`hprun peaks`) or
 * taken from a datasheet (configs/peaks/); the points come from the profiler's counters: ncu's
 * FLOP instruction counts, dram bytes and gpu__time_duration, or rocprof's SQ_INSTS_VALU_* and
 * TCC_EA_RDREQ/WRREQ counters with the kernel's time. docs/roofline.md has the formulas.
 */
#ifndef HPRUN_ROOFLINE_H
#define HPRUN_ROOFLINE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ceilings. Every figure is NaN when unknown. */
typedef struct hp_peaks {
  double bw_gbs;      /* device memory bandwidth, GB/s (1e9 bytes) */
  double fp32_tflops; /* TFLOP/s (1e12) */
  double fp64_tflops;
  double fp16_tflops; /* matrix (tensor core / MFMA) peaks, optional */
  double bf16_tflops;
  double tf32_tflops;        /* NVIDIA TF32 tensor; AMD FP32 matrix (MFMA F32) */
  double fp8_tflops;         /* dense FP8 tensor / matrix */
  double int8_tops;          /* dense INT8 tensor / matrix, TOP/s */
  double fp64_matrix_tflops; /* FP64 tensor (DMMA) / matrix (MFMA F64) */
  char *device;              /* owned; NULL when not said */
  char *source; /* "measured", "datasheet" or another word; owned; NULL when not said */
  /* The program that measured the matrix peaks ("cublasLt", "hipBLASLt", "roofline_peaks"), or
   * NULL when not said; owned. */
  char *matrix_source;
} hp_peaks;

/* Every figure NaN, no strings. */
void hp_peaks_init(hp_peaks *p);
/* Frees the strings and re-initialises. Accepts NULL. */
void hp_peaks_clear(hp_peaks *p);
/* Copies src into *dst (strings duplicated). 0 or HP_ENOMEM (*dst then cleared). */
int hp_peaks_copy(hp_peaks *dst, const hp_peaks *src);
/* 1 when a roof can be drawn: bandwidth and at least one compute peak are known. */
int hp_peaks_usable(const hp_peaks *p);

/* Reads a peaks file (YAML: device, source, peak_bw_gbs, peak_fp32_tflops, peak_fp64_tflops,
 * peak_fp16_tflops, peak_bf16_tflops; docs/roofline.md). Errors go to diags with file:line.
 * Returns 0, HP_EIO (unreadable), HP_EPLAN (invalid) or HP_ENOMEM; *out is initialised first. */
int hp_peaks_load(const char *path, hp_peaks *out, hp_diags *diags);
/* Takes the figures of roofline_peaks' result line ("device=X peak_bw_gbs=4312.5 ..."): the
 * known keys are set, others ignored. Returns 0, HP_ENOENT when the line has no peak_ field, or
 * HP_ENOMEM. */
int hp_peaks_parse_line(const char *line, hp_peaks *out);
/* The peaks as a peaks file (YAML), malloc'd into *out. 0 or HP_ENOMEM. */
int hp_peaks_format(const hp_peaks *p, char **out);

/* Runs a ceilings program (argv[0] is looked up on PATH; NULL-terminated) for at most timeout_s
 * seconds (0: no limit) and takes the peaks of its last line holding `peak_` fields; source is
 * "measured" unless the line says otherwise. *output gets everything it printed on stdout
 * (malloc'd, also on failure; may be NULL). Returns 0, HP_ESPAWN (not started), HP_ERUN (it failed
 * or timed out), HP_ENOENT (no peaks line), or HP_ENOMEM; why goes to diags. */
int hp_peaks_measure(const char *const *argv, double timeout_s, hp_peaks *out, char **output,
                     hp_diags *diags);

/* Takes the vendor-GEMM ceilings (`hprun peaks --vendor`, scripts/gemm_peaks.py) into pk: each
 * matrix peak becomes the higher of the two, and pk's matrix_source names which program gave
 * which ("cuBLASLt (bf16, fp16, tf32, fp8); roofline_peaks (fp64)"); hand names pk's program when
 * its line said none. 0 or HP_ENOMEM. */
int hp_peaks_merge_vendor(hp_peaks *pk, const hp_peaks *vendor, const char *hand);

typedef enum {
  HP_BOUND_UNKNOWN = 0, /* no peaks, or no FLOP count */
  HP_BOUND_MEMORY,      /* intensity below the ridge point */
  HP_BOUND_COMPUTE
} hp_bound;

/* "unknown", "memory", "compute". */
const char *hp_bound_name(hp_bound b);

/* One kernel on the roofline. Per-launch figures are means over the profiled launches. */
typedef struct hp_roof_point {
  char *kernel; /* owned */
  long long launches;
  double flop;    /* FLOP per launch; NaN when the counters give none */
  double bytes;   /* device-memory bytes per launch (read + write); NaN when unknown */
  double time_ns; /* per launch */
  double ai;      /* flop / bytes */
  double gflops;  /* achieved GFLOP/s: flop / time */
  double gbs;     /* achieved GB/s: bytes / time */
  /* "fp64", "fp32", "fp16", "bf16" (vector), "<p>-tensor" (ncu) or "<p>-matrix" (AMD) for
   * p in fp64, tf32 (AMD: fp32), fp16, bf16, fp8, int8; "mixed"; NULL: static */
  const char *precision;
  hp_bound bound;
  double roof_gflops; /* what the roofline allows at this intensity; NaN without peaks */
  double efficiency;  /* gflops / roof_gflops (0..1); NaN without peaks */
  /* The ceiling that bounds the point at its intensity: "bandwidth", or the compute peak used
   * ("fp32", "fp64" (vector FP16/BF16 use "fp32"), "<p>_matrix" for a tensor/matrix precision);
   * NULL without peaks or without the peak of its precision. Static. */
  const char *ceiling;
  /* Why the point has no bound although it has counters, or NULL: "FLOPs not captured: ..." with
   * the ncu section or rocprof counters that would capture them (its FLOP, intensity and GFLOP/s
   * are then NaN too), or that the peaks have no ceiling for its precision. Static. */
  const char *note;
} hp_roof_point;

typedef struct hp_roofline {
  hp_roof_point *pts; /* by achieved time share: the kernel with the most time first */
  size_t n;
  const char *source; /* "ncu" or "pmc": the counters the points came from (static) */
  size_t skipped;     /* kernels with counters but no time or no bytes: no point */
  /* The ceilings the points were judged against when they came from the capture itself (ncu's
   * .peak_sustained rates; docs/roofline.md), because no usable peaks were given; NULL otherwise.
   * Owned. */
  hp_peaks *peaks;
} hp_roofline;

/* Places the profile's kernels. peaks may be NULL (then the capture's own ceilings when it has
 * them, else no bound, roof or efficiency); usable peaks override the capture's. *out is a
 * new roofline, or NULL when no kernel has the counters a point needs (not an error). Returns 0 or
 * HP_ENOMEM. */
int hp_roofline_compute(const hp_profile *p, const hp_peaks *peaks, hp_roofline **out);
void hp_roofline_free(hp_roofline *r);

/* Prints the points as a table (HP_FMT_TEXT, HP_FMT_MD, HP_FMT_CSV) or JSON (HP_FMT_JSON: the
 * summary's `roofline` object), with the ceilings first. r may be NULL (an empty table and a
 * note). One description of the table serves every format (lib/report/core/roofline_table.c).
 * Returns 0, HP_ENOMEM or HP_EIO. */
int hp_roofline_write(const hp_roofline *r, const hp_peaks *peaks, FILE *fp, hp_format f);

#ifdef __cplusplus
}
#endif

#endif /* HPRUN_ROOFLINE_H */
