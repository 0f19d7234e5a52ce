/*
 * Unit tests for the `other` hint (hp__profile_other_hint, lib/profile/tables/tables_time.c):
 * above 10% of kernel time in `other`, the five largest uncategorised kernels by time, each as
 * the pattern a rule would use, and a `categories:` snippet that, pasted into a plan, loads and
 * puts those kernels in a category of their own while every other kernel keeps its category.
 * The kernel names are written here in the shapes real names take (a template kernel, a return
 * type that is itself a template, a short name with template arguments); they resemble the model
 * kernels of the DCU vLLM profile the issue quotes but are not copied from a capture. Every
 * expected figure is worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/model/profile.h"
#include "profile/tables/out.h"
#include "util/sys/fsutil.h"

#define FUSED64 "void fused_recurrent_gated_delta_rule_fwd_kernel<64, 128>(float const*, int)"
#define FUSED32 "void fused_recurrent_gated_delta_rule_fwd_kernel<32, 64>(float const*, int)"
#define CONV "void causal_conv1d_fwd_kernel<Causal_conv1d_fwd_kernel_traits<128, 4, true>>(Params)"
#define ROPE "std::enable_if<true, void>::type mymodel::rope<float>(float*)"

static char tmpdir[64];

/* An nsys kernel summary; total 7550 ns, of which nvjet's 5000 ns are gemm and the rest, 2550 ns
 * (33.77%), no built-in rule matches. */
static hp_profile *load(const char *csv)
{
  char *path;
  hp_profile *p;
  hp_diags d;

  strcpy(tmpdir, "/tmp/hprun-test-hint-XXXXXX");
  assert_non_null(mkdtemp(tmpdir));
  path = hp__path_join(tmpdir, "stats_cuda_gpu_kern_sum.csv");
  assert_int_equal(hp__write_file(path, csv, strlen(csv), 0), 0);
  free(path);
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, tmpdir, &d), 0);
  hp_diags_free(&d);
  return p;
}

static void rm_tmp(void)
{
  char cmd[128];

  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
  assert_int_equal(system(cmd), 0);
}

#define HEADER                                                                                     \
  "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"

static const char model_csv[] =
    HEADER "66.2,5000,10,500,500,500,500,0,nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT\n"
           "11.9,900,3,300,300,300,300,0,\"" FUSED64 "\"\n"
           "6.6,500,1,500,500,500,500,0,\"" CONV "\"\n"
           "5.3,400,1,400,400,400,400,0,\"" FUSED32 "\"\n"
           "4.0,300,1,300,300,300,300,0,void chunk_scan_fwd_kernel(int)\n"
           "2.6,200,1,200,200,200,200,0,Kernel2<my_model_bias_fuse_64x4>\n"
           "2.0,150,1,150,150,150,150,0," ROPE "\n"
           "1.3,100,1,100,100,100,100,0,tiny_kernel_x\n";

/* The hint names the five largest `other` kernels, largest first, with their share of kernel
 * time (900/7550 = 11.9%, 500 = 6.6%, 400 = 5.3%, 300 = 4.0%, 200 = 2.6%); rope (150) and
 * tiny_kernel_x (100) are sixth and seventh. */
static void test_hint_names_top_five(void **state)
{
  hp_profile *p = load(model_csv);
  char *head = NULL, *yaml = NULL;

  (void)state;
  assert_int_equal(hp__profile_other_hint(p, &head, &yaml), 0);
  assert_non_null(head);
  assert_non_null(
      strstr(head,
             "`other` holds 33.8% of kernel time; its largest kernels: "
             "`fused_recurrent_gated_delta_rule_fwd_kernel` (11.9%), `causal_conv1d_fwd_kernel` "
             "(6.6%), `fused_recurrent_gated_delta_rule_fwd_kernel` (5.3%), "
             "`chunk_scan_fwd_kernel` (4.0%), `Kernel2<my_model_bias_fuse_64x4` (2.6%). "));
  assert_null(strstr(head, "rope"));
  assert_null(strstr(head, "tiny"));
  /* The new category comes last, each pattern once (the two fused kernels share one). */
  assert_non_null(strstr(yaml,
                         "\n  - {name: \"custom\", patterns: "
                         "[\"fused_recurrent_gated_delta_rule_fwd_kernel\", "
                         "\"causal_conv1d_fwd_kernel\", \"chunk_scan_fwd_kernel\", "
                         "\"Kernel2<my_model_bias_fuse_64x4\"]}\n"));
  assert_int_equal(strncmp(yaml, "categories:\n  - {name: \"", 24), 0);
  free(head);
  free(yaml);
  hp_profile_free(p);
  rm_tmp();
}

/* The snippet, pasted into a plan, loads; with its rules the model kernels leave `other` (only
 * rope and tiny_kernel_x stay: 250/7550 = 3.3%, no hint any more) and nvjet stays gemm. */
static void test_snippet_loads(void **state)
{
  static const char plan_head[] =
      "name: t\napp: {command: [./a]}\nmetrics: [m]\npasses: [normal]\n";
  hp_profile *p = load(model_csv);
  char *head = NULL, *yaml = NULL, *text, *head2 = NULL, *yaml2 = NULL;
  size_t ncats = p->ncats;
  hp_plan *plan = NULL;
  hp_diags d;

  (void)state;
  assert_int_equal(hp__profile_other_hint(p, &head, &yaml), 0);
  text = malloc(strlen(plan_head) + strlen(yaml) + 1);
  assert_non_null(text);
  strcpy(text, plan_head);
  strcat(text, yaml);
  hp_diags_init(&d);
  if (hp_plan_load_string("t.yaml", "/tmp", text, strlen(text), &plan, &d) != 0) {
    hp_diags_print(&d, stderr);
    fail_msg("the snippet does not load:\n%s", text);
  }
  assert_int_equal(plan->ncategories, ncats + 1);
  assert_int_equal(hp_profile_set_categories(p, plan->categories, plan->ncategories), 0);
  assert_string_equal(hp__profile_classify(p, FUSED64), "custom");
  assert_string_equal(hp__profile_classify(p, FUSED32), "custom");
  assert_string_equal(hp__profile_classify(p, CONV), "custom");
  assert_string_equal(hp__profile_classify(p, "Kernel2<my_model_bias_fuse_64x4>"), "custom");
  assert_string_equal(hp__profile_classify(p, "void chunk_scan_fwd_kernel(int)"), "custom");
  assert_string_equal(hp__profile_classify(p, "nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT"),
                      "gemm");
  assert_string_equal(hp__profile_classify(p, ROPE), "other");
  assert_int_equal(hp__profile_other_hint(p, &head2, &yaml2), 0);
  assert_null(head2);
  assert_null(yaml2);
  hp_plan_free(plan);
  hp_diags_free(&d);
  free(text);
  free(head);
  free(yaml);
  hp_profile_free(p);
  rm_tmp();
}

/* At 10% of kernel time or below there is no hint: 100 of 1000 ns is exactly 10%. */
static void test_no_hint_at_ten_percent(void **state)
{
  hp_profile *p = load(HEADER "90.0,900,1,900,900,900,900,0,nvjet_sm90_tst_x\n"
                              "10.0,100,1,100,100,100,100,0,tiny_kernel_x\n");
  char *head = (char *)"unset", *yaml = (char *)"unset";

  (void)state;
  assert_int_equal(hp__profile_other_hint(p, &head, &yaml), 0);
  assert_null(head);
  assert_null(yaml);
  hp_profile_free(p);
  rm_tmp();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hint_names_top_five),
      cmocka_unit_test(test_snippet_loads),
      cmocka_unit_test(test_no_hint_at_ten_percent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
