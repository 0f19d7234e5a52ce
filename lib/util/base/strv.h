/*
 * Argument vectors and environment lists (lib/util/base/strv.c); hp_strv itself is public (hprun.h).
 * A vector owns its strings; hp_strv_free releases them.
 */
#ifndef HPRUN_UTIL_STRV_H
#define HPRUN_UTIL_STRV_H

#include "hprun.h"

int hp__strv_push(hp_strv *v, const char *s);      /* copies s */
int hp__strv_push_own(hp_strv *v, char *s);        /* takes s (freed on failure too) */
int hp__strv_append(hp_strv *v, const hp_strv *w); /* copies every string of w */
int hp__strv_copy(hp_strv *dst, const hp_strv *src);
/* Joins with spaces, quoting words that need it for sh, so a printed line can be pasted. */
char *hp__strv_shell_join(const hp_strv *v);

#endif /* HPRUN_UTIL_STRV_H */
