/*
 * Which environment variables hold secrets, and which values look like one (secret.c). Every
 * place hprun shows or stores an environment or a command line (manifest.json, summary.json, the
 * plan copy, the terminal) asks here and shows HP__REDACTED instead, so one rule decides what is
 * never copied. Only hp__redact allocates; the caller owns every string.
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

/* Appends s to b with every well-known token shape (ghp_..., github_pat_..., glpat-..., xoxb-...,
 * xoxp-..., AWS key ids AKIA.../ASIA..., JWTs) replaced by HP__REDACTED, and the password of a
 * URL's "user:password@" as well (the user is kept). Returns b's sticky error. */
struct hp__buf;
int hp__redact_add(struct hp__buf *b, const char *s);
/* The same into a new string (malloc'd, the caller's); NULL when s is NULL or out of memory. */
char *hp__redact(const char *s);

#endif /* HPRUN_UTIL_SECRET_H */
