/* planner.h: the planner's answers over an analysis: a family's time, E' and accelerator-hours
 * predicted at any N from its fitted law (with a 90% interval), constraint queries (a deadline,
 * budgets, an objective) answered per family, and the break-even of each family across the
 * rounds of a workload's compatibility span. No terminal here. */
#ifndef GS_PLANNER_H
#define GS_PLANNER_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "dataset.h"
#include "err.h"
#include "fit.h"

/* ------------------------------------------------------------------ prediction */

#define PRED_LEVEL 0.90 /* two-sided level of the prediction interval */

/* The fitted law of one family at one N. Numbers are NAN when absent. */
struct pred {
	bool ok;                   /* predicted (the fit is usable); else why says why not */
	char why[320];             /* the refusal: "no fit (needs 3 distinct N)", "not converged (...)" */
	char verdict[160];         /* the fit's verdict beside the number: "ok", "poor fit: worst
				    * N=16 ...", "weak (5 points < 6)" (describe_verdict's words) */
	bool poor;                 /* the verdict is not ok (poor fit, or not judged) */
	double n;
	double t, t_lo, t_hi;      /* minutes and its 90% interval (NAN: no interval) */
	double ep, ep_lo, ep_hi;   /* E' on the family's group reference (n_ref, t_ref) */
	double a, a_lo, a_hi;      /* accelerator-hours N*T/60 */
	double cost_lo, cost_hi;   /* A x the family's price range, USD; NAN without a price */
	double n_ref, t_ref;       /* the reference E' is on */
	double n_min, n_max;       /* the N the law was fitted over */
	bool extrapolated;         /* n lies outside n_min..n_max */
	bool weak;                 /* the fit is weak (few points, low R^2) */
	/* an answer in accelerators (the query's): n is the law's smallest N meeting the
	 * constraints rounded up to whole nodes of node accelerators (node 0: no node size
	 * known, n unrounded); n_law the N before rounding; n_lo..n_hi the same search on the
	 * interval's fast and slow ends (rounded up alike; NAN: none up to the search's bound,
	 * or no deadline to search on) */
	long node;
	double n_law, n_lo, n_hi;
	/* from the split law (throughput x RCP) rather than the time law: the GBS, the RCP mean
	 * there (its unit in rcp_unit) */
	bool split;
	double gbs, s_rcp;
	char rcp_unit[16];
	char note[220];            /* from the time law although the family has convergence data:
				    * why the split law is not used ("GBS 960 outside the RCP
				    * table's 1152..4608 (ruleset 5.1.0): no extrapolation") */
};

/* The split law of one family: a USL fit of its throughput X(N) (charged samples per minute,
 * X = S'/T as the split defines it) over its shown rows with convergence data, and the RCP
 * mean S_rcp at a GBS. A run converging at the RCP mean is charged exactly S_rcp (the scaling
 * factor raises a faster one to it), and X is as much the raw samples per raw minute (the
 * scaling factor multiplies samples and minutes alike), so the predicted official minutes are
 * T(N) = S_rcp / X(N). */
struct split_law {
	bool ok;                   /* T = s_rcp / X(N) can be given */
	bool refused;              /* the family has the data, but the RCP table cannot answer at
				    * gbs (outside its range, another unit): said beside the time
				    * law's number, never extrapolated */
	char why[200];             /* why not */
	struct fit fit;            /* the USL on (N, 60 / X): its fit_t is 60 / X(N) */
	char verdict[160];         /* "ok", "weak (...)", "poor fit: worst N=64 observed X ..." */
	bool poor;
	double gbs, s_rcp;
	char unit[16];
};

/* The split law of family among a's shown rows at gbs (NAN: the GBS of its row nearest n in
 * log N, ties to the fewer accelerators), with the RCP of a's round and workload from ds->rcp.
 * Not ok (why set) when fewer than 3 distinct N of its rows have convergence data, the fit is
 * not usable, or the RCP table has no point of the workload in the round's ruleset (then the
 * time law answers); refused when gbs lies outside the table's batch sizes or its unit is not
 * the rows' (no extrapolation). 0, or -1 with err when out of memory. */
int predict_split_law(const struct dataset *ds, const struct analysis *a, const char *family,
		      double n, double gbs, struct split_law *s, struct gs_err *err);

/* The prediction at n from split law s (ok), with ff's reference for E', into *out, as
 * predict_at gives it from the time law. */
void predict_split_at(const struct fam_fit *ff, const struct split_law *s, double n, double price_lo,
		      double price_hi, struct pred *out);

/* The prediction at n of ff's family: from its split law at gbs where it has one
 * (predict_split_law), else from the time law (predict_at), with the split law's refusal in
 * out->note where the family has the data but the RCP cannot answer.
 * 0, or -1 with err when out of memory. */
int planner_predict(const struct dataset *ds, const struct analysis *a, const struct fam_fit *ff,
		    double n, double gbs, double price_lo, double price_hi, struct pred *out,
		    struct gs_err *err);

/* out's E', A and cost with their intervals, from its t, t_lo, t_hi at n against its t_ref
 * and n_ref (cost only with a finite price range; a NAN end stays NAN). */
void pred_derive(struct pred *out, double n, double price_lo, double price_hi);

/* The fitted minutes at n of a usable fit f and their 90% interval: the delta method on ln T,
 * Var = g' C g with g = d ln T / d(ln lambda, sigma, kappa) = (-1, (N-1)/D, N(N-1)/D) and C the
 * fit's covariance (its free parameters), ln T +- t(0.95, dof) sqrt(Var). Returns 0 with *t set
 * (*lo, *hi NAN when the fit has no covariance), or -1 when f is not usable or n < 1. */
int predict_t(const struct fit *f, double n, double *t, double *lo, double *hi);

/* Student's t at 0.95 with the degrees of freedom of usable fit f, the interval's factor; NAN
 * when f is not usable or has no degree of freedom. */
double predict_quantile(const struct fit *f);

/* predict_t with q = predict_quantile(f) worked out once by the caller (a search over many N;
 * q NAN: no interval). */
int predict_t_q(const struct fit *f, double n, double q, double *t, double *lo, double *hi);

/* The prediction at n from family fit ff into *out (price_lo/hi per accelerator-hour, NAN
 * none): given whenever the fit is usable, with its verdict in out->verdict (a poor or weak
 * fit predicts too, and says so); refused (out->ok false, why set with describe_verdict's
 * words) only without a usable fit (fewer than 3 distinct N, not converged). */
void predict_at(const struct fam_fit *ff, double n, double price_lo, double price_hi,
		struct pred *out);

/* The price range (USD per accelerator-hour) of family among a's shown rows into *lo, *hi;
 * NAN when none of them has one. */
void planner_price(const struct dataset *ds, const struct analysis *a, const char *family,
		   double *lo, double *hi);

/* ------------------------------------------------------------------ query */

enum q_obj { QO_ACC_HOURS, QO_COST, QO_KWH, QO_MINUTES, QO_COUNT };

/* The constraints (NAN: not given) and the objective. */
struct query {
	double deadline;           /* T <= deadline, minutes */
	double max_cost;           /* cost to train <= max_cost, USD (the price range decides) */
	double max_acc_hours;      /* A <= max_acc_hours */
	double max_kwh;            /* energy-to-train <= max_kwh */
	enum q_obj minimize;       /* default accelerator-hours */
	double gbs;                /* the GBS of the split law (--gbs); NAN: the GBS of the family's
				    * row nearest the answer */
};

/* How a cost meets a budget: wholly (the high end of the price range meets it), only at the
 * low end, or not at all / unpriced. */
enum q_sure { QS_NONE, QS_SURELY, QS_POSSIBLY };

/* Why a family has no observed answer. */
enum q_state {
	QA_ROW,        /* row is the best observed row meeting every constraint */
	QA_NONE,       /* none of its rows meets them */
	QA_UNPRICED,   /* a cost constraint or objective, and the family has no price */
	QA_NO_ENERGY   /* a kWh constraint or objective, and none of its rows has energy */
};

struct q_answer {
	const char *family;        /* pooled */
	enum q_state state;
	long row;                  /* index into analysis.rows of the answer, -1 none */
	size_t nrows, nmeet;       /* the family's shown rows, and those meeting every constraint */
	enum q_sure cost;          /* the row's cost against max_cost (QS_SURELY without one) */
	bool tried;                /* a prediction was looked for (see why in pred) */
	struct pred pred;          /* the smallest predicted N meeting every constraint */
	enum q_sure pred_cost;
};

struct q_result {
	struct q_answer *ans;      /* one per family of the shown rows, by name (bytes); owned */
	size_t n;
	long best;                 /* index into ans of the best row over every family, -1 none */
	size_t nunpriced, nno_energy; /* families left out of a cost / kWh answer */
};

/* No constraint, accelerator-hours minimised. */
void query_init(struct query *q);

/* Whether any constraint is given. */
bool query_constrained(const struct query *q);

/* Whether row r meets every constraint of q; *cost says how it meets max_cost (QS_SURELY
 * when no budget is given). A row without energy never meets max_kwh, one without a price
 * never meets max_cost. */
bool query_meets(const struct arow *r, const struct query *q, enum q_sure *cost);

/* The value q minimises for r (A, mid-range cost, kWh or T); NAN when r has none. */
double query_objective(const struct arow *r, enum q_obj o);

/* Whether shown row x is a better answer than y under objective o: the smaller objective, then
 * the faster, then the fewer accelerators, then by system id, then by dataset row. */
bool query_better(const struct dataset *ds, const struct arow *x, const struct arow *y,
		  enum q_obj o);

/* Answers q over a (an analysis_run with params.fit set, so that each family has its fit) into
 * r (zeroed, or an earlier result: its memory is reused). The predicted N is looked for from 1
 * up to FIT_PEAK_RANGE times the family's largest N, from any usable fit (its verdict beside
 * it), only when a constraint other than max_kwh is given (no law predicts energy: a kWh
 * constraint refuses it), and rounded up to whole nodes: the family's node size is the most
 * common accelerators per node of its shown rows (equally common sizes: the smaller; none
 * given: unrounded).
 * Returns 0, or -1 with err when out of memory. */
int query_run(const struct dataset *ds, const struct analysis *a, const struct query *q,
	      struct q_result *r, struct gs_err *err);

/* Frees what r owns and zeroes it. */
void query_free(struct q_result *r);

/* "acc-hours", "cost", "kwh", "minutes"; q_obj_parse: the index, or -1. */
const char *q_obj_name(enum q_obj o);
int q_obj_parse(const char *s);

/* ------------------------------------------------------------------ trend */

/* The break-even of one family in one round, as --print summary --round gives it. */
struct trend_cell {
	bool has;                  /* the family has shown rows in the round */
	struct be_bracket be;
	long n_ref;                /* accelerators of the family's reference, -1 none */
	size_t nrows;
};

struct trend {
	const char *workload;      /* pooled */
	const char **rounds;       /* the span's rounds that have the workload, in version order */
	size_t nrounds;
	const char **families;     /* every family with rows in some round, by name (bytes) */
	size_t nfamilies;
	struct trend_cell *cells;  /* nfamilies x nrounds, a family's row after row */
	size_t cur;                /* index of p->round in rounds */
};

/* The matrix for p's workload over the rounds comparable with p's round (bench_reg_comparable)
 * that have it: each round analysed alone in family mode with p's filters and theta, into t
 * (zeroed; trend_free frees it). Returns 0, or -1 with err (unknown round or workload, out of
 * memory). */
int trend_run(const struct dataset *ds, const struct params *p, struct trend *t,
	      struct gs_err *err);

/* The cell of family f in round r. */
const struct trend_cell *trend_cell(const struct trend *t, size_t f, size_t r);

/* Frees what t owns and zeroes it. */
void trend_free(struct trend *t);

#endif
