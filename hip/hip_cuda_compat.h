/* hip_cuda_compat.h: the HIP runtime API that hprun's samples use, mapped onto CUDA.
 *
 * Do not include this file directly: include "hip_compat.h", which picks the real
 * <hip/hip_runtime.h> under hipcc and this mapping under nvcc (`nvcc -x cu -Ihip file.hip`).
 *
 * The list is deliberately short: what the hip/ samples and hip/hprun_timer.h call, plus their
 * nearest neighbours (the other copy kinds, streams, hipMemset), so that a sample that starts
 * using anything else fails to compile under nvcc instead of silently meaning something else.
 * Add a line here when that happens. Every mapping is a plain macro or typedef onto the CUDA
 * runtime function of the same shape: HIP's runtime API was modelled on CUDA's, so arguments,
 * their order and their meaning are the same. Plain macros (not inline wrappers) keep
 * cudaMalloc's template overload working for typed pointers (hipMalloc(&float_ptr, bytes)).
 *
 * Kernel syntax needs no mapping: __global__, __device__, __shared__, threadIdx, blockIdx,
 * blockDim, gridDim, __syncthreads() and the <<<grid, block, shmem, stream>>> launch are CUDA's
 * own. HIP's hipThreadIdx_x-style spellings are not mapped; the samples do not use them.
 *
 * Known gap: hipDeviceProp_t has `gcnArchName` on AMD; CUDA's cudaDeviceProp does not. Use
 * hprun_arch_name() from hip_compat.h, which prints "sm_<major><minor>" under CUDA. */
#ifndef HPRUN_HIP_CUDA_COMPAT_H
#define HPRUN_HIP_CUDA_COMPAT_H

#ifndef __CUDACC__
#error "hip_cuda_compat.h is for nvcc (compile with: nvcc -x cu -Ihip file.hip)"
#endif

#include <cuda_runtime.h>

/* Types. */
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef enum cudaMemcpyKind hipMemcpyKind;

/* Error codes the samples and the timer compare against or return. */
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorNoDevice cudaErrorNoDevice

/* Copy directions. */
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault

/* Errors. */
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName

/* Devices. */
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceSynchronize cudaDeviceSynchronize

/* Memory. */
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemset cudaMemset

/* Streams. */
#define hipStreamCreate cudaStreamCreate
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize

/* Events. */
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime

/* hipLaunchKernelGGL(kernel, grid, block, dynamic_shared_bytes, stream, args...) is HIP's
 * macro form of the triple-chevron launch; under CUDA it is exactly that launch. A kernel
 * template with commas in its arguments must be wrapped in parentheses, as under HIP. */
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)                                \
  (kernel)<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#endif /* HPRUN_HIP_CUDA_COMPAT_H */
