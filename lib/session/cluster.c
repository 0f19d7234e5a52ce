/*
 * The session's side of launchers (docs/cluster.md): which units are launched and how, the
 * session's one Slurm allocation (`allocation: session`: salloc --no-shell before the first run,
 * scancel after the last, also when stopped), wrapping a run's argv in its launcher, and after a
 * run: cancelling what a timeout or Ctrl-C left queued or running, and reading every rank's
 * folder and metrics. The argvs themselves are built in lib/exec/launch.c.
 */
#include "exec/launch.h"
#include "exec/runner.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The launcher's program must exist before anything runs, like a profiler. */
static int check_program(hp__session_ctx *c, const hp_launcher *l)
{
  const char *prog = l->path;
  char *found = NULL;
  int r;

  if (l->kind == HP_LAUNCH_COMMAND)
    prog = l->command.v[0];
  else if (prog == NULL)
    prog = l->kind == HP_LAUNCH_SLURM ? "srun" : "mpirun";
  if (strchr(prog, '/'))
    return 0; /* started as given; a missing one fails its runs with the system's reason */
  r = hp__which_env(prog, c->base_env, &found);
  free(found);
  if (r == HP_ENOENT)
    hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, l->line, 0,
                 "launcher %s: '%s' was not found on PATH (docs/cluster.md)",
                 hp__launch_kind_name(l->kind), prog);
  return r;
}

/* One allocation per session: two launchers that both ask for `allocation: session` (the plan's
 * and a pass's, or two passes') would need two, with different options. */
static int check_allocation(hp__session_ctx *c, const hp_launcher *l, const hp_launcher **first)
{
  if (!l->allocate_session || l->kind != HP_LAUNCH_SLURM)
    return 0;
  if (*first == NULL || *first == l) {
    *first = l;
    return 0;
  }
  hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, l->line, 0,
               "`allocation: session`: only one launcher of a plan may ask for the session's "
               "allocation (the first is at line %ld); let the passes share the plan's launcher",
               (*first)->line);
  return HP_EPLAN;
}

int hp__cluster_prepare(hp__session_ctx *c)
{
  const hp_launcher *alloc = NULL;
  size_t i;
  int r;

  for (i = 0; i < c->nunits; i++) {
    hp__unit *u = &c->units[i];
    const hp_launcher *l = u->pass && u->pass->launcher ? u->pass->launcher : &c->plan->launcher;
    if (l->kind == HP_LAUNCH_LOCAL)
      continue;
    u->launcher = l;
    if ((r = check_program(c, l)) != 0 || (r = check_allocation(c, l, &alloc)) != 0)
      return r;
    /* rocprof v1 reads its counters from an input file that its driver writes into the run
     * folder; each rank's folder does not exist before the rank starts. */
    if (u->driver && strcmp(hp__driver_name(u->driver), "rocprof") == 0 &&
        strcmp(u->pass->mode, "pmc") == 0) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, u->pass->line, 0,
                   "pass '%s': rocprof's pmc mode cannot run under a launcher (its input file "
                   "is written before the ranks' folders exist); use rocprofv3's pmc mode",
                   u->name);
      return HP_EPLAN;
    }
  }
  return 0;
}

/* The Slurm job name of a session's allocation or of one run's own job: unique per session
 * folder, so that `scancel --name` finds exactly it. */
static char *job_name(const hp__session_ctx *c, const hp__unit *u, const hp__slot *sl)
{
  const char *leaf = strrchr(c->s->dir, '/');

  leaf = leaf ? leaf + 1 : c->s->dir;
  if (u == NULL)
    return hp__asprintf("hprun-%s", leaf);
  return hp__asprintf("hprun-%s-%s-%s%d", leaf, u->name, sl->warmup ? "w" : "", sl->k);
}

/* Runs a short Slurm command (salloc, scancel) to its end, its stderr into `errp` (NULL: not
 * kept). Returns its exit status, or -1 when it could not start. */
static long long slurm_cmd(hp__session_ctx *c, const hp_strv *argv, const char *errp)
{
  hp__child_spec spec;
  hp__child_result res;
  hp__buf out = HP__BUF_INIT;
  int r;

  spec = (hp__child_spec){.argv = argv, .stderr_path = errp, .capture = &out, .timeout_s = 600};
  fprintf(hp__session_log(c), "hprun: %s\n", argv->v[0]);
  r = hp__child_run(&c->loop, &spec, &res);
  hp__buf_free(&out);
  return r || res.term_signal || res.timed_out ? -1 : res.exit_status;
}

int hp__cluster_open(hp__session_ctx *c)
{
  const hp_launcher *l = NULL;
  hp_strv argv = {NULL, 0, 0};
  char *name = NULL, *errp = NULL, *text = NULL;
  size_t i, len;
  int r = HP_ENOMEM;

  for (i = 0; i < c->nunits && l == NULL; i++)
    if (c->units[i].launcher && c->units[i].launcher->allocate_session)
      l = c->units[i].launcher;
  if (l == NULL || getenv("SLURM_JOB_ID"))
    return 0; /* inside an allocation, steps go into it */
  if ((name = job_name(c, NULL, NULL)) == NULL ||
      (errp = hp__path_join(c->s->dir, "salloc.txt")) == NULL ||
      hp__launch_salloc_argv(l, name, &argv) != 0)
    goto fail;
  r = 0;
  if (slurm_cmd(c, &argv, errp) != 0 || hp__read_file(errp, &text, &len) != 0 ||
      (c->alloc_job = hp__launch_salloc_job(text)) == NULL) {
    c->s->error = hp__asprintf("salloc found no allocation; its messages are in %s", errp);
    r = HP_ERUN;
    goto fail;
  }
  fprintf(hp__session_log(c), "hprun: Slurm allocation %s for this session\n", c->alloc_job);

fail:
  hp_strv_free(&argv);
  free(name);
  free(errp);
  free(text);
  return r;
}

void hp__cluster_close(hp__session_ctx *c)
{
  hp_strv argv = {NULL, 0, 0};

  if (c->alloc_job == NULL)
    return;
  if (hp__strv_push(&argv, "scancel") == 0 && hp__strv_push(&argv, c->alloc_job) == 0)
    slurm_cmd(c, &argv, NULL);
  hp_strv_free(&argv);
  free(c->alloc_job);
  c->alloc_job = NULL;
}

int hp__cluster_argv(hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, const char *dir,
                     hp_strv *out)
{
  hp__launch_spec ls;
  hp_strv profiled = {NULL, 0, 0};
  char *name = NULL;
  int r;

  if (u->launcher == NULL)
    return hp__run_argv(c, u, dir, out);
  memset(&ls, 0, sizeof(ls));
  if ((name = job_name(c, u, sl)) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  /* The profiled argv writes its files into the rank's own folder. */
  if (u->variant == NULL && strcmp(u->pass->mode, "normal") != 0) {
    if ((r = hp__cluster_inner_argv(c, u, dir, &profiled)) != 0)
      goto fail;
    ls.profiled = &profiled;
  }
  ls.l = u->launcher;
  ls.run_dir = dir;
  ls.name = name;
  ls.job_id = u->launcher->allocate_session ? c->alloc_job : NULL;
  ls.plain = &u->app;
  ls.cwd = u->cwd;
  r = hp__launch_argv(&ls, out);

fail:
  hp_strv_free(&profiled);
  free(name);
  return r;
}

int hp__cluster_inner_argv(hp__session_ctx *c, const hp__unit *u, const char *dir, hp_strv *out)
{
  char *rankdir;
  int r;

  if (u->launcher == NULL)
    return hp__run_argv(c, u, dir, out);
  if ((rankdir = hp__asprintf("%s/rank%s", dir, HP__RANK_PLACEHOLDER)) == NULL)
    return HP_ENOMEM;
  r = hp__run_argv(c, u, rankdir, out);
  free(rankdir);
  return r;
}

void hp__cluster_dry_run(hp__session_ctx *c, const hp__unit *u, const char *dir, FILE *fp)
{
  const hp_launcher *l = u->launcher;
  hp__launch_spec ls;
  hp_strv argv = {NULL, 0, 0};
  hp__buf ranks = HP__BUF_INIT;
  char *line = NULL;
  size_t i;

  if (l == NULL)
    return;
  memset(&ls, 0, sizeof(ls));
  ls.l = l;
  ls.run_dir = dir;
  ls.name = "hprun-<session>-<pass>-<k>";
  ls.job_id = l->allocate_session && !getenv("SLURM_JOB_ID") ? "<allocation>" : NULL;
  if (hp__launch_outer(&ls, &argv) == 0)
    line = hp__strv_shell_join(&argv);
  for (i = 0; i < l->nprofile_ranks; i++)
    hp__buf_printf(&ranks, "%s%ld", i ? ", " : "", l->profile_ranks[i]);
  fprintf(fp, "     launched: %s\n     (each rank: the command above, its output in %s/rank<N>/",
          line ? line : "?", dir);
  if (u->variant == NULL && strcmp(u->pass->mode, "normal") != 0)
    fprintf(fp, "; profiled ranks: %s", ranks.data ? ranks.data : "all");
  fprintf(fp, ")\n");
  hp__buf_free(&ranks);
  free(line);
  hp_strv_free(&argv);
}

/* Reads each rank's metrics from its own stdout.txt; the lowest rank's (rank 0's, as a rule)
 * stand for the run, whose own stdout holds only the launcher's messages. */
static int rank_values(hp__session_ctx *c, hp_run *run, const char *dir)
{
  hp_run_launch *rl = run->launch;
  size_t i, m, nm = c->plan->nmetrics;

  for (i = 0; i < rl->nranks; i++) {
    hp_rank *rk = &rl->ranks[i];
    char *p = hp__asprintf("%s/rank%d/stdout.txt", dir, rk->rank);
    if (p == NULL || (rk->values = malloc((nm ? nm : 1) * sizeof(double))) == NULL) {
      free(p);
      return HP_ENOMEM;
    }
    for (m = 0; m < nm; m++)
      rk->values[m] = NAN;
    hp__metrics_scan_path(c->metrics, p, rk->values, NULL, NULL);
    free(p);
    if (i != 0)
      continue; /* the ranks are sorted */
    for (m = 0; m < nm; m++)
      if (!c->plan->metrics[m].wall)
        run->values[m] = rk->values[m];
  }
  return 0;
}

int hp__cluster_after(hp__session_ctx *c, const hp__unit *u, const hp__slot *sl, hp_run *run,
                      const char *dir, const hp__child_result *res)
{
  hp__launch_spec ls;
  hp_strv cancel = {NULL, 0, 0};
  char *name = NULL;
  int r;

  if (u->launcher == NULL)
    return 0;
  if ((r = hp__launch_read(dir, hp__launch_kind_name(u->launcher->kind), &run->launch)) != 0)
    return r;
  /* A run that did not end by itself may have left its job queued or its step running. */
  if (res->timed_out || res->interrupted || res->term_signal || res->left_behind > 0) {
    memset(&ls, 0, sizeof(ls));
    ls.l = u->launcher;
    ls.name = name = job_name(c, u, sl);
    ls.job_id = u->launcher->allocate_session ? c->alloc_job : NULL;
    if (name == NULL || hp__launch_cancel_argv(&ls, run->launch, &cancel) != 0)
      r = HP_ENOMEM;
    else if (cancel.n)
      slurm_cmd(c, &cancel, NULL);
    hp_strv_free(&cancel);
    free(name);
    if (r)
      return r;
  }
  if ((r = rank_values(c, run, dir)) != 0)
    return r;
  run->ok = !run->error && res->exit_status == 0 && !res->term_signal && !res->timed_out &&
      !res->interrupted && c->plan->nmetrics > 0 && !isnan(run->values[0]);
  return 0;
}
