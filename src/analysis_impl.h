/* analysis_impl.h: what analysis.c shares with the files it is cut into (boot.c, breakeven.c,
 * clusters.c) and nothing else includes: the sort item, its total orders, and the steps of a run. */
#ifndef GS_ANALYSIS_IMPL_H
#define GS_ANALYSIS_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

/* Orders of the shown rows that depend on the row set alone (not on the reference, k, theta
 * or the sort), kept by the analysis between runs that show the same rows: each a list of
 * positions into the rows in the order the run collects them (ORD_COUNT lists; NULL: not yet
 * made). At 10^5 rows they were most of a recompute: the system id order the clusters are
 * seeded in, the Pareto order on (T, A) and on (T, cost), and the break-even
 * orders by T and by N; kept, a recompute there went from 411 to 199 ms (bench_core median,
 * one run; the family grouping, kept then too, is a table of families now, no sort). The
 * fits take the rows by family and then the tie-break (ORD_FAMILY): a recompute with the fit
 * on at 10^5 rows sorted them again, 715 -> 583 M instructions kept. */
enum ord_kind { ORD_SYSTEM, ORD_PARETO_A, ORD_PARETO_COST, ORD_T, ORD_N, ORD_FAMILY, ORD_COUNT };

struct row_orders {
	const struct dataset *ds;          /* the row set: ds (and its rows) and set[n] */
	const struct row *rows;
	size_t dn, n;
	uint32_t *set;                     /* 32-bit as arow.row */
	uint64_t fp;                       /* of the values the orders read (analysis.c) */
	bool record;                       /* kept from the second whole run on the set on (the
					    * first with analysis.keep_orders): a single run
					    * (--print) holds no copies (at 10^6 rows 48 MB) */
	bool finished;                     /* a whole run was made on the set (not only the check
					    * of its names, analysis_check) */
	size_t *ord[ORD_COUNT];
	uint64_t id;                       /* analysis_rows_id: another for each new set */
};

/* The kept order k of a's rows, or NULL when it must be made (the rows are not in the order
 * the run collected them, or it was not made yet for this row set). */
const size_t *orders_get(const struct analysis *a, enum ord_kind k);

/* Order k of the kept row set as positions of a's rows in their present order (re-sorted
 * since the run: a theta change), in a new array the caller frees; NULL when it is not kept,
 * the rows are not that set, or out of memory. Only for an order that is total by the rows'
 * values (ORD_T), not one broken by position. */
size_t *orders_mapped(const struct dataset *ds, const struct analysis *a, enum ord_kind k);

/* orders_put for rows in any order (ranked since the run): the order given by positions in
 * a->rows is kept as positions in the set, for orders_mapped to give back. */
void orders_put_ranked(const struct dataset *ds, struct analysis *a, enum ord_kind k,
			const void *first, size_t stride);

/* Keeps order k of a's n rows: the position of the j-th is the size_t at first + j * stride
 * bytes (a field of sort keys); copied. Out of memory it is just not kept. */
void orders_put(struct analysis *a, enum ord_kind k, const void *first, size_t stride);

/* s, or "" for NULL. */
static inline const char *nz(const char *s)
{
	return s ? s : "";
}

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

/* The sort key of item i (0 <= i < n) of the ordering at ctx; .i must be i. */
typedef void (*skey_make_fn)(const void *ctx, size_t i, struct skey *k);

/* Starts every cache line of shown row r coming in: a pass over rows in an order not theirs
 * (T, family) fetches a few rows ahead, as at 10^6 rows each row it reads is a miss. */
static inline void arow_prefetch(const struct arow *r)
{
	const char *p = (const char *)r;

	/* two whole lines (struct arow) */
	__builtin_prefetch(p);
	__builtin_prefetch(p + 64);
}

/* a->rows[j] takes a->rows[src[j]] for every j, each cycle of the permutation walked once
 * with one row in hand, in place (a second array of 10^5 rows costs more in page faults than
 * the moves); src is left the identity. */
void permute_walk(struct analysis *a, size_t *src);

/* permute_walk with the permutation as 32-bit places in u (left the identity) and cyc[a->n]
 * as scratch; the same rows in the same places, fewer waits on memory. */
void permute_listed(struct analysis *a, uint32_t *u, uint32_t *cyc);

/* ord[n] made the items 0..n-1 in the order qsort with cmp puts their keys (make), where cmp
 * orders by .v (analysis_cmp_num in direction dir: NAN last, -0 equal to 0) and breaks equal .v
 * by anything else: by a radix sort of .v, then cmp over each run of equal .v only, the keys
 * made as they are needed (an array of every key was 48 bytes a row, at 10^6 rows the peak of
 * a summary). tie: when cmp's tie-break is analysis_cmp_tie, the dataset's tie ranks
 * (ranks_of), which order long runs by the keys' .row without cmp; else NULL. Few items, or
 * out of memory for the radix sort: qsort of every key. 0, or -1 out of memory. */
int skey_sort_num(size_t n, int dir, int (*cmp)(const void *, const void *), skey_make_fn make,
		  const void *ctx, size_t *ord, const uint32_t *tie);

/* Drops one analysis's hold on c; the last frees it (NULL: nothing). */
void boot_cache_release(struct boot_cache *c);

/* The memo of fits a keeps with its resamples (shared as they are), made when missing; NULL
 * when out of memory, and then nothing is kept. */
struct fit_memo;
struct fit_memo *boot_fit_memo(struct analysis *a);

/* The span of a reference's scaled runs, kept between calls on rows of one reference. */
struct boot_ref {
	bool set;
	size_t ref;                        /* dataset row it is of */
	double rlo, rhi;
};

/* The fastest and slowest scaled run of reference row fr into *rlo, *rhi, when it can have
 * an interval (3 runs and more); else both left as they are. */
void boot_ref_span(const struct dataset *ds, const struct row *fr, double *rlo, double *rhi);

/* Bounds *lo..*hi that hold every E' resample of row o (its fastest and slowest runs against
 * the reference's), without drawing any; false when the row can have no interval (< 3 runs).
 * memo: the reference's span from an earlier call, or NULL. */
bool boot_ep_bounds(const struct dataset *ds, const struct arow *o, double *lo, double *hi,
		    struct boot_ref *memo);

/* Whether shown row i counts for the firm (*firm) and loose (*loose) break-even at theta,
 * drawing its interval only when cheap bounds leave it open (memo as boot_ep_bounds). 0, or -1
 * when out of memory. */
int boot_range_test(const struct dataset *ds, struct analysis *a, size_t i, double theta,
		    bool *firm, bool *loose, struct boot_ref *memo);

/* Clusters a's shown rows taken in the order ord[a->n] (indices into a->rows) as p says (k,
 * features) and numbers the clusters by mean N; sets a->k, inertia, silhouette, clusters and
 * each row's cluster. 0, or -1 with err (OOM). */
int clusters_run(struct analysis *a, const size_t *ord, const struct params *p, struct gs_err *err);

/* The indices of a's rows in system id order (the tie-break's order), without moving them: the
 * kept order, or sorted and kept. A new array (free it), or NULL with err out of memory. */
size_t *analysis_system_order(const struct dataset *ds, struct analysis *a, struct gs_err *err);

/* A text among the shown rows (texts are pooled: a pointer stands for one): its rows, and the
 * group of equal texts it belongs to (filled by the caller). */
struct text_slot {
	const char *s;
	size_t n, group;
};

/* The slot of each shown row's text(row) in fi[a->n] (a table of pointers finds it), the slots
 * in *slots[*ns] in order of first appearance. 0; 1 (nothing kept) past max slots; -1 out of
 * memory. */
int text_slots(const struct dataset *ds, const struct analysis *a,
	       const char *(*text)(const struct row *), size_t max, uint32_t *fi,
	       struct text_slot **slots, size_t *ns);

/* a's ranks of ds's rows (tie: the tie-break's, else the system column's), NULL when it has
 * none for these rows. */
const uint32_t *ranks_of(const struct dataset *ds, const struct analysis *a, bool tie);

/* Frees kept orders o (NULL: nothing). */
void orders_free(struct row_orders *o);

/* a->orders made the store of the row set idx[n] of ds for a run (finish false: the check of
 * the names): kept when it is the same set, else emptied for it. */
void orders_ready(const struct dataset *ds, struct analysis *a, const size_t *idx, size_t n,
		  bool finish);

/* Text columns compare case-insensitively (ASCII), then exactly; numbers with NAN last; then
 * the tie-break (qsort comparator of struct skey). */
int analysis_skey_cmp(const void *pa, const void *pb);

/* The reference of the group of shown rows g[n] by rule (analysis.c): its candidates left in
 * c[0..return), the reference's dataset row in *ref. */
size_t analysis_pick_ref(const struct dataset *ds, const size_t *g, size_t n, enum ref_rule rule,
			 struct skey *c, size_t *ref);

/* Family mode's groups of a's shown rows (analysis_family.c): a->groups, each row's group and
 * reference, a->cand. 0, or -1 out of memory. */
int analysis_family_groups(const struct dataset *ds, struct analysis *a, enum ref_rule rule);

/* The scaling-law fit of each family of a's shown rows, each row's fitted E' and residual, and
 * each fit's verdict (analysis_family.c). 0, or -1 with err. */
int analysis_fit_families(const struct dataset *ds, struct analysis *a, struct gs_err *err);

#endif
