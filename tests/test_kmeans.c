/* test_kmeans.c: the generator, k-means against known and exhaustive optima, silhouette by
 * hand, auto-k, edge cases, determinism and a large input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kmeans.h"
#include "kmeans_ref.h"

#define SEED UINT64_C(20240901)

/* ---- generator ---- */

static void test_rng_reference_values(void **state)
{
	/* splitmix64's published reference sequence for seed 1234567. */
	static const uint64_t want[] = {
		UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
		UINT64_C(9817491932198370423), UINT64_C(4593380528125082431),
		UINT64_C(16408922859458223821),
	};
	struct rng r;

	(void)state;
	rng_seed(&r, 1234567);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(rng_next(&r) == want[i]);
}

static void test_rng_unit_range(void **state)
{
	struct rng r;
	double lo = 1, hi = 0, sum = 0;

	(void)state;
	rng_seed(&r, 7);
	for (int i = 0; i < 100000; i++) {
		double u = rng_unit(&r);
		assert_true(u >= 0 && u < 1);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		sum += u;
	}
	assert_true(lo < 0.001 && hi > 0.999);
	assert_true(fabs(sum / 100000 - 0.5) < 0.01);
}

/* ---- helpers ---- */

static void random_points(double *x, size_t n, size_t d, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < n * d; i++)
		x[i] = rng_unit(&r) * 10;
}

static int clusters_used(const int *lab, size_t n, int k)
{
	int seen[16] = {0}, c = 0;

	for (size_t i = 0; i < n; i++) {
		assert_true(lab[i] >= 0 && lab[i] < k);
		if (!seen[lab[i]]++)
			c++;
	}
	return c;
}

/* ---- k-means ---- */

static void test_known_optimum(void **state)
{
	/* Two unit triangles far apart: each triangle's SSE is 2/3 per axis, 4/3 in all. */
	const double x[] = {0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10};
	int lab[6];
	struct kmeans_result r;

	(void)state;
	assert_int_equal(kmeans_run(x, 6, 2, 2, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 2);
	assert_true(fabs(r.inertia - 8.0 / 3.0) < 1e-12);
	assert_int_equal(lab[0], lab[1]);
	assert_int_equal(lab[0], lab[2]);
	assert_int_equal(lab[3], lab[4]);
	assert_int_equal(lab[3], lab[5]);
	assert_int_not_equal(lab[0], lab[3]);
	assert_true(fabs(labelling_sse(x, 6, 2, lab, 2) - r.inertia) < 1e-12);
}

static void test_exhaustive_optimum(void **state)
{
	double x[8 * 2];
	int lab[8];

	(void)state;
	for (uint64_t s = 1; s <= 60; s++) {
		size_t n = 3 + (size_t)(s % 6); /* 3..8 */
		random_points(x, n, 2, s * 977);
		for (int k = 2; k <= 3; k++) {
			struct kmeans_result r;
			double want = exhaustive(x, n, 2, k);

			assert_int_equal(kmeans_run(x, n, 2, k, 16, SEED, lab, &r), 0);
			assert_int_equal(r.k, k);
			assert_int_equal(clusters_used(lab, n, k), k);
			if (fabs(r.inertia - want) > 1e-9)
				fail_msg("seed %lu n %zu k %d: inertia %.12g, optimum %.12g",
					 (unsigned long)s, n, k, r.inertia, want);
			assert_true(fabs(labelling_sse(x, n, 2, lab, k) - r.inertia) < 1e-9);
		}
	}
}

static void test_exhaustive_optimum_1d_3d(void **state)
{
	double x[8 * 3];
	int lab[8];

	(void)state;
	for (uint64_t s = 1; s <= 30; s++) {
		size_t d = s % 2 ? 1 : 3, n = 8;
		random_points(x, n, d, s * 31337);
		for (int k = 2; k <= 3; k++) {
			struct kmeans_result r;
			double want = exhaustive(x, n, d, k);

			assert_int_equal(kmeans_run(x, n, d, k, 16, SEED, lab, &r), 0);
			assert_true(fabs(r.inertia - want) < 1e-9);
		}
	}
}

/* ---- silhouette ---- */

static void test_silhouette_by_hand(void **state)
{
	/* 1-D {0, 1 | 4, 5}: the outer points have a = 1, b = 4.5, s = 7/9; the inner ones
	 * a = 1, b = 3.5, s = 5/7; the mean is 47/63. */
	const double x[] = {0, 1, 4, 5};
	const int lab[] = {0, 0, 1, 1};
	/* {0, 1 | 10}: s = 0.9, 8/9, and 0 for the point alone; mean 16.1/27. */
	const double y[] = {0, 1, 10};
	const int laby[] = {0, 0, 1};

	(void)state;
	assert_true(fabs(kmeans_silhouette(x, 4, 1, lab, 2) - 47.0 / 63.0) < 1e-12);
	assert_true(fabs(kmeans_silhouette(y, 3, 1, laby, 2) - 16.1 / 27.0) < 1e-12);
}

static void test_silhouette_undefined(void **state)
{
	const double x[] = {0, 1, 4, 5};
	const int one[] = {0, 0, 0, 0};
	const int alone[] = {0, 1, 2, 3};
	const int bad[] = {0, 1, 5, 0};

	(void)state;
	assert_true(isnan(kmeans_silhouette(x, 4, 1, one, 1)));
	assert_true(isnan(kmeans_silhouette(x, 4, 1, one, 3))); /* one cluster used of 3 */
	assert_true(isnan(kmeans_silhouette(x, 4, 1, alone, 4)));
	assert_true(isnan(kmeans_silhouette(x, 4, 1, bad, 3)));
	assert_true(isnan(kmeans_silhouette(x, 0, 1, one, 2)));
}

static void test_result_silhouette_matches(void **state)
{
	double x[40 * 2];
	int lab[40];
	struct kmeans_result r;

	(void)state;
	random_points(x, 40, 2, 99);
	assert_int_equal(kmeans_run(x, 40, 2, 4, 16, SEED, lab, &r), 0);
	assert_true(r.silhouette == kmeans_silhouette(x, 40, 2, lab, 4));
	assert_true(r.silhouette > -1 && r.silhouette < 1);
}

/* ---- auto-k ---- */

/* Points in c tight blobs on a line, `per` points each. */
static void blobs(double *x, size_t c, size_t per, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t b = 0; b < c; b++)
		for (size_t i = 0; i < per; i++) {
			x[(b * per + i) * 2] = (double)b * 10 + rng_unit(&r) * 0.5;
			x[(b * per + i) * 2 + 1] = (double)(b % 2) * 7 + rng_unit(&r) * 0.5;
		}
}

static void test_auto_k_finds_blobs(void **state)
{
	double x[5 * 6 * 2];
	int lab[30];
	struct kmeans_result r;

	(void)state;
	for (size_t c = 2; c <= 5; c++) {
		blobs(x, c, 6, c);
		assert_int_equal(kmeans_auto(x, c * 6, 2, 8, 16, SEED, lab, &r), 0);
		assert_int_equal(r.k, (int)c);
		assert_true(r.silhouette > 0.8);
		for (size_t b = 0; b < c; b++)
			for (size_t i = 1; i < 6; i++)
				assert_int_equal(lab[b * 6 + i], lab[b * 6]);
	}
}

static void test_auto_k_best_silhouette(void **state)
{
	/* auto-k must pick the k whose own run scores the best silhouette, bit for bit (auto-k
	 * takes the distances once for all its silhouettes): small and near the sample's size,
	 * in two and three dimensions. */
	static const size_t sizes[] = { 25, 1000 };
	static double x[1000 * 3];
	static int lab[1000], lab2[1000];

	(void)state;
	for (size_t si = 0; si < 2; si++)
		for (size_t d = 2; d <= 3; d++) {
			size_t n = sizes[si];
			struct kmeans_result r, rk;
			double best = -2;
			int best_k = 0;
			random_points(x, n, d, 4242 + (unsigned)(n + d));
			for (int k = 2; k <= 8; k++) {
				assert_int_equal(kmeans_run(x, n, d, k, 16, SEED, lab, &rk), 0);
				if (rk.silhouette > best) {
					best = rk.silhouette;
					best_k = k;
					memcpy(lab2, lab, n * sizeof *lab);
				}
			}
			assert_int_equal(kmeans_auto(x, n, d, 8, 16, SEED, lab, &r), 0);
			assert_int_equal(r.k, best_k);
			assert_memory_equal(&r.silhouette, &best, sizeof best);
			assert_memory_equal(lab, lab2, n * sizeof *lab);
		}
}

static void test_auto_k_degenerate(void **state)
{
	const double same[] = {1, 1, 1, 1, 1, 1, 1, 1};
	const double two[] = {0, 0, 1, 1};
	int lab[4] = {-1, -1, -1, -1};
	struct kmeans_result r;

	(void)state;
	assert_int_equal(kmeans_auto(same, 4, 2, 8, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 1);
	assert_true(r.inertia == 0);
	assert_true(isnan(r.silhouette));
	assert_int_equal(clusters_used(lab, 4, 1), 1);
	assert_int_equal(kmeans_auto(two, 2, 2, 8, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 1);
	assert_true(fabs(r.inertia - 1.0) < 1e-15);
	assert_int_equal(kmeans_auto(two, 1, 2, 8, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 1);
	assert_true(r.inertia == 0);
	assert_int_equal(kmeans_auto(NULL, 0, 2, 8, 16, SEED, NULL, &r), 0);
	assert_int_equal(r.k, 0);
}

/* ---- edge cases ---- */

static void test_edge_cases(void **state)
{
	const double x[] = {0, 0, 3, 4, 3, 4, 0, 0, 3, 4, 6, 8};
	const double same[] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
	int lab[6];
	struct kmeans_result r;

	(void)state;
	/* n = 0 */
	assert_int_equal(kmeans_run(NULL, 0, 2, 3, 16, SEED, NULL, &r), 0);
	assert_int_equal(r.k, 0);
	assert_true(r.inertia == 0 && isnan(r.silhouette));
	/* n = 1 */
	assert_int_equal(kmeans_run(x, 1, 2, 3, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 1);
	assert_int_equal(lab[0], 0);
	assert_true(r.inertia == 0 && isnan(r.silhouette));
	/* n = 2, k = 2: each point alone */
	assert_int_equal(kmeans_run(x, 2, 2, 2, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 2);
	assert_int_not_equal(lab[0], lab[1]);
	assert_true(r.inertia == 0 && isnan(r.silhouette));
	/* n = 2, k = 1: mean (1.5, 2), SSE 2 * 6.25 */
	assert_int_equal(kmeans_run(x, 2, 2, 1, 16, SEED, lab, &r), 0);
	assert_true(fabs(r.inertia - 12.5) < 1e-12);
	/* all points identical, k = 3: one cluster */
	assert_int_equal(kmeans_run(same, 5, 2, 3, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 1);
	assert_true(r.inertia == 0 && isnan(r.silhouette));
	assert_int_equal(clusters_used(lab, 5, 1), 1);
	/* k >= n with duplicates: 3 distinct points among 6, k = 10 */
	assert_int_equal(kmeans_run(x, 6, 2, 10, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 3);
	assert_true(r.inertia == 0);
	assert_int_equal(lab[0], lab[3]);
	assert_int_equal(lab[1], lab[2]);
	assert_int_equal(lab[1], lab[4]);
	assert_int_not_equal(lab[0], lab[1]);
	assert_int_not_equal(lab[5], lab[1]);
	assert_false(isnan(r.silhouette));
	/* bad arguments */
	assert_int_equal(kmeans_run(x, 6, 2, 0, 16, SEED, lab, &r), -1);
	assert_int_equal(kmeans_run(x, 6, 0, 2, 16, SEED, lab, &r), -1);
	assert_int_equal(kmeans_run(x, 6, 2, 2, 0, SEED, lab, &r), -1);
	assert_int_equal(kmeans_run(NULL, 6, 2, 2, 16, SEED, lab, &r), -1);
	assert_int_equal(kmeans_run(x, 6, 2, 2, 16, SEED, lab, NULL), -1);
}

/* ---- determinism and scale ---- */

static void test_deterministic(void **state)
{
	enum { N = 700 };
	double *x = malloc(N * 3 * sizeof *x);
	int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	struct kmeans_result ra, rb;

	(void)state;
	assert_non_null(x);
	assert_non_null(a);
	assert_non_null(b);
	random_points(x, N, 3, 5);
	assert_int_equal(kmeans_run(x, N, 3, 5, 16, SEED, a, &ra), 0);
	assert_int_equal(kmeans_run(x, N, 3, 5, 16, SEED, b, &rb), 0);
	assert_memory_equal(a, b, N * sizeof *a);
	assert_memory_equal(&ra.inertia, &rb.inertia, sizeof ra.inertia);
	assert_memory_equal(&ra.silhouette, &rb.silhouette, sizeof ra.silhouette);
	free(x);
	free(a);
	free(b);
}

static void test_large_input(void **state)
{
	enum { N = 100000 };
	double *x = malloc(N * 2 * sizeof *x);
	int *lab = malloc(N * sizeof *lab), *lab2 = malloc(N * sizeof *lab2);
	struct kmeans_result r, r2;

	(void)state;
	assert_non_null(x);
	assert_non_null(lab);
	assert_non_null(lab2);
	random_points(x, N, 2, 11);
	assert_int_equal(kmeans_run(x, N, 2, 3, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, 3);
	assert_true(isfinite(r.inertia) && r.inertia > 0);
	assert_true(isfinite(r.silhouette));
	assert_int_equal(clusters_used(lab, N, 3), 3);
	assert_true(fabs(labelling_sse(x, N, 2, lab, 3) - r.inertia) < 1e-6 * r.inertia);
	assert_int_equal(kmeans_auto(x, N, 2, 8, 16, SEED, lab2, &r2), 0);
	assert_true(r2.k >= 2 && r2.k <= 8);
	assert_true(isfinite(r2.inertia) && isfinite(r2.silhouette));
	/* auto-k above 2048 points is kmeans_run with the k it chose, bit for bit (it keeps the
	 * sample's winning centroids instead of running those restarts again) */
	assert_int_equal(kmeans_run(x, N, 2, r2.k, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, r2.k);
	assert_memory_equal(lab, lab2, N * sizeof *lab);
	assert_memory_equal(&r.inertia, &r2.inertia, sizeof r.inertia);
	assert_memory_equal(&r.silhouette, &r2.silhouette, sizeof r.silhouette);
	free(x);
	free(lab);
	free(lab2);
}

static void test_large_input_blobs(void **state)
{
	/* The sampled path must still separate clear blobs. */
	enum { PER = 20000, C = 4 };
	double *x = malloc(PER * C * 2 * sizeof *x);
	int *lab = malloc(PER * C * sizeof *lab);
	struct kmeans_result r;

	(void)state;
	assert_non_null(x);
	assert_non_null(lab);
	blobs(x, C, PER, 3);
	assert_int_equal(kmeans_auto(x, PER * C, 2, 8, 16, SEED, lab, &r), 0);
	assert_int_equal(r.k, C);
	for (size_t b = 0; b < C; b++)
		for (size_t i = 1; i < PER; i++)
			assert_int_equal(lab[b * PER + i], lab[b * PER]);
	{
		int *lab2 = malloc(PER * C * sizeof *lab2);
		struct kmeans_result r2;
		assert_non_null(lab2);
		assert_int_equal(kmeans_run(x, PER * C, 2, C, 16, SEED, lab2, &r2), 0);
		assert_memory_equal(lab, lab2, PER * C * sizeof *lab);
		assert_memory_equal(&r.inertia, &r2.inertia, sizeof r.inertia);
		assert_memory_equal(&r.silhouette, &r2.silhouette, sizeof r.silhouette);
		free(lab2);
	}
	free(x);
	free(lab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_reference_values),
		cmocka_unit_test(test_rng_unit_range),
		cmocka_unit_test(test_known_optimum),
		cmocka_unit_test(test_exhaustive_optimum),
		cmocka_unit_test(test_exhaustive_optimum_1d_3d),
		cmocka_unit_test(test_silhouette_by_hand),
		cmocka_unit_test(test_silhouette_undefined),
		cmocka_unit_test(test_result_silhouette_matches),
		cmocka_unit_test(test_auto_k_finds_blobs),
		cmocka_unit_test(test_auto_k_best_silhouette),
		cmocka_unit_test(test_auto_k_degenerate),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_large_input),
		cmocka_unit_test(test_large_input_blobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
