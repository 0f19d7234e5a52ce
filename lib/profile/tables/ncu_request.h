/*
 * What an ncu run asked for, so that the ncu table shows the requested metrics and not every column
 * of ncu's raw page (lib/profile/tables/ncu_request.c). hp_ncu_requested_metrics (public) finds the
 * --metrics of a command line; an hp__ncu_want holds that list ready to match column names.
 *
 * Ownership: hp__ncu_want_init allocates what the want holds; hp__ncu_want_free releases it (also
 * after a failed init) and accepts a zeroed want.
 */
#ifndef HPRUN_PROFILE_NCU_REQUEST_H
#define HPRUN_PROFILE_NCU_REQUEST_H

#include "hprun.h"

#include <regex.h>
#include <stddef.h>

typedef struct hp__ncu_want {
  int all;       /* no list, or an item we cannot match (group:, breakdown:): every metric */
  hp_strv names; /* plain items: a full name, or a base name standing for its rollups */
  regex_t *re;   /* `regex:ERE` items */
  size_t nre;
} hp__ncu_want;

/* Reads a comma-separated --metrics list (NULL or "": want->all). 0 or HP_ENOMEM. An item that is
 * a bad regular expression makes the want match everything rather than nothing. */
int hp__ncu_want_init(hp__ncu_want *w, const char *list);
/* 1 when the column name[0..n) is wanted: equal to an item, a base-name item (no '.') followed by
 * '.' and a rollup (`gpu__time_duration` covers `gpu__time_duration.sum`), or matched by a regex
 * item. */
int hp__ncu_want_match(const hp__ncu_want *w, const char *name, size_t n);
void hp__ncu_want_free(hp__ncu_want *w);

#endif /* HPRUN_PROFILE_NCU_REQUEST_H */
