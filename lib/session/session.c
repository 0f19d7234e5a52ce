/*
 * A session: the plan's build, then every scheduled run of every pass and variant, one at a time,
 * each in its own new folder <output>/<name>-<YYYYmmdd-HHMMSS>/<pass>/<k>/, then analysis and
 * reports. This file holds one session's run (hp__session_run_in, which hp_session_run in sweep.c
 * calls for a plan without parameters), the order of those steps and the session record; the
 * steps themselves are in the other files of this folder (session.h lists them). Contract and
 * folder layout: docs/internals/session.md and docs/summary.md.
 *
 * Why one run at a time: passes share the GPU, and two runs at once would perturb each other more
 * than any profiler does.
 */
#include "analyze/crosscheck.h"
#include "analyze/profiles.h"
#include "analyze/roofline.h"
#include "analyze/results.h"
#include "exec/runner.h"
#include "report/write_all.h"
#include "session/manifest.h"
#include "session/progress.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/base/strv.h"
#include "util/sys/fsutil.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_signal(uv_signal_t *h, int signum)
{
  hp__session_ctx *c = h->data;

  if (!c->stopping)
    fprintf(hp__session_log(c),
            "hprun: %s received: stopping the current run, keeping what was measured"
            " (again to kill at once)\n",
            signum == SIGINT ? "SIGINT" : "SIGTERM");
  c->stopping++;
  hp__child_stop_current();
}

/* Ctrl-C and SIGTERM are ours from here: the children lead their own process groups and do not
 * see a terminal's Ctrl-C, so we forward it. The handles are unreferenced so that they alone do
 * not keep a run's loop going. */
static void signals_start(hp__session_ctx *c)
{
  uv_signal_init(&c->loop, &c->sigint);
  uv_signal_init(&c->loop, &c->sigterm);
  c->sigint.data = c->sigterm.data = c;
  uv_signal_start(&c->sigint, on_signal, SIGINT);
  uv_signal_start(&c->sigterm, on_signal, SIGTERM);
  uv_unref((uv_handle_t *)&c->sigint);
  uv_unref((uv_handle_t *)&c->sigterm);
}

static const char *order_name(hp_order order)
{
  switch (order) {
  case HP_ORDER_SEQUENTIAL: return "sequential";
  case HP_ORDER_ABBA: return "abba";
  case HP_ORDER_RANDOM: return "random";
  default: return "interleaved";
  }
}

/* Names the combination a combination's plan was expanded for in its session record (s->combo,
 * s->params); nothing for another plan. 0 or HP_ENOMEM. */
static int sweep_label(const hp_plan *plan, hp_session *s)
{
  size_t i;

  if (plan->nparams == 0 || plan->combo < 0)
    return 0;
  if (hp_plan_combination_name(plan, (size_t)plan->combo, &s->combo) != 0)
    return HP_ENOMEM;
  if ((s->params = calloc(plan->nparams, sizeof(*s->params))) == NULL)
    return HP_ENOMEM;
  s->nparams = plan->nparams;
  for (i = 0; i < plan->nparams; i++) {
    s->params[i].key = hp__strdup(plan->params[i].name);
    s->params[i].value = hp__strdup(hp_plan_combination_value(plan, (size_t)plan->combo, i));
    if (s->params[i].key == NULL || s->params[i].value == NULL)
      return HP_ENOMEM;
  }
  return 0;
}

int hp__session_record_init(hp_session *s, const hp_plan *plan, const hp_run_opts *opts)
{
  s->name = hp__strdup(plan->name);
  s->plan_file = hp__strdup(plan->file);
  s->hprun_version = hp__strdup(HPRUN_VERSION);
  s->schema = HPRUN_SUMMARY_SCHEMA;
  s->started = hp__session_now_iso();
  s->seed = plan->seed;
  s->repeat = opts->repeat > 0 ? opts->repeat : plan->repeat;
  s->warmup = plan->warmup;
  s->warn = plan->thresholds.warn;
  s->fail = plan->thresholds.fail;
  s->alpha = plan->thresholds.alpha;
  s->strict = plan->thresholds.strict || opts->strict;
  /* `repeat: auto` looks at each pass several times: every interval is at 1 - alpha / looks. */
  s->looks = plan->autorep.on && opts->repeat <= 0
      ? hp__look_count(plan->autorep.min, plan->autorep.max)
      : 1;
  return s->name && s->started ? 0 : HP_ENOMEM;
}

/* The session's record: hp__session_record_init, and what only a session (not a sweep) has. */
static int record_init(hp__session_ctx *c)
{
  const hp_plan *plan = c->plan;
  hp_session *s = c->s;

  if (hp__session_record_init(s, plan, c->opts) != 0)
    return HP_ENOMEM;
  s->order = hp__strdup(order_name(plan->order));
  s->report_top = plan->report_top;
  s->baseline = plan->baseline;
  s->npasses = c->nunits;
  s->passes = calloc(c->nunits, sizeof(*s->passes));
  if (!s->order || !s->passes)
    return HP_ENOMEM;
  return sweep_label(plan, s);
}

/* Creates the session folder (held open from here on), fills the record and copies the plan in.
 * A failure here means nothing ran: the caller gets no session. */
static int session_open(hp__session_ctx *c)
{
  char *parent = hp__session_parent(c->plan, c->opts);
  int r;

  if (parent == NULL)
    return HP_ENOMEM;
  if ((r = c->sub
           ? hp__sweep_dir_make(c)
           : hp__session_dir_make(parent, c->plan->name, &c->s->dir, &c->dirfd, c->diags)) != 0)
    goto fail;
  if ((r = record_init(c)) != 0)
    goto fail;
  fprintf(hp__session_log(c), "hprun: session folder %s\n", c->s->dir);
  if ((r = hp__session_copy_plan(c->plan, c->dirfd)) != 0)
    r = hp__session_io_error(c, "create", "plan.yaml", hp__fs_errno(r));

fail:
  free(parent);
  return r;
}

/* One result per unit, with room for every run it will have, so results can be filled in place. */
static int passes_init(hp__session_ctx *c)
{
  hp_session *s = c->s;
  size_t i;
  int r;

  for (i = 0; i < c->nunits; i++) {
    hp_pass_result *pr = &s->passes[i];
    const hp__unit *u = &c->units[i];
    if ((r = hp__pass_result_init(pr, c->plan->nmetrics)) != 0)
      return r;
    pr->name = hp__strdup(u->name);
    pr->mode = hp__strdup(u->pass ? u->pass->mode : "variant");
    pr->tool = u->driver ? hp__strdup(hp__driver_name(u->driver)) : NULL;
    pr->kernel = u->pass && u->pass->kernel ? hp__strdup(u->pass->kernel) : NULL;
    pr->is_baseline = u->pass && i == c->plan->baseline;
    pr->is_variant = u->variant != NULL;
    pr->is_reference = u->variant && u->variant->reference;
    pr->expect_distorted = u->pass && u->pass->expect_distorted;
    if (c->sampler_note && (pr->mem_note = hp__strdup(c->sampler_note)) == NULL)
      return HP_ENOMEM;
    pr->runs = calloc((size_t)(u->repeat + s->warmup) + 1, sizeof(*pr->runs));
    if (pr->name == NULL || pr->mode == NULL || pr->runs == NULL)
      return HP_ENOMEM;
  }
  return 0;
}

/* After a unit's first run: when it failed, the baseline's stops the session (every comparison
 * needs it) and another unit's remaining runs are skipped, unless keep_going. Returns HP_ERUN when
 * the session stops. The first failed run of each unit is reported with the end of its stderr,
 * whether or not it stops anything, since the programs' output is not streamed by default. */
static int fail_fast(hp__session_ctx *c, hp__unit *u, const hp_pass_result *pr, const hp_run *run)
{
  int is_baseline = u->pass && (size_t)(u - c->units) == c->plan->baseline;

  if (!hp__run_failed(run) || u->failure_shown)
    return 0;
  u->failure_shown = 1;
  if (c->plan->keep_going || c->opts->keep_going || pr->nruns != 1) {
    hp__run_failed_show(c, u, run, "its other runs go on");
    return 0;
  }
  if (is_baseline) {
    hp__run_failed_show(c, u, run, "the session stops, since every pass is compared with it");
    c->s->error =
        hp__asprintf("the baseline's first run (%s) failed; the session stopped", run->dir);
    return HP_ERUN;
  }
  hp__run_failed_show(c, u, run, "its other runs are skipped");
  u->skip = 1;
  return 0;
}

/* Counted runs of a pass so far. */
static int counted(const hp_pass_result *pr)
{
  size_t i;
  int n = 0;

  for (i = 0; i < pr->nruns; i++)
    n += !pr->runs[i].warmup;
  return n;
}

/* Ends a unit's runs under `repeat: auto`, saying why. */
static void auto_stop(hp__session_ctx *c, size_t unit, const char *why)
{
  hp_pass_result *pr = &c->s->passes[unit];

  c->units[unit].done = 1;
  if (pr->stopped == NULL)
    pr->stopped = hp__strdup(why);
  hp__progress_pass_end(c, unit);
}

/* The progress line's list of open passes with their current intervals. */
static void auto_note(hp__session_ctx *c)
{
  size_t i, n = 0;
  int w;

  c->open_note[0] = '\0';
  for (i = 0; i < c->plan->npasses; i++) {
    const hp_metric_result *m = c->s->passes[i].metrics;
    if (c->units[i].done || i == c->plan->baseline || n >= sizeof(c->open_note) - 1)
      continue;
    w = isnan(m->ci_lo) ? snprintf(c->open_note + n, sizeof(c->open_note) - n, "%s%s",
                                   n ? ", " : "", c->units[i].name)
                        : snprintf(c->open_note + n, sizeof(c->open_note) - n, "%s%s [%.3g,%.3g]",
                                   n ? ", " : "", c->units[i].name, m->ci_lo, m->ci_hi);
    n += w > 0 ? (size_t)w : 0;
  }
}

/* Whether pass i is due for a look: open, judged by `repeat: auto` (no count of its own), at or
 * past its next planned look, and the baseline has the runs that look needs for an interval, or
 * will have no more (a count of its own, as `{mode: normal, repeat: 5}`). A look delayed for the
 * baseline (it runs after the pass in the round, as `abba` and `random` can order it) happens at
 * the baseline's run, with the pass's runs of then; the next planned look is the first one after
 * those, so a pass is still judged at most `looks` times. */
static int look_due(const hp__session_ctx *c, size_t i)
{
  const hp__unit *u = &c->units[i];
  size_t base = c->plan->baseline;
  int n = counted(&c->s->passes[i]);

  return i != base && u->pass && u->pass->repeat == 0 && !u->done && u->look && n >= u->look &&
      (c->units[base].done ||
       counted(&c->s->passes[base]) >= hp__look_base(n, c->s->looks, c->plan->thresholds.alpha));
}

/* `repeat: auto`, after a run of `unit`: the passes due for a look (this one, or every pass
 * after a baseline run) are judged and stop once resolved; a unit at its count stops at max; the
 * baseline stops when no profiling pass is open. Returns 0 or HP_ENOMEM. */
static int auto_after(hp__session_ctx *c, size_t unit)
{
  const hp_plan *plan = c->plan;
  hp_session *s = c->s;
  size_t i, base = plan->baseline;
  int r, open = 0, looked = 0;

  for (i = 0; i < plan->npasses; i++) {
    hp__unit *u = &c->units[i];
    if ((unit != base && i != unit) || !look_due(c, i))
      continue;
    if (!looked++ && (r = hp__session_look(s, plan)) != 0)
      return r;
    if (hp__pass_resolved(&s->passes[i], u->pass->precision > 0 ? u->pass->precision : 0.1))
      auto_stop(c, i, "resolved");
    u->look = hp__look_next(plan->autorep.min, plan->autorep.max, counted(&s->passes[i]));
  }
  if (looked)
    auto_note(c);
  if (!c->units[unit].done && counted(&s->passes[unit]) >= c->units[unit].repeat)
    auto_stop(c, unit, "max");
  for (i = 0; i < plan->npasses; i++)
    open += i != base && !c->units[i].done;
  if (!open && !c->units[base].done)
    auto_stop(c, base, "resolved");
  return 0;
}

/* `repeat: auto` with a budget: once it is spent, every open unit stops. Returns 1 then. */
static int auto_budget(hp__session_ctx *c, uint64_t t0)
{
  size_t i;

  if (!c->autorep || c->plan->autorep.budget_s <= 0 ||
      (double)(uv_hrtime() - t0) / 1e9 < c->plan->autorep.budget_s)
    return 0;
  for (i = 0; i < c->plan->npasses; i++)
    if (!c->units[i].done)
      auto_stop(c, i, "budget");
  return 1;
}

/* The build, then every slot until the end or a stop. A child stopped by a signal that hprun did
 * not see (sent to its group only) stops the schedule too. */
static int run_schedule(hp__session_ctx *c)
{
  hp_session *s = c->s;
  uint64_t t0 = uv_hrtime();
  size_t i;
  int r, spent = 0;

  if ((r = hp__run_build(c)) != 0 || (r = hp__cluster_open(c)) != 0 ||
      (r = hp__progress_open(c)) != 0) {
    hp__cluster_close(c);
    return r;
  }
  for (i = 0; i < c->nslots && !c->stopping && !(spent = auto_budget(c, t0)); i++) {
    hp_pass_result *pr = &s->passes[c->slots[i].unit];
    hp_run *run;
    if (c->units[c->slots[i].unit].done)
      continue; /* `repeat: auto`: this pass has stopped */
    run = &pr->runs[pr->nruns++];
    if (c->units[c->slots[i].unit].skip) {
      if ((r = hp__run_skip(c, &c->slots[i], run, (int)i + 1)) != 0)
        break;
      continue;
    }
    hp__progress_run_start(c, i);
    r = hp__run_one(c, &c->slots[i], pr, run, (int)i + 1);
    if (r)
      break;
    hp__progress_run_end(c, i, run);
    if (run->interrupted && !c->stopping)
      c->stopping = 1;
    if (!c->stopping && (r = fail_fast(c, &c->units[c->slots[i].unit], pr, run)))
      break;
    if (c->autorep && !run->warmup && !c->stopping && (r = auto_after(c, c->slots[i].unit)) != 0)
      break;
  }
  hp__progress_close(c);
  hp__cluster_close(c);
  /* Under `repeat: auto` a spent budget ends the session as planned: it is complete. */
  s->complete = r == 0 && !c->stopping && (i == c->nslots || spent);
  for (i = 0; c->autorep && c->stopping && i < c->plan->npasses; i++)
    if (!c->units[i].done)
      auto_stop(c, i, "interrupted");
  return r;
}

/* The profilers the session used, each once, for the manifest. */
static void used_tools(const hp__session_ctx *c, hp_strv *tools)
{
  size_t i, k;

  for (i = 0; i < c->nunits; i++) {
    for (k = 0; k < tools->n; k++)
      if (c->units[i].tool_path && strcmp(tools->v[k], c->units[i].tool_path) == 0)
        break;
    if (c->units[i].tool_path && k == tools->n)
      hp__strv_push(tools, c->units[i].tool_path);
  }
}

/* Whatever stopped the schedule (`r`), what was measured is analysed and written down: each file
 * on its own, so that one that cannot be written loses only itself. Returns the session's result:
 * HP_EIO when a file of the session could not be written (exit 4 wins, since something the user
 * relies on is missing), else r, else HP_EINTR when stopped. */
static int session_close(hp__session_ctx *c, int r)
{
  hp_session *s = c->s;
  hp_strv tools = {NULL, 0, 0};
  int w;

  s->interrupted = c->stopping > 0;
  s->finished = hp__session_now_iso();
  if (r && r != HP_ERUN && s->error == NULL)
    s->error = c->io_message ? hp__asprintf("the session stopped early: %s", c->io_message)
                             : hp__asprintf("the session stopped early: %s", hp_strerror(r));
  used_tools(c, &tools);
  if ((w = hp__manifest_write(&c->loop, c->plan, s, &tools, c->base_env, c->dirfd, &s->gpu_name)) ==
      0)
    s->written |= HP_WROTE_MANIFEST;
  else
    hp__session_io_error(c, "write", "manifest.json", hp__fs_errno(w));
  hp_strv_free(&tools);
  hp__session_parse_profiles(s, c->plan->categories, c->plan->ncategories, c->plan->app.region,
                             c->diags);
  hp__session_peaks(s, c->plan->roofline);
  hp__session_analyze(s, c->plan);
  hp__session_crosscheck(s, c->plan);
  s->exit_code = c->io_failed ? HP_EXIT_IO : hp__session_exit_code(s);
  if (hp__report_write_all_at(s, c->dirfd, c->diags, &s->written) != 0) {
    c->io_failed = 1;
    s->exit_code = HP_EXIT_IO;
  }
  if (c->io_failed)
    return HP_EIO;
  /* Only a complete session moves <name>-latest: an interrupted one never hides the last good. */
  if (s->complete && !s->interrupted && !c->sub &&
      (w = hp__session_link_latest(s->dir, c->plan->name)) != 0)
    fprintf(hp__session_log(c), "hprun: warning: cannot update %s-latest: %s\n", c->plan->name,
            strerror(hp__fs_errno(w)));
  if (r == 0 && s->interrupted)
    r = HP_EINTR;
  return r;
}

int hp__session_run_in(const hp_plan *plan, const hp_run_opts *opts, const hp__sweep_dir *sub,
                       hp_session **out, hp_diags *diags)
{
  hp__session_ctx c;
  int r;

  *out = NULL;
  if (hp__session_ctx_init(&c, plan, opts, diags))
    return HP_EIO;
  c.sub = sub;
  c.autorep = plan->autorep.on && opts->repeat <= 0;
  signals_start(&c);
  if ((c.s = calloc(1, sizeof(*c.s))) == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = hp__session_prepare(&c)) != 0 || (r = hp__cwd_lock(&c)) != 0 ||
      (r = session_open(&c)) != 0 || (r = passes_init(&c)) != 0)
    goto fail;
  r = session_close(&c, run_schedule(&c));
  *out = c.s;
  c.s = NULL;

fail:
  hp__cwd_unlock(&c);
  hp_session_free(c.s);
  hp__session_ctx_free(&c);
  if (c.dirfd >= 0)
    close(c.dirfd);
  free(c.io_message);
  uv_close((uv_handle_t *)&c.sigint, NULL);
  uv_close((uv_handle_t *)&c.sigterm, NULL);
  uv_run(&c.loop, UV_RUN_DEFAULT);
  uv_loop_close(&c.loop);
  return r;
}
