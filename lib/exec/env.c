/*
 * Environments for children: hprun's own (or a base one) with a plan's K=V entries applied, and
 * the environment a vendor's env.sh leaves behind (DTK, ROCm). Sourcing runs through the same
 * runner as every other child, so it gets the same timeout and process-group cleanup, and hprun
 * never calls system(3) or popen(3): libuv owns SIGCHLD.
 */
#include "exec/runner.h"
#include "exec/guard.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Whether base entry `e` is one of set's keys (then the set's entry replaces it). */
static int replaced(const char *e, const hp_kv *set, size_t nset)
{
  const char *eq = strchr(e, '=');
  size_t klen = eq ? (size_t)(eq - e) : strlen(e), j;

  for (j = 0; j < nset; j++)
    if (strlen(set[j].key) == klen && strncmp(set[j].key, e, klen) == 0)
      return 1;
  return 0;
}

char **hp__env_build(char **base, const hp_kv *set, size_t nset)
{
  size_t n = 0, i, j, k = 0;
  char **env;

  if (base == NULL)
    base = environ;
  while (base[n])
    n++;
  env = calloc(n + nset + 1, sizeof(*env));
  if (env == NULL)
    return NULL;
  for (i = 0; i < n; i++) {
    if (replaced(base[i], set, nset))
      continue; /* replaced below */
    if ((env[k++] = hp__strdup(base[i])) == NULL)
      goto fail;
  }
  for (j = 0; j < nset; j++)
    if ((env[k++] = hp__asprintf("%s=%s", set[j].key, set[j].value)) == NULL)
      goto fail;
  env[k] = NULL;
  return env;

fail:
  hp__env_free(env);
  return NULL;
}

char **hp__env_overlay(char **base, const hp_kv *set, size_t nset)
{
  size_t n = 0, i, j, k = 0, bytes = 0, head;
  char **env, *p;

  if (base == NULL)
    base = environ;
  while (base[n])
    n++;
  for (j = 0; j < nset; j++)
    bytes += strlen(set[j].key) + strlen(set[j].value) + 2;
  head = (n + nset + 1) * sizeof(*env);
  if ((env = malloc(head + bytes)) == NULL)
    return NULL;
  p = (char *)env + head;
  for (i = 0; i < n; i++)
    if (!replaced(base[i], set, nset))
      env[k++] = base[i];
  for (j = 0; j < nset; j++) {
    size_t kl = strlen(set[j].key), vl = strlen(set[j].value);
    env[k++] = p;
    memcpy(p, set[j].key, kl);
    p[kl] = '=';
    memcpy(p + kl + 1, set[j].value, vl + 1);
    p += kl + vl + 2;
  }
  env[k] = NULL;
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
