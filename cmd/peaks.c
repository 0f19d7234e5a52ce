/*
 * hprun peaks: measure the roofline's ceilings on this machine. Runs hip/roofline_peaks (built by
 * `make hip` or `make hip-nvcc`, or any program given with --binary that prints the same
 * `peak_bw_gbs=... peak_fp32_tflops=...` line) and prints a peaks file, which a plan names with
 * `roofline: {peaks: FILE}` (docs/roofline.md). --output also writes it to FILE.
 */
#include "cmd.h"
#include "args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: hprun peaks [--binary PROGRAM] [--vendor] [--vendor-program PROGRAM] [--output FILE]\n"
    "                   [--device NAME] [--timeout SECONDS] [-- ARGS...]\n"
    "\n"
    "Measures the roofline ceilings (memory bandwidth, FP32 and FP64 peaks, and FP16/BF16\n"
    "matrix peaks where the GPU and toolkit have them) with hip/roofline_peaks and prints\n"
    "them as a peaks file for `roofline: {peaks: FILE}`.\n"
    "\n"
    "  --binary PROGRAM  the ceilings program (default: build/nvcc/roofline_peaks, else\n"
    "                    build/hip/roofline_peaks, else roofline_peaks on PATH)\n"
    "  --vendor          also time the vendor's GEMM (cuBLASLt, hipBLASLt) through PyTorch\n"
    "                    with gemm_peaks.py (shipped in share/hprun/) at bf16, fp16, tf32 and\n"
    "                    fp8; each matrix peak is the higher of the two, and the file's\n"
    "                    matrix_source says which program gave which\n"
    "  --vendor-program PROGRAM  run PROGRAM instead of python3 gemm_peaks.py (implies --vendor)\n"
    "  --output FILE     also write the peaks file there (replaced if it exists)\n"
    "  --device NAME     the device's name in the file (default: what the program says)\n"
    "  --timeout S       stop the program after S seconds (default 300)\n"
    "  ARGS              passed to the program (roofline_peaks takes the triad size in MiB)\n"
    "\n"
    "Exit status: 0 done, 2 usage error, 3 the program failed or printed no peaks, 4 the file\n"
    "could not be written.\n";

struct peaks_args {
  const char *binary, *output, *device, *vendor_program;
  int vendor;
  double timeout_s;
  const char **argv; /* the program, then ARGS, then NULL */
  int argc;
};

enum {
  OPT_BINARY = CMD_OPT_OWN,
  OPT_OUTPUT,
  OPT_DEVICE,
  OPT_TIMEOUT,
  OPT_VENDOR,
  OPT_VENDOR_PROGRAM
};

static const struct option peaks_longopts[] = {
    CMD_LONG_HELP,
    {"binary", required_argument, NULL, OPT_BINARY},
    {"output", required_argument, NULL, OPT_OUTPUT},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"vendor", no_argument, NULL, OPT_VENDOR},
    {"vendor-program", required_argument, NULL, OPT_VENDOR_PROGRAM},
    CMD_LONG_END};

/* The default program: the first of the builds that exists. */
static const char *default_binary(void)
{
  if (access("build/nvcc/roofline_peaks", X_OK) == 0)
    return "build/nvcc/roofline_peaks";
  if (access("build/hip/roofline_peaks", X_OK) == 0)
    return "build/hip/roofline_peaks";
  return "roofline_peaks";
}

static int peaks_option(struct peaks_args *a, int c, const char *v)
{
  char *end;

  switch (c) {
  case 'h': fputs(usage_text, stdout); return HP_EXIT_OK;
  case OPT_BINARY: a->binary = v; break;
  case OPT_OUTPUT: a->output = v; break;
  case OPT_DEVICE: a->device = v; break;
  case OPT_VENDOR: a->vendor = 1; return CMD_GO_ON;
  case OPT_VENDOR_PROGRAM:
    a->vendor_program = v;
    a->vendor = 1;
    break;
  case OPT_TIMEOUT:
    a->timeout_s = v ? strtod(v, &end) : -1;
    if (v == NULL || *v == '\0' || *end != '\0' || !(a->timeout_s > 0)) {
      fprintf(stderr, "hprun peaks: --timeout needs a number of seconds above 0\n");
      return HP_EXIT_USAGE;
    }
    break;
  case CMD_ARG: a->argv[++a->argc] = v; break;
  default: return HP_EXIT_USAGE;
  }
  if (c != CMD_ARG && c != OPT_TIMEOUT && v == NULL)
    return HP_EXIT_USAGE;
  return CMD_GO_ON;
}

static int peaks_parse(int argc, char **argv, struct peaks_args *a)
{
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  a->timeout_s = 300;
  if ((a->argv = calloc((size_t)argc + 2, sizeof(*a->argv))) == NULL)
    return HP_EXIT_IO;
  cmd_opts_init(&o, "peaks", "h", peaks_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1)
    if ((code = peaks_option(a, c, o.arg)) != CMD_GO_ON)
      return code;
  a->argv[0] = a->binary ? a->binary : default_binary();
  return CMD_GO_ON;
}

/* gemm_peaks.py: where `make install` puts it (BIN/../share/hprun/), else, for build/hprun in
 * the source tree, the repository's scripts/. Into buf, which holds PATH_MAX. */
static const char *vendor_script(char *buf)
{
  char exe[PATH_MAX - 64]; /* room for the file names below */
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  char *slash;

  if (n <= 0)
    return "scripts/gemm_peaks.py";
  exe[n] = '\0';
  if ((slash = strrchr(exe, '/')) != NULL)
    *slash = '\0';
  snprintf(buf, PATH_MAX, "%s/../share/hprun/gemm_peaks.py", exe);
  if (access(buf, R_OK) != 0)
    snprintf(buf, PATH_MAX, "%s/../scripts/gemm_peaks.py", exe);
  return buf;
}

/* Runs the vendor-GEMM program and takes its matrix peaks into *pk; why it failed goes to
 * stderr. 0, or the exit status. */
static int measure_vendor(const struct peaks_args *a, hp_peaks *pk)
{
  char script[PATH_MAX], *printed = NULL;
  const char *argv[3] = {"python3", NULL, NULL};
  hp_diags diags;
  hp_peaks v;
  int r;

  hp_diags_init(&diags);
  if (a->vendor_program)
    argv[0] = a->vendor_program;
  else
    argv[1] = vendor_script(script);
  r = hp_peaks_measure(argv, a->timeout_s, &v, &printed, &diags);
  hp_diags_print(&diags, stderr);
  if (r == 0) {
    const char *hand = strrchr(a->argv[0], '/');
    r = hp_peaks_merge_vendor(pk, &v, hand ? hand + 1 : a->argv[0]);
  }
  free(printed);
  hp_peaks_clear(&v);
  hp_diags_free(&diags);
  return r == 0 ? 0 : r == HP_ENOMEM ? HP_EXIT_IO : HP_EXIT_RUNFAIL;
}

int cmd_peaks(int argc, char **argv)
{
  struct peaks_args a;
  hp_peaks pk;
  hp_diags diags;
  char *printed = NULL, *text = NULL;
  int r, code;

  hp_peaks_init(&pk);
  hp_diags_init(&diags);
  if ((code = peaks_parse(argc, argv, &a)) != CMD_GO_ON)
    goto done;
  r = hp_peaks_measure(a.argv, a.timeout_s, &pk, &printed, &diags);
  hp_diags_print(&diags, stderr);
  if (r) {
    code = r == HP_ENOMEM ? HP_EXIT_IO : HP_EXIT_RUNFAIL;
    goto done;
  }
  if (a.vendor && (code = measure_vendor(&a, &pk)) != 0)
    goto done;
  if (a.device) {
    free(pk.device);
    pk.device = strdup(a.device);
  }
  if (hp_peaks_format(&pk, &text) != 0) {
    code = HP_EXIT_IO;
    goto done;
  }
  fputs(text, stdout);
  code = a.output && cmd_write_text(a.output, text) != 0 ? HP_EXIT_IO : HP_EXIT_OK;

done:
  free(a.argv);
  free(printed);
  free(text);
  hp_peaks_clear(&pk);
  hp_diags_free(&diags);
  return code;
}
