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
	memset(a, 0, sizeof *a);
}

/* ---- strings -------------------------------------------------------------------------- */

static const char *nz(const char *s)
{
	return s ? s : "";
}

static int fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* ASCII case-insensitive comparison: the same on every locale. */
static int ci_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)nz(a), *y = (const unsigned char *)nz(b);

	while (*x && fold(*x) == fold(*y)) {
		x++;
		y++;
	}
	return fold(*x) - fold(*y);
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
		if (ci_cmp(v, list[i]) == 0)
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

/* Sort keys are small and mostly integers so that a million rows sort in tens of
 * milliseconds: the first 8 bytes of a string packed big-endian compare like strcmp (or, case
 * folded, like ci_cmp) on those bytes, and the strings themselves are read only when the
 * prefixes are equal. Every order ends in system id, then dataset row. */
struct skey {
	double v;      /* numeric key, already negated for descending order */
	uint64_t p;    /* string key prefix (K_STR, K_GROUP) */
	uint64_t sp;   /* system id prefix */
	size_t pos;    /* index into the array being sorted */
};

enum kind { K_NUM, K_STR, K_GROUP };

struct sctx {
	enum kind kind;
	bool desc;                   /* K_STR only; K_NUM keys carry their direction */
	const struct dataset *ds;
	const struct arow *rows;     /* pos -> rows[pos].row, or */
	const size_t *idx;           /* pos -> idx[pos] */
	size_t field;                /* offsetof(struct row, <string>) for K_STR / K_GROUP */
	bool rank;                   /* sp holds arow.tie (unique), not a system id prefix */
};

static uint64_t prefix(const char *s, bool folded)
{
	uint64_t v = 0;
	size_t i = 0;

	for (s = nz(s); i < 8 && s[i]; i++)
		v |= (uint64_t)(unsigned char)(folded ? fold((unsigned char)s[i]) : s[i])
		     << (56 - 8 * i);
	return v;
}

static size_t row_of(const struct sctx *cx, size_t pos)
{
	return cx->rows ? cx->rows[pos].row : cx->idx[pos];
}

static const char *field_of(const struct sctx *cx, size_t pos)
{
	const struct row *r = &cx->ds->rows[row_of(cx, pos)];

	return nz(*(const char *const *)(const void *)((const char *)r + cx->field));
}

static inline int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* NAN last. */
static inline int cmp_num(double a, double b)
{
	bool na = isnan(a), nb = isnan(b);

	if (na || nb)
		return na - nb;
	return (a > b) - (a < b);
}

static inline int key_cmp(const struct skey *x, const struct skey *y, const struct sctx *cx)
{
	int c = 0;
	size_t rx, ry;

	switch (cx->kind) {
	case K_NUM:
		c = cmp_num(x->v, y->v);
		break;
	case K_STR:
		if (!(c = cmp_u64(x->p, y->p))) {
			const char *a = field_of(cx, x->pos), *b = field_of(cx, y->pos);
			if (!(c = ci_cmp(a, b)))
				c = strcmp(a, b);
		}
		if (cx->desc)
			c = -c;
		break;
	case K_GROUP:
		if (!(c = cmp_u64(x->p, y->p)))
			c = strcmp(field_of(cx, x->pos), field_of(cx, y->pos));
		break;
	}
	if (c)
		return c;
	if ((c = cmp_u64(x->sp, y->sp)) || cx->rank)
		return c;
	rx = row_of(cx, x->pos);
	ry = row_of(cx, y->pos);
	if ((c = strcmp(nz(cx->ds->rows[rx].system), nz(cx->ds->rows[ry].system))))
		return c;
	return (rx > ry) - (rx < ry);
}

/* Bottom-up merge sort: stable, O(n log n), and no context-less qsort callback. */
static void key_sort(struct skey *k, struct skey *tmp, size_t n, const struct sctx *cx)
{
	struct skey *src = k, *dst = tmp;

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
		struct skey *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof *k);
}

static void key_base(struct skey *k, uint64_t sys_key, size_t pos)
{
	k->v = 0;
	k->p = 0;
	k->sp = sys_key;
	k->pos = pos;
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

/* Numeric sorts (the default ranking and the Pareto sweep) are a stable LSD radix sort on
 * order_bits, fed in tie-rank order so equal keys keep the (system id, row) order. Merge
 * sort with its unpredictable branches took several times longer at 10^5 rows. Passes whose
 * byte is the same for every key are skipped. k[i].v holds the value, k[i].sp the tie rank
 * (a permutation of 0..n-1); on return k is sorted. */
static void radix_sort(struct skey *k, struct skey *tmp, size_t n, bool desc)
{
	struct skey *src = tmp, *dst = k;
	size_t cnt[256];

	for (size_t i = 0; i < n; i++) {
		tmp[k[i].sp] = k[i];
		tmp[k[i].sp].p = order_bits(k[i].v, desc);
	}
	for (int shift = 0; shift < 64; shift += 8) {
		memset(cnt, 0, sizeof cnt);
		for (size_t i = 0; i < n; i++)
			cnt[(src[i].p >> shift) & 0xff]++;
		if (n == 0 || cnt[(src[0].p >> shift) & 0xff] == n)
			continue;
		for (size_t b = 0, sum = 0; b < 256; b++) {
			size_t c = cnt[b];
			cnt[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i].p >> shift) & 0xff]++] = src[i];
		struct skey *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof *k);
}

/* Tie ranks: each shown row's place in (system id, dataset row) order, computed once per
 * run so that every later sort breaks ties with one integer comparison. */
static void tie_ranks(const struct dataset *ds, struct arow *rows, size_t n, struct skey *k,
		      struct skey *tmp)
{
	struct sctx cx = {.kind = K_NUM, .ds = ds, .rows = rows};

	for (size_t i = 0; i < n; i++)
		key_base(&k[i], prefix(ds->rows[rows[i].row].system, false), i);
	key_sort(k, tmp, n, &cx);
	for (size_t i = 0; i < n; i++)
		rows[k[i].pos].tie = i;
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

static void metrics(const struct dataset *ds, size_t row, size_t ref, struct arow *o)
{
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
 * every faster group: O(n log n). */
static size_t pareto(struct arow *rows, size_t n, struct skey *k, struct skey *tmp)
{
	double best = INFINITY;
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		key_base(&k[i], rows[i].tie, i);
		k[i].v = rows[i].T;
	}
	radix_sort(k, tmp, n, false);
	for (size_t g = 0; g < n;) {
		size_t e = g;
		double gmin = INFINITY;
		while (e < n && k[e].v == k[g].v) {
			double A = rows[k[e].pos].A;
			gmin = A < gmin ? A : gmin;
			e++;
		}
		for (size_t i = g; i < e; i++) {
			struct arow *r = &rows[k[i].pos];
			r->pareto = r->A == gmin && gmin < best;
			count += r->pareto;
		}
		if (gmin < best)
			best = gmin;
		g = e;
	}
	return count;
}

/* ---- clusters ------------------------------------------------------------------------- */

/* Features, each z-scored over the shown rows so that log2 N (range ~1..13) does not drown
 * E' (~0..30) or the other way round. A constant feature carries no information and would
 * divide by zero: it becomes all zeros (tested with min == max, since a rounded mean of equal
 * values need not equal them). */
static size_t features(const struct arow *rows, size_t n, enum feat_set fs, double *x)
{
	size_t d = fs == FEAT_N_EP_T ? 3 : 2;

	for (size_t i = 0; i < n; i++) {
		double *p = x + i * d;
		p[0] = log2(rows[i].N);
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
 * member, so "cluster a" is the smallest systems on every run. */
static void renumber(struct arow *rows, size_t n, const int *lab, int k)
{
	double sn[MAX_K] = {0}, se[MAX_K] = {0};
	size_t cnt[MAX_K] = {0}, first[MAX_K];
	int order[MAX_K], map[MAX_K];

	for (int c = 0; c < k; c++)
		first[c] = n;
	for (size_t i = 0; i < n; i++) {
		int c = lab[i];
		sn[c] += rows[i].N;
		se[c] += rows[i].Ep;
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
	for (int a = 1; a < k; a++) { /* insertion sort: k <= MAX_K */
		int v = order[a], b = a;
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
	for (size_t i = 0; i < n; i++)
		rows[i].cluster = map[lab[i]];
}

static void summarize(struct analysis *a)
{
	memset(a->clusters, 0, sizeof a->clusters);
	for (int c = 0; c < a->k; c++) {
		a->clusters[c].n_min = INFINITY;
		a->clusters[c].n_max = -INFINITY;
	}
	for (size_t i = 0; i < a->n; i++) {
		struct cluster_sum *s = &a->clusters[a->rows[i].cluster];
		s->n++;
		s->n_min = a->rows[i].N < s->n_min ? a->rows[i].N : s->n_min;
		s->n_max = a->rows[i].N > s->n_max ? a->rows[i].N : s->n_max;
		s->ep_mean += a->rows[i].Ep;
	}
	for (int c = 0; c < a->k; c++)
		if (a->clusters[c].n)
			a->clusters[c].ep_mean /= (double)a->clusters[c].n;
	for (size_t i = 0; i < a->n; i++) {
		struct cluster_sum *s = &a->clusters[a->rows[i].cluster];
		double t = a->rows[i].Ep - s->ep_mean;
		s->ep_sd += t * t;
	}
	for (int c = 0; c < a->k; c++) {
		struct cluster_sum *s = &a->clusters[c];
		if (s->n)
			s->ep_sd = sqrt(s->ep_sd / (double)s->n);
		else
			s->n_min = s->n_max = s->ep_mean = s->ep_sd = NAN;
	}
}

static int cluster(struct analysis *a, const struct params *p, struct gs_err *err)
{
	double *x;
	int *lab;
	struct kmeans_result res;
	int rc, k = p->k;
	enum feat_set fs = (unsigned)p->feats < FEAT_COUNT ? p->feats : FEAT_N_EP;

	a->k = 0;
	a->inertia = 0;
	a->silhouette = NAN;
	if (a->n == 0)
		return 0;
	x = malloc(a->n * 3 * sizeof *x);
	lab = malloc(a->n * sizeof *lab);
	if (!x || !lab) {
		free(x);
		free(lab);
		err_set(err, NULL, 0, 0, "out of memory");
		return -1;
	}
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
		renumber(a->rows, a->n, lab, res.k);
		summarize(a);
	} else {
		err_set(err, NULL, 0, 0, "out of memory");
	}
	free(x);
	free(lab);
	return rc;
}

/* ---- ranking -------------------------------------------------------------------------- */

static void sort_keys(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		      struct skey *k, struct skey *tmp)
{
	struct sctx cx = {.kind = K_NUM, .desc = desc, .ds = ds, .rows = a->rows, .rank = true};

	switch (col) {
	case COL_SYSTEM: cx.field = offsetof(struct row, system); cx.kind = K_STR; break;
	case COL_SUBMITTER: cx.field = offsetof(struct row, submitter); cx.kind = K_STR; break;
	case COL_FAMILY: cx.field = offsetof(struct row, family); cx.kind = K_STR; break;
	default: break;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *r = &a->rows[i];
		double v;
		key_base(&k[i], r->tie, i);
		switch (col) {
		case COL_S: v = r->S; break;
		case COL_E: v = r->E; break;
		case COL_T: v = r->T; break;
		case COL_A: v = r->A; break;
		case COL_N: v = r->N; break;
		case COL_CLUSTER: v = r->cluster; break;
		case COL_PARETO: v = r->pareto; break;
		case COL_SPREAD: v = (r->t_hi - r->t_lo) / r->T; break;
		case COL_SYSTEM:
		case COL_SUBMITTER:
		case COL_FAMILY:
			v = 0;
			k[i].p = prefix(field_of(&cx, i), true);
			break;
		default: v = r->Ep; break;
		}
		k[i].v = v;
	}
	if (cx.kind == K_NUM)
		radix_sort(k, tmp, a->n, desc);
	else
		key_sort(k, tmp, a->n, &cx);
}

/* Sorts with caller-provided key space (2 * n keys) and a row buffer of n, which becomes
 * a->rows; the previous row buffer is returned for the caller to free or reuse. The
 * break-even index follows its row. */
static struct arow *sort_with(const struct dataset *ds, struct analysis *a, enum col col,
			      bool desc, struct skey *keys, struct arow *out)
{
	size_t be_row = a->breakeven >= 0 ? a->rows[a->breakeven].row : SIZE_MAX;
	struct arow *old = a->rows;

	sort_keys(ds, a, col, desc, keys, keys + a->n);
	a->breakeven = -1;
	for (size_t i = 0; i < a->n; i++) {
		out[i] = old[keys[i].pos];
		if (out[i].row == be_row)
			a->breakeven = (long)i;
	}
	a->rows = out;
	return old;
}

void analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc)
{
	struct skey *keys;
	struct arow *out;

	if (a->n < 2)
		return;
	keys = malloc(2 * a->n * sizeof *keys);
	out = malloc(a->n * sizeof *out);
	/* Out of memory leaves the previous order, which is still a valid table. */
	if (keys && out)
		out = sort_with(ds, a, col, desc, keys, out);
	free(keys);
	free(out);
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
	const char *names[64];
	size_t nr = dataset_rounds(ds, names, 64);
	char list[400];

	if (!want)
		return nr ? names[0] : NULL;
	for (size_t i = 0; i < nr; i++)
		if (strcmp(names[i], want) == 0)
			return names[i];
	for (size_t i = 0; i < nr; i++)
		if (ci_cmp(names[i], want) == 0)
			return names[i];
	list_names(list, sizeof list, names, nr);
	err_set(err, NULL, 0, 0, "unknown round '%s' (loaded: %s)", want, nr ? list : "none");
	return NULL;
}

static const char *resolve_workload(const struct dataset *ds, const char *round, const char *want,
				    struct gs_err *err)
{
	const char *names[64];
	size_t nw = dataset_workloads(ds, round, names, 64);
	char list[400];

	if (!want) {
		if (!nw)
			err_set(err, NULL, 0, 0, "round %s has no results", round);
		return nw ? names[0] : NULL;
	}
	for (size_t i = 0; i < nw; i++)
		if (strcmp(names[i], want) == 0)
			return names[i];
	for (size_t i = 0; i < nw; i++)
		if (ci_cmp(names[i], want) == 0 || ci_cmp(workload_label(names[i]), want) == 0)
			return names[i];
	list_names(list, sizeof list, names, nw);
	err_set(err, NULL, 0, 0, "unknown workload '%s' in round %s (valid: %s)", want, round,
		nw ? list : "none");
	return NULL;
}

/* Paper-rule reference of each family: grouped by family (exact text), then the best row of
 * each group by the rule. ref[i] receives the reference of shown[i]. */
static void family_refs(const struct dataset *ds, const size_t *shown, size_t n, size_t *ref,
			struct skey *k, struct skey *tmp)
{
	struct sctx cx = {.kind = K_GROUP, .ds = ds, .idx = shown,
			  .field = offsetof(struct row, family)};

	for (size_t i = 0; i < n; i++) {
		key_base(&k[i], prefix(ds->rows[shown[i]].system, false), i);
		k[i].p = prefix(ds->rows[shown[i]].family, false);
	}
	key_sort(k, tmp, n, &cx);
	for (size_t g = 0; g < n;) {
		size_t e = g + 1, best = shown[k[g].pos];
		while (e < n && same(ds->rows[shown[k[e].pos]].family, ds->rows[best].family)) {
			if (ref_better(ds, shown[k[e].pos], best))
				best = shown[k[e].pos];
			e++;
		}
		for (size_t i = g; i < e; i++)
			ref[k[i].pos] = best;
		g = e;
	}
}

int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err)
{
	size_t *shown = NULL, *refs = NULL, ns = 0, total = 0;
	struct skey *keys = NULL;
	struct arow *tmp = NULL;
	long pinned = -1, pinned_exact = -1;
	int rc = -1;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;

	analysis_free(a);
	a->ref = -1;
	a->breakeven = -1;
	a->silhouette = NAN;
	if (!(a->round = resolve_round(ds, p->round, err))) {
		if (!p->round)
			err_set(err, NULL, 0, 0, "no results loaded");
		return -1;
	}
	if (!(a->workload = resolve_workload(ds, a->round, p->workload, err)))
		return -1;

	for (size_t i = 0; i < ds->n; i++)
		total += same(ds->rows[i].round, a->round) && same(ds->rows[i].benchmark, a->workload);
	a->total = total;
	shown = malloc((total ? total : 1) * sizeof *shown);
	refs = malloc((total ? total : 1) * sizeof *refs);
	if (!shown || !refs)
		goto oom;
	if (mode == REF_PINNED && (!p->pinned || !*p->pinned))
		mode = REF_PAPER; /* nothing pinned yet: the paper rule */
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (!same(r->round, a->round) || !same(r->benchmark, a->workload))
			continue;
		if (mode == REF_PINNED) {
			if (pinned_exact < 0 && strcmp(nz(r->system), p->pinned) == 0)
				pinned_exact = (long)i;
			if (pinned < 0 && ci_cmp(r->system, p->pinned) == 0)
				pinned = (long)i;
		}
		if (filter_pass(&p->filter, r))
			shown[ns++] = i;
	}
	if (pinned_exact >= 0) /* an exact id wins over a case-insensitive one */
		pinned = pinned_exact;
	if (mode == REF_PINNED && pinned < 0) {
		err_set(err, NULL, 0, 0, "unknown reference system '%s' for %s %s", p->pinned,
			a->round, a->workload);
		goto fail;
	}

	keys = malloc(2 * (ns ? ns : 1) * sizeof *keys);
	tmp = malloc((ns ? ns : 1) * sizeof *tmp);
	a->rows = malloc((ns ? ns : 1) * sizeof *a->rows);
	if (!keys || !tmp || !a->rows)
		goto oom;
	a->n = ns;

	if (mode == REF_PINNED) {
		a->ref = pinned;
		a->ref_hidden = true;
		for (size_t i = 0; i < ns; i++) {
			refs[i] = (size_t)pinned;
			if (shown[i] == (size_t)pinned)
				a->ref_hidden = false;
		}
	} else if (mode == REF_FAMILY) {
		family_refs(ds, shown, ns, refs, keys, keys + ns);
	} else if (ns) {
		size_t best = shown[0];
		for (size_t i = 1; i < ns; i++)
			if (ref_better(ds, shown[i], best))
				best = shown[i];
		a->ref = (long)best;
		for (size_t i = 0; i < ns; i++)
			refs[i] = best;
	}

	for (size_t i = 0; i < ns; i++)
		metrics(ds, shown[i], refs[i], &a->rows[i]);
	tie_ranks(ds, a->rows, ns, keys, keys + ns);
	a->npareto = pareto(a->rows, ns, keys, keys + ns);

	/* Break-even: the fastest row still at E' >= theta (ties: system id, then row). */
	for (size_t i = 0; i < ns; i++) {
		const struct arow *r = &a->rows[i];
		if (!(r->Ep >= p->theta))
			continue;
		if (a->breakeven < 0) {
			a->breakeven = (long)i;
			continue;
		}
		const struct arow *b = &a->rows[a->breakeven];
		int c = r->T < b->T ? -1 : r->T > b->T ? 1 : 0;
		if (!c)
			c = strcmp(nz(ds->rows[r->row].system), nz(ds->rows[b->row].system));
		if (c < 0 || (c == 0 && r->row < b->row))
			a->breakeven = (long)i;
	}

	if (cluster(a, p, err) < 0)
		goto fail;
	tmp = sort_with(ds, a, (unsigned)p->sort < COL_COUNT ? p->sort : COL_EP, p->desc, keys,
			tmp);
	rc = 0;
	goto done;
oom:
	err_set(err, NULL, 0, 0, "out of memory");
fail:
	{
		const char *round = a->round, *workload = a->workload;
		analysis_free(a);
		a->round = round;
		a->workload = workload;
		a->ref = -1;
		a->breakeven = -1;
		a->silhouette = NAN;
	}
done:
	free(shown);
	free(refs);
	free(keys);
	free(tmp);
	return rc;
}
