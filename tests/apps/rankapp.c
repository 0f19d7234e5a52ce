/*
 * A stand-in for one rank of a multi-rank program, for the launcher tests (docs/cluster.md). It
 * takes its rank as an MPI program would, from SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK,
 * without MPI headers, works for --ms N plus --rank-ms M times its rank milliseconds (so that
 * rank 1 is measurably slower than rank 0), and prints `time_ms=X rank=R`. --hang sleeps until
 * killed, for the timeout and Ctrl-C tests; --pidfile F appends its PID to F.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int my_rank(void)
{
  static const char *const vars[] = {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", NULL};
  int i;

  for (i = 0; vars[i]; i++)
    if (getenv(vars[i]))
      return atoi(getenv(vars[i]));
  return 0;
}

int main(int argc, char **argv)
{
  double ms = 50, rank_ms = 0, t0, spin = 0;
  int i, hang = 0, rank = my_rank();
  const char *pidfile = NULL;

  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--ms") == 0 && i + 1 < argc)
      ms = atof(argv[++i]);
    else if (strcmp(argv[i], "--rank-ms") == 0 && i + 1 < argc)
      rank_ms = atof(argv[++i]);
    else if (strcmp(argv[i], "--pidfile") == 0 && i + 1 < argc)
      pidfile = argv[++i];
    else if (strcmp(argv[i], "--hang") == 0)
      hang = 1;
  }
  if (pidfile) {
    FILE *f = fopen(pidfile, "a");
    if (f) {
      fprintf(f, "%ld\n", (long)getpid());
      fclose(f);
    }
  }
  while (hang)
    sleep(1);
  ms += rank_ms * rank;
  t0 = now_ms();
  while (now_ms() - t0 < ms)
    spin += 1;
  printf("time_ms=%.3f rank=%d\n", now_ms() - t0, rank);
  return spin < 0;
}
