/*
 * summary.json's roofline members, read back (lib/report/json/summary_roofline.c): the session's
 * `peaks`, so that a re-rendered report draws the same roofs. The points are not read: they are
 * computed again from the re-parsed profiles (hp__session_roofline), like every other profile
 * figure.
 */
#ifndef HPRUN_REPORT_SUMMARY_ROOFLINE_H
#define HPRUN_REPORT_SUMMARY_ROOFLINE_H

#include "report/json/summary_field.h"

/* Reads the optional top-level `peaks` object into s->peaks (NULL when absent or null). Returns
 * 0, HP_EPARSE (with the member named in diags) or HP_ENOMEM. */
int hp__summary_read_peaks(const hp__sf *rc, hp_session *s);

#endif /* HPRUN_REPORT_SUMMARY_ROOFLINE_H */
