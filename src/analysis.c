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

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
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

/* The shown rows idx[ns] into a->rows with their references and metrics: the paper-rule
 * candidates of the sensitivity range (slowest first), then the reference of the mode (pinned:
 * the pinned row; family: each family's pick; paper: the pick). 0, or -1 when out of memory. */
static int refs_and_metrics(const struct dataset *ds, struct analysis *a, const size_t *idx,
			    size_t ns, long pinned)
{
	size_t best = 0;
	struct skey *ck = malloc((ns ? ns : 1) * sizeof *ck);

	if (!ck)
		return -1;
	a->n = ns;
	for (size_t i = 0; i < ns; i++)
		a->rows[i].row = idx[i];
	a->ncand = pick_ref(ds, idx, ns, a->rule, ck, &best);
	if (a->ncand && !(a->cand = malloc(a->ncand * sizeof *a->cand))) {
		free(ck);
		return -1;
	}
	for (size_t i = 0; i < a->ncand; i++)
		a->cand[i] = (struct be_cand){ .row = ck[i].row, .n = -1 };
	free(ck);
	if (a->mode == REF_FAMILY) {
		if (family_refs(ds, a->rows, ns, a->rule) < 0)
			return -1;
	} else if (a->mode == REF_PINNED) {
		a->ref = pinned;
		a->ref_hidden = true;
		for (size_t i = 0; i < ns && a->ref_hidden; i++)
			a->ref_hidden = idx[i] != (size_t)pinned;
	} else if (ns) {
		a->ref = (long)best;
	}
	for (size_t i = 0; i < ns; i++) {
		struct arow *o = &a->rows[i];
		if (a->mode != REF_FAMILY)
			o->ref = (size_t)a->ref;
		metrics(ds, o);
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
	a->nbref = 0;
	if (!(pk = malloc((ns ? ns : 1) * sizeof *pk))) {
		err_set(err, NULL, 0, 0, "out of memory");
		return -1;
	}
	a->pareto_cost = p->pareto_cost;
	a->npareto = pareto(a->rows, ns, p->pareto_cost, pk);
	free(pk);
	if (analysis_breakeven(ds, a, p->theta, err) < 0)
		return -1;
	if (p->fit && fit_families(ds, a, err) < 0)
		return -1;
	if (analysis_sort(ds, a, COL_SYSTEM, false, err) < 0 || clusters_run(a, p, err) < 0)
		return -1;
	return analysis_sort(ds, a, p->sort, p->desc, err);
}

/* One pass over the dataset collects the shown rows; then the references, the metrics, the
 * intervals, the Pareto flags, the break-even rows, the clusters (in system id order) and the
 * ranking. */
int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err)
{
	size_t ns = 0, npinned = 0;
	long pinned = -1;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;
	size_t *idx = NULL;

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
	collect_rows(ds, p, a, mode, idx, &ns, &pinned, &npinned);
	if (mode == REF_PINNED && pinned_check(ds, p, a, pinned, npinned, err) < 0)
		goto fail;
	if (grow_rows(a, ns) < 0)
		goto oom;
	a->mode = mode;
	a->rule = (unsigned)p->ref_rule < RULE_COUNT ? p->ref_rule : RULE_SLOWEST;
	if (refs_and_metrics(ds, a, idx, ns, pinned) < 0)
		goto oom;
	free(idx);
	idx = NULL;
	if (analysis_finish(ds, p, a, err) < 0)
		goto fail;
	return 0;
oom:
	err_set(err, NULL, 0, 0, "out of memory");
fail:
	free(idx);
	{
		const char *round = a->round, *workload = a->workload;
		analysis_free(a);
		reset(a);
		a->round = round;
		a->workload = workload;
	}
	return -1;
}
