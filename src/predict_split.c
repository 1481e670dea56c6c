/* predict_split.c: a family's time at any N from its throughput and the reference convergence
 * points (RCPs): a USL fit of X(N), the charged samples per minute its rows processed, times
 * the samples a run at a chosen GBS needs to converge, the RCP mean there (planner.h says why
 * T = S_rcp / X(N) in official minutes). The interval is the time law's: the delta method on
 * the fit of X, the RCP mean taken as exact. */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reg.h"
#include "fmt.h"

/* The batch sizes the RCP table lists for benchmark in ruleset into *lo, *hi; false when none. */
static bool rcp_range(const struct rcp_table *t, const char *ruleset, const char *bench, double *lo,
		      double *hi, const char **unit)
{
	bool any = false;

	for (size_t i = 0; i < t->n; i++) {
		const struct rcp_point *p = &t->p[i];
		if (strcmp(p->ruleset, ruleset) != 0 || strcmp(p->benchmark, bench) != 0)
			continue;
		*lo = any ? fmin(*lo, p->bs) : p->bs;
		*hi = any ? fmax(*hi, p->bs) : p->bs;
		*unit = p->unit;
		any = true;
	}
	return any;
}

/* The law's verdict against its points: ok when every row's X lies within FIT_VERDICT_TOL of
 * the fitted X at its N (the rule the time law's verdict starts from), else the row furthest
 * off in ln X is named; a weak fit says so. */
static void split_verdict(struct split_law *s, const double *pn, const double *pt, size_t m)
{
	double worst = -1, wn = NAN, wo = NAN, wf = NAN;
	bool ok = true;
	char b1[32], b2[32], b3[32];

	for (size_t i = 0; i < m; i++) {
		double xo = 60.0 / pt[i], xf = 60.0 / fit_t(&s->fit, pn[i]);
		double off = fabs(log(xo / xf));
		if (!(fabs(xo / xf - 1) <= FIT_VERDICT_TOL))
			ok = false;
		if (off > worst) {
			worst = off;
			wn = pn[i];
			wo = xo;
			wf = xf;
		}
	}
	s->poor = !ok;
	if (!ok)
		snprintf(s->verdict, sizeof s->verdict, "poor fit: worst N=%s observed X %s, fitted %s %s/min",
			 fmt_count(wn, b1, sizeof b1), fmt_sig(wo, 3, b2, sizeof b2), fmt_sig(wf, 3, b3, sizeof b3),
			 s->unit);
	else if (s->fit.state == FIT_WEAK)
		snprintf(s->verdict, sizeof s->verdict, "weak (%s)", s->fit.reason);
	else
		snprintf(s->verdict, sizeof s->verdict, "ok");
}

int predict_split_law(const struct dataset *ds, const struct analysis *a, const char *family,
		      double n, double gbs, struct split_law *s, struct gs_err *err)
{
	double *pn = malloc((a->n ? a->n : 1) * sizeof *pn), *pt = malloc((a->n ? a->n : 1) * sizeof *pt);
	double best = INFINITY, best_n = 0, lo = NAN, hi = NAN;
	const char *unit = "", *conv = "";
	size_t m = 0;
	char ruleset[32];

	memset(s, 0, sizeof *s);
	s->gbs = s->s_rcp = NAN;
	if (!pn || !pt) {
		free(pn);
		free(pt);
		err_oom(err, NULL, 0);
		return -1;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *o = &a->rows[i];
		const struct row *r = &ds->rows[o->row];
		if (strcmp(r->family, family) != 0 || !(o->X > 0) || !isfinite(o->X))
			continue;
		pn[m] = o->N;
		pt[m++] = 60.0 / o->X; /* the fit's X = 60 / t is then the row's X */
		conv = r->conv_unit;
		/* the GBS of the row nearest n (log N), ties to the fewer accelerators */
		double d = fabs(log(o->N / n));
		if (isfinite(o->gbs) && (d < best || (d == best && o->N < best_n))) {
			best = d;
			best_n = o->N;
			s->gbs = o->gbs;
		}
	}
	if (!isnan(gbs))
		s->gbs = gbs;
	size_t distinct = 0;
	for (size_t i = 0; i < m; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = pn[j] == pn[i];
		distinct += !seen;
	}
	if (distinct < FIT_MIN_DISTINCT) {
		snprintf(s->why, sizeof s->why, "no split law (%zu distinct N with convergence data)", distinct);
		goto out;
	}
	bench_reg_ruleset(a->round, ruleset, sizeof ruleset);
	if (!rcp_range(&ds->rcp, ruleset, a->workload, &lo, &hi, &unit)) {
		snprintf(s->why, sizeof s->why, "no RCP of %s in ruleset %s", a->workload, ruleset);
		goto out;
	}
	snprintf(s->unit, sizeof s->unit, "%s", unit);
	if (fit_run(pn, pt, m, &s->fit, err) < 0) {
		free(pn);
		free(pt);
		return -1;
	}
	if (!fit_usable(&s->fit)) {
		snprintf(s->why, sizeof s->why, "no split law (throughput fit %s: %s)", fit_state_name(s->fit.state),
			 s->fit.reason);
		goto out;
	}
	char b1[32], b2[32], b3[32];
	s->refused = true;
	if (strcmp(unit, conv) != 0) {
		snprintf(s->why, sizeof s->why, "the RCP counts %s, the results %s: no split law", unit, conv);
		goto out;
	}
	if (!isfinite(s->gbs)) {
		snprintf(s->why, sizeof s->why, "no GBS to take the RCP at");
		goto out;
	}
	s->s_rcp = rcp_at(&ds->rcp, ruleset, a->workload, s->gbs, &unit);
	if (!isfinite(s->s_rcp)) {
		snprintf(s->why, sizeof s->why, "GBS %s outside the RCP table's %s..%s (ruleset %s): no extrapolation",
			 fmt_count(s->gbs, b1, sizeof b1), fmt_count(lo, b2, sizeof b2), fmt_count(hi, b3, sizeof b3),
			 ruleset);
		goto out;
	}
	s->refused = false;
	s->ok = true;
	split_verdict(s, pn, pt, m);
out:
	free(pn);
	free(pt);
	return 0;
}

void predict_split_at(const struct fam_fit *ff, const struct split_law *s, double n, double price_lo,
		      double price_hi, struct pred *out)
{
	double t, lo, hi;

	predict_at(ff, n, price_lo, price_hi, out); /* the reference, the N range, the fields' NANs */
	out->ok = false;
	out->t = out->t_lo = out->t_hi = out->ep = out->ep_lo = out->ep_hi = NAN;
	out->a = out->a_lo = out->a_hi = out->cost_lo = out->cost_hi = NAN;
	out->split = true;
	out->gbs = s->gbs;
	out->s_rcp = s->s_rcp;
	snprintf(out->rcp_unit, sizeof out->rcp_unit, "%s", s->unit);
	snprintf(out->verdict, sizeof out->verdict, "%s", s->verdict);
	out->poor = s->poor;
	out->weak = s->fit.state == FIT_WEAK;
	if (!s->ok || predict_t(&s->fit, n, &t, &lo, &hi) < 0) {
		snprintf(out->why, sizeof out->why, "%s", s->ok ? "no prediction at this N" : s->why);
		return;
	}
	out->ok = true;
	out->why[0] = '\0';
	/* fit_t is 60 / X(N) minutes per sample: T = S_rcp / X = S_rcp t / 60 */
	out->t = s->s_rcp * t / 60.0;
	out->t_lo = s->s_rcp * lo / 60.0;
	out->t_hi = s->s_rcp * hi / 60.0;
	if (!isfinite(lo) || !isfinite(hi))
		out->t_lo = out->t_hi = NAN;
	out->extrapolated = n > s->fit.n_max || n < s->fit.n_ref;
	pred_derive(out, n, price_lo, price_hi);
}

int planner_predict(const struct dataset *ds, const struct analysis *a, const struct fam_fit *ff,
		    double n, double gbs, double price_lo, double price_hi, struct pred *out,
		    struct gs_err *err)
{
	struct split_law s;

	if (predict_split_law(ds, a, ff->family, n, gbs, &s, err) < 0)
		return -1;
	if (s.ok) {
		predict_split_at(ff, &s, n, price_lo, price_hi, out);
		return 0;
	}
	predict_at(ff, n, price_lo, price_hi, out);
	if (s.refused)
		snprintf(out->note, sizeof out->note, "%s", s.why);
	return 0;
}
