/*
 * The CPU's vector level (cpu.h). The answer is cached in an int read and written atomically:
 * parsers on several threads may ask at once, and all store the same value.
 */
#include "util/sys/cpu.h"

static int forced = -1; /* set by tests only, while no other thread parses */
static int cached = -1;

/* Whether the CPU and the build run the AVX2 code. */
static int cpu_has_avx2(void)
{
#if HP__HAVE_AVX2
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
      __builtin_cpu_supports("lzcnt");
#else
  return 0;
#endif
}

int hp__cpu_avx2(void)
{
  int c;

  if (forced >= 0)
    return forced;
  if ((c = __atomic_load_n(&cached, __ATOMIC_RELAXED)) < 0) {
    c = cpu_has_avx2();
    __atomic_store_n(&cached, c, __ATOMIC_RELAXED);
  }
  return c;
}

int hp__cpu_force(int avx2)
{
  if (avx2 > 0 && !cpu_has_avx2())
    return -1;
  forced = avx2 < 0 ? -1 : avx2 > 0;
  return 0;
}
