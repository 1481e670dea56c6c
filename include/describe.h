/* describe.h: the sentences the screen and the reports both say about an analysis (the
 * break-even bracket and range, a group, the fit verdict and its prediction), written in one
 * place so that the status line, the detail, the legend, --print and the export cannot
 * disagree. Every function writes into the caller's buffer like snprintf and returns it.
 * No terminal here. */
#ifndef GS_DESCRIBE_H
#define GS_DESCRIBE_H

#include <stddef.h>

#include "analysis.h"
#include "planner.h"
#include "table.h"

/* "16..<32", "8+ (no row beyond 8)", "8+ (no N beyond 8 wholly below theta)", "one row",
 * "none at theta", "no rows". */
char *describe_bracket(const struct be_bracket *b, char *buf, size_t n);

/* The short form for lists: "16..<32", "8+", "one row", "none", "-". */
char *describe_bracket_short(const struct be_bracket *b, char *buf, size_t n);

/* A range of lower ends in N: "N 32..64", "N 64" when the ends agree, "none". */
char *describe_range(long lo, long hi, char *buf, size_t n);

/* A k-means cluster's name, its number from 1 ("1" .. "12"; "-" for none): clusters are
 * numbered everywhere, since the plot's letters name families, rounds or (paper and pinned
 * modes, where a is cluster 1) the clusters in its legend. */
char *describe_cluster(int c, char *buf, size_t n);

/* The group's name: its family, or "all shown rows". */
const char *describe_group_name(const struct group *g);

/* The fit's verdict: "ok", "poor fit: worst N=64 observed 0.70, fitted 0.88", or the state
 * with its reason ("weak (5 points < 6)", "no fit (needs 3 distinct N)"). */
char *describe_verdict(const struct fam_fit *ff, char *buf, size_t n);

/* The fit's predicted break-even on its group's reference: "N 105", "N 105 (poor fit)",
 * "N 7060 (extrapolated)", "N 7060 (poor fit, extrapolated)", "- (E' < theta at N_ref)"; in
 * paper and pinned mode, when the group's reference is of another family, on the family's own
 * reference, and it says so: "N 65.6 (poor fit) on its family's own reference (N=4)". */
char *describe_fit_be(const struct fam_fit *ff, char *buf, size_t n);

/* The fit's peak: "peak N* 890" when kappa exceeds twice its standard error and N* lies in
 * range, else "no peak identified" / "no peak (kappa 0)". */
char *describe_peak(const struct fam_fit *ff, char *buf, size_t n);

/* The whole fit line of --print fit: fit_describe's with the verdict, the peak and the
 * prediction on the group's reference in place of its own words ("H100 SXM: poor fit: worst
 * N=48 observed 0.66, fitted 0.83; 14 points at 6 N (4..3472); USL ...; break-even N 65.6
 * (poor fit) at theta 0.8; Amdahl ..."). */
char *describe_fit(const struct fam_fit *ff, double theta, char *buf, size_t n);

/* The order a group's candidates are listed in: the first (slowest) whose lower end sets the
 * low end of the sensitivity range, the first setting the high end, then the rest slowest
 * first; fills ord (g->ncand entries) with indices into g->cand and returns how many of the
 * first entries set an end (0..2): a list cut short keeps at least those. */
size_t describe_cand_order(const struct group *g, size_t *ord);

/* Shown row i of a as every list names it: table_row_name's (SUBMITTER/SYSTEM when v says its
 * id is shared; v NULL: the id), after its round in the cross-round view ("v5.1 box-8"). */
char *describe_row(const struct table_view *v, const struct dataset *ds, const struct analysis *a,
		   size_t i, char *buf, size_t n);

/* One entry of a sensitivity list: the candidate with its submitter, its minutes and the
 * bracket it gives as reference, after its round in the cross-round view: "v5.1
 * NVIDIA/box-8 (9.55 min) -> 8..<16". */
char *describe_cand(const struct dataset *ds, const struct analysis *a, const struct be_cand *c,
		    char *buf, size_t n);

/* The groups' brackets as one list at most w columns wide: group `first` first (a->ngroups or
 * more: by name), then the others by name, "H100 SXM 64..<128, B200 16..<32, +6 more", a group
 * whose reference is an outlier marked "B200 8+ (ref 2.5x median)"; only
 * whole entries, the count of those left out last. Paper and pinned mode: the one bracket
 * ("+1 more" when even that is wider than w). The first entry carries its split brackets
 * (describe_split, compact: "B200 32..<64 thr 64..<128 conv 16..<32") where that leaves out
 * no other entry. */
char *describe_groups(const struct analysis *a, size_t first, int w, char *buf, size_t n);

/* The warning of a group whose reference is an outlier among its candidates (group.ref_slow):
 * "reference 55.60 min is 2.53x the median (21.98 min) of the 9 rows at N=8 it was picked
 * from: the group's E' are about 2.53x what a typical one gives", compact
 * (ds may be NULL) "ref 2.5x median"; "" when the reference is not one. */
char *describe_ref_slow(const struct dataset *ds, const struct group *g, bool compact, char *buf,
			size_t n);

/* A group's throughput and convergence brackets (the break-even rule on e_thru and e_conv):
 * "throughput 64..<128, convergence 16..<32", or compact "thr 64..<128 conv 16..<32"; without
 * any row's split "no convergence data" ("" compact). */
char *describe_split(const struct group *g, bool compact, char *buf, size_t n);

/* Row o's E' split against its reference: "E' 0.31 = throughput 0.72 x convergence 0.43 (GBS
 * 8 -> 64; samples 3,168 -> 7,296; RCP at GBS 64: 7,780)", the samples to converge of the
 * reference and the row as the results give them, the RCP part only where the row has one;
 * "no convergence data" when o has no split. */
char *describe_split_row(const struct dataset *ds, const struct arow *o, char *buf, size_t n);

/* The group's bracket with its split: "32..<64 (throughput 64..<128, convergence 16..<32)",
 * or the bracket alone without convergence data. */
char *describe_bracket_split(const struct group *g, char *buf, size_t n);

/* A row's name as every list, title and message writes it: "SUBMITTER/SYSTEM", or the system
 * alone when the row has no submitter. */
char *describe_row_name(const struct row *r, char *buf, size_t n);

/* A reference row: "SUBMITTER/SYSTEM (N=8, 20.31 min)". */
char *describe_ref_row(const struct row *r, char *buf, size_t n);

/* Dataset row `row` as a's lists name it: describe_row_name's, after its round in the
 * cross-round view ("v3.1 Dell/XE9680x8H100-SXM-80GB"). */
char *describe_view_name(const struct dataset *ds, const struct analysis *a, size_t row, char *buf,
			 size_t n);

/* Dataset row `row` as a's reference: describe_ref_row's, in the cross-round view after its
 * round and, when a carries it over, naming the row standing for it: "v4.1 Dell/X (N=8, 36.32
 * min, carried over: the runs of v3.1 Dell/X)". */
char *describe_view_ref(const struct dataset *ds, const struct analysis *a, size_t row, char *buf,
			size_t n);

/* Whose runs a carried-over shown row i repeats (arow_carried): "the runs of v3.1 Dell/X";
 * "" for a pooled row. */
char *describe_carried(const struct dataset *ds, const struct analysis *a, size_t i, char *buf,
		       size_t n);

/* Carried-over rows a list names beyond the count; room for such a list. */
#define DESCRIBE_CARRIED_LISTED 8
#define CARRIED_TEXT (512 + DESCRIBE_CARRIED_LISTED * 1400)

/* The cross-round view's carried-over rows: how many (shown, before filters), why they count
 * in nothing, and the first DESCRIBE_CARRIED_LISTED in the rows' order each with the row
 * standing for it: "5 shown (23 before filters), ...: v4.1 Dell/X (the runs of v3.1 Dell/X),
 * ..., and 15 more". Cut to n like snprintf. */
char *describe_carried_list(const struct dataset *ds, const struct analysis *a, char *buf, size_t n);

/* What follows a count of pooled rows when k more are listed carried over: " +6 carried over",
 * "" for none. */
char *describe_carried_count(size_t k, char *buf, size_t n);

/* How the reference is chosen. Long (reports): "per family (each family's fewest accelerators,
 * ties to the slowest)", "per family (each family's fewest accelerators, the fastest)",
 * "paper", "paper, fastest", "pinned". Brief (status line): "per family (paper rule in each)",
 * "per family (fastest rule in each)", "paper", "paper, fastest", "pinned". */
char *describe_ref_mode(enum ref_mode mode, enum ref_rule rule, bool brief, char *buf, size_t n);

/* The reference of an analysis: the mode's text in family mode, "none (no rows shown)", or
 * "SUBMITTER/SYSTEM (N=8, 20.31 min, paper[, fastest][, hidden by the filter])". */
char *describe_ref(const struct dataset *ds, const struct analysis *a, bool brief, char *buf, size_t n);

/* The filter of the shown rows: "all", "H100 SXM", "H100 SXM +2" (families first, then the
 * vendor, availability and division lists), "3 other" (no family, other lists). */
char *describe_filter(const struct filter *f, char *buf, size_t n);
/* ---- the planner (describe_plan.c) ---- */

/* A prediction with the fit's verdict beside it: "N 2048: T 22.7 (21.9..23.6) min, E' 0.62
 * (0.6..0.64), A 775 (748..803), cost 1.5e+03..3.1e+03 USD (extrapolated); poor fit: worst
 * N=16 ...", a query's answer with its nodes and the N interval ("N 24 (3 nodes of 8; the
 * law's N 17), 90% N 16..40: T ..."), or "not predicted: no fit (needs 3 distinct N)". */
char *describe_pred(const struct pred *p, char *buf, size_t n);

/* What goes before a verdict set beside a number: "" for "poor fit: ...", else "fit " ("fit
 * ok", "fit weak (5 points < 6)"). */
const char *describe_verdict_lead(const char *verdict);

/* "surely", "possibly", "no". */
const char *describe_sure(enum q_sure s);

/* The constraints and objective: "T <= 30 min, cost <= 500 USD; minimizing acc-hours". */
char *describe_query(const struct query *q, char *buf, size_t n);

/* An answer row named name: "NAME (N=8): T 5.97 min, A 0.796, cost 4.8..8.8 USD, 12.1 kWh
 * (surely within 500 USD)". */
char *describe_q_row(const struct arow *r, const char *name, const struct query *q,
		     enum q_sure cost, char *buf, size_t n);

/* How many of a family's rows meet the query, or why it is left out. */
char *describe_q_state(const struct q_answer *ans, char *buf, size_t n);

/* The family's predicted answer: "predicted N 7: T ... (surely within budget)", or
 * "not predicted: poor fit: ...". */
char *describe_q_pred(const struct q_answer *ans, const struct query *q, char *buf, size_t n);

/* A cell of the break-even trend: "16..<32 @4" (the bracket's short form and the reference's
 * N), "-" where the family has no rows. */
char *describe_trend_cell(const struct trend_cell *c, char *buf, size_t n);

#endif
