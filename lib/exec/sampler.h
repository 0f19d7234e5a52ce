/*
 * The device-memory sampler (lib/exec/sampler.c), exec-internal: callers outside lib/exec
 * include exec/runner.h only. A long-lived command (nvidia-smi, rocm-smi) runs in its own
 * process group beside a child and prints one reading per line; hp__sampler keeps the count,
 * sum and peak of the readings taken while the child lived, and saves the raw output.
 *
 * The struct is the caller's; its handles must stay in place until the loop has closed them,
 * and hp__sampler_free (after the loop has finished) closes the saved file. The argv passed to
 * hp__sampler_start stays the caller's.
 */
#ifndef HPRUN_EXEC_SAMPLER_H
#define HPRUN_EXEC_SAMPLER_H

#include "exec/output.h"
#include <uv.h>

typedef struct hp__sampler {
  uv_process_t proc;
  hp__output out;        /* its stdout: raw output saved to out.fd (set by the caller), or not */
  uv_timer_t kill_timer; /* SIGKILL to its group 1 s after the SIGTERM */
  double scale;          /* multiplies each reading to give MiB; <= 0: 1 */
  int running;           /* its process has not exited */
  int done;              /* the child has ended: readings from now on are ignored */
  int error;             /* 0, or the negative libuv code that kept it from starting */
  long samples;          /* readings taken */
  double sum;            /* of the readings, MiB */
  double peak;           /* MiB; NaN while there is none */
} hp__sampler;

/* Empties *s: no readings, no file, not running. */
void hp__sampler_init(hp__sampler *s, double scale);
/* Starts argv (argv->v[0] looked up on env's PATH) in a new process group with the environment
 * `env` (NULL: hprun's), its stdout read into *s. Returns 0, or HP_ESPAWN with the libuv code in
 * s->error (its handles are closing then). */
int hp__sampler_start(hp__sampler *s, uv_loop_t *loop, const hp_strv *argv, char **env);
/* The child ended: ignores later readings and stops the sampler's group, SIGTERM then SIGKILL
 * after 1 s. Safe to call when it never started. */
void hp__sampler_stop(hp__sampler *s);
/* Adds one reading of `mib` while the child lives (ignored once it has ended). */
void hp__sampler_add(hp__sampler *s, double mib);
/* Reads an amdgpu sysfs memory file (`mem_info_vram_used`: one number, bytes) as MiB: 0, or
 * HP_EIO when it cannot be read or holds no number. No process is started. */
int hp__sampler_read_vram(const char *path, double *mib);
/* Closes the saved file; 0, or the errno of its first failed write or of the close. */
int hp__sampler_finish(hp__sampler *s);
/* Closes the saved file (if hp__sampler_finish did not) and frees the partial line. Accepts
 * NULL. */
void hp__sampler_free(hp__sampler *s);

/* One line's reading: the line's last number times `scale` (<= 0: 1), so `nvidia-smi` ("2048")
 * and `rocm-smi --csv` ("card0,<total>,<used>") both work. The number is the run of digits and
 * dots that ends at the line's last digit. 0 with *mib set, or HP_EPARSE when the line holds no
 * digit (a header). */
int hp__sampler_reading(const char *line, size_t n, double scale, double *mib);

#endif /* HPRUN_EXEC_SAMPLER_H */
