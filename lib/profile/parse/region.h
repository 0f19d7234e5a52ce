/*
 * `app.region` for rocprofv3 (lib/profile/parse/region.c): reading the spans of the roctx range
 * NAME from the marker traces (`<pid>_marker_api_trace.csv`, rocprofv3 --marker-trace), and
 * counting the kernel dispatches inside them, before any table is built. The region itself (its
 * spans, the test whether a dispatch lies inside one, who owns it) is the model's:
 * profile/model/region.h. The contract and its evidence are in docs/summarize.md ("Regions").
 */
#ifndef HPRUN_PROFILE_REGION_H
#define HPRUN_PROFILE_REGION_H

#include "hprun.h"
#include "profile/model/region.h"
#include "profile/parse/detect.h"

#include <stddef.h>

/* Reads the spans of rg->name from the marker traces among `paths` (by name: detection ignores
 * them), then counts the dispatches of the kernel traces among them (fmt[i] HP__F_V3_KTRACE, as
 * detected for the parser, so that both read the same files) inside and outside the spans, and sets
 * rg->state: HP_REGION_APPLIED, HP_REGION_NOT_FOUND (no marker row has the name) or HP_REGION_EMPTY
 * (the spans hold no dispatch). Anything but APPLIED gets the loud warning in `diags`. 0 or
 * HP_ENOMEM. */
int hp__region_prepare(hp__region *rg, char *const *paths, const hp__fmt *fmt, size_t n,
                       hp_diags *diags);

#endif /* HPRUN_PROFILE_REGION_H */
