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

/* summary.json: the members both kinds open with, then the sweep's or the session's. */
int hp_report_json(const hp_session *s, char **out)
{
  hp__json j;
  int r;

  *out = NULL;
  hp__json_init(&j, 1);
  hp__json_obj_begin(&j);
  hp__summary_head_json(&j, s);
  if (s->ncombos)
    hp__sweep_json(&j, s);
  else
    hp__summary_json(&j, s);
  hp__json_obj_end(&j);
  if ((r = hp__json_end(&j)) == 0 && (*out = hp__buf_steal(&j.out)) == NULL)
    r = HP_ENOMEM;
  hp__json_free(&j);
  return r;
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
