/*
 * Freeing the compute-sanitizer model (profile/model/san.h). It lives with the model, not with its
 * reader, so that hp_profile_free does not call into the parsers.
 */
#include "profile/model/san.h"

#include <stdlib.h>

void hp__san_free(hp__san *s)
{
  size_t i, k;

  if (s == NULL)
    return;
  for (i = 0; i < s->kinds.n; i++)
    free(s->k[i].example);
  for (i = 0; i < s->kernels.n; i++)
    for (k = 0; k < s->kk[i].kinds.n; k++)
      free(s->kk[i].kinds.v[k]);
  for (i = 0; i < s->nruns; i++)
    free(s->runs[i].file);
  hp__strtab_free(&s->kinds);
  hp__strtab_free(&s->kernels);
  free(s->k);
  free(s->kk);
  free(s->runs);
  free(s);
}
