/* kmeans.c: k-means++ seeding, Lloyd iterations, restarts, silhouette and auto-k.
 *
 * Everything here must give the same answer on every machine and libc: the random numbers
 * come from rng.h's splitmix64 (not rand()), every arg-min breaks ties to the lowest index, and
 * every sum runs in index order. The build uses -std=c11, which keeps GCC from contracting
 * a*b+c into fused multiply-adds, so the arithmetic itself is reproducible too.
 *
 * Large inputs: the 16 restarts are what costs, so above KM_EXACT points they run on a
 * deterministic stride sample of KM_SAMPLE points, and only the winner is refined over all
 * points (at most KM_FULL_ITER Lloyd passes, stopping once fewer than 1 label in 1000 moves).
 * The silhouette, O(n^2), is likewise taken over a stride sample above KM_EXACT points.
 * Inputs of KM_EXACT points or fewer take the exact path, untouched by any of this. */
#include "kmeans.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define KM_MAX_ITER 300   /* Lloyd cap; small inputs converge in a handful of passes */
#define KM_EXACT 2048     /* up to this many points everything is computed exactly */
#define KM_SAMPLE 1024    /* above KM_EXACT: points the restarts and silhouette look at */
#define KM_FULL_ITER 10   /* Lloyd passes over all points after the sample's best start */

/* ---- helpers -------------------------------------------------------------------------- */

static double dist2(const double *a, const double *b, size_t d)
{
	double s = 0;

	for (size_t j = 0; j < d; j++) {
		double t = a[j] - b[j];
		s += t * t;
	}
	return s;
}

/* Index of the j-th of m evenly spaced sample points among n (m <= n). */
static size_t stride_index(size_t j, size_t m, size_t n)
{
	return (size_t)(((unsigned long long)j * n) / m);
}

/* ---- seeding -------------------------------------------------------------------------- */

/* k-means++ (Arthur and Vassilvitskii 2007): the first centre uniformly, each next one with
 * probability proportional to its squared distance to the nearest centre chosen so far.
 * Stops early when every point already sits on a centre (fewer distinct points than k), so
 * the count returned is min(k, distinct points). dmin[n] is scratch. */
static int seed_pp(const double *x, size_t n, size_t d, int k, struct rng *r, double *cent,
		   double *dmin)
{
	size_t first = (size_t)(rng_unit(r) * (double)n);
	int placed = 1;

	if (first >= n)
		first = n - 1;
	memcpy(cent, x + first * d, d * sizeof *cent);
	for (size_t i = 0; i < n; i++)
		dmin[i] = dist2(x + i * d, cent, d);
	while (placed < k) {
		double sum = 0, target, acc = 0;
		size_t pick = n, last = n;

		for (size_t i = 0; i < n; i++)
			sum += dmin[i];
		if (!(sum > 0))
			break;
		target = rng_unit(r) * sum;
		for (size_t i = 0; i < n; i++) {
			if (dmin[i] <= 0)
				continue;
			last = i;
			acc += dmin[i];
			if (acc > target) {
				pick = i;
				break;
			}
		}
		if (pick == n) /* rounding left target above the running sum */
			pick = last;
		double *c = cent + (size_t)placed * d;
		memcpy(c, x + pick * d, d * sizeof *c);
		placed++;
		for (size_t i = 0; i < n; i++) {
			double t = dist2(x + i * d, c, d);
			if (t < dmin[i])
				dmin[i] = t;
		}
	}
	return placed;
}

/* ---- Lloyd ---------------------------------------------------------------------------- */

/* Centroids as the means of the labelled points. A cluster left empty takes the point
 * farthest from its own centroid among clusters with two or more members (ties: lowest
 * index), which is deterministic and lowers the inertia the most of any single move. */
static void update_centroids(const double *x, size_t n, size_t d, int k, int *lab,
			     double *cent, size_t *cnt)
{
	for (int guard = 0; guard <= k; guard++) {
		int empty = -1;

		memset(cent, 0, (size_t)k * d * sizeof *cent);
		memset(cnt, 0, (size_t)k * sizeof *cnt);
		for (size_t i = 0; i < n; i++) {
			double *c = cent + (size_t)lab[i] * d;
			const double *p = x + i * d;
			for (size_t j = 0; j < d; j++)
				c[j] += p[j];
			cnt[lab[i]]++;
		}
		for (int c = 0; c < k; c++) {
			if (cnt[c] == 0) {
				if (empty < 0)
					empty = c;
				continue;
			}
			for (size_t j = 0; j < d; j++)
				cent[(size_t)c * d + j] /= (double)cnt[c];
		}
		if (empty < 0)
			return;
		size_t far = n;
		double fd = -1;
		for (size_t i = 0; i < n; i++) {
			if (cnt[lab[i]] < 2)
				continue;
			double t = dist2(x + i * d, cent + (size_t)lab[i] * d, d);
			if (t > fd) {
				fd = t;
				far = i;
			}
		}
		if (far == n) /* k > n: cannot happen, callers clamp k */
			return;
		lab[far] = empty;
	}
}

/* The assignment for points of d features: inlined below with d a constant 2 or 3 (all the
 * analysis uses), so the innermost loop on large inputs runs without a loop over features. */
static inline size_t assign_d(const double *x, size_t n, size_t d, int k, const double *cent,
			      int *lab, double *sum, size_t *cnt)
{
	size_t changed = 0;

	for (size_t i = 0; i < n; i++) { /* nearest centroid, ties to the lowest index */
		const double *p = x + i * d;
		double bd = dist2(p, cent, d);
		int c = 0;
		for (int o = 1; o < k; o++) {
			double t = dist2(p, cent + (size_t)o * d, d);
			if (t < bd) {
				bd = t;
				c = o;
			}
		}
		changed += c != lab[i];
		lab[i] = c;
		for (size_t j = 0; j < d; j++)
			sum[(size_t)c * d + j] += p[j];
		cnt[c]++;
	}
	return changed;
}

/* One Lloyd assignment: each point to its nearest centroid in cent (ties: lowest index),
 * summing the members of each cluster into sum[k*d] (in index order, as the update below
 * always has) and counting them into cnt[k]. Returns how many labels changed. */
static size_t assign(const double *x, size_t n, size_t d, int k, const double *cent, int *lab,
		     double *sum, size_t *cnt)
{
	memset(sum, 0, (size_t)k * d * sizeof *sum);
	memset(cnt, 0, (size_t)k * sizeof *cnt);
	if (d == 2)
		return assign_d(x, n, 2, k, cent, lab, sum, cnt);
	if (d == 3)
		return assign_d(x, n, 3, k, cent, lab, sum, cnt);
	return assign_d(x, n, d, k, cent, lab, sum, cnt);
}

/* Runs Lloyd from the centroids in cent until no more than `tol` labels change or maxit
 * passes; leaves the final labels in lab and their means in cent, and returns the inertia of
 * that partition. sum[k*d] is scratch. */
static double lloyd(const double *x, size_t n, size_t d, int k, double *cent, int *lab,
		    size_t *cnt, double *sum, int maxit, size_t tol)
{
	double inertia = 0;

	for (size_t i = 0; i < n; i++)
		lab[i] = -1;
	for (int it = 0; it < maxit; it++) {
		size_t changed = assign(x, n, d, k, cent, lab, sum, cnt);
		int empty = 0;

		for (int c = 0; c < k; c++) {
			if (!cnt[c]) {
				empty = 1;
				continue;
			}
			for (size_t j = 0; j < d; j++)
				cent[(size_t)c * d + j] = sum[(size_t)c * d + j] / (double)cnt[c];
		}
		if (empty) {
			update_centroids(x, n, d, k, lab, cent, cnt);
			changed = n;
		}
		if (changed <= tol)
			break;
	}
	for (size_t i = 0; i < n; i++)
		inertia += dist2(x + i * d, cent + (size_t)lab[i] * d, d);
	return inertia;
}

/* ---- Hartigan ------------------------------------------------------------------------- */

/* Single-point moves (Hartigan and Wong): moving x from cluster a (size na, mean ma) to b
 * changes the inertia by nb/(nb+1) |x-mb|^2 - na/(na-1) |x-ma|^2, so a point moves when that
 * is negative even though its nearest centroid is its own. Lloyd stops at such partitions
 * (about one tiny input in a hundred ends above the optimum after 16 restarts); every
 * Hartigan-stable partition is Lloyd-stable, so this only ever lowers the inertia. Points go
 * in index order, the best target wins (ties: lowest index), and a move must gain more than
 * a rounding-sized margin, so the passes terminate. cent and cnt must hold lab's means and
 * sizes; both are kept up to date. Returns the number of moves made. */
static size_t hartigan(const double *x, size_t n, size_t d, int k, double *cent, int *lab,
		       size_t *cnt, int maxpass)
{
	size_t moves = 0;

	for (int pass = 0; pass < maxpass; pass++) {
		size_t moved = 0;

		for (size_t i = 0; i < n; i++) {
			const double *p = x + i * d;
			int a = lab[i], best = -1;
			double na = (double)cnt[a], gain_best = 0, cost_a;

			if (cnt[a] < 2)
				continue;
			cost_a = na / (na - 1) * dist2(p, cent + (size_t)a * d, d);
			for (int b = 0; b < k; b++) {
				if (b == a)
					continue;
				double nb = (double)cnt[b];
				double add = nb / (nb + 1) * dist2(p, cent + (size_t)b * d, d);
				double gain = cost_a - add;
				if (gain > 1e-12 * (cost_a + add) && gain > gain_best) {
					gain_best = gain;
					best = b;
				}
			}
			if (best < 0)
				continue;
			double *ca = cent + (size_t)a * d, *cb = cent + (size_t)best * d;
			double nb = (double)cnt[best];
			for (size_t j = 0; j < d; j++) {
				ca[j] = (ca[j] * na - p[j]) / (na - 1);
				cb[j] = (cb[j] * nb + p[j]) / (nb + 1);
			}
			cnt[a]--;
			cnt[best]++;
			lab[i] = best;
			moved++;
		}
		moves += moved;
		if (!moved)
			break;
		/* Incremental means drift; start each pass from exact ones. */
		update_centroids(x, n, d, k, lab, cent, cnt);
	}
	return moves;
}

/* Lloyd, then Hartigan moves, then Lloyd again until neither changes anything. */
static double refine(const double *x, size_t n, size_t d, int k, double *cent, int *lab,
		     size_t *cnt, double *sum)
{
	double in = lloyd(x, n, d, k, cent, lab, cnt, sum, KM_MAX_ITER, 0);

	for (int round = 0; round < 8; round++) {
		if (!hartigan(x, n, d, k, cent, lab, cnt, KM_MAX_ITER))
			break;
		/* Restart Lloyd from the improved means. */
		in = lloyd(x, n, d, k, cent, lab, cnt, sum, KM_MAX_ITER, 0);
	}
	return in;
}

/* ---- restarts ------------------------------------------------------------------------- */

/* Best of `restarts` k-means++ + Lloyd runs over x[n]: its centroids go to best_cent, its
 * labels to best_lab; returns the number of clusters formed and sets *best_in. */
static int restarts_run(const double *x, size_t n, size_t d, int k, int restarts, uint64_t seed,
			double *best_cent, int *best_lab, double *best_in, double *cent, int *lab,
			size_t *cnt, double *sum, double *dmin)
{
	struct rng r;
	int best_k = 0;

	rng_seed(&r, seed);
	*best_in = INFINITY;
	for (int t = 0; t < restarts; t++) {
		int kk = seed_pp(x, n, d, k, &r, cent, dmin);
		double in = refine(x, n, d, kk, cent, lab, cnt, sum);

		/* Strictly better only: on equal inertia the earliest restart stays. */
		if (t == 0 || in < *best_in) {
			*best_in = in;
			best_k = kk;
			memcpy(best_cent, cent, (size_t)kk * d * sizeof *cent);
			if (best_lab)
				memcpy(best_lab, lab, n * sizeof *lab);
		}
	}
	return best_k;
}


/* kmeans_run, with the best restart's centroids copied to out[k*d] when out is not NULL. */
static int run_keep(const double *x, size_t n, size_t d, int k, int restarts, uint64_t seed,
		    int *labels, struct kmeans_result *res, double *out)
{
	size_t m = n > KM_EXACT ? KM_SAMPLE : n;
	double *cent = NULL, *best_cent = NULL, *sum = NULL, *dmin = NULL, *xs = NULL;
	int *lab = NULL;
	size_t *cnt = NULL;
	int rc = -1, kk;
	double in;

	if (!res || d == 0 || k < 1 || restarts < 1 || (n > 0 && (!x || !labels)))
		return -1;
	res->k = 0;
	res->inertia = 0;
	res->silhouette = NAN;
	if (n == 0)
		return 0;
	if ((size_t)k > n)
		k = (int)n;
	cent = malloc((size_t)k * d * sizeof *cent);
	best_cent = malloc((size_t)k * d * sizeof *best_cent);
	sum = malloc((size_t)k * d * sizeof *sum);
	cnt = malloc((size_t)k * sizeof *cnt);
	dmin = malloc(m * sizeof *dmin);
	lab = malloc(m * sizeof *lab);
	if (!cent || !best_cent || !sum || !cnt || !dmin || !lab)
		goto out;
	if (n == m) {
		kk = restarts_run(x, n, d, k, restarts, seed, best_cent, labels, &in, cent, lab,
				  cnt, sum, dmin);
	} else {
		xs = malloc(m * d * sizeof *xs);
		if (!xs)
			goto out;
		for (size_t j = 0; j < m; j++)
			memcpy(xs + j * d, x + stride_index(j, m, n) * d, d * sizeof *xs);
		kk = restarts_run(xs, m, d, k, restarts, seed, best_cent, NULL, &in, cent, lab,
				  cnt, sum, dmin);
		in = lloyd(x, n, d, kk, best_cent, labels, cnt, sum, KM_FULL_ITER, n / 1000);
	}
	if (out)
		memcpy(out, best_cent, (size_t)kk * d * sizeof *out);
	res->k = kk;
	res->inertia = in;
	res->silhouette = kmeans_silhouette(x, n, d, labels, kk);
	rc = 0;
out:
	free(cent);
	free(best_cent);
	free(sum);
	free(cnt);
	free(dmin);
	free(lab);
	free(xs);
	return rc;
}

int kmeans_run(const double *x, size_t n, size_t d, int k, int restarts, uint64_t seed,
	       int *labels, struct kmeans_result *res)
{
	return run_keep(x, n, d, k, restarts, seed, labels, res, NULL);
}

/* The large-input finish of kmeans_run from the sample's best centroids cent[kk*d] (the
 * restarts already run): Lloyd over all n points, then the silhouette. 0, or -1 out of memory. */
static int run_finish(const double *x, size_t n, size_t d, int kk, double *cent, int *labels,
		      struct kmeans_result *res)
{
	double *sum = malloc((size_t)kk * d * sizeof *sum);
	size_t *cnt = malloc((size_t)kk * sizeof *cnt);
	int rc = -1;

	if (sum && cnt) {
		res->k = kk;
		res->inertia = lloyd(x, n, d, kk, cent, labels, cnt, sum, KM_FULL_ITER, n / 1000);
		res->silhouette = kmeans_silhouette(x, n, d, labels, kk);
		rc = 0;
	}
	free(sum);
	free(cnt);
	return rc;
}

/* ---- silhouette ----------------------------------------------------------------------- */

/* Mean silhouette over the points idx[0..m) (all points when idx is NULL, else a stride
 * sample), distances taken among those points only. A point alone in its cluster scores 0
 * (Rousseeuw's convention, as scikit-learn's). The points are first copied grouped by label,
 * so each pair is measured once and its distance added to both ends without scattering:
 * for a fixed i the inner loops run over one cluster at a time.
 * p[m*d], sums[m*k], cnt[k], start[k+1] are scratch. */
static double silhouette_of(const double *x, const size_t *idx, size_t m, size_t d,
			    const int *labels, int k, double *p, double *sums, size_t *cnt,
			    size_t *start)
{
	double total = 0;
	int formed = 0;

	memset(cnt, 0, (size_t)k * sizeof *cnt);
	for (size_t i = 0; i < m; i++)
		cnt[labels[idx ? idx[i] : i]]++;
	for (int c = 0; c < k; c++)
		formed += cnt[c] > 0;
	if (formed < 2 || (size_t)formed >= m)
		return NAN;
	start[0] = 0;
	for (int c = 0; c < k; c++)
		start[c + 1] = start[c] + cnt[c];
	memset(cnt, 0, (size_t)k * sizeof *cnt);
	for (size_t i = 0; i < m; i++) {
		size_t pi = idx ? idx[i] : i;
		int c = labels[pi];
		memcpy(p + (start[c] + cnt[c]++) * d, x + pi * d, d * sizeof *p);
	}
	memset(sums, 0, m * (size_t)k * sizeof *sums);
	for (int ci = 0; ci < k; ci++)
		for (size_t i = start[ci]; i < start[ci + 1]; i++) {
			const double *xi = p + i * d;
			for (int c = ci; c < k; c++) {
				size_t lo = c == ci ? i + 1 : start[c];
				double acc = 0;
				for (size_t j = lo; j < start[c + 1]; j++) {
					double t = sqrt(dist2(xi, p + j * d, d));
					acc += t;
					sums[j * (size_t)k + (size_t)ci] += t;
				}
				sums[i * (size_t)k + (size_t)c] += acc;
			}
		}
	for (int ci = 0; ci < k; ci++) {
		if (cnt[ci] < 2)
			continue;
		for (size_t i = start[ci]; i < start[ci + 1]; i++) {
			double a = sums[i * (size_t)k + (size_t)ci] / (double)(cnt[ci] - 1);
			double b = INFINITY, s = 0;

			for (int c = 0; c < k; c++) {
				if (c == ci || cnt[c] == 0)
					continue;
				double t = sums[i * (size_t)k + (size_t)c] / (double)cnt[c];
				if (t < b)
					b = t;
			}
			if (a < b)
				s = 1 - a / b;
			else if (a > b)
				s = b / a - 1;
			total += s;
		}
	}
	return total / (double)m;
}

double kmeans_silhouette(const double *x, size_t n, size_t d, const int *labels, int k)
{
	size_t m = n > KM_EXACT ? KM_SAMPLE : n;
	size_t *idx = NULL, *cnt, *start;
	double *sums, *p, s = NAN;

	if (!x || !labels || n < 2 || d == 0 || k < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (labels[i] < 0 || labels[i] >= k)
			return NAN;
	sums = malloc(m * (size_t)k * sizeof *sums);
	p = malloc(m * d * sizeof *p);
	cnt = malloc((size_t)k * sizeof *cnt);
	start = malloc(((size_t)k + 1) * sizeof *start);
	if (m < n)
		idx = malloc(m * sizeof *idx);
	if (sums && p && cnt && start && (m == n || idx)) {
		for (size_t j = 0; idx && j < m; j++)
			idx[j] = stride_index(j, m, n);
		s = silhouette_of(x, idx, m, d, labels, k, p, sums, cnt, start);
	}
	free(sums);
	free(p);
	free(cnt);
	free(start);
	free(idx);
	return s;
}

int kmeans_auto(const double *x, size_t n, size_t d, int kmax, int restarts, uint64_t seed,
		int *labels, struct kmeans_result *res)
{
	size_t m = n > KM_EXACT ? KM_SAMPLE : n, nk;
	const double *pts = x;
	double *xs = NULL, *cent = NULL, best = NAN;
	int best_k = 1, best_at = -1, rc = -1, *lab = NULL;
	struct kmeans_result *kr = NULL;

	if (!res || d == 0 || restarts < 1 || (n > 0 && (!x || !labels)))
		return -1;
	if (n == 0)
		return kmeans_run(x, n, d, 1, restarts, seed, labels, res);
	if (kmax > (int)m - 1)
		kmax = (int)m - 1;
	if (m < n) {
		/* Choose k on the same stride sample the restarts use, then cluster everything
		 * once with that k. The winner's restarts are those kmeans_run would run on the
		 * sample again, so its centroids are kept and only the pass over all points is
		 * left. */
		if (!(xs = malloc(m * d * sizeof *xs)))
			goto out;
		for (size_t j = 0; j < m; j++)
			memcpy(xs + j * d, x + stride_index(j, m, n) * d, d * sizeof *xs);
		pts = xs;
	}
	nk = kmax >= 2 ? (size_t)kmax - 1 : 1;
	lab = malloc(nk * m * sizeof *lab);
	cent = malloc(nk * (size_t)(kmax > 1 ? kmax : 1) * d * sizeof *cent);
	kr = malloc(nk * sizeof *kr);
	if (!lab || !cent || !kr)
		goto out;
	for (int k = 2; k <= kmax; k++) {
		size_t at = (size_t)(k - 2);
		struct kmeans_result *r = &kr[at];

		if (run_keep(pts, m, d, k, restarts, seed, lab + at * m, r,
			     cent + at * (size_t)kmax * d) < 0)
			goto out;
		/* Strictly better only, so ties go to the smaller k. */
		if (!isnan(r->silhouette) && (isnan(best) || r->silhouette > best)) {
			best = r->silhouette;
			best_k = k;
			best_at = (int)at;
		}
		if (r->k < k) /* fewer distinct points than k: larger k changes nothing */
			break;
	}
	if (best_at >= 0 && m == n) {
		memcpy(labels, lab + (size_t)best_at * m, n * sizeof *labels);
		*res = kr[best_at];
		rc = 0;
	} else if (best_at >= 0) {
		rc = run_finish(x, n, d, kr[best_at].k, cent + (size_t)best_at * (size_t)kmax * d,
				labels, res);
	} else {
		rc = kmeans_run(x, n, d, best_k, restarts, seed, labels, res);
	}
out:
	free(xs);
	free(lab);
	free(cent);
	free(kr);
	return rc;
}
