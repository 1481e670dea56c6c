/* chart.h: the analysis as a plot. Turns the shown rows of an analysis into plot points and the
 * plot settings, the one place the explorer, its export and --print plot get them from, so the
 * three draw the same picture. No terminal here; the rasterizer is plot.h. */
#ifndef GS_CHART_H
#define GS_CHART_H

#include <stdbool.h>

#include "analysis.h"
#include "dataset.h"
#include "plot.h"

/* What the user chose to see. */
struct chart_opts {
	enum metric metric;    /* y metric */
	double theta;          /* threshold; drawn as a line on E' only */
	bool log_y;
	bool show_pareto;      /* Pareto points in upper case */
	int width, height;     /* plot size in cells (plot_render's limits apply) */
};

/* Sets s for the plot of a under o: every field; the theta line on E' only (against another
 * metric it would mislead). s points into nothing of a's, so a may change afterwards. */
void chart_spec(const struct analysis *a, const struct chart_opts *o, struct plot_spec *s);

/* Fills pts (a->n entries, caller-owned) with a's rows as plot points of o->metric; sel is the
 * selected index into a->rows or -1, the one point with a label (ds's system id, not copied). */
void chart_points(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		  long sel, struct plot_point *pts);

#endif
