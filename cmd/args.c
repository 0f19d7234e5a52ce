/*
 * Option parsing shared by the subcommands: a thin layer over getopt_long that keeps hprun's own
 * messages for bad options (args.h says what it promises). getopt's own messages are turned off,
 * because their wording differs between C libraries and hprun's output must not.
 */
#include "args.h"

#include <unistd.h>

#include <stdio.h>
#include <string.h>

void cmd_opts_init(cmd_opts *o, const char *cmd, const char *shortopts,
                   const struct option *longopts)
{
  memset(o, 0, sizeof(*o));
  o->cmd = cmd;
  o->longopts = longopts;
  /* "-": arguments that are not options come back in order (as 1) instead of being moved to the
   * end, whatever POSIXLY_CORRECT says. ":": a missing value comes back as ':', not '?'. */
  snprintf(o->shortopts, sizeof(o->shortopts), "-:%s", shortopts);
  /* glibc keeps getopt's state between parses; optind = 0 (not 1) makes it start afresh and
   * re-read the option string, as each subcommand's parse after main's dispatch needs. */
  optind = 0;
  opterr = 0;
}

/* The long name of the option getopt_long returns as `c`, or NULL. */
static const char *long_name(const struct option *longopts, int c)
{
  for (; longopts->name; longopts++)
    if (longopts->flag == NULL && longopts->val == c)
      return longopts->name;
  return NULL;
}

/* The option getopt_long just refused, as the user wrote it. */
static const char *refused(char **argv, cmd_opts *o)
{
  /* optopt is 0 for an unknown or ambiguous long option, and the option's own value for a long
   * option given a value it does not take. In both cases getopt has stepped past the whole word. */
  if (optopt == 0 || optopt >= CMD_OPT_JUNIT ||
      (optopt != ':' && optopt != '-' && strchr(o->shortopts + 2, optopt) != NULL))
    return argv[optind - 1];
  /* An unknown short option, perhaps inside a cluster such as -qx: name that letter alone. */
  o->unknown[0] = '-';
  o->unknown[1] = (char)optopt;
  o->unknown[2] = '\0';
  return o->unknown;
}

int cmd_getopt(int argc, char **argv, cmd_opts *o)
{
  const char *name;
  int c;

  if (!o->rest) {
    c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
    o->arg = optarg;
    if (c == ':') {
      c = optopt;
      o->arg = NULL;
      name = long_name(o->longopts, c);
      if (o->cmd && name)
        fprintf(stderr, "hprun: option --%s needs a value\n", name);
      else if (o->cmd)
        fprintf(stderr, "hprun: option -%c needs a value\n", c);
    } else if (c == '?') {
      o->arg = refused(argv, o);
      if (o->cmd)
        fprintf(stderr, "hprun: unknown option '%s' (hprun %s --help)\n", o->arg, o->cmd);
    }
    if (c != -1)
      return c;
    /* After `--` getopt_long stops with optind at the first of the arguments that follow. */
    o->rest = 1;
  }
  if (optind >= argc)
    return -1;
  o->arg = argv[optind++];
  return CMD_ARG;
}

int cmd_reports_option(cmd_reports *r, int c, const char *value)
{
  if (c == CMD_OPT_ASCII || c == CMD_OPT_BARS) {
    *(c == CMD_OPT_ASCII ? &r->ascii : &r->bars) = 1;
    return 0;
  }
  if (c == CMD_OPT_JUNIT)
    r->junit = value;
  else
    r->markdown = value;
  return value ? 0 : -1;
}

int cmd_reports_bars(const cmd_reports *r)
{
  return r->bars || (!r->ascii && isatty(STDOUT_FILENO));
}
