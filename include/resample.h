/* resample.h: the bootstrap's inner loops: a row's RESAMPLE_B resamples drawn from one
 * splitmix64 stream and scored (rows of at most RESAMPLE_PACK_MAX runs), and their 5th and
 * 95th percentiles; each one value at a time or eight at once (AVX-512, when the processor has
 * it), with the same bits either way. No terminal here. */
#ifndef GS_RESAMPLE_H
#define GS_RESAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RESAMPLE_PACK_MAX 15
#define RESAMPLE_B 1000 /* resamples of a row (DESIGN.md) */

/* Fills t[nb] (nb a multiple of 8): resample b draws k runs (3 <= k <= RESAMPLE_PACK_MAX),
 * draw n of all being run ((hi32(splitmix64 at state seed + (n + 1) * gamma)) * k) >> 32; run
 * i counts in the 4-bit field inc[i] = 1 << (4 * rank of run i); t[b] is the sum of sorted
 * positions [lo, hi) of the drawn values (s[rank], ascending, added in that order), / (hi - lo),
 * * sf. wide: 1 lets the eight-lane kernel run. Returns 1 when it ran, 0 when the plain loop
 * did. */
int resample_packed(uint64_t seed, size_t k, const uint64_t *inc, const double *s, size_t lo,
		    size_t hi, double sf, size_t nb, double *t, bool wide);

/* Percentiles 5 and 95 of x[RESAMPLE_B] (reordered), each interpolated between its two closest
 * ranks as numpy's default. wide: 1 lets the eight-lane passes run (the same values). */
void resample_pct(double *x, double *p5, double *p95, bool wide);

/* Whether this processor runs the eight-lane kernel (AVX-512 F and DQ), and resample_force_plain
 * has not turned it off. */
bool resample_wide_ok(void);

/* plain: every resample_packed runs the plain loop (the bench's side by side); false: the
 * kernel the processor has again. */
void resample_force_plain(bool plain);

#endif
