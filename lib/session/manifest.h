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
 * the value of every secret variable (util/base/secret.h) replaced. Returns 0, HP_ENOMEM, or
 * hp__write_file_at's code (util/sys/fsutil.h: its kind, and why). */
int hp__manifest_write(uv_loop_t *loop, const hp_plan *plan, const hp_session *s,
                       const hp_strv *tools, char **env, int dirfd);

#endif /* HPRUN_SESSION_MANIFEST_H */
