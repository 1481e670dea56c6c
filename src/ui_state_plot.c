/* ui_state_plot.c: the explorer's plot as state: the chart options the keys chose, the points
 * of the shown rows, the raster of the current frame and which point a click lands on; and the
 * work drawn between keys (interval bars, the detail's break-even range). No curses here. */
#include "ui_app.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"

/* The explorer's choices as chart options for a w x h plot. */
static void plot_opts(const struct app *app, int w, int h, struct chart_opts *o)
{
	memset(o, 0, sizeof *o);
	o->metric = app->scr.ymet;
	o->theta = app->p.theta;
	o->log_y = app->scr.log_y;
	o->show_pareto = app->scr.pareto_marks;
	o->group = chart_group_of(&app->p);
	o->full_range = app->scr.full_range;
	o->bars = app->scr.bars;
	o->focus = app->nvis ? app->a.rows[app->vis[app->sel]].group : 0;
	o->width = w;
	o->height = h;
}

/* Intervals are drawn between keys, SLICE_US at a time in each frame drawn while no key waits,
 * so that no key waits on them (a row of forty runs takes most of a millisecond to resample)
 * and the screen never freezes; a key's own frame draws only the selected row's. The bars (the
 * message line counts the rows done while some are left) and the detail (its break-even range
 * says it is being drawn) share the slice. Nothing else on screen shows an interval. */
#define SLICE_US 1000

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Draws the intervals the bars need that the analysis lacks: the selected row's, then the
 * shown rows' in order until the clock passes end. */
static void bars_fill(struct app *app, long long end)
{
	bool was = app->pc.bars_pending;
	size_t done = 0, j;

	app->pc.bars_pending = false;
	if (!app->scr.bars || app->nvis == 0)
		return;
	if (analysis_intervals(app->ds, &app->a, app->vis[app->sel], app->vis[app->sel] + 1, NULL) < 0)
		goto oom;
	for (j = 0; j < app->nvis; j++) {
		if (app->a.rows[app->vis[j]].ci_done)
			continue;
		if (now_us() >= end) {
			app->pc.bars_pending = true;
			break;
		}
		if (analysis_intervals(app->ds, &app->a, app->vis[j], app->vis[j] + 1, NULL) < 0)
			goto oom;
	}
	for (j = 0; j < app->nvis; j++)
		done += app->a.rows[app->vis[j]].ci_done;
	/* the count replaces only itself, i's own message or none: never what a key said since */
	if (app->msg.text[0] && app->msg.seq != app->pc.bars_msg_seq && !strstr(app->msg.text, "interval bars"))
		return;
	if (app->pc.bars_pending)
		ui_state_msg(app, false, "interval bars on: %zu of %zu rows so far, the rest while no key is pressed",
			     done, app->nvis);
	else if (was)
		ui_state_msg(app, false, "interval bars on: all %zu rows", app->nvis);
	else
		return;
	app->pc.bars_msg_seq = app->msg.seq;
	return;
oom:
	ui_state_msg(app, true, "out of memory for run-to-run intervals");
}

/* While the detail shows: the selected row's interval, then its group's break-even range
 * (analysis_run left it open: params.range_later), one row's interval at a time until the
 * clock passes end. */
static void detail_fill(struct app *app, long long end)
{
	app->pc.detail_pending = false;
	if (app->menu.ov != OV_DETAIL || app->nvis == 0)
		return;
	size_t i = app->vis[app->sel], g = app->a.rows[i].group;
	int rc = analysis_intervals(app->ds, &app->a, i, i + 1, NULL);
	while (rc == 0 && (rc = analysis_range_step(app->ds, &app->a, g, app->p.theta)) > 0) {
		if (now_us() >= end) {
			app->pc.detail_pending = true;
			return;
		}
		rc = 0;
	}
	if (rc < 0)
		ui_state_msg(app, true, "out of memory for run-to-run intervals");
}

void ui_state_fill(struct app *app)
{
	long long end = app->pc.idle ? now_us() + SLICE_US : 0;

	app->pc.idle = false;
	if (app->scr.lay.too_small || app->scr.lay.plot.w < PLOT_MIN_W || app->scr.lay.plot.h < PLOT_MIN_H)
		app->pc.bars_pending = false;    /* no plot, no bars to draw: they go on once it shows */
	else
		bars_fill(app, end);
	detail_fill(app, end);
}

bool ui_state_busy(const struct app *app)
{
	return app->pc.bars_pending || app->pc.detail_pending;
}

unsigned ui_state_work(struct app *app)
{
	if (app->pc.bars_pending && !app->scr.bars)
		app->pc.bars_pending = false;
	app->pc.idle = ui_state_busy(app);
	return app->pc.idle ? UI_REDRAW : 0;
}

size_t ui_state_plot_points(struct app *app)
{
	struct chart_opts o;
	size_t n = 0;

	plot_opts(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &o);
	chart_points(app->ds, &app->a, &o, app->nvis ? (long)app->vis[app->sel] : -1, app->pc.pts);
	if (app->nvis == app->a.n)
		return app->nvis;
	/* the row filter keeps some rows: their points move down to their shown positions */
	for (size_t j = 0; j < app->nvis; j++)
		app->pc.pts[n++] = app->pc.pts[app->vis[j]];
	return n;
}

void ui_state_plot_spec(const struct app *app, int w, int h, struct plot_spec *s)
{
	struct chart_opts o;

	plot_opts(app, w, h, &o);
	chart_spec(app->ds, &app->a, &o, s);
}

void ui_state_plot(struct app *app)
{
	struct gs_err err;
	struct chart_opts o;

	if (app->scr.lay.too_small || app->scr.lay.plot.w < PLOT_MIN_W || app->scr.lay.plot.h < PLOT_MIN_H) {
		app->pc.grid_ok = false;
		return;
	}
	ui_state_plot_spec(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &app->pc.spec);
	plot_opts(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &o);
	app->pc.npts = ui_state_plot_points(app);
	app->pc.spec.curves = app->pc.fit_curves;
	app->pc.spec.ncurves = chart_fit_curves(app->ds, &app->a, &o, app->pc.fit_curves, MAX_K,
						app->pc.fit_xy);
	app->pc.grid_ok = plot_render(app->pc.pts, app->pc.npts, &app->pc.spec, &app->pc.grid, &err) == 0;
}

/* A click is resolved against the cells plot_locate gives, which are where plot_render put
 * each glyph (one mapping in plot.c for both); distance counts a row as two columns, as cells
 * are about twice as tall as wide. */
long ui_state_plot_hit(struct app *app, int gy, int gx)
{
	struct plot_spec spec;
	struct gs_err err;
	long best = -1, after_sel = -1, ref = -1;
	int bestd = 1 << 30;
	bool sel_ties = false;
	size_t n = app->nvis;
	int *dist;

	if (!app->pc.grid_ok || n == 0)
		return -1;
	dist = malloc(n * sizeof *dist);
	if (!dist)
		return -1;
	ui_state_plot_spec(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &spec);
	n = ui_state_plot_points(app);
	if (plot_locate(app->pc.pts, n, &spec, dist, &err) < 0) {
		free(dist);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int y = dist[i] < 0 ? -1 : dist[i] / spec.width, x = dist[i] < 0 ? -1 : dist[i] % spec.width;
		dist[i] = 1 << 30;
		if (y >= 0 && abs(y - gy) <= 1 && abs(x - gx) <= 2)
			dist[i] = abs(y - gy) * 2 + abs(x - gx);
		if (dist[i] < bestd)
			bestd = dist[i];
	}
	/* points sharing the nearest cell: the reference first, then each click on the same
	 * cell moves on to the next of them */
	for (size_t i = 0; bestd < (1 << 30) && i < n; i++) {
		if (dist[i] != bestd)
			continue;
		if (best < 0)
			best = (long)i;
		if (ui_state_arow(app, i)->is_ref && ref < 0)
			ref = (long)i;
		if (sel_ties && after_sel < 0)
			after_sel = (long)i;
		if (i == app->sel)
			sel_ties = true;
	}
	if (sel_ties)
		best = after_sel >= 0 ? after_sel : best;
	else if (ref >= 0)
		best = ref;
	free(dist);
	return best;
}
