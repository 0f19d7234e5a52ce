/*
 * The toy app of tests/e2e/test_ci_journey.sh: one step, timed by the app itself and printed as
 * step_ms=. Its speed is set by the code, STEP_US, which the test's "slow" commit raises by 8%.
 * The step waits instead of computing, and is timed as the best of TRIES fifths of it (times 5),
 * so that its time depends on the code and hardly on how busy the shared test machine is: a
 * wait that a busy machine wakes late only lengthens that try. The test is about the CI
 * workflow, not about this machine.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#define STEP_US 20000L
#define TRIES 8

int main(void)
{
  double best = -1;
  int i;

  for (i = 0; i < TRIES; i++) {
    struct timespec a, b, d = {0, STEP_US / 5 * 1000L};
    double ms;
    clock_gettime(CLOCK_MONOTONIC, &a);
    while (nanosleep(&d, &d) != 0)
      ;
    clock_gettime(CLOCK_MONOTONIC, &b);
    ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
    if (best < 0 || ms < best)
      best = ms;
  }
  printf("step_ms=%.4f\n", best * 5);
  return 0;
}
