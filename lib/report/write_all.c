/*
 * The session's own renderings, written together into its folder after every session: one file
 * per entry of the table below, each produced by its writer, and the full profiles beside them
 * (report/core/profile_csv.c). A new rendering that every session should carry is one more line
 * in that table.
 *
 * Each rendering is written on its own: when the disk fills up while report.md is written, the
 * summary.json before it keeps every measured value, and when summary.json cannot be written,
 * report.md is still tried. Each failure is reported once, with the file and the system's reason.
 */
#include "report/write_all.h"
#include "report/core/profile_csv.h"
#include "report/core/summary_keys.h"
#include "util/sys/fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *file;
  unsigned bit; /* HP_WROTE_* */
  int (*write)(const hp_session *s, char **out);
} renderings[] = {
    {HP__SUMMARY_FILE, HP_WROTE_SUMMARY, hp_report_json},
    {"report.md", HP_WROTE_REPORT, hp_report_markdown},
    {"report.html", HP_WROTE_HTML, hp_report_html},
};

/* These are renderings of the measurements (which live in the run folders and stay untouched), so
 * re-rendering replaces them. */
int hp__report_write_all_at(const hp_session *s, int dirfd, hp_diags *diags, unsigned *written)
{
  size_t i;
  int r, e, first = 0;

  for (i = 0; i < sizeof(renderings) / sizeof(renderings[0]); i++) {
    char *text = NULL;
    if ((r = renderings[i].write(s, &text)) == 0)
      e = hp__fs_errno(r = hp__write_file_at(dirfd, renderings[i].file, text, strlen(text), 0));
    else
      e = ENOMEM;
    free(text);
    if (r == 0 && written)
      *written |= renderings[i].bit;
    if (r && diags) {
      char *msg = hp__fs_error("write", s->dir, renderings[i].file, e);
      hp_diags_add(diags, HP_DIAG_ERROR, "hprun", 0, 0, "%s", msg ? msg : "out of memory");
      free(msg);
    }
    if (r && first == 0)
      first = hp__fs_kind(r);
  }
  /* The full profiles that summary.json and report.md show only the top of. */
  if ((r = hp__report_write_profile_csvs(s, dirfd, diags)) != 0 && first == 0)
    first = r;
  return first;
}
