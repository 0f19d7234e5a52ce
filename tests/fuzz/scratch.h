/*
 * The fuzz harnesses' scratch folder and the helpers around it.
 *
 * Some of hprun's entry points read files by name (a summary.json, a profiler's CSV whose format is
 * told by its file name), so a harness has to write its input to disk first. Every file a harness
 * writes lives in one folder per process, made once with mkdtemp under $TMPDIR (default /tmp) and
 * removed with everything in it when the process exits normally. A crash ends the process without
 * running exit handlers, so `make fuzz` points TMPDIR at build-fuzz/tmp and empties it afterwards.
 *
 * The module owns the folder and the /dev/null stream; callers own the paths they get from
 * fz_path. Every function aborts on failure: a harness that cannot set itself up must not report
 * its own trouble as a finding of the code under test.
 */
#ifndef FUZZ_SCRATCH_H
#define FUZZ_SCRATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* libFuzzer's entry points, declared here so that every harness has their prototypes. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder (an absolute path), made on the first call. */
const char *fz_dir(void);
/* A new malloc'd path `<scratch>/<name>`; `name` may hold slashes (the folders are not made). */
char *fz_path(const char *name);
/* Makes the folder `<scratch>/<name>` and the folders above it inside the scratch folder. */
void fz_mkdirs(const char *name);
/* Writes exactly `data[0..n)` to `path`, replacing the file. */
void fz_write(const char *path, const void *data, size_t n);
/* A stream that discards what is written to it, open for the life of the process. */
FILE *fz_null(void);

#endif
