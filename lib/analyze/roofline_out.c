/*
 * The roofline's renderings as text: the `roofline` object of summary.json (and of
 * `hprun summarize --roofline --format json`), and the table of `hprun summarize --roofline` in
 * text, Markdown and CSV. One list of columns serves the three table formats, so they cannot
 * disagree; numbers are printed with 6 significant digits like every other hprun table.
 */
#include "analyze/roofline.h"
#include "util/buf.h"
#include "util/fmt.h"

#include <math.h>
#include <string.h>

void hp__peaks_json(hp__json *j, const hp_peaks *pk)
{
  if (pk == NULL) {
    hp__json_null(j);
    return;
  }
  hp__json_obj_begin(j);
  hp__json_kstr(j, "device", pk->device);
  hp__json_kstr(j, "source", pk->source);
  hp__json_knum(j, "peak_bw_gbs", pk->bw_gbs);
  hp__json_knum(j, "peak_fp32_tflops", pk->fp32_tflops);
  hp__json_knum(j, "peak_fp64_tflops", pk->fp64_tflops);
  hp__json_knum(j, "peak_fp16_tflops", pk->fp16_tflops);
  hp__json_knum(j, "peak_bf16_tflops", pk->bf16_tflops);
  hp__json_obj_end(j);
}

void hp__roofline_json(hp__json *j, const hp_roofline *r, const hp_peaks *pk)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_key(j, "peaks");
  hp__peaks_json(j, pk);
  hp__json_kstr(j, "source", r ? r->source : NULL);
  hp__json_key(j, "kernels");
  hp__json_arr_begin(j);
  for (i = 0; r && i < r->n; i++) {
    const hp_roof_point *p = &r->pts[i];
    hp__json_obj_begin(j);
    hp__json_kstr(j, "name", p->kernel);
    hp__json_kint(j, "launches", p->launches);
    hp__json_kstr(j, "precision", p->precision);
    hp__json_knum(j, "flop", p->flop);
    hp__json_knum(j, "bytes", p->bytes);
    hp__json_knum(j, "time_ns", p->time_ns);
    hp__json_knum(j, "intensity", p->ai);
    hp__json_knum(j, "gflops", p->gflops);
    hp__json_knum(j, "gbs", p->gbs);
    hp__json_kstr(j, "bound", hp_bound_name(p->bound));
    hp__json_knum(j, "roof_gflops", p->roof_gflops);
    hp__json_knum(j, "efficiency", p->efficiency);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
  hp__json_knum(j, "skipped", r ? (double)r->skipped : 0);
  hp__json_obj_end(j);
}

enum {
  C_KERNEL,
  C_PREC,
  C_AI,
  C_GFLOPS,
  C_GBS,
  C_BOUND,
  C_ROOF,
  C_EFF,
  C_N
};
static const char *const heads[C_N] = {"kernel", "precision", "FLOP/byte",    "GFLOP/s",
                                       "GB/s",   "bound",     "roof GFLOP/s", "efficiency %"};

/* One cell of point p as text. */
static const char *cell(const hp_roof_point *p, int c, char *buf, size_t len)
{
  switch (c) {
  case C_KERNEL: return p->kernel;
  case C_PREC: return p->precision ? p->precision : "-";
  case C_AI: return hp__fmt_num(buf, len, p->ai);
  case C_GFLOPS: return hp__fmt_num(buf, len, p->gflops);
  case C_GBS: return hp__fmt_num(buf, len, p->gbs);
  case C_BOUND: return hp_bound_name(p->bound);
  case C_ROOF: return hp__fmt_num(buf, len, p->roof_gflops);
  default: return hp__fmt_num(buf, len, p->efficiency * 100);
  }
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static int csv_field(hp__buf *b, const char *s)
{
  int r = 0;

  if (strpbrk(s, ",\"\n\r") == NULL)
    return hp__buf_adds(b, s);
  r |= hp__buf_addc(b, '"');
  for (; *s; s++)
    r |= *s == '"' ? hp__buf_adds(b, "\"\"") : hp__buf_addc(b, *s);
  return r | hp__buf_addc(b, '"');
}

/* The table in text (fixed columns, names cut at 48), Markdown or CSV. */
static int table(hp__buf *b, const hp_roofline *r, hp_format f)
{
  char buf[48];
  size_t i;
  int c, rc = 0;

  for (c = 0; c < C_N; c++)
    rc |= f == HP_FMT_CSV ? hp__buf_printf(b, "%s%s", c ? "," : "", heads[c])
        : f == HP_FMT_MD  ? hp__buf_printf(b, "| %s ", heads[c])
        : c == C_KERNEL   ? hp__buf_printf(b, "%-48s", heads[c])
                          : hp__buf_printf(b, " %12s", heads[c]);
  rc |= hp__buf_adds(b, f == HP_FMT_MD ? "|\n|---|---|--:|--:|--:|---|--:|--:|\n" : "\n");
  for (i = 0; r && i < r->n; i++) {
    for (c = 0; c < C_N; c++) {
      const char *v = cell(&r->pts[i], c, buf, sizeof(buf));
      if (f == HP_FMT_CSV)
        rc |= (c ? hp__buf_addc(b, ',') : 0) | csv_field(b, v);
      else if (f == HP_FMT_MD)
        rc |= hp__buf_printf(b, "| %s ", v);
      else if (c == C_KERNEL)
        rc |= hp__buf_printf(b, "%-48.48s", v);
      else
        rc |= hp__buf_printf(b, " %12s", v);
    }
    rc |= hp__buf_adds(b, f == HP_FMT_MD ? "|\n" : "\n");
  }
  return rc;
}

/* The peaks line of the text and Markdown tables. */
static int peaks_line(hp__buf *b, const hp_peaks *pk)
{
  char bw[32], f32[32], f64[32];

  if (!hp_peaks_usable(pk))
    return hp__buf_adds(b,
                        "peaks: none given (no roof, bound or efficiency; hprun peaks "
                        "measures them, configs/peaks/ has datasheet figures)\n\n");
  return hp__buf_printf(b, "peaks (%s%s%s): %s GB/s, FP32 %s TFLOP/s, FP64 %s TFLOP/s\n\n",
                        pk->source ? pk->source : "given", pk->device ? ", " : "",
                        pk->device ? pk->device : "", hp__fmt_num(bw, sizeof(bw), pk->bw_gbs),
                        hp__fmt_num(f32, sizeof(f32), pk->fp32_tflops),
                        hp__fmt_num(f64, sizeof(f64), pk->fp64_tflops));
}

int hp_roofline_write(const hp_roofline *r, const hp_peaks *peaks, FILE *fp, hp_format f)
{
  hp__buf b = HP__BUF_INIT;
  int rc = 0;

  if (f == HP_FMT_JSON) {
    hp__json j;
    hp__json_init(&j, 1);
    hp__roofline_json(&j, r, peaks);
    rc = hp__json_end(&j);
    if (rc == 0 && j.out.data)
      rc = fputs(j.out.data, fp) < 0 || fputc('\n', fp) == EOF ? HP_EIO : 0;
    hp__json_free(&j);
    return rc;
  }
  if (f != HP_FMT_CSV) {
    rc |= hp__buf_adds(&b, f == HP_FMT_MD ? "## Roofline\n\n" : "Roofline\n\n");
    rc |= peaks_line(&b, peaks);
  }
  rc |= table(&b, r, f);
  if (f != HP_FMT_CSV && (r == NULL || r->n == 0))
    rc |= hp__buf_adds(&b,
                       "(no kernel has FLOP counts, device-memory bytes and a time: profile "
                       "with ncu's roofline metrics or rocprof's SQ_INSTS_VALU_* and "
                       "TCC_EA_* counters; docs/roofline.md)\n");
  if (rc == 0 && b.data && fputs(b.data, fp) < 0)
    rc = HP_EIO;
  hp__buf_free(&b);
  return rc ? (rc == HP_ENOMEM ? rc : HP_EIO) : 0;
}
