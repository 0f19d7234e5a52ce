/*
 * Tests for launchers: the plan's `launcher:` (lib/plan/launcher.c), the argvs and the rank
 * wrapper (lib/exec/launch.c), reading rank folders back (lib/exec/launch_ranks.c) and the
 * per-rank statistics (lib/analyze/ranks.c). Every expected argv and number is written out by
 * hand here; the wrapper is run with /bin/sh to see what a rank really does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/ranks.h"
#include "exec/launch.h"
#include "hprun.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

#define BASE "app: {command: ./app}\nmetrics: [m]\npasses: [normal, stats]\n"

static int load(const char *extra, hp_plan **p, hp_diags *d)
{
  char text[2048];

  snprintf(text, sizeof(text), "%s%s", BASE, extra);
  hp_diags_init(d);
  return hp_plan_load_string("t.yaml", "/tmp", text, strlen(text), p, d);
}

/* The plan must fail with one message at LINE that contains `want`. */
static void expect_err(const char *extra, long line, const char *want)
{
  hp_plan *p = NULL;
  hp_diags d;
  const hp_diag *x;
  int found = 0;

  assert_int_equal(load(extra, &p, &d), HP_EPLAN);
  for (x = d.head; x; x = x->next) {
    if (x->line == line && strstr(x->msg, want))
      found = 1;
    else
      print_message("  other: %ld: %s\n", x->line, x->msg);
  }
  if (!found)
    fail_msg("no error at line %ld containing '%s'", line, want);
  hp_diags_free(&d);
}

static void test_plan_launcher(void **state)
{
  hp_plan *p = NULL;
  hp_diags d;

  (void)state;
  assert_int_equal(load("", &p, &d), 0);
  assert_int_equal(p->launcher.kind, HP_LAUNCH_LOCAL);
  hp_plan_free(p);
  hp_diags_free(&d);

  assert_int_equal(load("launcher: slurm\n", &p, &d), 0);
  assert_int_equal(p->launcher.kind, HP_LAUNCH_SLURM);
  assert_int_equal(p->launcher.line, 4);
  hp_plan_free(p);
  hp_diags_free(&d);

  assert_int_equal(
      load("launcher: {kind: slurm, partition: dcu, nodes: 2, ntasks: 8, gpus: '4', gres: "
           "'dcu:4', time: 90m, account: prj, constraint: hbm, exclusive: true, mpi: pmix, "
           "allocation: session, args: --quiet, profile_ranks: [0, 4]}\n",
           &p, &d),
      0);
  assert_string_equal(p->launcher.partition, "dcu");
  assert_int_equal(p->launcher.nodes, 2);
  assert_int_equal(p->launcher.ntasks, 8);
  assert_true(p->launcher.time == 5400.0);
  assert_true(p->launcher.exclusive);
  assert_true(p->launcher.allocate_session);
  assert_int_equal(p->launcher.nprofile_ranks, 2);
  assert_int_equal(p->launcher.profile_ranks[1], 4);
  assert_string_equal(p->launcher.args.v[0], "--quiet");
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_plan_pass_override(void **state)
{
  hp_plan *p = NULL;
  hp_diags d;
  const char *text = "app: {command: ./app}\nmetrics: [m]\nlauncher: {kind: mpirun, ntasks: 2}\n"
                     "passes:\n  - normal\n  - {name: s, mode: stats, launcher: local}\n";

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load_string("t.yaml", "/tmp", text, strlen(text), &p, &d), 0);
  assert_int_equal(p->launcher.kind, HP_LAUNCH_MPIRUN);
  assert_null(p->passes[0].launcher);
  assert_non_null(p->passes[1].launcher);
  assert_int_equal(p->passes[1].launcher->kind, HP_LAUNCH_LOCAL);
  hp_plan_free(p);
  hp_diags_free(&d);
}

static void test_plan_launcher_errors(void **state)
{
  (void)state;
  expect_err("launcher: pbs\n", 4, "`launcher` must be one of");
  expect_err("launcher: {kind: mpirun, partition: dcu}\n", 4,
             "`launcher.partition` is a Slurm option: it needs `kind: slurm`");
  expect_err("launcher: {ntasks: 2}\n", 4, "`launcher` needs a `kind`");
  expect_err("launcher: {kind: local, ntasks: 2}\n", 4, "`launcher.ntasks` needs a launcher");
  expect_err("launcher: {kind: command, command: [flux, run]}\n", 4,
             "must contain {app} as a word of its own");
  expect_err("launcher: {kind: command}\n", 4, "needs a `command` template");
  expect_err("launcher: command\n", 4, "`launcher: command` needs a template");
  expect_err("launcher: {kind: slurm, profile_ranks: [0, 0]}\n", 4, "rank 0 is listed twice");
  expect_err("launcher: {kind: slurm, profile_ranks: some}\n", 4, "`all` or a list of ranks");
  expect_err("launcher: {kind: slurm, profile_ranks: [-1]}\n", 4, "must be an integer >= 0");
  expect_err("launcher: {kind: slurm, ntasks: 0}\n", 4, "must be an integer >= 1");
  expect_err("launcher: {kind: slurm, allocation: job}\n", 4, "must be one of");
}

/* The argv as one string, words joined by single spaces. */
static char *joined(const hp_strv *v)
{
  hp__buf b = HP__BUF_INIT;
  size_t i;

  for (i = 0; i < v->n; i++)
    hp__buf_printf(&b, "%s%s", i ? " " : "", v->v[i]);
  return hp__buf_steal(&b);
}

static char *tmpdir(void)
{
  char tmpl[] = "/tmp/hprun-launch.XXXXXX";
  char *d = mkdtemp(tmpl);

  assert_non_null(d);
  return strdup(d);
}

static void rm_rf(const char *dir)
{
  char cmd[512];

  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void test_argv_slurm(void **state)
{
  hp_launcher l;
  hp__launch_spec ls;
  char *app_words[] = {"./app", "--n", "3", NULL};
  hp_strv app = {app_words, 3, 0}, out;
  char *dir = tmpdir(), *s, want[1024];
  int r;

  (void)state;
  memset(&l, 0, sizeof(l));
  memset(&ls, 0, sizeof(ls));
  l.kind = HP_LAUNCH_SLURM;
  l.partition = "dcu";
  l.nodes = 2;
  l.ntasks = 8;
  l.time = 3661;
  l.exclusive = 1;
  l.mpi = "pmix";
  ls.l = &l;
  ls.run_dir = dir;
  ls.name = "hprun-x-normal-1";
  ls.plain = &app;
  assert_int_equal(hp__launch_argv(&ls, &out), 0);
  s = joined(&out);
  snprintf(want, sizeof(want),
           "srun --job-name=hprun-x-normal-1 --partition=dcu --nodes=2 --ntasks=8 "
           "--time=1:01:01 --exclusive --mpi=pmix /bin/sh %s/hprun-rank.sh",
           dir);
  assert_string_equal(s, want);
  free(s);
  hp_strv_free(&out);
  /* The wrapper exists now and is never replaced. */
  r = hp__launch_argv(&ls, &out);
  assert_int_equal(hp__fs_kind(r), HP_EEXIST);
  assert_int_equal(hp__fs_errno(r), EEXIST);
  rm_rf(dir);
  free(dir);
}

static void test_argv_mpirun_command_salloc(void **state)
{
  hp_launcher l;
  hp__launch_spec ls;
  char *app_words[] = {"./app", NULL},
       *tmpl_words[] = {"flux", "run", "-n", "{ntasks}", "{app}", NULL};
  char *arg_words[] = {"--oversubscribe", NULL};
  hp_strv app = {app_words, 1, 0}, out;
  char *dir = tmpdir(), *s, want[1024], *job;

  (void)state;
  memset(&l, 0, sizeof(l));
  memset(&ls, 0, sizeof(ls));
  l.kind = HP_LAUNCH_MPIRUN;
  l.ntasks = 2;
  l.args.v = arg_words;
  l.args.n = 1;
  ls.l = &l;
  ls.run_dir = dir;
  ls.plain = &app;
  assert_int_equal(hp__launch_argv(&ls, &out), 0);
  s = joined(&out);
  snprintf(want, sizeof(want), "mpirun -np 2 --oversubscribe /bin/sh %s/hprun-rank.sh", dir);
  assert_string_equal(s, want);
  free(s);
  hp_strv_free(&out);
  rm_rf(dir);
  mkdir(dir, 0755);

  l.kind = HP_LAUNCH_COMMAND;
  l.command.v = tmpl_words;
  l.command.n = 5;
  l.ntasks = 4;
  assert_int_equal(hp__launch_argv(&ls, &out), 0);
  s = joined(&out);
  snprintf(want, sizeof(want), "flux run -n 4 /bin/sh %s/hprun-rank.sh", dir);
  assert_string_equal(s, want);
  free(s);
  hp_strv_free(&out);

  l.kind = HP_LAUNCH_SLURM;
  l.ntasks = 2;
  l.partition = "dcu";
  l.args.n = 0;
  assert_int_equal(hp__launch_salloc_argv(&l, "hprun-s", &out), 0);
  s = joined(&out);
  assert_string_equal(s, "salloc --no-shell --job-name=hprun-s --partition=dcu --ntasks=2");
  free(s);
  hp_strv_free(&out);
  job = hp__launch_salloc_job("salloc: Pending job allocation 77\nsalloc: job 77 queued\n"
                              "salloc: Granted job allocation 77\n");
  assert_string_equal(job, "77");
  free(job);
  assert_null(hp__launch_salloc_job("salloc: error: invalid partition\n"));
  assert_null(hp__launch_salloc_job(NULL));
  rm_rf(dir);
  free(dir);
}

static void test_cancel_argv(void **state)
{
  hp_launcher l;
  hp__launch_spec ls;
  hp_run_launch got;
  hp_strv out;
  char *s;

  (void)state;
  unsetenv("SLURM_JOB_ID");
  memset(&l, 0, sizeof(l));
  memset(&ls, 0, sizeof(ls));
  memset(&got, 0, sizeof(got));
  l.kind = HP_LAUNCH_SLURM;
  ls.l = &l;
  ls.name = "hprun-x-normal-1";
  /* Its own job: cancelled by name, even before a rank said its job ID (still queued). */
  assert_int_equal(hp__launch_cancel_argv(&ls, NULL, &out), 0);
  s = joined(&out);
  assert_string_equal(s, "scancel --name=hprun-x-normal-1");
  free(s);
  hp_strv_free(&out);
  /* A step in the session's allocation: that step only. */
  ls.job_id = "12";
  got.job_id = "12";
  got.step_id = "3";
  assert_int_equal(hp__launch_cancel_argv(&ls, &got, &out), 0);
  s = joined(&out);
  assert_string_equal(s, "scancel 12.3");
  free(s);
  hp_strv_free(&out);
  got.step_id = NULL;
  assert_int_equal(hp__launch_cancel_argv(&ls, &got, &out), 0);
  assert_int_equal(out.n, 0);
  l.kind = HP_LAUNCH_MPIRUN;
  assert_int_equal(hp__launch_cancel_argv(&ls, &got, &out), 0);
  assert_int_equal(out.n, 0);
}

/* Runs the wrapper as rank `rank` (through PMI_RANK) and waits for it. */
static int run_rank(const char *dir, const char *rank)
{
  char *script = hp__path_join(dir, HP__RANK_WRAPPER);
  pid_t pid = fork();
  int st;

  if (pid == 0) {
    setenv("PMI_RANK", rank, 1);
    unsetenv("SLURM_PROCID");
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv("SLURM_JOB_ID", "41", 1);
    setenv("SLURM_STEP_ID", "2", 1);
    unsetenv("SLURM_STEP_NODELIST");
    setenv("SLURM_JOB_NODELIST", "n[1-2]", 1);
    execl("/bin/sh", "sh", script, (char *)NULL);
    _exit(127);
  }
  free(script);
  assert_true(waitpid(pid, &st, 0) == pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *dir, const char *rel)
{
  char *p = hp__path_join(dir, rel), *text = NULL;
  size_t len;

  assert_int_equal(hp__read_file(p, &text, &len), 0);
  free(p);
  return text;
}

/* The wrapper: rank 0 profiled (its argv with {rank} filled in, odd quotes kept), rank 1 not;
 * each rank's output in its folder, rank.txt, and the exit status passed on. Then the folders
 * read back. */
static void test_wrapper_and_read(void **state)
{
  hp_launcher l;
  hp__launch_spec ls;
  long ranks[] = {0};
  char *plain_w[] = {"sh", "-c", "echo \"plain it's\"; exit 3", NULL};
  char *prof_w[] = {"sh", "-c", "echo prof {rank} > out-{rank}.txt; echo \"p'q\"", NULL};
  hp_strv plain = {plain_w, 3, 0}, prof = {prof_w, 3, 0}, out;
  hp_run_launch *rl = NULL;
  char *dir = tmpdir(), *t;

  (void)state;
  memset(&l, 0, sizeof(l));
  memset(&ls, 0, sizeof(ls));
  l.kind = HP_LAUNCH_MPIRUN;
  l.profile_ranks = ranks;
  l.nprofile_ranks = 1;
  ls.l = &l;
  ls.run_dir = dir;
  ls.plain = &plain;
  ls.profiled = &prof;
  assert_int_equal(hp__launch_argv(&ls, &out), 0);
  hp_strv_free(&out);
  assert_int_equal(run_rank(dir, "0"), 0);
  assert_int_equal(run_rank(dir, "1"), 3);
  assert_int_equal(run_rank(dir, "10"), 3);
  t = slurp(dir, "rank0/stdout.txt");
  assert_string_equal(t, "p'q\n");
  free(t);
  t = slurp(dir, "rank0/out-0.txt"); /* the rank's own folder is its cwd */
  assert_string_equal(t, "prof 0\n");
  free(t);
  t = slurp(dir, "rank1/stdout.txt");
  assert_string_equal(t, "plain it's\n");
  free(t);
  t = slurp(dir, "rank1/rank.txt");
  assert_non_null(strstr(t, "rank=1\nprofiled=0\n"));
  assert_non_null(strstr(t, "job_id=41\nstep_id=2\nnodelist=n[1-2]\nexit=3\n"));
  free(t);

  assert_int_equal(hp__launch_read(dir, "mpirun", &rl), 0);
  assert_int_equal(rl->nranks, 3);
  assert_int_equal(rl->ranks[0].rank, 0);
  assert_int_equal(rl->ranks[1].rank, 1);
  assert_int_equal(rl->ranks[2].rank, 10); /* by number, not by name */
  assert_true(rl->ranks[0].profiled);
  assert_false(rl->ranks[1].profiled);
  assert_int_equal(rl->ranks[0].exit_status, 0);
  assert_int_equal(rl->ranks[2].exit_status, 3);
  assert_string_equal(rl->job_id, "41");
  assert_string_equal(rl->step_id, "2");
  assert_string_equal(rl->nodelist, "n[1-2]");
  assert_string_equal(rl->kind, "mpirun");
  hp__launch_free(rl);
  rm_rf(dir);
  free(dir);
}

/* Ranks of one run with the given values (and which are profiled). */
static hp_run_launch *ranks_of(const double *v, const int *prof, size_t n)
{
  hp_run_launch *rl = calloc(1, sizeof(*rl));
  size_t i;

  rl->ranks = calloc(n, sizeof(*rl->ranks));
  rl->nranks = n;
  for (i = 0; i < n; i++) {
    rl->ranks[i].rank = (int)i;
    rl->ranks[i].profiled = prof[i];
    rl->ranks[i].values = malloc(sizeof(double));
    rl->ranks[i].values[0] = v[i];
  }
  return rl;
}

static void test_rank_stats(void **state)
{
  static const double r1[] = {10, 20, 30, 40}, r2[] = {12, 18, 30, NAN}, r3[] = {11, 19, 29, 41};
  static const int prof[] = {1, 0, 0, 0};
  hp_pass_result pr;
  hp_run runs[4];
  hp_session s;

  (void)state;
  memset(&pr, 0, sizeof(pr));
  memset(runs, 0, sizeof(runs));
  memset(&s, 0, sizeof(s));
  runs[0].launch = ranks_of(r1, prof, 4);
  runs[1].launch = ranks_of(r2, prof, 4);
  runs[2].launch = ranks_of(r3, prof, 4);
  runs[3].launch = ranks_of(r1, prof, 4);
  runs[3].warmup = 1; /* not counted */
  pr.runs = runs;
  pr.nruns = 4;
  s.passes = &pr;
  s.npasses = 1;
  assert_int_equal(hp__session_ranks(&s), 0);
  assert_non_null(pr.ranks);
  /* Per run: min 10, 12, 11 -> 11; median 25, 18, 24 -> 24; max 40, 30, 41 -> 40;
   * imbalance 40/25 = 1.6, 30/18 = 1.6667, 41/24 = 1.70833 -> 1.6667;
   * profiled 10, 12, 11 -> 11; unprofiled medians 30, 24, 29 -> 29;
   * ratios 10/30-1 = -0.6667, 12/24-1 = -0.5, 11/29-1 = -0.62069 -> -0.62069. */
  assert_int_equal(pr.ranks->nranks, 4);
  assert_int_equal(pr.ranks->nprofiled, 1);
  assert_true(fabs(pr.ranks->min - 11) < 1e-12);
  assert_true(fabs(pr.ranks->median - 24) < 1e-12);
  assert_true(fabs(pr.ranks->max - 40) < 1e-12);
  assert_true(fabs(pr.ranks->imbalance - 30.0 / 18.0) < 1e-12);
  assert_true(fabs(pr.ranks->profiled_median - 11) < 1e-12);
  assert_true(fabs(pr.ranks->unprofiled_median - 29) < 1e-12);
  assert_true(fabs(pr.ranks->profiled_ratio - (11.0 / 29.0 - 1)) < 1e-12);
  free(pr.ranks);
  for (size_t i = 0; i < 4; i++)
    hp__launch_free(runs[i].launch);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_launcher),
      cmocka_unit_test(test_plan_pass_override),
      cmocka_unit_test(test_plan_launcher_errors),
      cmocka_unit_test(test_argv_slurm),
      cmocka_unit_test(test_argv_mpirun_command_salloc),
      cmocka_unit_test(test_cancel_argv),
      cmocka_unit_test(test_wrapper_and_read),
      cmocka_unit_test(test_rank_stats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
