/*
 * manifest.json, what a session needs to be reproduced (lib/session/manifest.c; docs/summary.md).
 * Nothing passed in is kept.
 */
#ifndef HPRUN_SESSION_MANIFEST_H
#define HPRUN_SESSION_MANIFEST_H

#include "hprun.h"
#include "util/strv.h"
#include <uv.h>

/* Writes <session>/manifest.json. Returns 0 or an HP_E* code. */
int hp__manifest_write(uv_loop_t *loop, const hp_plan *plan, const hp_session *s,
                       const hp_strv *tools, char **env);

#endif /* HPRUN_SESSION_MANIFEST_H */
