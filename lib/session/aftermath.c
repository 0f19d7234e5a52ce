/*
 * What a run leaves behind outside its folder, and what hprun does when a first run fails.
 *
 * Runs start in the app's folder (app.cwd), so relative paths work as in a shell; an app that
 * writes a file there would then mix the outputs of every run. Each run's new top-level files in
 * that folder are moved into the run's own folder, with a warning (copied, then removed, when
 * the two lie on different file systems); a file that was there before the run is never touched.
 * A file that cannot be moved fails its run: its profile would otherwise be silently empty.
 *
 * A first run that fails usually means every later one fails the same way (a missing file, a bad
 * option), so running them only costs time: the baseline's failing first run stops the session,
 * any other pass's skips that pass's remaining runs, unless keep_going says otherwise. The user
 * sees the end of the run's stderr and a hint at the likely cause.
 */
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many lines of a failed run's stderr the terminal shows. */
#define TAIL_LINES 15

int hp__cwd_list(const char *dir, hp_strv *out)
{
  struct dirent **ents = NULL;
  int n, i, r = 0;

  hp__strv_init(out);
  n = scandir(dir, &ents, NULL, alphasort);
  for (i = 0; i < n; i++) {
    const char *name = ents[i]->d_name;
    if (r == 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
      r = hp__strv_push(out, name);
    free(ents[i]);
  }
  free(ents);
  if (r)
    hp_strv_free(out);
  return r;
}

int hp__cwd_new_names(const hp_strv *before, const hp_strv *after, hp_strv *out)
{
  size_t i, j;
  int r = 0;

  hp__strv_init(out);
  for (i = 0; i < after->n && r == 0; i++) {
    for (j = 0; j < before->n; j++)
      if (strcmp(after->v[i], before->v[j]) == 0)
        break;
    if (j == before->n)
      r = hp__strv_push(out, after->v[i]);
  }
  if (r)
    hp_strv_free(out);
  return r;
}

/* The run's first file that could not be moved, as its record says it (*lost, if still NULL). */
static void set_lost(char **lost, const char *name, const char *cwd, const char *rel, int o)
{
  if (*lost == NULL)
    *lost = hp__asprintf("its file '%s' could not be moved from %s into %s/ (%s), so what it "
                         "wrote there is not in its folder",
                         name, cwd, rel, strerror(hp__fs_errno(o)));
}

int hp__cwd_move_new(hp__session_ctx *c, const char *cwd, const hp_strv *before, const char *rel,
                     int quiet, char **lost)
{
  hp_strv after = {NULL, 0, 0}, fresh = {NULL, 0, 0};
  int cfd = -1, rfd = -1, r, o;
  size_t i;

  if ((r = hp__cwd_list(cwd, &after)) != 0 || (r = hp__cwd_new_names(before, &after, &fresh)) != 0)
    goto fail;
  /* The run's folder is reached from the session's descriptor without following a link, so that
   * a run that replaced it with one cannot have hprun move files outside the session. */
  if (fresh.n &&
      ((o = hp__dir_open(cwd, &cfd)) != 0 || (o = hp__dir_open_at(c->dirfd, rel, &rfd)) != 0)) {
    fprintf(hp__session_log(c),
            "hprun: error: run %s left %zu file%s in %s; they could not be "
            "moved into %s/ (%s)\n",
            rel, fresh.n, fresh.n == 1 ? "" : "s", cwd, rel, strerror(hp__fs_errno(o)));
    set_lost(lost, fresh.v[0], cwd, rel, o);
    goto fail;
  }
  for (i = 0; i < fresh.n; i++) {
    if ((o = hp__move_at(cfd, fresh.v[i], rfd)) != 0) {
      fprintf(hp__session_log(c),
              "hprun: error: run %s left '%s' in %s; it could not be moved "
              "into %s/ (%s)\n",
              rel, fresh.v[i], cwd, rel, strerror(hp__fs_errno(o)));
      set_lost(lost, fresh.v[i], cwd, rel, o);
    } else if (!quiet)
      fprintf(hp__session_log(c), "hprun: warning: run %s left '%s' in %s: moved into %s/\n", rel,
              fresh.v[i], cwd, rel);
  }

fail:
  if (cfd >= 0)
    close(cfd);
  if (rfd >= 0)
    close(rfd);
  hp_strv_free(&after);
  hp_strv_free(&fresh);
  return r;
}

int hp__run_failed(const hp_run *run)
{
  return run->error != NULL || run->exit_status != 0 || run->term_signal != 0 || run->timed_out;
}

const char *hp__failure_hint(const char *err, int timed_out, int cwd_is_run_dir)
{
  if (timed_out)
    return "it ran past its timeout; raise app.timeout (or the pass's timeout) if it needs longer";
  if (err &&
      (strstr(err, "No such file or directory") || strstr(err, "can't open file") ||
       strstr(err, "cannot open") || strstr(err, "not found")))
    return cwd_is_run_dir
        ? "a file was not found: with `app.workdir: run` each run starts in its own run folder, "
          "so relative paths do not work; use absolute paths or drop `app.workdir: run`"
        : "a file was not found: relative paths are relative to app.cwd (default: the plan's "
          "folder); check the path or set app.cwd";
  return "run its command by hand to see why it fails";
}

/* The last TAIL_LINES lines of `text` (len bytes). */
static const char *tail_of(const char *text, size_t len)
{
  const char *p = text + len;
  int lines = 0;

  if (p > text && p[-1] == '\n')
    p--;
  while (p > text) {
    if (p[-1] == '\n' && ++lines == TAIL_LINES)
      break;
    p--;
  }
  return p;
}

void hp__run_failed_show(hp__session_ctx *c, const hp__unit *u, const hp_run *run, const char *what)
{
  FILE *log = hp__session_log(c);
  char *path = hp__asprintf("%s/%s/stderr.txt", c->s->dir, run->dir), *text = NULL;
  size_t len = 0;
  struct stat st;

  fprintf(log, "hprun: run %s failed%s; %s\n", run->dir, run->timed_out ? " (timed out)" : "",
          what);
  /* Its command (unless -v printed it) and files are named here, since neither is printed while
   * runs go well. */
  if (run->command && !c->opts->verbose)
    fprintf(log, "hprun: its command: %s\n", run->command);
  fprintf(log, "hprun: its files: %s/%s/\n", c->s->dir, run->dir);
  /* A huge stderr is not read whole: its end is not worth hprun's memory. */
  if (path && stat(path, &st) == 0 && st.st_size < (4 << 20) &&
      hp__read_file(path, &text, &len) == 0 && len > 0) {
    const char *t = tail_of(text, len);
    fprintf(log, "hprun: the end of its stderr (%s):\n%s%s", path, t,
            text[len - 1] == '\n' ? "" : "\n");
  }
  fprintf(log, "hprun: hint: %s\n",
          hp__failure_hint(text ? text : run->error, run->timed_out, u->cwd == NULL));
  if (!c->plan->keep_going && !c->opts->keep_going)
    fprintf(log,
            "hprun: set `keep_going: true` in the plan, or pass --keep-going, to run every "
            "run anyway\n");
  free(path);
  free(text);
}

/* ---------------------------------------------------------------------------------------------- */
/* One session per app folder.                                                                     */

/* The pid that holds an flock on the inode `ino`, from /proc/locks ("1: FLOCK ADVISORY WRITE PID
 * MAJ:MIN:INODE 0 EOF"), into buf; empty when it cannot be told. */
static void lock_holder(ino_t ino, char *buf, size_t size)
{
  char line[256], type[16], pid[32], id[64];
  const char *colon;
  FILE *fp = fopen("/proc/locks", "re");

  buf[0] = '\0';
  while (fp && fgets(line, sizeof(line), fp))
    if (sscanf(line, "%*s %15s %*s %*s %31s %63s", type, pid, id) == 3 &&
        strcmp(type, "FLOCK") == 0 && (colon = strrchr(id, ':')) != NULL &&
        strtoull(colon + 1, NULL, 10) == (unsigned long long)ino) {
      snprintf(buf, size, "%s", pid);
      break;
    }
  if (fp)
    fclose(fp);
}

int hp__cwd_lock(hp__session_ctx *c)
{
  char pid[32];
  struct stat st;
  int fd;

  if (c->opts->dry_run || c->plan->app.workdir_run || c->app_cwd == NULL)
    return 0;
  /* The lock is on the folder itself: nothing is written there, so a killed session leaves
   * nothing behind, and the kernel drops the lock when its holder ends, however it ends. */
  if ((fd = open(c->app_cwd, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
      flock(fd, LOCK_EX | LOCK_NB) == 0) {
    c->cwd_lock = fd;
    return 0;
  }
  if (errno != EWOULDBLOCK) {
    /* A file system without flock (some NFS mounts): the session runs, unguarded. */
    fprintf(hp__session_log(c),
            "hprun: warning: cannot lock %s (%s): another session there would not be noticed\n",
            c->app_cwd, strerror(errno));
    close(fd);
    return 0;
  }
  lock_holder(fstat(fd, &st) == 0 ? st.st_ino : 0, pid, sizeof(pid));
  close(fd);
  hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, 0, 0,
               "another hprun session (pid %s) is running in %s, and the files its runs "
               "leave there would be taken by this session's runs: wait for it, or set "
               "`app.workdir: run`",
               pid[0] ? pid : "unknown", c->app_cwd);
  return HP_EINVAL;
}

void hp__cwd_unlock(hp__session_ctx *c)
{
  if (c->cwd_lock >= 0)
    close(c->cwd_lock);
  c->cwd_lock = -1;
}
