/*
 * hprun compare of two parameter sweeps: their combinations are matched by name (the folder name,
 * "n=1048576,dtype=fp16"), and each pair is compared as two sessions are (compare_md.c), one
 * section each. A combination of OLD that NEW lacks, or that NEW did not run, is missing, which
 * fails the comparison unless --allow-missing, like a missing pass; one only NEW has is a note.
 * A sweep and a session that is not one cannot be compared (HP_ENOTSUP): the command says so and
 * exits 2, and a combination's own folder can be compared with a session instead.
 */
#include "report/md/markdown.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

static const hp_combo *find_combo(const hp_session *s, const char *name)
{
  size_t k;

  for (k = 0; k < s->ncombos; k++)
    if (strcmp(s->combos[k].name, name) == 0)
      return &s->combos[k];
  return NULL;
}

/* One combination of OLD against NEW's of the same name: its section into b, its cause into tail,
 * and *failures grown. The caller checks the errors of b and tail; this returns hp__compare_md's
 * code. */
static int compare_one(hp__buf *b, hp__buf *tail, const hp_combo *oc, const hp_session *new_s,
                       const hp_compare_opts *o, size_t *failures)
{
  const hp_combo *nc = find_combo(new_s, oc->name);
  const char *why = NULL;
  char *md = NULL;
  size_t nf = 0;
  int r;

  hp__buf_printf(b, "\n# combination `%s`\n\n", oc->name);
  if (oc->s == NULL) {
    hp__buf_adds(b, "OLD did not run it: nothing to compare.\n");
    return 0;
  }
  if (nc == NULL)
    why = "it is missing in NEW";
  else if (nc->s == NULL)
    why = "NEW did not run it";
  if (why) {
    *failures += !o->allow_missing;
    hp__buf_printf(b, "**MISSING in NEW**: %s.\n", why);
    hp__buf_printf(tail, "- %s: %s: %s%s\n", o->allow_missing ? "note" : "fail", oc->name, why,
                   o->allow_missing ? " (allowed)" : "");
    return 0;
  }
  if ((r = hp__compare_md(oc->s, nc->s, o, &md, &nf)) != 0)
    return r;
  hp__buf_adds(b, md);
  if (nf)
    hp__buf_printf(tail, "- fail: %s: %zu failing comparison%s (its section above)\n", oc->name, nf,
                   nf == 1 ? "" : "s");
  *failures += nf;
  free(md);
  return 0;
}

int hp__sweep_compare(const hp_session *old_s, const hp_session *new_s, const hp_compare_opts *o,
                      char **md, size_t *failures)
{
  hp__buf b = HP__BUF_INIT, tail = HP__BUF_INIT;
  size_t k;
  int r = 0;

  *md = NULL;
  *failures = 0;
  if ((old_s->ncombos > 0) != (new_s->ncombos > 0))
    return HP_ENOTSUP;
  hp__buf_printf(&b,
                 "# hprun compare of sweeps: `%s` → `%s`\n\n%zu combination%s in OLD, %zu "
                 "in NEW, matched by name; each pair is compared as two sessions are.\n",
                 old_s->name ? old_s->name : "?", new_s->name ? new_s->name : "?", old_s->ncombos,
                 old_s->ncombos == 1 ? "" : "s", new_s->ncombos);
  for (k = 0; k < old_s->ncombos && r == 0; k++)
    r = compare_one(&b, &tail, &old_s->combos[k], new_s, o, failures);
  for (k = 0; k < new_s->ncombos; k++)
    if (find_combo(old_s, new_s->combos[k].name) == NULL)
      hp__buf_printf(&tail, "- note: %s: a new combination (not in OLD)\n", new_s->combos[k].name);
  hp__buf_printf(&b,
                 "\n# all combinations\n\n%zu failing comparison%s over %zu "
                 "combination%s.\n",
                 *failures, *failures == 1 ? "" : "s", old_s->ncombos,
                 old_s->ncombos == 1 ? "" : "s");
  if (tail.len)
    hp__buf_printf(&b, "\n%s", tail.data);
  if (r == 0)
    r = hp__buf_error(&tail);
  hp__buf_free(&tail);
  if (r != 0) {
    hp__buf_free(&b);
    return r;
  }
  /* NULL, the partial text freed, when an append to b failed. */
  *md = hp__buf_steal(&b);
  return *md ? 0 : HP_ENOMEM;
}
