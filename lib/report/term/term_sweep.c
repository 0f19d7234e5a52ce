/*
 * A parameter sweep on the terminal: each combination's own table (term.c), then the sweep's line
 * and the overview (report/core/sweep.h). A wide sweep's overview is cut into several tables of a
 * few combinations each, so that a table stays readable on an 80-100 column terminal.
 */
#include "report/core/sweep.h"
#include "report/term/term.h"

#include <stdlib.h>
#include <string.h>

/* Overview columns per table: within about this many columns. */
#define TERM_WIDTH 100

/* The overview, in tables of as many combinations as fit TERM_WIDTH. */
static void term_overview(FILE *fp, const hp_session *s, const char **names, size_t n)
{
  const char *unit, *metric = hp__sweep_metric(s, &unit);
  size_t width = 24, per, k0, k, i, end;
  char cell[96], ci[32];

  for (k = 0; k < s->ncombos; k++)
    if (strlen(s->combos[k].name) + 2 > width)
      width = strlen(s->combos[k].name) + 2;
  per = width < TERM_WIDTH - 16 ? (TERM_WIDTH - 16) / width : 1;
  fprintf(fp,
          "\noverview: %s%s%s%s, the baseline's median and each pass's change against it [%s]\n",
          metric, *unit ? " (" : "", unit, *unit ? ")" : "", hp__sweep_ci_label(ci, sizeof(ci), s));
  for (k0 = 0; k0 < s->ncombos; k0 += per) {
    /* The last column is not padded: no line ends in blanks. */
    end = k0 + per < s->ncombos ? k0 + per : s->ncombos;
    fprintf(fp, "\n%-16s", "pass");
    for (k = k0; k < end; k++)
      fprintf(fp, " %-*s", k + 1 < end ? (int)width - 1 : 0, s->combos[k].name);
    fputc('\n', fp);
    for (i = 0; i < n; i++) {
      fprintf(fp, "%-16s", names[i]);
      for (k = k0; k < end; k++)
        fprintf(fp, " %-*s", k + 1 < end ? (int)width - 1 : 0,
                hp__sweep_cell(cell, sizeof(cell), &s->combos[k], names[i], 0));
      fputc('\n', fp);
    }
  }
}

void hp__term_sweep(const hp_session *s, FILE *fp)
{
  const char **names = NULL;
  size_t n = 0, k;

  for (k = 0; k < s->ncombos; k++) {
    fprintf(fp, "\n=== combination %zu of %zu: %s ===\n", k + 1, s->ncombos, s->combos[k].name);
    if (s->combos[k].s)
      hp__term_session(s->combos[k].s, fp, 0);
    else
      fprintf(fp, "not run\n");
  }
  hp__term_title(fp, s, "=== hprun sweep", " ===");
  if (hp__sweep_pass_names(s, &names, &n) == 0)
    term_overview(fp, s, names, n);
  free(names);
  hp__term_causes(s, fp);
}
