/*
 * Environments for children: hprun's own (or a base one) with a plan's K=V entries applied, and
 * the environment a vendor's env.sh leaves behind (DTK, ROCm). The first is a copy of what
 * hp__env_overlay (runner.c, which gives each child its session token that way) points at.
 * Sourcing runs through the same runner as every other child, so it gets the same timeout and
 * process-group cleanup, and hprun never calls system(3) or popen(3): libuv owns SIGCHLD.
 */
#include "exec/runner.h"
#include "exec/guard.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <stdlib.h>
#include <string.h>

/* hp__env_overlay's environment with every string copied, so that it outlives `base`. */
char **hp__env_build(char **base, const hp_kv *set, size_t nset)
{
  char **view = hp__env_overlay(base, set, nset), **env;
  size_t n = 0, i;

  if (view == NULL)
    return NULL;
  while (view[n])
    n++;
  env = calloc(n + 1, sizeof(*env));
  for (i = 0; env && i < n; i++)
    if ((env[i] = hp__strdup(view[i])) == NULL) {
      hp__env_free(env);
      env = NULL;
    }
  free(view); /* one allocation: the array and the set's entries */
  return env;
}

void hp__env_free(char **env)
{
  size_t i;

  if (env == NULL)
    return;
  for (i = 0; env[i]; i++)
    free(env[i]);
  free(env);
}

int hp__env_from_script(uv_loop_t *loop, const char *script, char ***out, hp_diags *diags)
{
  hp__buf cap = HP__BUF_INIT;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  size_t n = 0, i;
  char **env = NULL;
  const char *p, *end;
  int r;

  *out = NULL;
  /* `env -0` separates entries with NUL, so values holding newlines survive. The script's own
   * output goes to stderr so it cannot be mistaken for the environment. */
  hp__strv_push(&argv, "/bin/sh");
  hp__strv_push(&argv, "-c");
  hp__strv_push(&argv, "set +u; . \"$1\" 1>&2 || exit 97; exec env -0");
  hp__strv_push(&argv, "hprun-env");
  if ((r = hp__strv_push(&argv, script)) != 0)
    goto fail;
  spec = (hp__child_spec){.argv = &argv, .capture = &cap, .timeout_s = 60};
  r = hp__child_run(loop, &spec, &res);
  if (r || res.exit_status != 0 || res.term_signal || cap.len == 0) {
    hp_diags_add(diags, HP_DIAG_ERROR, script, 0, 0,
                 "sourcing the profiler's env_script in /bin/sh failed (%s)",
                 r                           ? hp_strerror(r)
                     : res.timed_out         ? "timed out after 60 s"
                     : res.exit_status == 97 ? "the script returned an error"
                                             : "no environment");
    r = HP_EIO;
    goto fail;
  }
  for (p = cap.data; p < cap.data + cap.len; p += strlen(p) + 1)
    n++;
  /* The session token the runner gave the shell is no part of the script's environment: it is
   * per session, and each child gets the current one anyway. */
  env = calloc(n + 1, sizeof(*env));
  if (env == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  end = cap.data + cap.len;
  for (i = 0, p = cap.data; p < end && i < n; p += strlen(p) + 1)
    if (strncmp(p, HP__TOKEN_VAR "=", sizeof(HP__TOKEN_VAR)) != 0 &&
        (env[i++] = hp__strdup(p)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
  *out = env;
  env = NULL;
  r = 0;

fail:
  hp__env_free(env);
  hp_strv_free(&argv);
  hp__buf_free(&cap);
  return r;
}
