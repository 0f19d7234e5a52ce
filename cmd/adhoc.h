/*
 * A plan made from the command line (cmd/adhoc.c), for `hprun [options] -- COMMAND...`:
 *
 *   name: the program's base name        repeat: -r/--repeat N, else CMD_ADHOC_REPEAT
 *   app.command: the words after `--`    metrics: one shorthand entry per --metric NAME
 *   profiler.tool: --tool                passes: normal, then one pass per --mode, in order
 *
 * With no --metric the primary metric is the built-in wall_ms. The plan is YAML text loaded by
 * hp_plan_load_string, so every check of a plan file applies to it; --print-plan writes that text
 * to stdout instead of running it. Nothing here allocates but the loaded plan (the caller's); the
 * option values point into argv.
 */
#ifndef HPRUN_CMD_ADHOC_H
#define HPRUN_CMD_ADHOC_H

#include "args.h"
#include "hprun.h"

#include <stddef.h>

/* The most --mode and the most --metric options. */
#define CMD_ADHOC_MAX 32
/* Counted runs per pass when -r is not given: enough for an interval and a significance test. */
#define CMD_ADHOC_REPEAT 5

/* getopt_long values of the options, above the shared ones (args.h); run.c numbers its own
 * options from CMD_OPT_ADHOC_END. */
enum {
  CMD_OPT_ADHOC_TOOL = CMD_OPT_OWN,
  CMD_OPT_ADHOC_MODE,
  CMD_OPT_ADHOC_METRIC,
  CMD_OPT_ADHOC_PRINT,
  CMD_OPT_ADHOC_END
};

/* clang-format off */
#define CMD_LONG_ADHOC \
  {"tool", required_argument, NULL, CMD_OPT_ADHOC_TOOL}, \
  {"mode", required_argument, NULL, CMD_OPT_ADHOC_MODE}, \
  {"metric", required_argument, NULL, CMD_OPT_ADHOC_METRIC}, \
  {"print-plan", no_argument, NULL, CMD_OPT_ADHOC_PRINT}
/* clang-format on */

typedef struct cmd_adhoc {
  const char *tool;
  const char *modes[CMD_ADHOC_MAX];
  size_t nmodes;
  const char *metrics[CMD_ADHOC_MAX];
  size_t nmetrics;
  int print_plan;
  char **argv; /* the command: the words after `--` */
  size_t argc;
} cmd_adhoc;

/* Keeps one of the CMD_OPT_ADHOC_* options. Returns 0, or -1 after saying why. */
int cmd_adhoc_option(cmd_adhoc *a, int c, const char *v);
/* Whether any of those options was given (they need a command after `--`). */
int cmd_adhoc_used(const cmd_adhoc *a);
/* Makes that plan and loads it into *plan (`repeat` 0: CMD_ADHOC_REPEAT). Returns CMD_GO_ON;
 * HP_EXIT_OK after --print-plan printed it; or an exit status after saying why (no command,
 * --tool without --mode, the loader's messages). */
int cmd_adhoc_load(const cmd_adhoc *a, int repeat, hp_plan **plan, hp_diags *diags);

#endif
