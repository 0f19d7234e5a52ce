/*
 * Metric values from a run's stdout (lib/analyze/metric.c): the plan's patterns, compiled once.
 * The compiled set is the caller's (hp__metrics_free); values[] is the caller's array.
 */
#ifndef HPRUN_ANALYZE_METRIC_H
#define HPRUN_ANALYZE_METRIC_H

#include "hprun.h"
#include <stddef.h>

typedef struct hp__metrics hp__metrics;

/* Compiles every metric pattern of the plan. Errors go to diags with the metric's line. */
int hp__metrics_new(const hp_plan *plan, hp__metrics **out, hp_diags *diags);
void hp__metrics_free(hp__metrics *m);
/* Scans text line by line; values[i] is set to the capture of the LAST line matching metric i,
 * or NaN when none matched or the capture is not a number. */
void hp__metrics_scan(const hp__metrics *m, const char *text, size_t len, double *values);

#endif /* HPRUN_ANALYZE_METRIC_H */
