/* query.c: constraint queries. Per family of the shown rows, the best observed row meeting a
 * deadline and budgets under an objective, and from its fitted law (whatever the verdict,
 * which goes beside it) the smallest N in whole nodes the law says would meet them. Rows are
 * compared on their official numbers; a cost budget is met surely when the high end of the family's price range meets it, possibly when only the low end does
 * (the prices are public on-demand ranges, not a quote). */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"

void query_init(struct query *q)
{
	q->deadline = q->max_cost = q->max_acc_hours = q->max_kwh = q->gbs = NAN;
	q->minimize = QO_ACC_HOURS;
}

bool query_constrained(const struct query *q)
{
	return !isnan(q->deadline) || !isnan(q->max_cost) || !isnan(q->max_acc_hours) ||
	       !isnan(q->max_kwh);
}

/* How a cost range lo..hi meets budget max. */
static enum q_sure cost_meets(double lo, double hi, double max)
{
	if (!(lo <= max))
		return QS_NONE; /* NAN (no price) too */
	return hi <= max ? QS_SURELY : QS_POSSIBLY;
}

bool query_meets(const struct arow *r, const struct query *q, enum q_sure *cost)
{
	*cost = QS_SURELY;
	if (!isnan(q->deadline) && !(r->T <= q->deadline))
		return false;
	if (!isnan(q->max_acc_hours) && !(r->A <= q->max_acc_hours))
		return false;
	if (!isnan(q->max_kwh) && !(r->kwh <= q->max_kwh))
		return false;
	if (!isnan(q->max_cost) && (*cost = cost_meets(r->cost_lo, r->cost_hi, q->max_cost)) == QS_NONE)
		return false;
	return true;
}

double query_objective(const struct arow *r, enum q_obj o)
{
	switch (o) {
	case QO_COST: return arow_cost(r);
	case QO_KWH: return r->kwh;
	case QO_MINUTES: return r->T;
	case QO_ACC_HOURS:
	case QO_COUNT: break;
	}
	return r->A;
}

bool query_better(const struct dataset *ds, const struct arow *x, const struct arow *y,
		  enum q_obj o)
{
	double vx = query_objective(x, o), vy = query_objective(y, o);
	int c;

	if (vx != vy)
		return vx < vy;
	if (x->T != y->T)
		return x->T < y->T;
	if (x->N != y->N)
		return x->N < y->N;
	c = strcmp(ds->rows[x->row].system, ds->rows[y->row].system);
	if (c)
		return c < 0;
	return x->row < y->row;
}

static const char *const obj_names[QO_COUNT] = {
	[QO_ACC_HOURS] = "acc-hours", [QO_COST] = "cost", [QO_KWH] = "kwh", [QO_MINUTES] = "minutes",
};

const char *q_obj_name(enum q_obj o)
{
	return o < QO_COUNT ? obj_names[o] : "?";
}

int q_obj_parse(const char *s)
{
	for (int i = 0; i < QO_COUNT; i++)
		if (strcmp(s, obj_names[i]) == 0)
			return i;
	return -1;
}

/* Whether the law of f at n, T taken at side s of its 90% interval (q_t its Student factor;
 * -1 the fast end, 0 the law, 1 the slow end), meets q's budgets (prices plo..phi USD per
 * accelerator-hour; how surely the cost in *c) and, with deadline, its deadline. */
static bool meets(const struct fit *f, double q_t, const struct query *q, double plo, double phi,
		  double n, int s, bool deadline, enum q_sure *c)
{
	double t, lo, hi;

	*c = QS_SURELY;
	if (predict_t_q(f, n, q_t, &t, &lo, &hi) < 0)
		return false;
	double ts = s < 0 ? lo : s > 0 ? hi : t, a = n * ts / 60.0;
	return isfinite(ts) && (!deadline || isnan(q->deadline) || ts <= q->deadline) &&
	       (isnan(q->max_acc_hours) || a <= q->max_acc_hours) &&
	       (isnan(q->max_cost) || (*c = cost_meets(a * plo, a * phi, q->max_cost)) != QS_NONE);
}

/* The smallest whole multiple of step up to cap at which the law of f meets q (how surely the
 * cost in *c), NAN when none. The law's T = 60 (1 + sigma (N-1) + kappa N (N-1)) / (lambda N)
 * falls up to its peak N* = sqrt((1 - sigma) / kappa) and rises after it, and A = N T / 60
 * grows with N: the N meeting the deadline form a range around N*, those meeting a budget a
 * range from 1. The smallest meeting both is the first meeting the deadline, when it meets
 * the budgets: found by bisection over the multiples where T falls, else the first multiple
 * past N* (where T may be least). */
static double first_n(const struct fit *f, double q_t, const struct query *q, double plo,
		      double phi, double step, double cap, enum q_sure *c)
{
	double top = f->usl.kappa > 0 ? floor(sqrt((1.0 - f->usl.sigma) / f->usl.kappa) / step) : cap / step;
	double kcap = floor(cap / step), lo, hi, k = NAN;

	hi = fmax(1, fmin(kcap, isfinite(top) ? top : kcap));
	bool in_time_hi = isnan(q->deadline) || fit_t(f, hi * step) <= q->deadline;
	if (in_time_hi) {
		for (lo = 1; lo < hi;) { /* the first multiple in time in [lo, hi]; hi is */
			double mid = floor(lo + (hi - lo) / 2);
			if (isnan(q->deadline) || fit_t(f, mid * step) <= q->deadline)
				hi = mid;
			else
				lo = mid + 1;
		}
		k = hi;
	} else if (hi + 1 <= kcap && fit_t(f, (hi + 1) * step) <= q->deadline) {
		k = hi + 1;
	}
	if (!isnan(k) && meets(f, q_t, q, plo, phi, k * step, 0, true, c))
		return k * step;
	return NAN;
}

/* The smallest multiple of step in [from, to] at which side s of the law's interval meets q,
 * tried in turn (the ends of the interval need not fall where the law does); NAN when none.
 * The fast end lies below the law and the slow end above it, so the fast end meets q first
 * at or before the law's answer, and the slow end at or after it. */
static double first_side(const struct fit *f, double q_t, const struct query *q, double plo,
			 double phi, double step, double from, double to, int s)
{
	enum q_sure c;

	for (double n = from; n <= to; n += step)
		if (meets(f, q_t, q, plo, phi, n, s, true, &c))
			return n;
	return NAN;
}

/* What a law answers to a query: the smallest N meeting it in whole nodes, the law's N before
 * rounding, the same search on the interval's ends, how surely the cost. */
struct answer {
	double n, n_law, n_lo, n_hi;
	enum q_sure cost;
};

/* The answer of the law T = scale x fit_t(f, N) (1: the time law; S_rcp / 60: the split law)
 * to q in whole nodes of node accelerators (0: none known), searched up to cap: the law's T,
 * A and cost are scale times f's, so f answers q with its bounds divided by scale. */
static void law_answer(const struct fit *f, double scale, const struct query *q, double plo,
		       double phi, long node, double cap, struct answer *r)
{
	struct query qs = *q;
	double step = node > 0 ? (double)node : 1, q_t = predict_quantile(f);
	enum q_sure c2;

	qs.deadline /= scale;
	qs.max_acc_hours /= scale;
	qs.max_cost /= scale;
	r->n_law = r->n_lo = r->n_hi = NAN;
	r->n = first_n(f, q_t, &qs, plo, phi, step, cap, &r->cost);
	if (isnan(r->n))
		return;
	r->n_law = node > 1 ? first_n(f, q_t, &qs, plo, phi, 1, r->n, &c2) : r->n;
	if (!isnan(q->deadline) && !isnan(q_t)) {
		/* the slow end is looked for up to the law's peak, where the law's T is least */
		double peak = f->usl.kappa > 0 ? sqrt((1.0 - f->usl.sigma) / f->usl.kappa) : cap;
		r->n_lo = first_side(f, q_t, &qs, plo, phi, step, step, r->n, -1);
		r->n_hi = first_side(f, q_t, &qs, plo, phi, step, r->n, fmin(cap, fmax(r->n, peak + step)), 1);
	}
}

/* The smallest N from 1 up to the bound that the law of ff's family says meets q, rounded up
 * to whole nodes of node accelerators (node 0: none known), into ans->pred, with the verdict
 * of the fit beside it; and the same search on the interval's ends (ans->pred.n_lo..n_hi).
 * The law is the split law where the family has one (its GBS q->gbs, else the GBS of its row
 * nearest the answer: looked for again from each answer until the GBS holds, at most 4
 * times), else the time law (conv false: no row of the family has convergence data).
 * 0, or -1 with err out of memory. */
static int query_predict(const struct dataset *ds, const struct analysis *a, const struct fam_fit *ff,
			 const struct query *q, double plo, double phi, long node, bool conv,
			 struct q_answer *ans, struct gs_err *err)
{
	const struct fit *f = &ff->fit;
	double cap = fmin(FIT_PEAK_RANGE * f->n_max, 1e6);
	struct pred p;
	struct answer rt, rs = { 0 };
	struct split_law sl, used, s2;
	bool split = false;

	ans->tried = true;
	if (!isnan(q->max_kwh)) {
		predict_at(ff, f->n_ref, plo, phi, &ans->pred);
		ans->pred.ok = false;
		strcpy(ans->pred.why, "no law predicts energy (a kWh budget is given)");
		return 0;
	}
	predict_at(ff, f->n_ref, plo, phi, &p);
	if (!p.ok) {
		ans->pred = p;
		return 0;
	}
	if (!isnan(q->max_cost) && isnan(plo)) {
		ans->pred = p;
		ans->pred.ok = false;
		strcpy(ans->pred.why, "no price");
		return 0;
	}
	law_answer(f, 1.0, q, plo, phi, node, cap, &rt);
	memset(&sl, 0, sizeof sl);
	if (conv && predict_split_law(ds, a, ff->family, isnan(rt.n) ? f->n_max : rt.n, q->gbs, &sl, err) < 0)
		return -1;
	for (int it = 0; sl.ok; it++) {
		law_answer(&sl.fit, sl.s_rcp / 60.0, q, plo, phi, node, cap, &rs);
		used = sl;
		split = true;
		if (it == 3 || isnan(rs.n) || !isnan(q->gbs))
			break;
		if (predict_split_law(ds, a, ff->family, rs.n, q->gbs, &s2, err) < 0)
			return -1;
		if (!s2.ok || s2.gbs == sl.gbs)
			break;
		sl = s2;
	}
	const struct answer *r = split ? &rs : &rt;
	if (isnan(r->n)) {
		const char *v = split ? used.verdict : p.verdict;
		ans->pred = p;
		ans->pred.ok = false;
		if (node > 0)
			snprintf(ans->pred.why, sizeof ans->pred.why, "no N up to %g in whole nodes of %ld meets it; %s%s",
				 cap, node, describe_verdict_lead(v), v);
		else
			snprintf(ans->pred.why, sizeof ans->pred.why, "no N up to %g meets it; %s%s", cap,
				 describe_verdict_lead(v), v);
		return 0;
	}
	if (split) {
		predict_split_at(ff, &used, r->n, plo, phi, &ans->pred);
	} else {
		predict_at(ff, r->n, plo, phi, &ans->pred);
		if (sl.refused)
			snprintf(ans->pred.note, sizeof ans->pred.note, "%s", sl.why);
	}
	ans->pred_cost = r->cost;
	ans->pred.node = node;
	ans->pred.n_law = r->n_law;
	ans->pred.n_lo = r->n_lo;
	ans->pred.n_hi = r->n_hi;
	return 0;
}

/* What the sorts of query_run compare: family names, then indices. */
struct by_family {
	const char *family;
	size_t i;
};

static int by_family_cmp(const void *x, const void *y)
{
	const struct by_family *a = x, *b = y;
	int c = strcmp(a->family, b->family);

	if (c)
		return c;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* v[0..n) of a's pooled rows (rows true) or fits, sorted by family, each family's in index
 * order; NULL when out of memory. A family's rows and fit are then found by one sort, not by
 * reading every row for every family. */
static struct by_family *by_family(const struct dataset *ds, const struct analysis *a, bool rows, size_t *n)
{
	struct by_family *v;

	size_t all = rows ? a->n : a->nfits;
	*n = 0;
	if (!(v = malloc((all ? all : 1) * sizeof *v)))
		return NULL;
	for (size_t i = 0; i < all; i++)
		if (!rows || !arow_carried(&a->rows[i])) /* a run list answers once, as its standing row */
			v[(*n)++] = (struct by_family){ rows ? ds->rows[a->rows[i].row].family : a->fits[i].family, i };
	if (*n)
		qsort(v, *n, sizeof *v, by_family_cmp);
	return v;
}

/* The node size of one family's shown rows v[0..n): the most common accelerators per node
 * among them (equally common: the smaller), 0 when none gives one. */
static long node_of(const struct dataset *ds, const struct analysis *a, const struct by_family *v,
		    size_t n)
{
	long best = 0;
	size_t best_n = 0;

	for (size_t i = 0; i < n; i++) {
		long long k = ds->rows[a->rows[v[i].i].row].per_node;
		size_t c = 0;
		if (k <= 0)
			continue;
		for (size_t j = 0; j < n; j++)
			c += ds->rows[a->rows[v[j].i].row].per_node == k;
		if (c > best_n || (c == best_n && k < best)) {
			best_n = c;
			best = (long)k;
		}
	}
	return best;
}

int query_run(const struct dataset *ds, const struct analysis *a, const struct query *q,
	      struct q_result *r, struct gs_err *err)
{
	bool need_price = !isnan(q->max_cost) || q->minimize == QO_COST;
	bool need_energy = !isnan(q->max_kwh) || q->minimize == QO_KWH;
	struct by_family *rows = NULL, *fits = NULL;
	size_t nrows, nfits, next = 0, f = 0;

	query_free(r);
	r->best = -1;
	if (!(rows = by_family(ds, a, true, &nrows)) || !(fits = by_family(ds, a, false, &nfits)) ||
	    !(r->ans = calloc(nrows ? nrows : 1, sizeof *r->ans))) {
		free(rows);
		free(fits);
		err_oom(err, NULL, 0);
		return -1;
	}
	for (size_t at = 0; at < nrows; at = next) {
		struct q_answer *ans = &r->ans[r->n];
		size_t k = r->n++;
		bool priced = false, energy = false, conv = false;
		double plo = NAN, phi = NAN;
		ans->family = rows[at].family;
		ans->row = -1;
		ans->state = QA_NONE;
		for (next = at; next < nrows && strcmp(rows[next].family, ans->family) == 0; next++) {
			const struct arow *ar = &a->rows[rows[next].i];
			enum q_sure c;
			ans->nrows++;
			/* the family's price: its first row's with one (as planner_price says) */
			if (isnan(plo) && isfinite(ds->rows[ar->row].price_lo)) {
				plo = ds->rows[ar->row].price_lo;
				phi = ds->rows[ar->row].price_hi;
			}
			priced |= !isnan(ar->cost_lo);
			conv |= ar->X > 0;
			energy |= !isnan(ar->kwh);
			if (!query_meets(ar, q, &c) || isnan(query_objective(ar, q->minimize)))
				continue;
			ans->nmeet++;
			if (ans->row < 0 || query_better(ds, ar, &a->rows[ans->row], q->minimize)) {
				ans->row = (long)rows[next].i;
				ans->cost = c;
			}
		}
		if (need_price && !priced) {
			ans->state = QA_UNPRICED;
			r->nunpriced++;
			ans->row = -1;
			continue;
		}
		if (need_energy && !energy) {
			ans->state = QA_NO_ENERGY;
			r->nno_energy++;
			ans->row = -1;
			continue;
		}
		ans->state = ans->row >= 0 ? QA_ROW : QA_NONE;
		if (ans->row >= 0 && (r->best < 0 ||
				      query_better(ds, &a->rows[ans->row], &a->rows[r->ans[r->best].row],
						   q->minimize)))
			r->best = (long)k;
		/* the family's own fit, from the rows shown (the last of its name) */
		const struct fam_fit *ff = NULL;
		while (f < nfits && strcmp(fits[f].family, ans->family) < 0)
			f++;
		for (; f < nfits && strcmp(fits[f].family, ans->family) == 0; f++)
			ff = &a->fits[fits[f].i];
		if (ff && query_constrained(q) &&
		    query_predict(ds, a, ff, q, plo, phi, node_of(ds, a, rows + at, next - at), conv, ans,
				  err) < 0) {
			free(rows);
			free(fits);
			query_free(r);
			return -1;
		}
	}
	free(rows);
	free(fits);
	return 0;
}

void query_free(struct q_result *r)
{
	free(r->ans);
	memset(r, 0, sizeof *r);
	r->best = -1;
}
