/* analysis_order.c: the orders of an analysis: the tie-break every ranking ends in, sorting
 * by a number (a radix sort past a few hundred rows), the table's ranking by a column, and the
 * orders kept between runs on the same row set. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "numsort.h"
#include "text.h"

/* ---- orders kept for the same row set ------------------------------------------------ */

void orders_free(struct row_orders *o)
{
	if (!o)
		return;
	for (int k = 0; k < ORD_COUNT; k++)
		free(o->ord[k]);
	free(o->set);
	free(o);
}

static uint64_t fp_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 27);
}

/* A fingerprint of what the kept orders read of rows idx[n]: a dataset whose rows changed in
 * place, or a new one at the same address, is another row set. */
static uint64_t orders_fp(const struct dataset *ds, const size_t *idx, size_t n)
{
	uint64_t h = n, b;

	for (size_t j = 0; j < n; j++) {
		const struct row *r = &ds->rows[idx[j]];
		memcpy(&b, &r->minutes, sizeof b);
		h = fp_mix(h, b ^ (uint64_t)r->accelerators << 1);
		memcpy(&b, &r->price_lo, sizeof b);
		h = fp_mix(h, b);
		memcpy(&b, &r->price_hi, sizeof b);
		h = fp_mix(h, b ^ (uintptr_t)r->family);
		h = fp_mix(h, (uintptr_t)r->system ^ (uint64_t)(uintptr_t)r->submitter << 1);
	}
	return h;
}

/* the last analysis_rows_id given (runs are made on one thread) */
static uint64_t rows_ids;

uint64_t analysis_rows_id(const struct analysis *a)
{
	return a->orders && !a->checked ? a->orders->id : 0;
}

/* a->orders made the store of the row set idx[n] of ds for a run (whole, or finish false: the
 * check of the names, which sorts nothing): kept when it is the same set (in the same order,
 * the same values), else emptied for it. Out of memory nothing is kept. */
void orders_ready(const struct dataset *ds, struct analysis *a, const size_t *idx, size_t n,
		  bool finish)
{
	struct row_orders *o = a->orders;
	uint64_t fp = orders_fp(ds, idx, n);
	bool same_set = o && o->ds == ds && o->rows == ds->rows && o->dn == ds->n && o->n == n && o->fp == fp;

	for (size_t j = 0; same_set && j < n; j++)
		same_set = o->set[j] == idx[j];
	if (same_set) {
		/* a second whole run on these rows: worth keeping what it sorts (after the check
		 * alone, --print's one run would keep copies no run reads) */
		o->record = o->finished;
		o->finished = o->finished || finish;
		return;
	}
	orders_free(o);
	a->orders = NULL;
	if (!(o = calloc(1, sizeof *o)) || !(o->set = malloc((n ? n : 1) * sizeof *o->set))) {
		free(o);
		return;
	}
	for (size_t j = 0; j < n; j++)
		o->set[j] = (uint32_t)idx[j];
	o->ds = ds;
	o->rows = ds->rows;
	o->dn = ds->n;
	o->n = n;
	o->fp = fp;
	o->finished = finish;
	o->record = finish && a->keep_orders;
	o->id = ++rows_ids;
	a->orders = o;
}

const size_t *orders_get(const struct analysis *a, enum ord_kind k)
{
	return a->in_set_order && a->orders && a->orders->n == a->n ? a->orders->ord[k] : NULL;
}

size_t *orders_mapped(const struct dataset *ds, const struct analysis *a, enum ord_kind k)
{
	const struct row_orders *o = a->orders;

	if (!o || !o->ord[k] || o->n != a->n || o->ds != ds || o->dn != ds->n)
		return NULL;
	size_t n = a->n, *at = malloc((ds->n ? ds->n : 1) * sizeof *at), *cur = malloc((n ? n : 1) * sizeof *cur);
	size_t *out = malloc((n ? n : 1) * sizeof *out);
	if (!at || !cur || !out) {
		free(at);
		free(cur);
		free(out);
		return NULL;
	}
	for (size_t i = 0; i < ds->n; i++)
		at[i] = SIZE_MAX;
	for (size_t j = 0; j < n; j++)
		at[o->set[j]] = j;
	for (size_t i = 0; i < n; i++) {
		size_t j = a->rows[i].row < ds->n ? at[a->rows[i].row] : SIZE_MAX;
		if (j == SIZE_MAX) { /* not the kept row set after all */
			free(at);
			free(cur);
			free(out);
			return NULL;
		}
		cur[j] = i;
	}
	for (size_t j = 0; j < n; j++)
		out[j] = cur[o->ord[k][j]];
	free(at);
	free(cur);
	return out;
}

void orders_put_ranked(const struct dataset *ds, struct analysis *a, enum ord_kind k,
			const void *first, size_t stride)
{
	struct row_orders *o = a->orders;

	if (a->in_set_order) {
		orders_put(a, k, first, stride);
		return;
	}
	if (!o || !o->record || o->n != a->n || o->ord[k] || o->ds != ds || o->dn != ds->n)
		return;
	size_t n = a->n, *at = malloc((ds->n ? ds->n : 1) * sizeof *at);
	size_t *ord = malloc((n ? n : 1) * sizeof *ord);
	if (!at || !ord) {
		free(at);
		free(ord);
		return;
	}
	for (size_t i = 0; i < ds->n; i++)
		at[i] = SIZE_MAX;
	for (size_t j = 0; j < n; j++)
		at[o->set[j]] = j;
	for (size_t j = 0; j < n; j++) {
		size_t i = *(const size_t *)((const char *)first + j * stride);
		size_t r = i < n ? a->rows[i].row : SIZE_MAX;
		if (r >= ds->n || at[r] == SIZE_MAX) { /* not the kept row set after all */
			free(at);
			free(ord);
			return;
		}
		ord[j] = at[r];
	}
	free(at);
	o->ord[k] = ord;
}

void orders_put(struct analysis *a, enum ord_kind k, const void *first, size_t stride)
{
	struct row_orders *o = a->orders;

	if (!a->in_set_order || !o || !o->record || o->n != a->n || o->ord[k] ||
	    !(o->ord[k] = malloc((a->n ? a->n : 1) * sizeof *o->ord[k])))
		return;
	for (size_t j = 0; j < a->n; j++)
		o->ord[k][j] = *(const size_t *)((const char *)first + j * stride);
}

/* ---- ordering ------------------------------------------------------------------------ */

/* Every ordering in this file is total: its own key, then the system id, then the dataset row.
 * Ranking then needs no stable sort: qsort with these comparators gives one order. */

/* -1, 0, 1 for doubles, NAN after every number whatever the direction. */
int analysis_cmp_num(double x, double y, int dir)
{
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return dir * ((x > y) - (x < y));
}

/* The final tie-break of every ordering: the system id, then the submitter (one id can have
 * several: the order must not come from the file), then the dataset row. */
int analysis_cmp_tie(const struct row *a, size_t ia, const struct row *b, size_t ib)
{
	int c = strcmp(nz(a->system), nz(b->system));

	if (!c)
		c = strcmp(nz(a->submitter), nz(b->submitter));
	if (c)
		return c;
	return (ia > ib) - (ia < ib);
}

/* A run of equal numbers in the order of their rows' tie ranks (a radix sort of the ranks):
 * what cmp's tie-break gives, without reading a name. */
static void run_by_tie(skey_make_fn make, const void *ctx, const uint32_t *tie,
		       const struct numsort_item *s, size_t n, struct numsort_item *it,
		       struct numsort_item *tmp, size_t *ord)
{
	struct skey k;

	for (size_t q = 0; q < n; q++) {
		make(ctx, s[q].at, &k);
		it[q] = (struct numsort_item){ tie[k.row], s[q].at };
	}
	const struct numsort_item *o = numsort_run(it, tmp, n);
	for (size_t q = 0; q < n; q++)
		ord[q] = o[q].at;
}

int skey_sort_num(size_t n, int dir, int (*cmp)(const void *, const void *), skey_make_fn make,
		  const void *ctx, size_t *ord, const uint32_t *tie)
{
	/* below this qsort is as fast, and the bundled data's groups are that small */
	enum { RADIX_MIN = 256 };
	struct numsort_item *r = NULL, *tmp = NULL;
	struct skey *run = NULL, k;
	size_t run_cap = 0;

	if (n >= RADIX_MIN) {
		r = malloc(n * sizeof *r);
		tmp = malloc(n * sizeof *tmp);
	}
	if (!r || !tmp) {
		free(r);
		free(tmp);
		goto plain;
	}
	for (size_t i = 0; i < n; i++) {
		make(ctx, i, &k);
		r[i] = (struct numsort_item){ numsort_key(k.v, dir), i };
	}
	struct numsort_item *s = numsort_run(r, tmp, n), *spare = s == r ? tmp : r, *spare2 = NULL;
	/* each run of equal numbers is given its keys and ordered by cmp's tie-break alone */
	for (size_t j = 0; j < n;) {
		size_t e = j + 1;
		while (e < n && s[e].key == s[j].key)
			e++;
		if (e - j == 1) {
			ord[j] = s[j].at;
			j = e;
			continue;
		}
		/* a long run, with the dataset's tie ranks: sorted by them (columns of few values,
		 * N, cluster, the Pareto mark, a cost no row has, sorted runs of 10^4 rows and more
		 * by names: 30-40 ms at 10^5 rows) */
		if (tie && e - j >= RADIX_MIN && (spare2 || (spare2 = malloc(n * sizeof *spare2)))) {
			run_by_tie(make, ctx, tie, s + j, e - j, spare, spare2, ord + j);
			j = e;
			continue;
		}
		if (e - j > run_cap) {
			struct skey *g = realloc(run, (e - j) * sizeof *run);
			if (!g) {
				free(run);
				free(s);
				free(spare);
				free(spare2);
				goto plain;
			}
			run = g;
			run_cap = e - j;
		}
		for (size_t q = j; q < e; q++)
			make(ctx, s[q].at, &run[q - j]);
		qsort(run, e - j, sizeof *run, cmp);
		for (size_t q = j; q < e; q++)
			ord[q] = run[q - j].i;
		j = e;
	}
	free(run);
	free(s);
	free(spare);
	free(spare2);
	return 0;
plain:
	if (!(run = malloc((n ? n : 1) * sizeof *run)))
		return -1;
	for (size_t i = 0; i < n; i++)
		make(ctx, i, &run[i]);
	qsort(run, n, sizeof *run, cmp);
	for (size_t j = 0; j < n; j++)
		ord[j] = run[j].i;
	free(run);
	return 0;
}

/* Text columns compare case-insensitively (ASCII), then exactly; numbers with NAN last. */
int analysis_skey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c;

	if (a->s) {
		if (!(c = ascii_casecmp(a->s, b->s)))
			c = strcmp(a->s, b->s);
		c *= a->dir;
	} else {
		c = analysis_cmp_num(a->v, b->v, a->dir);
	}
	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* ---- ranking -------------------------------------------------------------------------- */


static int tie_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;

	return analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* The ranks by sorts of keys with the comparators (few rows, or no memory for the radix). */
static int ranks_by_qsort(const struct dataset *ds, struct row_ranks *rk)
{
	size_t n = ds->n;
	struct skey *k = malloc((n ? n : 1) * sizeof *k);
	const struct col_def *d = reg_col(COL_SYSTEM);

	if (!k)
		return -1;
	/* the keys sort_keys makes for the system column, over every row of the dataset */
	for (size_t i = 0; i < n; i++)
		k[i] = (struct skey){ .s = d->text(&ds->rows[i]), .r = &ds->rows[i], .row = i, .i = i, .dir = 1 };
	qsort(k, n, sizeof *k, analysis_skey_cmp);
	for (size_t j = 0; j < n; j++)
		rk->sys[k[j].i] = (uint32_t)j;
	qsort(k, n, sizeof *k, tie_cmp);
	for (size_t j = 0; j < n; j++)
		rk->tie[k[j].i] = (uint32_t)j;
	free(k);
	return 0;
}

/* The texts an order of names compares, in turn, bytes as unsigned (sys: the system id folded
 * as ascii_casecmp folds it, then as it is, then the submitter; tie: the system id, then the
 * submitter); rows equal in all of them in row order. */
static const char *rank_text(const struct row *r, bool sys, int level, bool *fold)
{
	*fold = sys && level == 0;
	return nz(level - sys <= 0 ? r->system : r->submitter);
}

/* Bytes [off, off + 8) of s (known to reach off), folded or not, as a big-endian number: a
 * string that ends there is padded with zero bytes, so numbers order as the texts do. */
static uint64_t name_chunk(const char *s, size_t off, bool fold)
{
	uint64_t k = 0;
	size_t b = 0;

	for (s += off; b < 8 && s[b]; b++)
		k = k << 8 | (unsigned char)(fold ? ascii_fold((unsigned char)s[b]) : s[b]);
	return b ? k << (8 * (8 - b)) : 0; /* (a shift by 64 is no shift) */
}

/* A stretch of the items still to order: equal in the texts before level and in the bytes
 * before off of that level's. */
struct name_span {
	size_t lo, hi, off;
	int level;
};

/* rank[i] made the place of dataset row i in the order of names (sys or tie; see rank_text),
 * by a radix sort of each text's next 8 bytes, then of the next 8 over each run of equal ones,
 * and so on; a short run is sorted with the comparator (analysis_skey_cmp, tie_cmp), which
 * gives the same order. it[n], tmp[n] are scratch. 0, or -1 out of memory. */
static int ranks_by_radix(const struct dataset *ds, bool sys, struct numsort_item *it,
			  struct numsort_item *tmp, uint32_t *rank)
{
	enum { SHORT = 48 }; /* below this the comparator sorts faster than 8 passes of 256 */
	const struct col_def *d = reg_col(COL_SYSTEM);
	size_t n = ds->n, ns = 0, cap = 64;
	struct name_span *st = malloc(cap * sizeof *st);
	struct skey k[SHORT];
	int nlev = sys ? 3 : 2;
	bool fold;

	if (!st)
		return -1;
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ 0, i };
	st[ns++] = (struct name_span){ 0, n, 0, 0 };
	while (ns) {
		struct name_span sp = st[--ns];
		size_t len = sp.hi - sp.lo;
		if (len < 2)
			continue;
		if (len < SHORT) {
			for (size_t q = 0; q < len; q++) {
				size_t i = it[sp.lo + q].at;
				k[q] = (struct skey){ .s = d->text(&ds->rows[i]), .r = &ds->rows[i], .row = i,
						      .i = i, .dir = 1 };
			}
			qsort(k, len, sizeof *k, sys ? analysis_skey_cmp : tie_cmp);
			for (size_t q = 0; q < len; q++)
				it[sp.lo + q].at = k[q].i;
			continue;
		}
		/* the rows in the order of the span are read at random: the row sixteen on and the
		 * text of the row eight on fetched meanwhile (at 10^6 rows each was a cache miss) */
		for (size_t q = sp.lo; q < sp.hi; q++) {
			if (q + 16 < sp.hi)
				__builtin_prefetch(&ds->rows[it[q + 16].at].system);
			if (q + 8 < sp.hi)
				__builtin_prefetch(rank_text(&ds->rows[it[q + 8].at], sys, sp.level, &fold) + sp.off);
			const char *t = rank_text(&ds->rows[it[q].at], sys, sp.level, &fold);
			it[q].key = name_chunk(t, sp.off, fold);
		}
		struct numsort_item *r = numsort_run(it + sp.lo, tmp + sp.lo, len);
		if (r != it + sp.lo)
			memcpy(it + sp.lo, r, len * sizeof *it);
		for (size_t j = sp.lo; j < sp.hi;) {
			size_t e = j + 1;
			while (e < sp.hi && it[e].key == it[j].key)
				e++;
			/* a run of equal bytes: on into the text, or (ended: equal texts) the next one;
			 * equal in every text, the rows stay in row order (the sorts are stable) */
			bool ended = (it[j].key & 0xff) == 0;
			if (e - j > 1 && !(ended && sp.level + 1 == nlev)) {
				if (ns == cap) {
					struct name_span *g = realloc(st, 2 * cap * sizeof *st);
					if (!g) {
						free(st);
						return -1;
					}
					st = g;
					cap *= 2;
				}
				st[ns++] = ended ? (struct name_span){ j, e, 0, sp.level + 1 }
						 : (struct name_span){ j, e, sp.off + 8, sp.level };
			}
			j = e;
		}
	}
	for (size_t j = 0; j < n; j++)
		rank[it[j].at] = (uint32_t)j;
	free(st);
	return 0;
}

struct row_ranks *analysis_ranks_make_by(const struct dataset *ds, bool radix)
{
	size_t n = ds->n, m = n ? n : 1;
	struct row_ranks *rk = n <= UINT32_MAX ? calloc(1, sizeof *rk) : NULL;
	struct numsort_item *it = NULL, *tmp = NULL;
	int rc = -1;

	if (!rk || !(rk->sys = malloc(m * sizeof *rk->sys)) || !(rk->tie = malloc(m * sizeof *rk->tie))) {
		analysis_ranks_free(rk);
		return NULL;
	}
	/* names of 10^5 rows sorted by the comparators took 225 M instructions, most of a
	 * summary's name work; by their bytes, eight at a time, far fewer (make bench) */
	if (radix && (it = malloc(m * sizeof *it)) && (tmp = malloc(m * sizeof *tmp)))
		rc = ranks_by_radix(ds, true, it, tmp, rk->sys) < 0 || ranks_by_radix(ds, false, it, tmp, rk->tie) < 0 ? -1 : 0;
	free(it);
	free(tmp);
	if (rc < 0 && ranks_by_qsort(ds, rk) < 0) {
		analysis_ranks_free(rk);
		return NULL;
	}
	rk->rows = ds->rows;
	rk->n = n;
	return rk;
}

struct row_ranks *analysis_ranks_make(const struct dataset *ds)
{
	return analysis_ranks_make_by(ds, true);
}

void analysis_ranks_free(struct row_ranks *r)
{
	if (r) {
		free(r->sys);
		free(r->tie);
		free(r);
	}
}

const uint32_t *ranks_of(const struct dataset *ds, const struct analysis *a, bool tie)
{
	const struct row_ranks *r = a->ranks;

	return r && r->n == ds->n && r->rows == ds->rows ? (tie ? r->tie : r->sys) : NULL;
}

/* ord[a->n] the rows of a in system id order by the dataset's ranks: the order the names
 * give (a total order over the dataset's rows is one over any of them). */
static bool system_by_rank(const struct dataset *ds, const struct analysis *a, size_t *ord)
{
	size_t n = a->n;
	const uint32_t *rank = ranks_of(ds, a, false);

	if (!rank)
		return false;
	struct numsort_item *it = malloc(n * sizeof *it), *tmp = it ? malloc(n * sizeof *tmp) : NULL;
	if (!tmp) {
		free(it);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ rank[a->rows[i].row], i };
	const struct numsort_item *s = numsort_run(it, tmp, n);
	for (size_t j = 0; j < n; j++)
		ord[j] = s[j].at;
	free(it);
	free(tmp);
	return true;
}

/* A distinct text of a text column, for its order. */
struct tslot_key {
	const char *s;
	uint32_t slot;
	int dir;
};

static int tslot_cmp(const void *pa, const void *pb)
{
	const struct tslot_key *a = pa, *b = pb;
	int c = ascii_casecmp(a->s, b->s);

	if (!c)
		c = strcmp(a->s, b->s);
	return c * a->dir;
}

/* ord[a->n] the rows of a by text column d (descending with desc) as analysis_skey_cmp orders
 * them, from the dataset's tie ranks: the few distinct texts sorted, then one radix sort of
 * (the text's place, the row's tie rank). False (ord untouched) without ranks, with more than
 * a few distinct texts (ids: sorting names is as fast), or out of memory. A sort by submitter
 * or family sorted 10^5 rows by their names: 30-40 ms. */
static bool text_by_rank(const struct dataset *ds, const struct analysis *a, const struct col_def *d,
			 bool desc, size_t *ord)
{
	size_t n = a->n, ns = 0;
	const uint32_t *tie = ranks_of(ds, a, true);
	uint32_t *fi = tie ? malloc(n * sizeof *fi) : NULL, *place = NULL;
	struct text_slot *sl = NULL;
	struct tslot_key *tk = NULL;
	struct numsort_item *it = NULL, *tmp = NULL;
	bool ok = false;

	if (!fi || text_slots(ds, a, d->text, n / 16 + 16, fi, &sl, &ns) != 0)
		goto out;
	if (!(tk = malloc(ns * sizeof *tk)) || !(place = malloc(ns * sizeof *place)) ||
	    !(it = malloc(n * sizeof *it)) || !(tmp = malloc(n * sizeof *tmp)))
		goto out;
	for (size_t j = 0; j < ns; j++)
		tk[j] = (struct tslot_key){ sl[j].s, (uint32_t)j, desc ? -1 : 1 };
	qsort(tk, ns, sizeof *tk, tslot_cmp);
	/* equal texts at two addresses share a place: the tie-break orders their rows */
	for (size_t j = 0, p = 0; j < ns; j++) {
		p += j > 0 && tslot_cmp(&tk[j - 1], &tk[j]) != 0;
		place[tk[j].slot] = (uint32_t)p;
	}
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ (uint64_t)place[fi[i]] << 32 | tie[a->rows[i].row], i };
	const struct numsort_item *o = numsort_run(it, tmp, n);
	for (size_t j = 0; j < n; j++)
		ord[j] = o[j].at;
	ok = true;
out:
	free(fi);
	free(sl);
	free(tk);
	free(place);
	free(it);
	free(tmp);
	return ok;
}

/* What sort_keys' keys of a number column are made from. */
struct num_ctx {
	const struct dataset *ds;
	const struct analysis *a;
	const struct col_def *d;
	int dir;
};

static void num_key(const void *ctx, size_t i, struct skey *k)
{
	const struct num_ctx *c = ctx;
	const struct arow *o = &c->a->rows[i];

	*k = (struct skey){ .v = c->d->value(o), .r = &c->ds->rows[o->row], .row = o->row, .i = i,
			    .dir = c->dir };
}

/* ord[a->n] (a->n >= 2) made the order of a's rows by col, descending with desc: the kept
 * system order when there is one, else sorted (and the system order kept). 0, or -1 out of
 * memory. */
static int sort_keys(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		     size_t *ord)
{
	size_t n = a->n;
	/* the system id order of the rows as collected depends on them alone: kept */
	const size_t *kept = col == COL_SYSTEM && !desc ? orders_get(a, ORD_SYSTEM) : NULL;
	const struct col_def *d = reg_col(col);

	if (kept) {
		memcpy(ord, kept, n * sizeof *ord);
		return 0;
	}
	if (col == COL_SYSTEM && !desc && system_by_rank(ds, a, ord)) {
		orders_put(a, ORD_SYSTEM, ord, sizeof *ord);
		return 0;
	}
	if (d->text && text_by_rank(ds, a, d, desc, ord)) {
		if (col == COL_SYSTEM && !desc)
			orders_put(a, ORD_SYSTEM, ord, sizeof *ord);
		return 0;
	}
	if (d->text) {
		struct skey *k = malloc(n * sizeof *k);
		if (!k)
			return -1;
		for (size_t i = 0; i < n; i++) {
			const struct row *r = &ds->rows[a->rows[i].row];
			k[i] = (struct skey){ .s = d->text(r), .r = r, .row = a->rows[i].row, .i = i,
					      .dir = desc ? -1 : 1 };
		}
		qsort(k, n, sizeof *k, analysis_skey_cmp);
		for (size_t j = 0; j < n; j++)
			ord[j] = k[j].i;
		free(k);
	} else {
		struct num_ctx c = { ds, a, d, desc ? -1 : 1 };
		if (skey_sort_num(n, c.dir, analysis_skey_cmp, num_key, &c, ord, ranks_of(ds, a, true)) < 0)
			return -1;
	}
	if (col == COL_SYSTEM && !desc)
		orders_put(a, ORD_SYSTEM, ord, sizeof *ord);
	return 0;
}

/* The sort key analysis_sort makes for shown row i by col (descending with desc). */
static void rank_key(const struct dataset *ds, const struct analysis *a, enum col col, bool desc, size_t i,
		     struct skey *k)
{
	const struct col_def *d = reg_col(col);
	struct num_ctx c = { ds, a, d, desc ? -1 : 1 };

	if (d->text) { /* as sort_keys makes a text column's keys */
		const struct arow *o = &a->rows[i];
		const struct row *r = &ds->rows[o->row];
		*k = (struct skey){ .s = d->text(r), .r = r, .row = o->row, .i = i, .dir = c.dir };
	} else {
		num_key(&c, i, k);
	}
}

int analysis_rank_cmp(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		      size_t i, size_t j)
{
	struct skey k[2];

	rank_key(ds, a, col, desc, i, &k[0]);
	rank_key(ds, a, col, desc, j, &k[1]);
	return analysis_skey_cmp(&k[0], &k[1]);
}

/* A shown row's T and its ranking key, for analysis_sort_by_t. */
struct t_rank {
	double t;
	struct skey k;
};

static int t_rank_cmp(const void *pa, const void *pb)
{
	const struct t_rank *x = pa, *y = pb;
	int c = analysis_cmp_num(x->t, y->t, 1);

	return c ? c : analysis_skey_cmp(&x->k, &y->k);
}

int analysis_sort_by_t(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		       size_t *idx, size_t n)
{
	struct t_rank *k = malloc((n ? n : 1) * sizeof *k);

	if (!k)
		return -1;
	for (size_t q = 0; q < n; q++) {
		k[q].t = a->rows[idx[q]].T;
		rank_key(ds, a, col, desc, idx[q], &k[q].k);
	}
	qsort(k, n, sizeof *k, t_rank_cmp);
	for (size_t q = 0; q < n; q++)
		idx[q] = k[q].k.i;
	free(k);
	return 0;
}

size_t *analysis_system_order(const struct dataset *ds, struct analysis *a, struct gs_err *err)
{
	size_t n = a->n;
	size_t *ord = malloc((n ? n : 1) * sizeof *ord);

	if (!ord || (n >= 2 && sort_keys(ds, a, COL_SYSTEM, false, ord) < 0)) {
		free(ord);
		err_oom(err, NULL, 0);
		return NULL;
	}
	if (n == 1)
		ord[0] = 0;
	return ord;
}

void permute_walk(struct analysis *a, size_t *src)
{
	for (size_t i = 0; i < a->n; i++) {
		if (src[i] == i)
			continue;
		struct arow hold = a->rows[i];
		size_t j = i;
		for (;;) {
			size_t from = src[j];
			src[j] = j;
			if (from == i) {
				a->rows[j] = hold;
				break;
			}
			a->rows[j] = a->rows[from];
			j = from;
		}
	}
}

/* Each cycle's places are listed first, in a walk of u alone, then the rows moved along the
 * list with the row a few places on fetched meanwhile. At 10^6 rows each step of permute_walk
 * waited on a cache miss of the permutation before the row's could start; u is half its size. */
void permute_listed(struct analysis *a, uint32_t *u, uint32_t *cyc)
{
	enum { AHEAD = 8 };

	for (size_t i = 0; i < a->n; i++) {
		if (u[i] == i)
			continue;
		size_t m = 0, j = i;
		for (;;) {
			size_t from = u[j];
			u[j] = (uint32_t)j;
			cyc[m++] = (uint32_t)j;
			if (from == i)
				break;
			j = from;
		}
		struct arow hold = a->rows[i];
		for (size_t q = 0; q + 1 < m; q++) {
			if (q + AHEAD < m)
				arow_prefetch(&a->rows[cyc[q + AHEAD]]);
			a->rows[cyc[q]] = a->rows[cyc[q + 1]];
		}
		a->rows[cyc[m - 1]] = hold;
	}
}

int analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		  struct gs_err *err)
{
	size_t n = a->n;

	if (n < 2)
		return 0;
	size_t *src = malloc(n * sizeof *src);
	if (!src || sort_keys(ds, a, col, desc, src) < 0) {
		free(src);
		err_oom(err, NULL, 0);
		return -1;
	}
	a->in_set_order = false;
	/* place j takes row src[j] (shown rows < 2^32: analysis_run says so) */
	uint32_t *u = malloc(n * sizeof *u), *cyc = u ? malloc(n * sizeof *cyc) : NULL;
	if (cyc) {
		for (size_t j = 0; j < n; j++)
			u[j] = (uint32_t)src[j];
		free(src);
		permute_listed(a, u, cyc);
	} else { /* out of memory: the rows moved as the walk goes */
		permute_walk(a, src);
		free(src);
	}
	free(u);
	free(cyc);
	return 0;
}
