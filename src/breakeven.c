/* breakeven.c: the break-even bracket of each comparison group at theta (plain, firm and loose
 * lower ends, the range) and its reference sensitivity. No terminal here.
 *
 * A bracket never mixes groups: every scan below runs over one group's rows, in T order for the
 * lower end and in N order for the upper end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"

/* Shown rows by (T, system id, dataset row): the order every break-even takes "fastest" in. */
static int t_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = analysis_cmp_num(a->v, b->v, 1);

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* Shown rows by N, then position. */
static int n_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;

	if (a->v != b->v)
		return (a->v > b->v) - (a->v < b->v);
	return (a->i > b->i) - (a->i < b->i);
}

/* One group's shown rows, in T order and in N order. */
struct group_rows {
	struct skey *t, *n;
	size_t m;
};

/* What reaching theta means for a bracket: E' against reference c, or one factor of a row's
 * own E' (e_thru or e_conv). */
enum measure { M_EP, M_THRU, M_CONV };

struct rule {
	enum measure m;
	const struct row *c;               /* M_EP: the reference */
	double theta;
};

/* Whether row o reaches theta by rule r. E' is computed as the metrics compute it,
 * (T_c / T) * N_c / N, so that c = the row's own reference gives exactly its E', and, as
 * there, a speedup or E' past the largest double is no number and reaches nothing. A row
 * without the factor reaches nothing. */
static bool reaches(const struct arow *o, const struct rule *r)
{
	double s, ep;

	if (r->m == M_THRU)
		return o->e_thru >= r->theta;
	if (r->m == M_CONV)
		return o->e_conv >= r->theta;
	s = r->c->minutes / o->T;
	ep = s * (double)r->c->accelerators / o->N;
	return isfinite(s) && isfinite(ep) && ep >= r->theta;
}

/* A group that is only its reference: nothing to compare with, no lower end. */
static bool only_ref(const struct analysis *a, const struct group *gr, const struct group_rows *w)
{
	return gr->nrows == 1 && gr->ref >= 0 && w->m && a->rows[w->t[0].i].row == (size_t)gr->ref;
}

/* The bracket of group gr by rule r given its lower end lo (N, -1 none): the first distinct N
 * above lo at which no row reaches theta. */
static struct be_bracket bracket_of(const struct analysis *a, const struct group *gr,
				    const struct group_rows *w, const struct rule *r, long lo)
{
	struct be_bracket b = { .kind = BE_NONE, .lo = -1, .hi = -1 };

	if (only_ref(a, gr, w)) {
		b.kind = BE_ONE_ROW;
		return b;
	}
	if (lo < 0)
		return b;
	b.lo = lo;
	b.kind = BE_CENSORED;
	/* the rows in N order from the first above lo: those at or below it cannot end the
	 * bracket (every candidate reference of a group asks, and most rows may be at lo) */
	size_t first = 0, last = w->m;
	while (first < last) {
		size_t mid = first + (last - first) / 2;
		if (w->n[mid].v > (double)lo)
			last = mid;
		else
			first = mid + 1;
	}
	for (size_t j = first; j < w->m;) {
		double n = w->n[j].v;
		bool any = false;
		size_t e = j;
		for (; e < w->m && w->n[e].v == n; e++)
			any = any || reaches(&a->rows[w->n[e].i], r);
		j = e;
		if (!any) {
			b.kind = BE_BRACKET;
			b.hi = (long)n;
			b.beyond = false;
			return b;
		}
		b.beyond = true;
	}
	return b;
}

/* The lower end by rule r: the N of the first row of the group in T order reaching theta; -1
 * when none. */
static long lower_for(const struct analysis *a, const struct group_rows *w, const struct rule *r)
{
	for (size_t j = 0; j < w->m; j++)
		if (reaches(&a->rows[w->t[j].i], r))
			return (long)a->rows[w->t[j].i].N;
	return -1;
}

/* The bracket of group gr by the same rule on one factor of E' (m: M_THRU or M_CONV). */
static struct be_bracket factor_bracket(const struct analysis *a, const struct group *gr,
					const struct group_rows *w, double theta, enum measure m)
{
	const struct rule r = { .m = m, .theta = theta };

	return bracket_of(a, gr, w, &r, lower_for(a, w, &r));
}

/* The throughput and convergence brackets of group gr, and whether any row but its reference
 * has the split at all. */
static void split_brackets(const struct analysis *a, struct group *gr, const struct group_rows *w,
			   double theta)
{
	gr->split = false;
	for (size_t j = 0; j < w->m; j++) {
		const struct arow *o = &a->rows[w->t[j].i];
		gr->split = gr->split || (!o->is_ref && !isnan(o->e_conv));
	}
	gr->be_thru = factor_bracket(a, gr, w, theta, M_THRU);
	gr->be_conv = factor_bracket(a, gr, w, theta, M_CONV);
	if (gr->ref < 0)
		gr->be_thru = gr->be_conv = gr->be;
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

/* The plain lower end: the first row of a group in T order whose E' reaches theta; its shown
 * index, or -1 when none does (or the group holds its reference alone). */
static long plain_end(const struct analysis *a, const struct group *gr, const struct group_rows *w,
		      double theta)
{
	if (only_ref(a, gr, w))
		return -1;
	for (size_t j = 0; j < w->m; j++)
		if (a->rows[w->t[j].i].Ep >= theta)
			return (long)w->t[j].i;
	return -1;
}

/* The firm and loose lower ends of a group, walking its rows in T order while either is open,
 * and its range over them and the plain lower end. A row whose interval is undrawn and needed
 * is drawn when draw is set; otherwise the walk stops there and returns 1 with *need its index
 * (the range stays open). 0 when settled, -1 when out of memory. */
static int range_walk(const struct dataset *ds, struct analysis *a, struct group *gr,
		      const struct group_rows *w, double theta, bool draw, size_t *need)
{
	long firm_n = -1, loose_n = -1;

	bool alone = only_ref(a, gr, w);

	for (size_t j = 0; j < w->m && !alone && (firm_n < 0 || loose_n < 0); j++) {
		size_t i = w->t[j].i;
		bool firm = false, loose = false;
		int rc = boot_range_test(ds, a, i, theta, draw, &firm, &loose);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			*need = i;
			return 1;
		}
		if (firm_n < 0 && firm)
			firm_n = (long)a->rows[i].N;
		if (loose_n < 0 && loose)
			loose_n = (long)a->rows[i].N;
	}
	gr->firm = firm_n;
	gr->loose = loose_n;
	gr->range_open = false;
	long p = plain_end(a, gr, w, theta);
	long ends[3] = { p >= 0 ? (long)a->rows[p].N : -1, firm_n, loose_n };
	span(ends, 3, &gr->range_lo, &gr->range_hi);
	return 0;
}

/* Fills w with group g's shown rows, in T order (w->t) and in N order (w->n). */
static void group_rows_fill(const struct dataset *ds, const struct analysis *a, size_t g,
			    struct group_rows *w)
{
	w->m = 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *o = &a->rows[i];
		/* a carried-over row's run list counts once, as its standing row */
		if (o->group != g || arow_carried(o))
			continue;
		w->t[w->m] = (struct skey){ .v = o->T, .r = &ds->rows[o->row], .row = o->row, .i = i };
		w->n[w->m++] = (struct skey){ .v = o->N, .i = i };
	}
	qsort(w->t, w->m, sizeof *w->t, t_cmp);
	qsort(w->n, w->m, sizeof *w->n, n_cmp);
}

/* One group: the plain lower end, the bracket, the range (unless a->range_later or
 * a->brackets_only leave it) and the sensitivity. */
static int group_breakeven(const struct dataset *ds, struct analysis *a, size_t g,
			   const struct group_rows *w, double theta)
{
	struct group *gr = &a->groups[g];
	long p = plain_end(a, gr, w, theta), plain = p >= 0 ? (long)a->rows[p].N : -1;

	gr->be_row = p >= 0 ? (long)a->rows[p].row : -1;
	if (p >= 0)
		a->rows[p].be = true;
	gr->firm = gr->loose = gr->range_lo = gr->range_hi = -1;
	gr->range_open = !a->brackets_only;
	if (gr->ref >= 0) {
		const struct rule r = { .m = M_EP, .c = &ds->rows[gr->ref], .theta = theta };
		gr->be = bracket_of(a, gr, w, &r, plain);
	} else {
		gr->be = (struct be_bracket){ .kind = gr->nrows ? BE_NONE : BE_EMPTY, .lo = -1, .hi = -1 };
	}
	split_brackets(a, gr, w, theta);
	if (gr->range_open && !a->range_later && range_walk(ds, a, gr, w, theta, true, NULL) < 0)
		return -1;
	gr->sens_lo = gr->sens_hi = -1;
	for (size_t c = 0; c < gr->ncand; c++) {
		const struct rule r = { .m = M_EP, .c = &ds->rows[gr->cand[c].row], .theta = theta };
		struct be_bracket b;
		if (gr->nrows == 1)
			b = (struct be_bracket){ .kind = BE_ONE_ROW, .lo = -1, .hi = -1 };
		else
			b = bracket_of(a, gr, w, &r, lower_for(a, w, &r));
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
	struct group_rows w = { 0 };
	int rc = 0;

	a->ncross = 0;
	a->cross_row_fam = a->cross_ref_fam = NULL;
	for (size_t i = 0; i < a->n; i++) {
		struct arow *o = &a->rows[i];
		o->be = false;
		if (o->cross_family && !arow_carried(o)) {
			/* the pair named is the first by name, whatever order the rows came in */
			const char *rf = nz(ds->rows[o->row].family), *ff = nz(ds->rows[o->ref].family);
			int c = a->ncross++ == 0 ? -1 : strcmp(ff, a->cross_ref_fam);
			if (c < 0 || (c == 0 && strcmp(rf, a->cross_row_fam) < 0)) {
				a->cross_row_fam = rf;
				a->cross_ref_fam = ff;
			}
		}
	}
	/* the fits' predictions at theta, on their group's reference */
	for (size_t f = 0; f < a->nfits; f++) {
		struct fit_verdict *v = &a->fits[f].v;
		if (!v->judged)
			continue;
		v->be = fit_breakeven_on(&a->fits[f].fit, theta, v->n_ref, v->t_ref, &v->be_why);
		v->extrapolated = isfinite(v->be) && v->be > a->fits[f].fit.n_max;
	}
	if (!(w.t = malloc((a->n ? a->n : 1) * sizeof *w.t)) ||
	    !(w.n = malloc((a->n ? a->n : 1) * sizeof *w.n)))
		rc = -1;
	for (size_t g = 0; g < a->ngroups && rc == 0; g++) {
		group_rows_fill(ds, a, g, &w);
		rc = group_breakeven(ds, a, g, &w, theta);
	}
	free(w.t);
	free(w.n);
	if (rc < 0)
		err_oom(err, NULL, 0);
	return rc;
}

int analysis_range_step(const struct dataset *ds, struct analysis *a, size_t g, double theta)
{
	struct group_rows w = { 0 };
	size_t need = 0;
	int rc;

	if (g >= a->ngroups || !a->groups[g].range_open)
		return 0;
	if (!(w.t = malloc((a->n ? a->n : 1) * sizeof *w.t)) ||
	    !(w.n = malloc((a->n ? a->n : 1) * sizeof *w.n))) {
		rc = -1;
		goto out;
	}
	group_rows_fill(ds, a, g, &w);
	rc = range_walk(ds, a, &a->groups[g], &w, theta, false, &need);
	if (rc > 0 && analysis_intervals(ds, a, need, need + 1, NULL) < 0)
		rc = -1;
out:
	free(w.t);
	free(w.n);
	return rc;
}

const struct group *analysis_group(const struct analysis *a, size_t i)
{
	return i < a->n && a->rows[i].group < a->ngroups ? &a->groups[a->rows[i].group] : NULL;
}

long analysis_be_index(const struct analysis *a, const struct group *g)
{
	if (!g || g->be_row < 0)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (a->rows[i].be && a->rows[i].row == (size_t)g->be_row)
			return (long)i;
	return -1;
}
