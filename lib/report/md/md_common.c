/*
 * What every Markdown document of hprun shares (report.md of a session and of a sweep, hprun
 * compare): paths made relative to the session folder, so that the text names nothing of the
 * machine that ran the session and reads the same wherever the folder has moved; the pass and
 * variant tables rendered from their one description (report/core/pass_table.h); and the causes
 * list rendered from its (report/core/report.h).
 */
#include "report/md/markdown.h"
#include "report/core/pass_table.h"
#include "report/core/report.h"
#include "util/base/buf.h"

#include <ctype.h>
#include <string.h>

/* A character that can stand next to another inside a path: a path starts after none of them. */
static int path_char(char c)
{
  return isalnum((unsigned char)c) || (c != '\0' && strchr("._-/~+", c) != NULL);
}

/* The length of the session folder's name without its trailing slashes; 0 when there is nothing
 * to match ("" or "/"). */
static size_t folder_len(const hp_session *s)
{
  size_t n = s->dir ? strlen(s->dir) : 0;

  while (n > 0 && s->dir[n - 1] == '/')
    n--;
  return n;
}

/* When p starts with the session folder (n bytes of its name): how many bytes to drop, the
 * slashes after it included; *dot is set when p names the folder itself. 0 otherwise: p names
 * something else, such as a sibling "sessions/va-1b" of "sessions/va-1". */
/* How many bytes of p spell the first n bytes of the folder's name, as written or as the profile
 * writer's Markdown cells write it (a '|' as "\|", a line break as a space); 0 when p does not.
 * Without the escaped forms a session path holding '|' or a line break stayed absolute. */
static size_t folder_match(const char *dir, size_t n, const char *p)
{
  size_t i, k = 0;

  for (i = 0; i < n; i++) {
    if (p[k] == dir[i])
      k++;
    else if (dir[i] == '|' && p[k] == '\\' && p[k + 1] == '|')
      k += 2;
    else if ((dir[i] == '\n' || dir[i] == '\r') && p[k] == ' ')
      k++;
    else
      return 0;
  }
  return k;
}

static size_t folder_at(const hp_session *s, size_t n, const char *p, int *dot)
{
  size_t k;

  *dot = 0;
  if (n == 0 || (k = folder_match(s->dir, n, p)) == 0)
    return 0;
  if (p[k] != '/') {
    if (path_char(p[k]))
      return 0;
    *dot = 1;
    return k;
  }
  while (p[k] == '/')
    k++;
  *dot = !path_char(p[k]);
  return k;
}

const char *hp__md_rel(const hp_session *s, const char *path)
{
  int dot;
  size_t k = folder_at(s, folder_len(s), path, &dot);

  return k == 0 ? path : dot ? "." : path + k;
}

int hp__md_text_n(hp__buf *b, const hp_session *s, const char *text, size_t n, int mode)
{
  size_t dn = folder_len(s), i = 0, k;
  int dot;

  while (i < n && !hp__buf_error(b)) {
    char c = text[i];
    /* A path starts at the start of the text or after a character no path holds. */
    if ((i == 0 || !path_char(text[i - 1])) && (k = folder_at(s, dn, text + i, &dot)) > 0) {
      if (dot)
        hp__buf_addc(b, '.');
      i += k;
      continue;
    }
    if (c == '\n' && mode != HP__MD_RAW)
      hp__buf_addc(b, ' ');
    else if (c == '|' && mode == HP__MD_CELL)
      hp__buf_adds(b, "\\|");
    else
      hp__buf_addc(b, c);
    i++;
  }
  return hp__buf_error(b);
}

int hp__md_text(hp__buf *b, const hp_session *s, const char *text, int mode)
{
  return text ? hp__md_text_n(b, s, text, strlen(text), mode) : hp__buf_error(b);
}

/* The headers are written into h, a buffer of their own whose error is checked apart from b's. */
int hp__md_table(hp__buf *b, const hp_session *s, int variant)
{
  hp__buf h = HP__BUF_INIT;
  char cell[HP__PT_CELL];
  size_t i, k;
  int r;

  hp__buf_adds(b, "\n|");
  for (k = 0; k < HP__PT_NCOLS; k++)
    if (hp__pt_shows(&hp__pt_cols[k], HP__RF_MD, variant, 1)) {
      if ((r = hp__pt_head(&h, s, &hp__pt_cols[k], HP__RF_MD, variant)) != 0)
        goto fail;
      hp__buf_printf(b, " %s |", h.data ? h.data : "");
    }
  hp__buf_adds(b, "\n|");
  for (k = 0; k < HP__PT_NCOLS; k++)
    if (hp__pt_shows(&hp__pt_cols[k], HP__RF_MD, variant, 1))
      hp__buf_adds(b, hp__pt_cols[k].flags & HP__PC_MD_RIGHT ? "---:|" : "---|");
  hp__buf_adds(b, "\n");
  for (i = 0; i < s->npasses; i++) {
    const hp_pass_result *pr = &s->passes[i];
    if (!pr->is_variant != !variant)
      continue;
    hp__buf_adds(b, "|");
    for (k = 0; k < HP__PT_NCOLS; k++) {
      const hp__pt_col *c = &hp__pt_cols[k];
      if (!hp__pt_shows(c, HP__RF_MD, variant, 1))
        continue;
      hp__buf_adds(b, " ");
      if (c->flags & HP__PC_MD_ESC)
        hp__report_md_cell(b, hp__pt_cell(pr, (int)k, HP__RF_MD, cell));
      else
        hp__buf_adds(b, hp__pt_cell(pr, (int)k, HP__RF_MD, cell));
      hp__buf_adds(b, " |");
    }
    hp__buf_adds(b, "\n");
  }
  r = hp__buf_error(b);
fail:
  hp__buf_free(&h);
  return r;
}

/* Each cause's line is written into a buffer of its own first, whose error is checked apart. */
int hp__md_causes(hp__buf *b, const hp_session *s, const hp__causes *l)
{
  hp__buf line = HP__BUF_INIT;
  size_t i;
  int r;

  if (l->n == 0)
    return hp__buf_error(b);
  if (l->title)
    hp__buf_printf(b, "\n## %s\n\n", l->title);
  else
    hp__buf_adds(b, "\n");
  for (i = 0; i < l->shown; i++) {
    hp__buf_reset(&line);
    if ((r = hp__report_cause(&line, &l->c[i])) != 0)
      goto fail;
    /* A cause is one line; a newline from a run's error message must not end the bullet. */
    hp__buf_adds(b, "- ");
    if (s)
      hp__md_text(b, s, line.data, HP__MD_LINE);
    else
      hp__buf_adds(b, line.data ? line.data : "");
    hp__buf_adds(b, "\n");
  }
  if (l->n > l->shown)
    hp__buf_printf(b, "- \xE2\x80\xA6 and %zu more: see summary.json\n", l->n - l->shown);
  r = hp__buf_error(b);
fail:
  hp__buf_free(&line);
  return r;
}
