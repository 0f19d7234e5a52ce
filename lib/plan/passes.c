/*
 * The `profiler` section and `passes`. Which tools exist and which modes each has is read from
 * the one tool table, lib/tool/driver.c; this file only judges a plan against it. Checks that
 * need every pass (names, the one baseline) run after all passes are read.
 */
#include "plan/plan.h"
#include "tool/driver.h"

#include <stdlib.h>
#include <string.h>

/* The largest `launch_count` accepted: like the limits on repeat and warmup, it turns a typo
 * into an error instead of a session that never ends. */
#define MAX_LAUNCH_COUNT 1000000000
/* A pass's own `repeat` has the plan's limit. */
#define MAX_PASS_REPEAT 100000

/* Name i of the modes of tool d (the generic ones included), or with d NULL of the tools. */
static const char *name_at(const hp__driver *d, size_t i)
{
  return d ? hp__driver_mode_at(d, i) : hp_tool_name(i);
}

/* Those names, NULL-terminated, for suggestions: read from the tool table so that a new tool or
 * mode is known here without a second list. The strings are the table's; free the array. */
static const char **names_of(const hp__driver *d)
{
  const char **v;
  size_t n = 0, i;

  while (name_at(d, n))
    n++;
  if ((v = calloc(n + 1, sizeof(*v))) == NULL)
    return NULL;
  for (i = 0; i < n; i++)
    v[i] = name_at(d, i);
  return v;
}

/* Reports an unknown tool name, with the closest known one as a hint; *ok says whether it is
 * known. */
static void check_tool(hp__loader *ld, const char *what, yaml_node_t *v, const char *tool, int *ok)
{
  const char **tools, *hint = NULL;

  *ok = hp__driver_find(tool) != NULL;
  if (*ok)
    return;
  if ((tools = names_of(NULL)) != NULL)
    hint = hp__plan_suggest(tool, tools);
  else
    ld->oom = 1;
  hp__plan_err(ld, v, "`%s`: unknown profiler '%.80s' (known: %s%s%s%s)", what, tool,
               hp__driver_tools(), hint ? "; did you mean `" : "", hint ? hint : "",
               hint ? "`?" : "");
  free(tools);
}

enum {
  P_TOOL,
  P_PATH,
  P_ENV_SCRIPT,
  P_ARGS,
  P_N
};
static const char *const profiler_keys[] = {"tool", "path", "env_script", "args", NULL};
static const hp_plan_key_doc profiler_docs[] = {
    [P_TOOL] = {"profiler name", NULL, HP__DEFAULT_TOOL},
    [P_PATH] = {"string", NULL, NULL},
    [P_ENV_SCRIPT] = {"string", NULL, NULL},
    [P_ARGS] = {"words", NULL, NULL},
};
HP__KEY_DOCS(profiler_keys, profiler_docs);

void hp__plan_parse_profiler(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  hp__mapent e[P_N] = {{NULL, NULL}};

  if (hp__yaml_want_map(ld, "profiler", v) > 0) {
    hp__yaml_fields(ld, v, "profiler", profiler_keys, e);
    if (hp__plan_str(ld, "profiler.tool", e[P_TOOL].val, HP__NONEMPTY, &p->profiler.tool) == 1 &&
        p->profiler.tool) {
      check_tool(ld, "profiler.tool", e[P_TOOL].val, p->profiler.tool, &ld->tool_ok);
    } else if (e[P_TOOL].val && !hp__yaml_is_null(e[P_TOOL].val)) {
      ld->tool_ok = 0; /* already reported; don't judge modes against a default it didn't ask for */
    }
    hp__plan_str(ld, "profiler.path", e[P_PATH].val, HP__NONEMPTY, &p->profiler.path);
    hp__plan_str(ld, "profiler.env_script", e[P_ENV_SCRIPT].val, HP__NONEMPTY,
                 &p->profiler.env_script);
    hp__plan_words(ld, "profiler.args", e[P_ARGS].val, &p->profiler.args);
  }
}

typedef struct pass_at {
  yaml_node_t *item, *name, *mode, *command, *precision;
  yaml_node_t *keys[HP__PASS_KEY_N]; /* kernel, counters, launch_count, schedule, where given */
  int tool_bad;   /* the pass's own `tool` was wrong (reported): its mode cannot be judged */
  int command_ok; /* `command` was read without error, so its template can be checked */
} pass_at;

enum {
  S_NAME,
  S_MODE,
  S_TOOL,
  S_KERNEL,
  S_ARGS,
  S_COUNTERS,
  S_LAUNCH_COUNT,
  S_COMMAND,
  S_TIMEOUT,
  S_EXPECT,
  S_LAUNCHER,
  S_REPEAT,
  S_ENV,
  S_PRECISION,
  S_SCHEDULE,
  S_N
};
static const char *const pass_keys[] = {
    "name",    "mode",   "tool",     "kernel", "args", "counters",  "launch_count", "command",
    "timeout", "expect", "launcher", "repeat", "env",  "precision", "schedule",     NULL};
static const char *const expects[] = {"ok", "distorted", NULL};
/* Most keys a pass leaves out take the plan's, the app's or the tool's value, and have no default
 * of their own. `precision`'s default is applied where the session judges the pass
 * (lib/session/session.c), as hp_pass says. */
static const hp_plan_key_doc pass_docs[] = {
    [S_NAME] = {"name, unique among passes and variants", NULL, NULL},
    [S_MODE] = {"mode name", NULL, NULL},
    [S_TOOL] = {"profiler name", NULL, NULL},
    [S_KERNEL] = {"string", NULL, NULL},
    [S_ARGS] = {"words", NULL, NULL},
    [S_COUNTERS] = {"words", NULL, NULL},
    [S_LAUNCH_COUNT] = {"integer 1.." HP__STR(MAX_LAUNCH_COUNT), NULL, NULL},
    [S_COMMAND] = {"words containing the word {app}", NULL, NULL},
    [S_TIMEOUT] = {"duration", NULL, NULL},
    [S_EXPECT] = {NULL, expects, "ok"},
    [S_LAUNCHER] = {"kind or mapping", NULL, NULL},
    [S_REPEAT] = {"integer 1.." HP__STR(MAX_PASS_REPEAT), NULL, NULL},
    [S_ENV] = {"mapping name to string", NULL, NULL},
    [S_PRECISION] = {"fraction in (0, 1)", NULL, "10%"},
    [S_SCHEDULE] = {"mapping {wait, warmup, active} of integers", NULL,
                    "{wait: 1, warmup: 1, active: 3}"},
};
HP__KEY_DOCS(pass_keys, pass_docs);

/* torch's `schedule: {wait: N, warmup: N, active: N}` (torch.profiler.schedule; repeat is 1, so
 * one trace is written). Unset members keep torch's usual 1, 1, 3. */
static void parse_schedule(hp__loader *ld, yaml_node_t *n, hp_pass *ps, pass_at *at)
{
  static const char *const keys[] = {"wait", "warmup", "active", NULL};
  hp__mapent e[3] = {{NULL, NULL}};
  long *out[3] = {&ps->sched_wait, &ps->sched_warmup, &ps->sched_active};
  int i;

  ps->sched_wait = ps->sched_warmup = 1;
  ps->sched_active = 3;
  if (n == NULL || hp__yaml_is_null(n))
    return;
  at->keys[HP__PASS_SCHEDULE] = n;
  if (n->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, n, "`schedule` must be a mapping {wait: N, warmup: N, active: N}, got %s",
                 hp__yaml_kind(n));
    return;
  }
  hp__yaml_fields(ld, n, "schedule", keys, e);
  for (i = 0; i < 3; i++)
    hp__plan_long(ld, keys[i], e[i].val, i == 2 ? 1 : 0, 1000000, out[i]);
}

static void parse_pass(hp__loader *ld, yaml_node_t *it, hp_pass *ps, pass_at *at)
{
  hp__mapent e[S_N] = {{NULL, NULL}};
  int tool_ok = 1, r;
  long rep;

  ps->line = hp__yaml_line(it);
  at->item = at->name = at->mode = it;
  if (it->type == YAML_SCALAR_NODE && !hp__yaml_is_null(it)) {
    hp__plan_str(ld, "passes", it, HP__NONEMPTY, &ps->mode);
    ps->name = hp__plan_dup(ld, ps->mode);
    return;
  }
  if (it->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, it, "a pass must be a mode name or a mapping {name, mode, ...}, got %s",
                 hp__yaml_kind(it));
    return;
  }
  hp__yaml_fields(ld, it, "passes", pass_keys, e);
  r = hp__plan_words(ld, "command", e[S_COMMAND].val, &ps->command);
  if (r != 0)
    at->command = e[S_COMMAND].val;
  at->command_ok = r == 1;
  if (hp__plan_str(ld, "mode", e[S_MODE].val, HP__NONEMPTY, &ps->mode) == 1) {
    at->mode = at->name = e[S_MODE].val;
  } else if (!e[S_MODE].val || hp__yaml_is_null(e[S_MODE].val)) {
    if (r != 0) {
      ps->mode = hp__plan_dup(ld, "command"); /* a template alone says what the pass is */
    } else {
      hp__plan_err(ld, hp__yaml_missing_at(&e[S_MODE], it),
                   "a pass needs a `mode` (normal, command or a mode of "
                   "its profiler)");
    }
  }
  if (hp__plan_str(ld, "name", e[S_NAME].val, HP__NONEMPTY, &ps->name) == 1)
    at->name = e[S_NAME].val;
  else if (ps->mode && !(e[S_NAME].val && !hp__yaml_is_null(e[S_NAME].val)))
    ps->name =
        hp__plan_dup(ld, ps->mode); /* at->name stays on the mode, where the name came from */
  r = hp__plan_str(ld, "tool", e[S_TOOL].val, HP__NONEMPTY, &ps->tool);
  if (r == 1 && ps->tool)
    check_tool(ld, "tool", e[S_TOOL].val, ps->tool, &tool_ok);
  at->tool_bad = r < 0 || !tool_ok;
  if (hp__plan_str(ld, "kernel", e[S_KERNEL].val, HP__NONEMPTY, &ps->kernel) == 1 && ps->kernel)
    at->keys[HP__PASS_KERNEL] = e[S_KERNEL].val;
  hp__plan_words(ld, "args", e[S_ARGS].val, &ps->args);
  if (hp__plan_words(ld, "counters", e[S_COUNTERS].val, &ps->counters) == 1 && ps->counters.n)
    at->keys[HP__PASS_COUNTERS] = e[S_COUNTERS].val;
  if (hp__plan_long(ld, "launch_count", e[S_LAUNCH_COUNT].val, 1, MAX_LAUNCH_COUNT,
                    &ps->launch_count) == 1 &&
      ps->launch_count > 0)
    at->keys[HP__PASS_LAUNCH_COUNT] = e[S_LAUNCH_COUNT].val;
  hp__plan_duration(ld, "timeout", e[S_TIMEOUT].val, &ps->timeout);
  hp__plan_enum(ld, "expect", e[S_EXPECT].val, expects, &ps->expect_distorted);
  if (hp__plan_long(ld, "repeat", e[S_REPEAT].val, 1, MAX_PASS_REPEAT, &rep) == 1)
    ps->repeat = (int)rep;
  hp__plan_env(ld, "env", e[S_ENV].val, &ps->env, &ps->nenv);
  parse_schedule(ld, e[S_SCHEDULE].val, ps, at);
  if (hp__plan_number(ld, "precision", e[S_PRECISION].val, 1, &ps->precision) == 1 &&
      !(ps->precision > 0 && ps->precision < 1)) {
    hp__plan_err(ld, e[S_PRECISION].val,
                 "`precision` must be between 0 and 1 (exclusive), got "
                 "'%s'",
                 hp__yaml_str(e[S_PRECISION].val));
    ps->precision = 0;
  }
  at->precision = e[S_PRECISION].val;
  if (!hp__yaml_is_null(e[S_LAUNCHER].val) &&
      (ps->launcher = calloc(1, sizeof(*ps->launcher))) == NULL)
    ld->oom = 1;
  else if (ps->launcher)
    hp__plan_parse_launcher(ld, e[S_LAUNCHER].val, ps->launcher);
}

/* Checks a `command` template's {app}. It must be a word of its own, because it expands to the
 * app's whole argv (several words); inside a longer word it would stay literal. Returns 1 when
 * the template is good; otherwise reports at `at` and returns 0. */
static int check_template(hp__loader *ld, yaml_node_t *at, const hp_strv *v)
{
  size_t i;

  for (i = 0; i < v->n; i++)
    if (strcmp(v->v[i], "{app}") == 0)
      return 1;
  for (i = 0; i < v->n; i++)
    if (strstr(v->v[i], "{app}")) {
      hp__plan_err(
          ld, at,
          "`command`: {app} must be a word of its own, since it expands to the app's "
          "whole argv; found it inside '%.80s' (for a shell, write [sh, -c, 'time \"$@\"', sh, "
          "{app}])",
          v->v[i]);
      return 0;
    }
  hp__plan_err(ld, at,
               "`command` must contain {app} where the app's command line goes "
               "(e.g. [valgrind, --tool=none, {app}])");
  return 0;
}

/* A non-generic mode must be one of its tool's modes: the pass's own tool or the plan's. */
static void check_mode(hp__loader *ld, const hp_plan *p, const hp_pass *ps, const pass_at *at)
{
  const hp__driver *d;
  const char **modes, *tool, *hint = NULL;

  if (ps->mode == NULL || hp__mode_is_generic(ps->mode))
    return;
  if (at->tool_bad)
    return; /* the pass's own tool is unknown: reported already */
  if (ps->tool == NULL && !ld->tool_ok)
    return; /* the plan's tool is unknown: reported already */
  tool = ps->tool ? ps->tool : p->profiler.tool;
  d = hp__driver_find(tool);
  if (d == NULL || hp__driver_has_mode(d, ps->mode))
    return;
  if ((modes = names_of(d)) != NULL)
    hint = hp__plan_suggest(ps->mode, modes);
  else
    ld->oom = 1;
  hp__plan_err(ld, at->mode, "mode `%.80s` is not a mode of %s (modes: %s%s%s%s)", ps->mode, tool,
               hp__driver_modes(d), hint ? "; did you mean `" : "", hint ? hint : "",
               hint ? "`?" : "");
  free(modes);
}

/* Why the tool drops `key` in this pass, for the message; the keys' own names are in it. */
static const char *dropped_why(const char *tool, hp__pass_key key)
{
  if (key == HP__PASS_COUNTERS && strcmp(tool, "hipprof") == 0)
    return "hipprof takes no list of counters: it selects a counter group by mode (pmc: --pmc, "
           "pmc-read: --pmc-read, pmc-write: --pmc-write); drop `counters` and choose the mode";
  if (key == HP__PASS_LAUNCH_COUNT)
    return "it is ncu's --launch-count, and hprun passes no such option to this tool (give the "
           "tool's own option in `args:`)";
  if (key == HP__PASS_SCHEDULE)
    return "it is torch.profiler's wait/warmup/active, which only the torch tool's mode schedule "
           "uses";
  if (key == HP__PASS_KERNEL && strcmp(tool, "hipprof") == 0)
    return "hipprof's --kernel-name filters only its counter modes (pmc, pmc-read, pmc-write), "
           "and its other modes record every kernel (docs/plan.md, \"What `kernel:` means\")";
  if (key == HP__PASS_KERNEL)
    return "rocprof's `kernel:` filter goes into its pmc input file, which only mode pmc writes "
           "(docs/plan.md, \"What `kernel:` means\")";
  return "this tool takes a list of counters only in mode pmc";
}

/* `kernel`, `counters` and `launch_count` must reach the tool: a key its command line would drop
 * would still mark the pass's capture partial, and say nothing. */
static void check_applies(hp__loader *ld, const hp_plan *p, const hp_pass *ps, const pass_at *at)
{
  static const char *const keys[HP__PASS_KEY_N] = {"kernel", "counters", "launch_count",
                                                   "schedule"};
  const hp__driver *d = NULL;
  const char *tool;
  int k;

  if (at->tool_bad || (ps->tool == NULL && !ld->tool_ok))
    return; /* the tool is unknown: reported already */
  tool = ps->tool ? ps->tool : p->profiler.tool ? p->profiler.tool : HP__DEFAULT_TOOL;
  if (!hp__mode_is_generic(ps->mode) && (d = hp__driver_find(tool)) == NULL)
    return;
  if (d && !hp__driver_has_mode(d, ps->mode))
    return; /* a wrong mode: reported by check_mode */
  for (k = 0; k < HP__PASS_KEY_N; k++) {
    if (at->keys[k] == NULL)
      continue;
    if (d == NULL)
      hp__plan_err(ld, at->keys[k],
                   "`%s` has no effect in mode `%s`: hprun drives no profiler there (put the "
                   "option in the pass's own command line)",
                   keys[k], ps->mode);
    else if (!hp__driver_takes(d, ps->mode, (hp__pass_key)k))
      hp__plan_err(ld, at->keys[k], "`%s` does not apply to %s mode `%s`: %s", keys[k], tool,
                   ps->mode, dropped_why(tool, (hp__pass_key)k));
  }
}

/* Pass i's name becomes its folder: a valid name, not one of the session's own files, and not the
 * name of an earlier pass. `at` is where the name came from. */
static void check_name(hp__loader *ld, const hp_plan *p, size_t i, yaml_node_t *at)
{
  const char *name = p->passes[i].name;
  size_t j;

  if (name == NULL)
    return;
  if (!hp__plan_valid_name(name))
    hp__plan_err(ld, at,
                 "pass name '%.80s' is not a valid name: use letters, digits, '_', '.' "
                 "and '-' (it becomes a folder name)",
                 name);
  else if (hp__plan_reserved_name(name))
    hp__plan_err(ld, at, "pass name '%.80s' is reserved for the session's own files", name);
  for (j = 0; j < i; j++)
    if (p->passes[j].name && strcmp(p->passes[j].name, name) == 0) {
      hp__plan_err(ld, at, "duplicate pass name `%s` (first at line %ld); give one a `name:`", name,
                   p->passes[j].line);
      break;
    }
}

void hp__plan_parse_passes(hp__loader *ld, const hp__mapent *e, yaml_node_t *root, hp_plan *p)
{
  pass_at *at;
  hp_pass *ps;
  size_t i, n;
  int base = -1;
  int r = hp__yaml_want_seq(ld, "passes", e->val);

  if (r == 0)
    hp__plan_err(ld, hp__yaml_missing_at(e, root),
                 "missing `passes`: list at least the baseline `normal` and "
                 "one profiled mode");
  if (r <= 0)
    return;
  n = hp__yaml_seq_len(e->val);
  if (n) {
    p->passes = calloc(n, sizeof(*p->passes));
    at = calloc(n, sizeof(*at));
    if (p->passes == NULL || at == NULL) {
      free(at);
      ld->oom = 1;
      return;
    }
  } else {
    at = NULL;
  }
  p->npasses = n;
  for (i = 0; i < n; i++) {
    yaml_node_t *it = hp__yaml_seq_item(ld, e->val, i);
    if (it)
      parse_pass(ld, it, &p->passes[i], &at[i]);
  }
  for (i = 0; i < n; i++) {
    ps = &p->passes[i];
    check_name(ld, p, i, at[i].name);
    if (at[i].precision && !hp__yaml_is_null(at[i].precision) &&
        (!ps->expect_distorted || !p->autorep.on || ps->repeat))
      hp__plan_err(ld, at[i].precision,
                   "`precision` is when `repeat: auto` stops an `expect: distorted` pass; this "
                   "pass %s",
                   !p->autorep.on   ? "is in a plan with a fixed repeat"
                       : ps->repeat ? "has its own fixed repeat"
                                    : "does not expect distorted");
    if (ps->mode == NULL)
      continue;
    check_applies(ld, p, ps, &at[i]);
    if (strcmp(ps->mode, "command") == 0) {
      if (at[i].command == NULL)
        hp__plan_err(ld, at[i].mode,
                     "mode `command` needs `command:`, an argv template containing {app}");
      else if (at[i].command_ok && ps->command.n == 0)
        hp__plan_err(ld, at[i].command,
                     "`command` is empty: give an argv template containing {app}");
      else if (at[i].command_ok)
        check_template(ld, at[i].command, &ps->command);
      continue;
    }
    if (at[i].command)
      hp__plan_err(ld, at[i].command,
                   "`command` is only used by mode `command` (this pass has mode `%s`)", ps->mode);
    if (strcmp(ps->mode, "normal") != 0)
      check_mode(ld, p, ps, &at[i]);
    else if (base < 0)
      base = (int)i;
    else
      hp__plan_err(ld, at[i].mode,
                   "a second baseline: pass `%s` has mode normal, but pass `%s` (line %ld) "
                   "is already the baseline; a plan has exactly one",
                   ps->name ? ps->name : "?", p->passes[base].name ? p->passes[base].name : "?",
                   p->passes[base].line);
  }
  if (base < 0)
    hp__plan_err(ld, e->key, "no baseline: add a pass with mode normal");
  else
    p->baseline = (size_t)base;
  free(at);
}

/* The key tables above and their docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_profiler = profiler_keys;
const char *const *const hp__plan_keys_passes = pass_keys;
const hp_plan_key_doc *const hp__plan_docs_profiler = profiler_docs;
const hp_plan_key_doc *const hp__plan_docs_passes = pass_docs;
