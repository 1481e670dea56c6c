/* ui_state.c: the explorer's model (selection, tabs, filter menu, search, detail text, plot
 * raster) on top of the analysis core. No curses here: every function works without a
 * terminal, so the loop can recompute and the draw code only reads. */
#define _GNU_SOURCE /* strcasestr */
#include "ui_app.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chart.h"
#include "fmt.h"
#include "olympic.h"

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

/* The index of name in list, or 0 (the first) when it is not there. */
static size_t find_name(const char **list, size_t n, const char *name)
{
	size_t i = name_find(list, n, name, true);

	return i < n ? i : 0;
}

static void load_works(struct app *app)
{
	app->nworks = dataset_workloads(app->ds, app->p.round, app->works, UI_MAX_WORK);
}

void ui_state_init(struct app *app, struct dataset *ds, const struct params *p,
		   const struct ui_opts *o)
{
	memset(app, 0, sizeof *app);
	app->ds = ds;
	app->p = *p;
	app->ymet = o->y_metric < MET_COUNT ? o->y_metric : MET_EP;
	app->log_y = o->log_y;
	app->pareto_marks = true;
	app->export_dir = o->export_dir;
	if (o->mouse == MOUSE_AUTO)
		app->mouse = !env_set("SSH_CONNECTION") && !env_set("SSH_TTY");
	else
		app->mouse = o->mouse == MOUSE_ON;

	app->nrounds = dataset_rounds(ds, app->rounds, UI_MAX_ROUNDS);
	app->round_i = find_name(app->rounds, app->nrounds, p->round);
	if (app->nrounds)
		app->p.round = app->rounds[app->round_i];
	load_works(app);
	app->work_i = find_name(app->works, app->nworks, p->workload);
	if (app->nworks)
		app->p.workload = app->works[app->work_i];
	/* what the loader skipped must not go unnoticed on the first screen */
	if (ds->warn.total > 0)
		ui_state_msg(app, true, "%zu load warning%s; first: %s", ds->warn.total,
			     ds->warn.total == 1 ? "" : "s", ds->warn.n ? ds->warn.items[0] : "-");
	else if (ds->unmatched > 0)
		ui_state_msg(app, false, "%zu rows matched no family rule (their accelerator is the family)",
			     ds->unmatched);
}

void ui_state_free(struct app *app)
{
	analysis_free(&app->a);
	analysis_free(&app->spare);
	plot_free(&app->grid);
	free(app->pts);
	app->pts = NULL;
	app->pts_cap = 0;
}

void ui_state_msg(struct app *app, bool is_err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->msg_err = is_err;
}

const struct row *ui_state_row(const struct app *app, size_t i)
{
	return &app->ds->rows[app->a.rows[i].row];
}

/* The selection follows the system, not the position: after a recompute or a re-sort the
 * same system stays selected when it is still shown. */
static void reselect(struct app *app)
{
	size_t i;

	if (app->a.n == 0) {
		app->sel = 0;
		return;
	}
	for (i = 0; i < app->a.n; i++)
		if (app->sel_sys && ui_state_row(app, i)->system == app->sel_sys &&
		    ui_state_row(app, i)->submitter == app->sel_sub)
			break;
	if (i == app->a.n)
		i = app->sel < app->a.n ? app->sel : app->a.n - 1;
	ui_state_select(app, (long)i);
}

/* "SYSTEM (N=4, 10.55 min)" for the reference row, or what the mode says when there is none. */
static const char *ref_text(const struct app *app, char *buf, size_t n)
{
	char b1[32], b2[32];
	const struct row *r;

	if (app->p.mode == REF_FAMILY || app->a.ref < 0) {
		snprintf(buf, n, app->p.mode == REF_FAMILY ? "per family (%s rule in each)" : "none",
			 app->p.ref_rule == RULE_SLOWEST ? "paper" : ref_rule_name(app->p.ref_rule));
		return buf;
	}
	r = &app->ds->rows[app->a.ref];
	snprintf(buf, n, "%s (N=%s, %s min)", r->system, fmt_count((double)r->accelerators, b1, sizeof b1),
		 fmt_fixed(r->minutes, 2, b2, sizeof b2));
	return buf;
}

static void note_msg(struct app *app, enum ui_note note)
{
	char b1[32], ref[UI_LINE];

	fmt_fixed(app->a.silhouette, 2, b1, sizeof b1);
	switch (note) {
	case NOTE_AUTOK:
		ui_state_msg(app, false, "auto-k: k=%d (silhouette %s)", app->a.k, b1);
		break;
	case NOTE_FEATS:
		ui_state_msg(app, false, "cluster features (%s): k=%d, silhouette %s",
			     feat_set_name(app->p.feats), app->a.k, b1);
		break;
	case NOTE_PIN:
		ui_state_msg(app, false, "pinned: %s", ref_text(app, ref, sizeof ref));
		break;
	case NOTE_PAPER:
		ui_state_msg(app, false, "reference: paper rule, %s", ref_text(app, ref, sizeof ref));
		break;
	case NOTE_MODE:
		ui_state_msg(app, false, "reference mode %s: %s", ref_mode_name(app->p.mode),
			     ref_text(app, ref, sizeof ref));
		break;
	case NOTE_RULE:
		ui_state_msg(app, false, "reference rule %s: %s", ref_rule_name(app->p.ref_rule),
			     ref_text(app, ref, sizeof ref));
		break;
	case NOTE_NONE: break;
	}
}

/* A pin is kept as SUBMITTER/SYSTEM; messages name the system, as the table does. */
static const char *pin_shown(const char *pinned)
{
	const char *slash = strchr(pinned, '/');

	return slash && slash[1] ? slash + 1 : pinned;
}

int ui_state_recompute(struct app *app, struct gs_err *err)
{
	struct analysis done;
	enum ui_note note = app->note;
	bool had_msg;
	long found;

	app->note = NOTE_NONE;
	if (app->p.mode == REF_PINNED && app->p.pinned &&
	    (found = dataset_find(app->ds, app->p.round, app->p.workload, app->p.pinned)) < 0) {
		if (found == -2)
			ui_state_msg(app, true, "%s names results of several submitters in %s: paper rule here, pin kept",
				     app->p.pinned, workload_label(app->p.workload));
		else
			ui_state_msg(app, true, "no %s result for %s: paper rule here, pin kept",
				     workload_label(app->p.workload), pin_shown(app->p.pinned));
		app->pin_keep = app->p.pinned;
		app->p.mode = REF_PAPER;
	} else if (app->pin_keep && app->p.mode == REF_PAPER &&
		   dataset_find(app->ds, app->p.round, app->p.workload, app->pin_keep) >= 0) {
		app->p.pinned = app->pin_keep;
		app->p.mode = REF_PINNED;
		app->pin_keep = NULL;
		ui_state_msg(app, false, "reference pinned again: %s", pin_shown(app->p.pinned));
	}
	if (app->p.mode == REF_PINNED && !app->p.pinned)
		app->p.mode = REF_PAPER;
	had_msg = app->msg[0] != '\0';
	if (analysis_run(app->ds, &app->p, &app->spare, err) < 0)
		return -1;
	done = app->spare;
	app->spare = app->a;
	app->a = done;
	if (app->a.n > app->pts_cap) {
		struct plot_point *pts = realloc(app->pts, app->a.n * sizeof *pts);
		if (!pts) {
			err_set(err, NULL, 0, 0, "out of memory");
			return -1;
		}
		app->pts = pts;
		app->pts_cap = app->a.n;
	}
	reselect(app);
	if (!had_msg)
		note_msg(app, note);
	return 0;
}

void ui_state_resort(struct app *app)
{
	struct gs_err e;
	char text[600];

	memset(&e, 0, sizeof e);
	if (analysis_sort(app->ds, &app->a, app->p.sort, app->p.desc, &e) < 0)
		ui_state_msg(app, true, "%s", err_format(&e, text, sizeof text));
	reselect(app);
}

void ui_state_apply(struct app *app, unsigned flags)
{
	if (flags & UI_RECOMPUTE) {
		struct gs_err e;
		char text[600];
		memset(&e, 0, sizeof e);
		if (ui_state_recompute(app, &e) < 0)
			ui_state_msg(app, true, "%s", err_format(&e, text, sizeof text));
	} else if (flags & UI_RESORT) {
		ui_state_resort(app);
	}
}

void ui_state_scroll(struct app *app)
{
	size_t h = app->lay.table_rows > 0 ? (size_t)app->lay.table_rows : 1;

	if (app->sel < app->top)
		app->top = app->sel;
	else if (app->sel >= app->top + h)
		app->top = app->sel - h + 1;
	/* no blank rows under the last one while rows above are hidden */
	if (app->a.n <= h)
		app->top = 0;
	else if (app->top > app->a.n - h)
		app->top = app->a.n - h;
	/* large tables get their run-to-run intervals as rows come into view */
	if (analysis_intervals(app->ds, &app->a, app->top, app->top + h, NULL) < 0 ||
	    analysis_intervals(app->ds, &app->a, app->sel, app->sel + 1, NULL) < 0)
		ui_state_msg(app, true, "out of memory for run-to-run intervals");
}

void ui_state_select(struct app *app, long i)
{
	if (app->a.n == 0) {
		app->sel = 0;
		return;
	}
	if (i < 0)
		i = 0;
	if ((size_t)i >= app->a.n)
		i = (long)app->a.n - 1;
	app->sel = (size_t)i;
	app->sel_sys = ui_state_row(app, app->sel)->system;
	app->sel_sub = ui_state_row(app, app->sel)->submitter;
	ui_state_scroll(app);
}

int ui_state_set_round(struct app *app, size_t i)
{
	const char *work = app->p.workload;

	if (i >= app->nrounds)
		return -1;
	app->round_i = i;
	app->p.round = app->rounds[i];
	load_works(app);
	/* keep the workload when the new round has it */
	app->work_i = 0;
	for (size_t w = 0; w < app->nworks; w++)
		if (work && strcmp(app->works[w], work) == 0)
			app->work_i = w;
	app->p.workload = app->nworks ? app->works[app->work_i] : NULL;
	return 0;
}

int ui_state_set_workload(struct app *app, size_t i)
{
	if (i >= app->nworks)
		return -1;
	app->work_i = i;
	app->p.workload = app->works[i];
	return 0;
}

static bool filter_has(const struct filter *f, const char *fam)
{
	for (size_t i = 0; i < f->nfamilies; i++)
		if (strcasecmp(f->families[i], fam) == 0)
			return true;
	return false;
}

static int fam_cmp(const void *x, const void *y)
{
	const struct ui_famitem *a = x, *b = y;
	return strcasecmp(a->name, b->name);
}

void ui_state_menu_open(struct app *app)
{
	const struct dataset *ds = app->ds;
	size_t n = 0;

	for (size_t r = 0; r < ds->n; r++) {
		const struct row *row = &ds->rows[r];
		size_t i;
		if (row->round != app->p.round || row->benchmark != app->p.workload)
			continue;
		for (i = 0; i < n; i++)
			if (app->fam[i].name == row->family)
				break;
		if (i == n) {
			if (n == UI_MAX_FAM)
				continue;
			app->fam[n].name = row->family;
			app->fam[n].count = 0;
			n++;
		}
		app->fam[i].count++;
	}
	/* a filtered family absent from this workload stays listed, so it can be unchecked */
	for (size_t f = 0; f < app->p.filter.nfamilies && n < UI_MAX_FAM; f++) {
		size_t i;
		for (i = 0; i < n; i++)
			if (strcasecmp(app->fam[i].name, app->p.filter.families[f]) == 0)
				break;
		if (i == n) {
			app->fam[n].name = app->p.filter.families[f];
			app->fam[n].count = 0;
			n++;
		}
	}
	qsort(app->fam, n, sizeof app->fam[0], fam_cmp);
	for (size_t i = 0; i < n; i++)
		app->fam[i].on = filter_has(&app->p.filter, app->fam[i].name);
	app->nfam = n;
	app->fam_cur = 0;
}

void ui_state_menu_apply(struct app *app)
{
	struct filter *f = &app->p.filter;

	f->nfamilies = 0;
	for (size_t i = 0; i < app->nfam && f->nfamilies < MAX_SEL; i++)
		if (app->fam[i].on)
			f->families[f->nfamilies++] = app->fam[i].name;
}

char *ui_state_filter_text(const struct app *app, char *buf, size_t n)
{
	const struct filter *f = &app->p.filter;
	size_t others = f->nvendors + f->navailability + f->ndivisions;

	if (f->nfamilies == 0 && others == 0)
		snprintf(buf, n, "all");
	else if (f->nfamilies == 0)
		snprintf(buf, n, "%zu other", others);
	else if (f->nfamilies + others == 1)
		snprintf(buf, n, "%s", f->families[0]);
	else
		snprintf(buf, n, "%s +%zu", f->families[0], f->nfamilies + others - 1);
	return buf;
}

long ui_state_find(const struct app *app, size_t from, int dir, const char *text)
{
	size_t n = app->a.n;

	/* strcasestr finds an empty text everywhere: no text matches nothing */
	if (n == 0 || !text || !*text)
		return -1;
	for (size_t step = 1; step <= n; step++) {
		size_t i = dir > 0 ? (from + step) % n : (from + n - step % n) % n;
		const struct row *r = ui_state_row(app, i);
		if (strcasestr(r->system, text) || strcasestr(r->system_name, text) ||
		    strcasestr(r->submitter, text))
			return (long)i;
	}
	return -1;
}

/* ---- plot ---- */

/* The explorer's choices as chart options for a w x h plot. */
static void plot_opts(const struct app *app, int w, int h, struct chart_opts *o)
{
	memset(o, 0, sizeof *o);
	o->metric = app->ymet;
	o->theta = app->p.theta;
	o->log_y = app->log_y;
	o->show_pareto = app->pareto_marks;
	o->group = chart_group_of(&app->p);
	o->full_range = app->full_range;
	o->bars = app->bars;
	o->width = w;
	o->height = h;
}

void ui_state_plot_points(struct app *app)
{
	struct chart_opts o;

	plot_opts(app, app->lay.plot.w, app->lay.plot.h, &o);
	chart_points(app->ds, &app->a, &o, app->a.n ? (long)app->sel : -1, app->pts);
}

void ui_state_plot_spec(const struct app *app, int w, int h, struct plot_spec *s)
{
	struct chart_opts o;

	plot_opts(app, w, h, &o);
	chart_spec(app->ds, &app->a, &o, s);
}

void ui_state_plot(struct app *app)
{
	struct plot_spec spec;
	struct gs_err err;

	app->grid_ok = false;
	if (app->lay.too_small || app->lay.plot.w < PLOT_MIN_W || app->lay.plot.h < PLOT_MIN_H)
		return;
	ui_state_plot_spec(app, app->lay.plot.w, app->lay.plot.h, &spec);
	ui_state_plot_points(app);
	{
		struct chart_opts o;
		plot_opts(app, app->lay.plot.w, app->lay.plot.h, &o);
		spec.curves = app->fit_curves;
		spec.ncurves = chart_fit_curves(app->ds, &app->a, &o, app->fit_curves, MAX_K, app->fit_xy);
	}
	app->grid_ok = plot_render(app->pts, app->a.n, &spec, &app->grid, &err) == 0;
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
	size_t n = app->a.n;
	int *dist;

	if (!app->grid_ok || n == 0)
		return -1;
	dist = malloc(n * sizeof *dist);
	if (!dist)
		return -1;
	ui_state_plot_spec(app, app->lay.plot.w, app->lay.plot.h, &spec);
	ui_state_plot_points(app);
	if (plot_locate(app->pts, n, &spec, dist, &err) < 0) {
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
		if (app->a.rows[i].is_ref && ref < 0)
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

/* ---- detail overlay ---- */

/* Appends a line, unmarked (mark may be NULL). */
#define ADD(...) do { \
		if (n < max) { \
			if (mark) \
				mark[n] = false; \
			snprintf(lines[n++], UI_LINE, __VA_ARGS__); \
		} \
	} while (0)

/* The olympic average drops, from the ascending successful runs, the fastest m and the slowest
 * m - d, failed runs counting as already-dropped slow ones (m = 4 for unet3d, else 1). */
static const char *run_note(const struct row *r, unsigned i, bool *dropped)
{
	size_t lo, hi, d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;

	*dropped = false;
	if (olympic_window(r->run_n, d, olympic_limit(r->benchmark), &lo, &hi) == 1)
		return "not scored (too many failed runs)";
	*dropped = i < lo || i >= hi;
	if (i < lo)
		return "dropped (fastest)";
	if (i >= hi)
		return "dropped (slowest)";
	return "averaged";
}

/* The runs: T and the spread are the olympic average and range of the raw run times times the
 * scaling factor, so each run shows both, and the failed runs are said to count as dropped. */
static void run_lines(const struct app *app, const struct row *r, char (*lines)[UI_LINE], bool *mark,
		      size_t max, size_t *np)
{
	size_t n = *np;
	double sf = isfinite(r->scaling_factor) && r->scaling_factor > 0 ? r->scaling_factor : 1.0;
	int m = (int)olympic_limit(r->benchmark), d = r->runs_failed > 0 ? r->runs_failed : 0;
	char b1[32], b2[32];

	fmt_sig(sf, 4, b1, sizeof b1);
	if (d > 0)
		ADD("runs          %d scored, %d failed: failed runs count as dropped slowest",
		    r->runs_scored, d);
	else if (r->runs_scored >= 0)
		ADD("runs          %d scored, 0 failed", r->runs_scored);
	ADD("average       drop %d fastest, %d slowest, mean x scaling factor %s = T", m, m, b1);
	if (r->run_n == 0) {
		ADD("  (no raw run times in the data)");
		*np = n;
		return;
	}
	ADD("  run       raw min   scaled min   (raw: unscaled)");
	for (unsigned i = 0; i < r->run_n; i++) {
		double v = app->ds->runs[r->run_off + i];
		bool dropped;
		const char *note = run_note(r, i, &dropped);
		ADD("  run %2u %10s %12s   %s", i + 1, fmt_fixed(v, 3, b1, sizeof b1),
		    fmt_fixed(v * sf, 3, b2, sizeof b2), note);
		if (mark && n > 0 && n <= max)
			mark[n - 1] = dropped; /* the dropped runs stand out */
	}
	*np = n;
}

/* The family whose predicted break-even the status line gives (see ui_state_fit_text). */
static const struct fam_fit *fit_shown(const struct app *app)
{
	const struct analysis *a = &app->a;
	const struct fit *f = NULL;
	long row = a->breakeven >= 0 ? (long)a->rows[a->breakeven].row
		   : a->ref >= 0 ? a->ref : a->n ? (long)a->rows[0].ref : -1;

	if (row >= 0)
		f = analysis_fit_of(app->ds, a, (size_t)row);
	for (size_t i = 0; i < a->nfits; i++)
		if (&a->fits[i].fit == f)
			return &a->fits[i];
	return a->nfits ? &a->fits[0] : NULL;
}

char *ui_state_fit_text(const struct app *app, bool brief, char *buf, size_t n)
{
	const struct fam_fit *ff = app->p.fit ? fit_shown(app) : NULL;
	const char *why;
	char b[32];
	double be;

	if (n)
		buf[0] = '\0';
	if (!app->p.fit)
		return buf;
	if (!ff) {
		snprintf(buf, n, ", fit -");
		return buf;
	}
	be = fit_breakeven(&ff->fit, app->p.theta, &why);
	if (isfinite(be) && brief)
		snprintf(buf, n, ", fit %s", fmt_sig(be, 3, b, sizeof b));
	else if (isfinite(be))
		snprintf(buf, n, ", fit N=%s (%s)", fmt_sig(be, 3, b, sizeof b), ff->family);
	else if (brief)
		snprintf(buf, n, ", fit -");
	else
		snprintf(buf, n, ", fit - (%s: %s)", ff->family,
			 fit_usable(&ff->fit) ? why : ff->fit.reason[0] ? ff->fit.reason : fit_state_name(ff->fit.state));
	return buf;
}

/* The detail's fit line: the row against its family's law. */
static void fit_line(const struct app *app, const struct arow *ar, char *buf, size_t n)
{
	const struct fit *f = analysis_fit_of(app->ds, &app->a, ar->row);
	char b1[32], b2[32], b3[32];

	if (!f)
		snprintf(buf, n, "-");
	else if (!fit_usable(f))
		snprintf(buf, n, "- (family %s: %s)", fit_state_name(f->state), f->reason);
	else
		snprintf(buf, n, "residual %+.4f on ln X (T %s min, law %s min), fitted E' %s%s",
			 ar->fit_resid, fmt_fixed(ar->T, 2, b1, sizeof b1),
			 fmt_fixed(fit_t(f, ar->N), 2, b2, sizeof b2), fmt_sig(ar->ep_fit, 4, b3, sizeof b3),
			 f->state == FIT_WEAK ? " (weak fit)" : "");
}

/* "64", or "none" for -1. */
static const char *n_text(long v, char *buf, size_t n)
{
	if (v < 0)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%ld", v);
	return buf;
}

static long row_n(const struct analysis *a, long i)
{
	return i < 0 ? -1 : (long)a->rows[i].N;
}

/* The break-even range and the reference sensitivity with its candidates. */
static void break_lines(const struct app *app, char (*lines)[UI_LINE], size_t max, size_t *np)
{
	const struct analysis *a = &app->a;
	bool *mark = NULL;
	size_t n = *np;
	char b1[32], b2[32], b3[32], b4[32];

	ADD("break-even    theta %s: N %s, firm..loose %s..%s (interval wholly above .. reaching)",
	    fmt_short(app->p.theta, b1, sizeof b1), n_text(row_n(a, a->breakeven), b2, sizeof b2),
	    n_text(row_n(a, a->be_firm), b3, sizeof b3), n_text(row_n(a, a->be_loose), b4, sizeof b4));
	if (a->ncand > 1) {
		ADD("sensitivity   N %s..%s with each of the %zu fewest-accelerator rows as reference%s",
		    n_text(a->sens_lo, b1, sizeof b1), n_text(a->sens_hi, b2, sizeof b2), a->ncand,
		    a->sens_lo != a->sens_hi ? ":" : "");
		for (size_t i = 0; i < a->ncand && i < 8 && a->sens_lo != a->sens_hi; i++) {
			const struct row *c = &app->ds->rows[a->cand[i].row];
			ADD("                %s/%s (%s min) -> N %s", c->submitter, c->system,
			    fmt_fixed(c->minutes, 2, b1, sizeof b1), n_text(a->cand[i].n, b2, sizeof b2));
		}
	}
	*np = n;
}

/* After the runs: the run-to-run interval, energy and cost, the break-even range and
 * sensitivity, and what makes a comparison suspect. */
static void more_lines(const struct app *app, const struct arow *ar, const struct row *r,
		       char (*lines)[UI_LINE], size_t max, size_t *np)
{
	bool *mark = NULL;
	size_t n = *np;
	char b1[32], b2[32], b3[32], b4[32];

	if (ar->ci_runs)
		ADD("interval      T %s .. %s min, E' %s .. %s (90%% bootstrap of %u runs)",
		    fmt_fixed(ar->t_ci_lo, 2, b1, sizeof b1), fmt_fixed(ar->t_ci_hi, 2, b2, sizeof b2),
		    fmt_sig(ar->ep_ci_lo, 3, b3, sizeof b3), fmt_sig(ar->ep_ci_hi, 3, b4, sizeof b4),
		    ar->ci_runs);
	else
		ADD("interval      - (fewer than 3 runs)");
	if (!isnan(ar->kwh))
		snprintf(b3, sizeof b3, "%s kWh%s%s", fmt_sig(ar->kwh, 4, b1, sizeof b1),
			 *r->power_measurement ? " " : "", r->power_measurement);
	else
		snprintf(b3, sizeof b3, "-");
	if (!isnan(ar->cost_lo))
		snprintf(b4, sizeof b4, "$%s..", fmt_sig(ar->cost_lo, 3, b1, sizeof b1));
	ADD("energy        %s%s%s%s   cost %s%s%s", b3,
	    isnan(ar->kwh) ? "" : ", ratio ",
	    isnan(ar->kwh) ? "" : isnan(ar->energy_ratio) ? "- " : fmt_sig(ar->energy_ratio, 3, b1, sizeof b1),
	    isnan(ar->kwh) || !isnan(ar->energy_ratio) ? "" : er_why_text(ar->er_why),
	    isnan(ar->cost_lo) ? "- (no price for " : b4,
	    isnan(ar->cost_lo) ? r->family : fmt_sig(ar->cost_hi, 3, b2, sizeof b2),
	    isnan(ar->cost_lo) ? ")" : " (A x on-demand price range)");
	*np = n;
	break_lines(app, lines, max, np);
	n = *np;
	if (ascii_casecmp(r->division, "open") == 0)
		ADD("open division: not bound by the closed rules, not like for like with closed rows");
	if (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH)
		ADD("%s: not yet buyable (v hides such rows)", row_avail(r));
	if (*r->collapsed_from)
		ADD("stands for    %s (identical runs, collapsed: d shows each)", r->collapsed_from);
	if (*r->carried_from)
		ADD("carried over  from %s (identical runs there)", r->carried_from);
	*np = n;
}

size_t ui_state_detail(const struct app *app, char (*lines)[UI_LINE], bool *mark, size_t max)
{
	const struct arow *ar;
	const struct row *r, *ref;
	char b1[32], b2[32], b3[32], b4[32];
	size_t n = 0;

	if (app->a.n == 0) {
		ADD("no row selected");
		return n;
	}
	ar = &app->a.rows[app->sel];
	r = ui_state_row(app, app->sel);
	ref = &app->ds->rows[ar->ref];
	ADD("system        %s", r->system);
	ADD("name          %s", r->system_name);
	ADD("submitter     %s", r->submitter);
	ADD("round         %s   benchmark %s (%s)", r->round, workload_label(r->benchmark), r->benchmark);
	ADD("division      %s   availability %s (published \"%s\")", r->division, row_avail(r),
	    r->availability);
	ADD("accelerator   %s", r->accelerator);
	ADD("family        %s (%s)", r->family, r->vendor);
	ADD("nodes x per   %lld x %lld = %lld accelerators%s", r->nodes, r->per_node, r->accelerators,
	    strstr(r->family, "TPU") ? " (TPU chips)" : "");
	ADD("framework     %s", r->framework);
	ADD("source        %s:%ld", r->file, r->line);
	ADD("%s", "");
	ADD("minutes T     %s    accelerator-hours A %s", fmt_fixed(ar->T, 2, b1, sizeof b1),
	    fmt_sig(ar->A, 4, b2, sizeof b2));
	ADD("reference     %s%s (N=%s, %s min)", ref->system, ar->is_ref ? " (this row)" : "",
	    fmt_count((double)ref->accelerators, b1, sizeof b1), fmt_fixed(ref->minutes, 2, b2, sizeof b2));
	ADD("speedup S     %s    E %s    E' %s%s", fmt_sig(ar->S, 4, b1, sizeof b1),
	    fmt_sig(ar->E, 4, b2, sizeof b2), fmt_sig(ar->Ep, 4, b3, sizeof b3),
	    ar->cross_family ? "  (mixes families: f or m compares within one)" : "");
	ADD("Karp-Flatt e  %s%s", isfinite(ar->kf) ? fmt_sig(ar->kf, 4, b1, sizeof b1) : "- ",
	    isfinite(ar->kf) ? "" : kf_why_text(ar->kf_why));
	ADD("spread T      %s .. %s min (scaled)", fmt_fixed(ar->t_lo, 2, b1, sizeof b1),
	    fmt_fixed(ar->t_hi, 2, b2, sizeof b2));
	ADD("spread S, E'  %s .. %s,  %s .. %s", fmt_sig(ar->s_lo, 4, b1, sizeof b1),
	    fmt_sig(ar->s_hi, 4, b2, sizeof b2), fmt_sig(ar->ep_lo, 4, b3, sizeof b3),
	    fmt_sig(ar->ep_hi, 4, b4, sizeof b4));
	ADD("cluster       %c    Pareto %s    %s", 'a' + ar->cluster, ar->pareto ? "yes" : "no",
	    app->a.breakeven == (long)app->sel ? "break-even row" : "");
	if (app->p.fit) {
		char fl[UI_LINE - 16];
		fit_line(app, ar, fl, sizeof fl);
		ADD("fit           %s", fl);
	}
	run_lines(app, r, lines, mark, max, &n);
	more_lines(app, ar, r, lines, max, &n);
	return n;
}

size_t ui_state_help(const struct app *app, char (*lines)[UI_LINE], bool *head)
{
	size_t n = 0, max = UI_MAX_HELP * 3;
	bool *mark = head;
	int keyw = 0;

	for (size_t i = 0; i < app->nhelp; i++) {
		int w = (int)strlen(app->help[i].keys);
		if (w > keyw)
			keyw = w;
	}
	for (size_t i = 0; i < app->nhelp; i++) {
		const struct ui_help_line *h = &app->help[i];
		if (i == 0 || h->ctx != app->help[i - 1].ctx) {
			if (i > 0)
				ADD("%s", "");
			ADD("%s", ui_keys_ctx_name(h->ctx));
			if (head)
				head[n - 1] = true; /* a section title */
		}
		ADD("  %-*s  %s", keyw, h->keys, h->help);
	}
	return n;
}

