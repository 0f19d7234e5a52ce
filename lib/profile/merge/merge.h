/*
 * Merging profiles (lib/profile/merge/merge.c, merge_lists.c): every file is read into its own
 * profile (on whichever thread, lib/profile/scan.c), and the per-file profiles are merged into the
 * caller's, one after the other, in the order of the files. The merge is the only way files are
 * combined, also with one thread, so the result does not depend on the number of threads. The
 * contract (what each table's merge does, and why it gives what one pass over every file gave) is
 * in docs/internals/merge.md.
 *
 * Ownership: hp__profile_merge copies what it keeps from `src`; `src` stays the caller's and
 * unchanged. After an HP_ENOMEM `dst` is consistent (hp_profile_free releases it) but incomplete.
 */
#ifndef HPRUN_PROFILE_MERGE_H
#define HPRUN_PROFILE_MERGE_H

#include "profile/model/profile.h"

/* A new empty profile for reading one file into: the defaults, with `like`'s runtime-frame
 * markers (the only setting a parser reads). 0 or HP_ENOMEM (*out is NULL). */
int hp__profile_new_like(const hp_profile *like, hp_profile **out);

/* Adds everything `src` holds to `dst`, as if src's files had been read into `dst` after its own:
 * counts add, names keep the order they were first seen in, row numbers of `src` come after those
 * of `dst`, the capped lists keep what one pass would have kept. Sums of doubles are added with a
 * compensation (Neumaier's), kept in `dst` until hp__profile_merge_end. 0 or HP_ENOMEM. */
int hp__profile_merge(hp_profile *dst, const hp_profile *src);

/* The same for the next range of a split file (chunk.c): src's file is dst's last file going on,
 * so a time-table entry both fed counts as one source, and the file count does not grow. */
int hp__profile_merge_range(hp_profile *dst, const hp_profile *src);

/* Adds b's distinct values and row counts to a's (merge_lists.c). 0 or HP_ENOMEM. */
int hp__vals_merge(hp__vals *a, const hp__vals *b);

/* The lists part of hp__profile_merge (merge_lists.c): leak checks, agents, files read, the
 * profiled span and the compute-sanitizer report. 0 or HP_ENOMEM. */
int hp__merge_lists(hp_profile *dst, const hp_profile *src);

/* Folds the compensations into the sums; call it after the last merge, before reading `dst`. */
void hp__profile_merge_end(hp_profile *dst);

/* One compensated addition: *s + *c is the running sum, close to the exact sum of every x added
 * (Neumaier's variant of Kahan's summation). With whole numbers below 2^53, *c stays 0 and *s is
 * the exact sum. Exposed for the unit tests. */
void hp__csum_add(double *s, double *c, double x);
/* The compensated sum's value. */
double hp__csum_value(double s, double c);

#endif /* HPRUN_PROFILE_MERGE_H */
