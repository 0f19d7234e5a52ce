/*
 * hprun compare OLD NEW: per pass, variant and metric, the change with its confidence and
 * significance; exit 1 on a significant regression beyond the tolerance or on anything OLD has and
 * NEW lacks, exit 2 for sessions of different plans (unless --force).
 */
#include "cmd.h"
#include "args.h"

#include <stdlib.h>
#include <string.h>

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

/* Sessions of different plans are not comparable: says why and returns 1 when they differ. */
static int other_plans(const hp_session *a, const hp_session *b)
{
  char *why = NULL;
  int same = 1;

  if (hp_compare_same_plan(a, b, &same, &why) == 0 && !same)
    fprintf(stderr, "hprun: compare: %s; --force compares them anyway\n", why);
  free(why);
  return !same;
}

int cmd_compare(int argc, char **argv)
{
  const char *paths[2] = {NULL, NULL}, *v, *markdown = NULL;
  hp_compare_opts o = {0.05, 0.05, 1, 0};
  hp_session *a = NULL, *b = NULL;
  hp_diags diags;
  size_t nfail = 0;
  char *md = NULL;
  int i, n = 0, code = HP_EXIT_OK, r, force = 0;

  hp_diags_init(&diags);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      printf("usage: hprun compare OLD NEW [--tolerance 5%%] [--alpha 0.05] [--markdown FILE]\n"
             "                   [--allow-missing] [--force]\n"
             "OLD and NEW are session folders or summary.json files. Prints a Markdown table;\n"
             "exit 1 when a change is significant and worse than the tolerance, or when a pass,\n"
             "variant or metric of OLD is missing from NEW (--allow-missing: only a note).\n"
             "Sessions of different plans are refused (exit 2) unless --force.\n");
      return HP_EXIT_OK;
    } else if (strcmp(argv[i], "--allow-missing") == 0) {
      o.allow_missing = 1;
    } else if (strcmp(argv[i], "--force") == 0) {
      force = 1;
    } else if (arg_value(argc, argv, &i, "--tolerance", &v)) {
      if (!v || parse_fraction(v, &o.tolerance)) {
        fprintf(stderr, "hprun: --tolerance needs a fraction or a percentage (0.05 or 5%%)\n");
        return HP_EXIT_USAGE;
      }
    } else if (arg_value(argc, argv, &i, "--alpha", &v)) {
      if (!v || parse_fraction(v, &o.alpha) || !(o.alpha > 0 && o.alpha < 1)) {
        fprintf(stderr, "hprun: --alpha needs a number between 0 and 1\n");
        return HP_EXIT_USAGE;
      }
    } else if (arg_value(argc, argv, &i, "--markdown", &v)) {
      if (!(markdown = v))
        return HP_EXIT_USAGE;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "hprun: unknown option '%s' (hprun compare --help)\n", argv[i]);
      return HP_EXIT_USAGE;
    } else if (n < 2) {
      paths[n++] = argv[i];
    } else {
      fprintf(stderr, "hprun: compare takes two sessions\n");
      return HP_EXIT_USAGE;
    }
  }
  if (n != 2) {
    fprintf(stderr, "usage: hprun compare OLD NEW [--tolerance 5%%] [--alpha 0.05]\n");
    return HP_EXIT_USAGE;
  }
  if (hp_session_load(paths[0], &a, &diags) || hp_session_load(paths[1], &b, &diags)) {
    hp_diags_print(&diags, stderr);
    code = HP_EXIT_IO;
    goto done;
  }
  hp_diags_print(&diags, stderr);
  if (!force && other_plans(a, b)) {
    code = HP_EXIT_USAGE;
    goto done;
  }
  if ((r = hp_compare(a, b, &o, &md, &nfail)) != 0) {
    fprintf(stderr, "hprun: compare: %s\n", hp_strerror(r));
    code = HP_EXIT_IO;
    goto done;
  }
  fputs(md, stdout);
  if (markdown && cmd_write_text(markdown, md)) {
    code = HP_EXIT_IO;
    goto done;
  }
  code = nfail ? HP_EXIT_THRESHOLD : HP_EXIT_OK;

done:
  free(md);
  hp_session_free(a);
  hp_session_free(b);
  hp_diags_free(&diags);
  return code;
}
