/* resample_packed against a plain bootstrap written out here (draw the runs, sort the resample,
 * add its window in order), and its eight-lane kernel against its plain loop, bit for bit, on
 * random rows of every run count it takes, windows, scaling factors and streams; resample_pct
 * against a sort and numpy's interpolation, plain and eight at a time, on resamples of many
 * shapes (ties, one value, clusters, NaN, infinities, signed zeros). */
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

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* A random row: run[k] with ties, sorted into s, rank of each run, its inc words. */
struct row {
	size_t k, lo, hi;
	double run[RESAMPLE_PACK_MAX], s[RESAMPLE_PACK_MAX], sf;
	uint64_t inc[RESAMPLE_PACK_MAX], seed;
};

static void row_make(struct rng *g, struct row *r)
{
	size_t by[RESAMPLE_PACK_MAX];

	r->k = 3 + rng_below(g, RESAMPLE_PACK_MAX - 2);
	r->lo = rng_below(g, r->k);
	r->hi = r->lo + 1 + rng_below(g, r->k - r->lo);
	r->sf = rng_below(g, 3) == 0 ? 1 : 0.5 + 2 * rng_unit(g);
	r->seed = rng_next(g);
	for (size_t i = 0; i < r->k; i++) /* a few distinct values, so ties are common */
		r->run[i] = rng_below(g, 2) ? 10 + (double)rng_below(g, 4) / 3 : 5 + 20 * rng_unit(g);
	/* ranks by (value, index), as the bootstrap takes them */
	for (size_t i = 0; i < r->k; i++)
		by[i] = i;
	for (size_t i = 1; i < r->k; i++)
		for (size_t j = i; j > 0 && (r->run[by[j - 1]] > r->run[by[j]]); j--) {
			size_t x = by[j];
			by[j] = by[j - 1];
			by[j - 1] = x;
		}
	for (size_t at = 0; at < r->k; at++) {
		r->s[at] = r->run[by[at]];
		r->inc[by[at]] = UINT64_C(1) << (4 * at);
	}
}

/* The row's resamples the plain way: the draws' values sorted, positions [lo, hi) added. */
static void naive(const struct row *r, double *t)
{
	struct rng g;
	double v[RESAMPLE_PACK_MAX];

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

static void plain_is_naive(void **state)
{
	struct rng g;
	double a[NB], b[NB];
	(void)state;

	rng_seed(&g, 11);
	for (int n = 0; n < 400; n++) {
		struct row r;
		row_make(&g, &r);
		naive(&r, a);
		assert_int_equal(resample_packed(r.seed, r.k, r.inc, r.s, r.lo, r.hi, r.sf, NB, b, false), 0);
		if (memcmp(a, b, sizeof a) != 0)
			fail_msg("row %d (k %zu, window [%zu, %zu)): plain differs from the sorted resamples",
				 n, r.k, r.lo, r.hi);
	}
}

static void wide_is_plain(void **state)
{
	struct rng g;
	double a[NB], b[NB];
	(void)state;

	if (!resample_wide_ok()) {
		printf("# this processor has no AVX-512 F and DQ: the eight-lane kernel is not run\n");
		skip();
	}
	rng_seed(&g, 12);
	for (int n = 0; n < 4000; n++) {
		struct row r;
		row_make(&g, &r);
		if (n < 200) /* a few on the sorted resamples too */
			naive(&r, a);
		else
			resample_packed(r.seed, r.k, r.inc, r.s, r.lo, r.hi, r.sf, NB, a, false);
		memset(b, 0, sizeof b);
		assert_int_equal(resample_packed(r.seed, r.k, r.inc, r.s, r.lo, r.hi, r.sf, NB, b, true), 1);
		if (memcmp(a, b, sizeof a) != 0)
			fail_msg("row %d (k %zu, window [%zu, %zu)): the eight lanes differ from the plain loop",
				 n, r.k, r.lo, r.hi);
	}
	/* every run count and window, one stream each; and a count of resamples not of eights
	 * takes the plain loop */
	for (size_t k = 3; k <= RESAMPLE_PACK_MAX; k++)
		for (size_t lo = 0; lo < k; lo++)
			for (size_t hi = lo + 1; hi <= k; hi++) {
				struct row r;
				row_make(&g, &r);
				r.lo = lo;
				r.hi = hi;
				if (r.k != k) {
					r.k = k;
					for (size_t i = 0; i < k; i++) {
						r.run[i] = r.s[i] = 1 + (double)i / 7;
						r.inc[i] = UINT64_C(1) << (4 * i);
					}
				}
				resample_packed(r.seed, k, r.inc, r.s, lo, hi, r.sf, NB, a, false);
				resample_packed(r.seed, k, r.inc, r.s, lo, hi, r.sf, NB, b, true);
				assert_memory_equal(a, b, sizeof a);
			}
	assert_int_equal(resample_packed(1, 4, (uint64_t[]){ 1, 16, 256, 4096 }, (double[]){ 1, 2, 3, 4 }, 1,
					 3, 1, 12, b, true), 0);
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
	double x[RESAMPLE_B], y[RESAMPLE_B], a5, a95, b5, b95, c5, c95;
	(void)state;

	rng_seed(&g, 13);
	for (int n = 0; n < 3200; n++) {
		pct_input(&g, n % 8, x);
		if (n >= 3000) { /* the least and the greatest at every place of the first and last lanes */
			x[(n / 2) % 16] = n % 2 ? -1e9 : 1e9;
			x[RESAMPLE_B - 1 - (n / 3) % 16] = n % 2 ? 1e9 : -1e9;
		}
		pct_sorted(x, &a5, &a95);
		memcpy(y, x, sizeof y);
		resample_pct(y, &b5, &b95, false);
		memcpy(y, x, sizeof y);
		resample_pct(y, &c5, &c95, true);
		/* the sort orders zeros of either sign as it likes: a zero may come out either way */
		if ((memcmp(&a5, &b5, sizeof a5) && !(a5 == 0 && b5 == 0)) ||
		    (memcmp(&a95, &b95, sizeof a95) && !(a95 == 0 && b95 == 0)))
			fail_msg("input %d (shape %d): plain %.17g %.17g, sorted %.17g %.17g", n, n % 8, b5, b95,
				 a5, a95);
		if (memcmp(&b5, &c5, sizeof b5) || memcmp(&b95, &c95, sizeof b95))
			fail_msg("input %d (shape %d): wide %.17g %.17g, plain %.17g %.17g", n, n % 8, c5, c95,
				 b5, b95);
	}
}

/* NaN and infinities go to the plain selection on both paths: the same answers. */
static void pct_not_finite(void **state)
{
	struct rng g;
	double x[RESAMPLE_B], y[RESAMPLE_B], b5, b95, c5, c95;
	const double odd[] = { NAN, INFINITY, -INFINITY };
	(void)state;

	rng_seed(&g, 14);
	for (int n = 0; n < 300; n++) {
		pct_input(&g, 0, x);
		for (int k = 0; k <= n % 4; k++)
			x[rng_below(&g, RESAMPLE_B)] = odd[rng_below(&g, 3)];
		memcpy(y, x, sizeof y);
		resample_pct(y, &b5, &b95, false);
		memcpy(y, x, sizeof y);
		resample_pct(y, &c5, &c95, true);
		assert_true(memcmp(&b5, &c5, sizeof b5) == 0 || (isnan(b5) && isnan(c5)));
		assert_true(memcmp(&b95, &c95, sizeof b95) == 0 || (isnan(b95) && isnan(c95)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_is_naive),
		cmocka_unit_test(wide_is_plain),
		cmocka_unit_test(pct_against_sort),
		cmocka_unit_test(pct_not_finite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
