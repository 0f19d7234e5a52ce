/*
 * The `launcher:` section, at the top of a plan and as a pass's own override: how each run is
 * started (docs/cluster.md). `launcher: slurm` is short for `launcher: {kind: slurm}`. The checks
 * here are the ones that need no machine: which keys belong to which kind, the ranges of numbers,
 * that a `command` template has its {app}, and which ranks run under the profiler. Whether srun
 * or mpirun exists is checked before the first run (lib/session/prepare.c), like a profiler.
 */
#include "plan/plan.h"
#include "util/base/buf.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TASKS 1048576

enum {
  L_KIND,
  L_PARTITION,
  L_NODES,
  L_NTASKS,
  L_GPUS,
  L_GRES,
  L_TIME,
  L_ACCOUNT,
  L_CONSTRAINT,
  L_EXCLUSIVE,
  L_MPI,
  L_ALLOCATION,
  L_ARGS,
  L_COMMAND,
  L_PATH,
  L_PROFILE_RANKS,
  L_N
};
static const char *const launcher_keys[] = {
    "kind", "partition", "nodes",      "ntasks",        "gpus", "gres",
    "time", "account",   "constraint", "exclusive",     "mpi",  "allocation",
    "args", "command",   "path",       "profile_ranks", NULL};
static const char *const kinds[] = {"local", "slurm", "mpirun", "command", NULL};
static const char *const allocations[] = {"run", "session", NULL};
/* A key left out is not passed to srun, whose own default then applies; without `ntasks`, mpirun
 * and a command launcher get 1 rank (lib/exec/launch.c). */
static const hp_plan_key_doc launcher_docs[] = {
    [L_KIND] = {NULL, kinds, NULL},
    [L_PARTITION] = {"string", NULL, NULL},
    [L_NODES] = {"integer 1.." HP__STR(MAX_TASKS), NULL, NULL},
    [L_NTASKS] = {"integer 1.." HP__STR(MAX_TASKS), NULL, NULL},
    [L_GPUS] = {"string", NULL, NULL},
    [L_GRES] = {"string", NULL, NULL},
    [L_TIME] = {"duration", NULL, NULL},
    [L_ACCOUNT] = {"string", NULL, NULL},
    [L_CONSTRAINT] = {"string", NULL, NULL},
    [L_EXCLUSIVE] = {"boolean", NULL, "false"},
    [L_MPI] = {"string", NULL, NULL},
    [L_ALLOCATION] = {NULL, allocations, "run"},
    [L_ARGS] = {"words", NULL, NULL},
    [L_COMMAND] = {"words containing the word {app}", NULL, NULL},
    [L_PATH] = {"string", NULL, NULL},
    [L_PROFILE_RANKS] = {"all or a list of ranks", NULL, "all"},
};
HP__KEY_DOCS(launcher_keys, launcher_docs);

void hp__plan_launcher_free(hp_launcher *l)
{
  if (l == NULL)
    return;
  free(l->partition);
  free(l->account);
  free(l->constraint);
  free(l->gpus);
  free(l->gres);
  free(l->mpi);
  free(l->path);
  hp_strv_free(&l->args);
  hp_strv_free(&l->command);
  free(l->profile_ranks);
  memset(l, 0, sizeof(*l));
}

/* `profile_ranks: all` or a list of ranks (non-negative integers, each once). */
static void parse_ranks(hp__loader *ld, yaml_node_t *v, hp_launcher *l)
{
  size_t i, j, n;

  if (hp__yaml_is_null(v))
    return;
  if (v->type == YAML_SCALAR_NODE && strcmp(hp__yaml_str(v), "all") == 0)
    return;
  if (v->type != YAML_SEQUENCE_NODE || (n = hp__yaml_seq_len(v)) == 0) {
    hp__plan_err(ld, v, "`profile_ranks` must be `all` or a list of ranks such as [0], got %s",
                 v->type == YAML_SCALAR_NODE ? "a word" : hp__yaml_kind(v));
    return;
  }
  if ((l->profile_ranks = calloc(n, sizeof(long))) == NULL) {
    ld->oom = 1;
    return;
  }
  for (i = 0; i < n; i++) {
    yaml_node_t *it = hp__yaml_seq_item(ld, v, i);
    long r;
    if (hp__plan_long(ld, "profile_ranks", it, 0, MAX_TASKS - 1, &r) != 1)
      continue;
    for (j = 0; j < l->nprofile_ranks; j++)
      if (l->profile_ranks[j] == r)
        hp__plan_err(ld, it, "`profile_ranks`: rank %ld is listed twice", r);
    l->profile_ranks[l->nprofile_ranks++] = r;
  }
}

/* Keys that only one kind reads are refused under another, so that a typo'd kind or a forgotten
 * `kind:` does not silently drop them. */
static void check_kind_keys(hp__loader *ld, const hp__mapent *e, const hp_launcher *l)
{
  static const int slurm_only[] = {L_PARTITION, L_NODES,      L_GPUS,      L_GRES, L_TIME,
                                   L_ACCOUNT,   L_CONSTRAINT, L_EXCLUSIVE, L_MPI,  L_ALLOCATION};
  size_t i;

  for (i = 0; i < sizeof(slurm_only) / sizeof(slurm_only[0]); i++) {
    const hp__mapent *x = &e[slurm_only[i]];
    if (l->kind != HP_LAUNCH_SLURM && x->key && !hp__yaml_is_null(x->val))
      hp__plan_err(ld, x->key, "`launcher.%s` is a Slurm option: it needs `kind: slurm`",
                   launcher_keys[slurm_only[i]]);
  }
  if (l->kind != HP_LAUNCH_COMMAND && e[L_COMMAND].key && !hp__yaml_is_null(e[L_COMMAND].val))
    hp__plan_err(ld, e[L_COMMAND].key, "`launcher.command` needs `kind: command`");
  if (l->kind == HP_LAUNCH_LOCAL && e[L_NTASKS].key && !hp__yaml_is_null(e[L_NTASKS].val))
    hp__plan_err(ld, e[L_NTASKS].key,
                 "`launcher.ntasks` needs a launcher that starts ranks (slurm, mpirun, command)");
}

/* A `command` launcher's template must hold {app} as a word of its own: it becomes the argv of
 * hprun's rank wrapper. */
static void check_command(hp__loader *ld, yaml_node_t *at, const hp_launcher *l)
{
  size_t i;

  for (i = 0; i < l->command.n; i++)
    if (strcmp(l->command.v[i], "{app}") == 0)
      return;
  hp__plan_err(ld, at,
               "`launcher.command` must contain {app} as a word of its own, where the run's "
               "command goes (e.g. [flux, run, -n, '{ntasks}', {app}])");
}

static void parse_map(hp__loader *ld, yaml_node_t *v, hp_launcher *l)
{
  hp__mapent e[L_N] = {{NULL, NULL}};
  int k = 0;

  hp__yaml_fields(ld, v, "launcher", launcher_keys, e);
  if (hp__plan_enum(ld, "launcher.kind", e[L_KIND].val, kinds, &k) == 1)
    l->kind = (hp_launch_kind)k;
  else if (!e[L_KIND].val || hp__yaml_is_null(e[L_KIND].val))
    hp__plan_err(ld, hp__yaml_missing_at(&e[L_KIND], v),
                 "`launcher` needs a `kind`: local, slurm, mpirun or command");
  hp__plan_str(ld, "launcher.partition", e[L_PARTITION].val, HP__NONEMPTY, &l->partition);
  hp__plan_long(ld, "launcher.nodes", e[L_NODES].val, 1, MAX_TASKS, &l->nodes);
  hp__plan_long(ld, "launcher.ntasks", e[L_NTASKS].val, 1, MAX_TASKS, &l->ntasks);
  hp__plan_str(ld, "launcher.gpus", e[L_GPUS].val, HP__NONEMPTY, &l->gpus);
  hp__plan_str(ld, "launcher.gres", e[L_GRES].val, HP__NONEMPTY, &l->gres);
  hp__plan_duration(ld, "launcher.time", e[L_TIME].val, &l->time);
  hp__plan_str(ld, "launcher.account", e[L_ACCOUNT].val, HP__NONEMPTY, &l->account);
  hp__plan_str(ld, "launcher.constraint", e[L_CONSTRAINT].val, HP__NONEMPTY, &l->constraint);
  hp__plan_bool(ld, "launcher.exclusive", e[L_EXCLUSIVE].val, &l->exclusive);
  hp__plan_str(ld, "launcher.mpi", e[L_MPI].val, HP__NONEMPTY, &l->mpi);
  hp__plan_enum(ld, "launcher.allocation", e[L_ALLOCATION].val, allocations, &l->allocate_session);
  hp__plan_words(ld, "launcher.args", e[L_ARGS].val, &l->args);
  hp__plan_str(ld, "launcher.path", e[L_PATH].val, HP__NONEMPTY, &l->path);
  if (hp__plan_words(ld, "launcher.command", e[L_COMMAND].val, &l->command) == 1)
    check_command(ld, e[L_COMMAND].val, l);
  else if (l->kind == HP_LAUNCH_COMMAND)
    hp__plan_err(ld, hp__yaml_missing_at(&e[L_COMMAND], v),
                 "`launcher: {kind: command}` needs a `command` template with {app}");
  if (e[L_PROFILE_RANKS].val)
    parse_ranks(ld, e[L_PROFILE_RANKS].val, l);
  check_kind_keys(ld, e, l);
}

void hp__plan_parse_launcher(hp__loader *ld, yaml_node_t *v, hp_launcher *l)
{
  int k = 0;

  if (hp__yaml_is_null(v))
    return;
  l->line = hp__yaml_line(v);
  if (v->type == YAML_SCALAR_NODE) {
    if (hp__plan_enum(ld, "launcher", v, kinds, &k) == 1)
      l->kind = (hp_launch_kind)k;
    if (l->kind == HP_LAUNCH_COMMAND)
      hp__plan_err(ld, v,
                   "`launcher: command` needs a template: write "
                   "`launcher: {kind: command, command: [..., {app}]}`");
    return;
  }
  if (hp__yaml_want_map(ld, "launcher", v) == 1)
    parse_map(ld, v, l);
}

/* The key table above and its docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_launcher = launcher_keys;
const hp_plan_key_doc *const hp__plan_docs_launcher = launcher_docs;
