/*
 * The redaction rule. Credentials reach a GPU job through its environment (API keys for model
 * hubs, NCCL_IB passwords, CI tokens), and manifest.json travels with results into archives and
 * pull requests, so a variable whose name says it is a secret is stored as "<redacted>". The rule
 * goes by name first, a rule a user can predict; it errs on the side of hiding (KEYBOARD_LAYOUT is
 * hidden too). Values are redacted too where they have the shape of a well-known token, or are a
 * URL's password, wherever they stand: in an argument, in any variable (docs/summary.md).
 */
#include "util/base/secret.h"
#include "util/base/buf.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* Whether `word` (upper case) occurs in name[0, len) in any case. */
static int contains(const char *name, size_t len, const char *word)
{
  size_t i, k;

  for (i = 0; i < len; i++) {
    for (k = 0; word[k] && i + k < len; k++)
      if (toupper((unsigned char)name[i + k]) != word[k])
        break;
    if (word[k] == '\0')
      return 1;
  }
  return 0;
}

int hp__env_is_secret(const char *name)
{
  static const char *const words[] = {"TOKEN",  "KEY",        "SECRET", "PASSWORD",
                                      "PASSWD", "CREDENTIAL", NULL};
  size_t len = 0, i;

  while (name[len] && name[len] != '=')
    len++;
  for (i = 0; words[i]; i++)
    if (contains(name, len, words[i]))
      return 1;
  return 0;
}

const char *hp__env_shown(const char *name, const char *value)
{
  return hp__env_is_secret(name) ? HP__REDACTED : value;
}

/* ---------------------------------------------------------------------------------------------- */
/* Redaction by value: the shapes of well-known tokens, and a URL's password.                      */

/* The characters a token's body is made of: letters, digits, and `extra`. */
static size_t run_of(const char *s, const char *extra)
{
  size_t n = 0;

  while (isalnum((unsigned char)s[n]) || (s[n] && strchr(extra, s[n])))
    n++;
  return n;
}

/* The length of the token that starts at s, or 0. Each shape is a fixed prefix and a body long
 * enough that an ordinary word does not match: GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
 * github_pat_), GitLab (glpat-), Slack (xoxb-, xoxp-), AWS access key ids (AKIA, ASIA and 16
 * capitals or digits), and JWTs (three base64url parts, the first two JSON objects: "eyJ"). */
static size_t token_at(const char *s)
{
  static const struct {
    const char *prefix, *extra;
    size_t min;
  } shapes[] = {{"ghp_", "", 20},     {"gho_", "", 20},   {"ghu_", "", 20},
                {"ghs_", "", 20},     {"ghr_", "", 20},   {"github_pat_", "_", 20},
                {"glpat-", "_-", 20}, {"xoxb-", "-", 10}, {"xoxp-", "-", 10}};
  size_t i, p, n, a, b;

  for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
    p = strlen(shapes[i].prefix);
    if (strncmp(s, shapes[i].prefix, p) == 0 &&
        (n = run_of(s + p, shapes[i].extra)) >= shapes[i].min)
      return p + n;
  }
  if ((strncmp(s, "AKIA", 4) == 0 || strncmp(s, "ASIA", 4) == 0)) {
    for (n = 4; n < 20 && (isupper((unsigned char)s[n]) || isdigit((unsigned char)s[n])); n++)
      ;
    if (n == 20 && !isalnum((unsigned char)s[n]))
      return n;
  }
  if (strncmp(s, "eyJ", 3) == 0 && (a = run_of(s, "_-")) >= 10 && s[a] == '.' &&
      strncmp(s + a + 1, "eyJ", 3) == 0 && (b = run_of(s + a + 1, "_-")) >= 10 &&
      s[a + 1 + b] == '.' && (n = run_of(s + a + b + 2, "_-")) >= 10)
    return a + b + 2 + n;
  return 0;
}

/* At s, just after "scheme://": the length of "user:" when a password follows it up to an '@'
 * (within the authority, which ends at '/', '?', '#' or a space), with *pw its length. */
static size_t userinfo_at(const char *s, size_t *pw)
{
  size_t u = 0, p;

  while (s[u] && !strchr(":@/?# \t\n\"'", s[u]))
    u++;
  if (s[u] != ':')
    return 0;
  for (p = u + 1; s[p] && !strchr("@/?# \t\n\"'", s[p]); p++)
    ;
  if (s[p] != '@' || p == u + 1)
    return 0;
  *pw = p - u - 1;
  return u + 1;
}

int hp__redact_add(hp__buf *b, const char *s)
{
  size_t i = 0, n, pw;

  while (s && s[i]) {
    int boundary = i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_');
    if (boundary && (n = token_at(s + i)) > 0) {
      hp__buf_adds(b, HP__REDACTED);
      i += n;
      continue;
    }
    if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/' && i > 0 &&
        isalnum((unsigned char)s[i - 1]) && (n = userinfo_at(s + i + 3, &pw)) > 0) {
      hp__buf_add(b, s + i, 3 + n);
      hp__buf_adds(b, HP__REDACTED);
      i += 3 + n + pw;
      continue;
    }
    hp__buf_addc(b, s[i++]);
  }
  return hp__buf_error(b);
}

char *hp__redact(const char *s)
{
  hp__buf b = HP__BUF_INIT;

  if (s == NULL)
    return NULL;
  if (hp__redact_add(&b, s) != 0 || hp__buf_adds(&b, "") != 0) {
    hp__buf_free(&b);
    return NULL;
  }
  return b.data ? hp__buf_steal(&b) : hp__strdup("");
}
