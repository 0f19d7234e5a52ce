/*
 * hipprof: a TEST DOUBLE for Hygon DTK's hipprof, for hprun's tests only. Never used by default.
 *
 * It runs the app the way hipprof does (options, then the app and its arguments, no `--`), slows
 * the app's self-reported times down by a fixed factor per mode (the factors the seed article
 * measured), and writes the files that hipprof writes, with the names and columns of
 * ../shared/docs/profiler-formats.md §1. It profiles nothing: every number in its files is derived
 * from what the app printed (`launches=`, `mean_kernel_ms=`) or is a constant modelled on the
 * article. It also imitates two pitfalls: killing hipprof loses its files (a `.db-journal` is left),
 * and with HIPPROF_FAKE_LATE_MS the PMC CSV appears after hipprof has exited.
 *
 * The exact contract is in tests/README.md; hprun's end-to-end tests assert it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "hipprof"
#define KERNEL_NAME "vector_add(float const*, float const*, float*, int)"
#define DEFAULT_LAUNCHES 120
#define DEFAULT_KERNEL_NS 18799
/* An app that claims a billion launches would make gigabyte files; the files stop here. */
#define MAX_LAUNCHES 100000

/* The helpers and the app runner shared with ncu.c and rocprofv3.c. */
#include "fake_common.h"

/* Sleeps `ms` milliseconds, resuming after signals. */
static void sleep_ms(long ms)
{
  struct timespec ts;

  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* ---------------------------------------------------------------------------------------------- */
/* hipprof itself.                                                                                */

enum mode {
  M_TRACE,
  M_STATS,
  M_STACK,
  M_PMC,
  M_MEM,
  M_COUNT
};

/* The article's measurements: mean kernel time under each mode / uninstrumented (§八, §九). */
static const double default_factors[M_COUNT] = {1.0127, 1.0127, 1.0207, 79.83, 1.004};

typedef struct options {
  int hip_trace, stats, kernel_stack, pmc, memory, follow_fork;
  int pmc_type;       /* -1 when not given */
  const char *kernel; /* --kernel-name */
  const char *out;    /* -o */
  const char *dir;    /* -d: the temporary data folder (its contents are not imitated) */
  const char *db;     /* --db */
  int app;            /* index in argv of the app */
} options;

typedef struct names {
  char *hiptrace, *kernel, *db, *journal, *stack, *pmc_csv, *pmc_txt;
} names;

/* The options of DTK 26.04's `hipprof -h` (tests/fixtures/real/hipprof/dtk-26.04-help/), in its
 * order: the flags, then the options that take a value. The double accepts every one of them and
 * lists exactly these in -h, so hprun's reading of the help text is tested against the real set;
 * tests/e2e/test_hipprof_output.sh compares the two lists. */
static const char *const help_flags[] = {"-h",
                                         "--hiptx-trace",
                                         "--hiptx-kernel",
                                         "--hip-trace",
                                         "--libc-trace",
                                         "--hsa-trace",
                                         "--cl-trace",
                                         "--omp-trace",
                                         "--rccl-trace",
                                         "--mpi-trace",
                                         "--barrier",
                                         "--kernel-stack",
                                         "--no-export",
                                         "--stats",
                                         "--show-pid",
                                         "--group-stream",
                                         "--trace-args",
                                         "--print-trace",
                                         "--trace-off",
                                         "--show-trace-id",
                                         "--exit-cleanup",
                                         "--follow-fork",
                                         "--master",
                                         "--slave",
                                         "--leak-check",
                                         "--memory-usage",
                                         "--record-memfreeinfo",
                                         "--show-nodes",
                                         "--start",
                                         "--stop",
                                         "--flush",
                                         "--exit",
                                         "--pmc",
                                         "--pmc-read",
                                         "--pmc-write",
                                         "--pmc-off",
                                         NULL};
static const char *const help_valued[] = {"-o",
                                          "-d",
                                          "--output-type",
                                          "--segment-size",
                                          "--devices",
                                          "--mask-trace",
                                          "--libc-trace-level",
                                          "--db",
                                          "--db-path",
                                          "--db-merge",
                                          "--merge-type",
                                          "--set-trace-id",
                                          "--index-range",
                                          "--flush-interval",
                                          "--buffer-size",
                                          "--port",
                                          "--node-list",
                                          "--data-mode",
                                          "--master-address",
                                          "--netcard",
                                          "--pid-file",
                                          "--check-minsize",
                                          "--time-range",
                                          "--show-limit",
                                          "--session",
                                          "--session-client",
                                          "--pmc-type",
                                          "--kernel-name",
                                          "--kernel-profile-mode",
                                          "--input-core",
                                          "--codeobj-analyze",
                                          NULL};
/* What an older DTK without them would lack (HIPPROF_FAKE_HELP=old): a constructed case, for the
 * fallback that moves files in; no such help text has been seen. */
static const char *const newer_options[] = {"-o", "-d", "--follow-fork", NULL};

static int listed(const char *const *v, const char *a)
{
  for (; *v; v++)
    if (strcmp(*v, a) == 0)
      return 1;
  return 0;
}

/* One line per option, as DTK's help has them ("  -o <value>  - ..."), after a line that says
 * what this is. */
static void usage(FILE *fp)
{
  const char *old = getenv("HIPPROF_FAKE_HELP");
  int is_old = old && strcmp(old, "old") == 0;
  size_t i;

  fputs("hprun TEST DOUBLE of DTK hipprof: runs the app, scales its *_ms/_us/_ns/_s outputs by a\n"
        "per-mode factor and writes hipprof-like CSV files. It profiles nothing.\n"
        "Usage:\n  hipprof [options] <app command line>\n\nOptions:\n",
        fp);
  for (i = 0; help_flags[i]; i++)
    if (!(is_old && listed(newer_options, help_flags[i])))
      fprintf(fp, "  %-28s- (test double)\n", help_flags[i]);
  for (i = 0; help_valued[i]; i++)
    if (!(is_old && listed(newer_options, help_valued[i])))
      fprintf(fp, "  %s <value>%*s- (test double)\n", help_valued[i],
              (int)(20 - strlen(help_valued[i]) > 0 ? 20 - strlen(help_valued[i]) : 1), "");
  fputs("env: HIPPROF_FAKE_FACTORS=\"stats=1.05,pmc=10\", HIPPROF_FAKE_LATE_MS=N,\n"
        "     HIPPROF_FAKE_HELP=old (refuse -o, -d and --follow-fork, as an older DTK would)\n",
        fp);
}

/* Parses an integer option value in [lo, hi]; fatal otherwise. */
static int int_value(const char *opt, const char *v, long lo, long hi)
{
  char *end;
  long n;

  errno = 0;
  n = strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno == ERANGE || n < lo || n > hi)
    die("bad value for %s: '%s' (expected %ld..%ld)", opt, v, lo, hi);
  return (int)n;
}

static void parse_args(int argc, char **argv, options *o)
{
  const char *help = getenv("HIPPROF_FAKE_HELP");
  int is_old = help && strcmp(help, "old") == 0, i;

  o->pmc_type = -1;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;

    if (a[0] != '-') {
      o->app = i;
      return;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strcmp(a, "--version") == 0) {
      printf("hipprof (hprun test double) 0.0.0\n");
      exit(0);
    }
    if (strcmp(a, "--") == 0)
      die("unknown option '--': hipprof takes the app right after its options, with no '--'");
    if (is_old && listed(newer_options, a))
      die("unknown option '%s' (HIPPROF_FAKE_HELP=old: this DTK has no such option)", a);
    if (listed(help_flags, a)) {
      if (strcmp(a, "--hip-trace") == 0)
        o->hip_trace = 1;
      else if (strcmp(a, "--stats") == 0)
        o->stats = 1;
      else if (strcmp(a, "--kernel-stack") == 0)
        o->kernel_stack = 1;
      else if (strcmp(a, "--pmc") == 0 || strcmp(a, "--pmc-read") == 0 ||
               strcmp(a, "--pmc-write") == 0)
        o->pmc = 1;
      else if (strcmp(a, "--memory-usage") == 0 || strcmp(a, "--leak-check") == 0)
        o->memory = 1;
      else if (strcmp(a, "--follow-fork") == 0)
        o->follow_fork = 1;
      continue;
    }
    if (!listed(help_valued, a))
      die("unknown option '%s' (try -h)", a);
    if (i + 1 >= argc)
      die("option %s needs a value", a);
    v = argv[++i];
    if (strcmp(a, "--pmc-type") == 0)
      o->pmc_type = int_value(a, v, 0, 3);
    else if (strcmp(a, "--output-type") == 0)
      (void)int_value(a, v, 0, 2);
    else if (strcmp(a, "--kernel-name") == 0)
      o->kernel = v;
    else if (strcmp(a, "-o") == 0) {
      if (*v == '\0')
        die("option -o needs a non-empty value");
      o->out = v;
    } else if (strcmp(a, "-d") == 0) {
      if (*v == '\0')
        die("option -d needs a non-empty value");
      o->dir = v;
    } else if (strcmp(a, "--db") == 0)
      o->db = v;
  }
  if (o->db)
    die("--db regeneration without an app is not imitated by this test double");
  fprintf(stderr, PROG ": no application given\n");
  usage(stderr);
  exit(1);
}

/* File names, following profiler-formats.md §1.2 and DTK 26.04's help ("-o <output file> - for
 * the output filepath[a/, a/b/, /a/b/] and filename[a, a/b, /a/b/c]"): without -o the old
 * `result_<pid>.*` scheme in the working directory; with -o X the DTK 26 scheme `X.<suffix>`,
 * suffix appended, never replaced; an X ending in '/' is a folder that gets the old names. -d is
 * the temporary data folder, never where the results go. */
static void make_names(const options *o, names *n)
{
  const char *dir = ".";
  long pid = (long)getpid();

  mkdirs(dir);
  if (o->out && o->out[strlen(o->out) - 1] != '/') {
    char *base = join(dir, o->out), *slash = strrchr(base, '/');

    if (slash && slash != base) {
      *slash = '\0';
      mkdirs(base);
      *slash = '/';
    }
    n->hiptrace = xstrdup_printf("%s.hiptrace.csv", base);
    n->kernel = xstrdup_printf("%s.hipkernel.csv", base);
    n->db = xstrdup_printf("%s.db", base);
    n->stack = xstrdup_printf("%s.stack.csv", base);
    n->pmc_csv = xstrdup_printf("%s.csv", base);
    n->pmc_txt = xstrdup_printf("%s.txt", base);
    free(base);
  } else {
    char *d = o->out ? join(dir, o->out) : xstrdup_printf("%s", dir), *f;

    mkdirs(d);
    f = xstrdup_printf("result_%ld.hiptrace.csv", pid);
    n->hiptrace = join(d, f);
    free(f);
    f = xstrdup_printf("result_%ld.kernel.csv", pid);
    n->kernel = join(d, f);
    free(f);
    f = xstrdup_printf("hip-prof-%ld.db", pid);
    n->db = join(d, f);
    free(f);
    f = xstrdup_printf("result_%ld.stack.csv", pid);
    n->stack = join(d, f);
    free(f);
    f = xstrdup_printf("pmc_results_%ld.csv", pid);
    n->pmc_csv = join(d, f);
    free(f);
    f = xstrdup_printf("pmc_results_%ld.txt", pid);
    n->pmc_txt = join(d, f);
    free(f);
    free(d);
  }
  n->journal = xstrdup_printf("%s-journal", n->db);
}

static void free_names(names *n)
{
  free(n->hiptrace);
  free(n->kernel);
  free(n->db);
  free(n->journal);
  free(n->stack);
  free(n->pmc_csv);
  free(n->pmc_txt);
}

typedef struct api_row {
  const char *name;
  long long calls, total;
} api_row;

static int cmp_api(const void *a, const void *b)
{
  const api_row *x = a, *y = b;

  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* The HIP API table, modelled on the article's cold vector_add run (§五); only hipLaunchKernel
 * follows the app's launch count. The small rows make the percentages come out as the article's
 * (hipMalloc 97.846%). Sorted by total, descending, with hipprof's closing Total row. */
static void make_hiptrace(long launches, sbuf *b)
{
  api_row rows[] = {{"hipMalloc", 3, 240481148LL},
                    {"hipMemcpy", 3, 2432756LL},
                    {"hipEventSynchronize", 1, 1496596LL},
                    {"hipLaunchKernel", launches, llround(830707.0 * (double)launches / 120.0)},
                    {"hipDeviceSynchronize", 1, 377584LL},
                    {"hipFree", 3, 142611LL},
                    {"hipEventRecord", 2, 8214LL},
                    {"hipEventCreate", 2, 5324LL}};
  size_t n = sizeof(rows) / sizeof(rows[0]), i;
  long long calls = 0, total = 0;

  qsort(rows, n, sizeof(rows[0]), cmp_api);
  for (i = 0; i < n; i++) {
    calls += rows[i].calls;
    total += rows[i].total;
  }
  sb_printf(b, "Name,Calls,TotalDurationNs,AverageNs,Percentage\n");
  for (i = 0; i < n; i++) {
    if (rows[i].calls == 0)
      continue; /* no launches: hipprof records no call */
    sb_printf(b, "%s,%lld,%lld,%lld,%.6f\n", rows[i].name, rows[i].calls, rows[i].total,
              rows[i].total / rows[i].calls, 100.0 * (double)rows[i].total / (double)total);
  }
  sb_printf(b, "Total,%lld,%lld,%lld,100.000000\n", calls, total, calls ? total / calls : 0);
}

/* The kernel table: one kernel, AverageNs from the app's (scaled) mean_kernel_ms. */
static void make_kernel(long launches, long long avg_ns, sbuf *b)
{
  long long total = avg_ns * launches;

  sb_printf(b, "Name,Calls,TotalDurationNs,AverageNs,Percentage\n");
  if (launches > 0)
    sb_printf(b, "\"%s\",%ld,%lld,%lld,100.000000\n", KERNEL_NAME, launches, total, avg_ns);
  sb_printf(b, "Total,%ld,%lld,%lld,%s\n", launches, total, launches ? avg_ns : 0,
            launches ? "100.000000" : "0.000000");
}

/* The host stack of every launch, innermost frame first. The frames are chosen so that the
 * article's summarizer (skip libgalaxy/libamdhip/libc.so/libtorch/libpython/python3/python(
 * frames after cutting " [addr]" and the path) finds the user frame `vector_add()` every time. */
static void make_stack(long launches, sbuf *b)
{
  static const char *const frames[] = {"/opt/dtk/hip/lib/libgalaxyhip.so.5 [0x7f3a1c2b4e10]",
                                       "/opt/dtk/hip/lib/libgalaxyhip.so.5 [0x7f3a1c2a9f42]",
                                       "vector_add() [0x55d0c0a01a2c]", "main [0x55d0c0a01f10]",
                                       "/lib/x86_64-linux-gnu/libc.so.6 [0x7f3a1b829d90]"};
  long i;
  size_t k;

  sb_printf(b, "str_name,index,stack_sq,addrname\n");
  for (i = 0; i < launches; i++)
    for (k = 0; k < sizeof(frames) / sizeof(frames[0]); k++)
      sb_printf(b, "\"%s\",%ld,%zu,%s\n", KERNEL_NAME, i, k, frames[k]);
}

/* PMC counters: one dispatch of vector_add over 1048576 floats in workgroups of 256 (§七). */
#define PMC_SQ_WAVES 16384
#define PMC_SQ_INSTS_VALU 229376
#define PMC_TCC_HIT0 24576
#define PMC_TCC_HIT1 24552

/* The `--pmc-type 3` CSV: every dispatch twice (one row per replay pass, same Index), kernel time
 * EndNs-BeginNs the app's own undisturbed kernel time (the replayed dispatch runs at full speed;
 * it is the app's timing that suffers). */
static void make_pmc_csv(long launches, long long dur_ns, long app_pid, double t0, sbuf *b)
{
  long i;
  int pass;

  sb_printf(b,
            "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
            "accum_vgpr,sgpr,wave_size,sig,obj,SQ_WAVES,SQ_INSTS_VALU,TCC_HIT[0],TCC_HIT[1],"
            "SQ_LDS_BANK_CONFLICT,BeginNs,EndNs\n");
  for (i = 0; i < launches; i++)
    for (pass = 0; pass < 2; pass++) {
      long long begin = (long long)t0 + (2 * i + pass) * (dur_ns + 5000);

      sb_printf(b,
                "%ld,\"%s\",0,0,%ld,%ld,%ld,1048576,256,0,0,8,0,16,64,0x0,0x7f3a20004a80,"
                "%d,%d,%d,%d,0,%lld,%lld\n",
                i, KERNEL_NAME, i, app_pid, app_pid, PMC_SQ_WAVES, PMC_SQ_INSTS_VALU, PMC_TCC_HIT0,
                PMC_TCC_HIT1, begin, begin + dur_ns);
    }
}

/* The text PMC file (no --pmc-type 3): rocprof v1's results.txt layout, one entry per dispatch. */
static void make_pmc_txt(long launches, long long dur_ns, long app_pid, double t0, sbuf *b)
{
  long i;

  for (i = 0; i < launches; i++) {
    long long begin = (long long)t0 + i * (dur_ns + 5000);

    sb_printf(b,
              "dispatch[%ld], gpu-id(0), queue-id(0), queue-index(%ld), pid(%ld), tid(%ld), "
              "grd(1048576), wgr(256), lds(0), scr(0), arch_vgpr(8), accum_vgpr(0), sgpr(16), "
              "wave_size(64), sig(0x0), obj(0x7f3a20004a80), kernel-name(\"%s\"), "
              "time(%lld,%lld,%lld,%lld)\n",
              i, i, app_pid, app_pid, KERNEL_NAME, begin - 1200, begin, begin + dur_ns,
              begin + dur_ns + 800);
    sb_printf(b,
              "  SQ_WAVES (%d)\n  SQ_INSTS_VALU (%d)\n  TCC_HIT[0] (%d)\n  TCC_HIT[1] (%d)\n"
              "  SQ_LDS_BANK_CONFLICT (0)\n",
              PMC_SQ_WAVES, PMC_SQ_INSTS_VALU, PMC_TCC_HIT0, PMC_TCC_HIT1);
  }
}

/* Writes `b` to `path` `late_ms` milliseconds from now, from a detached grandchild (own session,
 * no terminal, /dev/null for stdio), after we have exited: the "late CSV" of §1.4. The file
 * appears whole (written under a temporary name, then renamed), so a poller sees it complete. */
static void write_late(const char *path, const sbuf *b, long late_ms)
{
  pid_t pid;
  int status;

  fflush(NULL);
  pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    pid_t gc;
    int fd;

    if (setsid() < 0)
      _exit(1);
    gc = fork();
    if (gc != 0)
      _exit(gc < 0 ? 1 : 0);
    fd = open("/dev/null", O_RDWR);
    if (fd >= 0) {
      dup2(fd, STDIN_FILENO);
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      if (fd > STDERR_FILENO)
        close(fd);
    }
    sleep_ms(late_ms);
    {
      char *tmp = xstrdup_printf("%s.partial", path);

      write_file(tmp, b);
      if (rename(tmp, path) != 0)
        unlink(tmp);
      free(tmp);
    }
    _exit(0);
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
}

int main(int argc, char **argv)
{
  options o;
  names n;
  app_info info;
  double factors[M_COUNT], t0;
  const char *late;
  char *app_path;
  enum mode mode;
  long launches, late_ms = -1;
  long long avg_ns, dur_ns;
  pid_t app_pid = 0;
  int code;
  sbuf b = {0};
  static const char db_text[] = "hprun test double: not an SQLite database\n";
  static const char journal_text[] = "hprun test double: uncommitted journal\n";

  memset(&o, 0, sizeof(o));
  memset(&n, 0, sizeof(n));
  memset(&info, 0, sizeof(info));
  parse_args(argc, argv, &o);

  /* The mode that decides the factor: pmc > kernel-stack > memory-usage/leak-check > stats > trace
   * (--hip-trace alone, or no mode flag at all). */
  mode = o.pmc ? M_PMC : o.kernel_stack ? M_STACK : o.memory ? M_MEM : o.stats ? M_STATS : M_TRACE;
  memcpy(factors, default_factors, sizeof(factors));
  {
    /* The names HIPPROF_FAKE_FACTORS uses, in enum order, then "leak-check": the same mode as
     * memory-usage, read into a spare slot that wins when it is set. */
    static const char *const keys[M_COUNT + 1] = {"trace", "stats",        "kernel-stack",
                                                  "pmc",   "memory-usage", "leak-check"};
    double vals[M_COUNT + 1];

    memcpy(vals, factors, sizeof(factors));
    vals[M_COUNT] = -1;
    read_factors("HIPPROF_FAKE_FACTORS", keys, vals, M_COUNT + 1);
    memcpy(factors, vals, sizeof(factors));
    if (vals[M_COUNT] > 0)
      factors[M_MEM] = vals[M_COUNT];
  }

  late = getenv("HIPPROF_FAKE_LATE_MS");
  if (late && *late)
    late_ms = int_value("HIPPROF_FAKE_LATE_MS", late, 0, 3600000);

  app_path = find_exec(argv[o.app]);
  if (app_path == NULL) {
    fprintf(stderr, PROG ": cannot run application '%s': %s\n", argv[o.app],
            errno == EACCES ? "not executable" : "not found");
    return 127;
  }
  free(app_path);

  /* The database transaction is open for as long as the app runs: a journal exists, and only a
   * normal end removes it. SIGTERM/SIGINT keep their default action, so killing us now loses all
   * files and leaves the journal, as with the real tool (§1.4 "do not kill hipprof"). */
  make_names(&o, &n);
  {
    sbuf j = {0};

    sb_add(&j, journal_text, sizeof(journal_text) - 1);
    write_file(n.journal, &j);
    free(j.s);
  }

  t0 = mono_ns();
  code = run_app(argv + o.app, factors[mode], &info, &app_pid, NULL, NULL);

  launches = app_launches(&info, DEFAULT_LAUNCHES, "the files list");
  avg_ns = DEFAULT_KERNEL_NS;
  dur_ns = DEFAULT_KERNEL_NS;
  if (info.have_mean && info.mean_scaled >= 0 && info.mean_scaled < 1e6 && info.mean_raw >= 0 &&
      info.mean_raw < 1e6) {
    avg_ns = llround(info.mean_scaled * 1e6);
    dur_ns = llround(info.mean_raw * 1e6);
  }

  switch (mode) {
  case M_TRACE:
  case M_STATS:
    make_hiptrace(launches, &b);
    write_file(n.hiptrace, &b);
    b.len = 0;
    make_kernel(launches, avg_ns, &b);
    write_file(n.kernel, &b);
    break;
  case M_STACK:
    make_stack(launches, &b);
    write_file(n.stack, &b);
    break;
  case M_PMC:
    if (o.kernel != NULL && strstr(KERNEL_NAME, o.kernel) == NULL)
      launches = 0; /* the filter matches no kernel: the table has its header only */
    if (o.pmc_type == 3)
      make_pmc_csv(launches, dur_ns, (long)app_pid, t0, &b);
    else
      make_pmc_txt(launches, dur_ns, (long)app_pid, t0, &b);
    if (late_ms >= 0)
      write_late(o.pmc_type == 3 ? n.pmc_csv : n.pmc_txt, &b, late_ms);
    else
      write_file(o.pmc_type == 3 ? n.pmc_csv : n.pmc_txt, &b);
    break;
  case M_MEM: {
    static const char lines[] = "host leakcheck memory size 170.06 MB\n"
                                "device0 leakcheck memory size 92.00 KB\n";

    out_text(lines, sizeof(lines) - 1);
    break;
  }
  default: break;
  }

  b.len = 0;
  sb_add(&b, db_text, sizeof(db_text) - 1);
  write_file(n.db, &b);
  if (unlink(n.journal) != 0)
    fprintf(stderr, PROG ": cannot remove %s: %s\n", n.journal, strerror(errno));

  free(b.s);
  free_names(&n);
  return code;
}
