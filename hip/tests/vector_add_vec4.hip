/* vector_add_vec4.hip: c = a + b like hip/vector_add.hip, written the way a bandwidth-bound kernel
 * is written: 16-byte (float4) loads and stores and a grid-stride loop over a grid that fills the
 * GPU once (32 blocks of 256 threads per multiprocessor), like the triad of roofline_peaks.hip.
 *
 * Why it exists (docs/validation/h200-roofline.md): the article's vector_add moves 4 bytes per
 * access, one element per thread. On an H200 that keeps too few bytes in flight per
 * multiprocessor for HBM3e's latency (2048 threads x 8 bytes of loads = 16 KiB per SM, where the
 * float4 triad keeps 64 KiB), so it streams at about 83% of the triad's bandwidth, and its
 * roofline point sits that far under the roof. This kernel does the same arithmetic on the same
 * bytes (12 per element, 1 FLOP per element) with four times the bytes per access, so its point
 * shows where the roof is for vector addition itself.
 *
 * It prints one result line (hprun_metric.h): elements, iterations, mean_kernel_ms (HIP events,
 * after 20 warmup launches) and gbs (12 bytes per element over mean_kernel_ms).
 *
 * Usage: vector_add_vec4 [ELEMENTS [ITERATIONS]]   ELEMENTS a multiple of 4 in 4..2^30
 *        (default 2^28), ITERATIONS 1..100000 (default 100)
 * Exit status: 0 ok; 1 a HIP call failed or the result is wrong; 2 usage; 3 no device.
 *
 * Build: nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip hip/tests/vector_add_vec4.hip -o vadd4
 *        hipcc -O3 -std=c++17 --offload-arch=gfx90a -Ihip hip/tests/vector_add_vec4.hip -o vadd4 */
#include "hip_compat.h"
#include "hprun_metric.h"
#include "hprun_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP 20
#define THREADS 256

__global__ void vector_add_vec4(const float4 *a, const float4 *b, float4 *c, long n4) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long stride = (long)gridDim.x * blockDim.x;

  for (; i < n4; i += stride) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

/* Digits only, in [lo, hi]; -1 otherwise. */
static long parse(const char *s, long lo, long hi) {
  const char *p;
  long v;

  if (s[0] == '\0')
    return -1;
  for (p = s; *p; p++)
    if (*p < '0' || *p > '9' || p - s > 12)
      return -1;
  v = strtol(s, NULL, 10);
  return v >= lo && v <= hi ? v : -1;
}

int main(int argc, char **argv) {
  long n = 1L << 28, iters = 100, i, bad = 0;
  int count = 0, blocks;
  float *h_a, *h_b, *h_c;
  float4 *a, *b, *c;
  size_t bytes;
  double ms;
  hipDeviceProp_t prop;
  hprun_timer_t t;
  hprun_line_t line;
  hipError_t err;

  if (argc > 3 || (argc > 1 && (n = parse(argv[1], 4, 1L << 30)) < 0) || n % 4 != 0 ||
      (argc > 2 && (iters = parse(argv[2], 1, 100000)) < 0)) {
    fprintf(stderr, "usage: vector_add_vec4 [ELEMENTS [ITERATIONS]]  (ELEMENTS a multiple of 4 "
                    "in 4..2^30, ITERATIONS 1..100000)\n");
    return 2;
  }
  err = hipGetDeviceCount(&count);
  if (err != hipSuccess || count < 1) {
    fprintf(stderr, "vector_add_vec4: no GPU device available (hipGetDeviceCount: %s)\n",
            err != hipSuccess ? hipGetErrorString(err) : "no device");
    return 3;
  }
  HPRUN_HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  bytes = (size_t)n * sizeof(float);
  h_a = (float *)malloc(bytes), h_b = (float *)malloc(bytes), h_c = (float *)malloc(bytes);
  if (h_a == NULL || h_b == NULL || h_c == NULL) {
    fprintf(stderr, "vector_add_vec4: out of host memory\n");
    return 1;
  }
  /* The inputs of hip/vector_add.hip: every sum is exact, so the check wants equality. */
  for (i = 0; i < n; i++) {
    h_a[i] = (float)(i % 1024) * 0.5f;
    h_b[i] = (float)(i % 7) + 1.0f;
  }
  HPRUN_HIP_CHECK(hipMalloc(&a, bytes));
  HPRUN_HIP_CHECK(hipMalloc(&b, bytes));
  HPRUN_HIP_CHECK(hipMalloc(&c, bytes));
  HPRUN_HIP_CHECK(hipMemcpy(a, h_a, bytes, hipMemcpyHostToDevice));
  HPRUN_HIP_CHECK(hipMemcpy(b, h_b, bytes, hipMemcpyHostToDevice));
  blocks = prop.multiProcessorCount * 32;
  for (i = 0; i < WARMUP; i++)
    hipLaunchKernelGGL(vector_add_vec4, dim3(blocks), dim3(THREADS), 0, 0, a, b, c, n / 4);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hipDeviceSynchronize());
  HPRUN_HIP_CHECK(hprun_timer_init(&t));
  HPRUN_HIP_CHECK(hprun_timer_start(&t, 0));
  for (i = 0; i < iters; i++)
    hipLaunchKernelGGL(vector_add_vec4, dim3(blocks), dim3(THREADS), 0, 0, a, b, c, n / 4);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hprun_timer_stop(&t, 0, iters, &ms));
  HPRUN_HIP_CHECK(hprun_timer_destroy(&t));
  HPRUN_HIP_CHECK(hipMemcpy(h_c, c, bytes, hipMemcpyDeviceToHost));
  for (i = 0; i < n; i++)
    bad += h_c[i] != h_a[i] + h_b[i];
  HPRUN_HIP_CHECK(hipFree(a));
  HPRUN_HIP_CHECK(hipFree(b));
  HPRUN_HIP_CHECK(hipFree(c));
  free(h_a), free(h_b), free(h_c);
  hprun_line_begin(&line, stdout);
  hprun_line_str(&line, "device", prop.name);
  hprun_line_long(&line, "elements", n);
  hprun_line_long(&line, "iterations", iters);
  hprun_line_long(&line, "launches", WARMUP + iters);
  hprun_line_double(&line, "mean_kernel_ms", ms);
  hprun_line_double(&line, "gbs", 12.0 * (double)n / (ms * 1e-3) / 1e9);
  hprun_line_long(&line, "wrong_elements", bad);
  if (hprun_line_end(&line) != 0)
    return 1;
  if (bad) {
    fprintf(stderr, "vector_add_vec4: %ld elements differ from a + b\n", bad);
    return 1;
  }
  return 0;
}
