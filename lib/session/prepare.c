/*
 * Preparing a session: everything that can be checked before the first run is checked here, so a
 * typo in a program name, a missing profiler or a bad metric pattern fails as a plan error before
 * anything is created or run. It resolves each unit's program, environment and profiler, chooses
 * the device-memory sampler and lays out the schedule (lib/schedule/).
 */
#include "exec/runner.h"
#include "plan/plan.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Programs a plan often names, for the "did you mean" of a typo. */
static const char *const known_programs[] = {
    "valgrind", "compute-sanitizer", "nsys",      "ncu",     "perf",   "strace", "ltrace",
    "gdb",      "numactl",           "taskset",   "python3", "python", "env",    "time",
    "hipprof",  "rocprof",           "rocprofv3", "rocgdb",  "mpirun", "srun",   NULL};

/* Resolves the program of an argv: a word with a slash is made absolute against the app's folder
 * (so it does not depend on where a run starts); a bare name is looked up on PATH now, so a typo
 * fails before anything runs. A dry run checks the same, so that it exits as the run would. */
static int resolve_program(hp__session_ctx *c, const char *cwd, hp_strv *argv, const char *what,
                           long line)
{
  char *p = NULL;
  int r;

  if (argv->n == 0)
    return HP_EINVAL;
  if (strchr(argv->v[0], '/')) {
    p = hp__session_abspath(cwd, argv->v[0]);
    if (p == NULL)
      return HP_ENOMEM;
    if (access(p, X_OK) != 0) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, line, 0,
                   "%s: program '%s' does not exist or is not executable (%s)", what, p,
                   strerror(errno));
      free(p);
      return HP_ENOENT;
    }
  } else {
    r = hp__which(argv->v[0], &p);
    if (r == HP_ENOENT) {
      const char *hint = hp__plan_suggest(argv->v[0], known_programs);
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, line, 0,
                   "%s: '%s' was not found on PATH%s%s%s", what, argv->v[0],
                   hint ? "; did you mean '" : " (give its path, or add its folder to PATH)",
                   hint ? hint : "", hint ? "'?" : "");
      return HP_ENOENT;
    }
    if (r)
      return r;
  }
  free(argv->v[0]);
  argv->v[0] = p;
  return 0;
}

/* The environment of a unit's runs: the base (env_script's or hprun's), the app's `env:` and a
 * variant's own `env:` (or a pass's, `own`) on top. */
static char **unit_env(hp__session_ctx *c, const hp_app *app, const hp_kv *own, size_t nown)
{
  hp_kv *set;
  char **env;
  size_t i, n = 0;

  set = calloc(app->nenv + c->plan->app.nenv + nown + 1, sizeof(*set));
  if (set == NULL)
    return NULL;
  for (i = 0; i < c->plan->app.nenv; i++)
    set[n++] = c->plan->app.env[i];
  if (app != &c->plan->app)
    for (i = 0; i < app->nenv; i++)
      set[n++] = app->env[i];
  for (i = 0; i < nown; i++)
    set[n++] = own[i];
  env = hp__env_build(c->base_env, set, n);
  free(set);
  return env;
}

/* Finds the profiler of a profiled pass: profiler.path when the pass uses the plan's tool, else
 * the tool's name on PATH. A dry run with env_script shows the bare name of a tool not found. */
static int find_tool(hp__session_ctx *c, hp__unit *u, const hp_pass *p)
{
  const hp_plan *plan = c->plan;
  const char *tool;
  int r;

  u->driver = hp__driver_find(p->tool ? p->tool : plan->profiler.tool);
  if (u->driver == NULL)
    return HP_ENOTSUP;
  if (plan->profiler.path && !p->tool) {
    u->tool_path = hp__session_abspath(plan->dir, plan->profiler.path);
    if (u->tool_path == NULL)
      return HP_ENOMEM;
    if (access(u->tool_path, X_OK)) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                   "pass '%s': profiler '%s' (profiler.path) is not executable", p->name,
                   u->tool_path);
      return HP_ENOENT;
    }
    return 0;
  }
  tool = hp__driver_name(u->driver);
  r = hp__which(tool, &u->tool_path);
  if (r == HP_ENOENT) {
    /* A dry run does not source env_script, which usually puts the profiler on PATH: it shows
     * the bare name then. Without one, it fails as the run would. */
    if (c->opts->dry_run && plan->profiler.env_script) {
      u->tool_path = hp__strdup(tool);
      return 0;
    }
    hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                 "pass '%s': profiler '%s' not found on PATH (set profiler.path, or "
                 "profiler.env_script to a DTK env.sh)",
                 p->name, tool);
    return HP_ENOENT;
  }
  return r;
}

/* A `command` pass's program (its template's first word once {app} and {dir} are filled in) is
 * checked like the app's, so that a misspelled wrapper fails before the baseline runs. */
static int check_wrapper(hp__session_ctx *c, hp__unit *u, const hp_pass *p)
{
  hp_strv argv = {NULL, 0, 0};
  char what[160];
  int r;

  if ((r = hp__run_argv(c, u, c->app_cwd, &argv)) != 0)
    return r;
  snprintf(what, sizeof(what), "pass '%s'", p->name);
  r = argv.n ? resolve_program(c, c->app_cwd, &argv, what, p->line) : 0;
  hp_strv_free(&argv);
  return r;
}

static int setup_pass(hp__session_ctx *c, hp__unit *u, const hp_pass *p)
{
  const hp_plan *plan = c->plan;
  int r;

  u->pass = p;
  u->name = p->name;
  /* --repeat overrides the plan's count, not a pass's own. */
  u->repeat = p->repeat > 0 ? p->repeat : c->opts->repeat > 0 ? c->opts->repeat : plan->repeat;
  u->timeout = p->timeout > 0 ? p->timeout : plan->app.timeout;
  if ((r = hp__strv_copy(&u->app, &plan->app.command)) != 0)
    return r;
  if ((r = resolve_program(c, c->app_cwd, &u->app, "app.command", 0)) != 0)
    return r;
  if ((u->env = unit_env(c, &plan->app, p->env, p->nenv)) == NULL)
    return HP_ENOMEM;
  if (!plan->app.workdir_run && (u->cwd = hp__strdup(c->app_cwd)) == NULL)
    return HP_ENOMEM;
  if (strcmp(p->mode, "command") == 0)
    return check_wrapper(c, u, p);
  if (hp__mode_is_generic(p->mode))
    return 0;
  return find_tool(c, u, p);
}

/* A variant runs its own command (or the app's), from its own folder (or the app's). */
static int setup_variant(hp__session_ctx *c, hp__unit *u, const hp_variant *v)
{
  const hp_plan *plan = c->plan;
  const hp_app *app = v->app.command.n ? &v->app : &plan->app;
  char *vcwd;
  int r;

  u->variant = v;
  u->name = v->name;
  u->repeat = c->opts->repeat > 0 ? c->opts->repeat : plan->repeat;
  u->timeout = v->app.timeout > 0 ? v->app.timeout : plan->app.timeout;
  if ((r = hp__strv_copy(&u->app, &app->command)) != 0)
    return r;
  vcwd = v->app.cwd ? hp__session_abspath(plan->dir, v->app.cwd) : hp__strdup(c->app_cwd);
  if (vcwd == NULL)
    return HP_ENOMEM;
  r = resolve_program(c, vcwd, &u->app, "variant command", v->line);
  if (r == 0 && !plan->app.workdir_run)
    u->cwd = vcwd;
  else
    free(vcwd);
  if (r)
    return r;
  if ((u->env = unit_env(c, &v->app, NULL, 0)) == NULL)
    return HP_ENOMEM;
  return 0;
}

/* Every unit's runs in order, each with its own count of counted runs. */
static int build_schedule(hp__session_ctx *c)
{
  int *repeats = calloc(c->nunits ? c->nunits : 1, sizeof(*repeats)), r;
  size_t i;

  if (repeats == NULL)
    return HP_ENOMEM;
  for (i = 0; i < c->nunits; i++)
    repeats[i] = c->units[i].repeat;
  r = hp__schedule_build(c->nunits, 0, repeats, c->plan->warmup, c->plan->order, c->plan->seed,
                         &c->slots, &c->nslots);
  free(repeats);
  return r;
}

static int setup_units(hp__session_ctx *c)
{
  const hp_plan *plan = c->plan;
  size_t i;
  int r;

  c->nunits = plan->npasses + plan->nvariants;
  c->units = calloc(c->nunits, sizeof(*c->units));
  if (c->units == NULL)
    return HP_ENOMEM;
  for (i = 0; i < plan->npasses; i++)
    if ((r = setup_pass(c, &c->units[i], &plan->passes[i])) != 0)
      return r;
  for (i = 0; i < plan->nvariants; i++)
    if ((r = setup_variant(c, &c->units[plan->npasses + i], &plan->variants[i])) != 0)
      return r;
  return 0;
}

/* nvidia-smi counts physical GPUs; the app's first visible one is the one it uses. It loops by
 * itself (-lms), so one process samples a whole run. */
static void sampler_nvidia(hp__session_ctx *c, const char *found, double iv)
{
  const char *vis = getenv("CUDA_VISIBLE_DEVICES");
  char gpu[16] = "0", tmp[64];

  if (vis && vis[0] >= '0' && vis[0] <= '9')
    snprintf(gpu, sizeof(gpu), "%ld", strtol(vis, NULL, 10));
  snprintf(tmp, sizeof(tmp), "%ld", (long)(iv < 1 ? 1 : iv));
  hp__strv_push(&c->sampler, found);
  hp__strv_push(&c->sampler, "--query-gpu=memory.used");
  hp__strv_push(&c->sampler, "--format=csv,noheader,nounits");
  hp__strv_push(&c->sampler, "-i");
  hp__strv_push(&c->sampler, gpu);
  hp__strv_push(&c->sampler, "-lms");
  hp__strv_push(&c->sampler, tmp);
}

/* rocm-smi and hy-smi have no loop mode, so a small sh loop calls them; their --csv output is in
 * bytes. */
static void sampler_smi_loop(hp__session_ctx *c, const char *found, double iv)
{
  char *loop =
      hp__asprintf("while :; do \"$0\" --showmeminfo vram --csv; sleep %.3f; done", iv / 1000.0);

  c->sampler_scale = 1.0 / (1024.0 * 1024.0);
  hp__strv_push(&c->sampler, "/bin/sh");
  hp__strv_push(&c->sampler, "-c");
  hp__strv_push_own(&c->sampler, loop); /* a NULL loop (no memory) is the vector's error */
  hp__strv_push(&c->sampler, found);
}

/* Chooses the device-memory sampler. Readings are the line's last number: MiB for nvidia-smi and
 * commands, bytes for rocm-smi/hy-smi. Device memory is the whole GPU's, not only the app's. A
 * sampler that cannot be found is a note in the results, never an error. */
static int setup_sampler(hp__session_ctx *c)
{
  const char *tool = c->plan->sampler.tool ? c->plan->sampler.tool : "auto";
  double iv = c->plan->sampler.interval_ms > 0 ? c->plan->sampler.interval_ms : 2.0;
  static const char *const autos[] = {"nvidia-smi", "rocm-smi", "hy-smi", NULL};
  char *found = NULL;
  int i;

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
  if (strcmp(tool, "nvidia-smi") == 0)
    sampler_nvidia(c, found, iv);
  else
    sampler_smi_loop(c, found, iv);
  free(found);
  return hp__strv_error(&c->sampler);
}

int hp__session_prepare(hp__session_ctx *c)
{
  const hp_plan *plan = c->plan;
  int r;

  c->app_cwd = hp__session_abspath(plan->dir, plan->app.cwd ? plan->app.cwd : ".");
  if (c->app_cwd == NULL)
    return HP_ENOMEM;
  if ((r = hp__metrics_new(plan, &c->metrics, c->diags)) != 0)
    return r;
  if (plan->profiler.env_script) {
    char *script = hp__session_abspath(plan->dir, plan->profiler.env_script);
    if (script == NULL)
      return HP_ENOMEM;
    /* A dry run sources nothing, but a missing script fails it as it would fail the run. */
    if (!c->opts->dry_run) {
      r = hp__env_from_script(&c->loop, script, &c->base_env, c->diags);
    } else if (access(script, R_OK) != 0) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, 0, 0,
                   "profiler.env_script '%s' cannot be read (%s)", script, strerror(errno));
      r = HP_ENOENT;
    }
    free(script);
    if (r)
      return r;
  }
  if ((r = setup_units(c)) != 0 || (r = hp__cluster_prepare(c)) != 0)
    return r;
  if ((r = setup_sampler(c)) != 0)
    return r;
  return build_schedule(c);
}

int hp__session_ctx_init(hp__session_ctx *c, const hp_plan *plan, const hp_run_opts *opts,
                         hp_diags *diags)
{
  memset(c, 0, sizeof(*c));
  c->plan = plan;
  c->opts = opts;
  c->diags = diags;
  c->dirfd = -1;
  return uv_loop_init(&c->loop) ? HP_EIO : 0;
}

void hp__session_ctx_free(hp__session_ctx *c)
{
  size_t i;

  for (i = 0; i < c->nunits && c->units; i++) {
    hp_strv_free(&c->units[i].app);
    hp__env_free(c->units[i].env);
    free(c->units[i].tool_path);
    free(c->units[i].cwd);
    hp__cwd_seen_free(&c->units[i].seen);
  }
  free(c->units);
  hp__schedule_free(c->slots);
  hp__metrics_free(c->metrics);
  hp__env_free(c->base_env);
  hp_strv_free(&c->sampler);
  free(c->sampler_note);
  free(c->app_cwd);
}
