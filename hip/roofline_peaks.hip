/* roofline_peaks.hip: the ceilings of a roofline, measured on this device rather than taken from
 * a datasheet.
 *
 * A roofline needs two numbers per device: how many bytes per second the device memory delivers
 * and how many floating-point operations per second the cores retire. Datasheet figures are the
 * boost-clock maxima that real code rarely sees (rocprof-compute measures its own with a
 * microbenchmark for the same reason). This program measures them the classic ways:
 *
 *   - memory bandwidth: a STREAM triad, a[i] = b[i] + s * c[i] in float4 (16-byte accesses),
 *     over arrays far larger than any cache; 3 * 4 bytes per element are counted, as STREAM does;
 *   - FP32 and FP64: chains of fused multiply-adds, eight independent chains per thread so that
 *     the pipelines stay full, 2 FLOP per FMA; the result is stored so that no compiler drops it.
 *
 * Each figure is the best of REPEATS timed launches after one warmup launch: the ceiling is what
 * the device can do, not what it does on average. It prints one result line (hprun_metric.h):
 *
 *   device=NVIDIA_H200 arch=sm_90 peak_bw_gbs=4312.5 peak_fp32_tflops=60.1 peak_fp64_tflops=30.2
 *
 * (one line). `hprun peaks` runs it and turns the line into a peaks file (docs/roofline.md).
 * FP16/BF16 matrix peaks are not measured: their instructions (MFMA, WMMA/mma.sync) differ
 * between vendors and hip_cuda_compat.h maps no matrix API, so a plan gives them inline.
 *
 * Usage: roofline_peaks [MIB]   MIB: size of each triad array in MiB, 1..65536 (default 1024)
 * Exit status: 0 ok; 1 a HIP call failed or a check failed; 2 usage; 3 no device.
 *
 * Build: hipcc -O3 -std=c++17 --offload-arch=gfx90a hip/roofline_peaks.hip -o roofline_peaks
 *        nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip hip/roofline_peaks.hip -o roofline_peaks */
#include "hip_compat.h"
#include "hprun_metric.h"
#include "hprun_timer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MIB 1024L
#define MAX_MIB 65536L
#define REPEATS 10
#define THREADS 256
/* FMA iterations per chain in the compute kernels: long enough (about a millisecond on a large
 * GPU) that the launch cost disappears. */
#define FMA_ITERS 4096
#define CHAINS 8

__global__ void triad(float4 *a, const float4 *b, const float4 *c, float s, long n4) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long stride = (long)gridDim.x * blockDim.x;

  for (; i < n4; i += stride) {
    float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

/* Eight independent FMA chains per thread. The multiplier and addend come from the arguments, so
 * the compiler cannot fold the loop; the sum is stored, so it cannot drop it. */
template <typename T> __global__ void fma_chains(T *out, T mul, T add) {
  T v[CHAINS];
  int k, j;

  for (j = 0; j < CHAINS; j++)
    v[j] = (T)(threadIdx.x + j);
  for (k = 0; k < FMA_ITERS; k++) {
#pragma unroll
    for (j = 0; j < CHAINS; j++)
      v[j] = v[j] * mul + add;
  }
  for (j = 1; j < CHAINS; j++)
    v[0] += v[j];
  out[(long)blockIdx.x * blockDim.x + threadIdx.x] = v[0];
}

static void usage(FILE *out, const char *prog) {
  fprintf(out,
          "usage: %s [MIB]\n"
          "  MIB  size of each of the three triad arrays in MiB, 1..%ld (default %ld)\n"
          "Prints device=... arch=... peak_bw_gbs=... peak_fp32_tflops=... peak_fp64_tflops=...\n",
          prog, MAX_MIB, DEFAULT_MIB);
}

/* Digits only, in [1, max]: "1e3", "-5" and "12x" are usage errors. Returns 0 or -1. */
static int parse_mib(const char *text, long *out) {
  const char *p;
  long v;

  if (text[0] == '\0')
    return -1;
  for (p = text; *p != '\0'; p++)
    if (*p < '0' || *p > '9')
      return -1;
  errno = 0;
  v = strtol(text, NULL, 10);
  if (errno == ERANGE || v < 1 || v > MAX_MIB)
    return -1;
  *out = v;
  return 0;
}

/* The best (shortest) time in ms of REPEATS launches of the triad, after one warmup launch. */
static double time_triad(float4 *a, float4 *b, float4 *c, long n4, int blocks) {
  hprun_timer_t t;
  double ms, best = 1e30;
  int r;

  hipLaunchKernelGGL(triad, dim3(blocks), dim3(THREADS), 0, 0, a, b, c, 3.0f, n4);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hipDeviceSynchronize());
  HPRUN_HIP_CHECK(hprun_timer_init(&t));
  for (r = 0; r < REPEATS; r++) {
    HPRUN_HIP_CHECK(hprun_timer_start(&t, 0));
    hipLaunchKernelGGL(triad, dim3(blocks), dim3(THREADS), 0, 0, a, b, c, 3.0f, n4);
    HPRUN_HIP_CHECK(hprun_timer_stop(&t, 0, 1, &ms));
    if (ms < best)
      best = ms;
  }
  HPRUN_HIP_CHECK(hprun_timer_destroy(&t));
  return best;
}

/* The best time in ms of REPEATS launches of the FMA chains of type T over `blocks` blocks. */
template <typename T> static double time_fma(int blocks) {
  hprun_timer_t t;
  T *out = NULL;
  double ms, best = 1e30;
  int r;

  HPRUN_HIP_CHECK(hipMalloc(&out, (size_t)blocks * THREADS * sizeof(T)));
  hipLaunchKernelGGL(fma_chains<T>, dim3(blocks), dim3(THREADS), 0, 0, out, (T)0.999, (T)0.5);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hipDeviceSynchronize());
  HPRUN_HIP_CHECK(hprun_timer_init(&t));
  for (r = 0; r < REPEATS; r++) {
    HPRUN_HIP_CHECK(hprun_timer_start(&t, 0));
    hipLaunchKernelGGL(fma_chains<T>, dim3(blocks), dim3(THREADS), 0, 0, out, (T)0.999, (T)0.5);
    HPRUN_HIP_CHECK(hprun_timer_stop(&t, 0, 1, &ms));
    if (ms < best)
      best = ms;
  }
  HPRUN_HIP_CHECK(hprun_timer_destroy(&t));
  HPRUN_HIP_CHECK(hipFree(out));
  return best;
}

/* Fills b and c with 1 and 2 so the triad's result is known: every element of a must be 7. */
__global__ void fill(float4 *b, float4 *c, long n4) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long stride = (long)gridDim.x * blockDim.x;

  for (; i < n4; i += stride) {
    b[i] = make_float4(1.f, 1.f, 1.f, 1.f);
    c[i] = make_float4(2.f, 2.f, 2.f, 2.f);
  }
}

/* Measures the triad's bandwidth in GB/s (1e9 bytes) and checks one element of its result. */
static double measure_bw(long mib, int sms) {
  long n4 = mib * 1024L * 1024L / (long)sizeof(float4);
  float4 *a = NULL, *b = NULL, *c = NULL, probe;
  int blocks = sms * 32;
  double ms;

  HPRUN_HIP_CHECK(hipMalloc(&a, (size_t)n4 * sizeof(float4)));
  HPRUN_HIP_CHECK(hipMalloc(&b, (size_t)n4 * sizeof(float4)));
  HPRUN_HIP_CHECK(hipMalloc(&c, (size_t)n4 * sizeof(float4)));
  hipLaunchKernelGGL(fill, dim3(blocks), dim3(THREADS), 0, 0, b, c, n4);
  ms = time_triad(a, b, c, n4, blocks);
  HPRUN_HIP_CHECK(hipMemcpy(&probe, a + n4 / 2, sizeof(probe), hipMemcpyDeviceToHost));
  HPRUN_HIP_CHECK(hipFree(a));
  HPRUN_HIP_CHECK(hipFree(b));
  HPRUN_HIP_CHECK(hipFree(c));
  if (probe.x != 7.f || probe.w != 7.f) {
    fprintf(stderr, "roofline_peaks: the triad computed %g, expected 7\n", (double)probe.x);
    exit(1);
  }
  return 3.0 * (double)n4 * sizeof(float4) / (ms * 1e-3) / 1e9;
}

/* TFLOP/s of the FMA chains of type T: 2 FLOP per FMA. */
template <typename T> static double measure_flops(int sms) {
  int blocks = sms * 16;
  double ms = time_fma<T>(blocks);
  double flop = 2.0 * CHAINS * (double)FMA_ITERS * (double)blocks * THREADS;

  return flop / (ms * 1e-3) / 1e12;
}

int main(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "roofline_peaks";
  long mib = DEFAULT_MIB;
  int count = 0, device = 0;
  hipError_t err;
  hipDeviceProp_t prop;
  char arch[256];
  hprun_line_t line;

  if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    usage(stdout, prog);
    return 0;
  }
  if (argc > 2 || (argc == 2 && parse_mib(argv[1], &mib) != 0)) {
    fprintf(stderr, "roofline_peaks: %s\n", argc > 2 ? "too many arguments" : "bad MIB");
    usage(stderr, prog);
    return 2;
  }
  err = hipGetDeviceCount(&count);
  if (err != hipSuccess || count < 1) {
    fprintf(stderr, "roofline_peaks: no GPU device available (hipGetDeviceCount: %s, count %d)\n",
            err != hipSuccess ? hipGetErrorString(err) : "no error", count);
    return 3;
  }
  HPRUN_HIP_CHECK(hipGetDevice(&device));
  HPRUN_HIP_CHECK(hipGetDeviceProperties(&prop, device));

  hprun_line_begin(&line, stdout);
  hprun_line_str(&line, "device", prop.name);
  hprun_line_str(&line, "arch", hprun_arch_name(&prop, arch, sizeof(arch)));
  hprun_line_long(&line, "triad_mib", mib);
  hprun_line_double(&line, "peak_bw_gbs", measure_bw(mib, prop.multiProcessorCount));
  hprun_line_double(&line, "peak_fp32_tflops", measure_flops<float>(prop.multiProcessorCount));
  hprun_line_double(&line, "peak_fp64_tflops", measure_flops<double>(prop.multiProcessorCount));
  return hprun_line_end(&line) == 0 ? 0 : 1;
}
