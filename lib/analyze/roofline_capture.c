/*
 * The roofline's ceilings from an ncu capture itself (hp__capture_peaks, analyze/roofline.h):
 * ncu's raw page carries a `.peak_sustained` rate per cycle for the counters it reports, so the
 * ceilings can be those of the very GPU and clocks the capture ran on, with no peaks file. Per
 * cycle times the clock the rate is counted in: dram__bytes.sum.peak_sustained (byte/cycle) times
 * dram__cycles_elapsed.avg.per_second; 2 x the FFMA/DFMA thread-instruction peaks and the dense
 * (`_sparsity_off`) tensor-op peaks times sm__cycles_elapsed.avg.per_second. The clocks vary
 * from launch to launch (ncu --clock-control none), so each is the median over the kernels.
 */
#include "analyze/roofline.h"
#include "profile/model/profile.h"
#include "util/base/buf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What the kernels' metrics add up to: peaks per cycle, the clocks of each kernel, the GPU. */
typedef struct cap {
  double bw, fp32, fp64, tensor[5]; /* per cycle; tensor: fp64 tf32 fp16 bf16 fp8 (FLOP), int8 */
  double int8;
  int dense[6]; /* a `_sparsity_off` peak was seen (then only those count) */
  double *sm_hz, *dram_hz;
  size_t nsm, ndram;
  double cc_major, cc_minor, sms;
} cap;

static const char *const toks[] = {"fp64", "tf32", "fp16", "bf16", "fp8", "int8"};

/* One tensor peak: `name` is a sm__ops_path_tensor_* metric ending in .sum.peak_sustained. Only
 * the dense (sparsity_off) peaks count; FP64 has no sparsity and counts as it is. */
static void tensor_peak(cap *c, const char *name, double v)
{
  const char *src = strstr(name, "_src_");
  double *dst;
  size_t k, n;
  int off;

  if (src == NULL || strstr(name, "_sparsity_on") != NULL)
    return;
  src += 5;
  for (k = 0; k < 6; k++)
    if (strncmp(src, toks[k], n = strlen(toks[k])) == 0 && (src[n] == '_' || src[n] == '.'))
      break;
  if (k == 6)
    return;
  off = strstr(name, "_sparsity_off") != NULL;
  if (!off && k != 0)
    return;
  dst = k == 5 ? &c->int8 : &c->tensor[k];
  c->dense[k] = 1;
  *dst = fmax(*dst, v);
}

/* The factor of a clock unit ("hz", "Mhz", "Ghz"); NaN for another unit. */
static double hz_scale(const char *unit)
{
  static const char pre[] = "kmg";
  static const double f[] = {1e3, 1e6, 1e9};
  const char *at;

  if (unit == NULL || strcasecmp(unit, "hz") == 0)
    return 1;
  if (strlen(unit) == 3 && strcasecmp(unit + 1, "hz") == 0 &&
      (at = strchr(pre, tolower((unsigned char)unit[0]))) != NULL)
    return f[at - pre];
  return NAN;
}

/* The factor of a unit made of an SI prefix and `base` ("Kbyte", "usecond"; analyze/roofline.h); 1 for no unit,
 * NaN for a unit of another kind. Times are also spelled short, as ncu's raw page prints them
 * ("ns", "us", "ms", "s"). */
double hp__roof_unit_scale(const char *unit, const char *base)
{
  static const char *const short_time[] = {"ns", "us", "ms", "s"};
  static const double short_scale[] = {1e-9, 1e-6, 1e-3, 1};
  size_t n = unit ? strlen(unit) : 0, nb = strlen(base), i;

  if (n == 0)
    return 1;
  if (strcmp(base, "second") == 0)
    for (i = 0; i < 4; i++)
      if (strcmp(unit, short_time[i]) == 0)
        return short_scale[i];
  if (n < nb || strcmp(unit + n - nb, base) != 0)
    return NAN;
  if (n == nb)
    return 1;
  if (n != nb + 1)
    return NAN;
  switch (unit[0]) {
  case 'K':
  case 'k': return 1e3;
  case 'M': return 1e6;
  case 'G': return 1e9;
  case 'T': return 1e12;
  case 'm': return 1e-3;
  case 'u': return 1e-6;
  case 'n': return 1e-9;
  default: return NAN;
  }
}

/* The factor of a per-cycle unit "<prefix><base>/cycle" ("Kbyte/cycle", as `ncu --import` prints
 * without --print-units base); 1 for no unit, NaN for another kind. */
static double per_cycle(const char *unit, const char *base)
{
  char num[32];
  const char *sl = unit ? strchr(unit, '/') : NULL;

  if (unit == NULL || unit[0] == '\0')
    return 1;
  if (sl == NULL || strcmp(sl, "/cycle") != 0 || (size_t)(sl - unit) >= sizeof(num))
    return NAN;
  memcpy(num, unit, (size_t)(sl - unit));
  num[sl - unit] = '\0';
  return hp__roof_unit_scale(num, base);
}

/* One metric of one kernel (per-launch value v). */
static void take(cap *c, const char *name, const char *unit, double v)
{
  static const char ps[] = ".sum.peak_sustained";
  size_t n = strlen(name);

  if (!isfinite(v))
    return;
  if (n > sizeof(ps) - 1 && strcmp(name + n - (sizeof(ps) - 1), ps) == 0) {
    /* fmax drops the NaN of a unit that is not per cycle. */
    if (strcmp(name, "dram__bytes.sum.peak_sustained") == 0)
      c->bw = fmax(c->bw, v * per_cycle(unit, "byte"));
    else if (strcmp(name, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained") == 0)
      c->fp32 = fmax(c->fp32, 2 * v * per_cycle(unit, "inst"));
    else if (strcmp(name, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained") == 0)
      c->fp64 = fmax(c->fp64, 2 * v * per_cycle(unit, "inst"));
    else if (strncmp(name, "sm__ops_path_tensor_", 20) == 0)
      tensor_peak(c, name, v);
  } else if (strcmp(name, "sm__cycles_elapsed.avg.per_second") == 0) {
    if (v * hz_scale(unit) > 0)
      c->sm_hz[c->nsm++] = v * hz_scale(unit);
  } else if (strcmp(name, "dram__cycles_elapsed.avg.per_second") == 0) {
    if (v * hz_scale(unit) > 0)
      c->dram_hz[c->ndram++] = v * hz_scale(unit);
  } else if (strcmp(name, "device__attribute_compute_capability_major") == 0) {
    c->cc_major = v;
  } else if (strcmp(name, "device__attribute_compute_capability_minor") == 0) {
    c->cc_minor = v;
  } else if (strcmp(name, "device__attribute_multiprocessor_count") == 0) {
    c->sms = v;
  }
}

static int cmp_dbl(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
  qsort(v, n, sizeof(*v), cmp_dbl);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The capture's figures as peaks: names the GPU by compute capability and SM count (the raw
 * page's display name is text, which the profile does not keep) and says the clocks. */
static int to_peaks(cap *c, hp_peaks **out)
{
  double sm = median(c->sm_hz, c->nsm), dram = median(c->dram_hz, c->ndram);
  double *f[] = {&(*out)->fp64_matrix_tflops, &(*out)->tf32_tflops, &(*out)->fp16_tflops,
                 &(*out)->bf16_tflops, &(*out)->fp8_tflops};
  hp__buf b = HP__BUF_INIT;
  hp_peaks *p = *out;
  size_t k;

  p->bw_gbs = c->bw * dram * 1e-9;
  p->fp32_tflops = c->fp32 > 0 ? c->fp32 * sm * 1e-12 : NAN;
  p->fp64_tflops = c->fp64 > 0 ? c->fp64 * sm * 1e-12 : NAN;
  for (k = 0; k < 5; k++)
    *f[k] = c->dense[k] && c->tensor[k] > 0 ? c->tensor[k] * sm * 1e-12 : NAN;
  p->int8_tops = c->dense[5] && c->int8 > 0 ? c->int8 * sm * 1e-12 : NAN;
  if (c->cc_major > 0)
    hp__buf_printf(&b, "sm_%.0f%.0f, ", c->cc_major, c->cc_minor > 0 ? c->cc_minor : 0);
  if (c->sms > 0)
    hp__buf_printf(&b, "%.0f SMs, ", c->sms);
  hp__buf_printf(&b, "SM clock %.0f MHz, DRAM clock %.0f MHz (medians over the kernels)", sm * 1e-6,
                 dram * 1e-6);
  p->device = hp__buf_steal(&b);
  p->source = hp__strdup("from the ncu capture");
  return p->device && p->source ? 0 : HP_ENOMEM;
}

int hp__capture_peaks(const hp_profile *p, hp_peaks **out)
{
  cap c;
  size_t i, id;
  int rc = 0;

  *out = NULL;
  memset(&c, 0, sizeof(c));
  c.cc_major = c.cc_minor = c.sms = NAN;
  if (p->ncu_names.n == 0)
    return 0;
  c.sm_hz = malloc(p->ncu_names.n * sizeof(double));
  c.dram_hz = malloc(p->ncu_names.n * sizeof(double));
  if (c.sm_hz == NULL || c.dram_hz == NULL) {
    rc = HP_ENOMEM;
    goto fail;
  }
  for (i = 0; i < p->ncu_names.n; i++) {
    const hp__ncu_kernel *k = &p->ncu[i];
    size_t nsm = c.nsm, ndram = c.ndram;
    for (id = 0; id < k->ncap && id < p->metrics.n; id++) {
      char name[160];
      const char *nm;
      size_t len;
      if (k->mn[id] <= 0 || (len = hp__ncu_metric_name(p, (uint32_t)id, &nm)) >= sizeof(name))
        continue;
      memcpy(name, nm, len);
      name[len] = '\0';
      take(&c, name, p->metric_unit ? p->metric_unit[id] : NULL, k->msum[id] / (double)k->mn[id]);
      /* One clock per kernel, whatever the file holds. */
      c.nsm = c.nsm > nsm + 1 ? nsm + 1 : c.nsm;
      c.ndram = c.ndram > ndram + 1 ? ndram + 1 : c.ndram;
    }
  }
  if (!(c.bw > 0) || c.nsm == 0 || c.ndram == 0 ||
      !(c.fp32 > 0 || c.fp64 > 0 || c.tensor[3] > 0 || c.tensor[2] > 0))
    goto fail;
  if ((*out = malloc(sizeof(**out))) == NULL) {
    rc = HP_ENOMEM;
    goto fail;
  }
  hp_peaks_init(*out);
  if ((rc = to_peaks(&c, out)) != 0) {
    hp_peaks_clear(*out);
    free(*out);
    *out = NULL;
  }
fail:
  free(c.sm_hz);
  free(c.dram_hz);
  return rc;
}
