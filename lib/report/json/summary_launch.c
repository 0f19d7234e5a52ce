/*
 * summary.json's `launch` (per run) and `ranks` (per pass) members: written and read here
 * (summary_launch.h says why together). A rank's values are keyed by metric name like a run's.
 */
#include "report/json/summary_launch.h"
#include "exec/launch.h"
#include "report/core/summary_keys.h"
#include "util/base/buf.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

static void write_rank(hp__json *j, const hp_rank *rk, const hp_pass_result *pr)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kint(j, HP__K_RANK_RANK, rk->rank);
  hp__json_kbool(j, HP__K_RANK_PROFILED, rk->profiled);
  hp__json_key(j, HP__K_RANK_EXIT_STATUS);
  if (rk->exit_status < 0)
    hp__json_null(j);
  else
    hp__json_int(j, rk->exit_status);
  hp__json_kstr(j, HP__K_RANK_HOST, rk->host);
  hp__json_key(j, HP__K_RANK_VALUES);
  hp__json_obj_begin(j);
  for (i = 0; i < pr->nmetrics; i++)
    hp__json_knum(j, pr->metrics[i].name ? pr->metrics[i].name : "?",
                  rk->values ? rk->values[i] : NAN);
  hp__json_obj_end(j);
  hp__json_obj_end(j);
}

void hp__summary_write_launch(hp__json *j, const hp_run *r, const hp_pass_result *pr)
{
  const hp_run_launch *rl = r->launch;
  size_t i;

  if (rl == NULL)
    return;
  hp__json_key(j, HP__K_RUN_LAUNCH);
  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_LAUNCH_KIND, rl->kind);
  hp__json_kstr(j, HP__K_LAUNCH_JOB_ID, rl->job_id);
  hp__json_kstr(j, HP__K_LAUNCH_STEP_ID, rl->step_id);
  hp__json_kstr(j, HP__K_LAUNCH_NODELIST, rl->nodelist);
  hp__json_key(j, HP__K_LAUNCH_RANKS);
  hp__json_arr_begin(j);
  for (i = 0; i < rl->nranks; i++)
    write_rank(j, &rl->ranks[i], pr);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

void hp__summary_write_ranks(hp__json *j, const hp_pass_result *pr)
{
  const hp_rank_stats *st = pr->ranks;

  if (st == NULL)
    return;
  hp__json_key(j, HP__K_PASS_RANKS);
  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_RANKS_METRIC, pr->nmetrics ? pr->metrics[0].name : NULL);
  hp__json_kint(j, HP__K_RANKS_N, (long long)st->nranks);
  hp__json_knum(j, HP__K_RANKS_MIN, st->min);
  hp__json_knum(j, HP__K_RANKS_MEDIAN, st->median);
  hp__json_knum(j, HP__K_RANKS_MAX, st->max);
  hp__json_knum(j, HP__K_RANKS_IMBALANCE, st->imbalance);
  hp__json_kint(j, HP__K_RANKS_NPROFILED, (long long)st->nprofiled);
  hp__json_knum(j, HP__K_RANKS_PROFILED_MEDIAN, st->profiled_median);
  hp__json_knum(j, HP__K_RANKS_UNPROFILED_MEDIAN, st->unprofiled_median);
  hp__json_knum(j, HP__K_RANKS_PROFILED_RATIO, st->profiled_ratio);
  hp__json_obj_end(j);
}

/* ranks[k] into rk. */
static int read_rank(const hp__sf *lc, size_t k, const hp_pass_result *pr, hp_rank *rk)
{
  hp__sf kc, vc;
  size_t m;
  int e;

  rk->exit_status = -1;
  if ((e = hp__sf_item(lc, HP__K_LAUNCH_RANKS, k, &kc)) != 0 ||
      (e = hp__sf_int(&kc, HP__K_RANK_RANK, HP__SF_REQUIRED, 0, INT_MAX, &rk->rank)) != 0 ||
      (e = hp__sf_bool(&kc, HP__K_RANK_PROFILED, &rk->profiled)) != 0 ||
      (e = hp__sf_llong(&kc, HP__K_RANK_EXIT_STATUS, HP__SF_OPTIONAL, 0, LLONG_MAX,
                        &rk->exit_status)) != 0 ||
      (e = hp__sf_str(&kc, HP__K_RANK_HOST, HP__SF_OPTIONAL, &rk->host)) != 0 ||
      (e = hp__sf_object(&kc, HP__K_RANK_VALUES, HP__SF_OPTIONAL, &vc)) != 0)
    return e;
  if ((rk->values = malloc((pr->nmetrics ? pr->nmetrics : 1) * sizeof(double))) == NULL)
    return HP_ENOMEM;
  for (m = 0; m < pr->nmetrics; m++)
    if ((e = hp__sf_num(&vc, pr->metrics[m].name, HP__SF_OPTIONAL, &rk->values[m])) != 0)
      return e;
  return 0;
}

int hp__summary_read_launch(const hp__sf *rc, const hp_pass_result *pr, hp_run *r)
{
  const hp__jv *ranks;
  hp_run_launch *rl;
  hp__sf lc;
  size_t k, n;
  int e;

  if ((e = hp__sf_object(rc, HP__K_RUN_LAUNCH, HP__SF_OPTIONAL, &lc)) != 0)
    return e;
  if (lc.obj == NULL)
    return 0;
  if ((rl = r->launch = calloc(1, sizeof(*rl))) == NULL)
    return HP_ENOMEM;
  if ((e = hp__sf_str(&lc, HP__K_LAUNCH_KIND, HP__SF_OPTIONAL, &rl->kind)) != 0 ||
      (e = hp__sf_str(&lc, HP__K_LAUNCH_JOB_ID, HP__SF_OPTIONAL, &rl->job_id)) != 0 ||
      (e = hp__sf_str(&lc, HP__K_LAUNCH_STEP_ID, HP__SF_OPTIONAL, &rl->step_id)) != 0 ||
      (e = hp__sf_str(&lc, HP__K_LAUNCH_NODELIST, HP__SF_OPTIONAL, &rl->nodelist)) != 0 ||
      (e = hp__sf_array(&lc, HP__K_LAUNCH_RANKS, HP__SF_OPTIONAL, &ranks)) != 0)
    return e;
  n = hp__jv_len(ranks);
  if (n && (rl->ranks = calloc(n, sizeof(*rl->ranks))) == NULL)
    return HP_ENOMEM;
  for (k = 0; k < n; k++) {
    rl->nranks++;
    if ((e = read_rank(&lc, k, pr, &rl->ranks[k])) != 0)
      return e;
  }
  return 0;
}
