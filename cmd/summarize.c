/*
 * hprun summarize: read what the profilers wrote (files or whole session folders) and print the
 * article's tables: HIP API, kernels, categories, kernel stacks, PMC resources, leak checks, ncu
 * metrics. docs/summarize.md describes the formats and the output.
 */
#include "hprun.h"
#include "cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: hprun summarize [--format text|json|md|csv] [--top N] [--categories FILE]\n"
    "                       [--quiet-warnings] PATH...\n"
    "\n"
    "Summarises hipprof, rocprof, rocprofv3 and ncu output. Each PATH is a file or a folder\n"
    "(read recursively; files that are not profiler output are ignored).\n"
    "\n"
    "  --format F         text (default), json, md (GitHub Markdown) or csv\n"
    "  --top N            rows per table; 0 shows all (default 10 for text and md, all otherwise)\n"
    "  --categories FILE  kernel categories from a YAML file holding `categories:`\n"
    "  --quiet-warnings   do not print warnings about the input (errors are still printed)\n"
    "\n"
    "Exit status: 0 success, 2 usage error, 4 a path could not be read.\n";

static int usage(const char *msg, const char *arg)
{
  if (msg)
    fprintf(stderr, "hprun summarize: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fputs(usage_text, stderr);
  return HP_EXIT_USAGE;
}

static int bad_usage(int *paths, const char *msg, const char *arg)
{
  free(paths);
  return usage(msg, arg);
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

/* The value of `--opt VALUE` or `--opt=VALUE` at argv[*i]; NULL if argv[*i] is another option. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
  size_t n = strlen(opt);

  *missing = 0;
  if (strncmp(argv[*i], opt, n) != 0)
    return NULL;
  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (argv[*i][n] != '\0')
    return NULL;
  if (*i + 1 >= argc) {
    *missing = 1;
    return NULL;
  }
  return argv[++*i];
}

int cmd_summarize(int argc, char **argv)
{
  hp_format format = HP_FMT_TEXT;
  hp_profile_opts opts = {-1, 0};
  hp_profile *p = NULL;
  hp_category_rule *rules = NULL;
  const char *catfile = NULL, *v;
  size_t nrules = 0;
  hp_diags diags;
  int i, r, quiet = 0, missing, status = HP_EXIT_OK, npaths = 0, opts_done = 0, *paths;

  /* Indexes of the PATH arguments, which may come before, between or after options. */
  paths = malloc((size_t)argc * sizeof(*paths));
  if (paths == NULL)
    return HP_EXIT_IO;
  hp_diags_init(&diags);
  diags.limit = 1000;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (opts_done || a[0] != '-' || strcmp(a, "-") == 0) {
      paths[npaths++] = i;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      opts_done = 1;
      continue;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      free(paths);
      return HP_EXIT_OK;
    }
    if (strcmp(a, "--quiet-warnings") == 0) {
      quiet = 1;
    } else if ((v = opt_value(argc, argv, &i, "--format", &missing)) != NULL || missing) {
      if (missing)
        return bad_usage(paths, "--format needs a value", NULL);
      if (hp_format_parse(v, &format))
        return bad_usage(paths, "unknown format (text, json, md or csv)", v);
    } else if ((v = opt_value(argc, argv, &i, "--top", &missing)) != NULL || missing) {
      char *end;
      long n;
      if (missing)
        return bad_usage(paths, "--top needs a value", NULL);
      errno = 0;
      n = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || errno || n < 0 || n > 1000000000)
        return bad_usage(paths, "--top needs a whole number >= 0", v);
      opts.top = (int)n;
    } else if ((v = opt_value(argc, argv, &i, "--categories", &missing)) != NULL || missing) {
      if (missing)
        return bad_usage(paths, "--categories needs a file", NULL);
      catfile = v;
    } else {
      return bad_usage(paths, "unknown option", a);
    }
  }
  if (npaths == 0)
    return bad_usage(paths, "no PATH given", NULL);
  /* Text and Markdown are read by people: the article's top 10 unless told otherwise. */
  if (opts.top < 0)
    opts.top = format == HP_FMT_TEXT || format == HP_FMT_MD ? 10 : 0;

  if ((r = hp_profile_new(&p)) != 0) {
    fprintf(stderr, "hprun summarize: %s\n", hp_strerror(r));
    return HP_EXIT_IO;
  }
  if (catfile) {
    r = hp_categories_load(catfile, &rules, &nrules, &diags);
    if (r == 0)
      r = hp_profile_set_categories(p, rules, nrules);
    hp_categories_free(rules, nrules);
    if (r) {
      print_diags(&diags, 0);
      fprintf(stderr, "hprun summarize: %s: %s\n", catfile, hp_strerror(r));
      status = r == HP_ENOENT || r == HP_EIO ? HP_EXIT_IO : HP_EXIT_USAGE;
      goto done;
    }
  }
  for (i = 0; i < npaths; i++) {
    const char *a = argv[paths[i]];
    r = hp_profile_add_path(p, a, &diags);
    if (r == HP_ENOMEM) {
      fprintf(stderr, "hprun summarize: %s\n", hp_strerror(r));
      status = HP_EXIT_IO;
      goto done;
    }
    if (r) {
      fprintf(stderr, "hprun summarize: %s: %s\n", a,
              r == HP_ENOENT ? "no such file or folder" : hp_strerror(r));
      status = HP_EXIT_IO;
    }
  }
  print_diags(&diags, quiet);
  if (hp_profile_nfiles(p) == 0)
    fprintf(stderr, "hprun summarize: warning: no profiler output was found\n");
  r = hp_profile_write(p, stdout, format, &opts);
  if (r) {
    fprintf(stderr, "hprun summarize: writing the summary: %s\n", hp_strerror(r));
    status = HP_EXIT_IO;
  }

done:
  free(paths);
  hp_diags_free(&diags);
  hp_profile_free(p);
  return status;
}
