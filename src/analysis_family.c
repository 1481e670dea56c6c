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
#include "fit.h"

/* A shown row by family (bytes), then the tie-break. */
static int fam_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* a's pooled rows (carried-over ones left out) into k[] (indices into a->rows; room for a->n)
 * by family text, then the tie-break, and where each family ends in (*fend)[0..*nfam) (the
 * caller frees it). 0, or -1 out of memory. */
static int family_order(const struct dataset *ds, const struct analysis *a, size_t *k,
			size_t **fend, size_t *nfam)
{
	size_t n = 0, nf = 0;
	struct skey *key = malloc((a->n ? a->n : 1) * sizeof *key);
	size_t *end = malloc((a->n ? a->n : 1) * sizeof *end);

	if (!key || !end) {
		free(key);
		free(end);
		return -1;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		if (!arow_carried(&a->rows[i]))
			key[n++] = (struct skey){ .s = nz(r->family), .r = r, .row = a->rows[i].row,
						  .i = i };
	}
	qsort(key, n, sizeof *key, fam_cmp);
	for (size_t j = 0; j < n; j++) {
		k[j] = key[j].i;
		if (j > 0 && strcmp(key[j].s, key[j - 1].s) != 0)
			end[nf++] = j;
	}
	if (n)
		end[nf++] = n;
	free(key);
	*fend = end;
	*nfam = nf;
	return 0;
}

/* The groups of family mode: the pooled rows grouped by family (exact text, in name order),
 * each group's reference by the rule and its candidates. rows[i].row is set; the pooled rows'
 * .ref and .group, and a->groups, a->cand are filled (a->cand has room for n). */
int analysis_family_groups(const struct dataset *ds, struct analysis *a, enum ref_rule rule)
{
	size_t n = a->n, ng = 0, *k = malloc((n ? n : 1) * sizeof *k), *fend = NULL, *g = NULL;
	struct skey *c = NULL;
	int rc = -1;

	if (!k || family_order(ds, a, k, &fend, &ng) < 0)
		goto out;
	if (!(g = malloc((n ? n : 1) * sizeof *g)) || !(c = malloc((n ? n : 1) * sizeof *c)) ||
	    !(a->groups = calloc(ng ? ng : 1, sizeof *a->groups)))
		goto out;
	for (size_t j = 0; j < (ng ? fend[ng - 1] : 0); j++)
		g[j] = a->rows[k[j]].row;
	for (size_t q = 0, s = 0; q < ng; s = fend[q++]) {
		size_t best = 0, e = fend[q], nc = analysis_pick_ref(ds, g + s, e - s, rule, c, &best);
		/* .cand is set once a->cand has its final size */
		a->groups[q] = (struct group){ .family = ds->rows[g[s]].family, .ref = (long)best,
					       .nrows = e - s, .cand = NULL, .ncand = nc, .fit = -1 };
		for (size_t j = 0; j < nc; j++)
			a->cand[a->ncand++] = (struct be_cand){ .row = c[j].row };
		for (size_t j = s; j < e; j++) {
			a->rows[k[j]].ref = best;
			a->rows[k[j]].group = q;
		}
	}
	a->ngroups = ng;
	rc = 0;
out:
	free(k);
	free(fend);
	free(g);
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
 * fitted E' or, failing that, within its own 90% interval; the row furthest off (in ln E') is
 * named. Intervals are drawn only for rows beyond 10%, furthest off first, and only until one
 * does not hold the fitted E': one is enough for "poor". 0, or -1 when out of memory. */
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
	struct off_key *ok = malloc((n ? n : 1) * sizeof *ok);
	size_t nok = 0;
	if (!ok)
		return -1;
	for (size_t j = 0; j < n; j++) {
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
	qsort(ok, nok, sizeof *ok, off_cmp);
	for (size_t j = 0; j < nok && v->ok; j++) {
		struct arow *o = &a->rows[ok[j].i];
		double blo, bhi;
		/* no interval, or the fitted E' beyond every resample the row can have: no draw */
		if (!o->ci_done && (!boot_ep_bounds(ds, o, &blo, &bhi) || o->ep_fit < blo || o->ep_fit > bhi)) {
			v->ok = false;
			break;
		}
		if (analysis_intervals(ds, a, ok[j].i, ok[j].i + 1, NULL) < 0) {
			free(ok);
			return -1;
		}
		const struct aci *ci = analysis_ci(a, o);
		v->ok = ci->ep_lo <= o->ep_fit && o->ep_fit <= ci->ep_hi;
	}
	free(ok);
	return 0;
}

/* The scaling-law fit of each family of the pooled rows, and every such row's fitted E' and
 * residual from its family's fit (a carried-over row keeps none). */
int analysis_fit_families(const struct dataset *ds, struct analysis *a, struct gs_err *err)
{
	size_t n = a->n, nf = 0, *fend = NULL;
	size_t *k = malloc((n ? n : 1) * sizeof *k); /* the rows in family order */
	double *pn = NULL, *pt = NULL;

	if (!k || family_order(ds, a, k, &fend, &nf) < 0 ||
	    !(a->fits = calloc(nf ? nf : 1, sizeof *a->fits)) ||
	    !(pn = malloc((n ? n : 1) * sizeof *pn)) || !(pt = malloc((n ? n : 1) * sizeof *pt))) {
		err_oom(err, NULL, 0);
		goto fail;
	}
	for (size_t f = 0, g = 0; f < nf; g = fend[f++]) {
		struct fam_fit *ff = &a->fits[a->nfits++];
		for (size_t e = g; e < fend[f]; e++) {
			pn[e] = a->rows[k[e]].N;
			pt[e] = a->rows[k[e]].T;
		}
		ff->family = ds->rows[a->rows[k[g]].row].family;
		ff->group = a->rows[k[g]].group;
		if (fit_memo_run(boot_fit_memo(a), pn + g, pt + g, fend[f] - g, &ff->fit, err) < 0)
			goto fail;
		for (size_t e = g; e < fend[f]; e++) {
			struct arow *o = &a->rows[k[e]];
			const struct row *rf = &ds->rows[o->ref];
			o->ep_fit = rf->minutes / fit_t(&ff->fit, o->N) * (double)rf->accelerators / o->N;
			if (!isfinite(o->ep_fit))
				o->ep_fit = NAN;
			o->fit_resid = fit_resid(&ff->fit, o->N, o->T);
		}
	}
	/* then each fit's verdict, on its family's rows; never against a reference of another
	 * family (paper and pinned mode): analysis_fits_own_ref judges those on their own */
	for (size_t f = 0, g = 0; f < nf; g = fend[f++]) {
		if (strcmp(nz(ds->rows[a->rows[k[g]].ref].family), nz(a->fits[f].family)) != 0) {
			struct fit_verdict *v = &a->fits[f].v;
			memset(v, 0, sizeof *v);
			v->worst_n = v->worst_obs = v->worst_fit = v->be = v->n_ref = v->t_ref = NAN;
			v->be_why = "";
			v->own_ref = true;
			continue;
		}
		if (fit_judge(ds, a, k + g, fend[f] - g, &a->fits[f]) < 0) {
			err_oom(err, NULL, 0);
			goto fail;
		}
	}
	for (size_t f = 0; f < a->nfits; f++) {
		struct group *gr = &a->groups[a->fits[f].group];
		/* a group's own fit only when the family is the whole group */
		gr->fit = gr->family ? (long)f : a->nfits == 1 ? 0 : -1;
	}
	free(k);
	free(fend);
	free(pn);
	free(pt);
	return 0;
fail:
	free(k);
	free(fend);
	free(pn);
	free(pt);
	return -1;
}

int analysis_fits_own_ref(const struct dataset *ds, const struct params *p, struct analysis *a,
			  struct gs_err *err)
{
	struct params fp = *p;
	struct analysis fa = { 0 };
	bool any = false;

	for (size_t f = 0; f < a->nfits; f++)
		any |= a->fits[f].v.own_ref;
	if (!any)
		return 0;
	/* the same rows in family mode: each family its own group, its own reference, judged
	 * there exactly as family mode judges it (the same points give the same fit) */
	fp.mode = REF_FAMILY;
	fp.fit = true;
	fp.brackets_only = true;
	fp.unranked = true;
	if (analysis_share_boot(&fa, a) < 0 || analysis_run(ds, &fp, &fa, err) < 0) {
		analysis_free(&fa);
		return -1;
	}
	for (size_t f = 0; f < a->nfits; f++) {
		if (!a->fits[f].v.own_ref)
			continue;
		for (size_t j = 0; j < fa.nfits; j++)
			if (strcmp(nz(fa.fits[j].family), nz(a->fits[f].family)) == 0) {
				a->fits[f].v = fa.fits[j].v;
				a->fits[f].v.own_ref = true;
			}
	}
	analysis_free(&fa);
	return 0;
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
