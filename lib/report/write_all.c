/*
 * The session's own renderings, written together into its folder after every session: one file
 * per entry of the table below, each produced by its writer. A new rendering that every session
 * should carry (report.html, say) is one more line in that table.
 */
#include "hprun.h"
#include "report/summary_keys.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *file;
  int (*write)(const hp_session *s, char **out);
} renderings[] = {
    {HP__SUMMARY_FILE, hp_report_json},
    {"report.md", hp_report_markdown},
};

/* These are renderings of the measurements (which live in the run folders and stay untouched), so
 * re-rendering replaces them. The first failure stops the rest and is returned. */
int hp_report_write_all(const hp_session *s)
{
  size_t i;
  int r;

  for (i = 0; i < sizeof(renderings) / sizeof(renderings[0]); i++) {
    char *text = NULL, *path;
    if ((r = renderings[i].write(s, &text)) != 0)
      return r;
    path = hp__path_join(s->dir, renderings[i].file);
    r = path ? hp__write_file(path, text, strlen(text), 0) : HP_ENOMEM;
    free(path);
    free(text);
    if (r)
      return r;
  }
  return 0;
}
