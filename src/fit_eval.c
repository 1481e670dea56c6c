/* fit_eval.c: what a fitted law says (fit.h): X, T and E' at any N, the residual of a point,
 * the predicted break-even, and the fit's description. The fitting itself is fit.c. */
#include "fit.h"
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BE_CAP 1e15 /* break-even search stops here: beyond it no prediction means anything */

bool fit_usable(const struct fit *f)
{
	return (f->state == FIT_OK || f->state == FIT_WEAK) && f->usl.converged;
}

double fit_x(const struct fit *f, double n)
{
	double x;

	if (!fit_usable(f) || !(n >= 1.0) || !isfinite(n))
		return NAN;
	x = f->usl.lambda * n / fit_denom(n, f->usl.sigma, f->usl.kappa);
	return isfinite(x) && x > 0 ? x : NAN;
}

double fit_t(const struct fit *f, double n)
{
	double x = fit_x(f, n), t = 60.0 / x;

	return isfinite(t) ? t : NAN;
}

double fit_ep(const struct fit *f, double n)
{
	double e;

	if (!fit_usable(f) || !(n >= 1.0) || !isfinite(n))
		return NAN;
	/* lambda cancels: E'(N) = D(N_ref) / D(N) */
	e = fit_denom(f->n_ref, f->usl.sigma, f->usl.kappa) / fit_denom(n, f->usl.sigma, f->usl.kappa);
	return isfinite(e) ? e : NAN;
}

double fit_resid(const struct fit *f, double n, double t)
{
	double x = fit_x(f, n), r;

	if (!isfinite(x) || !(t > 0) || !isfinite(t))
		return NAN;
	r = log(60.0 / t) - log(x);
	return isfinite(r) ? r : NAN;
}

/* E' at n of a law against a reference: t_ref <= 0 means the law's own (fit_ep). */
static double ep_at(const struct fit *f, double n, double n_ref, double t_ref)
{
	double e;

	if (!(t_ref > 0))
		return fit_ep(f, n);
	e = t_ref / fit_t(f, n) * n_ref / n;
	return isfinite(e) ? e : NAN;
}

/* The largest N >= n_ref with ep_at >= theta (see fit_breakeven). */
static double breakeven_at(const struct fit *f, double theta, double n_ref, double t_ref,
			   const char **why)
{
	double lo, hi;

	if (why)
		*why = "";
	if (!fit_usable(f) || !isfinite(theta) || !(n_ref >= 1) || !isfinite(n_ref)) {
		if (why)
			*why = "no fit";
		return NAN;
	}
	lo = n_ref;
	if (!(ep_at(f, lo, n_ref, t_ref) >= theta)) {
		if (why)
			*why = "E' < theta at N_ref";
		return NAN;
	}
	/* E' falls monotonically in N (D grows: sigma, kappa >= 0), so doubling brackets the
	 * crossing and bisection closes it */
	hi = lo * 2.0;
	while (ep_at(f, hi, n_ref, t_ref) >= theta) {
		lo = hi;
		hi *= 2.0;
		if (hi > BE_CAP) {
			if (why)
				*why = "E' >= theta beyond 1e+15";
			return NAN;
		}
	}
	for (int i = 0; i < 200 && hi - lo > lo * 1e-14; i++) {
		double mid = lo + (hi - lo) / 2.0;
		if (ep_at(f, mid, n_ref, t_ref) >= theta)
			lo = mid;
		else
			hi = mid;
	}
	return fit_round_sig(lo, 3);
}

double fit_breakeven(const struct fit *f, double theta, const char **why)
{
	return breakeven_at(f, theta, f->n_ref, 0, why);
}

double fit_breakeven_on(const struct fit *f, double theta, double n_ref, double t_ref,
			const char **why)
{
	if (!(t_ref > 0) || !isfinite(t_ref)) {
		if (why)
			*why = "no reference time";
		return NAN;
	}
	return breakeven_at(f, theta, n_ref, t_ref, why);
}

double fit_round_sig(double v, int sig)
{
	char b[64];

	if (!isfinite(v) || v == 0)
		return v;
	if (sig < 1)
		sig = 1;
	if (sig > 17)
		sig = 17;
	/* printf rounds the decimal expansion of the binary value, as every view prints it */
	snprintf(b, sizeof b, "%.*e", sig - 1, v);
	return strtod(b, NULL);
}

const char *fit_state_name(enum fit_state s)
{
	switch (s) {
	case FIT_OK: return "ok";
	case FIT_WEAK: return "weak";
	case FIT_NOCONV: return "not converged";
	case FIT_NONE: break;
	}
	return "no fit";
}

/* "v +- se", "v (at bound)" or "v +- -" (no degree of freedom) */
static void param_text(double v, double se, bool at_bound, char *buf, size_t n)
{
	char a[32], b[32];

	fmt_short(v, a, sizeof a);
	if (at_bound)
		snprintf(buf, n, "%s (at bound)", a);
	else
		snprintf(buf, n, "%s +- %s", a, fmt_short(se, b, sizeof b));
}

char *fit_describe(const char *family, const struct fit *f, double theta, char *buf, size_t n)
{
	return fit_describe_as(family, f, theta, NULL, buf, n);
}

char *fit_describe_as(const char *family, const struct fit *f, double theta,
		      const struct fit_words *w, char *buf, size_t n)
{
	char lo[32], hi[32], l[80], s[80], k[80], r2[32], peak[96], be[128], th[32];
	char al[80], as[80], ar2[32];
	const char *why;
	size_t len;
	double b;

	if (n == 0)
		return buf;
	if (w && w->verdict)
		len = (size_t)snprintf(buf, n, "%s: %s", family, w->verdict);
	else if (f->state == FIT_OK)
		len = (size_t)snprintf(buf, n, "%s: ok", family);
	else
		len = (size_t)snprintf(buf, n, "%s: %s (%s)", family, fit_state_name(f->state), f->reason);
	if (len >= n)
		return buf;
	len += (size_t)snprintf(buf + len, n - len, "; %zu point%s at %zu N", f->npoints,
				f->npoints == 1 ? "" : "s", f->ndistinct);
	if (len < n && f->npoints && f->n_ref == f->n_max)
		len += (size_t)snprintf(buf + len, n - len, " (%s)", fmt_count(f->n_ref, lo, sizeof lo));
	else if (len < n && f->npoints)
		len += (size_t)snprintf(buf + len, n - len, " (%s..%s)", fmt_count(f->n_ref, lo, sizeof lo),
					fmt_count(f->n_max, hi, sizeof hi));
	if (len >= n || !fit_usable(f))
		return buf;
	param_text(f->usl.lambda, f->usl.se_lambda, false, l, sizeof l);
	param_text(f->usl.sigma, f->usl.se_sigma, f->usl.sigma_at_bound, s, sizeof s);
	param_text(f->usl.kappa, f->usl.se_kappa, f->usl.kappa_at_bound, k, sizeof k);
	fmt_fixed(f->usl.r2, 4, r2, sizeof r2);
	if (f->peak_in_range)
		snprintf(peak, sizeof peak, "peak N* %s", fmt_sig(fit_round_sig(f->peak, 3), 3, lo, sizeof lo));
	else
		snprintf(peak, sizeof peak, "%s", f->usl.kappa > 0 ? "no peak in range" : "no peak (kappa 0)");
	b = fit_breakeven(f, theta, &why);
	if (w && w->peak)
		snprintf(peak, sizeof peak, "%s", w->peak);
	if (w && w->breakeven)
		snprintf(be, sizeof be, "break-even %s", w->breakeven);
	else if (isfinite(b))
		snprintf(be, sizeof be, "break-even N %s", fmt_sig(b, 3, lo, sizeof lo));
	else
		snprintf(be, sizeof be, "break-even - (%s)", why);
	param_text(f->amdahl.lambda, f->amdahl.se_lambda, false, al, sizeof al);
	param_text(f->amdahl.sigma, f->amdahl.se_sigma, f->amdahl.sigma_at_bound, as, sizeof as);
	fmt_fixed(f->amdahl.r2, 4, ar2, sizeof ar2);
	snprintf(buf + len, n - len, "; USL lambda %s, sigma %s, kappa %s, R^2 %s; %s; %s at theta %s; "
		 "Amdahl lambda %s, sigma %s, R^2 %s", l, s, k, r2, peak, be, fmt_short(theta, th, sizeof th),
		 al, as, ar2);
	return buf;
}
