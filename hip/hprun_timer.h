/* hprun_timer.h: time a region of GPU work with HIP events and print the result in the form
 * hprun plans match. Header-only; compiles under hipcc and under nvcc (through hip_compat.h).
 *
 * Why events and not a host clock: the launches are asynchronous, so a host clock around the
 * loop measures submission, not execution, unless the loop ends in a synchronisation whose own
 * cost then lands in the number. Two events recorded on the same stream bracket exactly the
 * device work queued between them, which is the article's "program's own HIP event" baseline.
 *
 *   hprun_timer_t t;
 *   double mean_ms;
 *   HPRUN_HIP_CHECK(hprun_timer_init(&t));
 *   HPRUN_HIP_CHECK(hprun_timer_start(&t, stream));
 *   for (i = 0; i < iterations; i++)
 *     hipLaunchKernelGGL(my_kernel, grid, block, 0, stream, ...);
 *   HPRUN_HIP_CHECK(hprun_timer_stop(&t, stream, iterations, &mean_ms));
 *   hprun_print_metric("mean_kernel_ms", mean_ms);      prints "mean_kernel_ms=0.0185488"
 *   HPRUN_HIP_CHECK(hprun_timer_destroy(&t));
 *
 * Matching plan snippet:
 *   metrics: [{name: mean_kernel_ms, pattern: 'mean_kernel_ms=([0-9.eE+-]+)', unit: ms}]
 *
 * A timer may be started and stopped any number of times between init and destroy. Every
 * function returns hipSuccess or the first failing HIP call's error (hipErrorInvalidValue for
 * misuse: stop without start, iterations < 1); the timer stays destroyable after any failure. */
#ifndef HPRUN_TIMER_H
#define HPRUN_TIMER_H

#include "hip_compat.h"
#include "hprun_metric.h"

#include <string.h>

typedef struct hprun_timer {
  hipEvent_t start;
  hipEvent_t stop;
  int has_start;    /* `start` was created and must be destroyed */
  int has_stop;     /* `stop` likewise */
  int running;      /* start recorded, stop not yet */
  float elapsed_ms; /* the last start..stop interval, whole (not divided) */
} hprun_timer_t;

/* Creates the timer's two events. The caller owns `t` (any storage) and must call
 * hprun_timer_destroy() afterwards, also when this fails: whatever was created is then
 * released there. */
static inline hipError_t hprun_timer_init(hprun_timer_t *t)
{
  hipError_t err;

  memset(t, 0, sizeof(*t));
  err = hipEventCreate(&t->start);
  if (err != hipSuccess)
    return err;
  t->has_start = 1;
  err = hipEventCreate(&t->stop);
  if (err != hipSuccess)
    return err;
  t->has_stop = 1;
  return hipSuccess;
}

/* Records the start event on `stream` (0 = the default stream). Work queued on that stream
 * after this call, up to hprun_timer_stop(), is what gets timed. */
static inline hipError_t hprun_timer_start(hprun_timer_t *t, hipStream_t stream)
{
  hipError_t err;

  if (!t->has_start || !t->has_stop)
    return hipErrorInvalidValue;
  err = hipEventRecord(t->start, stream);
  if (err != hipSuccess)
    return err;
  t->running = 1;
  return hipSuccess;
}

/* Records the stop event on `stream`, waits for it, and stores the elapsed time divided by
 * `iterations` (the number of repetitions timed, >= 1) in *mean_ms when mean_ms is not NULL.
 * The whole interval stays in t->elapsed_ms. Blocks the calling thread until the stream has
 * reached the stop event. */
static inline hipError_t hprun_timer_stop(hprun_timer_t *t, hipStream_t stream, long iterations,
                                          double *mean_ms)
{
  hipError_t err;
  float ms = 0.0f;

  if (!t->running || iterations < 1)
    return hipErrorInvalidValue;
  t->running = 0;
  err = hipEventRecord(t->stop, stream);
  if (err != hipSuccess)
    return err;
  err = hipEventSynchronize(t->stop);
  if (err != hipSuccess)
    return err;
  err = hipEventElapsedTime(&ms, t->start, t->stop);
  if (err != hipSuccess)
    return err;
  t->elapsed_ms = ms;
  if (mean_ms != NULL)
    *mean_ms = (double)ms / (double)iterations;
  return hipSuccess;
}

/* Destroys whatever events hprun_timer_init() created. Accepts NULL and a timer destroyed
 * before; returns the first failing hipEventDestroy's error but still tries both. */
static inline hipError_t hprun_timer_destroy(hprun_timer_t *t)
{
  hipError_t first = hipSuccess;
  hipError_t err;

  if (t == NULL)
    return hipSuccess;
  if (t->has_stop) {
    err = hipEventDestroy(t->stop);
    if (err != hipSuccess)
      first = err;
    t->has_stop = 0;
  }
  if (t->has_start) {
    err = hipEventDestroy(t->start);
    if (err != hipSuccess && first == hipSuccess)
      first = err;
    t->has_start = 0;
  }
  t->running = 0;
  return first;
}

/* Range markers for hprun's `app.region: NAME` (docs/plan.md): push a named range around the timed
 * iterations so that ncu (--nvtx --nvtx-include NAME/) profiles only them and rocprofv3/hipprof
 * record them. Compiled in only with -DHPRUN_MARKERS and when the marker header is there (NVTX 3
 * is header-only under nvcc; roctx needs -lroctx64 under hipcc); otherwise they do nothing.
 *
 *   hprun_range_push("timed");  ... the timed loop ...  hprun_range_pop();
 */
#if defined(HPRUN_MARKERS) && defined(__has_include)
#if (defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define HPRUN_RANGE_PUSH(name) nvtxRangePushA(name)
#define HPRUN_RANGE_POP() nvtxRangePop()
#elif __has_include(<roctracer/roctx.h>)
#include <roctracer/roctx.h>
#define HPRUN_RANGE_PUSH(name) roctxRangePushA(name)
#define HPRUN_RANGE_POP() roctxRangePop()
#endif
#endif
#ifndef HPRUN_RANGE_PUSH
#define HPRUN_RANGE_PUSH(name) ((void)(name))
#define HPRUN_RANGE_POP() ((void)0)
#endif

static inline void hprun_range_push(const char *name)
{
  HPRUN_RANGE_PUSH(name);
}

static inline void hprun_range_pop(void)
{
  HPRUN_RANGE_POP();
}

#endif /* HPRUN_TIMER_H */
