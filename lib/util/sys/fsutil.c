/*
 * Files and folders. Everything hprun writes goes through hp__write_file(_at) so that a reader (or
 * a crash) never sees half a file, and nothing measured is overwritten by accident. A session's
 * files and folders are made with the _at functions, relative to the session folder's descriptor
 * and never through a symbolic link, because the programs a session runs can write into that
 * folder too: whatever they plant there (a link named like a folder or a temporary file of
 * hprun's) must not make hprun write anywhere else.
 */
#include "util/sys/fsutil.h"
#include "util/base/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A folded code is kind - ERRNO_STEP * e: every HP_E* kind lies in (-ERRNO_STEP, 0), so both
 * parts come back out exactly. */
#define ERRNO_STEP 256

int hp__fs_code(int kind, int e)
{
  if (kind >= 0 || kind == HP_ENOMEM || e <= 0 || e > INT_MAX / ERRNO_STEP - 1)
    return kind;
  return kind - ERRNO_STEP * e;
}

int hp__fs_kind(int r)
{
  return r <= -ERRNO_STEP ? -(-r % ERRNO_STEP) : r;
}

int hp__fs_errno(int r)
{
  if (r <= -ERRNO_STEP)
    return -r / ERRNO_STEP;
  switch (r) {
  case 0: return 0;
  case HP_ENOMEM: return ENOMEM;
  case HP_ENOENT: return ENOENT;
  case HP_EEXIST: return EEXIST;
  case HP_EINVAL: return EINVAL;
  default: return EIO;
  }
}

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

/* The code of a failure with errno e, as every function here returns it. */
static int fs_fail(int e)
{
  return hp__fs_code(errno_to_hp(e), e);
}

/* The same for the functions that refuse links: a link where they would write is in the way,
 * like anything else that exists there. */
static int refusal(int e)
{
  return hp__fs_code(e == ELOOP ? HP_EEXIST : errno_to_hp(e), e);
}

/* Fails with errno `e` after closing `fd` (when it is not `keep`). */
static int fail_errno(int e, int fd, int keep)
{
  if (fd >= 0 && fd != keep)
    close(fd);
  return refusal(e);
}

/* Copies the component [p, p+n) of a relative path into part; EINVAL for an empty one, `.`, `..`
 * or one too long to be a name. */
static int component(const char *p, size_t n, char part[NAME_MAX + 1])
{
  if (n == 0 || n > NAME_MAX)
    return EINVAL;
  memcpy(part, p, n);
  part[n] = '\0';
  if (strcmp(part, ".") == 0 || strcmp(part, "..") == 0)
    return EINVAL;
  return 0;
}

/* Opens folder `name` below fd without following a link. A link there reads as ELOOP whatever
 * open(2) said (Linux may say ENOTDIR for O_DIRECTORY), so callers can name the refusal. */
static int open_dir_nofollow(int fd, const char *name)
{
  int nfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;

  if (nfd < 0 && (errno == ENOTDIR || errno == ELOOP) &&
      fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
    errno = ELOOP;
  return nfd;
}

/* Walks every component of `rel` but the last from dirfd, one openat at a time with O_NOFOLLOW.
 * *pfd is the folder the last component is in (dirfd itself when rel has one component; else a
 * new descriptor for the caller to close) and *leaf that component, checked like the others. */
static int walk_parent(int dirfd, const char *rel, int *pfd, char leaf[NAME_MAX + 1])
{
  char part[NAME_MAX + 1];
  const char *p = rel, *slash;
  int fd = dirfd, nfd, e;

  *pfd = -1;
  if (rel[0] == '/')
    return fail_errno(EINVAL, -1, -1);
  while ((slash = strchr(p, '/')) != NULL) {
    if ((e = component(p, (size_t)(slash - p), part)) != 0)
      return fail_errno(e, fd, dirfd);
    nfd = open_dir_nofollow(fd, part);
    if (nfd < 0)
      return fail_errno(errno, fd, dirfd);
    if (fd != dirfd)
      close(fd);
    fd = nfd;
    p = slash + 1;
  }
  if ((e = component(p, strlen(p), leaf)) != 0)
    return fail_errno(e, fd, dirfd);
  *pfd = fd;
  return 0;
}

int hp__dir_open(const char *path, int *fd)
{
  *fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return *fd < 0 ? fs_fail(errno) : 0;
}

int hp__dir_open_at(int dirfd, const char *rel, int *fd)
{
  char leaf[NAME_MAX + 1];
  int pfd, r;

  *fd = -1;
  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  *fd = open_dir_nofollow(pfd, leaf);
  if (*fd < 0)
    return fail_errno(errno, pfd, dirfd);
  if (pfd != dirfd)
    close(pfd);
  return 0;
}

int hp__mkdir_at(int dirfd, const char *rel, int mode, int *fd)
{
  char leaf[NAME_MAX + 1];
  int pfd, r;

  if (fd)
    *fd = -1;
  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  /* mkdirat fails with EEXIST on anything at that name, and never follows a link there. */
  if (mkdirat(pfd, leaf, (mode_t)mode) != 0)
    return fail_errno(errno, pfd, dirfd);
  if (fd && (*fd = open_dir_nofollow(pfd, leaf)) < 0)
    return fail_errno(errno, pfd, dirfd);
  if (pfd != dirfd)
    close(pfd);
  return 0;
}

int hp__create_at(int dirfd, const char *rel, int *fd)
{
  char leaf[NAME_MAX + 1];
  int pfd, r;

  *fd = -1;
  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  *fd = openat(pfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (*fd < 0)
    return fail_errno(errno, pfd, dirfd);
  if (pfd != dirfd)
    close(pfd);
  return 0;
}

char *hp__tmp_name(const char *name)
{
  return hp__asprintf("%s.tmp.%ld", name, (long)getpid());
}

/* Writes all of data to fd. Returns 0 or an errno (EIO when write(2) makes no progress). */
static int write_all(int fd, const char *data, size_t len)
{
  size_t off = 0;

  while (off < len) {
    ssize_t n = write(fd, data + off, len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return errno;
    if (n == 0)
      return EIO;
    off += (size_t)n;
  }
  return 0;
}

/* The temporary file is new (O_EXCL) and never a link (O_NOFOLLOW), so a name planted beside the
 * target cannot redirect the bytes; it is removed on failure only when this call created it. */
static int write_in(int pfd, const char *leaf, const char *data, size_t len, int exclusive)
{
  char *tmp = hp__tmp_name(leaf);
  struct stat st;
  int fd = -1, e = 0;

  if (tmp == NULL)
    return ENOMEM;
  if (exclusive && fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    free(tmp);
    return EEXIST;
  }
  fd = openat(pfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    e = errno;
    free(tmp);
    return e;
  }
  e = write_all(fd, data, len);
  /* Some file systems report a full disk only at close(2). */
  if (close(fd) != 0 && e == 0)
    e = errno;
  /* linkat fails if the target exists, so two writers can never both "win". */
  if (e == 0 && (exclusive ? linkat(pfd, tmp, pfd, leaf, 0) : renameat(pfd, tmp, pfd, leaf)))
    e = errno;
  if (e || exclusive)
    unlinkat(pfd, tmp, 0);
  free(tmp);
  return e;
}

int hp__write_file_at(int dirfd, const char *rel, const char *data, size_t len, int exclusive)
{
  char leaf[NAME_MAX + 1];
  int pfd, r, e;

  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  e = write_in(pfd, leaf, data, len, exclusive);
  if (pfd != dirfd)
    close(pfd);
  return e ? refusal(e) : 0;
}

int hp__write_file(const char *path, const char *data, size_t len, int exclusive)
{
  const char *slash = strrchr(path, '/');
  char *dir;
  int dfd, r;

  if (slash == NULL)
    return hp__write_file_at(AT_FDCWD, path, data, len, exclusive);
  dir = slash == path ? hp__strdup("/") : hp__strndup(path, (size_t)(slash - path));
  if (dir == NULL)
    return HP_ENOMEM;
  r = hp__dir_open(dir, &dfd);
  free(dir);
  if (r)
    return r;
  r = hp__write_file_at(dfd, slash + 1, data, len, exclusive);
  close(dfd);
  return r;
}

char *hp__fs_error(const char *verb, const char *dir, const char *rel, int e)
{
  char *path = dir ? hp__path_join(dir, rel) : hp__strdup(rel), *tmp = NULL, *msg;
  const char *slash;

  if (path == NULL)
    return NULL;
  if (e == ELOOP) {
    msg = hp__asprintf("cannot %s %s: a symbolic link is in the way (hprun never follows one "
                       "there)",
                       verb, path);
  } else if (e == EEXIST && strcmp(verb, "write") == 0) {
    slash = strrchr(path, '/');
    tmp = hp__tmp_name(slash ? slash + 1 : path);
    msg = tmp ? hp__asprintf("cannot %s %s: its temporary name %.*s%s exists already (hprun never "
                             "reuses or follows what it did not create)",
                             verb, path, slash ? (int)(slash - path + 1) : 0, path, tmp)
              : NULL;
  } else if (e == EEXIST) {
    msg = hp__asprintf("cannot %s %s: it exists already (hprun never reuses or replaces what it "
                       "did not create)",
                       verb, path);
  } else {
    msg = hp__asprintf("cannot %s %s: %s", verb, path, strerror(e));
  }
  free(tmp);
  free(path);
  return msg;
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
        r = fs_fail(errno);
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
