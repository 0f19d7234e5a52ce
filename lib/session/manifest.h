/*
 * manifest.json, what a session needs to be reproduced (lib/session/manifest.c; docs/summary.md).
 * Nothing passed in is kept.
 */
#ifndef HPRUN_SESSION_MANIFEST_H
#define HPRUN_SESSION_MANIFEST_H

#include "hprun.h"
#include "util/base/strv.h"
#include <uv.h>

/* Writes manifest.json into the session folder `dirfd` (util/sys/fsutil.h: hp__write_file_at), with
 * the value of every secret variable (util/base/secret.h) replaced. *gpu_name (malloc'd, the
 * caller's; NULL when none) is the GPU name it recorded as gpu.name, set even when the write
 * failed. Returns 0, HP_ENOMEM, or hp__write_file_at's code (util/sys/fsutil.h: its kind, and
 * why). */
int hp__manifest_write(uv_loop_t *loop, const hp_plan *plan, const hp_session *s,
                       const hp_strv *tools, char **env, int dirfd, char **gpu_name);

/* The GPU's name from the vendor tools' answers to the manifest's probes (either may be NULL):
 * the `name` column of the first GPU of `nvidia-smi --query-gpu=...,name,... --format=csv`, else
 * the first `Card series` of `rocm-smi --showproductname`. malloc'd; NULL when neither names one
 * (or out of memory). */
char *hp__manifest_gpu_name(const char *nvidia_smi, const char *rocm_smi);

#endif /* HPRUN_SESSION_MANIFEST_H */
