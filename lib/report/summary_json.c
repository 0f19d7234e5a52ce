/*
 * summary.json: written after every session (also an interrupted one) and read back by
 * `hprun report` and `hprun compare`. Keys are documented in docs/summary.md; the schema number
 * (HPRUN_SUMMARY_SCHEMA) changes whenever a key changes meaning or disappears.
 */
#include "analyze/profiles.h"
#include "analyze/results.h"
#include "profile/out.h"
#include "util/buf.h"
#include "util/fsutil.h"
#include "util/json.h"
#include "util/jsonread.h"
#include "util/strv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A metric's change against the baseline (or reference): null for the baseline itself. */
static void write_overhead(hp__json *j, const hp_metric_result *m)
{
  if (m == NULL) {
    hp__json_null(j);
    return;
  }
  hp__json_obj_begin(j);
  hp__json_knum(j, "ratio", m->ratio);
  hp__json_knum(j, "percent", isnan(m->ratio) ? NAN : (m->ratio - 1.0) * 100.0);
  hp__json_key(j, "ci95");
  hp__json_arr_begin(j);
  hp__json_num(j, m->ci_lo);
  hp__json_num(j, m->ci_hi);
  hp__json_arr_end(j);
  hp__json_knum(j, "p", m->p);
  hp__json_kstr(j, "significant", hp_significance_name(m->sig));
  hp__json_knum(j, "delta", m->delta);
  hp__json_obj_end(j);
}

static void write_metric(hp__json *j, const hp_metric_result *m, int baseline)
{
  hp__json_obj_begin(j);
  hp__json_kstr(j, "name", m->name);
  hp__json_kstr(j, "unit", m->unit);
  hp__json_kstr(j, "better", m->higher_is_better ? "higher" : "lower");
  hp__json_knum(j, "tolerance", m->tolerance >= 0 ? m->tolerance : NAN);
  hp__json_kint(j, "n", (long long)m->st.n);
  hp__json_knum(j, "median", m->st.median);
  hp__json_knum(j, "mean", m->st.mean);
  hp__json_knum(j, "sd", m->st.sd);
  hp__json_knum(j, "mad", m->st.mad);
  hp__json_knum(j, "cv", m->st.cv);
  hp__json_knum(j, "min", m->st.min);
  hp__json_knum(j, "max", m->st.max);
  hp__json_kint(j, "outliers", (long long)m->st.noutliers);
  hp__json_key(j, "overhead");
  write_overhead(j, baseline ? NULL : m);
  hp__json_obj_end(j);
}

static void write_run(hp__json *j, const hp_run *r, const hp_pass_result *pr)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kint(j, "index", r->index);
  hp__json_kbool(j, "warmup", r->warmup);
  hp__json_kint(j, "round", r->round);
  hp__json_kstr(j, "dir", r->dir);
  hp__json_kstr(j, "command", r->command);
  hp__json_kint(j, "exit_status", r->exit_status);
  hp__json_kint(j, "signal", r->term_signal);
  hp__json_kbool(j, "timed_out", r->timed_out);
  hp__json_kbool(j, "interrupted", r->interrupted);
  hp__json_kstr(j, "error", r->error);
  hp__json_knum(j, "wall_ms", r->wall_ms);
  hp__json_key(j, "max_rss_kb");
  if (r->max_rss_kb < 0)
    hp__json_null(j);
  else
    hp__json_int(j, r->max_rss_kb);
  hp__json_kbool(j, "ok", r->ok);
  hp__json_key(j, "values");
  hp__json_obj_begin(j);
  for (i = 0; i < pr->nmetrics; i++)
    hp__json_knum(j, pr->metrics[i].name ? pr->metrics[i].name : "?",
                  r->values ? r->values[i] : NAN);
  hp__json_obj_end(j);
  hp__json_key(j, "memory");
  hp__json_obj_begin(j);
  hp__json_knum(j, "sampled_mean_mib", r->mem_mean_mib);
  hp__json_knum(j, "sampled_peak_mib", r->mem_peak_mib);
  hp__json_kint(j, "samples", r->mem_samples);
  hp__json_obj_end(j);
  hp__json_key(j, "files");
  hp__json_arr_begin(j);
  for (i = 0; i < r->files.n; i++)
    hp__json_str(j, r->files.v[i]);
  hp__json_arr_end(j);
  hp__json_obj_end(j);
}

static void write_pass(hp__json *j, const hp_pass_result *pr)
{
  size_t i;

  hp__json_obj_begin(j);
  hp__json_kstr(j, "name", pr->name);
  hp__json_kstr(j, "mode", pr->mode);
  hp__json_kstr(j, "tool", pr->tool);
  hp__json_kstr(j, "kernel", pr->kernel);
  hp__json_kbool(j, "baseline", pr->is_baseline);
  hp__json_kbool(j, "variant", pr->is_variant);
  hp__json_kbool(j, "reference", pr->is_reference);
  hp__json_kstr(j, "expect", pr->expect_distorted ? "distorted" : "ok");
  hp__json_kstr(j, "flag", hp_flag_name(pr->flag));
  hp__json_kstr(j, "advice", pr->advice);
  hp__json_kstr(j, "verdict", pr->verdict);
  hp__json_key(j, "metrics");
  hp__json_arr_begin(j);
  for (i = 0; i < pr->nmetrics; i++)
    write_metric(j, &pr->metrics[i], pr->is_baseline || pr->is_reference);
  hp__json_arr_end(j);
  /* The primary metric's overhead, repeated at the pass level for scripts that want one number. */
  hp__json_key(j, "overhead");
  write_overhead(j,
                 pr->is_baseline || pr->is_reference || pr->nmetrics == 0 ? NULL : &pr->metrics[0]);
  hp__json_key(j, "memory");
  hp__json_obj_begin(j);
  hp__json_knum(j, "sampled_mean_mib", pr->mem_mean_mib);
  hp__json_knum(j, "sampled_peak_mib", pr->mem_peak_mib);
  hp__json_kstr(j, "note", pr->mem_note);
  hp__json_key(j, "host_peak_rss_kb");
  if (pr->max_rss_kb < 0)
    hp__json_null(j);
  else
    hp__json_int(j, pr->max_rss_kb);
  hp__json_obj_end(j);
  hp__json_key(j, "crosscheck");
  if (pr->xk_name == NULL) {
    hp__json_null(j);
  } else {
    hp__json_obj_begin(j);
    hp__json_kstr(j, "kernel", pr->xk_name);
    hp__json_knum(j, "profiler_avg_ms", pr->xk_avg_ms);
    hp__json_kint(j, "profiler_calls", pr->xk_calls);
    hp__json_key(j, "app_launches");
    if (pr->app_launches < 0)
      hp__json_null(j);
    else
      hp__json_int(j, pr->app_launches);
    hp__json_knum(j, "app_median", pr->nmetrics ? pr->metrics[0].st.median : NAN);
    hp__json_obj_end(j);
  }
  hp__json_key(j, "runs");
  hp__json_arr_begin(j);
  for (i = 0; i < pr->nruns; i++)
    write_run(j, &pr->runs[i], pr);
  hp__json_arr_end(j);
  hp__json_key(j, "profile");
  if (pr->profile)
    hp__profile_json(pr->profile, j, NULL);
  else
    hp__json_null(j);
  hp__json_obj_end(j);
}

int hp_report_json(const hp_session *s, char **out)
{
  hp__json j;
  size_t i;
  int r;

  *out = NULL;
  hp__json_init(&j, 1);
  hp__json_obj_begin(&j);
  hp__json_kint(&j, "schema", s->schema ? s->schema : HPRUN_SUMMARY_SCHEMA);
  hp__json_kstr(&j, "hprun_version", s->hprun_version ? s->hprun_version : HPRUN_VERSION);
  hp__json_kstr(&j, "name", s->name);
  hp__json_kstr(&j, "dir", s->dir);
  hp__json_kstr(&j, "plan", s->plan_file);
  hp__json_kbool(&j, "complete", s->complete);
  hp__json_kbool(&j, "interrupted", s->interrupted);
  hp__json_kstr(&j, "error", s->error);
  hp__json_kint(&j, "exit_code", s->exit_code);
  hp__json_kstr(&j, "started", s->started);
  hp__json_kstr(&j, "finished", s->finished);
  hp__json_kstr(&j, "order", s->order);
  hp__json_kint(&j, "seed", (long long)s->seed);
  hp__json_kint(&j, "repeat", s->repeat);
  hp__json_kint(&j, "warmup", s->warmup);
  hp__json_key(&j, "thresholds");
  hp__json_obj_begin(&j);
  hp__json_knum(&j, "warn", s->warn);
  hp__json_knum(&j, "fail", s->fail > 0 ? s->fail : NAN);
  hp__json_knum(&j, "alpha", s->alpha);
  hp__json_obj_end(&j);
  hp__json_kstr(&j, "baseline", s->npasses ? s->passes[s->baseline].name : NULL);
  hp__json_key(&j, "passes");
  hp__json_arr_begin(&j);
  for (i = 0; i < s->npasses; i++)
    write_pass(&j, &s->passes[i]);
  hp__json_arr_end(&j);
  hp__json_obj_end(&j);
  r = hp__json_end(&j);
  if (r == 0)
    *out = hp__buf_steal(&j.out);
  hp__json_free(&j);
  return r ? r : (*out ? 0 : HP_ENOMEM);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading back.                                                                                   */

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

static hp_flag flag_from(const char *s)
{
  int f;

  for (f = HP_FLAG_BASELINE; f <= HP_FLAG_FAILED; f++)
    if (s && strcmp(s, hp_flag_name((hp_flag)f)) == 0)
      return (hp_flag)f;
  return HP_FLAG_FAILED;
}

static int load_pass(const hp__jv *jp, hp_pass_result *pr)
{
  const hp__jv *ms = hp__jv_get(jp, "metrics"), *runs = hp__jv_get(jp, "runs"), *x;
  size_t i, k, nm = hp__jv_len(ms);
  double rss;

  if (hp__pass_result_init(pr, nm))
    return HP_ENOMEM;
  pr->name = jstr(jp, "name");
  pr->mode = jstr(jp, "mode");
  pr->tool = jstr(jp, "tool");
  pr->kernel = jstr(jp, "kernel");
  pr->is_baseline = jbool(jp, "baseline");
  pr->is_variant = jbool(jp, "variant");
  pr->is_reference = jbool(jp, "reference");
  pr->expect_distorted = hp__jv_str(hp__jv_get(jp, "expect")) &&
      strcmp(hp__jv_str(hp__jv_get(jp, "expect")), "distorted") == 0;
  pr->flag = flag_from(hp__jv_str(hp__jv_get(jp, "flag")));
  pr->verdict = jstr(jp, "verdict");
  pr->advice = jstr(jp, "advice");
  if (pr->name == NULL || pr->mode == NULL)
    return HP_EPARSE;
  for (i = 0; i < nm; i++) {
    const hp__jv *jm = hp__jv_at(ms, i);
    const char *better = hp__jv_str(hp__jv_get(jm, "better"));
    pr->metrics[i].name = jstr(jm, "name");
    pr->metrics[i].unit = jstr(jm, "unit");
    pr->metrics[i].higher_is_better = better && strcmp(better, "higher") == 0;
    pr->metrics[i].tolerance = isnan(jnum(jm, "tolerance")) ? -1 : jnum(jm, "tolerance");
  }
  x = hp__jv_get(jp, "memory");
  pr->mem_note = jstr(x, "note");
  x = hp__jv_get(jp, "crosscheck");
  if (!isnan(jnum(x, "app_launches")))
    pr->app_launches = (long long)jnum(x, "app_launches");
  pr->nruns = 0;
  pr->runs = calloc(hp__jv_len(runs) + 1, sizeof(*pr->runs));
  if (pr->runs == NULL)
    return HP_ENOMEM;
  for (i = 0; i < hp__jv_len(runs); i++) {
    const hp__jv *jr = hp__jv_at(runs, i), *vals = hp__jv_get(jr, "values");
    const hp__jv *files = hp__jv_get(jr, "files"), *mem = hp__jv_get(jr, "memory");
    hp_run *r = &pr->runs[pr->nruns++];
    r->index = (int)jnum(jr, "index");
    r->warmup = jbool(jr, "warmup");
    r->round = (int)jnum(jr, "round");
    r->dir = jstr(jr, "dir");
    r->command = jstr(jr, "command");
    r->exit_status = (long long)jnum(jr, "exit_status");
    r->term_signal = (int)jnum(jr, "signal");
    r->timed_out = jbool(jr, "timed_out");
    r->interrupted = jbool(jr, "interrupted");
    r->error = jstr(jr, "error");
    r->wall_ms = jnum(jr, "wall_ms");
    rss = jnum(jr, "max_rss_kb");
    r->max_rss_kb = isnan(rss) ? -1 : (long)rss;
    r->ok = jbool(jr, "ok");
    r->mem_mean_mib = jnum(mem, "sampled_mean_mib");
    r->mem_peak_mib = jnum(mem, "sampled_peak_mib");
    r->values = malloc((nm ? nm : 1) * sizeof(double));
    if (r->values == NULL)
      return HP_ENOMEM;
    for (k = 0; k < nm; k++)
      r->values[k] = pr->metrics[k].name ? jnum(vals, pr->metrics[k].name) : NAN;
    for (k = 0; k < hp__jv_len(files); k++)
      if (hp__jv_str(hp__jv_at(files, k)) &&
          hp__strv_push(&r->files, hp__jv_str(hp__jv_at(files, k))))
        return HP_ENOMEM;
  }
  return 0;
}

int hp_session_load(const char *path, hp_session **out, hp_diags *diags)
{
  char *text = NULL, *file = NULL, err[256];
  hp__jv *root = NULL;
  const hp__jv *passes, *th;
  hp_session *s = NULL;
  size_t len, i;
  const char *base;
  struct stat st;
  int r;

  *out = NULL;
  /* A session folder means its summary.json. */
  file = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? hp__path_join(path, "summary.json")
                                                     : hp__strdup(path);
  if (file == NULL)
    return HP_ENOMEM;
  if ((r = hp__read_file(file, &text, &len)) != 0) {
    hp_diags_add(diags, HP_DIAG_ERROR, file, 0, 0, "cannot read: %s", hp_strerror(r));
    goto fail;
  }
  if ((r = hp__jv_parse(text, len, &root, err, sizeof(err))) != 0) {
    long line = 0, col = 0;
    sscanf(err, "%ld:%ld", &line, &col);
    hp_diags_add(diags, HP_DIAG_ERROR, file, line, col, "not a valid summary.json: %s", err);
    goto fail;
  }
  s = calloc(1, sizeof(*s));
  passes = hp__jv_get(root, "passes");
  if (s == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  if (hp__jv_type_of(passes) != HP__JV_ARR || hp__jv_str(hp__jv_get(root, "name")) == NULL) {
    hp_diags_add(diags, HP_DIAG_ERROR, file, 1, 1, "not an hprun summary.json (no name or passes)");
    r = HP_EPARSE;
    goto fail;
  }
  s->schema = (int)jnum(root, "schema");
  if (s->schema > HPRUN_SUMMARY_SCHEMA)
    hp_diags_add(diags, HP_DIAG_WARNING, file, 0, 0,
                 "written with summary schema %d, newer than this hprun's %d", s->schema,
                 HPRUN_SUMMARY_SCHEMA);
  s->name = jstr(root, "name");
  s->hprun_version = jstr(root, "hprun_version");
  s->plan_file = jstr(root, "plan");
  s->complete = jbool(root, "complete");
  s->interrupted = jbool(root, "interrupted");
  s->error = jstr(root, "error");
  s->started = jstr(root, "started");
  s->finished = jstr(root, "finished");
  s->order = jstr(root, "order");
  s->seed = (uint64_t)jnum(root, "seed");
  s->repeat = (int)jnum(root, "repeat");
  s->warmup = (int)jnum(root, "warmup");
  th = hp__jv_get(root, "thresholds");
  s->warn = jnum(th, "warn");
  s->fail = jnum(th, "fail");
  if (isnan(s->fail))
    s->fail = -1;
  s->alpha = jnum(th, "alpha");
  if (isnan(s->warn))
    s->warn = 0.05;
  if (isnan(s->alpha))
    s->alpha = 0.05;
  /* The folder is where the file is now, not where it was written: sessions get moved. */
  base = strrchr(file, '/');
  s->dir = base ? hp__strndup(file, (size_t)(base - file)) : hp__strdup(".");
  s->npasses = hp__jv_len(passes);
  s->passes = calloc(s->npasses + 1, sizeof(*s->passes));
  if (s->passes == NULL || s->dir == NULL) {
    r = HP_ENOMEM;
    goto fail;
  }
  for (i = 0; i < s->npasses; i++) {
    if ((r = load_pass(hp__jv_at(passes, i), &s->passes[i])) != 0) {
      hp_diags_add(diags, HP_DIAG_ERROR, file, 0, 0, "pass %zu: incomplete entry", i + 1);
      goto fail;
    }
    if (s->passes[i].is_baseline)
      s->baseline = i;
  }
  hp__session_analyze(s, NULL);
  hp__session_parse_profiles(s, NULL, 0, diags);
  s->exit_code = hp__session_exit_code(s);
  *out = s;
  s = NULL;
  r = 0;

fail:
  hp_session_free(s);
  hp__jv_free(root);
  free(text);
  free(file);
  return r;
}
