/*
 * Unit tests for the nsys stats CSV parser (lib/profile/parse/parse_nsys.c): the current and the
 * pre-2023 report names, lines before the header, SKIPPED reports, quoted names with commas,
 * decimal commas, and the GPU trace beside a summary. The real files are checked in
 * tests/fixtures/real/check.py; the layouts here are written from the column names nsys prints,
 * and every expected value is worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/model/profile.h"
#include "util/sys/fsutil.h"

static char tmpdir[64];

static void mk_tmp(void)
{
  strcpy(tmpdir, "/tmp/hprun-test-nsys-XXXXXX");
  assert_non_null(mkdtemp(tmpdir));
}

static void put(const char *name, const char *data)
{
  char *path = hp__path_join(tmpdir, name);

  assert_int_equal(hp__write_file(path, data, strlen(data), 0), 0);
  free(path);
}

static void rm_tmp(void)
{
  char cmd[128];

  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
  assert_int_equal(system(cmd), 0);
}

static hp_profile *load_tmp(hp_diags *d)
{
  hp_profile *p;

  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, tmpdir, d), 0);
  return p;
}

static const hp__tstat *tstat(const hp_profile *p, int table, const char *name)
{
  long id = hp__strtab_find(&p->t[table].names, name, strlen(name), hp__hash(name, strlen(name)));

  if (id < 0)
    fail_msg("no entry %s in table %d", name, table);
  return &p->t[table].st[id];
}

static size_t count(const hp_diags *d, hp_diag_level level)
{
  const hp_diag *m;
  size_t n = 0;

  for (m = d->head; m; m = m->next)
    n += m->level == level;
  return n;
}

/* The three reports hprun asks for, current names, with the lines nsys prints before a header
 * and a kernel name that holds commas. */
static void test_current_names(void **state)
{
  const char *k2 = "void at::native::elementwise_kernel<(int)128, (int)4>(int, T3)";
  const hp__tstat *s;
  hp_profile *p;
  hp_diags d;

  (void)state;
  mk_tmp();
  put("stats_cuda_gpu_kern_sum.csv",
      "Generating SQLite file /tmp/r/report.sqlite from /tmp/r/report.nsys-rep\n"
      "Processing [/tmp/r/report.sqlite] with [/opt/nsys/reports/cuda_gpu_kern_sum.py]... \n"
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "60.0,3000,2,1500.0,1500.0,1000,2000,707.1,gemm_kernel\n"
      "40.0,2000,4,500.0,500.0,400,600,81.6,\"void at::native::elementwise_kernel<(int)128, "
      "(int)4>(int, T3)\"\n");
  put("stats_cuda_api_sum.csv",
      "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "90.0,9000,6,1500.0,1200.0,900,2500,600.0,cudaLaunchKernel\n"
      "10.0,1000,1,1000.0,1000.0,1000,1000,0.0,cudaMalloc\n");
  put("stats_cuda_gpu_mem_time_sum.csv",
      "Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\n"
      "75.0,750,3,250.0,250.0,200,300,50.0,[CUDA memcpy Host-to-Device]\n"
      "25.0,250,1,250.0,250.0,250,250,0.0,[CUDA memset]\n");
  hp_diags_init(&d);
  p = load_tmp(&d);
  assert_int_equal(count(&d, HP_DIAG_WARNING), 0);
  s = tstat(p, HP__T_KERNEL, "gemm_kernel");
  assert_int_equal(s->calls, 2);
  assert_true(s->total_ns == 3000 && s->min_ns == 1000 && s->max_ns == 2000);
  s = tstat(p, HP__T_KERNEL, k2);
  assert_int_equal(s->calls, 4);
  assert_true(s->total_ns == 2000 && s->min_ns == 400 && s->max_ns == 600);
  assert_int_equal(tstat(p, HP__T_API, "cudaLaunchKernel")->calls, 6);
  assert_true(tstat(p, HP__T_API, "cudaMalloc")->total_ns == 1000);
  s = tstat(p, HP__T_COPY, "[CUDA memcpy Host-to-Device]");
  assert_int_equal(s->calls, 3);
  assert_true(s->total_ns == 750);
  assert_int_equal(tstat(p, HP__T_COPY, "[CUDA memset]")->calls, 1);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tmp();
}

/* Before 2023 the reports were gpukernsum, cudaapisum and gpumemtimesum, with "Time(%)" and
 * "Average"/"Minimum"/"Maximum" columns. */
static void test_old_names(void **state)
{
  const hp__tstat *s;
  hp_profile *p;
  hp_diags d;

  (void)state;
  mk_tmp();
  put("report1_gpukernsum.csv",
      "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name\n"
      "100.0,4200,3,1400.0,1000,2000,\"reduce(float *, double *, unsigned long)\"\n");
  put("report1_cudaapisum.csv",
      "Time(%),Total Time (ns),Num Calls,Average,Minimum,Maximum,Name\n"
      "100.0,700,7,100.0,50,150,cudaLaunchKernel\n");
  put("report1_gpumemtimesum.csv",
      "Time(%),Total Time (ns),Operations,Average,Minimum,Maximum,Operation\n"
      "100.0,90,2,45.0,40,50,[CUDA memcpy HtoD]\n");
  hp_diags_init(&d);
  p = load_tmp(&d);
  assert_int_equal(count(&d, HP_DIAG_WARNING), 0);
  s = tstat(p, HP__T_KERNEL, "reduce(float *, double *, unsigned long)");
  assert_int_equal(s->calls, 3);
  assert_true(s->total_ns == 4200 && s->min_ns == 1000 && s->max_ns == 2000);
  assert_int_equal(tstat(p, HP__T_API, "cudaLaunchKernel")->calls, 7);
  assert_int_equal(tstat(p, HP__T_COPY, "[CUDA memcpy HtoD]")->calls, 2);
  assert_true(tstat(p, HP__T_COPY, "[CUDA memcpy HtoD]")->total_ns == 90);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tmp();
}

/* A report without data is a SKIPPED line: a note, no table, no warning. A decimal comma (a
 * German locale) is read as the point; quoted, since the field holds the separator. */
static void test_skipped_and_decimal_comma(void **state)
{
  const hp__tstat *s;
  hp_profile *p;
  hp_diags d;

  (void)state;
  mk_tmp();
  put("stats_cuda_gpu_mem_time_sum.csv",
      "SKIPPED: /tmp/r/report.sqlite does not contain GPU memory data.\n");
  put("stats_cuda_gpu_kern_sum.csv",
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "\"100,0\",5554208,32,\"173569,0\",\"192451,0\",77793,230372,\"60561,7\",k\n");
  hp_diags_init(&d);
  p = load_tmp(&d);
  assert_int_equal(count(&d, HP_DIAG_WARNING), 0);
  assert_int_equal(count(&d, HP_DIAG_NOTE), 1);
  assert_int_equal(p->t[HP__T_COPY].names.n, 0);
  s = tstat(p, HP__T_KERNEL, "k");
  assert_int_equal(s->calls, 32);
  assert_true(s->total_ns == 5554208 && s->min_ns == 77793 && s->max_ns == 230372);
  assert_true(s->avg_reported == 173569.0); /* "173569,0" */
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tmp();
}

/* cuda_gpu_trace alone gives kernels and copies a launch at a time; beside a kernel summary it
 * gives only the copies (the summary's kernels are not counted twice). */
static void test_gpu_trace(void **state)
{
  static const char *trace =
      "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),"
      "DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name\n"
      "1000,200,1,,,,,,,,,,4.194,20971.5,Pageable,Device,NVIDIA H200 (0),1,7,"
      "[CUDA memcpy Host-to-Device]\n"
      "2000,300,2,64,1,1,256,1,1,16,0.000,0.000,,,,,NVIDIA H200 (0),1,7,\"add(float *, int)\"\n"
      "2500,500,3,64,1,1,256,1,1,16,0.000,0.000,,,,,NVIDIA H200 (0),1,7,\"add(float *, int)\"\n";
  const hp__tstat *s;
  hp_profile *p;
  hp_diags d;

  (void)state;
  mk_tmp();
  put("stats_cuda_gpu_trace.csv", trace);
  hp_diags_init(&d);
  p = load_tmp(&d);
  assert_int_equal(count(&d, HP_DIAG_WARNING), 0);
  s = tstat(p, HP__T_KERNEL, "add(float *, int)");
  assert_int_equal(s->calls, 2);
  assert_true(s->total_ns == 800 && s->min_ns == 300 && s->max_ns == 500);
  assert_int_equal(tstat(p, HP__T_COPY, "[CUDA memcpy Host-to-Device]")->calls, 1);
  hp_profile_free(p);

  put("stats_cuda_gpu_kern_sum.csv",
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "100.0,800,2,400.0,400.0,300,500,141.4,\"add(float *, int)\"\n");
  p = load_tmp(&d);
  s = tstat(p, HP__T_KERNEL, "add(float *, int)");
  assert_int_equal(s->calls, 2); /* 2 from the summary, none again from the trace */
  assert_true(s->total_ns == 800);
  assert_int_equal(tstat(p, HP__T_COPY, "[CUDA memcpy Host-to-Device]")->calls, 1);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tmp();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_current_names),
      cmocka_unit_test(test_old_names),
      cmocka_unit_test(test_skipped_and_decimal_comma),
      cmocka_unit_test(test_gpu_trace),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
