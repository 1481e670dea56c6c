/* breakeven.c: the break-even bracket of each comparison group at theta (plain, firm and loose
 * lower ends, the range) and its reference sensitivity. No terminal here.
 *
 * A bracket never mixes groups: every scan below runs over one group's rows, in T order for the
 * lower end and in N order for the upper end. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "numsort.h"

/* Shown rows by (T, system id, dataset row): the order every break-even takes "fastest" in. */
static int tkey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = analysis_cmp_num(a->v, b->v, 1);

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* A shown row by N, for a sort of few rows (n_order's fallback). */
struct nkey {
	double n;
	uint32_t i;
};

static int nkey_cmp(const void *pa, const void *pb)
{
	const struct nkey *a = pa, *b = pb;

	if (a->n != b->n)
		return (a->n > b->n) - (a->n < b->n);
	return (a->i > b->i) - (a->i < b->i);
}

/* The shown rows in (N, position) order into pos, as qsort with nkey_cmp gives them: by a
 * stable radix sort of N from the rows in position order. False (pos untouched) where qsort is
 * as fast, or out of memory. */
static bool n_order(const struct analysis *a, size_t *pos)
{
	size_t n = a->n;
	struct numsort_item *it = n >= 256 ? malloc(n * sizeof *it) : NULL;
	struct numsort_item *tmp = it ? malloc(n * sizeof *tmp) : NULL;

	if (!tmp) {
		free(it);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ numsort_key(a->rows[i].N, 1), i };
	const struct numsort_item *s = numsort_run(it, tmp, n);
	for (size_t j = 0; j < n; j++)
		pos[j] = s[j].at;
	free(it);
	free(tmp);
	return true;
}

/* The positions pos[n] split by group (grp[i]: row i's), stable, into out[n]: group g from
 * out[tg[g]] on; at[ng] is scratch, zeroed. */
static void split_by_group(const uint32_t *grp, const size_t *pos, size_t n, const size_t *tg,
			   size_t *at, uint32_t *out)
{
	for (size_t j = 0; j < n; j++) {
		size_t g = grp[pos[j]];
		out[tg[g] + at[g]++] = (uint32_t)pos[j];
	}
}

/* The shown rows in tkey_cmp's order (T, then the tie-break) into pos: many rows by a radix
 * sort of T, with sort items made only for each run of equal T (items for every row were 48
 * bytes a row, 48 MB at 10^6 rows and the peak of a summary there); few by qsort of the
 * items. 0, or -1 out of memory. */
static int t_order(const struct dataset *ds, const struct analysis *a, size_t *pos)
{
	size_t n = a->n;
	struct numsort_item *it = n >= 256 ? malloc(n * sizeof *it) : NULL;
	struct numsort_item *tmp = it ? malloc(n * sizeof *tmp) : NULL;

	if (!tmp) { /* few rows, or out of memory: the items themselves */
		free(it);
		struct skey *k = malloc((n ? n : 1) * sizeof *k);
		if (!k)
			return -1;
		for (size_t i = 0; i < n; i++) {
			const struct row *r = &ds->rows[a->rows[i].row];
			k[i] = (struct skey){ .v = a->rows[i].T, .r = r, .row = a->rows[i].row, .i = i };
		}
		qsort(k, n, sizeof *k, tkey_cmp);
		for (size_t j = 0; j < n; j++)
			pos[j] = k[j].i;
		free(k);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ numsort_key(a->rows[i].T, 1), i };
	struct numsort_item *s = numsort_run(it, tmp, n);
	int rc = 0;
	for (size_t j = 0; j < n;) {
		size_t e = j + 1;
		while (e < n && s[e].key == s[j].key)
			e++;
		if (e - j > 1) { /* equal T: the tie-break orders them */
			struct skey *k = malloc((e - j) * sizeof *k);
			if (!k) {
				rc = -1;
				break;
			}
			for (size_t q = j; q < e; q++) {
				size_t i = s[q].at;
				k[q - j] = (struct skey){ .v = a->rows[i].T, .r = &ds->rows[a->rows[i].row],
							  .row = a->rows[i].row, .i = i };
			}
			qsort(k, e - j, sizeof *k, tkey_cmp);
			for (size_t q = j; q < e; q++)
				s[q].at = k[q - j].i;
			free(k);
		}
		j = e;
	}
	for (size_t j = 0; j < n; j++)
		pos[j] = s[j].at;
	free(it);
	free(tmp);
	return rc;
}

/* The orders one call works in: shown rows in T order grouped by group (t[tg[g]..tg[g+1])),
 * and each group's distinct N ascending (dn[dg[g]..dg[g+1]]), the rows of the d-th at
 * nrow[doff[d]..doff[d+1]) with their least A in dmin[d]; minA[j] is the least A of t[tg[g]..j]
 * within j's group; low[j] is the row at t[j]'s least accelerator-minutes any resample of it
 * can have, min(t_lo, T) x N (NAN when unknown). */
struct be_work {
	uint32_t *t, *nrow, *doff;         /* shown rows (< 2^32: analysis_run says so) */
	size_t *tg, *dg;
	double *dn, *dmin, *minA, *low;
};

static void work_free(struct be_work *w)
{
	free(w->t);
	free(w->tg);
	free(w->nrow);
	free(w->doff);
	free(w->dg);
	free(w->dn);
	free(w->dmin);
	free(w->minA);
	free(w->low);
}

/* w made the orders of a's rows one call works in (see struct be_work), from the run's kept T
 * and N orders where it has them. 0, or -1 out of memory (w then holds nothing). */
static int work_make(const struct dataset *ds, struct analysis *a, struct be_work *w)
{
	size_t n = a->n, ng = a->ngroups, m = n ? n : 1, nd = 0;
	/* the T and N orders depend on the rows alone: kept for a run on the same rows */
	const size_t *kt = orders_get(a, ORD_T), *kn = orders_get(a, ORD_N);
	size_t *npos = NULL, *pos = NULL, *at = NULL, *mapped = NULL;
	uint32_t *grp = NULL;
	double *av = NULL, *nv = NULL;
	struct nkey *nk = NULL;
	int rc = -1;

	memset(w, 0, sizeof *w);
	/* the N and T orders first, each before the next one's work and before the work's arrays:
	 * at 10^6 rows the sorts' items on top of the arrays were the peak of a summary's memory */
	if (!kn) {
		if (!(npos = malloc(m * sizeof *npos)))
			goto out;
		if (!n_order(a, npos)) {
			if (!(nk = malloc(m * sizeof *nk)))
				goto out;
			for (size_t i = 0; i < n; i++)
				nk[i] = (struct nkey){ .n = a->rows[i].N, .i = (uint32_t)i };
			qsort(nk, n, sizeof *nk, nkey_cmp);
			for (size_t j = 0; j < n; j++)
				npos[j] = nk[j].i;
			free(nk);
			nk = NULL;
		}
		orders_put(a, ORD_N, npos, sizeof *npos);
		kn = npos;
	}
	/* rows sorted since the run (theta alone changed): the T order mapped to where they are
	 * now (at 10^5 rows a theta key sorted 10^5 rows by T again) */
	if (!kt)
		kt = mapped = orders_mapped(ds, a, ORD_T);
	if (!kt) {
		if (!(pos = malloc(m * sizeof *pos)) || t_order(ds, a, pos) < 0)
			goto out;
		orders_put(a, ORD_T, pos, sizeof *pos);
		kt = pos;
	}
	w->t = malloc(m * sizeof *w->t);
	w->tg = calloc(ng + 1, sizeof *w->tg);
	w->minA = malloc(m * sizeof *w->minA);
	w->low = malloc(m * sizeof *w->low);
	at = calloc(ng ? ng : 1, sizeof *at);
	/* each row's group and A in row order: the passes below take rows in T or N order, and
	 * a read of one field of a whole shown row there was a cache miss a row (a tenth of a
	 * recompute at 10^5 rows) */
	grp = malloc(m * sizeof *grp);
	av = malloc(m * sizeof *av);
	if (!w->t || !w->tg || !w->minA || !w->low || !at || !grp || !av)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct arow *o = &a->rows[i];
		grp[i] = o->group;
		av[i] = o->A;
		/* low by row, in minA until the T order is known */
		w->minA[i] = isnan(o->t_lo) ? NAN : (o->t_lo < o->T ? o->t_lo : o->T) * o->N;
	}
	for (size_t i = 0; i < n; i++)
		w->tg[grp[i] + 1]++;
	for (size_t g = 0; g < ng; g++)
		w->tg[g + 1] += w->tg[g];
	/* a stable split of the T order by group */
	split_by_group(grp, kt, n, w->tg, at, w->t);
	free(pos);
	free(mapped);
	pos = mapped = NULL;
	for (size_t j = 0; j < n; j++)
		w->low[j] = w->minA[w->t[j]];
	for (size_t g = 0; g < ng; g++)
		for (size_t j = w->tg[g]; j < w->tg[g + 1]; j++) {
			double A = av[w->t[j]];
			w->minA[j] = j == w->tg[g] || A < w->minA[j - 1] ? A : w->minA[j - 1];
		}
	/* (group, N) order: the N order split by group, stable */
	if (!(w->nrow = malloc(m * sizeof *w->nrow)))
		goto out;
	memset(at, 0, (ng ? ng : 1) * sizeof *at);
	split_by_group(grp, kn, n, w->tg, at, w->nrow);
	free(npos);
	npos = NULL;
	/* each row's N in row order (reading a row's own N in (group, N) order was a cache miss a
	 * row); the distinct (group, N) counted first, so that their arrays hold only those */
	if (!(nv = malloc(m * sizeof *nv)))
		goto out;
	for (size_t i = 0; i < n; i++)
		nv[i] = a->rows[i].N;
#define NEW_N(j) ((j) == 0 || grp[w->nrow[j]] != grp[w->nrow[(j) - 1]] || \
		  nv[w->nrow[j]] != nv[w->nrow[(j) - 1]])
	for (size_t j = 0; j < n; j++)
		nd += NEW_N(j);
	w->doff = malloc((nd + 1) * sizeof *w->doff);
	w->dg = calloc(ng + 1, sizeof *w->dg);
	w->dn = malloc((nd ? nd : 1) * sizeof *w->dn);
	w->dmin = malloc((nd ? nd : 1) * sizeof *w->dmin);
	if (!w->doff || !w->dg || !w->dn || !w->dmin)
		goto out;
	nd = 0;
	for (size_t j = 0; j < n; j++) {
		size_t i = w->nrow[j];
		if (NEW_N(j)) {
			w->doff[nd] = (uint32_t)j;
			w->dn[nd] = nv[i];
			w->dmin[nd] = av[i];
			w->dg[grp[i] + 1] = ++nd;
		} else if (av[i] < w->dmin[nd - 1]) {
			w->dmin[nd - 1] = av[i];
		}
	}
#undef NEW_N
	w->doff[nd] = (uint32_t)n;
	for (size_t g = 0; g < ng; g++) /* a group with no rows keeps the previous end */
		if (w->dg[g + 1] < w->dg[g])
			w->dg[g + 1] = w->dg[g];
	rc = 0;
out:
	free(npos);
	free(pos);
	free(at);
	free(mapped);
	free(grp);
	free(av);
	free(nv);
	free(nk);
	if (rc < 0)
		work_free(w);
	return rc;
}

/* Whether row o reaches theta against reference c: E' computed as the metrics compute it,
 * (T_c / T) * N_c / N, so that c = the row's own reference gives exactly its E'. */
static bool reaches(const struct arow *o, const struct row *c, double theta)
{
	return c->minutes / o->T * (double)c->accelerators / o->N >= theta;
}

/* The bracket of group g against reference c given its lower end lo (N, -1 none): the first
 * distinct N above lo at which no row reaches theta. The least A at an N decides most of them
 * without a scan (E' = A_c / A, far from theta by a margin well above rounding); the rest are
 * tested row by row as the metrics compute them. */
static struct be_bracket bracket_of(const struct analysis *a, const struct be_work *w, size_t g,
				    const struct row *c, double theta, long lo)
{
	struct be_bracket b = { .kind = BE_NONE, .lo = -1, .hi = -1 };
	const struct group *gr = &a->groups[g];
	size_t d = w->dg[g], e = w->dg[g + 1];
	double most = (double)c->accelerators * c->minutes / 60 / theta;

	if (gr->nrows == 1 && gr->ref >= 0 && a->rows[w->t[w->tg[g]]].row == (size_t)gr->ref) {
		b.kind = BE_ONE_ROW;
		return b;
	}
	if (lo < 0)
		return b;
	b.lo = lo;
	b.kind = BE_CENSORED;
	while (d < e && w->dn[d] <= (double)lo)
		d++;
	b.beyond = d < e;
	for (; d < e; d++) {
		bool any = false;
		if (w->dmin[d] > most * (1 + 1e-9))
			any = false;
		else if (w->dmin[d] < most * (1 - 1e-9))
			any = true;
		else
			for (size_t j = w->doff[d]; j < w->doff[d + 1] && !any; j++)
				any = reaches(&a->rows[w->nrow[j]], c, theta);
		if (!any) {
			b.kind = BE_BRACKET;
			b.hi = (long)w->dn[d];
			b.beyond = false;
			return b;
		}
	}
	return b;
}

/* The lower end against candidate c: the N of the first row of g in T order reaching theta.
 * The least A so far along T order skips, by binary search, every row whose A is too big by a
 * margin far above rounding: thousands of candidates stay cheap. -1 when none. */
static long lower_for(const struct analysis *a, const struct be_work *w, size_t g,
		      const struct row *c, double theta)
{
	double most = (double)c->accelerators * c->minutes / 60 / theta * (1 + 1e-9);
	size_t lo = w->tg[g], hi = w->tg[g + 1], end = hi;

	while (lo < hi) { /* the first j with minA[j] <= most */
		size_t mid = lo + (hi - lo) / 2;
		if (w->minA[mid] <= most)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (size_t j = lo; j < end; j++)
		if (reaches(&a->rows[w->t[j]], c, theta))
			return (long)a->rows[w->t[j]].N;
	return -1;
}

/* Lowest and highest of the non-negative values of v[n] into *lo, *hi (-1 when none). */
static void span(const long *v, size_t n, long *lo, long *hi)
{
	*lo = *hi = -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0)
			continue;
		if (*lo < 0 || v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

/* One group: the plain, firm and loose lower ends in one pass in T order (drawing intervals
 * only while firm or loose are still open), the bracket, the range and the sensitivity. */
static int group_breakeven(const struct dataset *ds, struct analysis *a, const struct be_work *w,
			   size_t g, double theta)
{
	struct group *gr = &a->groups[g];
	long plain = -1;
	/* a group that is only its reference has no lower end: no row, no range */
	bool alone = gr->nrows == 1 && gr->ref >= 0 && a->rows[w->t[w->tg[g]]].row == (size_t)gr->ref;

	struct boot_ref memo = { 0 };
	/* a row whose least accelerator-minutes are above this can reach theta neither with its
	 * E' nor with any resample of it (every one is at most the reference's slowest run over
	 * the row's fastest, times N_ref / N): passed over without reading it (with a margin far
	 * above rounding; a NAN low is never passed over) */
	double skip = INFINITY;
	if (gr->ref >= 0 && theta > 0) {
		const struct row *fr = &ds->rows[gr->ref];
		double rlo = fr->minutes, rhi = fr->minutes;
		boot_ref_span(ds, fr, &rlo, &rhi);
		skip = (rhi > fr->minutes ? rhi : fr->minutes) * (double)fr->accelerators / theta * (1 + 1e-6);
	}

	gr->be_row = -1;
	gr->firm = gr->loose = -1;
	for (size_t j = w->tg[g]; j < w->tg[g + 1] && !alone; j++) {
		if (w->low[j] > skip)
			continue;
		size_t i = w->t[j];
		struct arow *o = &a->rows[i];
		bool firm = false, loose = false;
		if ((gr->firm < 0 || gr->loose < 0) && boot_range_test(ds, a, i, theta, &firm, &loose, &memo) < 0)
			return -1;
		if (plain < 0 && o->Ep >= theta) {
			plain = (long)o->N;
			gr->be_row = (long)o->row;
			gr->be_at = i;
			o->be = true;
		}
		if (gr->firm < 0 && firm)
			gr->firm = (long)o->N;
		if (gr->loose < 0 && loose)
			gr->loose = (long)o->N;
		if (plain >= 0 && gr->firm >= 0 && gr->loose >= 0)
			break;
	}
	if (gr->ref >= 0) {
		gr->be = bracket_of(a, w, g, &ds->rows[gr->ref], theta, plain);
	} else {
		gr->be = (struct be_bracket){ .kind = gr->nrows ? BE_NONE : BE_EMPTY, .lo = -1, .hi = -1 };
	}
	{
		long ends[3] = { plain, gr->firm, gr->loose };
		span(ends, 3, &gr->range_lo, &gr->range_hi);
	}
	gr->sens_lo = gr->sens_hi = -1;
	for (size_t c = 0; c < gr->ncand; c++) {
		/* the candidates are rows anywhere in the data: the one eight on fetched meanwhile
		 * (at 10^6 rows each was a cache miss) */
		if (c + 8 < gr->ncand)
			__builtin_prefetch(&ds->rows[gr->cand[c + 8].row].minutes);
		const struct row *cr = &ds->rows[gr->cand[c].row];
		long lo = lower_for(a, w, g, cr, theta);
		struct be_bracket b;
		if (gr->nrows == 1)
			b = (struct be_bracket){ .kind = BE_ONE_ROW, .lo = -1, .hi = -1 };
		else
			b = bracket_of(a, w, g, cr, theta, lo);
		gr->cand[c].b = b;
		if (b.lo >= 0 && (gr->sens_lo < 0 || b.lo < gr->sens_lo))
			gr->sens_lo = b.lo;
		if (b.lo > gr->sens_hi)
			gr->sens_hi = b.lo;
	}
	return 0;
}

int analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta,
		       struct gs_err *err)
{
	struct be_work w;

	a->ncross = 0;
	a->cross_row_fam = a->cross_ref_fam = NULL;
	for (size_t i = 0; i < a->n; i++) {
		struct arow *o = &a->rows[i];
		o->be = false;
		if (o->cross_family) {
			/* the pair named is the first by name, whatever order the rows came in */
			const char *rf = nz(ds->rows[o->row].family), *ff = nz(ds->rows[o->ref].family);
			int c = a->ncross++ == 0 ? -1 : strcmp(ff, a->cross_ref_fam);
			if (c < 0 || (c == 0 && strcmp(rf, a->cross_row_fam) < 0)) {
				a->cross_row_fam = rf;
				a->cross_ref_fam = ff;
			}
		}
	}
	if (work_make(ds, a, &w) < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	/* the fits' predictions at theta, on their group's reference */
	for (size_t f = 0; f < a->nfits; f++) {
		struct fit_verdict *v = &a->fits[f].v;
		if (!v->judged)
			continue;
		v->be = fit_breakeven_on(&a->fits[f].fit, theta, v->n_ref, v->t_ref, &v->be_why);
		v->extrapolated = isfinite(v->be) && v->be > a->fits[f].fit.n_max;
	}
	for (size_t g = 0; g < a->ngroups; g++)
		if (group_breakeven(ds, a, &w, g, theta) < 0) {
			work_free(&w);
			err_oom(err, NULL, 0);
			return -1;
		}
	work_free(&w);
	return 0;
}

const struct group *analysis_group(const struct analysis *a, size_t i)
{
	return i < a->n && a->rows[i].group < a->ngroups ? &a->groups[a->rows[i].group] : NULL;
}

long analysis_be_index(const struct analysis *a, const struct group *g)
{
	if (!g || g->be_row < 0)
		return -1;
	/* where it was found, unless a sort has moved it (at 10^6 rows each look through every row
	 * read 128 MB) */
	if (g->be_at < a->n && a->rows[g->be_at].be && a->rows[g->be_at].row == (size_t)g->be_row)
		return (long)g->be_at;
	for (size_t i = 0; i < a->n; i++)
		if (a->rows[i].be && a->rows[i].row == (size_t)g->be_row)
			return (long)i;
	return -1;
}
