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

  hp__buf_addc(b, '\'');
  for (i = 0; i < n; i++)
    if (s[i] == '\'')
      hp__buf_adds(b, "'\\''");
    else
      hp__buf_addc(b, s[i]);
  return hp__buf_addc(b, '\'');
}

/* Appends an argv as sh words; each {rank} becomes "$rank". */
static int add_argv(hp__buf *b, const hp_strv *v)
{
  size_t i;

  for (i = 0; i < v->n; i++) {
    const char *w = v->v[i], *p;
    hp__buf_addc(b, ' ');
    while ((p = strstr(w, HP__RANK_PLACEHOLDER)) != NULL) {
      add_quoted(b, w, (size_t)(p - w));
      hp__buf_adds(b, "\"$rank\"");
      w = p + strlen(HP__RANK_PLACEHOLDER);
    }
    add_quoted(b, w, strlen(w));
  }
  return hp__buf_error(b);
}

/* The `case` pattern of the profiled ranks: "0|3", or "*" for every rank. */
static int add_ranks(hp__buf *b, const hp_launcher *l)
{
  size_t i;

  if (l->nprofile_ranks == 0)
    return hp__buf_addc(b, '*');
  for (i = 0; i < l->nprofile_ranks; i++)
    hp__buf_printf(b, "%s%ld", i ? "|" : "", l->profile_ranks[i]);
  return hp__buf_error(b);
}

/* The wrapper's text (launch.h describes what it does). */
static int wrapper_text(const hp__launch_spec *ls, hp__buf *b)
{
  hp__buf_adds(b,
               "#!/bin/sh\n# Written by hprun: runs one rank of this run (docs/cluster.md)."
               "\nrank=${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}}\ndir=");
  add_quoted(b, ls->run_dir, strlen(ls->run_dir));
  hp__buf_adds(b, "/rank$rank\nmkdir -p \"$dir\" || exit 125\nprofiled=0\n");
  if (ls->profiled) {
    hp__buf_adds(b, "case $rank in ");
    add_ranks(b, ls->l);
    hp__buf_adds(b, ") profiled=1 ;; esac\n");
  }
  hp__buf_adds(b,
               "host=$(uname -n)\n"
               "printf 'rank=%s\\nprofiled=%s\\nhost=%s\\njob_id=%s\\nstep_id=%s\\nnodelist=%s\\n' "
               "\"$rank\" \"$profiled\" \"$host\" \"${SLURM_JOB_ID:-}\" \"${SLURM_STEP_ID:-}\" "
               "\"${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}}\" >\"$dir/rank.txt\"\n"
               "echo \"hprun-rank: rank $rank on $host SLURM_JOB_ID=${SLURM_JOB_ID:--} "
               "SLURM_STEP_ID=${SLURM_STEP_ID:--}\"\ncd ");
  if (ls->cwd)
    add_quoted(b, ls->cwd, strlen(ls->cwd));
  else
    hp__buf_adds(b, "\"$dir\"");
  hp__buf_adds(b, " || exit 125\nif [ $profiled = 1 ]; then\n ");
  add_argv(b, ls->profiled ? ls->profiled : ls->plain);
  hp__buf_adds(b, " >\"$dir/stdout.txt\" 2>\"$dir/stderr.txt\"\nelse\n ");
  add_argv(b, ls->plain);
  hp__buf_adds(b,
               " >\"$dir/stdout.txt\" 2>\"$dir/stderr.txt\"\nfi\n"
               "rc=$?\necho \"exit=$rc\" >>\"$dir/rank.txt\"\nexit $rc\n");
  return hp__buf_error(b);
}

/* `OPT=VAL` when there is a value; a failure sticks in the vector, as in slurm_opts. */
static void push_opt(hp_strv *out, const char *opt, const char *val)
{
  if (val)
    hp__strv_push_own(out, hp__asprintf("%s=%s", opt, val));
}

/* The Slurm options shared by srun and salloc. */
static void slurm_opts(const hp_launcher *l, hp_strv *out)
{
  long t = (long)(l->time + 0.999);

  push_opt(out, "--partition", l->partition);
  if (l->nodes > 0)
    hp__strv_push_own(out, hp__asprintf("--nodes=%ld", l->nodes));
  if (l->ntasks > 0)
    hp__strv_push_own(out, hp__asprintf("--ntasks=%ld", l->ntasks));
  push_opt(out, "--gpus", l->gpus);
  push_opt(out, "--gres", l->gres);
  if (t > 0)
    hp__strv_push_own(out, hp__asprintf("--time=%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60));
  push_opt(out, "--account", l->account);
  push_opt(out, "--constraint", l->constraint);
  if (l->exclusive)
    hp__strv_push(out, "--exclusive");
}

/* The launcher's argv around `inner` (the wrapper's command). */
static int outer_argv(const hp__launch_spec *ls, const hp_strv *inner, hp_strv *out)
{
  const hp_launcher *l = ls->l;
  size_t i;

  if (l->kind == HP_LAUNCH_SLURM) {
    hp__strv_push(out, l->path ? l->path : "srun");
    if (ls->job_id)
      push_opt(out, "--jobid", ls->job_id);
    push_opt(out, "--job-name", ls->name);
    slurm_opts(l, out);
    push_opt(out, "--mpi", l->mpi);
    hp__strv_append(out, &l->args);
    return hp__strv_append(out, inner);
  }
  if (l->kind == HP_LAUNCH_MPIRUN) {
    hp__strv_push(out, l->path ? l->path : "mpirun");
    hp__strv_push(out, "-np");
    hp__strv_push_own(out, hp__asprintf("%ld", l->ntasks > 0 ? l->ntasks : 1));
    hp__strv_append(out, &l->args);
    return hp__strv_append(out, inner);
  }
  /* command: {app} is the wrapper's command, {ntasks} the rank count, {dir} the run folder. */
  for (i = 0; i < l->command.n; i++) {
    const char *w = l->command.v[i];
    if (strcmp(w, "{app}") == 0)
      hp__strv_append(out, inner);
    else if (strcmp(w, "{ntasks}") == 0)
      hp__strv_push_own(out, hp__asprintf("%ld", l->ntasks > 0 ? l->ntasks : 1));
    else if (strcmp(w, "{dir}") == 0)
      hp__strv_push(out, ls->run_dir);
    else
      hp__strv_push(out, w);
  }
  return hp__strv_error(out);
}

int hp__launch_outer(const hp__launch_spec *ls, hp_strv *out)
{
  hp_strv inner = {NULL, 0, 0};
  int r = HP_ENOMEM;

  hp__strv_init(out);
  hp__strv_push(&inner, "/bin/sh");
  if (hp__strv_push_own(&inner, hp__path_join(ls->run_dir, HP__RANK_WRAPPER)) == 0)
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

  hp__strv_init(out);
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
  int r;

  hp__strv_init(out);
  hp__strv_push(out, "salloc");
  hp__strv_push(out, "--no-shell");
  push_opt(out, "--job-name", name);
  slurm_opts(l, out);
  r = hp__strv_append(out, &l->args);
  if (r)
    hp_strv_free(out);
  return r;
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
  int r;

  hp__strv_init(out);
  if (ls->l->kind != HP_LAUNCH_SLURM)
    return 0;
  hp__strv_push(out, "scancel");
  if (ls->job_id == NULL && getenv("SLURM_JOB_ID") == NULL)
    push_opt(out, "--name", ls->name); /* its own job: cancelled whole, queued or not */
  else if (job && got->step_id)
    hp__strv_push_own(out, hp__asprintf("%s.%s", job, got->step_id));
  else
    hp_strv_free(out); /* a step that never started ends with its srun */
  r = hp__strv_error(out);
  if (r)
    hp_strv_free(out);
  return r;
}
