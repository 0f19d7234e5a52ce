/*
 * Every key a plan accepts, section by section, read from the tables the loader itself walks each
 * mapping with, with the type and default of each from the docs table beside it. docs/plan.md,
 * hprun-plan(5) and configs/examples/all-keys.yaml are checked against this list
 * (scripts/check-plan-keys, run by tests/e2e/test_install.sh through `hprun --plan-keys`), so a
 * key added to a table cannot be left out of them, nor shown there with another type or default.
 */
#include "plan/plan.h"

const char *hp_plan_keys(size_t i, const char *const **keys, const hp_plan_key_doc **docs)
{
  /* In the order docs/plan.md describes the sections; "" is the top level. */
  const struct {
    const char *section;
    const char *const *keys;
    const hp_plan_key_doc *docs;
  } sections[] = {
      {"", hp__plan_keys_top, hp__plan_docs_top},
      {"repeat", hp__plan_keys_repeat, hp__plan_docs_repeat},
      {"app", hp__plan_keys_app, hp__plan_docs_app},
      {"profiler", hp__plan_keys_profiler, hp__plan_docs_profiler},
      {"metrics", hp__plan_keys_metrics, hp__plan_docs_metrics},
      {"passes", hp__plan_keys_passes, hp__plan_docs_passes},
      {"variants", hp__plan_keys_variants, hp__plan_docs_variants},
      {"gates", hp__plan_keys_gates, hp__plan_docs_gates},
      {"reference", hp__plan_keys_reference, hp__plan_docs_reference},
      {"thresholds", hp__plan_keys_thresholds, hp__plan_docs_thresholds},
      {"sampler", hp__plan_keys_sampler, hp__plan_docs_sampler},
      {"categories", hp__plan_keys_categories, hp__plan_docs_categories},
      {"roofline", hp__plan_keys_roofline, hp__plan_docs_roofline},
      {"launcher", hp__plan_keys_launcher, hp__plan_docs_launcher},
      {"report", hp__plan_keys_report, hp__plan_docs_report},
  };
  int past = i >= sizeof(sections) / sizeof(sections[0]);

  if (keys)
    *keys = past ? NULL : sections[i].keys;
  if (docs)
    *docs = past ? NULL : sections[i].docs;
  return past ? NULL : sections[i].section;
}
