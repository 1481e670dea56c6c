/* boot.c: the run-to-run intervals of the shown rows (90% bootstrap of each row's scored runs),
 * kept between runs on the same dataset, and the cheap bounds the break-even scan decides by.
 * No terminal here. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "fit.h"
#include "rng.h"
#include "olympic.h"
#include "pool.h"
#include "resample.h"

/* The 90% bootstrap interval of DESIGN.md: B resamples of a row's scored runs (with
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

/* Rows of at most this many runs count their draws in one word (resample.h). */
#define PACK_MAX RESAMPLE_PACK_MAX

/* The sum of positions [lo, hi) of a sorted resample, given as cnt[v] draws of the run of
 * rank v, added one by one in sorted order as a sorted resample adds them. The lo smallest
 * draws are dropped whole runs at a time (the counts total k >= hi > lo, so v stays below
 * k). */
static double window_sum(const double *s, size_t lo, size_t hi, const size_t *cnt)
{
	double sum = 0;
	size_t v = 0, pos = 0, c;

	while (pos + cnt[v] <= lo)
		pos += cnt[v++];
	c = pos + cnt[v] - lo;
	for (pos = lo;;) {
		size_t e = pos + c < hi ? pos + c : hi;
		for (; pos < e; pos++)
			sum += s[v];
		if (pos == hi)
			break;
		c = cnt[++v];
	}
	return sum;
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
	if (k <= PACK_MAX) {
		/* the draws counted in 4-bit fields of one word, in order of rank: nothing written
		 * to memory per draw (a count never exceeds k <= 15) */
		uint64_t inc[PACK_MAX];
		for (size_t i = 0; i < k; i++)
			inc[i] = UINT64_C(1) << (4 * rank[i]);
		resample_packed(boot_seed(r), k, inc, s, lo, hi, sf, BOOT_B, t, true);
	} else {
		rng_seed(&g, boot_seed(r));
		for (size_t b = 0; b < BOOT_B; b++) {
			memset(cnt, 0, k * sizeof *cnt);
			for (size_t j = 0; j < k; j++)
				cnt[rank[rng_below(&g, k)]]++;
			t[b] = window_sum(s, lo, hi, cnt) / (double)(hi - lo) * sf;
		}
	}
	free(rank);
	return 0;
}

/* What the runs drew, per dataset row, kept while the dataset is the same and shared by the
 * analyses that joined (analysis_share_boot: the explorer's two buffers). The T interval of a
 * row does not depend on its reference, so it is kept once; the S interval is kept for the
 * last reference it was paired with; the resamples themselves (8 KB a row) are kept for the
 * BOOT_KEEP rows drawn last, so that a new reference pairs them again without drawing. On
 * v4.0 unet3d (40 runs a row) a new reference drew every row in view again: 11-20 ms a key,
 * 92% of it in boot_draws; now it draws the new reference alone (on v4.0, in one run: the
 * slowest key 11.5 -> 5.1 ms, presses over 2 ms 45 -> 10 of 1,611). */
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
	double *s = malloc((ds->rows[i].run_n ? ds->rows[i].run_n : 1) * sizeof *s);
	int rc = s ? boot_draws(ds, &ds->rows[i], sl->t, s) : -1;
	free(s);
	if (rc < 0)
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
		};
		o->ci = (uint32_t)++a->nci;
	}
	o->ci_done = true;
	return 0;
}

const struct aci *analysis_ci(const struct analysis *a, const struct arow *o)
{
	static const struct aci none = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0 };

	return o->ci && o->ci <= a->nci ? &a->ci[o->ci - 1] : &none;
}

/* The S interval of a row with resamples t, into m for reference ref: paired b by b with the
 * reference's resamples rt, or with themselves (self: S = 1 in every resample), or, when rt is
 * NULL, with the reference's official T (a reference of fewer than 3 runs counts as exact).
 * q[BOOT_B] is scratch. */
static void pair_s(const double *t, const double *rt, bool self, double ref_minutes, double *q,
		   struct boot_memo *m, uint32_t ref)
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
	resample_pct(q, &m->s_lo, &m->s_hi, true);
	m->ref_of = ref;
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
			resample_pct(t, &m->t_lo, &m->t_hi, true);
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
	}
	return interval_fill(ds, a, o, m);
}

/* ---- many rows at once, on the machine's processors ----
 *
 * --print csv and the export ask for every shown row's interval: at 10^5 rows that is 10^8
 * resamples, most of their time. Each row's draws depend on the row alone (its own stream),
 * so rows are split among threads; what each thread computes is what interval_row computes,
 * bit for bit, and what it writes (the row's memo entry) no other thread touches; the shown
 * rows take their intervals from the memo after the threads end. The references' resamples are drawn first, once, on the calling thread; the
 * threads only read them and the kept slots. A dataset row shown twice is done by the plain
 * path after the threads (its memo then filled). Measured on two processors: --print csv
 * of 10^5 rows 7.0 s on one, 4.1 s on both (1.71x; make bench prints the ratio). */
#define BULK_MIN 512     /* fewer rows than this: the plain loop (a thread costs ~50 us) */
#define BULK_REFS 4096   /* more distinct references than this: the plain loop */
#define BULK_CHUNK 64    /* rows a thread takes at a time */

struct bulk {
	const struct dataset *ds;
	struct analysis *a;
	struct boot_cache *c;
	const size_t *todo;                /* shown rows, each dataset row once */
	size_t ntodo;
	const uint32_t *refat;             /* dataset row -> 1 + its resamples in refs; 0 none */
	const double *refs;                /* BOOT_B resamples per reference */
	atomic_size_t next;                /* the next chunk of todo */
	atomic_bool failed;                /* out of memory in some thread */
};

/* interval_row for shown row i, whose dataset row no other thread has, reading the references'
 * resamples from b. 0, or -1 out of memory. */
static int bulk_row(struct bulk *b, size_t i, double *d, double *t, double *q)
{
	const struct dataset *ds = b->ds;
	struct arow *o = &b->a->rows[i];
	struct boot_memo *m = &b->c->memo[o->row];
	const struct row *r = &ds->rows[o->row], *fr = &ds->rows[o->ref];
	bool drawn = false;

	/* the row's resamples into d: kept in a slot (read only while threads run), or drawn */
#define DRAW()                                                                                 \
	do {                                                                                   \
		if (!drawn) {                                                                  \
			if (m->slot) {                                                         \
				memcpy(d, b->c->slot[m->slot - 1]->t, BOOT_B * sizeof *d);    \
			} else {                                                               \
				double *s = malloc((r->run_n ? r->run_n : 1) * sizeof *s);     \
				int rc = s ? boot_draws(ds, r, d, s) : -1;                     \
				free(s);                                                       \
				if (rc < 0)                                                    \
					return -1;                                             \
			}                                                                      \
			drawn = true;                                                          \
		}                                                                              \
	} while (0)
	if (m->state == 0) {
		if (boot_ok(ds, r)) {
			DRAW();
			memcpy(t, d, BOOT_B * sizeof *t);
			resample_pct(t, &m->t_lo, &m->t_hi, true);
			m->state = 2;
		} else {
			m->state = 1;
		}
	}
	if (m->state == 2 && m->ref_of != o->ref) {
		DRAW();
		const double *rt = o->row != o->ref && boot_ok(ds, fr) ?
					   b->refs + (size_t)(b->refat[o->ref] - 1) * BOOT_B : NULL;
		pair_s(d, rt, o->row == o->ref, fr->minutes, q, m, o->ref);
	}
#undef DRAW
	return 0;
}

static void bulk_work(void *arg)
{
	struct bulk *b = arg;
	double *buf = malloc(3 * BOOT_B * sizeof *buf);

	if (!buf) {
		atomic_store(&b->failed, true);
		return;
	}
	for (;;) {
		size_t at = atomic_fetch_add(&b->next, BULK_CHUNK);
		if (at >= b->ntodo || atomic_load(&b->failed))
			break;
		size_t end = at + BULK_CHUNK < b->ntodo ? at + BULK_CHUNK : b->ntodo;
		for (; at < end; at++)
			if (bulk_row(b, b->todo[at], buf, buf + BOOT_B, buf + 2 * BOOT_B) < 0) {
				atomic_store(&b->failed, true);
				break;
			}
	}
	free(buf);
}

/* The intervals of the shown rows idx[0..n) not yet done, on up to pool_cpus() threads.
 * 1 when the plain loop should do them instead (few rows, one processor, many references),
 * 0 done, -1 out of memory. */
static int bulk_run(const struct dataset *ds, struct analysis *a, const size_t *idx, size_t n)
{
	unsigned nth = pool_cpus();
	struct boot_cache *c;
	size_t *todo = NULL, ntodo = 0, nref = 0;
	uint32_t *refat = NULL;
	double *refs = NULL;
	uint8_t *seen = NULL;
	int rc = -1;

	if (nth < 2 || n < BULK_MIN)
		return 1;
	if (!(c = cache_ready(ds, a)))
		return -1;
	todo = malloc(n * sizeof *todo);
	seen = calloc(ds->n ? ds->n : 1, 1);
	refat = calloc(ds->n ? ds->n : 1, sizeof *refat);
	if (!todo || !seen || !refat)
		goto out;
	/* the rows to do, each dataset row once, and the references whose resamples they pair */
	for (size_t j = 0; j < n; j++) {
		if (idx[j] >= a->n)
			continue; /* the plain loop after skips it too */
		const struct arow *o = &a->rows[idx[j]];
		if (o->ci_done || seen[o->row])
			continue;
		seen[o->row] = 1;
		todo[ntodo++] = idx[j];
		if (o->ref != o->row && !refat[o->ref] && boot_ok(ds, &ds->rows[o->ref]) &&
		    !(c->memo[o->row].state == 1) && c->memo[o->row].ref_of != o->ref) {
			if (nref == BULK_REFS) {
				rc = 1;
				goto out;
			}
			refat[o->ref] = (uint32_t)++nref;
		}
	}
	if (ntodo < BULK_MIN) {
		rc = 1;
		goto out;
	}
	if (nref && !(refs = malloc(nref * BOOT_B * sizeof *refs)))
		goto out;
	for (size_t i = 0; i < ds->n && nref; i++) {
		if (!refat[i])
			continue;
		const double *d = cache_draws(ds, c, i);
		if (!d)
			goto out;
		memcpy(refs + (size_t)(refat[i] - 1) * BOOT_B, d, BOOT_B * sizeof *refs);
	}
	struct bulk b = { .ds = ds, .a = a, .c = c, .todo = todo, .ntodo = ntodo, .refat = refat,
			  .refs = refs };
	atomic_init(&b.next, 0);
	atomic_init(&b.failed, false);
	pool_run(nth, bulk_work, &b);
	rc = atomic_load(&b.failed) ? -1 : 0;
	/* the intervals kept in a->ci in todo's order, from the memo the threads filled */
	for (size_t j = 0; rc == 0 && j < ntodo; j++) {
		struct arow *o = &a->rows[todo[j]];
		rc = interval_fill(ds, a, o, &c->memo[o->row]);
	}
out:
	free(todo);
	free(seen);
	free(refat);
	free(refs);
	return rc;
}

int analysis_intervals_of(const struct dataset *ds, struct analysis *a, const size_t *idx,
			  size_t n, struct gs_err *err)
{
	int rc = bulk_run(ds, a, idx, n);

	/* the plain loop: all of them, or those the threads left (a dataset row shown twice) */
	for (size_t j = 0; rc >= 0 && j < n; j++)
		if (idx[j] < a->n && interval_row(ds, a, idx[j]) < 0)
			rc = -1;
	if (rc < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	return 0;
}

int analysis_intervals(const struct dataset *ds, struct analysis *a, size_t from, size_t to,
		       struct gs_err *err)
{
	if (to > a->n)
		to = a->n;
	if (from >= to)
		return 0;
	if (to - from >= BULK_MIN && pool_cpus() > 1) {
		size_t *idx = malloc((to - from) * sizeof *idx);
		if (idx) {
			for (size_t i = from; i < to; i++)
				idx[i - from] = i;
			int rc = analysis_intervals_of(ds, a, idx, to - from, err);
			free(idx);
			return rc;
		}
	}
	for (size_t i = from; i < to; i++)
		if (interval_row(ds, a, i) < 0) {
			err_oom(err, NULL, 0);
			return -1;
		}
	return 0;
}

void boot_ref_span(const struct dataset *ds, const struct row *fr, double *rlo, double *rhi)
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
bool boot_ep_bounds(const struct dataset *ds, const struct arow *o, double *lo, double *hi,
		    struct boot_ref *memo)
{
	const struct row *fr = &ds->rows[o->ref];
	double rlo = fr->minutes, rhi = fr->minutes, Nr = (double)fr->accelerators;

	if (!boot_ok(ds, &ds->rows[o->row]))
		return false;
	if (o->row == o->ref) {
		*lo = *hi = 1;
		return true;
	}
	/* a break-even scan asks for every row of a group against one reference */
	if (memo && memo->set && memo->ref == o->ref) {
		rlo = memo->rlo;
		rhi = memo->rhi;
	} else {
		boot_ref_span(ds, fr, &rlo, &rhi);
		if (memo)
			*memo = (struct boot_ref){ true, o->ref, rlo, rhi };
	}
	/* a relative margin far above rounding: the bounds only decide when to draw */
	*lo = rlo / o->t_hi * Nr / o->N * (1 - 1e-9);
	*hi = rhi / o->t_lo * Nr / o->N * (1 + 1e-9);
	return true;
}

int boot_range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta,
		    bool *firm, bool *loose, struct boot_ref *memo)
{
	const struct arow *o = &a->rows[i];
	double lo, hi;

	if (!o->ci_done) {
		if (!boot_ep_bounds(ds, o, &lo, &hi, memo)) {
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
	const struct aci *c = analysis_ci(a, o);
	bool ci = !isnan(c->ep_lo);
	*firm = (ci ? c->ep_lo : o->Ep) >= theta;
	*loose = (ci ? c->ep_hi : o->Ep) >= theta;
	return 0;
}
