/*
 * Small helpers shared by the subcommands' option parsing. Header-only: each command's file is
 * self-contained, and these few lines are not worth a library API.
 */
#ifndef HPRUN_CMD_ARGS_H
#define HPRUN_CMD_ARGS_H

#include <stdio.h>
#include <string.h>

/* Matches `--name VALUE` and `--name=VALUE`. On a match advances *i past the value and sets
 * *val; a missing value prints an error and sets *val to NULL. Returns 1 on a match. */
static inline int arg_value(int argc, char **argv, int *i, const char *name, const char **val)
{
  size_t n = strlen(name);

  if (strncmp(argv[*i], name, n) != 0)
    return 0;
  if (argv[*i][n] == '=') {
    *val = argv[*i] + n + 1;
    return 1;
  }
  if (argv[*i][n] != '\0')
    return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "hprun: option %s needs a value\n", name);
    *val = NULL;
    return 1;
  }
  *val = argv[++*i];
  return 1;
}

#endif
