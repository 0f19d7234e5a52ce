/*
 * summary.json, written after every session (also an interrupted one). It is the session's one
 * machine-readable record: `hprun report` and `hprun compare` read it back (lib/report/json/
 * summary_read.c), scripts and CI read it too. The keys are named in lib/report/core/summary_keys.h
 * and documented in docs/summary.md; members are written in the order that page lists them.
 */
#include "analyze/crosscheck.h"
#include "analyze/results.h"
#include "profile/tables/out.h"
#include "report/core/profile_csv.h"
#include "report/core/roofline_table.h"
#include "report/core/report.h"
#include "report/json/summary.h"
#include "report/core/summary_keys.h"
#include "report/json/summary_launch.h"
#include "util/base/buf.h"
#include "util/json/json.h"

#include <math.h>
#include <stdlib.h>

/* A metric's change against the baseline (or reference): null for the baseline itself. */
static void write_overhead(hp__json *j, const hp_metric_result *m)
{
  if (m == NULL) {
    hp__json_null(j);
    return;
  }
  hp__json_obj_begin(j);
  hp__json_knum(j, HP__K_OVERHEAD_RATIO, m->ratio);
  hp__json_knum(j, HP__K_OVERHEAD_PERCENT, isnan(m->ratio) ? NAN : (m->ratio - 1.0) * 100.0);
  hp__json_key(j, HP__K_OVERHEAD_CI95);
  hp__json_arr_begin(j);
  hp__json_num(j, m->ci_lo);
  hp__json_num(j, m->ci_hi);
  hp__json_arr_end(j);
  hp__json_knum(j, HP__K_OVERHEAD_P, m->p);
  hp__json_kstr(j, HP__K_OVERHEAD_SIGNIFICANT, hp_significance_name(m->sig));
  hp__json_knum(j, HP__K_OVERHEAD_DELTA, m->delta);
  hp__json_obj_end(j);
}

static void write_metric(hp__json *j, const hp_metric_result *m, int baseline)
{
  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_METRIC_NAME, m->name);
  hp__json_kstr(j, HP__K_METRIC_UNIT, m->unit);
  hp__json_kstr(j, HP__K_METRIC_BETTER,
                m->higher_is_better ? HP__V_BETTER_HIGHER : HP__V_BETTER_LOWER);
  hp__json_knum(j, HP__K_METRIC_TOLERANCE, m->tolerance >= 0 ? m->tolerance : NAN);
  hp__json_knum(j, HP__K_METRIC_ABS_TOLERANCE, m->abs_tolerance >= 0 ? m->abs_tolerance : NAN);
  hp__json_kint(j, HP__K_METRIC_N, (long long)m->st.n);
  hp__json_knum(j, HP__K_METRIC_MEDIAN, m->st.median);
  hp__json_knum(j, HP__K_METRIC_MEAN, m->st.mean);
  hp__json_knum(j, HP__K_METRIC_SD, m->st.sd);
  hp__json_knum(j, HP__K_METRIC_MAD, m->st.mad);
  hp__json_knum(j, HP__K_METRIC_CV, m->st.cv);
  hp__json_knum(j, HP__K_METRIC_MIN, m->st.min);
  hp__json_knum(j, HP__K_METRIC_MAX, m->st.max);
  hp__json_kint(j, HP__K_METRIC_OUTLIERS, (long long)m->st.noutliers);
  hp__json_key(j, HP__K_METRIC_OVERHEAD);
  write_overhead(j, baseline ? NULL : m);
  hp__json_obj_end(j);
}

/* A count where a negative value means "unknown": null then. */
static void write_known(hp__json *j, const char *key, long long v)
{
  hp__json_key(j, key);
  if (v < 0)
    hp__json_null(j);
  else
    hp__json_int(j, v);
}

static void write_run(hp__json *j, const hp_run *r, const hp_pass_result *pr)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kint(j, HP__K_RUN_INDEX, r->index);
  hp__json_kbool(j, HP__K_RUN_WARMUP, r->warmup);
  hp__json_kint(j, HP__K_RUN_ROUND, r->round);
  hp__json_kstr(j, HP__K_RUN_DIR, r->dir);
  hp__json_kstr(j, HP__K_RUN_COMMAND, r->command);
  hp__json_kint(j, HP__K_RUN_EXIT_STATUS, r->exit_status);
  hp__json_kint(j, HP__K_RUN_SIGNAL, r->term_signal);
  hp__json_kbool(j, HP__K_RUN_TIMED_OUT, r->timed_out);
  hp__json_kbool(j, HP__K_RUN_INTERRUPTED, r->interrupted);
  hp__json_kstr(j, HP__K_RUN_ERROR, r->error);
  hp__json_knum(j, HP__K_RUN_WALL_MS, r->wall_ms);
  write_known(j, HP__K_RUN_MAX_RSS_KB, r->max_rss_kb);
  hp__json_kbool(j, HP__K_RUN_OK, r->ok);
  /* Only a skipped run says so, so that summaries of sessions without one stay as they were. */
  if (r->skipped)
    hp__json_kbool(j, HP__K_RUN_SKIPPED, 1);
  hp__summary_write_launch(j, r, pr);
  /* One value per metric, keyed by the metric's name. */
  hp__json_key(j, HP__K_RUN_VALUES);
  hp__json_obj_begin(j);
  for (i = 0; i < pr->nmetrics; i++)
    hp__json_knum(j, pr->metrics[i].name ? pr->metrics[i].name : "?",
                  r->values ? r->values[i] : NAN);
  hp__json_obj_end(j);
  hp__json_key(j, HP__K_RUN_MEMORY);
  hp__json_obj_begin(j);
  hp__json_knum(j, HP__K_MEMORY_MEAN, r->mem_mean_mib);
  hp__json_knum(j, HP__K_MEMORY_PEAK, r->mem_peak_mib);
  hp__json_kint(j, HP__K_MEMORY_SAMPLES, r->mem_samples);
  hp__json_obj_end(j);
  hp__json_key(j, HP__K_RUN_FILES);
  hp__json_arr_begin(j);
  for (i = 0; i < r->files.n; i++)
    hp__json_str(j, r->files.v[i]);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

static void write_pass_memory(hp__json *j, const hp_pass_result *pr)
{
  hp__json_key(j, HP__K_PASS_MEMORY);
  hp__json_obj_begin(j);
  hp__json_knum(j, HP__K_MEMORY_MEAN, pr->mem_mean_mib);
  hp__json_knum(j, HP__K_MEMORY_PEAK, pr->mem_peak_mib);
  hp__json_kstr(j, HP__K_MEMORY_NOTE, pr->mem_note);
  write_known(j, HP__K_MEMORY_HOST_PEAK, pr->max_rss_kb);
  hp__json_obj_end(j);
}

/* The profiler's figure for one kernel beside the app's own: null when no profiler kernel. */
static void write_crosscheck(hp__json *j, const hp_pass_result *pr)
{
  double busy;

  hp__json_key(j, HP__K_PASS_CROSSCHECK);
  if (pr->xk_name == NULL && pr->xc_launches <= 0) {
    hp__json_null(j);
    return;
  }
  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_CROSSCHECK_KERNEL, pr->xk_name);
  hp__json_knum(j, HP__K_CROSSCHECK_AVG_MS, pr->xk_avg_ms);
  hp__json_kint(j, HP__K_CROSSCHECK_CALLS, pr->xk_calls);
  write_known(j, HP__K_CROSSCHECK_APP_LAUNCHES, pr->app_launches);
  hp__json_knum(j, HP__K_CROSSCHECK_APP_MEDIAN, pr->nmetrics ? pr->metrics[0].st.median : NAN);
  hp__json_knum(j, HP__K_CROSSCHECK_KERNEL_MS, pr->xc_kernel_ms);
  hp__json_kint(j, HP__K_CROSSCHECK_LAUNCHES, pr->xc_launches);
  hp__json_knum(j, HP__K_CROSSCHECK_SPAN_MS, pr->xc_span_ms);
  hp__json_knum(j, HP__K_CROSSCHECK_ITERATIONS, pr->xc_iterations);
  hp__json_knum(j, HP__K_CROSSCHECK_ITER_MS, pr->xc_iter_ms);
  hp__json_knum(j, HP__K_CROSSCHECK_BUSY, pr->xc_busy);
  /* Against the baseline when the plan gives the iterations, else from the pass's own trace. */
  busy = isnan(pr->xc_busy) ? pr->xc_trace_busy : pr->xc_busy;
  hp__json_key(j, HP__K_CROSSCHECK_LAUNCH_BOUND);
  if (isnan(busy))
    hp__json_null(j);
  else
    hp__json_bool(j, busy < HP__LAUNCH_BOUND);
  hp__json_kstr(j, HP__K_CROSSCHECK_NOTE, pr->xc_note);
  hp__json_key(j, HP__K_CROSSCHECK_PARTIAL);
  hp__json_bool(j, pr->xc_partial);
  hp__json_knum(j, HP__K_CROSSCHECK_TRACE_SPAN_MS, pr->xc_trace_span_ms);
  hp__json_knum(j, HP__K_CROSSCHECK_TRACE_BUSY, pr->xc_trace_busy);
  hp__json_kint(j, HP__K_CROSSCHECK_STEPS, pr->xc_steps);
  hp__json_knum(j, HP__K_CROSSCHECK_KERNELS_PER_STEP, pr->xc_kernels_per_step);
  hp__json_knum(j, HP__K_CROSSCHECK_LAUNCHES_PER_STEP, pr->xc_launches_per_step);
  hp__json_obj_end(j);
}

static void write_pass(hp__json *j, const hp_session *s, const hp_pass_result *pr,
                       const hp_peaks *peaks)
{
  int reference = pr->is_baseline || pr->is_reference;
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kstr(j, HP__K_PASS_NAME, pr->name);
  hp__json_kstr(j, HP__K_PASS_MODE, pr->mode);
  hp__json_kstr(j, HP__K_PASS_TOOL, pr->tool);
  hp__json_kstr(j, HP__K_PASS_KERNEL, pr->kernel);
  hp__json_kbool(j, HP__K_PASS_BASELINE, pr->is_baseline);
  hp__json_kbool(j, HP__K_PASS_VARIANT, pr->is_variant);
  hp__json_kbool(j, HP__K_PASS_REFERENCE, pr->is_reference);
  hp__json_kstr(j, HP__K_PASS_EXPECT,
                pr->expect_distorted ? HP__V_EXPECT_DISTORTED : HP__V_EXPECT_OK);
  hp__json_kstr(j, HP__K_PASS_FLAG, hp_flag_name(pr->flag));
  hp__json_kstr(j, HP__K_PASS_ADVICE, pr->advice);
  hp__json_kstr(j, HP__K_PASS_STOPPED, pr->stopped);
  hp__json_kstr(j, HP__K_PASS_VERDICT, pr->verdict);
  hp__json_key(j, HP__K_PASS_METRICS);
  hp__json_arr_begin(j);
  for (i = 0; i < pr->nmetrics; i++)
    write_metric(j, &pr->metrics[i], reference);
  hp__json_arr_end(j);
  /* The primary metric's overhead, repeated at the pass level for scripts that want one number. */
  hp__json_key(j, HP__K_PASS_OVERHEAD);
  write_overhead(j, reference || pr->nmetrics == 0 ? NULL : &pr->metrics[0]);
  write_pass_memory(j, pr);
  write_crosscheck(j, pr);
  hp__summary_write_ranks(j, pr);
  hp__json_key(j, HP__K_PASS_RUNS);
  hp__json_arr_begin(j);
  for (i = 0; i < pr->nruns; i++)
    write_run(j, &pr->runs[i], pr);
  hp__json_arr_end(j);
  hp__json_key(j, HP__K_PASS_PROFILE);
  if (pr->profile) {
    /* Bounded: the top rows only; the pass's CSV file has every row (report/core/profile_csv.c). */
    hp_profile_opts top = hp__report_profile_opts(s, pr);
    char *csv = hp_profile_nfiles(pr->profile) ? hp__profile_csv_name(pr->name) : NULL;
    hp__profile_json(pr->profile, j, &top);
    hp__json_kstr(j, HP__K_PASS_PROFILE_CSV, csv);
    free(csv);
  } else {
    hp__json_null(j);
  }
  /* Only a pass whose profile gave roofline points has the member (docs/summary.md). */
  if (pr->roofline) {
    hp__json_key(j, HP__K_PASS_ROOFLINE);
    hp__roofline_json(j, pr->roofline, peaks);
  }
  hp__json_obj_end(j);
}

/* Why the session deserves its exit code: one object per cause, in pass order. */
static void write_causes(hp__json *j, const hp_session *s)
{
  size_t i;

  hp__json_key(j, HP__K_SESSION_CAUSES);
  hp__json_arr_begin(j);
  for (i = 0; i < s->ncauses; i++) {
    hp__json_obj_begin(j);
    hp__json_kstr(j, HP__K_CAUSE_KIND, hp_cause_kind_name(s->causes[i].kind));
    hp__json_kstr(j, HP__K_CAUSE_PASS, s->causes[i].pass);
    hp__json_kstr(j, HP__K_CAUSE_TEXT, s->causes[i].text);
    hp__json_obj_end(j);
  }
  hp__json_arr_end(j);
}

void hp__summary_params_json(hp__json *j, const hp_kv *kv, size_t n)
{
  size_t i;

  hp__json_obj_begin(j);
  for (i = 0; i < n; i++)
    hp__json_kstr(j, kv[i].key, kv[i].value);
  hp__json_obj_end(j);
}

/* A sweep's combination says which it is (a sweep itself is none). */
void hp__summary_head_json(hp__json *j, const hp_session *s)
{
  hp__json_kint(j, HP__K_SESSION_SCHEMA, s->schema ? s->schema : HPRUN_SUMMARY_SCHEMA);
  hp__json_kstr(j, HP__K_SESSION_VERSION, s->hprun_version ? s->hprun_version : HPRUN_VERSION);
  hp__json_kstr(j, HP__K_SESSION_NAME, s->name);
  hp__json_kstr(j, HP__K_SESSION_DIR, s->dir);
  hp__json_kstr(j, HP__K_SESSION_PLAN, s->plan_file);
  if (s->combo) {
    hp__json_kstr(j, HP__K_SESSION_COMBINATION, s->combo);
    hp__json_key(j, HP__K_SESSION_PARAMETERS);
    hp__summary_params_json(j, s->params, s->nparams);
  }
  hp__json_kbool(j, HP__K_SESSION_COMPLETE, s->complete);
  hp__json_kbool(j, HP__K_SESSION_INTERRUPTED, s->interrupted);
  hp__json_kstr(j, HP__K_SESSION_ERROR, s->error);
  hp__json_kint(j, HP__K_SESSION_EXIT_CODE, s->exit_code);
  write_causes(j, s);
  hp__json_kstr(j, HP__K_SESSION_STARTED, s->started);
  hp__json_kstr(j, HP__K_SESSION_FINISHED, s->finished);
}

void hp__summary_json(hp__json *j, const hp_session *s)
{
  size_t i;

  hp__json_kstr(j, HP__K_SESSION_ORDER, s->order);
  /* Unsigned: a seed above 2^63 was once written as a negative number (the reader still takes
   * that form back). */
  hp__json_key(j, HP__K_SESSION_SEED);
  hp__json_uint(j, s->seed);
  hp__json_kint(j, HP__K_SESSION_REPEAT, s->repeat);
  hp__json_kint(j, HP__K_SESSION_WARMUP, s->warmup);
  hp__json_kint(j, HP__K_SESSION_LOOKS, s->looks > 1 ? s->looks : 1);
  hp__json_key(j, HP__K_SESSION_THRESHOLDS);
  hp__json_obj_begin(j);
  hp__json_knum(j, HP__K_THRESHOLD_WARN, s->warn);
  hp__json_knum(j, HP__K_THRESHOLD_FAIL, s->fail > 0 ? s->fail : NAN);
  hp__json_knum(j, HP__K_THRESHOLD_ALPHA, s->alpha);
  hp__json_obj_end(j);
  hp__json_kstr(j, HP__K_SESSION_BASELINE, s->npasses ? s->passes[s->baseline].name : NULL);
  if (s->peaks) {
    hp__json_key(j, HP__K_SESSION_PEAKS);
    hp__peaks_json(j, s->peaks);
  }
  hp__json_key(j, HP__K_SESSION_PASSES);
  hp__json_arr_begin(j);
  for (i = 0; i < s->npasses; i++)
    write_pass(j, s, &s->passes[i], s->peaks);
  hp__json_arr_end(j);
}
