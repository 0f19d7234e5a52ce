/*
 * A fixed pool of threads that runs numbered tasks and hands them back in order
 * (lib/util/sys/pool.c). `hprun summarize` reads one file per task; the caller's thread takes each
 * finished task in task order, so whatever it combines is combined in one order whatever the
 * number of threads (docs/internals/merge.md).
 *
 * Ownership: the pool owns nothing of the caller's. `work` runs on a pool thread and may touch
 * only what belongs to task i (and read what no one writes during the run); `done` runs on the
 * caller's thread, so it may use everything else. The threads exist only inside hp__pool_run and
 * block every signal, so signal handling stays with the caller's thread.
 */
#ifndef HPRUN_UTIL_POOL_H
#define HPRUN_UTIL_POOL_H

#include <stddef.h>

/* Runs task i on a pool thread. */
typedef void (*hp__pool_work)(void *ud, size_t i);
/* Takes finished task i on the caller's thread: 0 goes on, anything else stops the run. */
typedef int (*hp__pool_done)(void *ud, size_t i);

/* Runs work(ud, i) for i = 0..n-1 on min(jobs, n) threads, and done(ud, i) on the caller's thread
 * in order of i, each once work(ud, i) has returned. At most `ahead` (>= 1) tasks past the last
 * one done are started, which bounds what finished tasks hold while they wait for their turn.
 * jobs <= 1 (or no thread could be started) runs work and done one after the other on the
 * caller's thread. Returns 0, or the first nonzero value of done: then no further task starts,
 * the running ones finish, and done is not called for them (the caller frees what they made). */
int hp__pool_run(size_t n, int jobs, size_t ahead, hp__pool_work work, hp__pool_done done,
                 void *ud);

/* The number of online CPUs (at least 1): the default number of threads. */
int hp__pool_cpus(void);

#endif /* HPRUN_UTIL_POOL_H */
