/*
 * Launchers, part one: argv building for srun, salloc, mpirun and `command` templates, the rank
 * wrapper every launched rank starts, and what cancels a run (launch.h says how they fit). The
 * wrapper is a shell script rather than hprun itself because it must run on every node of a job,
 * where hprun may not be installed but /bin/sh always is; it is kept in the run folder, so what
 * each rank ran stays on record.
 */
#include "exec/launch.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <stdlib.h>
#include <string.h>

const char *hp__launch_kind_name(hp_launch_kind k)
{
  switch (k) {
  case HP_LAUNCH_SLURM: return "slurm";
  case HP_LAUNCH_MPIRUN: return "mpirun";
  case HP_LAUNCH_COMMAND: return "command";
  default: return "local";
  }
}

/* Appends `s` in single quotes, for sh. */
static int add_quoted(hp__buf *b, const char *s, size_t n)
{
  size_t i;
  int r = hp__buf_addc(b, '\'');

  for (i = 0; i < n; i++)
    r |= s[i] == '\'' ? hp__buf_adds(b, "'\\''") : hp__buf_addc(b, s[i]);
  return r | hp__buf_addc(b, '\'');
}

/* Appends an argv as sh words; each {rank} becomes "$rank". */
static int add_argv(hp__buf *b, const hp_strv *v)
{
  size_t i;
  int r = 0;

  for (i = 0; i < v->n; i++) {
    const char *w = v->v[i], *p;
    r |= hp__buf_addc(b, ' ');
    while ((p = strstr(w, HP__RANK_PLACEHOLDER)) != NULL) {
      r |= add_quoted(b, w, (size_t)(p - w));
      r |= hp__buf_adds(b, "\"$rank\"");
      w = p + strlen(HP__RANK_PLACEHOLDER);
    }
    r |= add_quoted(b, w, strlen(w));
  }
  return r;
}

/* The `case` pattern of the profiled ranks: "0|3", or "*" for every rank. */
static int add_ranks(hp__buf *b, const hp_launcher *l)
{
  size_t i;
  int r = 0;

  if (l->nprofile_ranks == 0)
    return hp__buf_addc(b, '*');
  for (i = 0; i < l->nprofile_ranks; i++)
    r |= hp__buf_printf(b, "%s%ld", i ? "|" : "", l->profile_ranks[i]);
  return r;
}

/* The wrapper's text (launch.h describes what it does). */
static int wrapper_text(const hp__launch_spec *ls, hp__buf *b)
{
  int r = 0;

  r |= hp__buf_adds(b,
                    "#!/bin/sh\n# Written by hprun: runs one rank of this run (docs/cluster.md)."
                    "\nrank=${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}}\ndir=");
  r |= add_quoted(b, ls->run_dir, strlen(ls->run_dir));
  r |= hp__buf_adds(b, "/rank$rank\nmkdir -p \"$dir\" || exit 125\nprofiled=0\n");
  if (ls->profiled) {
    r |= hp__buf_adds(b, "case $rank in ");
    r |= add_ranks(b, ls->l);
    r |= hp__buf_adds(b, ") profiled=1 ;; esac\n");
  }
  r |= hp__buf_adds(
      b,
      "host=$(uname -n)\n"
      "printf 'rank=%s\\nprofiled=%s\\nhost=%s\\njob_id=%s\\nstep_id=%s\\nnodelist=%s\\n' "
      "\"$rank\" \"$profiled\" \"$host\" \"${SLURM_JOB_ID:-}\" \"${SLURM_STEP_ID:-}\" "
      "\"${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}}\" >\"$dir/rank.txt\"\n"
      "echo \"hprun-rank: rank $rank on $host SLURM_JOB_ID=${SLURM_JOB_ID:--} "
      "SLURM_STEP_ID=${SLURM_STEP_ID:--}\"\ncd ");
  if (ls->cwd)
    r |= add_quoted(b, ls->cwd, strlen(ls->cwd));
  else
    r |= hp__buf_adds(b, "\"$dir\"");
  r |= hp__buf_adds(b, " || exit 125\nif [ $profiled = 1 ]; then\n ");
  r |= add_argv(b, ls->profiled ? ls->profiled : ls->plain);
  r |= hp__buf_adds(b, " >\"$dir/stdout.txt\" 2>\"$dir/stderr.txt\"\nelse\n ");
  r |= add_argv(b, ls->plain);
  r |= hp__buf_adds(b,
                    " >\"$dir/stdout.txt\" 2>\"$dir/stderr.txt\"\nfi\n"
                    "rc=$?\necho \"exit=$rc\" >>\"$dir/rank.txt\"\nexit $rc\n");
  return r ? HP_ENOMEM : 0;
}

static int push_opt(hp_strv *out, const char *opt, const char *val)
{
  if (val == NULL)
    return 0;
  return hp__strv_push_own(out, hp__asprintf("%s=%s", opt, val));
}

/* The Slurm options shared by srun and salloc. */
static int slurm_opts(const hp_launcher *l, hp_strv *out)
{
  long t = (long)(l->time + 0.999);
  int r = 0;

  r |= push_opt(out, "--partition", l->partition);
  if (l->nodes > 0)
    r |= hp__strv_push_own(out, hp__asprintf("--nodes=%ld", l->nodes));
  if (l->ntasks > 0)
    r |= hp__strv_push_own(out, hp__asprintf("--ntasks=%ld", l->ntasks));
  r |= push_opt(out, "--gpus", l->gpus);
  r |= push_opt(out, "--gres", l->gres);
  if (t > 0)
    r |= hp__strv_push_own(out,
                           hp__asprintf("--time=%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60));
  r |= push_opt(out, "--account", l->account);
  r |= push_opt(out, "--constraint", l->constraint);
  if (l->exclusive)
    r |= hp__strv_push(out, "--exclusive");
  return r ? HP_ENOMEM : 0;
}

/* The launcher's argv around `inner` (the wrapper's command). */
static int outer_argv(const hp__launch_spec *ls, const hp_strv *inner, hp_strv *out)
{
  const hp_launcher *l = ls->l;
  size_t i;
  int r = 0;

  if (l->kind == HP_LAUNCH_SLURM) {
    r |= hp__strv_push(out, l->path ? l->path : "srun");
    if (ls->job_id)
      r |= push_opt(out, "--jobid", ls->job_id);
    r |= push_opt(out, "--job-name", ls->name);
    r |= slurm_opts(l, out);
    r |= push_opt(out, "--mpi", l->mpi);
    r |= hp__strv_append(out, &l->args);
    return r | hp__strv_append(out, inner) ? HP_ENOMEM : 0;
  }
  if (l->kind == HP_LAUNCH_MPIRUN) {
    r |= hp__strv_push(out, l->path ? l->path : "mpirun");
    r |= hp__strv_push(out, "-np");
    r |= hp__strv_push_own(out, hp__asprintf("%ld", l->ntasks > 0 ? l->ntasks : 1));
    r |= hp__strv_append(out, &l->args);
    return r | hp__strv_append(out, inner) ? HP_ENOMEM : 0;
  }
  /* command: {app} is the wrapper's command, {ntasks} the rank count, {dir} the run folder. */
  for (i = 0; i < l->command.n && !r; i++) {
    const char *w = l->command.v[i];
    if (strcmp(w, "{app}") == 0) {
      r |= hp__strv_append(out, inner);
    } else if (strcmp(w, "{ntasks}") == 0) {
      r |= hp__strv_push_own(out, hp__asprintf("%ld", l->ntasks > 0 ? l->ntasks : 1));
    } else if (strcmp(w, "{dir}") == 0) {
      r |= hp__strv_push(out, ls->run_dir);
    } else {
      r |= hp__strv_push(out, w);
    }
  }
  return r ? HP_ENOMEM : 0;
}

int hp__launch_outer(const hp__launch_spec *ls, hp_strv *out)
{
  hp_strv inner = {NULL, 0};
  int r = HP_ENOMEM;

  out->v = NULL;
  out->n = 0;
  if (hp__strv_push(&inner, "/bin/sh") == 0 &&
      hp__strv_push_own(&inner, hp__path_join(ls->run_dir, HP__RANK_WRAPPER)) == 0)
    r = outer_argv(ls, &inner, out);
  if (r)
    hp_strv_free(out);
  hp_strv_free(&inner);
  return r;
}

int hp__launch_argv(const hp__launch_spec *ls, hp_strv *out)
{
  hp__buf text = HP__BUF_INIT;
  char *path = hp__path_join(ls->run_dir, HP__RANK_WRAPPER);
  int r;

  out->v = NULL;
  out->n = 0;
  if (path == NULL || (r = wrapper_text(ls, &text)) != 0)
    r = HP_ENOMEM;
  else if ((r = hp__write_file(path, text.data, text.len, 1)) == 0)
    r = hp__launch_outer(ls, out);
  hp__buf_free(&text);
  free(path);
  return r;
}

int hp__launch_salloc_argv(const hp_launcher *l, const char *name, hp_strv *out)
{
  int r = 0;

  out->v = NULL;
  out->n = 0;
  r |= hp__strv_push(out, "salloc");
  r |= hp__strv_push(out, "--no-shell");
  r |= push_opt(out, "--job-name", name);
  r |= slurm_opts(l, out);
  r |= hp__strv_append(out, &l->args);
  if (r)
    hp_strv_free(out);
  return r ? HP_ENOMEM : 0;
}

char *hp__launch_salloc_job(const char *text)
{
  const char *p = text ? strstr(text, "Granted job allocation ") : NULL;
  size_t n = 0;

  if (p == NULL)
    return NULL;
  p += strlen("Granted job allocation ");
  while (p[n] >= '0' && p[n] <= '9')
    n++;
  return n ? hp__strndup(p, n) : NULL;
}

int hp__launch_cancel_argv(const hp__launch_spec *ls, const hp_run_launch *got, hp_strv *out)
{
  const char *job = got && got->job_id ? got->job_id : NULL;
  int r = 0;

  out->v = NULL;
  out->n = 0;
  if (ls->l->kind != HP_LAUNCH_SLURM)
    return 0;
  r |= hp__strv_push(out, "scancel");
  if (ls->job_id == NULL && getenv("SLURM_JOB_ID") == NULL)
    r |= push_opt(out, "--name", ls->name); /* its own job: cancelled whole, queued or not */
  else if (job && got->step_id)
    r |= hp__strv_push_own(out, hp__asprintf("%s.%s", job, got->step_id));
  else
    hp_strv_free(out); /* a step that never started ends with its srun */
  if (r)
    hp_strv_free(out);
  return r ? HP_ENOMEM : 0;
}
