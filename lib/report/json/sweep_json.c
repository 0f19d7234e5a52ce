/*
 * A parameter sweep's summary.json (a combination's own summary.json says which combination it is:
 * summary_json.c). The sweep's file lists the parameters and the combinations: each one's values,
 * folder, whether it ran and is complete, its exit code, and every pass's primary-metric overhead
 * with its interval and flag, so that a script sees how a profiler's overhead depends on the
 * parameters without opening the combinations' files. Everything else of a combination is in its
 * own summary.json, in its folder. docs/summary.md describes the keys (lib/report/core/summary_keys.h).
 */
#include "analyze/sweep.h"
#include "report/core/report.h"
#include "report/json/summary.h"
#include "report/core/summary_keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* sweep.parameters: each parameter with its values, in the order the combinations take them. */
static void write_param_list(hp__json *j, const hp_session *s)
{
  const hp_combo *first = s->ncombos ? &s->combos[0] : NULL;
  size_t i, k, m;

  hp__json_key(j, HP__K_SWEEP_PARAMETERS);
  hp__json_arr_begin(j);
  for (i = 0; first && i < first->nparams; i++) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, HP__K_PARAM_NAME, first->params[i].key);
    hp__json_key(j, HP__K_PARAM_VALUES);
    hp__json_arr_begin(j);
    for (k = 0; k < s->ncombos; k++) {
      const char *v = i < s->combos[k].nparams ? s->combos[k].params[i].value : NULL;
      for (m = 0; v && m < k; m++)
        if (i < s->combos[m].nparams && strcmp(s->combos[m].params[i].value, v) == 0)
          break;
      if (v && m == k)
        hp__json_str(j, v);
    }
    hp__json_arr_end(j);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
}

/* One pass of a combination: its flag and its primary metric's overhead. */
static void write_cpass(hp__json *j, const hp_pass_result *pr)
{
  const hp_metric_result *m = pr->nmetrics ? &pr->metrics[0] : NULL;
  int ref = pr->is_baseline || pr->is_reference;

  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_CPASS_NAME, pr->name);
  hp__json_kbool(j, HP__K_CPASS_BASELINE, pr->is_baseline);
  hp__json_kstr(j, HP__K_CPASS_FLAG, hp_flag_name(pr->flag));
  hp__json_knum(j, HP__K_CPASS_RATIO, m && !ref ? m->ratio : NAN);
  hp__json_key(j, HP__K_CPASS_CI95);
  hp__json_arr_begin(j);
  hp__json_num(j, m && !ref ? m->ci_lo : NAN);
  hp__json_num(j, m && !ref ? m->ci_hi : NAN);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

static void write_combo(hp__json *j, const hp_combo *cb)
{
  const hp_metric_result *pm = cb->s ? hp__report_primary(cb->s) : NULL;
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_COMBO_NAME, cb->name);
  hp__json_kstr(j, HP__K_COMBO_FOLDER, cb->name);
  hp__json_key(j, HP__K_COMBO_PARAMETERS);
  hp__summary_params_json(j, cb->params, cb->nparams);
  hp__json_kbool(j, HP__K_COMBO_RAN, cb->s != NULL);
  hp__json_kbool(j, HP__K_COMBO_COMPLETE, cb->s && cb->s->complete);
  hp__json_kint(j, HP__K_COMBO_EXIT_CODE, hp__combo_exit_code(cb));
  hp__json_kstr(j, HP__K_COMBO_METRIC, pm ? pm->name : NULL);
  hp__json_key(j, HP__K_COMBO_PASSES);
  hp__json_arr_begin(j);
  for (i = 0; cb->s && i < cb->s->npasses; i++)
    write_cpass(j, &cb->s->passes[i]);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

void hp__sweep_json(hp__json *j, const hp_session *s)
{
  size_t i;

  hp__json_key(j, HP__K_SESSION_SWEEP);
  hp__json_obj_begin(j);
  write_param_list(j, s);
  hp__json_key(j, HP__K_SWEEP_COMBINATIONS);
  hp__json_arr_begin(j);
  for (i = 0; i < s->ncombos; i++)
    write_combo(j, &s->combos[i]);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}
