/* analysis.c: one round x workload under filters: reference, speedup, E', Karp-Flatt, spread,
 * Pareto frontier, break-even, k-means clusters and ranking (the orders and the ranking in
 * analysis_order.c, the family groups and fits in analysis_family.c). No terminal here.
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

void analysis_free(struct analysis *a)
{
	free(a->rows);
	free(a->ci);
	free(a->fits);
	free(a->cand);
	free(a->groups);
	boot_cache_release(a->boot);
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

/* ---- metrics -------------------------------------------------------------------------- */

/* The split of o's E' (its T, N, S, Ep set) against reference f: samples charged as the
 * official score charges them (times the scaling factor), and throughput from them. */
static void split(const struct row *r, const struct row *f, struct arow *o)
{
	double sf = r->scaling_factor > 0 && isfinite(r->scaling_factor) ? r->scaling_factor : 1;
	double fsf = f->scaling_factor > 0 && isfinite(f->scaling_factor) ? f->scaling_factor : 1;
	double sref = f->stc * fsf;

	/* a row made elsewhere than the loader may leave them 0: no data either */
	o->gbs = r->gbs > 0 ? r->gbs : NAN;
	o->Sc = r->stc > 0 ? r->stc * sf : NAN;
	o->X = o->Sc / o->T;
	/* e_thru as E' / e_conv (the same quotient as (X / N) / (X_ref / N_ref)): the product of
	 * the two is then E' to the last bit but one, whatever digits are shown */
	o->e_conv = sref / o->Sc;
	o->e_thru = o->Ep / o->e_conv;
	if (!isfinite(o->e_conv) || !isfinite(o->e_thru) || !(o->e_conv > 0))
		o->e_conv = o->e_thru = NAN;
	o->e_conv_rcp = f->rcp_samples / r->rcp_samples;
	if (!isfinite(o->e_conv_rcp) || !(o->e_conv_rcp > 0))
		o->e_conv_rcp = NAN;
}

/* o->row and o->ref are set; fills in every metric. */
static void metrics(const struct dataset *ds, struct arow *o)
{
	size_t row = o->row, ref = o->ref, same_as = o->same_as;
	const struct row *r = &ds->rows[row], *f = &ds->rows[ref];
	double Tr = f->minutes, Nr = (double)f->accelerators;

	memset(o, 0, sizeof *o);
	o->row = row;
	o->ref = ref;
	o->same_as = same_as;
	o->cluster = same_as ? -1 : 0;
	o->is_ref = row == ref;
	o->T = r->minutes;
	o->N = (double)r->accelerators;
	o->A = o->N * o->T / 60;
	o->S = Tr / o->T;
	/* S / (N / N_r) written as S * N_r / N: exactly 1 for the reference itself. */
	o->Ep = o->S * Nr / o->N;
	/* a ratio past the largest double is no number: blank, ranked last, never a break-even
	 * (shown as '-' it would otherwise still rank first and reach every theta) */
	if (!isfinite(o->S) || !isfinite(o->Ep))
		o->S = o->Ep = NAN;
	double p = o->N / Nr;
	o->cross_family = !same(r->family, f->family);
	/* Karp-Flatt's serial fraction means something only for more of the same hardware doing
	 * worse than linear: blank, with the reason, otherwise (analysis_kf computes it). */
	if (!(p > 1))
		o->kf_why = KF_NOT_LARGER;
	else if (o->cross_family)
		o->kf_why = KF_CROSS_FAMILY;
	else if (o->S > p)
		o->kf_why = KF_SUPERLINEAR;
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
	o->t_lo = o->t_hi = NAN;
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
		}
	}
	split(r, f, o);
}

double analysis_kf(const struct dataset *ds, const struct arow *o)
{
	double p = o->N / (double)ds->rows[o->ref].accelerators;

	return o->kf_why == KF_OK ? (1 / o->S - 1 / p) / (1 - 1 / p) : NAN;
}

struct spread analysis_spread(const struct dataset *ds, const struct arow *o)
{
	const struct row *f = &ds->rows[o->ref];
	double Tr = f->minutes, Nr = (double)f->accelerators;
	struct spread v = { NAN, NAN, NAN, NAN };

	if (!isnan(o->t_lo)) {
		v.s_lo = Tr / o->t_hi;
		v.s_hi = Tr / o->t_lo;
		v.ep_lo = v.s_lo * Nr / o->N;
		v.ep_hi = v.s_hi * Nr / o->N;
	}
	return v;
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

	if (!c)
		c = analysis_cmp_num(x->a, y->a, 1);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* A row is on the frontier when no row has T and A (or, with cost, the mid-range cost to train)
 * both <= and one <. In order of T, a row survives when its A is the least of its equal-T
 * group and beats, strictly, the least A of every faster group. Rows with NAN T or A, and
 * carried-over rows, never qualify. Sets rows[].pareto and *on to how many are on it. 0, or
 * -1 when out of memory. */
static int pareto(struct analysis *a, bool cost, size_t *on)
{
	struct arow *rows = a->rows;
	size_t n = a->n;
	double best = INFINITY;
	struct pkey *k = malloc((n ? n : 1) * sizeof *k);

	*on = 0;
	if (!k)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		rows[i].pareto = false;
		if (arow_carried(&rows[i]))
			continue; /* its run list is on the frontier, or not, once */
		k[m++] = (struct pkey){ .t = rows[i].T, .a = cost ? arow_cost(&rows[i]) : rows[i].A, .i = i };
	}
	n = m;
	qsort(k, n, sizeof *k, pkey_cmp);
	for (size_t g = 0; g < n;) {
		size_t e = g;
		double gmin = INFINITY; /* the group's least A */
		for (; e < n && (e == g || k[e].t == k[g].t); e++) {
			if (k[e].a < gmin)
				gmin = k[e].a;
			rows[k[e].i].pareto = false;
		}
		if (gmin < best) {
			best = gmin;
			for (size_t j = g; j < e; j++)
				if (k[j].a == gmin) {
					rows[k[j].i].pareto = true;
					++*on;
				}
		}
		g = e;
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
	/* "4.1" or "V4.1" is v4.1: the version, not the spelling */
	for (size_t k = 0; want && i == nr && k < nr; k++)
		if (bench_round_version(want) >= 0 && bench_round_version(want) == bench_round_version(names[k]))
			i = k;
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
	/* the id the round itself published: v4.1's ssd is its RetinaNet */
	if (want && i == nw) {
		char low[64];
		size_t k = 0;
		for (; want[k] && k + 1 < sizeof low; k++)
			low[k] = (char)(want[k] >= 'A' && want[k] <= 'Z' ? want[k] - 'A' + 'a' : want[k]);
		low[k] = '\0';
		if (!want[k])
			i = name_find(names, nw, bench_reg_canon(low, round), false);
	}
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
	a->ci = keep.ci; /* nci 0: no row points into it now */
	a->ci_cap = keep.ci_cap;
	a->boot = keep.boot;
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
 * count in *ns, and those before filters in pre (room for ds->n), a->total of them; and, when
 * mode is REF_PINNED, the row the pinned name gives (*pinned, -1 none) and how many distinct
 * rows it names (*npinned). */
static void collect_rows(const struct dataset *ds, const struct params *p, struct analysis *a,
			 enum ref_mode mode, size_t *idx, size_t *ns, size_t *pre, long *pinned,
			 size_t *npinned)
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
		pre[a->total++] = i;
		if (p->available_only && (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH))
			continue;
		if (!all && !filter_pass(&p->filter, r))
			continue;
		idx[(*ns)++] = i;
	}
}

/* ---- carried-over rows ---------------------------------------------------------------- */

/* Rows by run list class (skey.v), then round by version (skey.s), then a row with an energy
 * score first (of one round, the row that stands keeps what only a power submission measured,
 * as the collapse of one system's submissions does), then the tie-break. */
static int carry_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = analysis_cmp_num(a->v, b->v, 1);

	if (!c)
		c = text_version_cmp(a->s, b->s);
	if (!c)
		c = isnan(a->r->energy_j) - isnan(b->r->energy_j);
	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* Among the rows g[m] (dataset indices), each run list once (struct row's runs_class): of the
 * rows sharing one, the earliest round's (of one round, one with an energy score, then the
 * first by the tie-break) stands and the others are carried over; same[i] (same may be NULL)
 * is set to 1 + the standing row's dataset index for those and 0 for the rest. How many are
 * carried over into *count. 0, or -1 when out of memory. */
static int carried_mark(const struct dataset *ds, const size_t *g, size_t m, size_t *same,
			size_t *count)
{
	struct skey *k = malloc((m ? m : 1) * sizeof *k);
	size_t nk = 0;

	*count = 0;
	if (!k)
		return -1;
	for (size_t i = 0; i < m; i++) {
		const struct row *r = &ds->rows[g[i]];
		if (same)
			same[i] = 0;
		if (r->runs_class)
			k[nk++] = (struct skey){ .v = r->runs_class, .s = r->round, .r = r, .row = g[i],
						 .i = i };
	}
	qsort(k, nk, sizeof *k, carry_cmp);
	for (size_t j = 1, first = 0; j < nk; j++) {
		if (k[j].v != k[first].v) {
			first = j;
			continue;
		}
		++*count;
		if (same)
			same[k[j].i] = k[first].row + 1;
	}
	free(k);
	return 0;
}

long analysis_carried_by(const struct analysis *a, size_t row)
{
	for (size_t i = 0; a->ncarried && i < a->n; i++)
		if (a->rows[i].row == row)
			return arow_carried(&a->rows[i]) ? (long)a->rows[i].same_as - 1 : -1;
	return -1;
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

/* Each group's candidates' median minutes, and whether its reference is an outlier among them:
 * the rule picks the slowest of the fewest-accelerator rows, so one slow submission (a
 * misconfigured run, an old software stack) inflates every E' of the group without a word. */
static void cand_median(const struct dataset *ds, struct analysis *a)
{
	for (size_t k = 0; k < a->ngroups; k++) {
		struct group *g = &a->groups[k];
		g->cand_median = g->ref_ratio = NAN;
		g->ref_slow = false;
		if (!g->ncand)
			continue;
		/* the candidates are in order of their minutes, slowest first */
		g->cand_median = (ds->rows[g->cand[(g->ncand - 1) / 2].row].minutes +
				  ds->rows[g->cand[g->ncand / 2].row].minutes) / 2;
		if (g->ref >= 0) {
			const struct row *r = &ds->rows[g->ref];
			g->ref_ratio = r->minutes / g->cand_median;
			g->ref_slow = r->accelerators == ds->rows[g->cand[0].row].accelerators &&
				      r->minutes > REF_SLOW_RATIO * g->cand_median;
		}
	}
}

/* The shown rows idx[ns] into a->rows with their groups, references and metrics: in the
 * cross-round view (all) which are carried over (carried_mark); family mode, a group per family
 * (analysis_family_groups); else one group of every pooled row with the reference of the mode
 * (pinned: the pinned row; paper: the pick) and the paper-rule candidates of the sensitivity
 * range (slowest first). A carried-over row takes the group and reference of the row standing
 * for it. 0, or -1 when out of memory. */
static int refs_and_metrics(const struct dataset *ds, struct analysis *a, const size_t *idx,
			    size_t ns, long pinned, bool all)
{
	size_t *same = NULL, *pool = NULL, np = 0;
	int rc = -1;

	a->n = ns;
	if (!(same = malloc((ns ? ns : 1) * sizeof *same)) ||
	    !(pool = malloc((ns ? ns : 1) * sizeof *pool)))
		goto out;
	if (all && carried_mark(ds, idx, ns, same, &a->ncarried) < 0)
		goto out;
	for (size_t i = 0; i < ns; i++) {
		a->rows[i].row = idx[i];
		a->rows[i].same_as = all ? same[i] : 0;
		if (!a->rows[i].same_as)
			pool[np++] = idx[i];
	}
	if (!(a->cand = malloc((ns ? ns : 1) * sizeof *a->cand)))
		goto out;
	if (a->mode == REF_FAMILY) {
		if (analysis_family_groups(ds, a, a->rule) < 0)
			goto out;
	} else if (ns) {
		size_t best = 0;
		struct skey *ck = malloc(ns * sizeof *ck);
		if (!ck || !(a->groups = calloc(1, sizeof *a->groups))) {
			free(ck);
			goto out;
		}
		a->ncand = analysis_pick_ref(ds, pool, np, a->rule, ck, &best);
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
		a->groups[0] = (struct group){ .ref = a->ref, .nrows = np, .ncand = a->ncand, .fit = -1 };
		a->ngroups = 1;
	}
	cand_fit(a);
	/* a carried-over row on the group and reference of the row standing for it */
	for (size_t i = 0; i < ns && a->mode == REF_FAMILY && a->ncarried; i++) {
		struct arow *o = &a->rows[i];
		for (size_t j = 0; o->same_as && j < ns; j++)
			if (a->rows[j].row == o->same_as - 1) {
				o->ref = a->rows[j].ref;
				o->group = a->rows[j].group;
				break;
			}
	}
	cand_median(ds, a);
	for (size_t i = 0; i < ns; i++) {
		struct arow *o = &a->rows[i];
		size_t g = o->group;
		if (a->mode != REF_FAMILY) {
			o->ref = (size_t)a->ref;
			g = 0;
		}
		metrics(ds, o);
		o->group = g;
		if (!arow_carried(o) && o->N > a->groups[g].n_max)
			a->groups[g].n_max = o->N;
	}
	rc = 0;
out:
	free(same);
	free(pool);
	return rc;
}

/* The Pareto flags, break-even, fits, clusters (in system
 * id order: k-means++ seeding picks points by index) and the ranking of a's rows. 0, or -1. */
static int analysis_finish(const struct dataset *ds, const struct params *p, struct analysis *a,
			   struct gs_err *err)
{
	/* no interval is drawn here: what shows one asks for it (analysis_intervals), and the
	 * break-even range draws only the rows it must */
	a->pareto_cost = p->pareto_cost;
	a->brackets_only = p->brackets_only;
	a->range_later = p->range_later;
	if (pareto(a, p->pareto_cost, &a->npareto) < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	if (p->fit && (analysis_fit_families(ds, a, err) < 0 || analysis_fits_own_ref(ds, p, a, err) < 0))
		return -1;
	if (analysis_breakeven(ds, a, p->theta, err) < 0)
		return -1;
	if (p->brackets_only)
		return 0;
	/* the clusters read the rows in system id order through an index: the rows move once,
	 * into the ranking */
	size_t *ord = analysis_system_order(ds, a, err), m = 0;
	if (!ord)
		return -1;
	for (size_t j = 0; j < a->n; j++) /* carried-over rows join no cluster */
		if (!arow_carried(&a->rows[ord[j]]))
			ord[m++] = ord[j];
	int rc = clusters_run(a, ord, m, p, err);
	free(ord);
	if (rc < 0)
		return -1;
	/* a report that ranks nothing leaves the rows where they are */
	return p->unranked ? 0 : analysis_sort(ds, a, p->sort, p->desc, err);
}

/* One pass over the dataset collects the shown rows; then the references, the metrics, the
 * intervals, the Pareto flags, the break-even rows, the clusters (in system id order) and,
 * unless p->unranked, the ranking. */
static int run(const struct dataset *ds, const struct params *p, struct analysis *a, bool finish,
	       struct gs_err *err)
{
	size_t ns = 0, npinned = 0;
	long pinned = -1;
	enum ref_mode mode = (unsigned)p->mode < REF_MODE_COUNT ? p->mode : REF_PAPER;
	size_t *idx = NULL, *pre = NULL;

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
	if (!(idx = malloc((ds->n ? ds->n : 1) * sizeof *idx)) ||
	    !(pre = malloc((ds->n ? ds->n : 1) * sizeof *pre)))
		goto oom;
	a->all_rounds = p->all_rounds;
	collect_rows(ds, p, a, mode, idx, &ns, pre, &pinned, &npinned);
	if (mode == REF_PINNED && pinned_check(ds, p, a, pinned, npinned, err) < 0)
		goto fail;
	/* the total counts each run list once too, as the rows before filters pool them */
	if (p->all_rounds) {
		if (carried_mark(ds, pre, a->total, NULL, &a->total_carried) < 0)
			goto oom;
		a->total -= a->total_carried;
	}
	free(pre);
	pre = NULL;
	if (grow_rows(a, ns) < 0)
		goto oom;
	a->mode = mode;
	a->rule = (unsigned)p->ref_rule < RULE_COUNT ? p->ref_rule : RULE_SLOWEST;
	if (refs_and_metrics(ds, a, idx, ns, pinned, p->all_rounds) < 0)
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
	free(pre);
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
