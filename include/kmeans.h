/* kmeans.h: k-means++ with a fixed-seed generator of our own, restarts, silhouette, auto-k. */
#ifndef GS_KMEANS_H
#define GS_KMEANS_H

#include <stddef.h>
#include <stdint.h>

/* Deterministic generator (same sequence on every machine and libc). */
struct rng {
	uint64_t s;
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);

struct kmeans_result {
	int k;             /* clusters actually formed (<= requested when fewer distinct points) */
	double inertia;    /* sum of squared distances to the assigned centroid */
	double silhouette; /* mean silhouette, NAN when k < 2 or k >= n */
};

/* Clusters n points of d dimensions (row-major x) into k groups with `restarts` k-means++
 * restarts, keeping the best inertia; labels[n] get 0..k-1 in an order the caller may renumber.
 * Returns 0, or -1 on bad arguments or out of memory. */
int kmeans_run(const double *x, size_t n, size_t d, int k, int restarts, uint64_t seed,
	       int *labels, struct kmeans_result *res);

/* Mean silhouette of a labelling; NAN when fewer than 2 clusters or every point alone. */
double kmeans_silhouette(const double *x, size_t n, size_t d, const int *labels, int k);

#endif
