/*
 * A parameter sweep's judgement. Each combination is a session with its own judgement (flags,
 * causes, exit code, lib/analyze/flags.c and causes.c); the sweep only gathers them, so that a
 * CI job that gates on the sweep's exit code or reads its causes sees every combination's, and so
 * that a combination the sweep never reached is said, not silently missing.
 */
#include "analyze/results.h"
#include "analyze/sweep.h"
#include "util/base/buf.h"

#include <stdlib.h>

/* How bad an exit code is, for "the worst over the combinations": a file that could not be written
 * over an interruption over a failed run over a threshold over success, the order one session's
 * exit code follows (docs/ci.md). */
static int severity(int code)
{
  switch (code) {
  case HP_EXIT_OK: return 0;
  case HP_EXIT_THRESHOLD: return 1;
  case HP_EXIT_USAGE: return 2;
  case HP_EXIT_RUNFAIL: return 3;
  case HP_EXIT_INTERRUPTED: return 4;
  default: return 5; /* 4, and anything unknown */
  }
}

int hp__combo_exit_code(const hp_combo *cb)
{
  int code;

  if (cb->s == NULL)
    return HP_EXIT_RUNFAIL;
  code = cb->s->exit_code;
  if (cb->s->interrupted && severity(code) < severity(HP_EXIT_INTERRUPTED))
    code = HP_EXIT_INTERRUPTED;
  if (!cb->s->complete && severity(code) < severity(HP_EXIT_RUNFAIL))
    code = HP_EXIT_RUNFAIL;
  return code;
}

/* The causes of combination cb, each under its own name: "n=1/strace". */
static int copy_causes(hp_session *s, const hp_combo *cb)
{
  size_t i;
  int r = 0;

  for (i = 0; i < cb->s->ncauses && r == 0; i++) {
    const hp_cause *c = &cb->s->causes[i];
    char *pass = c->pass ? hp__asprintf("%s/%s", cb->name, c->pass) : hp__strdup(cb->name);
    r = pass ? hp__cause_add(&s->causes, &s->ncauses, c->kind, pass, c->text) : HP_ENOMEM;
    free(pass);
  }
  /* A combination stopped early without a cause of its own (its build failed, say): its error. */
  if (r == 0 && cb->s->ncauses == 0 && !cb->s->complete && !cb->s->interrupted)
    r = hp__cause_add(&s->causes, &s->ncauses, HP_CAUSE_RUN_FAILED, cb->name,
                      cb->s->error ? cb->s->error : "it stopped before its end");
  return r;
}

int hp__sweep_judge(hp_session *s)
{
  size_t i;
  int r = 0, worst = HP_EXIT_OK, code;

  hp__causes_free(s->causes, s->ncauses);
  s->causes = NULL;
  s->ncauses = 0;
  s->complete = s->ncombos > 0 && !s->interrupted; /* interrupted: set by the caller, kept */
  for (i = 0; i < s->ncombos && r == 0; i++) {
    const hp_combo *cb = &s->combos[i];
    code = hp__combo_exit_code(cb);
    if (severity(code) > severity(worst))
      worst = code;
    if (cb->s == NULL || !cb->s->complete)
      s->complete = 0;
    if (cb->s && cb->s->interrupted)
      s->interrupted = 1;
    if (cb->s)
      r = copy_causes(s, cb);
    else
      r = hp__cause_add(&s->causes, &s->ncauses,
                        s->interrupted ? HP_CAUSE_NOTE : HP_CAUSE_RUN_FAILED, cb->name,
                        s->interrupted ? "not run: the sweep was interrupted before it"
                                       : "not run: the sweep stopped before it (keep_going: true "
                                         "runs every combination)");
  }
  /* Interrupted between two combinations: no combination says so, the sweep does. */
  if (s->interrupted && severity(worst) < severity(HP_EXIT_INTERRUPTED))
    worst = HP_EXIT_INTERRUPTED;
  s->exit_code = worst;
  return r;
}
