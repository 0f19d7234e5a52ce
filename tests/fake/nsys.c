/*
 * nsys: a TEST DOUBLE for NVIDIA Nsight Systems' command line, for hprun's tests only. Never used
 * by default.
 *
 * It accepts exactly the two command lines hprun's nsys driver builds (docs/drivers.md), and
 * nothing else, so that a change in them fails a test:
 *
 *   nsys profile --trace=LIST --sample=none|process-tree -o BASE [extra options] <app> [args]
 *   nsys stats --report cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum --format csv
 *              --output BASE REPORT.nsys-rep
 *
 * `profile` runs the app with its times multiplied by a per-mode factor (tracing cuda,nvtx 1.05,
 * with osrt 1.1, sampling 1.25; NSYS_FAKE_FACTORS="cuda=..,osrt=..,sample=.." overrides) and
 * writes BASE.nsys-rep, a text file holding the app's `launches=` and `mean_kernel_ms=`. `stats`
 * prints the lines real nsys prints first and writes BASE_<report>.csv in the current report
 * layout, the kernel named as tests/fake/ncu.c names it (quoted: the name holds commas). It
 * measures nothing.
 */
#define PROG "nsys (test double)"
#define MAX_LAUNCHES 100000
#define KERNEL_NAME "vector_add(const float *, const float *, float *, int)"
#define DEFAULT_LAUNCHES 120
#define DEFAULT_KERNEL_NS 18816

#include "fake_common.h"

static const char *after(const char *arg, const char *opt)
{
  size_t n = strlen(opt);

  return strncmp(arg, opt, n) == 0 ? arg + n : NULL;
}

/* `nsys profile`: checks the options, runs the app, writes the report. */
static int profile(int argc, char **argv)
{
  static const char *const keys[3] = {"cuda", "osrt", "sample"};
  double factors[3] = {1.05, 1.1, 1.25};
  const char *trace = NULL, *sample = NULL, *base = NULL, *v;
  app_info info;
  pid_t pid = 0;
  sbuf rep = {0};
  int i, code, mode;
  long launches;

  for (i = 2; i < argc && argv[i][0] == '-'; i++) {
    if ((v = after(argv[i], "--trace=")) != NULL)
      trace = v;
    else if ((v = after(argv[i], "--sample=")) != NULL)
      sample = v;
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      base = argv[++i];
    else
      die("unknown option '%s' (this double takes --trace=, --sample= and -o)", argv[i]);
  }
  if (trace == NULL || sample == NULL || base == NULL || i >= argc)
    die("usage: nsys profile --trace=LIST --sample=none|process-tree -o BASE app [args]");
  if (strcmp(trace, "cuda,nvtx") != 0 && strcmp(trace, "cuda,nvtx,osrt") != 0)
    die("--trace=%s: this double knows cuda,nvtx and cuda,nvtx,osrt", trace);
  if (strcmp(sample, "none") != 0 && strcmp(sample, "process-tree") != 0)
    die("--sample=%s: expected none or process-tree", sample);
  mode = strcmp(sample, "none") != 0 ? 2 : strstr(trace, "osrt") ? 1 : 0;
  read_factors("NSYS_FAKE_FACTORS", keys, factors, 3);
  memset(&info, 0, sizeof(info));
  code = run_app(argv + i, factors[mode], &info, &pid, NULL, NULL);
  launches = app_launches(&info, DEFAULT_LAUNCHES, "the report lists");
  sb_printf(&rep, "hprun test double: not an Nsight Systems report\nlaunches=%ld\nkernel_ns=%lld\n",
            launches,
            info.have_mean && info.mean_raw >= 0 && info.mean_raw < 1e6
                ? llround(info.mean_raw * 1e6)
                : (long long)DEFAULT_KERNEL_NS);
  {
    char *path = xstrdup_printf("%s.nsys-rep", base);
    write_file(path, &rep);
    printf("Generated:\n    %s\n", path);
    free(path);
  }
  free(rep.s);
  return code;
}

/* Reads `key=` from the double's report text; `dflt` when absent. */
static long long rep_value(const char *text, const char *key, long long dflt)
{
  const char *p = strstr(text, key);

  return p ? strtoll(p + strlen(key), NULL, 10) : dflt;
}

/* `nsys stats`: the three summaries of one report. */
static int stats(int argc, char **argv)
{
  const char *want = "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum";
  char text[512] = "";
  long long n, ns;
  sbuf b = {0};
  char *path;
  FILE *fp;
  size_t got;

  if (argc != 9 || strcmp(argv[2], "--report") != 0 || strcmp(argv[3], want) != 0 ||
      strcmp(argv[4], "--format") != 0 || strcmp(argv[5], "csv") != 0 ||
      strcmp(argv[6], "--output") != 0)
    die("usage: nsys stats --report %s --format csv --output BASE REPORT.nsys-rep", want);
  if ((fp = fopen(argv[8], "r")) == NULL)
    die("cannot open %s: %s", argv[8], strerror(errno));
  got = fread(text, 1, sizeof(text) - 1, fp);
  text[got] = '\0';
  fclose(fp);
  n = rep_value(text, "launches=", DEFAULT_LAUNCHES);
  ns = rep_value(text, "kernel_ns=", DEFAULT_KERNEL_NS);
  printf("Generating SQLite file %.*s.sqlite from %s\n", (int)(strlen(argv[8]) - 9), argv[8],
         argv[8]);

  sb_printf(&b,
            "Time (%%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),"
            "StdDev (ns),Name\n100.0,%lld,%lld,%lld.0,%lld.0,%lld,%lld,0.0,\"%s\"\n",
            n * ns, n, ns, ns, ns, ns, KERNEL_NAME);
  write_file(path = xstrdup_printf("%s_cuda_gpu_kern_sum.csv", argv[7]), &b);
  free(path);
  b.len = 0;
  sb_printf(&b,
            "Time (%%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),"
            "StdDev (ns),Name\n90.0,%lld,%lld,2500.0,2500.0,2500,2500,0.0,cudaLaunchKernel\n"
            "10.0,%lld,1,%lld.0,%lld.0,%lld,%lld,0.0,cudaMalloc\n",
            n * 2500, n, n * 250, n * 250, n * 250, n * 250, n * 250);
  write_file(path = xstrdup_printf("%s_cuda_api_sum.csv", argv[7]), &b);
  free(path);
  /* An app that copies nothing: real nsys skips the report (docs/summarize.md). */
  printf("SKIPPED: %s does not contain GPU memory data.\n", argv[8]);
  free(b.s);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "profile") == 0)
    return profile(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "stats") == 0)
    return stats(argc, argv);
  die("this double knows `nsys profile` and `nsys stats` only");
  return 1;
}
