/* clusters.c: k-means clusters of the shown rows on z-scored features, numbered by mean N so
 * that "cluster a" is the smallest systems on every run. No terminal here. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "kmeans.h"

#define KM_RESTARTS 16
#define AUTO_KMAX 8
/* "gpuscale" in ASCII: any fixed value would do, this one is easy to recognise. */
#define KM_SEED UINT64_C(0x6770757363616c65)

/* Features, each z-scored over the shown rows so that log2 N (range ~1..13) does not drown
 * E' (~0..30) or the other way round. A constant feature carries no information and would
 * divide by zero: it becomes all zeros (tested with min == max, since a rounded mean of equal
 * values need not equal them). */
static size_t features(const struct arow *rows, const size_t *ord,
		       size_t n, enum feat_set fs, double *x)
{
	size_t d = fs == FEAT_N_EP_T ? 3 : 2;

	for (size_t i = 0; i < n; i++) {
		size_t o = ord[i];
		double *p = x + i * d;
		p[0] = log2(rows[o].N);
		if (fs == FEAT_N_T)
			p[1] = log(rows[o].T);
		else
			p[1] = rows[o].Ep;
		if (d == 3)
			p[2] = log(rows[o].T);
	}
	for (size_t j = 0; j < d; j++) {
		double lo = INFINITY, hi = -INFINITY, mean = 0, var = 0;
		for (size_t i = 0; i < n; i++) {
			double v = x[i * d + j];
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			mean += v;
		}
		mean /= (double)n;
		for (size_t i = 0; i < n; i++) {
			double t = x[i * d + j] - mean;
			var += t * t;
		}
		double sd = sqrt(var / (double)n);
		for (size_t i = 0; i < n; i++)
			x[i * d + j] = lo == hi || !(sd > 0) ? 0 : (x[i * d + j] - mean) / sd;
	}
	return d;
}

/* Cluster numbers by ascending mean N of the members, ties by mean E', then by the first
 * member, so "cluster a" is the smallest systems on every run; fills a->clusters on the way.
 * Two passes: the per-cluster sums (in index order, as a separate summary pass would add
 * them), then the numbers and the spread of E' around each mean. clus[n] is scratch. */
static void renumber(struct analysis *a, const size_t *ord, size_t n,
		     const int *lab, int *clus, int k)
{
	double sn[MAX_K] = {0}, se[MAX_K] = {0}, sd[MAX_K] = {0};
	double nmin[MAX_K], nmax[MAX_K];
	size_t cnt[MAX_K] = {0}, first[MAX_K];
	int order[MAX_K], map[MAX_K];
	struct arow *rows = a->rows;

	for (int c = 0; c < k; c++) {
		first[c] = n;
		nmin[c] = INFINITY;
		nmax[c] = -INFINITY;
	}
	for (size_t i = 0; i < n; i++) {
		int c = lab[i];
		double N = a->rows[ord[i]].N;
		sn[c] += N;
		se[c] += a->rows[ord[i]].Ep;
		nmin[c] = N < nmin[c] ? N : nmin[c];
		nmax[c] = N > nmax[c] ? N : nmax[c];
		if (!cnt[c]++)
			first[c] = i;
	}
	for (int c = 0; c < k; c++) {
		if (cnt[c]) {
			sn[c] /= (double)cnt[c];
			se[c] /= (double)cnt[c];
		}
		order[c] = c;
	}
	for (int x = 1; x < k; x++) { /* insertion sort: k <= MAX_K */
		int v = order[x], b = x;
		while (b > 0) {
			int u = order[b - 1];
			bool after = sn[u] > sn[v] || (sn[u] == sn[v] && (se[u] > se[v] ||
				     (se[u] == se[v] && first[u] > first[v])));
			if (!after)
				break;
			order[b] = u;
			b--;
		}
		order[b] = v;
	}
	for (int c = 0; c < k; c++)
		map[order[c]] = c;
	for (size_t i = 0; i < n; i++) {
		int c = lab[i];
		double t = a->rows[ord[i]].Ep - se[c];
		clus[i] = map[c];
		sd[c] += t * t;
	}
	for (size_t i = 0; i < n; i++)
		rows[ord[i]].cluster = clus[i];
	memset(a->clusters, 0, sizeof a->clusters);
	for (int c = 0; c < k; c++) {
		struct cluster_sum *s = &a->clusters[map[c]];
		s->n = cnt[c];
		if (cnt[c]) {
			s->n_min = nmin[c];
			s->n_max = nmax[c];
			s->ep_mean = se[c];
			s->ep_sd = sqrt(sd[c] / (double)cnt[c]);
		} else {
			s->n_min = s->n_max = s->ep_mean = s->ep_sd = NAN;
		}
	}
}

int clusters_run(struct analysis *a, const size_t *ord, size_t n, const struct params *p,
		 struct gs_err *err)
{
	struct kmeans_result res;
	int rc, k = p->k;
	enum feat_set fs = (unsigned)p->feats < FEAT_COUNT ? p->feats : FEAT_N_EP;

	a->k = 0;
	a->inertia = 0;
	a->silhouette = NAN;
	if (n == 0)
		return 0;
	size_t nf = fs == FEAT_N_EP_T ? 3 : 2; /* the features' count, as features() makes them */
	double *x = malloc(n * nf * sizeof *x);
	int *lab = malloc(n * 2 * sizeof *lab);
	if (!x || !lab) {
		free(x);
		free(lab);
		err_oom(err, NULL, 0);
		return -1;
	}
	size_t d = features(a->rows, ord, n, fs, x);
	if (k == 0) {
		rc = kmeans_auto(x, n, d, AUTO_KMAX, KM_RESTARTS, KM_SEED, lab, &res);
	} else {
		int kmax = n < MAX_K ? (int)n : MAX_K;
		k = k < 1 ? 1 : k > kmax ? kmax : k;
		rc = kmeans_run(x, n, d, k, KM_RESTARTS, KM_SEED, lab, &res);
	}
	if (rc == 0) {
		a->k = res.k;
		a->inertia = res.inertia;
		a->silhouette = res.silhouette;
		renumber(a, ord, n, lab, lab + n, res.k);
	} else {
		err_oom(err, NULL, 0);
	}
	free(x);
	free(lab);
	return rc;
}
