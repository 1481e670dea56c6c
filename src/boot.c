/* boot.c: the run-to-run intervals of the shown rows (90% bootstrap of each row's scored runs),
 * kept between runs on the same dataset, and the cheap bounds the break-even scan decides by.
 * No terminal here. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "rng.h"
#include "olympic.h"
#include "select.h"

/* The 90% bootstrap interval of DESIGN.md: B resamples of a row's scored runs (with
 * replacement, same count), each scored by the official rule (olympic window with the row's
 * failed runs, times the scaling factor). Each row draws from its own splitmix64 stream seeded
 * by its identity (round, benchmark, submitter, system), so the numbers depend on neither the
 * row order nor the machine; tests/tools/boot_ref.py replays the same draws. */
#define BOOT_B 1000
#define BOOT_SEED UINT64_C(0x626f6f7473747261) /* "bootstra" in ASCII */
#define BOOT_MIN_RUNS 3

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

/* A run and its index: sorted by value, ties by index, the order counting sort ranks by. */
struct run_at {
	double v;
	size_t i;
};

static int cmp_run_at(const void *a, const void *b)
{
	const struct run_at *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
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
	struct run_at *by = malloc(k * sizeof *by);
	if (!rank || !by) {
		free(rank);
		free(by);
		return -1;
	}
	/* A resample, sorted, is each run repeated as often as it was drawn, in order of value:
	 * counting the draws by the run's rank gives the sorted resample in O(k), the same values
	 * in the same order (so the same sum) as sorting it. s receives the runs sorted. The
	 * ranks come from one sort by (value, index): O(k log k), where counting the smaller
	 * runs of each run was O(k^2) (100,000 runs: 20 s). */
	for (size_t i = 0; i < k; i++) {
		by[i].v = run[i];
		by[i].i = i;
	}
	qsort(by, k, sizeof *by, cmp_run_at);
	for (size_t at = 0; at < k; at++) {
		rank[by[at].i] = at;
		s[at] = by[at].v;
	}
	free(by);
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

static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		m = x[i] < m ? x[i] : m;
	return m;
}

/* Percentiles 5 and 95 of x[BOOT_B] (reordered): linear interpolation between closest ranks
 * (numpy's default), so an independent computation can match them exactly. Four order
 * statistics by selection (select_kth), not a sort of 1000 values. */
static void boot_pct(double *x, double *p5, double *p95)
{
	double h95 = (BOOT_B - 1) * 0.95, h5 = (BOOT_B - 1) * 0.05;
	size_t i95 = (size_t)floor(h95), i5 = (size_t)floor(h5);

	/* 95 first; then 5 selects among the values left below it */
	select_kth(x, BOOT_B, i95);
	double a = x[i95], b = min_of(x + i95 + 1, BOOT_B - i95 - 1);
	*p95 = a + (h95 - (double)i95) * (b - a);
	select_kth(x, i95, i5);
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
			err_oom(err, NULL, 0);
			return -1;
		}
	return 0;
}

/* Bounds of row o's E' resamples without drawing them: every resampled score lies between the
 * row's fastest and slowest scaled run (an average of some of them), and so does the
 * reference's. False when the row can have no interval. */
bool boot_ep_bounds(const struct dataset *ds, const struct arow *o, double *lo, double *hi)
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
int boot_range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta,
		    bool *firm, bool *loose)
{
	const struct arow *o = &a->rows[i];
	double lo, hi;

	if (!o->ci_done) {
		if (!boot_ep_bounds(ds, o, &lo, &hi)) {
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
