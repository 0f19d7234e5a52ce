/* roofline_mix.hip: a small program with kernels on both sides of a roofline, for validating
 * hprun's roofline points (docs/validation/h200-roofline.md). A tiled FP32 matrix multiply (high
 * arithmetic intensity: 2 N^3 FLOP over about 3 N^2 * 4 bytes from device memory) and two
 * elementwise kernels (a scale-and-add and a ReLU: 1 or 2 FLOP per 8 or 12 bytes).
 *
 * It prints `mean_round_ms=`: the mean time of one round of the three kernels (HIP events).
 *
 * Usage: roofline_mix [N]   (matrix side, a multiple of 32 in 32..8192; default 2048)
 * Exit status: 0 ok; 1 a HIP call failed or a result is wrong; 2 usage; 3 no device.
 *
 * Build: nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip hip/tests/roofline_mix.hip -o roofline_mix */
#include "hip_compat.h"
#include "hprun_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 32

__global__ void sgemm_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;

  for (int t = 0; t < n; t += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++)
      acc = fmaf(ta[threadIdx.y][k], tb[k][threadIdx.x], acc);
    __syncthreads();
  }
  c[row * n + col] = acc;
}

__global__ void scale_add(const float *x, const float *y, float *z, float s, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = s * x[i] + y[i];
}

__global__ void relu(float *x, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] > 0.f ? x[i] : 0.f;
}

int main(int argc, char **argv) {
  int n = 2048, count = 0;
  long nn, big = 1L << 26, i;
  float *a, *b, *c, *x, *y, *z, probe;
  float *h;
  hprun_timer_t timer;
  double mean_ms = 0;

  if (argc > 2 || (argc == 2 && ((n = atoi(argv[1])) < 32 || n > 8192 || n % 32))) {
    fprintf(stderr, "usage: roofline_mix [N]  (N a multiple of 32 in 32..8192)\n");
    return 2;
  }
  if (hipGetDeviceCount(&count) != hipSuccess || count < 1) {
    fprintf(stderr, "roofline_mix: no GPU device available\n");
    return 3;
  }
  nn = (long)n * n;
  h = (float *)malloc((size_t)nn * sizeof(float));
  if (!h)
    return 1;
  for (i = 0; i < nn; i++)
    h[i] = 1.0f;
  HPRUN_HIP_CHECK(hipMalloc(&a, nn * sizeof(float)));
  HPRUN_HIP_CHECK(hipMalloc(&b, nn * sizeof(float)));
  HPRUN_HIP_CHECK(hipMalloc(&c, nn * sizeof(float)));
  HPRUN_HIP_CHECK(hipMalloc(&x, big * sizeof(float)));
  HPRUN_HIP_CHECK(hipMalloc(&y, big * sizeof(float)));
  HPRUN_HIP_CHECK(hipMalloc(&z, big * sizeof(float)));
  HPRUN_HIP_CHECK(hipMemcpy(a, h, nn * sizeof(float), hipMemcpyHostToDevice));
  HPRUN_HIP_CHECK(hipMemcpy(b, h, nn * sizeof(float), hipMemcpyHostToDevice));
  HPRUN_HIP_CHECK(hipMemset(x, 0, big * sizeof(float)));
  HPRUN_HIP_CHECK(hipMemset(y, 0, big * sizeof(float)));
  HPRUN_HIP_CHECK(hprun_timer_init(&timer));
  HPRUN_HIP_CHECK(hprun_timer_start(&timer, 0));
  for (i = 0; i < 3; i++) {
    hipLaunchKernelGGL(sgemm_tiled, dim3(n / TILE, n / TILE), dim3(TILE, TILE), 0, 0, a, b, c, n);
    hipLaunchKernelGGL(scale_add, dim3((unsigned)(big / 256)), dim3(256), 0, 0, x, y, z, 2.f, big);
    hipLaunchKernelGGL(relu, dim3((unsigned)(big / 256)), dim3(256), 0, 0, z, big);
  }
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hprun_timer_stop(&timer, 0, 3, &mean_ms));
  HPRUN_HIP_CHECK(hprun_timer_destroy(&timer));
  HPRUN_HIP_CHECK(hipMemcpy(&probe, c + nn / 2, sizeof(probe), hipMemcpyDeviceToHost));
  printf("n=%d c_mid=%g expected=%d mean_round_ms=%.7g\n", n, (double)probe, n, mean_ms);
  HPRUN_HIP_CHECK(hipFree(a));
  HPRUN_HIP_CHECK(hipFree(b));
  HPRUN_HIP_CHECK(hipFree(c));
  HPRUN_HIP_CHECK(hipFree(x));
  HPRUN_HIP_CHECK(hipFree(y));
  HPRUN_HIP_CHECK(hipFree(z));
  free(h);
  return probe == (float)n ? 0 : 1;
}
