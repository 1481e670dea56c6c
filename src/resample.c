/* resample.c: the bootstrap's arithmetic (resample.h). */
#include "resample.h"

#include <math.h>
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

/* NAN after every number. */
static int double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

void resample_pct(double *x, double *p5, double *p95)
{
	double h95 = (RESAMPLE_B - 1) * 0.95, h5 = (RESAMPLE_B - 1) * 0.05;
	size_t i95 = (size_t)floor(h95), i5 = (size_t)floor(h5);

	qsort(x, RESAMPLE_B, sizeof *x, double_cmp);
	*p95 = x[i95] + (h95 - (double)i95) * (x[i95 + 1] - x[i95]);
	*p5 = x[i5] + (h5 - (double)i5) * (x[i5 + 1] - x[i5]);
}
