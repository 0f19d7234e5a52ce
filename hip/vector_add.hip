/* vector_add.hip: the controllable minimal program of the article's section 3.
 *
 * Three hipMalloc, two host-to-device and one device-to-host hipMemcpy, 20 warmup launches,
 * 100 timed launches between two HIP events (mean = elapsed / iterations), a maximum absolute
 * error check on the host, and every event and buffer released. It prints exactly one result
 * line on stdout (format in hprun_metric.h and docs/hip.md):
 *
 *   device=BW arch=gfx936:sramecc+:xnack- elements=1048576 warmup=20 iterations=100
 *     launches=120 mean_kernel_ms=0.0185488 max_abs_error=0
 *
 * (one line; wrapped here). hprun compares `launches` with the kernel count the profilers
 * report, and the kernel is named vector_add because the article filters PMC with
 * `--kernel-name vector_add`.
 *
 * Usage: vector_add [ELEMENTS [ITERATIONS]]   (defaults 1048576 and 100)
 * Exit status: 0 ok; 1 a HIP call failed or the result is wrong; 2 usage; 3 no device.
 *
 * Build: hipcc -O3 -std=c++17 --offload-arch=gfx936 hip/vector_add.hip -o vector_add
 *        nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip hip/vector_add.hip -o vector_add */
#include "hip_compat.h"
#include "hprun_timer.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_ELEMENTS 1048576L
#define DEFAULT_ITERATIONS 100L
#define WARMUP_LAUNCHES 20L
#define THREADS_PER_BLOCK 256

/* The device loop has 32-bit indices (the article's signature takes an int), so the element
 * count must fit an int; the iteration cap only keeps a typo from running for days. */
#define MAX_ELEMENTS ((long)INT_MAX)
#define MAX_ITERATIONS 100000000L

/* a + b is exact in float for these inputs' magnitudes only if the device and the host add the
 * same floats the same way; one IEEE single add with round-to-nearest is the same on both, so
 * the expected error is 0 and anything else means a wrong result. The bound still allows for a
 * compiler fusing or reordering in some future variant of the kernel. */
#define MAX_ALLOWED_ERROR 1e-5

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);

  if (i < n)
    c[i] = a[i] + b[i];
}

static void usage(FILE *out, const char *prog) {
  fprintf(out,
          "usage: %s [ELEMENTS [ITERATIONS]]\n"
          "  ELEMENTS    vector length, 1..%ld (default %ld)\n"
          "  ITERATIONS  timed launches after %ld warmup launches, 1..%ld (default %ld)\n",
          prog, MAX_ELEMENTS, DEFAULT_ELEMENTS, WARMUP_LAUNCHES, MAX_ITERATIONS,
          DEFAULT_ITERATIONS);
}

/* Parses a decimal integer in [1, max] into *out. Only digits are accepted: no sign, no
 * blanks, no suffix, so "1e6", "-5", " 10" and "10x" are usage errors rather than something
 * strtol half-understood. Returns 0, or -1 with a message naming `what` on stderr. */
static int parse_positive(const char *text, const char *what, long max, long *out) {
  const char *p;
  char *end = NULL;
  long v;

  if (text[0] == '\0') {
    fprintf(stderr, "vector_add: %s is empty; expected an integer in 1..%ld\n", what, max);
    return -1;
  }
  for (p = text; *p != '\0'; p++) {
    if (*p < '0' || *p > '9') {
      fprintf(stderr, "vector_add: %s '%s' is not a positive integer\n", what, text);
      return -1;
    }
  }
  errno = 0;
  v = strtol(text, &end, 10);
  if (errno == ERANGE || v < 1 || v > max) {
    fprintf(stderr, "vector_add: %s '%s' is out of range 1..%ld\n", what, text, max);
    return -1;
  }
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  const char *prog = argc > 0 ? argv[0] : "vector_add";
  long n = DEFAULT_ELEMENTS;
  long iterations = DEFAULT_ITERATIONS;
  int device_count = 0;
  int device = 0;
  hipError_t err;
  hipDeviceProp_t prop;
  char arch[256];
  size_t bytes;
  float *h_a = NULL, *h_b = NULL, *h_c = NULL;
  float *d_a = NULL, *d_b = NULL, *d_c = NULL;
  hprun_timer_t timer;
  hipStream_t stream = 0; /* the default stream: the article's program uses no streams */
  double mean_ms = 0.0;
  double max_err = 0.0;
  long i;
  int blocks;
  hprun_line_t line;

  if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    usage(stdout, prog);
    return 0;
  }
  if (argc > 3) {
    fprintf(stderr, "vector_add: too many arguments\n");
    usage(stderr, prog);
    return 2;
  }
  if ((argc > 1 && parse_positive(argv[1], "ELEMENTS", MAX_ELEMENTS, &n) != 0) ||
      (argc > 2 && parse_positive(argv[2], "ITERATIONS", MAX_ITERATIONS, &iterations) != 0)) {
    usage(stderr, prog);
    return 2;
  }

  /* No device is a state of the machine, not a bug in the program: it gets its own exit
   * status so that a harness can tell "skip" from "fail". */
  err = hipGetDeviceCount(&device_count);
  if (err != hipSuccess || device_count < 1) {
    fprintf(stderr, "vector_add: no GPU device available (hipGetDeviceCount: %s, count %d)\n",
            err != hipSuccess ? hipGetErrorString(err) : "no error", device_count);
    return 3;
  }
  HPRUN_HIP_CHECK(hipGetDevice(&device));
  HPRUN_HIP_CHECK(hipGetDeviceProperties(&prop, device));

  bytes = (size_t)n * sizeof(float);
  h_a = (float *)malloc(bytes);
  h_b = (float *)malloc(bytes);
  h_c = (float *)malloc(bytes);
  if (h_a == NULL || h_b == NULL || h_c == NULL) {
    fprintf(stderr, "vector_add: out of host memory for %ld elements\n", n);
    free(h_a);
    free(h_b);
    free(h_c);
    return 1;
  }
  /* Small integers and halves: every sum is exactly representable, so host and device agree
   * bit for bit and max_abs_error is 0 unless the device computed something else. */
  for (i = 0; i < n; i++) {
    h_a[i] = (float)(i % 1024) * 0.5f;
    h_b[i] = (float)(i % 7) + 1.0f;
  }
  memset(h_c, 0, bytes);

  HPRUN_HIP_CHECK(hipMalloc(&d_a, bytes));
  HPRUN_HIP_CHECK(hipMalloc(&d_b, bytes));
  HPRUN_HIP_CHECK(hipMalloc(&d_c, bytes));
  HPRUN_HIP_CHECK(hipMemcpy(d_a, h_a, bytes, hipMemcpyHostToDevice));
  HPRUN_HIP_CHECK(hipMemcpy(d_b, h_b, bytes, hipMemcpyHostToDevice));

  blocks = (int)((n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK);

  /* Warmup: the first launches pay for loading the code object and for clocks ramping up;
   * they are launched like the timed ones but not measured. */
  for (i = 0; i < WARMUP_LAUNCHES; i++)
    hipLaunchKernelGGL(vector_add, dim3(blocks), dim3(THREADS_PER_BLOCK), 0, stream, d_a, d_b,
                       d_c, (int)n);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hipDeviceSynchronize());

  /* The timed loop checks no error per launch: an extra API call per iteration would add host
   * work to what the profilers see. A failed launch is sticky and caught right after. */
  HPRUN_HIP_CHECK(hprun_timer_init(&timer));
  HPRUN_HIP_CHECK(hprun_timer_start(&timer, stream));
  for (i = 0; i < iterations; i++)
    hipLaunchKernelGGL(vector_add, dim3(blocks), dim3(THREADS_PER_BLOCK), 0, stream, d_a, d_b,
                       d_c, (int)n);
  HPRUN_HIP_CHECK(hipGetLastError());
  HPRUN_HIP_CHECK(hprun_timer_stop(&timer, stream, iterations, &mean_ms));
  HPRUN_HIP_CHECK(hprun_timer_destroy(&timer));

  HPRUN_HIP_CHECK(hipMemcpy(h_c, d_c, bytes, hipMemcpyDeviceToHost));
  for (i = 0; i < n; i++) {
    double d = (double)h_c[i] - ((double)h_a[i] + (double)h_b[i]);
    if (d < 0)
      d = -d;
    if (d > max_err)
      max_err = d;
  }

  HPRUN_HIP_CHECK(hipFree(d_a));
  HPRUN_HIP_CHECK(hipFree(d_b));
  HPRUN_HIP_CHECK(hipFree(d_c));
  free(h_a);
  free(h_b);
  free(h_c);

  hprun_line_begin(&line, stdout);
  hprun_line_str(&line, "device", prop.name);
  hprun_line_str(&line, "arch", hprun_arch_name(&prop, arch, sizeof(arch)));
  hprun_line_long(&line, "elements", n);
  hprun_line_long(&line, "warmup", WARMUP_LAUNCHES);
  hprun_line_long(&line, "iterations", iterations);
  hprun_line_long(&line, "launches", WARMUP_LAUNCHES + iterations);
  hprun_line_double(&line, "mean_kernel_ms", mean_ms);
  hprun_line_double(&line, "max_abs_error", max_err);
  if (hprun_line_end(&line) != 0) {
    fprintf(stderr, "vector_add: writing the result line failed\n");
    return 1;
  }

  if (max_err > MAX_ALLOWED_ERROR) {
    fprintf(stderr, "vector_add: wrong result: max_abs_error %g exceeds %g\n", max_err,
            MAX_ALLOWED_ERROR);
    return 1;
  }
  return 0;
}
