/*
 * Launchers, part two: reading back what the ranks of a launched run left in their folders
 * rank<N>/ (rank.txt: `key=value` lines the rank wrapper wrote, launch.h). A rank that was killed
 * before its last line has no exit status (-1); a folder without rank.txt is still a rank.
 * Nothing here trusts the files' contents beyond their syntax: unknown keys are ignored, values
 * are copied as text.
 */
#include "exec/launch.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

void hp__launch_free(hp_run_launch *rl)
{
  size_t i;

  if (rl == NULL)
    return;
  for (i = 0; i < rl->nranks; i++) {
    free(rl->ranks[i].host);
    free(rl->ranks[i].values);
  }
  free(rl->ranks);
  free(rl->kind);
  free(rl->job_id);
  free(rl->step_id);
  free(rl->nodelist);
  free(rl);
}

/* "rank<N>" with N a decimal number below a million: N, else -1. */
static long rank_of(const char *name)
{
  char *end;
  long n;

  if (strncmp(name, "rank", 4) != 0 || name[4] < '0' || name[4] > '9')
    return -1;
  n = strtol(name + 4, &end, 10);
  return *end == '\0' && n < 1000000 ? n : -1;
}

/* Sets *dst to a copy of `val` unless it is empty or *dst is already set (the first rank's word
 * counts: every rank of one step sees the same job and step). */
static int keep(char **dst, const char *val)
{
  if (*dst || val[0] == '\0')
    return 0;
  return (*dst = hp__strdup(val)) == NULL ? HP_ENOMEM : 0;
}

/* One rank.txt into `rk` and the run's job, step and nodes. */
static int read_rank_txt(const char *path, hp_rank *rk, hp_run_launch *rl)
{
  char *text = NULL, *line, *save = NULL;
  size_t len;
  int r = 0;

  if (hp__read_file(path, &text, &len) != 0)
    return 0;
  for (line = strtok_r(text, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save)) {
    char *eq = strchr(line, '=');
    if (eq == NULL)
      continue;
    *eq++ = '\0';
    if (strcmp(line, "profiled") == 0)
      rk->profiled = strcmp(eq, "1") == 0;
    else if (strcmp(line, "exit") == 0)
      rk->exit_status = strtoll(eq, NULL, 10);
    else if (strcmp(line, "host") == 0)
      r = keep(&rk->host, eq);
    else if (strcmp(line, "job_id") == 0)
      r = keep(&rl->job_id, eq);
    else if (strcmp(line, "step_id") == 0)
      r = keep(&rl->step_id, eq);
    else if (strcmp(line, "nodelist") == 0)
      r = keep(&rl->nodelist, eq);
  }
  free(text);
  return r;
}

int hp__launch_read(const char *run_dir, const char *kind, hp_run_launch **out)
{
  struct dirent **ents = NULL;
  hp_run_launch *rl = calloc(1, sizeof(*rl));
  int n, i, r = 0;

  *out = NULL;
  if (rl == NULL || (rl->kind = hp__strdup(kind)) == NULL) {
    hp__launch_free(rl);
    return HP_ENOMEM;
  }
  /* alphasort puts rank10 before rank2: the ranks are sorted by number below. */
  n = scandir(run_dir, &ents, NULL, alphasort);
  if (n > 0 && (rl->ranks = calloc((size_t)n, sizeof(*rl->ranks))) == NULL)
    r = HP_ENOMEM;
  for (i = 0; i < n; i++) {
    long k = rank_of(ents[i]->d_name);
    if (k >= 0 && r == 0) {
      hp_rank *rk = &rl->ranks[rl->nranks++];
      char *path = hp__asprintf("%s/%s/rank.txt", run_dir, ents[i]->d_name);
      rk->rank = (int)k;
      rk->exit_status = -1;
      r = path ? read_rank_txt(path, rk, rl) : HP_ENOMEM;
      free(path);
    }
    free(ents[i]);
  }
  free(ents);
  for (i = 1; i < (int)rl->nranks; i++) {
    hp_rank t = rl->ranks[i];
    int j = i;
    for (; j > 0 && rl->ranks[j - 1].rank > t.rank; j--)
      rl->ranks[j] = rl->ranks[j - 1];
    rl->ranks[j] = t;
  }
  if (r)
    hp__launch_free(rl);
  else
    *out = rl;
  return r;
}
