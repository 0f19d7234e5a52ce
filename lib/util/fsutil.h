/*
 * Files and folders (lib/util/fsutil.c). Paths are the caller's; every returned string is
 * malloc'd and the caller's to free().
 */
#ifndef HPRUN_UTIL_FSUTIL_H
#define HPRUN_UTIL_FSUTIL_H

#include <stddef.h>

/* Writes `len` bytes to `path` through a temporary file and rename(2), so a reader never sees a
 * half-written file. With `exclusive`, fails with HP_EEXIST if `path` exists. */
int hp__write_file(const char *path, const char *data, size_t len, int exclusive);
/* Reads a whole file (NUL-terminated). *out is malloc'd; the caller frees it. */
int hp__read_file(const char *path, char **out, size_t *len);
/* mkdir -p. Existing folders are fine. */
int hp__mkdirs(const char *path, int mode);
/* Joins two path parts with one slash. Returns NULL on HP_ENOMEM. */
char *hp__path_join(const char *a, const char *b);
/* Looks `prog` up on PATH as execvp would; *out is malloc'd. HP_ENOENT when not found. */
int hp__which(const char *prog, char **out);

#endif /* HPRUN_UTIL_FSUTIL_H */
