/*
 * The public entry points that take a session or a parameter sweep (lib/include/hprun_session.h),
 * each of which hands a sweep (s->ncombos > 0) to the sweep's renderer and any other session to
 * the session's. They live here, above both renderers, because a sweep's renderer renders its
 * combinations with the session's: no renderer calls back into a file that calls it.
 */
#include "report/json/summary.h"
#include "report/json/summary_keys.h"

#include <stdlib.h>

int hp_report_json(const hp_session *s, char **out)
{
  return s->ncombos ? hp__sweep_json(s, out) : hp__summary_json(s, out);
}

/* A parameter sweep's file lists its combinations, each a session of its own. */
int hp_session_load(const char *path, hp_session **out, hp_diags *diags)
{
  char *file = NULL;
  hp__jv *root = NULL;
  int r;

  *out = NULL;
  if ((r = hp__summary_parse(path, &file, &root, diags)) == 0)
    r = hp__jv_get(root, HP__K_SESSION_SWEEP) ? hp__sweep_load(file, root, out, diags)
                                              : hp__summary_load(file, root, out, diags);
  hp__jv_free(root);
  free(file);
  return r;
}
