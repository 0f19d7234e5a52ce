/*
 * Writing the extra reports a user asks for (--junit, --markdown). These are renderings of a
 * session, so an existing file is replaced (CI jobs reuse the same path); the measurements stay
 * in the session folder, untouched.
 */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_write_text(const char *path, const char *text)
{
  FILE *fp = fopen(path, "we");
  int bad;

  if (fp == NULL) {
    fprintf(stderr, "hprun: cannot write %s\n", path);
    return -1;
  }
  bad = fputs(text, fp) < 0;
  bad |= fclose(fp) != 0;
  if (bad)
    fprintf(stderr, "hprun: cannot write %s\n", path);
  return bad ? -1 : 0;
}

int cmd_write_report(const char *path, int (*render)(const hp_session *, char **),
                     const hp_session *s)
{
  char *text = NULL;
  int r;

  if (render(s, &text)) {
    fprintf(stderr, "hprun: cannot render %s: out of memory\n", path);
    return -1;
  }
  r = cmd_write_text(path, text);
  free(text);
  return r;
}
