/*
 * A small, strict JSON (RFC 8259) reader that builds a tree. Library-internal (hp__ names): used by
 * `hprun compare` and `hprun report` to read back the summary.json files hprun wrote with
 * lib/util/json/json.c. The parser is lib/util/json/jsonread.c (strings in jsonread_string.c,
 * messages in jsonread_error.c), the accessors below are in jsonread_tree.c. Design notes:
 * docs/internals/jsonread.md.
 *
 * The tree is opaque: read it with the accessors below, which all accept NULL (and a node of the
 * wrong type) and answer "nothing" (NULL, 0, NaN, -1), so a chain such as
 * hp__jv_num(hp__jv_get(hp__jv_at(hp__jv_get(root, "passes"), 0), "median")) never crashes on a
 * file of the wrong shape. Every pointer returned into a tree lives as long as the tree.
 */
#ifndef HPRUN_JSONREAD_H
#define HPRUN_JSONREAD_H

#include <stddef.h>

typedef enum {
  HP__JV_NULL,
  HP__JV_BOOL,
  HP__JV_NUM,
  HP__JV_STR,
  HP__JV_ARR,
  HP__JV_OBJ
} hp__jv_type;

typedef struct hp__jv hp__jv;

/* Containers nested deeper than this are a parse error (it bounds the parser's recursion). */
#define HP__JV_MAX_DEPTH 256

/* Parses exactly one JSON value, with optional surrounding whitespace and an optional leading
 * UTF-8 byte order mark, from text[0..len) (no NUL needed). On success returns 0 and *out is a new
 * tree that the caller frees with hp__jv_free. On bad input returns HP_EPARSE, *out is NULL and
 * err receives "line:col: message" (1-based; the column counts bytes), truncated to errlen bytes
 * including the NUL; err may be NULL when errlen is 0. HP_ENOMEM and HP_EINVAL (text or out NULL)
 * also leave *out NULL and describe themselves in err. Nothing of text is kept. */
int hp__jv_parse(const char *text, size_t len, hp__jv **out, char *err, size_t errlen);
/* Frees a whole tree. Accepts NULL. Only roots returned by hp__jv_parse may be freed. */
void hp__jv_free(hp__jv *v);

/* The node's type; HP__JV_NULL for a NULL pointer. */
hp__jv_type hp__jv_type_of(const hp__jv *v);
/* The member named key of an object; the last one if a key repeats (RFC 8259 leaves duplicates
 * to the reader; this matches JavaScript and Python). NULL if missing or v is not an object.
 * Lookup is linear in the object's size. */
const hp__jv *hp__jv_get(const hp__jv *obj, const char *key);
/* Item i of an array, or the value of member i of an object (members keep file order). NULL if
 * out of range or v is neither. */
const hp__jv *hp__jv_at(const hp__jv *arr, size_t i);
/* Number of items of an array or members of an object; 0 for anything else. */
size_t hp__jv_len(const hp__jv *v);
/* Key of member i of an object; NULL if out of range or not an object. */
const char *hp__jv_key_at(const hp__jv *obj, size_t i);
/* A string's bytes, NUL-terminated (a decoded \u0000 ends it early for strlen). NULL if not a
 * string. */
const char *hp__jv_str(const hp__jv *v);
/* A number's value; NaN if not a number. null gives NaN too, which is how lib/util/json/json.c
 * writes NaN and infinities. */
double hp__jv_num(const hp__jv *v);
/* A number's text as the file wrote it ("18446744073709551615", "-0", "1.5e3"), NUL-terminated;
 * NULL if not a number. A double holds integers exactly only up to 2^53: a reader that needs a
 * larger integer exactly (a 64-bit seed) converts this text itself. */
const char *hp__jv_numtext(const hp__jv *v);
/* 0 or 1 for false or true, -1 if not a boolean. */
int hp__jv_bool(const hp__jv *v);
/* Follows a path of '/'-separated steps from v: an object step is a key, an array step a decimal
 * index, as in a JSON Pointer (RFC 6901) but without the leading '/' ("passes/0/name"; a leading
 * '/' is accepted too). In a key, "~1" stands for '/' and "~0" for '~'. An empty path gives v.
 * NULL when a step does not exist. */
const hp__jv *hp__jv_path(const hp__jv *v, const char *path);

#endif /* HPRUN_JSONREAD_H */
