/*
 * Error codes and diagnostics.
 */
#include "util/base/buf.h"

#include <stdarg.h>
#include <stdlib.h>

const char *hp_strerror(int err)
{
  switch (err) {
  case HP_OK: return "success";
  case HP_ENOMEM: return "out of memory";
  case HP_EINVAL: return "invalid argument";
  case HP_EPLAN: return "invalid plan";
  case HP_EIO: return "input/output error";
  case HP_ENOENT: return "no such file or program";
  case HP_EEXIST: return "already exists (never reused or overwritten)";
  case HP_EPARSE: return "could not parse input";
  case HP_ESPAWN: return "could not start a process";
  case HP_EINTR: return "interrupted";
  case HP_ERANGE: return "number out of range";
  case HP_ENOTSUP: return "not supported";
  case HP_EFORMAT: return "unrecognised file format";
  case HP_ERUN: return "a measured run failed";
  default: return "unknown error";
  }
}

void hp_diags_init(hp_diags *d)
{
  d->head = d->tail = NULL;
  d->count = d->nerrors = d->dropped = 0;
  d->limit = 0;
}

void hp_diags_free(hp_diags *d)
{
  hp_diag *p, *next;

  if (d == NULL)
    return;
  for (p = d->head; p; p = next) {
    next = p->next;
    free(p->file);
    free(p->msg);
    free(p);
  }
  d->head = d->tail = NULL;
  d->count = d->nerrors = d->dropped = 0;
}

int hp_diags_add(hp_diags *d, hp_diag_level level, const char *file, long line, long col,
                 const char *fmt, ...)
{
  hp_diag *e;
  va_list ap;

  if (d == NULL)
    return 0;
  if (level == HP_DIAG_ERROR)
    d->nerrors++;
  if (d->limit && d->count >= d->limit) {
    d->dropped++;
    return 0;
  }
  if ((e = calloc(1, sizeof(*e))) == NULL)
    return HP_ENOMEM;
  va_start(ap, fmt);
  e->msg = hp__vasprintf(fmt, ap);
  va_end(ap);
  if (e->msg == NULL || (file && (e->file = hp__strdup(file)) == NULL)) {
    free(e->msg);
    free(e);
    return HP_ENOMEM;
  }
  e->level = level;
  e->line = line;
  e->col = col;
  if (d->tail)
    d->tail->next = e;
  else
    d->head = e;
  d->tail = e;
  d->count++;
  return 0;
}

void hp_diags_print(const hp_diags *d, FILE *fp)
{
  static const char *names[] = {"error", "warning", "note"};
  const hp_diag *p;

  for (p = d->head; p; p = p->next) {
    if (p->file)
      fputs(p->file, fp);
    if (p->file && p->line > 0)
      fprintf(fp, ":%ld", p->line);
    if (p->file && p->line > 0 && p->col > 0)
      fprintf(fp, ":%ld", p->col);
    fprintf(fp, "%s%s: %s\n", p->file ? ": " : "", names[p->level], p->msg);
  }
  if (d->dropped)
    fprintf(fp, "hprun: note: %zu more messages not shown\n", d->dropped);
}
