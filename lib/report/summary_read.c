/*
 * Reading a stored summary.json back into a hp_session, for `hprun report` and `hprun compare`.
 * What was measured is read (the runs, their values, the names and settings), and so is every
 * judgement the run made (flags, advice, verdicts, the causes and the exit code): a report
 * re-rendered later must say exactly what the run said, not what a re-analysis would say now.
 * Only the statistics are recomputed from the runs (the same numbers: the bootstrap is seeded),
 * and the profiles are parsed again from the run folders with the plan copy's categories. The keys
 * are named once in lib/report/summary_keys.h, shared with the writer (summary_json.c).
 */
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "report/plan_copy.h"
#include "report/summary_keys.h"
#include "util/buf.h"
#include "util/fsutil.h"
#include "util/jsonread.h"
#include "util/strv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Accessors that answer "nothing" (NULL, NaN, 0) for a missing key or a value of another type,
 * so a hand-edited or truncated file degrades to missing values instead of a crash. */
static char *jstr(const hp__jv *o, const char *key)
{
  const char *s = hp__jv_str(hp__jv_get(o, key));

  return s ? hp__strdup(s) : NULL;
}

static double jnum(const hp__jv *o, const char *key)
{
  return hp__jv_num(hp__jv_get(o, key));
}

static int jbool(const hp__jv *o, const char *key)
{
  return hp__jv_bool(hp__jv_get(o, key)) == 1;
}

static int jis(const hp__jv *o, const char *key, const char *value)
{
  const char *s = hp__jv_str(hp__jv_get(o, key));

  return s && strcmp(s, value) == 0;
}

/* An unknown flag name reads as failed: a file from a newer hprun must not look healthier. */
static hp_flag flag_from(const char *s)
{
  int f;

  for (f = HP_FLAG_BASELINE; f <= HP_FLAG_FAILED; f++)
    if (s && strcmp(s, hp_flag_name((hp_flag)f)) == 0)
      return (hp_flag)f;
  return HP_FLAG_FAILED;
}

/* The metrics' names and settings; their statistics are recomputed from the runs. */
static void load_metrics(const hp__jv *ms, hp_pass_result *pr)
{
  size_t i;

  for (i = 0; i < pr->nmetrics; i++) {
    const hp__jv *jm = hp__jv_at(ms, i);
    double tol = jnum(jm, HP__K_METRIC_TOLERANCE);
    pr->metrics[i].name = jstr(jm, HP__K_METRIC_NAME);
    pr->metrics[i].unit = jstr(jm, HP__K_METRIC_UNIT);
    pr->metrics[i].higher_is_better = jis(jm, HP__K_METRIC_BETTER, HP__V_BETTER_HIGHER);
    pr->metrics[i].tolerance = isnan(tol) ? -1 : tol;
  }
}

/* One run into r, its values looked up by the pass's metric names. */
static int load_run(const hp__jv *jr, const hp_pass_result *pr, hp_run *r)
{
  const hp__jv *vals = hp__jv_get(jr, HP__K_RUN_VALUES), *files = hp__jv_get(jr, HP__K_RUN_FILES);
  const hp__jv *mem = hp__jv_get(jr, HP__K_RUN_MEMORY);
  double rss = jnum(jr, HP__K_RUN_MAX_RSS_KB);
  size_t k;

  r->index = (int)jnum(jr, HP__K_RUN_INDEX);
  r->warmup = jbool(jr, HP__K_RUN_WARMUP);
  r->round = (int)jnum(jr, HP__K_RUN_ROUND);
  r->dir = jstr(jr, HP__K_RUN_DIR);
  r->command = jstr(jr, HP__K_RUN_COMMAND);
  r->exit_status = (long long)jnum(jr, HP__K_RUN_EXIT_STATUS);
  r->term_signal = (int)jnum(jr, HP__K_RUN_SIGNAL);
  r->timed_out = jbool(jr, HP__K_RUN_TIMED_OUT);
  r->interrupted = jbool(jr, HP__K_RUN_INTERRUPTED);
  r->error = jstr(jr, HP__K_RUN_ERROR);
  r->wall_ms = jnum(jr, HP__K_RUN_WALL_MS);
  r->max_rss_kb = isnan(rss) ? -1 : (long)rss;
  r->ok = jbool(jr, HP__K_RUN_OK);
  r->mem_mean_mib = jnum(mem, HP__K_MEMORY_MEAN);
  r->mem_peak_mib = jnum(mem, HP__K_MEMORY_PEAK);
  /* The pass's sampled memory counts only runs with samples, so the count must come back too. */
  r->mem_samples =
      isnan(jnum(mem, HP__K_MEMORY_SAMPLES)) ? 0 : (long)jnum(mem, HP__K_MEMORY_SAMPLES);
  r->values = malloc((pr->nmetrics ? pr->nmetrics : 1) * sizeof(double));
  if (r->values == NULL)
    return HP_ENOMEM;
  for (k = 0; k < pr->nmetrics; k++)
    r->values[k] = pr->metrics[k].name ? jnum(vals, pr->metrics[k].name) : NAN;
  for (k = 0; k < hp__jv_len(files); k++)
    if (hp__jv_str(hp__jv_at(files, k)) &&
        hp__strv_push(&r->files, hp__jv_str(hp__jv_at(files, k))))
      return HP_ENOMEM;
  return 0;
}

/* One passes[] item. HP_EPARSE when it has no name or mode, HP_ENOMEM. */
static int load_pass(const hp__jv *jp, hp_pass_result *pr)
{
  const hp__jv *ms = hp__jv_get(jp, HP__K_PASS_METRICS), *runs = hp__jv_get(jp, HP__K_PASS_RUNS);
  double launches;
  size_t i;
  int r;

  if (hp__pass_result_init(pr, hp__jv_len(ms)))
    return HP_ENOMEM;
  pr->name = jstr(jp, HP__K_PASS_NAME);
  pr->mode = jstr(jp, HP__K_PASS_MODE);
  pr->tool = jstr(jp, HP__K_PASS_TOOL);
  pr->kernel = jstr(jp, HP__K_PASS_KERNEL);
  pr->is_baseline = jbool(jp, HP__K_PASS_BASELINE);
  pr->is_variant = jbool(jp, HP__K_PASS_VARIANT);
  pr->is_reference = jbool(jp, HP__K_PASS_REFERENCE);
  pr->expect_distorted = jis(jp, HP__K_PASS_EXPECT, HP__V_EXPECT_DISTORTED);
  pr->flag = flag_from(hp__jv_str(hp__jv_get(jp, HP__K_PASS_FLAG)));
  pr->verdict = jstr(jp, HP__K_PASS_VERDICT);
  pr->advice = jstr(jp, HP__K_PASS_ADVICE);
  if (pr->name == NULL || pr->mode == NULL)
    return HP_EPARSE;
  load_metrics(ms, pr);
  pr->mem_note = jstr(hp__jv_get(jp, HP__K_PASS_MEMORY), HP__K_MEMORY_NOTE);
  /* The app's own launch count came from its stdout, which is not parsed again. */
  launches = jnum(hp__jv_get(jp, HP__K_PASS_CROSSCHECK), HP__K_CROSSCHECK_APP_LAUNCHES);
  if (!isnan(launches))
    pr->app_launches = (long long)launches;
  pr->nruns = 0;
  pr->runs = calloc(hp__jv_len(runs) + 1, sizeof(*pr->runs));
  if (pr->runs == NULL)
    return HP_ENOMEM;
  for (i = 0; i < hp__jv_len(runs); i++)
    if ((r = load_run(hp__jv_at(runs, i), pr, &pr->runs[pr->nruns++])) != 0)
      return r;
  return 0;
}

/* The session's own members (schedule, thresholds), with defaults for what an older file lacks. */
static void load_session_head(const hp__jv *root, hp_session *s, const char *file, hp_diags *diags)
{
  const hp__jv *th = hp__jv_get(root, HP__K_SESSION_THRESHOLDS);

  s->schema = (int)jnum(root, HP__K_SESSION_SCHEMA);
  if (s->schema > HPRUN_SUMMARY_SCHEMA)
    hp_diags_add(diags, HP_DIAG_WARNING, file, 0, 0,
                 "written with summary schema %d, newer than this hprun's %d", s->schema,
                 HPRUN_SUMMARY_SCHEMA);
  s->name = jstr(root, HP__K_SESSION_NAME);
  s->hprun_version = jstr(root, HP__K_SESSION_VERSION);
  s->plan_file = jstr(root, HP__K_SESSION_PLAN);
  s->complete = jbool(root, HP__K_SESSION_COMPLETE);
  s->interrupted = jbool(root, HP__K_SESSION_INTERRUPTED);
  s->error = jstr(root, HP__K_SESSION_ERROR);
  s->started = jstr(root, HP__K_SESSION_STARTED);
  s->finished = jstr(root, HP__K_SESSION_FINISHED);
  s->order = jstr(root, HP__K_SESSION_ORDER);
  s->seed = (uint64_t)jnum(root, HP__K_SESSION_SEED);
  s->repeat = (int)jnum(root, HP__K_SESSION_REPEAT);
  s->warmup = (int)jnum(root, HP__K_SESSION_WARMUP);
  s->warn = jnum(th, HP__K_THRESHOLD_WARN);
  s->fail = jnum(th, HP__K_THRESHOLD_FAIL);
  if (isnan(s->fail))
    s->fail = -1;
  s->alpha = jnum(th, HP__K_THRESHOLD_ALPHA);
  if (isnan(s->warn))
    s->warn = 0.05;
  if (isnan(s->alpha))
    s->alpha = 0.05;
}

/* Reads and parses the file that `path` names (a session folder means its summary.json). *file
 * gets the file's path (the caller frees it, also on failure); errors go to diags. */
static int parse_file(const char *path, char **file, hp__jv **root, hp_diags *diags)
{
  char *text = NULL, err[256];
  struct stat st;
  size_t len;
  int r;

  *file = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? hp__path_join(path, HP__SUMMARY_FILE)
                                                      : hp__strdup(path);
  if (*file == NULL)
    return HP_ENOMEM;
  if ((r = hp__read_file(*file, &text, &len)) != 0) {
    hp_diags_add(diags, HP_DIAG_ERROR, *file, 0, 0, "cannot read: %s", hp_strerror(r));
    return r;
  }
  if ((r = hp__jv_parse(text, len, root, err, sizeof(err))) != 0) {
    long line = 0, col = 0;
    sscanf(err, "%ld:%ld", &line, &col);
    hp_diags_add(diags, HP_DIAG_ERROR, *file, line, col, "not a valid summary.json: %s", err);
  }
  free(text);
  return r;
}

/* Every passes[] item into s->passes; the baseline is the one marked so. */
static int load_passes(const hp__jv *passes, hp_session *s, const char *file, hp_diags *diags)
{
  size_t i;
  int r;

  s->npasses = hp__jv_len(passes);
  s->passes = calloc(s->npasses + 1, sizeof(*s->passes));
  if (s->passes == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses; i++) {
    if ((r = load_pass(hp__jv_at(passes, i), &s->passes[i])) != 0) {
      hp_diags_add(diags, HP_DIAG_ERROR, file, 0, 0, "pass %zu: incomplete entry", i + 1);
      return r;
    }
    if (s->passes[i].is_baseline)
      s->baseline = i;
  }
  return 0;
}

/* The stored causes into s->causes, in their stored order. */
static int load_causes(const hp__jv *jc, hp_session *s)
{
  size_t i;
  int k;

  for (i = 0; i < hp__jv_len(jc); i++) {
    const hp__jv *c = hp__jv_at(jc, i);
    const char *kind = hp__jv_str(hp__jv_get(c, HP__K_CAUSE_KIND));
    /* An unknown kind reads as a failure: a file from a newer hprun must not look healthier. */
    hp_cause_kind ck = HP_CAUSE_RUN_FAILED;
    for (k = HP_CAUSE_RUN_FAILED; k <= HP_CAUSE_NOTE; k++)
      if (kind && strcmp(kind, hp_cause_kind_name((hp_cause_kind)k)) == 0)
        ck = (hp_cause_kind)k;
    if (hp__cause_add(&s->causes, &s->ncauses, ck, hp__jv_str(hp__jv_get(c, HP__K_CAUSE_PASS)),
                      hp__jv_str(hp__jv_get(c, HP__K_CAUSE_TEXT))))
      return HP_ENOMEM;
  }
  return 0;
}

/* The statistics, recomputed from the runs, and the judgements, as stored. A file written before
 * hprun stored its causes and exit code gets them derived from its stored flags and verdicts. */
static int load_judgements(const hp__jv *root, hp_session *s)
{
  const hp__jv *jc = hp__jv_get(root, HP__K_SESSION_CAUSES);
  double code = jnum(root, HP__K_SESSION_EXIT_CODE);
  int r;

  if ((r = hp__session_measure(s, NULL)) != 0)
    return r;
  if (hp__jv_type_of(jc) == HP__JV_ARR)
    r = load_causes(jc, s);
  else
    r = hp__session_causes(s, NULL, &s->causes, &s->ncauses);
  s->exit_code = isnan(code) ? hp__session_exit_code(s) : (int)code;
  return r;
}

int hp_session_load(const char *path, hp_session **out, hp_diags *diags)
{
  char *file = NULL;
  hp__jv *root = NULL;
  const hp__jv *passes;
  hp_session *s = NULL;
  hp_plan *plan = NULL;
  const char *base;
  int r;

  *out = NULL;
  if ((r = parse_file(path, &file, &root, diags)) != 0)
    goto fail;
  s = calloc(1, sizeof(*s));
  passes = hp__jv_get(root, HP__K_SESSION_PASSES);
  if (s == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if (hp__jv_type_of(passes) != HP__JV_ARR ||
      hp__jv_str(hp__jv_get(root, HP__K_SESSION_NAME)) == NULL) {
    hp_diags_add(diags, HP_DIAG_ERROR, file, 1, 1, "not an hprun summary.json (no name or passes)");
    r = HP_EPARSE;
    goto fail;
  }
  load_session_head(root, s, file, diags);
  /* The folder is where the file is now, not where it was written: sessions get moved. */
  base = strrchr(file, '/');
  s->dir = base ? hp__strndup(file, (size_t)(base - file)) : hp__strdup(".");
  if (s->dir == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if ((r = load_passes(passes, s, file, diags)) != 0)
    goto fail;
  /* The statistics recomputed, the judgements as stored, the profiles parsed again with the
   * categories of the plan the session ran. */
  if ((r = load_judgements(root, s)) != 0 || (r = hp__session_plan_copy(s, &plan, diags)) != 0)
    goto fail;
  hp__session_parse_profiles(s, plan ? plan->categories : NULL, plan ? plan->ncategories : 0,
                             diags);
  *out = s;
  s = NULL;
  r = 0;

fail:
  hp_plan_free(plan);
  hp_session_free(s);
  hp__jv_free(root);
  free(file);
  return r;
}
