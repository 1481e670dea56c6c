/* resample_packed against a plain bootstrap written out here (draw the runs, sort the resample,
 * add its window in order), and its eight-lane kernel against its plain loop, bit for bit, on
 * random rows of every run count it takes, windows, scaling factors and streams. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_is_naive),
		cmocka_unit_test(wide_is_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
