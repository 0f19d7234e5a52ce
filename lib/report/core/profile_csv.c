/*
 * The full profile of each profiled pass as a CSV file in the session folder,
 * `<pass>.profile.csv` (every table, every row: `hprun summarize --format csv --top 0`).
 * summary.json and report.md carry only the top rows of each table, so that their size does not
 * grow with the number of kernels or metrics; this file is where the rest is, and summary.json
 * names it (the pass's `profile_csv`).
 */
#include "report/core/profile_csv.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *hp__profile_csv_name(const char *pass)
{
  char *s = hp__asprintf("%s.profile.csv", pass ? pass : "pass"), *q;

  /* Pass names are plain words; anything else still makes a plain file name. */
  for (q = s; q && *q && strcmp(q, ".profile.csv") != 0; q++)
    if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_' && *q != '.')
      *q = '_';
  if (s && s[0] == '.')
    s[0] = '_';
  return s;
}

int hp__report_write_profile_csvs(const hp_session *s, int dirfd, hp_diags *diags)
{
  hp_profile_opts all = {0, 0, 1, 0, NULL};
  size_t i;
  int first = 0;

  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    char *name, *text = NULL;
    size_t len = 0;
    FILE *fp;
    int r;
    if (pr->profile == NULL || hp_profile_nfiles(pr->profile) == 0)
      continue;
    if ((name = hp__profile_csv_name(pr->name)) == NULL)
      return HP_ENOMEM;
    r = HP_ENOMEM;
    if ((fp = open_memstream(&text, &len)) != NULL) {
      r = hp_profile_write(pr->profile, fp, HP_FMT_CSV, &all);
      if (fclose(fp) != 0 || text == NULL)
        r = HP_ENOMEM;
    }
    if (r == 0 && (r = hp__write_file_at(dirfd, name, text, len, 0)) != 0 && diags) {
      char *msg = hp__fs_error("write", s->dir, name, hp__fs_errno(r));
      hp_diags_add(diags, HP_DIAG_ERROR, "hprun", 0, 0, "%s", msg ? msg : "out of memory");
      free(msg);
    }
    if (r && first == 0)
      first = hp__fs_kind(r);
    free(text);
    free(name);
  }
  return first;
}
