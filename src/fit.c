/* fit.c: the Universal Scalability Law and Amdahl's law, fitted on log X by GSL's trust-region
 * Levenberg-Marquardt.
 *
 * Bounds. sigma lies in [0,1] and kappa in [0,inf). A minimum of a least-squares problem on a
 * box lies either inside it or on one of its faces, so the bounds are handled explicitly: the
 * problem is solved inside the box and on every face (sigma = 0, sigma = 1, kappa = 0) and
 * corner, and the smallest sum of squares wins. Inside and on a face the free parameters are
 * searched through sigma = sin^2(u) and kappa = v^2, so that no trial step of the solver leaves
 * the box (where 1 + sigma*(N-1) + kappa*N*(N-1) could reach zero); a face fixes its parameter
 * at the bound exactly, which the reparametrised search could only approach. lambda is searched
 * as a = ln lambda.
 *
 * Standard errors come from s^2 (J^T J)^-1 with J the Jacobian of the residuals in the original
 * parameters (ln lambda, sigma, kappa) at the minimum, s^2 = SSE/(n - p). Inside the box this
 * is exactly the delta method applied to the covariance of (a, u, v); on a bound, where the
 * reparametrisation's derivative vanishes and the delta method breaks down, the parameter is
 * reported at its bound without a standard error. se(lambda) = lambda * se(ln lambda).
 *
 * Starting points. The sum of squares can have several local minima (sigma and kappa trade
 * against each other over a short range of N), so each problem starts from a grid scaled to
 * the largest N (sigma*(Nmax-1) and kappa*Nmax^2 at 0.1 and 1: E'(Nmax) near 0.9 and 0.5),
 * and the best minimum is kept. Each start gets FIT_MAXITER iterations: a run that creeps
 * towards a bound (v -> 0 converges slowly) is cut short (see drive), and the face it heads
 * for, solved on its own, wins. The face sigma = 1 (no speedup at all) gets one start. Candidates are
 * tried in a fixed order, and a later one must beat the best by more than rounding, so the
 * result is the same on every run. Few starts and the cap keep a recompute with the fit on
 * quick enough for the explorer's keys. */
#include "fit.h"
#include "fmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

/* A parameter is either free or held at a value. */
struct pspec {
	bool free;
	double fixed;
};

/* One least-squares problem over the distinct N: at each, y = the mean ln X of its w points,
 * weighted by w (sw = sqrt w), which has the same minimum as the sum over every point (the
 * residuals depend on N alone) with ssw, the points' spread about their N's mean, added to
 * each sum of squares; and which parameters are free. npts counts the points, for the degrees
 * of freedom. */
struct prob {
	size_t m, npts;
	const double *n, *y, *lnn, *w, *sw;
	double wsum, ssw;
	struct pspec sig, kap;
	int maxiter;
};

/* A solution in the original parameters. */
struct sol {
	double a, sigma, kappa, sse;
	bool converged;
	bool sig_free, kap_free;
};

/* x = (a [, u] [, v]) -> (a, sigma, kappa) */
static void decode(const struct prob *p, const gsl_vector *x, double *a, double *s, double *k)
{
	size_t j = 1;

	*a = gsl_vector_get(x, 0);
	if (p->sig.free) {
		double su = sin(gsl_vector_get(x, j++));
		*s = su * su;
	} else {
		*s = p->sig.fixed;
	}
	if (p->kap.free) {
		double v = gsl_vector_get(x, j);
		*k = v * v;
	} else {
		*k = p->kap.fixed;
	}
}

/* r_i = ln X_i - ln Xfit(N_i) = y_i - a - ln N_i + ln(1 + sigma*(N_i-1) + kappa*N_i*(N_i-1)) */
static int resid_f(const gsl_vector *x, void *data, gsl_vector *f)
{
	const struct prob *p = data;
	double a, s, k;

	decode(p, x, &a, &s, &k);
	for (size_t i = 0; i < p->m; i++) {
		double nn = p->n[i];
		gsl_vector_set(f, i, p->sw[i] * (p->y[i] - a - p->lnn[i] + log1p(s * (nn - 1.0) + k * nn * (nn - 1.0))));
	}
	return GSL_SUCCESS;
}

static int resid_df(const gsl_vector *x, void *data, gsl_matrix *J)
{
	const struct prob *p = data;
	double a, s, k, dsdu = 0, dkdv = 0;
	size_t j = 1;

	decode(p, x, &a, &s, &k);
	if (p->sig.free)
		dsdu = sin(2.0 * gsl_vector_get(x, j++));
	if (p->kap.free)
		dkdv = 2.0 * gsl_vector_get(x, j);
	for (size_t i = 0; i < p->m; i++) {
		double nn = p->n[i], d = fit_denom(nn, s, k), sw = p->sw[i];
		size_t c = 1;
		gsl_matrix_set(J, i, 0, -sw);
		if (p->sig.free)
			gsl_matrix_set(J, i, c++, sw * (nn - 1.0) / d * dsdu);
		if (p->kap.free)
			gsl_matrix_set(J, i, c, sw * nn * (nn - 1.0) / d * dkdv);
	}
	return GSL_SUCCESS;
}

/* ln lambda that minimises the sum of squares for given sigma and kappa (the residuals are
 * linear in it): the mean of y - ln N + ln D. */
static double best_a(const struct prob *p, double s, double k)
{
	double sum = 0;

	for (size_t i = 0; i < p->m; i++)
		sum += p->w[i] * (p->y[i] - p->lnn[i] + log(fit_denom(p->n[i], s, k)));
	return sum / p->wsum;
}

static double sse_at(const struct prob *p, double a, double s, double k)
{
	double sum = 0;

	for (size_t i = 0; i < p->m; i++) {
		double r = p->y[i] - a - p->lnn[i] + log(fit_denom(p->n[i], s, k));
		sum += p->w[i] * r * r;
	}
	return sum + p->ssw;
}

static bool sol_finite(const struct sol *s)
{
	return isfinite(s->a) && isfinite(s->sigma) && isfinite(s->kappa) && isfinite(s->sse) &&
	       s->sigma >= 0 && s->sigma <= 1 && s->kappa >= 0;
}

/* best is replaced only by a clearly smaller sum of squares: the order of the candidates then
 * decides between minima equal to rounding, and the simpler model (tried first) keeps them. */
static void offer(struct sol *best, const struct sol *c)
{
	if (!sol_finite(c))
		return;
	if (!isfinite(best->sse) || c->sse < best->sse - (1e-9 * best->sse + 1e-20))
		*best = *c;
}

/* How far the free parameters of x are from the box's faces, as their largest effect on the
 * model's denominator at the largest N: sigma*(Nmax-1), (1-sigma)*(Nmax-1), kappa*Nmax*(Nmax-1).
 * Below 1e-13 the model is the face's to within rounding. */
static double face_gap(const struct prob *p, const gsl_vector *x)
{
	double a, s, k, nmax = p->n[p->m - 1], gap = INFINITY;

	decode(p, x, &a, &s, &k);
	if (p->sig.free)
		gap = fmin(s, 1.0 - s) * (nmax - 1.0);
	if (p->kap.free)
		gap = fmin(gap, k * nmax * (nmax - 1.0));
	return gap;
}

/* gsl_multifit_nlinear_driver's loop (iterate, then test, at most maxiter times, the same
 * statuses), and one more stop: a run whose free parameter closes in on a face of the box.
 * Through sigma = sin^2 u and kappa = v^2 the solver approaches a face only geometrically (a
 * step about halves v) and its step test, relative to the shrinking parameter, never passes:
 * such a run used the whole maxiter. Once the model is the face's to within rounding and the
 * last three steps moved it closer, the run is stopped as not converged. Its sum of squares
 * can only fall towards the face's, and the face is solved exactly on its own, tried before
 * (offer keeps the earlier of equal minima), so the best minimum is the same; the run costs
 * about 20 iterations instead of 100. */
static int drive(const struct prob *p, gsl_multifit_nlinear_workspace *w, size_t maxiter, int *info)
{
	size_t iter = 0, closer = 0;
	double gap = face_gap(p, w->x);
	int status;

	do {
		status = gsl_multifit_nlinear_iterate(w);
		if (status == GSL_ENOPROG && iter == 0) {
			*info = status;
			return GSL_EMAXITER;
		}
		++iter;
		status = gsl_multifit_nlinear_test(1e-13, 1e-13, 0.0, info, w);
		if (status == GSL_CONTINUE) {
			double g = face_gap(p, w->x);
			closer = g < gap ? closer + 1 : 0;
			gap = g;
			if (closer >= 3 && gap < 1e-13)
				return GSL_EMAXITER;
		}
	} while (status == GSL_CONTINUE && iter < maxiter);
	if (status == GSL_ETOLF || status == GSL_ETOLX || status == GSL_ETOLG) {
		*info = status;
		status = GSL_SUCCESS;
	}
	if (iter >= maxiter && status != GSL_SUCCESS)
		status = GSL_EMAXITER;
	return status;
}

/* Solves problem p from one starting (sigma, kappa) with workspace w of the right size;
 * returns 0, or -1 when GSL cannot allocate. */
static int solve_from(struct prob *p, gsl_multifit_nlinear_workspace *w, double s0, double k0,
		      struct sol *out)
{
	gsl_multifit_nlinear_fdf fdf;
	size_t np = 1 + p->sig.free + p->kap.free, j = 1;
	double xs[3];
	gsl_vector_view x0 = gsl_vector_view_array(xs, np);
	int info = 0, status;
	double a, s, k;

	xs[0] = best_a(p, p->sig.free ? s0 : p->sig.fixed, p->kap.free ? k0 : p->kap.fixed);
	if (p->sig.free)
		xs[j++] = asin(sqrt(s0));
	if (p->kap.free)
		xs[j] = sqrt(k0);
	memset(&fdf, 0, sizeof fdf);
	fdf.f = resid_f;
	fdf.df = resid_df;
	fdf.n = p->m;
	fdf.p = np;
	fdf.params = p;
	if (gsl_multifit_nlinear_init(&x0.vector, &fdf, w) != GSL_SUCCESS)
		return -1;
	status = drive(p, w, p->maxiter < 1 ? 1 : (size_t)p->maxiter, &info);
	decode(p, w->x, &a, &s, &k);
	out->a = a;
	out->sigma = s;
	out->kappa = k;
	out->sse = sse_at(p, a, s, k);
	out->sig_free = p->sig.free;
	out->kap_free = p->kap.free;
	out->converged = status == GSL_SUCCESS;
	if (status == GSL_ENOPROG) {
		/* no step reduces the sum of squares any more: a minimum when the gradient
		 * (scaled by the parameters, as GSL's own gtol test does) vanishes there */
		double g = 0;
		gsl_vector *grad = gsl_vector_alloc(np);
		if (!grad)
			return -1;
		gsl_blas_dgemv(CblasTrans, 1.0, w->J, w->f, 0.0, grad);
		for (size_t i = 0; i < np; i++) {
			double gi = fabs(gsl_vector_get(grad, i)) * fmax(fabs(gsl_vector_get(w->x, i)), 1.0);
			g = fmax(g, gi);
		}
		gsl_vector_free(grad);
		out->converged = g <= 1e-8 * fmax(out->sse, 1.0);
	}
	return 0;
}

/* The best minimum of problem p from its starting points (or the closed form when only
 * ln lambda is free), offered to best; ws[np - 2] is the workspace for np free parameters,
 * made here when still NULL. Returns 0, or -1 out of memory. */
static int solve(struct prob *p, double nmax, gsl_multifit_nlinear_workspace **ws, struct sol *best)
{
	/* sigma*(Nmax-1) and kappa*Nmax^2: E'(Nmax) near 0.9 and near 0.5 */
	static const double grid[] = { 0.1, 1.0 };
	size_t np = 1 + p->sig.free + p->kap.free;
	/* the face sigma = 1 (no speedup at all) needs only to be there, not searched hard */
	size_t ns = p->sig.free ? 2 : 1, nk = p->kap.free && !(!p->sig.free && p->sig.fixed == 1) ? 2 : 1;
	gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w;
	struct sol c;

	if (np == 1) {
		c.sigma = p->sig.fixed;
		c.kappa = p->kap.fixed;
		c.a = best_a(p, c.sigma, c.kappa);
		c.sse = sse_at(p, c.a, c.sigma, c.kappa);
		c.converged = true;
		c.sig_free = c.kap_free = false;
		offer(best, &c);
		return 0;
	}
	par.trs = gsl_multifit_nlinear_trs_lm;
	/* one workspace for the faces and inside with as many free parameters (2, not 4, a fit):
	 * each start's init sets its whole state */
	if (!(w = ws[np - 2]) && !(w = ws[np - 2] = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, p->m, np)))
		return -1;
	for (size_t i = 0; i < ns; i++) {
		for (size_t j = 0; j < nk; j++) {
			double s0 = fmin(fmax(grid[i] / (nmax - 1.0), 1e-6), 0.9);
			double k0 = grid[j] / (nmax * nmax);
			if (solve_from(p, w, s0, k0, &c) != 0)
				return -1;
			offer(best, &c);
		}
	}
	return 0;
}

/* Fills m from the solution s: parameters, R^2, standard errors. Returns 0, or -1 out of
 * memory. */
static int model_fill(const struct prob *p, const struct sol *s, double sst, struct fit_model *m)
{
	size_t np = 1 + s->sig_free + s->kap_free, dof = p->npts > np ? p->npts - np : 0;
	double norm[3] = { 0, 0, 0 }, se[3] = { NAN, NAN, NAN };
	/* free parameter c sits at index pix[c] of (ln lambda, sigma, kappa) */
	size_t pix[3] = { 0, s->sig_free ? 1u : 2u, 2 };

	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			m->cov[i][j] = NAN;
	m->dof = dof;

	m->lambda = exp(s->a);
	m->sigma = s->sigma;
	m->kappa = s->kappa;
	m->sse = s->sse;
	m->r2 = sst > 0 ? 1.0 - s->sse / sst : NAN;
	m->converged = s->converged;
	m->sigma_at_bound = !s->sig_free;
	m->kappa_at_bound = !s->kap_free;
	if (dof > 0) {
		gsl_matrix *J = gsl_matrix_alloc(p->m, np), *cov = gsl_matrix_alloc(np, np);
		double s2 = s->sse / (double)dof;

		if (!J || !cov) {
			gsl_matrix_free(J);
			gsl_matrix_free(cov);
			return -1;
		}
		for (size_t i = 0; i < p->m; i++) {
			double nn = p->n[i], d = fit_denom(nn, s->sigma, s->kappa), sw = p->sw[i];
			size_t c = 1;
			gsl_matrix_set(J, i, 0, -sw);
			if (s->sig_free)
				gsl_matrix_set(J, i, c++, sw * (nn - 1.0) / d);
			if (s->kap_free)
				gsl_matrix_set(J, i, c, sw * nn * (nn - 1.0) / d);
		}
		/* columns scaled to unit norm first: kappa's column is ~N^2 times lambda's, and the
		 * rank test inside covar is relative to the largest column */
		for (size_t c = 0; c < np; c++) {
			gsl_vector_view col = gsl_matrix_column(J, c);
			norm[c] = gsl_blas_dnrm2(&col.vector);
			if (norm[c] > 0)
				gsl_vector_scale(&col.vector, 1.0 / norm[c]);
		}
		if (gsl_multifit_nlinear_covar(J, 1e-12, cov) == GSL_SUCCESS) {
			for (size_t c = 0; c < np; c++) {
				double v = gsl_matrix_get(cov, c, c);
				/* a zero variance is a column covar dropped as dependent: undetermined */
				if (norm[c] > 0 && v > 0 && isfinite(v))
					se[c] = sqrt(s2 * v) / norm[c];
			}
			for (size_t c = 0; c < np; c++)
				for (size_t d = 0; d < np; d++)
					if (isfinite(se[c]) && isfinite(se[d]))
						m->cov[pix[c]][pix[d]] = s2 * gsl_matrix_get(cov, c, d) /
									 (norm[c] * norm[d]);
		}
		gsl_matrix_free(J);
		gsl_matrix_free(cov);
	}
	m->se_lambda = isfinite(se[0]) ? m->lambda * se[0] : NAN;
	m->se_sigma = s->sig_free ? se[1] : NAN;
	m->se_kappa = s->kap_free ? se[s->sig_free ? 2 : 1] : NAN;
	if (!isfinite(m->lambda) || !isfinite(m->se_lambda))
		m->se_lambda = NAN;
	if (!isfinite(m->se_sigma))
		m->se_sigma = NAN;
	if (!isfinite(m->se_kappa))
		m->se_kappa = NAN;
	if (!isfinite(m->lambda)) {
		m->lambda = NAN;
		m->converged = false;
	}
	return 0;
}

/* One point of a fit: N and T. */
struct npt {
	double n, t;
};

/* By N, then by T: a total order on finite points, so the sorted points, and every sum over
 * them, are the same whatever order the caller gave them in. */
static int npt_cmp(const void *x, const void *y)
{
	const struct npt *a = x, *b = y;

	if (a->n != b->n)
		return (a->n > b->n) - (a->n < b->n);
	return (a->t > b->t) - (a->t < b->t);
}

static void fit_clear(struct fit *f)
{
	struct fit_model none = {
		.lambda = NAN, .sigma = NAN, .kappa = NAN, .se_lambda = NAN, .se_sigma = NAN,
		.se_kappa = NAN, .sse = NAN, .r2 = NAN
	};

	memset(f, 0, sizeof *f);
	f->state = FIT_NONE;
	f->n_ref = f->n_max = f->peak = NAN;
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			none.cov[i][j] = NAN;
	f->usl = f->amdahl = none;
}

/* 0 when every point is finite with n >= 1 and t > 0, else -1 with err naming the first. */
static int points_check(const double *n, const double *t, size_t count, struct gs_err *err)
{
	for (size_t i = 0; i < count; i++) {
		if (!(isfinite(n[i]) && n[i] >= 1.0 && isfinite(t[i]) && t[i] > 0 && isfinite(60.0 / t[i]))) {
			err_set(err, NULL, 0, 0, "fit: point %zu (N %g, T %g) needs N >= 1 and a finite T > 0",
				i + 1, n[i], t[i]);
			return -1;
		}
	}
	return 0;
}

/* From the points sorted (npt_cmp) into sn[count], st[count]: f's n_ref, n_max and ndistinct. */
static void points_count(const double *sn, size_t count, struct fit *f)
{
	f->ndistinct = 1;
	for (size_t i = 1; i < count; i++)
		f->ndistinct += sn[i] != sn[i - 1];
	f->n_ref = sn[0];
	f->n_max = sn[count - 1];
}

/* y = ln X and ln N of every point; returns the total sum of squares of y, 0 when the X are
 * all equal (only rounding would be left in it, and R^2 would be noise over noise). */
static double points_logs(const double *n, const double *t, size_t count, double *y, double *lnn)
{
	double ymean = 0, sst = 0;

	for (size_t i = 0; i < count; i++) {
		y[i] = log(60.0 / t[i]);
		lnn[i] = log(n[i]);
		ymean += y[i];
	}
	ymean /= (double)count;
	for (size_t i = 0; i < count; i++)
		sst += (y[i] - ymean) * (y[i] - ymean);
	if (sst <= (double)count * pow(64.0 * DBL_EPSILON * fmax(1.0, fabs(ymean)), 2))
		sst = 0;
	return sst;
}

/* The best USL over the faces, corners and inside of the box into *usl, and the best with
 * kappa = 0 (Amdahl) into *amd. 0, or -1 when out of memory. */
static int solve_boxes(struct prob *p, double nmax, struct sol *usl, struct sol *amd)
{
	/* the faces and corners of the box, then its inside; Amdahl is the kappa = 0 face */
	static const struct { struct pspec sig, kap; } boxes[] = {
		{ { false, 0 }, { false, 0 } }, { { false, 1 }, { false, 0 } },
		{ { true, 0 }, { false, 0 } },  { { false, 0 }, { true, 0 } },
		{ { false, 1 }, { true, 0 } },  { { true, 0 }, { true, 0 } },
	};

	gsl_multifit_nlinear_workspace *ws[2] = { NULL, NULL };
	int rc = 0;

	usl->sse = amd->sse = NAN;
	for (size_t b = 0; b < sizeof boxes / sizeof boxes[0] && rc == 0; b++) {
		p->sig = boxes[b].sig;
		p->kap = boxes[b].kap;
		rc = solve(p, nmax, ws, usl) != 0 ? -1 : 0;
		if (b == 2) /* the kappa = 0 candidates are all in: that is Amdahl */
			*amd = *usl;
	}
	for (size_t i = 0; i < 2; i++)
		if (ws[i])
			gsl_multifit_nlinear_free(ws[i]);
	return rc;
}

/* f->state and f->reason from the fitted USL and the number of points; then the peak. */
static void fit_judge(struct fit *f, size_t count)
{
	if (!f->usl.converged) {
		f->state = FIT_NOCONV;
		snprintf(f->reason, sizeof f->reason, "the solver did not converge");
	} else {
		bool few = count < FIT_WEAK_POINTS, poor = !(f->usl.r2 >= FIT_WEAK_R2);
		char r2[32];
		if (isfinite(f->usl.r2))
			snprintf(r2, sizeof r2, "R^2 %.3f < %.1f", f->usl.r2, FIT_WEAK_R2);
		else
			snprintf(r2, sizeof r2, "R^2 undefined (X constant)");
		f->state = few || poor ? FIT_WEAK : FIT_OK;
		if (few && poor)
			snprintf(f->reason, sizeof f->reason, "%zu points < %d, %s", count, FIT_WEAK_POINTS, r2);
		else if (few)
			snprintf(f->reason, sizeof f->reason, "%zu points < %d", count, FIT_WEAK_POINTS);
		else if (poor)
			snprintf(f->reason, sizeof f->reason, "%s", r2);
	}
	if (f->usl.kappa > 0) {
		double peak = sqrt((1.0 - f->usl.sigma) / f->usl.kappa);
		f->peak_in_range = isfinite(peak) && peak <= FIT_PEAK_RANGE * f->n_max;
		f->peak = f->peak_in_range ? peak : NAN;
	}
}

int fit_run(const double *n, const double *t, size_t count, struct fit *f, struct gs_err *err)
{
	return fit_run_max(n, t, count, FIT_MAXITER, f, err);
}

/* err (NULL: none) says a fit ran out of memory: a runtime failure (exit status 1), not bad
 * input. */
static void fit_oom(struct gs_err *err)
{
	err_set(err, NULL, 0, 0, "fit: out of memory");
	if (err)
		err->kind = GS_ERR_OOM;
}

struct memo_slot {
	size_t count;
	double *pts;                  /* n[0..count) then t[0..count) */
	struct fit fit;
	unsigned long used;           /* when it was last asked for or filled */
};

struct fit_memo {
	struct memo_slot slot[FIT_MEMO_KEEP];
	unsigned long clock;          /* counts the calls */
	size_t total;                 /* points held */
	size_t hits;
};

/* The slot asked for longest ago, empty ones first; skip: one not to take (NULL none). */
static struct memo_slot *memo_oldest(struct fit_memo *m, const struct memo_slot *skip)
{
	struct memo_slot *o = NULL;

	for (size_t i = 0; i < FIT_MEMO_KEEP; i++) {
		struct memo_slot *s = &m->slot[i];
		if (s == skip || (skip && !s->pts))
			continue;
		if (!o || (!s->pts && o->pts) || (!s->pts == !o->pts && s->used < o->used))
			o = s;
	}
	return o;
}

static void memo_drop(struct fit_memo *m, struct memo_slot *s)
{
	free(s->pts);
	s->pts = NULL;
	m->total -= s->count;
	s->count = 0;
}

size_t fit_memo_hits(const struct fit_memo *m)
{
	return m ? m->hits : 0;
}

struct fit_memo *fit_memo_new(void)
{
	return calloc(1, sizeof(struct fit_memo));
}

void fit_memo_free(struct fit_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < FIT_MEMO_KEEP; i++)
		free(m->slot[i].pts);
	free(m);
}

/* The slot of m holding count points n, t (bit for bit), or NULL. */
static struct memo_slot *memo_find(struct fit_memo *m, const double *n, const double *t, size_t count)
{
	/* bytes, not values: the same bits give the same fit (-0 and 0 could differ in the last
	 * bits of a sum, and a NaN would never equal itself) */
	for (size_t i = 0; i < FIT_MEMO_KEEP; i++) {
		struct memo_slot *s = &m->slot[i];
		if (s->pts && s->count == count && memcmp(s->pts, n, count * sizeof *n) == 0 &&
		    memcmp(s->pts + count, t, count * sizeof *t) == 0)
			return s;
	}
	return NULL;
}

/* Keeps count points n, t in m (their fit to be written in the slot returned; NULL: not kept):
 * in the slot asked for longest ago (a fit asked for again and again stays, however many
 * others come between), dropping the next longest while the points would not fit. */
static struct memo_slot *memo_keep(struct fit_memo *m, const double *n, const double *t, size_t count)
{
	struct memo_slot *s;
	double *p;

	if (!count || count > FIT_MEMO_POINTS)
		return NULL;
	s = memo_oldest(m, NULL);
	memo_drop(m, s);
	for (struct memo_slot *o; m->total + count > FIT_MEMO_POINTS && (o = memo_oldest(m, s));)
		memo_drop(m, o);
	/* no memory to keep it: the fit is still right, only not kept */
	if (!(p = malloc(2 * count * sizeof *p)))
		return NULL;
	memcpy(p, n, count * sizeof *p);
	memcpy(p + count, t, count * sizeof *p);
	s->pts = p;
	s->count = count;
	s->used = m->clock;
	m->total += count;
	return s;
}

int fit_memo_run(struct fit_memo *m, const double *n, const double *t, size_t count, struct fit *f,
		 struct gs_err *err)
{
	struct memo_slot *s;

	if (!m)
		return fit_run(n, t, count, f, err);
	m->clock++;
	if ((s = memo_find(m, n, t, count))) {
		*f = s->fit;
		s->used = m->clock;
		m->hits++;
		return 0;
	}
	if (fit_run(n, t, count, f, err) < 0)
		return -1;
	if ((s = memo_keep(m, n, t, count)))
		s->fit = *f;
	return 0;
}

/* The points are fitted sorted (npt_cmp): the sums of squares, and so the least bits of the
 * parameters, would otherwise depend on the order the rows came in. */
int fit_run_max(const double *n, const double *t, size_t count, int maxiter, struct fit *f,
		struct gs_err *err)
{
	double *buf, *sn, *st, *y, *lnn, sst, *dbuf = NULL;
	struct npt *pts;
	struct prob p;
	struct sol usl, amd;

	fit_clear(f);
	if (points_check(n, t, count, err) < 0)
		return -1;
	f->npoints = count;
	if (count == 0) {
		snprintf(f->reason, sizeof f->reason, "needs %d distinct N", FIT_MIN_DISTINCT);
		return 0;
	}
	if (!(buf = malloc(4 * count * sizeof *buf))) {
		fit_oom(err);
		return -1;
	}
	sn = buf;
	st = buf + count;
	y = buf + 2 * count;
	lnn = buf + 3 * count;
	if (!(pts = malloc(count * sizeof *pts))) {
		free(buf);
		fit_oom(err);
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		pts[i] = (struct npt){ n[i], t[i] };
	qsort(pts, count, sizeof *pts, npt_cmp);
	for (size_t i = 0; i < count; i++) {
		sn[i] = pts[i].n;
		st[i] = pts[i].t;
	}
	free(pts);
	points_count(sn, count, f);
	if (f->ndistinct < FIT_MIN_DISTINCT) {
		snprintf(f->reason, sizeof f->reason, "needs %d distinct N", FIT_MIN_DISTINCT);
		free(buf);
		return 0;
	}
	sst = points_logs(sn, st, count, y, lnn);

	/* the points of each distinct N as one weighted point (see struct prob): ~40 N stand
	 * for 10^4 rows of a family, and the fit costs the same at any size */
	double ssw = 0;
	if (!(dbuf = malloc(4 * f->ndistinct * sizeof *dbuf)))
		goto oom;
	double *dn = dbuf, *dy = dbuf + f->ndistinct, *dw = dbuf + 2 * f->ndistinct;
	double *dsw = dbuf + 3 * f->ndistinct, *dlnn = st; /* st is done with: the distinct ln N */
	size_t nd = 0;
	for (size_t i = 0; i < count;) {
		size_t e = i;
		double sum = 0, mean;
		while (e < count && sn[e] == sn[i])
			sum += y[e++];
		mean = sum / (double)(e - i);
		for (size_t j = i; j < e; j++)
			ssw += (y[j] - mean) * (y[j] - mean);
		dn[nd] = sn[i];
		dlnn[nd] = lnn[i];
		dy[nd] = mean;
		dw[nd] = (double)(e - i);
		dsw[nd] = sqrt(dw[nd]);
		nd++;
		i = e;
	}

	/* GSL's default handler aborts the process; every status is checked here instead */
	gsl_set_error_handler_off();
	p = (struct prob){ .m = nd, .npts = count, .n = dn, .y = dy, .lnn = dlnn, .w = dw, .sw = dsw,
			   .wsum = (double)count, .ssw = ssw, .maxiter = maxiter };
	if (solve_boxes(&p, f->n_max, &usl, &amd) != 0)
		goto oom;
	if (!isfinite(usl.sse) || !isfinite(amd.sse)) {
		f->state = FIT_NOCONV;
		snprintf(f->reason, sizeof f->reason, "the solver did not converge");
		free(buf);
		free(dbuf);
		return 0;
	}
	if (model_fill(&p, &usl, sst, &f->usl) != 0 || model_fill(&p, &amd, sst, &f->amdahl) != 0)
		goto oom;
	f->amdahl.kappa_at_bound = true;
	fit_judge(f, count);
	free(buf);
	free(dbuf);
	return 0;
oom:
	fit_clear(f);
	fit_oom(err);
	free(buf);
	free(dbuf);
	return -1;
}

