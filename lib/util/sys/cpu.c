/*
 * The CPU's vector level (cpu.h). The answer is cached in an int read and written atomically:
 * parsers on several threads may ask at once, and all store the same value.
 */
#include "util/sys/cpu.h"

static int cached = -1;
#ifdef HP_TEST_HOOKS
static int forced = -1; /* set by tests only, while no other thread parses */
#endif

/* Whether the CPU and the build run the AVX2 code. LZCNT is not asked (Clang's builtin does not
 * know the name): every CPU with AVX2 and BMI1 has it (Intel since Haswell, AMD since
 * Piledriver). */
static int cpu_has_avx2(void)
{
#if HP__HAVE_AVX2
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
  return 0;
#endif
}

int hp__cpu_avx2(void)
{
  int c;

#ifdef HP_TEST_HOOKS
  if (forced >= 0)
    return forced;
#endif
  if ((c = __atomic_load_n(&cached, __ATOMIC_RELAXED)) < 0) {
    c = cpu_has_avx2();
    __atomic_store_n(&cached, c, __ATOMIC_RELAXED);
  }
  return c;
}

#ifdef HP_TEST_HOOKS
int hp__cpu_force(int avx2)
{
  if (avx2 > 0 && !cpu_has_avx2())
    return -1;
  forced = avx2 < 0 ? -1 : avx2 > 0;
  return 0;
}
#endif
