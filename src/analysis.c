/* analysis.c: one round x workload under filters: reference, speedup, E', Karp-Flatt, spread,
 * Pareto frontier, break-even, k-means clusters and ranking. No terminal here.
 *
 * Every ordering in this file ends in an explicit tie-break (system id, then dataset row), and
 * sorting is a merge sort of our own, so results never depend on qsort's instability or on the
 * libc. String comparisons that users see as case-insensitive use ASCII folding, not the
 * locale, for the same reason. */
#include "analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmeans.h"
#include "mem.h"

#define KM_RESTARTS 16
#define AUTO_KMAX 8
/* "gpuscale" in ASCII: any fixed value would do, this one is easy to recognise. */
#define KM_SEED UINT64_C(0x6770757363616c65)

/* ---- names ---------------------------------------------------------------------------- */

void params_init(struct params *p)
{
	memset(p, 0, sizeof *p);
	p->mode = REF_PAPER;
	p->k = 3;
	p->feats = FEAT_N_EP;
	p->theta = 0.8;
	p->sort = COL_EP;
	p->desc = true;
}

const char *ref_mode_name(enum ref_mode m)
{
	static const char *const names[REF_MODE_COUNT] = {"paper", "pinned", "family"};

	return (unsigned)m < REF_MODE_COUNT ? names[m] : "?";
}

const char *feat_set_name(enum feat_set f)
{
	static const char *const names[FEAT_COUNT] = {
		"log2 N, E'", "log2 N, log T", "log2 N, E', log T",
	};

	return (unsigned)f < FEAT_COUNT ? names[f] : "?";
}

const char *metric_name(enum metric m)
{
	static const char *const names[MET_COUNT] = {"E'", "S", "T", "A", "E"};

	return (unsigned)m < MET_COUNT ? names[m] : "?";
}

const char *col_name(enum col c)
{
	static const char *const names[COL_COUNT] = {
		[COL_EP] = "E'", [COL_S] = "S", [COL_E] = "E", [COL_T] = "min", [COL_A] = "A",
		[COL_N] = "N", [COL_SYSTEM] = "system", [COL_SUBMITTER] = "submitter",
		[COL_FAMILY] = "fam", [COL_CLUSTER] = "cl", [COL_PARETO] = "P",
		[COL_SPREAD] = "spread",
	};

	return (unsigned)c < COL_COUNT ? names[c] : "?";
}

double arow_metric(const struct arow *r, enum metric m)
{
	switch (m) {
	case MET_EP: return r->Ep;
	case MET_S: return r->S;
	case MET_T: return r->T;
	case MET_A: return r->A;
	case MET_E: return r->E;
	default: return NAN;
	}
}

void analysis_free(struct analysis *a)
{
	free(a->rows);
	free(a->scratch);
	memset(a, 0, sizeof *a);
}

/* ---- strings -------------------------------------------------------------------------- */

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* Pooled names usually compare by pointer; hand-built rows fall back to the text. */
static bool same(const char *a, const char *b)
{
	return a == b || strcmp(nz(a), nz(b)) == 0;
}

static bool in_list(const char *v, const char *const *list, size_t n)
{
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (ascii_casecmp(v, list[i]) == 0)
			return true;
	return false;
}

static bool filter_pass(const struct filter *f, const struct row *r)
{
	return in_list(r->family, f->families, f->nfamilies > MAX_SEL ? MAX_SEL : f->nfamilies) &&
	       in_list(r->vendor, f->vendors, f->nvendors > MAX_SEL ? MAX_SEL : f->nvendors) &&
	       in_list(r->availability, f->availability,
		       f->navailability > MAX_SEL ? MAX_SEL : f->navailability) &&
	       in_list(r->division, f->divisions,
		       f->ndivisions > MAX_SEL ? MAX_SEL : f->ndivisions);
}

/* ---- sorting -------------------------------------------------------------------------- */

/* Every ordering here is total: a numeric or string key, then the tie rank, each shown row's
 * place in (system id, dataset row) order. Numbers and string prefixes become unsigned 64-bit
 * keys with the same order, and (key, index) pairs are sorted by a stable LSD radix sort, fed
 * in tie-rank order when ties matter: at 10^6 rows this is several times faster than a merge
 * sort whose comparisons read the strings. Strings longer than a key are ordered by their next
 * 8 bytes within each run of equal prefixes. */
struct pair {
	uint64_t key;
	union {
		size_t i;      /* index into the shown rows */
		double A;      /* the Pareto sweep's accelerator-hours */
	};
};

/* The scratch block holds objects of one type, then of another (pairs, indices, features).
 * Their accesses are ordered by the program, but type-based alias analysis could move a load
 * of the old type past a store of the new one once the phases are inlined together: a
 * compiler barrier separates the phases. */
static inline void phase_barrier(void)
{
#if defined(__GNUC__)
	__asm__ __volatile__("" ::: "memory");
#endif
}

static uint64_t prefix(const char *s, bool folded)
{
	uint64_t v = 0;
	size_t i = 0;

	for (s = nz(s); i < 8 && s[i]; i++)
		v |= (uint64_t)(unsigned char)(folded ? ascii_fold((unsigned char)s[i]) : s[i])
		     << (56 - 8 * i);
	return v;
}

/* Maps a double to an integer with the same order, NAN after everything, -0 equal to 0. */
static uint64_t order_bits(double v, bool desc)
{
	uint64_t b;

	if (isnan(v))
		return UINT64_MAX;
	if (v == 0)
		v = 0; /* -0.0 and 0.0 compare equal: give them one key */
	memcpy(&b, &v, sizeof b);
	b = b >> 63 ? ~b : b | UINT64_C(0x8000000000000000);
	return desc ? ~b : b; /* never UINT64_MAX: that would be a NaN pattern */
}

/* Stable merge sort of p[n] by key, insertion-sorted runs of 16 first; tmp[n] is scratch. */
static void merge_sort(struct pair *p, struct pair *tmp, size_t n)
{
	struct pair *src = p, *dst = tmp;
	size_t w = 16;

	for (size_t lo = 0; lo < n; lo += w) {
		size_t hi = lo + w < n ? lo + w : n;
		for (size_t i = lo + 1; i < hi; i++) {
			struct pair v = p[i];
			size_t j = i;
			for (; j > lo && p[j - 1].key > v.key; j--)
				p[j] = p[j - 1];
			p[j] = v;
		}
	}
	for (; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				dst[o++] = src[j].key < src[i].key ? src[j++] : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		struct pair *t = src;
		src = dst;
		dst = t;
	}
	if (src != p)
		memcpy(p, src, n * sizeof *p);
}

/* Stable LSD radix sort of p[n] on key bytes lo..hi-1 (0 = least significant); tmp[n] is
 * scratch. The histograms come from one read, and a byte that is the same in every key costs
 * no pass. */
static void radix_bytes(struct pair *p, struct pair *tmp, size_t n, int lo, int hi)
{
	size_t cnt[8][256];
	struct pair *src = p, *dst = tmp;

	memset(cnt, 0, sizeof cnt);
	for (size_t i = 0; i < n; i++) {
		uint64_t k = p[i].key;
		for (int b = lo; b < hi; b++)
			cnt[b][(k >> (8 * b)) & 0xff]++;
	}
	for (int b = lo; b < hi; b++) {
		size_t *c = cnt[b];
		int shift = 8 * b;
		if (c[(p[0].key >> shift) & 0xff] == n)
			continue;
		for (size_t v = 0, sum = 0; v < 256; v++) {
			size_t t = c[v];
			c[v] = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].key >> shift) & 0xff]++] = src[i];
		struct pair *t = src;
		src = dst;
		dst = t;
	}
	if (src != p)
		memcpy(p, src, n * sizeof *p);
}

/* Stable sort of p[n] by key; tmp[n] is scratch. Radix passes on the high 32 bits first, then
 * each run of equal high halves (short for doubles of any spread: 20 bits of mantissa) is
 * finished on the low half, by merge sort or, when long, by radix: about half the passes
 * over the whole array that a full 64-bit LSD sort makes. */
static void pair_sort(struct pair *p, struct pair *tmp, size_t n)
{
	if (n < 1024) { /* short runs (string refinement): the histograms would dominate */
		merge_sort(p, tmp, n);
		return;
	}
	radix_bytes(p, tmp, n, 4, 8);
	for (size_t g = 0; g < n;) {
		size_t e = g + 1;
		uint64_t hi = p[g].key >> 32;
		while (e < n && p[e].key >> 32 == hi)
			e++;
		if (e - g >= 1024)
			radix_bytes(p + g, tmp + g, e - g, 0, 4);
		else if (e - g > 1)
			merge_sort(p + g, tmp + g, e - g);
		g = e;
	}
}

/* String of shown row i: the field at byte offset `field` of its dataset row. */
static const char *str_of(const struct dataset *ds, const struct arow *rows, size_t field,
			  size_t i)
{
	const struct row *r = &ds->rows[rows[i].row];

	return nz(*(const char *const *)(const void *)((const char *)r + field));
}

/* p[n] is sorted by the 8 bytes of each string at offset off; orders each run of equal keys
 * by the following 8 bytes, recursively. A key whose last byte is not NUL is all non-NUL, so
 * every string of such a run is at least off + 8 bytes long. */
static void str_refine(const struct dataset *ds, const struct arow *rows, size_t field,
		       struct pair *p, struct pair *tmp, size_t n, size_t off)
{
	for (size_t g = 0; g < n;) {
		size_t e = g + 1;
		while (e < n && p[e].key == p[g].key)
			e++;
		if (e - g > 1 && (p[g].key & 0xff)) {
			for (size_t j = g; j < e; j++)
				p[j].key = prefix(str_of(ds, rows, field, p[j].i) + off + 8, false);
			pair_sort(p + g, tmp + g, e - g);
			str_refine(ds, rows, field, p + g, tmp + g, e - g, off + 8);
		}
		g = e;
	}
}

/* p[n] receives the shown rows 0..n-1 in strcmp order of a string field, equal strings in
 * index order (which is dataset row order). */
static void str_sort(const struct dataset *ds, const struct arow *rows, size_t field,
		     struct pair *p, struct pair *tmp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		p[i].key = prefix(str_of(ds, rows, field, i), false);
		p[i].i = i;
	}
	pair_sort(p, tmp, n);
	str_refine(ds, rows, field, p, tmp, n, 0);
}

/* Tie ranks: each shown row's place in (system id, dataset row) order, computed once per
 * run so that every later sort breaks ties with one integer. rank[i] receives row i's; it may
 * be the upper half of tmp. */
static void tie_ranks(const struct dataset *ds, const struct arow *rows, size_t n,
		      struct pair *p, struct pair *tmp, size_t *rank)
{
	str_sort(ds, rows, offsetof(struct row, system), p, tmp, n);
	phase_barrier();
	for (size_t i = 0; i < n; i++)
		rank[p[i].i] = i;
}

/* Case-insensitive text columns (system, submitter, family) sort with a merge sort on
 * (folded prefix, index): the full comparison ascii_casecmp, then strcmp, then the tie rank, is
 * needed only among equal prefixes. The keys are pairs (folded prefix, index). */
struct sctx {
	bool desc;
	const struct dataset *ds;
	const struct arow *rows;
	size_t field;  /* offsetof(struct row, <string>) */
};

static inline int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int key_cmp(const struct pair *x, const struct pair *y, const struct sctx *cx)
{
	int c = cmp_u64(x->key, y->key);

	if (!c) {
		const char *a = str_of(cx->ds, cx->rows, cx->field, x->i);
		const char *b = str_of(cx->ds, cx->rows, cx->field, y->i);
		if (!(c = ascii_casecmp(a, b)))
			c = strcmp(a, b);
	}
	if (cx->desc)
		c = -c;
	if (c)
		return c;
	return cmp_u64(cx->rows[x->i].tie, cx->rows[y->i].tie);
}

/* Bottom-up merge sort: stable, O(n log n), and no context-less qsort callback. */
static void key_sort(struct pair *k, struct pair *tmp, size_t n, const struct sctx *cx)
{
	struct pair *src = k, *dst = tmp;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				dst[o++] = key_cmp(&src[j], &src[i], cx) < 0 ? src[j++] : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		struct pair *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof *k);
}

/* ---- reference ------------------------------------------------------------------------ */

/* Paper rule: fewest accelerators, then the slowest, then system id, then row. True when
 * dataset row i is a better reference than row j. */
static bool ref_better(const struct dataset *ds, size_t i, size_t j)
{
	const struct row *a = &ds->rows[i], *b = &ds->rows[j];
	int c;

	if (a->accelerators != b->accelerators)
		return a->accelerators < b->accelerators;
	if (a->minutes != b->minutes)
		return a->minutes > b->minutes;
	if ((c = strcmp(nz(a->system), nz(b->system))))
		return c < 0;
	return i < j;
}

/* ---- metrics -------------------------------------------------------------------------- */

/* o->row and o->ref are set; fills in every metric. */
static void metrics(const struct dataset *ds, struct arow *o)
{
	size_t row = o->row, ref = o->ref;
	const struct row *r = &ds->rows[row], *f = &ds->rows[ref];
	double Tr = f->minutes, Nr = (double)f->accelerators;

	memset(o, 0, sizeof *o);
	o->row = row;
	o->ref = ref;
	o->is_ref = row == ref;
	o->T = r->minutes;
	o->N = (double)r->accelerators;
	o->A = o->N * o->T / 60;
	o->S = Tr / o->T;
	o->E = o->S / o->N;
	/* S / (N / N_r) written as S * N_r / N: exactly 1 for the reference itself. */
	o->Ep = o->S * Nr / o->N;
	double p = o->N / Nr;
	o->kf = p > 1 ? (1 / o->S - 1 / p) / (1 - 1 / p) : NAN;

	/* Spread: run_minutes are the raw runs, while minutes already carries the review
	 * committee's scaling factor; scaling the runs the same way keeps [t_lo, t_hi] around
	 * T. The reference's official T is the numerator of both ends. */
	o->t_lo = o->t_hi = o->s_lo = o->s_hi = o->ep_lo = o->ep_hi = NAN;
	if (r->run_n > 0 && ds->runs && r->run_off + r->run_n <= ds->nruns) {
		const double *run = ds->runs + r->run_off;
		double lo = run[0], hi = run[0];
		double sf = r->scaling_factor > 0 && isfinite(r->scaling_factor)
				    ? r->scaling_factor : 1;
		for (unsigned i = 1; i < r->run_n; i++) {
			lo = run[i] < lo ? run[i] : lo;
			hi = run[i] > hi ? run[i] : hi;
		}
		if (lo > 0 && isfinite(hi)) {
			o->t_lo = lo * sf;
			o->t_hi = hi * sf;
			o->s_lo = Tr / o->t_hi;
			o->s_hi = Tr / o->t_lo;
			o->ep_lo = o->s_lo * Nr / o->N;
			o->ep_hi = o->s_hi * Nr / o->N;
		}
	}
}

/* ---- Pareto --------------------------------------------------------------------------- */

/* A row is on the frontier when no row has T and A both <= and one <. In order of T, a row
 * survives when it has the least A of its equal-T group and beats, strictly, the least A of
 * every faster group: O(n log n). k[i] holds (order_bits(T), A) of each shown row; the order
 * within a group does not matter, so the sort needs no tie-break and no row index. The groups
 * that reach the frontier are left in k[0..f), key and least A, ascending; returns f. A row is
 * on the frontier when its T has an entry there and its A equals that entry's. NAN T (and so
 * A) rows share the last group and never qualify. */
static size_t pareto_front(struct pair *k, struct pair *tmp, size_t n)
{
	double best = INFINITY;
	size_t f = 0;

	pair_sort(k, tmp, n);
	for (size_t g = 0; g < n;) {
		size_t e = g;
		uint64_t key = k[g].key;
		double gmin = INFINITY;
		while (e < n && k[e].key == key) {
			double A = k[e].A;
			gmin = A < gmin ? A : gmin;
			e++;
		}
		if (gmin < best) {
			best = gmin;
			k[f].key = key; /* f <= g: entries already read */
			k[f].A = gmin;
			f++;
		}
		g = e;
	}
	return f;
}

static bool on_front(const struct pair *front, size_t f, const struct arow *r)
{
	uint64_t key = order_bits(r->T, false);
	size_t lo = 0, hi = f;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (front[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f && front[lo].key == key && r->A == front[lo].A;
}

/* ---- clusters ------------------------------------------------------------------------- */

/* Features, each z-scored over the shown rows so that log2 N (range ~1..13) does not drown
 * E' (~0..30) or the other way round. A constant feature carries no information and would
 * divide by zero: it becomes all zeros (tested with min == max, since a rounded mean of equal
 * values need not equal them). */
static size_t features(const struct arow *rows, size_t n, enum feat_set fs, double *x)
{
	size_t d = fs == FEAT_N_EP_T ? 3 : 2;
	/* Accelerator counts repeat (a few dozen distinct values in a round): log2 of each is
	 * taken once, memoized in a small direct-mapped table, bit for bit the same value. */
	double memo_n[64], memo_l[64];

	for (size_t s = 0; s < 64; s++)
		memo_n[s] = NAN;
	for (size_t i = 0; i < n; i++) {
		double *p = x + i * d, N = rows[i].N;
		uint64_t b;
		memcpy(&b, &N, sizeof b);
		size_t s = (size_t)((b * UINT64_C(0x9E3779B97F4A7C15)) >> 58);
		if (memo_n[s] != N || signbit(memo_n[s]) != signbit(N)) {
			memo_n[s] = N;
			memo_l[s] = log2(N);
		}
		p[0] = memo_l[s];
		if (fs == FEAT_N_T)
			p[1] = log(rows[i].T);
		else
			p[1] = rows[i].Ep;
		if (d == 3)
			p[2] = log(rows[i].T);
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
 * them), then the numbers and the spread of E' around each mean. */
static void renumber(struct analysis *a, const int *lab, int k)
{
	double sn[MAX_K] = {0}, se[MAX_K] = {0}, sd[MAX_K] = {0};
	double nmin[MAX_K], nmax[MAX_K];
	size_t cnt[MAX_K] = {0}, first[MAX_K];
	int order[MAX_K], map[MAX_K];
	struct arow *rows = a->rows;
	size_t n = a->n;

	for (int c = 0; c < k; c++) {
		first[c] = n;
		nmin[c] = INFINITY;
		nmax[c] = -INFINITY;
	}
	for (size_t i = 0; i < n; i++) {
		int c = lab[i];
		double N = rows[i].N;
		sn[c] += N;
		se[c] += rows[i].Ep;
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
		double t = rows[i].Ep - se[c];
		rows[i].cluster = map[c];
		sd[c] += t * t;
	}
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

/* Clusters the shown rows in their shown (dataset) order. The features and labels live in
 * a->scratch, which the caller has sized for the sorts (32 bytes a row, these need 28). */
static int cluster(struct analysis *a, const struct params *p, struct gs_err *err)
{
	double *x = a->scratch;
	int *lab = (int *)(void *)(x + 3 * a->n);
	struct kmeans_result res;
	int rc, k = p->k;
	enum feat_set fs = (unsigned)p->feats < FEAT_COUNT ? p->feats : FEAT_N_EP;

	a->k = 0;
	a->inertia = 0;
	a->silhouette = NAN;
	if (a->n == 0)
		return 0;
	size_t d = features(a->rows, a->n, fs, x);
	if (k == 0) {
		rc = kmeans_auto(x, a->n, d, AUTO_KMAX, KM_RESTARTS, KM_SEED, lab, &res);
	} else {
		int kmax = a->n < MAX_K ? (int)a->n : MAX_K;
		k = k < 1 ? 1 : k > kmax ? kmax : k;
		rc = kmeans_run(x, a->n, d, k, KM_RESTARTS, KM_SEED, lab, &res);
	}
	if (rc == 0) {
		a->k = res.k;
		a->inertia = res.inertia;
		a->silhouette = res.silhouette;
		renumber(a, lab, res.k);
	} else {
		err_set(err, NULL, 0, 0, "out of memory");
	}
	return rc;
}

/* ---- buffers -------------------------------------------------------------------------- */

/* Sort keys, features and labels share one scratch block of SCRATCH_ROW bytes a row: 2n
 * pairs (or 2n text-column keys), or 3n doubles and n ints. Both it and the row array stay
 * with the struct between runs and only grow, so repeated recomputes do not fault in fresh
 * pages each time. */
#define SCRATCH_ROW (2 * sizeof(struct pair))

/* Makes *buf hold at least need bytes; its content is not kept. Returns 0 or -1. */
static int grow(void **buf, size_t *cap, size_t need)
{
	if (need <= *cap && *buf)
		return 0;
	/* free first: the old content is not needed, and the peak stays one buffer */
	free(*buf);
	*cap = 0;
	/* aligned to 64 bytes, so that an analysis row is two cache lines (struct arow) */
	if (!(*buf = aligned_alloc(64, need ? (need + 63) / 64 * 64 : 64)))
		return -1;
	mem_advise_huge(*buf, need); /* read at random: fewer TLB misses */
	*cap = need;
	return 0;
}

/* Room for n rows; the old rows are not kept. */
static int grow_rows(struct analysis *a, size_t n)
{
	void *p = a->rows;
	int rc = grow(&p, &a->rows_cap, (n ? n : 1) * sizeof *a->rows);

	a->rows = p;
	return rc;
}

/* ---- ranking -------------------------------------------------------------------------- */

static bool text_col(enum col col)
{
	return col == COL_SYSTEM || col == COL_SUBMITTER || col == COL_FAMILY;
}

/* The sort key of a numeric column. */
static double col_value(const struct arow *r, enum col col)
{
	switch (col) {
	case COL_S: return r->S;
	case COL_E: return r->E;
	case COL_T: return r->T;
	case COL_A: return r->A;
	case COL_N: return r->N;
	case COL_CLUSTER: return r->cluster;
	case COL_PARETO: return r->pareto;
	case COL_SPREAD: return (r->t_hi - r->t_lo) / r->T;
	default: return r->Ep;
	}
}

/* Sorted order of the shown rows by col into k[0..n) (.i: the row for each place), using
 * k[n..2n) as scratch. */
static void sort_order(const struct dataset *ds, const struct analysis *a, enum col col,
		       bool desc, struct pair *k)
{
	struct pair *tmp = k + a->n;
	size_t n = a->n;

	if (text_col(col)) {
		struct sctx cx = {.desc = desc, .ds = ds, .rows = a->rows};
		cx.field = col == COL_SYSTEM ? offsetof(struct row, system)
			   : col == COL_SUBMITTER ? offsetof(struct row, submitter)
			   : offsetof(struct row, family);
		for (size_t i = 0; i < n; i++) {
			k[i].key = prefix(str_of(ds, a->rows, cx.field, i), true);
			k[i].i = i;
		}
		key_sort(k, tmp, n, &cx);
		return;
	}
	/* Numeric columns: keys placed in tie-rank order, so the stable radix sort leaves equal
	 * keys in (system id, dataset row) order. */
	for (size_t i = 0; i < n; i++) {
		const struct arow *r = &a->rows[i];
		k[r->tie].key = order_bits(col_value(r, col), desc);
		k[r->tie].i = i;
	}
	pair_sort(k, tmp, n);
}

#define PERM_AHEAD 8

static inline void prefetch(const struct arow *r)
{
#if defined(__GNUC__)
	/* a row is two 64-byte lines (struct arow) */
	__builtin_prefetch(r);
	__builtin_prefetch((const char *)r + 64);
#else
	(void)r;
#endif
}

/* Sorts a->rows in place by col with key space k (2n pairs, the second half scratch). The
 * break-even index follows its row. The permutation is applied cycle by cycle, so no second row
 * array is needed. */
static void sort_with(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		      struct pair *k)
{
	size_t n = a->n;

	sort_order(ds, a, col, desc, k);
	for (size_t i = 0; i < n; i++)
		if (a->breakeven >= 0 && k[i].i == (size_t)a->breakeven) {
			a->breakeven = (long)i;
			break;
		}
	/* Place j takes row to[j]; a done place gets to[j] = j. Walking a cycle is a chain of
	 * dependent random reads of to[], so the places are first copied out of the pairs into
	 * 32-bit ones, a quarter of the size (the cache keeps them). Each cycle is walked with a
	 * second cursor PERM_AHEAD places ahead that prefetches the row to be moved then: the
	 * moves are random reads of whole rows, and waiting on each in turn would dominate. */
	phase_barrier();
	uint32_t *to = (uint32_t *)(void *)(k + n);
	for (size_t i = 0; i < n; i++)
		to[i] = (uint32_t)k[i].i;
	for (size_t i = 0; i < n; i++) {
		if (to[i] == i)
			continue;
		struct arow hold = a->rows[i];
		size_t j = i, ahead = i;
		for (int s = 0; s < PERM_AHEAD && (ahead = to[ahead]) != i; s++)
			;
		for (;;) {
			size_t from = to[j];
			to[j] = (uint32_t)j;
			if (from == i) {
				a->rows[j] = hold;
				break;
			}
			if (ahead != i) {
				ahead = to[ahead];
				prefetch(&a->rows[ahead]);
			}
			a->rows[j] = a->rows[from];
			j = from;
		}
	}
	phase_barrier();
}

void analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc)
{
	if (a->n < 2)
		return;
	/* Out of memory leaves the previous order, which is still a valid table. */
	if (grow(&a->scratch, &a->scratch_cap, a->n * SCRATCH_ROW) < 0)
		return;
	sort_with(ds, a, col, desc, a->scratch);
}

/* Row i is offered as the break-even row: the fastest with E' >= theta, then the system id,
 * then the dataset row, so the winner does not depend on the order rows are offered in. */
static inline void breakeven_offer(const struct dataset *ds, struct analysis *a, size_t i, double theta)
{
	const struct arow *r = &a->rows[i];

	if (!(r->Ep >= theta))
		return;
	if (a->breakeven < 0) {
		a->breakeven = (long)i;
		return;
	}
	const struct arow *b = &a->rows[a->breakeven];
	int c = r->T < b->T ? -1 : r->T > b->T ? 1 : 0;
	if (!c)
		c = strcmp(nz(ds->rows[r->row].system), nz(ds->rows[b->row].system));
	if (c < 0 || (c == 0 && r->row < b->row))
		a->breakeven = (long)i;
}

void analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta)
{
	a->breakeven = -1;
	for (size_t i = 0; i < a->n; i++)
		breakeven_offer(ds, a, i, theta);
}

/* ---- the run -------------------------------------------------------------------------- */

static void list_names(char *buf, size_t n, const char *const *names, size_t count)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < count && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static const char *resolve_round(const struct dataset *ds, const char *want, struct gs_err *err)
{
	const char *names[MAX_NAMES];
	size_t nr = dataset_rounds(ds, names, MAX_NAMES);
	char list[400];

	if (!want)
		return nr ? names[0] : NULL;
	size_t i = name_find(names, nr, want, false);
	if (i < nr)
		return names[i];
	list_names(list, sizeof list, names, nr);
	err_set(err, NULL, 0, 0, "unknown round '%s' (loaded: %s)", want, nr ? list : "none");
	return NULL;
}

static const char *resolve_workload(const struct dataset *ds, const char *round, const char *want,
				    struct gs_err *err)
{
	const char *names[MAX_NAMES];
	size_t nw = dataset_workloads(ds, round, names, MAX_NAMES);
	char list[400];

	if (!want) {
		if (!nw)
			err_set(err, NULL, 0, 0, "round %s has no results", round);
		return nw ? names[0] : NULL;
	}
	size_t i = name_find(names, nw, want, true);
	if (i < nw)
		return names[i];
	list_names(list, sizeof list, names, nw);
	err_set(err, NULL, 0, 0, "unknown workload '%s' in round %s (valid: %s)", want, round,
		nw ? list : "none");
	return NULL;
}

/* Paper-rule reference of each family: the shown rows grouped by family (exact text), then
 * the best row of each group by the rule, which is a total order, so the order of the groups
 * and within them does not matter. rows[i].row is set; rows[i].ref receives the reference. */
static void family_refs(const struct dataset *ds, struct arow *rows, size_t n, struct pair *k,
			struct pair *tmp)
{
	str_sort(ds, rows, offsetof(struct row, family), k, tmp, n);
	for (size_t g = 0; g < n;) {
		size_t e = g + 1, best = rows[k[g].i].row;
		while (e < n && same(ds->rows[rows[k[e].i].row].family, ds->rows[best].family)) {
			if (ref_better(ds, rows[k[e].i].row, best))
				best = rows[k[e].i].row;
			e++;
		}
		for (size_t i = g; i < e; i++)
			rows[k[i].i].ref = best;
		g = e;
	}
}

static bool filter_empty(const struct filter *f)
{
	return !f->nfamilies && !f->nvendors && !f->navailability && !f->ndivisions;
}

/* Clears a for a new run, keeping its buffers. */
static void reset(struct analysis *a)
{
	struct arow *rows = a->rows;
	void *scratch = a->scratch;
	size_t rows_cap = a->rows_cap, scratch_cap = a->scratch_cap;

	memset(a, 0, sizeof *a);
	a->rows = rows;
	a->rows_cap = rows_cap;
	a->scratch = scratch;
	a->scratch_cap = scratch_cap;
	a->ref = -1;
	a->breakeven = -1;
	a->silhouette = NAN;
}

/* Makes the scratch block hold at least need bytes, keeping its content. */
static int grow_keep(struct analysis *a, size_t need)
{
	void *p;

	if (need <= a->scratch_cap && a->scratch)
		return 0;
	if (!(p = realloc(a->scratch, need ? need : 1)))
		return -1;
	a->scratch = p;
	a->scratch_cap = need;
	return 0;
}

/* The run touches each shown row a few times in sequence and never at random except in the
 * final reordering: one pass over the dataset collects the shown rows (into scratch, grown as
 * needed) and the paper-rule reference; one pass computes the metrics and the Pareto keys; one
 * sets tie ranks and Pareto flags; then the clusters, the ranking and the break-even row. Scratch layout, in units of n bytes: pairs and their merge space [0, 32), the
 * dataset indices of the shown rows [16, 24) until the metrics pass, tie ranks [24, 32),
 * k-means features [0, 24) and labels [24, 28). */
int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err)
{
	size_t ns = 0, total = 0, f = 0, best = 0;
	long pinned = -1;
	size_t npinned = 0;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;
	bool all = filter_empty(&p->filter);
	struct pair *keys, *front = NULL;
	size_t *idx;

	reset(a);
	if (!(a->round = resolve_round(ds, p->round, err))) {
		if (!p->round)
			err_set(err, NULL, 0, 0, "no results loaded");
		return -1;
	}
	if (!(a->workload = resolve_workload(ds, a->round, p->workload, err)))
		return -1;

	if (mode == REF_PINNED && (!p->pinned || !*p->pinned))
		mode = REF_PAPER; /* nothing pinned yet: the paper rule */
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (!same(r->round, a->round) || !same(r->benchmark, a->workload))
			continue;
		total++;
		if (mode == REF_PINNED && row_named(r, p->pinned) && npinned++ == 0)
			pinned = (long)i;
		if (!all && !filter_pass(&p->filter, r))
			continue;
		if ((ns + 1) * sizeof *idx > a->scratch_cap &&
		    grow_keep(a, (ns < 512 ? 1024 : 2 * ns) * sizeof *idx) < 0)
			goto oom;
		idx = a->scratch;
		idx[ns] = i;
		/* paper rule: fewest accelerators, then the slowest, then system id, then row */
		if (!ns++ || ref_better(ds, i, best))
			best = i;
	}
	a->total = total;
	if (mode == REF_PINNED && pinned < 0) {
		err_set(err, NULL, 0, 0, "unknown reference system '%s' for %s %s", p->pinned,
			a->round, a->workload);
		goto fail;
	}
	if (mode == REF_PINNED && npinned > 1) {
		/* one system id under several submitters: only SUBMITTER/SYSTEM says which */
		err_set(err, NULL, 0, 0, "reference system '%s' is ambiguous in %s %s (%zu submitters "
			"have it): name it SUBMITTER/SYSTEM, e.g. %s/%s", p->pinned, a->round, a->workload,
			npinned, ds->rows[pinned].submitter, ds->rows[pinned].system);
		goto fail;
	}
	if (grow_rows(a, ns) < 0 || grow_keep(a, (ns ? ns : 1) * SCRATCH_ROW) < 0)
		goto oom;
	keys = a->scratch;
	idx = (size_t *)(void *)(keys + ns);
	if (ns)
		memcpy(idx, a->scratch, ns * sizeof *idx); /* [0, 8) -> [16, 24): disjoint */
	phase_barrier();
	a->n = ns;

	if (mode == REF_FAMILY) {
		for (size_t i = 0; i < ns; i++)
			a->rows[i].row = idx[i];
		phase_barrier();
		family_refs(ds, a->rows, ns, keys, keys + ns);
	} else if (mode == REF_PINNED) {
		a->ref = pinned;
		a->ref_hidden = true;
		for (size_t i = 0; i < ns && a->ref_hidden; i++)
			a->ref_hidden = idx[i] != (size_t)pinned;
	} else if (ns) {
		a->ref = (long)best;
	}
	for (size_t i = 0; i < ns; i++) {
		struct arow *o = &a->rows[i];
		if (mode != REF_FAMILY) {
			o->row = idx[i];
			o->ref = (size_t)a->ref;
		}
		metrics(ds, o);
		keys[i].key = order_bits(o->T, false);
		keys[i].A = o->A;
	}

	f = pareto_front(keys, keys + ns, ns);
	if (f && !(front = malloc(f * sizeof *front)))
		goto oom;
	if (f)
		memcpy(front, keys, f * sizeof *front);
	size_t *rank = (size_t *)(void *)(keys + ns) + ns;
	phase_barrier();
	tie_ranks(ds, a->rows, ns, keys, keys + ns, rank);

	/* Tie ranks in place, Pareto flags and the break-even row (which the ranking follows). */
	for (size_t i = 0; i < ns; i++) {
		struct arow *r = &a->rows[i];
		r->tie = rank[i];
		r->pareto = on_front(front, f, r);
		a->npareto += r->pareto;
		breakeven_offer(ds, a, i, p->theta);
	}
	free(front);

	phase_barrier();
	if (cluster(a, p, err) < 0)
		goto fail;
	phase_barrier();
	sort_with(ds, a, (unsigned)p->sort < COL_COUNT ? p->sort : COL_EP, p->desc, keys);
	return 0;
oom:
	err_set(err, NULL, 0, 0, "out of memory");
fail:
	{
		const char *round = a->round, *workload = a->workload;
		analysis_free(a);
		reset(a);
		a->round = round;
		a->workload = workload;
	}
	return -1;
}
