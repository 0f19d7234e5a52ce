/*
 * ncu: a TEST DOUBLE for NVIDIA Nsight Compute's command line, for hprun's tests only. Never used
 * by default.
 *
 * It runs the app (`ncu [options] <app> [args]`), passes the app's stdout through with every time
 * (`key=number` whose key ends in _ms/_us/_ns/_s) multiplied by a per-mode factor, prints ncu's
 * `==PROF==` lines and, with --csv, the details or raw CSV page of ../shared/docs/profiler-formats.md
 * §5.2 for the app's `launches=` kernel launches. It measures nothing: the kernel duration is the
 * app's own undisturbed mean_kernel_ms, other metrics are constants. It insists on an explicit
 * --clock-control, because the real default differs between ncu versions and hprun must always
 * pass it.
 *
 * The exact contract is in tests/README.md; hprun's end-to-end tests assert it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define PROG "==ERROR== ncu"
#define KERNEL_NAME "vector_add(const float *, const float *, float *, int)"
#define KERNEL_FUNCTION "vector_add"
#define DEFAULT_LAUNCHES 120
#define DEFAULT_KERNEL_NS 18816
/* An app that claims a billion launches would make gigabyte reports; the report stops here. */
#define MAX_LAUNCHES 100000

/* The helpers and the app runner shared with hipprof.c and rocprofv3.c. */
#include "fake_common.h"

/* ---------------------------------------------------------------------------------------------- */
/* ncu itself.                                                                                    */

enum mode {
  M_METRIC,
  M_DEFAULT,
  M_FULL,
  M_COUNT
};

typedef struct options {
  const char *metrics;   /* --metrics, comma-separated */
  const char *set;       /* --set */
  const char *kernel;    /* -k */
  long count;            /* -c; -1 = all */
  long skip;             /* -s */
  const char *clock;     /* --clock-control */
  const char *page;      /* --page; NULL = details */
  const char *log_file;  /* --log-file */
  const char *export_to; /* -o */
  int csv, force;
  int nvtx, nvtx_include; /* --nvtx, --nvtx-include (accepted, checked, not applied) */
  int app;                /* index in argv of the app */
} options;

static void usage(FILE *fp)
{
  fputs("usage: ncu [options] <app> [app args]\n"
        "hprun TEST DOUBLE of NVIDIA Nsight Compute: runs the app, scales its *_ms/_us/_ns/_s\n"
        "outputs by a per-mode factor and prints ncu-like ==PROF== lines and CSV pages.\n"
        "value options: --metrics M[,M...], --set S, --section S, -k/--kernel-name K,\n"
        "       -c/--launch-count N, -s/--launch-skip N, --clock-control C (required),\n"
        "       --cache-control all|none, --replay-mode M, --page details|raw,\n"
        "       --print-units auto|base, --log-file F, -o/--export F, --target-processes P\n"
        "flags: --csv, -f/--force-overwrite, --version\n"
        "env: NCU_FAKE_FACTORS=\"metric=1.9,full=40,default=12\"\n",
        fp);
}

static long long_value(const char *opt, const char *v, long lo)
{
  char *end;
  long n;

  errno = 0;
  n = strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno == ERANGE || n < lo)
    die("bad value for %s: '%s' (expected an integer >= %ld)", opt, v, lo);
  return n;
}

/* Fatal unless `v` is one of the NULL-terminated `allowed` words. */
static void check_choice(const char *opt, const char *v, const char *const *allowed)
{
  size_t i;

  for (i = 0; allowed[i]; i++)
    if (strcmp(v, allowed[i]) == 0)
      return;
  die("invalid value '%s' for option %s", v, opt);
}

static void parse_args(int argc, char **argv, options *o)
{
  static const char *const clocks[] = {"base", "boost", "force-boost", "none", "reset", NULL};
  static const char *const caches[] = {"all", "none", NULL};
  static const char *const replays[] = {"kernel", "application", "range", "app-range", NULL};
  static const char *const pages[] = {"details", "raw", NULL};
  static const char *const units[] = {"auto", "base", NULL};
  static const char *const targets[] = {"all", "application-only", NULL};
  /* Long name, short name (or NULL), for every option that takes a value. */
  static const char *const valued[][2] = {{"--metrics", NULL},       {"--set", NULL},
                                          {"--section", NULL},       {"--kernel-name", "-k"},
                                          {"--launch-count", "-c"},  {"--launch-skip", "-s"},
                                          {"--clock-control", NULL}, {"--cache-control", NULL},
                                          {"--replay-mode", NULL},   {"--page", NULL},
                                          {"--print-units", NULL},   {"--log-file", NULL},
                                          {"--export", "-o"},        {"--target-processes", NULL},
                                          {"--nvtx-include", NULL}};
  int i;
  size_t k, nvalued = sizeof(valued) / sizeof(valued[0]);

  o->count = -1;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *v, *eq, *name;
    size_t alen;

    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (a[0] != '-')
      break;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strcmp(a, "--version") == 0) {
      printf("NVIDIA (R) Nsight Compute Command Line Profiler (hprun test double) Version 0.0.0\n");
      exit(0);
    }
    if (strcmp(a, "--csv") == 0) {
      o->csv = 1;
      continue;
    }
    if (strcmp(a, "--nvtx") == 0) {
      o->nvtx = 1;
      continue;
    }
    if (strcmp(a, "-f") == 0 || strcmp(a, "--force-overwrite") == 0) {
      o->force = 1;
      continue;
    }
    eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
    alen = eq ? (size_t)(eq - a) : strlen(a);
    for (k = 0; k < nvalued; k++)
      if ((strlen(valued[k][0]) == alen && strncmp(a, valued[k][0], alen) == 0) ||
          (!eq && valued[k][1] && strcmp(a, valued[k][1]) == 0))
        break;
    if (k == nvalued)
      die("unrecognised option '%s' (try --help)", a);
    name = valued[k][0];
    if (eq) {
      v = eq + 1;
    } else {
      if (i + 1 >= argc)
        die("option %s needs a value", a);
      v = argv[++i];
    }
    if (strcmp(name, "--metrics") == 0) {
      if (*v == '\0')
        die("option --metrics needs at least one metric");
      o->metrics = v;
    } else if (strcmp(name, "--set") == 0) {
      if (*v == '\0')
        die("option --set needs a set name");
      o->set = v;
    } else if (strcmp(name, "--kernel-name") == 0) {
      o->kernel = v;
    } else if (strcmp(name, "--launch-count") == 0) {
      o->count = long_value(name, v, 1);
    } else if (strcmp(name, "--launch-skip") == 0) {
      o->skip = long_value(name, v, 0);
    } else if (strcmp(name, "--clock-control") == 0) {
      check_choice(name, v, clocks);
      o->clock = v;
    } else if (strcmp(name, "--cache-control") == 0) {
      check_choice(name, v, caches);
    } else if (strcmp(name, "--replay-mode") == 0) {
      check_choice(name, v, replays);
    } else if (strcmp(name, "--page") == 0) {
      check_choice(name, v, pages);
      o->page = v;
    } else if (strcmp(name, "--print-units") == 0) {
      check_choice(name, v, units);
    } else if (strcmp(name, "--target-processes") == 0) {
      check_choice(name, v, targets);
    } else if (strcmp(name, "--log-file") == 0) {
      if (*v == '\0')
        die("option --log-file needs a file name");
      o->log_file = v;
    } else if (strcmp(name, "--export") == 0) {
      if (*v == '\0')
        die("option --export needs a file name");
      o->export_to = v;
    } else if (strcmp(name, "--nvtx-include") == 0) {
      /* Accepted, not applied: the double cannot see the app's ranges. A push/pop range ends in
       * '/', and real ncu ignores the filter without --nvtx, so both are checked. */
      if (*v == '\0' || v[strlen(v) - 1] != '/')
        die("option --nvtx-include: '%s' is no push/pop range (NAME/)", v);
      o->nvtx_include = 1;
    }
    /* --section is accepted and otherwise ignored: the sections printed follow --set. */
  }
  if (o->nvtx_include && !o->nvtx)
    die("option --nvtx-include needs --nvtx");
  if (i >= argc) {
    fprintf(stderr, PROG ": no application given\n");
    usage(stderr);
    exit(1);
  }
  o->app = i;
}

/* A metric ncu can "measure" here: its raw name, section, unit and how its value is made. */
typedef struct metric {
  const char *name, *section, *unit;
  double per_ns; /* value = per_ns * kernel ns + fixed */
  double fixed;
  int decimals; /* -1: the value is "n/a" */
} metric;

static const metric known[] = {
    {"gpu__time_duration.sum", "GPU Speed Of Light Throughput", "nsecond", 1, 0, 0},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "GPU Speed Of Light Throughput", "%", 0,
     12.34, 2},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "GPU Speed Of Light Throughput", "%", 0, 85.61, 2},
    {"sm__cycles_elapsed.avg", "GPU Speed Of Light Throughput", "cycle", 1.98, 0, 0},
    {"launch__block_size", "Launch Statistics", "", 0, 256, 0},
    {"launch__grid_size", "Launch Statistics", "", 0, 4096, 0},
    {"launch__registers_per_thread", "Launch Statistics", "register/thread", 0, 16, 0},
    {"dram__bytes_read.sum", "Memory Workload Analysis", "byte", 0, 8388608, 0},
    {"dram__bytes_write.sum", "Memory Workload Analysis", "byte", 0, 4194304, 0},
    {"lts__t_sector_hit_rate.pct", "Memory Workload Analysis", "%", 0, 33.33, 2},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "Occupancy", "%", 0, 78.41, 2},
    {"smsp__pcsamp_sample_count", "Source Counters", "", 0, 0, -1}};
#define NKNOWN (sizeof(known) / sizeof(known[0]))
#define NDEFAULT 7 /* the first 7 make up the default (and basic) set */

/* The metrics of this run, in report order: the set's, then any --metrics not already there (in
 * "Command line profiler metrics"); with --metrics and no --set only those. Unknown names are
 * kept, with value "n/a". The caller frees the array (not the strings, which are borrowed or
 * point into `*names`, also the caller's to free). */
static metric *select_metrics(const options *o, size_t *count, char **names)
{
  size_t n = 0, i, cap = NKNOWN;
  metric *m;
  char *save = NULL, *tok;

  for (i = 0; o->metrics && o->metrics[i]; i++)
    cap += o->metrics[i] == ',';
  cap += 1;
  m = calloc(cap, sizeof(*m));
  if (m == NULL)
    die("out of memory");
  if (o->set || !o->metrics) {
    size_t upto = o->set && strcmp(o->set, "full") == 0 ? NKNOWN : NDEFAULT;

    for (i = 0; i < upto; i++)
      m[n++] = known[i];
  }
  *names = NULL;
  if (o->metrics) {
    *names = xstrdup_printf("%s", o->metrics);
    for (tok = strtok_r(*names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      size_t j;
      int dup = 0;

      for (j = 0; j < n; j++)
        dup |= strcmp(m[j].name, tok) == 0;
      if (dup)
        continue;
      for (j = 0; j < NKNOWN && strcmp(known[j].name, tok) != 0; j++)
        ;
      if (j < NKNOWN) {
        m[n] = known[j];
      } else {
        m[n].name = tok;
        m[n].unit = "";
        m[n].decimals = -1;
      }
      m[n++].section = "Command line profiler metrics";
    }
  }
  *count = n;
  return m;
}

/* Formats a value the way ncu's CSV does: thousands separators, fixed decimals, or "n/a". */
static void format_value(const metric *m, long long kernel_ns, char *out, size_t size)
{
  char digits[64], *p = digits;
  double v;
  size_t len, i, o = 0;
  long long whole;

  if (m->decimals < 0) {
    snprintf(out, size, "n/a");
    return;
  }
  v = m->per_ns * (double)kernel_ns + m->fixed;
  whole = (long long)floor(v);
  snprintf(digits, sizeof(digits), "%lld", m->decimals ? whole : llround(v));
  if (*p == '-' && o + 1 < size)
    out[o++] = *p++;
  len = strlen(p);
  for (i = 0; i < len && o + 2 < size; i++) {
    out[o++] = p[i];
    if ((len - i - 1) % 3 == 0 && i + 1 < len)
      out[o++] = ',';
  }
  out[o] = '\0';
  if (m->decimals > 0) {
    char frac[32];

    snprintf(frac, sizeof(frac), "%.*f", m->decimals, v - (double)whole);
    /* frac is "0.dd" (or "1.00" after rounding up, which the 2-decimal constants never hit). */
    snprintf(out + o, size - o, "%s", frac + 1);
  }
}

static void add_quoted(sbuf *b, const char *s, int last)
{
  sb_add(b, "\"", 1);
  for (; *s; s++) {
    if (*s == '"')
      sb_add(b, "\"", 1);
    sb_add(b, s, 1);
  }
  sb_add(b, last ? "\"\n" : "\",", 2);
}

/* The eleven identification columns of one result row. */
static void add_ids(sbuf *b, long id, long pid, const char *proc)
{
  char s[32];

  snprintf(s, sizeof(s), "%ld", id);
  add_quoted(b, s, 0);
  snprintf(s, sizeof(s), "%ld", pid);
  add_quoted(b, s, 0);
  add_quoted(b, proc, 0);
  add_quoted(b, "127.0.0.1", 0);
  add_quoted(b, KERNEL_NAME, 0);
  add_quoted(b, "1", 0);
  add_quoted(b, "7", 0);
  add_quoted(b, "(256, 1, 1)", 0);
  add_quoted(b, "(4096, 1, 1)", 0);
  add_quoted(b, "0", 0);
}

static const char id_header[] = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\","
                                "\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
                                "\"Grid Size\",\"Device\",\"CC\"";

/* --page details: one row per profiled launch per metric. */
static void page_details(const metric *m, size_t nm, long nres, long long ns, long pid,
                         const char *proc, sbuf *b)
{
  char v[64];
  long r;
  size_t i;

  sb_printf(b, "%s,\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n", id_header);
  for (r = 0; r < nres; r++)
    for (i = 0; i < nm; i++) {
      add_ids(b, r, pid, proc);
      add_quoted(b, "9.0", 0);
      add_quoted(b, m[i].section, 0);
      add_quoted(b, m[i].name, 0);
      add_quoted(b, m[i].unit, 0);
      format_value(&m[i], ns, v, sizeof(v));
      add_quoted(b, v, 1);
    }
}

/* --page raw: one column per metric, a units row, then one row per profiled launch. */
static void page_raw(const metric *m, size_t nm, long nres, long long ns, long pid,
                     const char *proc, sbuf *b)
{
  char v[64];
  long r;
  size_t i;

  sb_add(b, id_header, sizeof(id_header) - 1);
  for (i = 0; i < nm; i++)
    sb_printf(b, ",\"%s\"", m[i].name);
  sb_add(b, "\n", 1);
  for (i = 0; i < 11; i++)
    sb_add(b, i ? ",\"\"" : "\"\"", i ? 3 : 2);
  for (i = 0; i < nm; i++)
    sb_printf(b, ",\"%s\"", m[i].unit);
  sb_add(b, "\n", 1);
  for (r = 0; r < nres; r++) {
    add_ids(b, r, pid, proc);
    add_quoted(b, "9.0", nm == 0);
    for (i = 0; i < nm; i++) {
      format_value(&m[i], ns, v, sizeof(v));
      add_quoted(b, v, i + 1 == nm);
    }
  }
}

/* Without --csv: a short human-readable report per launch, grouped by section. */
static void page_text(const metric *m, size_t nm, long nres, long long ns, sbuf *b)
{
  char v[64];
  long r;
  size_t i;

  for (r = 0; r < nres; r++) {
    sb_printf(b, "  %s (4096, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n",
              KERNEL_NAME);
    for (i = 0; i < nm; i++) {
      if (i == 0 || strcmp(m[i].section, m[i - 1].section) != 0)
        sb_printf(b, "    Section: %s\n", m[i].section);
      format_value(&m[i], ns, v, sizeof(v));
      sb_printf(b, "    %-60s %-16s %s\n", m[i].name, m[i].unit, v);
    }
    sb_add(b, "\n", 1);
  }
}

/* Where ncu's own lines go: the log file, or stdout. */
static int tool_fd = STDOUT_FILENO;

static void tool_text(const char *p, size_t n)
{
  if (write_all(tool_fd, p, n) != 0 && errno != EPIPE)
    fprintf(stderr, PROG ": writing the log: %s\n", strerror(errno));
}

typedef struct connect_arg {
  const char *path;
} connect_arg;

static void on_started(pid_t pid, void *arg)
{
  const connect_arg *c = arg;
  sbuf b = {0};

  sb_printf(&b, "==PROF== Connected to process %ld (%s)\n", (long)pid, c->path);
  tool_text(b.s, b.len);
  free(b.s);
}

/* Does the kernel filter (-k NAME exact, or -k regex:EXPR) select vector_add? */
static int kernel_matches(const char *filter)
{
  regex_t re;
  int r, hit;

  if (filter == NULL)
    return 1;
  if (strncmp(filter, "regex:", 6) != 0)
    return strcmp(filter, KERNEL_FUNCTION) == 0;
  r = regcomp(&re, filter + 6, REG_EXTENDED | REG_NOSUB);
  if (r != 0)
    die("invalid regular expression in -k: '%s'", filter + 6);
  hit = regexec(&re, KERNEL_FUNCTION, 0, NULL, 0) == 0;
  regfree(&re);
  return hit;
}

int main(int argc, char **argv)
{
  static const char *const keys[M_COUNT] = {"metric", "default", "full"};
  double factors[M_COUNT] = {1.9, 12, 40};
  options o;
  app_info info;
  enum mode mode;
  metric *m;
  size_t nm;
  char *metric_names = NULL, *app_path, *real, *rep = NULL;
  const char *proc;
  connect_arg ca;
  long launches, nres, r, passes;
  long long ns;
  pid_t app_pid = 0;
  int code;
  sbuf b = {0};

  memset(&o, 0, sizeof(o));
  memset(&info, 0, sizeof(info));
  parse_args(argc, argv, &o);
  if (o.clock == NULL)
    die("--clock-control was not given; this test double requires it explicitly because the "
        "real default differs between ncu versions (base or boost)");
  mode = o.set && strcmp(o.set, "full") == 0 ? M_FULL : o.metrics && !o.set ? M_METRIC : M_DEFAULT;
  read_factors("NCU_FAKE_FACTORS", keys, factors, M_COUNT);
  passes = mode == M_METRIC ? 1 : mode == M_FULL ? 38 : 8;
  (void)kernel_matches(o.kernel); /* a bad regex must fail before the app runs */

  if (o.export_to) {
    size_t len = strlen(o.export_to);

    rep = len > 8 && strcmp(o.export_to + len - 8, ".ncu-rep") == 0
        ? xstrdup_printf("%s", o.export_to)
        : xstrdup_printf("%s.ncu-rep", o.export_to);
    if (!o.force && access(rep, F_OK) == 0)
      die("Report file %s already exists. Use -f to overwrite it.", rep);
  }
  if (o.log_file && strcmp(o.log_file, "stdout") != 0) {
    if (strcmp(o.log_file, "stderr") == 0)
      tool_fd = STDERR_FILENO;
    else if ((tool_fd = open(o.log_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
      die("cannot open log file %s: %s", o.log_file, strerror(errno));
  }

  app_path = find_exec(argv[o.app]);
  if (app_path == NULL) {
    int e = errno;

    fprintf(stderr, PROG ": failed to launch '%s': %s\n", argv[o.app],
            e == EACCES ? "not executable" : "not found");
    return 127;
  }
  real = realpath(app_path, NULL);
  ca.path = real ? real : app_path;
  proc = strrchr(ca.path, '/') ? strrchr(ca.path, '/') + 1 : ca.path;

  code = run_app(argv + o.app, factors[mode], &info, &app_pid, on_started, &ca);

  launches = app_launches(&info, DEFAULT_LAUNCHES, "the report lists");
  ns = DEFAULT_KERNEL_NS;
  if (info.have_mean && info.mean_raw >= 0 && info.mean_raw < 1e6)
    ns = llround(info.mean_raw * 1e6);
  nres = kernel_matches(o.kernel) ? launches - o.skip : 0;
  if (nres < 0)
    nres = 0;
  if (o.count >= 0 && nres > o.count)
    nres = o.count;

  for (r = 0; r < nres; r++)
    sb_printf(&b, "==PROF== Profiling \"%s\" - %ld: 0%%....50%%....100%% - %ld pass%s\n",
              KERNEL_FUNCTION, r, passes, passes == 1 ? "" : "es");
  sb_printf(&b, "==PROF== Disconnected from process %ld\n", (long)app_pid);
  if (nres == 0)
    sb_printf(&b, "==WARNING== No kernels were profiled.\n");
  if (rep) {
    sbuf rb = {0};

    sb_printf(&rb, "hprun test double: not an Nsight Compute report (%ld results)\n", nres);
    write_file(rep, &rb);
    free(rb.s);
    sb_printf(&b, "==PROF== Report: %s\n", rep);
  }
  m = select_metrics(&o, &nm, &metric_names);
  /* With --export and no --page, ncu prints no results (profiler-formats.md §5.1). */
  if (nres > 0 && (!rep || o.page)) {
    if (!o.csv)
      page_text(m, nm, nres, ns, &b);
    else if (o.page && strcmp(o.page, "raw") == 0)
      page_raw(m, nm, nres, ns, (long)app_pid, proc, &b);
    else
      page_details(m, nm, nres, ns, (long)app_pid, proc, &b);
  }
  tool_text(b.s, b.len);
  if (tool_fd > STDERR_FILENO && close(tool_fd) != 0)
    fprintf(stderr, PROG ": cannot close %s: %s\n", o.log_file, strerror(errno));

  free(b.s);
  free(m);
  free(metric_names);
  free(real);
  free(app_path);
  free(rep);
  return code;
}
