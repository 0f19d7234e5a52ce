/*
 * hprun check PLAN.yaml: validate a plan, then preflight it: everything the run would refuse
 * before its first run (a program or wrapper not found, a profiler not on PATH, an unreadable
 * env_script, a launcher missing) is found by the run's own preparation, through a dry run whose
 * listing is thrown away, so the messages and the exit code (2) are the run's. --no-preflight
 * checks the plan alone, for a machine without the tools. Nothing runs either way.
 */
#include "cmd.h"
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  OPT_NO_PREFLIGHT = CMD_OPT_OWN
};

static const struct option check_longopts[] = {
    CMD_LONG_HELP, {"no-preflight", no_argument, NULL, OPT_NO_PREFLIGHT}, CMD_LONG_END};

static void check_usage(FILE *fp)
{
  fprintf(
      fp,
      "usage: hprun check [--no-preflight] PLAN.yaml...\n"
      "Validates each plan and prints its errors as FILE:LINE:COL: error: ...; exit 2 if any.\n"
      "Then preflights it as the run would: programs, wrappers, profilers, env_script and\n"
      "launchers must be found (--no-preflight: the plan alone, for a machine without them).\n");
}

/* What the run would refuse before its first run, found by the run's own preparation: a dry run
 * (which creates and starts nothing) whose listing goes nowhere. Its messages go to diags. */
static int preflight(const hp_plan *plan, hp_diags *diags)
{
  hp_run_opts opts;
  FILE *sink = fopen("/dev/null", "w");
  int r;

  memset(&opts, 0, sizeof(opts));
  opts.dry_run = 1;
  opts.quiet = 1;
  if (sink == NULL && (sink = tmpfile()) == NULL)
    return HP_EIO;
  opts.log = sink;
  r = hp_session_dry_run(plan, &opts, sink, diags);
  fclose(sink);
  return r;
}

/* Loads one plan and says what it holds, or why it is invalid or would be refused by the run.
 * Returns 0 or -1 (invalid). */
static int check_plan(const char *path, int no_preflight)
{
  hp_diags diags;
  hp_plan *plan = NULL;
  int r;

  hp_diags_init(&diags);
  r = hp_plan_load(path, &plan, &diags);
  if (r == 0 && !no_preflight)
    r = preflight(plan, &diags);
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
  int c, i, n = 0, bad = 0, no_preflight = 0;

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
    if (c == OPT_NO_PREFLIGHT) {
      no_preflight = 1;
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
    if (check_plan(plans[i], no_preflight))
      bad = 1;
  free(plans);
  return bad || n == 0 ? HP_EXIT_USAGE : HP_EXIT_OK;
}
