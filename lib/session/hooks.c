/*
 * The app's `prepare` and `cleanup` hooks: commands run before and after each run, outside its
 * timing, so that setting up and tearing down (clearing a cache, writing an input) never counts
 * as the app's time. Each runs in the app's folder with the run's environment (HPRUN_RUN_DIR and
 * the others), {dir} in its words is the run's folder, and its output goes to
 * <run>/<hook>.stdout.txt and <run>/<hook>.stderr.txt.
 */
#include "exec/runner.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <stdlib.h>
#include <string.h>

/* Why a hook failed, in a few words, or NULL when it succeeded. */
static char *hook_failure(int r, const hp__child_result *res)
{
  if (r == HP_ESPAWN)
    return hp__asprintf("could not start: %s", uv_strerror(res->spawn_error));
  if (r)
    return hp__asprintf("%s", hp_strerror(r));
  if (res->interrupted)
    return hp__asprintf("interrupted");
  if (res->term_signal)
    return hp__asprintf("killed by signal %d", res->term_signal);
  if (res->exit_status)
    return hp__asprintf("exit status %lld", res->exit_status);
  return NULL;
}

int hp__run_hook(hp__session_ctx *c, const char *which, const hp_strv *argv, const char *dir,
                 char **env, char **why)
{
  hp__child_spec spec;
  hp__child_result res;
  hp_strv words = {NULL, 0, 0};
  char *outp, *errp, *name = NULL, prefix[64];
  int r;

  *why = NULL;
  if (argv->n == 0)
    return 0;
  outp = hp__asprintf("%s/%s.stdout.txt", dir, which);
  errp = hp__asprintf("%s/%s.stderr.txt", dir, which);
  if (outp == NULL || errp == NULL || hp__expand_dir_v(argv, dir, &words) != 0) {
    r = HP_ENOMEM;
    goto fail;
  }
  snprintf(prefix, sizeof(prefix), "[%s] ", which);
  spec = (hp__child_spec){.argv = &words,
                          .env = env,
                          .cwd = c->app_cwd,
                          .grace_s = c->opts->grace_s,
                          .stdout_path = outp,
                          .stderr_path = errp,
                          .echo = hp__session_echo(c),
                          .prefix = prefix};
  r = hp__child_run(&c->loop, &spec, &res);
  if (r == HP_EIO && res.write_errno != 0)
    r = 0; /* it ran; a lost line of its log does not change what it did */
  if ((name = hook_failure(r, &res)) != NULL) {
    *why = hp__asprintf("`%s` failed (%s); its output is in %s/%s.stderr.txt", which, name, dir,
                        which);
    r = *why ? 0 : HP_ENOMEM;
  }

fail:
  hp_strv_free(&words);
  free(name);
  free(outp);
  free(errp);
  return r;
}
