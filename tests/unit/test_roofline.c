/*
 * Tests of the roofline (lib/analyze/roofline.c, lib/plan/roofline.c): points from the real ncu
 * captures of an H200 (tests/fixtures/real/h200-roofline/, README there), from a rocprof PMC file
 * written here, and the peaks file and result-line readers.
 *
 * The expected figures were computed outside hprun, with python3's csv module over the same files:
 * per kernel, the mean over its launches of (fadd + fmul + 2 ffma + dadd + dmul + 2 dfma + hadd +
 * hmul + 2 hfma) thread instructions, of dram__bytes_read.sum + dram__bytes_write.sum and of
 * gpu__time_duration.sum (ns); for the PMC file, by hand from the counter values below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analyze/roofline.h"
#include "util/sys/fsutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REAL "tests/fixtures/real/h200-roofline/"

/* The H200's measured peaks (h200-measured.peaks.yaml). */
static hp_peaks h200(void)
{
  hp_peaks p;

  hp_peaks_init(&p);
  p.bw_gbs = 4135.2;
  p.fp32_tflops = 60.5212;
  p.fp64_tflops = 32.8584;
  return p;
}

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
  return r;
}

/* |a - b| <= rel * |b| */
static void near(double a, double b, double rel)
{
  if (!(fabs(a - b) <= rel * fabs(b)))
    fail_msg("expected %.9g, got %.9g", b, a);
}

/* A tiled SGEMM lands on the compute side, the elementwise kernels on the memory side. */
static void ncu_mix(void **state)
{
  hp_peaks pk = h200();
  hp_roofline *r = points(REAL "ncu-roofline_mix.csv", &pk);

  (void)state;
  assert_non_null(r);
  assert_string_equal(r->source, "ncu");
  assert_int_equal(r->n, 3);
  /* By total time: the GEMM (3 x 1.84 ms), scale_add, relu. */
  assert_non_null(strstr(r->pts[0].kernel, "sgemm_tiled"));
  near(r->pts[0].flop, 2 * 8589934592.0 + 2 * 4194304.0, 1e-12);
  near(r->pts[0].time_ns, 5525312.0 / 3, 1e-12);
  assert_int_equal(r->pts[0].bound, HP_BOUND_COMPUTE);
  assert_string_equal(r->pts[0].precision, "fp32");
  assert_string_equal(r->pts[0].ceiling, "fp32");
  near(r->pts[0].roof_gflops, 60521.2, 1e-12);
  assert_non_null(strstr(r->pts[1].kernel, "scale_add"));
  near(r->pts[1].ai, 0.169285, 1e-5);
  assert_int_equal(r->pts[1].bound, HP_BOUND_MEMORY);
  assert_string_equal(r->pts[1].ceiling, "bandwidth");
  near(r->pts[1].efficiency, 0.838266, 1e-5);
  /* ReLU is a max: no add, multiply or FMA, so 0 FLOP, memory-bound, no precision. */
  assert_non_null(strstr(r->pts[2].kernel, "relu"));
  assert_true(r->pts[2].flop == 0);
  assert_null(r->pts[2].precision);
  assert_int_equal(r->pts[2].bound, HP_BOUND_MEMORY);
  hp_roofline_free(r);
}

/* PyTorch: cuBLAS's FP32 GEMM near the FP32 roof, the elementwise kernels on the bandwidth one. */
static void ncu_torch(void **state)
{
  hp_peaks pk = h200();
  hp_roofline *r = points(REAL "ncu-torch-roofline.csv", &pk);
  size_t i, gemm = 0, elementwise = 0;

  (void)state;
  assert_non_null(r);
  for (i = 0; i < r->n; i++) {
    if (strstr(r->pts[i].kernel, "gemm")) {
      assert_int_equal(r->pts[i].bound, HP_BOUND_COMPUTE);
      near(r->pts[i].efficiency, 0.846444, 1e-5);
      gemm++;
    } else if (strstr(r->pts[i].kernel, "vectorized_elementwise")) {
      assert_int_equal(r->pts[i].bound, HP_BOUND_MEMORY);
      elementwise++;
    }
  }
  assert_int_equal(gemm, 1);
  assert_int_equal(elementwise, 3);
  hp_roofline_free(r);
}

/* vector_add from raw counts, and from the SpeedOfLight_RooflineChart section's rates. */
static void ncu_vector_add(void **state)
{
  hp_peaks pk = h200();
  hp_roofline *r = points(REAL "ncu-vector_add-16M.csv", &pk);

  (void)state;
  assert_int_equal(r->n, 1);
  near(r->pts[0].flop, 16777216, 1e-12);
  near(r->pts[0].ai, 0.0887151, 1e-5);
  near(r->pts[0].gbs, 3243.57, 1e-5);
  near(r->pts[0].efficiency, 0.784381, 1e-5);
  hp_roofline_free(r);
  /* 144.86 FLOP/cycle x 1972984419.335 cycles/s over 3221595584346.12 bytes/s (launch means). */
  r = points(REAL "ncu-vector_add-rooflinechart.csv", &pk);
  assert_int_equal(r->n, 1);
  near(r->pts[0].ai, 144.86 * 1972984419.335 / 3221595584346.12, 1e-9);
  near(r->pts[0].gflops, 144.86 * 1972984419.335 / 1e9, 1e-9);
  hp_roofline_free(r);
}

/* rocprof PMC counters: FLOP from SQ_INSTS_VALU_*, bytes from TCC_EA requests. */
static void pmc_counters(void **state)
{
  static const char csv[] =
      "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,"
      "sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,SQ_INSTS_VALU_FMA_F32,"
      "SQ_INSTS_VALU_ADD_F32,TCC_EA_RDREQ_sum,TCC_EA_RDREQ_32B_sum,TCC_EA_WRREQ_sum,"
      "TCC_EA_WRREQ_64B_sum\n"
      "0,\"k(float*)\",0,0,0,1,1,256,64,0,0,8,0,8,64,0x0,0x1,900,1000,2000,2001,1000,500,100,20,"
      "50,50\n"
      "1,\"k(float*)\",0,0,1,1,1,256,64,0,0,8,0,8,64,0x0,0x1,2900,3000,4000,4001,1000,500,100,20,"
      "50,50\n";
  char dir[] = "/tmp/hprun-roof.XXXXXX", *path;
  hp_peaks pk;
  hp_roofline *r;

  (void)state;
  hp_peaks_init(&pk);
  pk.bw_gbs = 1600;
  pk.fp32_tflops = 22.6;
  assert_non_null(mkdtemp(dir));
  path = hp__path_join(dir, "results.csv");
  assert_int_equal(hp__write_file(path, csv, strlen(csv), 0), 0);
  r = points(path, &pk);
  assert_non_null(r);
  assert_string_equal(r->source, "pmc");
  /* 1000 FMA x 64 lanes x 2 + 500 ADD x 64 = 160000 FLOP; 20 x 32 + 80 x 64 read bytes + 50 x
   * 64 written = 8960 bytes; 1000 ns. */
  near(r->pts[0].flop, 160000, 1e-12);
  near(r->pts[0].bytes, 8960, 1e-12);
  near(r->pts[0].gflops, 160, 1e-12);
  /* Intensity 17.86 beyond the ridge 22600 / 1600 = 14.125: compute-bound. */
  assert_int_equal(r->pts[0].bound, HP_BOUND_COMPUTE);
  near(r->pts[0].efficiency, 160.0 / 22600, 1e-12);
  hp_roofline_free(r);
  unlink(path);
  rmdir(dir);
  free(path);
}

/* MFMA products count 512 FLOP each, as FP16; a matrix peak moves the ridge. */
static void mfma_ceiling(void **state)
{
  static const char csv[] =
      "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,"
      "sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,SQ_INSTS_VALU_MFMA_MOPS_F16,"
      "TCC_EA_RDREQ_sum,TCC_EA_RDREQ_32B_sum,TCC_EA_WRREQ_sum,TCC_EA_WRREQ_64B_sum\n"
      "0,\"h(half*)\",0,0,0,1,1,256,64,0,0,8,0,8,64,0x0,0x1,900,1000,2000,2001,1000,100,20,50,"
      "50\n";
  char dir[] = "/tmp/hprun-roof.XXXXXX", *path;
  hp_peaks pk;
  hp_roofline *r;

  (void)state;
  hp_peaks_init(&pk);
  pk.bw_gbs = 1600;
  pk.fp32_tflops = 22.6;
  assert_non_null(mkdtemp(dir));
  path = hp__path_join(dir, "results.csv");
  assert_int_equal(hp__write_file(path, csv, strlen(csv), 0), 0);
  /* 1000 x 512 = 512000 FLOP over 8960 bytes: 57.14 FLOP/byte of FP16 matrix work. Without an
   * FP16 matrix peak there is no ceiling to judge it against (FP32's would call it compute-bound
   * at several times its roof): no bound, and a note that says why. */
  r = points(path, &pk);
  near(r->pts[0].flop, 512000, 1e-12);
  assert_string_equal(r->pts[0].precision, "fp16-matrix");
  assert_int_equal(r->pts[0].bound, HP_BOUND_UNKNOWN);
  assert_null(r->pts[0].ceiling);
  assert_non_null(strstr(r->pts[0].note, "no ceiling"));
  hp_roofline_free(r);
  /* With the MI210's FP16 matrix peak (181 TFLOP/s) the ridge is 181000 / 1600 = 113.1: it is
   * memory-bound, under 1600 x 512000 / 8960 = 91428.6 GFLOP/s. */
  pk.fp16_tflops = 181;
  r = points(path, &pk);
  assert_int_equal(r->pts[0].bound, HP_BOUND_MEMORY);
  assert_string_equal(r->pts[0].ceiling, "bandwidth");
  near(r->pts[0].roof_gflops, 1600.0 * 512000 / 8960, 1e-12);
  hp_roofline_free(r);
  /* Ten times the bandwidth moves the ridge to 11.3: compute-bound under the FP16 matrix one. */
  pk.bw_gbs = 16000;
  r = points(path, &pk);
  assert_int_equal(r->pts[0].bound, HP_BOUND_COMPUTE);
  assert_string_equal(r->pts[0].ceiling, "fp16-matrix");
  near(r->pts[0].roof_gflops, 181000, 1e-12);
  hp_roofline_free(r);
  unlink(path);
  rmdir(dir);
  free(path);
}

/* The PyTorch Transformer captures (tests/fixtures/real/ncu-h200-pytorch) hold no roofline
 * counters (no FLOP counts, no dram__bytes): no points, rather than points from other metrics. */
static void pytorch_sets_without_counters(void **state)
{
  static const char *const files[] = {"tests/fixtures/real/ncu-h200-pytorch/basic-raw.csv",
                                      "tests/fixtures/real/ncu-h200-pytorch/time-raw.csv"};
  hp_peaks pk = h200();
  size_t i;

  (void)state;
  for (i = 0; i < 2; i++) {
    hp_roofline *r = points(files[i], &pk);
    assert_null(r);
  }
}

/* No counters: no roofline, and no error. */
static void no_counters(void **state)
{
  hp_profile *p = NULL;
  hp_roofline *r = (hp_roofline *)&r;

  (void)state;
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_roofline_compute(p, NULL, &r), 0);
  assert_null(r);
  hp_profile_free(p);
}

static void peaks_files(void **state)
{
  static const char gtext[] = "source: datasheet\npeak_bw_gbs: 1600\npeak_fp32_tflops: 22.6\n";
  static const char btext[] = "peak_bw_gbs: 1600\npeak_fp32_tflops: fast\n";
  char dir[] = "/tmp/hprun-peaks.XXXXXX", *good, *bad;
  hp_peaks pk;
  hp_diags d;

  (void)state;
  assert_non_null(mkdtemp(dir));
  good = hp__path_join(dir, "good.yaml");
  bad = hp__path_join(dir, "bad.yaml");
  assert_int_equal(hp__write_file(good, gtext, strlen(gtext), 0), 0);
  assert_int_equal(hp__write_file(bad, btext, strlen(btext), 0), 0);
  hp_diags_init(&d);
  assert_int_equal(hp_peaks_load(good, &pk, &d), 0);
  assert_true(pk.bw_gbs == 1600 && pk.fp32_tflops == 22.6 && isnan(pk.fp64_tflops));
  assert_string_equal(pk.source, "datasheet");
  hp_peaks_clear(&pk);
  assert_int_equal(hp_peaks_load(bad, &pk, &d), HP_EPLAN);
  assert_non_null(d.head);
  assert_int_equal(d.head->line, 2);
  assert_non_null(strstr(d.head->msg, "peak_fp32_tflops"));
  hp_diags_free(&d);
  unlink(good);
  unlink(bad);
  rmdir(dir);
  free(good);
  free(bad);
}

static void peaks_line(void **state)
{
  hp_peaks pk;
  char *text = NULL;

  (void)state;
  hp_peaks_init(&pk);
  assert_int_equal(hp_peaks_parse_line("device=NVIDIA_H200 arch=sm_90 triad_mib=1024 "
                                       "peak_bw_gbs=4153.633 peak_fp32_tflops=61.35285 "
                                       "peak_fp64_tflops=33.16946",
                                       &pk),
                   0);
  assert_true(pk.bw_gbs == 4153.633 && pk.fp32_tflops == 61.35285 && pk.fp64_tflops == 33.16946);
  assert_string_equal(pk.device, "NVIDIA_H200");
  assert_int_equal(hp_peaks_format(&pk, &text), 0);
  assert_non_null(strstr(text, "device: \"NVIDIA_H200\"\npeak_bw_gbs: 4153.63\n"));
  free(text);
  hp_peaks_clear(&pk);
  assert_int_equal(hp_peaks_parse_line("mean_kernel_ms=0.1", &pk), HP_ENOENT);
  /* roofline_peaks' matrix keys go where a peaks file keeps them, and are written back there. */
  hp_peaks_init(&pk);
  assert_int_equal(hp_peaks_parse_line("peak_bw_gbs=4000 peak_fp32_tflops=60 "
                                       "peak_fp16_matrix_tflops=650.5 peak_bf16_matrix_tflops=640",
                                       &pk),
                   0);
  assert_true(pk.fp16_tflops == 650.5 && pk.bf16_tflops == 640);
  assert_int_equal(hp_peaks_format(&pk, &text), 0);
  assert_non_null(strstr(text, "peak_fp16_tflops: 650.5\npeak_bf16_tflops: 640\n"));
  free(text);
  hp_peaks_clear(&pk);
}

#define TORCH "tests/fixtures/real/ncu-h200-pytorch/"

/* The point of the kernel whose name starts with `name`, or NULL. */
static const hp_roof_point *find(const hp_roofline *r, const char *name)
{
  size_t i;

  for (i = 0; i < r->n; i++)
    if (strncmp(r->pts[i].kernel, name, strlen(name)) == 0)
      return &r->pts[i];
  return NULL;
}

/* A kernel that runs on tensor cores: cuBLAS nvjet or cuDNN's flash attention. */
static int tensor_kernel(const char *name)
{
  return strncmp(name, "nvjet", 5) == 0 || strstr(name, "sdpa") != NULL;
}

/* The bf16 Transformer layer captured with --set full (its tensor section included): every GEMM
 * and attention kernel is placed against the bf16 tensor ceiling, with FLOPs that agree with the
 * shapes, and the ceilings come from the capture. Expected figures: python3's csv module over
 * full-raw.csv (sm__ops_path_tensor_src_bf16_dst_fp32.sum + the FADD/FMUL/FFMA/... rates x
 * smsp__cycles_elapsed.avg.per_second x gpu__time_duration; the peaks from .peak_sustained x the
 * medians over the 35 kernels of sm__cycles_elapsed.avg.per_second, 2000434487.86 Hz, and
 * dram__cycles_elapsed.avg.per_second, 3182033176.74 Hz). */
static void ncu_tensor_capture(void **state)
{
  hp_roofline *r = points(TORCH "full-raw.csv", NULL);
  const hp_roof_point *p;
  size_t i, tensor = 0;

  (void)state;
  assert_non_null(r);
  assert_non_null(r->peaks);
  assert_string_equal(r->peaks->source, "from the ncu capture");
  assert_non_null(strstr(r->peaks->device, "sm_90, 132 SMs, SM clock 2000 MHz"));
  near(r->peaks->bw_gbs, 1504 * 3182033176.7433333e-9, 1e-9);
  near(r->peaks->bf16_tflops, 540672 * 2000434487.86e-12, 1e-9);
  near(r->peaks->fp16_tflops, 540672 * 2000434487.86e-12, 1e-9);
  near(r->peaks->fp8_tflops, 1081344 * 2000434487.86e-12, 1e-9);
  near(r->peaks->fp32_tflops, 33792 * 2000434487.86e-12, 1e-9);
  /* linear1 of the layer, 2048 tokens x 2048 x 512: 2·M·N·K, plus the fp32 bias epilogue. */
  p = find(r, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  assert_non_null(p);
  near(p->flop, 4294967296.0 + 4194303.218174443, 1e-6);
  near(p->flop, 2.0 * 2048 * 2048 * 512, 0.01);
  near(p->gflops, 393984.75066148955, 1e-6);
  assert_string_equal(p->precision, "bf16-tensor");
  assert_int_equal(p->bound, HP_BOUND_COMPUTE);
  assert_string_equal(p->ceiling, "bf16-tensor");
  near(p->roof_gflops, 540672 * 2000434487.86e-9, 1e-9);
  assert_null(p->note);
  /* Flash attention forward, batch 8 x 8 heads, 256 x 256 x 64: 4·B·H·S²·D. */
  p = find(r, "cudnn_generated_fort_native_sdpa_sm90_flash_fprop");
  assert_non_null(p);
  near(p->flop, 4.0 * 8 * 8 * 256 * 256 * 64, 0.05);
  assert_string_equal(p->precision, "bf16-tensor");
  for (i = 0; i < r->n; i++)
    if (tensor_kernel(r->pts[i].kernel)) {
      assert_string_equal(r->pts[i].precision, "bf16-tensor");
      assert_true(r->pts[i].bound != HP_BOUND_UNKNOWN);
      assert_null(r->pts[i].note);
      tensor++;
    }
  assert_int_equal(tensor, 10); /* 8 nvjet names, 2 flash attention */
  /* Elementwise kernels stay on the bandwidth side. */
  p = find(r, "void native::vectorized_elementwise_kernel<8, native::bfloat16_copy");
  assert_non_null(p);
  assert_int_equal(p->bound, HP_BOUND_MEMORY);
  hp_roofline_free(r);
}

/* Given peaks override the capture's: no r->peaks, the datasheet's ceiling in the roof. */
static void ncu_tensor_given_peaks(void **state)
{
  hp_peaks pk = h200();
  hp_roofline *r;
  const hp_roof_point *p;

  (void)state;
  pk.bf16_tflops = 989.5;
  r = points(TORCH "full-raw.csv", &pk);
  assert_null(r->peaks);
  p = find(r, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  near(p->roof_gflops, 989500, 1e-12);
  hp_roofline_free(r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ncu_mix),
      cmocka_unit_test(ncu_torch),
      cmocka_unit_test(ncu_vector_add),
      cmocka_unit_test(pmc_counters),
      cmocka_unit_test(no_counters),
      cmocka_unit_test(peaks_files),
      cmocka_unit_test(peaks_line),
      cmocka_unit_test(mfma_ceiling),
      cmocka_unit_test(pytorch_sets_without_counters),
      cmocka_unit_test(ncu_tensor_capture),
      cmocka_unit_test(ncu_tensor_given_peaks),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
