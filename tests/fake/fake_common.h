/*
 * fake_common.h: the code that the profiler test doubles (hipprof.c, ncu.c, rocprofv3.c) share, for
 * hprun's tests only: fatal errors, a growable string, whole writes, and the app runner that runs
 * the app as a child with its stdout through a pipe, scales the times it prints and passes on its
 * exit status.
 *
 * Header-only, every function static: each double includes it once and is still built as a single
 * translation unit that links with nothing but libc and libm (see the Makefile's build/fake rule).
 * Before the #include, a double defines
 *
 *   PROG             the prefix of its messages ("hipprof", "==ERROR== ncu", ...);
 *   MAX_LAUNCHES     the most launches its files list: a larger `launches=` that the app prints
 *                    is noted as MAX_LAUNCHES + 1, which app_launches() cuts with a message;
 *
 * and may define FAKE_DIE_STATUS, the exit status of die() (1 when not defined).
 *
 * The behaviour the tests rely on is in tests/README.md.
 */
#ifndef FAKE_COMMON_H
#define FAKE_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PROG
#error "define PROG (the prefix of the double's messages) before including fake_common.h"
#endif
#ifndef MAX_LAUNCHES
#error "define MAX_LAUNCHES (the most launches the double lists) before including fake_common.h"
#endif
#ifndef FAKE_DIE_STATUS
#define FAKE_DIE_STATUS 1
#endif

/* Not every double uses every helper (ncu makes no folders), and an unused one must not warn. */
#define FAKE_UNUSED __attribute__((unused))

/* ---------------------------------------------------------------------------------------------- */
/* Small helpers: fatal errors, a growable string, whole writes.                                  */

static FAKE_UNUSED void die(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, PROG ": ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(FAKE_DIE_STATUS);
}

typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static FAKE_UNUSED void sb_add(sbuf *b, const char *p, size_t n)
{
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *s;

    while (cap < b->len + n + 1)
      cap *= 2;
    s = realloc(b->s, cap);
    if (s == NULL)
      die("out of memory");
    b->s = s;
    b->cap = cap;
  }
  memcpy(b->s + b->len, p, n);
  b->len += n;
  b->s[b->len] = '\0';
}

static FAKE_UNUSED void sb_printf(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static FAKE_UNUSED void sb_printf(sbuf *b, const char *fmt, ...)
{
  char tmp[512];
  va_list ap;
  int n;

  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
  va_end(ap);
  if (n < 0)
    die("vsnprintf failed");
  if ((size_t)n < sizeof(tmp)) {
    sb_add(b, tmp, (size_t)n);
    return;
  }
  {
    char *big = malloc((size_t)n + 1);

    if (big == NULL)
      die("out of memory");
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_add(b, big, (size_t)n);
    free(big);
  }
}

static FAKE_UNUSED char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static FAKE_UNUSED char *xstrdup_printf(const char *fmt, ...)
{
  va_list ap;
  char *s = NULL;
  int n;

  va_start(ap, fmt);
  n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0)
    die("out of memory");
  return s;
}

/* Writes all of `n` bytes, resuming after signals and short writes. Returns 0 or -1 (errno). */
static FAKE_UNUSED int write_all(int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t w = write(fd, p, n);

    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Writes `text` to stdout; losing our own stdout is not worth dying for, so errors only warn. */
static FAKE_UNUSED void out_text(const char *p, size_t n)
{
  if (write_all(STDOUT_FILENO, p, n) != 0 && errno != EPIPE)
    fprintf(stderr, PROG ": writing stdout: %s\n", strerror(errno));
}

/* Creates (or replaces) `path` with the buffer's bytes. A file that cannot be written is reported
 * and skipped: the other files are still written, as the real tool would do. */
static FAKE_UNUSED void write_file(const char *path, const sbuf *b)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0) {
    fprintf(stderr, PROG ": cannot create %s: %s\n", path, strerror(errno));
    return;
  }
  if (write_all(fd, b->s ? b->s : "", b->len) != 0)
    fprintf(stderr, PROG ": cannot write %s: %s\n", path, strerror(errno));
  if (close(fd) != 0)
    fprintf(stderr, PROG ": cannot close %s: %s\n", path, strerror(errno));
}

/* mkdir -p. Exits with a message when a folder cannot be made. */
static FAKE_UNUSED void mkdirs(const char *path)
{
  char *p = xstrdup_printf("%s", path), *s;

  for (s = p + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
      die("cannot create folder %s: %s", p, strerror(errno));
    *s = '/';
  }
  if (*p && mkdir(p, 0755) != 0 && errno != EEXIST)
    die("cannot create folder %s: %s", p, strerror(errno));
  free(p);
}

/* `dir`/`name`, or `name` alone when it is absolute. The caller frees the result. */
static FAKE_UNUSED char *join(const char *dir, const char *name)
{
  if (name[0] == '/' || dir == NULL || *dir == '\0')
    return xstrdup_printf("%s", name);
  return xstrdup_printf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

static FAKE_UNUSED double mono_ns(void)
{
  struct timespec ts;

  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
    die("clock_gettime: %s", strerror(errno));
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------------- */
/* Finding and running the app, and scaling its self-reported times.                              */

/* What the app printed that the files are derived from. The last value printed counts. */
typedef struct app_info {
  int have_launches;
  long launches;
  int have_mean;
  double mean_raw;    /* mean_kernel_ms as the app printed it */
  double mean_scaled; /* the same after the mode's factor */
} app_info;

/* Looks `name` up like execvp: as given when it has a '/', else along PATH. Returns a malloc'd
 * path, or NULL with errno ENOENT (not found) or EACCES (found, not executable). */
static FAKE_UNUSED char *find_exec(const char *name)
{
  const char *path = getenv("PATH"), *p, *colon;
  int saw_noexec = 0;
  struct stat st;

  if (*name == '\0') {
    errno = ENOENT;
    return NULL;
  }
  if (strchr(name, '/')) {
    if (stat(name, &st) != 0)
      return NULL;
    if (!S_ISREG(st.st_mode) || access(name, X_OK) != 0) {
      errno = EACCES;
      return NULL;
    }
    return xstrdup_printf("%s", name);
  }
  if (path == NULL)
    path = "/usr/local/bin:/usr/bin:/bin";
  for (p = path;; p = colon + 1) {
    char *cand;
    int len;

    colon = strchr(p, ':');
    len = colon ? (int)(colon - p) : (int)strlen(p);
    cand = len ? xstrdup_printf("%.*s/%s", len, p, name) : xstrdup_printf("./%s", name);
    if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
      if (access(cand, X_OK) == 0)
        return cand;
      saw_noexec = 1;
    }
    free(cand);
    if (colon == NULL)
      break;
  }
  errno = saw_noexec ? EACCES : ENOENT;
  return NULL;
}

/* Does `key` end in _ms, _us, _ns or _s (a time the mode's factor applies to)? */
static FAKE_UNUSED int is_time_key(const char *key, size_t n)
{
  static const char *const suffixes[] = {"_ms", "_us", "_ns", "_s"};
  size_t i, k;

  for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
    k = strlen(suffixes[i]);
    if (n > k && memcmp(key + n - k, suffixes[i], k) == 0)
      return 1;
  }
  return 0;
}

/* Parses exactly `n` bytes as a finite number. Returns 0 or -1. */
static FAKE_UNUSED int parse_num(const char *p, size_t n, double *out)
{
  char tmp[64], *end;
  double v;

  /* Hexadecimal (which strtod accepts) is not how anyone prints a time. */
  if (n == 0 || n >= sizeof(tmp) || memchr(p, 'x', n) || memchr(p, 'X', n))
    return -1;
  memcpy(tmp, p, n);
  tmp[n] = '\0';
  errno = 0;
  v = strtod(tmp, &end);
  if (*end != '\0' || errno == ERANGE || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

/* Copies one line of app output to `out`, multiplying every `key=number` whose key is a time by
 * `factor`, and notes `launches=` and `mean_kernel_ms=` in `info`. Everything else, whitespace
 * included, is copied byte for byte. */
static FAKE_UNUSED void scale_line(const char *line, size_t len, double factor, app_info *info,
                                   sbuf *out)
{
  size_t i = 0;

  while (i < len) {
    size_t start = i, eq, end;
    double v;
    int scaled;

    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n'))
      i++;
    sb_add(out, line + start, i - start);
    start = i;
    while (i < len && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n'))
      i++;
    end = i;
    if (start == end)
      continue;
    for (eq = start; eq < end && line[eq] != '='; eq++)
      ;
    if (eq == start || eq == end || parse_num(line + eq + 1, end - eq - 1, &v) != 0) {
      sb_add(out, line + start, end - start);
      continue;
    }
    scaled = is_time_key(line + start, eq - start) && factor != 1.0 && isfinite(v * factor);
    if (eq - start == 8 && memcmp(line + start, "launches", 8) == 0 && v >= 0 && v == floor(v)) {
      info->have_launches = 1;
      info->launches = v > MAX_LAUNCHES ? MAX_LAUNCHES + 1 : (long)v;
    }
    if (eq - start == 14 && memcmp(line + start, "mean_kernel_ms", 14) == 0) {
      info->have_mean = 1;
      info->mean_raw = v;
      info->mean_scaled = scaled ? v * factor : v;
    }
    if (!scaled) {
      sb_add(out, line + start, end - start);
      continue;
    }
    sb_add(out, line + start, eq + 1 - start);
    sb_printf(out, "%.9g", v * factor);
  }
}

/* Scales and prints every complete line in `pending`, keeping a trailing partial line there.
 * With `final`, the partial line is printed as well (the app's last line had no newline). */
static FAKE_UNUSED void flush_lines(sbuf *pending, double factor, app_info *info, int final)
{
  sbuf out = {0};
  size_t from = 0, i;

  for (i = 0; i < pending->len; i++) {
    if (pending->s[i] != '\n')
      continue;
    scale_line(pending->s + from, i + 1 - from, factor, info, &out);
    from = i + 1;
  }
  if (final && from < pending->len) {
    scale_line(pending->s + from, pending->len - from, factor, info, &out);
    from = pending->len;
  }
  if (out.len)
    out_text(out.s, out.len);
  if (from > 0) {
    memmove(pending->s, pending->s + from, pending->len - from);
    pending->len -= from;
  }
  free(out.s);
}

/* Runs argv as a child in our process group with its stdout through a pipe, copies that output to
 * ours with the times scaled, and waits for it. Returns the exit code to pass on: the app's own,
 * or 128+signal. `*app_pid` is the child's pid. `started(pid, arg)`, when not NULL, runs once the
 * child exists and before any of its output is copied, so what it prints comes first.
 *
 * We stop reading as soon as the app has exited and the pipe is drained, even if a process the app
 * left behind still holds the pipe open: the real tool watches its child, not the pipe. */
static FAKE_UNUSED int run_app(char **argv, double factor, app_info *info, pid_t *app_pid,
                               void (*started)(pid_t pid, void *arg), void *arg)
{
  sbuf pending = {0};
  int p[2], status = 0, exited = 0, eof = 0;
  pid_t pid;

  if (pipe2(p, O_CLOEXEC) != 0)
    die("pipe: %s", strerror(errno));
  fflush(NULL);
  pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    if (dup2(p[1], STDOUT_FILENO) < 0) {
      fprintf(stderr, PROG ": dup2: %s\n", strerror(errno));
      _exit(127);
    }
    execvp(argv[0], argv);
    fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  *app_pid = pid;
  close(p[1]);
  if (started != NULL)
    started(pid, arg);
  if (fcntl(p[0], F_SETFL, O_NONBLOCK) != 0)
    die("fcntl: %s", strerror(errno));

  while (!(eof && exited)) {
    struct pollfd pfd;
    int n, got = 0;

    pfd.fd = p[0];
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (!eof) {
      n = poll(&pfd, 1, exited ? 0 : 100);
      if (n < 0 && errno != EINTR)
        die("poll: %s", strerror(errno));
      if (n > 0) {
        char chunk[4096];
        ssize_t r = read(p[0], chunk, sizeof(chunk));

        if (r > 0) {
          sb_add(&pending, chunk, (size_t)r);
          flush_lines(&pending, factor, info, 0);
          got = 1;
        } else if (r == 0) {
          eof = 1;
        } else if (errno != EAGAIN && errno != EINTR) {
          die("reading the app's output: %s", strerror(errno));
        }
      }
    }
    if (!exited) {
      pid_t w = waitpid(pid, &status, eof ? 0 : WNOHANG);

      if (w == pid)
        exited = 1;
      else if (w < 0 && errno != EINTR)
        die("waitpid: %s", strerror(errno));
    } else if (!got) {
      break; /* exited and drained; someone else may still hold the pipe */
    }
  }
  flush_lines(&pending, factor, info, 1);
  free(pending.s);
  close(p[0]);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

/* The number of launches to list: the last `launches=` the app printed, else `dflt`, at most
 * MAX_LAUNCHES. A cut is said on stderr, with `lists` naming what is cut ("the files list"). */
static FAKE_UNUSED long app_launches(const app_info *info, long dflt, const char *lists)
{
  long launches = info->have_launches ? info->launches : dflt;

  if (launches > MAX_LAUNCHES) {
    fprintf(stderr, PROG ": the app reports more than %d launches; %s %d\n", MAX_LAUNCHES, lists,
            MAX_LAUNCHES);
    launches = MAX_LAUNCHES;
  }
  return launches;
}

/* Reads "key=value,key=value" factor overrides from environment variable `var` into `vals`, one
 * per name in `keys`. An entry that cannot be understood is fatal: a test that sets this
 * variable wrongly must fail, not run with the default. */
static FAKE_UNUSED void read_factors(const char *var, const char *const *keys, double *vals,
                                     size_t nkeys)
{
  const char *s = getenv(var);
  char *copy, *save = NULL, *item;

  if (s == NULL || *s == '\0')
    return;
  copy = xstrdup_printf("%s", s);
  for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '='), *end;
    double v;
    size_t i;

    while (*item == ' ')
      item++;
    if (eq == NULL)
      die("%s: entry '%s' is not name=factor", var, item);
    *eq = '\0';
    errno = 0;
    v = strtod(eq + 1, &end);
    while (*end == ' ')
      end++;
    if (end == eq + 1 || *end != '\0' || errno == ERANGE || !isfinite(v) || v <= 0)
      die("%s: factor for '%s' is not a positive number: '%s'", var, item, eq + 1);
    for (i = 0; i < nkeys; i++)
      if (strcmp(item, keys[i]) == 0)
        break;
    if (i == nkeys)
      die("%s: unknown mode '%s'", var, item);
    vals[i] = v;
  }
  free(copy);
}

#endif /* FAKE_COMMON_H */
