/*
 * `hprun peaks`: runs the ceilings microbenchmark (hip/roofline_peaks.hip, or any program that
 * prints the same `peak_bw_gbs=... peak_fp32_tflops=...` line) as one child process on libuv, like
 * every process hprun starts, and turns its last result line into peaks. The run's output is
 * captured (and echoed to stderr), never parsed from a shell.
 */
#include "exec/runner.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <stdlib.h>
#include <string.h>

/* The last line of text that holds a `peak_` field, copied into *line. */
static int last_peaks_line(const char *text, char **line)
{
  const char *p = text, *best = NULL, *end;

  for (; p && *p; p = end + (*end != '\0')) {
    end = strchr(p, '\n');
    if (end == NULL)
      end = p + strlen(p);
    if (memmem(p, (size_t)(end - p), "peak_", 5))
      best = p;
  }
  if (best == NULL)
    return HP_ENOENT;
  end = strchr(best, '\n');
  *line = hp__strndup(best, end ? (size_t)(end - best) : strlen(best));
  return *line ? 0 : HP_ENOMEM;
}

int hp_peaks_measure(const char *const *argv, double timeout_s, hp_peaks *out, char **output,
                     hp_diags *diags)
{
  hp__buf cap = HP__BUF_INIT;
  hp_strv v = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  uv_loop_t loop;
  char *line = NULL;
  size_t i;
  int r;

  hp_peaks_init(out);
  *output = NULL;
  for (i = 0; argv[i]; i++)
    hp__strv_push(&v, argv[i]);
  if ((r = hp__strv_error(&v)) != 0 || uv_loop_init(&loop)) {
    hp_strv_free(&v);
    return r ? HP_ENOMEM : HP_EIO;
  }
  /* Its output is echoed to stderr as it comes: the run takes minutes, and why a precision was
   * not measured (or the program failed) is said on its stderr. */
  spec = (hp__child_spec){
      .argv = &v, .capture = &cap, .timeout_s = timeout_s, .echo = stderr, .prefix = "  "};
  r = hp__child_run(&loop, &spec, &res);
  uv_loop_close(&loop);
  hp__exec_shutdown();
  hp_strv_free(&v);
  if (r == HP_ESPAWN)
    hp_diags_add(diags, HP_DIAG_ERROR, argv[0], 0, 0, "cannot run it: %s",
                 uv_strerror(res.spawn_error));
  else if (r == 0 && (res.exit_status != 0 || res.term_signal || res.timed_out)) {
    hp_diags_add(diags, HP_DIAG_ERROR, argv[0], 0, 0, "%s (exit status %lld, signal %d)",
                 res.timed_out ? "timed out" : "failed", res.exit_status, res.term_signal);
    r = HP_ERUN;
  }
  if (r == 0 && (r = last_peaks_line(cap.data ? cap.data : "", &line)) == HP_ENOENT)
    hp_diags_add(diags, HP_DIAG_ERROR, argv[0], 0, 0,
                 "printed no line with peak_bw_gbs=... peak_fp32_tflops=...");
  if (r == 0 && (r = hp_peaks_parse_line(line, out)) == 0 && out->source == NULL &&
      (out->source = hp__strdup("measured")) == NULL)
    r = HP_ENOMEM;
  free(line);
  *output = hp__buf_steal(&cap);
  return r;
}

/* The matrix figures of p, in the order of their names below. */
static void matrix_figures(hp_peaks *p, double *f[6])
{
  f[0] = &p->bf16_tflops;
  f[1] = &p->fp16_tflops;
  f[2] = &p->tf32_tflops;
  f[3] = &p->fp8_tflops;
  f[4] = &p->int8_tops;
  f[5] = &p->fp64_matrix_tflops;
}

int hp_peaks_merge_vendor(hp_peaks *pk, const hp_peaks *vendor, const char *hand)
{
  static const char *const names[] = {"bf16", "fp16", "tf32", "fp8", "int8", "fp64"};
  hp_peaks v = *vendor; /* a shallow copy, for matrix_figures() */
  hp__buf b = HP__BUF_INIT;
  double *mine[6], *theirs[6];
  const char *who[2];
  int from[6], s, k, n;

  who[0] = vendor->matrix_source ? vendor->matrix_source : "vendor GEMM";
  who[1] = pk->matrix_source ? pk->matrix_source : hand;
  matrix_figures(pk, mine);
  matrix_figures(&v, theirs);
  /* Both are measured on this GPU, so the higher is the attainable roof; -1: neither has it. */
  for (k = 0; k < 6; k++) {
    from[k] = *theirs[k] > 0 ? (*mine[k] > *theirs[k] ? 1 : 0) : (*mine[k] > 0 ? 1 : -1);
    if (from[k] == 0)
      *mine[k] = *theirs[k];
  }
  /* "cuBLASLt (bf16, fp16, tf32, fp8); roofline_peaks (fp64)": which program gave each one. */
  for (s = 0; s < 2; s++) {
    for (k = 0, n = 0; k < 6; k++)
      if (from[k] == s) {
        if (n++ == 0)
          hp__buf_printf(&b, "%s%s (", b.len ? "; " : "", who[s]);
        hp__buf_printf(&b, "%s%s", n > 1 ? ", " : "", names[k]);
      }
    if (n)
      hp__buf_addc(&b, ')');
  }
  if (b.len == 0) {
    hp__buf_free(&b);
    return 0;
  }
  free(pk->matrix_source);
  pk->matrix_source = hp__buf_steal(&b);
  return pk->matrix_source ? 0 : HP_ENOMEM;
}
