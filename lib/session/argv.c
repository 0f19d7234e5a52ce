/*
 * The argv of one run of a unit, run locally: the app's own for the baseline and the variants, a
 * `command` pass's template around it, or the profiler's command line (lib/tool/). A launched
 * unit's runs wrap this argv in the launcher's (cluster.c); run.c and prepare.c call both.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <string.h>

char *hp__expand_dir(const char *w, const char *dir)
{
  hp__buf b = HP__BUF_INIT;
  const char *p;

  while ((p = strstr(w, "{dir}")) != NULL) {
    hp__buf_add(&b, w, (size_t)(p - w));
    hp__buf_adds(&b, dir);
    w = p + 5;
  }
  hp__buf_adds(&b, w);
  return hp__buf_steal(&b); /* a buffer in error steals as NULL */
}

int hp__expand_dir_v(const hp_strv *in, const char *dir, hp_strv *out)
{
  size_t i;
  int r;

  hp__strv_init(out);
  for (i = 0; i < in->n; i++)
    hp__strv_push_own(out, hp__expand_dir(in->v[i], dir)); /* NULL: the vector's error */
  if ((r = hp__strv_error(out)) != 0)
    hp_strv_free(out);
  return r;
}

/* Expands a `command` pass's template: the word {app} becomes the app's whole argv (its {dir}
 * already filled in); {dir} inside any other word becomes the run folder. */
static int expand_template(const hp_strv *tmpl, const hp_strv *app, const char *dir, hp_strv *out)
{
  size_t i;
  int r;

  hp__strv_init(out);
  for (i = 0; i < tmpl->n; i++) {
    if (strcmp(tmpl->v[i], "{app}") == 0)
      hp__strv_append(out, app);
    else
      hp__strv_push_own(out, hp__expand_dir(tmpl->v[i], dir));
  }
  if ((r = hp__strv_error(out)) != 0)
    hp_strv_free(out);
  return r;
}

/* A profiled pass's command line: the driver's, from a copy of the pass whose `args` and
 * `counters` have {dir} filled in (rocprof writes its counters into a file, not the argv), and
 * then profiler.args' {dir} too, which the driver copies as written. */
static int profiled_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, const hp_strv *app,
                         hp_strv *out)
{
  hp_pass pass = *u->pass;
  hp_strv argv = {NULL, 0, 0};
  hp__run_spec rs = {c->plan, &pass, u->tool_path, dir, app, u->caps};
  int r;

  hp__strv_init(&pass.args);
  hp__strv_init(&pass.counters);
  if ((r = hp__expand_dir_v(&u->pass->args, dir, &pass.args)) == 0 &&
      (r = hp__expand_dir_v(&u->pass->counters, dir, &pass.counters)) == 0 &&
      (r = hp__driver_argv(u->driver, &rs, &argv)) == 0)
    r = hp__expand_dir_v(&argv, dir, out);
  hp_strv_free(&argv);
  hp_strv_free(&pass.args);
  hp_strv_free(&pass.counters);
  return r;
}

int hp__run_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out)
{
  hp_strv app = {NULL, 0, 0};
  int r;

  hp__strv_init(out);
  if ((r = hp__expand_dir_v(&u->app, dir, &app)) != 0)
    return r;
  if (u->variant || strcmp(u->pass->mode, "normal") == 0) {
    *out = app;
    return 0;
  }
  if (strcmp(u->pass->mode, "command") == 0)
    r = expand_template(&u->pass->command, &app, dir, out); /* checked in prepare.c */
  else
    r = profiled_argv(c, u, dir, &app, out);
  hp_strv_free(&app);
  return r;
}

int hp__run_after_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out)
{
  hp__run_spec rs = {c->plan, u->pass, u->tool_path, dir, NULL, u->caps};

  hp__strv_init(out);
  if (u->variant || u->driver == NULL)
    return 0;
  return hp__driver_after_argv(u->driver, &rs, out);
}
