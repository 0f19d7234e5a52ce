/* hip_compat.h: one include line for hprun's HIP samples, whichever compiler builds them.
 *
 *   hipcc (DTK on a DCU, ROCm on AMD):  <hip/hip_runtime.h>, the real HIP runtime.
 *   hipcc with HIP_PLATFORM=nvidia:     <hip/hip_runtime.h> too (HIP's own CUDA backend).
 *   nvcc -x cu -Ihip (no HIP installed): "hip_cuda_compat.h", a macro mapping onto CUDA.
 *
 * hipcc is tested first because hipcc on the NVIDIA platform also defines __CUDACC__, and there
 * the real HIP headers are the better choice. clang in HIP mode defines __HIP__; hipcc's command
 * line defines __HIP_PLATFORM_AMD__ (or the older __HIP_PLATFORM_HCC__) or
 * __HIP_PLATFORM_NVIDIA__ (older: __HIP_PLATFORM_NVCC__); <hip/hip_runtime.h> defines __HIPCC__.
 *
 * Also here, because every sample needs them on both paths:
 *   HPRUN_HIP_CHECK(expr)  checks a HIP call; on failure prints file:line, the call and
 *                          hipGetErrorString, and exits with status 1.
 *   hprun_arch_name()      the device's architecture as a printable string: gcnArchName on AMD
 *                          ("gfx936:sramecc+:xnack-"), "sm_<major><minor>" on NVIDIA ("sm_90"). */
#ifndef HPRUN_HIP_COMPAT_H
#define HPRUN_HIP_COMPAT_H

#if defined(__HIP__) || defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) ||                     \
    defined(__HIP_PLATFORM_HCC__) || defined(__HIP_PLATFORM_NVIDIA__) ||                           \
    defined(__HIP_PLATFORM_NVCC__)
#include <hip/hip_runtime.h>
#define HPRUN_HIP_NATIVE 1
#elif defined(__CUDACC__)
#include "hip_cuda_compat.h"
#define HPRUN_HIP_NATIVE 0
#else
#error "hip_compat.h: compile with hipcc, or with nvcc -x cu -Ihip (neither HIP nor CUDA detected)"
#endif

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Evaluates `expr` (a call returning hipError_t) once. A failed HIP call leaves the device in
 * an unknown state, so a sample has nothing sensible left to do: it says where and why, and
 * exits 1. The operating system releases device memory and events of an exiting process. */
#define HPRUN_HIP_CHECK(expr)                                                                      \
  do {                                                                                             \
    hipError_t hprun_check_err_ = (expr);                                                          \
    if (hprun_check_err_ != hipSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s failed: %s (error %d)\n", __FILE__, __LINE__, #expr,              \
              hipGetErrorString(hprun_check_err_), (int)hprun_check_err_);                         \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Writes the architecture of the device described by `prop` into `buf` (always
 * NUL-terminated when `len` > 0) and returns `buf`. The caller owns both; nothing is
 * allocated. AMD's gcnArchName carries the feature suffix ("gfx936:sramecc+:xnack-"), as the
 * article prints it; an empty gcnArchName (seen on some runtimes) becomes "unknown". */
static inline const char *hprun_arch_name(const hipDeviceProp_t *prop, char *buf, size_t len)
{
  if (buf == NULL || len == 0)
    return "";
#if HPRUN_HIP_NATIVE && !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
  snprintf(buf, len, "%s", prop->gcnArchName[0] != '\0' ? prop->gcnArchName : "unknown");
#else
  snprintf(buf, len, "sm_%d%d", prop->major, prop->minor);
#endif
  return buf;
}

#endif /* HPRUN_HIP_COMPAT_H */
