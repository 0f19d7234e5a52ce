/*
 * nvidia-smi: a TEST DOUBLE for nvidia-smi's query mode, for hprun's tests only. Never used by
 * default.
 *
 * Only the query mode is imitated:
 *
 *   nvidia-smi --query-gpu=F[,F...] --format=csv[,noheader][,nounits] [-i 0] [-lms N]
 *
 * One GPU, one line per sample, fields joined by ", " as the real tool does. The field a memory
 * sampler reads, memory.used (MiB), moves with the wall clock: base + ((milliseconds + 13 * sample
 * number) mod 50), so a sampler sees values that change even when its period is a multiple of
 * 50 ms; the base is 1000 or $NVIDIA_SMI_FAKE_MIB. The other fields (the ones hprun's manifest
 * asks for) are constants. With `-lms N` it prints every N ms until it is killed, like the real
 * loop mode. Anything else exits 1 with a message.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A queryable field: its name, its unit (NULL: none) and its constant value (NULL: memory.used). */
typedef struct field {
  const char *name, *unit, *value;
} field;

static const field fields[] = {{"index", NULL, "0"},
                               {"name", NULL, "hprun test double GPU"},
                               {"driver_version", NULL, "0.0.0"},
                               {"memory.total", "MiB", "81920"},
                               {"memory.used", "MiB", NULL},
                               {"clocks.max.sm", "MHz", "1980"},
                               {"clocks.sm", "MHz", "1755"}};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
#define MAX_QUERY 16

static void usage_error(const char *fmt, const char *arg)
{
  fprintf(stderr, "nvidia-smi (hprun test double): ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr,
          "\nsupported: --query-gpu=F[,F...] --format=csv[,noheader][,nounits] [-i 0] "
          "[-lms N]\nfields: index name driver_version memory.total memory.used "
          "clocks.max.sm clocks.sm\n");
  exit(1);
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    usage_error("bad value for %s", opt);
  return v;
}

static long long now_ms(int clock)
{
  struct timespec ts;

  if (clock_gettime(clock, &ts) != 0) {
    perror("nvidia-smi: clock_gettime");
    exit(1);
  }
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleeps until the absolute CLOCK_MONOTONIC time `ms`, so the loop does not drift. */
static void sleep_until_ms(long long ms)
{
  struct timespec ts;

  ts.tv_sec = (time_t)(ms / 1000);
  ts.tv_nsec = (long)(ms % 1000) * 1000000L;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

/* Copies `arg` (a comma list) into `buf` and splits it in place into `words`. Returns how many. */
static size_t split(const char *what, const char *arg, char *buf, size_t size, char **words)
{
  char *save = NULL, *tok;
  size_t n = 0;

  if (strlen(arg) >= size)
    usage_error("%s is too long", what);
  strcpy(buf, arg);
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n == MAX_QUERY)
      usage_error("too many items in %s", what);
    words[n++] = tok;
  }
  return n;
}

int main(int argc, char **argv)
{
  const field *query[MAX_QUERY];
  char qbuf[512], fbuf[128], *words[MAX_QUERY];
  size_t nquery = 0, n, i, j;
  int format = 0, header = 1, units = 1, a;
  long loop_ms = 0, base = 1000;
  const char *env = getenv("NVIDIA_SMI_FAKE_MIB");
  long long next, k;

  for (a = 1; a < argc; a++) {
    const char *s = argv[a];

    if (strncmp(s, "--query-gpu=", 12) == 0) {
      nquery = split("--query-gpu", s + 12, qbuf, sizeof(qbuf), words);
      for (i = 0; i < nquery; i++) {
        for (j = 0; j < NFIELDS && strcmp(words[i], fields[j].name) != 0; j++)
          ;
        if (j == NFIELDS)
          usage_error("field \"%s\" is not a valid field to query", words[i]);
        query[i] = &fields[j];
      }
    } else if (strncmp(s, "--format=", 9) == 0) {
      /* A comma list that must contain csv; noheader and nounits are optional. */
      n = split("--format", s + 9, fbuf, sizeof(fbuf), words);
      for (i = 0; i < n; i++) {
        if (strcmp(words[i], "csv") == 0)
          format = 1;
        else if (strcmp(words[i], "noheader") == 0)
          header = 0;
        else if (strcmp(words[i], "nounits") == 0)
          units = 0;
        else
          usage_error("unsupported format option '%s'", words[i]);
      }
    } else if (strcmp(s, "-i") == 0 || strcmp(s, "--id") == 0) {
      if (a + 1 >= argc)
        usage_error("option %s needs a value", s);
      if (strcmp(argv[++a], "0") != 0)
        usage_error("no such GPU: '%s' (this double has only GPU 0)", argv[a]);
    } else if (strcmp(s, "--id=0") == 0) {
      /* the one GPU */
    } else if (strcmp(s, "-lms") == 0) {
      if (a + 1 >= argc)
        usage_error("option %s needs a value", s);
      loop_ms = parse_long(s, argv[++a], 1, 3600000);
    } else if (strncmp(s, "--loop-ms=", 10) == 0) {
      loop_ms = parse_long("--loop-ms", s + 10, 1, 3600000);
    } else {
      usage_error("unsupported argument '%s'", s);
    }
  }
  if (nquery == 0 || !format)
    usage_error("%s", "both --query-gpu=... and --format=csv are required");
  if (env && *env)
    base = parse_long("NVIDIA_SMI_FAKE_MIB", env, 0, 1L << 30);

  if (header) {
    for (i = 0; i < nquery; i++) {
      printf("%s%s", i ? ", " : "", query[i]->name);
      if (units && query[i]->unit)
        printf(" [%s]", query[i]->unit);
    }
    printf("\n");
  }
  next = now_ms(CLOCK_MONOTONIC);
  for (k = 0;; k++) {
    for (i = 0; i < nquery; i++) {
      if (query[i]->value)
        printf("%s%s", i ? ", " : "", query[i]->value);
      else
        printf("%s%ld", i ? ", " : "", base + (long)((now_ms(CLOCK_REALTIME) + 13 * k) % 50));
      if (units && query[i]->unit)
        printf(" %s", query[i]->unit);
    }
    printf("\n");
    /* A sampler reads through a pipe: every line must leave at once, and a closed pipe ends us. */
    if (fflush(stdout) != 0)
      return 1;
    if (loop_ms == 0)
      return 0;
    next += loop_ms;
    sleep_until_ms(next);
  }
}
