/*
 * The session guard (lib/exec/guard.c and watchdog.c), exec-internal: callers outside lib/exec
 * include exec/runner.h only. It makes sure that no process of a run outlives hprun, even when
 * hprun itself is SIGKILLed and cannot clean up:
 *
 *   - a session token: every child hprun starts gets HPRUN_SESSION_TOKEN=<token> in its
 *     environment, which its descendants inherit, so they can be found after they leave the
 *     process group (exec/leftover.c at the end of each run, the watchdog when hprun died);
 *   - hprun becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so a daemon that double-forks
 *     and setsid()s is reparented to hprun, not to init, and is found by its parent;
 *   - the watchdog: a fork of hprun, started once, that reads a socket from hprun. hprun tells it
 *     each run's process group as the run starts and ends, in a table of pgids shared with it
 *     (MAP_SHARED: a store, no system call, no wakeup), or, when that is full or missing, as a
 *     line on the socket. On EOF without a "bye" (hprun died)
 *     it stops every group it was told about and every process with the token, then exits.
 *
 * The state is the process's own, one guard per hprun process; it starts on the first
 * hp__child_run and lasts until hp__exec_shutdown or the process's exit, whichever is first.
 * The protocol parser is here too, so it can be tested without a process.
 */
#ifndef HPRUN_EXEC_GUARD_H
#define HPRUN_EXEC_GUARD_H

#include <stddef.h>

/* The environment variable every child gets; its value is the session token. */
#define HP__TOKEN_VAR "HPRUN_SESSION_TOKEN"

/* Starts the guard if this process has none (a forked copy of a process that had one starts its
 * own): token, subreaper, watchdog. Failing to start the watchdog is not an error: runs still go,
 * only the protection against hprun's SIGKILL is lost. */
void hp__guard_start(void);
/* "HPRUN_SESSION_TOKEN=<token>", the entry looked for in /proc/<pid>/environ, or NULL. */
const char *hp__guard_token_entry(void);
/* The watchdog's pid, or 0 when there is none. */
int hp__guard_watchdog_pid(void);
/* getpid(), asked of the kernel once per process (again in a fork()ed copy): exec/guard.c. */
int hp__guard_self(void);
/* Tells the watchdog that group `pgid` is a run's (watch) or has ended (unwatch): through the
 * table shared with it, or a line on the socket when the table is full or missing. */
void hp__guard_watch(int pgid);
void hp__guard_unwatch(int pgid);
/* Ends the guard: "bye" to the watchdog, which exits at once, and waits for it (at most 1 s,
 * then SIGKILL). Safe to call when there is none. The declaration callers use is
 * hp__exec_shutdown in exec/runner.h. */
void hp__guard_stop(void);

/* ---- the watchdog's side (lib/exec/watchdog.c) ---- */

#define HP__WATCHDOG_MAX_GROUPS 64

/* What hprun told the watchdog so far. Lines: "+<pgid>" watch a group, "-<pgid>" forget it,
 * "bye" hprun ends normally; each ends with '\n'. */
typedef struct hp__watchdog_state {
  int pgids[HP__WATCHDOG_MAX_GROUPS];
  size_t n;
  int bye; /* "bye" was read */
  int bad; /* lines not understood (or a group that did not fit), ignored */
  char line[32];
  size_t len; /* bytes of a partial line in `line`; a longer line is bad */
} hp__watchdog_state;

void hp__watchdog_state_init(hp__watchdog_state *st);
/* Applies the complete lines in p[0..n); a partial line waits for the next call. */
void hp__watchdog_feed(hp__watchdog_state *st, const char *p, size_t n);
/* Adds the groups in the shared table (`n` slots, 0 empty) to st, as "+<pgid>" lines would. */
void hp__watchdog_merge(hp__watchdog_state *st, const int *table, size_t n);
/* hprun is gone: SIGTERM to every watched group and every process started at or after `since`
 * (clock ticks, as in hp__proc_info) whose environment holds `token_entry`; SIGKILL to what is
 * still alive after grace_ms. Returns how many processes were found alive at first. */
int hp__watchdog_stop_all(const hp__watchdog_state *st, const char *token_entry,
                          unsigned long long since, int grace_ms);
/* The watchdog process's life after fork(): detaches (own session, signals, descriptors), reads
 * `fd` until "bye" or EOF, then adds the groups in `table` (HP__WATCHDOG_MAX_GROUPS slots shared
 * with hprun, or NULL) and stops what is left. Never returns. */
_Noreturn void hp__watchdog_main(int fd, const char *token_entry, const int *table);

#endif /* HPRUN_EXEC_GUARD_H */
