/*
 * hprun compare OLD NEW: per pass, variant and metric, the change with its confidence and
 * significance; exit 1 on a significant regression beyond the tolerance or on
 * anything of OLD missing from NEW; exit 2 for sessions of different plans.
 */
#include "cmd.h"
#include "args.h"

#include <stdlib.h>
#include <string.h>

/* What the command line asks of `compare`. */
struct compare_args {
  const char *paths[2];
  int npaths;
  hp_compare_opts opts;
  int force;           /* compare sessions of different plans anyway */
  cmd_reports reports; /* only --markdown: the comparison is not a session */
};

enum {
  OPT_TOLERANCE = CMD_OPT_OWN,
  OPT_ALPHA,
  OPT_ALLOW_MISSING,
  OPT_FORCE
};

static const struct option compare_longopts[] = {
    CMD_LONG_HELP,
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"allow-missing", no_argument, NULL, OPT_ALLOW_MISSING},
    {"force", no_argument, NULL, OPT_FORCE},
    CMD_LONG_MARKDOWN,
    CMD_LONG_END};

static int parse_fraction(const char *s, double *out)
{
  char *end;
  double v = strtod(s, &end);

  if (end == s)
    return -1;
  if (*end == '%') {
    v /= 100.0;
    end++;
  }
  if (*end || !(v >= 0 && v < 100))
    return -1;
  *out = v;
  return 0;
}

/* Takes one option or session; returns CMD_GO_ON or the exit status. */
static int compare_option(struct compare_args *a, int c, const char *v)
{
  switch (c) {
  case 'h':
    printf("usage: hprun compare OLD NEW [--tolerance 5%%] [--alpha 0.05] [--markdown FILE]\n"
           "                   [--allow-missing] [--force]\n"
           "OLD and NEW are session folders or summary.json files. Prints a Markdown table;\n"
           "exit 1 when a change is significant and worse than the tolerance, or when a pass,\n"
           "variant or metric of OLD is missing from NEW (--allow-missing: only a note).\n"
           "Sessions of different plans are refused (exit 2) unless --force.\n");
    return HP_EXIT_OK;
  case OPT_ALLOW_MISSING: a->opts.allow_missing = 1; break;
  case OPT_FORCE: a->force = 1; break;
  case OPT_TOLERANCE:
    if (!v || parse_fraction(v, &a->opts.tolerance)) {
      fprintf(stderr, "hprun: --tolerance needs a fraction or a percentage (0.05 or 5%%)\n");
      return HP_EXIT_USAGE;
    }
    break;
  case OPT_ALPHA:
    if (!v || parse_fraction(v, &a->opts.alpha) || !(a->opts.alpha > 0 && a->opts.alpha < 1)) {
      fprintf(stderr, "hprun: --alpha needs a number between 0 and 1\n");
      return HP_EXIT_USAGE;
    }
    break;
  case CMD_OPT_MARKDOWN:
    if (cmd_reports_option(&a->reports, c, v))
      return HP_EXIT_USAGE;
    break;
  case CMD_ARG:
    if (a->npaths == 2) {
      fprintf(stderr, "hprun: compare takes two sessions\n");
      return HP_EXIT_USAGE;
    }
    a->paths[a->npaths++] = v;
    break;
  default: return HP_EXIT_USAGE; /* '?': cmd_getopt has said why */
  }
  return CMD_GO_ON;
}

static int compare_parse(int argc, char **argv, struct compare_args *a)
{
  hp_compare_opts defaults = {0.05, 0.05, 1, 0};
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  a->opts = defaults;
  cmd_opts_init(&o, "compare", "h", compare_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1)
    if ((code = compare_option(a, c, o.arg)) != CMD_GO_ON)
      return code;
  if (a->npaths != 2) {
    fprintf(stderr, "usage: hprun compare OLD NEW [--tolerance 5%%] [--alpha 0.05]\n");
    return HP_EXIT_USAGE;
  }
  return CMD_GO_ON;
}

/* Sessions of different plans are not comparable: says why and returns 1 when they differ. */
static int other_plans(const hp_session *a, const hp_session *b)
{
  char *why = NULL;
  int same = 1;

  if (hp_compare_same_plan(a, b, &same, &why) == 0 && !same)
    fprintf(stderr, "hprun: compare: %s%s\n", why,
            (a->ncombos > 0) != (b->ncombos > 0) ? "" : "; --force compares them anyway");
  free(why);
  return !same;
}

int cmd_compare(int argc, char **argv)
{
  struct compare_args a;
  hp_session *old_s = NULL, *new_s = NULL;
  hp_diags diags;
  size_t nreg = 0;
  char *md = NULL;
  int code, r;

  if ((code = compare_parse(argc, argv, &a)) != CMD_GO_ON)
    return code;
  hp_diags_init(&diags);
  if (hp_session_load(a.paths[0], &old_s, &diags) || hp_session_load(a.paths[1], &new_s, &diags)) {
    hp_diags_print(&diags, stderr);
    code = HP_EXIT_IO;
    goto done;
  }
  hp_diags_print(&diags, stderr);
  if (!a.force && other_plans(old_s, new_s)) {
    code = HP_EXIT_USAGE;
    goto done;
  }
  if ((r = hp_compare(old_s, new_s, &a.opts, &md, &nreg)) != 0) {
    if (r == HP_ENOTSUP) {
      /* Even with --force: a sweep has no passes of its own to set against a session's. */
      fprintf(stderr,
              "hprun: compare: one of OLD and NEW is a parameter sweep and the other is "
              "not; compare one combination's folder (SWEEP/NAME) with the session\n");
      code = HP_EXIT_USAGE;
      goto done;
    }
    fprintf(stderr, "hprun: compare: %s\n", hp_strerror(r));
    code = HP_EXIT_IO;
    goto done;
  }
  fputs(md, stdout);
  if (a.reports.markdown && cmd_write_text(a.reports.markdown, md)) {
    code = HP_EXIT_IO;
    goto done;
  }
  code = nreg ? HP_EXIT_THRESHOLD : HP_EXIT_OK;

done:
  free(md);
  hp_session_free(old_s);
  hp_session_free(new_s);
  hp_diags_free(&diags);
  return code;
}
