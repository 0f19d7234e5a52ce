/*
 * Progress of a session while it runs, so that a long pass does not look hung.
 *
 * Two halves. The pure half formats: a time as HH:MM:SS, the ETA from each pass's measured wall
 * times, a run's outcome ("1.4812 ms", "exit 3"), the live status line and the one line per
 * finished run; it writes only into the caller's buffer, so it is unit-tested with literal
 * strings. The I/O half (hp__progress_open ... hp__progress_close) keeps the state of one session
 * and prints to its log stream: on a terminal (not TERM=dumb) one status line redrawn in place,
 * also once a second by a libuv timer, with a line above it per finished pass; elsewhere one line
 * per finished run; with --quiet nothing.
 *
 * Ownership: the context's `progress` is made by hp__progress_open and released, with its timer
 * and its log wrapper, by hp__progress_close (which accepts a context without one). Buffers passed
 * to the formatters are the caller's; they are always NUL-terminated when their size is > 0.
 */
#ifndef HPRUN_SESSION_PROGRESS_H
#define HPRUN_SESSION_PROGRESS_H

#include "hprun.h"
#include <stddef.h>

struct hp__session_ctx;

/* What the ETA is made of, for one unit (pass or variant). */
typedef struct hp__progress_pass {
  int done;           /* runs of this unit that finished (warmups included) */
  double wall_ms_sum; /* their wall times */
  int left;           /* runs of this unit not finished yet (the one running included) */
} hp__progress_pass;

/* Everything the status line shows. */
typedef struct hp__progress_state {
  size_t k, n;      /* this run's 1-based position in the schedule, and the schedule's length */
  const char *unit; /* the pass or variant */
  int warmup;       /* 1: a warmup run: "warmup 1/2" instead of "run 1/10" */
  int run, runs;    /* this run's index among the unit's runs of its kind, and their number */
  double elapsed_s; /* since the first run started */
  double eta_s;     /* < 0: not known yet */
  const char *last; /* the previous finished run's outcome, or NULL */

  /* A sweep's combination (its name), shown first, or NULL; k, n and the ETA are then its own. */
  const char *combo;
  /* Its 1-based position among the sweep's combinations, and their number. */
  size_t combo_k, combo_n;
  const char *open; /* `repeat: auto`: the passes still open and their intervals, or NULL */
} hp__progress_state;

/* Seconds as HH:MM:SS (hours grow past 99 as needed); "--:--:--" for a negative or NaN time. */
void hp__progress_time(double s, char *buf, size_t size);
/* Seconds left: for each unit, the mean wall of its finished runs times its runs left; a unit with
 * no finished run uses the mean over every finished run. Returns -1 while nothing finished. */
double hp__progress_eta(const hp__progress_pass *p, size_t n);
/* A finished run's outcome: "VALUE UNIT" of the primary metric (unit may be NULL), or why it has
 * none: "could not start", "timed out", "signal N", "interrupted", "exit N", "no value". */
void hp__progress_outcome(const hp_run *run, const char *unit, char *buf, size_t size);
/* The status line: "[37/120] pmc run 4/10 · 00:03:12 elapsed · ETA 00:05:40 · last 1.4812 ms". */
void hp__progress_status(const hp__progress_state *st, char *buf, size_t size);
/* The line for a finished run off a terminal: "[37/120] pmc run 4/10: 1.4812 ms, wall 2.31 s"
 * (st->last holds the outcome; elapsed and ETA are not shown). */
void hp__progress_done(const hp__progress_state *st, double wall_ms, char *buf, size_t size);

/* The line for a finished pass on a terminal: "normal: 5 runs, median 0.0216 ms", with ", 2
 * failed" when runs failed and "no value" for the median when none has one (median NaN). */
void hp__progress_pass_line(const char *unit, int runs, int failed, double median,
                            const char *munit, char *buf, size_t size);

/* Starts the progress of a session whose schedule is made (c->slots): decides the form from
 * opts->quiet, the log stream and TERM; on a terminal, routes the log through a wrapper that
 * clears the status line before anything else is written and redraws it after. Returns 0 or
 * HP_ENOMEM. */
int hp__progress_open(struct hp__session_ctx *c);
/* The hooks of the run loop: slot `i` (0-based) starts; it finished as `run`. */
void hp__progress_run_start(struct hp__session_ctx *c, size_t i);
void hp__progress_run_end(struct hp__session_ctx *c, size_t i, const hp_run *run);
/* Unit `unit` has run its last run (or `repeat: auto` stopped it): on a terminal, one line says
 * so above the status line. Once per unit; nothing off a terminal, where each run has its line. */
void hp__progress_pass_end(struct hp__session_ctx *c, size_t unit);
/* Clears the status line and releases everything hp__progress_open made. */
void hp__progress_close(struct hp__session_ctx *c);

#endif /* HPRUN_SESSION_PROGRESS_H */
