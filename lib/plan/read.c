/*
 * Reading a plan file. Two things matter more here than in a general file reader:
 *
 * - the size limit (limits.c says why it exists) is applied before anything is read when the
 *   size is known, and by reading at most one byte past the limit when it is not (a pipe, a
 *   device), so no plan, however large, costs more than the limit in memory or time;
 * - a file that cannot be read is reported with the system's own reason in words ("cannot read:
 *   Permission denied", "cannot read: Is a directory"), because a bare "input/output error" sends
 *   the user looking for a disk problem when the plan is only unreadable or not a file.
 */
#include "plan/plan.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reports why `path` cannot be read and turns errno `e` into the loader's code: a missing file is
 * HP_ENOENT (a usage error for the caller), a folder is not a plan (HP_EPLAN), the rest HP_EIO. */
static int cannot_read(hp_diags *diags, const char *path, int e)
{
  if (e == ENOMEM)
    return HP_ENOMEM;
  if (hp_diags_add(diags, HP_DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(e)))
    return HP_ENOMEM;
  if (e == ENOENT || e == ENOTDIR)
    return HP_ENOENT;
  return e == EISDIR ? HP_EPLAN : HP_EIO;
}

/* Reads what `fd` holds, up to one byte more than the limit, which tells "too big" apart. */
static int read_bounded(int fd, hp__buf *b, int *err)
{
  char chunk[65536];
  ssize_t n;

  while (b->len <= HP__PLAN_MAX_BYTES) {
    n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      *err = errno;
      return HP_EIO;
    }
    if (n == 0)
      break;
    if (hp__buf_add(b, chunk, (size_t)n))
      return HP_ENOMEM;
  }
  return 0;
}

int hp__plan_read(const char *path, char **text, size_t *len, hp_diags *diags)
{
  hp__buf b = HP__BUF_INIT;
  struct stat st;
  int fd, r, err = 0;

  *text = NULL;
  *len = 0;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cannot_read(diags, path, errno);
  if (fstat(fd, &st) != 0)
    st.st_mode = 0; /* unknown: read it and see */
  if (S_ISDIR(st.st_mode)) {
    r = cannot_read(diags, path, EISDIR);
    goto fail;
  }
  if (S_ISREG(st.st_mode) && st.st_size > (off_t)HP__PLAN_MAX_BYTES) {
    r = hp__plan_err_size(diags, path, (size_t)st.st_size, 0);
    goto fail;
  }
  if ((r = read_bounded(fd, &b, &err)) != 0) {
    if (r == HP_EIO)
      r = cannot_read(diags, path, err);
    goto fail;
  }
  if (b.len > HP__PLAN_MAX_BYTES) {
    r = hp__plan_err_size(diags, path, b.len, 1); /* it grew, or its size was not known */
    goto fail;
  }
  close(fd);
  *len = b.len;
  *text = hp__buf_steal(&b);
  return *text ? 0 : HP_ENOMEM;

fail:
  close(fd);
  hp__buf_free(&b);
  return r;
}

void hp__plan_loader_init(hp__loader *ld, const char *name, const char *text, size_t len,
                          long combo, yaml_document_t *doc)
{
  memset(ld, 0, sizeof(*ld));
  hp_diags_init(&ld->diags);
  ld->file = name;
  ld->text = text;
  ld->len = len;
  ld->tool_ok = 1;
  ld->combo = combo;
  ld->doc = doc;
}

int hp__plan_load_side(const char *path, const char *what, hp__side_parse *parse, void *arg,
                       hp_diags *diags)
{
  hp__loader ld;
  yaml_document_t doc;
  char *text = NULL;
  size_t len = 0;
  int r;

  if ((r = hp__read_file(path, &text, &len)) == HP_ENOMEM)
    return r;
  if (r) {
    hp_diags_add(diags, HP_DIAG_ERROR, path, 0, 0, "cannot read the %s: %s", what, hp_strerror(r));
    return HP_EIO;
  }
  hp__plan_loader_init(&ld, path, text, len, -1, &doc);
  /* The nesting limit guards libyaml here as in a plan (limits.c); the size limit is the plan's. */
  if (hp__plan_check_depth(&ld) == 0 && hp__yaml_load(&ld, &doc) == 1) {
    parse(&ld, yaml_document_get_root_node(&doc), arg);
    yaml_document_delete(&doc);
  }
  free(text);
  hp__plan_flush(&ld, diags);
  if (ld.oom)
    return HP_ENOMEM;
  return ld.nerrors ? HP_EPLAN : 0;
}
