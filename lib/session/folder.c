/*
 * The session folder: where a session's folder goes, its name, its creation and the plan copy
 * kept in it, and how a file of it that cannot be written is reported. A session folder is
 * created once and never reused, so that two sessions can never mix their measurements, not even
 * two hprun started in the same second. It is held open for the whole session, and everything in
 * it is made relative to that descriptor (util/sys/fsutil.h), never through a link the session's
 * programs may have planted. At the end of a complete session, <name>-latest beside it is turned
 * to point at it: a stable path for scripts and CI.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

/* Adds "cannot create PATH: WHY" to diags, when there are diags. */
static void create_error(hp_diags *diags, const char *path, int e)
{
  char *msg = hp__fs_error("create", NULL, path, e);

  if (diags)
    hp_diags_add(diags, HP_DIAG_ERROR, "hprun", 0, 0, "%s", msg ? msg : "out of memory");
  free(msg);
}

/* Claims the first free <name>-<stamp>[-N] in the parent folder pfd: mkdirat(2) fails when the
 * name exists, so trying -2, -3, ... claims a name no other hprun holds. The new folder is then
 * opened without following a link, and from here on everything of the session is made relative
 * to that descriptor. */
static int claim(int pfd, const char *parent, const char *name, char **out, int *fd,
                 hp_diags *diags)
{
  char stamp[32];
  time_t t = time(NULL);
  struct tm tm;
  char *leaf;
  int i, r = 0;

  localtime_r(&t, &tm);
  strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
  for (i = 1; i < 1000; i++) {
    leaf = i == 1 ? hp__asprintf("%s-%s", name, stamp) : hp__asprintf("%s-%s-%d", name, stamp, i);
    if (leaf == NULL)
      return HP_ENOMEM;
    r = hp__mkdir_at(pfd, leaf, 0755, fd);
    if (r == 0 || hp__fs_errno(r) != EEXIST) {
      *out = hp__path_join(parent, leaf);
      if (r)
        create_error(diags, *out ? *out : leaf, hp__fs_errno(r));
      free(leaf);
      if (r) {
        free(*out);
        *out = NULL;
        return hp__fs_kind(r) == HP_EEXIST ? HP_EIO : hp__fs_kind(r);
      }
      return *out ? 0 : HP_ENOMEM;
    }
    free(leaf);
  }
  if (diags)
    hp_diags_add(diags, HP_DIAG_ERROR, "hprun", 0, 0,
                 "cannot create a session folder in %s: %s-%s and its 998 successors exist", parent,
                 name, stamp);
  return HP_EEXIST;
}

int hp__session_dir_make(const char *parent, const char *name, char **out, int *fd, hp_diags *diags)
{
  char *real = NULL;
  int pfd = -1, r;

  *out = NULL;
  *fd = -1;
  if ((r = hp__mkdirs(parent, 0755)) != 0 ||
      (r = hp__dir_open((real = realpath(parent, NULL)) ? real : parent, &pfd)) != 0) {
    create_error(diags, parent, hp__fs_errno(r));
    free(real);
    return r == HP_ENOMEM ? r : HP_EIO;
  }
  r = claim(pfd, real ? real : parent, name, out, fd, diags);
  if (r && *fd >= 0) {
    close(*fd);
    *fd = -1;
  }
  close(pfd);
  free(real);
  return r;
}

/* The plan as it was when the session ran, beside the results (its hash is in the manifest), so
 * a later edit of the plan file cannot change what a session says it ran. It is the user's text,
 * verbatim (docs/summary.md says so: secrets belong in the environment, which is redacted). */
int hp__session_copy_plan(const hp_plan *plan, int dirfd)
{
  return hp__write_file_at(dirfd, "plan.yaml", plan->text ? plan->text : "",
                           plan->text ? plan->text_len : 0, 1);
}

int hp__session_io_error(hp__session_ctx *c, const char *verb, const char *rel, int e)
{
  char *msg = hp__fs_error(verb, rel[0] == '/' ? NULL : c->s->dir, rel, e);

  hp_diags_add(c->diags, HP_DIAG_ERROR, "hprun", 0, 0, "%s", msg ? msg : "out of memory");
  if (c->io_message == NULL)
    c->io_message = msg;
  else
    free(msg);
  c->io_failed = 1;
  return HP_EIO;
}

int hp__session_link_latest(const char *dir, const char *name)
{
  const char *leaf = strrchr(dir, '/');
  char *parent, *tmp = NULL, *link = NULL;
  int r = 0;

  if (leaf == NULL || leaf[1] == '\0')
    return HP_EINVAL;
  if ((parent = hp__strndup(dir, (size_t)(leaf - dir))) == NULL)
    return HP_ENOMEM;
  leaf++;
  /* A link relative to its folder keeps working when the whole output folder is moved; the
   * temporary name holds the pid, so two hprun finishing at once never share one. */
  tmp = hp__asprintf("%s/.%s-latest.%ld.tmp", *parent ? parent : "", name, (long)getpid());
  link = hp__asprintf("%s/%s-latest", *parent ? parent : "", name);
  if (tmp == NULL || link == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  (void)unlink(tmp);
  if (symlink(leaf, tmp) != 0 || rename(tmp, link) != 0) {
    r = hp__fs_code(HP_EIO, errno);
    (void)unlink(tmp);
  }

fail:
  free(parent);
  free(tmp);
  free(link);
  return r;
}

int hp__sweep_dir_make(hp__session_ctx *c)
{
  int r;

  if ((c->s->dir = hp__path_join(c->sub->dir, c->sub->name)) == NULL)
    return HP_ENOMEM;
  if ((r = hp__mkdir_at(c->sub->fd, c->sub->name, 0755, &c->dirfd)) != 0) {
    create_error(c->diags, c->s->dir, hp__fs_errno(r));
    return HP_EIO;
  }
  return 0;
}
