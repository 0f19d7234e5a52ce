/*
 * `hprun peaks`: runs the ceilings microbenchmark (hip/roofline_peaks.hip, or any program that
 * prints the same `peak_bw_gbs=... peak_fp32_tflops=...` line) as one child process on libuv, like
 * every process hprun starts, and turns its last result line into peaks. The run's output is
 * captured, never parsed from a shell.
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
  spec = (hp__child_spec){.argv = &v, .capture = &cap, .timeout_s = timeout_s};
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
