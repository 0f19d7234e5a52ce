/*
 * `app.region` in the profile model (lib/profile/model/region.c): the spans of the roctx range
 * NAME and the test whether a kernel dispatch lies inside one of them. Why a dispatch must lie
 * inside ONE span (never the bounding window of several processes' spans) is in docs/summarize.md
 * ("Regions"); the spans are read by hp__region_prepare (profile/parse/region.h).
 *
 * An hp_profile owns its hp__region (profile->region); the per-file profiles of
 * hp_profile_add_paths borrow it (profile->region_borrowed) while the files are read.
 */
#ifndef HPRUN_PROFILE_MODEL_REGION_H
#define HPRUN_PROFILE_MODEL_REGION_H

#include "hprun.h"

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

#endif /* HPRUN_PROFILE_MODEL_REGION_H */
