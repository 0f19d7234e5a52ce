/*
 * The session's own renderings, written together: summary.json and report.md.
 */
#include "hprun.h"
#include "util/fsutil.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <string.h>

/* Renders summary.json and report.md into the session folder. These are renderings of the
 * measurements (which live in the run folders and stay untouched), so re-rendering replaces them. */
int hp_report_write_all(const hp_session *s)
{
  char *text = NULL, *path = NULL;
  int r;

  if ((r = hp_report_json(s, &text)) != 0)
    return r;
  path = hp__path_join(s->dir, "summary.json");
  r = path ? hp__write_file(path, text, strlen(text), 0) : HP_ENOMEM;
  free(path);
  free(text);
  text = NULL;
  if (r)
    return r;
  if ((r = hp_report_markdown(s, &text)) != 0)
    return r;
  path = hp__path_join(s->dir, "report.md");
  r = path ? hp__write_file(path, text, strlen(text), 0) : HP_ENOMEM;
  free(path);
  free(text);
  return r;
}
