/*
 * cpukernel: a small, real CPU workload for hprun's quickstart (no GPU needed).
 *
 * Each iteration runs SAXPY (y = a*x + y) and then a 3-point stencil (z = (y[i-1]+y[i]+y[i+1])/3,
 * copied back into y). Every iteration reads what the one before wrote and the final array goes
 * into the printed checksum, so the compiler cannot drop or hoist any of the work. The iterations
 * after `--warmup` are timed with CLOCK_MONOTONIC and the mean is printed as
 *
 *   elements=<N> iterations=<k> mean_iter_ms=<%.6g> checksum=<%.6g>
 *
 * The defaults keep one native run around 20-40 ms, so that callgrind (about 50x slower) still
 * ends within a few seconds and `strace -f -c` shows a small but real overhead.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *fp)
{
  fputs("usage: cpukernel [--n ELEMENTS] [--iters K] [--warmup W]\n"
        "Runs SAXPY + a 3-point stencil over N floats and prints the mean time per iteration.\n",
        fp);
}

/* Parses a whole string as a long in [lo, hi]; exits 2 with a message naming the option if not. */
static long parse_long(const char *opt, const char *s, long lo, long hi)
{
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    fprintf(stderr, "cpukernel: bad value for %s: '%s' (expected %ld..%ld)\n", opt, s, lo, hi);
    exit(2);
  }
  return v;
}

static double now_ms(void)
{
  struct timespec ts;

  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
    perror("cpukernel: clock_gettime");
    exit(2);
  }
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One iteration: y = a*x + y, then y = 3-point average of y (the ends keep their value). `z` is
 * scratch space of n floats. */
static void step(float *restrict y, const float *restrict x, float *restrict z, size_t n, float a)
{
  size_t i;

  for (i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
  z[0] = y[0];
  z[n - 1] = y[n - 1];
  for (i = 1; i + 1 < n; i++)
    z[i] = (y[i - 1] + y[i] + y[i + 1]) * (1.0f / 3.0f);
  memcpy(y, z, n * sizeof(*y));
}

int main(int argc, char **argv)
{
  long n = 98304, iters = 100, warmup = 10, k;
  float *x = NULL, *y = NULL, *z = NULL;
  double t0, t1, sum = 0;
  int i, rc = 2;

  /* Every option takes a value, so the words come in pairs. */
  for (i = 1; i < argc; i += 2) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (i + 1 >= argc ||
        (strcmp(argv[i], "--n") != 0 && strcmp(argv[i], "--iters") != 0 &&
         strcmp(argv[i], "--warmup") != 0)) {
      fprintf(stderr, "cpukernel: unknown option or missing value: '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
    /* Bounds: at least 3 elements for the stencil, at most 2^28 (1 GiB per array). */
    if (strcmp(argv[i], "--n") == 0)
      n = parse_long(argv[i], argv[i + 1], 3, 1L << 28);
    else if (strcmp(argv[i], "--iters") == 0)
      iters = parse_long(argv[i], argv[i + 1], 1, INT_MAX);
    else
      warmup = parse_long(argv[i], argv[i + 1], 0, INT_MAX);
  }

  x = malloc((size_t)n * sizeof(*x));
  y = malloc((size_t)n * sizeof(*y));
  z = malloc((size_t)n * sizeof(*z));
  if (x == NULL || y == NULL || z == NULL) {
    fprintf(stderr, "cpukernel: cannot allocate 3 x %ld floats\n", n);
    goto fail;
  }
  for (k = 0; k < n; k++) {
    x[k] = (float)(k % 1000) * 0.001f;
    y[k] = (float)(k % 7);
  }

  for (k = 0; k < warmup; k++)
    step(y, x, z, (size_t)n, 0.5f);
  t0 = now_ms();
  for (k = 0; k < iters; k++)
    step(y, x, z, (size_t)n, 0.5f);
  t1 = now_ms();

  /* The checksum depends on every element of the final array, so no iteration is dead code. */
  for (k = 0; k < n; k++)
    sum += y[k];
  printf("elements=%ld iterations=%ld mean_iter_ms=%.6g checksum=%.6g\n", n, iters,
         (t1 - t0) / (double)iters, sum);
  if (fflush(stdout) != 0) {
    perror("cpukernel: stdout");
    goto fail;
  }
  rc = 0;

fail:
  free(x);
  free(y);
  free(z);
  return rc;
}
