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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
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

/* Closes fd unless it is `keep`, the caller's folder. */
static void close_own(int fd, int keep)
{
  if (fd >= 0 && fd != keep)
    close(fd);
}

/* Copies the component [p, p+n) of a relative path into part; refused (EINVAL) when it is empty,
 * `.`, `..` or too long to be a name. */
static int component(const char *p, size_t n, char part[NAME_MAX + 1])
{
  if (n == 0 || n > NAME_MAX)
    return refusal(EINVAL);
  memcpy(part, p, n);
  part[n] = '\0';
  return strcmp(part, ".") == 0 || strcmp(part, "..") == 0 ? refusal(EINVAL) : 0;
}

/* Opens folder `name` below fd into *nfd without following a link. A link there is refused for
 * ELOOP whatever open(2) said (Linux may say ENOTDIR for O_DIRECTORY), so that callers can name
 * the refusal. */
static int open_dir_nofollow(int fd, const char *name, int *nfd)
{
  struct stat st;
  int e;

  if ((*nfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
    return 0;
  e = errno;
  if ((e == ENOTDIR || e == ELOOP) && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISLNK(st.st_mode))
    e = ELOOP;
  return refusal(e);
}

/* Walks every component of `rel` but the last from dirfd, one openat at a time with O_NOFOLLOW.
 * *pfd is the folder the last component is in (dirfd itself when rel has one component; else a
 * new descriptor for the caller to close) and *leaf that component, checked like the others. */
static int walk_parent(int dirfd, const char *rel, int *pfd, char leaf[NAME_MAX + 1])
{
  char part[NAME_MAX + 1];
  const char *p = rel, *slash;
  int fd = dirfd, nfd, r;

  *pfd = -1;
  if (rel[0] == '/')
    return refusal(EINVAL);
  while ((slash = strchr(p, '/')) != NULL) {
    if ((r = component(p, (size_t)(slash - p), part)) != 0 ||
        (r = open_dir_nofollow(fd, part, &nfd)) != 0)
      goto fail;
    close_own(fd, dirfd);
    fd = nfd;
    p = slash + 1;
  }
  if ((r = component(p, strlen(p), leaf)) != 0)
    goto fail;
  *pfd = fd;
  return 0;

fail:
  close_own(fd, dirfd);
  return r;
}

int hp__dir_open(const char *path, int *fd)
{
  *fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return *fd < 0 ? fs_fail(errno) : 0;
}

/* hp__mkdir_at with `mode` (mode >= 0), else hp__dir_open_at. */
static int dir_at(int dirfd, const char *rel, int mode, int *fd)
{
  char leaf[NAME_MAX + 1];
  int pfd, r;

  if (fd)
    *fd = -1;
  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  /* mkdirat fails with EEXIST on anything at that name, and never follows a link there. */
  if (mode >= 0 && mkdirat(pfd, leaf, (mode_t)mode) != 0)
    r = refusal(errno);
  else if (fd)
    r = open_dir_nofollow(pfd, leaf, fd);
  close_own(pfd, dirfd);
  return r;
}

int hp__dir_open_at(int dirfd, const char *rel, int *fd)
{
  return dir_at(dirfd, rel, -1, fd);
}

int hp__mkdir_at(int dirfd, const char *rel, int mode, int *fd)
{
  return dir_at(dirfd, rel, mode, fd);
}

char *hp__tmp_name(const char *name)
{
  return hp__asprintf("%s.tmp.%ld", name, (long)getpid());
}

/* Writes all of data to fd; EIO when write(2) makes no progress. */
static int write_all(int fd, const char *data, size_t len)
{
  size_t off = 0;

  while (off < len) {
    ssize_t n = write(fd, data + off, len - off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return refusal(n < 0 ? errno : EIO);
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
  int fd, r;

  if (tmp == NULL)
    return HP_ENOMEM;
  if (exclusive && fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    r = refusal(EEXIST);
  } else if ((fd = openat(pfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) <
             0) {
    r = refusal(errno);
  } else {
    r = write_all(fd, data, len);
    /* Some file systems report a full disk only at close(2). */
    if (close(fd) != 0 && r == 0)
      r = refusal(errno);
    /* linkat fails if the target exists, so two writers can never both "win". */
    if (r == 0 && (exclusive ? linkat(pfd, tmp, pfd, leaf, 0) : renameat(pfd, tmp, pfd, leaf)))
      r = refusal(errno);
    if (r || exclusive)
      unlinkat(pfd, tmp, 0);
  }
  free(tmp);
  return r;
}

int hp__write_file_at(int dirfd, const char *rel, const char *data, size_t len, int exclusive)
{
  char leaf[NAME_MAX + 1];
  int pfd, r;

  if ((r = walk_parent(dirfd, rel, &pfd, leaf)) != 0)
    return r;
  r = write_in(pfd, leaf, data, len, exclusive);
  close_own(pfd, dirfd);
  return r;
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
  return hp__read_file_max(path, 0, out, len);
}

/* Refuses what is not a regular file, or one over `max` bytes (0: no limit). */
static int check_regular(int fd, size_t max)
{
  struct stat st;

  if (fstat(fd, &st) != 0)
    return errno_to_hp(errno);
  if (!S_ISREG(st.st_mode))
    return HP_EINVAL;
  return max && (uint64_t)st.st_size > (uint64_t)max ? HP_ERANGE : 0;
}

int hp__read_file_max(const char *path, size_t max, char **out, size_t *len)
{
  hp__buf b = HP__BUF_INIT;
  char chunk[65536];
  int fd, r = 0;
  ssize_t n;

  *out = NULL;
  if (len)
    *len = 0;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused. */
  fd = open(path, O_RDONLY | O_CLOEXEC | (max ? O_NONBLOCK : 0));
  if (fd < 0)
    return errno_to_hp(errno);
  if (max && (r = check_regular(fd, max)) != 0)
    goto fail;
  for (;;) {
    /* A file that grows while it is read is held to the limit too. */
    if (max && b.len > max) {
      r = HP_ERANGE;
      goto fail;
    }
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

/* The value of PATH in `env`, or hprun's own when env is NULL or has none. */
static const char *env_path(char *const *env)
{
  size_t i;

  for (i = 0; env && env[i]; i++)
    if (strncmp(env[i], "PATH=", 5) == 0)
      return env[i] + 5;
  return getenv("PATH");
}

int hp__which(const char *prog, char **out)
{
  return hp__which_env(prog, NULL, out);
}

int hp__which_env(const char *prog, char *const *env, char **out)
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
  path = env_path(env);
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

/* ---------------------------------------------------------------------------------------------- */
/* Moving across file systems.                                                                     */

/* How deep a moved folder may nest before the copy gives up (ELOOP): a bound on the recursion. */
#define MOVE_DEPTH 32

static int copy_entry(int sfd, const char *name, int dfd, int depth);

/* Copies the regular file `name` from sfd to dfd (new, never through a link), keeping its mode;
 * a copy that fails half way is removed. Returns 0 or an errno. */
static int copy_file(int sfd, const char *name, int dfd, mode_t mode)
{
  char chunk[65536];
  int in, out, w, e = 0;
  ssize_t n;

  if ((in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    return errno;
  if ((out = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)) < 0) {
    e = errno;
    close(in);
    return e;
  }
  while (e == 0 && (n = read(in, chunk, sizeof(chunk))) != 0) {
    if (n < 0)
      e = errno == EINTR ? 0 : errno;
    else if ((w = write_all(out, chunk, (size_t)n)) != 0)
      e = hp__fs_errno(w);
  }
  if (close(out) != 0 && e == 0)
    e = errno;
  close(in);
  if (e)
    unlinkat(dfd, name, 0);
  return e;
}

/* Copies the folder `name` from sfd to dfd, entry by entry; each entry copied is removed from the
 * source, so what fails stays where it was. Returns 0 or an errno. */
static int copy_dir(int sfd, const char *name, int dfd, mode_t mode, int depth)
{
  int s = -1, d = -1, e = 0;
  DIR *dir = NULL;
  struct dirent *ent;

  if (depth >= MOVE_DEPTH)
    return ELOOP;
  if (mkdirat(dfd, name, mode | S_IRWXU) != 0)
    return errno;
  if ((s = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
      (d = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
    e = errno;
    goto fail;
  }
  if ((dir = fdopendir(s)) == NULL) {
    e = errno;
    goto fail;
  }
  while (e == 0 && (errno = 0, ent = readdir(dir)) != NULL)
    if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0)
      e = copy_entry(dirfd(dir), ent->d_name, d, depth + 1);
  if (e == 0 && errno != 0)
    e = errno;

fail:
  if (dir)
    closedir(dir);
  else if (s >= 0)
    close(s);
  if (d >= 0)
    close(d);
  if (e == 0 && unlinkat(sfd, name, AT_REMOVEDIR) != 0)
    e = errno;
  return e;
}

/* Copies one entry (file, link or folder) from sfd to dfd and removes the source. Anything else
 * (a FIFO, a socket, a device) cannot be copied: EXDEV, as the rename said. */
static int copy_entry(int sfd, const char *name, int dfd, int depth)
{
  struct stat st;
  char target[PATH_MAX];
  ssize_t n;
  int e;

  if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno;
  if (S_ISDIR(st.st_mode))
    return copy_dir(sfd, name, dfd, st.st_mode & 07777, depth);
  if (S_ISREG(st.st_mode))
    e = copy_file(sfd, name, dfd, st.st_mode & 07777);
  else if (S_ISLNK(st.st_mode)) {
    n = readlinkat(sfd, name, target, sizeof(target) - 1);
    if (n >= 0)
      target[n] = '\0';
    e = n < 0 ? errno : symlinkat(target, dfd, name) != 0 ? errno : 0;
  } else
    e = EXDEV;
  if (e == 0 && unlinkat(sfd, name, 0) != 0)
    e = errno;
  return e;
}

int hp__move_at(int sfd, const char *name, int dfd)
{
  struct stat st;
  int e;

  if (renameat2(sfd, name, dfd, name, RENAME_NOREPLACE) == 0)
    return 0;
  e = errno;
  /* A file system without RENAME_NOREPLACE: a check first, then a plain rename. */
  if ((e == EINVAL || e == ENOSYS) && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    return hp__fs_code(HP_EIO, EEXIST);
  if (e == EINVAL || e == ENOSYS)
    e = renameat(sfd, name, dfd, name) == 0 ? 0 : errno;
  /* Another file system (the session on scratch or tmpfs, the app's folder on NFS): copy, then
   * remove the original, so the run's files still reach its folder. */
  if (e == EXDEV)
    e = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? EEXIST : copy_entry(sfd, name, dfd, 0);
  return e ? hp__fs_code(HP_EIO, e) : 0;
}
