/*
 * Short kernel names (lib/profile/tables/kname.c) on real names: ncu's PyTorch, cuBLAS and cuDNN names
 * from tests/fixtures/real/ncu-h200-pytorch/time-raw.csv, a HIP demangler's spelling, and a
 * Tensile name. The expected short names were written by hand: the function's own name and the
 * template argument that tells its instances apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "profile/tables/table.h"

static void check(const char *full, const char *want)
{
  char *got = hp__kernel_short(full);

  assert_non_null(got);
  if (strcmp(got, want) != 0)
    fail_msg("%s\n  -> %s\n  expected %s", full, got, want);
  free(got);
}

static void test_short_names(void **state)
{
  (void)state;
  check("void native::vectorized_elementwise_kernel<8, native::CUDAFunctor_add<c10::BFloat16>, "
        "std::array<char *, 3>>(int, T2, T3)",
        "vectorized_elementwise_kernel<CUDAFunctor_add>");
  check("void native::elementwise_kernel<128, 4, void native::gpu_kernel_impl_nocast<native::"
        "direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() "
        "const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance "
        "1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
        "elementwise_kernel<direct_copy_kernel_cuda>");
  check("void native::elementwise_kernel<128, 4, void native::gpu_kernel_impl_nocast<native::"
        "CUDAFunctor_add<c10::BFloat16>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) "
        "(instance 1)]>(int, T3)",
        "elementwise_kernel<CUDAFunctor_add>");
  check("void native::reduce_kernel<512, 1, native::ReduceOp<float, native::MeanOps<float, float, "
        "float, float>, unsigned int, float, 4, 4>>(T3)",
        "reduce_kernel<MeanOps>");
  check("void native::vectorized_elementwise_kernel<4, native::BinaryFunctor<float, float, float, "
        "binary_internal::MulFunctor<float>>, std::array<char *, 3>>(int, T2, T3)",
        "vectorized_elementwise_kernel<MulFunctor>");
  check("void native::<unnamed>::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16, float, 32, 32, "
        "256, 0, 1, 0>(long, long, const T1 *, const T1 *, const T2 *, const T2 *, T1 *, T1 *)",
        "GammaBetaBackwardCUDAKernelTemplate");
  check("nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT", "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT");
  check(
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1"
      "_kernel0_0",
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1"
      "_kernel0_0");
  check("philox::unpack_cudnn(at::PhiloxCudaState, long *, long *)", "unpack_cudnn");
  check(
      "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>(int,"
      " float, c10::Half const*, c10::Half const*, c10::Half const*, float*, float*, c10::Half*)",
      "vectorized_layer_norm_kernel");
  check("Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1",
        "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1\xE2\x80\xA6");
  check("vector_add(float const*, float const*, float*, int)", "vector_add");
  check("triton_poi_fused_add_0", "triton_poi_fused_add_0");
}

static void test_unique(void **state)
{
  char *n[4];
  size_t i;

  (void)state;
  n[0] = strdup("reduce_kernel<MeanOps>");
  n[1] = strdup("fill");
  n[2] = strdup("reduce_kernel<MeanOps>");
  n[3] = strdup("reduce_kernel<MeanOps>");
  assert_int_equal(hp__names_unique(n, 4), 0);
  assert_string_equal(n[0], "reduce_kernel<MeanOps>");
  assert_string_equal(n[1], "fill");
  assert_string_equal(n[2], "reduce_kernel<MeanOps> #2");
  assert_string_equal(n[3], "reduce_kernel<MeanOps> #3");
  for (i = 0; i < 4; i++)
    free(n[i]);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_short_names),
      cmocka_unit_test(test_unique),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
