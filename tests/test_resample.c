/* resample_scores against a plain bootstrap written out here (draw the runs, sort the resample,
 * add its window in order), bit for bit, on random rows of many run counts, windows, scaling
 * factors and streams; resample_pct against a sort and numpy's interpolation on resamples of
 * many shapes (ties, one value, clusters, signed zeros), and with NaN and infinities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resample.h"
#include "rng.h"

#define NB 1000
#define KMAX 40

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* A random row: run[k] with ties, its window [lo, hi), scaling factor and stream. */
struct row {
	size_t k, lo, hi;
	double run[KMAX], sf;
	uint64_t seed;
};

static void row_make(struct rng *g, struct row *r)
{
	r->k = 3 + rng_below(g, KMAX - 2);
	r->lo = rng_below(g, r->k);
	r->hi = r->lo + 1 + rng_below(g, r->k - r->lo);
	r->sf = rng_below(g, 3) == 0 ? 1 : 0.5 + 2 * rng_unit(g);
	r->seed = rng_next(g);
	for (size_t i = 0; i < r->k; i++) /* a few distinct values, so ties are common */
		r->run[i] = rng_below(g, 2) ? 10 + (double)rng_below(g, 4) / 3 : 5 + 20 * rng_unit(g);
}

/* The row's resamples by the definition: the draws' values sorted, positions [lo, hi) added. */
static void naive(const struct row *r, double *t)
{
	struct rng g;
	double v[KMAX];

	rng_seed(&g, r->seed);
	for (size_t b = 0; b < NB; b++) {
		for (size_t j = 0; j < r->k; j++)
			v[j] = r->run[rng_below(&g, r->k)];
		qsort(v, r->k, sizeof *v, cmp_double);
		double sum = 0;
		for (size_t p = r->lo; p < r->hi; p++)
			sum += v[p];
		t[b] = sum / (double)(r->hi - r->lo) * r->sf;
	}
}

static void scores_are_naive(void **state)
{
	struct rng g;
	struct row r;
	double want[NB], got[NB];
	(void)state;

	rng_seed(&g, 11);
	for (int n = 0; n < 400; n++) {
		row_make(&g, &r);
		naive(&r, want);
		assert_int_equal(resample_scores(r.seed, r.run, r.k, r.lo, r.hi, r.sf, NB, got), 0);
		if (memcmp(want, got, sizeof want))
			fail_msg("row %d (k %zu, window %zu..%zu): the scores differ", n, r.k, r.lo, r.hi);
	}
}

/* Percentiles 5 and 95 by a sort, interpolated as numpy's default. */
static void pct_sorted(const double *x, double *p5, double *p95)
{
	double s[RESAMPLE_B], h95 = (RESAMPLE_B - 1) * 0.95, h5 = (RESAMPLE_B - 1) * 0.05;
	size_t i95 = (size_t)floor(h95), i5 = (size_t)floor(h5);

	memcpy(s, x, sizeof s);
	qsort(s, RESAMPLE_B, sizeof *s, cmp_double);
	*p95 = s[i95] + (h95 - (double)i95) * (s[i95 + 1] - s[i95]);
	*p5 = s[i5] + (h5 - (double)i5) * (s[i5 + 1] - s[i5]);
}

/* Resamples of shape `shape` into x. */
static void pct_input(struct rng *g, int shape, double *x)
{
	double base = 1 + 100 * rng_unit(g);

	for (size_t i = 0; i < RESAMPLE_B; i++) {
		switch (shape) {
		case 0: x[i] = base * (0.8 + 0.4 * rng_unit(g)); break;               /* spread */
		case 1: x[i] = base + (double)rng_below(g, 5) / 8; break;             /* few values */
		case 2: x[i] = base; break;                                           /* one value */
		case 3: x[i] = rng_below(g, 100) ? base : base * 1e6; break;          /* far outliers */
		case 4: x[i] = rng_below(g, 2) ? 0.0 : -0.0; break;                   /* signed zeros */
		case 5: x[i] = rng_below(g, 3) ? base * rng_unit(g) : -base * rng_unit(g); break;
		case 6: x[i] = base * (1 + (double)rng_below(g, 3) * 1e-15); break;   /* a hair apart */
		default: x[i] = (double)rng_below(g, 40) - 20; break;                /* integers */
		}
	}
}

static void pct_against_sort(void **state)
{
	struct rng g;
	double x[RESAMPLE_B], y[RESAMPLE_B], a5, a95, b5, b95;
	(void)state;

	rng_seed(&g, 13);
	for (int n = 0; n < 800; n++) {
		pct_input(&g, n % 8, x);
		pct_sorted(x, &a5, &a95);
		memcpy(y, x, sizeof y);
		resample_pct(y, &b5, &b95);
		/* the sort orders zeros of either sign as it likes: a zero may come out either way */
		if ((memcmp(&a5, &b5, sizeof a5) && !(a5 == 0 && b5 == 0)) ||
		    (memcmp(&a95, &b95, sizeof a95) && !(a95 == 0 && b95 == 0)))
			fail_msg("input %d (shape %d): %.17g %.17g, sorted %.17g %.17g", n, n % 8, b5, b95,
				 a5, a95);
	}
}

/* NaN sorts after every number, infinities where they belong: a few of them among 1,000 values
 * leave the 5th percentile a number, and the 95th one too unless more than 50 are NaN or +inf. */
static void pct_not_finite(void **state)
{
	struct rng g;
	double x[RESAMPLE_B], b5, b95;
	const double odd[] = { NAN, INFINITY, -INFINITY };
	(void)state;

	rng_seed(&g, 14);
	for (int n = 0; n < 300; n++) {
		pct_input(&g, 0, x);
		for (int k = 0; k <= n % 4; k++)
			x[rng_below(&g, RESAMPLE_B)] = odd[rng_below(&g, 3)];
		resample_pct(x, &b5, &b95);
		assert_true(isfinite(b5));
		assert_true(isfinite(b95));
		assert_true(b5 <= b95);
	}
	for (size_t i = 0; i < RESAMPLE_B; i++)
		x[i] = i < 100 ? NAN : (double)i;
	resample_pct(x, &b5, &b95);
	assert_true(isfinite(b5));
	assert_true(isnan(b95));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scores_are_naive),
		cmocka_unit_test(pct_against_sort),
		cmocka_unit_test(pct_not_finite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
