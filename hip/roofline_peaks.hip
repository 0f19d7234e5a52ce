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
 *   device=NVIDIA_H200 arch=sm_90 triad_mib=1024 peak_bw_gbs=4312.5 peak_fp32_tflops=60.1
 *     peak_fp64_tflops=30.2 peak_fp16_matrix_tflops=650.2 peak_bf16_matrix_tflops=648.9
 *
 * (one line; wrapped here). `hprun peaks` runs it and turns the line into a peaks file
 * (docs/roofline.md).
 *
 * FP16 and BF16 matrix peaks (tensor cores, MFMA) are measured where the toolkit exposes them,
 * and then the line also holds `peak_fp16_matrix_tflops=... peak_bf16_matrix_tflops=...`:
 *   - nvcc (through hip_cuda_compat.h): WMMA (<mma.h>), 16x16x16 half (sm_70+) and __nv_bfloat16
 *     (sm_80+) products with float accumulators;
 *   - hipcc for gfx90a (and gfx94x): the MFMA builtins __builtin_amdgcn_mfma_f32_32x32x8f16 and
 *     __builtin_amdgcn_mfma_f32_32x32x8bf16_1k, float accumulators.
 * Each warp (wavefront) runs MMA_CHAINS long dependent chains of products over register
 * fragments, enough blocks to fill every multiprocessor; every product counts 2*M*N*K FLOP. The
 * inputs are all ones, so every accumulator must end at MMA_CHAINS * K * iterations: the host
 * checks every one, and the compiler cannot drop what is stored. A device without them (gfx906;
 * a DCU, since no DTK matrix builtin is used here; NVIDIA before sm_70/sm_80) or a binary built
 * for no such target prints neither key; a wrong result is an error (exit 1). hipcc on the NVIDIA
 * platform measures none either.
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

/* Which matrix API this compiler offers: WMMA with nvcc, MFMA with hipcc for AMD. */
#if !HPRUN_HIP_NATIVE
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#define HPRUN_WMMA 1
#elif defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#define HPRUN_MFMA 1
#endif
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

/* The matrix products: MMA_WARPS warps (wavefronts) per block, each running MMA_CHAINS dependent
 * chains of MMA_ITERS products. MMA_PER_THREAD: accumulator floats each thread stores. */
#define MMA_WARPS 4
#define MMA_CHAINS 4
#define MMA_ITERS 4096
#if HPRUN_WMMA
#define MMA_M 16
#define MMA_N 16
#define MMA_K 16
#define MMA_PER_THREAD 8 /* a 16x16 float tile over 32 lanes */
#else
#define MMA_M 32
#define MMA_N 32
#define MMA_K 8
#define MMA_PER_THREAD 16 /* a 32x32 float tile over 64 lanes */
#endif

/* A kernel built for a target without the products writes -1 where the first accumulator goes:
 * the host then prints no peak for it instead of a wrong one. */
#define MMA_UNSUPPORTED(out)                                                                       \
  do {                                                                                             \
    if (blockIdx.x == 0 && threadIdx.x == 0)                                                       \
      (out)[0] = -1.f;                                                                             \
  } while (0)

#if HPRUN_WMMA
/* One warp's chains: the fragments are loaded from `ones` (16x16 ones), so the compiler knows no
 * value; the chains are summed and the whole tile stored, so it can drop no product. */
template <typename T> __device__ static void wmma_chains(float *out, const T *ones, int iters) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[MMA_CHAINS];
  long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int i, j, k;

  wmma::load_matrix_sync(a, ones, 16);
  wmma::load_matrix_sync(b, ones, 16);
  for (j = 0; j < MMA_CHAINS; j++)
    wmma::fill_fragment(c[j], 0.f);
  for (k = 0; k < iters; k++) {
#pragma unroll
    for (j = 0; j < MMA_CHAINS; j++)
      wmma::mma_sync(c[j], a, b, c[j]);
  }
  for (j = 1; j < MMA_CHAINS; j++)
    for (i = 0; i < c[0].num_elements; i++)
      c[0].x[i] += c[j].x[i];
  wmma::store_matrix_sync(out + warp * MMA_M * MMA_N, c[0], 16, wmma::mem_row_major);
}
#endif

#if HPRUN_MFMA && (defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) ||          \
                   defined(__gfx942__))
#define HPRUN_MFMA_DEVICE 1
typedef _Float16 hprun_half4 __attribute__((ext_vector_type(4)));
typedef short hprun_short4 __attribute__((ext_vector_type(4)));
typedef float hprun_float16 __attribute__((ext_vector_type(16)));

/* One wavefront's chains of 32x32x8 MFMA products; each lane holds 4 inputs of A and B and 16
 * accumulators. MFMA(a, b, c) is the builtin for the input type V. */
template <typename V, hprun_float16 (*MFMA)(V, V, hprun_float16)>
__device__ static void mfma_chains(float *out, const V *ones, int iters) {
  V a = ones[0], b = ones[1];
  hprun_float16 c[MMA_CHAINS];
  long lane = (long)blockIdx.x * blockDim.x + threadIdx.x;
  int i, j, k;

  for (j = 0; j < MMA_CHAINS; j++)
    for (i = 0; i < 16; i++)
      c[j][i] = 0.f;
  for (k = 0; k < iters; k++) {
#pragma unroll
    for (j = 0; j < MMA_CHAINS; j++)
      c[j] = MFMA(a, b, c[j]);
  }
  for (j = 1; j < MMA_CHAINS; j++)
    c[0] += c[j];
  for (i = 0; i < 16; i++)
    out[lane * MMA_PER_THREAD + i] = c[0][i];
}

__device__ static hprun_float16 mfma_f16(hprun_half4 a, hprun_half4 b, hprun_float16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
}
__device__ static hprun_float16 mfma_bf16(hprun_short4 a, hprun_short4 b, hprun_float16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
}
#endif

/* FP16 products; `ones` holds 256 ones (fp16 bits 0x3C00). */
__global__ void mma_fp16(float *out, const void *ones, int iters) {
#if HPRUN_WMMA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  wmma_chains<half>(out, (const half *)ones, iters);
#elif defined(HPRUN_MFMA_DEVICE)
  mfma_chains<hprun_half4, mfma_f16>(out, (const hprun_half4 *)ones, iters);
#else
  (void)ones;
  (void)iters;
  MMA_UNSUPPORTED(out);
#endif
}

/* BF16 products; `ones` holds 256 ones (bf16 bits 0x3F80). */
__global__ void mma_bf16(float *out, const void *ones, int iters) {
#if HPRUN_WMMA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  wmma_chains<__nv_bfloat16>(out, (const __nv_bfloat16 *)ones, iters);
#elif defined(HPRUN_MFMA_DEVICE)
  mfma_chains<hprun_short4, mfma_bf16>(out, (const hprun_short4 *)ones, iters);
#else
  (void)ones;
  (void)iters;
  MMA_UNSUPPORTED(out);
#endif
}

static void usage(FILE *out, const char *prog) {
  fprintf(out,
          "usage: %s [MIB]\n"
          "  MIB  size of each of the three triad arrays in MiB, 1..%ld (default %ld)\n"
          "Prints device=... arch=... peak_bw_gbs=... peak_fp32_tflops=... peak_fp64_tflops=...\n"
          "and, where this build and device have matrix products, peak_fp16_matrix_tflops=...\n"
          "peak_bf16_matrix_tflops=...\n",
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

#if HPRUN_WMMA || HPRUN_MFMA
/* TFLOP/s of the matrix kernel `k` (2*M*N*K FLOP per product), the best of REPEATS launches;
 * -1 when the kernel was built without the products for this device. `one` is the bit pattern
 * of 1.0 in the input type. Every accumulator must end at MMA_CHAINS * K * MMA_ITERS. */
static double measure_matrix(void (*k)(float *, const void *, int), unsigned short one, int sms,
                             int warp_size, const char *name) {
  int blocks = sms * 16, threads = MMA_WARPS * warp_size, r;
  size_t nout = (size_t)blocks * threads * MMA_PER_THREAD, i;
  unsigned short ones[256];
  float *out = NULL, *host;
  void *d_ones = NULL;
  hprun_timer_t t;
  double ms, best = 1e30, want = (double)MMA_CHAINS * MMA_K * MMA_ITERS;

  for (i = 0; i < 256; i++)
    ones[i] = one;
  HPRUN_HIP_CHECK(hipMalloc(&d_ones, sizeof(ones)));
  HPRUN_HIP_CHECK(hipMemcpy(d_ones, ones, sizeof(ones), hipMemcpyHostToDevice));
  HPRUN_HIP_CHECK(hipMalloc(&out, nout * sizeof(float)));
  HPRUN_HIP_CHECK(hipMemset(out, 0, nout * sizeof(float)));
  hipLaunchKernelGGL(k, dim3(blocks), dim3(threads), 0, 0, out, (const void *)d_ones, MMA_ITERS);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hipDeviceSynchronize());
  HPRUN_HIP_CHECK(hprun_timer_init(&t));
  for (r = 0; r < REPEATS; r++) {
    HPRUN_HIP_CHECK(hprun_timer_start(&t, 0));
    hipLaunchKernelGGL(k, dim3(blocks), dim3(threads), 0, 0, out, (const void *)d_ones,
                       MMA_ITERS);
    HPRUN_HIP_CHECK(hprun_timer_stop(&t, 0, 1, &ms));
    if (ms < best)
      best = ms;
  }
  HPRUN_HIP_CHECK(hprun_timer_destroy(&t));
  if ((host = (float *)malloc(nout * sizeof(float))) == NULL) {
    fprintf(stderr, "roofline_peaks: out of host memory\n");
    exit(1);
  }
  HPRUN_HIP_CHECK(hipMemcpy(host, out, nout * sizeof(float), hipMemcpyDeviceToHost));
  HPRUN_HIP_CHECK(hipFree(out));
  HPRUN_HIP_CHECK(hipFree(d_ones));
  if (host[0] == -1.f) {
    free(host);
    fprintf(stderr, "roofline_peaks: no %s matrix products on this device in this build\n", name);
    return -1;
  }
  for (i = 0; i < nout; i++)
    if ((double)host[i] != want) {
      fprintf(stderr, "roofline_peaks: the %s matrix chains computed %g at %zu, expected %g\n",
              name, (double)host[i], i, want);
      exit(1);
    }
  free(host);
  return 2.0 * MMA_M * MMA_N * MMA_K * (double)MMA_CHAINS * MMA_ITERS *
         ((double)blocks * threads / warp_size) / (best * 1e-3) / 1e12;
}
#endif

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
#if HPRUN_WMMA || HPRUN_MFMA
  {
    int sms = prop.multiProcessorCount;
    double tflops = measure_matrix(mma_fp16, 0x3C00, sms, prop.warpSize, "FP16");
    if (tflops > 0)
      hprun_line_double(&line, "peak_fp16_matrix_tflops", tflops);
    tflops = measure_matrix(mma_bf16, 0x3F80, sms, prop.warpSize, "BF16");
    if (tflops > 0)
      hprun_line_double(&line, "peak_bf16_matrix_tflops", tflops);
  }
#endif
  return hprun_line_end(&line) == 0 ? 0 : 1;
}
