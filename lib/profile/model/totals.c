/*
 * The whole profile's kernel figures for the cross-check (lib/analyze/crosscheck.c),
 * hp_profile_get_totals: total kernel time, launches, and the profiled span. The span needs
 * timestamps, which only per-dispatch traces have (rocprofv3 kernel traces, rocprof results.csv);
 * stats files and ncu's CSV have none. Clocks of different processes on one machine are the same
 * clock, so the span of several files is their union's first start to last end. The Kineto
 * traces' own timeline rows (hp__timeline_add) are kept here too, one per trace, and summed for
 * the cross-check: busy time over span, kernels and launches over steps.
 */
#include "profile/model/build.h"
#include "util/base/buf.h"

#include <math.h>

void hp__kspan_add(hp_profile *p, long long begin, long long end)
{
  if (end < begin)
    return;
  if (!p->have_span || begin < p->span_first)
    p->span_first = begin;
  if (!p->have_span || end > p->span_last)
    p->span_last = end;
  p->have_span = 1;
}

int hp__timeline_add(hp_profile *p, const hp__timeline *row)
{
  hp__timeline *t;

  if (hp__grow((void **)&p->tl, &p->tl_cap, p->ntl + 1, sizeof(*p->tl)))
    return HP_ENOMEM;
  t = &p->tl[p->ntl];
  *t = *row;
  if ((t->file = hp__strdup(row->file)) == NULL)
    return HP_ENOMEM;
  p->ntl++;
  return 0;
}

int hp_profile_get_totals(const hp_profile *p, hp_profile_totals *out)
{
  const hp__ttable *t;
  size_t i;
  int timed = 0;

  if (p == NULL || out == NULL)
    return HP_EINVAL;
  t = &p->t[HP__T_KERNEL];
  out->kernels = t->names.n;
  out->launches = 0;
  out->kernel_ns = 0;
  for (i = 0; i < t->names.n; i++) {
    out->launches = hp__calls_add(out->launches, t->st[i].calls);
    if (!isnan(t->st[i].total_ns)) {
      out->kernel_ns += t->st[i].total_ns;
      timed = 1;
    }
  }
  if (!timed)
    out->kernel_ns = NAN;
  out->span_ns = p->have_span ? hp__span_ns(p->span_first, p->span_last) : NAN;
  out->trace_span_ns = p->ntl ? 0 : NAN;
  out->trace_busy_ns = 0;
  out->trace_steps = out->trace_kernels = out->trace_launches = 0;
  for (i = 0; i < p->ntl; i++) {
    out->trace_span_ns += p->tl[i].span_ns;
    out->trace_busy_ns += p->tl[i].busy_ns;
    out->trace_steps += p->tl[i].steps;
    out->trace_kernels += p->tl[i].step_kernels;
    out->trace_launches += p->tl[i].launches;
  }
  return 0;
}
