/* resample.c: the bootstrap's arithmetic (resample.h). */
#include "resample.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* A run and its index: sorted by value, ties by index. */
struct run_at {
	double v;
	size_t i;
};

static int run_at_cmp(const void *a, const void *b)
{
	const struct run_at *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The sum of positions [lo, hi) of a sorted resample, given as cnt[v] draws of the run of rank
 * v: each run repeated as often as it was drawn, in order of value, is the sorted resample,
 * added one value at a time as a sort of it would be. */
static double window_sum(const double *s, size_t lo, size_t hi, const size_t *cnt)
{
	double sum = 0;
	size_t pos = 0;

	for (size_t v = 0; pos < hi; v++)
		for (size_t c = 0; c < cnt[v] && pos < hi; c++, pos++)
			if (pos >= lo)
				sum += s[v];
	return sum;
}

int resample_scores(uint64_t seed, const double *run, size_t k, size_t lo, size_t hi, double sf,
		    size_t nb, double *t)
{
	struct run_at *by = malloc(k * sizeof *by);
	size_t *rank = malloc(2 * k * sizeof *rank), *cnt = rank + k;
	double *s = malloc(k * sizeof *s);
	struct rng g;

	if (!by || !rank || !s) {
		free(by);
		free(rank);
		free(s);
		return -1;
	}
	/* the runs sorted into s, and each run's rank in that order: a resample is then counted
	 * by rank, one sort per row instead of one per resample */
	for (size_t i = 0; i < k; i++)
		by[i] = (struct run_at){ run[i], i };
	qsort(by, k, sizeof *by, run_at_cmp);
	for (size_t at = 0; at < k; at++) {
		rank[by[at].i] = at;
		s[at] = by[at].v;
	}
	rng_seed(&g, seed);
	for (size_t b = 0; b < nb; b++) {
		memset(cnt, 0, k * sizeof *cnt);
		for (size_t j = 0; j < k; j++)
			cnt[rank[rng_below(&g, k)]]++;
		t[b] = window_sum(s, lo, hi, cnt) / (double)(hi - lo) * sf;
	}
	free(by);
	free(rank);
	free(s);
	return 0;
}

/* x before y in the order of the percentiles: ascending, NAN after every number. */
static bool before(double x, double y)
{
	return !isnan(x) && (isnan(y) || x < y);
}

/* Leaves x[k] where a sort of x[0..n) would put it, every value before it not after it and
 * every value after it not before it (Wirth's selection). The percentiles need four ranks of a
 * thousand values for every row and metric shown: a full sort of each took most of a report's
 * time on the cross-round view. */
static void select_rank(double *x, long n, long k)
{
	long l = 0, m = n - 1;

	while (l < m) {
		double v = x[k];
		long i = l, j = m;

		do {
			while (before(x[i], v))
				i++;
			while (before(v, x[j]))
				j--;
			if (i <= j) {
				double w = x[i];
				x[i] = x[j];
				x[j] = w;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < k)
			l = i;
		if (k < i)
			m = j;
	}
}

/* The first of x[0..n) in that order. */
static double least(const double *x, long n)
{
	double v = x[0];

	for (long i = 1; i < n; i++)
		if (before(x[i], v))
			v = x[i];
	return v;
}

void resample_pct(double *x, double *p5, double *p95)
{
	double h95 = (RESAMPLE_B - 1) * 0.95, h5 = (RESAMPLE_B - 1) * 0.05;
	long i95 = (long)floor(h95), i5 = (long)floor(h5);
	double a95, b95, a5, b5;

	/* the ranks i95 and i95 + 1, then i5 and i5 + 1 among the values left before i95 */
	select_rank(x, RESAMPLE_B, i95);
	a95 = x[i95];
	b95 = least(x + i95 + 1, RESAMPLE_B - i95 - 1);
	select_rank(x, i95, i5);
	a5 = x[i5];
	b5 = least(x + i5 + 1, i95 - i5);
	*p95 = a95 + (h95 - (double)i95) * (b95 - a95);
	*p5 = a5 + (h5 - (double)i5) * (b5 - a5);
}
