/*
 * daemonapp: a TEST DOUBLE for a program that starts a daemon and then ends (hprun's tests only).
 *
 * It double-forks a daemon the classic way (fork, setsid, fork, the middle process exits), so the
 * daemon leaves the run's process group and session and is orphaned; waits until the daemon has
 * written its pid to --pidfile; prints a result line hprun can measure; and then exits, crashes
 * with SIGSEGV or hangs. The daemon sleeps (300 s by default) holding the app's stdout and
 * stderr, or with them closed; with --clean-env it execs /bin/sleep with an empty environment,
 * so only its parentage can tell whose it is.
 *
 *   daemonapp [--pidfile FILE] [--close-stdout] [--clean-env] [--ignore-term] [--sleep S]
 *             [--then exit|segv|hang]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct options {
  const char *pidfile;
  int close_stdout;
  int clean_env;
  int ignore_term;
  long sleep_s;
  const char *then;
} options;

static void usage(void)
{
  fputs("usage: daemonapp [--pidfile FILE] [--close-stdout] [--clean-env] [--ignore-term]\n"
        "                 [--sleep S] [--then exit|segv|hang]\n",
        stderr);
  exit(2);
}

static void parse_args(int argc, char **argv, options *o)
{
  int i;

  memset(o, 0, sizeof(*o));
  o->sleep_s = 300;
  o->then = "exit";
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--close-stdout") == 0)
      o->close_stdout = 1;
    else if (strcmp(a, "--clean-env") == 0)
      o->clean_env = 1;
    else if (strcmp(a, "--ignore-term") == 0)
      o->ignore_term = 1;
    else if (strcmp(a, "--pidfile") == 0 && v)
      o->pidfile = argv[++i];
    else if (strcmp(a, "--sleep") == 0 && v)
      o->sleep_s = strtol(argv[++i], NULL, 10);
    else if (strcmp(a, "--then") == 0 && v &&
             (strcmp(v, "exit") == 0 || strcmp(v, "segv") == 0 || strcmp(v, "hang") == 0))
      o->then = argv[++i];
    else
      usage();
  }
  if (o->sleep_s <= 0 || o->sleep_s > 3600)
    usage();
}

/* Appends "<pid>\n" to the pid file with one write, so concurrent writers do not mix. */
static void append_pid(const char *path, long pid)
{
  char line[32];
  int fd, n;

  if (path == NULL)
    return;
  n = snprintf(line, sizeof(line), "%ld\n", pid);
  fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, line, (size_t)n) != n)
    _exit(2);
  close(fd);
}

/* The daemon: detached, it records its pid, tells the app it is ready (closing `ready`) and
 * sleeps. A sleep that ends by itself keeps a broken test from leaving it forever. */
static void daemon_body(const options *o, int ready)
{
  char secs[16];
  char *const empty[] = {NULL};
  int null;

  if (o->close_stdout && (null = open("/dev/null", O_RDWR)) >= 0) {
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
  }
  if (o->ignore_term)
    signal(SIGTERM, SIG_IGN); /* stays ignored across exec */
  append_pid(o->pidfile, (long)getpid());
  close(ready);
  snprintf(secs, sizeof(secs), "%ld", o->sleep_s);
  if (o->clean_env)
    execle("/bin/sleep", "sleep", secs, (char *)NULL, empty);
  {
    struct timespec ts = {o->sleep_s, 0};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
      ;
  }
  _exit(0);
}

/* fork, setsid, fork: the daemon is in a new session and its parent is gone. Returns once the
 * daemon is ready. */
static void start_daemon(const options *o)
{
  int fds[2];
  char c;
  pid_t mid;

  fflush(NULL);
  if (pipe(fds) != 0 || (mid = fork()) < 0) {
    perror("daemonapp");
    exit(2);
  }
  if (mid == 0) {
    close(fds[0]);
    if (setsid() < 0)
      _exit(2);
    if (fork() == 0)
      daemon_body(o, fds[1]);
    _exit(0);
  }
  close(fds[1]);
  waitpid(mid, NULL, 0);
  /* EOF when the daemon closed its end (it is ready), or died. */
  while (read(fds[0], &c, 1) < 0 && errno == EINTR)
    ;
  close(fds[0]);
}

int main(int argc, char **argv)
{
  options o;

  parse_args(argc, argv, &o);
  start_daemon(&o);
  printf("daemonapp: daemon started\nmean_kernel_ms=1.5\n");
  fflush(stdout);
  if (strcmp(o.then, "segv") == 0) {
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  } else if (strcmp(o.then, "hang") == 0) {
    /* Until killed, or 600 s as a safety net. */
    for (int i = 0; i < 600; i++)
      sleep(1);
    return 3;
  }
  return 0;
}
