/*
 * Metric values from a run's stdout (lib/analyze/metric.c): the plan's patterns, compiled once.
 * The compiled set is the caller's (hp__metrics_free); values[] is the caller's array, one entry
 * per metric of the plan.
 */
#ifndef HPRUN_ANALYZE_METRIC_H
#define HPRUN_ANALYZE_METRIC_H

#include "hprun.h"
#include <stddef.h>

typedef struct hp__metrics hp__metrics;

/* Compiles every metric pattern of the plan. Errors go to diags with the metric's line. */
int hp__metrics_new(const hp_plan *plan, hp__metrics **out, hp_diags *diags);
void hp__metrics_free(hp__metrics *m);
/* The streaming scan reads this many bytes at a time, and scans a line by at most its first
 * HP__METRIC_LINE_MAX bytes: it never holds more than the two, whatever the file's size. */
#define HP__METRIC_CHUNK ((size_t)64 << 10)
#define HP__METRIC_LINE_MAX ((size_t)1 << 20)

/* Called with each line (NUL-terminated, without its newline, cut as the scan cuts it) after the
 * metrics have seen it, so that a caller can look for more in the same single read. */
typedef void (*hp__metrics_line_fn)(void *arg, const char *line);
/* Scans the file at `path` until its end, line by line: values[i] is set to the capture of the
 * LAST line matching metric i, or NaN when none matched or the capture is not a number (a line is
 * scanned by its first HP__METRIC_LINE_MAX bytes); `each`, when not NULL, sees every line.
 * Returns 0, HP_EIO on a read error or HP_ENOMEM; on failure values[] holds what the lines read
 * so far gave. A file that cannot be opened gives every value NaN and HP_ENOENT (missing) or
 * HP_EIO. */
int hp__metrics_scan_path(const hp__metrics *m, const char *path, double *values,
                          hp__metrics_line_fn each, void *arg);

#endif /* HPRUN_ANALYZE_METRIC_H */
