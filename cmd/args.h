/*
 * Option parsing shared by the subcommands (cmd/args.c). Every subcommand reads its arguments with
 * getopt_long through cmd_getopt, which
 *   - returns options and other arguments in command-line order, so `hprun PLAN.yaml --dry-run`
 *     works and a command meets its errors in the order the user wrote them;
 *   - keeps hprun's own wording for bad options: getopt's messages are off, and cmd_getopt prints
 *     "hprun: unknown option '-x' (hprun CMD --help)" and "hprun: option --x needs a value"
 *     itself, or nothing for a command that words them its own way (summarize);
 *   - treats every argument after `--` as a positional one.
 * The --junit and --markdown options, which `run` and `report` share, are defined here once.
 * Nothing here allocates: every string handed back points into argv or into the cmd_opts.
 */
#ifndef HPRUN_CMD_ARGS_H
#define HPRUN_CMD_ARGS_H

#include <getopt.h>

/* Returned by a command's argument parser when the command goes on; any other value is the exit
 * status to return at once (0 after --help). */
#define CMD_GO_ON (-1)

/* cmd_getopt's value for an argument that is not an option (getopt_long's, too). */
#define CMD_ARG 1

/* getopt_long values of the long-only options, above every character. The shared ones come first;
 * a command numbers its own from CMD_OPT_OWN. */
enum {
  CMD_OPT_JUNIT = 256,
  CMD_OPT_MARKDOWN,
  CMD_OPT_ASCII,
  CMD_OPT_BARS,
  CMD_OPT_OWN
};

/* Entries of the commands' long-option tables. (clang-format would spread each over four lines.) */
/* clang-format off */
#define CMD_LONG_HELP {"help", no_argument, NULL, 'h'}
#define CMD_LONG_JUNIT {"junit", required_argument, NULL, CMD_OPT_JUNIT}
#define CMD_LONG_MARKDOWN {"markdown", required_argument, NULL, CMD_OPT_MARKDOWN}
#define CMD_LONG_ASCII {"ascii", no_argument, NULL, CMD_OPT_ASCII}
#define CMD_LONG_BARS {"bars", no_argument, NULL, CMD_OPT_BARS}
#define CMD_LONG_END {NULL, 0, NULL, 0}
/* clang-format on */

typedef struct cmd_opts {
  const char *cmd;               /* "run": messages name `hprun run --help`; NULL: print nothing */
  const struct option *longopts; /* ends with CMD_LONG_END */
  const char *arg;               /* after cmd_getopt: see there */
  int rest;                      /* 1 once getopt_long is done: what is left is positional */
  char shortopts[32];            /* "-:" and the command's short options */
  char unknown[3];               /* "-x", naming an unknown short option */
} cmd_opts;

/* Starts reading a command's argv[1..]: `shortopts` lists its short options without arguments
 * ("hnq"), `longopts` its long ones. Resets getopt, whose state outlives each parse. */
void cmd_opts_init(cmd_opts *o, const char *cmd, const char *shortopts,
                   const struct option *longopts);

/* The next argument. Returns
 *   CMD_ARG    for an argument that is not an option, in o->arg;
 *   the option's character or CMD_OPT_* value, with its value (if it takes one) in o->arg; that
 *              is NULL when the value is missing, and the message is printed already when o->cmd
 *              is set;
 *   '?'        for an unknown option, an ambiguous abbreviation or a value given to an option that
 *              takes none; o->arg names it as written (a short one as "-x"), and the message is
 *              printed already when o->cmd is set;
 *   -1         at the end. */
int cmd_getopt(int argc, char **argv, cmd_opts *o);

/* The extra reports of a session a user asks for; NULL when not asked. */
typedef struct cmd_reports {
  const char *junit;
  const char *markdown;
  int ascii; /* --ascii: no overhead bars in the table */
  int bars;  /* --bars: overhead bars even off a terminal */
} cmd_reports;

/* Keeps the value of --junit or --markdown (c is CMD_OPT_JUNIT or CMD_OPT_MARKDOWN). Returns 0, or
 * -1 when the value is missing (cmd_getopt has said so). */
int cmd_reports_option(cmd_reports *r, int c, const char *value);
/* Whether the terminal table gets its overhead bars: --bars, else on a terminal unless --ascii. */
int cmd_reports_bars(const cmd_reports *r);

#endif
