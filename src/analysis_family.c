/* analysis_family.c: the rows by accelerator family: the comparison groups of family mode
 * (each family's reference and candidates), and the scaling-law fit of each family with its
 * verdict against the data. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "numsort.h"
#include "fit.h"


static int slot_cmp(const void *pa, const void *pb)
{
	const struct text_slot *a = *(const struct text_slot *const *)pa, *b = *(const struct text_slot *const *)pb;

	return strcmp(a->s, b->s);
}

/* A hash of a pointer for a table of them (splitmix64's first step). */
static size_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 31));
}

int text_slots(const struct dataset *ds, const struct analysis *a,
	       const char *(*text)(const struct row *), size_t max, uint32_t *fi,
	       struct text_slot **slots, size_t *ns)
{
	size_t cap = 0, n = 0, tcap = 64;
	struct text_slot *sl = NULL;
	uint32_t *tab = calloc(tcap, sizeof *tab); /* slot + 1; 0: free */

	if (!tab)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const char *f = text(&ds->rows[a->rows[i].row]);
		size_t j = ptr_hash(f) & (tcap - 1), k;
		while (tab[j] && sl[tab[j] - 1].s != f)
			j = (j + 1) & (tcap - 1);
		if (tab[j]) {
			k = tab[j] - 1;
		} else {
			if (n == max) {
				free(tab);
				free(sl);
				return 1;
			}
			if (n == cap) {
				struct text_slot *v = realloc(sl, (cap = cap ? cap * 2 : 16) * sizeof *v);
				if (!v)
					goto oom;
				sl = v;
			}
			sl[n] = (struct text_slot){ .s = f };
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

static const char *row_family(const struct row *r)
{
	return nz(r->family);
}

/* The shown rows' families in name order, equal texts one family: row i's is
 * (*sl)[(*fi)[i]].group, and family q's rows start at (*at)[q] when put in that order
 * ((*at)[*nf] = a->n). 0, or -1 when out of memory (then nothing is left to free). */
static int family_buckets(const struct dataset *ds, const struct analysis *a, uint32_t **fi,
			  struct text_slot **sl, size_t **at, size_t *nf)
{
	size_t n = a->n, ns = 0, q = 0;
	struct text_slot **by = NULL;

	*sl = NULL;
	*at = NULL;
	*nf = 0;
	if (!(*fi = malloc((n ? n : 1) * sizeof **fi)) || text_slots(ds, a, row_family, SIZE_MAX, *fi, sl, &ns) != 0 ||
	    !(by = malloc((ns ? ns : 1) * sizeof *by)) || !(*at = calloc(ns + 1, sizeof **at))) {
		free(*fi);
		free(*sl);
		free(by);
		*fi = NULL;
		*sl = NULL;
		return -1;
	}
	for (size_t j = 0; j < ns; j++)
		by[j] = &(*sl)[j];
	qsort(by, ns, sizeof *by, slot_cmp);
	for (size_t j = 0; j < ns; j++) {
		q += j > 0 && strcmp(by[j]->s, by[j - 1]->s) != 0;
		by[j]->group = q;
		(*at)[q + 1] += by[j]->n;
	}
	*nf = ns ? q + 1 : 0;
	for (size_t f = 0; f < *nf; f++)
		(*at)[f + 1] += (*at)[f];
	free(by);
	return 0;
}

/* A shown row for the tie-break alone: its names at hand, so that comparing two reads no row. */
struct tkey {
	const char *sys, *sub;
	uint32_t row, i;
};

/* analysis_cmp_tie on tkeys. */
static int tkey_cmp(const void *pa, const void *pb)
{
	const struct tkey *a = pa, *b = pb;
	int c = strcmp(a->sys, b->sys);

	if (!c)
		c = strcmp(a->sub, b->sub);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* a's shown rows into k[a->n] (indices into a->rows) by family text (bytes), then the
 * tie-break, with where each family ends in (*fend)[0..*nfam) (the caller frees it): the rows
 * put by family (a table of their pooled family texts, the families in name order), then each
 * family's rows sorted by the tie-break alone. The order is total, so it is the one a sort by
 * both keys gives; at 10^5 rows of ten families that sort compared the family texts 1.7 M
 * times. 0, or -1 when out of memory. */
static int family_order(const struct dataset *ds, const struct analysis *a, size_t *k,
			size_t **fend, size_t *nfam)
{
	size_t n = a->n, nf;
	struct text_slot *sl;
	uint32_t *fi;
	size_t *at;

	if (family_buckets(ds, a, &fi, &sl, &at, &nf) < 0)
		return -1;
	/* with the dataset's tie ranks, the rows in tie order put by family are each family
	 * sorted; without, the rows put by family as tkeys, each family sorted, then made keys in
	 * that order (at 10^5 rows the sorts by name were two fifths of turning the fits on) */
	const uint32_t *rank = ranks_of(ds, a, true);
	struct numsort_item *it = rank ? malloc((n ? n : 1) * sizeof *it) : NULL;
	struct numsort_item *tmp = it ? malloc((n ? n : 1) * sizeof *tmp) : NULL;
	struct tkey *t = NULL;
	bool ok = tmp != NULL;
	if (tmp) {
		for (size_t i = 0; i < n; i++)
			it[i] = (struct numsort_item){ rank[a->rows[i].row], i };
		const struct numsort_item *s = numsort_run(it, tmp, n);
		for (size_t j = 0; j < n; j++) {
			size_t i = s[j].at;
			k[at[sl[fi[i]].group]++] = i;
		}
	} else if ((t = malloc((n ? n : 1) * sizeof *t))) {
		for (size_t i = 0; i < n; i++) {
			const struct row *r = &ds->rows[a->rows[i].row];
			t[at[sl[fi[i]].group]++] = (struct tkey){ nz(r->system), nz(r->submitter),
								  a->rows[i].row, (uint32_t)i };
		}
		for (size_t f = 0, from = 0; f < nf; f++) { /* at[f] is now where family f ends */
			qsort(t + from, at[f] - from, sizeof *t, tkey_cmp);
			from = at[f];
		}
		for (size_t j = 0; j < n; j++)
			k[j] = t[j].i;
		ok = true;
	}
	free(it);
	free(tmp);
	free(t);
	free(fi);
	free(sl);
	if (!ok) {
		free(at);
		return -1;
	}
	*fend = at; /* at[f] is now where family f ends */
	*nfam = nf;
	return 0;
}

/* The groups of family mode: the shown rows grouped by family (exact text, in name order),
 * each group's reference by the rule and its candidates (a pick is a total order, so the order
 * of the rows within a group does not matter: the rows are grouped by a table of their
 * families, not sorted: the sort of 10^6 rows by family held 64 MB of keys and qsort's
 * copy of them, and was the peak of --print at that size). rows[i].row is set; rows[i].ref
 * and .group, and a->groups, a->cand are filled (a->cand has room for n). */
int analysis_family_groups(const struct dataset *ds, struct analysis *a, enum ref_rule rule)
{
	size_t n = a->n, ng = 0, most = 1;
	struct arow *rows = a->rows;
	uint32_t *fi = NULL;
	struct text_slot *sl = NULL;
	size_t *at = NULL, *g = NULL, *refs = NULL;
	struct skey *c = NULL;
	int rc = -1;

	/* a group per distinct text; its rows in g[at[group]..at[group + 1]) */
	if (family_buckets(ds, a, &fi, &sl, &at, &ng) < 0)
		goto out;
	for (size_t q = 0; q < ng; q++)
		if (at[q + 1] - at[q] > most)
			most = at[q + 1] - at[q];
	if (!(g = malloc((n ? n : 1) * sizeof *g)) || !(c = malloc(most * sizeof *c)) ||
	    !(refs = malloc((ng ? ng : 1) * sizeof *refs)) ||
	    !(a->groups = calloc(ng ? ng : 1, sizeof *a->groups)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t q = sl[fi[i]].group;
		g[at[q]++] = rows[i].row;
	}
	for (size_t q = 0, s = 0; q < ng; q++) { /* at[q] is now where group q ends */
		size_t best = 0, e = at[q], nc = analysis_pick_ref(ds, g + s, e - s, rule, c, &best);
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
static int fit_judge(const struct dataset *ds, struct analysis *a, const size_t *k, size_t n,
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
	v->n_ref = (double)ds->rows[a->rows[k[0]].ref].accelerators;
	v->t_ref = ds->rows[a->rows[k[0]].ref].minutes;
	/* the row furthest off, from the E' alone, and the rows beyond 10%, furthest off first:
	 * each must hold the fitted E' in its own interval, drawn only for them and only until
	 * one does not (one is enough for "poor", and the furthest off is the likeliest: a poor
	 * fit of 10^5 rows draws one or two). One pass over the rows, in family order, the row
	 * eight on fetched meanwhile (at 10^6 rows each was a cache miss, twice) */
	enum { AHEAD = 8 };
	struct off_key *ok = malloc((n ? n : 1) * sizeof *ok);
	size_t nok = 0;
	if (!ok)
		return -1;
	for (size_t j = 0; j < n; j++) {
		if (j + AHEAD < n)
			arow_prefetch(&a->rows[k[j + AHEAD]]);
		const struct arow *o = &a->rows[k[j]];
		double off = fabs(log(o->Ep / o->ep_fit));
		if (!isfinite(off))
			off = INFINITY;
		if (off > worst) {
			worst = off;
			v->worst_n = o->N;
			v->worst_obs = o->Ep;
			v->worst_fit = o->ep_fit;
		}
		double rel = fabs(o->Ep / o->ep_fit - 1);
		if (!(isfinite(rel) && rel <= FIT_VERDICT_TOL))
			ok[nok++] = (struct off_key){ isfinite(rel) ? rel : INFINITY, k[j] };
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
		if (!o->ci_done && (!boot_ep_bounds(ds, o, &blo, &bhi, NULL) || o->ep_fit < blo || o->ep_fit > bhi)) {
			v->ok = false;
			break;
		}
		if (analysis_intervals(ds, a, ok[at].i, ok[at].i + 1, NULL) < 0) {
			free(ok);
			return -1;
		}
		const struct aci *ci = analysis_ci(a, o);
		v->ok = ci->ep_lo <= o->ep_fit && o->ep_fit <= ci->ep_hi;
	}
	free(ok);
	return 0;
}

/* The scaling-law fit of each family of the shown rows (rows grouped as family_refs does),
 * and every row's fitted E' and residual from its family's fit. */
int analysis_fit_families(const struct dataset *ds, struct analysis *a, struct gs_err *err)
{
	size_t n = a->n, nf = 0, *fend = NULL;
	size_t *k = malloc((n ? n : 1) * sizeof *k); /* the rows in family order */
	double *pn = NULL, *pt;
	uint32_t *fam_of = NULL; /* each shown row's fit */
	struct fit_job *jobs = NULL;

	if (!k)
		goto oom;
	/* by family, then the tie-break: kept for the next run on these rows, and for fits added
	 * to the ranked rows (the export's) */
	const size_t *kept = orders_get(a, ORD_FAMILY);
	size_t *mapped = kept ? NULL : orders_mapped(ds, a, ORD_FAMILY);
	if (mapped)
		kept = mapped;
	if (kept) {
		/* pooled texts: one family, one pointer, mostly (texts are compared where they
		 * differ) */
		const char *last = NULL;
		memcpy(k, kept, n * sizeof *k);
		free(mapped);
		if (!(fend = malloc((n ? n : 1) * sizeof *fend)))
			goto oom;
		for (size_t j = 0; j < n; j++) {
			const char *f = nz(ds->rows[a->rows[k[j]].row].family);
			if (j > 0 && f != last && strcmp(f, last) != 0)
				fend[nf++] = j;
			last = f;
		}
		if (n)
			fend[nf++] = n;
	} else {
		if (family_order(ds, a, k, &fend, &nf) < 0)
			goto oom;
		orders_put_ranked(ds, a, ORD_FAMILY, k, sizeof *k);
	}
	/* the points after the order: the order's work memory is free by then */
	if (!(a->fits = calloc(nf ? nf : 1, sizeof *a->fits)) ||
	    !(fam_of = malloc((n ? n : 1) * sizeof *fam_of)) ||
	    !(pn = malloc((n ? n : 1) * 2 * sizeof *pn)))
		goto oom;
	pt = pn + n;
	/* each family's points in its own stretch of pn, pt, then every family fitted at once:
	 * the fits not kept are made on every processor (fit_memo_run_all) */
	if (!(jobs = malloc((nf ? nf : 1) * sizeof *jobs)))
		goto oom;
	for (size_t f = 0, g = 0; f < nf; g = fend[f++]) {
		struct fam_fit *ff = &a->fits[a->nfits];
		for (size_t e = g; e < fend[f]; e++) {
			pn[e] = a->rows[k[e]].N;
			pt[e] = a->rows[k[e]].T;
			fam_of[k[e]] = (uint32_t)a->nfits;
		}
		ff->family = ds->rows[a->rows[k[g]].row].family;
		ff->group = a->rows[k[g]].group;
		jobs[a->nfits++] = (struct fit_job){ pn + g, pt + g, fend[f] - g, &ff->fit };
	}
	if (fit_memo_run_all(boot_fit_memo(a), jobs, a->nfits, err) < 0)
		goto fail;
	/* every row's fitted E' and residual in the order the rows are in (one pass through
	 * memory, not one row at a time in family order) */
	for (size_t i = 0; i < n; i++) {
		struct arow *o = &a->rows[i];
		const struct fam_fit *ff = &a->fits[fam_of[i]];
		const struct row *rf = &ds->rows[o->ref];
		o->ep_fit = rf->minutes / fit_t(&ff->fit, o->N) * (double)rf->accelerators / o->N;
		if (!isfinite(o->ep_fit))
			o->ep_fit = NAN;
		o->fit_resid = fit_resid(&ff->fit, o->N, o->T);
	}
	/* then each fit's verdict, on its family's rows */
	for (size_t f = 0, g = 0; f < nf; g = fend[f++])
		if (fit_judge(ds, a, k + g, fend[f] - g, &a->fits[f]) < 0)
			goto oom;
	for (size_t f = 0; f < a->nfits; f++) {
		struct group *gr = &a->groups[a->fits[f].group];
		/* a group's own fit only when the family is the whole group */
		gr->fit = gr->family ? (long)f : a->nfits == 1 ? 0 : -1;
	}
	free(k);
	free(fend);
	free(pn);
	free(fam_of);
	free(jobs);
	return 0;
oom:
	err_oom(err, NULL, 0);
fail:
	free(k);
	free(fend);
	free(pn);
	free(fam_of);
	free(jobs);
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

int analysis_fits_add(const struct dataset *ds, struct analysis *a, struct gs_err *err)
{
	if (a->fits)
		return 0;
	if (analysis_fit_families(ds, a, err) < 0) {
		analysis_fits_drop(a);
		return -1;
	}
	return 0;
}

void analysis_fits_drop(struct analysis *a)
{
	free(a->fits);
	a->fits = NULL;
	a->nfits = 0;
	for (size_t g = 0; g < a->ngroups; g++)
		a->groups[g].fit = -1;
	for (size_t i = 0; i < a->n; i++)
		a->rows[i].ep_fit = a->rows[i].fit_resid = NAN;
}
