/*
 * Choosing a built-in kernel category set for a profile that was given no rules of its own. The
 * profiler says which stack a program ran on: ncu and compute-sanitizer only run on NVIDIA
 * GPUs, hipprof, rocprof and rocprofv3 only on AMD and Hygon ones, so their files choose the CUDA
 * or the ROCm set. When the files do not say (no file yet, or files of both kinds), the kernel
 * names do: the set that leaves less kernel time (or fewer kernels) in "other" wins, ROCm on a
 * tie, as hprun's first users profile DCUs. The choice is made again after every file added, so
 * it always reflects everything read.
 */
#include "profile/model/catsets.h"
#include "profile/model/profile.h"

#include <string.h>

const hp__catset *hp__catset_find(const char *name)
{
  size_t i;

  for (i = 0; name && i < hp__ncatsets; i++)
    if (strcmp(hp__catsets[i].name, name) == 0)
      return &hp__catsets[i];
  return NULL;
}

/* 1 for a profiler of NVIDIA GPUs, 2 for one of AMD/Hygon GPUs, 0 when the format does not say. */
static int format_stack(const char *fmt)
{
  static const char *const cuda[] = {"ncu", "sanitizer", "compute-sanitizer", "nsys"};
  static const char *const rocm[] = {"hipprof", "rocprof", "pmc", "dtk"};
  size_t i;

  for (i = 0; i < sizeof(cuda) / sizeof(cuda[0]); i++)
    if (strncmp(fmt, cuda[i], strlen(cuda[i])) == 0)
      return 1;
  for (i = 0; i < sizeof(rocm) / sizeof(rocm[0]); i++)
    if (strncmp(fmt, rocm[i], strlen(rocm[i])) == 0)
      return 2;
  return 0;
}

/* Kernel time (or, without times, kernels) that `set` leaves in "other". */
static double other_share(const hp_profile *p, const hp__catset *set)
{
  const hp__ttable *t = &p->t[HP__T_KERNEL];
  const hp__strtab *names = t->names.n ? &t->names : &p->ncu_names;
  double other = 0;
  size_t i;

  if (names->n == 0)
    names = &p->pmc_names;
  for (i = 0; i < names->n; i++)
    if (hp__catset_match(set, names->s[i]) == NULL)
      other += names == &t->names ? t->st[i].total_ns : 1.0;
  return other;
}

int hp__profile_pick_catset(hp_profile *p)
{
  const hp__catset *cuda = hp__catset_find("cuda"), *rocm = hp__catset_find("rocm"), *pick;
  int seen[3] = {0, 0, 0};
  size_t i;

  if (!p->cat_auto)
    return 0;
  for (i = 0; i < p->nfiles; i++)
    seen[format_stack(p->files[i].format)] = 1;
  if (seen[1] != seen[2]) {
    pick = seen[1] ? cuda : rocm;
    p->cat_why = "profiler";
  } else {
    pick = other_share(p, cuda) < other_share(p, rocm) ? cuda : rocm;
    p->cat_why = "kernel names";
  }
  if (pick == p->catset)
    return 0;
  return hp__profile_use_catset(p, pick);
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
