/* fit.h: Gunther's Universal Scalability Law and Amdahl's law fitted to the (N, T) points of one
 * accelerator family, X(N) = lambda*N / (1 + sigma*(N-1) + kappa*N*(N-1)) with X = 60/T trainings
 * per hour, by least squares on log X (GSL, trust-region Levenberg-Marquardt). No terminal here.
 *
 * Every number a struct fit holds is finite, or NAN meaning "none" (the reason is in the struct);
 * infinity never leaves this module. */
#ifndef GS_FIT_H
#define GS_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Below these the fit is weak: drawn and reported, but marked. */
#define FIT_MIN_DISTINCT 3   /* distinct N below this: no fit at all */
#define FIT_WEAK_POINTS 6
#define FIT_WEAK_R2 0.9
#define FIT_PEAK_RANGE 100.0 /* a peak beyond this many times the largest N is "no peak in range" */
#define FIT_MAXITER 100      /* solver iterations per starting point */
#define FIT_VERDICT_TOL 0.10 /* a row within this of the fitted E' (relative) agrees with it */

enum fit_state {
	FIT_NONE,    /* not fitted (reason says why) */
	FIT_NOCONV,  /* the solver did not converge: reported, never drawn */
	FIT_WEAK,    /* converged, but few points or R^2 < 0.9 (reason says which) */
	FIT_OK
};

/* One fitted law. A parameter held at a bound of [0,1] (sigma) or [0,inf) (kappa), or fixed by
 * the model (Amdahl's kappa), has no standard error (NAN) and its at_bound flag set. */
struct fit_model {
	double lambda, sigma, kappa;
	double se_lambda, se_sigma, se_kappa; /* NAN: at a bound, fixed, or no degree of freedom */
	bool sigma_at_bound, kappa_at_bound;
	double sse;                           /* sum of squared log residuals */
	double r2;                            /* on log X; NAN when every X is equal */
	bool converged;
	/* s^2 (J^T J)^-1 over (ln lambda, sigma, kappa), the estimate the standard errors come
	 * from; a row and column of NAN for a parameter at a bound or fixed, all NAN when the
	 * fit has no degree of freedom */
	double cov[3][3];
	size_t dof;                           /* points - free parameters */
};

struct fit {
	enum fit_state state;
	char reason[80];          /* "" when FIT_OK */
	size_t npoints, ndistinct;
	double n_ref, n_max;      /* fewest and most accelerators among the points */
	struct fit_model usl;     /* the law everything below is computed from */
	struct fit_model amdahl;  /* kappa = 0, for comparison */
	double peak;              /* N* = sqrt((1-sigma)/kappa), NAN when kappa = 0 or out of range */
	bool peak_in_range;       /* N* <= FIT_PEAK_RANGE * n_max */
};

/* The USL's denominator 1 + sigma (N - 1) + kappa N (N - 1): X = lambda N / it. */
static inline double fit_denom(double n, double sigma, double kappa)
{
	return 1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0);
}

/* Fits both laws to count points (n[i] accelerators, t[i] minutes) into f. Points come in any
 * order, the result bit for bit the same; equal N may repeat. Returns 0 (f->state says whether
 * there is a fit), or -1 with err when a point is not finite with n >= 1 and t > 0, or out of
 * memory. Deterministic. */
int fit_run(const double *n, const double *t, size_t count, struct fit *f, struct gs_err *err);

/* fit_run with at most maxiter solver iterations per starting point instead of FIT_MAXITER (a
 * small maxiter shows what a solver that stops early is reported as). */
int fit_run_max(const double *n, const double *t, size_t count, int maxiter, struct fit *f,
		struct gs_err *err);

/* The last fits, by their points: a recompute that changes the reference, theta, k or the
 * sort fits the same families again. */
struct fit_memo;

/* An empty memo, or NULL out of memory. */
struct fit_memo *fit_memo_new(void);

/* Frees m (NULL: nothing). */
void fit_memo_free(struct fit_memo *m);

/* fit_run through m: points the same bit for bit and in the same order as one of the
 * FIT_MEMO_KEEP fits asked for most recently give that fit's result without fitting again (at
 * most FIT_MEMO_POINTS points in all are kept, so the largest sets are fitted every time);
 * m NULL: fit_run. */
#define FIT_MEMO_KEEP 128
/* The points the memo holds at most, all slots together; a larger set is fitted and not
 * kept. */
#define FIT_MEMO_POINTS ((size_t)1 << 17)
int fit_memo_run(struct fit_memo *m, const double *n, const double *t, size_t count, struct fit *f,
		 struct gs_err *err);

/* How many fit_memo_run calls m answered from what it kept. */
size_t fit_memo_hits(const struct fit_memo *m);

/* True when f may be drawn and predicted from: converged, state FIT_OK or FIT_WEAK. */
bool fit_usable(const struct fit *f);

/* Fitted X(N) of the USL in trainings per hour; NAN when !fit_usable(f) or n < 1. */
double fit_x(const struct fit *f, double n);

/* Fitted minutes 60/X(N); NAN as fit_x. */
double fit_t(const struct fit *f, double n);

/* Fitted E'(N) = (X(N)/N) / (X(n_ref)/n_ref), 1 at the family's fewest accelerators; NAN as
 * fit_x. */
double fit_ep(const struct fit *f, double n);

/* Log residual ln(X_observed / X_fitted) of a point of n accelerators and t minutes (positive:
 * faster than the law); NAN as fit_x or when t is not positive. */
double fit_resid(const struct fit *f, double n, double t);

/* Predicted break-even: the largest N >= n_ref with fitted E'(N) >= theta, solved on a
 * continuous N and rounded to 3 significant digits. NAN when there is none, and then *why
 * (if non-NULL) says why ("no fit", "E' < theta at N_ref", "E' >= theta beyond 1e+15"); *why
 * is "" otherwise. The string is static. */
double fit_breakeven(const struct fit *f, double theta, const char **why);

/* Predicted break-even on a reference of t_ref minutes at n_ref accelerators: the largest
 * N >= n_ref with E'(N) = t_ref / fit_t(N) * n_ref / N >= theta, found as fit_breakeven finds
 * its own and rounded the same way; NAN with *why as fit_breakeven. */
double fit_breakeven_on(const struct fit *f, double theta, double n_ref, double t_ref,
			const char **why);

/* v rounded to sig significant decimal digits (as printf rounds); v itself when not finite. */
double fit_round_sig(double v, int sig);

/* One line (no newline) describing f for family at theta into buf, truncated like snprintf:
 *   H100 SXM: ok; 9 points at 5 N (8..1024); USL lambda 0.861 +- 0.0213, sigma 0.0123 +- 0.0021,
 *   kappa 1.2e-06 +- 2.1e-07, R^2 0.9912; peak N* 890; break-even N 112 at theta 0.8;
 *   Amdahl lambda 0.85 +- 0.02, sigma 0.0234 +- 0.003, R^2 0.9523
 * with "weak (5 points < 6)", "no fit (needs 3 distinct N)" or "not converged (...)" for the
 * state (no numbers of a law that is not usable), "0 (at bound)" for a parameter on its bound,
 * "no peak in range" / "no peak (kappa 0)", and "break-even - (why)". Numbers in C notation,
 * 6 significant digits; N* and the break-even to 3. Returns buf. */
char *fit_describe(const char *family, const struct fit *f, double theta, char *buf, size_t n);

/* What a caller that judged the fit says in fit_describe_as's place of the state, the peak and
 * the break-even (each NULL: fit_describe's own words). */
struct fit_words {
	const char *verdict;   /* "poor fit: worst N=64 observed 0.70, fitted 0.88" */
	const char *peak;      /* "no peak identified (...)" */
	const char *breakeven; /* "N 105 (poor fit)", after "break-even " */
};

/* fit_describe with w's words where given. Returns buf. */
char *fit_describe_as(const char *family, const struct fit *f, double theta,
		      const struct fit_words *w, char *buf, size_t n);

/* "ok", "weak", "not converged", "no fit". */
const char *fit_state_name(enum fit_state s);

#endif
