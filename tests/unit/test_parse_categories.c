/*
 * The built-in kernel category sets (lib/profile/model/catsets_data.c) and their source files
 * configs/categories/{cuda,rocm,pytorch}.yaml must say the same thing, rule by rule; the sets must
 * sort real kernel names as a person would (the expected categories below were written by hand
 * from what each kernel does); and a profile must choose the set its profiler implies. Run from
 * the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "hprun.h"
#include "profile/model/catsets.h"
#include "profile/model/profile.h"

static void test_yaml_matches_builtin_sets(void **state)
{
  static const char *const names[] = {"cuda", "rocm", "pytorch"};
  size_t s, i, k;

  (void)state;
  assert_int_equal(hp__ncatsets, 3);
  for (s = 0; s < 3; s++) {
    const hp__catset *set = hp__catset_find(names[s]);
    hp_category_rule *rules = NULL;
    size_t n = 0;
    char path[64];
    hp_diags d;
    hp_diags_init(&d);
    snprintf(path, sizeof(path), "configs/categories/%s.yaml", names[s]);
    assert_non_null(set);
    assert_int_equal(hp_categories_load(path, &rules, &n, &d), 0);
    assert_int_equal(d.nerrors, 0);
    assert_int_equal(n, set->nrules);
    for (i = 0; i < n; i++) {
      assert_string_equal(rules[i].name, set->rules[i].name);
      assert_int_equal(rules[i].patterns.n, set->rules[i].npat);
      for (k = 0; k < set->rules[i].npat; k++)
        assert_string_equal(rules[i].patterns.v[k], set->rules[i].pat[k]);
    }
    hp_categories_free(rules, n);
    hp_diags_free(&d);
  }
  assert_null(hp__catset_find("other"));
  /* The article's ten rules, unchanged. */
  assert_int_equal(hp__catset_find("pytorch")->nrules, 10);
}

typedef struct expect {
  const char *name, *category;
} expect;

/* Real names from an ncu capture of a PyTorch Transformer layer on an H200
 * (tests/fixtures/real/ncu-h200-pytorch/time-raw.csv) and from cuBLAS/NCCL/Triton. */
static const expect cuda_names[] = {
    {"void native::vectorized_elementwise_kernel<8, native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char *, 3>>(int, T2, T3)",
     "add"},
    {"void native::reduce_kernel<128, 4, native::ReduceOp<c10::BFloat16, "
     "native::func_wrapper_t<c10::BFloat16, native::sum_functor<c10::BFloat16, float, "
     "c10::BFloat16>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, "
     "unsigned int, c10::BFloat16, 4, 4>>(T3)",
     "reduce"},
    {"nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT", "gemm"},
    {"void native::<unnamed>::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16, float, 32, 32, "
     "256, 0, 1, 0>(long, long, const T1 *, const T1 *, const T2 *, const T2 *, T1 *, T1 *)",
     "norm"},
    {"void native::<unnamed>::fused_dropout_kernel_vec<c10::BFloat16, float, unsigned int, 1, 8, "
     "bool>(detail::TensorInfo<const T1, T3>, detail::TensorInfo<T1, T3>, detail::TensorInfo<T6, "
     "T3>, T3, T2, at::PhiloxCudaState)",
     "dropout"},
    {"cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_"
     "kernel0_0",
     "attention"},
    {"void cudnn::compute_dot_do_o_specialized<1, 64>(const void *, const void *, void *, void *, "
     "unsigned int)",
     "attention"},
    {"void native::vectorized_elementwise_kernel<8, void native::<unnamed>::masked_scale_kernel<"
     "bool, c10::BFloat16, float>(at::Tensor &, const at::Tensor &, const at::Tensor &, "
     "T3)::[lambda(c10::BFloat16, bool) (instance 1)], std::array<char *, 3>>(int, T2, T3)",
     "dropout"},
    {"void native::vectorized_elementwise_kernel<8, native::BinaryFunctor<c10::BFloat16, "
     "c10::BFloat16, c10::BFloat16, void native::<unnamed>::threshold_kernel_impl<c10::BFloat16>"
     "(at::TensorIteratorBase &, T1, T1)::[lambda(c10::BFloat16, c10::BFloat16) (instance 1)]>, "
     "std::array<char *, 3>>(int, T2, T3)",
     "activation"},
    {"void native::elementwise_kernel<128, 4, void native::gpu_kernel_impl_nocast<native::"
     "direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() "
     "const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance "
     "1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
     "copy"},
    {"void native::vectorized_elementwise_kernel<4, native::BinaryFunctor<float, float, float, "
     "binary_internal::MulFunctor<float>>, std::array<char *, 3>>(int, T2, T3)",
     "mul"},
    {"void native::vectorized_elementwise_kernel<8, native::FillFunctor<c10::BFloat16>, "
     "std::array<char *, 1>>(int, T2, T3)",
     "fill"},
    {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas",
     "gemm"},
    {"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>"
     "(T1::Params)",
     "gemm"},
    {"void fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<"
     "cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
     "attention"},
    {"void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 10, "
     "false, false>(T2 *, const T1 *, int, int, int, const bool *, int, bool)",
     "softmax"},
    {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096>)", "nccl"},
    {"triton_poi_fused_add_native_layer_norm_0", "triton"},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, "
     "false>(int, float, const c10::BFloat16 *, const c10::BFloat16 *, const c10::BFloat16 *, "
     "float *, float *, c10::BFloat16 *)",
     "norm"},
    {"my_own_kernel(float *)", NULL},
};

/* Names seen in DCU and ROCm profiles: Tensile, hipBLASLt, MIOpen, composable_kernel, vLLM. */
static const expect rocm_names[] = {
    {"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1",
     "gemm"},
    {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1",
     "gemm"},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>,"
     " std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*,"
     " 3ul>)",
     "add"},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>(int, "
     "float, c10::Half const*, c10::Half const*, c10::Half const*, float*, float*, c10::Half*)",
     "layernorm"},
    {"void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, "
     "c10::BFloat16 const*, float, int, int)",
     "rms_norm"},
    {"void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, "
     "c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)",
     "rotary_embedding"},
    {"void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<"
     "c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)",
     "activation"},
    {"void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16, __hip_bfloat16, "
     "(vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*, __hip_bfloat16 const*)",
     "attention"},
    {"void vllm::reshape_and_cache_kernel<__hip_bfloat16, __hip_bfloat16, "
     "(vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*)",
     "kv_cache"},
    {"void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4, false, false, "
     "cutlass::half_t>, false, false, false, false, true, true, false>(Flash_fwd_params)",
     "attention"},
    {"_ZN5aiter42fmha_fwd_hd128_bf16_causal_group_a16w16", "attention"},
    {"void vllm::moe::topkGatingSoftmax<4, 64, 4, 16, int>(float const*, bool const*, float*, int,"
     " int*, int*, int, int, int)",
     "moe"},
    {"void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::"
     "gemm::RowMajor>, true, (ck::InMemoryDataOperationEnum)0, 1>(ck::Argument)",
     "gemm"},
    {"void ck::kernel_elementwise_layernorm_2d<ck::GridwiseElementwiseLayernormWelfordVariance_"
     "mk_to_mk>(ck::Tuple<>)",
     "layernorm"},
    {"miopenSp3AsmConv_v21_1_3_gfx9_fp32_f2x3_stride1", "convolution"},
    {"igemm_fwd_gtcx_nhwc_fp16_bx0_ex1_bt256x128x32_wt32x32x8_ws2x1_wr2x2", "convolution"},
    {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0", "triton"},
    {"void vllm::scaled_fp8_quant_kernel<c10::BFloat16>(c10::Float8_e4m3fnuz*, "
     "c10::BFloat16 const*, float const*, long)",
     "quantization"},
    {"vector_add(float const*, float const*, float*, int)", "vector_add"},
    {"void at::native::roll_cuda_kernel<float>(float const*, float*, long, long, long, long)",
     "roll"},
    {"my_own_kernel(float *)", NULL},
};

static void check_set(const char *setname, const expect *e, size_t n)
{
  const hp__catset *set = hp__catset_find(setname);
  hp_profile *p;
  size_t i;

  assert_non_null(set);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_set_category_set(p, setname), 0);
  for (i = 0; i < n; i++) {
    const char *got = hp__catset_match(set, e[i].name);
    const char *want = e[i].category;
    if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0))
      fail_msg("%s: %s -> %s, expected %s", setname, e[i].name, got ? got : "other",
               want ? want : "other");
    /* The profile's classifier, on lowercased rules, says the same. */
    assert_string_equal(hp__profile_classify(p, e[i].name), want ? want : "other");
  }
  hp_profile_free(p);
}

static void test_cuda_names(void **state)
{
  (void)state;
  check_set("cuda", cuda_names, sizeof(cuda_names) / sizeof(cuda_names[0]));
}

static void test_rocm_names(void **state)
{
  (void)state;
  check_set("rocm", rocm_names, sizeof(rocm_names) / sizeof(rocm_names[0]));
}

/* The set follows the profiler; rules of one's own, or a named set, stay. */
static void test_selection(void **state)
{
  hp_profile *p;
  hp_diags d;
  const char *why;
  hp_category_rule r = {0};
  const char *pat[] = {"gemm"};

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_string_equal(hp_profile_category_set(p, &why), "rocm"); /* nothing read: the default */
  assert_int_equal(hp_profile_add_path(p, "tests/fixtures/real/ncu-h200-pytorch/time-raw.csv", &d),
                   0);
  assert_string_equal(hp_profile_category_set(p, &why), "cuda");
  assert_string_equal(why, "profiler");
  hp_profile_free(p);

  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, "tests/fixtures/profile/hipprof/vector_add", &d), 0);
  assert_true(hp_profile_nfiles(p) > 0);
  assert_string_equal(hp_profile_category_set(p, &why), "rocm");
  assert_string_equal(why, "profiler");
  /* A named set is kept whatever is read. */
  assert_int_equal(hp_profile_set_category_set(p, "pytorch"), 0);
  assert_int_equal(hp_profile_add_path(p, "tests/fixtures/real/ncu-h200-pytorch/time-raw.csv", &d),
                   0);
  assert_string_equal(hp_profile_category_set(p, &why), "pytorch");
  assert_string_equal(why, "user");
  /* Files of both stacks: the kernel time left in "other" decides. The CUDA set leaves hipprof's
   * vector_add (2.256 ms); the ROCm set leaves the layer's nvjet and cuDNN kernels (25.8% of
   * 3.733 ms = 0.96 ms, by python3 over time-raw.csv): ROCm. */
  assert_int_equal(hp_profile_set_category_set(p, "auto"), 0);
  assert_string_equal(hp_profile_category_set(p, &why), "rocm");
  assert_string_equal(why, "kernel names");
  /* Rules of one's own. */
  r.name = "mine";
  r.patterns.v = (char **)pat;
  r.patterns.n = 1;
  assert_int_equal(hp_profile_set_categories(p, &r, 1), 0);
  assert_string_equal(hp_profile_category_set(p, NULL), "custom");
  assert_int_equal(hp_profile_set_category_set(p, "nope"), HP_ENOENT);
  hp_profile_free(p);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yaml_matches_builtin_sets),
      cmocka_unit_test(test_cuda_names),
      cmocka_unit_test(test_rocm_names),
      cmocka_unit_test(test_selection),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
