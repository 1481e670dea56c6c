/* analysis.c: one round x workload under filters: reference, speedup, E', Karp-Flatt, spread,
 * Pareto frontier, break-even, k-means clusters and ranking. No terminal here.
 *
 * Every ordering in this file ends in an explicit tie-break (system id, submitter, dataset row), so
 * qsort, unstable as it is, gives the same order with every libc. String comparisons that users
 * see as case-insensitive use ASCII folding, not the locale, for the same reason. */
#include "analysis.h"
#include "bench_reg.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_impl.h"
#include "numsort.h"

/* ---- names ---------------------------------------------------------------------------- */

void params_init(struct params *p)
{
	memset(p, 0, sizeof *p);
	p->mode = REF_FAMILY;
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

size_t ref_rule_pick(enum ref_rule r, size_t n)
{
	return n == 0 ? 0 : r == RULE_FASTEST ? n - 1 : r == RULE_MEDIAN ? n / 2 : 0;
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

/* ---- orders kept for the same row set ------------------------------------------------ */

static void orders_free(struct row_orders *o)
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

/* a->orders made the store of the row set idx[n] of ds for a run (whole, or finish false: the
 * check of the names, which sorts nothing): kept when it is the same set (in the same order,
 * the same values), else emptied for it. Out of memory nothing is kept. */
static void orders_ready(const struct dataset *ds, struct analysis *a, const size_t *idx, size_t n,
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

void orders_put(struct analysis *a, enum ord_kind k, const void *first, size_t stride)
{
	struct row_orders *o = a->orders;

	if (!a->in_set_order || !o || !o->record || o->n != a->n || o->ord[k] ||
	    !(o->ord[k] = malloc((a->n ? a->n : 1) * sizeof *o->ord[k])))
		return;
	for (size_t j = 0; j < a->n; j++)
		o->ord[k][j] = *(const size_t *)((const char *)first + j * stride);
}

void analysis_free(struct analysis *a)
{
	free(a->rows);
	free(a->fits);
	free(a->cand);
	free(a->groups);
	boot_cache_release(a->boot);
	orders_free(a->orders);
	memset(a, 0, sizeof *a);
}

/* ---- strings -------------------------------------------------------------------------- */

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
	return in_list(r->family, f->families, f->nfamilies) && in_list(r->vendor, f->vendors, f->nvendors) &&
	       in_list(r->availability, f->availability, f->navailability) &&
	       in_list(r->division, f->divisions, f->ndivisions);
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

void skey_sort_num(struct skey *k, size_t n, int dir, int (*cmp)(const void *, const void *))
{
	/* below this qsort is as fast, and the bundled data's groups are that small */
	enum { RADIX_MIN = 256 };
	struct numsort_item *r = NULL, *tmp = NULL;
	struct skey *out = NULL;

	if (n >= RADIX_MIN) {
		r = malloc(n * sizeof *r);
		tmp = malloc(n * sizeof *tmp);
		out = malloc(n * sizeof *out);
	}
	if (!r || !tmp || !out) {
		free(r);
		free(tmp);
		free(out);
		qsort(k, n, sizeof *k, cmp);
		return;
	}
	for (size_t i = 0; i < n; i++)
		r[i] = (struct numsort_item){ numsort_key(k[i].v, dir), i };
	struct numsort_item *s = numsort_run(r, tmp, n);
	for (size_t j = 0; j < n; j++)
		out[j] = k[s[j].at];
	/* equal numbers: their order is cmp's tie-break, over each run alone */
	for (size_t j = 0; j < n;) {
		size_t e = j + 1;
		while (e < n && s[e].key == s[j].key)
			e++;
		if (e - j > 1)
			qsort(out + j, e - j, sizeof *out, cmp);
		j = e;
	}
	memcpy(k, out, n * sizeof *k);
	free(r);
	free(tmp);
	free(out);
}

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
		c = analysis_cmp_num(a->v, b->v, a->dir);
	}
	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
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
		*ref = c[ref_rule_pick(rule, nc)].row;
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
	/* a ratio past the largest double is no number: blank, ranked last, never a break-even
	 * (shown as '-' it would otherwise still rank first and reach every theta) */
	if (!isfinite(o->S) || !isfinite(o->Ep))
		o->S = o->E = o->Ep = NAN;
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

/* ---- Pareto --------------------------------------------------------------------------- */

/* (T, cost axis) of one shown row, for the frontier sweep. */
struct pkey {
	double t, a;
	size_t i;
};

static int pkey_cmp(const void *pa, const void *pb)
{
	const struct pkey *x = pa, *y = pb;
	int c = analysis_cmp_num(x->t, y->t, 1);

	return c ? c : analysis_cmp_num(x->a, y->a, 1);
}

/* A row is on the frontier when no row has T and A (or, with cost, the mid-range cost to train)
 * both <= and one <. In order of (T, A), a
 * row survives when its A is the least of its equal-T group and beats, strictly, the least A
 * of every faster group: O(n log n). Rows with NAN T or A never qualify. Sets rows[].pareto
 * and returns how many are on it; k[n] is scratch. */
static size_t pareto(struct analysis *a, bool cost, struct pkey *k)
{
	struct arow *rows = a->rows;
	size_t n = a->n;
	double best = INFINITY;
	size_t on = 0;
	const size_t *kept = orders_get(a, cost ? ORD_PARETO_COST : ORD_PARETO_A);

	for (size_t j = 0; j < n; j++) {
		size_t i = kept ? kept[j] : j;
		k[j] = (struct pkey){ .t = rows[i].T, .a = cost ? arow_cost(&rows[i]) : rows[i].A, .i = i };
		rows[i].pareto = false;
	}
	if (!kept) {
		qsort(k, n, sizeof *k, pkey_cmp);
		orders_put(a, cost ? ORD_PARETO_COST : ORD_PARETO_A, &k[0].i, sizeof *k);
	}
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

/* ---- ranking -------------------------------------------------------------------------- */


int analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		  struct gs_err *err)
{
	size_t n = a->n;

	if (n < 2)
		return 0;
	struct skey *k = malloc(n * sizeof *k);
	if (!k) {
		err_oom(err, NULL, 0);
		return -1;
	}
	/* the system id order of the rows as collected depends on them alone: kept */
	const size_t *kept = col == COL_SYSTEM && !desc ? orders_get(a, ORD_SYSTEM) : NULL;
	const struct col_def *d = reg_col(col);
	if (kept) {
		for (size_t j = 0; j < n; j++)
			k[j].i = kept[j];
	} else {
		for (size_t i = 0; i < n; i++) {
			const struct row *r = &ds->rows[a->rows[i].row];
			k[i] = (struct skey){ .s = d->text ? d->text(r) : NULL, .r = r, .row = a->rows[i].row,
					      .i = i, .dir = desc ? -1 : 1 };
			if (!k[i].s)
				k[i].v = d->value(&a->rows[i]);
		}
		if (d->text)
			qsort(k, n, sizeof *k, skey_cmp);
		else
			skey_sort_num(k, n, desc ? -1 : 1, skey_cmp);
		if (col == COL_SYSTEM && !desc)
			orders_put(a, ORD_SYSTEM, &k[0].i, sizeof *k);
	}
	a->in_set_order = false;
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
		err_oom(err, NULL, 0);
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
		err_oom(err, NULL, 0);
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

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* A family among the shown rows: its text, its rows, and its group (families of equal text
 * share one). */
struct fam_slot {
	const char *s;
	size_t n, group;
};

static int slot_cmp(const void *pa, const void *pb)
{
	const struct fam_slot *a = *(const struct fam_slot *const *)pa, *b = *(const struct fam_slot *const *)pb;

	return strcmp(a->s, b->s);
}

/* A hash of a pointer for a table of them (splitmix64's first step). */
static size_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 31));
}

/* The family slot of each shown row in fi[n] (their texts pooled, so a pointer stands for a
 * family: a table of pointers finds it), the slots in *slots[*ns]. 0, or -1 when out of memory. */
static int family_slots(const struct dataset *ds, const struct analysis *a, uint32_t *fi,
			struct fam_slot **slots, size_t *ns)
{
	size_t cap = 0, n = 0, tcap = 64;
	struct fam_slot *sl = NULL;
	uint32_t *tab = calloc(tcap, sizeof *tab); /* slot + 1; 0: free */

	if (!tab)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const char *f = nz(ds->rows[a->rows[i].row].family);
		size_t j = ptr_hash(f) & (tcap - 1), k;
		while (tab[j] && sl[tab[j] - 1].s != f)
			j = (j + 1) & (tcap - 1);
		if (tab[j]) {
			k = tab[j] - 1;
		} else {
			if (n == cap) {
				struct fam_slot *v = realloc(sl, (cap = cap ? cap * 2 : 16) * sizeof *v);
				if (!v)
					goto oom;
				sl = v;
			}
			sl[n] = (struct fam_slot){ .s = f };
			k = n++;
			tab[j] = (uint32_t)n;
			if (n * 2 > tcap) { /* a table twice as large, the slots put back */
				uint32_t *t = calloc(tcap * 2, sizeof *t);
				if (!t)
					goto oom;
				free(tab);
				tab = t;
				tcap *= 2;
				for (size_t q = 0; q < n; q++) {
					size_t x = ptr_hash(sl[q].s) & (tcap - 1);
					while (tab[x])
						x = (x + 1) & (tcap - 1);
					tab[x] = (uint32_t)q + 1;
				}
			}
		}
		fi[i] = (uint32_t)k;
		sl[k].n++;
	}
	free(tab);
	*slots = sl;
	*ns = n;
	return 0;
oom:
	free(tab);
	free(sl);
	return -1;
}

/* The groups of family mode: the shown rows grouped by family (exact text, in name order),
 * each group's reference by the rule and its candidates (a pick is a total order, so the order
 * of the rows within a group does not matter: the rows are grouped by a table of their
 * families, not sorted: the sort of 10^6 rows by family held 64 MB of keys and qsort's
 * copy of them, and was the peak of --print at that size). rows[i].row is set; rows[i].ref
 * and .group, and a->groups, a->cand are filled (a->cand has room for n). */
static int family_groups(const struct dataset *ds, struct analysis *a, enum ref_rule rule)
{
	size_t n = a->n, nsl = 0, ng = 0, most = 1;
	struct arow *rows = a->rows;
	uint32_t *fi = malloc((n ? n : 1) * sizeof *fi);
	struct fam_slot *sl = NULL, **by = NULL;
	size_t *at = NULL, *g = NULL, *refs = NULL;
	struct skey *c = NULL;
	int rc = -1;

	if (!fi || family_slots(ds, a, fi, &sl, &nsl) < 0 || !(by = malloc((nsl ? nsl : 1) * sizeof *by)))
		goto out;
	for (size_t j = 0; j < nsl; j++)
		by[j] = &sl[j];
	qsort(by, nsl, sizeof *by, slot_cmp);
	/* a group per distinct text; its rows in g[at[group]..at[group + 1]) */
	if (!(at = calloc(nsl + 1, sizeof *at)))
		goto out;
	for (size_t j = 0; j < nsl; j++) {
		if (j > 0 && strcmp(by[j]->s, by[j - 1]->s) != 0)
			ng++;
		by[j]->group = ng;
		at[ng + 1] += by[j]->n;
	}
	ng = nsl ? ng + 1 : 0;
	for (size_t q = 0; q < ng; q++) {
		if (at[q + 1] > most)
			most = at[q + 1];
		at[q + 1] += at[q];
	}
	if (!(g = malloc((n ? n : 1) * sizeof *g)) || !(c = malloc(most * sizeof *c)) ||
	    !(refs = malloc((ng ? ng : 1) * sizeof *refs)) ||
	    !(a->groups = calloc(ng ? ng : 1, sizeof *a->groups)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t q = sl[fi[i]].group;
		g[at[q]++] = rows[i].row;
	}
	for (size_t q = 0, s = 0; q < ng; q++) { /* at[q] is now where group q ends */
		size_t best = 0, e = at[q], nc = pick_ref(ds, g + s, e - s, rule, c, &best);
		/* .cand is set once a->cand has its final size (an offset until then) */
		a->groups[q] = (struct group){ .family = ds->rows[g[s]].family, .ref = (long)best,
					       .nrows = e - s, .cand = NULL, .ncand = nc, .fit = -1 };
		for (size_t j = 0; j < nc; j++)
			a->cand[a->ncand++] = (struct be_cand){ .row = c[j].row };
		refs[q] = best;
		s = e;
	}
	a->ngroups = ng;
	for (size_t i = 0; i < n; i++) {
		size_t q = sl[fi[i]].group;
		rows[i].ref = refs[q];
		rows[i].group = q;
	}
	rc = 0;
out:
	free(fi);
	free(sl);
	free(by);
	free(at);
	free(g);
	free(refs);
	free(c);
	return rc;
}

/* A row by how far its E' is off the fitted one (relative), furthest first, then by index. */
struct off_key {
	double rel;
	size_t i;
};

static int off_cmp(const void *pa, const void *pb)
{
	const struct off_key *a = pa, *b = pb;

	if (a->rel != b->rel)
		return (a->rel < b->rel) - (a->rel > b->rel);
	return (a->i > b->i) - (a->i < b->i);
}

/* The verdict of family fit ff over its rows k[n] (their E' on their own reference against
 * the fitted E' at their N on the same reference): ok when every row lies within 10% of the
 * fitted E' or, failing that, within its own 90% interval (drawn only for such rows); the row
 * furthest off (in ln E') is named. 0, or -1 when out of memory. */
static int fit_judge(const struct dataset *ds, struct analysis *a, const struct skey *k, size_t n,
		     struct fam_fit *ff)
{
	struct fit_verdict *v = &ff->v;
	double worst = -1;
	const struct fit *f = &ff->fit;

	memset(v, 0, sizeof *v);
	v->worst_n = v->worst_obs = v->worst_fit = v->be = NAN;
	v->be_why = "";
	v->peak_ok = f->peak_in_range && isfinite(f->usl.se_kappa) && f->usl.kappa > 2 * f->usl.se_kappa;
	if (!fit_usable(f) || n == 0)
		return 0;
	v->judged = true;
	v->ok = true;
	v->n_ref = (double)ds->rows[a->rows[k[0].i].ref].accelerators;
	v->t_ref = ds->rows[a->rows[k[0].i].ref].minutes;
	/* the row furthest off, from the E' alone */
	for (size_t j = 0; j < n; j++) {
		const struct arow *o = &a->rows[k[j].i];
		double off = fabs(log(o->Ep / o->ep_fit));
		if (!isfinite(off))
			off = INFINITY;
		if (off > worst) {
			worst = off;
			v->worst_n = o->N;
			v->worst_obs = o->Ep;
			v->worst_fit = o->ep_fit;
		}
	}
	/* then the rows beyond 10%, furthest off first: each must hold the fitted E' in its own
	 * interval, drawn only for them and only until one does not (one is enough for "poor",
	 * and the furthest off is the likeliest: a poor fit of 10^5 rows draws one or two) */
	struct off_key *ok = malloc((n ? n : 1) * sizeof *ok);
	size_t nok = 0;
	if (!ok)
		return -1;
	for (size_t j = 0; j < n; j++) {
		const struct arow *o = &a->rows[k[j].i];
		double rel = fabs(o->Ep / o->ep_fit - 1);
		if (!(isfinite(rel) && rel <= FIT_VERDICT_TOL))
			ok[nok++] = (struct off_key){ isfinite(rel) ? rel : INFINITY, k[j].i };
	}
	/* the furthest off found in one pass; the rest sorted only when it holds (a poor fit of
	 * 10^5 rows sorted 10^5 keys to look at the first: 60 M instructions a recompute) */
	size_t top = 0;
	for (size_t j = 1; j < nok; j++)
		if (off_cmp(&ok[j], &ok[top]) < 0)
			top = j;
	for (size_t j = 0; j < nok && v->ok; j++) {
		if (j == 1)
			qsort(ok, nok, sizeof *ok, off_cmp); /* ok[0] is then ok[top] again */
		size_t at = j == 0 ? top : j;
		struct arow *o = &a->rows[ok[at].i];
		double blo, bhi;
		/* no interval, or the fitted E' beyond every resample the row can have: no draw */
		if (!o->ci_done && (!boot_ep_bounds(ds, o, &blo, &bhi) || o->ep_fit < blo || o->ep_fit > bhi)) {
			v->ok = false;
			break;
		}
		if (analysis_intervals(ds, a, ok[at].i, ok[at].i + 1, NULL) < 0) {
			free(ok);
			return -1;
		}
		v->ok = o->ep_ci_lo <= o->ep_fit && o->ep_fit <= o->ep_ci_hi;
	}
	free(ok);
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
	/* by family, then the tie-break: kept for the next run on these rows */
	const size_t *kept = orders_get(a, ORD_FAMILY);
	for (size_t j = 0; j < n; j++) {
		size_t i = kept ? kept[j] : j;
		const struct row *r = &ds->rows[a->rows[i].row];
		k[j] = (struct skey){ .s = nz(r->family), .r = r, .row = a->rows[i].row, .i = i };
	}
	if (!kept) {
		qsort(k, n, sizeof *k, fam_cmp);
		orders_put(a, ORD_FAMILY, &k[0].i, sizeof *k);
	}
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
		ff->group = a->rows[k[g].i].group;
		if (fit_run(pn, pt, e - g, &ff->fit, err) < 0)
			goto fail;
		for (size_t i = g; i < e; i++) {
			struct arow *o = &a->rows[k[i].i];
			const struct row *rf = &ds->rows[o->ref];
			o->ep_fit = rf->minutes / fit_t(&ff->fit, o->N) * (double)rf->accelerators / o->N;
			if (!isfinite(o->ep_fit))
				o->ep_fit = NAN;
			o->fit_resid = fit_resid(&ff->fit, o->N, o->T);
		}
		if (fit_judge(ds, a, k + g, e - g, ff) < 0)
			goto oom;
		g = e;
	}
	for (size_t f = 0; f < a->nfits; f++) {
		struct group *gr = &a->groups[a->fits[f].group];
		/* a group's own fit only when the family is the whole group */
		gr->fit = gr->family ? (long)f : a->nfits == 1 ? 0 : -1;
	}
	free(k);
	free(pn);
	return 0;
oom:
	err_oom(err, NULL, 0);
fail:
	free(k);
	free(pn);
	return -1;
}

const struct fam_fit *analysis_fam_fit_of(const struct dataset *ds, const struct analysis *a,
					  size_t row)
{
	const char *fam = row < ds->n ? nz(ds->rows[row].family) : NULL;

	for (size_t i = 0; fam && i < a->nfits; i++)
		if (strcmp(nz(a->fits[i].family), fam) == 0)
			return &a->fits[i];
	return NULL;
}

const struct fit *analysis_fit_of(const struct dataset *ds, const struct analysis *a, size_t row)
{
	const struct fam_fit *ff = analysis_fam_fit_of(ds, a, row);

	return ff ? &ff->fit : NULL;
}

bool filter_empty(const struct filter *f)
{
	return !f->nfamilies && !f->nvendors && !f->navailability && !f->ndivisions;
}

/* Clears a for a new run, keeping its row buffer. */
static void reset(struct analysis *a)
{
	struct analysis keep = *a;

	free(a->fits);
	free(a->cand);
	free(a->groups);
	memset(a, 0, sizeof *a);
	a->rows = keep.rows;
	a->rows_cap = keep.rows_cap;
	a->boot = keep.boot;
	a->orders = keep.orders;
	a->ref = -1;
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

/* The rows of round x workload that p shows, as dataset indices in idx (room for ds->n), their
 * count in *ns, with a->total (before filters); and, when mode is REF_PINNED, the row the pinned
 * name gives (*pinned, -1 none) and how many distinct rows it names (*npinned). */
static void collect_rows(const struct dataset *ds, const struct params *p, struct analysis *a,
			 enum ref_mode mode, size_t *idx, size_t *ns, long *pinned, size_t *npinned)
{
	bool all = filter_empty(&p->filter);

	*ns = 0;
	a->total = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		bool here = same(r->round, a->round);
		if ((!here && !p->all_rounds) || !same(r->benchmark, a->workload))
			continue;
		if (!bench_reg_pooled(r, a->round))
			continue; /* another version of the benchmark, or no accelerators (bench_reg_notice) */
		/* a pinned name means a row of the current round, also in the cross-round view; a
		 * collapsed submission stands for its standing row */
		if (mode == REF_PINNED && here && row_named(r, p->pinned)) {
			long at = p->collapse && r->dup_of >= 0 && (size_t)r->dup_of < ds->n ? r->dup_of : (long)i;
			if (*npinned == 0 || at != *pinned)
				if ((*npinned)++ == 0)
					*pinned = at;
		}
		if (p->collapse && r->dup_of >= 0 && (size_t)r->dup_of != i && (size_t)r->dup_of < ds->n)
			continue; /* the same runs as another submitter's row: counted there */
		a->total++;
		if (p->available_only && (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH))
			continue;
		if (!all && !filter_pass(&p->filter, r))
			continue;
		idx[(*ns)++] = i;
	}
}

/* The error of a pinned name that names no row, or rows of several submitters; 0 when fine. */
static int pinned_check(const struct dataset *ds, const struct params *p, const struct analysis *a,
			long pinned, size_t npinned, struct gs_err *err)
{
	if (pinned < 0) {
		err_set(err, NULL, 0, 0, "unknown reference system '%s' for %s %s", p->pinned,
			a->round, a->workload);
		return -1;
	}
	if (npinned > 1) {
		/* one system id under several submitters: only SUBMITTER/SYSTEM says which */
		err_set(err, NULL, 0, 0, "reference system '%s' is ambiguous in %s %s (%zu submitters "
			"have it): name it SUBMITTER/SYSTEM, e.g. %s/%s", p->pinned, a->round, a->workload,
			npinned, ds->rows[pinned].submitter, ds->rows[pinned].system);
		return -1;
	}
	return 0;
}

/* a->cand down to its candidates (room for every shown row was made), and each group's
 * pointer into it. */
static void cand_fit(struct analysis *a)
{
	struct be_cand *c = a->ncand ? realloc(a->cand, a->ncand * sizeof *a->cand) : NULL;
	size_t at = 0;

	if (c)
		a->cand = c; /* else the larger block stays: as good */
	for (size_t g = 0; g < a->ngroups; g++) {
		a->groups[g].cand = a->cand + at;
		at += a->groups[g].ncand;
	}
}

/* The shown rows idx[ns] into a->rows with their groups, references and metrics: family mode,
 * a group per family (family_groups); else one group of every shown row with the reference of
 * the mode (pinned: the pinned row; paper: the pick) and the paper-rule candidates of the
 * sensitivity range (slowest first). 0, or -1 when out of memory. */
static int refs_and_metrics(const struct dataset *ds, struct analysis *a, const size_t *idx,
			    size_t ns, long pinned)
{
	a->n = ns;
	for (size_t i = 0; i < ns; i++)
		a->rows[i].row = idx[i];
	if (!(a->cand = malloc((ns ? ns : 1) * sizeof *a->cand)))
		return -1;
	if (a->mode == REF_FAMILY) {
		if (family_groups(ds, a, a->rule) < 0)
			return -1;
	} else if (ns) {
		size_t best = 0;
		struct skey *ck = malloc(ns * sizeof *ck);
		if (!ck || !(a->groups = calloc(1, sizeof *a->groups))) {
			free(ck);
			return -1;
		}
		a->ncand = pick_ref(ds, idx, ns, a->rule, ck, &best);
		for (size_t i = 0; i < a->ncand; i++)
			a->cand[i] = (struct be_cand){ .row = ck[i].row };
		free(ck);
		if (a->mode == REF_PINNED) {
			a->ref = pinned;
			a->ref_hidden = true;
			for (size_t i = 0; i < ns && a->ref_hidden; i++)
				a->ref_hidden = idx[i] != (size_t)pinned;
		} else {
			a->ref = (long)best;
		}
		a->groups[0] = (struct group){ .ref = a->ref, .nrows = ns, .ncand = a->ncand, .fit = -1 };
		a->ngroups = 1;
	}
	cand_fit(a);
	for (size_t i = 0; i < ns; i++) {
		struct arow *o = &a->rows[i];
		size_t g = o->group;
		if (a->mode != REF_FAMILY) {
			o->ref = (size_t)a->ref;
			g = 0;
		}
		metrics(ds, o);
		o->group = g;
		if (o->N > a->groups[g].n_max)
			a->groups[g].n_max = o->N;
	}
	return 0;
}

/* The Pareto flags, break-even, fits, clusters (in system
 * id order: k-means++ seeding picks points by index) and the ranking of a's rows. 0, or -1. */
static int analysis_finish(const struct dataset *ds, const struct params *p, struct analysis *a,
			   struct gs_err *err)
{
	size_t ns = a->n;
	struct pkey *pk;

	/* no interval is drawn here (about 100 us a row): what shows one asks for it
	 * (analysis_intervals), and the break-even range draws only the rows it must */
	if (!(pk = malloc((ns ? ns : 1) * sizeof *pk))) {
		err_oom(err, NULL, 0);
		return -1;
	}
	a->pareto_cost = p->pareto_cost;
	a->npareto = pareto(a, p->pareto_cost, pk);
	free(pk);
	if (p->fit && fit_families(ds, a, err) < 0)
		return -1;
	if (analysis_breakeven(ds, a, p->theta, err) < 0)
		return -1;
	if (analysis_sort(ds, a, COL_SYSTEM, false, err) < 0 || clusters_run(a, p, err) < 0)
		return -1;
	return analysis_sort(ds, a, p->sort, p->desc, err);
}

/* One pass over the dataset collects the shown rows; then the references, the metrics, the
 * intervals, the Pareto flags, the break-even rows, the clusters (in system id order) and the
 * ranking. */
static int run(const struct dataset *ds, const struct params *p, struct analysis *a, bool finish,
	       struct gs_err *err)
{
	size_t ns = 0, npinned = 0;
	long pinned = -1;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;
	size_t *idx = NULL;

	reset(a);
	if (ds->n >= UINT32_MAX) { /* arow indices are 32-bit; the loader stops before */
		err_set(err, NULL, 0, 0, "more than %u rows", (unsigned)UINT32_MAX - 1);
		return -1;
	}
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
	collect_rows(ds, p, a, mode, idx, &ns, &pinned, &npinned);
	if (mode == REF_PINNED && pinned_check(ds, p, a, pinned, npinned, err) < 0)
		goto fail;
	if (grow_rows(a, ns) < 0)
		goto oom;
	orders_ready(ds, a, idx, ns, finish);
	a->in_set_order = true; /* until the first sort */
	a->mode = mode;
	a->rule = (unsigned)p->ref_rule < RULE_COUNT ? p->ref_rule : RULE_SLOWEST;
	if (refs_and_metrics(ds, a, idx, ns, pinned) < 0)
		goto oom;
	free(idx);
	idx = NULL;
	if (finish && analysis_finish(ds, p, a, err) < 0)
		goto fail;
	return 0;
oom:
	err_oom(err, NULL, 0);
fail:
	free(idx);
	{
		const char *round = a->round, *workload = a->workload;
		struct boot_cache *boot = a->boot; /* what was drawn stays good, and may be shared */
		a->boot = NULL;
		analysis_free(a);
		reset(a);
		a->round = round;
		a->workload = workload;
		a->boot = boot;
	}
	return -1;
}

int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err)
{
	return run(ds, p, a, true, err);
}

int analysis_check(const struct dataset *ds, const struct params *p, struct analysis *a,
		   struct gs_err *err)
{
	return run(ds, p, a, false, err);
}
