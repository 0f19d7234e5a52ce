/*
 * The argv of one run of a unit, run locally: the app's own for the baseline and the variants, a
 * `command` pass's template around it, or the profiler's command line (lib/tool/). A launched
 * unit's runs wrap this argv in the launcher's (cluster.c); run.c and prepare.c call both.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <string.h>

/* Expands a `command` pass's template: the word {app} becomes the app's whole argv; {dir} inside
 * any word becomes the run folder. */
static int expand_template(const hp_strv *tmpl, const hp_strv *app, const char *dir, hp_strv *out)
{
  size_t i;
  int r;

  hp__strv_init(out);
  for (i = 0; i < tmpl->n; i++) {
    const char *w = tmpl->v[i], *p;
    hp__buf b = HP__BUF_INIT;
    if (strcmp(w, "{app}") == 0) {
      hp__strv_append(out, app);
      continue;
    }
    while ((p = strstr(w, "{dir}")) != NULL) {
      hp__buf_add(&b, w, (size_t)(p - w));
      hp__buf_adds(&b, dir);
      w = p + 5;
    }
    hp__buf_adds(&b, w);
    /* A buffer in error steals as NULL, which the push records as the vector's error. */
    hp__strv_push_own(out, hp__buf_steal(&b));
  }
  if ((r = hp__strv_error(out)) != 0)
    hp_strv_free(out);
  return r;
}

int hp__run_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out)
{
  hp__run_spec rs = {c->plan, u->pass, u->tool_path, dir, &u->app};

  if (u->variant || strcmp(u->pass->mode, "normal") == 0)
    return hp__strv_copy(out, &u->app);
  if (strcmp(u->pass->mode, "command") == 0) {
    /* Its program was checked before the first run (prepare.c). */
    return expand_template(&u->pass->command, &u->app, dir, out);
  }
  return hp__driver_argv(u->driver, &rs, out);
}
