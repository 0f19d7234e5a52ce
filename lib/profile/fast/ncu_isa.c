/*
 * Picks the vector code of the ncu fast path at run time (see ncu_isa.h). The CPU's answer is
 * cached in an atomic int: parsers on several threads may ask at once, and all store the same
 * value.
 */
#include "profile/fast/ncu_isa.h"

static int forced = -1; /* written by tests only, before any parse */
static int best = -1;

/* The best level the CPU and the build have. */
static int cpu_best(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
      __builtin_cpu_supports("popcnt"))
    return HP__NCU_ISA_AVX2;
  return HP__NCU_ISA_SSE2;
#elif defined(__SSE2__)
  return HP__NCU_ISA_SSE2;
#else
  return HP__NCU_ISA_PORTABLE;
#endif
}

int hp__ncu_isa(void)
{
  int b;

  if (forced >= 0)
    return forced;
  b = __atomic_load_n(&best, __ATOMIC_RELAXED);
  if (b < 0) {
    b = cpu_best();
    __atomic_store_n(&best, b, __ATOMIC_RELAXED);
  }
  return b;
}

int hp__ncu_isa_force(int isa)
{
  if (isa > cpu_best())
    return -1;
  forced = isa < 0 ? -1 : isa;
  return 0;
}
