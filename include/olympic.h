/* olympic.h: the MLPerf olympic average: which of a system's sorted run times are averaged. */
#ifndef GS_OLYMPIC_H
#define GS_OLYMPIC_H

#include <stddef.h>

/* How many runs are dropped at each end for a benchmark (the registry: 4 for unet3d, else 1). */
size_t olympic_limit(const char *benchmark);

/* For ok successful runs sorted ascending and failed failed runs (which count as slow runs
 * already dropped), sets [*lo, *hi), the runs averaged: the m fastest and the (m - failed)
 * slowest go. Returns 0, 1 when failed > m (no score), or 2 when nothing is left to average. */
int olympic_window(size_t ok, size_t failed, size_t m, size_t *lo, size_t *hi);

#endif
