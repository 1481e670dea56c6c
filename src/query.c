/* query.c: constraint queries. Per family of the shown rows, the best observed row meeting a
 * deadline and budgets under an objective, and from an `ok` fit the smallest N the law says
 * would meet them. Rows are compared on their official numbers; a cost budget is met surely
 * when the high end of the family's price range meets it, possibly when only the low end does
 * (the prices are public on-demand ranges, not a quote). */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void query_init(struct query *q)
{
	q->deadline = q->max_cost = q->max_acc_hours = q->max_kwh = NAN;
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

/* The smallest N from 1 up that the law of ff says meets q, into ans->pred. A(N) grows with N
 * and T(N) falls up to the peak, so the N meeting a deadline and a budget form a range (or
 * none): the scan stops at its first N. */
static void query_predict(const struct fam_fit *ff, const struct query *q, double plo, double phi,
			  struct q_answer *ans)
{
	double cap = fmin(FIT_PEAK_RANGE * ff->fit.n_max, 1e6);
	struct pred p;

	ans->tried = true;
	if (!isnan(q->max_kwh)) {
		predict_at(ff, ff->fit.n_ref, plo, phi, &ans->pred);
		ans->pred.ok = false;
		strcpy(ans->pred.why, "no law predicts energy (a kWh budget is given)");
		return;
	}
	predict_at(ff, ff->fit.n_ref, plo, phi, &p);
	if (p.ok && ff->fit.state != FIT_OK) {
		p.ok = false;
		snprintf(p.why, sizeof p.why, "weak fit (%s)", ff->fit.reason);
	}
	if (!p.ok) {
		ans->pred = p;
		return;
	}
	if (!isnan(q->max_cost) && isnan(plo)) {
		ans->pred = p;
		ans->pred.ok = false;
		strcpy(ans->pred.why, "no price");
		return;
	}
	/* the scan tests the law's own T (a few operations an N); the interval is worked out once,
	 * for the N found */
	for (double n = 1; n <= cap; n++) {
		double t = fit_t(&ff->fit, n), a = n * t / 60.0;
		if (!isfinite(t))
			continue;
		if (!isnan(q->deadline) && !(t <= q->deadline))
			continue;
		if (!isnan(q->max_acc_hours) && !(a <= q->max_acc_hours))
			continue;
		enum q_sure c = QS_SURELY;
		if (!isnan(q->max_cost) && (c = cost_meets(a * plo, a * phi, q->max_cost)) == QS_NONE)
			continue;
		predict_at(ff, n, plo, phi, &ans->pred);
		ans->pred_cost = c;
		return;
	}
	ans->pred = p;
	ans->pred.ok = false;
	snprintf(ans->pred.why, sizeof ans->pred.why, "no N up to %g meets it", cap);
}

/* The index of family f in r->ans, appending it when new; -1 out of memory. */
static long answer_of(struct q_result *r, size_t *cap, const char *f)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ans[i].family == f || strcmp(r->ans[i].family, f) == 0)
			return (long)i;
	if (r->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct q_answer *na = realloc(r->ans, nc * sizeof *na);
		if (!na)
			return -1;
		r->ans = na;
		*cap = nc;
	}
	memset(&r->ans[r->n], 0, sizeof r->ans[r->n]);
	r->ans[r->n].family = f;
	r->ans[r->n].row = -1;
	r->ans[r->n].state = QA_NONE;
	return (long)r->n++;
}

static int ans_cmp(const void *x, const void *y)
{
	return strcmp(((const struct q_answer *)x)->family, ((const struct q_answer *)y)->family);
}

int query_run(const struct dataset *ds, const struct analysis *a, const struct query *q,
	      struct q_result *r, struct gs_err *err)
{
	bool need_price = !isnan(q->max_cost) || q->minimize == QO_COST;
	bool need_energy = !isnan(q->max_kwh) || q->minimize == QO_KWH;
	size_t cap = 0;

	query_free(r);
	r->best = -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *ar = &a->rows[i];
		long k = answer_of(r, &cap, ds->rows[ar->row].family);
		if (k < 0) {
			err_oom(err, NULL, 0);
			return -1;
		}
		r->ans[k].nrows++;
	}
	qsort(r->ans, r->n, sizeof *r->ans, ans_cmp);
	for (size_t k = 0; k < r->n; k++) {
		struct q_answer *ans = &r->ans[k];
		bool priced = false, energy = false;
		for (size_t i = 0; i < a->n; i++) {
			const struct arow *ar = &a->rows[i];
			enum q_sure c;
			if (strcmp(ds->rows[ar->row].family, ans->family) != 0)
				continue;
			priced |= !isnan(ar->cost_lo);
			energy |= !isnan(ar->kwh);
			if (!query_meets(ar, q, &c) || isnan(query_objective(ar, q->minimize)))
				continue;
			ans->nmeet++;
			if (ans->row < 0 || query_better(ds, ar, &a->rows[ans->row], q->minimize)) {
				ans->row = (long)i;
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
		/* the family's own fit, from the rows shown */
		const struct fam_fit *ff = NULL;
		for (size_t f = 0; f < a->nfits; f++)
			if (strcmp(a->fits[f].family, ans->family) == 0)
				ff = &a->fits[f];
		if (ff && query_constrained(q)) {
			double plo, phi;
			planner_price(ds, a, ans->family, &plo, &phi);
			query_predict(ff, q, plo, phi, ans);
		}
	}
	return 0;
}

void query_free(struct q_result *r)
{
	free(r->ans);
	memset(r, 0, sizeof *r);
	r->best = -1;
}
