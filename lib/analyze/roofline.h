/*
 * The roofline inside the library (lib/analyze/roofline.c computes the points; the table that
 * every format renders is lib/report/core/roofline_table.c): the session's passes get their points.
 * The public half is lib/include/hprun_roofline.h.
 */
#ifndef HPRUN_ANALYZE_ROOFLINE_H
#define HPRUN_ANALYZE_ROOFLINE_H

#include "hprun.h"

/* Takes a copy of the plan's peaks (NULL: none) as s->peaks, then computes every pass's roofline
 * (hp__session_roofline). Out of memory leaves the session without peaks. */
void hp__session_peaks(hp_session *s, const hp_peaks *plan_peaks);
/* The ceilings an ncu capture carries itself (lib/analyze/roofline_capture.c): *out is new peaks
 * (source "from the ncu capture", the GPU and clocks as the device), or NULL when the profile has
 * no usable .peak_sustained rates. Returns 0 or HP_ENOMEM. */
int hp__capture_peaks(const hp_profile *p, hp_peaks **out);
/* The factor of a unit made of an SI prefix and `base` ("Kbyte" for "byte": 1e3); 1 for no unit,
 * NaN for a unit of another kind (lib/analyze/roofline_capture.c, which roofline.c calls). */
double hp__roof_unit_scale(const char *unit, const char *base);
/* Computes every pass's roofline from its profile and s->peaks (replacing what was there). */
void hp__session_roofline(hp_session *s);

#endif /* HPRUN_ANALYZE_ROOFLINE_H */
