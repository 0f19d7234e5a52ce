/*
 * The redaction rule. Credentials reach a GPU job through its environment (API keys for model
 * hubs, NCCL_IB passwords, CI tokens), and manifest.json travels with results into archives and
 * pull requests, so a variable whose name says it is a secret is stored as "<redacted>". The rule
 * goes by name only: values cannot be told apart from ordinary ones, and a name-based rule is one
 * a user can predict. It errs on the side of hiding (KEYBOARD_LAYOUT is hidden too).
 */
#include "util/base/secret.h"

#include <ctype.h>
#include <stddef.h>

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
