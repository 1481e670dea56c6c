/* analysis.h: metrics of one round x workload under filters: reference, speedup, E', spread,
 * Karp-Flatt, Pareto frontier, break-even, k-means clusters and ranking. No terminal here. */
#ifndef GS_ANALYSIS_H
#define GS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"
#include "err.h"

enum ref_mode { REF_PAPER, REF_PINNED, REF_FAMILY, REF_MODE_COUNT };

/* k-means feature sets, each feature z-scored over the shown rows. */
enum feat_set { FEAT_N_EP, FEAT_N_T, FEAT_N_EP_T, FEAT_COUNT };

/* Per-row metrics; also the plot's y metrics (cycle order E', S, T, A, E). */
enum metric { MET_EP, MET_S, MET_T, MET_A, MET_E, MET_COUNT };

/* Table columns that can be sorted on. */
enum col {
	COL_EP, COL_S, COL_E, COL_T, COL_A, COL_N, COL_SYSTEM, COL_SUBMITTER, COL_FAMILY,
	COL_CLUSTER, COL_PARETO, COL_SPREAD, COL_COUNT
};

#define MAX_K 12
#define MAX_SEL 64

/* Which rows are shown: a row passes when every non-empty list contains its value
 * (case-insensitive, exact). Strings are borrowed. */
struct filter {
	const char *families[MAX_SEL];
	size_t nfamilies;
	const char *vendors[MAX_SEL];
	size_t nvendors;
	const char *availability[MAX_SEL];
	size_t navailability;
	const char *divisions[MAX_SEL];
	size_t ndivisions;
};

struct params {
	const char *round;       /* NULL: the first round loaded */
	const char *workload;    /* benchmark id; NULL: the first workload of the round */
	struct filter filter;
	enum ref_mode mode;
	const char *pinned;      /* system id of the pinned reference (REF_PINNED) */
	int k;                   /* 1..MAX_K; 0 = auto (best silhouette) */
	enum feat_set feats;
	double theta;            /* break-even threshold on E' */
	enum col sort;
	bool desc;               /* sort descending */
};

/* Sets the defaults: paper rule, k = 3, (log2 N, E'), theta 0.8, sorted by E' descending. */
void params_init(struct params *p);

/* One shown row with its metrics. Spread fields are NAN when the row has no runs. */
/* 128 bytes, two cache lines of an array aligned to 64: ranking moves whole rows around. The
 * indices fit 32 bits, as the loader keeps fewer than 2^32 rows. */
struct arow {
	uint32_t row;                      /* index into dataset.rows */
	uint32_t ref;                      /* index into dataset.rows of this row's reference */
	double T, N, A, S, E, Ep;
	double kf;                         /* Karp-Flatt e for p = N/N_ref > 1, else NAN */
	double t_lo, t_hi, s_lo, s_hi, ep_lo, ep_hi;
	uint32_t tie;                      /* rank by (system id, dataset row): sorting tie-break */
	int cluster;                       /* 0..k-1 */
	bool pareto, is_ref;
};

struct cluster_sum {
	size_t n;
	double n_min, n_max;               /* accelerator counts */
	double ep_mean, ep_sd;             /* E' mean and population standard deviation */
};

struct analysis {
	const char *round, *workload;      /* pooled, as resolved */
	struct arow *rows;                 /* shown rows, in ranked order; owned */
	size_t n;
	size_t total;                      /* rows of round x workload before filters */
	long ref;                          /* dataset row of the single reference; -1 in family mode or n = 0 */
	bool ref_hidden;                   /* pinned reference hidden by the filter */
	int k;                             /* k used (auto resolved) */
	double inertia, silhouette;        /* silhouette NAN when k < 2 or k >= n */
	struct cluster_sum clusters[MAX_K];
	long breakeven;                    /* index into rows of the break-even row, -1 if none */
	size_t npareto;
	/* Kept between runs on the same struct and only grown, so that repeated recomputes reuse
	 * memory; owned, freed by analysis_free. */
	size_t rows_cap;                   /* bytes allocated at rows */
	void *scratch;                     /* sort keys, k-means features and labels */
	size_t scratch_cap;                /* bytes */
};

/* Computes everything for p over ds into a, which must be zeroed or the result of an earlier
 * run (its buffers are reused). Returns 0, or -1 with err for an unknown round, workload or
 * pinned system, or out of memory. */
int analysis_run(const struct dataset *ds, const struct params *p, struct analysis *a,
		 struct gs_err *err);

/* Re-sorts a->rows in place by col (stable, ties by system id) without recomputing anything;
 * out of memory leaves the previous order. */
void analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc);

/* Sets a->breakeven for theta: the fastest row with E' >= theta (ties: system id, then dataset
 * row), -1 when none. analysis_run does it; a change of theta alone needs only this. */
void analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta);

/* Value of metric m for one shown row. */
double arow_metric(const struct arow *r, enum metric m);

/* Frees what a owns and zeroes it. */
void analysis_free(struct analysis *a);

/* Short names: "paper", "E'", "(log2 N, E')", "E'" column header ... */
const char *ref_mode_name(enum ref_mode m);
const char *feat_set_name(enum feat_set f);
const char *metric_name(enum metric m);
const char *col_name(enum col c);

#endif
