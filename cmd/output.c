/*
 * Writing the extra reports a user asks for (--junit, --markdown). These are renderings of a
 * session, so an existing file is replaced (CI jobs reuse the same path); the measurements stay
 * in the session folder, untouched.
 */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every failure is reported once, with the file and the system's reason; a full disk may show
 * only at fclose, when the buffered bytes are written. */
int cmd_write_text(const char *path, const char *text)
{
  FILE *fp = fopen(path, "we");
  int e = 0;

  if (fp == NULL) {
    fprintf(stderr, "hprun: error: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (fputs(text, fp) < 0)
    e = errno;
  if (fclose(fp) != 0 && e == 0)
    e = errno;
  if (e)
    fprintf(stderr, "hprun: error: cannot write %s: %s\n", path, strerror(e));
  return e ? -1 : 0;
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
