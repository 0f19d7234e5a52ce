/*
 * The pass table and the A/B variant table, described ONCE (lib/report/core/pass_table.c): their
 * columns, in the one order every format keeps, each with its header in every format and which
 * formats and tables show it, and the cell function that formats a column's value. The writers render
 * the description, each with one loop of its own: the terminal (term/term.c), report.md
 * (md/md_common.c), report.html (html/html.c) and JUnit's <system-out> line (junit/junit.c). What
 * still differs between the formats (the interval's style, a flag in bold) is decided in the cell
 * function from the format, so that every difference is in one place.
 *
 * Ownership: the description is static. A cell is written into the caller's buffer or points into
 * the session; a header goes into the caller's hp__buf.
 */
#ifndef HPRUN_REPORT_PASS_TABLE_H
#define HPRUN_REPORT_PASS_TABLE_H

#include "hprun.h"
#include "report/core/report.h"
#include "util/base/buf.h"

/* The bit of hp__pt_col.in that shows a column in format f's pass table (v = 0) or variant table
 * (v = 1); JUnit's line of a pass or variant is HP__PT_IN(HP__RF_JUNIT, 0). */
#define HP__PT_IN(f, v) (1u << ((f)*2 + (v)))

/* Column properties. */
enum {
  HP__PC_REPS = 1,       /* text: shown only when some pass ran more than once (the interval, n
                            and CV), each header run into the one before: "95% CI       n    CV" */
  HP__PC_MD_RIGHT = 2,   /* Markdown: right-aligned */
  HP__PC_HTML_RIGHT = 4, /* HTML: right-aligned (class "n") */
  HP__PC_MD_ESC = 8,     /* Markdown: escaped as a cell ('|', newline); the other cells are not */
  HP__PC_FLAG = 16       /* the flag: HTML gives the cell its flag's class, text the bar after it */
};

/* The columns in their one order: the indexes of hp__pt_cols, and what hp__pt_cell shows. */
enum {
  HP__PT_NAME,
  HP__PT_MODE,
  HP__PT_MEDIAN,
  HP__PT_VS,
  HP__PT_CI,
  HP__PT_N,
  HP__PT_CV,
  HP__PT_FLAG,
  HP__PT_MEM,
  HP__PT_VERDICT,
  HP__PT_NCOLS
};

/* A cell's text fits this many bytes. */
#define HP__PT_CELL 64

typedef struct hp__pt_col {
  unsigned in;    /* HP__PT_IN bits */
  unsigned flags; /* HP__PC_* */
  int hw, tw;     /* text: the header's and the cell's printf width (negative: left-aligned) */
  /* The header in each format (JUnit: the key of key=value). In it, %n is "pass" or "variant",
   * %r "baseline" or "reference", %c the interval's label ("95% CI"), %m the primary metric's
   * name and %u the same with its unit ("t (ms)"). */
  const char *head[HP__RF_N];
} hp__pt_col;

extern const hp__pt_col hp__pt_cols[HP__PT_NCOLS];

/* The cell of column `col` (HP__PT_*) of pr in format f: written into buf (HP__PT_CELL bytes) or
 * pointing into the session; NULL when JUnit has no value to show. */
const char *hp__pt_cell(const hp_pass_result *pr, int col, int f, char *buf);
/* Whether format f shows column c in the pass table (variant = 0) or the variant table; `reps`:
 * some pass ran more than once. */
int hp__pt_shows(const hp__pt_col *c, int f, int variant, int reps);
/* Column c's header in format f, placeholders filled in from s, into out (reset first). 0 or
 * HP_ENOMEM. */
int hp__pt_head(hp__buf *out, const hp_session *s, const hp__pt_col *c, int f, int variant);
/* The primary metric's name ("metric" when there is none), with " (unit)" after it when `unit`
 * and it has one: the %m and %u of a header. Appends; 0 or HP_ENOMEM. */
int hp__pt_metric(hp__buf *out, const hp_session *s, int f, int unit);
/* Whether some pass ran more than once (then the terminal shows the interval, n and CV). */
int hp__pt_reps(const hp_session *s);
/* Whether s has a pass of the variant table (variant = 1) or of the pass table (0). */
int hp__pt_any(const hp_session *s, int variant);

#endif /* HPRUN_REPORT_PASS_TABLE_H */
