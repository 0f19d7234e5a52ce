/*
 * `app.region` for rocprofv3 (lib/profile/parse/region.c): the spans of the roctx range NAME in the
 * marker traces (`<pid>_marker_api_trace.csv`, rocprofv3 --marker-trace) and the test whether a
 * kernel dispatch lies inside one of them. The contract, its evidence and why a dispatch must lie
 * inside ONE span (never the bounding window of several processes' spans) are in
 * docs/summarize.md ("Regions").
 *
 * An hp_profile owns its hp__region (profile->region); the per-file profiles of
 * hp_profile_add_paths borrow it (profile->region_borrowed) while the files are read.
 */
#ifndef HPRUN_PROFILE_REGION_H
#define HPRUN_PROFILE_REGION_H

#include "hprun.h"
#include "profile/parse/detect.h"

#include <stddef.h>

typedef struct hp__region {
  char *name;       /* the roctx message, matched exactly (owned) */
  long long *s, *e; /* the spans, sorted by start */
  long long *emax;  /* emax[i]: the largest end among spans 0..i */
  size_t n, cap;
  size_t marker_files;   /* marker traces read */
  long long kept, total; /* kernel dispatches inside a span / in the kernel traces */
  int state;             /* HP_REGION_* (hprun_profile.h) */
} hp__region;

/* A new region for roctx message `name` (copied). 0 or HP_ENOMEM. */
int hp__region_new(const char *name, hp__region **out);
/* Frees a region; accepts NULL. */
void hp__region_free(hp__region *rg);
/* Adds one span; 0 or HP_ENOMEM. Call hp__region_sort after the last one. */
int hp__region_add(hp__region *rg, long long start, long long end);
/* Sorts the spans and builds emax. */
void hp__region_sort(hp__region *rg);
/* 1 when [begin, end] lies inside one span (start <= begin and end <= that span's end). */
int hp__region_contains(const hp__region *rg, long long begin, long long end);

/* Reads the spans of rg->name from the marker traces among `paths` (by name: detection ignores
 * them), then counts the dispatches of the kernel traces among them (fmt[i] HP__F_V3_KTRACE, as
 * detected for the parser, so that both read the same files) inside and outside the spans, and
 * sets rg->state:
 * HP_REGION_APPLIED, HP_REGION_NOT_FOUND (no marker row has the name) or HP_REGION_EMPTY (the
 * spans hold no dispatch). Anything but APPLIED gets the loud warning in `diags`. 0 or HP_ENOMEM. */
int hp__region_prepare(hp__region *rg, char *const *paths, const hp__fmt *fmt, size_t n,
                       hp_diags *diags);

#endif /* HPRUN_PROFILE_REGION_H */
