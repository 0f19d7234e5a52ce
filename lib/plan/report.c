/*
 * `report:`, what the session's reports carry, and the check that `app.region` means what the
 * plan's tools can do with it.
 *
 * report.top bounds the profile tables of summary.json and report.md (the kernels, the ncu
 * kernels, ...): a profile of thousands of kernels must not make a file a CI system or a pull
 * request cannot show. The whole profile is in each pass's <pass>.profile.csv.
 *
 * app.region: ncu keeps to an NVTX range (--nvtx-include) and its tables cover only the region.
 * rocprofv3 records the range (--marker-trace) and hprun keeps its kernel tables to the dispatches
 * inside it (lib/profile/parse/region.c). hipprof records it (--hiptx-trace) in a format no real
 * file of which has been found, and the other tools not at all: their tables cover the whole run
 * (docs/summarize.md, "Regions"). A plan that relies on it for them is told so.
 */
#include "plan/plan.h"

#include <string.h>

enum {
  R_TOP,
  R_N
};
static const char *const report_keys[] = {"top", NULL};
/* A plan without `report.top` leaves p->report_top 0, which the reports read as
 * HP_PROFILE_SUMMARY_TOP. */
static const hp_plan_key_doc report_docs[] = {
    [R_TOP] = {"integer 1.." HP__STR(HP_PROFILE_SUMMARY_TOP_MAX), NULL,
               HP__STR(HP_PROFILE_SUMMARY_TOP)},
};
HP__KEY_DOCS(report_keys, report_docs);

void hp__plan_parse_report(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[R_N] = {{NULL, NULL}};
  long n;

  if (hp__yaml_want_map(ld, "report", v) <= 0)
    return;
  hp__yaml_fields(ld, v, "report", report_keys, e);
  if (hp__plan_long(ld, "report.top", e[R_TOP].val, 1, HP_PROFILE_SUMMARY_TOP_MAX, &n) == 1)
    p->report_top = (int)n;
}

/* The tool a pass runs under: its own, else the plan's profiler. */
static const char *pass_tool(const hp_plan *p, const hp_pass *pass)
{
  return pass->tool ? pass->tool : p->profiler.tool;
}

void hp__plan_check_region(hp__loader *ld, const hp_plan *p)
{
  size_t i;

  if (p->app.region == NULL)
    return;
  for (i = 0; i < p->npasses; i++) {
    const char *tool = pass_tool(p, &p->passes[i]);
    if (strcmp(p->passes[i].mode, "normal") == 0 || strcmp(p->passes[i].mode, "command") == 0 ||
        tool == NULL || strcmp(tool, "ncu") == 0 || strcmp(tool, "rocprofv3") == 0)
      continue;
    if (hp_diags_add(&ld->diags, HP_DIAG_WARNING, ld->file, p->app.region_line, 0,
                     "`app.region: %s` is not applied to pass `%s`: hprun summarises all of "
                     "%s's kernels%s; only ncu and rocprofv3 passes keep to the region "
                     "(docs/plan.md)",
                     p->app.region, p->passes[i].name, tool,
                     strcmp(tool, "hipprof") == 0 ? " (it records the range, --hiptx-trace)"
                                                  : "") != 0)
      ld->oom = 1;
    return; /* one warning says it for every such pass */
  }
}

/* The key table above and its docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_report = report_keys;
const hp_plan_key_doc *const hp__plan_docs_report = report_docs;
