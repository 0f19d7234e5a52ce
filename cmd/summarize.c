/*
 * hprun summarize: read what the profilers wrote (files or whole session folders) and print the
 * article's tables: HIP API, kernels, categories, kernel stacks, PMC resources, leak checks, ncu
 * metrics. docs/summarize.md describes the formats and the output.
 */
#include "cmd.h"
#include "args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: hprun summarize [--format text|json|md|csv] [--top N] [--categories FILE|SET]\n"
    "                       [--wide] [--quiet-warnings] [--roofline [--peaks FILE]]\n"
    "                       [--metrics LIST] [--region NAME] [-j N] PATH...\n"
    "\n"
    "Summarises hipprof, rocprof, rocprofv3 and ncu output. Each PATH is a file or a folder\n"
    "(read recursively; files that are not profiler output are ignored).\n"
    "\n"
    "  --format F         text (default), json, md (GitHub Markdown) or csv\n"
    "  --top N            rows per table; 0 shows all (default 10 for text and md, all otherwise)\n"
    "  --categories FILE  kernel categories from a YAML file holding `categories:`, or the\n"
    "                     built-in set cuda, rocm or pytorch (default: chosen by the profiler)\n"
    "  --wide             full kernel names (default: short, unique names in text and md)\n"
    "  --quiet-warnings   do not print warnings about the input (errors are still printed)\n"
    "  --roofline         print the kernels' roofline points instead of the tables\n"
    "  --peaks FILE       the ceilings for --roofline (a peaks file: hprun peaks, configs/peaks/)\n"
    "  -j, --jobs N       read N files at a time (default: one per CPU), and a large PMC,\n"
    "                     rocprofv3 trace or ncu raw CSV file as 32 MiB ranges; the output is\n"
    "                     the same for every N\n"
    "  --metrics LIST     ncu tables: only these metrics (ncu's --metrics list; default: all)\n"
    "  --region NAME      rocprofv3: only the kernel dispatches inside the roctx range NAME of\n"
    "                     the *_marker_api_trace.csv files (app.region; docs/summarize.md)\n"
    "\n"
    "Exit status: 0 success, 2 usage error, 4 a path could not be read.\n";

static int usage(const char *msg, const char *arg)
{
  if (msg)
    fprintf(stderr, "hprun summarize: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fputs(usage_text, stderr);
  return HP_EXIT_USAGE;
}

/* Prints the messages; with `quiet`, only errors. */
static void print_diags(const hp_diags *d, int quiet)
{
  static const char *const names[] = {"error", "warning", "note"};
  const hp_diag *p;

  for (p = d->head; p; p = p->next) {
    if (quiet && p->level != HP_DIAG_ERROR)
      continue;
    if (p->file)
      fputs(p->file, stderr);
    if (p->file && p->line > 0)
      fprintf(stderr, ":%ld", p->line);
    if (p->file && p->line > 0 && p->col > 0)
      fprintf(stderr, ":%ld", p->col);
    fprintf(stderr, "%s%s: %s\n", p->file ? ": " : "", names[p->level], p->msg);
  }
  if (d->dropped && !quiet)
    fprintf(stderr, "hprun: note: %zu more messages not shown\n", d->dropped);
}

/* What the command line asks of `summarize`. */
struct sum_args {
  hp_format format;
  hp_profile_opts opts;
  const char *catfile;
  int quiet;
  int roofline;
  const char *peaks;  /* --peaks FILE */
  const char *region; /* --region NAME */
  const char **paths; /* the PATH arguments, which may come before, between or after options */
  int npaths;
  int jobs; /* -j N; 0: one per online CPU */
};

enum {
  OPT_FORMAT = CMD_OPT_OWN,
  OPT_TOP,
  OPT_CATEGORIES,
  OPT_QUIET_WARNINGS,
  OPT_WIDE,
  OPT_ROOFLINE,
  OPT_PEAKS,
  OPT_METRICS,
  OPT_REGION,
  OPT_JOBS = 'j'
};

static const struct option sum_longopts[] = {
    CMD_LONG_HELP,
    {"format", required_argument, NULL, OPT_FORMAT},
    {"top", required_argument, NULL, OPT_TOP},
    {"categories", required_argument, NULL, OPT_CATEGORIES},
    {"quiet-warnings", no_argument, NULL, OPT_QUIET_WARNINGS},
    {"wide", no_argument, NULL, OPT_WIDE},
    {"roofline", no_argument, NULL, OPT_ROOFLINE},
    {"peaks", required_argument, NULL, OPT_PEAKS},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"metrics", required_argument, NULL, OPT_METRICS},
    {"region", required_argument, NULL, OPT_REGION},
    CMD_LONG_END};

/* Takes one option or PATH; returns CMD_GO_ON or the exit status. */
static int sum_option(struct sum_args *a, int c, const char *v)
{
  char *end;
  long n;

  switch (c) {
  case 'h': fputs(usage_text, stdout); return HP_EXIT_OK;
  case CMD_ARG: a->paths[a->npaths++] = v; break;
  case OPT_QUIET_WARNINGS: a->quiet = 1; break;
  case OPT_WIDE: a->opts.wide = 1; break;
  case OPT_ROOFLINE: a->roofline = 1; break;
  case OPT_PEAKS:
    if (v == NULL)
      return usage("--peaks needs a file", NULL);
    a->peaks = v;
    break;
  case OPT_FORMAT:
    if (v == NULL)
      return usage("--format needs a value", NULL);
    if (hp_format_parse(v, &a->format))
      return usage("unknown format (text, json, md or csv)", v);
    break;
  case OPT_TOP:
    if (v == NULL)
      return usage("--top needs a value", NULL);
    errno = 0;
    n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno || n < 0 || n > 1000000000)
      return usage("--top needs a whole number >= 0", v);
    a->opts.top = (int)n;
    break;
  case OPT_METRICS:
    if (v == NULL || v[0] == '\0')
      return usage("--metrics needs a list of ncu metrics", v);
    a->opts.metrics = v;
    break;
  case OPT_REGION:
    if (v == NULL || v[0] == '\0')
      return usage("--region needs the name of a roctx range", v);
    a->region = v;
    break;
  case OPT_CATEGORIES:
    if (v == NULL)
      return usage("--categories needs a file", NULL);
    a->catfile = v;
    break;
  case OPT_JOBS:
    if (v == NULL)
      return usage("--jobs needs a value", NULL);
    errno = 0;
    n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno || n < 1 || n > 1024)
      return usage("--jobs needs a whole number from 1 to 1024", v);
    a->jobs = (int)n;
    break;
  default: return usage("unknown option", v);
  }
  return CMD_GO_ON;
}

/* Fills *a from the command line. Returns CMD_GO_ON or the exit status; a->paths is the caller's
 * to free either way. */
static int sum_parse(int argc, char **argv, struct sum_args *a)
{
  cmd_opts o;
  int c, code;

  memset(a, 0, sizeof(*a));
  a->format = HP_FMT_TEXT;
  a->opts.top = -1;
  if ((a->paths = malloc((size_t)argc * sizeof(*a->paths))) == NULL)
    return HP_EXIT_IO;
  /* No command name: summarize words its own messages, each followed by the usage. */
  cmd_opts_init(&o, NULL, "hj:", sum_longopts);
  while ((c = cmd_getopt(argc, argv, &o)) != -1)
    if ((code = sum_option(a, c, o.arg)) != CMD_GO_ON)
      return code;
  if (a->npaths == 0)
    return usage("no PATH given", NULL);
  if (a->peaks && !a->roofline)
    return usage("--peaks is for --roofline", NULL);
  /* Text and Markdown are read by people: the article's top 10 unless told otherwise, and at
   * most HP_PROFILE_TEXT_CHILD metrics of a kernel unless --metrics says which (an ncu --set full
   * capture has about 1,900 a kernel). JSON and CSV carry everything. */
  if (a->format == HP_FMT_TEXT || a->format == HP_FMT_MD) {
    if (a->opts.top != 0 && (a->opts.metrics == NULL || a->opts.metrics[0] == '\0'))
      a->opts.child_top = HP_PROFILE_TEXT_CHILD;
    if (a->opts.top < 0)
      a->opts.top = HP_PROFILE_TEXT_TOP;
  } else if (a->opts.top < 0) {
    a->opts.top = 0;
  }
  return CMD_GO_ON;
}

/* Applies the --categories file to `p`. Returns CMD_GO_ON or the exit status. */
static int sum_categories(hp_profile *p, const char *catfile, hp_diags *diags)
{
  hp_category_rule *rules = NULL;
  size_t nrules = 0;
  int r;

  /* A bare word names a built-in set (configs/categories/NAME.yaml); a path names a file. */
  if (strchr(catfile, '/') == NULL && strchr(catfile, '.') == NULL) {
    if ((r = hp_profile_set_category_set(p, catfile)) == 0)
      return CMD_GO_ON;
    fprintf(stderr,
            "hprun summarize: --categories %s: no such built-in set (cuda, rocm, pytorch, "
            "auto); give a file as a path (./%s.yaml)\n",
            catfile, catfile);
    return r == HP_ENOENT ? HP_EXIT_USAGE : HP_EXIT_IO;
  }
  r = hp_categories_load(catfile, &rules, &nrules, diags);
  if (r == 0)
    r = hp_profile_set_categories(p, rules, nrules);
  hp_categories_free(rules, nrules);
  if (r == 0)
    return CMD_GO_ON;
  print_diags(diags, 0);
  fprintf(stderr, "hprun summarize: %s: %s\n", catfile, hp_strerror(r));
  return r == HP_ENOENT || r == HP_EIO ? HP_EXIT_IO : HP_EXIT_USAGE;
}

/* The roofline of the profile, with the --peaks file's ceilings. 0, HP_EPLAN (a bad peaks file,
 * said already), or another HP_E* code. */
static int sum_roofline(const hp_profile *p, const struct sum_args *a, hp_diags *diags)
{
  hp_roofline *roof = NULL;
  hp_peaks pk;
  int r = 0;

  hp_peaks_init(&pk);
  if (a->peaks && (r = hp_peaks_load(a->peaks, &pk, diags)) != 0) {
    print_diags(diags, 0);
    return r == HP_ENOMEM ? r : HP_EPLAN;
  }
  if ((r = hp_roofline_compute(p, a->peaks ? &pk : NULL, &roof)) == 0)
    r = hp_roofline_write(roof, a->peaks ? &pk : NULL, stdout, a->format);
  hp_roofline_free(roof);
  hp_peaks_clear(&pk);
  return r;
}

/* Reads every PATH into `p`, prints the messages and writes the summary. Returns the exit
 * status. */
static int sum_write(hp_profile *p, const struct sum_args *a, hp_diags *diags)
{
  int *errs = calloc((size_t)a->npaths, sizeof(*errs));
  int i, r, status = HP_EXIT_OK;

  /* Every file is read on its own and merged in order (docs/internals/merge.md): the same
   * output for every -j. */
  r = errs ? hp_profile_add_paths(p, a->paths, (size_t)a->npaths, a->jobs, diags, errs) : HP_ENOMEM;
  if (r) {
    fprintf(stderr, "hprun summarize: %s\n", hp_strerror(r));
    free(errs);
    return HP_EXIT_IO;
  }
  for (i = 0; i < a->npaths; i++) {
    if (errs[i]) {
      fprintf(stderr, "hprun summarize: %s: %s\n", a->paths[i],
              errs[i] == HP_ENOENT ? "no such file or folder" : hp_strerror(errs[i]));
      status = HP_EXIT_IO;
    }
  }
  free(errs);
  print_diags(diags, a->quiet);
  if (hp_profile_nfiles(p) == 0)
    fprintf(stderr, "hprun summarize: warning: no profiler output was found\n");
  r = a->roofline ? sum_roofline(p, a, diags) : hp_profile_write(p, stdout, a->format, &a->opts);
  if (r == HP_EPLAN)
    return HP_EXIT_USAGE;
  if (r) {
    fprintf(stderr, "hprun summarize: writing the summary: %s\n", hp_strerror(r));
    status = HP_EXIT_IO;
  }
  return status;
}

int cmd_summarize(int argc, char **argv)
{
  struct sum_args a;
  hp_profile *p = NULL;
  hp_diags diags;
  int r, status;

  hp_diags_init(&diags);
  diags.limit = 1000;
  if ((status = sum_parse(argc, argv, &a)) != CMD_GO_ON)
    goto done;
  if ((r = hp_profile_new(&p)) != 0) {
    fprintf(stderr, "hprun summarize: %s\n", hp_strerror(r));
    status = HP_EXIT_IO;
    goto done;
  }
  if (a.catfile && (status = sum_categories(p, a.catfile, &diags)) != CMD_GO_ON)
    goto done;
  if (a.region && (r = hp_profile_set_region(p, a.region)) != 0) {
    fprintf(stderr, "hprun summarize: %s\n", hp_strerror(r));
    status = HP_EXIT_IO;
    goto done;
  }
  status = sum_write(p, &a, &diags);

done:
  free(a.paths);
  hp_diags_free(&diags);
  hp_profile_free(p);
  return status;
}
