/*
 * Starting a program the way posix_spawn does (clone with CLONE_VM | CLONE_VFORK: nothing of hprun
 * is copied, hprun resumes once the child has exec'd or failed), with a fixed stack and only the
 * signal dispositions that need it reset (exec/vspawn.c says why). Linux only; exec/spawn.c uses
 * it for a run's leader.
 */
#ifndef HPRUN_EXEC_VSPAWN_H
#define HPRUN_EXEC_VSPAWN_H

/* The most stdio descriptors a request can set. */
#define HP__VSPAWN_FDS 8

typedef struct hp__vspawn_req {
  const char *file;        /* a path: no PATH look-up */
  char *const *argv;       /* NULL-terminated */
  char *const *envp;       /* NULL-terminated */
  const char *cwd;         /* the child's folder; NULL: hprun's */
  int setsid;              /* the child leads a new session (and its group) */
  int nfd;                 /* descriptors 0 .. nfd-1 are set */
  int src[HP__VSPAWN_FDS]; /* what the child gets as descriptor i: a descriptor of ours, or -1
                              for /dev/null opened in the child (read-only for 0) */
} hp__vspawn_req;

/* Starts the request's program. Returns 0 with *pid and *pidfd (O_CLOEXEC) set; or the negative
 * errno of the child's step that failed (the exec's ENOENT, EACCES, ENOEXEC, ...; the child has
 * been reaped), with *cloned 1; or a negative errno with *cloned 0 when clone(2) itself failed
 * (no child: the caller may start it another way). Not for two threads at once (one stack). */
int hp__vspawn(const hp__vspawn_req *q, int *pid, int *pidfd, int *cloned);

#endif /* HPRUN_EXEC_VSPAWN_H */
