/* arow.h: what an analysis is made of, apart from what computes it: its parameters, a shown
 * row and its intervals, a comparison group and its brackets, a fit's verdict, a cluster, and
 * the analysis itself. The analysis files, the registry and the reports all read these types;
 * nothing here calls anything. No terminal here. */
#ifndef GS_AROW_H
#define GS_AROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataset.h"
#include "fit.h"
#include "metric_reg.h"

enum ref_mode { REF_PAPER, REF_PINNED, REF_FAMILY, REF_MODE_COUNT };

/* k-means feature sets, each feature z-scored over the shown rows. */
enum feat_set { FEAT_N_EP, FEAT_N_T, FEAT_N_EP_T, FEAT_COUNT };

/* Which row of the fewest-accelerator group the paper rule takes as reference. */
enum ref_rule { RULE_SLOWEST, RULE_MEDIAN, RULE_FASTEST, RULE_COUNT };

/* Why a row's Karp-Flatt e is blank (NAN). */
enum kf_why {
	KF_OK,           /* e is given */
	KF_NOT_LARGER,   /* p = N/N_ref <= 1: no serial fraction to speak of */
	KF_SUPERLINEAR,  /* S > p: e would be negative, a cache or memory effect, not seriality */
	KF_CROSS_FAMILY  /* the reference is of another family: S mixes hardware, not scaling */
};

/* Why a row's energy ratio is blank (NAN). */
enum er_why { ER_OK, ER_NO_ENERGY, ER_REF_NO_ENERGY };

#define MAX_K 12

/* Which rows are shown: a row passes when every non-empty list contains its value
 * (case-insensitive, exact). The arrays and their strings are borrowed from whoever set them
 * (the command line, the explorer's family menu): no limit on their length. */
struct filter {
	const char **families;
	size_t nfamilies;
	const char **vendors;
	size_t nvendors;
	const char **availability;
	size_t navailability;
	const char **divisions;
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
	enum ref_rule ref_rule;  /* within the fewest-accelerator group; default slowest (paper) */
	bool collapse;           /* skip rows standing in for another (row.dup_of >= 0); default on */
	bool available_only;     /* hide Preview and Research rows */
	bool all_rounds;         /* the workload's rows of every loaded round, not one round */
	bool pareto_cost;        /* Pareto frontier on (T, cost) instead of (T, A) */
	bool fit;                /* scaling-law fit per family */
	bool unranked;           /* the rows' order is not asked for (a summary ranks nothing):
				  * analysis_run leaves them in the order collected, sort and
				  * desc then rank them through analysis_rank_cmp alone */
	bool brackets_only;      /* only the references and each group's brackets are asked for
				  * (the trend's cells): no break-even range (it draws intervals),
				  * clusters or ranking */
	bool range_later;        /* each group's break-even range is left open, for
				  * analysis_range_step (it draws intervals: the explorer fills it
				  * between keys, where it is shown) */
};

/* The break-even threshold theta on E', the same range on the command line and on screen:
 * 0.05 is the screen's step (a smaller theta calls nearly every row worth its accelerators),
 * and E' above 10 (a row ten times as cheap per unit of work as its reference) never occurs
 * in MLPerf results, so a larger theta only ever finds no row. Both ends are allowed. */
#define GS_THETA_MIN 0.05
#define GS_THETA_MAX 10.0

/* Sets the defaults: family mode (each family its own group, its slowest fewest-accelerator row
 * as reference), k = 3, (log2 N, E'), theta 0.8, sorted by E'
 * descending, duplicates collapsed. */
void params_init(struct params *p);

/* One shown row with its metrics. Spread fields are NAN when the row has no runs. */
struct arow {
	double T, N, A, S, Ep;             /* E = S / N: arow_e */
	double t_lo, t_hi;                 /* spread of T over the runs (S's and E': analysis_spread) */
	double kwh;                        /* energy_j / 3.6e6; NAN without energy */
	double energy_ratio;               /* energy / the reference's, NAN with er_why */
	double cost_lo, cost_hi;           /* A x price_lo .. A x price_hi, USD; NAN without price */
	double ep_fit;                     /* the family's fitted E' at N on the row's own reference
					    * (T_ref / fit_t(N) * N_ref / N); NAN: no fit */
	double fit_resid;                  /* ln(X / fitted X), X = 60/T (fit_resid); NAN: no fit */
	double gbs;                        /* global batch size; NAN without */
	double Sc, X;                      /* charged samples S' = samples_to_converge x scaling
					    * factor, throughput X = S' / T (per minute); NAN without */
	double e_conv, e_thru;             /* E' split against the row's reference: e_conv =
					    * S'_ref / S', e_thru = E' / e_conv = (X / N) / (X_ref /
					    * N_ref); NAN when either row lacks samples */
	double e_conv_rcp;                 /* rcp_samples_ref / rcp_samples; NAN when either lacks */
	size_t row;                        /* index into dataset.rows */
	size_t ref;                        /* index into dataset.rows of this row's reference */
	size_t group;                      /* index into analysis.groups */
	size_t ci;                         /* 1 + index into analysis.ci of its intervals; 0: none
					    * (analysis_ci reads them) */
	size_t same_as;                    /* the cross-round view: 1 + the dataset row standing for
					    * this one's run list (analysis_carried); 0: pooled */
	int cluster;                       /* 0..k-1; -1 for a carried-over row */
	enum kf_why kf_why;                /* Karp-Flatt's e: analysis_kf */
	enum er_why er_why;
	bool ci_done;                      /* intervals computed (see analysis_intervals) */
	bool be;                           /* the row giving its group's bracket lower end */
	bool pareto, is_ref;
	bool cross_family;                 /* the reference is of another family */
};

/* The spread of S and E' of one shown row over its runs: its reference's official T over the
 * slowest and fastest scaled run, E' = S * N_ref / N; NAN when the row has no runs. */
struct spread {
	double s_lo, s_hi, ep_lo, ep_hi;
};

/* The 90% bootstrap run-to-run intervals of one shown row (analysis_intervals). Kept apart
 * from struct arow: most runs draw none. */
struct aci {
	double t_lo, t_hi, s_lo, s_hi, ep_lo, ep_hi, a_lo, a_hi; /* T, S, E', A; NAN: none */
	unsigned runs;                     /* scored runs they rest on (0: none, < 3 scored runs) */
	double thru_lo, thru_hi, conv_lo, conv_hi; /* e_thru, e_conv from the same resamples of
					    * (minutes, samples) pairs; NAN: none */
};

/* The break-even bracket of one comparison group at theta (man gpuscale): lower = N of
 * the fastest row with E' >= theta; upper = the smallest larger N at which every row of the
 * group is below theta. */
enum be_kind {
	BE_EMPTY,      /* the group has no rows */
	BE_ONE_ROW,    /* the group is only its reference: nothing to compare with */
	BE_NONE,       /* no row reaches theta */
	BE_CENSORED,   /* lo+: no larger N was observed (or none with every row below theta) */
	BE_BRACKET     /* lo..<hi */
};

struct be_bracket {
	enum be_kind kind;
	long lo, hi;                       /* N; lo for CENSORED and BRACKET, hi for BRACKET; else -1 */
	bool beyond;                       /* CENSORED: larger N were observed, none wholly below */
};

/* The bracket recomputed with one candidate of a group as its reference. */
struct be_cand {
	size_t row;                        /* dataset row of the candidate */
	struct be_bracket b;
};

/* A comparison group: the rows one break-even is computed over, every shown row in paper or
 * pinned mode, one family in family mode. Reference, bracket, range, sensitivity and fit are
 * per group and never mix groups. */
struct group {
	const char *family;                /* family mode: the family (pooled); NULL: every shown row */
	long ref;                          /* dataset row of its reference, -1 none */
	size_t nrows;
	double n_max;                      /* most accelerators among its rows */
	struct be_bracket be;              /* the bracket at theta */
	struct be_bracket be_thru, be_conv; /* the same rule on e_thru and on e_conv */
	bool split;                        /* some row but the reference has e_conv and e_thru */
	long be_row;                       /* dataset row giving the bracket's lower end, -1 none */
	long firm, loose;                  /* lower ends (N) from rows whose 90% interval lies wholly
					    * at or above / reaches theta; -1 none */
	long range_lo, range_hi;           /* N over the plain, firm and loose lower ends; -1 none */
	bool range_open;                   /* firm, loose and the range not computed yet
					    * (params.range_later: analysis_range_step) */
	struct be_cand *cand;              /* its fewest-accelerator rows, slowest first (into
					    * analysis.cand) */
	size_t ncand;
	long sens_lo, sens_hi;             /* lower ends over the candidates, -1 when none */
	long fit;                          /* index into analysis.fits of its family's fit, -1 */
	double cand_median;                /* median minutes of its candidates, NAN none */
	double ref_ratio;                  /* its reference's minutes / cand_median, NAN none */
	bool ref_slow;                     /* its reference has its candidates' N and takes more
					    * than REF_SLOW_RATIO x cand_median: every E' of the
					    * group rests on an outlier */
};

/* A reference this many times slower than the median of its candidates is flagged. */
#define REF_SLOW_RATIO 2.0

/* Whether the fitted law matches the data it was fitted to (per family). */
struct fit_verdict {
	bool judged;                       /* the fit is usable and its rows have a reference */
	bool ok;                           /* every row within its own 90% interval or within 10% */
	double worst_n, worst_obs, worst_fit; /* the row furthest off: N, observed and fitted E' */
	double n_ref, t_ref;               /* the reference the E' are on (the group's) */
	double be;                         /* predicted break-even on that reference, NAN none */
	const char *be_why;                /* why there is none ("" otherwise); static */
	bool extrapolated;                 /* be lies past the largest N observed */
	bool peak_ok;                      /* kappa exceeds twice its standard error */
	bool own_ref;                      /* paper and pinned mode, the group's reference of
					    * another family: judged, and its break-even given, on
					    * the family's own reference as family mode has it */
};

/* The scaling-law fit of one family's shown rows (params.fit). */
struct fam_fit {
	const char *family;                /* pooled */
	size_t group;                      /* the group its rows are in */
	struct fit fit;
	struct fit_verdict v;
};

struct boot_cache;

struct cluster_sum {
	size_t n;
	double n_min, n_max;               /* accelerator counts */
	double ep_mean, ep_sd;             /* E' mean and population standard deviation */
};

struct analysis {
	const char *round, *workload;      /* pooled, as resolved */
	struct arow *rows;                 /* shown rows, in ranked order; owned */
	size_t n;
	size_t total;                      /* rows of round x workload before filters, carried-over
					    * ones left out */
	size_t ncarried;                   /* shown rows carried over (arow.same_as): listed, in
					    * n, and counted in nothing else */
	size_t total_carried;              /* rows carried over before filters (not in total) */
	long ref;                          /* dataset row of the single reference; -1 in family mode or n = 0 */
	enum ref_mode mode;                /* the mode in effect (pinned with nothing pinned: paper) */
	enum ref_rule rule;                /* the rule in effect */
	bool all_rounds;                   /* rows of every loaded round (round: the current one) */
	bool pareto_cost;                  /* the frontier is on (T, cost) */
	bool brackets_only;                /* params.brackets_only: no range, clusters, ranking */
	bool range_later;                  /* params.range_later */
	bool ref_hidden;                   /* pinned reference hidden by the filter */
	int k;                             /* k used (auto resolved) */
	double inertia, silhouette;        /* silhouette NAN when k < 2 or k >= n */
	struct cluster_sum clusters[MAX_K];
	struct group *groups;              /* comparison groups, by family name in family mode;
					    * none when no row is shown; owned */
	size_t ngroups;
	struct be_cand *cand;              /* every group's candidates; owned */
	size_t ncand;
	size_t ncross;                     /* rows whose reference is of another family */
	const char *cross_row_fam, *cross_ref_fam; /* one such pair for the warning; NULL none */
	size_t npareto;
	struct fam_fit *fits;              /* params.fit: one per family of the shown rows, by
					    * family name (bytes); NULL otherwise; owned */
	size_t nfits;
	size_t rows_cap;                   /* rows allocated at rows */
	struct aci *ci;                    /* the intervals drawn, arow.ci's; owned */
	size_t nci, ci_cap;
	/* Resamples and intervals per dataset row, kept between runs on the same dataset so
	 * that a key that keeps the rows draws nothing again (boot.c); shared with the analyses
	 * analysis_share_boot joined, freed with the last. */
	struct boot_cache *boot;
};

/* Whether shown row o is carried over: in the cross-round view, its run list (benchmark,
 * accelerators and every run: struct row's runs_class) is another shown row's of an earlier
 * round (of the same round: one with an energy score, then the first by system id), which
 * stands for it. It is listed with its metrics, on its standing row's reference and group,
 * and counts in no reference pick, candidate, Pareto frontier, break-even, fit, cluster, query
 * answer or count. */
static inline bool arow_carried(const struct arow *o)
{
	return o->same_as != 0;
}

/* The number of shown rows of a the analysis pools (carried-over rows left out). */
static inline size_t analysis_pooled(const struct analysis *a)
{
	return a->n - a->ncarried;
}

/* Row o's efficiency E = S / N (NAN when S is none). */
static inline double arow_e(const struct arow *o)
{
	return o->S / o->N;
}

/* Mid-range cost to train, (cost_lo + cost_hi) / 2: the cost metric, column and Pareto axis. */
static inline double arow_cost(const struct arow *r)
{
	return (r->cost_lo + r->cost_hi) / 2;
}

/* s, or "" for NULL. */
static inline const char *nz(const char *s)
{
	return s ? s : "";
}

#endif
