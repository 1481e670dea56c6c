/* select_kth against a sort: every k of arrays with ties, runs, signed zeros, one value and
 * NANs; select_two against select_kth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "select.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* v[n] selected at every k (a fresh copy each time) gives the sorted array's k-th value, with
 * every value before it <= and every value after it >= it, and the same values in all. */
static void check_all_k(const double *v, size_t n)
{
	double *s = malloc(n * sizeof *s), *w = malloc(n * sizeof *w), *ws = malloc(n * sizeof *ws);

	assert_non_null(s);
	assert_non_null(w);
	assert_non_null(ws);
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	for (size_t k = 0; k < n; k++) {
		memcpy(w, v, n * sizeof *w);
		double got = select_kth(w, n, k);
		assert_true(got == s[k]);
		assert_true(w[k] == got);
		for (size_t i = 0; i < k; i++)
			assert_true(w[i] <= got);
		for (size_t i = k + 1; i < n; i++)
			assert_true(w[i] >= got);
		memcpy(ws, w, n * sizeof *ws);
		qsort(ws, n, sizeof *ws, cmp_double);
		for (size_t i = 0; i < n; i++)
			assert_true(ws[i] == s[i]);
	}
	free(s);
	free(w);
	free(ws);
}

static void random_arrays(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 42);
	for (int t = 0; t < 300; t++) {
		size_t n = 1 + (size_t)(rng_unit(&r) * 120);
		/* few distinct values on some arrays: long runs of ties */
		int distinct = t % 3 == 0 ? 3 : t % 3 == 1 ? 40 : 1000000;
		double v[121];
		for (size_t i = 0; i < n; i++)
			v[i] = floor(rng_unit(&r) * distinct) - distinct / 2;
		check_all_k(v, n);
	}
}

static void shapes(void **state)
{
	enum { N = 257 };
	double v[N];

	(void)state;
	for (size_t i = 0; i < N; i++) /* ascending */
		v[i] = (double)i;
	check_all_k(v, N);
	for (size_t i = 0; i < N; i++) /* descending */
		v[i] = (double)(N - i);
	check_all_k(v, N);
	for (size_t i = 0; i < N; i++) /* all equal */
		v[i] = 2.5;
	check_all_k(v, N);
	for (size_t i = 0; i < N; i++) /* organ pipe, signed zeros, infinities */
		v[i] = i < N / 2 ? (double)i : (double)(N - i);
	v[3] = -0.0;
	v[7] = 0.0;
	v[11] = INFINITY;
	v[13] = -INFINITY;
	check_all_k(v, N);
	v[0] = 7;
	assert_true(select_kth(v, 1, 0) == 7);
}

static void large(void **state)
{
	enum { N = 100000 };
	double *v = malloc(N * sizeof *v), *s = malloc(N * sizeof *s);
	struct rng r;

	(void)state;
	assert_non_null(v);
	assert_non_null(s);
	rng_seed(&r, 7);
	for (size_t i = 0; i < N; i++)
		v[i] = s[i] = floor(rng_unit(&r) * 5000) / 7;
	qsort(s, N, sizeof *s, cmp_double);
	size_t ks[] = { 0, (N - 1) / 4, N / 2, 3 * (N - 1) / 4, N - 1 };
	for (size_t j = 0; j < sizeof ks / sizeof *ks; j++)
		assert_true(select_kth(v, N, ks[j]) == s[ks[j]]);
	free(v);
	free(s);
}

/* With NANs: they sort after every number, so the k-th value is the k-th number while k is
 * below the count of numbers, and NAN from there on. */
static void with_nan(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 9);
	for (int t = 0; t < 200; t++) {
		size_t n = 1 + (size_t)(rng_unit(&r) * 40), nums = 0;
		double v[41], a[41], s[41];
		for (size_t i = 0; i < n; i++) {
			double u = rng_unit(&r);
			v[i] = t % 4 == 0 || u < 0.3 ? NAN : floor(u * (t % 2 ? 5 : 1000));
			if (!isnan(v[i]))
				s[nums++] = v[i];
		}
		qsort(s, nums, sizeof *s, cmp_double);
		for (size_t k = 0; k < n; k++) {
			memcpy(a, v, n * sizeof *v);
			double x = select_kth(a, n, k);
			if (k < nums)
				assert_true(x == s[k]);
			else
				assert_true(isnan(x));
		}
	}
}

/* select_two gives what two select_kth give (the values, equal; a zero's sign aside) and keeps
 * the values: uniform, skewed by far outliers, a few distinct values, all equal, signed zeros,
 * a value or two apart, tiny and huge magnitudes, and sizes below and above its bucketing. */
static void two_against_kth(void **state)
{
	enum { NMAX = 30000 };
	double *v = malloc(NMAX * sizeof *v), *w = malloc(NMAX * sizeof *w), *s = malloc(NMAX * sizeof *s);
	struct rng r;

	(void)state;
	assert_true(v && w && s);
	rng_seed(&r, 11);
	for (int t = 0; t < 400; t++) {
		size_t n = 1 + (size_t)(rng_unit(&r) * (t % 4 ? NMAX - 1 : 5000));
		int shape = t % 9;
		double lo = INFINITY, hi = -INFINITY, a, b;
		for (size_t i = 0; i < n; i++) {
			double u = rng_unit(&r);
			v[i] = shape == 0 ? u :
			       shape == 1 ? (u < 0.001 ? 1e6 * u : 0.3 + u) :          /* far outliers */
			       shape == 2 ? floor(u * 7) :                              /* ties */
			       shape == 3 ? 4.25 :                                      /* all equal */
			       shape == 4 ? (u < 0.5 ? -0.0 : 0.0) + (u < 0.1 ? u : 0) : /* signed zeros */
			       shape == 5 ? (i == 0 ? 1e300 : u) :                      /* one far away */
			       shape == 6 ? (i == n / 2 ? -1e-300 : u * 1e-300) :       /* tiny */
			       shape == 7 ? (u < 0.01 ? 1e9 * u : u < 0.02 ? -1e6 * u : u) : /* both ways */
			       ldexp(u, (int)(u * 40) - 20);                            /* magnitudes */
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
		size_t k1 = (size_t)(rng_unit(&r) * n), k2 = k1 + (size_t)(rng_unit(&r) * (n - k1));
		if (t % 5 == 0) {
			k1 = (n - 1) / 4;
			k2 = 3 * (n - 1) / 4;
		}
		memcpy(w, v, n * sizeof *w);
		memcpy(s, v, n * sizeof *s);
		select_two(w, n, lo, hi, k1, k2, &a, &b);
		qsort(s, n, sizeof *s, cmp_double);
		assert_true(a == s[k1]);
		assert_true(b == s[k2]);
		qsort(w, n, sizeof *w, cmp_double);
		for (size_t i = 0; i < n; i++)
			assert_true(w[i] == s[i]);
	}
	free(v);
	free(w);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_arrays),
		cmocka_unit_test(shapes),
		cmocka_unit_test(large),
		cmocka_unit_test(with_nan),
		cmocka_unit_test(two_against_kth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
