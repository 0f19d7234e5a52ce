/*
 * The profile writers' interface to the layers above (lib/profile/tables/profile_out.c and the
 * table model in lib/profile/tables/table.h): the JSON object a session embeds in summary.json, and
 * the kernel categories computed on demand. profile/model/profile.h (the data model) does not
 * include this file: the writers sit above the model, never the other way round.
 *
 * Ownership: nothing is kept from the arguments. hp__profile_categories hands its array to the
 * caller (free() it), also NULL with *n == 0 on failure.
 */
#ifndef HPRUN_PROFILE_OUT_H
#define HPRUN_PROFILE_OUT_H

#include "hprun.h"
#include "util/json/json.h"

/* Writes ONE JSON object value describing the profile (keys in docs/summarize.md), so a session
 * can embed it. `o` may be NULL (every row). Returns 0 or the writer's first error. */
int hp__profile_json(const hp_profile *p, hp__json *j, const hp_profile_opts *o);

/* A category's totals, computed from the kernel table on demand. */
typedef struct hp__catstat {
  const char *name; /* points into the rules, or "other" */
  long long calls;
  double total_ns;
  double percent;
} hp__catstat;

/* Classifies every kernel: *out is a malloc'd array of *n categories sorted by total time
 * (free() it). HP_ENOMEM leaves *out NULL. */
int hp__profile_categories(const hp_profile *p, hp__catstat **out, size_t *n);

/* The hint every report gives when `other` holds more than 10% of the kernel time: *head, one
 * line with that share and the five largest uncategorised kernels by time (each as the pattern a
 * rule would use), and *yaml, a `categories:` list to paste into a plan: the rules in use, then
 * one new category with those patterns. Both malloc'd (the caller frees them), NULL when there
 * is no hint. Returns 0 or HP_ENOMEM. */
int hp__profile_other_hint(const hp_profile *p, char **head, char **yaml);

#endif /* HPRUN_PROFILE_OUT_H */
