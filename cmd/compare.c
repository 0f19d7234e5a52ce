/*
 * hprun compare OLD NEW: per pass, variant and metric, the change with its interval, its
 * tolerance and its verdict (unchanged, regression, inconclusive); exit 1 on a regression of a
 * gated pass, on anything of OLD missing from NEW, and under --strict on an inconclusive change;
 * exit 2 for sessions of different plans (another name), or a --pass or --metric neither has.
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
  cmd_reports reports; /* --markdown and --junit of the comparison */
  /* The --pass and --metric names, pointing into argv; room for argc of each. */
  const char **passes, **metrics;
};

enum {
  OPT_TOLERANCE = CMD_OPT_OWN,
  OPT_ALPHA,
  OPT_ALLOW_MISSING,
  OPT_FORCE,
  OPT_PASS,
  OPT_METRIC,
  OPT_ALL_PASSES,
  OPT_STRICT
};

static const struct option compare_longopts[] = {
    CMD_LONG_HELP,
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"allow-missing", no_argument, NULL, OPT_ALLOW_MISSING},
    {"force", no_argument, NULL, OPT_FORCE},
    {"pass", required_argument, NULL, OPT_PASS},
    {"metric", required_argument, NULL, OPT_METRIC},
    {"all-passes", no_argument, NULL, OPT_ALL_PASSES},
    {"strict", no_argument, NULL, OPT_STRICT},
    CMD_LONG_JUNIT,
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
           "                   [--junit FILE] [--pass NAME]... [--metric NAME]...\n"
           "                   [--all-passes] [--strict] [--allow-missing] [--force]\n"
           "OLD and NEW are session folders or summary.json files. Prints a Markdown table;\n"
           "a change is a regression when its interval lies wholly beyond the tolerance,\n"
           "unchanged when inside it, inconclusive otherwise. --tolerance wins over the plan's\n"
           "per-metric tolerance. Exit 1 on a regression (distorted passes only with\n"
           "--all-passes), an inconclusive change with --strict, or a pass, variant or metric\n"
           "of OLD missing from NEW (--allow-missing: only a note). Sessions of different\n"
           "plans (names) are refused (exit 2) unless --force.\n");
    return HP_EXIT_OK;
  case OPT_ALLOW_MISSING: a->opts.allow_missing = 1; break;
  case OPT_FORCE: a->force = 1; break;
  case OPT_ALL_PASSES: a->opts.all_passes = 1; break;
  case OPT_STRICT: a->opts.strict = 1; break;
  case OPT_PASS:
  case OPT_METRIC:
    if (!v)
      return HP_EXIT_USAGE; /* cmd_getopt has said why */
    if (c == OPT_PASS)
      a->passes[a->opts.npasses++] = v;
    else
      a->metrics[a->opts.nmetrics++] = v;
    break;
  case OPT_TOLERANCE:
    if (!v || parse_fraction(v, &a->opts.tolerance)) {
      fprintf(stderr, "hprun: --tolerance needs a fraction or a percentage (0.05 or 5%%)\n");
      return HP_EXIT_USAGE;
    }
    a->opts.tolerance_given = 1;
    break;
  case OPT_ALPHA:
    if (!v || parse_fraction(v, &a->opts.alpha) || !(a->opts.alpha > 0 && a->opts.alpha < 1)) {
      fprintf(stderr, "hprun: --alpha needs a number between 0 and 1\n");
      return HP_EXIT_USAGE;
    }
    break;
  case CMD_OPT_JUNIT:
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
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  a->opts.tolerance = 0.05;
  a->opts.alpha = 0.05;
  a->opts.seed = 1;
  a->passes = calloc((size_t)argc + 1, sizeof(*a->passes));
  a->metrics = calloc((size_t)argc + 1, sizeof(*a->metrics));
  if (a->passes == NULL || a->metrics == NULL) {
    fprintf(stderr, "hprun: compare: %s\n", hp_strerror(HP_ENOMEM));
    return HP_EXIT_IO;
  }
  a->opts.passes = a->passes;
  a->opts.metrics = a->metrics;
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

/* Whether session s (or any combination of a sweep) has a pass, or a metric of a pass, named
 * name. */
static int session_has(const hp_session *s, const char *name, int metric)
{
  size_t i, k;

  for (i = 0; i < s->ncombos; i++)
    if (s->combos[i].s && session_has(s->combos[i].s, name, metric))
      return 1;
  for (i = 0; i < s->npasses; i++) {
    if (!metric && strcmp(s->passes[i].name, name) == 0)
      return 1;
    for (k = 0; metric && k < s->passes[i].nmetrics; k++)
      if (s->passes[i].metrics[k].name && strcmp(s->passes[i].metrics[k].name, name) == 0)
        return 1;
  }
  return 0;
}

/* A --pass or --metric that names nothing of either session is a typo, which must not pass a
 * gate by comparing nothing: says so and returns 1. */
static int unknown_filter(const struct compare_args *a, const hp_session *o, const hp_session *n)
{
  size_t i;

  for (i = 0; i < a->opts.npasses + a->opts.nmetrics; i++) {
    int metric = i >= a->opts.npasses;
    const char *name = metric ? a->metrics[i - a->opts.npasses] : a->passes[i];
    if (!session_has(o, name, metric) && !session_has(n, name, metric)) {
      fprintf(stderr, "hprun: compare: --%s %s: neither OLD nor NEW has a %s of that name\n",
              metric ? "metric" : "pass", name, metric ? "metric" : "pass");
      return 1;
    }
  }
  return 0;
}

/* The JUnit file of the comparison, when asked for. Returns 0 or HP_EXIT_IO. */
static int write_junit(const struct compare_args *a, const hp_session *o, const hp_session *n)
{
  char *xml = NULL;
  int r;

  if (a->reports.junit == NULL)
    return 0;
  if ((r = hp_compare_junit(o, n, &a->opts, &xml)) != 0) {
    fprintf(stderr, "hprun: compare: %s\n", hp_strerror(r));
    return HP_EXIT_IO;
  }
  r = cmd_write_text(a->reports.junit, xml) ? HP_EXIT_IO : 0;
  free(xml);
  return r;
}

int cmd_compare(int argc, char **argv)
{
  struct compare_args a;
  hp_session *old_s = NULL, *new_s = NULL;
  hp_diags diags;
  size_t nreg = 0;
  char *md = NULL;
  int code, r;

  hp_diags_init(&diags);
  if ((code = compare_parse(argc, argv, &a)) != CMD_GO_ON)
    goto done;
  if (hp_session_load(a.paths[0], &old_s, &diags) || hp_session_load(a.paths[1], &new_s, &diags)) {
    hp_diags_print(&diags, stderr);
    code = HP_EXIT_IO;
    goto done;
  }
  hp_diags_print(&diags, stderr);
  if ((!a.force && other_plans(old_s, new_s)) || unknown_filter(&a, old_s, new_s)) {
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
  if ((a.reports.markdown && cmd_write_text(a.reports.markdown, md)) ||
      write_junit(&a, old_s, new_s)) {
    code = HP_EXIT_IO;
    goto done;
  }
  code = nreg ? HP_EXIT_THRESHOLD : HP_EXIT_OK;

done:
  free(a.passes);
  free(a.metrics);
  free(md);
  hp_session_free(old_s);
  hp_session_free(new_s);
  hp_diags_free(&diags);
  return code;
}
