/*
 * rocprofv3: a TEST DOUBLE for ROCm's rocprofv3 (rocprofiler-sdk), for hprun's tests only. Never
 * used by default.
 *
 * It runs the app (`rocprofv3 [options] -- <app> [args]`), passes the app's stdout through with
 * every time (`key=number` whose key ends in _ms/_us/_ns/_s) multiplied by a per-mode factor, and
 * writes the CSV files of ../shared/docs/profiler-formats.md §3 (names `<d>/<o>_<suffix>.csv`,
 * ROCm 6.4/7 headers, quoted strings) for the app's `launches=` kernel launches. It measures
 * nothing: kernel durations are the app's own undisturbed mean_kernel_ms, the rest is constant.
 * It insists on `--output-format csv` (ROCm 7 defaults to rocpd, which hprun does not read) and on
 * the `--` before the app.
 *
 * The exact contract is in tests/README.md; hprun's end-to-end tests assert it.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define PROG "rocprofv3"
#define KERNEL_NAME "vector_add(float const*, float const*, float*, int)"
#define DEFAULT_LAUNCHES 120
#define DEFAULT_KERNEL_NS 18799
/* An app that claims a billion launches would make gigabyte files; the files stop here. */
#define MAX_LAUNCHES 100000

/* Every fatal error (die) exits 2, as rocprofv3's argparse does for usage errors. */
#define FAKE_DIE_STATUS 2

/* The helpers and the app runner shared with hipprof.c and ncu.c. */
#include "fake_common.h"

/* ---------------------------------------------------------------------------------------------- */
/* rocprofv3 itself.                                                                              */

enum mode {
  M_KERNEL,
  M_HIP,
  M_SYS,
  M_PMC,
  M_COUNT
};

typedef struct options {
  int kernel_trace, hip_trace, sys_trace, stats, csv, marker_trace;
  char **pmc; /* counter names, borrowed from argv or split copies; NULL-terminated */
  size_t npmc;
  const char *dir;   /* -d */
  const char *out;   /* -o */
  const char *regex; /* --kernel-include-regex */
  int app;           /* index in argv of the app */
} options;

static void usage(FILE *fp)
{
  fputs("usage: rocprofv3 [options] -- <app> [app args]\n"
        "hprun TEST DOUBLE of rocprofv3: runs the app, scales its *_ms/_us/_ns/_s outputs by a\n"
        "per-mode factor and writes rocprofv3-like CSV files. It profiles nothing.\n"
        "options: --kernel-trace, --hip-trace, -s/--sys-trace, --stats, --pmc C1 [C2 ...],\n"
        "         --kernel-include-regex R, -d/--output-directory DIR, -o/--output-file NAME,\n"
        "         --output-format csv [json pftrace otf2 rocpd] (csv is required)\n"
        "env: ROCPROFV3_FAKE_FACTORS=\"kernel-trace=1.02,hip-trace=1.03,sys-trace=1.03,pmc=3\"\n",
        fp);
}

/* Appends a counter name to o->pmc. Names given as "A,B" are split, as newer rocprofv3 allows. */
static void add_counters(options *o, const char *arg)
{
  char *copy = xstrdup_printf("%s", arg), *save = NULL, *tok;

  for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char **v = realloc(o->pmc, (o->npmc + 2) * sizeof(*v));

    if (v == NULL)
      die("out of memory");
    o->pmc = v;
    o->pmc[o->npmc++] = xstrdup_printf("%s", tok);
    o->pmc[o->npmc] = NULL;
  }
  free(copy);
}

static void parse_args(int argc, char **argv, options *o)
{
  static const char *const formats[] = {"csv", "json", "pftrace", "otf2", "rocpd"};
  int i;

  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
    size_t alen = eq ? (size_t)(eq - a) : strlen(a);
    int many = 0; /* 1: --output-format, 2: --pmc (values until the next option) */
    const char *single = NULL;

#define IS(name) (strlen(name) == alen && strncmp(a, name, alen) == 0)
    if (strcmp(a, "--") == 0) {
      if (i + 1 >= argc)
        die("no application given after '--'");
      o->app = i + 1;
      return;
    }
    if (a[0] != '-')
      die("the application must follow '--' (got '%s' before any '--')", a);
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strcmp(a, "--version") == 0) {
      printf("rocprofv3 (hprun test double) 0.0.0\n");
      exit(0);
    }
    if (!eq && strcmp(a, "--kernel-trace") == 0) {
      o->kernel_trace = 1;
    } else if (!eq && strcmp(a, "--hip-trace") == 0) {
      o->hip_trace = 1;
    } else if (!eq && (strcmp(a, "-s") == 0 || strcmp(a, "--sys-trace") == 0)) {
      o->sys_trace = 1;
    } else if (!eq && strcmp(a, "--marker-trace") == 0) {
      o->marker_trace = 1;
    } else if (!eq && strcmp(a, "--stats") == 0) {
      o->stats = 1;
    } else if (IS("--output-format")) {
      many = 1;
    } else if (IS("--pmc")) {
      many = 2;
    } else if (IS("--kernel-include-regex") || IS("--output-directory") || IS("--output-file") ||
               (!eq && (strcmp(a, "-d") == 0 || strcmp(a, "-o") == 0))) {
      if (eq)
        single = eq + 1;
      else if (i + 1 < argc && strcmp(argv[i + 1], "--") != 0)
        single = argv[++i];
      else
        die("argument %s: expected one argument", a);
      if (*single == '\0')
        die("argument %s: expected a non-empty value", a);
      if (IS("--kernel-include-regex"))
        o->regex = single;
      else if (IS("--output-directory") || strcmp(a, "-d") == 0)
        o->dir = single;
      else
        o->out = single;
    } else {
      die("unrecognized argument: '%s' (try --help)", a);
    }
#undef IS
    if (many) {
      int got = 0;

      /* argparse nargs='+': "--opt=v" gives one value; otherwise every word up to the next
       * option or "--". */
      for (;;) {
        const char *v;
        size_t k;

        if (eq && got == 0)
          v = eq + 1;
        else if (!eq && i + 1 < argc && argv[i + 1][0] != '-')
          v = argv[++i];
        else
          break;
        got++;
        if (many == 2) {
          add_counters(o, v);
        } else {
          for (k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
            if (strcmp(v, formats[k]) == 0)
              break;
          if (k == sizeof(formats) / sizeof(formats[0]))
            die("argument --output-format: invalid choice: '%s' (choose from csv, json, pftrace, "
                "otf2, rocpd; the application must follow '--')",
                v);
          o->csv |= k == 0;
        }
        if (eq)
          break;
      }
      if (got == 0 || (many == 2 && o->npmc == 0))
        die("argument %s: expected at least one argument", many == 1 ? "--output-format" : "--pmc");
    }
  }
  die("the application must follow '--' (no '--' found)");
}

/* Expands %hostname%, %pid% and %rank% in a -d or -o value (§3.2). The caller frees the result. */
static char *expand(const char *s, long pid)
{
  char host[256];
  sbuf b = {0};

  if (gethostname(host, sizeof(host)) != 0)
    snprintf(host, sizeof(host), "localhost");
  host[sizeof(host) - 1] = '\0';
  while (*s) {
    if (strncmp(s, "%hostname%", 10) == 0) {
      sb_add(&b, host, strlen(host));
      s += 10;
    } else if (strncmp(s, "%pid%", 5) == 0) {
      sb_printf(&b, "%ld", pid);
      s += 5;
    } else if (strncmp(s, "%rank%", 6) == 0) {
      sb_add(&b, "0", 1);
      s += 6;
    } else {
      sb_add(&b, s++, 1);
    }
  }
  if (b.s == NULL)
    sb_add(&b, "", 0);
  return b.s;
}

/* The HIP API calls of the article's vector_add (§五): name, calls, total ns. hipLaunchKernel
 * follows the app's launch count. */
typedef struct api_row {
  const char *name;
  long long calls, total;
} api_row;

static size_t api_rows(long launches, api_row *rows)
{
  const api_row r[] = {{"hipMalloc", 3, 240481148LL},
                       {"hipMemcpy", 3, 2432756LL},
                       {"hipEventSynchronize", 1, 1496596LL},
                       {"hipLaunchKernel", launches, llround(830707.0 * (double)launches / 120.0)},
                       {"hipDeviceSynchronize", 1, 377584LL},
                       {"hipFree", 3, 142611LL},
                       {"hipEventRecord", 2, 8214LL},
                       {"hipEventCreate", 2, 5324LL}};
  size_t n = 0, i;

  for (i = 0; i < sizeof(r) / sizeof(r[0]); i++)
    if (r[i].calls > 0)
      rows[n++] = r[i];
  return n;
}

static int cmp_api(const void *a, const void *b)
{
  const api_row *x = a, *y = b;

  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* A percentage the way rocprofv3's stats print it: 4 significant digits, scientific when small. */
static void add_pct(sbuf *b, double pct)
{
  if (pct >= 0.01 || pct == 0)
    sb_printf(b, "%.4g", pct);
  else
    sb_printf(b, "%.3e", pct);
}

static const char stats_header[] = "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\","
                                   "\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n";

/* One stats row: every call of a row lasts the same, so min = max = average and the standard
 * deviation is 0, which rocprofv3 prints in scientific notation. */
static void add_stats_row(sbuf *b, const char *name, long long calls, long long total,
                          long long sum)
{
  sb_printf(b, "\"%s\",%lld,%lld,%f,", name, calls, total, (double)total / (double)calls);
  add_pct(b, sum ? 100.0 * (double)total / (double)sum : 0);
  sb_printf(b, ",%lld,%lld,0.00000000e+00\n", total / calls, total / calls);
}

static void make_hip_stats(long launches, sbuf *b)
{
  api_row rows[8];
  size_t n = api_rows(launches, rows), i;
  long long sum = 0;

  qsort(rows, n, sizeof(rows[0]), cmp_api);
  for (i = 0; i < n; i++)
    sum += rows[i].total;
  sb_add(b, stats_header, sizeof(stats_header) - 1);
  for (i = 0; i < n; i++)
    add_stats_row(b, rows[i].name, rows[i].calls, rows[i].total, sum);
}

/* The HIP API trace: the calls in program order (allocate, copy in, launch, copy out, free). */
static void make_hip_trace(long launches, long pid, double t0, sbuf *b)
{
  api_row rows[8];
  size_t n = api_rows(launches, rows), i;
  static const char *const order[] = {"hipMalloc",
                                      "hipEventCreate",
                                      "hipMemcpy",
                                      "hipLaunchKernel",
                                      "hipEventRecord",
                                      "hipEventSynchronize",
                                      "hipDeviceSynchronize",
                                      "hipFree"};
  long long t = (long long)t0, corr = 1;
  size_t k;

  sb_printf(b,
            "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
            "\"Start_Timestamp\",\"End_Timestamp\"\n");
  for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
    for (i = 0; i < n; i++) {
      long long c, d;

      if (strcmp(rows[i].name, order[k]) != 0)
        continue;
      d = rows[i].total / rows[i].calls;
      for (c = 0; c < rows[i].calls; c++) {
        sb_printf(b, "\"HIP_RUNTIME_API\",\"%s\",%ld,%ld,%lld,%lld,%lld\n", rows[i].name, pid, pid,
                  corr++, t, t + d);
        t += d + 1000;
      }
    }
}

/* Start of dispatch i: dispatches are spaced by their duration plus a gap. */
static long long dispatch_start(double t0, long i, long long dur)
{
  return (long long)t0 + 300000000LL + i * (dur + 25000);
}

static void make_kernel_trace(long launches, long long dur, long pid, double t0, sbuf *b)
{
  long i;

  sb_printf(b,
            "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
            "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
            "\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
            "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
            "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n");
  for (i = 0; i < launches; i++) {
    long long s = dispatch_start(t0, i, dur);

    sb_printf(b,
              "\"KERNEL_DISPATCH\",\"Agent 1\",1,1,%ld,%ld,11,\"%s\",%ld,%lld,%lld,0,0,8,0,16,"
              "256,1,1,1048576,1,1\n",
              pid, i + 1, KERNEL_NAME, i + 16, s, s + dur);
  }
}

/* --marker-trace: the documented header, a roctxMark row (Start == End) and, when the env
 * ROCPROFV3_FAKE_RANGE is "NAME FIRST LAST", one range row NAME spanning dispatches FIRST..LAST
 * (1-based) of the kernel trace: the double cannot see the app's own roctx calls. */
static void make_marker_trace(long launches, long long dur, long pid, double t0, sbuf *b)
{
  const char *env = getenv("ROCPROFV3_FAKE_RANGE");
  char name[64];
  long first, last;

  sb_printf(b,
            "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
            "\"Start_Timestamp\",\"End_Timestamp\"\n");
  sb_printf(b, "\"MARKER_CORE_API\",\"hprun fake mark\",%ld,%ld,1,%lld,%lld\n", pid, pid,
            (long long)t0, (long long)t0);
  if (env && sscanf(env, "%63s %ld %ld", name, &first, &last) == 3 && first >= 1 && last >= first &&
      last <= launches)
    sb_printf(b, "\"MARKER_CORE_RANGE_API\",\"%s\",%ld,%ld,2,%lld,%lld\n", name, pid, pid,
              dispatch_start(t0, first - 1, dur) - 1, dispatch_start(t0, last - 1, dur) + dur + 1);
}

static void make_kernel_stats(long launches, long long dur, sbuf *b)
{
  sb_add(b, stats_header, sizeof(stats_header) - 1);
  if (launches > 0)
    add_stats_row(b, KERNEL_NAME, launches, dur * launches, dur * launches);
}

static void make_domain_stats(const options *o, long launches, long long dur, sbuf *b)
{
  api_row rows[8];
  size_t n = api_rows(launches, rows), i;
  long long hip = 0, hip_calls = 0, kern = dur * launches, sum;
  int with_hip = o->hip_trace || o->sys_trace, with_kernel = o->kernel_trace || o->sys_trace;

  for (i = 0; i < n; i++) {
    hip += rows[i].total;
    hip_calls += rows[i].calls;
  }
  sum = (with_hip ? hip : 0) + (with_kernel ? kern : 0);
  sb_add(b, stats_header, sizeof(stats_header) - 1);
  if (with_hip && hip_calls > 0)
    add_stats_row(b, "HIP_RUNTIME_API", hip_calls, hip, sum);
  if (with_kernel && launches > 0)
    add_stats_row(b, "KERNEL_DISPATCH", launches, kern, sum);
}

/* A short version of the agent table: one CPU and one GPU agent. */
static void make_agent_info(sbuf *b)
{
  sb_printf(b,
            "\"Node_Id\",\"Logical_Node_Id\",\"Agent_Type\",\"Cpu_Cores_Count\",\"Simd_Count\","
            "\"Wave_Front_Size\",\"Num_Xcc\",\"Cu_Count\",\"Max_Engine_Clk_Fcompute\",\"Name\","
            "\"Vendor_Name\",\"Product_Name\",\"Model_Name\"\n");
  sb_printf(b,
            "0,0,\"CPU\",16,0,0,0,0,3000,\"hprun-fake-cpu\",\"CPU\",\"hprun test double CPU\","
            "\"\"\n");
  sb_printf(b,
            "1,1,\"GPU\",0,1216,64,8,304,2100,\"gfx942\",\"AMD\",\"hprun test double GPU\","
            "\"ip discovery\"\n");
}

/* A counter's value for one vector_add dispatch: known names get plausible values, others a
 * stable number derived from the name (the same in every run). */
static double counter_value(const char *name, long long dur)
{
  uint32_t h = 2166136261u;
  const char *p;

  if (strcmp(name, "SQ_WAVES") == 0)
    return 16384;
  if (strcmp(name, "SQ_INSTS_VALU") == 0)
    return 229376;
  if (strcmp(name, "GRBM_COUNT") == 0 || strcmp(name, "GRBM_GUI_ACTIVE") == 0)
    return floor((double)dur * 2.1);
  if (strcmp(name, "SQ_LDS_BANK_CONFLICT") == 0)
    return 0;
  for (p = name; *p; p++)
    h = (h ^ (uint32_t)(unsigned char)*p) * 16777619u;
  return (double)(h % 100000u);
}

/* Long format: one row per (dispatch, counter), for dispatches whose kernel name matches
 * --kernel-include-regex (all when it is not given). */
static void make_counters(const options *o, long launches, long long dur, long pid, double t0,
                          sbuf *b)
{
  long i;
  size_t k;
  int match = 1;

  if (o->regex) {
    regex_t re;

    if (regcomp(&re, o->regex, REG_EXTENDED | REG_NOSUB) != 0)
      die("--kernel-include-regex: invalid regular expression '%s'", o->regex);
    match = regexec(&re, KERNEL_NAME, 0, NULL, 0) == 0;
    regfree(&re);
  }
  sb_printf(b,
            "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\","
            "\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\","
            "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\","
            "\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\","
            "\"End_Timestamp\"\n");
  for (i = 0; match && i < launches; i++) {
    long long s = dispatch_start(t0, i, dur);

    for (k = 0; k < o->npmc; k++)
      sb_printf(b,
                "%ld,%ld,\"Agent 1\",1,%ld,%ld,1048576,11,\"%s\",256,0,0,8,0,16,\"%s\",%f,"
                "%lld,%lld\n",
                i + 16, i + 1, pid, pid, KERNEL_NAME, o->pmc[k], counter_value(o->pmc[k], dur), s,
                s + dur);
  }
}

/* Writes one `<base>_<suffix>.csv`. */
static void emit(const char *base, const char *suffix, const sbuf *b)
{
  char *path = xstrdup_printf("%s_%s.csv", base, suffix);

  write_file(path, b);
  free(path);
}

int main(int argc, char **argv)
{
  static const char *const keys[M_COUNT] = {"kernel-trace", "hip-trace", "sys-trace", "pmc"};
  double factors[M_COUNT] = {1.02, 1.03, 1.03, 3.0}, t0;
  options o;
  app_info info;
  enum mode mode;
  char *app_path, *dir, *name, *base, *slash;
  long launches;
  long long dur;
  pid_t app_pid = 0;
  int code;
  size_t k;
  sbuf b = {0};

  memset(&o, 0, sizeof(o));
  memset(&info, 0, sizeof(info));
  parse_args(argc, argv, &o);
  if (!o.csv)
    die("--output-format csv is required by this test double (ROCm 7 writes rocpd SQLite by "
        "default, which hprun does not read)");
  if (!o.kernel_trace && !o.hip_trace && !o.sys_trace && o.npmc == 0)
    die("nothing to collect: give --kernel-trace, --hip-trace, --sys-trace or --pmc");
  if (o.regex) {
    regex_t re;

    if (regcomp(&re, o.regex, REG_EXTENDED | REG_NOSUB) != 0)
      die("--kernel-include-regex: invalid regular expression '%s'", o.regex);
    regfree(&re);
  }
  mode = o.npmc ? M_PMC : o.sys_trace ? M_SYS : o.hip_trace ? M_HIP : M_KERNEL;
  read_factors("ROCPROFV3_FAKE_FACTORS", keys, factors, M_COUNT);

  app_path = find_exec(argv[o.app]);
  if (app_path == NULL) {
    fprintf(stderr, PROG ": cannot run application '%s': %s\n", argv[o.app],
            errno == EACCES ? "not executable" : "not found");
    return 127;
  }
  free(app_path);

  t0 = mono_ns();
  code = run_app(argv + o.app, factors[mode], &info, &app_pid, NULL, NULL);
  /* The real tool writes from inside the app at its exit; SIGKILL leaves no chance to. */
  if (code == 128 + SIGKILL) {
    fprintf(stderr, PROG ": the application was killed; no output was written\n");
    goto done;
  }

  launches = app_launches(&info, DEFAULT_LAUNCHES, "the files list");
  dur = DEFAULT_KERNEL_NS;
  if (info.have_mean && info.mean_raw >= 0 && info.mean_raw < 1e6)
    dur = llround(info.mean_raw * 1e6);

  dir = expand(o.dir ? o.dir : ".", (long)app_pid);
  name = expand(o.out ? o.out : "%hostname%/%pid%", (long)app_pid);
  base = join(dir, name);
  slash = strrchr(base, '/');
  if (slash && slash != base) {
    *slash = '\0';
    mkdirs(base);
    *slash = '/';
  }

  make_agent_info(&b);
  emit(base, "agent_info", &b);
  if (o.kernel_trace || o.sys_trace) {
    b.len = 0;
    make_kernel_trace(launches, dur, (long)app_pid, t0, &b);
    emit(base, "kernel_trace", &b);
    if (o.stats) {
      b.len = 0;
      make_kernel_stats(launches, dur, &b);
      emit(base, "kernel_stats", &b);
    }
  }
  if (o.marker_trace) {
    b.len = 0;
    make_marker_trace(launches, dur, (long)app_pid, t0, &b);
    emit(base, "marker_api_trace", &b);
  }
  if (o.hip_trace || o.sys_trace) {
    b.len = 0;
    make_hip_trace(launches, (long)app_pid, t0, &b);
    emit(base, "hip_api_trace", &b);
    if (o.stats) {
      b.len = 0;
      make_hip_stats(launches, &b);
      emit(base, "hip_api_stats", &b);
    }
  }
  if (o.stats && (o.kernel_trace || o.hip_trace || o.sys_trace)) {
    b.len = 0;
    make_domain_stats(&o, launches, dur, &b);
    emit(base, "domain_stats", &b);
  }
  if (o.npmc) {
    b.len = 0;
    make_counters(&o, launches, dur, (long)app_pid, t0, &b);
    emit(base, "counter_collection", &b);
  }
  free(dir);
  free(name);
  free(base);

done:
  for (k = 0; k < o.npmc; k++)
    free(o.pmc[k]);
  free(o.pmc);
  free(b.s);
  return code;
}
