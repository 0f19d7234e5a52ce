/*
 * Word splitting and durations: the two small scalar syntaxes a plan uses besides plain strings.
 *
 * A plan may write a command as one string (`command: ./app --n 100`). hprun never hands such a
 * string to a shell, because a shell would add a second layer of meaning (globs, `$VAR`, `;`,
 * `|`) that differs between machines and hides what was really run. It only splits the string
 * into words the way POSIX sh does before expansions, so quoting works as users expect.
 */
#include "util/base/buf.h"
#include "util/base/strv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Ends the current word: moves the buffer's text into `out`. `have` says whether a word was
 * started at all, which is how '' (quotes with nothing inside) still yields an empty word. A
 * buffer in error steals as NULL, which sets the vector's sticky error. */
static void end_word(hp__buf *w, int *have, hp_strv *out)
{
  if (*have)
    hp__strv_push_own(out, hp__buf_steal(w));
  *have = 0;
}

/*
 * Splits `s` into words as POSIX sh does before any expansion (XCU 2.2 Quoting, 2.6.5 Field
 * Splitting with the default IFS, plus carriage returns so CRLF plan files behave):
 *   - unquoted blanks (space, tab, newline, CR) separate words;
 *   - '...' keeps everything literally;
 *   - "..." keeps everything except the escapes \" \\ \$ \` and backslash-newline (removed);
 *     any other backslash inside double quotes stays a backslash;
 *   - an unquoted backslash keeps the next character literally; backslash-newline is removed;
 *     a backslash at the very end stays a backslash (as bash and dash do);
 *   - nothing else is special: no globbing, no $VAR, no ~, no comments, no ; | & < > operators.
 * On success *out is a new NULL-terminated vector (out->v is never NULL, even with no words);
 * the caller frees it with hp_strv_free. On failure *out is empty (nothing to free) and the
 * result is HP_EPARSE (unterminated quote), HP_EINVAL (NULL arguments) or HP_ENOMEM.
 */
int hp_split_words(const char *s, hp_strv *out)
{
  hp__buf w = HP__BUF_INIT;
  int have = 0, r = 0;
  char q;

  if (out == NULL)
    return HP_EINVAL;
  hp__strv_init(out);
  if (s == NULL)
    return HP_EINVAL;
  out->v = calloc(1, sizeof(*out->v));
  if (out->v == NULL)
    return HP_ENOMEM;
  /* The buffer's and the vector's errors are sticky: they are checked once, at the end. */
  while (*s && r == 0) {
    if (is_blank(*s)) {
      end_word(&w, &have, out);
      s++;
    } else if (*s == '\'' || *s == '"') {
      q = *s++;
      have = 1;
      while (*s && *s != q) {
        if (q == '"' && *s == '\\' && s[1] && strchr("\"\\$`\n", s[1])) {
          if (s[1] != '\n')
            hp__buf_addc(&w, s[1]);
          s += 2;
        } else {
          hp__buf_addc(&w, *s++);
        }
      }
      if (*s == q)
        s++;
      else
        r = HP_EPARSE;
    } else if (*s == '\\' && s[1] == '\n') {
      s += 2;
    } else {
      if (*s == '\\' && s[1])
        s++;
      have = 1;
      hp__buf_addc(&w, *s++);
    }
  }
  end_word(&w, &have, out);
  hp__buf_free(&w);
  if (r == 0 && (r = hp__strv_error(out)) == 0)
    return 0;
  hp_strv_free(out);
  return r;
}

/*
 * Parses a duration: a non-negative decimal number, optionally followed by a unit `ms`, `s`, `m`
 * or `h` (blanks allowed around it); without a unit it counts seconds. "90", "90s", "1.5m",
 * "500ms" and "2h" are valid. strtod alone would also take "inf", "nan" and hex floats, so the
 * number's characters are checked first. On success *seconds is set; HP_EINVAL for garbage and
 * HP_ERANGE for a negative or non-finite value, with *seconds untouched.
 */
int hp_parse_duration(const char *s, double *seconds)
{
  const char *p, *unit;
  char *end;
  double v, scale = 1.0;

  if (s == NULL || seconds == NULL)
    return HP_EINVAL;
  p = s;
  while (is_blank(*p))
    p++;
  if (*p == '-')
    return strspn(p + 1, "0123456789.") ? HP_ERANGE : HP_EINVAL;
  if (*p == '+')
    p++;
  if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
    return HP_EINVAL;
  /* Only plain decimal notation: no 0x prefix. */
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    return HP_EINVAL;
  errno = 0;
  v = strtod(p, &end);
  if (end == p)
    return HP_EINVAL;
  if (errno == ERANGE && v != 0)
    return HP_ERANGE;
  unit = end;
  while (is_blank(*unit))
    unit++;
  if (strncmp(unit, "ms", 2) == 0) {
    scale = 0.001;
    unit += 2;
  } else if (*unit == 's') {
    unit++;
  } else if (*unit == 'm') {
    scale = 60.0;
    unit++;
  } else if (*unit == 'h') {
    scale = 3600.0;
    unit++;
  }
  while (is_blank(*unit))
    unit++;
  if (*unit != '\0')
    return HP_EINVAL;
  v *= scale;
  if (!isfinite(v))
    return HP_ERANGE;
  *seconds = v;
  return 0;
}
