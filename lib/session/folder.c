/*
 * The session folder: where a session's folder goes, its name, its creation and the plan copy
 * kept in it. A session folder is created once and never reused, so that two sessions can never
 * mix their measurements, not even two hprun started in the same second.
 */
#include "session/session.h"
#include "util/buf.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *hp__session_now_iso(void)
{
  char tmp[32];
  time_t t = time(NULL);
  struct tm tm;

  gmtime_r(&t, &tm);
  strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return hp__strdup(tmp);
}

char *hp__session_abspath(const char *base, const char *p)
{
  char cwd[4096];
  char *joined, *abs;

  joined = p[0] == '/' || base == NULL ? hp__strdup(p) : hp__path_join(base, p);
  if (joined == NULL)
    return NULL;
  /* Existing paths are shown and recorded without `..` and symlink detours. */
  if ((abs = realpath(joined, NULL)) != NULL) {
    free(joined);
    return abs;
  }
  if (joined[0] == '/')
    return joined;
  if (getcwd(cwd, sizeof(cwd)) == NULL) {
    free(joined);
    return NULL;
  }
  abs = hp__path_join(cwd, joined);
  free(joined);
  return abs;
}

char *hp__session_parent(const hp_plan *plan, const hp_run_opts *opts)
{
  /* A command-line --output is relative to where hprun was started, not to the plan. */
  if (opts->output)
    return hp__session_abspath(NULL, opts->output);
  return hp__session_abspath(plan->dir, plan->output);
}

/* mkdir(2) fails when the folder exists, so trying <name>-<stamp>, then -2, -3, ... claims a name
 * no other hprun holds. */
int hp__session_dir_make(const char *parent, const char *name, char **out)
{
  char stamp[32];
  time_t t = time(NULL);
  struct tm tm;
  char *dir, *real = NULL;
  int i, r;

  *out = NULL;
  if ((r = hp__mkdirs(parent, 0755)) != 0)
    return r;
  if ((real = realpath(parent, NULL)) != NULL)
    parent = real;
  localtime_r(&t, &tm);
  strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
  for (i = 1; i < 1000; i++) {
    dir = i == 1 ? hp__asprintf("%s/%s-%s", parent, name, stamp)
                 : hp__asprintf("%s/%s-%s-%d", parent, name, stamp, i);
    if (dir == NULL) {
      free(real);
      return HP_ENOMEM;
    }
    if (mkdir(dir, 0755) == 0) {
      *out = dir;
      free(real);
      return 0;
    }
    free(dir);
    if (errno != EEXIST) {
      free(real);
      return HP_EIO;
    }
  }
  free(real);
  return HP_EEXIST;
}

/* The plan as it was when the session ran, beside the results (its hash is in the manifest), so
 * a later edit of the plan file cannot change what a session says it ran. */
int hp__session_copy_plan(const hp_plan *plan, const char *dir)
{
  char *copy = hp__path_join(dir, "plan.yaml");
  int r;

  if (copy == NULL)
    return HP_ENOMEM;
  r = hp__write_file(copy, plan->text ? plan->text : "", plan->text ? plan->text_len : 0, 1);
  free(copy);
  return r;
}
