/*
 * The terminal's renderings (lib/report/term/): a session's table (term.c), a sweep's
 * (term_sweep.c: each combination's table, then the overview), and the overhead bars
 * (term_bar.c). The public entry point hp_report_table_bars (lib/report/entry.c) chooses between
 * the session and the sweep.
 *
 * Ownership: the session is only read; text goes to the caller's stream or buffer.
 */
#ifndef HPRUN_REPORT_TERM_H
#define HPRUN_REPORT_TERM_H

#include "hprun.h"

#include <stdio.h>

/* term.c: the table of a session that is not a sweep, with the overhead bars when `bars`. */
void hp__term_session(const hp_session *s, FILE *fp, int bars);
/* The causes list: a blank line, then one `fail:` or `note:` line per cause (nothing without
 * causes). */
void hp__term_causes(const hp_session *s, FILE *fp);
/* A blank line, then "WHAT NAME", whether it is incomplete and END, then the folder's line. */
void hp__term_title(FILE *fp, const hp_session *s, const char *what, const char *end);

/* term_sweep.c: the table of a sweep. */
void hp__term_sweep(const hp_session *s, FILE *fp);

/* term_bar.c: a pass's overhead bar, `width` cells of Unicode blocks on a log scale that ends at
 * max_ratio (at least 2x), written into buf (the caller's; 3 bytes a cell); "" for no value and a
 * single tick for a ratio <= 1. Returns 0 or HP_ERANGE (len 0). */
int hp__term_bar(char *buf, size_t len, double ratio, double max_ratio, int width);
/* The largest finite primary ratio of the session's passes (0 when none): the bars' scale. */
double hp__term_bar_max(const hp_session *s);

#endif /* HPRUN_REPORT_TERM_H */
