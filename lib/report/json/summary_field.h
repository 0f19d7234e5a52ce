/*
 * Checked reading of summary.json's members, for its reader (lib/report/json/summary_read.c). A
 * summary.json may come from another machine, an older hprun or a text editor, so no member is
 * trusted: every integer is range-checked before it is converted (a cast of NaN or 1e300 to an
 * integer type is undefined behaviour), every string, boolean, object and array is checked for its
 * type, and a required member for its presence. The first bad member ends the load with HP_EPARSE
 * and one error in the diagnostics that names it by its path, as in
 * `passes[2].runs[0].exit_status: missing or not an integer`.
 *
 * A cursor (hp__sf) is one object of the parsed file and its path. It owns nothing: it points into
 * the tree (which the caller keeps alive), the caller's diagnostics and the file's name. Strings
 * handed back by hp__sf_str are the caller's (free); those of hp__sf_word live in the tree.
 * "Optional" means that a missing member, or null, is no error: the reader then leaves *out as the
 * caller set it (a default), except hp__sf_num, where both read as NaN, and hp__sf_str, NULL.
 */
#ifndef HPRUN_REPORT_SUMMARY_FIELD_H
#define HPRUN_REPORT_SUMMARY_FIELD_H

#include "hprun.h"
#include "util/json/jsonread.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hp__sf {
  hp_diags *diags;
  const char *file;  /* named in every error */
  const hp__jv *obj; /* the object read; NULL (an absent optional object) reads as empty */
  char at[128];      /* its path: "" at the top level, else e.g. "passes[2].runs[0]" */
} hp__sf;

enum {
  HP__SF_REQUIRED = 0,
  HP__SF_OPTIONAL = 1
};

/* A cursor on the file's top-level object. */
void hp__sf_root(hp__sf *c, const hp__jv *root, const char *file, hp_diags *diags);
/* Adds the error "PATH.key: MESSAGE" (key may be NULL: the cursor's own path) and returns
 * HP_EPARSE. */
int hp__sf_fail(const hp__sf *c, const char *key, const char *fmt, ...) HP_PRINTF(3, 4);

/* *child becomes a cursor on the object member `key` of c. Optional and absent: child->obj is
 * NULL. */
int hp__sf_object(const hp__sf *c, const char *key, int optional, hp__sf *child);
/* *arr is the array member `key` of c; NULL when optional and absent. */
int hp__sf_array(const hp__sf *c, const char *key, int optional, const hp__jv **arr);
/* *child becomes a cursor on item i of c's array `key`, which must be an object. */
int hp__sf_item(const hp__sf *c, const char *key, size_t i, hp__sf *child);

/* One reader per integer type: the member must be a number with an integral value within
 * [lo, hi]. A plain integer is converted from its text, so all 64 bits are exact. */
int hp__sf_int(const hp__sf *c, const char *key, int optional, int lo, int hi, int *out);
int hp__sf_long(const hp__sf *c, const char *key, int optional, long lo, long hi, long *out);
int hp__sf_llong(const hp__sf *c, const char *key, int optional, long long lo, long long hi,
                 long long *out);
/* A required unsigned 64-bit integer (the seed): 0 to 2^64 - 1. A negative integer down to -2^63
 * is read as that number plus 2^64: hprun wrote a seed above 2^63 so before it wrote it unsigned. */
int hp__sf_u64(const hp__sf *c, const char *key, uint64_t *out);

/* A number; null (written for NaN) reads as NaN. */
int hp__sf_num(const hp__sf *c, const char *key, int optional, double *out);
/* true or false; absent or null reads as false. */
int hp__sf_bool(const hp__sf *c, const char *key, int *out);
/* A copy of a string member (HP_ENOMEM when the copy fails). */
int hp__sf_str(const hp__sf *c, const char *key, int optional, char **out);
/* An optional string member, borrowed from the tree: NULL when absent or null. */
int hp__sf_word(const hp__sf *c, const char *key, const char **out);

#endif /* HPRUN_REPORT_SUMMARY_FIELD_H */
