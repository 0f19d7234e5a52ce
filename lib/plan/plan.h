/*
 * The plan loader's internals, shared between the files of lib/plan/ and nothing else: the
 * public entry points are hp_plan_load, hp_plan_load_string, hp_plan_free, hp_plan_keys,
 * hp_categories_load and hp_categories_free in hprun.h.
 *
 * The files, lowest first:
 *   diag.c        messages at file:line:col, sorted into the caller's list; "did you mean" hints
 *   read.c        reading a plan file: bounded by the size limit, the system's reason on failure
 *   limits.c      what a plan may cost before libyaml sees it: its size and its nesting depth
 *   yaml.c        libyaml: the one document, node kinds, mappings against their known keys
 *   values.c      typed values: strings, integers, numbers, booleans, durations, words, env, names
 *   app.c         the `app` section and `variants` (each variant becomes a complete app)
 *   passes.c      `profiler` and `passes`, judged against the tool table in lib/tool/driver.c
 *   metrics.c     `metrics`, `gates` (which name metrics), `thresholds` and `sampler`
 *   categories.c  `categories`, in a plan or in a categories file of its own
 *   launcher.c    `launcher`, at the top and in a pass: local, slurm, mpirun or command
 *   params.c      `parameters:` of a sweep, its combinations and their names
 *   placeholders.c  `{name}` in the expanded fields: checked, and replaced for a combination
 *   plan.c        the defaults, the top level, the public entry points, and a sweep's
 *                 combinations, each read from the one document the plan was parsed into
 *   keys.c        the list of every section's keys with their docs (hp_plan_keys), from the
 *                 tables above
 *
 * Ownership: an hp__loader lives on the stack of one public entry point and owns only its
 * message list (hp__plan_flush hands the messages over and frees it). The libyaml document and
 * every node it hands out belong to the entry point that loaded it. Values a section stores go
 * into the plan (or the rules) being built; the public free functions release them, also when
 * loading failed half-way, so nothing here frees on error.
 */
#ifndef HPRUN_PLAN_PLAN_H
#define HPRUN_PLAN_PLAN_H

#include "hprun.h"

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

/* A plan is refused unread above this size, and before libyaml parses it when it nests deeper
 * than this (limits.c says why). docs/plan.md states both: keep them in step. */
#define HP__PLAN_MAX_BYTES ((size_t)1 << 20)
#define HP__PLAN_MAX_DEPTH 64

/* One load's state. Errors are counted and collected rather than returned, so that loading goes
 * on after one and a single run shows as many mistakes as possible. */
typedef struct hp__loader {
  const char *file; /* for messages */
  const char *text; /* the input, to turn a reader error's byte offset into line:col */
  size_t len;
  yaml_document_t *doc;
  hp_diags diags; /* this load's messages; sorted into the caller's list at the end */
  size_t nerrors;
  int oom;
  int tool_ok;     /* the plan's profiler.tool is known */
  long combo;      /* the sweep combination the plan is read for, or -1 */
  const char *dir; /* the plan's folder, for paths checked while it is read; NULL: not checked */
  /* A combination's replaced scalars with their text as written, for hp__plan_placeholders_undo
   * to put back before the next combination is read from the same document. */
  struct hp__yaml_saved *saved;
  size_t nsaved;
} hp__loader;

/* A mapping's known key as found: both NULL when the key is absent. */
typedef struct hp__mapent {
  yaml_node_t *key;
  yaml_node_t *val;
} hp__mapent;

/* ---- diag.c: messages ---------------------------------------------------------------------- */

/* Reports an error at a node (NULL: at 0:0) and counts it. */
void hp__plan_err(hp__loader *ld, const yaml_node_t *at, const char *fmt, ...) HP_PRINTF(3, 4);
/* Reports an error at a 1-based line and column and counts it. */
void hp__plan_err_at(hp__loader *ld, long line, long col, const char *fmt, ...) HP_PRINTF(4, 5);
/* Copies a string (NULL gives NULL), remembering an allocation failure in ld->oom. */
char *hp__plan_dup(hp__loader *ld, const char *s);
/* The candidate of the NULL-terminated `cands` closest to `word`, or NULL when none is close
 * enough to be a likely typo. */
const char *hp__plan_suggest(const char *word, const char *const *cands);
/* Joins a NULL-terminated list for messages ("a, b, c") into `buf`, which it returns. */
const char *hp__plan_join(const char *const *names, char *buf, size_t size);
/* Moves this load's messages into `out` (which may be NULL), sorted by position, and frees the
 * loader's list. */
void hp__plan_flush(hp__loader *ld, hp_diags *out);

/* ---- read.c and limits.c: before libyaml ------------------------------------------------- */

/* Empties a loader for the text `text` (len bytes) of the file `name`, to be parsed into `doc`,
 * for sweep combination `combo` (-1: none). */
void hp__plan_loader_init(hp__loader *ld, const char *name, const char *text, size_t len,
                          long combo, yaml_document_t *doc);
/* Reads the plan file at `path` into a new NUL-terminated *text of *len bytes (the caller frees
 * it), reading no more than HP__PLAN_MAX_BYTES + 1 bytes. On failure *text is NULL, one message
 * naming the file is in `diags`, and the result is HP_ENOENT (no such file), HP_EPLAN (a folder,
 * or over the size limit), HP_EIO (any other reason, given in words) or HP_ENOMEM. */
int hp__plan_read(const char *path, char **text, size_t *len, hp_diags *diags);
/* Reports that the plan `file` has `size` bytes, over the limit (`at_least`: more than the limit;
 * the exact size is unknown, as for a pipe). Returns HP_EPLAN, or HP_ENOMEM when the message was
 * lost. `diags` may be NULL. */
int hp__plan_err_size(hp_diags *diags, const char *file, size_t size, int at_least);
/* Counts the nesting of ld->text without parsing it (limits.c says how). Returns 0, or -1 after
 * reporting `nesting deeper than 64 levels` at the line and column where it got too deep. */
int hp__plan_check_depth(hp__loader *ld);

/* ---- yaml.c: the document and its nodes ---------------------------------------------------- */

/* Parses the single document of ld->text into *doc. Returns 1 with a document holding a root
 * (the caller deletes it), 0 after reporting an error (nothing to delete), -1 when out of
 * memory. */
int hp__yaml_load(hp__loader *ld, yaml_document_t *doc);
/* read.c: a YAML file beside the plan (a categories file, a peaks file): read, checked for
 * nesting, parsed, and handed to `parse` with its root node; the messages go to `diags`. `what`
 * names the file in "cannot read the WHAT: ...". 0, HP_EIO (unreadable), HP_EPLAN (messages) or
 * HP_ENOMEM; whatever `parse` built in `arg` stays the caller's, also on failure. */
typedef void hp__side_parse(hp__loader *ld, yaml_node_t *root, void *arg);
int hp__plan_load_side(const char *path, const char *what, hp__side_parse *parse, void *arg,
                       hp_diags *diags);
yaml_node_t *hp__yaml_node(hp__loader *ld, int id);
/* A scalar's text. */
const char *hp__yaml_str(const yaml_node_t *n);
/* The 1-based line of a node, 0 for NULL. */
long hp__yaml_line(const yaml_node_t *n);
/* 1 for a missing node and for a plain `~`, `null` or nothing: YAML's null, read as "not set". */
int hp__yaml_is_null(const yaml_node_t *n);
/* What a node is, for "got ..." in messages. */
const char *hp__yaml_kind(const yaml_node_t *n);
/* 1 when `v` is a scalar without NUL bytes, 0 when it is null, -1 after reporting a wrong type;
 * `type` names what was expected. */
int hp__yaml_scalar(hp__loader *ld, const char *what, const char *type, yaml_node_t *v);
/* Reports duplicate keys in a mapping. */
void hp__yaml_check_dups(hp__loader *ld, yaml_node_t *m);
/* Walks a mapping against its known keys (NULL-terminated): unknown keys, keys that are not
 * strings and duplicates are reported; ents[i] receives the first occurrence of keys[i].
 * `section` names the mapping in messages (NULL: the plan's top level). */
void hp__yaml_fields(hp__loader *ld, yaml_node_t *m, const char *section, const char *const *keys,
                     hp__mapent *ents);
/* Where to point when a required key is missing or null: the key, else the mapping. */
yaml_node_t *hp__yaml_missing_at(const hp__mapent *e, yaml_node_t *m);
/* 1 when `v` is a mapping (a list), 0 when null, -1 after reporting a wrong type. */
int hp__yaml_want_map(hp__loader *ld, const char *what, yaml_node_t *v);
int hp__yaml_want_seq(hp__loader *ld, const char *what, yaml_node_t *v);
size_t hp__yaml_seq_len(yaml_node_t *v);
yaml_node_t *hp__yaml_seq_item(hp__loader *ld, yaml_node_t *v, size_t i);

/* ---- values.c: typed values ---------------------------------------------------------------- */
/* Each getter returns 1 when it stored a value, 0 when the value is absent or null (the default
 * applies) and -1 after reporting an error; *out is only written on 1. A string it replaces is
 * freed. `what` names the key in messages. */

#define HP__NONEMPTY 1 /* hp__plan_str: an empty string is an error */

int hp__plan_str(hp__loader *ld, const char *what, yaml_node_t *v, int flags, char **out);
int hp__plan_long(hp__loader *ld, const char *what, yaml_node_t *v, long min, long max, long *out);
int hp__plan_u64(hp__loader *ld, const char *what, yaml_node_t *v, uint64_t *out);
/* A decimal number; with `percent` also "5%" (= 0.05). */
int hp__plan_number(hp__loader *ld, const char *what, yaml_node_t *v, int percent, double *out);
/* true or false only; YAML 1.1's yes/no/on/off are refused with a hint. */
int hp__plan_bool(hp__loader *ld, const char *what, yaml_node_t *v, int *out);
int hp__plan_duration(hp__loader *ld, const char *what, yaml_node_t *v, double *out);
/* One of `names` (NULL-terminated); *out is its index. */
int hp__plan_enum(hp__loader *ld, const char *what, yaml_node_t *v, const char *const *names,
                  int *out);
/* A list of strings, or one string split into words as sh would. */
int hp__plan_words(hp__loader *ld, const char *what, yaml_node_t *v, hp_strv *out);
/* An `env:` mapping of variable name -> value into a new array *env of *nenv entries. */
int hp__plan_env(hp__loader *ld, const char *what, yaml_node_t *v, hp_kv **env, size_t *nenv);
/* A name that becomes a folder name: letters, digits, '_', '.' and '-'. */
int hp__plan_ident(hp__loader *ld, const char *what, yaml_node_t *v, char **out);
int hp__plan_name_char(char c);
int hp__plan_valid_name(const char *s);
/* 1 when a pass or variant may not be called `s` because the session writes a file (or folder) of
 * that name into its own top folder, beside the pass folders; values.c holds the one list. */
int hp__plan_reserved_name(const char *s);

/* ---- the sections (app.c, passes.c, metrics.c, categories.c) ------------------------------- */
/* Sections that another section refers to are read first: metrics before gates, passes before
 * variants. A required section gets its entry `e` and the root, to point at what is missing. */

void hp__plan_parse_app(hp__loader *ld, const hp__mapent *e, yaml_node_t *root, hp_app *a);
/* After the metrics: `app.iterations_metric` must name one of them (lib/plan/app.c). */
void hp__plan_check_iterations(hp__loader *ld, const hp_plan *p);
void hp__plan_parse_variants(hp__loader *ld, yaml_node_t *v, hp_plan *p);
void hp__plan_parse_profiler(hp__loader *ld, yaml_node_t *v, hp_plan *p);
void hp__plan_parse_passes(hp__loader *ld, const hp__mapent *e, yaml_node_t *root, hp_plan *p);
void hp__plan_parse_metrics(hp__loader *ld, const hp__mapent *e, yaml_node_t *root, hp_plan *p);
void hp__plan_parse_gates(hp__loader *ld, yaml_node_t *v, hp_plan *p);
/* reference.c: `reference:`, after the metrics and passes it names. */
void hp__plan_parse_references(hp__loader *ld, yaml_node_t *v, hp_plan *p);
void hp__plan_parse_thresholds(hp__loader *ld, yaml_node_t *v, hp_plan *p);
void hp__plan_parse_sampler(hp__loader *ld, yaml_node_t *v, hp_plan *p);
/* roofline.c: `roofline:`, the ceilings (a peaks file and/or inline figures). */
void hp__plan_parse_roofline(hp__loader *ld, yaml_node_t *v, hp_plan *p);
/* report.c: `report: {top: N}`, and the warning that app.region filters only ncu's and
 * rocprofv3's kernels. */
void hp__plan_parse_report(hp__loader *ld, yaml_node_t *v, hp_plan *p);
void hp__plan_check_region(hp__loader *ld, const hp_plan *p);
/* launcher.c: `launcher:` (a kind, or a mapping) into *l; the plan's free releases it. */
void hp__plan_parse_launcher(hp__loader *ld, yaml_node_t *v, hp_launcher *l);
/* Frees what a launcher holds (not `l` itself) and empties it. Accepts NULL. */
void hp__plan_launcher_free(hp_launcher *l);
/* On any error the rules built so far are still stored in *rules / *nrules, for the caller to
 * free with hp_categories_free. */
void hp__plan_parse_categories(hp__loader *ld, const hp__mapent *e, hp_category_rule **rules,
                               size_t *nrules);

/* ---- params.c and placeholders.c: parameter sweeps ------------------------------------------ */

/* The length of the identifier (a letter or '_', then letters, digits and '_') at s, 0 when none
 * starts there: the name of a parameter and of a placeholder. */
size_t hp__plan_ident_len(const char *s);
/* Whether s[0..n) is a placeholder another template owns ({dir}, {app}, {rank}). */
int hp__plan_reserved_placeholder(const char *s, size_t n);
/* `parameters:` into p->params (checked: names, values, the number of combinations). */
void hp__plan_parse_params(hp__loader *ld, const hp__mapent *e, hp_plan *p);
/* Checks the `{name}` placeholders of the expanded fields below root against p's parameters and,
 * for a combination's plan (p->combo >= 0) or a plan without parameters, replaces them in the
 * tree. Called after the parameters are read and before any section that holds such a field. A
 * combination's replaced scalars keep their text as written in ld->saved; a plan without
 * parameters is read once, and its old texts are freed. */
void hp__plan_placeholders(hp__loader *ld, yaml_node_t *root, const hp_plan *p);
/* Puts the text as written back into the scalars ld->saved holds, frees the replacements, and
 * empties the list, so that the document reads as the plan as written again. */
void hp__plan_placeholders_undo(hp__loader *ld);

/* ---- keys.c: every section's key table, for hp_plan_keys --------------------------------- */

/* Each is the NULL-terminated table the section's parser walks its mapping with (hp__yaml_fields),
 * defined beside it: the list of keys cannot differ from what the loader accepts. Beside each
 * stands its docs table (hp_plan_key_doc, hprun.h), entry k for key k; HP__KEY_DOCS makes a key
 * without its entry, or an entry without its key, a build error. All are static storage. */
extern const char *const *const hp__plan_keys_top;        /* plan.c */
extern const char *const *const hp__plan_keys_repeat;     /* plan.c: repeat: {min, max, budget} */
extern const char *const *const hp__plan_keys_app;        /* app.c */
extern const char *const *const hp__plan_keys_variants;   /* app.c */
extern const char *const *const hp__plan_keys_profiler;   /* passes.c */
extern const char *const *const hp__plan_keys_passes;     /* passes.c */
extern const char *const *const hp__plan_keys_metrics;    /* metrics.c */
extern const char *const *const hp__plan_keys_gates;      /* metrics.c */
extern const char *const *const hp__plan_keys_thresholds; /* metrics.c */
extern const char *const *const hp__plan_keys_sampler;    /* metrics.c */
extern const char *const *const hp__plan_keys_categories; /* categories.c */
extern const char *const *const hp__plan_keys_launcher;   /* launcher.c */
extern const char *const *const hp__plan_keys_reference;  /* reference.c */
extern const char *const *const hp__plan_keys_report;     /* report.c */
extern const char *const *const hp__plan_keys_roofline;   /* roofline.c */
extern const hp_plan_key_doc *const hp__plan_docs_top;
extern const hp_plan_key_doc *const hp__plan_docs_repeat;
extern const hp_plan_key_doc *const hp__plan_docs_app;
extern const hp_plan_key_doc *const hp__plan_docs_variants;
extern const hp_plan_key_doc *const hp__plan_docs_profiler;
extern const hp_plan_key_doc *const hp__plan_docs_passes;
extern const hp_plan_key_doc *const hp__plan_docs_metrics;
extern const hp_plan_key_doc *const hp__plan_docs_gates;
extern const hp_plan_key_doc *const hp__plan_docs_thresholds;
extern const hp_plan_key_doc *const hp__plan_docs_sampler;
extern const hp_plan_key_doc *const hp__plan_docs_categories;
extern const hp_plan_key_doc *const hp__plan_docs_launcher;
extern const hp_plan_key_doc *const hp__plan_docs_reference;
extern const hp_plan_key_doc *const hp__plan_docs_report;
extern const hp_plan_key_doc *const hp__plan_docs_roofline;

/* A key table (NULL-terminated) and its docs table have one entry per key. The docs tables are
 * indexed by the section's key enum where it has one ([K_NAME] = ...), so that an entry cannot
 * slip to another key. A key added last without its entry changes the count and fails here; one
 * added in the middle leaves an entry of neither type nor choices, which tests/unit/test_plan_keys.c
 * refuses. */
#define HP__KEY_DOCS(keys, docs)                                                                   \
  _Static_assert(sizeof(keys) / sizeof((keys)[0]) == sizeof(docs) / sizeof((docs)[0]) + 1,         \
                 "every key of " #keys " needs its entry in " #docs)

/* A number written once as a macro, as the text of a docs entry ("integer 1.." HP__STR(MAX)). */
#define HP__STR(x) HP__STR_(x)
#define HP__STR_(x) #x

#endif /* HPRUN_PLAN_PLAN_H */
