/*
 * A session: the plan's build, then every scheduled run of every pass and variant, one at a time,
 * each in its own new folder <output>/<name>-<YYYYmmdd-HHMMSS>/<pass>/<k>/, then analysis and
 * reports. Contract and folder layout: docs/internals/session.md and docs/summary.md.
 *
 * Why one run at a time: passes share the GPU, and two runs at once would perturb each other more
 * than any profiler does.
 */
#include "analyze/metric.h"
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "exec/runner.h"
#include "session/manifest.h"
#include "tool/driver.h"
#include "util/buf.h"
#include "util/fsutil.h"
#include "util/strv.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One unit of the schedule: a plan pass or an A/B variant. */
typedef struct unit {
  const hp_pass *pass;       /* NULL for a variant */
  const hp_variant *variant; /* NULL for a pass */
  const char *name;
  hp_strv app;     /* resolved argv of the program */
  char **env;      /* the environment its runs get */
  char *tool_path; /* the profiler, for profiled passes */
  const hp__driver *driver;
  double timeout;
} unit;

typedef struct slot {
  size_t unit;
  int warmup;
  int k; /* 1-based index among this unit's counted (or warmup) runs */
} slot;

typedef struct session_ctx {
  const hp_plan *plan;
  const hp_run_opts *opts;
  hp_diags *diags;
  uv_loop_t loop;
  uv_signal_t sigint, sigterm;
  int stopping;
  unit *units;
  size_t nunits;
  slot *slots;
  size_t nslots;
  hp__metrics *metrics;
  char *app_cwd;        /* absolute folder relative app paths are resolved against */
  char **base_env;      /* env_script's environment, or NULL for hprun's own */
  hp_strv sampler;      /* device-memory sampler command, empty when none */
  double sampler_scale; /* its readings times this give MiB */
  char *sampler_note;   /* why memory is not sampled, or NULL */
  hp_session *s;
} session_ctx;

static char *now_iso(void)
{
  char tmp[32];
  time_t t = time(NULL);
  struct tm tm;

  gmtime_r(&t, &tm);
  strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return hp__strdup(tmp);
}

static FILE *logfp(const session_ctx *c)
{
  return c->opts->log ? c->opts->log : stderr;
}

static void on_signal(uv_signal_t *h, int signum)
{
  session_ctx *c = h->data;

  if (!c->stopping)
    fprintf(logfp(c),
            "hprun: %s received: stopping the current run, keeping what was measured"
            " (again to kill at once)\n",
            signum == SIGINT ? "SIGINT" : "SIGTERM");
  c->stopping++;
  hp__child_stop_current();
}

/* Makes `p` absolute against `base` (both may be relative to the current folder). */
static char *absolute(const char *base, const char *p)
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

/* Creates <parent>/<name>-<stamp>[-N] with mkdir(2), which fails when the folder exists, so a
 * session folder is never reused, not even by two hprun started in the same second. */
static int make_session_dir(const char *parent, const char *name, char **out)
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
    if (dir == NULL)
      return HP_ENOMEM;
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

/* Resolves the program of an argv: a word with a slash is made absolute against the app's folder
 * (runs start in their own folder, so a relative path would break); a bare name is looked up on
 * PATH now, so a typo fails before anything runs. */
static int resolve_program(session_ctx *c, const char *cwd, hp_strv *argv, const char *what,
                           long line)
{
  char *p = NULL;
  int r;

  if (argv->n == 0)
    return HP_EINVAL;
  if (strchr(argv->v[0], '/')) {
    p = absolute(cwd, argv->v[0]);
    if (p == NULL)
      return HP_ENOMEM;
    if (access(p, X_OK) != 0 && !c->opts->dry_run) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, line, 0,
                   "%s: program '%s' does not exist or is not executable (%s)", what, p,
                   strerror(errno));
      free(p);
      return HP_ENOENT;
    }
  } else {
    r = hp__which(argv->v[0], &p);
    if (r == HP_ENOENT) {
      if (c->opts->dry_run)
        return 0;
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, line, 0,
                   "%s: program '%s' not found on PATH", what, argv->v[0]);
      return HP_ENOENT;
    }
    if (r)
      return r;
  }
  free(argv->v[0]);
  argv->v[0] = p;
  return 0;
}

/* The environment of a unit's runs: the base (env_script's or hprun's), the app's `env:` and a few
 * HPRUN_ variables that tell the program where it runs. */
static char **unit_env(session_ctx *c, const hp_app *app)
{
  hp_kv *set;
  char **env;
  size_t i, n = 0;

  set = calloc(app->nenv + c->plan->app.nenv + 1, sizeof(*set));
  if (set == NULL)
    return NULL;
  for (i = 0; i < c->plan->app.nenv; i++)
    set[n++] = c->plan->app.env[i];
  if (app != &c->plan->app)
    for (i = 0; i < app->nenv; i++)
      set[n++] = app->env[i];
  env = hp__env_build(c->base_env, set, n);
  free(set);
  return env;
}

static int setup_units(session_ctx *c)
{
  const hp_plan *plan = c->plan;
  size_t i;
  int r;

  c->nunits = plan->npasses + plan->nvariants;
  c->units = calloc(c->nunits, sizeof(*c->units));
  if (c->units == NULL)
    return HP_ENOMEM;
  for (i = 0; i < plan->npasses; i++) {
    unit *u = &c->units[i];
    const hp_pass *p = &plan->passes[i];
    u->pass = p;
    u->name = p->name;
    u->timeout = p->timeout > 0 ? p->timeout : plan->app.timeout;
    if ((r = hp__strv_copy(&u->app, &plan->app.command)) != 0)
      return r;
    if ((r = resolve_program(c, c->app_cwd, &u->app, "app.command", 0)) != 0)
      return r;
    if ((u->env = unit_env(c, &plan->app)) == NULL)
      return HP_ENOMEM;
    if (hp__mode_is_generic(p->mode))
      continue;
    u->driver = hp__driver_find(p->tool ? p->tool : plan->profiler.tool);
    if (u->driver == NULL)
      return HP_ENOTSUP;
    if (plan->profiler.path && !p->tool) {
      u->tool_path = absolute(plan->dir, plan->profiler.path);
      if (u->tool_path == NULL)
        return HP_ENOMEM;
      if (access(u->tool_path, X_OK) && !c->opts->dry_run) {
        hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                     "pass '%s': profiler '%s' (profiler.path) is not executable", p->name,
                     u->tool_path);
        return HP_ENOENT;
      }
    } else {
      const char *tool = hp__driver_name(u->driver);
      r = hp__which(tool, &u->tool_path);
      if (r == HP_ENOENT) {
        if (c->opts->dry_run) {
          u->tool_path = hp__strdup(tool);
          continue;
        }
        hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                     "pass '%s': profiler '%s' not found on PATH (set profiler.path, or "
                     "profiler.env_script to a DTK env.sh)",
                     p->name, tool);
        return HP_ENOENT;
      }
      if (r)
        return r;
    }
  }
  for (i = 0; i < plan->nvariants; i++) {
    unit *u = &c->units[plan->npasses + i];
    const hp_variant *v = &plan->variants[i];
    const hp_app *app = v->app.command.n ? &v->app : &plan->app;
    char *vcwd;
    u->variant = v;
    u->name = v->name;
    u->timeout = v->app.timeout > 0 ? v->app.timeout : plan->app.timeout;
    if ((r = hp__strv_copy(&u->app, &app->command)) != 0)
      return r;
    vcwd = v->app.cwd ? absolute(plan->dir, v->app.cwd) : hp__strdup(c->app_cwd);
    if (vcwd == NULL)
      return HP_ENOMEM;
    r = resolve_program(c, vcwd, &u->app, "variant command", v->line);
    free(vcwd);
    if (r)
      return r;
    if ((u->env = unit_env(c, &v->app)) == NULL)
      return HP_ENOMEM;
  }
  return 0;
}

/* Lays out every run in order. Warmup rounds come first; then each counted round visits every unit
 * once: in plan order (interleaved), reversed on every other round (abba), or shuffled with the
 * plan's seed (random). `sequential` runs each unit's warmups and counted runs back to back. */
static int make_schedule(session_ctx *c)
{
  const hp_plan *plan = c->plan;
  int repeat = c->opts->repeat > 0 ? c->opts->repeat : plan->repeat;
  int rounds = plan->warmup + repeat, rd;
  size_t *perm, i, n = 0;
  hp_rng rng;

  c->nslots = (size_t)rounds * c->nunits;
  c->slots = calloc(c->nslots ? c->nslots : 1, sizeof(*c->slots));
  perm = calloc(c->nunits ? c->nunits : 1, sizeof(*perm));
  if (c->slots == NULL || perm == NULL) {
    free(perm);
    return HP_ENOMEM;
  }
  hp_rng_seed(&rng, plan->seed);
  if (plan->order == HP_ORDER_SEQUENTIAL) {
    for (i = 0; i < c->nunits; i++)
      for (rd = 0; rd < rounds; rd++) {
        slot *s = &c->slots[n++];
        s->unit = i;
        s->warmup = rd < plan->warmup;
        s->k = s->warmup ? rd + 1 : rd - plan->warmup + 1;
      }
    free(perm);
    return 0;
  }
  for (rd = 0; rd < rounds; rd++) {
    for (i = 0; i < c->nunits; i++)
      perm[i] = i;
    if (plan->order == HP_ORDER_ABBA && rd % 2 == 1)
      for (i = 0; i < c->nunits / 2; i++) {
        size_t t = perm[i];
        perm[i] = perm[c->nunits - 1 - i];
        perm[c->nunits - 1 - i] = t;
      }
    else if (plan->order == HP_ORDER_RANDOM)
      hp_rng_shuffle(&rng, perm, c->nunits);
    for (i = 0; i < c->nunits; i++) {
      slot *s = &c->slots[n++];
      s->unit = perm[i];
      s->warmup = rd < plan->warmup;
      s->k = s->warmup ? rd + 1 : rd - plan->warmup + 1;
    }
  }
  free(perm);
  return 0;
}

/* Expands a `command` pass's template: the word {app} becomes the app's whole argv; {dir} inside
 * any word becomes the run folder. */
static int expand_template(const hp_strv *tmpl, const hp_strv *app, const char *dir, hp_strv *out)
{
  size_t i;
  int r = 0;

  out->v = NULL;
  out->n = 0;
  for (i = 0; i < tmpl->n && !r; i++) {
    const char *w = tmpl->v[i], *p;
    hp__buf b = HP__BUF_INIT;
    if (strcmp(w, "{app}") == 0) {
      r = hp__strv_append(out, app);
      continue;
    }
    while ((p = strstr(w, "{dir}")) != NULL) {
      r |= hp__buf_add(&b, w, (size_t)(p - w));
      r |= hp__buf_adds(&b, dir);
      w = p + 5;
    }
    r |= hp__buf_adds(&b, w);
    if (r) {
      hp__buf_free(&b);
      break;
    }
    r = hp__strv_push_own(out, hp__buf_steal(&b));
  }
  if (r)
    hp_strv_free(out);
  return r;
}

/* The argv of one run. */
static int run_argv(session_ctx *c, const unit *u, const char *dir, hp_strv *out)
{
  hp__run_spec rs;
  char *found = NULL;
  int r;

  if (u->variant || strcmp(u->pass->mode, "normal") == 0)
    return hp__strv_copy(out, &u->app);
  if (strcmp(u->pass->mode, "command") == 0) {
    r = expand_template(&u->pass->command, &u->app, dir, out);
    if (r == 0 && out->n && !strchr(out->v[0], '/') && !c->opts->dry_run &&
        hp__which(out->v[0], &found) == HP_ENOENT) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, u->pass->line, 0,
                   "pass '%s': program '%s' not found on PATH", u->pass->name, out->v[0]);
      hp_strv_free(out);
      return HP_ENOENT;
    }
    free(found);
    return r;
  }
  memset(&rs, 0, sizeof(rs));
  rs.plan = c->plan;
  rs.pass = u->pass;
  rs.tool_path = u->tool_path;
  rs.run_dir = dir;
  rs.app = &u->app;
  return hp__driver_argv(u->driver, &rs, out);
}

/* Lists the files a run left in its folder (recursively), except our own stdout/stderr copies. */
static int list_files(const char *root, const char *rel, hp_strv *out)
{
  char *path = rel[0] ? hp__path_join(root, rel) : hp__strdup(root);
  struct dirent **ents = NULL;
  int n, i, r = 0;

  if (path == NULL)
    return HP_ENOMEM;
  n = scandir(path, &ents, NULL, alphasort);
  for (i = 0; i < n; i++) {
    const char *name = ents[i]->d_name;
    char *sub, *full;
    struct stat st;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || r)
      goto next;
    if (!rel[0] &&
        (strcmp(name, "stdout.txt") == 0 || strcmp(name, "stderr.txt") == 0 ||
         strcmp(name, "hprun-memory.txt") == 0))
      goto next;
    sub = rel[0] ? hp__asprintf("%s/%s", rel, name) : hp__strdup(name);
    full = hp__path_join(path, name);
    if (sub == NULL || full == NULL) {
      free(sub);
      free(full);
      r = HP_ENOMEM;
      goto next;
    }
    if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
      r = list_files(root, sub, out);
      free(sub);
    } else {
      r = hp__strv_push_own(out, sub);
    }
    free(full);
  next:
    free(ents[i]);
  }
  free(ents);
  free(path);
  return r;
}

/* Reads the app's own launch count (`launches=N`) from a run's stdout, -1 if absent. */
static long long find_launches(const char *text)
{
  const char *p = text, *last = NULL;

  while ((p = strstr(p, "launches=")) != NULL) {
    if (p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t')
      last = p;
    p += 9;
  }
  return last ? strtoll(last + 9, NULL, 10) : -1;
}

static int do_run(session_ctx *c, const slot *sl, hp_pass_result *pr, hp_run *run, int round)
{
  const unit *u = &c->units[sl->unit];
  hp__child_spec spec;
  hp__child_result res;
  hp_strv argv = {NULL, 0};
  char *dir = NULL, *outp = NULL, *errp = NULL, *text = NULL, *memp = NULL, prefix[160];
  char **env = NULL;
  size_t len = 0;
  int r;

  run->index = sl->warmup ? 0 : sl->k;
  run->warmup = sl->warmup;
  run->round = round;
  run->max_rss_kb = -1;
  run->mem_mean_mib = run->mem_peak_mib = NAN;
  run->values = malloc((c->plan->nmetrics ? c->plan->nmetrics : 1) * sizeof(double));
  run->dir = sl->warmup ? hp__asprintf("%s/warmup-%d", u->name, sl->k)
                        : hp__asprintf("%s/%d", u->name, sl->k);
  if (run->values == NULL || run->dir == NULL)
    return HP_ENOMEM;
  for (size_t i = 0; i < c->plan->nmetrics; i++)
    run->values[i] = NAN;
  dir = hp__path_join(c->s->dir, run->dir);
  if (dir == NULL)
    return HP_ENOMEM;
  if ((r = hp__mkdirs(dir, 0755)) != 0)
    goto fail;
  if ((r = run_argv(c, u, dir, &argv)) != 0)
    goto fail;
  run->command = hp__strv_shell_join(&argv);
  outp = hp__path_join(dir, "stdout.txt");
  errp = hp__path_join(dir, "stderr.txt");
  if (run->command == NULL || outp == NULL || errp == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  snprintf(prefix, sizeof(prefix), "[%s %s%d] ", u->name, sl->warmup ? "warmup " : "", sl->k);
  fprintf(logfp(c), "hprun: %s%s run %d: %s\n", u->name, sl->warmup ? " warmup" : "", sl->k,
          run->command);

  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  {
    /* Each run learns where it is: scripts and seeded test programs use these. */
    char round_s[24], idx_s[24];
    hp_kv run_env[6];
    snprintf(round_s, sizeof(round_s), "%d", round);
    snprintf(idx_s, sizeof(idx_s), "%d", sl->k);
    run_env[0].key = "HPRUN_PASS";
    run_env[0].value = (char *)u->name;
    run_env[1].key = "HPRUN_RUN";
    run_env[1].value = idx_s;
    run_env[2].key = "HPRUN_WARMUP";
    run_env[2].value = sl->warmup ? "1" : "0";
    run_env[3].key = "HPRUN_ROUND";
    run_env[3].value = round_s;
    run_env[4].key = "HPRUN_RUN_DIR";
    run_env[4].value = dir;
    run_env[5].key = "HPRUN_APP_CWD";
    run_env[5].value = c->app_cwd;
    if ((env = hp__env_build(u->env, run_env, 6)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
  }
  spec.env = env;
  spec.cwd = dir;
  spec.timeout_s = u->timeout;
  spec.grace_s = c->opts->grace_s;
  spec.profiled = u->driver != NULL;
  spec.stdout_path = outp;
  spec.stderr_path = errp;
  spec.echo = c->opts->quiet ? NULL : logfp(c);
  spec.prefix = prefix;
  if (c->sampler.n) {
    spec.sampler = &c->sampler;
    spec.sampler_scale = c->sampler_scale;
    spec.sampler_path = memp = hp__path_join(dir, "hprun-memory.txt");
  }
  r = hp__child_run(&c->loop, &spec, &res);
  if (r == HP_ESPAWN) {
    run->error = hp__asprintf("could not start '%s': %s", argv.v[0], uv_strerror(res.spawn_error));
    fprintf(logfp(c), "hprun: %s\n", run->error ? run->error : "could not start");
    r = 0;
  } else if (r) {
    goto fail;
  }
  run->exit_status = res.exit_status;
  run->term_signal = res.term_signal;
  run->timed_out = res.timed_out;
  run->interrupted = res.interrupted;
  run->wall_ms = res.wall_ms;
  run->max_rss_kb = res.max_rss_kb;
  run->mem_mean_mib = res.mem_mean_mib;
  run->mem_peak_mib = res.mem_peak_mib;
  run->mem_samples = res.mem_samples;
  if (res.sampler_error && !pr->mem_note)
    pr->mem_note = hp__asprintf("the sampler could not start: %s", uv_strerror(res.sampler_error));
  if (res.timed_out)
    fprintf(logfp(c), "hprun: %s run %d timed out after %g s; its process group was stopped\n",
            u->name, sl->k, u->timeout);

  if (hp__read_file(outp, &text, &len) == 0) {
    hp__metrics_scan(c->metrics, text, len, run->values);
    if (!sl->warmup && pr->app_launches < 0)
      pr->app_launches = find_launches(text);
  }
  if ((r = list_files(dir, "", &run->files)) != 0)
    goto fail;
  run->ok = !run->error && res.exit_status == 0 && !res.term_signal && !res.timed_out &&
      !res.interrupted && c->plan->nmetrics > 0 && !isnan(run->values[0]);

fail:
  hp_strv_free(&argv);
  free(text);
  free(dir);
  free(outp);
  free(errp);
  free(memp);
  hp__env_free(env);
  return r;
}

/* Runs the plan's build command once, in the app's folder, logging into <session>/build/. */
static int do_build(session_ctx *c)
{
  hp__child_spec spec;
  hp__child_result res;
  hp_strv argv = {NULL, 0};
  char *dir = NULL, *outp = NULL, *errp = NULL, *log = NULL;
  size_t len;
  int r;

  if (c->plan->app.build.n == 0)
    return 0;
  if ((r = hp__strv_copy(&argv, &c->plan->app.build)) != 0)
    return r;
  dir = hp__path_join(c->s->dir, "build");
  outp = dir ? hp__path_join(dir, "stdout.txt") : NULL;
  errp = dir ? hp__path_join(dir, "stderr.txt") : NULL;
  if (outp == NULL || errp == NULL || hp__mkdirs(dir, 0755)) {
    r = HP_EIO;
    goto fail;
  }
  fprintf(logfp(c), "hprun: build: %s\n", argv.v[0]);
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.cwd = c->app_cwd;
  spec.env = c->units[0].env;
  spec.stdout_path = outp;
  spec.stderr_path = errp;
  spec.echo = c->opts->quiet ? NULL : logfp(c);
  spec.prefix = "[build] ";
  r = hp__child_run(&c->loop, &spec, &res);
  if (r || res.exit_status || res.term_signal || res.interrupted) {
    c->s->error = hp__asprintf("the build failed (%s); its log is in %s",
                               r                     ? uv_strerror(res.spawn_error)
                                   : res.interrupted ? "interrupted"
                                   : res.term_signal ? "killed by a signal"
                                                     : "non-zero exit",
                               dir);
    /* Show the end of the log: the error is almost always there. */
    if (c->opts->quiet && hp__read_file(errp, &log, &len) == 0) {
      const char *tail = len > 2000 ? log + len - 2000 : log;
      fprintf(logfp(c), "hprun: build stderr (end):\n%s\n", tail);
    }
    r = HP_ERUN;
  }

fail:
  free(log);
  hp_strv_free(&argv);
  free(dir);
  free(outp);
  free(errp);
  return r;
}

static void free_ctx(session_ctx *c)
{
  size_t i;

  for (i = 0; i < c->nunits && c->units; i++) {
    hp_strv_free(&c->units[i].app);
    hp__env_free(c->units[i].env);
    free(c->units[i].tool_path);
  }
  free(c->units);
  free(c->slots);
  hp__metrics_free(c->metrics);
  hp__env_free(c->base_env);
  hp_strv_free(&c->sampler);
  free(c->sampler_note);
  free(c->app_cwd);
}

/* Chooses the device-memory sampler. Query tools that can loop by themselves (nvidia-smi -lms)
 * run as one process per run; rocm-smi and hy-smi have no loop mode, so a small sh loop calls
 * them. Readings are the line's last number: MiB for nvidia-smi and commands, bytes for the
 * --csv output of rocm-smi/hy-smi. Device memory is the whole GPU's, not only the app's. */
static int setup_sampler(session_ctx *c)
{
  const char *tool = c->plan->sampler.tool ? c->plan->sampler.tool : "auto";
  double iv = c->plan->sampler.interval_ms > 0 ? c->plan->sampler.interval_ms : 2.0;
  static const char *const autos[] = {"nvidia-smi", "rocm-smi", "hy-smi", NULL};
  char *found = NULL, tmp[64];
  int i, r = 0;

  c->sampler_scale = 1.0;
  if (strcmp(tool, "none") == 0) {
    c->sampler_note = hp__strdup("sampler: none in the plan");
    return 0;
  }
  if (strcmp(tool, "command") == 0)
    return hp__strv_copy(&c->sampler, &c->plan->sampler.command);
  if (strcmp(tool, "auto") == 0) {
    for (i = 0; autos[i]; i++)
      if (hp__which(autos[i], &found) == 0)
        break;
    if (autos[i] == NULL) {
      c->sampler_note = hp__strdup("no GPU memory query tool on PATH (nvidia-smi, rocm-smi, "
                                   "hy-smi): device memory not sampled");
      return 0;
    }
    tool = autos[i];
  } else if (hp__which(tool, &found) != 0) {
    c->sampler_note = hp__asprintf("sampler %s not found on PATH: device memory not sampled", tool);
    return 0;
  }
  if (strcmp(tool, "nvidia-smi") == 0) {
    /* nvidia-smi counts physical GPUs; the app's first visible one is the one it uses. */
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    char gpu[16] = "0";
    if (vis && vis[0] >= '0' && vis[0] <= '9')
      snprintf(gpu, sizeof(gpu), "%ld", strtol(vis, NULL, 10));
    snprintf(tmp, sizeof(tmp), "%ld", (long)(iv < 1 ? 1 : iv));
    r |= hp__strv_push(&c->sampler, found);
    r |= hp__strv_push(&c->sampler, "--query-gpu=memory.used");
    r |= hp__strv_push(&c->sampler, "--format=csv,noheader,nounits");
    r |= hp__strv_push(&c->sampler, "-i");
    r |= hp__strv_push(&c->sampler, gpu);
    r |= hp__strv_push(&c->sampler, "-lms");
    r |= hp__strv_push(&c->sampler, tmp);
  } else {
    char *loop =
        hp__asprintf("while :; do \"$0\" --showmeminfo vram --csv; sleep %.3f; done", iv / 1000.0);
    c->sampler_scale = 1.0 / (1024.0 * 1024.0);
    r |= hp__strv_push(&c->sampler, "/bin/sh");
    r |= hp__strv_push(&c->sampler, "-c");
    r |= hp__strv_push_own(&c->sampler, loop);
    r |= hp__strv_push(&c->sampler, found);
  }
  free(found);
  return r ? HP_ENOMEM : 0;
}

/* Common preparation of a real or dry run: folders, environment, units, schedule. */
static int prepare(session_ctx *c)
{
  const hp_plan *plan = c->plan;
  int r;

  c->app_cwd = absolute(plan->dir, plan->app.cwd ? plan->app.cwd : ".");
  if (c->app_cwd == NULL)
    return HP_ENOMEM;
  if ((r = hp__metrics_new(plan, &c->metrics, c->diags)) != 0)
    return r;
  if (plan->profiler.env_script && !c->opts->dry_run) {
    char *script = absolute(plan->dir, plan->profiler.env_script);
    if (script == NULL)
      return HP_ENOMEM;
    r = hp__env_from_script(&c->loop, script, &c->base_env, c->diags);
    free(script);
    if (r)
      return r;
  }
  if ((r = setup_units(c)) != 0)
    return r;
  if ((r = setup_sampler(c)) != 0)
    return r;
  return make_schedule(c);
}

int hp_session_dry_run(const hp_plan *plan, const hp_run_opts *opts, FILE *fp, hp_diags *diags)
{
  session_ctx c;
  char *sdir = NULL;
  size_t i;
  int r;

  memset(&c, 0, sizeof(c));
  c.plan = plan;
  c.opts = opts;
  c.diags = diags;
  if (uv_loop_init(&c.loop))
    return HP_EIO;
  if ((r = prepare(&c)) != 0)
    goto fail;
  {
    /* The same folder a real run would use, resolved the same way (nothing is created). */
    char *parent = opts->output ? absolute(NULL, opts->output) : absolute(plan->dir, plan->output);
    sdir = parent ? hp__asprintf("%s/%s-<YYYYmmdd-HHMMSS>", parent, plan->name) : NULL;
    free(parent);
  }
  if (sdir == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if (plan->app.build.n) {
    char *b = hp__strv_shell_join(&plan->app.build);
    fprintf(fp, "build (in %s):\n  %s\n", c.app_cwd, b ? b : "?");
    free(b);
  }
  for (i = 0; i < c.nslots; i++) {
    const slot *sl = &c.slots[i];
    const unit *u = &c.units[sl->unit];
    hp_strv argv;
    char *dir = sl->warmup ? hp__asprintf("%s/%s/warmup-%d", sdir, u->name, sl->k)
                           : hp__asprintf("%s/%s/%d", sdir, u->name, sl->k);
    char *line;
    if (dir == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    /* A dry run never writes: rocprof's pmc input file is shown as an option only. */
    if (u->pass && u->driver && strcmp(u->pass->mode, "pmc") == 0 &&
        strcmp(hp__driver_name(u->driver), "rocprof") == 0) {
      fprintf(fp, "%3zu  %s\n     (rocprof -i <input file written at run time> ...)\n", i + 1, dir);
      free(dir);
      continue;
    }
    r = run_argv(&c, u, dir, &argv);
    if (r) {
      free(dir);
      goto fail;
    }
    line = hp__strv_shell_join(&argv);
    fprintf(fp, "%3zu  %s%s\n     %s\n", i + 1, dir, sl->warmup ? "  (warmup)" : "",
            line ? line : "?");
    if (u->driver && hp__driver_mode_doc(u->driver, u->pass->mode))
      fprintf(fp, "     (%s %s: %s)\n", hp__driver_name(u->driver), u->pass->mode,
              hp__driver_mode_doc(u->driver, u->pass->mode));
    free(line);
    free(dir);
    hp_strv_free(&argv);
  }

fail:
  free(sdir);
  free_ctx(&c);
  uv_run(&c.loop, UV_RUN_DEFAULT);
  uv_loop_close(&c.loop);
  return r;
}

int hp_session_run(const hp_plan *plan, const hp_run_opts *opts, hp_session **out, hp_diags *diags)
{
  session_ctx c;
  hp_session *s = NULL;
  char *parent = NULL;
  size_t i;
  int r, loop_ok = 0;

  *out = NULL;
  memset(&c, 0, sizeof(c));
  c.plan = plan;
  c.opts = opts;
  c.diags = diags;
  if (uv_loop_init(&c.loop))
    return HP_EIO;
  loop_ok = 1;
  /* Ctrl-C and SIGTERM are ours from here: the children lead their own process groups and do not
   * see a terminal's Ctrl-C, so we forward it. The handles are unreferenced so that they alone do
   * not keep a run's loop going. */
  uv_signal_init(&c.loop, &c.sigint);
  uv_signal_init(&c.loop, &c.sigterm);
  c.sigint.data = c.sigterm.data = &c;
  uv_signal_start(&c.sigint, on_signal, SIGINT);
  uv_signal_start(&c.sigterm, on_signal, SIGTERM);
  uv_unref((uv_handle_t *)&c.sigint);
  uv_unref((uv_handle_t *)&c.sigterm);

  s = calloc(1, sizeof(*s));
  if (s == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  c.s = s;
  if ((r = prepare(&c)) != 0)
    goto fail;

  parent = absolute(plan->dir, opts->output ? opts->output : plan->output);
  if (opts->output && parent) {
    /* A command-line --output is relative to where hprun was started, not to the plan. */
    free(parent);
    parent = absolute(NULL, opts->output);
  }
  if (parent == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = make_session_dir(parent, plan->name, &s->dir)) != 0) {
    hp_diags_add(diags, HP_DIAG_ERROR, parent, 0, 0, "cannot create a session folder: %s",
                 hp_strerror(r));
    goto fail;
  }
  s->name = hp__strdup(plan->name);
  s->plan_file = hp__strdup(plan->file);
  s->hprun_version = hp__strdup(HPRUN_VERSION);
  s->schema = HPRUN_SUMMARY_SCHEMA;
  s->started = now_iso();
  s->order = hp__strdup(plan->order == HP_ORDER_SEQUENTIAL   ? "sequential"
                            : plan->order == HP_ORDER_ABBA   ? "abba"
                            : plan->order == HP_ORDER_RANDOM ? "random"
                                                             : "interleaved");
  s->seed = plan->seed;
  s->repeat = opts->repeat > 0 ? opts->repeat : plan->repeat;
  s->warmup = plan->warmup;
  s->warn = plan->thresholds.warn;
  s->fail = plan->thresholds.fail;
  s->alpha = plan->thresholds.alpha;
  s->baseline = plan->baseline;
  s->npasses = c.nunits;
  s->passes = calloc(c.nunits, sizeof(*s->passes));
  if (!s->name || !s->started || !s->order || !s->passes) {
    r = HP_ENOMEM;
    goto fail;
  }
  fprintf(logfp(&c), "hprun: session folder %s\n", s->dir);
  {
    /* The plan as it was when the session ran, beside the results (its hash is in the manifest). */
    char *copy = hp__path_join(s->dir, "plan.yaml");
    if (copy == NULL ||
        (r = hp__write_file(copy, plan->text ? plan->text : "", plan->text ? plan->text_len : 0,
                            1)) != 0) {
      free(copy);
      r = r ? r : HP_ENOMEM;
      goto fail;
    }
    free(copy);
  }
  for (i = 0; i < c.nunits; i++) {
    hp_pass_result *pr = &s->passes[i];
    const unit *u = &c.units[i];
    if ((r = hp__pass_result_init(pr, plan->nmetrics)) != 0)
      goto fail;
    pr->name = hp__strdup(u->name);
    pr->mode = hp__strdup(u->pass ? u->pass->mode : "variant");
    pr->tool = u->driver ? hp__strdup(hp__driver_name(u->driver)) : NULL;
    pr->kernel = u->pass && u->pass->kernel ? hp__strdup(u->pass->kernel) : NULL;
    pr->is_baseline = u->pass && i == plan->baseline;
    pr->is_variant = u->variant != NULL;
    pr->is_reference = u->variant && u->variant->reference;
    pr->expect_distorted = u->pass && u->pass->expect_distorted;
    if (c.sampler_note && (pr->mem_note = hp__strdup(c.sampler_note)) == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
    /* Every run this unit will have, so results can be filled in place. */
    pr->runs = calloc((size_t)(s->repeat + s->warmup) + 1, sizeof(*pr->runs));
    if (pr->name == NULL || pr->mode == NULL || pr->runs == NULL) {
      r = HP_ENOMEM;
      goto fail;
    }
  }

  r = do_build(&c);
  if (r == 0) {
    for (i = 0; i < c.nslots && !c.stopping; i++) {
      hp_pass_result *pr = &s->passes[c.slots[i].unit];
      hp_run *run = &pr->runs[pr->nruns++];
      r = do_run(&c, &c.slots[i], pr, run, (int)i + 1);
      if (r)
        break;
      if (run->interrupted && !c.stopping)
        c.stopping = 1;
    }
    s->complete = r == 0 && !c.stopping && i == c.nslots;
  }
  s->interrupted = c.stopping > 0;
  s->finished = now_iso();
  /* Whatever stopped the schedule, what was measured is analysed and written down. */
  if (r && r != HP_ERUN && s->error == NULL)
    s->error = hp__asprintf("the session stopped early: %s", hp_strerror(r));
  {
    hp_strv tools = {NULL, 0};
    int r2;
    for (i = 0; i < c.nunits; i++) {
      size_t k;
      for (k = 0; k < tools.n; k++)
        if (c.units[i].tool_path && strcmp(tools.v[k], c.units[i].tool_path) == 0)
          break;
      if (c.units[i].tool_path && k == tools.n)
        hp__strv_push(&tools, c.units[i].tool_path);
    }
    hp__manifest_write(&c.loop, plan, s, &tools, c.base_env);
    hp_strv_free(&tools);
    hp__session_parse_profiles(s, plan->categories, plan->ncategories, diags);
    hp__session_analyze(s, plan);
    s->exit_code = hp__session_exit_code(s);
    r2 = hp_report_write_all(s);
    if (r2 && r == 0)
      r = r2;
    if (r == 0 && s->interrupted)
      r = HP_EINTR;
  }
  *out = s;
  s = NULL;

fail:
  free(parent);
  hp_session_free(s);
  free_ctx(&c);
  if (loop_ok) {
    uv_close((uv_handle_t *)&c.sigint, NULL);
    uv_close((uv_handle_t *)&c.sigterm, NULL);
    uv_run(&c.loop, UV_RUN_DEFAULT);
    uv_loop_close(&c.loop);
  }
  return r;
}
