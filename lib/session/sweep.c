/*
 * Parameter sweeps: a plan with `parameters:` runs one session per combination of their values,
 * each in its own folder inside the sweep's session folder:
 *
 *   <output>/<name>-<stamp>/            plan.yaml, summary.json and report.md of the sweep
 *   <output>/<name>-<stamp>/n=1,dtype=fp16/   a whole session: its passes, summary.json, ...
 *
 * Every combination's plan (made when the plan was loaded, lib/plan/plan.c) is prepared before the
 * first run, so that a program missing for one value fails the sweep before anything runs, as it
 * would a plan without parameters. Then each combination runs as a session of its own, in the
 * plan's order, with its baseline, its passes in the plan's `order`, its table and verdicts; the
 * sweep's record holds them, and its judgement (lib/analyze/sweep.c) is the worst of theirs.
 *
 * A combination that stops (its baseline's first run or its build failed) stops the sweep, exit 3,
 * unless keep_going, which goes on with the next combination. An interruption stops it at once.
 * The public entry points hp_session_run and hp_session_dry_run are here, on top of the folder:
 * a plan with parameters runs as a sweep, any other as one session (session.c, dryrun.c).
 * The contract is in docs/internals/session.md; the folder and summary.json in docs/summary.md.
 */
#include "analyze/results.h"
#include "analyze/sweep.h"
#include "report/write_all.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *sweep_log(const hp_run_opts *opts)
{
  return opts->log ? opts->log : stderr;
}

/* Prepares every combination as its session would (programs, profilers, metrics, schedule), so
 * that a plan problem of any of them exits 2 before the first run. A failure names the
 * combination after the messages that say what is wrong. */
static int preflight(const hp_plan *plan, size_t n, const hp_run_opts *opts, hp_diags *diags)
{
  hp__session_ctx c;
  char *name = NULL;
  size_t k;
  int r = 0;

  for (k = 0; k < n && r == 0; k++) {
    if (hp__session_ctx_init(&c, hp_plan_combination(plan, k), opts, diags))
      return HP_EIO;
    r = hp__session_prepare(&c);
    hp__session_ctx_free(&c);
    uv_run(&c.loop, UV_RUN_DEFAULT);
    uv_loop_close(&c.loop);
    if (r && hp_plan_combination_name(plan, k, &name) == 0) {
      hp_diags_add(diags, HP_DIAG_NOTE, plan->file, 0, 0,
                   "in combination %zu of %zu (%s); nothing was run", k + 1, n, name);
      free(name);
    }
  }
  return r;
}

/* The sweep's own record: its name, folder, settings and one entry per combination. */
static int record_init(const hp_plan *plan, const hp_run_opts *opts, size_t n, hp_session *s)
{
  size_t k, i;

  if (hp__session_record_init(s, plan, opts) != 0 ||
      (s->combos = calloc(n, sizeof(*s->combos))) == NULL)
    return HP_ENOMEM;
  s->ncombos = n;
  for (k = 0; k < n; k++) {
    hp_combo *cb = &s->combos[k];
    if (hp_plan_combination_name(plan, k, &cb->name) != 0 ||
        (cb->params = calloc(plan->nparams, sizeof(*cb->params))) == NULL)
      return HP_ENOMEM;
    cb->nparams = plan->nparams;
    for (i = 0; i < plan->nparams; i++) {
      cb->params[i].key = hp__strdup(plan->params[i].name);
      cb->params[i].value = hp__strdup(hp_plan_combination_value(plan, k, i));
      if (cb->params[i].key == NULL || cb->params[i].value == NULL)
        return HP_ENOMEM;
    }
  }
  return 0;
}

/* Creates the sweep's session folder (*fd open on it) and copies the plan into it. */
static int sweep_open(const hp_plan *plan, const hp_run_opts *opts, hp_session *s, int *fd,
                      hp_diags *diags)
{
  char *parent = hp__session_parent(plan, opts), *msg;
  int r;

  if (parent == NULL)
    return HP_ENOMEM;
  r = hp__session_dir_make(parent, plan->name, &s->dir, fd, diags);
  free(parent);
  if (r)
    return r;
  fprintf(sweep_log(opts), "hprun: sweep of %zu combinations, session folder %s\n", s->ncombos,
          s->dir);
  if ((r = hp__session_copy_plan(plan, *fd)) != 0) {
    msg = hp__fs_error("create", s->dir, "plan.yaml", hp__fs_errno(r));
    hp_diags_add(diags, HP_DIAG_ERROR, "hprun", 0, 0, "%s", msg ? msg : "out of memory");
    free(msg);
    return HP_EIO;
  }
  return 0;
}

/* SIGINT and SIGTERM between two combinations (while the next one is prepared, say) stop the sweep
 * as they would stop a combination: each combination's session handles them while it runs, and
 * these handles, on a loop of the sweep's own, see them too. */
typedef struct sweep_signals {
  uv_loop_t loop;
  uv_signal_t sigint, sigterm;
  int stop;
  int ok; /* the loop and its handles were set up */
} sweep_signals;

static void on_signal(uv_signal_t *h, int signum)
{
  (void)signum;
  ((sweep_signals *)h->data)->stop = 1;
}

static void signals_start(sweep_signals *g)
{
  memset(g, 0, sizeof(*g));
  if (uv_loop_init(&g->loop) != 0)
    return;
  uv_signal_init(&g->loop, &g->sigint);
  uv_signal_init(&g->loop, &g->sigterm);
  g->sigint.data = g->sigterm.data = g;
  uv_signal_start(&g->sigint, on_signal, SIGINT);
  uv_signal_start(&g->sigterm, on_signal, SIGTERM);
  g->ok = 1;
}

/* Whether a signal came since the last look. */
static int signalled(sweep_signals *g)
{
  if (g->ok)
    uv_run(&g->loop, UV_RUN_NOWAIT);
  return g->stop;
}

static void signals_stop(sweep_signals *g)
{
  if (!g->ok)
    return;
  uv_close((uv_handle_t *)&g->sigint, NULL);
  uv_close((uv_handle_t *)&g->sigterm, NULL);
  uv_run(&g->loop, UV_RUN_DEFAULT);
  uv_loop_close(&g->loop);
}

/* Runs the combinations in order until the end or a stop. Returns what stopped the sweep:
 * HP_EINTR, HP_ERUN (a combination stopped early; with keep_going the rest still ran), or the
 * code of a failure that leaves the sweep unable to go on (memory, files). */
static int run_combos(const hp_plan *plan, const hp_run_opts *opts, int fd, hp_session *s,
                      hp_diags *diags, sweep_signals *g)
{
  int keep_going = plan->keep_going || opts->keep_going, r, result = 0;
  size_t k;

  for (k = 0; k < s->ncombos; k++) {
    hp__sweep_dir sd = {fd, s->dir, s->combos[k].name};
    if (signalled(g)) {
      s->interrupted = 1;
      return HP_EINTR;
    }
    fprintf(sweep_log(opts), "hprun: combination %zu of %zu: %s\n", k + 1, s->ncombos,
            s->combos[k].name);
    r = hp__session_run_in(hp_plan_combination(plan, k), opts, &sd, &s->combos[k].s, diags);
    if (r == HP_EINTR || signalled(g)) {
      s->interrupted = 1;
      return HP_EINTR;
    }
    if (r == HP_ERUN) {
      result = r;
      if (keep_going)
        continue;
      fprintf(sweep_log(opts),
              "hprun: combination %s stopped early: the sweep stops (keep_going: true goes on "
              "with the next combination)\n",
              s->combos[k].name);
      return r;
    }
    if (r)
      return r;
  }
  return result;
}

/* hp_session_run of a plan with parameters (plan->combo < 0): every combination is checked before
 * the first runs, then each runs as a session of its own in a folder of the sweep's session
 * folder; the sweep's session (returned) holds them. */
static int sweep_run(const hp_plan *plan, const hp_run_opts *opts, hp_session **out,
                     hp_diags *diags)
{
  hp_session *s = NULL;
  sweep_signals g;
  size_t n = hp_plan_combinations(plan);
  int r, w, fd = -1;

  *out = NULL;
  if (hp_plan_combination(plan, 0) == NULL) /* not a plan as hp_plan_load made it */
    return HP_EINVAL;
  signals_start(&g);
  if ((r = preflight(plan, n, opts, diags)) != 0)
    goto fail;
  if ((s = calloc(1, sizeof(*s))) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = record_init(plan, opts, n, s)) != 0 || (r = sweep_open(plan, opts, s, &fd, diags)) != 0)
    goto fail;
  r = run_combos(plan, opts, fd, s, diags, &g);
  s->finished = hp__session_now_iso();
  if (hp__sweep_judge(s) != 0 && r == 0)
    r = HP_ENOMEM;
  /* A combination's file that could not be written wins, as in one session (docs/ci.md). */
  if (s->exit_code == HP_EXIT_IO)
    r = HP_EIO;
  if (hp__report_write_all_at(s, fd, diags, &s->written) != 0) {
    s->exit_code = HP_EXIT_IO;
    if (r == 0)
      r = HP_EIO;
  }
  if (s->complete && !s->interrupted && (w = hp__session_link_latest(s->dir, plan->name)) != 0)
    fprintf(sweep_log(opts), "hprun: warning: cannot update %s-latest: %s\n", plan->name,
            strerror(hp__fs_errno(w)));
  *out = s;
  s = NULL;

fail:
  signals_stop(&g);
  if (fd >= 0)
    close(fd);
  hp_session_free(s);
  return r;
}

/* hp_session_dry_run of a plan with parameters: each combination's dry run, in order. */
static int sweep_dry_run(const hp_plan *plan, const hp_run_opts *opts, FILE *fp, hp_diags *diags)
{
  char *parent = NULL, *name = NULL, *sdir = NULL;
  size_t n = hp_plan_combinations(plan), k;
  int r = 0;

  if (hp_plan_combination(plan, 0) == NULL) /* not a plan as hp_plan_load made it */
    return HP_EINVAL;
  if ((parent = hp__session_parent(plan, opts)) == NULL)
    return HP_ENOMEM;
  fprintf(fp, "sweep: %zu combinations, each a session in a folder of %s/%s-<YYYYmmdd-HHMMSS>\n", n,
          parent, plan->name);
  for (k = 0; k < n && r == 0; k++) {
    free(name);
    free(sdir);
    name = sdir = NULL;
    if (hp_plan_combination_name(plan, k, &name) != 0 ||
        (sdir = hp__asprintf("%s/%s-<YYYYmmdd-HHMMSS>/%s", parent, plan->name, name)) == NULL) {
      r = HP_ENOMEM;
      break;
    }
    fprintf(fp, "\ncombination %zu of %zu: %s\n", k + 1, n, name);
    r = hp__session_dry_run_in(hp_plan_combination(plan, k), opts, sdir, fp, diags);
    if (r)
      hp_diags_add(diags, HP_DIAG_NOTE, plan->file, 0, 0, "in combination %zu of %zu (%s)", k + 1,
                   n, name);
  }

  free(name);
  free(sdir);
  free(parent);
  return r;
}

int hp_session_run(const hp_plan *plan, const hp_run_opts *opts, hp_session **out, hp_diags *diags)
{
  if (plan->nparams && plan->combo < 0)
    return sweep_run(plan, opts, out, diags);
  return hp__session_run_in(plan, opts, NULL, out, diags);
}

int hp_session_dry_run(const hp_plan *plan, const hp_run_opts *opts, FILE *fp, hp_diags *diags)
{
  if (plan->nparams && plan->combo < 0)
    return sweep_dry_run(plan, opts, fp, diags);
  return hp__session_dry_run_in(plan, opts, NULL, fp, diags);
}
