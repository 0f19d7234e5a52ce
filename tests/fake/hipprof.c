/*
 * hipprof: a TEST DOUBLE for Hygon DTK's hipprof, for hprun's tests only. Never used by default.
 *
 * It runs the app the way hipprof does (options, then the app and its arguments, no `--`), slows
 * the app's self-reported times down by a fixed factor per mode (the factors the seed article
 * measured), and writes the files that hipprof writes, with the names and columns of
 * ../shared/docs/profiler-formats.md §1. It profiles nothing: every number in its files is derived
 * from what the app printed (`launches=`, `mean_kernel_ms=`) or is a constant modelled on the
 * article. It also imitates two pitfalls: killing hipprof loses its files (a `.db-journal` is left),
 * and with HIPPROF_FAKE_LATE_MS the PMC CSV appears after hipprof has exited.
 *
 * The exact contract is in tests/README.md; hprun's end-to-end tests assert it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "hipprof"
#define KERNEL_NAME "vector_add(float const*, float const*, float*, int)"
#define DEFAULT_LAUNCHES 120
#define DEFAULT_KERNEL_NS 18799
/* An app that claims a billion launches would make gigabyte files; the files stop here. */
#define MAX_LAUNCHES 100000

/* ---------------------------------------------------------------------------------------------- */
/* Small helpers: fatal errors, a growable string, whole writes.                                  */
/* The helpers and the app runner below are the same in hipprof.c, ncu.c and rocprofv3.c on     */
/* purpose: each test double is one standalone file that links with nothing but libc.            */

static void die(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, PROG ": ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(1);
}

typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *p, size_t n)
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

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
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

static char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xstrdup_printf(const char *fmt, ...)
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
static int write_all(int fd, const char *p, size_t n)
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
static void out_text(const char *p, size_t n)
{
  if (write_all(STDOUT_FILENO, p, n) != 0 && errno != EPIPE)
    fprintf(stderr, PROG ": writing stdout: %s\n", strerror(errno));
}

/* Creates (or replaces) `path` with the buffer's bytes. A file that cannot be written is reported
 * and skipped: the other files are still written, as the real tool would do. */
static void write_file(const char *path, const sbuf *b)
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
static void mkdirs(const char *path)
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
static char *join(const char *dir, const char *name)
{
  if (name[0] == '/' || dir == NULL || *dir == '\0')
    return xstrdup_printf("%s", name);
  return xstrdup_printf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

static double mono_ns(void)
{
  struct timespec ts;

  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
    die("clock_gettime: %s", strerror(errno));
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
  struct timespec ts;

  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
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
static char *find_exec(const char *name)
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
static int is_time_key(const char *key, size_t n)
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
static int parse_num(const char *p, size_t n, double *out)
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
static void scale_line(const char *line, size_t len, double factor, app_info *info, sbuf *out)
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
static void flush_lines(sbuf *pending, double factor, app_info *info, int final)
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
 * or 128+signal. `*app_pid` is the child's pid.
 *
 * We stop reading as soon as the app has exited and the pipe is drained, even if a process the app
 * left behind still holds the pipe open: the real tool watches its child, not the pipe. */
static int run_app(char **argv, double factor, app_info *info, pid_t *app_pid)
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

/* Reads "key=value,key=value" factor overrides from environment variable `var` into `vals`, one
 * per name in `keys`. An entry that cannot be understood is fatal: a test that sets this
 * variable wrongly must fail, not run with the default. */
static void read_factors(const char *var, const char *const *keys, double *vals, size_t nkeys)
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

/* ---------------------------------------------------------------------------------------------- */
/* hipprof itself.                                                                                */

enum mode { M_TRACE, M_STATS, M_STACK, M_PMC, M_MEM, M_COUNT };

/* The article's measurements: mean kernel time under each mode / uninstrumented (§八, §九). */
static const double default_factors[M_COUNT] = {1.0127, 1.0127, 1.0207, 79.83, 1.004};

typedef struct options {
  int hip_trace, stats, kernel_stack, pmc, memory;
  int pmc_type;          /* -1 when not given */
  const char *kernel;    /* --kernel-name */
  const char *out;       /* -o */
  const char *dir;       /* -d */
  const char *db;        /* --db */
  int app;               /* index in argv of the app */
} options;

typedef struct names {
  char *hiptrace, *kernel, *db, *journal, *stack, *pmc_csv, *pmc_txt;
} names;

static void usage(FILE *fp)
{
  fputs("usage: hipprof [options] <app> [app args]\n"
        "hprun TEST DOUBLE of DTK hipprof: runs the app, scales its *_ms/_us/_ns/_s outputs by a\n"
        "per-mode factor and writes hipprof-like CSV files. It profiles nothing.\n"
        "modes: --hip-trace (default), --stats, --kernel-stack, --pmc/--pmc-read/--pmc-write,\n"
        "       --memory-usage, --leak-check\n"
        "value options: --pmc-type N, --kernel-name K, -o OUT, -d DIR, --output-type N,\n"
        "       --devices N, --buffer-size N, --flush-interval MS, --index-range A:B, --db FILE\n"
        "flags: --hsa-trace --hiptx-trace --show-pid --group-stream --trace-args\n"
        "env: HIPPROF_FAKE_FACTORS=\"stats=1.05,pmc=10\", HIPPROF_FAKE_LATE_MS=N\n",
        fp);
}

/* Parses an integer option value in [lo, hi]; fatal otherwise. */
static int int_value(const char *opt, const char *v, long lo, long hi)
{
  char *end;
  long n;

  errno = 0;
  n = strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno == ERANGE || n < lo || n > hi)
    die("bad value for %s: '%s' (expected %ld..%ld)", opt, v, lo, hi);
  return (int)n;
}

static void parse_args(int argc, char **argv, options *o)
{
  static const char *const flags[] = {"--hip-trace", "--hsa-trace", "--hiptx-trace", "--stats",
                                      "--kernel-stack", "--pmc", "--pmc-read", "--pmc-write",
                                      "--memory-usage", "--leak-check", "--show-pid",
                                      "--group-stream", "--trace-args"};
  static const char *const valued[] = {"--pmc-type", "--kernel-name", "-o", "-d",
                                       "--output-type", "--devices", "--buffer-size",
                                       "--flush-interval", "--index-range", "--db"};
  int i;
  size_t k;

  o->pmc_type = -1;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL, *eq;
    size_t alen;

    if (a[0] != '-') {
      o->app = i;
      return;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strcmp(a, "--version") == 0) {
      printf("hipprof (hprun test double) 0.0.0\n");
      exit(0);
    }
    if (strcmp(a, "--") == 0)
      die("unknown option '--': hipprof takes the app right after its options, with no '--'");
    eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
    alen = eq ? (size_t)(eq - a) : strlen(a);
    for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
      if (!eq && strcmp(a, flags[k]) == 0)
        break;
    if (k < sizeof(flags) / sizeof(flags[0])) {
      if (strcmp(a, "--hip-trace") == 0)
        o->hip_trace = 1;
      else if (strcmp(a, "--stats") == 0)
        o->stats = 1;
      else if (strcmp(a, "--kernel-stack") == 0)
        o->kernel_stack = 1;
      else if (strncmp(a, "--pmc", 5) == 0)
        o->pmc = 1;
      else if (strcmp(a, "--memory-usage") == 0 || strcmp(a, "--leak-check") == 0)
        o->memory = 1;
      continue;
    }
    for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
      if (strlen(valued[k]) == alen && strncmp(a, valued[k], alen) == 0)
        break;
    if (k == sizeof(valued) / sizeof(valued[0]))
      die("unknown option '%s' (try --help)", a);
    if (eq) {
      v = eq + 1;
    } else {
      if (i + 1 >= argc)
        die("option %s needs a value", a);
      v = argv[++i];
    }
    if (strcmp(valued[k], "--pmc-type") == 0)
      o->pmc_type = int_value(valued[k], v, 0, 3);
    else if (strcmp(valued[k], "--output-type") == 0)
      (void)int_value(valued[k], v, 0, 2);
    else if (strcmp(valued[k], "--kernel-name") == 0)
      o->kernel = v;
    else if (strcmp(valued[k], "-o") == 0) {
      if (*v == '\0')
        die("option -o needs a non-empty value");
      o->out = v;
    } else if (strcmp(valued[k], "-d") == 0) {
      if (*v == '\0')
        die("option -d needs a non-empty value");
      o->dir = v;
    } else if (strcmp(valued[k], "--db") == 0)
      o->db = v;
  }
  if (o->db)
    die("--db regeneration without an app is not imitated by this test double");
  fprintf(stderr, PROG ": no application given\n");
  usage(stderr);
  exit(1);
}

/* File names, following profiler-formats.md §1.2: without -o the old `result_<pid>.*` scheme in
 * the -d folder (else the cwd); with -o X the DTK 26 scheme `X.<suffix>`, suffix appended, never
 * replaced. A relative X is taken inside the -d folder; an X ending in '/' is a folder that gets
 * the old names. */
static void make_names(const options *o, names *n)
{
  const char *dir = o->dir ? o->dir : ".";
  long pid = (long)getpid();

  mkdirs(dir);
  if (o->out && o->out[strlen(o->out) - 1] != '/') {
    char *base = join(dir, o->out), *slash = strrchr(base, '/');

    if (slash && slash != base) {
      *slash = '\0';
      mkdirs(base);
      *slash = '/';
    }
    n->hiptrace = xstrdup_printf("%s.hiptrace.csv", base);
    n->kernel = xstrdup_printf("%s.hipkernel.csv", base);
    n->db = xstrdup_printf("%s.db", base);
    n->stack = xstrdup_printf("%s.stack.csv", base);
    n->pmc_csv = xstrdup_printf("%s.csv", base);
    n->pmc_txt = xstrdup_printf("%s.txt", base);
    free(base);
  } else {
    char *d = o->out ? join(dir, o->out) : xstrdup_printf("%s", dir), *f;

    mkdirs(d);
    f = xstrdup_printf("result_%ld.hiptrace.csv", pid);
    n->hiptrace = join(d, f);
    free(f);
    f = xstrdup_printf("result_%ld.kernel.csv", pid);
    n->kernel = join(d, f);
    free(f);
    f = xstrdup_printf("hip-prof-%ld.db", pid);
    n->db = join(d, f);
    free(f);
    f = xstrdup_printf("result_%ld.stack.csv", pid);
    n->stack = join(d, f);
    free(f);
    f = xstrdup_printf("pmc_results_%ld.csv", pid);
    n->pmc_csv = join(d, f);
    free(f);
    f = xstrdup_printf("pmc_results_%ld.txt", pid);
    n->pmc_txt = join(d, f);
    free(f);
    free(d);
  }
  n->journal = xstrdup_printf("%s-journal", n->db);
}

static void free_names(names *n)
{
  free(n->hiptrace);
  free(n->kernel);
  free(n->db);
  free(n->journal);
  free(n->stack);
  free(n->pmc_csv);
  free(n->pmc_txt);
}

typedef struct api_row {
  const char *name;
  long long calls, total;
} api_row;

static int cmp_api(const void *a, const void *b)
{
  const api_row *x = a, *y = b;

  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* The HIP API table, modelled on the article's cold vector_add run (§五); only hipLaunchKernel
 * follows the app's launch count. The small rows make the percentages come out as the article's
 * (hipMalloc 97.846%). Sorted by total, descending, with hipprof's closing Total row. */
static void make_hiptrace(long launches, sbuf *b)
{
  api_row rows[] = {{"hipMalloc", 3, 240481148LL},
                    {"hipMemcpy", 3, 2432756LL},
                    {"hipEventSynchronize", 1, 1496596LL},
                    {"hipLaunchKernel", launches, llround(830707.0 * (double)launches / 120.0)},
                    {"hipDeviceSynchronize", 1, 377584LL},
                    {"hipFree", 3, 142611LL},
                    {"hipEventRecord", 2, 8214LL},
                    {"hipEventCreate", 2, 5324LL}};
  size_t n = sizeof(rows) / sizeof(rows[0]), i;
  long long calls = 0, total = 0;

  qsort(rows, n, sizeof(rows[0]), cmp_api);
  for (i = 0; i < n; i++) {
    calls += rows[i].calls;
    total += rows[i].total;
  }
  sb_printf(b, "Name,Calls,TotalDurationNs,AverageNs,Percentage\n");
  for (i = 0; i < n; i++) {
    if (rows[i].calls == 0)
      continue; /* no launches: hipprof records no call */
    sb_printf(b, "%s,%lld,%lld,%lld,%.6f\n", rows[i].name, rows[i].calls, rows[i].total,
              rows[i].total / rows[i].calls, 100.0 * (double)rows[i].total / (double)total);
  }
  sb_printf(b, "Total,%lld,%lld,%lld,100.000000\n", calls, total, calls ? total / calls : 0);
}

/* The kernel table: one kernel, AverageNs from the app's (scaled) mean_kernel_ms. */
static void make_kernel(long launches, long long avg_ns, sbuf *b)
{
  long long total = avg_ns * launches;

  sb_printf(b, "Name,Calls,TotalDurationNs,AverageNs,Percentage\n");
  if (launches > 0)
    sb_printf(b, "\"%s\",%ld,%lld,%lld,100.000000\n", KERNEL_NAME, launches, total, avg_ns);
  sb_printf(b, "Total,%ld,%lld,%lld,%s\n", launches, total, launches ? avg_ns : 0,
            launches ? "100.000000" : "0.000000");
}

/* The host stack of every launch, innermost frame first. The frames are chosen so that the
 * article's summarizer (skip libgalaxy/libamdhip/libc.so/libtorch/libpython/python3/python(
 * frames after cutting " [addr]" and the path) finds the user frame `vector_add()` every time. */
static void make_stack(long launches, sbuf *b)
{
  static const char *const frames[] = {
    "/opt/dtk/hip/lib/libgalaxyhip.so.5 [0x7f3a1c2b4e10]",
    "/opt/dtk/hip/lib/libgalaxyhip.so.5 [0x7f3a1c2a9f42]",
    "vector_add() [0x55d0c0a01a2c]",
    "main [0x55d0c0a01f10]",
    "/lib/x86_64-linux-gnu/libc.so.6 [0x7f3a1b829d90]"};
  long i;
  size_t k;

  sb_printf(b, "str_name,index,stack_sq,addrname\n");
  for (i = 0; i < launches; i++)
    for (k = 0; k < sizeof(frames) / sizeof(frames[0]); k++)
      sb_printf(b, "\"%s\",%ld,%zu,%s\n", KERNEL_NAME, i, k, frames[k]);
}

/* PMC counters: one dispatch of vector_add over 1048576 floats in workgroups of 256 (§七). */
#define PMC_SQ_WAVES 16384
#define PMC_SQ_INSTS_VALU 229376
#define PMC_TCC_HIT0 24576
#define PMC_TCC_HIT1 24552

/* The `--pmc-type 3` CSV: every dispatch twice (one row per replay pass, same Index), kernel time
 * EndNs-BeginNs the app's own undisturbed kernel time (the replayed dispatch runs at full speed;
 * it is the app's timing that suffers). */
static void make_pmc_csv(long launches, long long dur_ns, long app_pid, double t0, sbuf *b)
{
  long i;
  int pass;

  sb_printf(b, "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
               "accum_vgpr,sgpr,wave_size,sig,obj,SQ_WAVES,SQ_INSTS_VALU,TCC_HIT[0],TCC_HIT[1],"
               "SQ_LDS_BANK_CONFLICT,BeginNs,EndNs\n");
  for (i = 0; i < launches; i++)
    for (pass = 0; pass < 2; pass++) {
      long long begin = (long long)t0 + (2 * i + pass) * (dur_ns + 5000);

      sb_printf(b, "%ld,\"%s\",0,0,%ld,%ld,%ld,1048576,256,0,0,8,0,16,64,0x0,0x7f3a20004a80,"
                   "%d,%d,%d,%d,0,%lld,%lld\n",
                i, KERNEL_NAME, i, app_pid, app_pid, PMC_SQ_WAVES, PMC_SQ_INSTS_VALU,
                PMC_TCC_HIT0, PMC_TCC_HIT1, begin, begin + dur_ns);
    }
}

/* The text PMC file (no --pmc-type 3): rocprof v1's results.txt layout, one entry per dispatch. */
static void make_pmc_txt(long launches, long long dur_ns, long app_pid, double t0, sbuf *b)
{
  long i;

  for (i = 0; i < launches; i++) {
    long long begin = (long long)t0 + i * (dur_ns + 5000);

    sb_printf(b, "dispatch[%ld], gpu-id(0), queue-id(0), queue-index(%ld), pid(%ld), tid(%ld), "
                 "grd(1048576), wgr(256), lds(0), scr(0), arch_vgpr(8), accum_vgpr(0), sgpr(16), "
                 "wave_size(64), sig(0x0), obj(0x7f3a20004a80), kernel-name(\"%s\"), "
                 "time(%lld,%lld,%lld,%lld)\n",
              i, i, app_pid, app_pid, KERNEL_NAME, begin - 1200, begin, begin + dur_ns,
              begin + dur_ns + 800);
    sb_printf(b, "  SQ_WAVES (%d)\n  SQ_INSTS_VALU (%d)\n  TCC_HIT[0] (%d)\n  TCC_HIT[1] (%d)\n"
                 "  SQ_LDS_BANK_CONFLICT (0)\n",
              PMC_SQ_WAVES, PMC_SQ_INSTS_VALU, PMC_TCC_HIT0, PMC_TCC_HIT1);
  }
}

/* Writes `b` to `path` `late_ms` milliseconds from now, from a detached grandchild (own session,
 * no terminal, /dev/null for stdio), after we have exited: the "late CSV" of §1.4. The file
 * appears whole (written under a temporary name, then renamed), so a poller sees it complete. */
static void write_late(const char *path, const sbuf *b, long late_ms)
{
  pid_t pid;
  int status;

  fflush(NULL);
  pid = fork();
  if (pid < 0)
    die("fork: %s", strerror(errno));
  if (pid == 0) {
    pid_t gc;
    int fd;

    if (setsid() < 0)
      _exit(1);
    gc = fork();
    if (gc != 0)
      _exit(gc < 0 ? 1 : 0);
    fd = open("/dev/null", O_RDWR);
    if (fd >= 0) {
      dup2(fd, STDIN_FILENO);
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      if (fd > STDERR_FILENO)
        close(fd);
    }
    sleep_ms(late_ms);
    {
      char *tmp = xstrdup_printf("%s.partial", path);

      write_file(tmp, b);
      if (rename(tmp, path) != 0)
        unlink(tmp);
      free(tmp);
    }
    _exit(0);
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
}

int main(int argc, char **argv)
{
  options o;
  names n;
  app_info info;
  double factors[M_COUNT], t0;
  const char *late;
  char *app_path;
  enum mode mode;
  long launches, late_ms = -1;
  long long avg_ns, dur_ns;
  pid_t app_pid = 0;
  int code;
  sbuf b = {0};
  static const char db_text[] = "hprun test double: not an SQLite database\n";
  static const char journal_text[] = "hprun test double: uncommitted journal\n";

  memset(&o, 0, sizeof(o));
  memset(&n, 0, sizeof(n));
  memset(&info, 0, sizeof(info));
  parse_args(argc, argv, &o);

  /* The mode that decides the factor: pmc > kernel-stack > memory-usage/leak-check > stats > trace
   * (--hip-trace alone, or no mode flag at all). */
  mode = o.pmc ? M_PMC : o.kernel_stack ? M_STACK : o.memory ? M_MEM : o.stats ? M_STATS : M_TRACE;
  memcpy(factors, default_factors, sizeof(factors));
  {
    /* The names HIPPROF_FAKE_FACTORS uses, in enum order, then "leak-check": the same mode as
     * memory-usage, read into a spare slot that wins when it is set. */
    static const char *const keys[M_COUNT + 1] = {"trace", "stats", "kernel-stack", "pmc",
                                                  "memory-usage", "leak-check"};
    double vals[M_COUNT + 1];

    memcpy(vals, factors, sizeof(factors));
    vals[M_COUNT] = -1;
    read_factors("HIPPROF_FAKE_FACTORS", keys, vals, M_COUNT + 1);
    memcpy(factors, vals, sizeof(factors));
    if (vals[M_COUNT] > 0)
      factors[M_MEM] = vals[M_COUNT];
  }

  late = getenv("HIPPROF_FAKE_LATE_MS");
  if (late && *late)
    late_ms = int_value("HIPPROF_FAKE_LATE_MS", late, 0, 3600000);

  app_path = find_exec(argv[o.app]);
  if (app_path == NULL) {
    fprintf(stderr, PROG ": cannot run application '%s': %s\n", argv[o.app],
            errno == EACCES ? "not executable" : "not found");
    return 127;
  }
  free(app_path);

  /* The database transaction is open for as long as the app runs: a journal exists, and only a
   * normal end removes it. SIGTERM/SIGINT keep their default action, so killing us now loses all
   * files and leaves the journal, as with the real tool (§1.4 "do not kill hipprof"). */
  make_names(&o, &n);
  {
    sbuf j = {0};

    sb_add(&j, journal_text, sizeof(journal_text) - 1);
    write_file(n.journal, &j);
    free(j.s);
  }

  t0 = mono_ns();
  code = run_app(argv + o.app, factors[mode], &info, &app_pid);

  launches = info.have_launches ? info.launches : DEFAULT_LAUNCHES;
  if (launches > MAX_LAUNCHES) {
    fprintf(stderr, PROG ": the app reports more than %d launches; the files list %d\n",
            MAX_LAUNCHES, MAX_LAUNCHES);
    launches = MAX_LAUNCHES;
  }
  avg_ns = DEFAULT_KERNEL_NS;
  dur_ns = DEFAULT_KERNEL_NS;
  if (info.have_mean && info.mean_scaled >= 0 && info.mean_scaled < 1e6 && info.mean_raw >= 0 &&
      info.mean_raw < 1e6) {
    avg_ns = llround(info.mean_scaled * 1e6);
    dur_ns = llround(info.mean_raw * 1e6);
  }

  switch (mode) {
  case M_TRACE:
  case M_STATS:
    make_hiptrace(launches, &b);
    write_file(n.hiptrace, &b);
    b.len = 0;
    make_kernel(launches, avg_ns, &b);
    write_file(n.kernel, &b);
    break;
  case M_STACK:
    make_stack(launches, &b);
    write_file(n.stack, &b);
    break;
  case M_PMC:
    if (o.kernel != NULL && strstr(KERNEL_NAME, o.kernel) == NULL)
      launches = 0; /* the filter matches no kernel: the table has its header only */
    if (o.pmc_type == 3)
      make_pmc_csv(launches, dur_ns, (long)app_pid, t0, &b);
    else
      make_pmc_txt(launches, dur_ns, (long)app_pid, t0, &b);
    if (late_ms >= 0)
      write_late(o.pmc_type == 3 ? n.pmc_csv : n.pmc_txt, &b, late_ms);
    else
      write_file(o.pmc_type == 3 ? n.pmc_csv : n.pmc_txt, &b);
    break;
  case M_MEM: {
    static const char lines[] = "host leakcheck memory size 170.06 MB\n"
                                "device0 leakcheck memory size 92.00 KB\n";

    out_text(lines, sizeof(lines) - 1);
    break;
  }
  default:
    break;
  }

  b.len = 0;
  sb_add(&b, db_text, sizeof(db_text) - 1);
  write_file(n.db, &b);
  if (unlink(n.journal) != 0)
    fprintf(stderr, PROG ": cannot remove %s: %s\n", n.journal, strerror(errno));

  free(b.s);
  free_names(&n);
  return code;
}
