/*
 * Preparing a session: everything that can be checked before the first run is checked here, so a
 * typo in a program name, a missing profiler or a bad metric pattern fails as a plan error before
 * anything is created or run. It resolves each unit's program, environment and profiler, chooses
 * the device-memory sampler and lays out the schedule (lib/schedule/).
 */
#include "analyze/results.h"
#include "exec/runner.h"
#include "plan/plan.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Programs a plan often names, for the "did you mean" of a typo. */
static const char *const known_programs[] = {
    "valgrind", "compute-sanitizer", "nsys",      "ncu",     "perf",   "strace", "ltrace",
    "gdb",      "numactl",           "taskset",   "python3", "python", "env",    "time",
    "hipprof",  "rocprof",           "rocprofv3", "rocgdb",  "mpirun", "srun",   NULL};

/* Resolves the program of an argv: a word with a slash is made absolute against the app's folder
 * (so it does not depend on where a run starts); a bare name is looked up now on the PATH the
 * runs get (env_script's, else hprun's), so a typo fails before anything runs. A dry run checks
 * the same, so that it exits as the run would. */
static int resolve_program(hp__session_ctx *c, const char *cwd, hp_strv *argv, const char *what,
                           long line)
{
  char *p = NULL;
  struct stat st;
  int r;

  if (argv->n == 0)
    return HP_EINVAL;
  if (strchr(argv->v[0], '/')) {
    p = hp__session_abspath(cwd, argv->v[0]);
    if (p == NULL)
      return HP_ENOMEM;
    if (access(p, X_OK) != 0 || (stat(p, &st) == 0 && S_ISDIR(st.st_mode))) {
      /* A folder passes access(X_OK) but can never be run. */
      hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, line, 0,
                   "%s: program '%s' does not exist or is not executable (%s)", what, p,
                   strerror(access(p, X_OK) != 0 ? errno : EISDIR));
      free(p);
      return HP_ENOENT;
    }
  } else {
    r = hp__which_env(argv->v[0], c->base_env, &p);
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

/* A tool that is a script hprun ships (torch's launcher) is found beside the binary: in
 * BIN/../share/hprun/, which is where `make install` puts it and, from a build folder next to the
 * sources, the repository's own share/hprun/. */
static int find_script(hp__session_ctx *c, hp__unit *u, const hp_pass *p)
{
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  char *slash;

  if (n > 0) {
    exe[n] = '\0';
    if ((slash = strrchr(exe, '/')) != NULL)
      *slash = '\0';
    u->tool_path = hp__asprintf("%s/../share/hprun/%s", exe, hp__driver_script(u->driver));
    if (u->tool_path == NULL)
      return HP_ENOMEM;
    if (access(u->tool_path, R_OK) == 0)
      return 0;
  }
  hp_diags_add(c->diags, HP_DIAG_ERROR, c->plan->file, p->line, 0,
               "pass '%s': hprun's launcher %s is not beside the hprun binary (%s); set "
               "profiler.path to it",
               p->name, hp__driver_script(u->driver), u->tool_path ? u->tool_path : "?");
  return HP_ENOENT;
}

/* Finds the profiler of a profiled pass: profiler.path when the pass uses the plan's tool, else
 * the tool's name on the runs' PATH, where env_script puts DTK's tools. */
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
  if (hp__driver_script(u->driver))
    return find_script(c, u, p);
  tool = hp__driver_name(u->driver);
  r = hp__which_env(tool, c->base_env, &u->tool_path);
  if (r == HP_ENOENT) {
    if (plan->profiler.env_script)
      hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                   "pass '%s': profiler '%s' is not on the PATH that profiler.env_script '%s' "
                   "leaves (set profiler.path, or fix the script)",
                   p->name, tool, plan->profiler.env_script);
    else
      hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, p->line, 0,
                   "pass '%s': profiler '%s' not found on PATH (set profiler.path, or "
                   "profiler.env_script to a DTK env.sh)",
                   p->name, tool);
    return HP_ENOENT;
  }
  return r;
}

/* The HP__CAP_* options the tool's own `-h` lists (tool/driver.h), read once per session and
 * tool: the help text is the one account of what an installed hipprof version accepts. A tool
 * whose help cannot be read gets none of them, and its files are moved in as before. */
static unsigned help_caps(hp__session_ctx *c, const char *tool)
{
  hp__buf cap = HP__BUF_INIT;
  hp_strv argv = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  unsigned caps = 0;

  if (c->help_tool && strcmp(c->help_tool, tool) == 0)
    return c->help_caps;
  /* Through sh, so that a help printed on stderr is read too (which stream DTK uses is not
   * recorded: the public copy of it was saved with 2>&1). */
  hp__strv_push(&argv, "/bin/sh");
  hp__strv_push(&argv, "-c");
  hp__strv_push(&argv, "exec \"$0\" -h 2>&1");
  hp__strv_push(&argv, tool);
  spec = (hp__child_spec){
      .argv = &argv, .env = c->base_env, .capture = &cap, .timeout_s = 10, .grace_s = 1};
  if (hp__strv_error(&argv) == 0 && hp__child_run(&c->loop, &spec, &res) == 0 && cap.data)
    caps = hp__driver_help_caps(cap.data);
  hp_strv_free(&argv);
  hp__buf_free(&cap);
  free(c->help_tool);
  c->help_tool = hp__strdup(tool);
  c->help_caps = caps;
  return caps;
}

/* 1 when the app's program starts its real work in a child: a shell or Python (by name), or a
 * script (a file that starts with "#!"). */
static int app_is_wrapper(const char *prog)
{
  static const char *const names[] = {"sh", "bash", "dash", "zsh", "ksh", "env", "torchrun", NULL};
  const char *b = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
  char head[2] = {0, 0};
  FILE *fp;
  int i;

  for (i = 0; names[i]; i++)
    if (strcmp(b, names[i]) == 0)
      return 1;
  if (strncmp(b, "python", 6) == 0)
    return 1;
  if ((fp = fopen(prog, "rb")) == NULL)
    return 0;
  i = fread(head, 1, 2, fp) == 2 && head[0] == '#' && head[1] == '!';
  fclose(fp);
  return i;
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
  unsigned caps;
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
  if ((r = find_tool(c, u, p)) != 0 || !hp__driver_reads_help(u->driver))
    return r;
  caps = help_caps(c, u->tool_path);
  u->caps = caps & (HP__CAP_OUTPUT | HP__CAP_DATA_DIR);
  if ((caps & HP__CAP_FOLLOW_FORK) && app_is_wrapper(u->app.v[0]))
    u->caps |= HP__CAP_FOLLOW_FORK;
  return 0;
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

/* Under `repeat: auto` the baseline runs ahead: a pass's first look (at min runs) needs more
 * baseline runs than min for its interval to exist at 1 - alpha / looks (10 against 3 at the
 * default min 3), and the baseline's runs cost a fraction of a profiled pass's, so it makes them
 * in the first min rounds. Its count grows by as many. Sets *lead; 0 runs when none is needed. */
static void auto_lead(hp__session_ctx *c, hp__lead *lead)
{
  const hp_plan *plan = c->plan;
  hp__unit *base = &c->units[plan->baseline];
  int min = plan->autorep.min, looks;

  lead->unit = plan->baseline;
  lead->runs = 0;
  lead->rounds = min;
  if (!plan->autorep.on || c->opts->repeat > 0 || base->pass == NULL || base->pass->repeat > 0)
    return;
  looks = hp__look_count(min, plan->autorep.max);
  lead->runs = hp__look_base(min, looks, plan->thresholds.alpha) - min;
  base->repeat += lead->runs;
}

/* Every unit's runs in order, each with its own count of counted runs. */
static int build_schedule(hp__session_ctx *c)
{
  int *repeats = calloc(c->nunits ? c->nunits : 1, sizeof(*repeats)), r;
  hp__lead lead;
  size_t i;

  if (repeats == NULL)
    return HP_ENOMEM;
  auto_lead(c, &lead);
  for (i = 0; i < c->nunits; i++) {
    repeats[i] = c->units[i].repeat;
    c->units[i].look = c->plan->autorep.min;
  }
  r = hp__schedule_build(c->nunits, 0, repeats, lead.runs ? &lead : NULL, c->plan->warmup,
                         c->plan->order, c->plan->seed, &c->slots, &c->nslots);
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

/* The value of `name` in the runs' environment: the app's `env:`, else the base environment. */
static const char *run_getenv(const hp__session_ctx *c, const char *name)
{
  size_t i, n = strlen(name);

  for (i = 0; i < c->plan->app.nenv; i++)
    if (strcmp(c->plan->app.env[i].key, name) == 0)
      return c->plan->app.env[i].value;
  for (i = 0; c->base_env && c->base_env[i]; i++)
    if (strncmp(c->base_env[i], name, n) == 0 && c->base_env[i][n] == '=')
      return c->base_env[i] + n + 1;
  return c->base_env ? NULL : getenv(name);
}

/* amdgpu's device-memory file of the app's first visible GPU: the k-th card (by number) under
 * <root>/class/drm/ that has device/mem_info_vram_used, k being the first entry of
 * HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES (0 without one, or for a UUID). The root is /sys;
 * HPRUN_TEST_SYSFS_ROOT replaces it, for hprun's tests only. NULL when there is none. */
static char *find_vram_file(const hp__session_ctx *c)
{
  const char *root = getenv("HPRUN_TEST_SYSFS_ROOT"), *vis = run_getenv(c, "HIP_VISIBLE_DEVICES");
  long want = 0, card, seen = 0;
  char *path;

  if (root == NULL || root[0] == '\0')
    root = "/sys";
  if (vis == NULL || vis[0] == '\0')
    vis = run_getenv(c, "ROCR_VISIBLE_DEVICES");
  if (vis && vis[0] >= '0' && vis[0] <= '9')
    want = strtol(vis, NULL, 10);
  /* Card numbers are small and dense; 64 covers the largest nodes. */
  for (card = 0; card < 64; card++) {
    path = hp__asprintf("%s/class/drm/card%ld/device/mem_info_vram_used", root, card);
    if (path == NULL)
      return NULL;
    if (access(path, R_OK) == 0 && seen++ == want)
      return path;
    free(path);
  }
  return NULL;
}

/* Chooses the device-memory sampler. Readings are the line's last number: MiB for nvidia-smi and
 * commands, bytes for rocm-smi/hy-smi. Device memory is the whole GPU's, not only the app's. A
 * sampler that cannot be found is a note in the results, never an error. */
static int setup_sampler(hp__session_ctx *c)
{
  const char *tool = c->plan->sampler.tool ? c->plan->sampler.tool : "auto";
  double iv = c->plan->sampler.interval_ms > 0 ? c->plan->sampler.interval_ms : 2.0;
  static const char *const autos[] = {"nvidia-smi", "hy-smi", "rocm-smi", NULL};
  char *found = NULL;
  int i;

  c->sampler_scale = 1.0;
  c->sampler_iv_ms = iv;
  if (strcmp(tool, "none") == 0) {
    c->sampler_note = hp__strdup("sampler: none in the plan");
    return 0;
  }
  /* On AMD and DCU, amdgpu's sysfs file is read in-process: no process per reading beside the
   * app being timed (a rocm-smi loop starts a Python interpreter each time). */
  if (strcmp(tool, "auto") == 0 || strcmp(tool, "sysfs") == 0) {
    if ((c->sampler_vram = find_vram_file(c)) != NULL)
      return 0;
    if (strcmp(tool, "sysfs") == 0) {
      c->sampler_note = hp__strdup("sampler sysfs: no mem_info_vram_used under "
                                   "/sys/class/drm/card*/device/: device memory not sampled");
      return 0;
    }
  }
  if (strcmp(tool, "command") == 0)
    return hp__strv_copy(&c->sampler, &c->plan->sampler.command);
  if (strcmp(tool, "auto") == 0) {
    for (i = 0; autos[i]; i++)
      if (hp__which_env(autos[i], c->base_env, &found) == 0)
        break;
    if (autos[i] == NULL) {
      c->sampler_note = hp__strdup("no amdgpu mem_info_vram_used in sysfs and no GPU memory "
                                   "query tool on PATH (nvidia-smi, hy-smi, rocm-smi): device "
                                   "memory not sampled");
      return 0;
    }
    tool = autos[i];
  } else if (hp__which_env(tool, c->base_env, &found) != 0) {
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
    /* A dry run sources it too: the script is what puts the node's tools on PATH, so without
     * it a dry run (or a check built on this) could not give the run's answer. */
    if (access(script, R_OK) != 0) {
      hp_diags_add(c->diags, HP_DIAG_ERROR, plan->file, 0, 0,
                   "profiler.env_script '%s' cannot be read (%s)", script, strerror(errno));
      r = HP_ENOENT;
    } else {
      r = hp__env_from_script(&c->loop, script, &c->base_env, c->diags);
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
  c->cwd_lock = -1;
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
  free(c->help_tool);
  free(c->sampler_vram);
  hp_strv_free(&c->sampler);
  free(c->sampler_note);
  free(c->app_cwd);
}
