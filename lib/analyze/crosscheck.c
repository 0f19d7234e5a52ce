/*
 * The cross-check that means something (docs/summary.md "Cross-check"). A profiler's figure for
 * one kernel says nothing about a whole training step; what a user needs is how much of the
 * step the GPU spends in kernels. So for every profiled pass this takes the profile's total
 * kernel time and launches (and, where the format has timestamps, the profiled span), and when
 * the plan says how many timed iterations one run does, the kernel time per iteration over the
 * uninstrumented baseline's time per iteration: the GPU busy fraction. Below 60% the step is
 * launch-bound: the time goes to launches, synchronisation and host work, not to kernels.
 */
#include "analyze/crosscheck.h"

#include <math.h>
#include <string.h>

const hp_run *hp__pass_profiled_run(const hp_pass_result *pr)
{
  size_t k;

  for (k = 0; k < pr->nruns; k++)
    if (!pr->runs[k].warmup && pr->runs[k].dir && pr->runs[k].ok && pr->runs[k].files.n)
      return &pr->runs[k];
  for (k = 0; k < pr->nruns; k++)
    if (!pr->runs[k].warmup && pr->runs[k].dir)
      return &pr->runs[k];
  return NULL;
}

/* Milliseconds in one unit of a time metric; NaN for a unit that is not a time. */
static double unit_ms(const char *unit)
{
  static const struct {
    const char *unit;
    double ms;
  } units[] = {{"ms", 1}, {"s", 1e3}, {"sec", 1e3}, {"us", 1e-3}, {"µs", 1e-3}, {"ns", 1e-6}};
  size_t i;

  for (i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
    if (strcmp(unit, units[i].unit) == 0)
      return units[i].ms;
  return NAN;
}

/* The timed iterations of the profiled run: the plan's number, or the value the app printed for
 * the metric the plan names. NaN (and a note) when neither is known. */
static double iterations(const hp_pass_result *pr, const hp_plan *plan, const char **note)
{
  const hp_run *run;
  size_t m;

  if (plan == NULL || (plan->app.iterations == 0 && plan->app.iterations_metric == NULL))
    return NAN;
  if (plan->app.iterations > 0)
    return (double)plan->app.iterations;
  run = hp__pass_profiled_run(pr);
  for (m = 0; run && run->values && m < pr->nmetrics; m++)
    if (strcmp(pr->metrics[m].name, plan->app.iterations_metric) == 0 && run->values[m] > 0)
      return run->values[m];
  *note = "the profiled run printed no value for app.iterations_metric";
  return NAN;
}

/* Profiler options that keep only some of the launches: ncu's (with their short forms, which
 * mean other things to other tools), then rocprofv3's. */
static const char *const partial_ncu[] = {"--launch-count",
                                          "-c",
                                          "--launch-skip",
                                          "-s",
                                          "--launch-skip-before-match",
                                          "--kernel-name",
                                          "-k",
                                          "--kernel-id",
                                          "--kernel-name-base",
                                          NULL};
static const char *const partial_rocprofv3[] = {"--kernel-include-regex", "--kernel-exclude-regex",
                                                "--kernel-iteration-range", NULL};

/* 1 when `arg` is one of `opts`, alone or as OPT=VALUE. */
static int is_opt(const char *arg, const char *const *opts)
{
  size_t o, n;

  for (o = 0; opts[o]; o++) {
    n = strlen(opts[o]);
    if (strncmp(arg, opts[o], n) == 0 && (arg[n] == '\0' || arg[n] == '='))
      return 1;
  }
  return 0;
}

/* Why the pass's profile holds only some of the run's launches (a launch count, a skip, a kernel
 * filter), or NULL. Its kernel time is then not the run's, and a time per iteration or a busy
 * fraction from it would be wrong: on the H200 a pass with launch_count 40 of 560 launches read
 * "1.2% busy" against the 20.8% of the whole capture. */
static const char *partial_capture(const hp_pass_result *pr, const hp_plan *plan)
{
  const char *const *opts = NULL;
  size_t i, k;

  if (pr->kernel && pr->kernel[0])
    return "the pass profiles only the kernels its `kernel:` names";
  if (pr->tool && strcmp(pr->tool, "ncu") == 0)
    opts = partial_ncu;
  else if (pr->tool && strcmp(pr->tool, "rocprofv3") == 0)
    opts = partial_rocprofv3;
  for (i = 0; plan && i < plan->npasses; i++) {
    const hp_pass *p = &plan->passes[i];
    if (strcmp(p->name, pr->name) != 0)
      continue;
    if (p->launch_count > 0)
      return "the pass profiles only its first `launch_count` launches";
    for (k = 0; opts && k < p->args.n; k++)
      if (is_opt(p->args.v[k], opts))
        return "the pass's options keep only some launches (launch count, skip or kernel "
               "filter)";
  }
  return NULL;
}

/* What app.region did to the pass's kernel figures: ncu kept to the range itself, rocprofv3's
 * tables were filtered by its marker trace (lib/profile/parse/region.c) unless the range was not
 * there, the other tools only record it. NULL when the figures cover the region. */
static const char *region_note(const hp_pass_result *pr)
{
  hp_profile_region rg;

  if (pr->tool && strcmp(pr->tool, "ncu") == 0)
    return NULL;
  if (!(pr->tool && strcmp(pr->tool, "rocprofv3") == 0))
    return "app.region is recorded by this tool, not applied: the kernel time covers the whole "
           "run";
  if (hp_profile_get_region(pr->profile, &rg) == 0 && rg.state == HP_REGION_APPLIED)
    return NULL;
  return "app.region was not found in the marker trace, or holds no kernel dispatch: the kernel "
         "time covers the whole run";
}

static void clear(hp_pass_result *pr)
{
  pr->xc_kernel_ms = pr->xc_span_ms = pr->xc_iterations = NAN;
  pr->xc_iter_ms = pr->xc_busy = NAN;
  pr->xc_launches = 0;
  pr->xc_note = NULL;
  pr->xc_partial = 0;
  pr->xc_trace_busy = pr->xc_trace_span_ms = pr->xc_kernels_per_step = NAN;
  pr->xc_launches_per_step = NAN;
  pr->xc_steps = 0;
}

/* A Kineto trace's own timeline: it has every timestamp, so the busy fraction needs no
 * app.iterations; its span, though, is the profiled run's, slowed by the profiler. */
static void trace_timeline(hp_pass_result *pr, const hp_profile_totals *t)
{
  if (!(t->trace_span_ns > 0))
    return;
  pr->xc_trace_span_ms = t->trace_span_ns / 1e6;
  pr->xc_trace_busy = t->trace_busy_ns / t->trace_span_ns;
  if ((pr->xc_steps = t->trace_steps) <= 0)
    return;
  pr->xc_kernels_per_step = (double)t->trace_kernels / (double)t->trace_steps;
  pr->xc_launches_per_step = (double)t->trace_launches / (double)t->trace_steps;
}

/* The baseline's primary metric in ms (its median), or NaN with a note. */
static double baseline_ms(const hp_session *s, const char **note)
{
  const hp_pass_result *b = s->npasses ? &s->passes[s->baseline] : NULL;
  double ms;

  if (b == NULL || b->nmetrics == 0 || isnan(b->metrics[0].st.median)) {
    *note = "the baseline has no primary metric value";
    return NAN;
  }
  if (isnan(ms = unit_ms(b->metrics[0].unit))) {
    *note = "the primary metric's unit is not a time (ms, s, us, ns): no busy fraction";
    return NAN;
  }
  return b->metrics[0].st.median * ms;
}

void hp__session_crosscheck(hp_session *s, const hp_plan *plan)
{
  const char *region = plan ? plan->app.region : NULL;
  size_t i;

  for (i = 0; i < s->npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    hp_profile_totals t;
    const char *partial;
    double base;
    clear(pr);
    if (pr->profile == NULL || hp_profile_get_totals(pr->profile, &t) || t.launches <= 0)
      continue;
    pr->xc_kernel_ms = t.kernel_ns / 1e6;
    pr->xc_launches = t.launches;
    pr->xc_span_ms = t.span_ns / 1e6;
    trace_timeline(pr, &t);
    if (region)
      pr->xc_note = region_note(pr);
    if ((partial = partial_capture(pr, plan)) != NULL) {
      pr->xc_note = partial;
      pr->xc_partial = 1;
      continue;
    }
    pr->xc_iterations = iterations(pr, plan, &pr->xc_note);
    if (isnan(pr->xc_iterations) || isnan(pr->xc_kernel_ms))
      continue;
    pr->xc_iter_ms = pr->xc_kernel_ms / pr->xc_iterations;
    base = baseline_ms(s, &pr->xc_note);
    if (base > 0)
      pr->xc_busy = pr->xc_iter_ms / base;
  }
}

int hp__crosscheck_text(const hp_session *s, const hp_pass_result *pr, hp__buf *b)
{
  const hp_pass_result *base = &s->passes[s->baseline];
  /* A result filled by hand (not through clear()) has zeros there: no trace then. */
  int trace = pr->xc_trace_span_ms > 0;

  if (pr->xc_launches <= 0)
    return hp__buf_error(b);
  if (isnan(pr->xc_kernel_ms))
    hp__buf_printf(b, "%lld kernel launches (no kernel times)", pr->xc_launches);
  else
    hp__buf_printf(b, "kernels %.6g ms in %lld launches", pr->xc_kernel_ms, pr->xc_launches);
  if (!isnan(pr->xc_span_ms))
    hp__buf_printf(b, " over a %.6g ms span", pr->xc_span_ms);
  if (!isnan(pr->xc_iter_ms))
    hp__buf_printf(b, "; %.6g iterations: %.6g ms of kernels per iteration", pr->xc_iterations,
                   pr->xc_iter_ms);
  if (!isnan(pr->xc_busy))
    hp__buf_printf(b, ", %.1f%% of the baseline's %.6g %s%s", 100 * pr->xc_busy,
                   base->metrics[0].st.median, base->metrics[0].unit,
                   pr->xc_busy < HP__LAUNCH_BOUND ? ": launch-bound (GPU busy below 60%)" : "");
  else if (pr->xc_partial)
    hp__buf_adds(b, " (part of the run: no time per iteration or GPU busy fraction)");
  else if (isnan(pr->xc_iterations))
    hp__buf_adds(b,
                 !trace ? " (set app.iterations for the time per iteration "
                          "and the GPU busy fraction)"
                        : " (set app.iterations for the time per iteration)");
  if (trace)
    hp__buf_printf(b, "; its trace: GPU busy %.3g%% of a %.6g ms span%s", 100 * pr->xc_trace_busy,
                   pr->xc_trace_span_ms,
                   isnan(pr->xc_busy) && pr->xc_trace_busy < HP__LAUNCH_BOUND
                       ? " (launch-bound: GPU busy below 60%)"
                       : "");
  if (trace && pr->xc_steps > 0)
    hp__buf_printf(b, ", %lld steps of %.6g kernels and %.6g launches", pr->xc_steps,
                   pr->xc_kernels_per_step, pr->xc_launches_per_step);
  if (pr->xc_note)
    hp__buf_printf(b, "; note: %s", pr->xc_note);
  return hp__buf_error(b);
}
