/*
 * Reading a parameter sweep back (hprun report, hprun compare): the sweep's summary.json names
 * its combinations, and each one that ran is read from its own folder beside the file as any
 * session is (summary_read.c). The sweep's judgement is then taken again from theirs
 * (lib/analyze/sweep.c), which is how it was made: a combination's stored judgement is what its
 * run said, so the sweep's says the same.
 *
 * As with every summary.json, nothing is trusted: a combination's name must be a plain folder
 * name inside the sweep's folder (no '/', not "." or ".."), so that a file cannot send the reader
 * elsewhere; the first bad member refuses the whole file with one message naming it.
 */
#include "analyze/results.h"
#include "analyze/sweep.h"
#include "report/json/plan_copy.h"
#include "report/json/summary_field.h"
#include "report/json/summary.h"
#include "report/core/summary_keys.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Item i of sweep.combinations into cb; the ones that ran are read from <dir>/<name>. */
static int load_combo(const hp__sf *sc, size_t i, const char *dir, hp_combo *cb, hp_diags *diags)
{
  char *folder, *file = NULL;
  hp__jv *root = NULL;
  hp__sf cc;
  int ran, r;

  if ((r = hp__sf_item(sc, HP__K_SWEEP_COMBINATIONS, i, &cc)) != 0 ||
      (r = hp__sf_str(&cc, HP__K_COMBO_NAME, HP__SF_REQUIRED, &cb->name)) != 0 ||
      (r = hp__summary_read_params(&cc, HP__K_COMBO_PARAMETERS, &cb->params, &cb->nparams)) != 0 ||
      (r = hp__sf_bool(&cc, HP__K_COMBO_RAN, &ran)) != 0)
    return r;
  if (!cb->name[0] || strchr(cb->name, '/') || !strcmp(cb->name, ".") || !strcmp(cb->name, ".."))
    return hp__sf_fail(&cc, HP__K_COMBO_NAME, "\"%s\" is not a folder name inside the sweep",
                       cb->name);
  if (!ran)
    return 0;
  if ((folder = hp__path_join(dir, cb->name)) == NULL)
    return HP_ENOMEM;
  r = hp__summary_parse(folder, &file, &root, diags);
  free(folder);
  /* A combination is a session: a sweep inside a sweep is refused before it is read. */
  if (r == 0 && hp__jv_get(root, HP__K_SESSION_SWEEP) != NULL)
    r = hp__sf_fail(&cc, HP__K_COMBO_NAME, "\"%s\" is a sweep itself", cb->name);
  else if (r == 0)
    r = hp__summary_load(file, root, &cb->s, diags);
  hp__jv_free(root);
  free(file);
  return r;
}

/* The sweep's own members, then its combinations. */
static int load_sweep(const hp__sf *rc, const char *dir, hp_session *s, hp_diags *diags)
{
  const hp__jv *combos;
  hp__sf sc;
  size_t i;
  int r;

  if ((r = hp__sf_int(rc, HP__K_SESSION_SCHEMA, HP__SF_REQUIRED, 1, INT_MAX, &s->schema)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_NAME, HP__SF_REQUIRED, &s->name)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_VERSION, HP__SF_OPTIONAL, &s->hprun_version)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_PLAN, HP__SF_OPTIONAL, &s->plan_file)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_ERROR, HP__SF_OPTIONAL, &s->error)) != 0 ||
      (r = hp__sf_bool(rc, HP__K_SESSION_INTERRUPTED, &s->interrupted)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_STARTED, HP__SF_OPTIONAL, &s->started)) != 0 ||
      (r = hp__sf_str(rc, HP__K_SESSION_FINISHED, HP__SF_OPTIONAL, &s->finished)) != 0 ||
      (r = hp__sf_object(rc, HP__K_SESSION_SWEEP, HP__SF_REQUIRED, &sc)) != 0 ||
      (r = hp__sf_array(&sc, HP__K_SWEEP_COMBINATIONS, HP__SF_REQUIRED, &combos)) != 0)
    return r;
  if (hp__jv_len(combos) == 0 || hp__jv_len(combos) > HP_MAX_COMBINATIONS)
    return hp__sf_fail(&sc, HP__K_SWEEP_COMBINATIONS, "%zu combinations (a sweep has 1 to %d)",
                       hp__jv_len(combos), HP_MAX_COMBINATIONS);
  if ((s->combos = calloc(hp__jv_len(combos), sizeof(*s->combos))) == NULL)
    return HP_ENOMEM;
  s->ncombos = hp__jv_len(combos);
  for (i = 0; i < s->ncombos; i++)
    if ((r = load_combo(&sc, i, dir, &s->combos[i], diags)) != 0)
      return r;
  for (i = 0; i < s->ncombos; i++)
    if (s->combos[i].s) {
      s->alpha = s->combos[i].s->alpha;
      s->repeat = s->combos[i].s->repeat;
      s->warmup = s->combos[i].s->warmup;
      break;
    }
  return hp__sweep_judge(s);
}

int hp__sweep_load(const char *file, const hp__jv *root, hp_session **out, hp_diags *diags)
{
  hp_session *s = calloc(1, sizeof(*s));
  hp_plan *plan = NULL;
  hp__sf rc;
  int r;

  *out = NULL;
  if (s == NULL)
    return HP_ENOMEM;
  /* Through <name>-latest, the sweep is the folder the link points at now. */
  if ((r = hp__summary_folder(file, &s->dir)) != 0)
    goto fail;
  hp__sf_root(&rc, root, file, diags);
  /* The plan's hash, for hprun compare's same-plan check, comes from plan.yaml beside the file. */
  if ((r = load_sweep(&rc, s->dir, s, diags)) != 0 ||
      (r = hp__session_plan_copy(s, &plan, diags)) != 0)
    goto fail;
  *out = s;
  s = NULL;

fail:
  hp_plan_free(plan);
  hp_session_free(s);
  return r;
}
