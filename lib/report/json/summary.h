/*
 * summary.json of a session (summary_json.c) and of a sweep (sweep_json.c), and reading either back
 * (summary_read.c, sweep_read.c). A sweep's file is written and read with the session's parts for
 * the members they share (the causes, a combination's parameters), so the sweep's files sit above
 * the session's; the public entry points hp_report_json and hp_session_load (lib/report/entry.c)
 * choose between the two.
 *
 * Ownership: the writers only read the session and write into the caller's JSON writer, inside
 * the document's object, after hp__summary_head_json (hp_report_json makes the document). The
 * readers make a new session (*out, the caller's; NULL on failure) and report every problem to
 * diags; a parsed root stays the caller's.
 */
#ifndef HPRUN_REPORT_JSON_SUMMARY_H
#define HPRUN_REPORT_JSON_SUMMARY_H

#include "hprun.h"
#include "util/json/json.h"
#include "util/json/jsonread.h"
#include "report/json/summary_field.h"

/* summary_json.c: the members of a session's summary.json (not a sweep's) after the head. */
void hp__summary_json(hp__json *j, const hp_session *s);
/* The members a session's and a sweep's summary.json open with, in docs/summary.md's order: the
 * schema and names, a combination's label, the outcome (exit code, causes), the times. */
void hp__summary_head_json(hp__json *j, const hp_session *s);
/* A parameters object, name -> value, in the plan's order (a combination's, a sweep's). */
void hp__summary_params_json(hp__json *j, const hp_kv *kv, size_t n);

/* The largest summary.json that is read back (docs/summary.md, "Reading it back"): generous, since
 * a 300 000-run session writes about 36 MB, but a bound on what a hostile file can cost. */
#define HP__SUMMARY_MAX_BYTES ((size_t)512 << 20)
/* The largest manifest.json that is read back for the plan's hash. */
#define HP__MANIFEST_MAX_BYTES ((size_t)16 << 20)

/* summary_read.c: reads and parses the file that `path` names (a session folder means its
 * summary.json): only a regular file of at most HP__SUMMARY_MAX_BYTES. *file gets the file's path
 * (the caller frees it, also on failure), *root the parsed file (free it with hp__jv_free); errors
 * go to diags. */
int hp__summary_parse(const char *path, char **file, hp__jv **root, hp_diags *diags);
/* The session whose summary.json `file` was parsed into `root` (it is not a sweep's). */
int hp__summary_load(const char *file, const hp__jv *root, hp_session **out, hp_diags *diags);
/* The folder of the session whose summary.json is `file` (malloc'd into *dir): where the file is
 * now, the target of a <name>-latest link. 0 or HP_ENOMEM. */
int hp__summary_folder(const char *file, char **dir);
/* A parameters object (name -> string value) at `key` of c into a new array (absent: none). */
int hp__summary_read_params(const hp__sf *c, const char *key, hp_kv **kv, size_t *n);

/* sweep_json.c: the members of a sweep's summary.json after the head. */
void hp__sweep_json(hp__json *j, const hp_session *s);
/* sweep_read.c: the sweep whose summary.json `file` was parsed into `root` (it has `sweep`), with
 * each combination that ran read from its folder beside the file. */
int hp__sweep_load(const char *file, const hp__jv *root, hp_session **out, hp_diags *diags);

#endif /* HPRUN_REPORT_JSON_SUMMARY_H */
