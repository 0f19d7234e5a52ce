/*
 * The command-line tool's subcommands, one file each (like git's builtins). Each returns the
 * process exit status (HP_EXIT_*). cmd/ includes only the public header.
 */
#ifndef HPRUN_CMD_H
#define HPRUN_CMD_H

#include "hprun.h"

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_summarize(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_peaks(int argc, char **argv);

/* cmd/output.c: write a text, or a session rendered by `render`, to `path` (replaced if it
 * exists). Return 0, or -1 after printing why. */
int cmd_write_text(const char *path, const char *text);
int cmd_write_report(const char *path, int (*render)(const hp_session *, char **),
                     const hp_session *s);

#endif
