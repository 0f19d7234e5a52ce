/*
 * A run's leader started as glibc's posix_spawn starts it, without two of its costs
 * (docs/internals/runner.md, "Why the spawn is built this way").
 *
 * The child is cloned with CLONE_VM | CLONE_VFORK, so it runs on hprun's memory and hprun waits
 * until it has exec'd (or failed, which it says in `err` before it exits). Running on hprun's
 * memory, it must not run one of hprun's signal handlers: every signal is blocked around the
 * clone, and the child resets the caught signals to their default before it unblocks them for the
 * program. It resets the ignored ones too, since SIG_IGN survives exec and the program must start
 * with every signal at its default, as libuv's child does. glibc's child cannot know which signals
 * those are, so it asks about all 64, one rt_sigaction each (and sets each one with
 * POSIX_SPAWN_SETSIGDEF): 122 system calls per spawn, while hprun waits. Here hprun reads
 * SigIgn and SigCgt from /proc/self/status (one pread of a descriptor kept open) and the child
 * resets those alone, usually two to four. And glibc maps a fresh stack for the child and unmaps
 * it afterwards; the unmap flushes the TLB of the CPU the child ran on (an IPI) on every spawn.
 * The stack here is static, used by one spawn at a time.
 *
 * The child uses only system calls (through their libc wrappers or syscall(2)); the errno they
 * set is hprun's thread's, which is waiting.
 */
#include "exec/vspawn.h"
#include "exec/guard.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000 /* Linux 5.2 */
#endif

/* The kernel's own struct sigaction (x86_64 and the other 64-bit ports: one word of mask), for the
 * raw rt_sigaction that also reaches the two signals glibc keeps for itself, which its wrapper
 * refuses. */
struct ksigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)(void);
  uint64_t mask;
};

typedef struct kid {
  const hp__vspawn_req *q;
  uint64_t reset; /* bit sig - 1: reset signal sig to SIG_DFL */
  volatile int err;
} kid;

/* The signals with a handler or ignored in this process, as bits (sig - 1), or every signal when
 * they cannot be read. */
static uint64_t signals_to_reset(void)
{
  static int fd = -1, owner;
  char b[2048], *p;
  uint64_t set = 0;
  ssize_t n;
  int i;

  if (fd >= 0 && owner != hp__guard_self()) { /* a fork()ed copy: that file is our parent's */
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    owner = hp__guard_self();
  }
  if (fd < 0 || (n = pread(fd, b, sizeof(b) - 1, 0)) <= 0)
    return ~(uint64_t)0;
  b[n] = '\0';
  for (i = 0; i < 2; i++) {
    if ((p = strstr(b, i == 0 ? "\nSigIgn:" : "\nSigCgt:")) == NULL)
      return ~(uint64_t)0;
    set |= (uint64_t)strtoull(p + 8, NULL, 16);
  }
  return set;
}

/* In the child: stdio, session, folder, signals, exec. Returns only when a step failed: clone's
 * wrapper then ends the child with the value as its status (no _exit: a noreturn call on this
 * stack makes ASan warn in the run's stderr). */
static int child_main(void *arg)
{
  kid *k = arg;
  const hp__vspawn_req *q = k->q;
  struct ksigaction dfl;
  uint64_t none = 0;
  int i, j, fd, src[HP__VSPAWN_FDS];

  /* A source below nfd that an earlier dup2 would overwrite moves out of the way first. */
  for (i = 0; i < q->nfd; i++) {
    src[i] = q->src[i];
    for (j = 0; j < i && src[i] >= 0 && src[i] != i; j++)
      if (src[i] == j && (src[i] = fcntl(src[i], F_DUPFD_CLOEXEC, q->nfd)) < 0)
        goto fail;
  }
  if (q->setsid && setsid() < 0)
    goto fail;
  for (i = 0; i < q->nfd; i++) {
    fd = src[i];
    if (fd < 0 && (fd = open("/dev/null", i == 0 ? O_RDONLY : O_RDWR)) < 0)
      goto fail;
    if (fd == i ? fcntl(fd, F_SETFD, 0) < 0 : dup2(fd, i) < 0) /* dup2 clears FD_CLOEXEC */
      goto fail;
    if (src[i] < 0 && fd != i)
      close(fd);
  }
  if (q->cwd && chdir(q->cwd) != 0)
    goto fail;
  memset(&dfl, 0, sizeof(dfl)); /* SIG_DFL, no flags, empty mask */
  for (i = 1; i <= 64; i++)
    if (((k->reset >> (i - 1)) & 1) && i != SIGKILL && i != SIGSTOP)
      syscall(SYS_rt_sigaction, i, &dfl, NULL, sizeof(uint64_t));
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, sizeof(none));
  execve(q->file, q->argv, q->envp);
fail:
  k->err = errno ? errno : EINVAL;
  return 127;
}

int hp__vspawn(const hp__vspawn_req *q, int *pid, int *pidfd, int *cloned)
{
  /* The child's stack, used while the calling thread waits (CLONE_VFORK); 16-byte aligned as the
   * ABI asks. CLONE_VFORK stops only the calling thread, so the lock keeps a second thread of a
   * program that runs two sessions at once off the same stack. */
  static _Alignas(16) char stack[64 * 1024];
  static pthread_mutex_t stack_lock = PTHREAD_MUTEX_INITIALIZER;
  uint64_t all = ~(uint64_t)0, old;
  kid k;
  int p, e, fd = -1;

  *pid = 0;
  *pidfd = -1;
  *cloned = 0;
  if (q->nfd > HP__VSPAWN_FDS)
    return -EINVAL;
  k.q = q;
  k.err = 0;
  /* Every signal, glibc's own two included (its sigprocmask leaves them out), until the child
   * has exec'd: no handler of ours may run on its side. The lock also covers signals_to_reset's
   * one kept descriptor. */
  pthread_mutex_lock(&stack_lock);
  k.reset = signals_to_reset();
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, sizeof(all));
  p = clone(child_main, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &k,
            &fd);
  e = errno;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof(old));
  pthread_mutex_unlock(&stack_lock);
  if (p < 0)
    return -e;
  *cloned = 1;
  if (k.err) {
    /* The child has exited (CLONE_VFORK resumes us only then): reap it, its status is known. */
    while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
      ;
    if (fd >= 0)
      close(fd);
    return -k.err;
  }
  *pid = p;
  *pidfd = fd;
  return 0;
}
