/* kmeans_ref.h: a brute-force k-means reference for the tests: the inertia of a given
 * labelling and the smallest inertia over every labelling of a few points. */
#ifndef GS_TESTS_KMEANS_REF_H
#define GS_TESTS_KMEANS_REF_H

#include <math.h>
#include <stddef.h>

/* Inertia of a labelling: sum of squared distances to each cluster's mean (k <= 16, d <= 4). */
static inline double labelling_sse(const double *x, size_t n, size_t d, const int *lab, int k)
{
	double mean[16 * 4] = {0}, s = 0;
	size_t cnt[16] = {0};

	for (size_t i = 0; i < n; i++) {
		cnt[lab[i]]++;
		for (size_t j = 0; j < d; j++)
			mean[lab[i] * d + j] += x[i * d + j];
	}
	for (int c = 0; c < k; c++)
		for (size_t j = 0; j < d; j++)
			if (cnt[c])
				mean[c * d + j] /= (double)cnt[c];
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < d; j++) {
			double t = x[i * d + j] - mean[lab[i] * d + j];
			s += t * t;
		}
	return s;
}

/* Smallest inertia over every labelling of n points (n <= 8) into at most k clusters. */
static inline double exhaustive(const double *x, size_t n, size_t d, int k)
{
	int lab[8] = {0};
	double best = INFINITY;

	for (;;) {
		double s = labelling_sse(x, n, d, lab, k);
		if (s < best)
			best = s;
		size_t i = 0;
		while (i < n && ++lab[i] == k)
			lab[i++] = 0;
		if (i == n)
			return best;
	}
}

#endif
