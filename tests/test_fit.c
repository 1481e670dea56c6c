/* test_fit.c: the scaling-law fit recovers known laws with and without noise, finds the best
 * minimum of the box (checked against a brute-force grid), handles the bounds, predicts the
 * break-even and the peak, and every guard (too few N, weak, not converged, bad points). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "chart.h"
#include "dataset.h"
#include "fit.h"
#include "rng.h"

#define NPTS 11
static const double NS[NPTS] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };

static double usl_x(double lambda, double sigma, double kappa, double n)
{
	return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

/* minutes of the law at each N, times exp(noise * g) with g a deterministic uniform in [-1,1) */
static void make_t(const double *n, size_t m, double lambda, double sigma, double kappa,
		   double noise, uint64_t seed, double *t)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < m; i++)
		t[i] = 60.0 / usl_x(lambda, sigma, kappa, n[i]) * exp(noise * (2 * rng_unit(&r) - 1));
}

static double sse_of(const double *n, const double *t, size_t m, double lambda, double sigma,
		     double kappa)
{
	double s = 0;

	for (size_t i = 0; i < m; i++) {
		double r = log(60.0 / t[i]) - log(usl_x(lambda, sigma, kappa, n[i]));
		s += r * r;
	}
	return s;
}

static void assert_rel(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol * fabs(want))) {
		print_error("got %.17g, want %.17g (relative tolerance %g)\n", got, want, tol);
		fail();
	}
}

/* every double of a fit is finite or NAN: infinity never leaves the module */
static void assert_no_inf(const struct fit *f)
{
	const struct fit_model *ms[2] = { &f->usl, &f->amdahl };

	assert_false(isinf(f->n_ref) || isinf(f->n_max) || isinf(f->peak));
	for (int i = 0; i < 2; i++) {
		const struct fit_model *m = ms[i];
		double v[] = { m->lambda, m->sigma, m->kappa, m->se_lambda, m->se_sigma, m->se_kappa,
			       m->sse, m->r2 };
		for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
			assert_false(isinf(v[j]));
	}
}

/* ---- recovery ---- */

/* The fit is a function of the points as a set: 3,000 points (sorted by a radix sort past 256)
 * in their order, reversed and shuffled give the same fit to the last bit, with ties in N and
 * in (N, T); and 200 of them (sorted by qsort) likewise. */
static void test_fit_independent_of_point_order(void **state)
{
	enum { NP = 3000 };
	static double n[NP], t[NP], n2[NP], t2[NP];
	uint64_t x = 99;
	(void)state;

	for (size_t i = 0; i < NP; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		double nn = (double)(1u << (x >> 60)); /* 16 distinct N */
		double noise = (double)((x >> 20) % 1000) / 1000.0 - 0.5;
		n[i] = nn;
		t[i] = i % 7 == 0 && i ? t[i - 1] : 100.0 * (1 + 0.01 * (nn - 1) + 1e-6 * nn * (nn - 1)) / nn * exp(0.2 * noise);
		if (i % 7 == 0 && i)
			n[i] = n[i - 1]; /* a tie in (N, T) */
	}
	for (size_t size = 200; size <= NP; size += NP - 200) {
		struct fit a, b, c;
		struct gs_err e = { 0 };
		assert_int_equal(fit_run(n, t, size, &a, &e), 0);
		for (size_t i = 0; i < size; i++) {
			n2[i] = n[size - 1 - i];
			t2[i] = t[size - 1 - i];
		}
		assert_int_equal(fit_run(n2, t2, size, &b, &e), 0);
		for (size_t i = size - 1; i > 0; i--) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t j = (size_t)(x >> 33) % (i + 1);
			double tn = n2[i], tt = t2[i];
			n2[i] = n2[j], t2[i] = t2[j];
			n2[j] = tn, t2[j] = tt;
		}
		assert_int_equal(fit_run(n2, t2, size, &c, &e), 0);
		assert_int_equal(a.state, FIT_OK);
		assert_memory_equal(&a.usl, &b.usl, sizeof a.usl);
		assert_memory_equal(&a.usl, &c.usl, sizeof a.usl);
		assert_memory_equal(&a.amdahl, &c.amdahl, sizeof a.amdahl);
	}
}

static void assert_same_fit(const struct fit *a, const struct fit *b)
{
	assert_int_equal(a->state, b->state);
	assert_string_equal(a->reason, b->reason);
	assert_memory_equal(&a->usl, &b->usl, sizeof a->usl);
	assert_memory_equal(&a->amdahl, &b->amdahl, sizeof a->amdahl);
	assert_memory_equal(&a->peak, &b->peak, sizeof a->peak);
	assert_int_equal(a->npoints, b->npoints);
	assert_int_equal(a->ndistinct, b->ndistinct);
	assert_memory_equal(&a->n_ref, &b->n_ref, sizeof a->n_ref);
	assert_memory_equal(&a->n_max, &b->n_max, sizeof a->n_max);
	assert_int_equal(a->peak_in_range, b->peak_in_range);
}

/* The memo gives what fit_run gives: 40 point sets (more than it keeps) fitted through it twice
 * equal fit_run's fits to the last bit, the last FIT_MEMO_KEEP of them from the memo; a T one
 * ulp away, or one point fewer, is fitted afresh. */
static void test_fit_memo_same_as_fit_run(void **state)
{
	enum { SETS = FIT_MEMO_KEEP + 8 };
	static double t[SETS][NPTS];
	struct fit_memo *m = fit_memo_new();
	struct fit a, b;
	struct gs_err e = { 0 };
	(void)state;

	assert_non_null(m);
	assert_true(SETS > FIT_MEMO_KEEP);
	for (size_t k = 0; k < SETS; k++)
		make_t(NS, NPTS, 1 + (double)k, 0.001 * (double)k, 1e-6 * (double)(k % 5), 0.05, 7 + k, t[k]);
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < SETS; k++) {
			assert_int_equal(fit_memo_run(m, NS, t[k], NPTS, &a, &e), 0);
			assert_int_equal(fit_run(NS, t[k], NPTS, &b, &e), 0);
			assert_same_fit(&a, &b);
		}
	/* pass 2 went round in order: each set had just been pushed out, so none was kept */
	assert_int_equal(fit_memo_hits(m), 0);
	for (size_t k = SETS - FIT_MEMO_KEEP; k < SETS; k++) {
		assert_int_equal(fit_memo_run(m, NS, t[k], NPTS, &a, &e), 0);
		assert_int_equal(fit_run(NS, t[k], NPTS, &b, &e), 0);
		assert_same_fit(&a, &b);
	}
	assert_int_equal(fit_memo_hits(m), FIT_MEMO_KEEP);
	t[SETS - 1][3] = nextafter(t[SETS - 1][3], INFINITY);
	assert_int_equal(fit_memo_run(m, NS, t[SETS - 1], NPTS, &a, &e), 0);
	assert_int_equal(fit_run(NS, t[SETS - 1], NPTS, &b, &e), 0);
	assert_same_fit(&a, &b);
	assert_int_equal(fit_memo_run(m, NS, t[SETS - 1], NPTS - 1, &a, &e), 0);
	assert_int_equal(fit_run(NS, t[SETS - 1], NPTS - 1, &b, &e), 0);
	assert_same_fit(&a, &b);
	assert_int_equal(fit_memo_hits(m), FIT_MEMO_KEEP);
	/* a set asked for between every new one stays, however many come after it: the slot
	 * refilled is the one asked for longest ago, not the one filled first */
	for (size_t k = 0; k < 2 * SETS; k++) {
		assert_int_equal(fit_memo_run(m, NS, t[k % (SETS - 2)], NPTS, &a, &e), 0);
		/* t[SETS - 2] was kept before the loop: every one of its calls is a hit */
		size_t h = fit_memo_hits(m);
		assert_int_equal(fit_memo_run(m, NS, t[SETS - 2], NPTS, &a, &e), 0);
		assert_int_equal(fit_memo_hits(m), h + 1);
	}
	assert_int_equal(fit_run(NS, t[SETS - 2], NPTS, &b, &e), 0);
	assert_same_fit(&a, &b);
	/* a bad point is an error, never kept */
	t[0][0] = -1;
	assert_int_equal(fit_memo_run(m, NS, t[0], NPTS, &a, &e), -1);
	assert_int_equal(fit_memo_run(m, NS, t[0], NPTS, &a, &e), -1);
	fit_memo_free(m);
	assert_int_equal(fit_memo_run(NULL, NS, t[1], NPTS, &a, &e), 0);
}

/* The memo holds FIT_MEMO_POINTS points at most: a set of more is fitted (as fit_run fits it)
 * and never kept; two sets of more than half of it are not both kept, the older dropped. */
static void test_fit_memo_bounded(void **state)
{
	size_t big = FIT_MEMO_POINTS + 1, half = FIT_MEMO_POINTS / 2 + 1;
	double *n = malloc(big * sizeof *n), *t = malloc(big * sizeof *t), *t2 = malloc(big * sizeof *t2);
	struct fit_memo *m = fit_memo_new();
	struct fit a, b;
	struct gs_err e = { 0 };
	(void)state;

	assert_non_null(n), assert_non_null(t), assert_non_null(t2), assert_non_null(m);
	for (size_t i = 0; i < big; i++) {
		n[i] = NS[i % NPTS];
		t[i] = 60.0 / usl_x(2, 0.01, 1e-5, n[i]) * (1 + 1e-3 * (double)(i % 13));
		t2[i] = t[i] * 1.5;
	}
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(fit_memo_run(m, n, t, big, &a, &e), 0);
		assert_int_equal(fit_run(n, t, big, &b, &e), 0);
		assert_same_fit(&a, &b);
	}
	assert_int_equal(fit_memo_hits(m), 0);
	assert_int_equal(fit_memo_run(m, n, t, half, &a, &e), 0);
	assert_int_equal(fit_memo_run(m, n, t, half, &a, &e), 0);
	assert_int_equal(fit_memo_hits(m), 1);
	assert_int_equal(fit_memo_run(m, n, t2, half, &a, &e), 0); /* drops the first */
	assert_int_equal(fit_memo_run(m, n, t2, half, &a, &e), 0);
	assert_int_equal(fit_memo_hits(m), 2);
	assert_int_equal(fit_memo_run(m, n, t, half, &a, &e), 0);
	assert_int_equal(fit_memo_hits(m), 2);
	assert_int_equal(fit_run(n, t, half, &b, &e), 0);
	assert_same_fit(&a, &b);
	fit_memo_free(m);
	free(n), free(t), free(t2);
}

static void test_exact_usl_recovered(void **state)
{
	static const double laws[][3] = {
		{ 3, 0.02, 1e-5 }, { 0.5, 0.001, 2e-7 }, { 40, 0.3, 0.002 }, { 1.7, 0.9, 1e-4 },
	};
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	for (size_t k = 0; k < sizeof laws / sizeof laws[0]; k++) {
		make_t(NS, NPTS, laws[k][0], laws[k][1], laws[k][2], 0, 1, t);
		assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
		assert_int_equal(f.state, FIT_OK);
		assert_string_equal(f.reason, "");
		assert_true(f.usl.converged);
		assert_rel(f.usl.lambda, laws[k][0], 1e-6);
		assert_rel(f.usl.sigma, laws[k][1], 1e-6);
		assert_rel(f.usl.kappa, laws[k][2], 1e-6);
		assert_false(f.usl.sigma_at_bound || f.usl.kappa_at_bound);
		assert_true(f.usl.r2 > 1 - 1e-12);
		assert_true(isfinite(f.usl.se_sigma) && isfinite(f.usl.se_kappa) && isfinite(f.usl.se_lambda));
		assert_int_equal(f.npoints, NPTS);
		assert_int_equal(f.ndistinct, NPTS);
		assert_true(f.n_ref == 1 && f.n_max == 1024);
		assert_no_inf(&f);
	}
}

static void test_noisy_usl_recovered(void **state)
{
	/* 5 submissions at each of 13 counts, +-3% on the time */
	double n[65], t[65];
	const double L = 2.5, S = 0.01, K = 3e-6;
	struct fit f;
	struct gs_err e;

	(void)state;
	for (size_t i = 0; i < 65; i++)
		n[i] = ldexp(1.0, (int)(i / 5));
	make_t(n, 65, L, S, K, 0.03, 42, t);
	assert_int_equal(fit_run(n, t, 65, &f, &e), 0);
	assert_int_equal(f.state, FIT_OK);
	assert_int_equal(f.ndistinct, 13);
	assert_rel(f.usl.lambda, L, 0.05);
	assert_rel(f.usl.sigma, S, 0.10);
	assert_rel(f.usl.kappa, K, 0.10);
	/* the truth lies within 4 standard errors of the estimate */
	assert_true(fabs(f.usl.sigma - S) < 4 * f.usl.se_sigma);
	assert_true(fabs(f.usl.kappa - K) < 4 * f.usl.se_kappa);
	assert_true(fabs(f.usl.lambda - L) < 4 * f.usl.se_lambda);
	/* a least-squares minimum is no worse than the law that made the data */
	assert_true(f.usl.sse <= sse_of(n, t, 65, L, S, K));
	assert_true(f.usl.r2 > 0.99 && f.usl.r2 < 1);
}

/* At the corner sigma = kappa = 0 only ln lambda is free and the fit is a mean, so its standard
 * error is the textbook s / sqrt(n), s^2 = SSE / (n - 1); lambda's is lambda times that. */
static void test_standard_error_at_corner(void **state)
{
	double n[6] = { 1, 2, 4, 8, 16, 32 }, t[6];
	double noise[6] = { 0.01, -0.02, 0.015, -0.01, 0.02, 0.0 };
	double mean = 0, s2 = 0, lam;
	struct fit f;
	struct gs_err e;

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		/* a strong superlinear trend pushes sigma to its bound 0 */
		t[i] = 60.0 / (2.0 * n[i] * pow(n[i], 0.05)) * exp(noise[i]);
	}
	assert_int_equal(fit_run(n, t, 6, &f, &e), 0);
	assert_true(f.usl.sigma == 0 && f.usl.kappa == 0);
	assert_true(f.usl.sigma_at_bound && f.usl.kappa_at_bound);
	assert_true(isnan(f.usl.se_sigma) && isnan(f.usl.se_kappa));
	for (size_t i = 0; i < 6; i++)
		mean += log(60.0 / t[i]) - log(n[i]);
	mean /= 6;
	for (size_t i = 0; i < 6; i++) {
		double r = log(60.0 / t[i]) - log(n[i]) - mean;
		s2 += r * r;
	}
	s2 /= 5;
	lam = exp(mean);
	assert_rel(f.usl.lambda, lam, 1e-12);
	assert_rel(f.usl.se_lambda, lam * sqrt(s2 / 6), 1e-9);
}

/* ---- the best minimum over the box ---- */

static double grid_min(const double *n, const double *t, size_t m)
{
	double best = INFINITY;

	for (int i = 0; i <= 300; i++) {
		double s = i == 0 ? 0 : pow(10, -7 + 7.0 * (i - 1) / 299);
		for (int j = 0; j <= 300; j++) {
			double k = j == 0 ? 0 : pow(10, -12 + 11.0 * (j - 1) / 299), a = 0, sse = 0;
			for (size_t q = 0; q < m; q++)
				a += log(60.0 / t[q]) - log(n[q]) + log(1 + s * (n[q] - 1) + k * n[q] * (n[q] - 1));
			a /= (double)m;
			for (size_t q = 0; q < m; q++) {
				double r = log(60.0 / t[q]) - a - log(n[q]) + log(1 + s * (n[q] - 1) + k * n[q] * (n[q] - 1));
				sse += r * r;
			}
			best = fmin(best, sse);
		}
	}
	return best;
}

static void test_best_minimum_not_worse_than_grid(void **state)
{
	static const double laws[][3] = {
		{ 1, 0.05, 0 }, { 1, 0.0, 1e-4 }, { 3, 0.2, 1e-3 }, { 1, 1e-4, 1e-7 }, { 9, 0.6, 0 },
	};
	double n[20], t[20];
	struct fit f;
	struct gs_err e;

	(void)state;
	for (size_t i = 0; i < 20; i++)
		n[i] = 1 + (double)((i * 37) % 400);
	for (size_t k = 0; k < sizeof laws / sizeof laws[0]; k++) {
		make_t(n, 20, laws[k][0], laws[k][1], laws[k][2], 0.2, 100 + k, t);
		assert_int_equal(fit_run(n, t, 20, &f, &e), 0);
		assert_true(fit_usable(&f));
		assert_true(f.usl.sse <= grid_min(n, t, 20) * (1 + 1e-9));
		assert_true(f.amdahl.sse >= f.usl.sse);
	}
}

/* ---- Amdahl ---- */

static void test_amdahl_data(void **state)
{
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 4, 0.03, 0, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_int_equal(f.state, FIT_OK);
	/* kappa sits on its bound exactly: the face kappa = 0 is solved on its own */
	assert_true(f.usl.kappa == 0);
	assert_true(f.usl.kappa_at_bound && !f.usl.sigma_at_bound);
	assert_true(isnan(f.usl.se_kappa));
	assert_rel(f.usl.sigma, 0.03, 1e-6);
	assert_rel(f.amdahl.sigma, 0.03, 1e-6);
	assert_rel(f.amdahl.lambda, 4, 1e-6);
	assert_true(f.amdahl.kappa == 0 && f.amdahl.kappa_at_bound);
	assert_true(f.amdahl.converged);
	assert_true(isnan(f.peak) && !f.peak_in_range);
}

static void test_amdahl_on_usl_data(void **state)
{
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(f.amdahl.kappa == 0);
	assert_true(f.amdahl.sse > f.usl.sse);
	assert_true(f.amdahl.r2 < f.usl.r2);
	/* Amdahl can only bend the curve through sigma: it takes more of it */
	assert_true(f.amdahl.sigma > 0.02);
	assert_true(isfinite(f.amdahl.se_sigma) && isnan(f.amdahl.se_kappa));
}

/* ---- E', break-even, peak ---- */

static void test_ep_and_breakeven(void **state)
{
	const double L = 3, S = 0.02, K = 1e-5;
	double n[6] = { 4, 8, 16, 64, 256, 1024 }, t[6];
	double d4 = 1 + S * 3 + K * 12, target, qa, qb, qc, root;
	const char *why;
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(n, 6, L, S, K, 0, 1, t);
	assert_int_equal(fit_run(n, t, 6, &f, &e), 0);
	assert_true(f.n_ref == 4);
	assert_rel(fit_ep(&f, 4), 1, 1e-15);
	assert_rel(fit_ep(&f, 100), d4 / (1 + S * 99 + K * 9900), 1e-6);
	assert_rel(fit_x(&f, 100), usl_x(L, S, K, 100), 1e-6);
	assert_rel(fit_t(&f, 100), 60 / usl_x(L, S, K, 100), 1e-6);
	/* E'(N) = theta where K N^2 + (S - K) N + 1 - S - D(4)/theta = 0 */
	for (double theta = 0.3; theta < 0.95; theta += 0.1) {
		target = d4 / theta;
		qa = K, qb = S - K, qc = 1 - S - target;
		root = (-qb + sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
		assert_true(fit_breakeven(&f, theta, &why) == fit_round_sig(root, 3));
		assert_string_equal(why, "");
	}
	/* theta 0.8: the root is 17.1195..., shown as 17.1 */
	assert_true(fit_breakeven(&f, 0.8, NULL) == 17.1);
	assert_true(isnan(fit_breakeven(&f, 1.01, &why)));
	assert_string_equal(why, "E' < theta at N_ref");
	assert_true(fit_breakeven(&f, 1.0, &why) == 4);
}

static void test_breakeven_beyond_range(void **state)
{
	double t[NPTS];
	const char *why;
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 2, 0, 0, 0, 1, t); /* perfect scaling: E' stays 1 */
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(isnan(fit_breakeven(&f, 0.8, &why)));
	assert_string_equal(why, "E' >= theta beyond 1e+15");
}

static void test_peak(void **state)
{
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(f.peak_in_range);
	assert_rel(f.peak, sqrt(0.98 / 1e-5), 1e-6);
	/* N* = sqrt(0.99/1e-11) ~ 3.1e5, beyond 100 x 1024 */
	make_t(NS, NPTS, 3, 0.01, 1e-11, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(f.usl.kappa > 0);
	assert_false(f.peak_in_range);
	assert_true(isnan(f.peak));
	/* just inside: N* = 100 x 1024 / 1.01 */
	make_t(NS, NPTS, 3, 0.5, 0.5 / pow(102400 / 1.01, 2), 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(f.peak_in_range);
	assert_rel(f.peak, 102400 / 1.01, 1e-5);
}

static void test_resid(void **state)
{
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(fabs(fit_resid(&f, 64, t[6])) < 1e-9);
	/* 10% less time is 1/0.9 the throughput */
	assert_rel(fit_resid(&f, 64, t[6] * 0.9), log(1 / 0.9), 1e-6);
	assert_true(isnan(fit_resid(&f, 64, 0)));
	assert_true(isnan(fit_resid(&f, 0.5, 1)));
}

static void test_round_sig(void **state)
{
	(void)state;
	assert_true(fit_round_sig(3472.4, 3) == 3470);
	assert_true(fit_round_sig(999.6, 3) == 1000);
	assert_true(fit_round_sig(0.0123456, 3) == 0.0123);
	assert_true(fit_round_sig(13.5249, 3) == 13.5);
	assert_true(fit_round_sig(0, 3) == 0);
	assert_true(isnan(fit_round_sig(NAN, 3)));
}

/* ---- guards ---- */

static void test_too_few_distinct_n(void **state)
{
	double n[5] = { 8, 8, 16, 16, 8 }, t[5] = { 10, 11, 6, 6.5, 9 };
	const char *why;
	struct fit f;
	struct gs_err e;

	(void)state;
	assert_int_equal(fit_run(n, t, 5, &f, &e), 0);
	assert_int_equal(f.state, FIT_NONE);
	assert_string_equal(f.reason, "needs 3 distinct N");
	assert_int_equal(f.ndistinct, 2);
	assert_false(fit_usable(&f));
	assert_true(isnan(f.usl.sigma) && isnan(f.usl.kappa) && isnan(f.usl.lambda));
	assert_true(isnan(fit_x(&f, 8)) && isnan(fit_ep(&f, 8)) && isnan(fit_resid(&f, 8, 10)));
	assert_true(isnan(fit_breakeven(&f, 0.8, &why)));
	assert_string_equal(why, "no fit");
	assert_no_inf(&f);
	/* one N, and no point at all */
	assert_int_equal(fit_run(n, t, 1, &f, &e), 0);
	assert_int_equal(f.state, FIT_NONE);
	assert_string_equal(f.reason, "needs 3 distinct N");
	assert_int_equal(fit_run(n, t, 0, &f, &e), 0);
	assert_int_equal(f.state, FIT_NONE);
	assert_string_equal(f.reason, "needs 3 distinct N");
	assert_string_equal(fit_state_name(f.state), "no fit");
}

static void test_weak_few_points(void **state)
{
	double t[NPTS];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, 5, 3, 0.02, 1e-3, 0, 1, t);
	assert_int_equal(fit_run(NS, t, 5, &f, &e), 0);
	assert_int_equal(f.state, FIT_WEAK);
	assert_string_equal(f.reason, "5 points < 6");
	assert_true(fit_usable(&f)); /* weak is drawn, and marked */
	assert_string_equal(fit_state_name(f.state), "weak");
	make_t(NS, 6, 3, 0.02, 1e-3, 0, 1, t);
	assert_int_equal(fit_run(NS, t, 6, &f, &e), 0);
	assert_int_equal(f.state, FIT_OK);
	/* three points, three parameters: no degree of freedom, no standard errors */
	make_t(NS, 3, 3, 0.02, 1e-3, 0.01, 1, t);
	assert_int_equal(fit_run(NS, t, 3, &f, &e), 0);
	assert_int_equal(f.state, FIT_WEAK);
	assert_no_inf(&f);
}

static void test_weak_poor_r2(void **state)
{
	/* times that hardly follow N (sigma 0.9: X nearly flat) under +-50% noise */
	double t[NPTS];
	char want[80];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.9, 0, 0.5, 7, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_true(f.usl.r2 < 0.9);
	assert_int_equal(f.state, FIT_WEAK);
	snprintf(want, sizeof want, "R^2 %.3f < 0.9", f.usl.r2);
	assert_string_equal(f.reason, want);
	/* few points and a poor R^2 give both reasons */
	assert_int_equal(fit_run(NS, t, 5, &f, &e), 0);
	assert_true(f.usl.r2 < 0.9);
	snprintf(want, sizeof want, "5 points < 6, R^2 %.3f < 0.9", f.usl.r2);
	assert_string_equal(f.reason, want);
	/* every X equal: R^2 has no meaning */
	for (size_t i = 0; i < NPTS; i++)
		t[i] = 7;
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_int_equal(f.state, FIT_WEAK);
	assert_string_equal(f.reason, "R^2 undefined (X constant)");
	assert_true(isnan(f.usl.r2));
	assert_no_inf(&f);
}

static void test_not_converged(void **state)
{
	double t[NPTS];
	const char *why;
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0.01, 3, t);
	assert_int_equal(fit_run_max(NS, t, NPTS, 1, &f, &e), 0);
	assert_int_equal(f.state, FIT_NOCONV);
	assert_string_equal(f.reason, "the solver did not converge");
	assert_string_equal(fit_state_name(f.state), "not converged");
	assert_false(f.usl.converged);
	/* never drawn, never predicted from */
	assert_false(fit_usable(&f));
	assert_true(isnan(fit_x(&f, 8)) && isnan(fit_ep(&f, 8)) && isnan(fit_t(&f, 8)));
	assert_true(isnan(fit_breakeven(&f, 0.8, &why)));
	assert_string_equal(why, "no fit");
	assert_no_inf(&f);
	/* the same points with the solver's full budget converge */
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	assert_int_equal(f.state, FIT_OK);
}

static void test_bad_points_refused(void **state)
{
	double n[4] = { 1, 2, 4, 8 }, t[4] = { 8, 4, 2, 1 };
	static const double badt[] = { 0, -1, NAN, INFINITY, 1e-320 };
	static const double badn[] = { 0, 0.5, -2, NAN, INFINITY };
	struct fit f;
	struct gs_err e;

	(void)state;
	for (size_t i = 0; i < sizeof badt / sizeof badt[0]; i++) {
		t[2] = badt[i];
		memset(&e, 0, sizeof e);
		assert_int_equal(fit_run(n, t, 4, &f, &e), -1);
		assert_non_null(strstr(e.msg, "point 3"));
		assert_int_equal(f.state, FIT_NONE);
	}
	t[2] = 2;
	for (size_t i = 0; i < sizeof badn / sizeof badn[0]; i++) {
		n[1] = badn[i];
		assert_int_equal(fit_run(n, t, 4, &f, &e), -1);
		assert_non_null(strstr(e.msg, "point 2"));
		assert_non_null(strstr(e.msg, "N >= 1"));
	}
}

static void test_extreme_but_valid(void **state)
{
	/* huge and tiny times and counts stay finite or NAN */
	double n[6] = { 1, 10, 1e3, 1e5, 1e7, 1e9 }, t[6] = { 1e300, 1e-300, 5, 1e200, 3, 1e-200 };
	struct fit f;
	struct gs_err e;

	(void)state;
	assert_int_equal(fit_run(n, t, 6, &f, &e), 0);
	assert_no_inf(&f);
	assert_false(isinf(fit_breakeven(&f, 0.8, NULL)));
	assert_false(isinf(fit_x(&f, 1e300)));
	assert_false(isinf(fit_t(&f, 1e300)));
	assert_false(isinf(fit_ep(&f, 1e300)));
}

static void test_deterministic(void **state)
{
	double t[NPTS];
	struct fit f1, f2;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0.1, 9, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f1, &e), 0);
	assert_int_equal(fit_run(NS, t, NPTS, &f2, &e), 0);
	assert_memory_equal(&f1.usl, &f2.usl, sizeof f1.usl);
	assert_memory_equal(&f1.amdahl, &f2.amdahl, sizeof f1.amdahl);
}

/* The same points in another order give bit for bit the same fit: the fit sorts them (by N,
 * then T) before any sum is taken, so the order the rows come in cannot reach the last digit. */
static void test_order_independent(void **state)
{
	enum { M = 2 * NPTS };
	double n[M], t[M], rn[M], rt[M], sn[M], st[M];
	struct fit f1, f2, f3;
	struct gs_err e;
	struct rng r;

	(void)state;
	/* every N twice, with two different times: ties on N are ordered by T */
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0.1, 11, t);
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0.1, 12, t + NPTS);
	for (size_t i = 0; i < M; i++)
		n[i] = NS[i % NPTS];
	for (size_t i = 0; i < M; i++) {
		rn[i] = n[M - 1 - i];
		rt[i] = t[M - 1 - i];
		sn[i] = n[i];
		st[i] = t[i];
	}
	rng_seed(&r, 5);
	for (size_t i = M - 1; i > 0; i--) { /* Fisher-Yates */
		size_t j = (size_t)(rng_unit(&r) * (double)(i + 1));
		double a = sn[i], b = st[i];
		sn[i] = sn[j];
		st[i] = st[j];
		sn[j] = a;
		st[j] = b;
	}
	assert_int_equal(fit_run(n, t, M, &f1, &e), 0);
	assert_int_equal(fit_run(rn, rt, M, &f2, &e), 0);
	assert_int_equal(fit_run(sn, st, M, &f3, &e), 0);
	assert_true(fit_usable(&f1));
	assert_memory_equal(&f1.usl, &f2.usl, sizeof f1.usl);
	assert_memory_equal(&f1.amdahl, &f2.amdahl, sizeof f1.amdahl);
	assert_memory_equal(&f1.usl, &f3.usl, sizeof f1.usl);
	assert_memory_equal(&f1.amdahl, &f3.amdahl, sizeof f1.amdahl);
	assert_memory_equal(&f1.peak, &f2.peak, sizeof f1.peak);
	assert_memory_equal(&f1.peak, &f3.peak, sizeof f1.peak);
	assert_string_equal(f1.reason, f2.reason);
	assert_string_equal(f1.reason, f3.reason);
}

/* ---- the one-line description ---- */

static void test_describe(void **state)
{
	double t[NPTS], n2[4] = { 8, 8, 16, 16 };
	char buf[1024], want[1024];
	struct fit f;
	struct gs_err e;

	(void)state;
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0, 1, t);
	assert_int_equal(fit_run(NS, t, NPTS, &f, &e), 0);
	snprintf(want, sizeof want, "H100 SXM: ok; 11 points at 11 N (1..1024); USL lambda 3 +- %.6g, "
		 "sigma 0.02 +- %.6g, kappa 1e-05 +- %.6g, R^2 1.0000; peak N* 313; break-even N 13.4 at "
		 "theta 0.8; Amdahl lambda %.6g +- %.6g, sigma %.6g +- %.6g, R^2 %.4f",
		 f.usl.se_lambda, f.usl.se_sigma, f.usl.se_kappa, f.amdahl.lambda, f.amdahl.se_lambda,
		 f.amdahl.sigma, f.amdahl.se_sigma, f.amdahl.r2);
	assert_string_equal(fit_describe("H100 SXM", &f, 0.8, buf, sizeof buf), want);

	make_t(NS, NPTS, 4, 0.03, 0, 0, 1, t);
	assert_int_equal(fit_run(NS, t, 5, &f, &e), 0);
	fit_describe("B200", &f, 1.2, buf, sizeof buf);
	assert_non_null(strstr(buf, "B200: weak (5 points < 6); 5 points at 5 N (1..16); USL lambda 4 +- "));
	assert_non_null(strstr(buf, "kappa 0 (at bound)"));
	assert_non_null(strstr(buf, "no peak (kappa 0); break-even - (E' < theta at N_ref) at theta 1.2;"));

	assert_int_equal(fit_run(n2, t, 4, &f, &e), 0);
	assert_string_equal(fit_describe("A100", &f, 0.8, buf, sizeof buf),
			    "A100: no fit (needs 3 distinct N); 4 points at 2 N (8..16)");
	assert_int_equal(fit_run(n2, t, 2, &f, &e), 0);
	assert_string_equal(fit_describe("A100", &f, 0.8, buf, sizeof buf),
			    "A100: no fit (needs 3 distinct N); 2 points at 1 N (8)");
	make_t(NS, NPTS, 3, 0.02, 1e-5, 0.01, 3, t);
	assert_int_equal(fit_run_max(NS, t, NPTS, 1, &f, &e), 0);
	assert_string_equal(fit_describe("X", &f, 0.8, buf, sizeof buf),
			    "X: not converged (the solver did not converge); 11 points at 11 N (1..1024)");
	/* a short buffer is cut, never overrun */
	fit_describe("H100 SXM", &f, 0.8, buf, 10);
	assert_string_equal(buf, "H100 SXM:");
}

/* ---- wiring: the analysis fits each family of its shown rows ---- */

static void add_row(struct dataset *ds, const char *sys, const char *fam, long long n, double t)
{
	struct row *r = &ds->rows[ds->n++];

	memset(r, 0, sizeof *r);
	r->round = "v4.1";
	r->benchmark = "bert";
	r->system = r->system_name = sys;
	r->submitter = "S";
	r->family = r->accelerator = fam;
	r->vendor = "V";
	r->availability = "Available on-premise";
	r->division = "closed";
	r->framework = "";
	r->accelerators = n;
	r->minutes = t;
	r->scaling_factor = 1;
	r->runs_scored = r->runs_failed = -1;
	r->file = "test.csv";
	r->line = (long)ds->n + 1;
	r->dup_of = -1; /* stands for itself: not a collapsed duplicate */
	r->energy_j = r->price_lo = r->price_hi = NAN;
	r->collapsed_from = r->carried_from = "";
}

static void test_analysis_fits_each_family(void **state)
{
	static const char *const sys[] = { "h1", "h2", "h3", "h4", "h5", "h6", "h7" };
	static const long long hn[] = { 8, 16, 32, 64, 128, 256, 512 };
	struct dataset ds;
	struct params p;
	struct analysis a;
	struct gs_err e;
	const struct fit *hf;
	double t[7];
	size_t nh = 0;

	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	ds.rows = calloc(10, sizeof *ds.rows);
	assert_non_null(ds.rows);
	for (size_t i = 0; i < 7; i++) {
		double nn = (double)hn[i];
		t[i] = 60.0 / usl_x(2, 0.01, 2e-6, nn);
		add_row(&ds, sys[i], "H100", hn[i], t[i]);
	}
	add_row(&ds, "b1", "B200", 8, 3.0);
	add_row(&ds, "b2", "B200", 8, 3.2);
	ds.cap = 10;
	params_init(&p);

	/* off: nothing fitted, nothing allocated */
	assert_int_equal(analysis_run(&ds, &p, &a, &e), 0);
	assert_int_equal(a.nfits, 0);
	assert_null(a.fits);
	for (size_t i = 0; i < a.n; i++)
		assert_true(isnan(a.rows[i].ep_fit) && isnan(a.rows[i].fit_resid));

	p.fit = true;
	for (int run = 0; run < 2; run++) { /* the second run reuses the struct */
		assert_int_equal(analysis_run(&ds, &p, &a, &e), 0);
		assert_int_equal(a.nfits, 2);
		assert_string_equal(a.fits[0].family, "B200");
		assert_string_equal(a.fits[1].family, "H100");
		assert_int_equal(a.fits[0].fit.state, FIT_NONE);
		assert_string_equal(a.fits[0].fit.reason, "needs 3 distinct N");
		hf = &a.fits[1].fit;
		assert_int_equal(hf->state, FIT_OK);
		assert_int_equal(hf->npoints, 7);
		assert_rel(hf->usl.sigma, 0.01, 1e-6);
		assert_rel(hf->usl.kappa, 2e-6, 1e-6);
		assert_ptr_equal(analysis_fit_of(&ds, &a, 0), hf);
		assert_ptr_equal(analysis_fit_of(&ds, &a, 8), &a.fits[0].fit);
		for (size_t i = 0; i < a.n; i++) {
			const struct arow *r = &a.rows[i];
			if (r->row < 7) {
				nh++;
				assert_rel(r->ep_fit, fit_ep(hf, r->N), 1e-15);
				assert_true(fabs(r->fit_resid) < 1e-9);
			} else {
				assert_true(isnan(r->ep_fit) && isnan(r->fit_resid));
			}
		}
	}
	assert_int_equal(nh, 14);

	/* the curve over the points: E' from the law, the reference (h1, N 8) of the family, so
	 * it is fit_ep, from N 8 to the largest N shown, ascending */
	{
		struct chart_opts co = { .metric = MET_EP, .theta = 0.8, .width = 80, .height = 24 };
		struct plot_curve cv[4];
		double xy[4 * 2 * CHART_FIT_SAMPLES];
		assert_int_equal(chart_fit_curves(&ds, &a, &co, cv, 4, xy), 1);
		assert_int_equal(cv[0].n, CHART_FIT_SAMPLES);
		assert_int_equal(cv[0].glyph, '.');
		assert_string_equal(cv[0].name, "fit");
		assert_rel(cv[0].x[0], 8, 1e-12);
		assert_rel(cv[0].x[CHART_FIT_SAMPLES - 1], 512, 1e-12);
		for (size_t i = 0; i < CHART_FIT_SAMPLES; i++) {
			assert_rel(cv[0].y[i], fit_ep(hf, cv[0].x[i]), 1e-12);
			assert_true(i == 0 || cv[0].x[i] > cv[0].x[i - 1]);
		}
		co.metric = MET_T;
		assert_int_equal(chart_fit_curves(&ds, &a, &co, cv, 4, xy), 1);
		assert_rel(cv[0].y[10], fit_t(hf, cv[0].x[10]), 1e-12);
		co.metric = MET_A;
		assert_int_equal(chart_fit_curves(&ds, &a, &co, cv, 4, xy), 1);
		assert_rel(cv[0].y[10], cv[0].x[10] * fit_t(hf, cv[0].x[10]) / 60, 1e-12);
		/* kWh has no law */
		co.metric = MET_KWH;
		assert_int_equal(chart_fit_curves(&ds, &a, &co, cv, 4, xy), 0);
		/* no room: none */
		co.metric = MET_EP;
		assert_int_equal(chart_fit_curves(&ds, &a, &co, cv, 0, xy), 0);
	}
	/* a filter to one family fits that family only */
	static const char *one[1] = { "B200" };
	p.filter.families = one;
	p.filter.nfamilies = 1;
	assert_int_equal(analysis_run(&ds, &p, &a, &e), 0);
	assert_int_equal(a.nfits, 1);
	assert_null(analysis_fit_of(&ds, &a, 0));
	analysis_free(&a);
	free(ds.rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_independent_of_point_order),
		cmocka_unit_test(test_fit_memo_same_as_fit_run),
		cmocka_unit_test(test_fit_memo_bounded),
		cmocka_unit_test(test_exact_usl_recovered),
		cmocka_unit_test(test_noisy_usl_recovered),
		cmocka_unit_test(test_standard_error_at_corner),
		cmocka_unit_test(test_best_minimum_not_worse_than_grid),
		cmocka_unit_test(test_amdahl_data),
		cmocka_unit_test(test_amdahl_on_usl_data),
		cmocka_unit_test(test_ep_and_breakeven),
		cmocka_unit_test(test_breakeven_beyond_range),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_resid),
		cmocka_unit_test(test_round_sig),
		cmocka_unit_test(test_too_few_distinct_n),
		cmocka_unit_test(test_weak_few_points),
		cmocka_unit_test(test_weak_poor_r2),
		cmocka_unit_test(test_not_converged),
		cmocka_unit_test(test_bad_points_refused),
		cmocka_unit_test(test_extreme_but_valid),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_analysis_fits_each_family),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
