/*
 * Which environment variables hold secrets (lib/util/base/secret.c). Every place hprun shows or stores
 * an environment (manifest.json, reports, the terminal) asks hp__env_is_secret and shows
 * HP__REDACTED instead of such a value, so one rule decides what is never copied. Nothing here
 * allocates; the caller owns every string.
 */
#ifndef HPRUN_UTIL_SECRET_H
#define HPRUN_UTIL_SECRET_H

/* What is shown instead of a secret's value. */
#define HP__REDACTED "<redacted>"

/* 1 when the variable's name contains TOKEN, KEY, SECRET, PASSWORD, PASSWD or CREDENTIAL in any
 * case, else 0. `name` ends at its '\0' or at the first '=', so a "NAME=VALUE" entry of an
 * environment can be passed as it is (its value is never looked at). */
int hp__env_is_secret(const char *name);
/* `value`, or HP__REDACTED when hp__env_is_secret(name). */
const char *hp__env_shown(const char *name, const char *value);

#endif /* HPRUN_UTIL_SECRET_H */
