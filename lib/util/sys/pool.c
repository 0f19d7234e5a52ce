/*
 * The thread pool of pool.h. One mutex guards the pool's counters: `next` (the next task to
 * start), `taken` (tasks handed to done) and the finished flags. A worker waits on `more` while
 * the task it would start is `ahead` tasks past the last one taken; the caller's thread waits on
 * `fin` for the task whose turn it is. The tasks themselves run without the lock.
 */
#include "util/sys/pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pool {
  pthread_mutex_t mu;
  pthread_cond_t more, fin;
  size_t n, next, taken, ahead;
  unsigned char *finished; /* by task */
  int stop;
  hp__pool_work work;
  void *ud;
} pool;

static void *worker(void *arg)
{
  pool *p = arg;
  size_t i;

  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stop && p->next < p->n && p->next >= p->taken + p->ahead)
      pthread_cond_wait(&p->more, &p->mu);
    if (p->stop || p->next >= p->n)
      break;
    i = p->next++;
    pthread_mutex_unlock(&p->mu);
    p->work(p->ud, i);
    pthread_mutex_lock(&p->mu);
    p->finished[i] = 1;
    pthread_cond_signal(&p->fin);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Starts up to `want` workers with every signal blocked; returns how many started. */
static int start(pool *p, pthread_t *th, int want)
{
  sigset_t all, old;
  int k = 0;

  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  while (k < want && pthread_create(&th[k], NULL, worker, p) == 0)
    k++;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return k;
}

/* The caller's side: takes the tasks in order. */
static int take_all(pool *p, hp__pool_done done)
{
  size_t k;
  int r = 0;

  for (k = 0; k < p->n && r == 0; k++) {
    pthread_mutex_lock(&p->mu);
    while (!p->finished[k])
      pthread_cond_wait(&p->fin, &p->mu);
    pthread_mutex_unlock(&p->mu);
    r = done(p->ud, k);
    pthread_mutex_lock(&p->mu);
    p->taken = k + 1;
    pthread_cond_broadcast(&p->more);
    pthread_mutex_unlock(&p->mu);
  }
  return r;
}

static int run_inline(size_t n, hp__pool_work work, hp__pool_done done, void *ud)
{
  size_t i;
  int r = 0;

  for (i = 0; i < n && r == 0; i++) {
    work(ud, i);
    r = done(ud, i);
  }
  return r;
}

int hp__pool_run(size_t n, int jobs, size_t ahead, hp__pool_work work, hp__pool_done done, void *ud)
{
  pthread_t *th = NULL;
  pool p = {.n = n, .ahead = ahead ? ahead : 1, .work = work, .ud = ud};
  int nth = 0, i, r;

  if (jobs > 1 && (size_t)jobs > n)
    jobs = (int)n;
  if (jobs <= 1)
    return run_inline(n, work, done, ud);
  th = malloc((size_t)jobs * sizeof(*th));
  p.finished = calloc(n, 1);
  if (th == NULL || p.finished == NULL || pthread_mutex_init(&p.mu, NULL) != 0) {
    free(th);
    free(p.finished);
    return run_inline(n, work, done, ud);
  }
  /* Without the conditions no worker is started: the tasks then run on this thread. */
  if (pthread_cond_init(&p.more, NULL) != 0)
    jobs = 0;
  else if (pthread_cond_init(&p.fin, NULL) != 0) {
    pthread_cond_destroy(&p.more);
    jobs = 0;
  }
  if (jobs == 0) {
    pthread_mutex_destroy(&p.mu);
    free(th);
    free(p.finished);
    return run_inline(n, work, done, ud);
  }
  if ((nth = start(&p, th, jobs)) == 0)
    r = run_inline(n, work, done, ud);
  else
    r = take_all(&p, done);
  pthread_mutex_lock(&p.mu);
  p.stop = 1;
  pthread_cond_broadcast(&p.more);
  pthread_mutex_unlock(&p.mu);
  for (i = 0; i < nth; i++)
    pthread_join(th[i], NULL);
  pthread_cond_destroy(&p.more);
  pthread_cond_destroy(&p.fin);
  pthread_mutex_destroy(&p.mu);
  free(p.finished);
  free(th);
  return r;
}

int hp__pool_cpus(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);

  return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
