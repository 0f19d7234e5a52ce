/*
 * hprun check PLAN.yaml: validate a plan; nothing runs and no program needs to exist.
 */
#include "cmd.h"
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option check_longopts[] = {CMD_LONG_HELP, CMD_LONG_END};

static void check_usage(FILE *fp)
{
  fprintf(
      fp,
      "usage: hprun check PLAN.yaml...\n"
      "Validates each plan and prints its errors as FILE:LINE:COL: error: ...; exit 2 if any.\n");
}

/* Loads one plan and says what it holds, or why it is invalid. Returns 0 or -1 (invalid). */
static int check_plan(const char *path)
{
  hp_diags diags;
  hp_plan *plan = NULL;
  int r;

  hp_diags_init(&diags);
  r = hp_plan_load(path, &plan, &diags);
  hp_diags_print(&diags, stderr);
  if (r) {
    if (diags.count == 0)
      fprintf(stderr, "%s: error: %s\n", path, hp_strerror(r));
  } else {
    printf("%s: ok (%zu passes, %zu variants, %zu metrics, repeat %d", path, plan->npasses,
           plan->nvariants, plan->nmetrics, plan->repeat);
    if (plan->nparams)
      printf(", %zu combinations", hp_plan_combinations(plan));
    printf(")\n");
  }
  hp_plan_free(plan);
  hp_diags_free(&diags);
  return r ? -1 : 0;
}

int cmd_check(int argc, char **argv)
{
  const char **plans;
  cmd_opts o;
  int c, i, n = 0, bad = 0;

  /* The plans, in order; every option is read (and --help honoured) before any plan is. */
  plans = malloc((size_t)argc * sizeof(*plans));
  if (plans == NULL)
    return HP_EXIT_IO;
  cmd_opts_init(&o, "check", "h", check_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1) {
    if (c == CMD_ARG) {
      plans[n++] = o.arg;
      continue;
    }
    free(plans);
    if (c != 'h')
      return HP_EXIT_USAGE; /* '?': cmd_getopt has said why */
    check_usage(stdout);
    return HP_EXIT_OK;
  }
  if (n == 0)
    check_usage(stderr);
  for (i = 0; i < n; i++)
    if (check_plan(plans[i]))
      bad = 1;
  free(plans);
  return bad || n == 0 ? HP_EXIT_USAGE : HP_EXIT_OK;
}
