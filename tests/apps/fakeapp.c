/*
 * fakeapp: a TEST DOUBLE for a GPU program that reports its own timing (hprun's tests only).
 *
 * It prints the result line that the article's vector_add prints, with a mean kernel time that is
 * exactly `--base` (or `--base` with seeded Gaussian noise), and can misbehave on request: exit with
 * a code, crash, hang, ignore SIGTERM, leave a grandchild behind, allocate memory. Nothing here
 * touches a GPU. The contract (every option and what it prints) is in tests/README.md; hprun's
 * end-to-end tests assert exact values, so change it only together with that file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A hang stops by itself after this long, so a broken test cannot leave processes behind forever. */
#define HANG_MAX_S 600

typedef struct options {
  double base;  /* mean kernel time in ms without noise */
  double noise; /* relative standard deviation */
  uint64_t seed;
  int have_seed;
  double sleep_ms;
  long launches;
  const char *proxy;
  const char **prints; /* NAME=VALUE strings, borrowed from argv */
  size_t nprints;
  int exit_code;
  int crash;
  int no_metric;
  int hang;
  int ignore_term;
  int grandchild;
  const char *touch;
  long rss_mb;
  const char *stderr_text;
} options;

static void usage(FILE *fp)
{
  fputs("usage: fakeapp [--base MS] [--noise CV] [--seed N] [--sleep MS] [--launches N]\n"
        "               [--proxy X] [--print NAME=VALUE]... [--exit N] [--crash] [--no-metric]\n"
        "               [--hang] [--ignore-term] [--grandchild] [--touch FILE] [--rss MB]\n"
        "               [--stderr TEXT]\n"
        "A test double for a GPU program that reports its own timing (hprun's tests).\n",
        fp);
}

/* Parses a whole string as a finite double. Returns 0, or -1 when it is not one. */
static int parse_double(const char *s, double *out)
{
  char *end;
  double v;

  errno = 0;
  v = strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

/* Parses a whole string as a long in [lo, hi]. Returns 0, or -1. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
  char *end;
  unsigned long long v;

  if (*s == '-')
    return -1;
  errno = 0;
  v = strtoull(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE)
    return -1;
  *out = (uint64_t)v;
  return 0;
}

/* Reads the options. Exits with 2 (after a message naming the option) on anything it does not
 * accept, because a test that passes a wrong option should fail loudly, not run with defaults. */
static void parse_args(int argc, char **argv, options *o)
{
  int i;
  long l;

  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1; /* whether this option consumed the next word */
    int bad = 0;

    if (strcmp(a, "--crash") == 0) {
      o->crash = 1;
      takes = 0;
    } else if (strcmp(a, "--no-metric") == 0) {
      o->no_metric = 1;
      takes = 0;
    } else if (strcmp(a, "--hang") == 0) {
      o->hang = 1;
      takes = 0;
    } else if (strcmp(a, "--ignore-term") == 0) {
      o->ignore_term = 1;
      takes = 0;
    } else if (strcmp(a, "--grandchild") == 0) {
      o->grandchild = 1;
      takes = 0;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--base") == 0 || strcmp(a, "--noise") == 0 || strcmp(a, "--seed") == 0 ||
               strcmp(a, "--sleep") == 0 || strcmp(a, "--launches") == 0 ||
               strcmp(a, "--proxy") == 0 || strcmp(a, "--print") == 0 || strcmp(a, "--exit") == 0 ||
               strcmp(a, "--touch") == 0 || strcmp(a, "--rss") == 0 || strcmp(a, "--stderr") == 0) {
      if (v == NULL) {
        fprintf(stderr, "fakeapp: option %s needs a value\n", a);
        exit(2);
      }
      if (strcmp(a, "--base") == 0)
        bad = parse_double(v, &o->base) || o->base < 0;
      else if (strcmp(a, "--noise") == 0)
        bad = parse_double(v, &o->noise) || o->noise < 0;
      else if (strcmp(a, "--seed") == 0) {
        bad = parse_u64(v, &o->seed);
        o->have_seed = 1;
      } else if (strcmp(a, "--sleep") == 0)
        bad = parse_double(v, &o->sleep_ms) || o->sleep_ms < 0 || o->sleep_ms > 3.6e6;
      else if (strcmp(a, "--launches") == 0)
        bad = parse_long(v, 0, LONG_MAX, &o->launches);
      else if (strcmp(a, "--proxy") == 0) {
        double d;
        bad = parse_double(v, &d);
        o->proxy = v;
      } else if (strcmp(a, "--print") == 0) {
        const char **p;
        /* The name must be non-empty so the line reads as key=value to any metric pattern. */
        bad = strchr(v, '=') == NULL || v[0] == '=';
        if (!bad) {
          p = realloc(o->prints, (o->nprints + 1) * sizeof(*p));
          if (p == NULL) {
            fprintf(stderr, "fakeapp: out of memory\n");
            exit(2);
          }
          o->prints = p;
          o->prints[o->nprints++] = v;
        }
      } else if (strcmp(a, "--exit") == 0) {
        bad = parse_long(v, 0, 255, &l);
        o->exit_code = (int)l;
      } else if (strcmp(a, "--touch") == 0) {
        bad = v[0] == '\0';
        o->touch = v;
      } else if (strcmp(a, "--rss") == 0) {
        /* 64 GiB is far beyond any test; the bound keeps MB * 2^20 from overflowing. */
        bad = parse_long(v, 0, 65536, &o->rss_mb);
      } else {
        o->stderr_text = v;
      }
      if (bad) {
        fprintf(stderr, "fakeapp: bad value for %s: '%s'\n", a, v);
        exit(2);
      }
    } else {
      fprintf(stderr, "fakeapp: unknown option '%s' (try --help)\n", a);
      exit(2);
    }
    i += takes;
  }
}

/* splitmix64: a tiny PRNG whose output is the same on every platform, so a seed reproduces the
 * same noise everywhere (rand() differs between C libraries). */
static uint64_t next_u64(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* A uniform double in (0, 1): never 0, so log() below is finite. */
static double next_unit(uint64_t *state)
{
  return ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* One standard normal draw (Box-Muller). */
static double next_gauss(uint64_t *state)
{
  double u1 = next_unit(state), u2 = next_unit(state);

  return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

/* Sleeps for `ms` milliseconds of real time, resuming after signals. */
static void sleep_ms(double ms)
{
  struct timespec ts;

  if (ms <= 0)
    return;
  ts.tv_sec = (time_t)(ms / 1000.0);
  ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000.0) * 1e6);
  if (ts.tv_nsec >= 1000000000L)
    ts.tv_nsec = 999999999L;
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* Waits "forever": until killed, or HANG_MAX_S as a safety net (then exits 3). */
static void hang(void)
{
  time_t end = time(NULL) + HANG_MAX_S;

  while (time(NULL) < end)
    sleep_ms(1000);
  _exit(3);
}

/* Writes "<own pid>\n<child pid>\n" to $HPRUN_FAKE_PIDFILE through a temporary name and rename(),
 * so a test that polls for the file never reads half of it. */
static void write_pidfile(pid_t child)
{
  const char *path = getenv("HPRUN_FAKE_PIDFILE");
  char tmp[PATH_MAX];
  FILE *fp;
  int n;

  if (path == NULL || *path == '\0')
    return;
  n = snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
  if (n < 0 || (size_t)n >= sizeof(tmp)) {
    fprintf(stderr, "fakeapp: HPRUN_FAKE_PIDFILE is too long\n");
    return;
  }
  fp = fopen(tmp, "w");
  if (fp == NULL) {
    fprintf(stderr, "fakeapp: cannot write %s: %s\n", tmp, strerror(errno));
    return;
  }
  fprintf(fp, "%ld\n%ld\n", (long)getpid(), (long)child);
  if (fclose(fp) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "fakeapp: cannot write %s: %s\n", path, strerror(errno));
    unlink(tmp);
  }
}

/* Forks a child that stays in our process group (and keeps our stdout and stderr open) and hangs:
 * the leftover daemon that a runner must still find and kill after the app itself has gone. */
static void start_grandchild(void)
{
  pid_t pid;

  fflush(NULL); /* the child must not print our buffered output a second time */
  pid = fork();
  if (pid < 0) {
    fprintf(stderr, "fakeapp: fork: %s\n", strerror(errno));
    exit(2);
  }
  if (pid == 0)
    hang();
  write_pidfile(pid);
}

/* Creates `name` relative to the working directory, which proves where the app was started. */
static void touch_file(const char *name)
{
  int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0) {
    fprintf(stderr, "fakeapp: cannot create %s: %s\n", name, strerror(errno));
    exit(2);
  }
  if (close(fd) != 0) {
    fprintf(stderr, "fakeapp: cannot close %s: %s\n", name, strerror(errno));
    exit(2);
  }
}

/* Allocates `mb` MiB and writes to every page, so the memory counts in the resident set. The
 * block is returned so that main can keep it until it exits (and then free it, for LeakSanitizer);
 * NULL when mb is 0. */
static void *grow_rss(long mb)
{
  size_t n = (size_t)mb << 20, i;
  volatile unsigned char *p;
  long page = sysconf(_SC_PAGESIZE);

  if (mb == 0)
    return NULL;
  if (page <= 0)
    page = 4096;
  p = malloc(n);
  if (p == NULL) {
    fprintf(stderr, "fakeapp: cannot allocate %ld MB\n", mb);
    exit(2);
  }
  for (i = 0; i < n; i += (size_t)page)
    p[i] = (unsigned char)(i >> 12);
  p[n - 1] = 1;
  return (void *)p;
}

int main(int argc, char **argv)
{
  options o;
  uint64_t state;
  double v;
  const char *env;
  void *rss;
  size_t i;

  memset(&o, 0, sizeof(o));
  o.base = 0.0185488;
  o.sleep_ms = 20;
  o.launches = 120;
  parse_args(argc, argv, &o);

  if (!o.have_seed) {
    env = getenv("HPRUN_FAKE_SEED");
    if (env && *env) {
      if (parse_u64(env, &o.seed)) {
        fprintf(stderr, "fakeapp: HPRUN_FAKE_SEED is not a number: '%s'\n", env);
        return 2;
      }
    } else {
      o.seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
    }
  }

  if (o.ignore_term && signal(SIGTERM, SIG_IGN) == SIG_ERR) {
    fprintf(stderr, "fakeapp: signal: %s\n", strerror(errno));
    return 2;
  }
  if (o.touch)
    touch_file(o.touch);
  rss = grow_rss(o.rss_mb);
  if (o.grandchild)
    start_grandchild();
  if (o.stderr_text)
    fprintf(stderr, "%s\n", o.stderr_text);

  if (o.hang) {
    /* A hung program never reaches its result line, so none is printed. */
    printf("hanging\n");
    fflush(stdout);
    hang();
  }

  sleep_ms(o.sleep_ms);

  /* With --noise 0 the printed value is exactly --base: the draw is skipped, not multiplied by 0,
   * so tests can assert it. A draw below -99% is clamped: a kernel time is never <= 0. */
  v = o.base;
  if (o.noise > 0) {
    state = o.seed;
    v = o.base * fmax(1.0 + o.noise * next_gauss(&state), 0.01);
  }

  if (o.no_metric)
    printf("device=fake arch=none elements=1048576 max_abs_error=0 warmup=20 iterations=100 "
           "launches=%ld\n",
           o.launches);
  else
    printf("device=fake arch=none elements=1048576 mean_kernel_ms=%.9g max_abs_error=0 warmup=20 "
           "iterations=100 launches=%ld\n",
           v, o.launches);
  if (o.proxy)
    printf("proxy=%s\n", o.proxy);
  for (i = 0; i < o.nprints; i++)
    printf("%s\n", o.prints[i]);
  free(o.prints);

  if (fflush(stdout) != 0) {
    fprintf(stderr, "fakeapp: writing stdout: %s\n", strerror(errno));
    return 2;
  }
  if (o.crash)
    abort();
  free(rss);
  return o.exit_code;
}
