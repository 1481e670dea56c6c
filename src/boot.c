/* boot.c: the run-to-run intervals of the shown rows (90% bootstrap of each row's scored runs),
 * kept between runs on the same dataset, and the cheap bounds the break-even scan decides by.
 * No terminal here. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "fit.h"
#include "rng.h"
#include "olympic.h"
#include "resample.h"

/* The 90% bootstrap interval of man gpuscale: B resamples of a row's scored runs (with
 * replacement, same count), each scored by the official rule (olympic window with the row's
 * failed runs, times the scaling factor). Each row draws from its own splitmix64 stream seeded
 * by its identity (round, benchmark, submitter, system), so the numbers depend on neither the
 * row order nor the machine; tests/tools/boot_ref.py replays the same draws. */
#define BOOT_B RESAMPLE_B
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

/* Fills t[BOOT_B] with the row's resampled official times in draw order. Returns 0, or -1 when
 * the row has no interval (fewer than 3 runs, or no olympic window) or out of memory. */
static int boot_draws(const struct dataset *ds, const struct row *r, double *t)
{
	size_t k = r->run_n, lo, hi;
	size_t d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;
	double sf = r->scaling_factor > 0 && isfinite(r->scaling_factor) ? r->scaling_factor : 1;

	if (k < BOOT_MIN_RUNS || !ds->runs || r->run_off + k > ds->nruns ||
	    olympic_window(k, d, olympic_limit(nz(r->benchmark)), &lo, &hi) != 0)
		return -1;
	return resample_scores(boot_seed(r), ds->runs + r->run_off, k, lo, hi, sf, BOOT_B, t);
}

/* What the runs drew, per dataset row, kept while the dataset is the same and shared by the
 * analyses that joined (analysis_share_boot: the explorer's two buffers), so that a key that
 * keeps the rows (theta, k, the sort) draws nothing again. The T interval of a row does not
 * depend on its reference, so it is kept once; the S interval is kept for the last reference
 * it was paired with; the resamples themselves are kept for the BOOT_KEEP rows drawn last, so
 * that a new reference pairs them again and draws only its own. */
#define BOOT_KEEP 2048

struct boot_slot {
	size_t row;                        /* the dataset row these are the resamples of */
	double t[BOOT_B];                  /* in draw order */
};

struct boot_memo {
	uint32_t slot;                     /* 1 + the slot holding the row's resamples; 0 none */
	uint8_t state;                     /* 0 not yet known, 1 no interval, 2 t_lo, t_hi set */
	double t_lo, t_hi;
	size_t ref_of;                     /* reference of s_lo, s_hi; SIZE_MAX none */
	double s_lo, s_hi;
	double thru_lo, thru_hi, conv_lo, conv_hi; /* for ref_of too; NAN: no split */
};

struct boot_cache {
	int refs;                          /* analyses holding it */
	const struct dataset *ds;
	const struct row *rows;
	size_t n;
	struct boot_memo *memo;            /* per dataset row */
	struct boot_slot **slot;           /* at most BOOT_KEEP, reused oldest first */
	size_t nslot, next;
	size_t reuse;                      /* slots [reuse, nslot) were let go (analysis_drop_draws):
					    * filled before a new one is made */
	struct fit_memo *fits;             /* the last fits (they depend on the points alone) */
	size_t split_ref;                  /* 1 + the dataset row of split_rs; 0 none */
	bool split_ok;                     /* split_rs holds its resampled charged samples */
	double split_rs[BOOT_B];           /* the last reference's (every row of a group pairs
					    * with the same one) */
};

static struct boot_cache *cache_new(void)
{
	struct boot_cache *c = calloc(1, sizeof *c);

	if (c)
		c->refs = 1;
	return c;
}

void boot_cache_release(struct boot_cache *c)
{
	if (!c || --c->refs > 0)
		return;
	for (size_t i = 0; i < c->nslot; i++)
		free(c->slot[i]);
	free(c->slot);
	free(c->memo);
	fit_memo_free(c->fits);
	free(c);
}

struct fit_memo *boot_fit_memo(struct analysis *a)
{
	if (!a->boot && !(a->boot = cache_new()))
		return NULL;
	if (!a->boot->fits)
		a->boot->fits = fit_memo_new();
	return a->boot->fits;
}

void analysis_drop_draws(struct analysis *a)
{
	struct boot_cache *c = a->boot;

	if (!c)
		return;
	for (size_t i = 0; i < c->nslot; i++) {
		if (c->slot[i]->row < c->n)
			c->memo[c->slot[i]->row].slot = 0;
		c->slot[i]->row = SIZE_MAX;
	}
	c->reuse = 0;
	c->next = 0;
}

int analysis_share_boot(struct analysis *a, struct analysis *b)
{
	if (!b->boot && !(b->boot = cache_new()))
		return -1;
	if (a->boot == b->boot)
		return 0;
	boot_cache_release(a->boot);
	a->boot = b->boot;
	a->boot->refs++;
	return 0;
}

/* a's cache, made for ds (what was kept for another dataset is dropped). 0, or -1. */
static struct boot_cache *cache_ready(const struct dataset *ds, struct analysis *a)
{
	struct boot_cache *c = a->boot;

	if (!c && !(c = a->boot = cache_new()))
		return NULL;
	if (c->memo && c->ds == ds && c->rows == ds->rows && c->n == ds->n)
		return c;
	free(c->memo);
	c->memo = malloc((ds->n ? ds->n : 1) * sizeof *c->memo);
	if (!c->memo) {
		c->n = 0;
		return NULL;
	}
	for (size_t i = 0; i < ds->n; i++)
		c->memo[i] = (struct boot_memo){ .ref_of = SIZE_MAX };
	for (size_t i = 0; i < c->nslot; i++)
		c->slot[i]->row = SIZE_MAX;
	c->reuse = c->next = 0;
	c->ds = ds;
	c->split_ref = 0;
	c->rows = ds->rows;
	c->n = ds->n;
	return c;
}

/* The resamples of dataset row i, which boot_ok accepts, in draw order: kept, or drawn into
 * the oldest slot. Valid until the next call. NULL when out of memory. */
static const double *cache_draws(const struct dataset *ds, struct boot_cache *c, size_t i)
{
	struct boot_memo *m = &c->memo[i];
	struct boot_slot *sl;

	if (m->slot)
		return c->slot[m->slot - 1]->t;
	if (c->reuse < c->nslot) {
		c->next = c->reuse++;
	} else if (c->nslot < BOOT_KEEP) {
		struct boot_slot **v = realloc(c->slot, (c->nslot + 1) * sizeof *v);
		if (!v)
			return NULL;
		c->slot = v;
		if (!(v[c->nslot] = malloc(sizeof **v)))
			return NULL;
		v[c->nslot]->row = SIZE_MAX;
		c->next = c->nslot++;
		c->reuse = c->nslot;
	}
	sl = c->slot[c->next];
	if (sl->row != SIZE_MAX && sl->row < c->n)
		c->memo[sl->row].slot = 0;
	sl->row = SIZE_MAX;
	if (boot_draws(ds, &ds->rows[i], sl->t) < 0)
		return NULL;
	sl->row = i;
	m->slot = (uint32_t)c->next + 1;
	c->next = (c->next + 1) % BOOT_KEEP;
	return sl->t;
}

/* Whether row r can have an interval (the test boot_draws makes before drawing). */
static bool boot_ok(const struct dataset *ds, const struct row *r)
{
	size_t lo, hi, d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;

	return r->run_n >= BOOT_MIN_RUNS && ds->runs && r->run_off + r->run_n <= ds->nruns &&
	       olympic_window(r->run_n, d, olympic_limit(nz(r->benchmark)), &lo, &hi) == 0;
}

/* Shown row o's intervals from its memo entry m (done: T's, and S's for o's reference), kept
 * in a->ci. 0, or -1 out of memory (o is then as before). */
static int interval_fill(const struct dataset *ds, struct analysis *a, struct arow *o,
			 const struct boot_memo *m)
{
	const struct row *r = &ds->rows[o->row], *fr = &ds->rows[o->ref];

	if (m->state == 2) {
		if (a->nci == a->ci_cap) {
			size_t cap = a->ci_cap ? 2 * a->ci_cap : 64;
			struct aci *v = cap < UINT32_MAX ? realloc(a->ci, cap * sizeof *v) : NULL;
			if (!v)
				return -1;
			a->ci = v;
			a->ci_cap = cap;
		}
		double Nr = (double)fr->accelerators;
		a->ci[a->nci] = (struct aci){
			.runs = r->run_n,
			.t_lo = m->t_lo,
			.t_hi = m->t_hi,
			.a_lo = o->N * m->t_lo / 60,
			.a_hi = o->N * m->t_hi / 60,
			.s_lo = m->s_lo,
			.s_hi = m->s_hi,
			.ep_lo = m->s_lo * Nr / o->N,
			.ep_hi = m->s_hi * Nr / o->N,
			.thru_lo = m->thru_lo, .thru_hi = m->thru_hi, .conv_lo = m->conv_lo, .conv_hi = m->conv_hi,
		};
		o->ci = ++a->nci;
	}
	o->ci_done = true;
	return 0;
}

const struct aci *analysis_ci(const struct analysis *a, const struct arow *o)
{
	static const struct aci none = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN };

	return o->ci && o->ci <= a->nci ? &a->ci[o->ci - 1] : &none;
}

/* The S interval of a row with resamples t, into m for reference ref: paired b by b with the
 * reference's resamples rt, or with themselves (self: S = 1 in every resample), or, when rt is
 * NULL, with the reference's official T (a reference of fewer than 3 runs counts as exact).
 * q[BOOT_B] is scratch. */
static void pair_s(const double *t, const double *rt, bool self, double ref_minutes, double *q,
		   struct boot_memo *m, size_t ref)
{
	if (self)
		for (size_t b = 0; b < BOOT_B; b++)
			q[b] = t[b] / t[b];
	else if (rt)
		for (size_t b = 0; b < BOOT_B; b++)
			q[b] = rt[b] / t[b];
	else
		for (size_t b = 0; b < BOOT_B; b++)
			q[b] = ref_minutes / t[b];
	resample_pct(q, &m->s_lo, &m->s_hi);
	m->ref_of = ref;
}

/* Fills s[BOOT_B] with row r's resampled charged samples: the very draws of boot_draws (the
 * same stream, the same run indices), each resample's run samples averaged over the same
 * olympic window of their sorted values, times the scaling factor. 0, or -1 when r has no
 * interval, a run without samples, or out of memory. */
static int boot_samples(const struct dataset *ds, const struct row *r, double *s)
{
	size_t k = r->run_n, lo, hi, d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;
	double sf = r->scaling_factor > 0 && isfinite(r->scaling_factor) ? r->scaling_factor : 1;

	if (!boot_ok(ds, r) || !ds->run_samples ||
	    olympic_window(k, d, olympic_limit(nz(r->benchmark)), &lo, &hi) != 0)
		return -1;
	for (size_t j = 0; j < k; j++)
		if (!(ds->run_samples[r->run_off + j] > 0))
			return -1;
	return resample_scores(boot_seed(r), ds->run_samples + r->run_off, k, lo, hi, sf, BOOT_B, s);
}

/* The e_thru and e_conv intervals of shown row o (resamples t of its T) against its reference,
 * into m: each resample b pairs the row's (T, S') with the reference's b-th, or with its
 * official T and S' when it has no interval; the reference with itself gives 1..1. */
static void split_pair(const struct dataset *ds, struct boot_cache *c, const struct arow *o, const double *t,
		       const double *rt, struct boot_memo *m)
{
	const struct row *r = &ds->rows[o->row], *fr = &ds->rows[o->ref];
	double s[BOOT_B], qc[BOOT_B], qt[BOOT_B];
	const double *rs = c->split_rs;
	double Nr = (double)fr->accelerators, fsf = fr->scaling_factor > 0 && isfinite(fr->scaling_factor)
							   ? fr->scaling_factor : 1;
	bool ref_drawn;

	m->thru_lo = m->thru_hi = m->conv_lo = m->conv_hi = NAN;
	if (isnan(o->e_conv) || boot_samples(ds, r, s) < 0)
		return;
	if (o->row == o->ref) {
		m->thru_lo = m->thru_hi = m->conv_lo = m->conv_hi = 1;
		return;
	}
	if (rt && c->split_ref != o->ref + 1) {
		c->split_ok = boot_samples(ds, fr, c->split_rs) == 0;
		c->split_ref = o->ref + 1;
	}
	ref_drawn = rt && c->split_ok;
	for (size_t b = 0; b < BOOT_B; b++) {
		double sref = ref_drawn ? rs[b] : fr->stc * fsf, tref = ref_drawn ? rt[b] : fr->minutes;
		qc[b] = sref / s[b];
		qt[b] = tref / t[b] * Nr / o->N / qc[b];
	}
	resample_pct(qc, &m->conv_lo, &m->conv_hi);
	resample_pct(qt, &m->thru_lo, &m->thru_hi);
}

/* Intervals of T, S, E', A of shown row i. E' pairs the row's b-th resample with the
 * reference's b-th (independent streams); the reference paired with itself gives S = 1 in
 * every resample, so its E' interval is exactly [1, 1]. A reference with fewer than 3 runs
 * counts as exact (its official T). What was drawn is kept (struct boot_cache), so recomputes
 * after theta, k or sort changes draw nothing, and a new reference only pairs again. */
static int interval_row(const struct dataset *ds, struct analysis *a, size_t i)
{
	struct arow *o = &a->rows[i];
	struct boot_cache *c;
	struct boot_memo *m;
	const struct row *r = &ds->rows[o->row], *fr = &ds->rows[o->ref];
	double t[BOOT_B], q[BOOT_B];
	const double *d;

	if (o->ci_done)
		return 0;
	if (!(c = cache_ready(ds, a)))
		return -1;
	m = &c->memo[o->row];
	if (m->state == 0) {
		m->state = 1;
		if (boot_ok(ds, r)) {
			if (!(d = cache_draws(ds, c, o->row))) {
				m->state = 0;
				return -1;
			}
			memcpy(t, d, sizeof t);
			resample_pct(t, &m->t_lo, &m->t_hi);
			m->state = 2;
		}
	}
	if (m->state == 2 && m->ref_of != o->ref) {
		/* the row's resamples copied first: drawing the reference's may take their slot */
		if (!(d = cache_draws(ds, c, o->row)))
			return -1;
		memcpy(t, d, sizeof t);
		const double *rt = NULL;
		if (o->row != o->ref && boot_ok(ds, fr) && !(rt = cache_draws(ds, c, o->ref)))
			return -1;
		pair_s(t, rt, o->row == o->ref, fr->minutes, q, m, o->ref);
		split_pair(ds, c, o, t, rt, m);
	}
	return interval_fill(ds, a, o, m);
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

/* The fastest and slowest scaled run of reference row fr into *rlo, *rhi, when it can have an
 * interval (3 runs and more); else both left as they are. */
static void boot_ref_span(const struct dataset *ds, const struct row *fr, double *rlo, double *rhi)
{
	if (!boot_ok(ds, fr))
		return;
	const double *run = ds->runs + fr->run_off;
	double sf = fr->scaling_factor > 0 && isfinite(fr->scaling_factor) ? fr->scaling_factor : 1;
	*rlo = run[0] * sf;
	*rhi = run[0] * sf;
	for (unsigned j = 1; j < fr->run_n; j++) {
		*rlo = run[j] * sf < *rlo ? run[j] * sf : *rlo;
		*rhi = run[j] * sf > *rhi ? run[j] * sf : *rhi;
	}
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
	boot_ref_span(ds, fr, &rlo, &rhi);
	/* a relative margin far above rounding: the bounds only decide when to draw */
	*lo = rlo / o->t_hi * Nr / o->N * (1 - 1e-9);
	*hi = rhi / o->t_lo * Nr / o->N * (1 + 1e-9);
	return true;
}

int boot_range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta, bool draw,
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
		if (!draw)
			return 1;
		if (interval_row(ds, a, i) < 0)
			return -1;
	}
	const struct aci *c = analysis_ci(a, o);
	bool ci = !isnan(c->ep_lo);
	*firm = (ci ? c->ep_lo : o->Ep) >= theta;
	*loose = (ci ? c->ep_hi : o->Ep) >= theta;
	return 0;
}
