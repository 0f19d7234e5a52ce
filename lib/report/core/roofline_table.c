/*
 * The roofline table's one description and what every format takes from it: the cells, their
 * text, the JSON object and the ceilings line (lib/report/core/roofline_table.h). A column added here
 * appears in summary.json, `hprun summarize --roofline` (every format), report.md, the terminal and
 * report.html at once; the renderers (roofline_out.c, html_roofline.c) hold no column of their own.
 */
#include "report/core/roofline_table.h"
#include "report/core/report.h"
#include "report/core/summary_keys.h"
#include "util/num/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a column fetches from a point. */
enum {
  RF_KERNEL,
  RF_LAUNCHES,
  RF_PREC,
  RF_FLOP,
  RF_BYTES,
  RF_TIME,
  RF_AI,
  RF_GFLOPS,
  RF_GBS,
  RF_BOUND,
  RF_CEILING,
  RF_ROOF,
  RF_EFF,
  RF_NOTE
};

#define JC (HP__IN_JSON | HP__IN_CSV)
/* Efficiency is a fraction in JSON and CSV, a percentage of the roof in text (div 0.01). */
const hp__col hp__roof_cols[] = {
    {HP__K_ROOF_NAME, "kernel", NULL, HP__V_STR, HP__IN_ALL, HP__C_NAME | HP__C_KNAME, RF_KERNEL, 0,
     NULL, NULL},
    {HP__K_ROOF_LAUNCHES, NULL, NULL, HP__V_INT, JC, 0, RF_LAUNCHES, 0, NULL, NULL},
    {HP__K_ROOF_PRECISION, NULL, NULL, HP__V_STR, HP__IN_ALL, 0, RF_PREC, 0, NULL, "-"},
    {HP__K_ROOF_FLOP, NULL, NULL, HP__V_NUM, JC, 0, RF_FLOP, 0, NULL, NULL},
    {HP__K_ROOF_BYTES, NULL, NULL, HP__V_NUM, JC, 0, RF_BYTES, 0, NULL, NULL},
    {HP__K_ROOF_TIME_NS, NULL, NULL, HP__V_NUM, JC, 0, RF_TIME, 0, NULL, NULL},
    {HP__K_ROOF_INTENSITY, NULL, "FLOP/byte", HP__V_NUM, HP__IN_ALL, HP__C_RIGHT, RF_AI, 0, "%.6g",
     "-"},
    {HP__K_ROOF_GFLOPS, NULL, "GFLOP/s", HP__V_NUM, HP__IN_ALL, HP__C_RIGHT, RF_GFLOPS, 0, "%.6g",
     "-"},
    {HP__K_ROOF_GBS, NULL, "GB/s", HP__V_NUM, HP__IN_ALL, HP__C_RIGHT, RF_GBS, 0, "%.6g", "-"},
    {HP__K_ROOF_BOUND, NULL, NULL, HP__V_STR, HP__IN_ALL, 0, RF_BOUND, 0, NULL, NULL},
    {HP__K_ROOF_CEILING, NULL, NULL, HP__V_STR, HP__IN_ALL, 0, RF_CEILING, 0, NULL, "-"},
    {HP__K_ROOF_ROOF, NULL, "roof GFLOP/s", HP__V_NUM, HP__IN_ALL, HP__C_RIGHT, RF_ROOF, 0, "%.6g",
     "-"},
    {HP__K_ROOF_EFFICIENCY, NULL, NULL, HP__V_NUM, JC, 0, RF_EFF, 0, NULL, NULL},
    {"efficiency_pct", NULL, "% of roof", HP__V_NUM, HP__IN_TEXT, HP__C_RIGHT, RF_EFF, 0.01, "%.1f",
     "-"},
    {HP__K_ROOF_NOTE, NULL, NULL, HP__V_STR, HP__IN_ALL, 0, RF_NOTE, 0, NULL, "-"},
};
const size_t hp__roof_ncols = sizeof(hp__roof_cols) / sizeof(hp__roof_cols[0]);

/* One cell of point p: the getter of the description (c is zeroed first). */
static void roof_cell(const hp_roof_point *p, const hp__col *col, hp__cell *c)
{
  memset(c, 0, sizeof(*c));
  switch (col->field) {
  case RF_KERNEL: hp__cell_setstr(c, p->kernel); break;
  case RF_LAUNCHES: hp__cell_setint(c, p->launches); break;
  case RF_PREC: hp__cell_setstr(c, p->precision); break;
  case RF_FLOP: hp__cell_setnum(c, p->flop); break;
  case RF_BYTES: hp__cell_setnum(c, p->bytes); break;
  case RF_TIME: hp__cell_setnum(c, p->time_ns); break;
  case RF_AI: hp__cell_setnum(c, p->ai); break;
  case RF_GFLOPS: hp__cell_setnum(c, p->gflops); break;
  case RF_GBS: hp__cell_setnum(c, p->gbs); break;
  case RF_BOUND: hp__cell_setstr(c, hp_bound_name(p->bound)); break;
  case RF_CEILING: hp__cell_setstr(c, p->ceiling); break;
  case RF_ROOF: hp__cell_setnum(c, p->roof_gflops); break;
  case RF_NOTE: hp__cell_setstr(c, p->note); break;
  default: hp__cell_setnum(c, p->efficiency); break;
  }
}

/* A number that reads back as the same double: the shorter of %.15g and %.17g. */
static int exact_num(hp__buf *out, double v)
{
  char buf[40];

  snprintf(buf, sizeof(buf), "%.15g", v);
  if (strtod(buf, NULL) != v)
    snprintf(buf, sizeof(buf), "%.17g", v);
  return hp__buf_adds(out, buf);
}

int hp__roof_text(const hp_roof_point *p, const hp__col *col, int mode, hp__buf *out)
{
  hp__cell c;
  char *s;
  int r;

  hp__buf_reset(out);
  roof_cell(p, col, &c);
  if (!c.ok)
    return hp__buf_adds(out, col->missing && mode != HP__RT_CSV ? col->missing : "");
  if (col->type == HP__V_INT)
    return hp__buf_printf(out, "%lld", c.i);
  if (col->type == HP__V_NUM && (mode == HP__RT_CSV || col->tfmt == NULL))
    return exact_num(out, hp__cell_value(col, &c));
  if (col->type == HP__V_NUM)
    return hp__buf_printf(out, col->tfmt, hp__cell_value(col, &c));
  if (!(col->flags & HP__C_KNAME) || mode != HP__RT_SHORT)
    return hp__buf_add(out, c.s, c.len);
  if ((s = hp__kernel_short(c.s)) == NULL)
    return HP_ENOMEM;
  r = hp__buf_adds(out, s);
  free(s);
  return r;
}

/* One point as a JSON object of the JSON columns. */
static void point_json(hp__json *j, const hp_roof_point *p)
{
  hp__cell c;
  size_t k;

  hp__json_obj_begin(j);
  for (k = 0; k < hp__roof_ncols; k++) {
    const hp__col *col = &hp__roof_cols[k];
    if (!(col->in & HP__IN_JSON))
      continue;
    roof_cell(p, col, &c);
    hp__json_key(j, col->key);
    if (!c.ok)
      hp__json_null(j);
    else if (col->type == HP__V_STR)
      hp__json_strn(j, c.s, c.len);
    else if (col->type == HP__V_INT)
      hp__json_int(j, c.i);
    else
      hp__json_num(j, hp__cell_value(col, &c));
  }
  hp__json_obj_end(j);
}

void hp__peaks_json(hp__json *j, const hp_peaks *pk)
{
  if (pk == NULL) {
    hp__json_null(j);
    return;
  }
  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_PEAKS_DEVICE, pk->device);
  hp__json_kstr(j, HP__K_PEAKS_SOURCE, pk->source);
  hp__json_knum(j, HP__K_PEAKS_BW, pk->bw_gbs);
  hp__json_knum(j, HP__K_PEAKS_FP32, pk->fp32_tflops);
  hp__json_knum(j, HP__K_PEAKS_FP64, pk->fp64_tflops);
  hp__json_knum(j, HP__K_PEAKS_FP16, pk->fp16_tflops);
  hp__json_knum(j, HP__K_PEAKS_BF16, pk->bf16_tflops);
  hp__json_knum(j, HP__K_PEAKS_TF32, pk->tf32_tflops);
  hp__json_knum(j, HP__K_PEAKS_FP8, pk->fp8_tflops);
  hp__json_knum(j, HP__K_PEAKS_INT8, pk->int8_tops);
  hp__json_knum(j, HP__K_PEAKS_FP64M, pk->fp64_matrix_tflops);
  hp__json_kstr(j, HP__K_PEAKS_MSOURCE, pk->matrix_source);
  hp__json_obj_end(j);
}

void hp__roofline_json(hp__json *j, const hp_roofline *r, const hp_peaks *pk)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_key(j, HP__K_ROOFLINE_PEAKS);
  hp__peaks_json(j, r && r->peaks ? r->peaks : pk);
  hp__json_kstr(j, HP__K_ROOFLINE_SOURCE, r ? r->source : NULL);
  hp__json_key(j, HP__K_ROOFLINE_KERNELS);
  hp__json_arr_begin(j);
  for (i = 0; r && i < r->n; i++)
    point_json(j, &r->pts[i]);
  hp__json_arr_end(j);
  hp__json_kint(j, HP__K_ROOFLINE_SKIPPED, r ? (long long)r->skipped : 0);
  hp__json_obj_end(j);
}

int hp__roof_ceilings(hp__buf *b, const hp_peaks *pk, int md)
{
  static const char *const names[] = {"FP32",        "FP64",       "FP16 matrix", "BF16 matrix",
                                      "TF32 matrix", "FP8 matrix", "INT8 matrix", "FP64 matrix"};
  char v[32];
  size_t k;

  if (!hp_peaks_usable(pk))
    return hp__buf_adds(b,
                        md ? "Ceilings: none given, so no bound, roof or efficiency (`hprun "
                             "peaks` measures them; configs/peaks/ has datasheet figures).\n"
                           : "ceilings: none given, so no bound, roof or efficiency (hprun "
                             "peaks measures them; configs/peaks/ has datasheet figures)\n");
  {
    const double f[] = {pk->fp32_tflops, pk->fp64_tflops, pk->fp16_tflops, pk->bf16_tflops,
                        pk->tf32_tflops, pk->fp8_tflops,  pk->int8_tops,   pk->fp64_matrix_tflops};
    hp__buf_printf(b, "%s (%s", md ? "Ceilings" : "ceilings", pk->source ? pk->source : "given");
    if (pk->device && md) {
      hp__buf_adds(b, ", ");
      hp__report_md_cell(b, pk->device);
    } else if (pk->device) {
      hp__buf_printf(b, ", %s", pk->device);
    }
    hp__buf_printf(b, "): bandwidth %s GB/s", hp__fmt_num(v, sizeof(v), pk->bw_gbs));
    for (k = 0; k < sizeof(f) / sizeof(f[0]); k++)
      if (f[k] > 0)
        hp__buf_printf(b, ", %s %s %s", names[k], hp__fmt_num(v, sizeof(v), f[k]),
                       k == 6 ? "TOP/s" : "TFLOP/s");
    if (pk->matrix_source && md) {
      hp__buf_adds(b, "; matrix peaks measured with ");
      hp__report_md_cell(b, pk->matrix_source);
    } else if (pk->matrix_source) {
      hp__buf_printf(b, "; matrix peaks measured with %s", pk->matrix_source);
    }
  }
  return hp__buf_adds(b, md ? ".\n" : "\n");
}
