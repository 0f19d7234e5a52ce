/*
 * The built-in kernel category sets (catsets.h): a set by its name, and the category a set gives
 * a kernel name. Which set a profile uses is chosen in profile.c (hp__profile_pick_catset).
 */
#include "profile/model/catsets.h"

#include <string.h>

const hp__catset *hp__catset_find(const char *name)
{
  size_t i;

  for (i = 0; name && i < hp__ncatsets; i++)
    if (strcmp(hp__catsets[i].name, name) == 0)
      return &hp__catsets[i];
  return NULL;
}

const char *hp__catset_match(const hp__catset *set, const char *name)
{
  size_t i, k;

  for (i = 0; i < set->nrules; i++)
    for (k = 0; k < set->rules[i].npat; k++)
      if (strcasestr(name, set->rules[i].pat[k]))
        return set->rules[i].name;
  return NULL;
}
