/*
 * The plan's `reference:` (docs/plan.md): absolute expectations, as in ReFrame, each a metric of
 * a pass at a value within a tolerance, optionally only on hosts or GPUs whose name matches a
 * pattern. Read after the metrics, passes and launcher, whose names each entry must give (a GPU
 * selector cannot apply to a launched pass); the gate itself is lib/analyze/reference.c.
 */
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>

enum {
  R_PASS,
  R_METRIC,
  R_VALUE,
  R_TOLERANCE,
  R_HOST,
  R_GPU,
  R_N
};
static const char *const reference_keys[] = {"pass", "metric", "value", "tolerance",
                                             "host", "gpu",    NULL};
/* The tolerance's default is the one parse_reference sets. */
static const hp_plan_key_doc reference_docs[] = {
    [R_PASS] = {"a name from passes", NULL, NULL},
    [R_METRIC] = {"a name from metrics", NULL, NULL},
    [R_VALUE] = {"number > 0", NULL, NULL},
    [R_TOLERANCE] = {"fraction in [0, 1)", NULL, "5%"},
    [R_HOST] = {"fnmatch pattern", NULL, NULL},
    [R_GPU] = {"fnmatch pattern", NULL, NULL},
};
HP__KEY_DOCS(reference_keys, reference_docs);

/* Whether name is one of the plan's passes (pass 1) or metrics (pass 0); says so when not. */
static void check_name(hp__loader *ld, yaml_node_t *at, const hp_plan *p, const char *name,
                       int pass)
{
  const char *names[64];
  char list[256];
  size_t i, n = pass ? p->npasses : p->nmetrics, k = 0;

  for (i = 0; i < n; i++) {
    const char *x = pass ? p->passes[i].name : p->metrics[i].name;
    if (x && strcmp(x, name) == 0)
      return;
    if (x && k + 1 < sizeof(names) / sizeof(names[0]))
      names[k++] = x;
  }
  names[k] = NULL;
  hp__plan_err(ld, at, "reference to unknown %s `%.80s` (the plan's %s: %s)",
               pass ? "pass" : "metric", name, pass ? "passes" : "metrics",
               hp__plan_join(names, list, sizeof(list)));
}

/* Whether the reference's pass (the baseline when it names none) runs through a launcher, on
 * other nodes than the one whose GPU the manifest describes. */
static int launched(const hp_plan *p, const hp_reference *ref)
{
  size_t i;

  for (i = 0; i < p->npasses; i++) {
    const hp_pass *ps = &p->passes[i];
    const hp_launcher *l = ps->launcher ? ps->launcher : &p->launcher;
    if ((ref->pass ? ps->name && strcmp(ps->name, ref->pass) == 0 : i == p->baseline) &&
        l->kind != HP_LAUNCH_LOCAL)
      return 1;
  }
  return 0;
}

static void parse_reference(hp__loader *ld, yaml_node_t *it, hp_plan *p, hp_reference *ref)
{
  hp__mapent e[R_N] = {{NULL, NULL}};

  ref->line = hp__yaml_line(it);
  ref->value = -1;
  ref->tolerance = 0.05;
  if (it->type != YAML_MAPPING_NODE) {
    hp__plan_err(ld, it,
                 "a reference must be a mapping {pass, metric, value, tolerance, host, gpu}, "
                 "got %s",
                 hp__yaml_kind(it));
    return;
  }
  hp__yaml_fields(ld, it, "reference", reference_keys, e);
  if (hp__plan_str(ld, "pass", e[R_PASS].val, HP__NONEMPTY, &ref->pass) == 1)
    check_name(ld, e[R_PASS].val, p, ref->pass, 1);
  if (hp__plan_str(ld, "metric", e[R_METRIC].val, HP__NONEMPTY, &ref->metric) == 1)
    check_name(ld, e[R_METRIC].val, p, ref->metric, 0);
  if (hp__plan_number(ld, "value", e[R_VALUE].val, 0, &ref->value) == 0)
    hp__plan_err(ld, hp__yaml_missing_at(&e[R_VALUE], it), "a reference needs a `value`");
  else if (!(ref->value > 0))
    hp__plan_err(ld, e[R_VALUE].val, "a reference's `value` must be > 0, got '%.80s'",
                 hp__yaml_str(e[R_VALUE].val));
  if (hp__plan_number(ld, "tolerance", e[R_TOLERANCE].val, 1, &ref->tolerance) == 1 &&
      !(ref->tolerance >= 0 && ref->tolerance < 1))
    hp__plan_err(ld, e[R_TOLERANCE].val,
                 "a reference's `tolerance` must be a fraction from 0 to below 1 (or a "
                 "percentage such as 5%%), got '%.80s'",
                 hp__yaml_str(e[R_TOLERANCE].val));
  hp__plan_str(ld, "host", e[R_HOST].val, HP__NONEMPTY, &ref->host);
  if (hp__plan_str(ld, "gpu", e[R_GPU].val, HP__NONEMPTY, &ref->gpu) == 1 && launched(p, ref))
    hp__plan_err(ld, e[R_GPU].val,
                 "a reference's `gpu` cannot apply to a launched pass: the GPU name is read on "
                 "hprun's own host, not where the launcher runs the ranks (use `host`)");
}

void hp__plan_parse_references(hp__loader *ld, yaml_node_t *v, hp_plan *p)
{
  size_t i, n;

  if (hp__yaml_want_seq(ld, "reference", v) <= 0 || (n = hp__yaml_seq_len(v)) == 0)
    return;
  if ((p->references = calloc(n, sizeof(*p->references))) == NULL) {
    ld->oom = 1;
    return;
  }
  p->nreferences = n;
  for (i = 0; i < n; i++) {
    yaml_node_t *it = hp__yaml_seq_item(ld, v, i);
    if (it)
      parse_reference(ld, it, p, &p->references[i]);
  }
}

/* The key table above and its docs, for the list of every plan key (keys.c). */
const char *const *const hp__plan_keys_reference = reference_keys;
const hp_plan_key_doc *const hp__plan_docs_reference = reference_docs;
