/*
 * Every key a plan accepts, section by section, read from the tables the loader itself walks each
 * mapping with. docs/plan.md, hprun-plan(5) and configs/examples/all-keys.yaml are checked
 * against this list (tests/e2e/test_plan_keys.sh, through `hprun --plan-keys`), so a key added to
 * a table cannot be left out of them.
 */
#include "plan/plan.h"

const char *hp_plan_keys(size_t i, const char *const **keys)
{
  /* In the order docs/plan.md describes the sections; "" is the top level. */
  const struct {
    const char *section;
    const char *const *keys;
  } sections[] = {
      {"", hp__plan_keys_top},
      {"repeat", hp__plan_keys_repeat},
      {"app", hp__plan_keys_app},
      {"profiler", hp__plan_keys_profiler},
      {"metrics", hp__plan_keys_metrics},
      {"passes", hp__plan_keys_passes},
      {"variants", hp__plan_keys_variants},
      {"gates", hp__plan_keys_gates},
      {"reference", hp__plan_keys_reference},
      {"thresholds", hp__plan_keys_thresholds},
      {"sampler", hp__plan_keys_sampler},
      {"categories", hp__plan_keys_categories},
      {"roofline", hp__plan_keys_roofline},
      {"launcher", hp__plan_keys_launcher},
      {"report", hp__plan_keys_report},
  };

  if (i >= sizeof(sections) / sizeof(sections[0])) {
    if (keys)
      *keys = NULL;
    return NULL;
  }
  if (keys)
    *keys = sections[i].keys;
  return sections[i].section;
}
