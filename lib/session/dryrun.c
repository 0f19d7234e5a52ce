/*
 * The dry run of one session (hprun run --dry-run; hp_session_dry_run in sweep.c sends a sweep's
 * combinations here one by one): every command line a session would run, numbered in the
 * schedule's order, with the folder it would run in. It prepares exactly as a real run does, so
 * what it prints is what would run, but it creates, writes and runs nothing.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/base/secret.h"
#include "util/base/strv.h"

#include <stdlib.h>
#include <string.h>

/* Prints slot i (0-based) of the schedule, its folder under the session folder `sdir`. */
/* A command line as printed: without its tokens or URL passwords (util/base/secret.h); `line` is
 * freed. NULL when out of memory. */
static char *redacted(char *line)
{
  char *r = hp__redact(line);

  free(line);
  return r;
}

static int print_slot(hp__session_ctx *c, size_t i, const char *sdir, FILE *fp)
{
  const hp__slot *sl = &c->slots[i];
  const hp__unit *u = &c->units[sl->unit];
  hp_strv argv;
  char *dir, *line;
  int r;

  dir = sl->warmup ? hp__asprintf("%s/%s/warmup-%d", sdir, u->name, sl->k)
                   : hp__asprintf("%s/%s/%d", sdir, u->name, sl->k);
  if (dir == NULL)
    return HP_ENOMEM;
  /* A dry run never writes: rocprof's pmc input file is shown as an option only. */
  if (u->pass && u->driver && strcmp(u->pass->mode, "pmc") == 0 &&
      strcmp(hp__driver_name(u->driver), "rocprof") == 0) {
    fprintf(fp, "%3zu  %s\n     (rocprof -i <input file written at run time> ...)\n", i + 1, dir);
    free(dir);
    return 0;
  }
  if ((r = hp__cluster_inner_argv(c, u, dir, &argv)) != 0) {
    free(dir);
    return r;
  }
  line = hp__strv_shell_join(&argv);
  line = redacted(line);
  fprintf(fp, "%3zu  %s%s\n     %s\n", i + 1, dir, sl->warmup ? "  (warmup)" : "",
          line ? line : "?");
  if (u->driver && hp__driver_mode_doc(u->driver, u->pass->mode))
    fprintf(fp, "     (%s %s: %s)\n", hp__driver_name(u->driver), u->pass->mode,
            hp__driver_mode_doc(u->driver, u->pass->mode));
  hp__cluster_dry_run(c, u, dir, fp);
  free(line);
  free(dir);
  hp_strv_free(&argv);
  return 0;
}

/* "HEAD[IN)]:" and the command line below it; nothing when argv is empty. */
static void print_command(FILE *fp, const char *head, const char *in, const hp_strv *argv)
{
  char *line;

  if (argv->n == 0)
    return;
  line = hp__strv_shell_join(argv);
  line = redacted(line);
  fprintf(fp, "%s%s%s:\n  %s\n", head, in ? in : "", in ? ")" : "", line ? line : "?");
  free(line);
}

int hp__session_dry_run_in(const hp_plan *plan, const hp_run_opts *opts, const char *sdir_in,
                           FILE *fp, hp_diags *diags)
{
  hp__session_ctx c;
  char *parent = NULL, *sdir = NULL;
  size_t i;
  int r;

  /* A dry run has no session folder: the context's dirfd stays -1. */
  if (hp__session_ctx_init(&c, plan, opts, diags))
    return HP_EIO;
  if ((r = hp__session_prepare(&c)) != 0)
    goto fail;
  /* The same folder a real run would use, resolved the same way (nothing is created). */
  parent = hp__session_parent(plan, opts);
  sdir = sdir_in ? hp__strdup(sdir_in)
      : parent   ? hp__asprintf("%s/%s-<YYYYmmdd-HHMMSS>", parent, plan->name)
                 : NULL;
  if (sdir == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  print_command(fp, "build (in ", c.app_cwd, &plan->app.build);
  /* Where runs start decides what their relative paths mean. */
  fprintf(fp, "runs start in %s\n",
          plan->app.workdir_run ? "their own folder (app.workdir: run)" : c.app_cwd);
  /* The app's hooks run around every run (variants share them). */
  print_command(fp, "prepare (before each run, untimed; its output goes to the run folder)", NULL,
                &plan->app.prepare);
  print_command(fp, "cleanup (after each run, untimed; its output goes to the run folder)", NULL,
                &plan->app.cleanup);
  for (i = 0; i < c.nslots; i++)
    if ((r = print_slot(&c, i, sdir, fp)) != 0)
      goto fail;

fail:
  free(parent);
  free(sdir);
  hp__session_ctx_free(&c);
  uv_run(&c.loop, UV_RUN_DEFAULT);
  uv_loop_close(&c.loop);
  return r;
}
