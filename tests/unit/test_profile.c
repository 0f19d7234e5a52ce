/*
 * Unit tests for the profile summary (lib/profile/: the model, the parsers, the writers): every
 * profiler format from the fixtures in tests/fixtures/profile/, the article's vector_add tables,
 * the writers, and bad input. Run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/tables/out.h"
#include "profile/model/profile.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"
#include "util/base/strv.h"
#include "test_csv_mem.h"

#define FX "tests/fixtures/profile/"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers.                                                                                        */

static hp_profile *load(const char *path, hp_diags *d)
{
  hp_profile *p;

  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, path, d), 0);
  return p;
}

static char *render(const hp_profile *p, hp_format f, int top, int width)
{
  hp_profile_opts o = {0, 0, 0, 0, NULL};
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);

  o.top = top;
  o.name_width = width;
  assert_non_null(fp);
  assert_int_equal(hp_profile_write(p, fp, f, &o), 0);
  fclose(fp);
  return buf;
}

static char *diag_text(const hp_diags *d)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);

  hp_diags_print(d, fp);
  fclose(fp);
  return buf;
}

/* The line of `text` that starts with `prefix`, with runs of spaces collapsed to one (static). */
static const char *line_of(const char *text, const char *prefix)
{
  static char out[4096];
  const char *p = text;
  size_t n = strlen(prefix), o = 0;

  while (p && *p) {
    if (strncmp(p, prefix, n) == 0) {
      int sp = 0;
      for (; *p && *p != '\n' && o + 1 < sizeof(out); p++) {
        if (*p == ' ') {
          sp = 1;
          continue;
        }
        if (sp && o)
          out[o++] = ' ';
        sp = 0;
        out[o++] = *p;
      }
      out[o] = '\0';
      return out;
    }
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  return "(no such line)";
}

static const hp__tstat *tstat(const hp_profile *p, int table, const char *name)
{
  long id = hp__strtab_find(&p->t[table].names, name, strlen(name), hp__hash(name, strlen(name)));

  if (id < 0)
    fail_msg("no entry %s in table %d", name, table);
  return &p->t[table].st[id];
}

static const hp__pmc_kernel *pmc(const hp_profile *p, const char *name)
{
  long id = hp__strtab_find(&p->pmc_names, name, strlen(name), hp__hash(name, strlen(name)));

  if (id < 0)
    fail_msg("no PMC kernel %s", name);
  return &p->pmc[id];
}

static double counter(const hp_profile *p, const hp__pmc_kernel *k, const char *name,
                      long long *rows)
{
  long id = hp__strtab_find(&p->counters, name, strlen(name), hp__hash(name, strlen(name)));

  if (id < 0 || (size_t)id >= k->ncap)
    fail_msg("no counter %s", name);
  *rows = k->cn[id];
  return k->csum[id];
}

static const char *vals(const hp__vals *v)
{
  static char out[256];
  size_t i, o = 0;

  out[0] = '\0';
  for (i = 0; i < v->n; i++)
    o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s", i ? "," : "", v->v[i]);
  return out;
}

/* A scratch folder under /tmp, removed by rm_tree. */
static char tmpdir[64];

static void mk_tmp(void)
{
  strcpy(tmpdir, "/tmp/hprun-test-profile-XXXXXX");
  assert_non_null(mkdtemp(tmpdir));
}

static char *put(const char *name, const char *data, size_t len)
{
  char *path = hp__path_join(tmpdir, name);
  char *slash = strrchr(path, '/');

  *slash = '\0';
  assert_int_equal(hp__mkdirs(path, 0755), 0);
  *slash = '/';
  assert_int_equal(hp__write_file(path, data, len, 0), 0);
  return path;
}

static char *put_str(const char *name, const char *data)
{
  return put(name, data, strlen(data));
}

static void rm_tree(const char *dir)
{
  char cmd[128];

  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* The article's vector_add: every table exactly as printed there.                                 */

static void test_vector_add_article_tables(void **state)
{
  hp_diags d;
  hp_profile *p;
  hp_kernel_stat ks;
  char *text;

  (void)state;
  hp_diags_init(&d);
  p = load(FX "hipprof/vector_add", &d);
  assert_int_equal(d.count, 0);
  /* stats/stdout.txt holds only the program's output: looked at, not profiler output. */
  assert_int_equal(hp_profile_nfiles(p), 5);
  assert_int_equal(p->nignored, 1);
  text = render(p, HP_FMT_TEXT, 5, 0);
  assert_string_equal(line_of(text, "hipMalloc "), "hipMalloc 3 240.481148 80160.382 97.846");
  assert_string_equal(line_of(text, "hipMemcpy "), "hipMemcpy 3 2.432756 810.918 0.990");
  assert_string_equal(line_of(text, "hipEventSynchronize "),
                      "hipEventSynchronize 1 1.496596 1496.596 0.609");
  assert_string_equal(line_of(text, "hipLaunchKernel "),
                      "hipLaunchKernel 120 0.830707 6.922 0.338");
  assert_string_equal(line_of(text, "hipDeviceSynchronize "),
                      "hipDeviceSynchronize 1 0.377584 377.584 0.154");
  /* --top 5 keeps the article's five; the rest is counted, and the Total row is not a call. */
  assert_non_null(strstr(text, "(5 more rows; --top 0 shows all)"));
  assert_null(strstr(text, "\nTotal"));
  assert_string_equal(line_of(text, "vector_add "), "vector_add 120 2.255999 18.799 100.000");
  /* Kernels go by their short names in text (kname.c): the parameter list is dropped. */
  assert_string_equal(line_of(strstr(text, "[Kernel stack summary]"), "vector_add "),
                      "vector_add 120 vector_add()");
  assert_string_equal(line_of(text, "records "), "records 120");
  assert_string_equal(line_of(text, "grid_size "), "grid_size 1048576");
  assert_string_equal(line_of(text, "workgroup_size "), "workgroup_size 256");
  assert_string_equal(line_of(text, "wave_size "), "wave_size 64");
  assert_string_equal(line_of(text, "arch_vgpr "), "arch_vgpr 8");
  assert_string_equal(line_of(text, "accum_vgpr "), "accum_vgpr 0");
  assert_string_equal(line_of(text, "sgpr "), "sgpr 16");
  assert_string_equal(line_of(text, "lds_bytes "), "lds_bytes 0");
  assert_string_equal(line_of(text, "scratch_bytes "), "scratch_bytes 0");
  assert_string_equal(line_of(text, "lds_bank_conflict "), "lds_bank_conflict 0");
  assert_non_null(strstr(line_of(text, "host "), "host 170.06 MB 178320835"));
  assert_non_null(strstr(line_of(text, "device0 "), "device0 92.00 KB 94208"));
  assert_non_null(strstr(text, "not peak or steady-state device memory"));
  free(text);

  assert_int_equal(hp_profile_nkernels(p), 1);
  assert_int_equal(hp_profile_kernel(p, 0, &ks), 0);
  assert_string_equal(ks.name, "vector_add");
  assert_int_equal(ks.calls, 120);
  assert_true(ks.total_ns == 2255999);
  assert_true(ks.avg_ns == 18799); /* hipprof's own AverageNs */
  assert_true(isnan(ks.min_ns) && isnan(ks.max_ns));
  assert_true(ks.percent == 100);
  assert_int_equal(hp_profile_kernel(p, 1, &ks), HP_ERANGE);
  assert_int_equal(tstat(p, HP__T_API, "hipLaunchKernel")->calls, 120);
  hp_profile_free(p);
  hp_diags_free(&d);
}

/* The article's §11 table: categories of a PyTorch model, from a CRLF kernel CSV. */
static void test_weather_categories_and_stacks(void **state)
{
  hp_diags d;
  hp_profile *p;
  hp__catstat *c;
  size_t n, i;
  char *text;
  double total = 0;
  long long calls = 0;
  static const char *const want[] = {
      "direct_copy 843 266.933896 32.350", "gemm 316 181.074114 21.944",
      "add 192 103.964575 12.599",         "softmax 56 90.451776 10.962",
      "layernorm 96 77.525224 9.395",      "gelu 44 35.815013 4.340",
      "roll 120 31.863178 3.861",          "other 134 19.596949 2.375",
      "cat_or_index 60 10.896634 1.321",   "convolution 8 7.031356 0.852"};

  (void)state;
  hp_diags_init(&d);
  /* The article's own rules (its §10 table), not the ROCm set hipprof files choose by default. */
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_set_category_set(p, "pytorch"), 0);
  assert_int_equal(hp_profile_add_path(p, FX "hipprof/weather", &d), 0);
  assert_int_equal(d.count, 0);
  assert_int_equal(hp__profile_categories(p, &c, &n), 0);
  assert_int_equal(n, 10);
  for (i = 0; i < n; i++) {
    calls += c[i].calls;
    total += c[i].total_ns;
  }
  assert_int_equal(calls, 1869);
  assert_true(fabs(total - 825152715) < 0.5);
  free(c);
  text = render(p, HP_FMT_TEXT, 0, 60);
  for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "%.*s ", (int)strcspn(want[i], " "), want[i]);
    assert_string_equal(line_of(text, prefix), want[i]);
  }
  /* Stacks: the most common user frame (7 of 12 launches), the library frame that rocBLAS shows,
   * and a launch with nothing but runtime frames. */
  assert_string_equal(line_of(strstr(text, "[Kernel stack summary]"), "direct_copy_kernel_cuda "),
                      "direct_copy_kernel_cuda 12 "
                      "_C.so(fused_qkv_split(at::Tensor const&)+0x2f)");
  assert_non_null(strstr(text, "4  librocblas.so.4(rocblas_gemm_ex+0x1a4)"));
  assert_non_null(strstr(text, "2  runtime-only"));
  free(text);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_runtime_frames_and_categories_configurable(void **state)
{
  static const char *const markers[] = {"^python(", "libgalaxy", "libtorch", "libpython",
                                        "librocblas"};
  hp_category_rule rule;
  hp_profile *p;
  hp_diags d;
  long id;
  const char *gemm = "Cijk_Ailk_Bljk_SB_MT64x64x16_MI32x32x2x1_SN_1LDSB0_APM1";

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_set_runtime_frames(p, markers, 5), 0);
  assert_int_equal(hp_profile_add_path(p, FX "hipprof/weather/stack", &d), 0);
  id = hp__strtab_find(&p->stk_names, gemm, strlen(gemm), hp__hash(gemm, strlen(gemm)));
  assert_true(id >= 0);
  assert_int_equal(p->stk[id].no, 1);
  assert_string_equal(p->stk[id].o[0].frame, "runtime-only");

  /* Custom rules: first match wins, case-insensitively; NULL restores the defaults. */
  memset(&rule, 0, sizeof(rule));
  rule.name = "blas";
  assert_int_equal(hp__strv_push(&rule.patterns, "CIJK_"), 0);
  assert_int_equal(hp_profile_set_categories(p, &rule, 1), 0);
  assert_string_equal(hp__profile_classify(p, gemm), "blas");
  assert_string_equal(hp__profile_classify(p, "vector_add"), "other");
  assert_int_equal(hp_profile_set_categories(p, NULL, 0), 0);
  assert_string_equal(hp__profile_classify(p, gemm), "gemm");
  assert_string_equal(hp__profile_classify(p, "VECTOR_ADD_kernel"), "vector_add");
  hp_strv_free(&rule.patterns);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_frame_sanitising(void **state)
{
  char buf[256];
  hp_profile *p;

  (void)state;
  assert_int_equal(hp_profile_new(&p), 0);
  hp__sanitize_frame("  /opt/x/libfoo.so(bar+0x1) [0x7f00]\n", 38, buf, sizeof(buf));
  assert_string_equal(buf, "libfoo.so(bar+0x1)");
  hp__sanitize_frame("   ", 3, buf, sizeof(buf));
  assert_string_equal(buf, "unknown");
  assert_int_equal(hp__sanitize_frame("/a/b/", 5, buf, sizeof(buf)), 0);
  assert_true(hp__is_runtime_frame(p, "python(_PyEval+0x1)", 19));
  assert_false(hp__is_runtime_frame(p, "mypython(x)", 11));
  assert_true(hp__is_runtime_frame(p, "LIBAMDHIP64.so.5(+0x1)", 22));
  assert_false(hp__is_runtime_frame(p, "vector_add()", 12));
  hp_profile_free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Other formats.                                                                                  */

static void test_pmc_text(void **state)
{
  const char *k = "reduce(float const*, float*, int)";
  const hp__pmc_kernel *pk;
  hp_profile *p;
  hp_diags d;
  long long rows;

  (void)state;
  hp_diags_init(&d);
  p = load(FX "hipprof/pmctext", &d);
  assert_int_equal(d.count, 0);
  assert_string_equal(p->files[0].format, "pmc-text");
  pk = pmc(p, k);
  assert_int_equal(pk->records, 3);
  assert_int_equal(pk->dispatches, 3);
  assert_string_equal(vals(&pk->props[HP__P_GRID]), "4096");
  assert_string_equal(vals(&pk->props[HP__P_WG]), "64");
  assert_string_equal(vals(&pk->props[HP__P_LDS]), "512");
  assert_string_equal(vals(&pk->props[HP__P_AVGPR]), "24");
  assert_string_equal(vals(&pk->props[HP__P_SGPR]), "32");
  assert_string_equal(vals(&pk->props[HP__P_WAVE]), "64");
  assert_string_equal(vals(&pk->props[HP__P_LDSBANK]), "3");
  assert_true(counter(p, pk, "GRBM_COUNT", &rows) == 3003 && rows == 3);
  assert_true(counter(p, pk, "TCC_HIT", &rows) == 45 && rows == 6);
  assert_int_equal(pk->tn, 3);
  assert_true(pk->tsum == 1500);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_rocprof_stats_take_precedence(void **state)
{
  const char *mm = "matmul_kernel(float const*, float const*, float*, int)";
  const char *va = "vector_add(float const*, float const*, float*, int)";
  hp_kernel_stat ks;
  hp_profile *p;
  hp_diags d;
  long long rows;

  (void)state;
  hp_diags_init(&d);
  /* results.stats.csv beside results.csv: the dispatch rows must not count the kernels again. */
  p = load(FX "rocprof/results.stats.csv", &d);
  assert_int_equal(hp_profile_add_path(p, FX "rocprof/results.csv", &d), 0);
  hp_profile_free(p);
  p = load(FX "rocprof", &d);
  assert_int_equal(d.count, 0);
  assert_int_equal(hp_profile_kernel_find(p, "MATMUL", &ks), 0);
  assert_string_equal(ks.name, mm);
  assert_int_equal(ks.calls, 4 + 4); /* stats 4, plus nostats/results.csv's 4 dispatches */
  assert_true(ks.total_ns == 8000000);
  assert_true(isnan(ks.min_ns)); /* the stats file has no min/max */
  assert_int_equal(hp_profile_kernel_find(p, "nothing", &ks), HP_ENOENT);
  assert_int_equal(tstat(p, HP__T_API, "hipMemcpy")->calls, 3);
  assert_int_equal(tstat(p, HP__T_HSA, "hsa_signal_wait_scacquire")->calls, 12);
  assert_true(tstat(p, HP__T_COPY, "CopyHostToDevice")->total_ns == 2000000);
  /* PMC from both dispatch tables; GRBM_COUNT's "None" is no value, not an error. */
  assert_int_equal(pmc(p, mm)->records, 8);
  assert_true(counter(p, pmc(p, mm), "GRBM_COUNT", &rows) ==
              5000 + 5001 + 5002 + 5003 + 5001 + 5002 + 5003);
  assert_int_equal(rows, 7);
  hp_profile_free(p);

  p = load(FX "rocprof/nostats", &d);
  assert_int_equal(hp_profile_kernel_find(p, "vector_add", &ks), 0);
  assert_string_equal(ks.name, va);
  assert_int_equal(ks.calls, 2);
  assert_true(ks.avg_ns == 500000 && ks.min_ns == 500000 && ks.max_ns == 500000);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_rocprofv3_versions(void **state)
{
  const char *va = "vector_add(float const*, float const*, float*, int)";
  const hp__tstat *st;
  const hp__pmc_kernel *pk;
  hp_kernel_stat ks;
  hp_profile *p;
  hp_diags d;
  long long rows;
  size_t i;

  (void)state;
  hp_diags_init(&d);
  /* 6.2: the old trace header, long counter rows, agents. */
  p = load(FX "rocprofv3/v6.2", &d);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 3);
  assert_true(st->total_ns == 18000 + 18002 + 18004);
  assert_true(st->min_ns == 18000 && st->max_ns == 18004);
  pk = pmc(p, va);
  assert_int_equal(pk->records, 3);
  assert_int_equal(pk->dispatches, 3);
  assert_string_equal(vals(&pk->props[HP__P_GRID]), "1048576");
  assert_string_equal(vals(&pk->props[HP__P_AVGPR]), "8");
  assert_string_equal(vals(&pk->props[HP__P_SGPR]), "16");
  assert_int_equal(pk->props[HP__P_WAVE].n, 0);
  assert_true(counter(p, pk, "SQ_WAVES", &rows) == 3 * 16384 && rows == 3);
  assert_true(counter(p, pk, "TCC_HIT", &rows) == 90 && rows == 3);
  assert_int_equal(p->nagents, 2);
  assert_string_equal(p->agents[1].product, "AMD Instinct MI300X");
  assert_int_equal(p->agents[1].wave_size, 64);
  hp_profile_free(p);

  /* 6.4: "Agent 1", accumulation VGPRs, timestamps beyond 2^53 taken exactly. */
  p = load(FX "rocprofv3/v6.4", &d);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 4);
  assert_true(st->total_ns == 20000 + 21000 + 22000 + 23000);
  pk = pmc(p, va);
  assert_int_equal(pk->dispatches, 2);
  assert_string_equal(vals(&pk->props[HP__P_ACCVGPR]), "4");
  assert_string_equal(vals(&pk->props[HP__P_LDSBANK]), "0");
  assert_int_equal(pk->tn, 2);
  assert_true(pk->tsum == 40000);
  hp_profile_free(p);

  /* A CSV exported from rocpd: Guid first, other spellings. */
  p = load(FX "rocprofv3/rocpd", &d);
  assert_int_equal(hp_profile_kernel_find(p, "matmul", &ks), 0);
  assert_int_equal(ks.calls, 3);
  assert_true(ks.total_ns == 1200000);
  hp_profile_free(p);

  /* Stats in scientific notation, with min/max; the trace beside them is not counted again, and
   * domain_stats is a known file that is ignored. */
  p = load(FX "rocprofv3/stats", &d);
  assert_int_equal(hp_profile_kernel_find(p, "matmul", &ks), 0);
  assert_int_equal(ks.calls, 3);
  assert_true(ks.total_ns == 600000 && ks.avg_ns == 200000);
  assert_true(ks.min_ns == 150000 && ks.max_ns == 250000);
  assert_int_equal(tstat(p, HP__T_API, "hipMemcpy")->calls, 2);
  assert_true(tstat(p, HP__T_COPY, "MEMORY_COPY_HOST_TO_DEVICE")->total_ns == 400000);
  assert_int_equal(p->nignored, 1);
  for (i = 0; i < p->nfiles; i++)
    if (strstr(p->files[i].path, "kernel_trace"))
      assert_int_equal(p->files[i].tables, 0);
  hp_profile_free(p);

  /* API and copy traces without stats beside them. */
  p = load(FX "rocprofv3/traces", &d);
  st = tstat(p, HP__T_API, "hipMalloc");
  assert_int_equal(st->calls, 2);
  assert_true(st->total_ns == 60000 && st->min_ns == 10000 && st->max_ns == 50000);
  assert_true(tstat(p, HP__T_COPY, "MEMORY_COPY_HOST_TO_DEVICE")->total_ns == 100000);
  hp_profile_free(p);
  assert_int_equal(d.count, 0);
  hp_diags_free(&d);
}

static double metric(const hp_profile *p, const char *kernel, const char *name, const char *unit,
                     long long *count)
{
  char key[128];
  long k = hp__strtab_find(&p->ncu_names, kernel, strlen(kernel), hp__hash(kernel, strlen(kernel)));
  long m;
  int n = snprintf(key, sizeof(key), "%s\x1f%s", name, unit);

  m = hp__strtab_find(&p->metrics, key, (size_t)n, hp__hash(key, (size_t)n));
  if (k < 0 || m < 0 || (size_t)m >= p->ncu[k].ncap)
    fail_msg("no ncu metric %s [%s] for %s", name, unit, kernel);
  *count = p->ncu[k].mn[m];
  return p->ncu[k].msum[m];
}

static void test_ncu_formats(void **state)
{
  const char *va = "vector_add(const float *, const float *, float *, int)";
  const hp__tstat *st;
  hp_profile *p;
  hp_diags d;
  long long cnt;
  char *msg;

  (void)state;
  hp_diags_init(&d);
  /* Details page after ==PROF== and program lines: thousands separators, n/a, text values. */
  p = load(FX "ncu/details", &d);
  assert_int_equal(d.count, 0);
  assert_int_equal(p->ncu[0].launches, 3);
  assert_string_equal(p->ncu[0].block, "(256, 1, 1)");
  assert_true(metric(p, va, "Elapsed Cycles", "cycle", &cnt) == 3 * 1234567.0 && cnt == 3);
  assert_true(metric(p, va, "Duration", "nsecond", &cnt) == 17504 + 17632 + 17760);
  assert_true(hp__strtab_find(&p->metrics, "Achieved Occupancy\x1f%", 20,
                              hp__hash("Achieved Occupancy\x1f%", 20)) < 0);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 3);
  assert_true(st->total_ns == 52896 && st->min_ns == 17504 && st->max_ns == 17760);
  hp_profile_free(p);

  /* Raw page with its units row: durations in microseconds. */
  p = load(FX "ncu/raw", &d);
  assert_int_equal(d.count, 0);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 2);
  assert_true(st->total_ns == 36000);
  assert_true(metric(p, va, "dram__bytes_read.sum", "byte", &cnt) == 2 * 8388608.0);
  assert_true(tstat(p, HP__T_KERNEL, "other_kernel")->total_ns == 2250);
  hp_profile_free(p);

  /* ncu's CSV in the program's stdout, with the program printing between rows. */
  p = load(FX "ncu/stdout", &d);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 2);
  assert_true(st->total_ns == 38000);
  assert_string_equal(p->files[0].format, "ncu-csv");
  msg = diag_text(&d);
  assert_non_null(strstr(msg, "ncu/stdout/stdout.txt:6: note: 1 lines"));
  free(msg);
  hp_profile_free(p);
  hp_diags_free(&d);
}

/* A real file: ncu 2025.3.1 on an H200 (docs/validation/h200-vector_add.md), `--csv --page raw
 * --log-file` with `-c 10`. Its raw page also holds text-valued attribute columns ("NVIDIA H200",
 * "CachePreferNone"), which must be skipped without a warning. */
static void test_ncu_real_h200(void **state)
{
  const char *va = "vector_add(const float *, const float *, float *, int)";
  const hp__tstat *st;
  hp_kernel_stat ks;
  hp_profile *p;
  hp_diags d;
  long long cnt;

  (void)state;
  hp_diags_init(&d);
  p = load(FX "ncu/h200-real", &d);
  assert_int_equal(d.count, 0);
  assert_int_equal(hp_profile_nfiles(p), 1);
  st = tstat(p, HP__T_KERNEL, va);
  assert_int_equal(st->calls, 10);
  assert_int_equal(p->ncu[0].launches, 10);
  assert_string_equal(p->ncu[0].block, "(256, 1, 1)");
  assert_int_equal(hp_profile_kernel_find(p, "vector_add", &ks), 0);
  assert_int_equal(ks.calls, 10);
  /* gpu__time_duration.sum summed over the 10 launches equals the kernel table's total. */
  assert_true(metric(p, va, "gpu__time_duration.sum", "ns", &cnt) == st->total_ns ||
              metric(p, va, "gpu__time_duration.sum", "nsecond", &cnt) == st->total_ns);
  assert_true(ks.avg_ns > 50000 && ks.avg_ns < 70000);
  hp_profile_free(p);
  hp_diags_free(&d);
}

/* ---------------------------------------------------------------------------------------------- */
/* Writers.                                                                                        */

static void test_json_output(void **state)
{
  hp_profile *p;
  hp_diags d;
  hp__jv *root;
  const hp__jv *k;
  char *text, err[128];

  (void)state;
  hp_diags_init(&d);
  p = load(FX "hipprof/vector_add", &d);
  text = render(p, HP_FMT_JSON, 0, 0);
  assert_int_equal(hp__jv_parse(text, strlen(text), &root, err, sizeof(err)), 0);
  assert_int_equal(hp__jv_len(hp__jv_get(root, "api")), 10);
  k = hp__jv_path(root, "kernels/0");
  assert_string_equal(hp__jv_str(hp__jv_get(k, "name")), "vector_add");
  assert_true(hp__jv_num(hp__jv_get(k, "calls")) == 120);
  assert_true(hp__jv_num(hp__jv_get(k, "total_ms")) == 2.255999);
  assert_true(hp__jv_type_of(hp__jv_get(k, "min_ns")) == HP__JV_NULL);
  assert_string_equal(hp__jv_str(hp__jv_path(root, "categories/0/name")), "vector_add");
  assert_string_equal(hp__jv_str(hp__jv_path(root, "stacks/0/user_frame")), "vector_add()");
  assert_true(hp__jv_num(hp__jv_path(root, "pmc/0/grid_size/0")) == 1048576);
  assert_true(hp__jv_num(hp__jv_path(root, "pmc/0/kernel_time_ns/n")) == 120);
  assert_true(hp__jv_num(hp__jv_path(root, "leakcheck/entries/1/bytes")) == 94208);
  assert_string_equal(hp__jv_str(hp__jv_path(root, "files/0/format")), "text");
  assert_string_equal(hp__jv_str(hp__jv_path(root, "files/3/tables/0")), "api");
  assert_true(hp__jv_num(hp__jv_get(root, "ignored_files")) == 1);
  assert_int_equal(hp__jv_len(hp__jv_get(root, "ncu")), 0);
  hp__jv_free(root);
  free(text);
  /* --top applies to the JSON tables too. */
  text = render(p, HP_FMT_JSON, 2, 0);
  assert_int_equal(hp__jv_parse(text, strlen(text), &root, err, sizeof(err)), 0);
  assert_int_equal(hp__jv_len(hp__jv_get(root, "api")), 2);
  assert_true(hp__jv_num(hp__jv_path(root, "counts/api")) == 10);
  hp__jv_free(root);
  free(text);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_markdown_and_csv_output(void **state)
{
  const char *longk = "void at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
                      "{lambda()#3}::operator()() const";
  hp__csv *c;
  hp__csv_rec rec;
  hp_profile *p;
  hp_diags d;
  char *text;
  const char *s;
  size_t n;
  long line;
  int in_kernels = 0, found = 0;

  (void)state;
  hp_diags_init(&d);
  p = load(FX "hipprof/weather", &d);
  text = render(p, HP_FMT_MD, 0, 0);
  assert_non_null(strstr(text,
                         "### Kernel summary\n\n| name | calls | total_ms | average_us | "
                         "percent |\n| --- | ---: | ---: | ---: | ---: |\n"));
  assert_non_null(strstr(text,
                         "| `Cijk_Ailk_Bljk_SB_MT64x64x16_MI32x32x2x1\xE2\x80\xA6` | 316 "
                         "| 181.074114 |"));
  assert_null(strstr(text, longk)); /* short names in Markdown too */
  assert_non_null(strstr(text, "| `direct_copy_kernel_cuda` | 843 |"));
  free(text);

  /* CSV: tables after "# table:" lines; names whole and quoted where needed. */
  text = render(p, HP_FMT_CSV, 0, 0);
  assert_int_equal(csv_open_bytes(&c, text, strlen(text), NULL), 0);
  while (hp__csv_next_line(c, &s, &n, &line) == 1) {
    if (n > 8 && memcmp(s, "# table:", 8) == 0) {
      in_kernels = n == 16 && memcmp(s, "# table: kernels", 16) == 0;
      if (in_kernels) {
        assert_int_equal(hp__csv_next(c, &rec), 1);
        assert_string_equal(rec.f[0], "name");
        assert_string_equal(rec.f[7], "category");
        assert_int_equal(hp__csv_next(c, &rec), 1);
        assert_string_equal(rec.f[0], longk);
        assert_string_equal(rec.f[1], "843");
        assert_string_equal(rec.f[2], "266933896");
        assert_string_equal(rec.f[7], "direct_copy");
        found = 1;
      }
    }
  }
  assert_true(found);
  hp__csv_free(c);
  assert_non_null(strstr(text,
                         "\n# table: categories\nname,calls,total_ns,percent\n"
                         "direct_copy,843,266933896,"));
  assert_non_null(strstr(text, "\n# table: pmc_counters\n"));
  free(text);

  /* Text cuts long names at the width, with "…". */
  text = render(p, HP_FMT_TEXT, 3, 20);
  assert_non_null(strstr(text, "\nCijk_Ailk_Bljk_SB_M\xE2\x80\xA6  "));
  assert_non_null(strstr(text, "(7 more rows; --top 0 shows all)"));
  free(text);
  hp_profile_free(p);
  hp_diags_free(&d);
}

static void test_format_parse(void **state)
{
  hp_format f;

  (void)state;
  assert_int_equal(hp_format_parse("json", &f), 0);
  assert_int_equal(f, HP_FMT_JSON);
  assert_int_equal(hp_format_parse("markdown", &f), 0);
  assert_int_equal(f, HP_FMT_MD);
  assert_int_equal(hp_format_parse("csv", &f), 0);
  assert_int_equal(f, HP_FMT_CSV);
  assert_int_equal(hp_format_parse("text", &f), 0);
  assert_int_equal(f, HP_FMT_TEXT);
  assert_int_equal(hp_format_parse("xml", &f), HP_EINVAL);
}

/* A whole folder twice gives the same, sorted result; a missing path is HP_ENOENT. */
static void test_folder_scan_is_deterministic(void **state)
{
  hp_profile *a, *b;
  hp_diags d;
  char *ta, *tb;
  size_t i;

  (void)state;
  hp_diags_init(&d);
  a = load(FX, &d);
  b = load(FX, &d);
  ta = render(a, HP_FMT_JSON, 0, 0);
  tb = render(b, HP_FMT_JSON, 0, 0);
  assert_string_equal(ta, tb);
  for (i = 1; i < a->nfiles; i++)
    assert_true(strcmp(a->files[i - 1].path, a->files[i].path) < 0);
  assert_true(a->nfiles >= 25);
  free(ta);
  free(tb);
  assert_int_equal(hp_profile_add_path(a, FX "does/not/exist", &d), HP_ENOENT);
  hp_profile_free(a);
  hp_profile_free(b);
  hp_profile_free(NULL);
  hp_diags_free(&d);
}

/* ---------------------------------------------------------------------------------------------- */
/* Bad input: a warning that names file and line, the rest still summarised.                      */

static void test_bad_inputs(void **state)
{
  static const char binary[] = "Name,Calls\0\x01\x02\xff\xfe\0\0garbage\n\0";
  hp_profile *p;
  hp_diags d;
  hp_kernel_stat ks;
  char *msg, *path;
  hp__buf big = HP__BUF_INIT;
  size_t i;

  (void)state;
  mk_tmp();
  hp_diags_init(&d);
  free(put_str("empty/result_1.kernel.csv", ""));
  free(put_str("truncated/result_2.kernel.csv",
               "Name,Calls,TotalDurationNs,AverageNs\n\"k_ok\",2,100,50\n\"k_cut\",3"));
  free(put("binary/result_3.hiptrace.csv", binary, sizeof(binary)));
  free(put_str("missing/result_4.kernel.csv", "Name,Count\nk,1\n"));
  free(put_str("ragged/result_5.kernel.csv",
               "Name,Calls,TotalDurationNs\nk_rag,1,10,extra\nk_fine,1,20\n"));
  free(
      put_str("quote/result_6.stack.csv",
              "str_name,index,stack_sq,addrname\nk_st,0,0,\"main [0x1]\"\nk_st,1,0,\"never closed\n"
              "k_st,2,0,x\n"));
  free(put_str("numbers/result_7.kernel.csv",
               "Name,Calls,TotalDurationNs\nk_badtotal,1,abc\nk_badcalls,x,30\nk_na,2,n/a\n"));
  /* A 1 MB kernel name. */
  hp__buf_adds(&big, "Name,Calls,TotalDurationNs\n\"");
  for (i = 0; i < (1u << 20); i++)
    hp__buf_addc(&big, (char)('a' + i % 26));
  hp__buf_adds(&big, "\",1,5\n");
  free(put("huge/result_8.kernel.csv", big.data, big.len));
  hp__buf_free(&big);
  /* More than HP__MAX_FILE_WARNINGS bad rows: counted, not all printed. */
  hp__buf_adds(&big, "Name,Calls,TotalDurationNs\n");
  for (i = 0; i < 30; i++)
    hp__buf_printf(&big, "k_many%zu,1,bad%zu\n", i, i);
  free(put("many/result_9.kernel.csv", big.data, big.len));
  hp__buf_free(&big);

  p = load(tmpdir, &d);
  msg = diag_text(&d);
  assert_non_null(strstr(msg, "empty/result_1.kernel.csv:1: warning: the file is empty"));
  assert_non_null(strstr(msg,
                         "truncated/result_2.kernel.csv:3: warning: row has 2 fields, the "
                         "header has 4"));
  assert_non_null(strstr(msg,
                         "truncated/result_2.kernel.csv:3: warning: no value in column "
                         "'TotalDurationNs'"));
  assert_non_null(strstr(msg, "binary/result_3.hiptrace.csv: warning: binary data"));
  assert_non_null(strstr(msg,
                         "missing/result_4.kernel.csv:1: warning: header lacks the column "
                         "'TotalDurationNs'"));
  assert_non_null(strstr(msg,
                         "ragged/result_5.kernel.csv:2: warning: row has 4 fields, the "
                         "header has 3; extra fields are ignored"));
  assert_non_null(strstr(msg, "quote/result_6.stack.csv:3: warning: unterminated quoted field"));
  assert_non_null(strstr(msg,
                         "numbers/result_7.kernel.csv:2: warning: column 'TotalDurationNs': "
                         "\"abc\" is not a number"));
  assert_non_null(strstr(msg,
                         "numbers/result_7.kernel.csv:3: warning: column 'Calls': \"x\" is "
                         "not a whole number"));
  assert_non_null(strstr(msg, "many/result_9.kernel.csv:21: warning:"));
  assert_null(strstr(msg, "many/result_9.kernel.csv:22: warning:"));
  assert_non_null(strstr(msg, "many/result_9.kernel.csv: note: 10 more warnings about this file"));
  free(msg);

  /* What could be read was read. */
  assert_int_equal(tstat(p, HP__T_KERNEL, "k_ok")->calls, 2);
  assert_true(tstat(p, HP__T_KERNEL, "k_rag")->total_ns == 10);
  assert_true(tstat(p, HP__T_KERNEL, "k_fine")->total_ns == 20);
  assert_true(tstat(p, HP__T_KERNEL, "k_badcalls")->total_ns == 30);
  assert_int_equal(tstat(p, HP__T_KERNEL, "k_badcalls")->calls, 0);
  assert_true(
      hp__strtab_find(&p->t[HP__T_KERNEL].names, "k_badtotal", 10, hp__hash("k_badtotal", 10)) < 0);
  assert_int_equal(p->stk[0].launches, 1);
  assert_int_equal(hp_profile_kernel_find(p, "abcdefghijklmnopqrstuvwxyzabc", &ks), 0);
  assert_int_equal(strlen(ks.name), 1u << 20);
  assert_int_equal(ks.calls, 1);
  msg = render(p, HP_FMT_TEXT, 0, 60);
  assert_non_null(strstr(msg,
                         "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefg"
                         "\xE2\x80\xA6"));
  free(msg);
  hp_profile_free(p);

  /* A single bad file given directly, and an unreadable path. */
  path = hp__path_join(tmpdir, "quote/result_6.stack.csv");
  p = load(path, &d);
  assert_int_equal(hp_profile_nfiles(p), 1);
  hp_profile_free(p);
  free(path);
  hp_diags_free(&d);
  rm_tree(tmpdir);
}

/* Stack rows of one launch far apart are noticed; launches interleaved within the window are
 * counted exactly. */
static void test_stack_interleaving(void **state)
{
  hp__buf b = HP__BUF_INIT;
  hp_profile *p;
  hp_diags d;
  char *msg;
  int i, k;

  (void)state;
  mk_tmp();
  hp_diags_init(&d);
  hp__buf_adds(&b, "str_name,index,stack_sq,addrname\n");
  /* Four launches, frames written round-robin (sq 0 of every launch, then sq 1 ...). */
  for (k = 0; k < 3; k++)
    for (i = 0; i < 4; i++)
      hp__buf_printf(&b, "kern,%d,%d,\"%s\"\n", i, k,
                     k == 0       ? "libamdhip64.so(+0x1) [0x1]"
                         : k == 1 ? "user_fn() [0x2]"
                                  : "main");
  free(put("a/result_1.stack.csv", b.data, b.len));
  hp__buf_reset(&b);
  /* One launch, then 20000 other rows (beyond two windows), then the first launch again. */
  hp__buf_adds(&b, "str_name,index,stack_sq,addrname\nfar,0,0,\"f() [0x1]\"\n");
  for (i = 0; i < 20000; i++)
    hp__buf_printf(&b, "other,%d,0,\"g()\"\n", i);
  hp__buf_adds(&b, "far,0,1,\"h()\"\n");
  free(put("b/result_2.stack.csv", b.data, b.len));
  hp__buf_free(&b);

  p = load(tmpdir, &d);
  assert_int_equal(p->stk[0].launches, 4);
  assert_string_equal(p->stk[0].o[0].frame, "user_fn()");
  assert_int_equal(p->stk[0].o[0].n, 4);
  msg = diag_text(&d);
  assert_non_null(strstr(msg,
                         "b/result_2.stack.csv: warning: 1 launches (str_name, index) came "
                         "back"));
  free(msg);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tree(tmpdir);
}

/* Replays repeat a dispatch's row: records count rows, dispatches count ids (whole numbers through
 * the bit set, anything else through the window). Leak-check lines without a size are reported. */
static void test_pmc_replays_and_leak_lines(void **state)
{
  static const char csv[] =
      "Index,KernelName,grd,wgr,SQ_WAVES,TCC_HIT[0],TCC_HIT[1],BeginNs,EndNs\n"
      "0,k,64,64,4,1,2,100,200\n0,k,64,64,4,1,2,300,450\n1,k,128,64,8,1,1,500,600\n"
      "1,k,128,64,8,1,1,700,800\nd-7,k,64,64,4,,,900,1000\nd-7,k,64,64,4,,,1100,1200\n";
  const hp__pmc_kernel *pk;
  hp_profile *p;
  hp_diags d;
  long long rows;
  char *msg;

  (void)state;
  mk_tmp();
  hp_diags_init(&d);
  free(put_str("pmc/pmc_results_42.csv", csv));
  free(put_str("mem/stdout.txt",
               "hello\nhost leakcheck memory size 1.50 GB\n"
               "device1 leakcheck memory size oops\n"));
  p = load(tmpdir, &d);
  pk = pmc(p, "k");
  assert_int_equal(pk->records, 6);
  assert_int_equal(pk->dispatches, 3);
  assert_string_equal(vals(&pk->props[HP__P_GRID]), "64,128");
  assert_true(counter(p, pk, "TCC_HIT", &rows) == 3 + 3 + 2 + 2 && rows == 4);
  assert_true(counter(p, pk, "SQ_WAVES", &rows) == 32 && rows == 6);
  assert_int_equal(pk->tn, 6);
  assert_true(pk->tmin == 100 && pk->tmax == 150);
  assert_int_equal(p->nleaks, 1);
  assert_true(p->leaks[0].bytes == 1.5 * 1073741824.0);
  assert_string_equal(p->leaks[0].scope, "host");
  msg = diag_text(&d);
  assert_non_null(strstr(msg, "mem/stdout.txt:3: warning: leak-check line without a size"));
  free(msg);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tree(tmpdir);
}

/* A write error is reported, not ignored. */
static void test_write_error(void **state)
{
  hp_profile *p;
  FILE *fp = fopen("/dev/full", "w");

  (void)state;
  if (fp == NULL)
    skip();
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_write(p, fp, HP_FMT_TEXT, NULL), HP_EIO);
  fclose(fp);
  assert_int_equal(hp_profile_write(NULL, stdout, HP_FMT_TEXT, NULL), HP_EINVAL);
  hp_profile_free(p);
}

/* Counts near the 64-bit limit: two rows of one kernel, and two kernels of one category, whose sums
 * do not fit. The sum is held at the largest count (docs/summarize.md), never wrapped negative. */
static void test_calls_saturate(void **state)
{
  hp_profile *p;
  hp_diags d;
  hp__catstat *c;
  hp_profile_totals tot;
  size_t n;
  char *text, *dir;

  (void)state;
  mk_tmp();
  free(put_str("a/results.stats.csv",
               "Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
               "k,9223372036854775807,1,1,50\n"
               "k,1,1,1,50\n"));
  free(put_str("b/results.stats.csv",
               "Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
               "k1,9223372036854775806,1,1,50\n"
               "k2,5,1,1,50\n"));
  hp_diags_init(&d);
  dir = hp__path_join(tmpdir, "a");
  p = load(dir, &d);
  free(dir);
  assert_true(tstat(p, HP__T_KERNEL, "k")->calls == LLONG_MAX);
  text = render(p, HP_FMT_TEXT, 0, 60);
  assert_null(strstr(text, "-9223372036854775808"));
  free(text);
  hp_profile_free(p);

  dir = hp__path_join(tmpdir, "b");
  p = load(dir, &d);
  free(dir);
  assert_int_equal(hp_profile_set_categories(p, NULL, 0), 0);
  assert_int_equal(hp__profile_categories(p, &c, &n), 0);
  assert_int_equal(n, 1);
  assert_true(c[0].calls == LLONG_MAX);
  free(c);
  assert_int_equal(hp_profile_get_totals(p, &tot), 0);
  assert_true(tot.launches == LLONG_MAX);
  hp_profile_free(p);
  hp_diags_free(&d);
  rm_tree(tmpdir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vector_add_article_tables),
      cmocka_unit_test(test_weather_categories_and_stacks),
      cmocka_unit_test(test_runtime_frames_and_categories_configurable),
      cmocka_unit_test(test_frame_sanitising),
      cmocka_unit_test(test_pmc_text),
      cmocka_unit_test(test_rocprof_stats_take_precedence),
      cmocka_unit_test(test_rocprofv3_versions),
      cmocka_unit_test(test_ncu_formats),
      cmocka_unit_test(test_ncu_real_h200),
      cmocka_unit_test(test_json_output),
      cmocka_unit_test(test_markdown_and_csv_output),
      cmocka_unit_test(test_format_parse),
      cmocka_unit_test(test_folder_scan_is_deterministic),
      cmocka_unit_test(test_bad_inputs),
      cmocka_unit_test(test_stack_interleaving),
      cmocka_unit_test(test_pmc_replays_and_leak_lines),
      cmocka_unit_test(test_write_error),
      cmocka_unit_test(test_calls_saturate),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
