/*
 * Launchers (docs/cluster.md): how one run of a pass becomes a Slurm job step, mpirun's N ranks or
 * another scheduler's command, and how it is cancelled. This layer knows nothing of sessions: it
 * turns argvs into argvs, writes the run's rank wrapper, and reads back what the ranks left.
 *
 * A launched run does not start the app (or its profiler) directly: every rank starts hprun's rank
 * wrapper, a POSIX sh script written into the run folder (hprun-rank.sh), which takes the rank
 * from SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK, makes the folder rank<N>/, records where it
 * runs in rank<N>/rank.txt, and runs the profiled argv (for the ranks in profile_ranks) or the
 * plain one, with its stdout and stderr in that folder. `{rank}` in the profiled argv (the
 * driver's output folder is <run>/rank{rank}) becomes the rank. The wrapper also prints one line,
 * `hprun-rank: rank N on HOST SLURM_JOB_ID=J SLURM_STEP_ID=S`, into the launcher's output.
 *
 * Everything the spec points to is the caller's; argvs built here are new (hp_strv_free).
 */
#ifndef HPRUN_EXEC_LAUNCH_H
#define HPRUN_EXEC_LAUNCH_H

#include "hprun.h"

/* The placeholder a driver's output folder carries for the rank (docs/cluster.md). */
#define HP__RANK_PLACEHOLDER "{rank}"
/* The wrapper's file name inside the run folder. */
#define HP__RANK_WRAPPER "hprun-rank.sh"

typedef struct hp__launch_spec {
  const hp_launcher *l;
  const char *run_dir;     /* absolute */
  const char *name;        /* Slurm job name of a run that gets its own job (scancel --name) */
  const char *job_id;      /* allocation the step runs in (the session's salloc); NULL: none or
                              the one in SLURM_JOB_ID, which srun finds itself */
  const hp_strv *plain;    /* the app's argv */
  const hp_strv *profiled; /* the profiled argv with {rank}; NULL for an unprofiled pass */
  const char *cwd;         /* where every rank starts; NULL: its rank folder */
} hp__launch_spec;

/* Writes <run_dir>/hprun-rank.sh (new; never replaces a file) and builds the launcher's argv
 * around `/bin/sh <that script>` into *out. Returns 0, HP_ENOMEM, or hp__write_file's code when
 * the script could not be written (util/sys/fsutil.h: its kind HP_EIO or HP_EEXIST, and why). */
int hp__launch_argv(const hp__launch_spec *ls, hp_strv *out);
/* The launcher's argv alone, without writing the wrapper (the dry run shows it). */
int hp__launch_outer(const hp__launch_spec *ls, hp_strv *out);
/* `salloc --no-shell --job-name=NAME` with the launcher's Slurm options: the session's one
 * allocation (`allocation: session`). */
int hp__launch_salloc_argv(const hp_launcher *l, const char *name, hp_strv *out);
/* The job ID in salloc's "Granted job allocation N" message, malloc'd; NULL when absent. */
char *hp__launch_salloc_job(const char *text);
/* What cancels a run that did not end by itself: `scancel JOB.STEP` for a step whose ID a rank
 * recorded, else `scancel --name=NAME` for a run with its own job. 0 with out->n == 0 when there
 * is nothing to cancel (mpirun and command runs stop with their process group). */
int hp__launch_cancel_argv(const hp__launch_spec *ls, const hp_run_launch *got, hp_strv *out);
/* Reads the rank folders rank<N>/ of `run_dir` into a new *out (kind copied; values NULL, for the
 * caller to fill). 0 or HP_ENOMEM; a missing or odd rank.txt gives a rank without details. */
int hp__launch_read(const char *run_dir, const char *kind, hp_run_launch **out);
void hp__launch_free(hp_run_launch *rl);
/* "local", "slurm", "mpirun", "command". */
const char *hp__launch_kind_name(hp_launch_kind k);

#endif /* HPRUN_EXEC_LAUNCH_H */
