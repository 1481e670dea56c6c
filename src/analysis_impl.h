/* analysis_impl.h: what the files of the analysis share and nothing else includes: the sort
 * item and its total orders (analysis_order.c, which calls nothing above it), the intervals'
 * bounds (boot.c), and the steps of a run (analysis_family.c, breakeven.c, clusters.c), which
 * analysis.c calls in turn. */
#ifndef GS_ANALYSIS_IMPL_H
#define GS_ANALYSIS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

/* ---- analysis_order.c ----------------------------------------------------------------- */

/* One shown row as a sort item: its key, by value, so the comparator needs no context. */
struct skey {
	double v;              /* numeric key */
	const char *s;         /* text key, or NULL for a numeric column */
	const struct row *r;   /* for the tie-break */
	size_t row;            /* dataset row */
	size_t i;              /* index into the shown rows */
	int dir;               /* 1 ascending, -1 descending */
};

/* -1, 0, 1 for x against y times dir; NAN after every number whatever the direction. */
int analysis_cmp_num(double x, double y, int dir);

/* The final tie-break of every ordering: system id, then submitter, then dataset row. */
int analysis_cmp_tie(const struct row *a, size_t ia, const struct row *b, size_t ib);

/* Text columns compare case-insensitively (ASCII), then exactly; numbers with NAN last; then
 * the tie-break (qsort comparator of struct skey). */
int analysis_skey_cmp(const void *pa, const void *pb);

/* The reference of the group of shown rows g[n] by rule: its candidates left in c[0..return),
 * slowest first, the reference's dataset row in *ref. */
size_t analysis_pick_ref(const struct dataset *ds, const size_t *g, size_t n, enum ref_rule rule,
			 struct skey *c, size_t *ref);

/* The indices of a's rows in system id order (the tie-break's order), without moving them. A
 * new array (free it), or NULL with err out of memory. */
size_t *analysis_system_order(const struct dataset *ds, const struct analysis *a,
			      struct gs_err *err);

/* ---- boot.c --------------------------------------------------------------------------- */

/* Drops one analysis's hold on c; the last frees it (NULL: nothing). */
void boot_cache_release(struct boot_cache *c);

/* The memo of fits a keeps with its resamples (a fit with GSL takes milliseconds, and the
 * explorer refits on every key while the fit is shown), made when missing; NULL when out of
 * memory, and then nothing is kept. */
struct fit_memo *boot_fit_memo(struct analysis *a);

/* Bounds *lo..*hi that hold every E' resample of row o (its fastest and slowest runs against
 * the reference's), without drawing any; false when the row can have no interval (< 3 runs). */
bool boot_ep_bounds(const struct dataset *ds, const struct arow *o, double *lo, double *hi);

/* Whether shown row i counts for the firm (*firm) and loose (*loose) break-even at theta,
 * drawing its interval only when the bounds leave it open. 0; 1 (nothing set) when it would
 * draw and draw is false; -1 when out of memory. */
int boot_range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta, bool draw,
		    bool *firm, bool *loose);

/* ---- the steps of a run --------------------------------------------------------------- */

/* Family mode's groups of a's shown rows (analysis_family.c): a->groups, each row's group and
 * reference, a->cand. 0, or -1 out of memory. */
int analysis_family_groups(const struct dataset *ds, struct analysis *a, enum ref_rule rule);

/* The scaling-law fit of each family of a's shown rows, each row's fitted E' and residual, and
 * each fit's verdict (analysis_family.c). 0, or -1 with err. */
int analysis_fit_families(const struct dataset *ds, struct analysis *a, struct gs_err *err);

/* In paper and pinned mode, the verdict of each fit whose rows' reference is of another family
 * (analysis_fit_families leaves those unjudged, v.own_ref set), from the same rows under p in
 * family mode: judged, and its break-even given, on the family's own reference. 0, or -1
 * with err (the fits then stay unjudged). */
int analysis_fits_own_ref(const struct dataset *ds, const struct params *p, struct analysis *a,
			  struct gs_err *err);

/* Clusters the shown rows ord[n] (indices into a->rows, in that order) as p says (k, features)
 * and numbers the clusters by mean N; sets a->k, inertia, silhouette, clusters and those rows'
 * cluster (clusters.c). 0, or -1 with err (OOM). */
int clusters_run(struct analysis *a, const size_t *ord, size_t n, const struct params *p,
		 struct gs_err *err);

#endif
