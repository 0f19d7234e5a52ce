/*
 * hprun's entry point: a table of subcommands, like git's builtins. `hprun plan.yaml` is short for
 * `hprun run plan.yaml`, and `hprun help COMMAND` is `hprun COMMAND --help`. Only argv[1] (and the
 * command after `help`) is looked at here; each subcommand reads its own options with getopt_long
 * (cmd/args.c), which restarts getopt for it.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

struct subcommand {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
};

static const struct subcommand commands[] = {
    {"run", cmd_run, "run a plan: every pass in its own process and folder (the default)"},
    {"check", cmd_check, "validate a plan and exit (nothing runs)"},
    {"summarize", cmd_summarize, "summarize profiler output files or a session folder"},
    {"report", cmd_report, "re-render a stored session's reports without running anything"},
    {"compare", cmd_compare, "compare two sessions; exit 1 on a significant regression"},
    {"peaks", cmd_peaks, "measure the roofline's ceilings (bandwidth, FP32, FP64) on this GPU"},
    {NULL, NULL, NULL}};

static void usage(FILE *fp)
{
  size_t i;

  fprintf(fp,
          "usage: hprun [run] PLAN.yaml [--dry-run] [--quiet] [--output DIR] [--repeat N]\n"
          "                 [--junit FILE] [--markdown FILE]\n"
          "       hprun [run] [options] [--tool T --mode M...] [--metric NAME] -- COMMAND...\n"
          "       hprun COMMAND [ARGS]   (hprun COMMAND --help for its options)\n\ncommands:\n");
  for (i = 0; commands[i].name; i++)
    fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
  /* `help` is no entry of the table (it dispatches to the others), but it is a command. */
  fprintf(fp, "  %-10s %s\n", "help", "hprun help COMMAND: the same as hprun COMMAND --help");
  fprintf(fp,
          "\nexit codes: 0 done, 1 a fail threshold or regression gate was exceeded, 2 plan or\n"
          "usage error, 3 a run failed, 4 a file could not be read or written, 130 interrupted.\n"
          "docs: docs/plan.md (plan keys), docs/summary.md (results), docs/ci.md (CI use).\n");
}

/* The subcommand called `name`, or NULL. */
static const struct subcommand *find_command(const char *name)
{
  size_t i;

  for (i = 0; commands[i].name; i++)
    if (strcmp(name, commands[i].name) == 0)
      return &commands[i];
  return NULL;
}

/* `hprun help [COMMAND]`: the overview, or exactly what `hprun COMMAND --help` prints, so that the
 * two can never differ (the command itself prints it). */
static int help(int argc, char **argv)
{
  static char help_opt[] = "--help";
  const struct subcommand *c;
  char *av[3];

  if (argc < 3) {
    usage(stdout);
    return HP_EXIT_OK;
  }
  if (argc > 3) {
    fprintf(stderr, "hprun: help takes one command (hprun help COMMAND)\n");
    return HP_EXIT_USAGE;
  }
  c = find_command(argv[2]);
  if (!c) {
    fprintf(stderr, "hprun: no command '%s' (hprun --help lists them)\n", argv[2]);
    return HP_EXIT_USAGE;
  }
  /* A fresh argv: getopt_long may permute it, and it must end with NULL like the real one. */
  av[0] = argv[2];
  av[1] = help_opt;
  av[2] = NULL;
  return c->fn(2, av);
}

/* `hprun --plan-keys`, not in the usage: every key the plan loader accepts, one a line, as
 * `section.key` (a top-level key bare), its type and its default, separated by tabs, read from the
 * loader's own tables. A key that takes one of some words has them as its type, joined by ", ";
 * a key without a default has "-". The docs are checked against it (scripts/check-plan-keys, run
 * by tests/e2e/test_install.sh). */
static int plan_keys(void)
{
  const char *const *keys;
  const hp_plan_key_doc *docs;
  const char *section;
  size_t i, k, c;

  for (i = 0; (section = hp_plan_keys(i, &keys, &docs)) != NULL; i++)
    for (k = 0; keys[k]; k++) {
      const hp_plan_key_doc *d = &docs[k];
      printf("%s%s%s\t", section, *section ? "." : "", keys[k]);
      if (d->choices)
        for (c = 0; d->choices[c]; c++)
          printf("%s%s", c ? ", " : "", d->choices[c]);
      else
        fputs(d->type ? d->type : "?", stdout);
      printf("\t%s\n", d->dflt ? d->dflt : "-");
    }
  return HP_EXIT_OK;
}

int main(int argc, char **argv)
{
  const struct subcommand *c;

  if (argc < 2) {
    usage(stderr);
    return HP_EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return HP_EXIT_OK;
  }
  if (strcmp(argv[1], "help") == 0)
    return help(argc, argv);
  if (strcmp(argv[1], "--plan-keys") == 0)
    return plan_keys();
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    printf("hprun %s (summary schema %d)\n", HPRUN_VERSION, HPRUN_SUMMARY_SCHEMA);
    return HP_EXIT_OK;
  }
  c = find_command(argv[1]);
  if (c)
    return c->fn(argc - 1, argv + 1);
  /* Not a command: a plan file (or an option of `run`). argv[0] stands in for the command's name,
   * which getopt_long skips. */
  return cmd_run(argc, argv);
}
