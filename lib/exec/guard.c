/*
 * The session guard, hprun's side: the token every child carries, hprun as a child subreaper,
 * and the watchdog process with the socket that tells it which process groups are runs
 * (exec/guard.h says why each exists; the watchdog itself is exec/watchdog.c).
 *
 * The watchdog is hprun's child but not libuv's: libuv waits only for the pids it spawned, so
 * hprun waits for this one itself (waitpid on its pid alone) when it ends it.
 */
#include "exec/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct {
  int owner;      /* getpid() of the process that started it; 0: not started */
  int fd;         /* hprun's end of the socket, or -1 */
  int pid;        /* the watchdog, or 0 */
  char token[48]; /* the token's value */
  char entry[80]; /* HP__TOKEN_VAR "=" token */
  int *table;     /* the watched groups, shared with the watchdog (MAP_SHARED), or NULL */
} g = {0, -1, 0, "", "", NULL};

/* This process's pid, asked of the kernel once and again only in a fork()ed copy: the checks that
 * the guard is ours (g.owner) come several times per run, and a getpid(2) each cost a system call
 * per check. The atfork handler, which glibc runs in the child of every fork() (libuv's and the
 * watchdog's included, not in exec/vspawn.c's clone, whose child calls nothing of ours but
 * exec's), forgets the cached pid, so a copy asks again and sees that the guard is its parent's. */
static int self_pid;
static int atfork_set;

static void forget_pid(void)
{
  self_pid = 0;
}

int hp__guard_self(void)
{
  if (self_pid == 0) {
    if (!atfork_set)
      atfork_set = pthread_atfork(NULL, NULL, forget_pid) == 0;
    if (!atfork_set)
      return (int)getpid(); /* no handler: a cached pid could be a parent's */
    self_pid = (int)getpid();
  }
  return self_pid;
}

/* 96 random bits (the pid in front keeps tokens of concurrent hprun processes apart even when
 * no randomness is to be had). */
static void make_token(void)
{
  unsigned char r[12];
  size_t i, k;
  struct timespec ts;

  if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
    clock_gettime(CLOCK_REALTIME, &ts);
    for (i = 0; i < sizeof(r); i++)
      r[i] = (unsigned char)((unsigned long long)ts.tv_nsec >> (i % 4 * 8) ^
                             (unsigned long long)ts.tv_sec >> (i % 8 * 4));
  }
  k = (size_t)snprintf(g.token, sizeof(g.token), "%d-", hp__guard_self());
  for (i = 0; i < sizeof(r) && k + 2 < sizeof(g.token); i++, k += 2)
    snprintf(g.token + k, sizeof(g.token) - k, "%02x", r[i]);
  snprintf(g.entry, sizeof(g.entry), "%s=%s", HP__TOKEN_VAR, g.token);
}

/* Forks the watchdog. Every signal is blocked around fork() so that none runs one of libuv's
 * handlers in the copy before it has reset them. */
static void start_watchdog(void)
{
  sigset_t all, old;
  int sv[2];
  pid_t pid;

  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return;
  /* Without the table, the groups go over the socket as lines. */
  g.table = mmap(NULL, HP__WATCHDOG_MAX_GROUPS * sizeof(int), PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (g.table == MAP_FAILED)
    g.table = NULL;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  pid = fork();
  if (pid == 0) {
    close(sv[0]);
    hp__watchdog_main(sv[1], g.entry, g.table);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    return;
  }
  g.fd = sv[0];
  g.pid = (int)pid;
}

/* A normal exit says "bye", so the watchdog ends at once and is waited for: it never outlives
 * hprun, not even by the look for leftovers it takes after an EOF. */
static void at_exit(void)
{
  hp__guard_stop();
}

void hp__guard_start(void)
{
  static int registered;
  int me = hp__guard_self();

  if (g.owner == me)
    return;
  if (!registered)
    registered = atexit(at_exit) == 0;
  if (g.owner != 0 && g.fd >= 0)
    close(g.fd); /* a forked copy of a guarded process: that watchdog is our parent's */
  if (g.owner != 0 && g.table)
    munmap(g.table, HP__WATCHDOG_MAX_GROUPS * sizeof(int)); /* and so is that table */
  g.table = NULL;
  g.fd = -1;
  g.pid = 0;
  g.owner = me;
  make_token();
  /* Orphans of our runs (a daemon's double fork) come to us, not to init, so the end of the run
   * can find them by their parent. Not inherited by children; failure only loses that. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  start_watchdog();
}

const char *hp__guard_token_entry(void)
{
  return g.owner ? g.entry : NULL;
}

int hp__guard_watchdog_pid(void)
{
  return g.owner == hp__guard_self() ? g.pid : 0;
}

/* Waits up to `ms` for the watchdog to exit, then kills it. */
static void reap_watchdog(int ms)
{
  struct timespec tick = {0, 10 * 1000 * 1000};
  int i;

  for (i = 0; i < ms / 10; i++) {
    if (waitpid(g.pid, NULL, WNOHANG) != 0)
      return;
    nanosleep(&tick, NULL);
  }
  kill(g.pid, SIGKILL);
  waitpid(g.pid, NULL, 0);
}

static void send_line(const char *line)
{
  size_t n = strlen(line);
  ssize_t w;

  if (g.owner != hp__guard_self() || g.fd < 0)
    return;
  do
    w = send(g.fd, line, n, MSG_NOSIGNAL);
  while (w < 0 && errno == EINTR);
  if (w == (ssize_t)n)
    return;
  /* The watchdog is gone (someone killed it): runs go on without it. */
  close(g.fd);
  g.fd = -1;
  reap_watchdog(0);
  g.pid = 0;
}

/* The slot holding `v` in the shared table, or NULL (no table, not ours, or not there). */
static int *slot_of(int v)
{
  int i;

  if (g.table == NULL || g.fd < 0 || g.owner != hp__guard_self())
    return NULL;
  for (i = 0; i < HP__WATCHDOG_MAX_GROUPS; i++)
    if (__atomic_load_n(&g.table[i], __ATOMIC_RELAXED) == v)
      return &g.table[i];
  return NULL;
}

/* A group goes into the shared table: a store, no system call and no wakeup of the watchdog,
 * which reads the table only when hprun is gone. The socket line is the fallback. */
void hp__guard_watch(int pgid)
{
  char line[32];
  int *slot = slot_of(0);

  if (slot) {
    __atomic_store_n(slot, pgid, __ATOMIC_SEQ_CST);
    return;
  }
  snprintf(line, sizeof(line), "+%d\n", pgid);
  send_line(line);
}

void hp__guard_unwatch(int pgid)
{
  char line[32];
  int *slot = slot_of(pgid);

  if (slot) {
    __atomic_store_n(slot, 0, __ATOMIC_SEQ_CST);
    return;
  }
  snprintf(line, sizeof(line), "-%d\n", pgid);
  send_line(line);
}

void hp__guard_stop(void)
{
  if (g.owner != hp__guard_self())
    return;
  send_line("bye\n");
  if (g.fd >= 0)
    close(g.fd);
  if (g.pid > 0)
    reap_watchdog(1000);
  if (g.table)
    munmap(g.table, HP__WATCHDOG_MAX_GROUPS * sizeof(int));
  g.table = NULL;
  g.fd = -1;
  g.pid = 0;
  g.owner = 0;
}
