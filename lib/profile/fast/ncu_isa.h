/*
 * Which vector code the ncu fast path (lib/profile/fast/ncu_diff.c, ncu_fold.c) and the kernel-stack
 * row reader (stack_fast.c) run: the portable loops, SSE2 (baseline on x86-64), or AVX2 with BMI2
 * where the CPU has them (x86-64 since Haswell and Zen 1, the DCU hosts included). Chosen once at run time from the CPU, so one binary
 * runs everywhere; the unit tests force each level in turn so that every path is tested on the
 * machine that runs them (a level the CPU lacks is not forced: hp__ncu_isa_force answers no).
 */
#ifndef HPRUN_PROFILE_NCU_ISA_H
#define HPRUN_PROFILE_NCU_ISA_H

enum {
  HP__NCU_ISA_PORTABLE,
  HP__NCU_ISA_SSE2,
  HP__NCU_ISA_AVX2
};

/* The level to run: the best the CPU has, unless a test forced one. */
int hp__ncu_isa(void);
/* Tests: runs `isa` from now on (-1: the CPU's best again). 0, or -1 when the CPU or the build
 * lacks it. Not for use while another thread parses. */
int hp__ncu_isa_force(int isa);

#endif /* HPRUN_PROFILE_NCU_ISA_H */
