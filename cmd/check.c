/*
 * hprun check PLAN.yaml: validate a plan; nothing runs and no program needs to exist.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

int cmd_check(int argc, char **argv)
{
  hp_diags diags;
  hp_plan *plan = NULL;
  int i, r, bad = 0;

  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fprintf(
        argc < 2 ? stderr : stdout,
        "usage: hprun check PLAN.yaml...\n"
        "Validates each plan and prints its errors as FILE:LINE:COL: error: ...; exit 2 if any.\n");
    return argc < 2 ? HP_EXIT_USAGE : HP_EXIT_OK;
  }
  for (i = 1; i < argc; i++) {
    hp_diags_init(&diags);
    r = hp_plan_load(argv[i], &plan, &diags);
    hp_diags_print(&diags, stderr);
    if (r) {
      if (diags.count == 0)
        fprintf(stderr, "%s: error: %s\n", argv[i], hp_strerror(r));
      bad = 1;
    } else {
      printf("%s: ok (%zu passes, %zu variants, %zu metrics, repeat %d)\n", argv[i], plan->npasses,
             plan->nvariants, plan->nmetrics, plan->repeat);
    }
    hp_plan_free(plan);
    plan = NULL;
    hp_diags_free(&diags);
  }
  return bad ? HP_EXIT_USAGE : HP_EXIT_OK;
}
