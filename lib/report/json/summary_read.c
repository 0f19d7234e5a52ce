/*
 * Reading a stored summary.json back into a hp_session, for `hprun report` and `hprun compare`.
 * What was measured is read (the runs, their values, the names and settings), and so is every
 * judgement the run made (flags, advice, verdicts, the causes and the exit code): a report
 * re-rendered later must say exactly what the run said, not what a re-analysis would say now.
 * Only the statistics are recomputed from the runs (the same numbers: the bootstrap is seeded),
 * and the profiles are parsed again from the run folders with the plan copy's categories. The keys
 * are named once in lib/report/core/summary_keys.h, shared with the writer (summary_json.c).
 *
 * Nothing in the file is trusted: it may come from another machine, an older hprun or an editor.
 * Every member is checked as it is read (lib/report/json/summary_field.c), and so is the shape the
 * analysis relies on (every pass has the same metrics, every run one value per metric); the first
 * bad member refuses the whole file with one error that names it, and the commands exit 4.
 */
#include "analyze/crosscheck.h"
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "analyze/roofline.h"
#include "report/json/plan_copy.h"
#include "report/json/summary_field.h"
#include "report/core/summary_keys.h"
#include "report/json/summary.h"
#include "report/json/summary_roofline.h"
#include "report/json/summary_launch.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"
#include "util/base/strv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The flag named s into *out: every name hp_flag_name knows (the enum runs from 0 until it
 * answers "?"). A missing or unknown flag refuses the file: reading it as `failed` would invent a
 * failed run that the stored runs do not show. */
static int flag_from(const hp__sf *pc, const char *s, hp_flag *out)
{
  int f;

  for (f = HP_FLAG_BASELINE; strcmp(hp_flag_name((hp_flag)f), "?") != 0; f++)
    if (s && strcmp(s, hp_flag_name((hp_flag)f)) == 0) {
      *out = (hp_flag)f;
      return 0;
    }
  if (s == NULL)
    return hp__sf_fail(pc, HP__K_PASS_FLAG, "missing or not a string");
  return hp__sf_fail(pc, HP__K_PASS_FLAG, "\"%s\" is not a flag this hprun knows", s);
}

/* The metrics' names and settings; their statistics are recomputed from the runs. A run's values
 * are stored under the metrics' names, so two metrics of one pass cannot share a name. */
static int load_metrics(const hp__sf *pc, hp_pass_result *pr)
{
  size_t i, k;
  int r;

  for (i = 0; i < pr->nmetrics; i++) {
    hp_metric_result *m = &pr->metrics[i];
    const char *better;
    double tol, abs_tol;
    hp__sf mc;
    if ((r = hp__sf_item(pc, HP__K_PASS_METRICS, i, &mc)) != 0 ||
        (r = hp__sf_str(&mc, HP__K_METRIC_NAME, HP__SF_REQUIRED, &m->name)) != 0 ||
        (r = hp__sf_str(&mc, HP__K_METRIC_UNIT, HP__SF_OPTIONAL, &m->unit)) != 0 ||
        (r = hp__sf_word(&mc, HP__K_METRIC_BETTER, &better)) != 0 ||
        (r = hp__sf_num(&mc, HP__K_METRIC_TOLERANCE, HP__SF_OPTIONAL, &tol)) != 0 ||
        (r = hp__sf_num(&mc, HP__K_METRIC_ABS_TOLERANCE, HP__SF_OPTIONAL, &abs_tol)) != 0)
      return r;
    if (tol < 0)
      return hp__sf_fail(&mc, HP__K_METRIC_TOLERANCE, "%g is negative (a tolerance is >= 0)", tol);
    if (abs_tol < 0)
      return hp__sf_fail(&mc, HP__K_METRIC_ABS_TOLERANCE, "%g is negative (a tolerance is >= 0)",
                         abs_tol);
    m->abs_tolerance = isnan(abs_tol) ? -1 : abs_tol;
    m->higher_is_better = better && strcmp(better, HP__V_BETTER_HIGHER) == 0;
    m->tolerance = isnan(tol) ? -1 : tol;
    for (k = 0; k < i; k++)
      if (strcmp(pr->metrics[k].name, m->name) == 0)
        return hp__sf_fail(&mc, HP__K_METRIC_NAME, "\"%s\" is also the name of metrics[%zu]",
                           m->name, k);
  }
  return 0;
}

/* Every pass measures the plan's metrics in the plan's order: the analysis compares a pass's
 * metric i with the baseline's metric i, and sizes each run's values by its pass's count. */
static int same_metrics(const hp__sf *pc, const hp_pass_result *pr, const hp_pass_result *first)
{
  size_t k;

  if (pr->nmetrics != first->nmetrics)
    return hp__sf_fail(pc, HP__K_PASS_METRICS,
                       "pass \"%s\" has %zu metrics, but pass \"%s\" (passes[0]) has %zu: every "
                       "pass measures the same metrics",
                       pr->name, pr->nmetrics, first->name, first->nmetrics);
  for (k = 0; k < pr->nmetrics; k++)
    if (strcmp(pr->metrics[k].name, first->metrics[k].name) != 0)
      return hp__sf_fail(pc, HP__K_PASS_METRICS,
                         "pass \"%s\" has metric \"%s\" where pass \"%s\" (passes[0]) has \"%s\": "
                         "every pass measures the same metrics",
                         pr->name, pr->metrics[k].name, first->name, first->metrics[k].name);
  return 0;
}

/* A run's values: one per metric of its pass, stored under the metric's name (null: none). */
static int load_values(const hp__sf *rc, const hp_pass_result *pr, hp_run *r)
{
  hp__sf vc;
  size_t k;
  int e;

  if ((e = hp__sf_object(rc, HP__K_RUN_VALUES, HP__SF_REQUIRED, &vc)) != 0)
    return e;
  if (hp__jv_len(vc.obj) != pr->nmetrics)
    return hp__sf_fail(rc, HP__K_RUN_VALUES, "%zu values, but the pass has %zu metrics",
                       hp__jv_len(vc.obj), pr->nmetrics);
  r->values = malloc((pr->nmetrics ? pr->nmetrics : 1) * sizeof(double));
  if (r->values == NULL)
    return HP_ENOMEM;
  for (k = 0; k < pr->nmetrics; k++)
    if ((e = hp__sf_num(&vc, pr->metrics[k].name, HP__SF_REQUIRED, &r->values[k])) != 0)
      return e;
  return 0;
}

/* What the run left besides stdout and stderr: an optional array of names. */
static int load_files(const hp__sf *rc, hp_run *r)
{
  const hp__jv *files;
  char key[48];
  size_t k;
  int e;

  if ((e = hp__sf_array(rc, HP__K_RUN_FILES, HP__SF_OPTIONAL, &files)) != 0)
    return e;
  for (k = 0; k < hp__jv_len(files); k++) {
    const char *name = hp__jv_str(hp__jv_at(files, k));
    if (name == NULL) {
      snprintf(key, sizeof(key), "%s[%zu]", HP__K_RUN_FILES, k);
      return hp__sf_fail(rc, key, "not a string");
    }
    if (hp__strv_push(&r->files, name))
      return HP_ENOMEM;
  }
  return 0;
}

/* A run's folder, relative to the session's: the profiles are parsed again from it, and a
 * summary.json must not send that scan elsewhere ("/", "../.."). */
static int check_run_dir(const hp__sf *rc, const char *dir)
{
  const char *p = dir;

  if (*dir == '\0' || *dir == '/')
    return hp__sf_fail(rc, HP__K_RUN_DIR, "\"%s\" is not a folder inside the session", dir);
  /* Each step of the path, p at its first character. */
  while (p) {
    if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
      return hp__sf_fail(rc, HP__K_RUN_DIR, "\"%s\" leaves the session folder", dir);
    p = strchr(p, '/');
    p = p ? p + 1 : NULL;
  }
  return 0;
}

/* Item i of the pass's runs into r. Unknown figures (no memory sampled, no RSS) stay unknown. */
static int load_run(const hp__sf *pc, size_t i, const hp_pass_result *pr, hp_run *r)
{
  hp__sf rc, mem;
  int e;

  r->max_rss_kb = -1;
  if ((e = hp__sf_item(pc, HP__K_PASS_RUNS, i, &rc)) != 0 ||
      (e = hp__sf_int(&rc, HP__K_RUN_INDEX, HP__SF_REQUIRED, 0, INT_MAX, &r->index)) != 0 ||
      (e = hp__sf_bool(&rc, HP__K_RUN_WARMUP, &r->warmup)) != 0 ||
      (e = hp__sf_int(&rc, HP__K_RUN_ROUND, HP__SF_REQUIRED, 0, INT_MAX, &r->round)) != 0 ||
      (e = hp__sf_str(&rc, HP__K_RUN_DIR, HP__SF_REQUIRED, &r->dir)) != 0 ||
      (e = check_run_dir(&rc, r->dir)) != 0 ||
      (e = hp__sf_str(&rc, HP__K_RUN_COMMAND, HP__SF_OPTIONAL, &r->command)) != 0 ||
      (e = hp__sf_llong(&rc, HP__K_RUN_EXIT_STATUS, HP__SF_REQUIRED, LLONG_MIN, LLONG_MAX,
                        &r->exit_status)) != 0 ||
      (e = hp__sf_int(&rc, HP__K_RUN_SIGNAL, HP__SF_REQUIRED, 0, INT_MAX, &r->term_signal)) != 0 ||
      (e = hp__sf_bool(&rc, HP__K_RUN_TIMED_OUT, &r->timed_out)) != 0 ||
      (e = hp__sf_bool(&rc, HP__K_RUN_INTERRUPTED, &r->interrupted)) != 0 ||
      (e = hp__sf_str(&rc, HP__K_RUN_ERROR, HP__SF_OPTIONAL, &r->error)) != 0 ||
      (e = hp__sf_num(&rc, HP__K_RUN_WALL_MS, HP__SF_OPTIONAL, &r->wall_ms)) != 0 ||
      (e = hp__sf_long(&rc, HP__K_RUN_MAX_RSS_KB, HP__SF_OPTIONAL, 0, LONG_MAX, &r->max_rss_kb)) !=
          0 ||
      (e = hp__sf_bool(&rc, HP__K_RUN_OK, &r->ok)) != 0 ||
      (e = hp__sf_bool(&rc, HP__K_RUN_SKIPPED, &r->skipped)) != 0 ||
      (e = load_values(&rc, pr, r)) != 0 ||
      (e = hp__sf_object(&rc, HP__K_RUN_MEMORY, HP__SF_OPTIONAL, &mem)) != 0 ||
      (e = hp__sf_num(&mem, HP__K_MEMORY_MEAN, HP__SF_OPTIONAL, &r->mem_mean_mib)) != 0 ||
      (e = hp__sf_num(&mem, HP__K_MEMORY_PEAK, HP__SF_OPTIONAL, &r->mem_peak_mib)) != 0 ||
      /* The pass's sampled memory counts only runs with samples, so the count comes back too. */
      (e = hp__sf_long(&mem, HP__K_MEMORY_SAMPLES, HP__SF_OPTIONAL, 0, LONG_MAX,
                       &r->mem_samples)) != 0)
    return e;
  if ((e = load_files(&rc, r)) != 0)
    return e;
  return hp__summary_read_launch(&rc, pr, r);
}

/* The members of a passes[] item other than its metrics and runs. */
static int load_pass_head(const hp__sf *pc, hp_pass_result *pr)
{
  const char *expect;
  hp__sf mem, xc;
  int e;

  if ((e = hp__sf_str(pc, HP__K_PASS_NAME, HP__SF_REQUIRED, &pr->name)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_MODE, HP__SF_REQUIRED, &pr->mode)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_TOOL, HP__SF_OPTIONAL, &pr->tool)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_KERNEL, HP__SF_OPTIONAL, &pr->kernel)) != 0 ||
      (e = hp__sf_bool(pc, HP__K_PASS_BASELINE, &pr->is_baseline)) != 0 ||
      (e = hp__sf_bool(pc, HP__K_PASS_VARIANT, &pr->is_variant)) != 0 ||
      (e = hp__sf_bool(pc, HP__K_PASS_REFERENCE, &pr->is_reference)) != 0 ||
      (e = hp__sf_word(pc, HP__K_PASS_EXPECT, &expect)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_VERDICT, HP__SF_OPTIONAL, &pr->verdict)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_ADVICE, HP__SF_OPTIONAL, &pr->advice)) != 0 ||
      (e = hp__sf_str(pc, HP__K_PASS_STOPPED, HP__SF_OPTIONAL, &pr->stopped)) != 0 ||
      (e = hp__sf_object(pc, HP__K_PASS_MEMORY, HP__SF_OPTIONAL, &mem)) != 0 ||
      (e = hp__sf_str(&mem, HP__K_MEMORY_NOTE, HP__SF_OPTIONAL, &pr->mem_note)) != 0 ||
      (e = hp__sf_object(pc, HP__K_PASS_CROSSCHECK, HP__SF_OPTIONAL, &xc)) != 0 ||
      /* The app's own launch count came from its stdout, which is not parsed again. */
      (e = hp__sf_llong(&xc, HP__K_CROSSCHECK_APP_LAUNCHES, HP__SF_OPTIONAL, 0, LLONG_MAX,
                        &pr->app_launches)) != 0)
    return e;
  pr->expect_distorted = expect && strcmp(expect, HP__V_EXPECT_DISTORTED) == 0;
  return 0;
}

/* Item i of passes[] into pr; `first` is the pass read first (NULL for itself), whose metrics
 * every other pass must have. */
static int load_pass(const hp__sf *root, size_t i, const hp_pass_result *first, hp_pass_result *pr)
{
  const hp__jv *ms, *runs;
  hp__sf pc;
  size_t k;
  int r;

  if ((r = hp__sf_item(root, HP__K_SESSION_PASSES, i, &pc)) != 0 ||
      (r = hp__sf_array(&pc, HP__K_PASS_METRICS, HP__SF_REQUIRED, &ms)) != 0 ||
      (r = hp__sf_array(&pc, HP__K_PASS_RUNS, HP__SF_REQUIRED, &runs)) != 0)
    return r;
  if (hp__pass_result_init(pr, hp__jv_len(ms)))
    return HP_ENOMEM;
  if ((r = load_pass_head(&pc, pr)) != 0 || (r = load_metrics(&pc, pr)) != 0 ||
      (first && (r = same_metrics(&pc, pr, first)) != 0))
    return r;
  pr->runs = calloc(hp__jv_len(runs) + 1, sizeof(*pr->runs));
  if (pr->runs == NULL)
    return HP_ENOMEM;
  for (k = 0; k < hp__jv_len(runs); k++)
    if ((r = load_run(&pc, k, pr, &pr->runs[pr->nruns++])) != 0)
      return r;
  return 0;
}

/* The session's own members (schedule, thresholds), with defaults for what an older file lacks.
 * The thresholds are held to the plan's rules (docs/plan.md), which every hprun-written file
 * meets. */
static int load_session_head(const hp__sf *rc, hp_session *s)
{
  hp__sf th;
  int e;

  if ((e = hp__sf_int(rc, HP__K_SESSION_SCHEMA, HP__SF_REQUIRED, 1, INT_MAX, &s->schema)) != 0)
    return e;
  if (s->schema > HPRUN_SUMMARY_SCHEMA)
    hp_diags_add(rc->diags, HP_DIAG_WARNING, rc->file, 0, 0,
                 "written with summary schema %d, newer than this hprun's %d", s->schema,
                 HPRUN_SUMMARY_SCHEMA);
  if ((e = hp__sf_str(rc, HP__K_SESSION_NAME, HP__SF_REQUIRED, &s->name)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_VERSION, HP__SF_OPTIONAL, &s->hprun_version)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_PLAN, HP__SF_OPTIONAL, &s->plan_file)) != 0 ||
      (e = hp__sf_bool(rc, HP__K_SESSION_COMPLETE, &s->complete)) != 0 ||
      (e = hp__sf_bool(rc, HP__K_SESSION_INTERRUPTED, &s->interrupted)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_ERROR, HP__SF_OPTIONAL, &s->error)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_STARTED, HP__SF_OPTIONAL, &s->started)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_FINISHED, HP__SF_OPTIONAL, &s->finished)) != 0 ||
      (e = hp__sf_str(rc, HP__K_SESSION_ORDER, HP__SF_OPTIONAL, &s->order)) != 0 ||
      (e = hp__sf_u64(rc, HP__K_SESSION_SEED, &s->seed)) != 0 ||
      (e = hp__sf_int(rc, HP__K_SESSION_REPEAT, HP__SF_REQUIRED, 0, INT_MAX, &s->repeat)) != 0 ||
      (e = hp__sf_int(rc, HP__K_SESSION_WARMUP, HP__SF_REQUIRED, 0, INT_MAX, &s->warmup)) != 0 ||
      (e = hp__sf_int(rc, HP__K_SESSION_LOOKS, HP__SF_OPTIONAL, 1, INT_MAX, &s->looks)) != 0 ||
      (e = hp__sf_object(rc, HP__K_SESSION_THRESHOLDS, HP__SF_OPTIONAL, &th)) != 0 ||
      (e = hp__sf_num(&th, HP__K_THRESHOLD_WARN, HP__SF_OPTIONAL, &s->warn)) != 0 ||
      (e = hp__sf_num(&th, HP__K_THRESHOLD_FAIL, HP__SF_OPTIONAL, &s->fail)) != 0 ||
      (e = hp__sf_num(&th, HP__K_THRESHOLD_ALPHA, HP__SF_OPTIONAL, &s->alpha)) != 0)
    return e;
  if (s->warn < 0)
    return hp__sf_fail(&th, HP__K_THRESHOLD_WARN, "%g is negative (warn is >= 0)", s->warn);
  if (s->fail <= 0)
    return hp__sf_fail(&th, HP__K_THRESHOLD_FAIL, "%g is not above 0 (fail is > 0 or null)",
                       s->fail);
  if (s->alpha <= 0 || s->alpha >= 1)
    return hp__sf_fail(&th, HP__K_THRESHOLD_ALPHA, "%g is not between 0 and 1", s->alpha);
  s->warn = isnan(s->warn) ? 0.05 : s->warn;
  s->fail = isnan(s->fail) ? -1 : s->fail;
  s->alpha = isnan(s->alpha) ? 0.05 : s->alpha;
  return 0;
}

int hp__summary_read_params(const hp__sf *c, const char *key, hp_kv **kv, size_t *n)
{
  hp__sf pc;
  size_t i, len;
  int r;

  if ((r = hp__sf_object(c, key, HP__SF_OPTIONAL, &pc)) != 0)
    return r;
  len = hp__jv_len(pc.obj);
  if (pc.obj == NULL || len == 0)
    return 0;
  if ((*kv = calloc(len, sizeof(**kv))) == NULL)
    return HP_ENOMEM;
  *n = len;
  for (i = 0; i < len; i++) {
    const char *name = hp__jv_key_at(pc.obj, i);
    if (name == NULL)
      return hp__sf_fail(c, key, "member %zu has no name", i);
    if (((*kv)[i].key = hp__strdup(name)) == NULL)
      return HP_ENOMEM;
    if ((r = hp__sf_str(&pc, name, HP__SF_REQUIRED, &(*kv)[i].value)) != 0)
      return r;
  }
  return 0;
}

/* A sweep's combination says which it is: its `combination` and `parameters` (absent: nothing). */
static int load_label(const hp__jv *root, const char *file, hp_session *s, hp_diags *diags)
{
  hp__sf rc;
  int r;

  hp__sf_root(&rc, root, file, diags);
  if ((r = hp__sf_str(&rc, HP__K_SESSION_COMBINATION, HP__SF_OPTIONAL, &s->combo)) != 0)
    return r;
  return s->combo ? hp__summary_read_params(&rc, HP__K_SESSION_PARAMETERS, &s->params, &s->nparams)
                  : 0;
}

int hp__summary_parse(const char *path, char **file, hp__jv **root, hp_diags *diags)
{
  char *text = NULL, err[256];
  struct stat st;
  size_t len;
  int r;

  *file = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? hp__path_join(path, HP__SUMMARY_FILE)
                                                      : hp__strdup(path);
  if (*file == NULL)
    return HP_ENOMEM;
  if ((r = hp__read_file_max(*file, HP__SUMMARY_MAX_BYTES, &text, &len)) != 0) {
    if (r == HP_EINVAL)
      hp_diags_add(diags, HP_DIAG_ERROR, *file, 0, 0, "cannot read: not a regular file");
    else if (r == HP_ERANGE)
      hp_diags_add(diags, HP_DIAG_ERROR, *file, 0, 0, "cannot read: over the limit of %zu MiB",
                   HP__SUMMARY_MAX_BYTES >> 20);
    else
      hp_diags_add(diags, HP_DIAG_ERROR, *file, 0, 0, "cannot read: %s", hp_strerror(r));
    return r == HP_EINVAL || r == HP_ERANGE ? HP_EIO : r;
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
static int load_passes(const hp__sf *rc, const hp__jv *passes, hp_session *s)
{
  size_t i;
  int r;

  s->npasses = hp__jv_len(passes);
  s->passes = calloc(s->npasses + 1, sizeof(*s->passes));
  if (s->passes == NULL)
    return HP_ENOMEM;
  for (i = 0; i < s->npasses; i++) {
    if ((r = load_pass(rc, i, i ? &s->passes[0] : NULL, &s->passes[i])) != 0)
      return r;
    if (s->passes[i].is_baseline)
      s->baseline = i;
  }
  /* The flags last, once the shape of every pass is known good: a file broken in its shape is
   * refused for that, the deeper fault. */
  for (i = 0; i < s->npasses; i++) {
    hp__sf pc;
    const char *flag;

    if ((r = hp__sf_item(rc, HP__K_SESSION_PASSES, i, &pc)) != 0 ||
        (r = hp__sf_word(&pc, HP__K_PASS_FLAG, &flag)) != 0 ||
        (r = flag_from(&pc, flag, &s->passes[i].flag)) != 0)
      return r;
  }
  return 0;
}

/* The stored causes into s->causes, in their stored order. */
static int load_causes(const hp__sf *rc, const hp__jv *jc, hp_session *s)
{
  size_t i;
  int k, r;

  for (i = 0; i < hp__jv_len(jc); i++) {
    const char *kind, *pass, *text;
    hp__sf cc;
    /* An unknown kind reads as a failure: a file from a newer hprun must not look healthier. */
    hp_cause_kind ck = HP_CAUSE_RUN_FAILED;
    if ((r = hp__sf_item(rc, HP__K_SESSION_CAUSES, i, &cc)) != 0 ||
        (r = hp__sf_word(&cc, HP__K_CAUSE_KIND, &kind)) != 0 ||
        (r = hp__sf_word(&cc, HP__K_CAUSE_PASS, &pass)) != 0 ||
        (r = hp__sf_word(&cc, HP__K_CAUSE_TEXT, &text)) != 0)
      return r;
    if (text == NULL)
      return hp__sf_fail(&cc, HP__K_CAUSE_TEXT, "missing or not a string");
    for (k = HP_CAUSE_RUN_FAILED; k <= HP_CAUSE_NOTE; k++)
      if (kind && strcmp(kind, hp_cause_kind_name((hp_cause_kind)k)) == 0)
        ck = (hp_cause_kind)k;
    if (hp__cause_add(&s->causes, &s->ncauses, ck, pass, text))
      return HP_ENOMEM;
  }
  return 0;
}

/* The statistics, recomputed from the runs, and the judgements, as stored. A file written before
 * hprun stored its causes and exit code gets them derived from its stored flags and verdicts. What
 * is stored is checked before anything is computed. */
static int load_judgements(const hp__sf *rc, hp_session *s)
{
  const hp__jv *jc;
  int code = -1, r;

  if ((r = hp__sf_int(rc, HP__K_SESSION_EXIT_CODE, HP__SF_OPTIONAL, 0, 255, &code)) != 0 ||
      (r = hp__sf_array(rc, HP__K_SESSION_CAUSES, HP__SF_OPTIONAL, &jc)) != 0 ||
      (jc && (r = load_causes(rc, jc, s)) != 0) || (r = hp__session_measure(s, NULL)) != 0)
    return r;
  if (jc == NULL && (r = hp__session_causes(s, NULL, &s->causes, &s->ncauses)) != 0)
    return r;
  s->exit_code = code < 0 ? hp__session_exit_code(s) : code;
  return 0;
}

/* The folder is where the file is now, not where it was written: sessions get moved. Reading
 * follows a <name>-latest link, but the session's folder is the one it points at now: whatever is
 * later written for the session goes to that folder, never through the link, which a newer
 * session may move meanwhile. */
int hp__summary_folder(const char *file, char **dir)
{
  const char *base = strrchr(file, '/');
  struct stat st;
  char *real;

  *dir = base ? hp__strndup(file, (size_t)(base - file)) : hp__strdup(".");
  if (*dir == NULL)
    return HP_ENOMEM;
  if (lstat(*dir, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(*dir, NULL)) != NULL) {
    free(*dir);
    *dir = real;
  }
  return 0;
}

int hp__summary_load(const char *file, const hp__jv *root, hp_session **out, hp_diags *diags)
{
  const hp__jv *passes;
  hp_session *s = NULL;
  hp_plan *plan = NULL;
  hp__sf rc;
  int r;

  *out = NULL;
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
  if ((r = hp__summary_folder(file, &s->dir)) != 0)
    goto fail;
  /* Every member is checked as it is read, and the runs against their passes' metrics, before
   * the statistics are recomputed, the judgements taken as stored and the profiles parsed again
   * with the categories of the plan the session ran. */
  hp__sf_root(&rc, root, file, diags);
  if ((r = load_session_head(&rc, s)) != 0 || (r = load_passes(&rc, passes, s)) != 0 ||
      (r = load_judgements(&rc, s)) != 0 || (r = load_label(root, file, s, diags)) != 0 ||
      (r = hp__session_plan_copy(s, &plan, diags)) != 0 ||
      (r = hp__summary_read_peaks(&rc, s)) != 0)
    goto fail;
  s->report_top = plan ? plan->report_top : 0; /* report.top of the plan the session ran */
  hp__session_parse_profiles(s, plan ? plan->categories : NULL, plan ? plan->ncategories : 0,
                             plan ? plan->app.region : NULL, diags);
  hp__session_crosscheck(s, plan);
  hp__session_roofline(s);
  *out = s;
  s = NULL;
  r = 0;

fail:
  hp_plan_free(plan);
  hp_session_free(s);
  return r;
}
