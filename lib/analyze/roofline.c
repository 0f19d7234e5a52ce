/*
 * Roofline points from a parsed profile: for each kernel, the FLOPs, device-memory bytes and time
 * of one launch (means over the profiled launches), its arithmetic intensity, its achieved FLOP
 * rate and bandwidth and, given the peaks, the roof at its intensity, whether it is memory- or
 * compute-bound and how close it comes to the roof. docs/roofline.md gives every formula.
 *
 * Two sources, the same arithmetic:
 *   - ncu (--page raw): sm__sass_thread_inst_executed_op_{f,d,h}{add,mul,fma}_pred_on.sum (one
 *     thread instruction each; an FMA is 2 FLOP), dram__bytes_read.sum + dram__bytes_write.sum
 *     (or dram__bytes.sum) and gpu__time_duration.sum, each scaled by its unit; or, from the
 *     SpeedOfLight_RooflineChart section, the same instructions as rates
 *     (smsp__..._pred_on.sum.per_cycle_elapsed x smsp__cycles_elapsed.avg.per_second) and
 *     dram__bytes.sum.per_second, times the duration. The section's derived__*_x2 metrics are the
 *     device's peak rates, not counts, and are not used;
 *   - rocprof/rocprofv3/hipprof PMC: SQ_INSTS_VALU_{ADD,MUL,TRANS,FMA}_F{16,32,64} (one wave
 *     instruction = 64 lanes; FMA 2 FLOP per lane), SQ_INSTS_VALU_MFMA_MOPS_* (512 FLOP each), a
 *     counter named FLOP when a tool derives it, TCC_EA_RDREQ / TCC_EA_WRREQ (64-byte requests,
 *     with the _32B / _64B split when present, as rocprof-compute counts them) and the dispatch's
 *     own time. A trailing `_sum` (rocprof's derived form) is accepted.
 */
#include "analyze/roofline.h"
#include "profile/model/profile.h"
#include "util/base/buf.h"
#include <stdio.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Precisions: the vector ones first, then the tensor (ncu) / matrix (AMD MFMA) ones. */
enum {
  P_FP64,
  P_FP32,
  P_FP16,
  P_BF16,
  M_FP64,
  M_TF32, /* AMD: MFMA F32 */
  M_FP16,
  M_BF16,
  M_FP8,
  M_INT8,
  P_N
};
#define P_VEC 4
static const char *const prec_ncu[P_N] = {
    "fp64",        "fp32",        "fp16",        "bf16",       "fp64-tensor",
    "tf32-tensor", "fp16-tensor", "bf16-tensor", "fp8-tensor", "int8-tensor"};
static const char *const prec_pmc[P_N] = {
    "fp64",        "fp32",        "fp16",        "bf16",       "fp64-matrix",
    "fp32-matrix", "fp16-matrix", "bf16-matrix", "fp8-matrix", "int8-matrix"};
/* The tensor metrics' precision tokens (sm__ops_path_tensor_src_<token>...), by M_* index. */
static const char *const tensor_tok[P_N] = {NULL,   NULL,   NULL,   NULL,  "fp64",
                                            "tf32", "fp16", "bf16", "fp8", "int8"};

/* What a kernel whose counters miss its tensor/matrix work shows instead of a bound. */
static const char note_ncu[] =
    "FLOPs not captured: add ncu --section SpeedOfLight_HierarchicalTensorRooflineChart";
static const char note_pmc[] = "FLOPs not captured: add the SQ_INSTS_VALU_MFMA_MOPS_{F16,BF16,"
                               "F32,F64,I8} counters";
static const char note_peak[] = "no ceiling for its precision in the peaks";

/* What one kernel's counters add up to (per launch). */
typedef struct counts {
  double flop[P_N];
  double rate[P_N]; /* ncu's section: FLOP per cycle (FMA doubled) */
  int have_flop, have_rate;
  /* ncu's tensor ops by precision, counts [0] and per-cycle rates [1]: only the shallowest
   * names of a precision are summed (sm__ops_path_tensor_src_bf16_dst_fp32 holds its
   * _sparsity_on/_off children; fp8 has only the children), depth -1 when none was seen. */
  double tens[2][P_N];
  int tdepth[2][P_N];
  int have_tensor; /* a tensor/matrix FLOP counter was captured (any value) */
  int uncounted;   /* tensor work of a precision hprun does not count (int1, fp4, ...) */
  double activity; /* tensor-pipe instructions / MFMA busy (counts): > 0 means tensor work */
  /* ncu's tensor-pipe busy percentages: the MMA-only subpipes (sm__pipe_tensor_op_*,
   * sm__pipe_tensor_type_*) and the whole pipe. Neither is exact: on the real H200 captures
   * kernels with no tensor op at all show up to 0.05% on the subpipes and 3.8% on the whole pipe,
   * tensor kernels at least 9.4% (docs/roofline.md), hence the thresholds in missing_work. */
  double mma_pct, pipe_pct;
  int have_mma;
  double cycles_per_s, sm_cycles_per_s, bytes_per_s;
  double rd, wr, total, rd32, wr64;
  int have_rd, have_wr, have_total;
  double time_ns;
} counts;

static void counts_init(counts *c)
{
  memset(c, 0, sizeof(*c));
  memset(c->tdepth, 0xff, sizeof(c->tdepth)); /* -1: no tensor metric seen */
}

const char *hp_bound_name(hp_bound b)
{
  return b == HP_BOUND_MEMORY ? "memory" : b == HP_BOUND_COMPUTE ? "compute" : "unknown";
}

/* The precision of an ncu FLOP instruction name's op ("fadd", "dfma", "hmul"): P_*, or -1; *fma
 * says whether it counts 2 FLOP. */
static int op_precision(const char *op, int *fma)
{
  int p = op[0] == 'd' ? P_FP64 : op[0] == 'f' ? P_FP32 : op[0] == 'h' ? P_FP16 : -1;

  *fma = strncmp(op + 1, "fma", 3) == 0;
  if (!*fma && strncmp(op + 1, "add", 3) != 0 && strncmp(op + 1, "mul", 3) != 0)
    return -1;
  return p;
}

/* One FLOP instruction metric: `rest` is the name after the op ("_pred_on.sum" for a count per
 * launch, "_pred_on.sum.per_cycle_elapsed" for the SpeedOfLight_RooflineChart section's rate). */
static void ncu_flop(counts *c, const char *op, const char *rest, double v)
{
  int fma, p = op_precision(op, &fma);

  if (p < 0 || !isfinite(v))
    return;
  if (strcmp(rest, "_pred_on.sum") == 0) {
    c->flop[p] += fma ? 2 * v : v;
    c->have_flop = 1;
  } else if (strcmp(rest, "_pred_on.sum.per_cycle_elapsed") == 0) {
    c->rate[p] += fma ? 2 * v : v;
    c->have_rate = 1;
  }
}

/* The factor of a rate unit "<prefix><base>/s" or "/second" ("Gbyte/second", "byte/s"), or of
 * "hz" for cycles; NaN for another kind. */
static double rate_scale(const char *unit, const char *base)
{
  char num[32];
  const char *slash = unit ? strchr(unit, '/') : NULL;

  if (unit && strcmp(base, "cycle") == 0 && strlen(unit) >= 2 &&
      strcasecmp(unit + strlen(unit) - 2, "hz") == 0) {
    memcpy(num, unit, strlen(unit) - 2);
    memcpy(num + strlen(unit) - 2, "x", 2);
    return strlen(unit) > 3 ? NAN : hp__roof_unit_scale(num, "x");
  }
  if (slash == NULL || (size_t)(slash - unit) >= sizeof(num) ||
      (strcmp(slash, "/s") != 0 && strcmp(slash, "/second") != 0))
    return NAN;
  memcpy(num, unit, (size_t)(slash - unit));
  num[slash - unit] = '\0';
  return hp__roof_unit_scale(num, base);
}

/* The precision (M_*) of a tensor metric's name after "..._src_" ("bf16_dst_fp32", "fp8_sparsity_off"),
 * or -1 for one hprun does not count (int1, int4, fp4, fp6). */
static int tensor_precision(const char *rest, size_t n)
{
  size_t tl;
  int p;

  for (p = M_FP64; p < P_N; p++)
    if (n >= (tl = strlen(tensor_tok[p])) && strncmp(rest, tensor_tok[p], tl) == 0 &&
        (n == tl || rest[tl] == '_'))
      return p;
  return -1;
}

/* One ncu tensor-op metric, `rest` after "sm__ops_path_tensor_src_". One op is one FLOP (a
 * multiply-add counts 2: docs/roofline.md). */
static void ncu_tensor(counts *c, const char *rest, double v)
{
  const char *dot = strchr(rest, '.');
  size_t n = dot ? (size_t)(dot - rest) : strlen(rest), i;
  int kind = dot && strcmp(dot, ".sum") == 0              ? 0
      : dot && strcmp(dot, ".sum.per_cycle_elapsed") == 0 ? 1
                                                          : -1;
  int p = tensor_precision(rest, n), depth = 0;

  if (kind < 0 || !isfinite(v))
    return;
  c->have_tensor = 1;
  if (p < 0) {
    c->uncounted |= v > 0;
    return;
  }
  for (i = 0; i < n; i++)
    depth += rest[i] == '_';
  if (c->tdepth[kind][p] < 0 || depth < c->tdepth[kind][p]) {
    c->tdepth[kind][p] = depth;
    c->tens[kind][p] = 0;
  }
  if (depth == c->tdepth[kind][p])
    c->tens[kind][p] += v;
}

/* One ncu metric of a kernel into c: name (len bytes), unit, per-launch value v. */
static void ncu_metric(counts *c, const char *name, size_t len, const char *unit, double v)
{
  static const char sass[] = "sm__sass_thread_inst_executed_op_";
  static const char smsp[] = "smsp__sass_thread_inst_executed_op_";
  static const char tensor[] = "sm__ops_path_tensor_src_";
  char buf[128];

  if (len >= sizeof(buf))
    return;
  memcpy(buf, name, len);
  buf[len] = '\0';
  if (strcmp(buf, "gpu__time_duration.sum") == 0)
    c->time_ns = v * hp__roof_unit_scale(unit, "second") * 1e9;
  else if (strcmp(buf, "dram__bytes_read.sum") == 0)
    c->rd = v * hp__roof_unit_scale(unit, "byte"), c->have_rd = 1;
  else if (strcmp(buf, "dram__bytes_write.sum") == 0)
    c->wr = v * hp__roof_unit_scale(unit, "byte"), c->have_wr = 1;
  else if (strcmp(buf, "dram__bytes.sum") == 0)
    c->total = v * hp__roof_unit_scale(unit, "byte"), c->have_total = 1;
  else if (strcmp(buf, "dram__bytes.sum.per_second") == 0)
    c->bytes_per_s = v * rate_scale(unit, "byte");
  else if (strcmp(buf, "smsp__cycles_elapsed.avg.per_second") == 0)
    c->cycles_per_s = v * rate_scale(unit, "cycle");
  else if (strcmp(buf, "sm__cycles_elapsed.avg.per_second") == 0)
    c->sm_cycles_per_s = v * rate_scale(unit, "cycle");
  else if (strncmp(buf, tensor, sizeof(tensor) - 1) == 0)
    ncu_tensor(c, buf + sizeof(tensor) - 1, v);
  else if ((strncmp(buf, "sm__pipe_tensor", 15) == 0 ||
            strstr(buf, "__inst_executed_pipe_tensor") != NULL) &&
           strstr(buf, "peak_sustained.") == NULL && !strstr(buf, ".peak_sustained")) {
    if (strstr(buf, ".pct_of_peak_sustained") == NULL)
      c->activity = fmax(c->activity, strstr(buf, "inst_executed") ? v : 0); /* counts exactly */
    else if (strncmp(buf, "sm__pipe_tensor_op_", 19) == 0 ||
             strncmp(buf, "sm__pipe_tensor_type_", 21) == 0)
      c->mma_pct = fmax(c->mma_pct, v), c->have_mma = 1;
    else
      c->pipe_pct = fmax(c->pipe_pct, v);
  } else if (strncmp(buf, sass, sizeof(sass) - 1) == 0 && strlen(buf) > sizeof(sass) + 3)
    ncu_flop(c, buf + sizeof(sass) - 1, buf + sizeof(sass) - 1 + 4, v);
  else if (strncmp(buf, smsp, sizeof(smsp) - 1) == 0 && strlen(buf) > sizeof(smsp) + 3)
    ncu_flop(c, buf + sizeof(smsp) - 1, buf + sizeof(smsp) - 1 + 4, v);
}

/* The section's rates into per-launch counts, when the counts themselves are absent: FLOP =
 * instructions per cycle x cycles per second x time, bytes = bytes per second x time (the
 * arithmetic of ncu's own roofline chart). */
static void ncu_rates(counts *c)
{
  double s = c->time_ns * 1e-9, hz;
  int p;

  if (!c->have_flop && c->have_rate && c->cycles_per_s > 0 && s > 0) {
    for (p = 0; p < P_N; p++)
      c->flop[p] = c->rate[p] * c->cycles_per_s * s;
    c->have_flop = 1;
  }
  if (!c->have_total && !c->have_rd && !c->have_wr && c->bytes_per_s > 0 && s > 0) {
    c->total = c->bytes_per_s * s;
    c->have_total = 1;
  }
  /* Tensor ops: the counts, else the rates per SM cycle times the SM clock and the duration. */
  hz = c->sm_cycles_per_s > 0 ? c->sm_cycles_per_s : c->cycles_per_s;
  for (p = M_FP64; p < P_N; p++)
    if (c->tdepth[0][p] >= 0)
      c->flop[p] += c->tens[0][p], c->have_flop = 1;
    else if (c->tdepth[1][p] >= 0 && hz > 0 && s > 0)
      c->flop[p] += c->tens[1][p] * hz * s, c->have_flop = 1;
}

/* A counter name without rocprof's `_sum` suffix, compared with `want`. */
static int counter_is(const char *name, const char *want)
{
  size_t n = strlen(want);

  return strncmp(name, want, n) == 0 && (name[n] == '\0' || strcmp(name + n, "_sum") == 0);
}

/* One PMC counter of a kernel into c (v per dispatch). */
static void pmc_counter(counts *c, const char *name, double v)
{
  static const char *const ops[] = {"ADD", "MUL", "TRANS", "FMA"};
  static const char *const types[] = {"F64", "F32", "F16", "BF16", "I8"};
  static const int matrix[] = {M_FP64, M_TF32, M_FP16, M_BF16, M_INT8};
  char want[64];
  int o, t;

  if (!isfinite(v))
    return;
  for (o = 0; o < 4; o++)
    for (t = 0; t < 5; t++) {
      snprintf(want, sizeof(want), "SQ_INSTS_VALU_%s_%s", ops[o], types[t]);
      if (t < P_VEC && counter_is(name, want)) {
        c->flop[t] += v * 64 * (o == 3 ? 2 : 1);
        c->have_flop = 1;
        return;
      }
      /* One MOPS is 512 matrix FLOPs (INT8: ops), as rocprof-compute's roofline counts it. */
      snprintf(want, sizeof(want), "SQ_INSTS_VALU_MFMA_MOPS_%s", types[t]);
      if (o == 0 && counter_is(name, want)) {
        c->flop[matrix[t]] += v * 512;
        c->have_flop = c->have_tensor = 1;
        return;
      }
    }
  /* Matrix-core activity without the MOPS counters: the work is there, its FLOPs are not. */
  if (strncmp(name, "SQ_INSTS_VALU_MFMA_", 19) == 0 ||
      strncmp(name, "SQ_VALU_MFMA_BUSY", 17) == 0 || strncmp(name, "SQ_INSTS_MFMA", 13) == 0)
    c->activity = fmax(c->activity, v);
  else if (strcasecmp(name, "FLOP") == 0 || strcasecmp(name, "FLOPS") == 0)
    c->flop[P_FP32] += v, c->have_flop = 1;
  else if (counter_is(name, "TCC_EA_RDREQ"))
    c->rd = v, c->have_rd = 1;
  else if (counter_is(name, "TCC_EA_RDREQ_32B"))
    c->rd32 = v;
  else if (counter_is(name, "TCC_EA_WRREQ"))
    c->wr = v, c->have_wr = 1;
  else if (counter_is(name, "TCC_EA_WRREQ_64B"))
    c->wr64 = v;
}

/* The peak (GFLOP/s) that bounds precision p, NaN when the peaks lack it: vector FP16/BF16 use
 * FP32's; a tensor/matrix precision only its own. *name is the ceiling's name. */
static double peak_gflops(const hp_peaks *pk, int p, const char *const *prec, const char **name)
{
  const double v[P_N] = {pk->fp64_tflops,        pk->fp32_tflops, pk->fp32_tflops, pk->fp32_tflops,
                         pk->fp64_matrix_tflops, pk->tf32_tflops, pk->fp16_tflops, pk->bf16_tflops,
                         pk->fp8_tflops,         pk->int8_tops};

  *name = p < P_VEC ? prec[p == P_FP64 ? P_FP64 : P_FP32] : prec[p];
  return v[p] > 0 ? v[p] * 1e3 : NAN;
}

/* Whether the counters miss work the kernel does (docs/roofline.md, "No bound without the
 * data"): tensor work of a precision hprun does not count; tensor-pipe or MFMA activity with no
 * tensor/matrix FLOP counter; a tensor-core kernel's name (cuBLAS nvjet, CUTLASS, wgmma, flash
 * attention, hipBLASLt/Tensile Cijk_) without those counters; or a GEMM/attention name with no
 * FLOP at all. */
static int missing_work(const counts *c, const char *name, double flop)
{
  static const char *const tensor_names[] = {"nvjet",  "wgmma",   "hgmma",   "hmma", "s16816",
                                             "h16816", "cutlass", "flash",   "sdpa", "fmha",
                                             "mfma",   "Cijk_",   "tensorop"};
  static const char *const matrix_names[] = {"gemm", "matmul", "attention", "attn"};
  /* Names that say the kernel runs on the FP32/FP64 pipes (cuBLAS's sm80_xmma_gemm_..._ffma). */
  static const char *const simt_names[] = {"ffma", "sgemm", "dgemm", "simt"};
  int tname = 0, mname = 0, busy;
  size_t i;

  for (i = 0; i < sizeof(tensor_names) / sizeof(tensor_names[0]); i++)
    tname |= strcasestr(name, tensor_names[i]) != NULL;
  for (i = 0; i < sizeof(matrix_names) / sizeof(matrix_names[0]); i++)
    mname |= strcasestr(name, matrix_names[i]) != NULL;
  for (i = 0; i < sizeof(simt_names) / sizeof(simt_names[0]); i++)
    if (strcasestr(name, simt_names[i]) != NULL)
      mname |= tname, tname = 0;
  if (c->uncounted || (flop == 0 && (tname || mname)))
    return 1;
  busy = c->activity > 0 || (c->have_mma ? c->mma_pct > 1 : c->pipe_pct > 5);
  return !c->have_tensor && (busy || tname);
}

/* The bound, ceiling, roof and efficiency of a point of dominant precision dom. */
static void judge(hp_roof_point *pt, int dom, const char *const *prec, const hp_peaks *pk)
{
  double peak, ridge;

  pt->bound = HP_BOUND_UNKNOWN;
  pt->roof_gflops = pt->efficiency = NAN;
  pt->ceiling = NULL;
  if (!hp_peaks_usable(pk) || isnan(pt->ai))
    return;
  if (!((peak = peak_gflops(pk, dom, prec, &pt->ceiling)) > 0)) {
    pt->ceiling = NULL;
    pt->note = note_peak;
    return;
  }
  ridge = peak / pk->bw_gbs;
  pt->bound = pt->ai < ridge ? HP_BOUND_MEMORY : HP_BOUND_COMPUTE;
  if (pt->bound == HP_BOUND_MEMORY)
    pt->ceiling = "bandwidth";
  pt->roof_gflops = fmin(peak, pk->bw_gbs * pt->ai);
  pt->efficiency = pt->gflops / pt->roof_gflops;
}

/* Fills a point from the counts; returns 1 when it has what a point needs (time and bytes). */
static int make_point(hp_roof_point *pt, const counts *c, const char *name, int pmc,
                      const hp_peaks *pk)
{
  const char *const *prec = pmc ? prec_pmc : prec_ncu;
  double flop = 0, best = -1;
  int p, dom = P_FP32, n = 0;

  for (p = 0; p < P_N; p++) {
    flop += c->flop[p];
    if (c->flop[p] > best)
      best = c->flop[p], dom = p;
  }
  /* Mixed when another precision than the dominant one has at least a tenth of the FLOPs. */
  for (p = 0; p < P_N; p++)
    n += p != dom && c->flop[p] >= flop / 10 && c->flop[p] > 0;
  if (flop == 0)
    dom = P_FP32; /* a copy is placed under the bandwidth slope, at intensity 0 */
  pt->flop = c->have_flop ? flop : NAN;
  pt->bytes = c->have_total ? c->total : c->have_rd || c->have_wr ? c->rd + c->wr : NAN;
  pt->time_ns = c->time_ns;
  if (!(pt->time_ns > 0) || !(pt->bytes > 0) || !c->have_flop)
    return 0;
  pt->precision = flop == 0 ? NULL : n > 0 ? "mixed" : prec[dom];
  pt->ai = pt->flop / pt->bytes;
  pt->gflops = pt->flop / pt->time_ns;
  pt->gbs = pt->bytes / pt->time_ns;
  pt->note = NULL;
  if (missing_work(c, name, flop)) {
    /* Every figure made from the FLOPs would be wrong: none is shown. */
    pt->flop = pt->ai = pt->gflops = NAN;
    pt->precision = NULL;
    pt->note = pmc ? note_pmc : note_ncu;
  }
  judge(pt, dom, prec, pk);
  return 1;
}

/* Appends a point for kernel `name` when the counts allow one. */
static int add_point(hp_roofline *r, const char *name, long long launches, counts *c,
                     const hp_peaks *pk)
{
  hp_roof_point pt, *grown;

  memset(&pt, 0, sizeof(pt));
  if (!make_point(&pt, c, name, r->source != NULL && strcmp(r->source, "pmc") == 0, pk)) {
    r->skipped += c->have_flop || c->have_rd || c->have_total;
    return 0;
  }
  if ((pt.kernel = hp__strdup(name)) == NULL)
    return HP_ENOMEM;
  pt.launches = launches;
  if ((grown = realloc(r->pts, (r->n + 1) * sizeof(*grown))) == NULL) {
    free(pt.kernel);
    return HP_ENOMEM;
  }
  r->pts = grown;
  r->pts[r->n++] = pt;
  return 0;
}

static int ncu_points(const hp_profile *p, const hp_peaks *pk, hp_roofline *r)
{
  size_t i, id;
  int rc = 0;

  for (i = 0; i < p->ncu_names.n && rc == 0; i++) {
    const hp__ncu_kernel *k = &p->ncu[i];
    counts c;
    counts_init(&c);
    for (id = 0; id < k->ncap && id < p->metrics.n; id++) {
      const char *name;
      size_t len;
      if (k->mn[id] <= 0)
        continue;
      len = hp__ncu_metric_name(p, (uint32_t)id, &name);
      ncu_metric(&c, name, len, p->metric_unit ? p->metric_unit[id] : NULL,
                 k->msum[id] / (double)k->mn[id]);
    }
    ncu_rates(&c);
    rc = add_point(r, p->ncu_names.s[i], k->launches, &c, pk);
  }
  return rc;
}

static int pmc_points(const hp_profile *p, const hp_peaks *pk, hp_roofline *r)
{
  size_t i, id;
  int rc = 0;

  for (i = 0; i < p->pmc_names.n && rc == 0; i++) {
    const hp__pmc_kernel *k = &p->pmc[i];
    counts c;
    counts_init(&c);
    for (id = 0; id < k->ncap && id < p->counters.n; id++)
      if (k->cn[id] > 0)
        pmc_counter(&c, p->counters.s[id], k->csum[id] / (double)k->cn[id]);
    /* Requests to bytes: 64-byte reads except the 32-byte ones, 32-byte writes except the
     * 64-byte ones (rocprof-compute's roofline). Without the split, 64 bytes each. */
    if (c.have_rd)
      c.rd = c.rd32 > 0 ? c.rd32 * 32 + (c.rd - c.rd32) * 64 : c.rd * 64;
    if (c.have_wr)
      c.wr = c.wr64 > 0 ? c.wr64 * 64 + (c.wr - c.wr64) * 32 : c.wr * 64;
    c.time_ns = k->tn > 0 ? k->tsum / (double)k->tn : NAN;
    rc = add_point(r, p->pmc_names.s[i], k->dispatches > 0 ? k->dispatches : k->records, &c, pk);
  }
  return rc;
}

static int cmp_time(const void *a, const void *b)
{
  const hp_roof_point *x = a, *y = b;
  double tx = x->time_ns * (double)x->launches, ty = y->time_ns * (double)y->launches;

  return tx > ty ? -1 : tx < ty ? 1 : strcmp(x->kernel, y->kernel);
}

int hp_roofline_compute(const hp_profile *p, const hp_peaks *peaks, hp_roofline **out)
{
  const hp_peaks *use = peaks;
  hp_roofline *r;
  int rc = 0;

  *out = NULL;
  if (p == NULL)
    return 0;
  if ((r = calloc(1, sizeof(*r))) == NULL)
    return HP_ENOMEM;
  /* Given peaks override the capture's own ceilings. */
  if (!hp_peaks_usable(peaks) && (rc = hp__capture_peaks(p, &r->peaks)) == 0 && r->peaks)
    use = r->peaks;
  r->source = "ncu";
  if (rc == 0)
    rc = ncu_points(p, use, r);
  if (rc == 0 && r->n == 0) {
    hp_peaks_clear(r->peaks);
    free(r->peaks);
    r->peaks = NULL;
    r->source = "pmc";
    rc = pmc_points(p, peaks, r);
  }
  if (rc || r->n == 0) {
    hp_roofline_free(r);
    return rc;
  }
  qsort(r->pts, r->n, sizeof(*r->pts), cmp_time);
  *out = r;
  return 0;
}

void hp_roofline_free(hp_roofline *r)
{
  size_t i;

  if (r == NULL)
    return;
  for (i = 0; i < r->n; i++)
    free(r->pts[i].kernel);
  free(r->pts);
  hp_peaks_clear(r->peaks);
  free(r->peaks);
  free(r);
}

void hp__session_roofline(hp_session *s)
{
  size_t i;

  for (i = 0; i < s->npasses; i++) {
    hp_roofline_free(s->passes[i].roofline);
    s->passes[i].roofline = NULL;
    /* Out of memory leaves the pass without points; every report then simply shows none. */
    (void)hp_roofline_compute(s->passes[i].profile, s->peaks, &s->passes[i].roofline);
  }
}

void hp__session_peaks(hp_session *s, const hp_peaks *plan_peaks)
{
  hp_peaks_clear(s->peaks);
  free(s->peaks);
  s->peaks = NULL;
  if (plan_peaks && (s->peaks = malloc(sizeof(*s->peaks))) != NULL &&
      hp_peaks_copy(s->peaks, plan_peaks) != 0) {
    free(s->peaks);
    s->peaks = NULL;
  }
  hp__session_roofline(s);
}
