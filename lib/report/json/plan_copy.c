/*
 * The plan copy and the plan's hash of a stored session. Every session folder holds plan.yaml (the
 * plan as it ran) and manifest.json (its SHA-256), so a later `hprun report` can use the plan's
 * own kernel categories instead of the built-in ones, and `hprun compare` can refuse two sessions
 * of different plans. Both files may be gone from a folder that was copied by hand (a bare
 * summary.json): the session is still read, with a warning.
 */
#include "report/json/plan_copy.h"
#include "plan/plan.h"
#include "report/json/summary.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"
#include "util/base/sha256.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The plan's hash as manifest.json recorded it, or NULL. */
static char *manifest_hash(const char *dir)
{
  char *path = hp__path_join(dir, "manifest.json"), *text = NULL, *hash = NULL, err[128];
  hp__jv *root = NULL;
  const char *h;
  size_t len;

  if (path && hp__read_file_max(path, HP__MANIFEST_MAX_BYTES, &text, &len) == 0 &&
      hp__jv_parse(text, len, &root, err, sizeof(err)) == 0) {
    h = hp__jv_str(hp__jv_path(root, "plan/sha256"));
    if (h && strlen(h) == 64)
      hash = hp__strdup(h);
  }
  hp__jv_free(root);
  free(text);
  free(path);
  return hash;
}

/* The hash of the copy's bytes, or NULL when it cannot be read. */
static char *copy_hash(const char *path)
{
  char *text = NULL, hex[65];
  size_t len;

  if (hp__read_file_max(path, HP__PLAN_MAX_BYTES, &text, &len) != 0)
    return NULL;
  hp__sha256_hex(text, len, hex);
  free(text);
  return hp__strdup(hex);
}

/* Why the copy could not be used: missing, or the first error its loader gave. */
static char *why_not(const char *path, const hp_diags *pd, int r)
{
  struct stat st;

  if (stat(path, &st) != 0)
    return hp__strdup("missing");
  if (pd->head)
    return hp__asprintf("no longer loads (%ld:%ld: %s)", pd->head->line, pd->head->col,
                        pd->head->msg);
  return hp__asprintf("no longer loads (%s)", hp_strerror(r));
}

int hp__session_plan_copy(hp_session *s, hp_plan **plan, hp_diags *diags)
{
  char *path = hp__path_join(s->dir, "plan.yaml"), *why;
  struct stat st;
  hp_diags pd;
  int r;

  *plan = NULL;
  if (path == NULL)
    return HP_ENOMEM;
  s->plan_sha256 = manifest_hash(s->dir);
  if (s->plan_sha256 == NULL)
    s->plan_sha256 = copy_hash(path);
  /* A device or FIFO in its place would be read for ever (or waited on): it is no plan. */
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    hp_diags_add(diags, HP_DIAG_WARNING, path, 0, 0,
                 "the plan copy is not a regular file: profiles are summarised with the built-in "
                 "kernel categories; everything else is as stored in summary.json");
    free(path);
    return 0;
  }
  /* The plan was checked when it ran; its warnings then need not be repeated now. */
  hp_diags_init(&pd);
  r = hp_plan_load(path, plan, &pd);
  if (r == HP_ENOMEM) {
    hp_diags_free(&pd);
    free(path);
    return r;
  }
  if (r != 0) {
    why = why_not(path, &pd, r);
    hp_diags_add(diags, HP_DIAG_WARNING, path, 0, 0,
                 "the plan copy is %s: profiles are summarised with the built-in kernel "
                 "categories; everything else is as stored in summary.json",
                 why ? why : "unusable");
    free(why);
  }
  hp_diags_free(&pd);
  free(path);
  return 0;
}
