/*
 * One child process at a time, on a libuv loop: spawn in its own process group, save its output,
 * sample its memory, enforce its timeout and stop the whole group; and the environments children
 * run in. The spec and everything it points to stay the caller's; the result is plain data.
 *
 * No process of a run outlives it, nor hprun: what a run leaves behind (group members, daemons
 * that setsid()) is killed when its leader exits and counted in the result, and a watchdog
 * process stops the current run if hprun itself dies (SIGKILL). Every child's environment gets
 * HPRUN_SESSION_TOKEN, by which its descendants are found.
 *
 * This is the exec module's only header for callers outside lib/exec. The others are
 * exec-internal: exec/output.h (a child's output pipes: file, echo, capture), exec/procfs.h (the
 * group's members and peak RSS from /proc), exec/sampler.h (the device-memory sampler),
 * exec/guard.h (the session token, subreaper and watchdog), exec/leftover.h (what a run left
 * behind), exec/spawn.h (the leader's spawn and exit). The code: lib/exec/runner.c (the child's
 * life: spawn, timeout, stop, exit), spawn.c, output.c, procfs.c, sampler.c, guard.c,
 * watchdog.c, leftover.c and env.c (hp__env_*). Contract:
 * docs/internals/runner.md.
 */
#ifndef HPRUN_EXEC_RUNNER_H
#define HPRUN_EXEC_RUNNER_H

#include "util/base/buf.h"
#include <stdio.h>
#include <uv.h>

typedef struct hp__child_spec {
  const hp_strv *argv;     /* argv[0] without a '/' is looked up on the child's PATH (execvp) */
  char **env;              /* NULL-terminated "K=V"; NULL inherits hprun's environment */
  const char *cwd;         /* NULL: hprun's */
  double timeout_s;        /* 0: none */
  double grace_s;          /* between SIGTERM and SIGKILL; 0: 5 s */
  int profiled;            /* a profiler leads the group: on stop, signal its children first */
  const char *stdout_path; /* saved here (created, never overwritten); NULL: not saved */
  const char *stderr_path;
  FILE *echo;               /* live copy of the child's output, lines prefixed; NULL: quiet */
  const char *prefix;       /* e.g. "[stats 1] " */
  hp__buf *capture;         /* if set, stdout is collected here instead */
  double rss_interval_ms;   /* how often the group's peak RSS is sampled; 0: 20 ms */
  const hp_strv *sampler;   /* a long-lived command printing device memory, one reading per
                               line (the line's last number); NULL: none */
  double sampler_scale;     /* multiplies each reading to give MiB; 0: 1 */
  const char *sampler_path; /* its raw output is saved here; NULL: not saved */
  const char *vram_file;    /* an amdgpu mem_info_vram_used file (bytes), read in-process every
                               vram_interval_ms instead of a sampler command; NULL: none */
  double vram_interval_ms;
  int use_dirfd; /* the three files are created in folder `dirfd` (by their paths' last
                    component, openat with O_NOFOLLOW), which the caller holds open; the paths
                    are still what messages name */
  int dirfd;
} hp__child_spec;

typedef struct hp__child_result {
  int spawn_error; /* 0, or a negative libuv code (uv_strerror) */
  long long exit_status;
  int term_signal;
  int timed_out;
  int interrupted; /* stopped because hprun was asked to stop */
  double wall_ms;
  long max_rss_kb;     /* peak RSS of the largest process in the group; -1 unknown */
  long mem_samples;    /* device-memory readings taken while the child lived */
  double mem_mean_mib; /* NaN when none */
  double mem_peak_mib;
  int sampler_error; /* the sampler could not start (negative libuv code), or 0 */
  int left_behind;   /* processes of the run still alive after its leader exited (members of
                        a group that was not being stopped, and every process that had left the
                        group): all were killed */
  int output_cut;    /* a pipe was still held open 2 s after the leader exited (by a process that
                        would not die): reading stopped there, later output is lost */
  int write_errno;   /* 0, or the errno of the first failed write (or close) of an output file */
  const char *write_path; /* that file: the spec's stdout_path, stderr_path or sampler_path (the
                             spec's string, not a copy); NULL when write_errno is 0 */
  long long stdout_size;  /* stdout_path's size when the run ended (0: the child printed
                             nothing, so there is nothing to read back); -1 unknown */
} hp__child_result;

/* Runs one child to completion on `loop` (which must have nothing else that keeps it alive) and
 * fills *res. Returns 0 when the child ran (whatever its status), HP_ESPAWN when it could not be
 * started (res->spawn_error says why), HP_EIO when an output file could not be created (nothing
 * ran) or when writing one failed (the child ran and *res is complete; res->write_errno and
 * res->write_path say which file and why). No process of the run is left behind when this
 * returns. The first call starts the session guard (exec/guard.h): hprun becomes a child
 * subreaper and forks its watchdog. */
int hp__child_run(uv_loop_t *loop, const hp__child_spec *spec, hp__child_result *res);
/* Ends the session guard: the watchdog is told all is well, exits, and is waited for. Optional
 * (without it the watchdog exits when hprun does, after one look for leftovers); the next
 * hp__child_run starts a new guard. */
void hp__exec_shutdown(void);
/* Asks the running child (if any) to stop, as a timeout would; a second call escalates to
 * SIGKILL. Safe to call from a libuv signal callback. */
void hp__child_stop_current(void);
/* Builds a NULL-terminated environment: `base` (NULL: environ) with `set` applied (K=V entries
 * replace or add). Free with hp__env_free. (env.c) */
char **hp__env_build(char **base, const hp_kv *set, size_t nset);
void hp__env_free(char **env);
/* The same environment as hp__env_build, in one allocation that free() releases (not
 * hp__env_free): the array and the `set` entries' text; base's strings are not copied, so `base`
 * must outlive the result. For an environment built for every run from one that lives longer.
 * (runner.c) */
char **hp__env_overlay(char **base, const hp_kv *set, size_t nset);
/* Sources a POSIX sh script in /bin/sh and returns the environment it leaves (NULL-terminated,
 * free with hp__env_free). HP_EIO with a message in diags if the script fails. */
int hp__env_from_script(uv_loop_t *loop, const char *script, char ***out, hp_diags *diags);

#endif /* HPRUN_EXEC_RUNNER_H */
