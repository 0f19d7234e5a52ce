/*
 * The roofline inside the library (lib/analyze/roofline.c computes the points,
 * lib/analyze/roofline_out.c writes them): the session's passes get their points, and the
 * summary's JSON writer gets the `roofline` object. The public half is lib/include/hprun_roofline.h.
 */
#ifndef HPRUN_ANALYZE_ROOFLINE_H
#define HPRUN_ANALYZE_ROOFLINE_H

#include "hprun.h"
#include "util/json.h"

/* Takes a copy of the plan's peaks (NULL: none) as s->peaks, then computes every pass's roofline
 * (hp__session_roofline). Out of memory leaves the session without peaks. */
void hp__session_peaks(hp_session *s, const hp_peaks *plan_peaks);
/* Computes every pass's roofline from its profile and s->peaks (replacing what was there). */
void hp__session_roofline(hp_session *s);

/* The `roofline` object of a pass (docs/summary.md): peaks, source, kernels. */
void hp__roofline_json(hp__json *j, const hp_roofline *r, const hp_peaks *peaks);
/* The peaks as a JSON object, or null. */
void hp__peaks_json(hp__json *j, const hp_peaks *peaks);

#endif /* HPRUN_ANALYZE_ROOFLINE_H */
