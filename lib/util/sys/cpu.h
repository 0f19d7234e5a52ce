/*
 * Which vector code the fast paths run (lib/util/sys/cpu.c): AVX2 with BMI1, BMI2, POPCNT and
 * LZCNT where the CPU has them (x86-64 since Haswell and Zen 1: every host hprun targets), else
 * the portable C code, which is also what a build for another architecture compiles. The CPU is
 * asked at run time, once per process, so one binary runs everywhere; the tests run both paths
 * where the CPU has AVX2 (hp__cpu_force).
 */
#ifndef HPRUN_UTIL_SYS_CPU_H
#define HPRUN_UTIL_SYS_CPU_H

/* On x86-64 with GCC or Clang the AVX2 code is compiled whatever -m flags the build uses: each of
 * its functions carries HP__AVX2, and runs only where hp__cpu_avx2() says so. */
#if defined(__x86_64__) && defined(__GNUC__)
#define HP__HAVE_AVX2 1
#define HP__AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt")))
#else
#define HP__HAVE_AVX2 0
#endif

/* 1 where the AVX2 code runs, else 0. Safe on any thread. */
int hp__cpu_avx2(void);

#ifdef HP_TEST_HOOKS
/* Tests: 0 runs the portable code from now on, 1 the AVX2 code, -1 what the CPU has again.
 * Returns 0, or -1 (nothing changed) for AVX2 where the CPU or the build lacks it. Not while
 * another thread parses. */
int hp__cpu_force(int avx2);
#endif

#endif /* HPRUN_UTIL_SYS_CPU_H */
