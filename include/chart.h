/* chart.h: the analysis as a plot. Turns the shown rows of an analysis into plot points and the
 * plot settings, the one place the explorer, its export and --print plot get them from, so the
 * three draw the same picture. No terminal here; the rasterizer is plot.h. */
#ifndef GS_CHART_H
#define GS_CHART_H

#include <stdbool.h>

#include "analysis.h"
#include "dataset.h"
#include "plot.h"

/* How points are grouped into glyphs and colours. */
enum chart_group {
	GROUP_CLUSTER,         /* k-means cluster: a b c, "clusters" in the legend */
	GROUP_FAMILY,          /* accelerator family: a b c in name order, each named in the
				  legend (family mode) */
	GROUP_ROUND,           /* round: a b c in round order, each named in the legend (the
				  cross-round view) */
};

/* What the user chose to see. */
struct chart_opts {
	enum metric metric;    /* y metric */
	double theta;          /* threshold; drawn as a line on E' only */
	bool log_y;
	bool show_pareto;      /* Pareto points in upper case */
	bool full_range;       /* no clipping of outliers */
	bool bars;             /* run-to-run interval bars, where a row has one */
	enum chart_group group;
	size_t focus;          /* the group whose break-even is marked (index into a->groups) */
	int width, height;     /* plot size in cells (plot_render's limits apply) */
};

/* Sets s for the plot of a (rows of ds) under o: every field; the theta line on E' only
 * (against another metric it would mislead); the break-even mark at the lower end of group
 * o->focus's bracket, named with the bracket ("H100 SXM break-even 64..<128"); family or round
 * keys in GROUP_FAMILY and GROUP_ROUND (their texts point into ds). */
void chart_spec(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		struct plot_spec *s);

/* Sets s's break-even mark as chart_spec does for group focus (none when it has no bracket). */
void chart_mark(const struct analysis *a, size_t focus, struct plot_spec *s);

/* Fills pts (a->n entries, caller-owned) with a's rows as plot points of o->metric; sel is the
 * selected index into a->rows or -1, the one point with a label (ds's system id, not copied).
 * Preview and Research rows get PT_PREVIEW; in GROUP_FAMILY and GROUP_ROUND the cluster is the
 * family's or round's index (as chart_spec numbers them). */
void chart_points(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		  long sel, struct plot_point *pts);

/* The grouping p calls for: rounds in the cross-round view, families in family mode, else the
 * clusters. */
enum chart_group chart_group_of(const struct params *p);

/* The grouping an analysis was run for: chart_group_of of its parameters. */
enum chart_group chart_group_of_analysis(const struct analysis *a);

/* The letter each of a's shown rows has in the plot of grouping g, into out (a->n entries,
 * caller's): 'a' + its family's, round's or cluster's index, as chart_points numbers them, '.'
 * for one without a letter. Pareto rows are upper case in the plot; here always lower case. */
void chart_letters(const struct dataset *ds, const struct analysis *a, enum chart_group g,
		   char *out);

/* The run-to-run interval of a's row r in metric m: *lo and *hi, NAN when the row has none. */
void chart_interval(const struct analysis *a, const struct arow *r, enum metric m, double *lo,
		    double *hi);

/* Samples per fitted curve. */
#define CHART_FIT_SAMPLES 64

/* The fitted scaling law of each family of a (a->fits, params.fit) as curves of o->metric,
 * computed from the law's T against the observed T of the reference of the family's rows, as
 * the points are (so the E' curve is the rows' e_prime_fit); one
 * per usable fit, from its fewest N to the largest N shown; '.' (',' for a weak fit), coloured
 * as the family in GROUP_FAMILY. Fills c (max entries) with samples in xy (caller's, 2 *
 * CHART_FIT_SAMPLES doubles per curve); returns the number of curves, 0 for a metric the law
 * does not give (kWh, cost). */
size_t chart_fit_curves(const struct dataset *ds, const struct analysis *a,
			const struct chart_opts *o, struct plot_curve *c, size_t max, double *xy);

#endif
