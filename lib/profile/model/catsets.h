/*
 * The built-in kernel category sets: one per software stack (CUDA, ROCm/DTK, and the article's
 * PyTorch-on-DCU rules), each the rules of one file in configs/categories/. The table is generated
 * from those files (catsets_data.c, by scripts/gen-catsets.py) and a unit test checks they agree.
 * profile.c chooses a set for a profile that was given no rules of its own: by the profilers
 * whose files it read, else by which set leaves less kernel time uncategorised.
 *
 * Everything here is static data; nothing is allocated.
 */
#ifndef HPRUN_PROFILE_CATSETS_H
#define HPRUN_PROFILE_CATSETS_H

#include <stddef.h>

typedef struct hp__catset_rule {
  const char *name;
  const char *const *pat; /* as written in the YAML file; matching lowercases them */
  size_t npat;
} hp__catset_rule;

typedef struct hp__catset {
  const char *name; /* "cuda", "rocm", "pytorch": configs/categories/NAME.yaml */
  const char *what; /* one line for --help and the docs */
  const hp__catset_rule *rules;
  size_t nrules;
} hp__catset;

extern const hp__catset hp__catsets[];
extern const size_t hp__ncatsets;

/* The set called `name`, or NULL. */
const hp__catset *hp__catset_find(const char *name);
/* The category `set` gives `name` (the first rule with a case-insensitive substring match), or
 * NULL for "other". */
const char *hp__catset_match(const hp__catset *set, const char *name);

#endif /* HPRUN_PROFILE_CATSETS_H */
