/*
 * The watchdog: the process that stops a session's runs when hprun cannot, because it was
 * SIGKILLed (or crashed). It is a fork of hprun without exec, so it needs no entry point in the
 * CLI and works for every program linked with the library; it touches no libuv state, resets
 * every signal handler it inherited (libuv's would write into hprun's loop) and closes every
 * descriptor but its socket. hprun is single threaded when it forks it, so the C library (malloc,
 * opendir, snprintf) is safe to use here.
 *
 * It leaves hprun's session and process group (setsid) and ignores SIGINT, SIGHUP, SIGTERM and
 * SIGQUIT: a terminal's Ctrl-C or a `kill` of hprun's group reaches hprun, which stops its runs
 * and says "bye"; the watchdog only acts when its socket closes without one. hprun's end, however
 * it comes, closes the socket (only hprun holds the other end: it is O_CLOEXEC, so no child
 * inherits it), so the watchdog never outlives hprun by more than its grace period.
 */
#include "exec/guard.h"
#include "exec/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void hp__watchdog_state_init(hp__watchdog_state *st)
{
  memset(st, 0, sizeof(*st));
}

static void apply_line(hp__watchdog_state *st, const char *s, size_t n)
{
  char num[16], *end;
  long v;
  size_t i;

  if (n == 3 && memcmp(s, "bye", 3) == 0) {
    st->bye = 1;
    return;
  }
  if (n < 2 || n - 1 >= sizeof(num) || (s[0] != '+' && s[0] != '-'))
    goto bad;
  memcpy(num, s + 1, n - 1);
  num[n - 1] = '\0';
  v = strtol(num, &end, 10);
  if (*end != '\0' || v <= 1 || v > 0x7fffffffL)
    goto bad; /* never 1 (init) nor 0 or negative: kill() would reach far too much */
  for (i = 0; i < st->n && st->pgids[i] != (int)v; i++)
    ;
  if (s[0] == '-') {
    if (i < st->n)
      st->pgids[i] = st->pgids[--st->n];
    return;
  }
  if (i < st->n)
    return; /* already watched */
  if (st->n == HP__WATCHDOG_MAX_GROUPS)
    goto bad;
  st->pgids[st->n++] = (int)v;
  return;

bad:
  st->bad++;
}

void hp__watchdog_feed(hp__watchdog_state *st, const char *p, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    if (p[i] != '\n') {
      /* A line longer than the buffer is bad; its length is kept past the end to say so. */
      if (st->len < sizeof(st->line))
        st->line[st->len] = p[i];
      st->len++;
      continue;
    }
    if (st->len <= sizeof(st->line))
      apply_line(st, st->line, st->len);
    else
      st->bad++;
    st->len = 0;
  }
}

void hp__watchdog_merge(hp__watchdog_state *st, const int *table, size_t n)
{
  char line[16];
  size_t i;
  int v, len;

  for (i = 0; table && i < n; i++) {
    v = __atomic_load_n(&table[i], __ATOMIC_SEQ_CST);
    if (v == 0)
      continue;
    len = snprintf(line, sizeof(line), "+%d", v);
    apply_line(st, line, (size_t)len); /* the same checks as a line from the socket */
  }
}

typedef struct stopper {
  const hp__watchdog_state *st;
  const char *token_entry;
  unsigned long long since;
  int self;
  int sig;
  int found;
} stopper;

static int is_watched(const hp__watchdog_state *st, int pgrp)
{
  size_t i;

  for (i = 0; i < st->n; i++)
    if (st->pgids[i] == pgrp)
      return 1;
  return 0;
}

static int stop_one(const hp__proc_info *p, void *arg)
{
  stopper *s = arg;

  if (p->pid == s->self || !HP__PROC_LIVE(p))
    return 0;
  if (!is_watched(s->st, p->pgrp) &&
      !(s->token_entry && p->start >= s->since && hp__proc_env_has(p->pid, s->token_entry) == 1))
    return 0;
  kill(p->pid, s->sig);
  s->found++;
  return 0;
}

/* One look: signals every live process of a watched group or with the token, then the watched
 * groups as a whole (a process forking right now is reached too). Returns how many it found. */
static int stop_pass(stopper *s, int sig)
{
  size_t i;

  s->sig = sig;
  s->found = 0;
  hp__proc_each_since(stop_one, s, 0);
  for (i = 0; i < s->st->n; i++)
    kill(-s->st->pgids[i], sig);
  return s->found;
}

int hp__watchdog_stop_all(const hp__watchdog_state *st, const char *token_entry,
                          unsigned long long since, int grace_ms)
{
  struct timespec tick = {0, 20 * 1000 * 1000};
  stopper s = {st, token_entry, since, (int)getpid(), 0, 0};
  int first, waited;

  first = stop_pass(&s, SIGTERM);
  if (first == 0)
    return 0;
  for (waited = 0; waited < grace_ms; waited += 20) {
    nanosleep(&tick, NULL);
    if (stop_pass(&s, 0) == 0)
      return first;
  }
  /* Twice: a process that forked between the scan and its SIGKILL left a child behind. */
  stop_pass(&s, SIGKILL);
  nanosleep(&tick, NULL);
  stop_pass(&s, SIGKILL);
  return first;
}

/* Keeps only `fd` (as descriptor 3) and stderr, where the one message goes; stdin and stdout
 * become /dev/null so that a shell reading hprun's output is not kept waiting. */
static int keep_only(int fd)
{
  int null, i;

  if (fd != 3) {
    if (dup2(fd, 3) < 0)
      _exit(1);
    close(fd);
  }
  /* Opened after the move, so it cannot take descriptor 3; close_range below closes it. */
  null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
  }
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 4u, ~0u, 0u) == 0)
    return 3;
#endif
  for (i = 4; i < 65536; i++)
    close(i);
  return 3;
}

static void detach(void)
{
  static const int ignored[] = {SIGINT,  SIGHUP,  SIGTERM, SIGQUIT,
                                SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
  struct sigaction sa;
  sigset_t none;
  size_t i;
  int sig;

  setsid();
  prctl(PR_SET_NAME, "hprun-watchdog", 0, 0, 0);
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = SIG_DFL;
  for (sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      sigaction(sig, &sa, NULL);
  sa.sa_handler = SIG_IGN;
  for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
    sigaction(ignored[i], &sa, NULL);
  /* hprun blocked every signal around fork() so none could run libuv's handler in this copy. */
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

_Noreturn void hp__watchdog_main(int fd, const char *token_entry, const int *table)
{
  hp__watchdog_state st;
  hp__proc_info self;
  unsigned long long since = 0;
  char buf[512];
  ssize_t n;
  int found;

  detach();
  /* The token was made just before this fork, so every process that holds it started later. */
  if (hp__proc_info_read((int)getpid(), &self) == 0)
    since = self.start;
  fd = keep_only(fd);
  hp__watchdog_state_init(&st);
  for (;;) {
    n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    hp__watchdog_feed(&st, buf, (size_t)n);
    if (st.bye)
      _exit(0);
  }
  /* EOF without "bye": hprun is gone and nobody else will stop its runs. Its last stores to
   * the table are there: the page is shared, and a dead process's stores are not undone. */
  hp__watchdog_merge(&st, table, HP__WATCHDOG_MAX_GROUPS);
  found = hp__watchdog_stop_all(&st, token_entry, since, 1000);
  if (found > 0) {
    char msg[160];
    int len = snprintf(msg, sizeof(msg),
                       "hprun-watchdog: hprun ended in the middle of a run: stopped %d "
                       "process%s of the run\n",
                       found, found == 1 ? "" : "es");
    if (len > 0 && write(2, msg, (size_t)len) < 0)
      _exit(1);
  }
  _exit(0);
}
