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

static void clear(hp_pass_result *pr)
{
  pr->xc_kernel_ms = pr->xc_span_ms = pr->xc_iterations = NAN;
  pr->xc_iter_ms = pr->xc_busy = NAN;
  pr->xc_launches = 0;
  pr->xc_note = NULL;
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
    double base;
    clear(pr);
    if (pr->profile == NULL || hp_profile_get_totals(pr->profile, &t) || t.launches <= 0)
      continue;
    pr->xc_kernel_ms = t.kernel_ns / 1e6;
    pr->xc_launches = t.launches;
    pr->xc_span_ms = t.span_ns / 1e6;
    if (region && !(pr->tool && strcmp(pr->tool, "ncu") == 0))
      pr->xc_note = "app.region is recorded by this tool, not applied: the kernel time covers "
                    "the whole run";
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
  int r = 0;

  if (pr->xc_launches <= 0)
    return 0;
  if (isnan(pr->xc_kernel_ms))
    r |= hp__buf_printf(b, "%lld kernel launches (no kernel times)", pr->xc_launches);
  else
    r |= hp__buf_printf(b, "kernels %.6g ms in %lld launches", pr->xc_kernel_ms, pr->xc_launches);
  if (!isnan(pr->xc_span_ms))
    r |= hp__buf_printf(b, " over a %.6g ms span", pr->xc_span_ms);
  if (!isnan(pr->xc_iter_ms))
    r |= hp__buf_printf(b, "; %.6g iterations: %.6g ms of kernels per iteration", pr->xc_iterations,
                        pr->xc_iter_ms);
  if (!isnan(pr->xc_busy))
    r |=
        hp__buf_printf(b, ", %.1f%% of the baseline's %.6g %s%s", 100 * pr->xc_busy,
                       base->metrics[0].st.median, base->metrics[0].unit,
                       pr->xc_busy < HP__LAUNCH_BOUND ? ": launch-bound (GPU busy below 60%)" : "");
  else if (isnan(pr->xc_iterations))
    r |= hp__buf_adds(b,
                      " (set app.iterations for the time per iteration and the GPU busy "
                      "fraction)");
  if (pr->xc_note)
    r |= hp__buf_printf(b, "; note: %s", pr->xc_note);
  return r ? HP_ENOMEM : 0;
}
