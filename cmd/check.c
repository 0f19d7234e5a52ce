/*
 * hprun check PLAN.yaml: validate a plan, then preflight it: everything the run would refuse
 * before its first run (a program or wrapper not found, a profiler not on PATH, an unreadable
 * env_script, a launcher missing) is found by the run's own preparation, through a dry run whose
 * listing is thrown away, so the messages and the exit code (2) are the run's; an output folder
 * where the session folder cannot be created is the run's `cannot create` message and exit 4. --no-preflight
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
  fprintf(fp,
          "usage: hprun check [--no-preflight] PLAN.yaml...\n"
          "Validates each plan and prints its errors as FILE:LINE:COL: error: ...; exit 2 if any.\n"
          "Then preflights it as the run would: programs, wrappers, profilers, env_script and\n"
          "launchers must be found (--no-preflight: the plan alone, for a machine without them),\n"
          "and the session folder must be creatable in the output folder (else exit 4).\n");
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
  /* The session folder is the first thing the run creates: a place it cannot be made fails the
   * run with exit 4, and the check too. */
  return r ? r : hp_session_check_output(plan, &opts, diags);
}

/* Loads one plan and says what it holds, or why it is invalid or would be refused by the run.
 * Returns 0, HP_EXIT_USAGE (invalid, or a program or profiler missing) or HP_EXIT_IO (the session
 * folder cannot be created where the plan puts it). */
static int check_plan(const char *path, int no_preflight)
{
  hp_diags diags;
  hp_plan *plan = NULL;
  int r, loaded;

  hp_diags_init(&diags);
  r = hp_plan_load(path, &plan, &diags);
  loaded = r == 0;
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
  return r == 0 ? 0 : r == HP_EIO && loaded ? HP_EXIT_IO : HP_EXIT_USAGE;
}

int cmd_check(int argc, char **argv)
{
  const char **plans;
  cmd_opts o;
  int c, i, n = 0, worst = 0, code, no_preflight = 0;

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
  /* A plan the run would refuse (2) outweighs one whose folder it could not create (4): the
   * run of that plan would stop at 2 before making any folder. */
  for (i = 0; i < n; i++)
    if ((code = check_plan(plans[i], no_preflight)) != 0 && worst != HP_EXIT_USAGE)
      worst = code;
  free(plans);
  return n == 0 ? HP_EXIT_USAGE : worst;
}
