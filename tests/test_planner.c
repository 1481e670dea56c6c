/* test_planner.c: the planner on small made-up rounds: the query (ties, unpriced families,
 * energy absent, nothing meeting it, cost surely and possibly, the predicted N), the
 * prediction interval against its closed form on a law with one free parameter, the refusal
 * of a family without a fit, and the break-even trend against each round's own analysis. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "dataset.h"
#include "describe.h"
#include "planner.h"

static const char families[] =
	"pattern,vendor,family\n"
	"ALPHA,V,Alpha\n"
	"BETA,V,Beta\n"
	"GAMMA,V,Gamma\n"
	"LIN,V,Lin\n";

static const char prices[] =
	"family,usd_per_hour_low,usd_per_hour_high,source,date\n"
	"Alpha,1,2,test,2026-01\n"
	"Gamma,0.5,1,test,2026-01\n"
	"Lin,1,1,test,2026-01\n";

/* Alpha: a1 loses on time, a0 and a2 tie on A and T (a0 wins by id), a3 costs more.
 * Beta: one row, no price. Gamma: g1 has energy (5 kWh), g2 none. */
static const char rows_q[] =
	"round,submitter,system,accelerator,accelerators,benchmark,minutes,energy_j\n"
	"v4.1,S,a1,ALPHA-X,8,bert,60,\n"
	"v4.1,S,a2,ALPHA-X,16,bert,30,\n"
	"v4.1,S,a0,ALPHA-X,16,bert,30,\n"
	"v4.1,S,a3,ALPHA-X,32,bert,20,\n"
	"v4.1,S,b1,BETA-Y,8,bert,45,\n"
	"v4.1,S,g1,GAMMA-Z,4,bert,100,18000000\n"
	"v4.1,S,g2,GAMMA-Z,8,bert,40,\n";

static void load(struct dataset *ds, const char *csv)
{
	struct gs_err err = { 0 };

	memset(ds, 0, sizeof *ds);
	if (dataset_load_families_buffer(ds, "families", families, strlen(families), &err) < 0 ||
	    dataset_load_prices_buffer(ds, "prices", prices, strlen(prices), &err) < 0 ||
	    dataset_load_buffer(ds, "rows", csv, strlen(csv), &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(dataset_classify(ds), 0);
}

static void run(const struct dataset *ds, struct analysis *a, const char *round, bool fit)
{
	struct params p;
	struct gs_err err = { 0 };

	params_init(&p);
	p.round = round;
	p.workload = "bert";
	p.fit = fit;
	if (analysis_run(ds, &p, a, &err) < 0)
		fail_msg("%s", err.msg);
}

static const struct q_answer *ans_of(const struct q_result *r, const char *fam)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->ans[i].family, fam) == 0)
			return &r->ans[i];
	fail_msg("no answer for %s", fam);
	return NULL;
}

static const char *sys_of(const struct dataset *ds, const struct analysis *a, const struct q_answer *x)
{
	assert_true(x->row >= 0);
	return ds->rows[a->rows[x->row].row].system;
}

static void query(const struct dataset *ds, const struct analysis *a, const struct query *q,
		  struct q_result *r)
{
	struct gs_err err = { 0 };

	if (query_run(ds, a, q, r, &err) < 0)
		fail_msg("%s", err.msg);
}

static void test_query_deadline_ties(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct query q;
	struct q_result r = { 0 };

	(void)state;
	load(&ds, rows_q);
	run(&ds, &a, "v4.1", false);
	query_init(&q);
	q.deadline = 50;
	query(&ds, &a, &q, &r);
	assert_int_equal(r.n, 3);
	/* by family name */
	assert_string_equal(r.ans[0].family, "Alpha");
	assert_string_equal(r.ans[2].family, "Gamma");
	const struct q_answer *x = ans_of(&r, "Alpha");
	assert_int_equal(x->state, QA_ROW);
	assert_int_equal(x->nrows, 4);
	assert_int_equal(x->nmeet, 3);
	/* a0 and a2: A 8, T 30 both; the id decides, whatever the input order */
	assert_string_equal(sys_of(&ds, &a, x), "a0");
	assert_string_equal(sys_of(&ds, &a, ans_of(&r, "Beta")), "b1");
	/* g1 misses the deadline; g2 (A 5.33) is the best of all */
	assert_string_equal(sys_of(&ds, &a, ans_of(&r, "Gamma")), "g2");
	assert_true(r.best >= 0);
	assert_string_equal(r.ans[r.best].family, "Gamma");
	assert_int_equal(r.nunpriced, 0);
	/* minutes: the fastest meeting it */
	q.minimize = QO_MINUTES;
	query(&ds, &a, &q, &r);
	assert_string_equal(sys_of(&ds, &a, ans_of(&r, "Alpha")), "a3");
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

static void test_query_unpriced_and_budget(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct query q;
	struct q_result r = { 0 };
	char buf[300];

	(void)state;
	load(&ds, rows_q);
	run(&ds, &a, "v4.1", false);
	query_init(&q);
	q.minimize = QO_COST;
	query(&ds, &a, &q, &r);
	assert_int_equal(ans_of(&r, "Beta")->state, QA_UNPRICED);
	assert_int_equal(ans_of(&r, "Beta")->row, -1);
	assert_int_equal(r.nunpriced, 1);
	/* Gamma g2: A 5.33 x 0.5..1 USD, mid 4: the cheapest priced row */
	assert_string_equal(r.ans[r.best].family, "Gamma");
	assert_string_equal(sys_of(&ds, &a, &r.ans[r.best]), "g2");
	assert_string_equal(describe_q_state(ans_of(&r, "Beta"), buf, sizeof buf),
			    "left out: no price (prices.csv)");

	/* a budget of 10 USD: Alpha a0 costs 8..16 (possibly), a3 10.7..21.3 (no); Gamma surely */
	query_init(&q);
	q.max_cost = 10;
	query(&ds, &a, &q, &r);
	const struct q_answer *x = ans_of(&r, "Alpha");
	assert_string_equal(sys_of(&ds, &a, x), "a0");
	assert_int_equal(x->cost, QS_POSSIBLY);
	assert_int_equal(x->nmeet, 3); /* a1, a2, a0 */
	assert_int_equal(ans_of(&r, "Gamma")->cost, QS_SURELY);
	assert_int_equal(ans_of(&r, "Beta")->state, QA_UNPRICED);
	/* the high end exactly at the budget is sure */
	q.max_cost = 16;
	query(&ds, &a, &q, &r);
	assert_int_equal(ans_of(&r, "Alpha")->cost, QS_SURELY);
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

static void test_query_energy_absent(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct query q;
	struct q_result r = { 0 };

	(void)state;
	load(&ds, rows_q);
	run(&ds, &a, "v4.1", false);
	query_init(&q);
	q.max_kwh = 10;
	query(&ds, &a, &q, &r);
	assert_int_equal(ans_of(&r, "Alpha")->state, QA_NO_ENERGY);
	assert_int_equal(ans_of(&r, "Beta")->state, QA_NO_ENERGY);
	assert_int_equal(r.nno_energy, 2);
	/* g2 has no energy: never meets a kWh budget, though it is cheaper in A */
	const struct q_answer *x = ans_of(&r, "Gamma");
	assert_int_equal(x->state, QA_ROW);
	assert_int_equal(x->nmeet, 1);
	assert_string_equal(sys_of(&ds, &a, x), "g1");
	assert_true(fabs(a.rows[x->row].kwh - 5) < 1e-12);
	/* the objective alone leaves rows without energy out too */
	query_init(&q);
	q.minimize = QO_KWH;
	query(&ds, &a, &q, &r);
	assert_string_equal(sys_of(&ds, &a, ans_of(&r, "Gamma")), "g1");
	assert_int_equal(r.nno_energy, 2);
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

static void test_query_nothing_meets(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct query q;
	struct q_result r = { 0 };
	char buf[200];

	(void)state;
	load(&ds, rows_q);
	run(&ds, &a, "v4.1", false);
	query_init(&q);
	q.deadline = 1;
	query(&ds, &a, &q, &r);
	assert_int_equal(r.best, -1);
	for (size_t i = 0; i < r.n; i++) {
		assert_int_equal(r.ans[i].state, QA_NONE);
		assert_int_equal(r.ans[i].row, -1);
		assert_int_equal(r.ans[i].nmeet, 0);
	}
	assert_string_equal(describe_q_state(ans_of(&r, "Alpha"), buf, sizeof buf),
			    "none of its 4 rows meets it");
	/* a budget in A nobody meets either */
	query_init(&q);
	q.max_acc_hours = 1;
	query(&ds, &a, &q, &r);
	assert_int_equal(r.best, -1);
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

/* ---- a law known in closed form ----
 * ln X_i = ln N_i + e_i with e rising with N (-d, -d, 0, 0, d, d): faster than linear, so the
 * least-squares USL holds sigma and kappa at 0 and only ln lambda is free. Then ln lambda-hat =
 * mean(e) = 0, SSE = sum e^2 = 4 d^2 on 6 - 1 = 5 degrees of freedom, Var(ln lambda-hat) =
 * s^2 / 6, and T(N) = 60/N with the 90% interval 60/N exp(+- t(0.95, 5) s / sqrt 6). */
#define D 0.01
static const double lin_n[] = { 1, 2, 4, 8, 16, 32 };
static const double lin_e[] = { -D, -D, 0, 0, D, D };

static char *lin_csv(void)
{
	static char buf[2048];
	size_t used = (size_t)snprintf(buf, sizeof buf,
				       "round,submitter,system,accelerator,accelerators,benchmark,minutes,energy_j\n");
	for (size_t i = 0; i < 6; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "v4.1,S,l%zu,LIN,%g,bert,%.17g,3600000\n", i,
					 lin_n[i], 60.0 / lin_n[i] * exp(-lin_e[i]));
	return buf;
}

static void test_predict_closed_form(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct pred p;
	const double t95 = 2.015048372669157; /* Student t, 5 degrees of freedom, 0.95 */

	(void)state;
	load(&ds, lin_csv());
	run(&ds, &a, "v4.1", true);
	assert_int_equal(a.nfits, 1);
	const struct fam_fit *ff = &a.fits[0];
	assert_true(ff->fit.usl.sigma_at_bound && ff->fit.usl.kappa_at_bound);
	assert_true(ff->v.judged && ff->v.ok);
	assert_int_equal(ff->fit.usl.dof, 5);
	double s = sqrt(4 * D * D / 5), w = t95 * s / sqrt(6.0);
	for (double n = 1; n <= 2048; n *= 4) {
		predict_at(ff, n, 1, 1, &p);
		assert_true(p.ok);
		assert_true(fabs(p.t - 60 / n) < 1e-9 * (60 / n));
		assert_true(fabs(p.t_lo - 60 / n * exp(-w)) < 1e-7 * (60 / n));
		assert_true(fabs(p.t_hi - 60 / n * exp(w)) < 1e-7 * (60 / n));
		/* A = N T / 60 is 1 at every N; E' on the reference (N 1, its own minutes) */
		assert_true(fabs(p.a - 1) < 1e-9);
		assert_true(fabs(p.a_hi - exp(w)) < 1e-7);
		double tref = 60 * exp(D);
		assert_true(fabs(p.ep - tref / (60 / n) / n) < 1e-9);
		assert_true(fabs(p.ep_lo - tref / p.t_hi / n) < 1e-12);
		assert_true(p.ep_lo < p.ep && p.ep < p.ep_hi);
		assert_true(fabs(p.cost_lo - p.a) < 1e-12);
		assert_int_equal(p.extrapolated, n > 32);
	}
	/* the query's predicted N: T = 60/N <= 5 first at N 12 */
	struct query q;
	struct q_result r = { 0 };
	struct gs_err err = { 0 };
	char buf[600];
	query_init(&q);
	q.deadline = 5;
	assert_int_equal(query_run(&ds, &a, &q, &r, &err), 0);
	assert_true(r.ans[0].tried && r.ans[0].pred.ok);
	assert_true(r.ans[0].pred.n == 12);
	assert_false(r.ans[0].pred.extrapolated);
	/* the same search on the interval's ends: 60/N exp(-w) <= 5 from N >= 12 exp(-w) = 11.91,
	 * and 60/N exp(w) <= 5 from N >= 12 exp(w) = 12.09; no node size in the data: unrounded */
	assert_true(r.ans[0].pred.n_lo == 12 && r.ans[0].pred.n_hi == 13);
	assert_int_equal(r.ans[0].pred.node, 0);
	describe_q_pred(&r.ans[0], &q, buf, sizeof buf);
	if (!strstr(buf, "predicted N 12, 90% N 12..13: T 5.00 (") || !strstr(buf, "; fit ok"))
		fail_msg("%s", buf);
	/* observed: one of the two rows at N 16 and 32 (T 3.71 and 1.86) */
	assert_true(r.ans[0].row >= 0 && a.rows[r.ans[0].row].T <= 5 && a.rows[r.ans[0].row].N >= 16);
	/* A is 1 at every N: a budget below it has no N */
	q.max_acc_hours = 0.5;
	assert_int_equal(query_run(&ds, &a, &q, &r, &err), 0);
	assert_false(r.ans[0].pred.ok);
	assert_non_null(strstr(r.ans[0].pred.why, "no N up to"));
	/* a kWh budget the rows meet (1 kWh each): observed yes, but no law predicts energy */
	query_init(&q);
	q.max_kwh = 100;
	assert_int_equal(query_run(&ds, &a, &q, &r, &err), 0);
	assert_int_equal(r.ans[0].state, QA_ROW);
	assert_int_equal(r.ans[0].nmeet, 6);
	assert_true(r.ans[0].tried);
	assert_false(r.ans[0].pred.ok);
	assert_non_null(strstr(r.ans[0].pred.why, "energy"));
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

/* The law's answer in whole nodes: the same rows in nodes of 8 accelerators (the smallest on
 * one node each) round the law's N 12 up to 16, and the interval's ends 12..13 up to 16..16. */
static void test_predict_nodes(void **state)
{
	static char buf[2048];
	struct dataset ds;
	struct analysis a = { 0 };
	struct query q;
	struct q_result r = { 0 };
	struct gs_err err = { 0 };
	char line[600];
	size_t used = (size_t)snprintf(buf, sizeof buf, "round,submitter,system,accelerator,nodes,"
				       "accelerators_per_node,accelerators,benchmark,minutes\n");

	(void)state;
	for (size_t i = 0; i < 6; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "v4.1,S,l%zu,LIN,%g,%g,%g,bert,%.17g\n", i,
					 lin_n[i] < 8 ? 1 : lin_n[i] / 8, lin_n[i] < 8 ? lin_n[i] : 8, lin_n[i],
					 60.0 / lin_n[i] * exp(-lin_e[i]));
	load(&ds, buf);
	run(&ds, &a, "v4.1", true);
	query_init(&q);
	q.deadline = 5;
	assert_int_equal(query_run(&ds, &a, &q, &r, &err), 0);
	const struct pred *p = &r.ans[0].pred;
	assert_true(p->ok && p->node == 8 && p->n == 16 && p->n_law == 12 && p->n_lo == 16 && p->n_hi == 16);
	describe_q_pred(&r.ans[0], &q, line, sizeof line);
	if (!strstr(line, "predicted N 16 (2 nodes of 8; the law's N 12), 90% N 16: T 3.75 ("))
		fail_msg("%s", line);
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

/* The predicted N is found by search on the law (T falls to the peak and rises after it, A
 * grows): on random laws and constraints it is the N that trying every N from 1 finds. */
static void test_predict_search_is_scan(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct q_result r = { 0 };
	struct gs_err err = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int found = 0, none = 0;

	(void)state;
	load(&ds, lin_csv());
	run(&ds, &a, "v4.1", true);
	assert_int_equal(a.nfits, 1);
	struct fit *f = &a.fits[0].fit;
	double cap = fmin(FIT_PEAK_RANGE * f->n_max, 1e6);
	for (int k = 0; k < 3000; k++) {
		double u[5];
		for (int j = 0; j < 5; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			u[j] = (double)(x >> 11) / 9007199254740992.0;
		}
		struct query q;
		query_init(&q);
		f->usl.lambda = 60.0 / pow(10, 3 * u[0]);              /* T(1) 1..1000 min */
		f->usl.sigma = u[1] < 0.2 ? 0 : 0.3 * u[1] * u[1];
		f->usl.kappa = u[2] < 0.2 ? 0 : pow(10, -2 - 7 * u[2]); /* peaks from 10 to 3e4 */
		q.deadline = pow(10, -2 + 4 * u[3]);
		if (u[4] < 0.5)
			q.max_acc_hours = pow(10, -1 + 4 * u[4] * 2);
		assert_int_equal(query_run(&ds, &a, &q, &r, &err), 0);
		double want = NAN;
		for (double n = 1; n <= cap && isnan(want); n++) {
			double t = fit_t(f, n);
			if (isfinite(t) && t <= q.deadline && (isnan(q.max_acc_hours) || n * t / 60.0 <= q.max_acc_hours))
				want = n;
		}
		if (isnan(want)) {
			none++;
			assert_false(r.ans[0].pred.ok);
		} else {
			found++;
			if (!r.ans[0].pred.ok || r.ans[0].pred.n != want)
				fail_msg("law %g %g %g, deadline %g, acc-hours %g: N %g, wanted %g", f->usl.lambda,
					 f->usl.sigma, f->usl.kappa, q.deadline, q.max_acc_hours,
					 r.ans[0].pred.ok ? r.ans[0].pred.n : NAN, want);
		}
	}
	/* both outcomes were tried often */
	assert_true(found > 300 && none > 300);
	query_free(&r);
	analysis_free(&a);
	dataset_free(&ds);
}

static void test_predict_refused(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct pred p;
	char buf[300];

	(void)state;
	load(&ds, rows_q); /* Beta: one N */
	run(&ds, &a, "v4.1", true);
	for (size_t f = 0; f < a.nfits; f++) {
		if (strcmp(a.fits[f].family, "Beta") != 0)
			continue;
		predict_at(&a.fits[f], 64, NAN, NAN, &p);
		assert_false(p.ok);
		assert_string_equal(describe_pred(&p, buf, sizeof buf),
				    "not predicted: no fit (needs 3 distinct N)");
	}
	analysis_free(&a);
	dataset_free(&ds);
}

/* ---- trend ---- */
static const char rows_t[] =
	"round,submitter,system,accelerator,accelerators,benchmark,minutes\n"
	"v4.0,S,x4,ALPHA-X,4,bert,100\n"
	"v4.0,S,x8,ALPHA-X,8,bert,50\n"
	"v4.0,S,x16,ALPHA-X,16,bert,40\n"
	"v4.0,S,y2,BETA-Y,2,bert,100\n"
	"v4.0,S,y4,BETA-Y,4,bert,50\n"
	"v4.1,S,z8,ALPHA-X,8,bert,20\n"
	"v5.0,S,y8,BETA-Y,8,bert,10\n"
	"v5.0,S,y16,BETA-Y,16,bert,4\n"
	"v0.7,S,old,ALPHA-X,8,bert,90\n"
	"v4.1,S,other,ALPHA-X,8,resnet,30\n";

static void test_trend(void **state)
{
	struct dataset ds;
	struct trend t;
	struct params p;
	struct gs_err err = { 0 };
	struct analysis a = { 0 };
	char buf[64];

	(void)state;
	load(&ds, rows_t);
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	p.mode = REF_PAPER; /* the trend is per family whatever the mode */
	assert_int_equal(trend_run(&ds, &p, &t, &err), 0);
	/* v0.7 stands alone: not in the span */
	assert_int_equal(t.nrounds, 3);
	assert_string_equal(t.rounds[0], "v4.0");
	assert_string_equal(t.rounds[2], "v5.0");
	assert_int_equal(t.cur, 1);
	assert_int_equal(t.nfamilies, 2);
	assert_string_equal(t.families[0], "Alpha");
	assert_string_equal(describe_trend_cell(trend_cell(&t, 0, 0), buf, sizeof buf), "8..<16 @4");
	assert_string_equal(describe_trend_cell(trend_cell(&t, 0, 1), buf, sizeof buf), "one row @8");
	assert_string_equal(describe_trend_cell(trend_cell(&t, 0, 2), buf, sizeof buf), "-");
	assert_string_equal(describe_trend_cell(trend_cell(&t, 1, 0), buf, sizeof buf), "4+ @2");
	assert_string_equal(describe_trend_cell(trend_cell(&t, 1, 1), buf, sizeof buf), "-");
	/* v5.0 Beta: E'(16) = 10*8/(4*16) = 1.25 */
	assert_string_equal(describe_trend_cell(trend_cell(&t, 1, 2), buf, sizeof buf), "16+ @8");
	/* each cell is that round's own family bracket */
	for (size_t r = 0; r < t.nrounds; r++) {
		params_init(&p);
		p.round = t.rounds[r];
		p.workload = "bert";
		assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
		for (size_t f = 0; f < t.nfamilies; f++) {
			const struct trend_cell *c = trend_cell(&t, f, r);
			bool found = false;
			for (size_t g = 0; g < a.ngroups; g++) {
				if (strcmp(a.groups[g].family, t.families[f]) != 0)
					continue;
				found = true;
				assert_int_equal(c->be.kind, a.groups[g].be.kind);
				assert_int_equal(c->be.lo, a.groups[g].be.lo);
				assert_int_equal(c->be.hi, a.groups[g].be.hi);
			}
			assert_int_equal(found, c->has);
		}
	}
	trend_free(&t);
	/* a workload of one round only */
	params_init(&p);
	p.round = "v4.1";
	p.workload = "resnet";
	assert_int_equal(trend_run(&ds, &p, &t, &err), 0);
	assert_int_equal(t.nrounds, 1);
	trend_free(&t);
	p.workload = "nosuch";
	assert_int_equal(trend_run(&ds, &p, &t, &err), -1);
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_deadline_ties),
		cmocka_unit_test(test_query_unpriced_and_budget),
		cmocka_unit_test(test_query_energy_absent),
		cmocka_unit_test(test_query_nothing_meets),
		cmocka_unit_test(test_predict_closed_form),
		cmocka_unit_test(test_predict_nodes),
		cmocka_unit_test(test_predict_search_is_scan),
		cmocka_unit_test(test_predict_refused),
		cmocka_unit_test(test_trend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
