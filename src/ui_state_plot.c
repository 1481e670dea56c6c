/* ui_state_plot.c: the explorer's plot as state: the chart options the keys chose, the points
 * of the shown rows, the raster of the current frame (kept while nothing it depends on changes)
 * and which point a click lands on. No curses here. */
#include "ui_app.h"

#include <stdlib.h>
#include <string.h>

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

/* Drawing intervals for bars stops after this long and goes on when no key is waiting: at
 * 10^5 rows all of them took 16 s in one key press (i), with the screen frozen. Up to
 * BARS_AT_ONCE shown rows (every bundled round's workloads; about 0.2 s at most) they are
 * drawn in the press, so that what a frame shows does not depend on the machine's speed. */
#define BARS_SLICE_MS 25
#define BARS_AT_ONCE 2000

/* The intervals the bars need, drawn once and kept by the analysis: the selected row's, then the
 * shown rows' in order from where the last slice stopped, for at most BARS_SLICE_MS (above
 * BARS_AT_ONCE shown rows). */
static void bars_fill(struct app *app)
{
	size_t j = app->pc.bars_gen == app->pc.gen && app->pc.bars_nvis == app->nvis ? app->pc.bars_from : 0;
	bool was = app->pc.bars_pending;
	long long t0 = ui_state_now();

	app->pc.bars_pending = false;
	if (!app->scr.bars)
		return;
	if (app->nvis && analysis_intervals(app->ds, &app->a, app->vis[app->sel], app->vis[app->sel] + 1, NULL) < 0)
		j = app->nvis + 1;
	for (; j < app->nvis; j++) {
		if (analysis_intervals(app->ds, &app->a, app->vis[j], app->vis[j] + 1, NULL) < 0) {
			j = app->nvis + 1;
			break;
		}
		if (app->nvis > BARS_AT_ONCE && j % 32 == 31 && ui_state_now() - t0 >= BARS_SLICE_MS) {
			j++;
			break;
		}
	}
	if (j > app->nvis) {
		ui_state_msg(app, true, "out of memory for run-to-run intervals");
		return;
	}
	app->pc.bars_from = j;
	app->pc.bars_gen = app->pc.gen;
	app->pc.bars_nvis = app->nvis;
	app->pc.bars_pending = j < app->nvis;
	/* the count replaces only itself, i's own message or none: never what a key said since */
	if (app->msg.text[0] && app->msg.seq != app->pc.bars_msg_seq && !strstr(app->msg.text, "interval bars"))
		return;
	if (app->pc.bars_pending)
		ui_state_msg(app, false, "interval bars: %zu of %zu rows so far, the rest while no key is pressed",
			     j, app->nvis);
	else if (was)
		ui_state_msg(app, false, "interval bars: all %zu rows", app->nvis);
	else
		return;
	app->pc.bars_msg_seq = app->msg.seq;
}

unsigned ui_state_plot_work(struct app *app)
{
	if (!app->pc.bars_pending)
		return 0;
	if (!app->scr.bars) {
		app->pc.bars_pending = false;
		return 0;
	}
	app->pc.pts_sel = -2; /* the points again, with the next slice of bars */
	return UI_REDRAW;
}

/* Whether the points of every row are kept (pc.all) for the current settings: not with bars,
 * whose intervals grow between keys. */
static bool all_kept(const struct app *app)
{
	return !app->scr.bars && app->pc.all && app->pc.all_cap >= app->a.n;
}

/* Makes pc.all the points of every row of the analysis (chart_points with no selection) when
 * it does not hold them for what chart_points reads but the selection: the analysis, the
 * metric, the grouping. */
static void all_points(struct app *app, const struct chart_opts *o)
{
	unsigned long key[4];

	key[0] = app->pc.agen + 1;
	key[1] = (unsigned long)app->a.n;
	key[2] = (unsigned long)o->metric;
	key[3] = (unsigned long)o->group;
	if (memcmp(key, app->pc.all_key, sizeof key) != 0) {
		chart_points(app->ds, &app->a, o, -1, app->pc.all);
		memcpy(app->pc.all_key, key, sizeof key);
		plot_memo_clear(&app->pc.memo);
	}
}

/* ui_state_plot_points, leaving the record of what pts holds to the caller. */
static size_t points(struct app *app)
{
	struct chart_opts o;
	size_t n = 0;

	plot_opts(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &o);
	bars_fill(app);
	if (o.bars || !all_kept(app)) {
		/* bars: the intervals grow between keys, the points are placed again each time */
		chart_points(app->ds, &app->a, &o, app->nvis ? (long)app->vis[app->sel] : -1, app->pc.pts);
		if (app->nvis == app->a.n)
			return app->nvis;
		/* the row filter keeps some rows: their points move down to their shown positions */
		for (size_t j = 0; j < app->nvis; j++)
			app->pc.pts[n++] = app->pc.pts[app->vis[j]];
		return n;
	}
	all_points(app, &o);
	if (app->nvis == app->a.n)
		memcpy(app->pc.pts, app->pc.all, app->nvis * sizeof *app->pc.pts);
	else
		for (size_t j = 0; j < app->nvis; j++)
			app->pc.pts[n++] = app->pc.all[app->vis[j]];
	/* as chart_points marks and labels the selected point */
	if (app->nvis) {
		app->pc.pts[app->sel].flags |= PT_SELECTED;
		app->pc.pts[app->sel].label = ui_state_row(app, app->sel)->system;
	}
	return app->nvis;
}

size_t ui_state_plot_points(struct app *app)
{
	app->pc.pts_sel = -2;
	app->pc.pts_ok = true;
	return points(app);
}

const struct plot_point *ui_state_plot_pt(const struct app *app, size_t j)
{
	return app->pc.pts_ok ? &app->pc.pts[j] : &app->pc.all[app->vis[j]];
}

void ui_state_plot_spec(const struct app *app, int w, int h, struct plot_spec *s)
{
	struct chart_opts o;

	plot_opts(app, w, h, &o);
	chart_spec(app->ds, &app->a, &o, s);
}

/* The group whose break-even the plot marks, as plot_opts gives it, + 1 (0: none yet). */
static size_t focus_of(const struct app *app)
{
	return (app->nvis ? app->a.rows[app->vis[app->sel]].group : 0) + 1;
}

/* Finishes the kept picture (pc.base) for the selection and its group's break-even mark. */
static void finish(struct app *app)
{
	struct gs_err err;
	struct plot_point sp;
	size_t focus = focus_of(app);

	if (focus != app->pc.mark_focus) {
		chart_mark(&app->a, focus - 1, &app->pc.spec);
		app->pc.mark_focus = focus;
	}
	app->pc.pts_sel = app->nvis ? (long)app->sel : -1;
	if (app->pc.pts_sel >= 0 && app->sel < app->pc.npts) {
		sp = *ui_state_plot_pt(app, app->sel);
		sp.flags |= PT_SELECTED;
		sp.label = ui_state_row(app, app->sel)->system;
	}
	app->pc.grid_ok = plot_base_finish(&app->pc.base, &sp, app->pc.pts_sel >= 0 &&
					   app->sel < app->pc.npts ? 1 : 0, &app->pc.spec,
					   &app->pc.grid, &err) == 0;
}

/* Everything the picture depends on but the selection and the break-even mark, into key (8
 * words); returns whether pc.base (and pc.pts, pc.spec but the mark) was drawn from it. */
static bool kept(const struct app *app, unsigned long *key)
{
	memset(key, 0, 8 * sizeof *key);
	key[0] = app->pc.gen + 1;
	key[2] = (unsigned long)app->scr.ymet | (unsigned long)app->scr.log_y << 8 |
		 (unsigned long)app->scr.pareto_marks << 9 | (unsigned long)app->scr.full_range << 10 |
		 (unsigned long)app->scr.bars << 11;
	memcpy(&key[3], &app->p.theta, sizeof app->p.theta < sizeof key[3] ? sizeof app->p.theta : sizeof key[3]);
	key[4] = (unsigned long)app->scr.lay.plot.w << 16 | (unsigned long)app->scr.lay.plot.h;
	return app->pc.base_ok && memcmp(key, app->pc.plot_key, sizeof app->pc.plot_key) == 0 &&
	       app->pc.pts_sel != -2;
}

/* The picture without its selection is kept (pc.base) while nothing it depends on changes; a
 * moved selection then finishes a copy of it: j at 10^5 rows took 5-55 ms when every point was
 * placed again (55 when the selection changed group, which moved the break-even mark), 124M
 * instructions a press on average; now 2.5M, 0.2-0.7 ms, most of it the table's text. */
void ui_state_plot(struct app *app)
{
	struct gs_err err;
	struct chart_opts o;
	unsigned long key[8];
	size_t n;

	if (app->scr.lay.too_small || app->scr.lay.plot.w < PLOT_MIN_W || app->scr.lay.plot.h < PLOT_MIN_H) {
		app->pc.grid_ok = false;
		app->pc.plot_key[0] = 0;
		/* no plot, no bars to draw: they go on from where they stopped once it shows */
		app->pc.bars_pending = false;
		return;
	}
	if (kept(app, key)) {
		if (app->pc.grid_ok && app->pc.pts_sel == (app->nvis ? (long)app->sel : -1) &&
		    app->pc.mark_focus == focus_of(app))
			return;
		finish(app);
		return;
	}
	ui_state_plot_spec(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &app->pc.spec);
	app->pc.mark_focus = focus_of(app);
	plot_opts(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &o);
	/* the shown rows' points are picked from every row's (pc.all), each point's cell from
	 * the last picture (pc.memo) where the axes stay: a letter of the row filter at 10^5 rows
	 * placed and copied every shown point again (make bench's search letter, with the
	 * quartiles of select_two and the view of ui_state_view: 2.9 -> 1.7 ms, 41 -> 22 M
	 * instructions with T on the y axis, 38 -> 18 M with E') */
	app->pc.pts_ok = !all_kept(app);
	if (app->pc.pts_ok) {
		n = points(app);
	} else {
		bars_fill(app);
		all_points(app, &o);
		n = app->nvis;
	}
	app->pc.spec.curves = app->pc.fit_curves;
	app->pc.spec.ncurves = chart_fit_curves(app->ds, &app->a, &o, app->pc.fit_curves, MAX_K,
						app->pc.fit_xy);
	app->pc.npts = n;
	if (app->pc.pts_ok)
		app->pc.base_ok = plot_base_render(app->pc.pts, n, &app->pc.spec, &app->pc.base, &err) == 0;
	else
		app->pc.base_ok = plot_base_render_some(app->pc.all, app->a.n, n == app->a.n ? NULL : app->vis,
							n, &app->pc.spec, &app->pc.base, &app->pc.memo,
							&err) == 0;
	memcpy(app->pc.plot_key, key, sizeof key);
	if (!app->pc.base_ok) {
		app->pc.grid_ok = false;
		app->pc.pts_sel = -1;
		return;
	}
	finish(app);
}

/* A click is resolved against the cells plot_locate gives, which are where plot_render put
 * each glyph (one mapping in plot.c for both); distance counts a row as two columns, as cells
 * are about twice as tall as wide. */
long ui_state_plot_hit(struct app *app, int gy, int gx)
{
	unsigned long key[8];
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
	/* the points of the picture shown, when it is the current state's (positions do not depend
	 * on the selection or the mark): at 10^5 rows a click and its frame took ~100 ms when the
	 * points were made again (and then the whole picture), ~2 ms this way */
	if (kept(app, key) && app->pc.npts == n) {
		spec = app->pc.spec;
		/* the picture drawn from pc.all: its points into pc.pts (the same points) */
		if (!app->pc.pts_ok) {
			points(app);
			app->pc.pts_ok = true;
		}
	} else {
		ui_state_plot_spec(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &spec);
		n = ui_state_plot_points(app);
	}
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
