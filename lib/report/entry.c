/*
 * The public entry points that take a session or a parameter sweep (lib/include/hprun_session.h),
 * each of which hands a sweep (s->ncombos > 0) to the sweep's renderer and any other session to
 * the session's. They live here, above both renderers, because a sweep's renderer renders its
 * combinations with the session's: no renderer calls back into a file that calls it.
 */
#include "report/json/summary.h"
#include "report/core/summary_keys.h"
#include "report/md/markdown.h"
#include "report/term/term.h"

#include <stdlib.h>

int hp_report_json(const hp_session *s, char **out)
{
  return s->ncombos ? hp__sweep_json(s, out) : hp__summary_json(s, out);
}

int hp_report_markdown(const hp_session *s, char **out)
{
  return s->ncombos ? hp__sweep_markdown(s, out) : hp__md_session(s, out);
}

void hp_report_table_bars(const hp_session *s, FILE *fp, int bars)
{
  if (s->ncombos)
    hp__term_sweep(s, fp);
  else
    hp__term_session(s, fp, bars);
}

int hp_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
               char **md, size_t *failures)
{
  if (old_s->ncombos || new_s->ncombos)
    return hp__sweep_compare(old_s, new_s, o, md, failures);
  return hp__compare_md(old_s, new_s, o, md, failures);
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
