/*
 * Argument vectors and environment lists (lib/util/base/strv.c); hp_strv itself is public (hprun.h).
 * A vector owns its strings; hp_strv_free releases them and clears its error.
 *
 * Errors are sticky, as in hp__buf: the first push that fails records HP_ENOMEM in `err`, and
 * every later push does nothing (freeing what it was to take) and returns it, so a builder pushes
 * every word and checks hp__strv_error once.
 */
#ifndef HPRUN_UTIL_STRV_H
#define HPRUN_UTIL_STRV_H

#include "hprun.h"

void hp__strv_init(hp_strv *v);                    /* empty, no error */
int hp__strv_error(const hp_strv *v);              /* 0 or the first push's error */
int hp__strv_push(hp_strv *v, const char *s);      /* copies s */
int hp__strv_push_own(hp_strv *v, char *s);        /* takes s (freed on failure too) */
int hp__strv_append(hp_strv *v, const hp_strv *w); /* copies every string of w */
/* dst (not yet initialised) becomes a copy of src; on failure dst is empty. */
int hp__strv_copy(hp_strv *dst, const hp_strv *src);
/* Joins with spaces, quoting words that need it for sh, so a printed line can be pasted. */
char *hp__strv_shell_join(const hp_strv *v);

#endif /* HPRUN_UTIL_STRV_H */
