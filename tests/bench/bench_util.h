/* bench_util.h: the clock and the order statistics every bench driver reports with. */
#ifndef GS_BENCH_UTIL_H
#define GS_BENCH_UTIL_H

#include <stddef.h>
#include <time.h>

/* Monotonic seconds. */
static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of CPU this process has used, every thread, user and system: what the work costs,
 * without the turns other processes take on a busy machine. */
static inline double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort order for doubles. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile q of the n sorted values v, by linear interpolation. */
static inline double quant(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

#endif
