/* kmeans.h: k-means++ seeded from rng.h, restarts, silhouette, auto-k. */
#ifndef GS_KMEANS_H
#define GS_KMEANS_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

struct kmeans_result {
	int k;             /* clusters actually formed (<= requested when fewer distinct points) */
	double inertia;    /* sum of squared distances to the assigned centroid */
	double silhouette; /* mean silhouette, NAN when k < 2 or k >= n */
};

/* Clusters n points of d dimensions (row-major x) into k groups with `restarts` k-means++
 * restarts, keeping the best inertia; labels[n] get 0..k-1 in an order the caller may renumber.
 * k above n is lowered to n; n = 0 gives k = 0, inertia 0. Above 2048 points the restarts run
 * on a fixed stride sample and the best one is refined over all points (capped passes).
 * Returns 0, or -1 on bad arguments or out of memory. */
int kmeans_run(const double *x, size_t n, size_t d, int k, int restarts, uint64_t seed,
	       int *labels, struct kmeans_result *res);

/* Auto-k: runs k = 2..min(kmax, n - 1) and keeps the best mean silhouette (ties: smaller k);
 * k = 1 when no k has a silhouette (n < 3, all points equal). Above 2048 points k is chosen
 * on the stride sample, then all points are clustered once. Returns 0 or -1 as kmeans_run. */
int kmeans_auto(const double *x, size_t n, size_t d, int kmax, int restarts, uint64_t seed,
		int *labels, struct kmeans_result *res);

/* Mean silhouette of a labelling (labels in 0..k-1); NAN when fewer than 2 clusters or every
 * point alone. Above 2048 points: the mean over a fixed stride sample of 2048 points. */
double kmeans_silhouette(const double *x, size_t n, size_t d, const int *labels, int k);

#endif
