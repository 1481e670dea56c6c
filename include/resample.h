/* resample.h: the bootstrap's arithmetic: a row's RESAMPLE_B resampled scores drawn from one
 * splitmix64 stream, and their 5th and 95th percentiles. No terminal here. */
#ifndef GS_RESAMPLE_H
#define GS_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#define RESAMPLE_B 1000 /* resamples of a row (man gpuscale) */

/* Fills t[nb]: resample b draws k runs of run[k] (k >= 1) with replacement, the stream seeded
 * with seed (rng.h: draw n of all is rng_below(k) in turn); t[b] is the sum of the sorted
 * resample's positions [lo, hi) (lo < hi <= k), added in ascending order, / (hi - lo), * sf.
 * Returns 0, or -1 when out of memory (t untouched). */
int resample_scores(uint64_t seed, const double *run, size_t k, size_t lo, size_t hi, double sf,
		    size_t nb, double *t);

/* Percentiles 5 and 95 of x[RESAMPLE_B] (reordered here; NAN after every number), each interpolated between its
 * two closest ranks as numpy's default. */
void resample_pct(double *x, double *p5, double *p95);

#endif
