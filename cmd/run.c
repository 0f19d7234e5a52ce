/*
 * hprun run PLAN.yaml: run a session and print its table. `hprun [options] -- COMMAND...` runs a
 * plan made from the command line instead (cmd/adhoc.c).
 */
#include "cmd.h"
#include "adhoc.h"
#include "args.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line asks of `run`. */
struct run_args {
  const char *plan;
  hp_run_opts opts;
  cmd_reports reports;
  cmd_adhoc adhoc; /* a plan from the command line: adhoc.argc > 0 */
};

enum {
  OPT_OUTPUT = CMD_OPT_ADHOC_END,
  OPT_REPEAT,
  OPT_GRACE,
  OPT_KEEP_GOING,
  OPT_STRICT,
  OPT_SHOW_OUTPUT
};

static const struct option run_longopts[] = {CMD_LONG_HELP,
                                             {"dry-run", no_argument, NULL, 'n'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"show-output", no_argument, NULL, OPT_SHOW_OUTPUT},
                                             {"verbose", no_argument, NULL, 'v'},
                                             {"output", required_argument, NULL, OPT_OUTPUT},
                                             {"repeat", required_argument, NULL, OPT_REPEAT},
                                             {"grace", required_argument, NULL, OPT_GRACE},
                                             {"keep-going", no_argument, NULL, OPT_KEEP_GOING},
                                             {"strict", no_argument, NULL, OPT_STRICT},
                                             CMD_LONG_JUNIT,
                                             CMD_LONG_MARKDOWN,
                                             CMD_LONG_ASCII,
                                             CMD_LONG_BARS,
                                             CMD_LONG_ADHOC,
                                             CMD_LONG_END};

/* Columns of the tool list in the usage: names, then modes wrapped before this width. */
#define TOOL_INDENT 13
#define TOOL_WIDTH 80

/* Prints a "a, b, c" list from column TOOL_INDENT on, wrapping after a comma. */
static void print_wrapped(FILE *fp, const char *list)
{
  size_t col = TOOL_INDENT, len;
  const char *p = list, *comma;

  while (*p) {
    comma = strstr(p, ", ");
    len = comma ? (size_t)(comma - p) + 1 : strlen(p);
    if (p != list && col + 1 + len > TOOL_WIDTH) {
      fprintf(fp, "\n%*s", TOOL_INDENT, "");
      col = TOOL_INDENT;
    } else if (p != list) {
      fputc(' ', fp);
      col++;
    }
    fprintf(fp, "%.*s", (int)len, p);
    col += len;
    p = comma ? comma + 2 : p + len;
  }
  fputc('\n', fp);
}

static void run_usage(FILE *fp)
{
  size_t i;

  fprintf(fp,
          "usage: hprun [run] PLAN.yaml [options]\n"
          "       hprun [run] [options] [--tool T --mode M...] [--metric NAME] -- COMMAND...\n"
          "  --dry-run         print every command line with its folder; run nothing\n"
          "  --quiet           no progress lines (the programs' output is saved anyway)\n"
          "  --show-output     stream the programs' output, each line behind [pass run]\n"
          "  -v, --verbose     --show-output, and print each run's command line\n"
          "  --output DIR      parent folder for the session (default: the plan's `output`)\n"
          "  -r, --repeat N    counted runs per pass (overrides the plan; without a plan: 5)\n"
          "  --grace SECONDS   wait between SIGTERM and SIGKILL when stopping a run (default 5)\n"
          "  --keep-going      run every run even when a pass's first run fails\n"
          "  --strict          exit 1 on a pass flagged inconclusive or unconfirmed\n"
          "  --junit FILE      also write JUnit XML (one testcase per pass and variant)\n"
          "  --markdown FILE   also write the Markdown report there\n"
          "  --ascii           no overhead bars in the table (they are drawn on a terminal)\n"
          "  --bars            overhead bars in the table even when not on a terminal\n"
          "without a plan file, COMMAND is the app, and its baseline is always run:\n"
          "  --tool TOOL       the profiler of the --mode passes (default hipprof)\n"
          "  --mode MODE       a pass in that mode (repeatable)\n"
          "  --metric NAME     the app prints NAME=VALUE (repeatable; the first is primary;\n"
          "                    default: wall time, wall_ms)\n"
          "  --print-plan      write that plan as YAML and exit (keep it, edit it, run it)\n"
          "\ntools (plan: `profiler.tool` or a pass's `tool`) and modes (a pass's `mode`):\n");
  /* Read from the driver table, the one place that defines them (docs/drivers.md explains). */
  for (i = 0; i < hp_tool_count(); i++) {
    fprintf(fp, "  %-*s", TOOL_INDENT - 2, hp_tool_name(i));
    print_wrapped(fp, hp_tool_modes(hp_tool_name(i)));
  }
  fprintf(fp, "docs/drivers.md describes each mode.\n");
}

/* Takes one option or the plan; returns CMD_GO_ON or the exit status. */
static int run_option(struct run_args *a, int c, const char *v)
{
  char *end;
  long n;
  double g;

  switch (c) {
  case 'h': run_usage(stdout); return HP_EXIT_OK;
  case 'n': a->opts.dry_run = 1; break;
  case 'q': a->opts.quiet = 1; break;
  case 'v': a->opts.verbose = a->opts.show_output = 1; break;
  case OPT_SHOW_OUTPUT: a->opts.show_output = 1; break;
  case OPT_KEEP_GOING: a->opts.keep_going = 1; break;
  case OPT_STRICT: a->opts.strict = 1; break;
  case OPT_OUTPUT:
    if (!(a->opts.output = v))
      return HP_EXIT_USAGE;
    break;
  case 'r':
  case OPT_REPEAT:
    n = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || n < 1 || n > 100000) {
      fprintf(stderr, "hprun: --repeat needs an integer from 1 to 100000\n");
      return HP_EXIT_USAGE;
    }
    a->opts.repeat = (int)n;
    break;
  case OPT_GRACE:
    g = v ? strtod(v, &end) : -1;
    if (!v || *end || !(g > 0 && g <= 3600)) {
      fprintf(stderr, "hprun: --grace needs seconds, more than 0 and at most 3600\n");
      return HP_EXIT_USAGE;
    }
    a->opts.grace_s = g;
    break;
  case CMD_OPT_JUNIT:
  case CMD_OPT_MARKDOWN:
  case CMD_OPT_ASCII:
  case CMD_OPT_BARS:
    if (cmd_reports_option(&a->reports, c, v))
      return HP_EXIT_USAGE;
    break;
  case CMD_OPT_ADHOC_TOOL:
  case CMD_OPT_ADHOC_MODE:
  case CMD_OPT_ADHOC_METRIC:
  case CMD_OPT_ADHOC_PRINT:
    if (cmd_adhoc_option(&a->adhoc, c, v))
      return HP_EXIT_USAGE;
    break;
  case CMD_ARG:
    if (a->plan != NULL) {
      fprintf(stderr, "hprun: one plan at a time ('%s' and '%s')\n", a->plan, v);
      return HP_EXIT_USAGE;
    }
    a->plan = v;
    break;
  default: return HP_EXIT_USAGE; /* '?': cmd_getopt has said why */
  }
  return CMD_GO_ON;
}

static int run_parse(int argc, char **argv, struct run_args *a)
{
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  cmd_opts_init(&o, "run", "hnqvr:", run_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1) {
    if (c == CMD_ARG && o.rest) {
      /* The first word after `--` starts the command, and the rest belongs to it. */
      a->adhoc.argv = argv + optind - 1;
      a->adhoc.argc = (size_t)(argc - optind + 1);
      break;
    }
    if ((code = run_option(a, c, o.arg)) != CMD_GO_ON)
      return code;
  }
  if (a->plan && (a->adhoc.argc || cmd_adhoc_used(&a->adhoc))) {
    fprintf(stderr, "hprun: a plan file or a command after `--`, not both\n");
    return HP_EXIT_USAGE;
  }
  if (a->plan == NULL && a->adhoc.argc == 0 && cmd_adhoc_used(&a->adhoc)) {
    fprintf(stderr, "hprun: no command after `--` (hprun -- python3 train.py)\n");
    return HP_EXIT_USAGE;
  }
  if (a->plan == NULL && a->adhoc.argc == 0) {
    run_usage(stderr);
    return HP_EXIT_USAGE;
  }
  return CMD_GO_ON;
}

/* Names the session's summary.json and report.md, each only when it was written: a path that is
 * announced must hold the file (why one was not written is among the errors printed above). */
static void print_written(const hp_session *s)
{
  if (s->written & HP_WROTE_SUMMARY)
    printf("summary: %s/summary.json  ", s->dir);
  else
    printf("summary: not written  ");
  if (s->written & HP_WROTE_REPORT)
    printf("report: %s/report.md\n", s->dir);
  else
    printf("report: not written\n");
}

/* Runs the loaded plan, prints the table and writes the reports asked for; returns the exit
 * status. */
static int run_session(const hp_plan *plan, const struct run_args *a, hp_diags *diags)
{
  hp_session *s = NULL;
  int r, code;

  r = hp_session_run(plan, &a->opts, &s, diags);
  hp_diags_print(diags, stderr);
  if (s == NULL) {
    /* Nothing ran: a program or profiler is missing, or the session folder failed. */
    if (diags->count == 0)
      fprintf(stderr, "hprun: %s\n", hp_strerror(r));
    return r == HP_EIO || r == HP_EEXIST ? HP_EXIT_IO : HP_EXIT_USAGE;
  }
  hp_report_table_bars(s, stdout, cmd_reports_bars(&a->reports));
  code = s->exit_code;
  if (a->reports.junit && cmd_write_report(a->reports.junit, hp_report_junit, s))
    code = code ? code : HP_EXIT_IO;
  if (a->reports.markdown && cmd_write_report(a->reports.markdown, hp_report_markdown, s))
    code = code ? code : HP_EXIT_IO;
  if (r == HP_EINTR)
    code = HP_EXIT_INTERRUPTED;
  else if (r == HP_ERUN)
    code = HP_EXIT_RUNFAIL;
  else if (r == HP_EIO || r == HP_EEXIST || (r && code == HP_EXIT_OK))
    code = HP_EXIT_IO;
  print_written(s);
  hp_session_free(s);
  return code;
}

int cmd_run(int argc, char **argv)
{
  struct run_args a;
  hp_diags diags;
  hp_plan *plan = NULL;
  int r, code;

  if ((code = run_parse(argc, argv, &a)) != CMD_GO_ON)
    return code;
  hp_diags_init(&diags);
  if (a.adhoc.argc) {
    if ((code = cmd_adhoc_load(&a.adhoc, a.opts.repeat, &plan, &diags)) != CMD_GO_ON) {
      hp_diags_free(&diags);
      return code;
    }
    r = 0;
  } else {
    r = hp_plan_load(a.plan, &plan, &diags);
  }
  if (r) {
    hp_diags_print(&diags, stderr);
    if (diags.count == 0)
      fprintf(stderr, "%s: error: %s\n", a.plan, hp_strerror(r));
    hp_diags_free(&diags);
    /* A plan that does not exist is a usage error; one that exists but cannot be read is I/O. */
    return (r == HP_EIO && access(a.plan, F_OK) == 0) ? HP_EXIT_IO : HP_EXIT_USAGE;
  }
  if (a.opts.dry_run) {
    r = hp_session_dry_run(plan, &a.opts, stdout, &diags);
    hp_diags_print(&diags, stderr);
    code = r ? HP_EXIT_USAGE : HP_EXIT_OK;
  } else {
    code = run_session(plan, &a, &diags);
  }
  hp_plan_free(plan);
  hp_diags_free(&diags);
  return code;
}
