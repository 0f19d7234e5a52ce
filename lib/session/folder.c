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
#include "util/base/secret.h"
#include "util/sys/fsutil.h"

#include <ctype.h>
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

/* The errno hp__session_dir_make would fail with in `parent`, found without making anything: the
 * nearest folder on the way that exists must let hprun create entries in it. 0 when the file
 * system gives no reason now. *exists: `parent` itself is an existing folder, inside which the
 * run would fail to claim the session folder (its message then names that folder). */
static int dir_refusal(const char *parent, int *exists)
{
  char *p = hp__strdup(parent), *slash;
  struct stat st;
  int e = 0, up = 0;

  if (p == NULL)
    return ENOMEM;
  while (stat(p, &st) != 0) {
    if (errno != ENOENT || (slash = strrchr(p, '/')) == NULL) {
      e = errno;
      break;
    }
    slash[slash == p] = '\0';
    up = 1;
  }
  if (e == 0 && !S_ISDIR(st.st_mode))
    e = ENOTDIR;
  else if (e == 0 && access(p, W_OK | X_OK) != 0) {
    e = errno;
    *exists = !up;
  }
  free(p);
  return e;
}

int hp_session_check_output(const hp_plan *plan, const hp_run_opts *opts, hp_diags *diags)
{
  char *parent = hp__session_parent(plan, opts), *leaf;
  int exists = 0, e = parent ? dir_refusal(parent, &exists) : ENOMEM;

  if (e && e != ENOMEM && exists) {
    leaf = hp__asprintf("%s/%s-<YYYYmmdd-HHMMSS>", parent, plan->name);
    create_error(diags, leaf ? leaf : parent, e);
    free(leaf);
  } else if (e && e != ENOMEM) {
    create_error(diags, parent, e);
  }
  free(parent);
  return e == ENOMEM ? HP_ENOMEM : e ? HP_EIO : 0;
}

/* Replaces in `text` every occurrence of `value` that stands as a whole word (no letter, digit
 * or '_' on either side) by HP__REDACTED, into a new string; *text is freed. 0 or HP_ENOMEM. */
static int redact_word(char **text, const char *value)
{
  hp__buf b = HP__BUF_INIT;
  size_t n = strlen(value);
  const char *t = *text, *at;

  while ((at = strstr(t, value)) != NULL) {
    int alone = (at == *text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
        !(isalnum((unsigned char)at[n]) || at[n] == '_');
    hp__buf_add(&b, t, (size_t)(at - t));
    hp__buf_adds(&b, alone ? HP__REDACTED : value);
    t = at + n;
  }
  hp__buf_adds(&b, t);
  if (hp__buf_error(&b)) {
    hp__buf_free(&b);
    return HP_ENOMEM;
  }
  free(*text);
  *text = hp__buf_steal(&b);
  return *text ? 0 : HP_ENOMEM;
}

/* The env values of `a` whose variable's name says they are secret, out of the text. Values of
 * fewer than 3 bytes are left: replacing every "1" of a plan would make it unreadable. */
static int redact_env(char **text, const hp_app *a)
{
  size_t i;
  int r = 0;

  for (i = 0; i < a->nenv && r == 0; i++)
    if (a->env[i].value && strlen(a->env[i].value) >= 3 && hp__env_is_secret(a->env[i].key))
      r = redact_word(text, a->env[i].value);
  return r;
}

/* The plan as it was when the session ran, beside the results (its hash is in the manifest), so
 * a later edit of the plan file cannot change what a session says it ran. It is the user's text
 * with its secrets redacted (docs/summary.md, "Secrets"): the value of every app and variant
 * `env` entry whose name says it is secret, and every token shape or URL password anywhere. */
int hp__session_copy_plan(const hp_plan *plan, int dirfd)
{
  char *text = hp__redact(plan->text ? plan->text : "");
  size_t i;
  int r = text ? redact_env(&text, &plan->app) : HP_ENOMEM;

  for (i = 0; r == 0 && i < plan->nvariants; i++)
    r = redact_env(&text, &plan->variants[i].app);
  if (r == 0)
    r = hp__write_file_at(dirfd, "plan.yaml", text, strlen(text), 1);
  free(text);
  return r;
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
