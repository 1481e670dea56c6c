/* ui_undo.c: going back over the changes of the view (U), and the view as the command line that
 * shows it (:, and the export's plot header). A view is what a command line can say: round,
 * workload, filters, reference, k, theta, sort, plot metric, the table's columns, the planner's
 * query and the on/off choices of the analysis. The key dispatch takes a copy before each key
 * and keeps it when the key changed the view, so that every key that changes one, now or
 * later, is undone without a line of its own. What only moves about (selection, zoom,
 * overlays) and the row filter (Esc clears it) are not views. No curses here. */
#include "ui_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "text.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_num(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static bool same_query(const struct ui_view *a, const struct ui_view *b)
{
	const struct query *x = &a->q, *y = &b->q;

	return a->q_on == b->q_on &&
	       (!a->q_on || (same_num(x->deadline, y->deadline) && same_num(x->max_cost, y->max_cost) &&
			     same_num(x->max_acc_hours, y->max_acc_hours) && same_num(x->max_kwh, y->max_kwh) &&
			     x->minimize == y->minimize));
}

static bool same_list(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

/* Names the parts in which views a and b differ into buf ("theta, k"); "" when they are the same. */
static char *view_diff(const struct ui_view *a, const struct ui_view *b, char *buf, size_t n)
{
	const struct params *x = &a->p, *y = &b->p;
	const struct filter *f = &x->filter, *g = &y->filter;
	const struct {
		bool differs;
		const char *name;
	} parts[] = {
		{ !same_str(x->round, y->round), "round" },
		{ !same_str(x->workload, y->workload), "workload" },
		{ !same_list(a->fams, f->nfamilies, b->fams, g->nfamilies) ||
		  !same_list(f->vendors, f->nvendors, g->vendors, g->nvendors) ||
		  !same_list(f->availability, f->navailability, g->availability, g->navailability) ||
		  !same_list(f->divisions, f->ndivisions, g->divisions, g->ndivisions) ||
		  x->available_only != y->available_only, "filter" },
		{ x->mode != y->mode || (x->mode == REF_PINNED && !same_str(x->pinned, y->pinned)), "reference" },
		{ x->ref_rule != y->ref_rule, "reference rule" },
		{ x->k != y->k, "k" },
		{ x->feats != y->feats, "cluster features" },
		{ x->theta != y->theta, "theta" },
		{ x->sort != y->sort || x->desc != y->desc, "sort" },
		{ x->collapse != y->collapse, "collapse" },
		{ x->all_rounds != y->all_rounds, "cross-round view" },
		{ x->pareto_cost != y->pareto_cost, "Pareto axis" },
		{ x->fit != y->fit, "fit" },
		{ a->ymet != b->ymet, "plot metric" },
		{ a->log_y != b->log_y, "log y" },
		{ memcmp(a->cols, b->cols, sizeof a->cols) != 0, "columns" },
		{ !same_query(a, b), "query" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof parts / sizeof parts[0] && len < n; i++)
		if (parts[i].differs)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", parts[i].name);
	return buf;
}

bool ui_undo_take(const struct app *app, struct ui_view *v)
{
	size_t nf = app->p.filter.nfamilies;
	const struct query *q;

	v->p = app->p;
	v->ymet = app->scr.ymet;
	v->log_y = app->scr.log_y;
	v->pin_keep = app->pin_keep;
	memcpy(v->cols, app->scr.cols_want, sizeof v->cols);
	q = ui_plan_query(app);
	v->q_on = q != NULL;
	if (q)
		v->q = *q;
	else
		query_init(&v->q);
	v->fams = malloc((nf ? nf : 1) * sizeof *v->fams);
	if (!v->fams)
		return false;
	if (nf)
		memcpy(v->fams, app->p.filter.families, nf * sizeof *v->fams);
	v->p.filter.families = v->fams;
	return true;
}

static void view_free(struct ui_view *v)
{
	free(v->fams);
	v->fams = NULL;
}

void ui_undo_note(struct app *app, struct ui_view *before)
{
	struct ui_view now;
	char what[200];

	if (!ui_undo_take(app, &now)) {
		view_free(before);
		return;
	}
	view_diff(before, &now, what, sizeof what);
	view_free(&now);
	if (!what[0]) {
		view_free(before);
		return;
	}
	/* a full ring forgets its oldest level */
	if (app->hist.nundo == UI_UNDO_MAX)
		view_free(&app->hist.undo[app->hist.undo_top % UI_UNDO_MAX]);
	else
		app->hist.nundo++;
	app->hist.undo[app->hist.undo_top % UI_UNDO_MAX] = *before;
	app->hist.undo_top = (app->hist.undo_top + 1) % UI_UNDO_MAX;
}

void ui_undo_free(struct app *app)
{
	for (size_t i = 0; i < UI_UNDO_MAX; i++)
		view_free(&app->hist.undo[i]);
	app->hist.nundo = app->hist.undo_top = 0;
}

/* Makes v app's view: its round and workload through the state's own setters (they keep the
 * lists of workloads right), the query through the planner's, the rest as it was. */
static void view_put(struct app *app, struct ui_view *v)
{
	size_t i, nf = v->p.filter.nfamilies;
	const char **fams = app->menu.famsel;

	if (!same_str(v->p.round, app->p.round)) {
		i = name_find(app->rounds, app->nrounds, v->p.round ? v->p.round : "", true);
		if (i < app->nrounds)
			ui_state_set_round(app, i);
	}
	for (i = 0; i < app->nworks && !same_str(app->works[i], v->p.workload); i++)
		;
	if (i < app->nworks)
		ui_state_set_workload(app, i);
	if (ui_plan_query_set(app, v->q_on ? &v->q : NULL) < 0) {
		ui_state_msg(app, true, "out of memory: nothing undone");
		return;
	}
	if (nf > app->menu.famsel_cap) {
		fams = realloc(app->menu.famsel, nf * sizeof *fams);
		if (!fams) {
			ui_state_msg(app, true, "out of memory: nothing undone");
			return;
		}
		app->menu.famsel = fams;
		app->menu.famsel_cap = nf;
	}
	if (nf)
		memcpy(fams, v->fams, nf * sizeof *fams);
	app->p = v->p;
	app->p.round = app->nrounds ? app->rounds[app->round_i] : v->p.round;
	app->p.workload = app->nworks ? app->works[app->work_i] : v->p.workload;
	app->p.filter.families = fams;
	app->scr.ymet = v->ymet;
	app->scr.log_y = v->log_y;
	app->pin_keep = v->pin_keep;
	memcpy(app->scr.cols_want, v->cols, sizeof v->cols);
}

unsigned ui_undo_act(struct app *app, struct ui_press in)
{
	struct ui_view now, *v;
	char what[200];

	(void)in;
	if (app->hist.nundo == 0) {
		ui_state_msg(app, false, "nothing to undo (U goes back over the last %d view changes)", UI_UNDO_MAX);
		return UI_REDRAW;
	}
	app->hist.undo_top = (app->hist.undo_top + UI_UNDO_MAX - 1) % UI_UNDO_MAX;
	app->hist.nundo--;
	v = &app->hist.undo[app->hist.undo_top];
	if (ui_undo_take(app, &now)) {
		view_diff(v, &now, what, sizeof what);
		view_free(&now);
	} else {
		snprintf(what, sizeof what, "the last change");
	}
	view_put(app, v);
	view_free(v);
	ui_state_msg(app, false, "undone: %s (%zu more to undo)", what, app->hist.nundo);
	return UI_RECOMPUTE;
}

char *ui_undo_cmdline(const struct app *app)
{
	const struct cmdline_view v = { &app->p, app->scr.ymet, app->scr.log_y, app->hist.files, app->hist.nfiles,
					app->hist.families_path, app->hist.prices_path, app->scr.cols_want,
					ui_plan_query(app) };
	/* a cut line would run another view: it is made as long as it needs */
	size_t n = cmdline_format(&v, NULL, 0) + 1;
	char *buf = malloc(n);

	if (buf)
		cmdline_format(&v, buf, n);
	return buf;
}

/* Appends a line break and note to buf (n bytes, len used), cut at blanks into lines of at most
 * width bytes (a longer word stays whole); returns the length used. */
static size_t put_note(char *buf, size_t n, size_t len, const char *note, size_t width)
{
	while (*note && len + 1 < n) {
		size_t take = strlen(note);
		if (take > width) {
			for (take = width; take > 0 && note[take] != ' '; take--)
				;
			if (take == 0)
				take = strcspn(note, " ");
		}
		int w = snprintf(buf + len, n - len, "\n%.*s", (int)take, note);
		len = w < 0 || (size_t)w >= n - len ? n - 1 : len + (size_t)w;
		for (note += take; *note == ' '; note++)
			;
	}
	return len;
}

char *ui_undo_cmdline_text(const struct app *app, size_t *nlines)
{
	int width = app->scr.lay.cols - 8 > 20 ? app->scr.lay.cols - 8 : 20;
	char *line = ui_undo_cmdline(app), *wrapped = line ? cmdline_wrap(line, width) : NULL;
	char notes[UI_LINE * 4], filt[UI_SEARCH_MAX + 64];
	size_t len;
	char *text = NULL;

	*nlines = 0;
	free(line);
	if (!wrapped)
		return NULL;
	/* with a query the line reports its answer, as --print query does, and opens no explorer */
	strcpy(notes, "\n"); /* a blank line after the command */
	len = put_note(notes, sizeof notes, 1, ui_plan_query(app)
		       ? "it prints the query's answer (--print query); add --print summary for the report of this view too"
		       : "add --print summary: the report of this view", (size_t)width);
	if (app->rowfilt[0]) {
		snprintf(filt, sizeof filt, "not in it: the row filter \"%s\" (no option)", app->rowfilt);
		put_note(notes, sizeof notes, len, filt, (size_t)width);
	}
	if ((text = malloc(strlen(wrapped) + strlen(notes) + 1)) != NULL) {
		strcpy(text, wrapped);
		strcat(text, notes);
		*nlines = 1;
		for (const char *c = text; *c; c++)
			*nlines += *c == '\n';
	}
	free(wrapped);
	return text;
}

unsigned ui_undo_cmdline_act(struct app *app, struct ui_press in)
{
	(void)in;
	app->menu.ov = OV_CMDLINE;
	app->menu.ov_scroll = 0;
	return UI_REDRAW;
}
