/*
 * hprun run PLAN.yaml: run a session and print its table.
 */
#include "cmd.h"
#include "args.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_usage(FILE *fp)
{
  fprintf(fp,
          "usage: hprun [run] PLAN.yaml [options]\n"
          "  --dry-run         print every command line with its folder; run nothing\n"
          "  --quiet           do not show the programs' output live (it is saved anyway)\n"
          "  --output DIR      parent folder for the session (default: the plan's `output`)\n"
          "  --repeat N        counted runs per pass (overrides the plan)\n"
          "  --grace SECONDS   wait between SIGTERM and SIGKILL when stopping a run (default 5)\n"
          "  --junit FILE      also write JUnit XML (one testcase per pass and variant)\n"
          "  --markdown FILE   also write the Markdown report there\n");
}

int cmd_run(int argc, char **argv)
{
  const char *plan_path = NULL, *junit = NULL, *markdown = NULL, *v;
  hp_run_opts opts;
  hp_diags diags;
  hp_plan *plan = NULL;
  hp_session *s = NULL;
  int i, r, code;

  memset(&opts, 0, sizeof(opts));
  hp_diags_init(&diags);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      run_usage(stdout);
      return HP_EXIT_OK;
    } else if (strcmp(argv[i], "--dry-run") == 0 || strcmp(argv[i], "-n") == 0) {
      opts.dry_run = 1;
    } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
      opts.quiet = 1;
    } else if (arg_value(argc, argv, &i, "--output", &v)) {
      if (!v)
        return HP_EXIT_USAGE;
      opts.output = v;
    } else if (arg_value(argc, argv, &i, "--repeat", &v)) {
      char *end;
      long n = v ? strtol(v, &end, 10) : 0;
      if (!v || *end || n < 1 || n > 100000) {
        fprintf(stderr, "hprun: --repeat needs an integer from 1 to 100000\n");
        return HP_EXIT_USAGE;
      }
      opts.repeat = (int)n;
    } else if (arg_value(argc, argv, &i, "--grace", &v)) {
      char *end;
      double g = v ? strtod(v, &end) : -1;
      if (!v || *end || !(g > 0 && g <= 3600)) {
        fprintf(stderr, "hprun: --grace needs seconds, more than 0 and at most 3600\n");
        return HP_EXIT_USAGE;
      }
      opts.grace_s = g;
    } else if (arg_value(argc, argv, &i, "--junit", &v)) {
      if (!(junit = v))
        return HP_EXIT_USAGE;
    } else if (arg_value(argc, argv, &i, "--markdown", &v)) {
      if (!(markdown = v))
        return HP_EXIT_USAGE;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "hprun: unknown option '%s' (hprun run --help)\n", argv[i]);
      return HP_EXIT_USAGE;
    } else if (plan_path == NULL) {
      plan_path = argv[i];
    } else {
      fprintf(stderr, "hprun: one plan at a time ('%s' and '%s')\n", plan_path, argv[i]);
      return HP_EXIT_USAGE;
    }
  }
  if (plan_path == NULL) {
    run_usage(stderr);
    return HP_EXIT_USAGE;
  }

  r = hp_plan_load(plan_path, &plan, &diags);
  if (r) {
    hp_diags_print(&diags, stderr);
    if (diags.count == 0)
      fprintf(stderr, "%s: error: %s\n", plan_path, hp_strerror(r));
    hp_diags_free(&diags);
    /* A plan that does not exist is a usage error; one that exists but cannot be read is I/O. */
    return (r == HP_EIO && access(plan_path, F_OK) == 0) ? HP_EXIT_IO : HP_EXIT_USAGE;
  }
  if (opts.dry_run) {
    r = hp_session_dry_run(plan, &opts, stdout, &diags);
    hp_diags_print(&diags, stderr);
    code = r ? HP_EXIT_USAGE : HP_EXIT_OK;
    goto done;
  }

  r = hp_session_run(plan, &opts, &s, &diags);
  hp_diags_print(&diags, stderr);
  if (s == NULL) {
    /* Nothing ran: a program or profiler is missing, or the session folder failed. */
    if (diags.count == 0)
      fprintf(stderr, "hprun: %s\n", hp_strerror(r));
    code = r == HP_EIO || r == HP_EEXIST ? HP_EXIT_IO : HP_EXIT_USAGE;
    goto done;
  }
  hp_report_table(s, stdout);
  code = s->exit_code;
  if (junit && cmd_write_report(junit, hp_report_junit, s))
    code = code ? code : HP_EXIT_IO;
  if (markdown && cmd_write_report(markdown, hp_report_markdown, s))
    code = code ? code : HP_EXIT_IO;
  if (r == HP_EINTR)
    code = HP_EXIT_INTERRUPTED;
  else if (r == HP_ERUN)
    code = HP_EXIT_RUNFAIL;
  else if (r == HP_EIO || r == HP_EEXIST || (r && code == HP_EXIT_OK))
    code = HP_EXIT_IO;
  printf("summary: %s/summary.json  report: %s/report.md\n", s->dir, s->dir);

done:
  hp_session_free(s);
  hp_plan_free(plan);
  hp_diags_free(&diags);
  return code;
}
