/* predict.c: a family's time, E' and accelerator-hours at any N from its fitted law, with a
 * 90% interval.
 *
 * The interval is the delta method on ln T(N) = ln 60 - ln lambda - ln N + ln D(N), D(N) =
 * 1 + sigma (N-1) + kappa N (N-1): linear in the errors of (ln lambda, sigma, kappa) to first
 * order, so Var ln T = g' C g with C = s^2 (J^T J)^-1, the covariance the fit's standard errors
 * come from, and the interval ln T +- t sqrt(Var) with Student's t at 0.95 and the fit's
 * degrees of freedom (few points: wider than the normal 1.645). It is an interval of the law's
 * mean time, not of one more run. Working on ln T keeps it positive and makes E' = T_ref N_ref /
 * (T N) and A = N T / 60 intervals of their own by the same ends. A parameter held at a bound
 * has no variance and adds none: the interval is then conditional on the bound. */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "describe.h"

double predict_quantile(const struct fit *f)
{
	if (!fit_usable(f) || f->usl.dof == 0)
		return NAN;
	return gsl_cdf_tdist_Pinv(0.5 + PRED_LEVEL / 2.0, (double)f->usl.dof);
}

int predict_t(const struct fit *f, double n, double *t, double *lo, double *hi)
{
	return predict_t_q(f, n, predict_quantile(f), t, lo, hi);
}

int predict_t_q(const struct fit *f, double n, double q, double *t, double *lo, double *hi)
{
	const struct fit_model *m = &f->usl;
	double g[3], var = 0;
	bool free_[3] = { true, !m->sigma_at_bound, !m->kappa_at_bound };

	*t = *lo = *hi = NAN;
	if (!fit_usable(f) || !(n >= 1.0) || !isfinite(n))
		return -1;
	*t = fit_t(f, n);
	if (!isfinite(*t))
		return -1;
	if (m->dof == 0 || isnan(q))
		return 0;
	double d = 1.0 + m->sigma * (n - 1.0) + m->kappa * n * (n - 1.0);
	g[0] = -1.0;
	g[1] = (n - 1.0) / d;
	g[2] = n * (n - 1.0) / d;
	for (int i = 0; i < 3; i++) {
		if (!free_[i])
			continue;
		for (int j = 0; j < 3; j++) {
			if (!free_[j])
				continue;
			if (!isfinite(m->cov[i][j]))
				return 0; /* a free parameter the data do not determine: no interval */
			var += g[i] * m->cov[i][j] * g[j];
		}
	}
	if (!(var >= 0) || !isfinite(var))
		return 0;
	double w = q * sqrt(var), lt = log(*t);
	*lo = exp(lt - w);
	*hi = exp(lt + w);
	if (!isfinite(*lo) || !isfinite(*hi))
		*lo = *hi = NAN;
	return 0;
}

void predict_at(const struct fam_fit *ff, double n, double price_lo, double price_hi,
		struct pred *out)
{
	memset(out, 0, sizeof *out);
	out->n = out->n_law = n;
	out->n_lo = out->n_hi = NAN;
	out->t = out->t_lo = out->t_hi = out->ep = out->ep_lo = out->ep_hi = NAN;
	out->a = out->a_lo = out->a_hi = out->cost_lo = out->cost_hi = NAN;
	out->n_ref = ff->v.n_ref;
	out->t_ref = ff->v.t_ref;
	out->n_min = ff->fit.n_ref;
	out->n_max = ff->fit.n_max;
	describe_verdict(ff, out->verdict, sizeof out->verdict);
	if (!fit_usable(&ff->fit)) {
		snprintf(out->why, sizeof out->why, "%s", out->verdict);
		return;
	}
	if (predict_t(&ff->fit, n, &out->t, &out->t_lo, &out->t_hi) < 0) {
		snprintf(out->why, sizeof out->why, "no prediction at N %g", n);
		return;
	}
	/* a planner gets the law's number whatever the verdict: the verdict goes beside it */
	out->ok = true;
	out->poor = !ff->v.judged || !ff->v.ok;
	out->weak = ff->fit.state == FIT_WEAK;
	out->extrapolated = n > ff->fit.n_max || n < ff->fit.n_ref;
	pred_derive(out, n, price_lo, price_hi);
}

void pred_derive(struct pred *out, double n, double price_lo, double price_hi)
{
	/* E' falls as T rises: the interval's ends swap */
	double k = out->t_ref * out->n_ref / n;
	out->ep = k / out->t;
	out->ep_lo = k / out->t_hi;
	out->ep_hi = k / out->t_lo;
	out->a = n * out->t / 60.0;
	out->a_lo = n * out->t_lo / 60.0;
	out->a_hi = n * out->t_hi / 60.0;
	if (isfinite(price_lo) && isfinite(price_hi)) {
		out->cost_lo = out->a * price_lo;
		out->cost_hi = out->a * price_hi;
	}
}

void planner_price(const struct dataset *ds, const struct analysis *a, const char *family,
		   double *lo, double *hi)
{
	*lo = *hi = NAN;
	for (size_t i = 0; i < a->n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		if (strcmp(r->family, family) == 0 && isfinite(r->price_lo)) {
			*lo = r->price_lo;
			*hi = r->price_hi;
			return;
		}
	}
}
