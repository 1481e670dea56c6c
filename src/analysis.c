/* analysis.c: one round x workload under filters: reference, speedup, E', Karp-Flatt, spread,
 * Pareto frontier, break-even, k-means clusters and ranking. No terminal here.
 *
 * Every ordering in this file ends in an explicit tie-break (system id, submitter, dataset row), so
 * qsort, unstable as it is, gives the same order with every libc. String comparisons that users
 * see as case-insensitive use ASCII folding, not the locale, for the same reason. */
#include "analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmeans.h"
#include "olympic.h"

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
	p->ref_rule = RULE_SLOWEST;
	p->collapse = true;
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
	static const char *const names[MET_COUNT] = {"E'", "S", "T", "A", "E", "kWh", "cost"};

	return (unsigned)m < MET_COUNT ? names[m] : "?";
}

const char *col_name(enum col c)
{
	static const char *const names[COL_COUNT] = {
		[COL_EP] = "E'", [COL_S] = "S", [COL_E] = "E", [COL_T] = "min", [COL_A] = "A",
		[COL_N] = "N", [COL_SYSTEM] = "system", [COL_SUBMITTER] = "submitter",
		[COL_FAMILY] = "fam", [COL_CLUSTER] = "cl", [COL_PARETO] = "P",
		[COL_SPREAD] = "spread", [COL_KWH] = "kWh", [COL_COST] = "cost",
		[COL_ROUND] = "round", [COL_DIV] = "div",
	};

	return (unsigned)c < COL_COUNT ? names[c] : "?";
}

const char *ref_rule_name(enum ref_rule r)
{
	static const char *const names[RULE_COUNT] = {"slowest", "median", "fastest"};

	return (unsigned)r < RULE_COUNT ? names[r] : "?";
}

const char *kf_why_text(enum kf_why w)
{
	switch (w) {
	case KF_OK: return "";
	case KF_NOT_LARGER: return "no larger than the reference (p <= 1)";
	case KF_SUPERLINEAR: return "superlinear (S > p): no serial fraction";
	case KF_CROSS_FAMILY: return "reference of another family";
	default: return "?";
	}
}

const char *er_why_text(enum er_why w)
{
	switch (w) {
	case ER_OK: return "";
	case ER_NO_ENERGY: return "no energy measured for this row";
	case ER_REF_NO_ENERGY: return "the reference has no energy measured";
	default: return "?";
	}
}

double arow_cost(const struct arow *r)
{
	return (r->cost_lo + r->cost_hi) / 2;
}

double arow_metric(const struct arow *r, enum metric m)
{
	switch (m) {
	case MET_EP: return r->Ep;
	case MET_S: return r->S;
	case MET_T: return r->T;
	case MET_A: return r->A;
	case MET_E: return r->E;
	case MET_KWH: return r->kwh;
	case MET_COST: return arow_cost(r);
	default: return NAN;
	}
}

void analysis_free(struct analysis *a)
{
	free(a->rows);
	free(a->fits);
	free(a->cand);
	free(a->memo);
	free(a->bref);
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

/* ---- ordering ------------------------------------------------------------------------ */

/* Every ordering in this file is total: its own key, then the system id, then the dataset row.
 * Ranking then needs no stable sort: qsort with these comparators gives one order. */

/* -1, 0, 1 for doubles, NAN after every number whatever the direction. */
static int cmp_num(double x, double y, int dir)
{
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return dir * ((x > y) - (x < y));
}

/* The final tie-break of every ordering: the system id, then the submitter (one id can have
 * several: the order must not come from the file), then the dataset row. */
static int cmp_tie(const struct row *a, size_t ia, const struct row *b, size_t ib)
{
	int c = strcmp(nz(a->system), nz(b->system));

	if (!c)
		c = strcmp(nz(a->submitter), nz(b->submitter));
	if (c)
		return c;
	return (ia > ib) - (ia < ib);
}

/* One shown row as a sort item: its key, by value, so the comparator needs no context. */
struct skey {
	double v;              /* numeric key */
	const char *s;         /* text key, or NULL for a numeric column */
	const struct row *r;   /* for the tie-break */
	size_t row;            /* dataset row */
	size_t i;              /* index into the shown rows */
	int dir;               /* 1 ascending, -1 descending */
};

/* Text columns compare case-insensitively (ASCII), then exactly; numbers with NAN last. */
static int skey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c;

	if (a->s) {
		if (!(c = ascii_casecmp(a->s, b->s)))
			c = strcmp(a->s, b->s);
		c *= a->dir;
	} else {
		c = cmp_num(a->v, b->v, a->dir);
	}
	return c ? c : cmp_tie(a->r, a->row, b->r, b->row);
}

/* ---- reference ------------------------------------------------------------------------ */

/* The reference of a group of shown rows g[n] (dataset rows) by the rule: among the rows with
 * the fewest accelerators (the candidates), ordered slowest first (ties: system id, dataset
 * row), the first (slowest, the paper's), the middle (median; of an even count the faster of
 * the two middle ones) or the last (fastest). The candidates are left in c[0..return) in that
 * order; c has room for n. */
static size_t pick_ref(const struct dataset *ds, const size_t *g, size_t n, enum ref_rule rule,
		       struct skey *c, size_t *ref)
{
	long long nmin = 0;
	size_t nc = 0;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || ds->rows[g[i]].accelerators < nmin)
			nmin = ds->rows[g[i]].accelerators;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[g[i]];
		if (r->accelerators == nmin)
			c[nc++] = (struct skey){ .v = r->minutes, .r = r, .row = g[i], .dir = -1 };
	}
	qsort(c, nc, sizeof *c, skey_cmp);
	if (nc)
		*ref = c[rule == RULE_FASTEST ? nc - 1 : rule == RULE_MEDIAN ? nc / 2 : 0].row;
	return nc;
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
	o->cross_family = !same(r->family, f->family);
	/* Karp-Flatt's serial fraction means something only for more of the same hardware doing
	 * worse than linear: blank, with the reason, otherwise. */
	o->kf = NAN;
	if (!(p > 1))
		o->kf_why = KF_NOT_LARGER;
	else if (o->cross_family)
		o->kf_why = KF_CROSS_FAMILY;
	else if (o->S > p)
		o->kf_why = KF_SUPERLINEAR;
	else
		o->kf = (1 / o->S - 1 / p) / (1 - 1 / p);
	o->t_ci_lo = o->t_ci_hi = o->s_ci_lo = o->s_ci_hi = NAN;
	o->ep_ci_lo = o->ep_ci_hi = o->a_ci_lo = o->a_ci_hi = NAN;
	o->energy_ratio = NAN;
	o->ep_fit = o->fit_resid = NAN;
	/* energy: kWh, and a ratio only when both sides were measured */
	o->kwh = r->energy_j / 3.6e6;
	o->er_why = isnan(r->energy_j) ? ER_NO_ENERGY : isnan(f->energy_j) ? ER_REF_NO_ENERGY : ER_OK;
	if (o->er_why == ER_OK)
		o->energy_ratio = r->energy_j / f->energy_j;
	o->cost_lo = o->A * r->price_lo; /* NAN without a price */
	o->cost_hi = o->A * r->price_hi;

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

/* ---- run-to-run intervals ------------------------------------------------------------- */

/* The 90% bootstrap interval of DESIGN.md: B resamples of a row's scored runs (with
 * replacement, same count), each scored by the official rule (olympic window with the row's
 * failed runs, times the scaling factor). Each row draws from its own splitmix64 stream seeded
 * by its identity (round, benchmark, submitter, system), so the numbers depend on neither the
 * row order nor the machine; tests/tools/boot_ref.py replays the same draws. */
#define BOOT_B 1000
#define BOOT_SEED UINT64_C(0x626f6f7473747261) /* "bootstra" in ASCII */
#define BOOT_MIN_RUNS 3
/* Up to this many shown rows every interval is drawn in the run (~20 us a row); above it, on
 * demand: 10^5 rows would take seconds. */
#define BOOT_EAGER 2048

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (s = nz(s);; s++) {
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		if (!*s)
			return h;
	}
}

static uint64_t boot_seed(const struct row *r)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	h = fnv1a(h, r->round);
	h = fnv1a(h, r->benchmark);
	h = fnv1a(h, r->submitter);
	h = fnv1a(h, r->system);
	return h ^ BOOT_SEED;
}

/* Fills t[BOOT_B] with the row's resampled official times in draw order; s[run_n] is scratch.
 * Returns 0, or -1 when the row has no interval (fewer than 3 runs, or no olympic window). */
static int boot_draws(const struct dataset *ds, const struct row *r, double *t, double *s)
{
	size_t k = r->run_n, lo, hi;
	size_t d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;
	double sf = r->scaling_factor > 0 && isfinite(r->scaling_factor) ? r->scaling_factor : 1;
	struct rng g;

	if (k < BOOT_MIN_RUNS || !ds->runs || r->run_off + k > ds->nruns ||
	    olympic_window(k, d, olympic_limit(nz(r->benchmark)), &lo, &hi) != 0)
		return -1;
	const double *run = ds->runs + r->run_off;
	size_t *rank = malloc(2 * k * sizeof *rank), *cnt = rank + k;
	if (!rank)
		return -1;
	/* A resample, sorted, is each run repeated as often as it was drawn, in order of value:
	 * counting the draws by the run's rank gives the sorted resample in O(k), the same values
	 * in the same order (so the same sum) as sorting it. s receives the runs sorted. */
	for (size_t i = 0; i < k; i++) {
		size_t at = 0;
		for (size_t j = 0; j < k; j++)
			at += run[j] < run[i] || (run[j] == run[i] && j < i);
		rank[i] = at;
		s[at] = run[i];
	}
	rng_seed(&g, boot_seed(r));
	for (size_t b = 0; b < BOOT_B; b++) {
		memset(cnt, 0, k * sizeof *cnt);
		for (size_t j = 0; j < k; j++) {
			/* the high 32 bits scaled to [0, k): no modulo bias worth the name */
			size_t at = (size_t)(((rng_next(&g) >> 32) * (uint64_t)k) >> 32);
			cnt[rank[at]]++;
		}
		double sum = 0;
		for (size_t v = 0, pos = 0; v < k && pos < hi; v++)
			for (size_t c = 0; c < cnt[v] && pos < hi; c++, pos++)
				if (pos >= lo)
					sum += s[v];
		t[b] = sum / (double)(hi - lo) * sf;
	}
	free(rank);
	return 0;
}

/* Moves the k-th smallest of x[0..n) to x[k], smaller or equal values before it, greater or
 * equal after (Hoare's selection, middle pivot): the two percentiles need four order
 * statistics, not a sort of 1000 values (a sort per row made a change of reference 10x
 * slower). */
static void select_k(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				double t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				if (j-- == 0)
					break;
			}
		}
		if (k <= j && j < hi)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		m = x[i] < m ? x[i] : m;
	return m;
}

/* Percentiles 5 and 95 of x[BOOT_B] (reordered): linear interpolation between closest ranks
 * (numpy's default), so an independent computation can match them exactly. */
static void boot_pct(double *x, double *p5, double *p95)
{
	double h95 = (BOOT_B - 1) * 0.95, h5 = (BOOT_B - 1) * 0.05;
	size_t i95 = (size_t)floor(h95), i5 = (size_t)floor(h5);

	/* 95 first; then 5 selects among the values left below it */
	select_k(x, BOOT_B, i95);
	double a = x[i95], b = min_of(x + i95 + 1, BOOT_B - i95 - 1);
	*p95 = a + (h95 - (double)i95) * (b - a);
	select_k(x, i95, i5);
	a = x[i5];
	b = min_of(x + i5 + 1, i95 - i5 - 1);
	*p5 = a + (h5 - (double)i5) * (b - a);
}

/* Bootstrap times of one reference, kept for the run: a family mode run has one per family. */
struct boot_ref {
	size_t row;
	bool has;                          /* false: fewer than 3 runs, its official T is used */
	double t[BOOT_B];
};

/* Per dataset row, what the last runs computed: intervals of T (its own) and of S (paired with
 * the reference ref_of). Valid while the dataset is the same. */
struct boot_memo {
	size_t ref_of;                     /* SIZE_MAX: not computed */
	bool has;
	double t_lo, t_hi, s_lo, s_hi;
};

static int boot_memo_ready(const struct dataset *ds, struct analysis *a)
{
	if (a->memo && a->memo_ds == ds && a->memo_rows == ds->rows && a->memo_n == ds->n)
		return 0;
	free(a->memo);
	a->memo = malloc((ds->n ? ds->n : 1) * sizeof *a->memo);
	if (!a->memo)
		return -1;
	for (size_t i = 0; i < ds->n; i++)
		a->memo[i].ref_of = SIZE_MAX;
	a->memo_ds = ds;
	a->memo_rows = ds->rows;
	a->memo_n = ds->n;
	return 0;
}

/* The resamples of reference row ref, drawn once per run; NULL when out of memory. */
static const struct boot_ref *boot_ref_get(const struct dataset *ds, struct analysis *a,
					   size_t ref, double *s)
{
	for (size_t i = 0; i < a->nbref; i++)
		if (a->bref[i].row == ref)
			return &a->bref[i];
	if (a->nbref == a->bref_cap) {
		size_t nc = a->bref_cap ? 2 * a->bref_cap : 4;
		struct boot_ref *p = realloc(a->bref, nc * sizeof *p);
		if (!p)
			return NULL;
		a->bref = p;
		a->bref_cap = nc;
	}
	struct boot_ref *b = &a->bref[a->nbref++];
	b->row = ref;
	b->has = boot_draws(ds, &ds->rows[ref], b->t, s) == 0;
	return b;
}

/* Whether row r can have an interval (the test boot_draws makes before drawing). */
static bool boot_ok(const struct dataset *ds, const struct row *r)
{
	size_t lo, hi, d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;

	return r->run_n >= BOOT_MIN_RUNS && ds->runs && r->run_off + r->run_n <= ds->nruns &&
	       olympic_window(r->run_n, d, olympic_limit(nz(r->benchmark)), &lo, &hi) == 0;
}

/* Intervals of T, S, E', A of shown row i. E' pairs the row's b-th resample with the
 * reference's b-th (independent streams); the reference paired with itself gives S = 1 in
 * every resample, so its E' interval is exactly [1, 1]. A reference with fewer than 3 runs
 * counts as exact (its official T). Rows keep their intervals between runs while their
 * reference stays the same, so recomputes after theta, k or sort changes draw nothing. */
static int interval_row(const struct dataset *ds, struct analysis *a, size_t i)
{
	struct arow *o = &a->rows[i];
	struct boot_memo *m;
	const struct row *r = &ds->rows[o->row], *fr = &ds->rows[o->ref];

	if (o->ci_done)
		return 0;
	if (boot_memo_ready(ds, a) < 0)
		return -1;
	m = &a->memo[o->row];
	if (m->ref_of != o->ref) {
		m->has = boot_ok(ds, r);
		if (m->has) {
			size_t k = r->run_n > fr->run_n ? r->run_n : fr->run_n;
			double *t = malloc(2 * BOOT_B * sizeof *t), *s = malloc(k * sizeof *s);
			const struct boot_ref *br = NULL;
			if (!t || !s || boot_draws(ds, r, t, s) < 0 ||
			    !(br = boot_ref_get(ds, a, o->ref, s))) {
				free(t);
				free(s);
				return -1;
			}
			double *q = t + BOOT_B;
			for (size_t b = 0; b < BOOT_B; b++)
				q[b] = (o->row == o->ref ? t[b] : br->has ? br->t[b] : fr->minutes) / t[b];
			boot_pct(t, &m->t_lo, &m->t_hi);
			boot_pct(q, &m->s_lo, &m->s_hi);
			free(t);
			free(s);
		}
		m->ref_of = o->ref;
	}
	o->ci_done = true;
	if (!m->has)
		return 0;
	double Nr = (double)fr->accelerators;
	o->ci_runs = r->run_n;
	o->t_ci_lo = m->t_lo;
	o->t_ci_hi = m->t_hi;
	o->a_ci_lo = o->N * m->t_lo / 60;
	o->a_ci_hi = o->N * m->t_hi / 60;
	o->s_ci_lo = m->s_lo;
	o->s_ci_hi = m->s_hi;
	o->ep_ci_lo = m->s_lo * Nr / o->N;
	o->ep_ci_hi = m->s_hi * Nr / o->N;
	return 0;
}

int analysis_intervals(const struct dataset *ds, struct analysis *a, size_t from, size_t to,
		       struct gs_err *err)
{
	for (size_t i = from; i < to && i < a->n; i++)
		if (interval_row(ds, a, i) < 0) {
			err_set(err, NULL, 0, 0, "out of memory");
			return -1;
		}
	return 0;
}

/* Bounds of row o's E' resamples without drawing them: every resampled score lies between the
 * row's fastest and slowest scaled run (an average of some of them), and so does the
 * reference's. False when the row can have no interval. */
static bool ep_bounds(const struct dataset *ds, const struct arow *o, double *lo, double *hi)
{
	const struct row *fr = &ds->rows[o->ref];
	double rlo = fr->minutes, rhi = fr->minutes, Nr = (double)fr->accelerators;

	if (!boot_ok(ds, &ds->rows[o->row]))
		return false;
	if (o->row == o->ref) {
		*lo = *hi = 1;
		return true;
	}
	if (boot_ok(ds, fr)) {
		const double *run = ds->runs + fr->run_off;
		double sf = fr->scaling_factor > 0 && isfinite(fr->scaling_factor) ? fr->scaling_factor : 1;
		rlo = run[0] * sf;
		rhi = run[0] * sf;
		for (unsigned j = 1; j < fr->run_n; j++) {
			rlo = run[j] * sf < rlo ? run[j] * sf : rlo;
			rhi = run[j] * sf > rhi ? run[j] * sf : rhi;
		}
	}
	/* a relative margin far above rounding: the bounds only decide when to draw */
	*lo = rlo / o->t_hi * Nr / o->N * (1 - 1e-9);
	*hi = rhi / o->t_lo * Nr / o->N * (1 + 1e-9);
	return true;
}

/* Whether shown row i counts for the firm and loose break-even at theta: its interval wholly at
 * or above theta, or reaching it (a row without interval: its E'). Draws only when the bounds
 * leave it open. */
static int range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta,
		      bool *firm, bool *loose)
{
	const struct arow *o = &a->rows[i];
	double lo, hi;

	if (!o->ci_done) {
		if (!ep_bounds(ds, o, &lo, &hi)) {
			*firm = *loose = o->Ep >= theta;
			return 0;
		}
		if (lo >= theta) {
			*firm = *loose = true;
			return 0;
		}
		if (hi < theta) {
			*firm = *loose = false;
			return 0;
		}
		if (interval_row(ds, a, i) < 0)
			return -1;
	}
	bool ci = !isnan(o->ep_ci_lo);
	*firm = (ci ? o->ep_ci_lo : o->Ep) >= theta;
	*loose = (ci ? o->ep_ci_hi : o->Ep) >= theta;
	return 0;
}

/* ---- Pareto --------------------------------------------------------------------------- */

/* (T, cost axis) of one shown row, for the frontier sweep. */
struct pkey {
	double t, a;
	size_t i;
};

static int pkey_cmp(const void *pa, const void *pb)
{
	const struct pkey *x = pa, *y = pb;
	int c = cmp_num(x->t, y->t, 1);

	return c ? c : cmp_num(x->a, y->a, 1);
}

/* A row is on the frontier when no row has T and A (or, with cost, the mid-range cost to train)
 * both <= and one <. In order of (T, A), a
 * row survives when its A is the least of its equal-T group and beats, strictly, the least A
 * of every faster group: O(n log n). Rows with NAN T or A never qualify. Sets rows[].pareto
 * and returns how many are on it; k[n] is scratch. */
static size_t pareto(struct arow *rows, size_t n, bool cost, struct pkey *k)
{
	double best = INFINITY;
	size_t on = 0;

	for (size_t i = 0; i < n; i++) {
		k[i] = (struct pkey){ .t = rows[i].T, .a = cost ? arow_cost(&rows[i]) : rows[i].A, .i = i };
		rows[i].pareto = false;
	}
	qsort(k, n, sizeof *k, pkey_cmp);
	for (size_t g = 0; g < n;) {
		size_t e = g + 1;
		while (e < n && k[e].t == k[g].t)
			e++;
		double gmin = k[g].a; /* the group's least: sorted by A within T */
		if (gmin < best) {
			best = gmin;
			for (size_t j = g; j < e && k[j].a == gmin; j++) {
				rows[k[j].i].pareto = true;
				on++;
			}
		}
		g = e;
	}
	return on;
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

/* Clusters the shown rows in their current order. */
static int cluster(struct analysis *a, const struct params *p, struct gs_err *err)
{
	struct kmeans_result res;
	int rc, k = p->k;
	enum feat_set fs = (unsigned)p->feats < FEAT_COUNT ? p->feats : FEAT_N_EP;

	a->k = 0;
	a->inertia = 0;
	a->silhouette = NAN;
	if (a->n == 0)
		return 0;
	double *x = malloc(a->n * 3 * sizeof *x);
	int *lab = malloc(a->n * sizeof *lab);
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
		renumber(a, lab, res.k);
	} else {
		err_set(err, NULL, 0, 0, "out of memory");
	}
	free(x);
	free(lab);
	return rc;
}

/* ---- ranking -------------------------------------------------------------------------- */

static const char *col_text(const struct row *r, enum col col)
{
	switch (col) {
	case COL_SYSTEM: return nz(r->system);
	case COL_SUBMITTER: return nz(r->submitter);
	case COL_FAMILY: return nz(r->family);
	case COL_ROUND: return nz(r->round);
	case COL_DIV: return nz(r->division);
	default: return NULL;
	}
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
	case COL_KWH: return r->kwh;
	case COL_COST: return arow_cost(r);
	default: return r->Ep;
	}
}

/* Where a row index goes when the rows are reordered: k[j].i moves to place j. */
static long follow(const struct skey *k, size_t n, long at)
{
	for (size_t j = 0; at >= 0 && j < n; j++)
		if (k[j].i == (size_t)at)
			return (long)j;
	return at;
}

int analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		  struct gs_err *err)
{
	size_t n = a->n;

	if (n < 2)
		return 0;
	struct skey *k = malloc(n * sizeof *k);
	if (!k) {
		err_set(err, NULL, 0, 0, "out of memory");
		return -1;
	}
	col = (unsigned)col < COL_COUNT ? col : COL_EP;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		k[i] = (struct skey){ .s = col_text(r, col), .r = r, .row = a->rows[i].row, .i = i,
				      .dir = desc ? -1 : 1 };
		if (!k[i].s)
			k[i].v = col_value(&a->rows[i], col);
	}
	qsort(k, n, sizeof *k, skey_cmp);
	a->breakeven = follow(k, n, a->breakeven); /* the indices follow their rows */
	a->be_firm = follow(k, n, a->be_firm);
	a->be_loose = follow(k, n, a->be_loose);
	/* place j takes row k[j].i: each cycle of the permutation is walked once with one row in
	 * hand, in place (a second array of 10^5 rows costs more in page faults than the moves) */
	for (size_t i = 0; i < n; i++) {
		if (k[i].i == i)
			continue;
		struct arow hold = a->rows[i];
		size_t j = i;
		for (;;) {
			size_t from = k[j].i;
			k[j].i = j;
			if (from == i) {
				a->rows[j] = hold;
				break;
			}
			a->rows[j] = a->rows[from];
			j = from;
		}
	}
	free(k);
	return 0;
}

/* ---- break-even ----------------------------------------------------------------------- */

/* Shown rows by (T, system id, dataset row): the order every break-even takes "fastest" in. */
static int tkey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = cmp_num(a->v, b->v, 1);

	return c ? c : cmp_tie(a->r, a->row, b->r, b->row);
}

/* The family's entry of a->fam, added in name order when new (NULL when the list is full). */
static struct fam_be *fam_entry(const struct dataset *ds, struct analysis *a, size_t ref)
{
	const char *f = nz(ds->rows[ref].family);
	size_t i = 0;

	for (; i < a->nfam; i++) {
		int c = strcmp(a->fam[i].family, f);
		if (c == 0)
			return &a->fam[i];
		if (c > 0)
			break;
	}
	if (a->nfam == MAX_FAM_BE)
		return NULL;
	memmove(&a->fam[i + 1], &a->fam[i], (a->nfam - i) * sizeof *a->fam);
	a->nfam++;
	a->fam[i] = (struct fam_be){ .family = f, .ref = ref, .n = -1, .firm = -1, .loose = -1 };
	return &a->fam[i];
}

int analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta,
		       struct gs_err *err)
{
	size_t n = a->n;
	struct skey *k = malloc((n ? n : 1) * sizeof *k);

	a->breakeven = a->be_firm = a->be_loose = -1;
	a->sens_lo = a->sens_hi = -1;
	a->nfam = 0;
	a->ncross = 0;
	a->cross_row_fam = a->cross_ref_fam = NULL;
	if (!k) {
		err_set(err, NULL, 0, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		k[i] = (struct skey){ .v = a->rows[i].T, .r = r, .row = a->rows[i].row, .i = i };
	}
	qsort(k, n, sizeof *k, tkey_cmp);
	for (size_t j = 0; j < n; j++) {
		const struct arow *o = &a->rows[k[j].i];
		struct fam_be *f = a->mode == REF_FAMILY ? fam_entry(ds, a, o->ref) : NULL;
		bool firm = false, loose = false;
		/* the scan draws intervals only for rows that can still decide a range */
		bool need = a->be_firm < 0 || a->be_loose < 0 || (f && (f->firm < 0 || f->loose < 0));
		if (need && range_test(ds, a, k[j].i, theta, &firm, &loose) < 0) {
			free(k);
			err_set(err, NULL, 0, 0, "out of memory");
			return -1;
		}
		if (a->breakeven < 0 && o->Ep >= theta)
			a->breakeven = (long)k[j].i;
		if (a->be_firm < 0 && firm)
			a->be_firm = (long)k[j].i;
		if (a->be_loose < 0 && loose)
			a->be_loose = (long)k[j].i;
		if (o->cross_family && a->ncross++ == 0) {
			a->cross_row_fam = nz(ds->rows[o->row].family);
			a->cross_ref_fam = nz(ds->rows[o->ref].family);
		}
		if (f) {
			if (f->n < 0 && o->Ep >= theta)
				f->n = (long)o->N;
			if (f->firm < 0 && firm)
				f->firm = (long)o->N;
			if (f->loose < 0 && loose)
				f->loose = (long)o->N;
		}
	}
	/* Reference sensitivity: E' of every row against each candidate c is A_c / A, computed as
	 * the metrics do (S * N_c / N); the first row in T order reaching theta gives c's N. The
	 * least A so far along T order (minA) skips, by binary search, every row whose A is too
	 * big by a margin far above rounding: thousands of candidates stay cheap. */
	double *minA = malloc((n ? n : 1) * sizeof *minA);
	if (!minA) {
		free(k);
		err_set(err, NULL, 0, 0, "out of memory");
		return -1;
	}
	for (size_t j = 0; j < n; j++) {
		double A = a->rows[k[j].i].A;
		minA[j] = j == 0 || A < minA[j - 1] ? A : minA[j - 1];
	}
	for (size_t c = 0; c < a->ncand; c++) {
		const struct row *cr = &ds->rows[a->cand[c].row];
		double most = (double)cr->accelerators * cr->minutes / 60 / theta * (1 + 1e-9);
		size_t lo = 0, hi = n;
		while (lo < hi) { /* the first j with minA[j] <= most */
			size_t mid = lo + (hi - lo) / 2;
			if (minA[mid] <= most)
				hi = mid;
			else
				lo = mid + 1;
		}
		a->cand[c].n = -1;
		for (size_t j = lo; j < n; j++) {
			const struct arow *o = &a->rows[k[j].i];
			if (cr->minutes / o->T * (double)cr->accelerators / o->N >= theta) {
				a->cand[c].n = (long)o->N;
				break;
			}
		}
		long v = a->cand[c].n;
		if (v >= 0 && (a->sens_lo < 0 || v < a->sens_lo))
			a->sens_lo = v;
		if (v >= 0 && v > a->sens_hi)
			a->sens_hi = v;
	}
	free(minA);
	free(k);
	return 0;
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
	const char **names, *found = NULL;
	size_t nr;
	char list[400];

	if (dataset_round_list(ds, &names, &nr) < 0) {
		err_set(err, NULL, 0, 0, "out of memory");
		return NULL;
	}
	size_t i = want ? name_find(names, nr, want, false) : nr - 1; /* the newest by default */
	if (i < nr) {
		found = names[i];
	} else if (want) {
		list_names(list, sizeof list, names, nr);
		err_set(err, NULL, 0, 0, "unknown round '%s' (loaded: %s)", want, nr ? list : "none");
	}
	free(names);
	return found;
}

static const char *resolve_workload(const struct dataset *ds, const char *round, const char *want,
				    struct gs_err *err)
{
	const char **names, *found = NULL;
	size_t nw;
	char list[400];

	if (dataset_workload_list(ds, round, &names, &nw) < 0) {
		err_set(err, NULL, 0, 0, "out of memory");
		return NULL;
	}
	size_t i = want ? name_find(names, nw, want, true) : 0;
	if (i < nw) {
		found = names[i];
	} else if (!want) {
		err_set(err, NULL, 0, 0, "round %s has no results", round);
	} else {
		list_names(list, sizeof list, names, nw);
		err_set(err, NULL, 0, 0, "unknown workload '%s' in round %s (valid: %s)", want, round,
			nw ? list : "none");
	}
	free(names);
	return found;
}

/* Shown rows in order of family text, for grouping. */
static int fam_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);

	return c ? c : cmp_tie(a->r, a->row, b->r, b->row);
}

/* Reference of each family by the rule: the shown rows grouped by family (exact text), then
 * each group's pick, which is a total order, so the order of the groups and within them does
 * not matter. rows[i].row is set; rows[i].ref receives the reference. */
static int family_refs(const struct dataset *ds, struct arow *rows, size_t n, enum ref_rule rule)
{
	struct skey *k = malloc((n ? n : 1) * sizeof *k), *c = malloc((n ? n : 1) * sizeof *c);
	size_t *g = malloc((n ? n : 1) * sizeof *g);

	if (!k || !c || !g) {
		free(k);
		free(c);
		free(g);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[rows[i].row];
		k[i] = (struct skey){ .s = nz(r->family), .r = r, .row = rows[i].row, .i = i };
	}
	qsort(k, n, sizeof *k, fam_cmp);
	for (size_t s = 0; s < n;) {
		size_t e = s, best = 0;
		while (e < n && strcmp(k[e].s, k[s].s) == 0) {
			g[e - s] = k[e].row;
			e++;
		}
		pick_ref(ds, g, e - s, rule, c, &best);
		for (size_t i = s; i < e; i++)
			rows[k[i].i].ref = best;
		s = e;
	}
	free(k);
	free(c);
	free(g);
	return 0;
}

/* The scaling-law fit of each family of the shown rows (rows grouped as family_refs does),
 * and every row's fitted E' and residual from its family's fit. */
static int fit_families(const struct dataset *ds, struct analysis *a, struct gs_err *err)
{
	size_t n = a->n, nf = 0;
	struct skey *k = malloc((n ? n : 1) * sizeof *k);
	double *pn = malloc((n ? n : 1) * 2 * sizeof *pn), *pt = pn + n;

	if (!k || !pn)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		k[i] = (struct skey){ .s = nz(r->family), .r = r, .row = a->rows[i].row, .i = i };
	}
	qsort(k, n, sizeof *k, fam_cmp);
	for (size_t g = 0; g < n; g++)
		nf += g == 0 || strcmp(k[g].s, k[g - 1].s) != 0;
	if (!(a->fits = calloc(nf ? nf : 1, sizeof *a->fits)))
		goto oom;
	for (size_t g = 0; g < n;) {
		size_t e = g;
		struct fam_fit *ff = &a->fits[a->nfits++];
		for (; e < n && strcmp(k[e].s, k[g].s) == 0; e++) {
			pn[e - g] = a->rows[k[e].i].N;
			pt[e - g] = a->rows[k[e].i].T;
		}
		ff->family = ds->rows[k[g].row].family;
		if (fit_run(pn, pt, e - g, &ff->fit, err) < 0)
			goto fail;
		for (size_t i = g; i < e; i++) {
			struct arow *o = &a->rows[k[i].i];
			o->ep_fit = fit_ep(&ff->fit, o->N);
			o->fit_resid = fit_resid(&ff->fit, o->N, o->T);
		}
		g = e;
	}
	free(k);
	free(pn);
	return 0;
oom:
	err_set(err, NULL, 0, 0, "out of memory");
fail:
	free(k);
	free(pn);
	return -1;
}

const struct fit *analysis_fit_of(const struct dataset *ds, const struct analysis *a, size_t row)
{
	const char *fam = row < ds->n ? nz(ds->rows[row].family) : NULL;

	for (size_t i = 0; fam && i < a->nfits; i++)
		if (strcmp(nz(a->fits[i].family), fam) == 0)
			return &a->fits[i].fit;
	return NULL;
}

static bool filter_empty(const struct filter *f)
{
	return !f->nfamilies && !f->nvendors && !f->navailability && !f->ndivisions;
}

/* Clears a for a new run, keeping its row buffer. */
static void reset(struct analysis *a)
{
	struct analysis keep = *a;

	free(a->fits);
	free(a->cand);
	memset(a, 0, sizeof *a);
	a->rows = keep.rows;
	a->rows_cap = keep.rows_cap;
	a->memo = keep.memo;
	a->memo_ds = keep.memo_ds;
	a->memo_rows = keep.memo_rows;
	a->memo_n = keep.memo_n;
	a->bref = keep.bref;
	a->bref_cap = keep.bref_cap;
	a->ref = -1;
	a->breakeven = a->be_firm = a->be_loose = -1;
	a->sens_lo = a->sens_hi = -1;
	a->silhouette = NAN;
}

/* Makes a->rows hold at least n rows; the old rows are not kept. */
static int grow_rows(struct analysis *a, size_t n)
{
	if (n <= a->rows_cap && a->rows)
		return 0;
	free(a->rows);
	a->rows_cap = 0;
	if (!(a->rows = malloc((n ? n : 1) * sizeof *a->rows)))
		return -1;
	a->rows_cap = n;
	return 0;
}

/* One pass over the dataset collects the shown rows; then the references, the metrics, the
 * intervals, the Pareto flags, the break-even rows, the clusters (in system id order) and the
 * ranking. */
int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err)
{
	size_t ns = 0, total = 0, best = 0;
	long pinned = -1;
	size_t npinned = 0;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;
	bool all = filter_empty(&p->filter);
	enum ref_rule rule = (unsigned)p->ref_rule < RULE_COUNT ? p->ref_rule : RULE_SLOWEST;
	size_t *idx = NULL;
	struct pkey *pk = NULL;
	struct skey *ck = NULL;

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
	if (!(idx = malloc((ds->n ? ds->n : 1) * sizeof *idx)))
		goto oom;
	a->all_rounds = p->all_rounds;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		bool here = same(r->round, a->round);
		if ((!here && !p->all_rounds) || !same(r->benchmark, a->workload))
			continue;
		/* a pinned name means a row of the current round, also in the cross-round view; a
		 * collapsed submission stands for its standing row */
		if (mode == REF_PINNED && here && row_named(r, p->pinned)) {
			long at = p->collapse && r->dup_of >= 0 && (size_t)r->dup_of < ds->n ? r->dup_of : (long)i;
			if (npinned == 0 || at != pinned)
				if (npinned++ == 0)
					pinned = at;
		}
		if (p->collapse && r->dup_of >= 0 && (size_t)r->dup_of != i && (size_t)r->dup_of < ds->n)
			continue; /* the same runs as another submitter's row: counted there */
		total++;
		if (p->available_only && (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH))
			continue;
		if (!all && !filter_pass(&p->filter, r))
			continue;
		idx[ns++] = i;
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
	if (grow_rows(a, ns) < 0 || !(ck = malloc((ns ? ns : 1) * sizeof *ck)))
		goto oom;
	a->n = ns;
	a->mode = mode;
	a->rule = rule;
	for (size_t i = 0; i < ns; i++)
		a->rows[i].row = idx[i];
	/* the candidates of the sensitivity range, slowest first; the pick is the reference */
	a->ncand = pick_ref(ds, idx, ns, rule, ck, &best);
	if (a->ncand && !(a->cand = malloc(a->ncand * sizeof *a->cand)))
		goto oom;
	for (size_t i = 0; i < a->ncand; i++)
		a->cand[i] = (struct be_cand){ .row = ck[i].row, .n = -1 };
	free(ck);
	ck = NULL;
	if (mode == REF_FAMILY) {
		if (family_refs(ds, a->rows, ns, rule) < 0)
			goto oom;
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
		if (mode != REF_FAMILY)
			o->ref = (size_t)a->ref;
		metrics(ds, o);
	}
	free(idx);
	idx = NULL;
	/* every row's interval when there are few; above that, what is shown asks for them
	 * (analysis_intervals) and the break-even range draws only the rows it must */
	a->nbref = 0;
	if (ns <= BOOT_EAGER && analysis_intervals(ds, a, 0, ns, err) < 0)
		goto fail;

	if (!(pk = malloc((ns ? ns : 1) * sizeof *pk)))
		goto oom;
	a->pareto_cost = p->pareto_cost;
	a->npareto = pareto(a->rows, ns, p->pareto_cost, pk);
	free(pk);
	if (analysis_breakeven(ds, a, p->theta, err) < 0)
		goto fail;
	if (p->fit && fit_families(ds, a, err) < 0)
		goto fail;
	/* k-means++ seeding picks points by index: cluster in an order the file does not set */
	if (analysis_sort(ds, a, COL_SYSTEM, false, err) < 0 || cluster(a, p, err) < 0)
		goto fail;
	if (analysis_sort(ds, a, p->sort, p->desc, err) < 0)
		goto fail;
	return 0;
oom:
	err_set(err, NULL, 0, 0, "out of memory");
fail:
	free(idx);
	free(ck);
	{
		const char *round = a->round, *workload = a->workload;
		analysis_free(a);
		reset(a);
		a->round = round;
		a->workload = workload;
	}
	return -1;
}
