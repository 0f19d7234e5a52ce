/*
 * Files and folders (lib/util/sys/fsutil.c). Paths and folder descriptors are the caller's; every
 * returned string is malloc'd and the caller's to free(); every descriptor returned is new (with
 * O_CLOEXEC, so children never inherit it) and the caller's to close().
 *
 * The functions that end in _at work below an open folder `dirfd` on a relative path `rel` whose
 * components are opened one at a time with O_NOFOLLOW, so that nothing they create can land
 * outside the folder dirfd names, whatever was planted inside it: a symbolic link anywhere in
 * `rel` is refused (the reason ELOOP), and so is `.`, `..`, an empty component or an absolute
 * `rel` (EINVAL). They never reuse what exists: a file or folder they create must be new (EEXIST).
 *
 * The functions that return an int return 0 or a negative code. When hp__write_file(_at),
 * hp__mkdirs, hp__dir_open or an _at function fails, the code holds both the HP_E* kind of the
 * failure and the system's reason, its errno (hp__fs_code below): the reason travels with the
 * result, where errno would be changed by the next call that sets it. A failed write leaves no
 * temporary file. The other functions return plain HP_E* codes.
 */
#ifndef HPRUN_UTIL_FSUTIL_H
#define HPRUN_UTIL_FSUTIL_H

#include <stddef.h>

/* The code of a failure of kind `kind` (an HP_E* code) for the system's reason `e` (an errno):
 * negative, and never equal to an HP_E* code unless `kind` is HP_ENOMEM (which needs no reason)
 * or e is not a reason (<= 0); then it is `kind` itself. A caller compares, and returns further
 * to code that expects an HP_E* code, hp__fs_kind(r); it words the reason with hp__fs_errno(r)
 * (hp__fs_error). */
int hp__fs_code(int kind, int e);
/* The HP_E* kind of a code: `r` itself when it is 0 or a plain HP_E* code. */
int hp__fs_kind(int r);
/* The errno a code holds; for a plain HP_E* code the nearest one (HP_ENOMEM: ENOMEM, HP_ENOENT:
 * ENOENT, HP_EEXIST: EEXIST, HP_EINVAL: EINVAL, any other: EIO), 0 for 0. */
int hp__fs_errno(int r);

/* Writes `len` bytes to `path` through a temporary file and rename(2), so a reader never sees a
 * half-written file. With `exclusive`, fails with HP_EEXIST if `path` exists. The folders on the
 * way are the caller's (symbolic links among them are followed); the file itself is written as
 * hp__write_file_at does. */
int hp__write_file(const char *path, const char *data, size_t len, int exclusive);
/* Reads a whole file (NUL-terminated). *out is malloc'd; the caller frees it. */
int hp__read_file(const char *path, char **out, size_t *len);
/* The same for a file that may be hostile (a stored session's summary.json, manifest.json, plan
 * copy): with `max` > 0 it reads only a regular file (HP_EINVAL for a device, FIFO, socket or
 * folder, without waiting on a FIFO) of at most `max` bytes (HP_ERANGE past that, checked before
 * and while it is read), so memory and time stay bounded. max 0 is hp__read_file. */
int hp__read_file_max(const char *path, size_t max, char **out, size_t *len);
/* mkdir -p. Existing folders are fine (so it is for the user's folders, never a session's). */
int hp__mkdirs(const char *path, int mode);
/* Joins two path parts with one slash. Returns NULL on HP_ENOMEM. */
char *hp__path_join(const char *a, const char *b);
/* Looks `prog` up on PATH as execvp would; *out is malloc'd. HP_ENOENT when not found. */
int hp__which(const char *prog, char **out);
/* hp__which with the PATH of `env` (a NULL-terminated K=V array, as a child gets it); a NULL
 * env, or one without PATH, means hprun's own PATH. */
int hp__which_env(const char *prog, char *const *env, char **out);

/* Opens the existing folder `path` (a symbolic link to one is followed: the path is the user's)
 * for the _at functions: *fd is O_RDONLY | O_DIRECTORY | O_CLOEXEC. */
int hp__dir_open(const char *path, int *fd);
/* Opens the existing folder `rel` below dirfd, following no symbolic link on the way. */
int hp__dir_open_at(int dirfd, const char *rel, int *fd);
/* Creates the new folder `rel` below dirfd (mkdirat, `mode`) and, when fd is not NULL, opens it
 * (O_DIRECTORY | O_NOFOLLOW). Every component but the last must be an existing folder; the last
 * must not exist: kind HP_EEXIST (reason EEXIST) when anything is there, a dangling link
 * included. */
int hp__mkdir_at(int dirfd, const char *rel, int mode, int *fd);
/* Writes `len` bytes to `rel` below dirfd through a new temporary file beside it (named by
 * hp__tmp_name, created with O_CREAT | O_EXCL | O_NOFOLLOW), then renameat(2) onto `rel`, which
 * replaces the name itself and never follows a link there. With `exclusive`, linkat(2) instead:
 * an existing `rel` is refused (HP_EEXIST). A temporary name already taken, by anything, is
 * refused too (kind HP_EEXIST, reason EEXIST): something else put it there, and it is left
 * alone. */
int hp__write_file_at(int dirfd, const char *rel, const char *data, size_t len, int exclusive);
/* The one temporary name hp__write_file_at uses for the file name `name` (its last component):
 * "<name>.tmp.<pid>". NULL when out of memory. */
char *hp__tmp_name(const char *name);
/* The message for a file or folder that could not be made: "cannot VERB PATH: WHY", PATH being
 * `rel` below `dir` (dir NULL: rel as it is). WHY is strerror(e), except for the refusals above,
 * which say what hprun refuses: ELOOP a link in the way; EEXIST the target itself for VERB
 * "create" (a folder, or a file written exclusively), or the temporary name for VERB "write" (a
 * replacing write, where only that name can be in the way). malloc'd; NULL when out of memory. */
char *hp__fs_error(const char *verb, const char *dir, const char *rel, int e);

/* Moves the entry `name` (a file, link or folder) from folder sfd to folder dfd under the same
 * name, never replacing anything there (reason EEXIST). On another file system (EXDEV) it is
 * copied, links kept as links, and the original removed once its copy is complete; a folder goes
 * entry by entry, so what could not be copied stays in sfd. A FIFO, socket or device cannot cross
 * (reason EXDEV). Returns 0 or a code of kind HP_EIO with the system's reason. */
int hp__move_at(int sfd, const char *name, int dfd);

#endif /* HPRUN_UTIL_FSUTIL_H */
