/*
 * hprun report SESSION: re-render a stored session's reports without running anything. The runs'
 * values come from summary.json; profiler files are parsed again from the run folders.
 */
#include "cmd.h"
#include "args.h"

#include <stdlib.h>
#include <string.h>

int cmd_report(int argc, char **argv)
{
  const char *path = NULL, *junit = NULL, *markdown = NULL, *format = "text", *v;
  hp_session *s = NULL;
  hp_diags diags;
  char *text = NULL;
  int i, r, code = HP_EXIT_OK;

  hp_diags_init(&diags);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      printf("usage: hprun report SESSION [--format text|md|json|junit] [--junit FILE] "
             "[--markdown FILE]\nSESSION is a session folder or its summary.json. Prints the "
             "table (or the chosen format) and writes the requested files.\n");
      return HP_EXIT_OK;
    } else if (arg_value(argc, argv, &i, "--format", &v)) {
      if (!(format = v))
        return HP_EXIT_USAGE;
    } else if (arg_value(argc, argv, &i, "--junit", &v)) {
      if (!(junit = v))
        return HP_EXIT_USAGE;
    } else if (arg_value(argc, argv, &i, "--markdown", &v)) {
      if (!(markdown = v))
        return HP_EXIT_USAGE;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "hprun: unknown option '%s' (hprun report --help)\n", argv[i]);
      return HP_EXIT_USAGE;
    } else if (path == NULL) {
      path = argv[i];
    } else {
      fprintf(stderr, "hprun: report takes one session\n");
      return HP_EXIT_USAGE;
    }
  }
  if (path == NULL) {
    fprintf(stderr, "usage: hprun report SESSION [--format text|md|json|junit]\n");
    return HP_EXIT_USAGE;
  }
  if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "json") &&
      strcmp(format, "junit")) {
    fprintf(stderr, "hprun: --format must be text, md, json or junit\n");
    return HP_EXIT_USAGE;
  }
  r = hp_session_load(path, &s, &diags);
  hp_diags_print(&diags, stderr);
  if (r) {
    code = HP_EXIT_IO;
    goto done;
  }
  if (strcmp(format, "text") == 0)
    hp_report_table(s, stdout);
  else {
    r = strcmp(format, "md") == 0     ? hp_report_markdown(s, &text)
        : strcmp(format, "json") == 0 ? hp_report_json(s, &text)
                                      : hp_report_junit(s, &text);
    if (r) {
      code = HP_EXIT_IO;
      goto done;
    }
    fputs(text, stdout);
    free(text);
    text = NULL;
  }
  if ((junit && cmd_write_report(junit, hp_report_junit, s)) ||
      (markdown && cmd_write_report(markdown, hp_report_markdown, s))) {
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
