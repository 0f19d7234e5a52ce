/*
 * hprun report SESSION: re-render a stored session's reports without running anything. The runs'
 * values come from summary.json; profiler files are parsed again from the run folders.
 */
#include "cmd.h"
#include "args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What the command line asks of `report`. */
struct report_args {
  const char *path;
  const char *format;
  const char *html; /* --html FILE */
  int top;          /* --top N: rows per profile table; 0: the plan's, else the default */
  cmd_reports reports;
};

enum {
  OPT_FORMAT = CMD_OPT_OWN,
  OPT_HTML,
  OPT_TOP
};

static const struct option report_longopts[] = {CMD_LONG_HELP,
                                                {"format", required_argument, NULL, OPT_FORMAT},
                                                CMD_LONG_JUNIT,
                                                CMD_LONG_MARKDOWN,
                                                {"html", required_argument, NULL, OPT_HTML},
                                                {"top", required_argument, NULL, OPT_TOP},
                                                CMD_LONG_ASCII,
                                                CMD_LONG_BARS,
                                                CMD_LONG_END};

/* --top N: a whole number from 1 to HP_PROFILE_SUMMARY_TOP_MAX, as the plan's report.top. */
static int report_top(struct report_args *a, const char *v)
{
  char *end;
  long n;

  errno = 0;
  n = v ? strtol(v, &end, 10) : 0;
  if (v == NULL || *v == '\0' || *end != '\0' || errno || n < 1 || n > HP_PROFILE_SUMMARY_TOP_MAX) {
    fprintf(stderr, "hprun: report: --top needs a whole number from 1 to %d, got '%s'\n",
            HP_PROFILE_SUMMARY_TOP_MAX, v ? v : "");
    return HP_EXIT_USAGE;
  }
  a->top = (int)n;
  return CMD_GO_ON;
}

/* Takes one option or the session; returns CMD_GO_ON or the exit status. */
static int report_option(struct report_args *a, int c, const char *v)
{
  switch (c) {
  case 'h':
    printf("usage: hprun report SESSION [--format text|md|json|junit|html|csv] "
           "[--junit FILE] "
           "[--markdown FILE]\n                    [--html FILE] [--ascii | --bars] [--top N]\n"
           "SESSION is a session folder or "
           "its summary.json. Prints the table (or the chosen format) and writes the requested "
           "files. The table has overhead bars on a terminal (not with --ascii) or with --bars.\n"
           "--top N: rows per profile table in md and json (1 to %d; default: the plan's "
           "report.top, else %d).\n",
           HP_PROFILE_SUMMARY_TOP_MAX, HP_PROFILE_SUMMARY_TOP);
    return HP_EXIT_OK;
  case OPT_FORMAT:
    if (!(a->format = v))
      return HP_EXIT_USAGE;
    break;
  case OPT_HTML:
    if (!(a->html = v))
      return HP_EXIT_USAGE;
    break;
  case OPT_TOP: return report_top(a, v);
  case CMD_OPT_JUNIT:
  case CMD_OPT_MARKDOWN:
  case CMD_OPT_ASCII:
  case CMD_OPT_BARS:
    if (cmd_reports_option(&a->reports, c, v))
      return HP_EXIT_USAGE;
    break;
  case CMD_ARG:
    if (a->path != NULL) {
      fprintf(stderr, "hprun: report takes one session\n");
      return HP_EXIT_USAGE;
    }
    a->path = v;
    break;
  default: return HP_EXIT_USAGE; /* '?': cmd_getopt has said why */
  }
  return CMD_GO_ON;
}

static int report_parse(int argc, char **argv, struct report_args *a)
{
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  a->format = "text";
  cmd_opts_init(&o, "report", "h", report_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1)
    if ((code = report_option(a, c, o.arg)) != CMD_GO_ON)
      return code;
  if (a->path == NULL) {
    fprintf(stderr, "usage: hprun report SESSION [--format text|md|json|junit|html|csv]\n");
    return HP_EXIT_USAGE;
  }
  if (strcmp(a->format, "text") && strcmp(a->format, "md") && strcmp(a->format, "json") &&
      strcmp(a->format, "junit") && strcmp(a->format, "html") && strcmp(a->format, "csv")) {
    fprintf(stderr, "hprun: --format must be text, md, json, junit, html or csv\n");
    return HP_EXIT_USAGE;
  }
  return CMD_GO_ON;
}

int cmd_report(int argc, char **argv)
{
  struct report_args a;
  hp_session *s = NULL;
  hp_diags diags;
  char *text = NULL;
  int r, code;

  if ((code = report_parse(argc, argv, &a)) != CMD_GO_ON)
    return code;
  hp_diags_init(&diags);
  r = hp_session_load(a.path, &s, &diags);
  hp_diags_print(&diags, stderr);
  if (r) {
    code = HP_EXIT_IO;
    goto done;
  }
  if (a.top > 0)
    s->report_top = a.top;
  if (strcmp(a.format, "text") == 0)
    hp_report_table_bars(s, stdout, cmd_reports_bars(&a.reports));
  else {
    r = strcmp(a.format, "md") == 0     ? hp_report_markdown(s, &text)
        : strcmp(a.format, "json") == 0 ? hp_report_json(s, &text)
        : strcmp(a.format, "html") == 0 ? hp_report_html(s, &text)
        : strcmp(a.format, "csv") == 0  ? hp_report_csv(s, &text)
                                        : hp_report_junit(s, &text);
    if (r) {
      code = HP_EXIT_IO;
      goto done;
    }
    fputs(text, stdout);
  }
  /* The first report that cannot be written ends the command: the later ones are not tried. */
  if ((a.reports.junit && cmd_write_report(a.reports.junit, hp_report_junit, s)) ||
      (a.reports.markdown && cmd_write_report(a.reports.markdown, hp_report_markdown, s)) ||
      (a.html && cmd_write_report(a.html, hp_report_html, s))) {
    code = HP_EXIT_IO;
    goto done;
  }
  code = s->exit_code;

done:
  free(text);
  hp_session_free(s);
  hp_diags_free(&diags);
  return code;
}
