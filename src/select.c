/* select.c: selection. The plot's clipping quartiles and the bootstrap percentiles need a few
 * order statistics, not a sort (a sort per row made a change of reference 10x slower). */
#include "select.h"

#include <math.h>

/* Moves the values of v[0..n) that are below piv (strict: below; else: at most piv) to its
 * front and returns how many there are. The order of the rest is any. No branch on the data:
 * every value is swapped to the front's end and that end moves on when it belongs there. The
 * branches of Hoare's scans mispredicted on half of the values of an unordered array: the
 * frame after a row-filter letter at 10^5 rows (the clipping quartiles of 75,680 points)
 * took 3.3 ms with them, 2.7-2.9 ms with this. */
static size_t part(double *v, size_t n, double piv, int strict)
{
	size_t at = 0;

	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		v[i] = v[at];
		v[at] = x;
		at += strict ? x < piv : x <= piv;
	}
	return at;
}

/* Hoare's selection, middle pivot: what the values with a NAN go through. Neither partition
 * above moves a value past a NAN pivot (no comparison with it holds), and the bootstrap's
 * percentiles have always taken their ratios with a 0/0 in them this way. */
static double select_hoare(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double piv = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < piv)
				i++;
			while (v[j] > piv)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* v[k] is the (k-lo)-th smallest of v[lo..hi) */

	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return select_hoare(v, n, k);

	while (hi - lo > 1) {
		double piv = v[lo + (hi - lo) / 2];
		size_t below = lo + part(v + lo, hi - lo, piv, 1);

		if (k < below) {
			hi = below;
			continue;
		}
		/* the values equal to the pivot (at least the pivot itself) next */
		size_t eq = below + part(v + below, hi - below, piv, 0);
		if (k < eq)
			break;
		lo = eq;
	}
	return v[k];
}

/* The bucket of x of nb over [lo, lo + nb / scale]: x - lo and the product round monotonically,
 * so the buckets keep the values' order. */
static int bucket_of(double x, double lo, double scale, int nb)
{
	double f = (x - lo) * scale;

	return f < nb ? (int)f : nb - 1;
}

enum { TWO_BUCKETS = 1024 };

/* Moves the values of v[0..n) in bucket b1 or b2 (of TWO_BUCKETS from lo at scale) to its
 * front, as part() does, without a branch on the values; returns how many there are. */
static size_t gather_buckets(double *v, size_t n, double lo, double scale, int b1, int b2)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		int b = bucket_of(x, lo, scale, TWO_BUCKETS);
		v[i] = v[m];
		v[m] = x;
		m += (b == b1) | (b == b2);
	}
	return m;
}

/* The smallest and largest of v[0..n), n >= 1. */
static void min_max(const double *v, size_t n, double *lo, double *hi)
{
	double mn = v[0], mx = v[0];

	for (size_t i = 1; i < n; i++) {
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
	}
	*lo = mn;
	*hi = mx;
}

void select_two(double *v, size_t n, double lo, double hi, size_t k1, size_t k2, double *a, double *b)
{
	double scale = TWO_BUCKETS / (hi - lo), lo1, hi1, lo2, hi2, other;
	size_t cnt[TWO_BUCKETS] = { 0 }, below1 = 0, below2, m, m1;
	int b1 = 0, b2;

	/* too few values, or values that do not spread: the plain selections */
	if (n < 4 * TWO_BUCKETS || !(hi > lo) || !isfinite(scale) || !isfinite(hi - lo)) {
		*a = select_kth(v, n, k1);
		*b = select_kth(v + k1, n - k1, k2 - k1);
		return;
	}
	for (size_t i = 0; i < n; i++)
		cnt[bucket_of(v[i], lo, scale, TWO_BUCKETS)]++;
	while (below1 + cnt[b1] <= k1)
		below1 += cnt[b1++];
	for (b2 = b1, below2 = below1; below2 + cnt[b2] <= k2;)
		below2 += cnt[b2++];
	/* each rank among the values of its bucket, bucketed again over their own range while
	 * they are many (a few far outliers put most values in one bucket) */
	m = gather_buckets(v, n, lo, scale, b1, b2);
	if (b2 == b1) {
		min_max(v, m, &lo1, &hi1);
		select_two(v, m, lo1, hi1, k1 - below1, k2 - below1, a, b);
		return;
	}
	m1 = gather_buckets(v, m, lo, scale, b1, b1);
	min_max(v, m1, &lo1, &hi1);
	min_max(v + m1, m - m1, &lo2, &hi2);
	select_two(v, m1, lo1, hi1, k1 - below1, k1 - below1, a, &other);
	select_two(v + m1, m - m1, lo2, hi2, k2 - below2, k2 - below2, b, &other);
}
