/*
 * The roofline's ceilings as configuration: a peaks file (YAML, written by `hprun peaks` or kept
 * in configs/peaks/ with datasheet figures) and the plan's `roofline:` section, which names a
 * peaks file and/or gives figures inline (inline figures win). Both are read with the plan's YAML
 * loader, so a wrong value is reported as file:line:col like any plan error. The points themselves
 * are computed later, from the profiles (lib/analyze/roofline.c).
 */
#include "plan/plan.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hp_peaks_init(hp_peaks *p)
{
  p->bw_gbs = p->fp32_tflops = p->fp64_tflops = p->fp16_tflops = p->bf16_tflops = NAN;
  p->tf32_tflops = p->fp8_tflops = p->int8_tops = p->fp64_matrix_tflops = NAN;
  p->device = p->source = p->matrix_source = NULL;
}

void hp_peaks_clear(hp_peaks *p)
{
  if (p == NULL)
    return;
  free(p->device);
  free(p->source);
  free(p->matrix_source);
  hp_peaks_init(p);
}

int hp_peaks_copy(hp_peaks *dst, const hp_peaks *src)
{
  *dst = *src;
  dst->device = src->device ? hp__strdup(src->device) : NULL;
  dst->source = src->source ? hp__strdup(src->source) : NULL;
  dst->matrix_source = src->matrix_source ? hp__strdup(src->matrix_source) : NULL;
  if ((src->device && !dst->device) || (src->source && !dst->source) ||
      (src->matrix_source && !dst->matrix_source)) {
    hp_peaks_clear(dst);
    return HP_ENOMEM;
  }
  return 0;
}

int hp_peaks_usable(const hp_peaks *p)
{
  return p && p->bw_gbs > 0 &&
      (p->fp32_tflops > 0 || p->fp64_tflops > 0 || p->fp16_tflops > 0 || p->bf16_tflops > 0 ||
       p->tf32_tflops > 0 || p->fp8_tflops > 0 || p->int8_tops > 0 || p->fp64_matrix_tflops > 0);
}

enum {
  PK_DEVICE,
  PK_SOURCE,
  PK_BW,
  PK_FP32,
  PK_FP64,
  PK_FP16,
  PK_BF16,
  PK_TF32,
  PK_FP8,
  PK_INT8,
  PK_FP64M,
  PK_MSOURCE,
  PK_PEAKS, /* only in a plan's `roofline:` */
  PK_N
};
static const char *const peak_keys[] = {"device",
                                        "source",
                                        "peak_bw_gbs",
                                        "peak_fp32_tflops",
                                        "peak_fp64_tflops",
                                        "peak_fp16_tflops",
                                        "peak_bf16_tflops",
                                        "peak_tf32_tflops",
                                        "peak_fp8_tflops",
                                        "peak_int8_tops",
                                        "peak_fp64_matrix_tflops",
                                        "matrix_source",
                                        "peaks",
                                        NULL};
/* Whatever the plan leaves out is the peaks file's, or missing: no key has a default. */
static const hp_plan_key_doc peak_docs[] = {
    [PK_DEVICE] = {"string", NULL, NULL},    [PK_SOURCE] = {"string", NULL, NULL},
    [PK_BW] = {"number > 0", NULL, NULL},    [PK_FP32] = {"number > 0", NULL, NULL},
    [PK_FP64] = {"number > 0", NULL, NULL},  [PK_FP16] = {"number > 0", NULL, NULL},
    [PK_BF16] = {"number > 0", NULL, NULL},  [PK_TF32] = {"number > 0", NULL, NULL},
    [PK_FP8] = {"number > 0", NULL, NULL},   [PK_INT8] = {"number > 0", NULL, NULL},
    [PK_FP64M] = {"number > 0", NULL, NULL}, [PK_MSOURCE] = {"string", NULL, NULL},
    [PK_PEAKS] = {"string", NULL, NULL},
};
HP__KEY_DOCS(peak_keys, peak_docs);

/* The figures of a peaks file, in peak_keys' order from PK_BW. */
static double *figure(hp_peaks *p, int k)
{
  double *f[] = {&p->bw_gbs,      &p->fp32_tflops, &p->fp64_tflops,
                 &p->fp16_tflops, &p->bf16_tflops, &p->tf32_tflops,
                 &p->fp8_tflops,  &p->int8_tops,   &p->fp64_matrix_tflops};

  return f[k - PK_BW];
}

/* The figures and labels of a mapping's entries into *p (each only when given). */
static void take_figures(hp__loader *ld, hp__mapent *e, hp_peaks *p)
{
  double v;
  int k;

  for (k = PK_BW; k <= PK_FP64M; k++)
    if (hp__plan_number(ld, peak_keys[k], e[k].val, 0, &v) == 1) {
      if (!(v > 0) || !isfinite(v))
        hp__plan_err(ld, e[k].val, "`%s` must be a positive number", peak_keys[k]);
      else
        *figure(p, k) = v;
    }
  hp__plan_str(ld, "device", e[PK_DEVICE].val, HP__NONEMPTY, &p->device);
  hp__plan_str(ld, "source", e[PK_SOURCE].val, HP__NONEMPTY, &p->source);
  hp__plan_str(ld, "matrix_source", e[PK_MSOURCE].val, HP__NONEMPTY, &p->matrix_source);
}

/* hp__side_parse for a peaks file: its root mapping (no `peaks:` key there) into the hp_peaks
 * `arg`. */
static void parse_peaks_file(hp__loader *ld, yaml_node_t *root, void *arg)
{
  /* The plan's keys without `peaks` (the last): a peaks file names no other peaks file. */
  const char *file_keys[PK_N];
  hp_peaks *p = arg;
  hp__mapent e[PK_N] = {{NULL, NULL}};
  size_t before = ld->nerrors;

  if (root->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, root,
                 "a peaks file must be a mapping (peak_bw_gbs, peak_fp32_tflops, ...), "
                 "got %s",
                 hp__yaml_kind(root));
    return;
  }
  memcpy(file_keys, peak_keys, sizeof(file_keys));
  file_keys[PK_PEAKS] = NULL;
  hp__yaml_fields(ld, root, "peaks", file_keys, e);
  take_figures(ld, e, p);
  /* Missing figures are worth a message only when no figure was wrong. */
  if (ld->nerrors == before && !hp_peaks_usable(p))
    hp__plan_err(ld, root,
                 "a peaks file needs peak_bw_gbs and at least one compute peak "
                 "(peak_fp32_tflops, ...)");
}

int hp_peaks_load(const char *path, hp_peaks *out, hp_diags *diags)
{
  int r;

  hp_peaks_init(out);
  r = hp__plan_load_side(path, "peaks file", parse_peaks_file, out, diags);
  if (r == HP_ENOMEM || r == HP_EPLAN)
    hp_peaks_clear(out);
  return r;
}

/* Whether the plan is a session's copy (plan.yaml beside the session's summary.json): its peaks
 * file, named relative to where the plan was, is usually not beside the copy, and the session's
 * peaks are in summary.json anyway, which is where `hprun report` takes them from. */
static int session_copy(const hp_plan *p)
{
  char *sum = hp__path_join(p->dir ? p->dir : ".", "summary.json");
  const char *base = p->file ? strrchr(p->file, '/') : NULL;
  int yes = sum && access(sum, F_OK) == 0 && strcmp(base ? base + 1 : p->file, "plan.yaml") == 0;

  free(sum);
  return yes;
}

/* Whether a word of v holds `part` (exact: is `part`). */
static int has(const hp_strv *v, const char *part, int exact)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    if (exact ? strcmp(v->v[i], part) == 0 : strstr(v->v[i], part) != NULL)
      return 1;
  return 0;
}

/* A roofline with a pass whose counters or sections see FP32/FP64 work but not tensor/matrix work
 * warns at the pass: its GEMM and attention kernels would show "FLOPs not captured"
 * (docs/roofline.md). ncu's tensor FLOPs come with SpeedOfLight_HierarchicalTensorRooflineChart
 * (`--set full` has it) or the sm__ops_path_tensor_src_* metrics; AMD's with the MFMA counters. */
static void warn_tensor_blind(hp__loader *ld, const hp_plan *p)
{
  size_t i;

  for (i = 0; i < p->npasses; i++) {
    const hp_pass *ps = &p->passes[i];
    const hp_strv *a = &ps->args, *g = &p->profiler.args, *c = &ps->counters;
    const char *tool = ps->tool ? ps->tool : p->profiler.tool, *fix = NULL;
    if (tool != NULL && strcmp(tool, "ncu") == 0) {
      if ((has(c, "sass_thread_inst_executed_op_", 0) || has(a, "SpeedOfLight_RooflineChart", 0) ||
           has(g, "SpeedOfLight_RooflineChart", 0)) &&
          !has(c, "sm__ops_path_tensor_src_", 0) && !has(a, "HierarchicalTensorRoofline", 0) &&
          !has(g, "HierarchicalTensorRoofline", 0) && !has(a, "full", 1) && !has(g, "full", 1) &&
          !has(a, "--set=full", 1) && !has(g, "--set=full", 1))
        fix = "add `--section SpeedOfLight_HierarchicalTensorRooflineChart` to its args (or the "
              "sm__ops_path_tensor_src_* metrics to its counters)";
    } else if (has(c, "SQ_INSTS_VALU_", 0) && !has(c, "SQ_INSTS_VALU_MFMA_MOPS_", 0)) {
      fix = "add the SQ_INSTS_VALU_MFMA_MOPS_{F16,BF16,F32,F64,I8} counters";
    }
    if (fix &&
        hp_diags_add(&ld->diags, HP_DIAG_WARNING, ld->file, ps->line, 0,
                     "pass `%s` cannot measure tensor/matrix-core work for the roofline: its "
                     "GEMM and attention kernels will get no bound; %s",
                     ps->name, fix) != 0)
      ld->oom = 1;
  }
}

/* `roofline: {peaks: FILE, peak_bw_gbs: ..., ...}`: the file (relative to the plan's folder)
 * first, then the inline figures over it. */
void hp__plan_parse_roofline(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[PK_N] = {{NULL, NULL}};
  char *file = NULL, *path;
  size_t before = ld->nerrors;
  int copy = 0;

  if (hp__yaml_want_map(ld, "roofline", v) <= 0)
    return;
  if ((p->roofline = malloc(sizeof(*p->roofline))) == NULL) {
    ld->oom = 1;
    return;
  }
  hp_peaks_init(p->roofline);
  hp__yaml_fields(ld, v, "roofline", peak_keys, e);
  if (hp__plan_str(ld, "roofline.peaks", e[PK_PEAKS].val, HP__NONEMPTY, &file) == 1) {
    path = file[0] == '/' ? hp__strdup(file) : hp__path_join(p->dir ? p->dir : ".", file);
    if (path == NULL)
      ld->oom = 1;
    else if (session_copy(p) && access(path, R_OK) != 0)
      copy = 1;
    else if (hp_peaks_load(path, p->roofline, &ld->diags) != 0)
      hp__plan_err(ld, e[PK_PEAKS].val, "`roofline.peaks`: cannot use the peaks file %s", path);
    free(path);
    free(file);
  }
  take_figures(ld, e, p->roofline);
  if (!copy && ld->nerrors == before && !hp_peaks_usable(p->roofline))
    hp__plan_err(ld, v,
                 "`roofline` needs a `peaks` file or peak_bw_gbs and a compute peak "
                 "(peak_fp32_tflops, ...)");
  warn_tensor_blind(ld, p);
}

/* The value of field `key` in a result line of space-separated key=value fields, copied into buf;
 * NULL when absent. */
static const char *line_field(const char *line, const char *key, char *buf, size_t len)
{
  size_t kl = strlen(key), n;
  const char *p = line;

  while ((p = strstr(p, key)) != NULL) {
    if ((p == line || p[-1] == ' ') && p[kl] == '=') {
      p += kl + 1;
      n = strcspn(p, " \t\r\n");
      if (n >= len)
        n = len - 1;
      memcpy(buf, p, n);
      buf[n] = '\0';
      return buf;
    }
    p += kl;
  }
  return NULL;
}

int hp_peaks_parse_line(const char *line, hp_peaks *out)
{
  /* roofline_peaks and gemm_peaks print the matrix peaks as peak_<p>_matrix_tflops; a peaks
   * file (and an older line) calls them peak_<p>_tflops (INT8: _tops). */
  static const char *const keys[] = {"peak_fp16_matrix_tflops", "peak_bf16_matrix_tflops",
                                     "peak_tf32_matrix_tflops", "peak_fp8_matrix_tflops",
                                     "peak_int8_matrix_tops"};
  static const int same[] = {PK_FP16, PK_BF16, PK_TF32, PK_FP8, PK_INT8};
  char buf[256], *end;
  size_t k;
  int any = 0;

  for (k = PK_BW; k < PK_MSOURCE + sizeof(keys) / sizeof(keys[0]); k++) {
    int f = k < PK_MSOURCE ? (int)k : same[k - PK_MSOURCE];
    if (line_field(line, k < PK_MSOURCE ? peak_keys[k] : keys[k - PK_MSOURCE], buf, sizeof(buf))) {
      double v = strtod(buf, &end);
      if (end != buf && *end == '\0' && v > 0 && isfinite(v)) {
        *figure(out, f) = v;
        any = 1;
      }
    }
  }
  if (!any)
    return HP_ENOENT;
  for (k = 0; k < 2; k++)
    if (line_field(line, k ? "matrix_source" : "device", buf, sizeof(buf))) {
      char **dst = k ? &out->matrix_source : &out->device;
      free(*dst);
      if ((*dst = hp__strdup(buf)) == NULL)
        return HP_ENOMEM;
    }
  return 0;
}

/* Appends `key: "s"` (nothing when s is NULL), with \ and " escaped and control characters
 * dropped; a failed append is left in the buffer's sticky error. */
static void yaml_field(hp__buf *b, const char *key, const char *s)
{
  if (s == NULL)
    return;
  hp__buf_printf(b, "%s: \"", key);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      hp__buf_addc(b, '\\');
    if (*s == '"' || *s == '\\' || (unsigned char)*s >= 0x20)
      hp__buf_addc(b, *s);
  }
  hp__buf_adds(b, "\"\n");
}

int hp_peaks_format(const hp_peaks *p, char **out)
{
  hp_peaks c = *p; /* a shallow copy, for figure() */
  hp__buf b = HP__BUF_INIT;
  int k;

  hp__buf_adds(&b,
               "# Roofline ceilings (docs/roofline.md): bandwidth in GB/s (1e9 bytes), "
               "compute in TFLOP/s.\n");
  yaml_field(&b, "device", p->device);
  yaml_field(&b, "source", p->source);
  yaml_field(&b, "matrix_source", p->matrix_source);
  for (k = PK_BW; k <= PK_FP64M; k++)
    if (*figure(&c, k) > 0)
      hp__buf_printf(&b, "%s: %.6g\n", peak_keys[k], *figure(&c, k));
  /* NULL, with the text freed, when an append failed. */
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;
}

/* The key table above and its docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_roofline = peak_keys;
const hp_plan_key_doc *const hp__plan_docs_roofline = peak_docs;
