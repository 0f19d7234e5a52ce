/*
 * Files and folders. Everything hprun writes goes through hp__write_file so that a reader (or a
 * crash) never sees half a file, and nothing measured is overwritten by accident.
 */
#include "util/fsutil.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int errno_to_hp(int e)
{
  switch (e) {
  case ENOMEM: return HP_ENOMEM;
  case ENOENT:
  case ENOTDIR: return HP_ENOENT;
  case EEXIST: return HP_EEXIST;
  case EINVAL: return HP_EINVAL;
  default: return HP_EIO;
  }
}

int hp__write_file(const char *path, const char *data, size_t len, int exclusive)
{
  char *tmp = NULL;
  int fd = -1, r = 0;
  size_t off = 0;

  if (exclusive && access(path, F_OK) == 0)
    return HP_EEXIST;
  tmp = hp__asprintf("%s.tmp.%ld", path, (long)getpid());
  if (tmp == NULL)
    return HP_ENOMEM;
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    r = errno_to_hp(errno);
    goto fail;
  }
  while (off < len) {
    ssize_t n = write(fd, data + off, len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      r = HP_EIO;
      goto fail;
    }
    off += (size_t)n;
  }
  if (close(fd)) {
    fd = -1;
    r = HP_EIO;
    goto fail;
  }
  fd = -1;
  if (exclusive) {
    /* link(2) fails if the target exists, so two writers can never both "win". */
    if (link(tmp, path)) {
      r = errno_to_hp(errno);
      goto fail;
    }
    unlink(tmp);
  } else if (rename(tmp, path)) {
    r = errno_to_hp(errno);
    goto fail;
  }
  free(tmp);
  return 0;

fail:
  if (fd >= 0)
    close(fd);
  if (tmp)
    unlink(tmp);
  free(tmp);
  return r;
}

int hp__read_file(const char *path, char **out, size_t *len)
{
  hp__buf b = HP__BUF_INIT;
  char chunk[65536];
  int fd, r = 0;
  ssize_t n;

  *out = NULL;
  if (len)
    *len = 0;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno_to_hp(errno);
  for (;;) {
    n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      r = HP_EIO;
      goto fail;
    }
    if (n == 0)
      break;
    if (hp__buf_add(&b, chunk, (size_t)n)) {
      r = HP_ENOMEM;
      goto fail;
    }
  }
  close(fd);
  if (len)
    *len = b.len;
  *out = hp__buf_steal(&b);
  return *out ? 0 : HP_ENOMEM;

fail:
  close(fd);
  hp__buf_free(&b);
  return r;
}

int hp__mkdirs(const char *path, int mode)
{
  char *p = hp__strdup(path), *s;
  int r = 0;

  if (p == NULL)
    return HP_ENOMEM;
  for (s = p + 1;; s++) {
    if (*s == '/' || *s == '\0') {
      char c = *s;
      *s = '\0';
      if (mkdir(p, (mode_t)mode) && errno != EEXIST) {
        r = errno_to_hp(errno);
        break;
      }
      *s = c;
      if (c == '\0')
        break;
    }
  }
  free(p);
  return r;
}

char *hp__path_join(const char *a, const char *b)
{
  size_t la = strlen(a);

  if (b[0] == '/' || la == 0)
    return hp__strdup(b);
  if (a[la - 1] == '/')
    return hp__asprintf("%s%s", a, b);
  return hp__asprintf("%s/%s", a, b);
}

int hp__which(const char *prog, char **out)
{
  const char *path, *p, *end;
  char *cand;

  *out = NULL;
  if (strchr(prog, '/')) {
    if (access(prog, X_OK))
      return HP_ENOENT;
    *out = hp__strdup(prog);
    return *out ? 0 : HP_ENOMEM;
  }
  path = getenv("PATH");
  if (path == NULL)
    path = "/usr/local/bin:/usr/bin:/bin";
  for (p = path;; p = end + 1) {
    struct stat st;
    end = strchr(p, ':');
    if (end == NULL)
      end = p + strlen(p);
    cand = hp__asprintf("%.*s/%s", (int)(end - p), end == p ? "." : p, prog);
    if (cand == NULL)
      return HP_ENOMEM;
    if (access(cand, X_OK) == 0 && stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
      *out = cand;
      return 0;
    }
    free(cand);
    if (*end == '\0')
      break;
  }
  return HP_ENOENT;
}
