/*
 * The roofline table, described ONCE (lib/report/core/roofline_table.c) in the table model of
 * docs/internals/tables.md (hp__col: JSON key, CSV header, text header, type, formats, unit
 * change, text format), and rendered from that one description in every format: the `roofline`
 * object of summary.json and of `hprun summarize --roofline --format json`, text (the terminal:
 * `hprun summarize --roofline`, the end-of-session table, `hprun report`), Markdown (report.md),
 * CSV, and the table under report.html's chart. The JSON keys are summary_keys.h's.
 *
 * Ownership: nothing here keeps or frees what it is given; text goes into the caller's buffers.
 */
#ifndef HPRUN_REPORT_ROOFLINE_TABLE_H
#define HPRUN_REPORT_ROOFLINE_TABLE_H

#include "hprun.h"
#include "profile/tables/table.h"
#include "util/base/buf.h"
#include "util/json/json.h"

/* The columns, in the one order every format keeps (each skips the columns it does not show). */
extern const hp__col hp__roof_cols[];
extern const size_t hp__roof_ncols;

/* How hp__roof_text writes a cell. */
enum {
  HP__RT_SHORT, /* text and Markdown: short kernel names (kname.c) */
  HP__RT_FULL,  /* the same with whole names (report.html) */
  HP__RT_CSV    /* CSV: whole names, numbers that read back exactly, a missing value empty */
};
/* The text of one cell into out (reset first): numbers with the column's text format (CSV: the
 * shortest of %.15g and %.17g that reads back the same), a missing value as the column's
 * `missing` text (CSV: empty). 0 or HP_ENOMEM. */
int hp__roof_text(const hp_roof_point *p, const hp__col *col, int mode, hp__buf *out);

/* The `roofline` object of a pass (docs/summary.md): peaks, source, kernels, skipped. */
void hp__roofline_json(hp__json *j, const hp_roofline *r, const hp_peaks *peaks);
/* The peaks as a JSON object, or null. */
void hp__peaks_json(hp__json *j, const hp_peaks *peaks);

/* The ceilings line every table format opens with: which ceilings, and where they came from
 * ("measured", "datasheet", or "given" when the peaks do not say), or that there are none.
 * `md` selects Markdown. Appends; 0 or HP_ENOMEM. */
int hp__roof_ceilings(hp__buf *b, const hp_peaks *peaks, int md);

/* The table of r's first `top` points (0: all) in text (aligned columns, `indent` spaces in front,
 * short kernel names cut to 60 columns), Markdown or CSV (`f`), and a line for the rows left out.
 * Appends; 0 or HP_ENOMEM. */
int hp__roof_table(hp__buf *b, const hp_roofline *r, hp_format f, size_t top, int indent);

/* The session's roofline sections (lib/report/core/roofline_out.c), empty when no pass has points:
 * report.md's `## Roofline` and the terminal's, after the notes. */
int hp__md_roofline(hp__buf *b, const hp_session *s);
void hp__term_roofline(FILE *fp, const hp_session *s);

#endif /* HPRUN_REPORT_ROOFLINE_TABLE_H */
