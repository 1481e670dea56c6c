/* analysis.h: metrics of one round x workload under filters: reference, speedup, E', spread,
 * Karp-Flatt, Pareto frontier, break-even, k-means clusters and ranking. No terminal here. */
#ifndef GS_ANALYSIS_H
#define GS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arow.h"
#include "dataset.h"
#include "err.h"
#include "fit.h"
#include "metric_reg.h"

/* Computes everything for p over ds into a, which must be zeroed or the result of an earlier
 * run (its buffers are reused). Returns 0, or -1 with err for an unknown round, workload or
 * pinned system, or out of memory. */
int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err);

/* analysis_run up to the metrics of the shown rows: round, workload and pinned system checked
 * as analysis_run checks them, then no Pareto, break-even, fit, clusters or ranking (what the
 * names check needs). Same returns; a is for analysis_run to reuse. */
int analysis_check(const struct dataset *ds, const struct params *p, struct analysis *a,
		   struct gs_err *err);

/* Lets go of the resamples a keeps (the intervals drawn from them stay): for a report that
 * moves on to rows it will not come back to (the next workload). A row let go and needed
 * again is drawn again, to the same values. */
void analysis_drop_draws(struct analysis *a);

/* Makes a keep its run-to-run resamples and intervals in b's store (made when b has none), so
 * that a run into either reuses what the other drew (the explorer's two buffers). Returns 0,
 * or -1 when out of memory (a keeps its own). */
int analysis_share_boot(struct analysis *a, struct analysis *b);

/* Makes sure shown rows [from, to) have their run-to-run intervals (analysis_run draws only
 * those the break-even range needs; whatever shows an interval asks for it here). Returns 0,
 * or -1 with err when out of memory. */
int analysis_intervals(const struct dataset *ds, struct analysis *a, size_t from, size_t to,
		       struct gs_err *err);

/* One step of group g's break-even range left open by params.range_later: draws at most one
 * row's interval. 0 when the range is settled (group.range_open false), 1 when more steps
 * are needed, -1 when out of memory. */
int analysis_range_step(const struct dataset *ds, struct analysis *a, size_t g, double theta);

/* Shown row o's spread of S and E' (struct spread), computed as the metrics compute S and E'. */
struct spread analysis_spread(const struct dataset *ds, const struct arow *o);

/* The order analysis_sort by col (descending with desc) puts shown rows i and j in: < 0, i
 * first; the ranking's tie-break makes it a total order, the same wherever they are. */
int analysis_rank_cmp(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		      size_t i, size_t j);

/* The shown rows idx[n] put in order of T, equal T in the ranking's order (analysis_rank_cmp):
 * wherever the rows are, the order a sorted table lists them in. 0, or -1 when out of memory
 * (idx as it was). */
int analysis_sort_by_t(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		       size_t *idx, size_t n);

/* Shown row o's Karp-Flatt serial fraction e = (1/S - 1/p) / (1 - 1/p), p = N / N_ref; NAN with
 * the reason in o->kf_why (more of the same hardware doing worse than linear only). */
double analysis_kf(const struct dataset *ds, const struct arow *o);

/* Shown row o's intervals: every bound NAN and runs 0 when it has none, or none drawn yet. */
const struct aci *analysis_ci(const struct analysis *a, const struct arow *o);


/* The fits of a run made without params.fit, for what must say what a run with it says (the
 * explorer's export has the e_prime_fit column of --print csv): each family's fit and every
 * row's fitted E' and residual, as analysis_run gives them with params.fit. Nothing when a has
 * fits already. 0, or -1 with err (a then has none). analysis_fits_drop takes them away again,
 * so that what shows no fit still has none. */
int analysis_fits_add(const struct dataset *ds, struct analysis *a, struct gs_err *err);
void analysis_fits_drop(struct analysis *a);


/* Re-sorts a->rows in place by col (ties by system id, then dataset row) without recomputing
 * anything. Returns 0, or -1 with err when out of memory (the previous order is kept). */
int analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		  struct gs_err *err);

/* Sets, for theta, each group's bracket, its lower-end row (arow.be), the firm and loose lower
 * ends (a row without interval counts as its E'), the range and the reference sensitivity
 * (each candidate's bracket), and the cross-family pair. analysis_run does it; a change of
 * theta alone needs only this. 0, or -1 with err when out of memory. */
int analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta,
		       struct gs_err *err);

/* The fit of the family of dataset row `row` in a (params.fit), or NULL. */
const struct fit *analysis_fit_of(const struct dataset *ds, const struct analysis *a, size_t row);

/* The fam_fit of the family of dataset row `row` in a (params.fit), or NULL. */
const struct fam_fit *analysis_fam_fit_of(const struct dataset *ds, const struct analysis *a,
					  size_t row);

/* The dataset row standing for dataset row `row` when a shows it carried over (arow_carried),
 * else -1. */
long analysis_carried_by(const struct analysis *a, size_t row);

/* The group of a's shown row i (i < a->n), or NULL. */
const struct group *analysis_group(const struct analysis *a, size_t i);

/* Index into a->rows of the row giving group g's lower end, -1 when none. */
long analysis_be_index(const struct analysis *a, const struct group *g);

/* Frees what a owns and zeroes it. */
void analysis_free(struct analysis *a);

/* Short names: "paper", "E'", "(log2 N, E')", "E'" column header ... */
/* True when the filter keeps every row (no list set). */
bool filter_empty(const struct filter *f);
const char *ref_mode_name(enum ref_mode m);
const char *feat_set_name(enum feat_set f);
const char *ref_rule_name(enum ref_rule r);       /* "slowest", "median", "fastest" */
/* Which of n candidates, slowest first, rule r makes the reference (0 when n is 0). */
size_t ref_rule_pick(enum ref_rule r, size_t n);
const char *kf_why_text(enum kf_why w);           /* "" for KF_OK, else the reason */
const char *er_why_text(enum er_why w);           /* "" for ER_OK, else the reason */

#endif
