/*
 * The tensor-core roofline (lib/analyze/roofline.c, roofline_capture.c) on the real H200
 * captures of tests/fixtures/real/h200-tensor-roofline/ (README there): kernels of known work,
 * a bf16 Transformer layer step with the three roofline sections, and the same step captured
 * with only SpeedOfLight + SpeedOfLight_RooflineChart.
 *
 * The expected figures are not hprun's: the FLOPs of the known kernels are 2·M·N·K of their
 * shapes (4·B·H·S²·D for attention), printed by cap_models.py into gemms.log; the achieved
 * TFLOP/s and the per-launch FLOP counts come from hand.py (python3's csv module over the same
 * files; its output is hand.txt); the ceilings are .peak_sustained x the median over the kernels
 * of their mean clocks, also computed with python3 (README).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analyze/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CAP "tests/fixtures/real/h200-tensor-roofline/"

static hp_roofline *points(const char *path, const hp_peaks *pk)
{
  hp_profile *p = NULL;
  hp_roofline *r = NULL;
  hp_diags d;

  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, path, &d), 0);
  assert_int_equal(hp_roofline_compute(p, pk, &r), 0);
  hp_profile_free(p);
  hp_diags_free(&d);
  assert_non_null(r);
  return r;
}

/* |a - b| <= rel * |b| */
static void near(double a, double b, double rel)
{
  if (!(fabs(a - b) <= rel * fabs(b)))
    fail_msg("expected %.9g, got %.9g", b, a);
}

/* The point of the only kernel whose name holds `part`. */
static const hp_roof_point *find(const hp_roofline *r, const char *part)
{
  const hp_roof_point *hit = NULL;
  size_t i;

  for (i = 0; i < r->n; i++)
    if (strstr(r->pts[i].kernel, part) != NULL) {
      if (hit != NULL)
        fail_msg("two kernels hold \"%s\"", part);
      hit = &r->pts[i];
    }
  if (hit == NULL)
    fail_msg("no kernel holds \"%s\"", part);
  return hit;
}

/* A cuBLAS GEMM or cuDNN flash-attention kernel, by name. */
static int tensor_kernel(const char *name)
{
  return strncmp(name, "nvjet", 5) == 0 || strstr(name, "sdpa") != NULL ||
      strstr(name, "xmma_gemm") != NULL;
}

/* One known kernel: its precision, on the tensor ceiling of that precision, compute-bound, its
 * FLOPs within 5% of the shape's and its TFLOP/s within 2% of hand.py's. */
static void known(const hp_roofline *r, const char *part, const char *prec, double shape_flop,
                  double hand_tflops, double roof_tflops)
{
  const hp_roof_point *p = find(r, part);

  assert_string_equal(p->precision, prec);
  assert_string_equal(p->ceiling, prec);
  assert_int_equal(p->bound, HP_BOUND_COMPUTE);
  assert_null(p->note);
  near(p->flop, shape_flop, 0.05);
  near(p->gflops, hand_tflops * 1e3, 0.02);
  near(p->roof_gflops, roof_tflops * 1e3, 1e-6);
}

/* The kernels of known work (cap_models.py gemms), ceilings from the capture itself. */
static void known_work(void **state)
{
  hp_roofline *r = points(CAP "gemms-raw.csv", NULL);
  const double sm = 1443157000.0, dram = 3198501000.0; /* medians of the 9 kernels' clocks */
  const hp_roof_point *p;

  (void)state;
  assert_non_null(r->peaks);
  assert_string_equal(r->peaks->source, "from the ncu capture");
  /* dram__bytes.sum.peak_sustained is "1.504 Kbyte/cycle" in this file (ncu --import). */
  near(r->peaks->bw_gbs, 1504 * dram * 1e-9, 1e-9);
  near(r->peaks->bf16_tflops, 540672 * sm * 1e-12, 1e-9);
  near(r->peaks->tf32_tflops, 270336 * sm * 1e-12, 1e-9);
  near(r->peaks->fp32_tflops, 2 * 16896 * sm * 1e-12, 1e-9);
  known(r, "nvjet_sm90_tst_256x128", "bf16-tensor", 2.0 * 4096 * 4096 * 4096, 625.177190,
        540672 * sm * 1e-12);
  known(r, "nvjet_sm90_hsh_256x128", "fp16-tensor", 2.0 * 8192 * 4096 * 2048, 613.479117,
        540672 * sm * 1e-12);
  known(r, "sm90_xmma_gemm_f32f32_tf32f32", "tf32-tensor", 2.0 * 2048 * 2048 * 2048, 270.462066,
        270336 * sm * 1e-12);
  known(r, "sdpa_sm90_flash_fprop", "bf16-tensor", 4.0 * 4 * 16 * 2048 * 2048 * 128, 510.929606,
        540672 * sm * 1e-12);
  /* The tensor ops are exact counts: 2·M·N·K to the FLOP, plus hand.py's vector FLOPs. */
  near(find(r, "nvjet_sm90_tst_256x128")->flop, 137438953472.0, 1e-12);
  near(find(r, "sdpa_sm90_flash_fprop")->flop, 137438953472.0 + 1125155744.7, 1e-9);
  /* y = x * 2 + 1 over 2^26 floats: one FMUL, then one FFMA (add with alpha), per element. */
  p = find(r, "MulFunctor");
  near(p->flop, 67108864, 1e-6);
  assert_int_equal(p->bound, HP_BOUND_MEMORY);
  assert_string_equal(p->ceiling, "bandwidth");
  p = find(r, "CUDAFunctorOnSelf_add");
  near(p->flop, 2.0 * 67108864, 1e-6);
  assert_int_equal(p->bound, HP_BOUND_MEMORY);
  hp_roofline_free(r);
}

/* The bf16 layer step with the tensor section: every GEMM and attention kernel on the bf16
 * tensor ceiling, with the FLOPs of its shape (tokens 8 x 256 = 2048, d 512, ff 2048, 8 heads of
 * 64); the vectorized elementwise kernels on the bandwidth side. */
static void layer_step(void **state)
{
  hp_roofline *r = points(CAP "layer-raw.csv", NULL);
  size_t i, tensor = 0;

  (void)state;
  for (i = 0; i < r->n; i++) {
    const hp_roof_point *p = &r->pts[i];
    if (tensor_kernel(p->kernel)) {
      assert_string_equal(p->precision, "bf16-tensor");
      assert_string_equal(p->ceiling, "bf16-tensor");
      assert_int_equal(p->bound, HP_BOUND_COMPUTE);
      assert_null(p->note);
      tensor++;
    } else if (strstr(p->kernel, "vectorized_elementwise_kernel") != NULL) {
      assert_int_equal(p->bound, HP_BOUND_MEMORY);
    }
    assert_null(p->note);
  }
  assert_int_equal(tensor, 10);
  /* linear1 (fp32 bias epilogue: 2^22 more), in_proj, out_proj, attention forward/backward. */
  near(find(r, "coopA_bias_TNT")->flop, 2.0 * 2048 * 2048 * 512 + 4194304.8, 1e-9);
  near(find(r, "192x128_64x5_1x2_h_bz_coopB_TNT")->flop, 2.0 * 2048 * 1536 * 512, 1e-12);
  near(find(r, "32x64_64x16_2x1_v_bz_NTN")->flop, 2.0 * 2048 * 512 * 512, 1e-12);
  near(find(r, "flash_fprop")->flop, 4.0 * 8 * 8 * 256 * 256 * 64, 0.05);
  near(find(r, "flash_bprop")->flop, 2.5 * 4.0 * 8 * 8 * 256 * 256 * 64, 0.05);
  near(find(r, "flash_fprop")->gflops, 75.964e3, 0.02);
  near(find(r, "flash_bprop")->gflops, 139.896e3, 0.02);
  near(find(r, "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT")->gflops, 286.484e3, 0.02);
  hp_roofline_free(r);
}

/* Only SpeedOfLight + SpeedOfLight_RooflineChart: no GEMM or attention kernel gets a FLOP rate,
 * bound, roof or efficiency, with the capture's ceilings or the datasheet's, and each names the
 * section to add; the other kernels (whose tensor pipe still reads 0.2-3.8% busy) keep theirs. */
static void sol_only(void **state)
{
  hp_peaks pk;
  int pass;

  (void)state;
  hp_peaks_init(&pk);
  pk.bw_gbs = 4800, pk.fp32_tflops = 66.9, pk.fp64_tflops = 33.5, pk.bf16_tflops = 989.5;
  for (pass = 0; pass < 2; pass++) {
    hp_roofline *r = points(CAP "layer-sol-only-raw.csv", pass ? &pk : NULL);
    size_t i, missing = 0, bound = 0;
    for (i = 0; i < r->n; i++) {
      const hp_roof_point *p = &r->pts[i];
      if (tensor_kernel(p->kernel)) {
        assert_int_equal(p->bound, HP_BOUND_UNKNOWN);
        assert_true(isnan(p->flop) && isnan(p->ai) && isnan(p->gflops));
        assert_true(isnan(p->roof_gflops) && isnan(p->efficiency));
        assert_null(p->precision);
        assert_null(p->ceiling);
        assert_non_null(strstr(p->note, "--section SpeedOfLight_HierarchicalTensorRooflineChart"));
        assert_true(p->gbs > 0);
        missing++;
      } else {
        assert_null(p->note);
        bound += p->bound != HP_BOUND_UNKNOWN;
      }
    }
    assert_int_equal(missing, 10);
    assert_int_equal(bound, r->n - 10);
    hp_roofline_free(r);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_work),
      cmocka_unit_test(layer_step),
      cmocka_unit_test(sol_only),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
