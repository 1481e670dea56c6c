/* ui_layout.c: where each pane goes for a terminal size. Pure arithmetic, recomputed on every
 * frame, so a KEY_RESIZE needs nothing more than a redraw.
 *
 *   row 0          header: round and workload tabs
 *   rows 1..H      body: plot and table, side by side (wide) or stacked (narrow); z shows
 *                  one of them alone
 *   row  rows-4    cluster summary
 *   rows rows-3/2  status bar (two lines, so 80 columns hold every field)
 *   row  rows-1    messages and prompts, on a line of their own
 *
 * Names never get less room on a wider terminal: the table gives the system column its whole
 * width (or all the room the columns that always show leave) before any optional column, and
 * plot and table sit side by side only once the table beside the plot still fits every
 * column at full width. */
#include "ui_app.h"

#include <string.h>

#include "table.h"

/* A column is never narrower than its heading plus " v", so sorting by it neither cuts the
 * heading nor moves the other columns, and the arrow stands apart from the name. */
static int col_width(int c)
{
	int w = table_cols[c]->w, hw = (int)strlen(table_cols[c]->head) + 2;
	return w > hw ? w : hw;
}

/* Columns that always show (the rank, N, minutes, E' and the system), in the order of
 * table_fit's priorities: every column from this priority up. */
#define PRIO_ALWAYS 75
/* The system column's room before the optional columns: at least this many columns. */
#define UI_NAME_MIN 24

/* Width of the columns of on[] at widths w[], one blank between two. */
static int total_of(const bool *on, const int *w)
{
	int t = 0, n = 0;

	for (int c = 0; c < TC_COUNT; c++)
		if (on[c]) {
			t += w[c];
			n++;
		}
	return n ? t + n - 1 : 0;
}

static void grow(int *w, int want, int *add)
{
	int g = want < *add ? want : *add;
	if (g > 0) {
		*w += g;
		*add -= g;
	}
}

bool ui_layout_col_possible(const struct app *app, int c)
{
	return c == TC_ROUND ? app->p.all_rounds : c == TC_KWH ? app->has_kwh : c == TC_COST ? app->has_cost : true;
}

/* The table's width with every column on and every name whole; the registry's extras (energy
 * and cost, mostly blank, and trainings per hour, which min gives) are left out, so that they
 * never stop the plot and the table from sharing a wide screen (they show there when room is
 * left). */
static int table_full(const struct app *app)
{
	bool on[TC_COUNT];
	int w[TC_COUNT];

	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = ui_layout_col_possible(app, c) && !table_cols[c]->extra;
		w[c] = col_width(c);
	}
	if (app->w_sys > w[TC_SYS])
		w[TC_SYS] = app->w_sys;
	if (app->w_fam > w[TC_FAM])
		w[TC_FAM] = app->w_fam;
	if (app->w_sub > w[TC_SUB])
		w[TC_SUB] = app->w_sub;
	return total_of(on, w);
}

/* Turns on the columns off in on[] (the extras, or all but them), most important first, each
 * while it fits whole in *add columns. */
static void add_cols(const struct app *app, bool *on, const int *w, bool extra, int *add)
{
	for (;;) {
		int best = -1;
		for (int c = 0; c < TC_COUNT; c++)
			if (!on[c] && ui_layout_col_possible(app, c) && table_cols[c]->extra == extra &&
			    w[c] + 1 <= *add && (best < 0 || table_cols[c]->prio > table_cols[best]->prio))
				best = c;
		if (best < 0)
			return;
		on[best] = true;
		*add -= w[best] + 1;
	}
}

int ui_layout_table_plan(const struct app *app, int width, bool *on, int *w)
{
	int sys_need = app->w_sys, add, total;

	for (int c = 0; c < TC_COUNT; c++) {
		w[c] = col_width(c);
		on[c] = ui_layout_col_possible(app, c) &&
			(table_cols[c]->prio >= PRIO_ALWAYS || table_cols[c]->sort == (int)app->p.sort);
	}
	/* the system name first: all it needs, up to 24 columns or 40% of the width, whichever is
	 * more, or whole once everything fits (each of these grows with the width, so the name's
	 * room never shrinks) */
	if (sys_need > UI_NAME_MIN && sys_need > width * 2 / 5 && width < table_full(app))
		sys_need = UI_NAME_MIN > width * 2 / 5 ? UI_NAME_MIN : width * 2 / 5;
	if (sys_need < table_cols[TC_SYS]->w)
		sys_need = table_cols[TC_SYS]->w;
	add = width - total_of(on, w);
	grow(&w[TC_SYS], sys_need - w[TC_SYS], &add);
	/* then the other columns, most important first, each while it fits whole */
	add_cols(app, on, w, false, &add);
	/* the room left widens families and submitters to their longest name (not the system
	 * names: what is left over shrinks when a column comes in, and names must not); the
	 * registry's extras take what is left after that */
	if (on[TC_FAM])
		grow(&w[TC_FAM], app->w_fam - w[TC_FAM], &add);
	if (on[TC_SUB])
		grow(&w[TC_SUB], app->w_sub - w[TC_SUB], &add);
	add_cols(app, on, w, true, &add);
	total = total_of(on, w);
	if (total > width && w[TC_SYS] > 1) {
		/* narrower than the always-shown columns: the name gives way, down to one cell */
		w[TC_SYS] -= total - width < w[TC_SYS] - 1 ? total - width : w[TC_SYS] - 1;
		total = total_of(on, w);
	}
	return total;
}

bool ui_layout_col_shown(const struct app *app, int sort_col)
{
	bool on[TC_COUNT];
	int w[TC_COUNT];

	if (app->lay.too_small || app->lay.table.h == 0)
		return false;
	ui_layout_table_plan(app, app->lay.table.w, on, w);
	for (int c = 0; c < TC_COUNT; c++)
		if (on[c] && table_cols[c]->sort == sort_col)
			return true;
	return false;
}

int ui_layout_col_at(const struct app *app, int x)
{
	bool on[TC_COUNT];
	int w[TC_COUNT], cx = app->lay.table.x;

	ui_layout_table_plan(app, app->lay.table.w, on, w);
	for (int c = 0; c < TC_COUNT; c++) {
		if (!on[c])
			continue;
		if (x >= cx && x < cx + w[c] + 1)
			return c;
		cx += w[c] + 1;
	}
	return -1;
}

static struct ui_rect rect(int y, int x, int h, int w)
{
	struct ui_rect r = { y, x, h > 0 ? h : 0, w > 0 ? w : 0 };
	return r;
}

/* Plot height of the stacked split: at 80x24 the table keeps its heading and five rows and the
 * plot gets the rest; taller terminals give two of every three more rows to the table. */
static int split_plot_h(int body_h)
{
	int table_h = 6;

	if (body_h > 19)
		table_h += (body_h - 19) * 2 / 3;
	if (body_h - table_h < PLOT_MIN_H)
		table_h = body_h - PLOT_MIN_H;
	if (table_h < 2)
		table_h = 2;
	return body_h - table_h;
}

void ui_layout_compute(struct app *app, int rows, int cols)
{
	struct ui_layout *l = &app->lay;
	int body_h, full;

	memset(l, 0, sizeof *l);
	l->rows = rows;
	l->cols = cols;
	l->too_small = rows < UI_MIN_ROWS || cols < UI_MIN_COLS;
	if (l->too_small)
		return;
	l->header = rect(0, 0, 1, cols);
	l->clusters = rect(rows - 4, 0, 1, cols);
	l->status1 = rect(rows - 3, 0, 1, cols);
	l->status2 = rect(rows - 2, 0, 1, cols);
	l->msg = rect(rows - 1, 0, 1, cols);
	body_h = rows - 5;
	if (app->zoom == ZOOM_PLOT) {
		l->plot = rect(1, 0, body_h < PLOT_MAX_H ? body_h : PLOT_MAX_H, cols < PLOT_MAX_W ? cols : PLOT_MAX_W);
		l->table = rect(1 + body_h, 0, 0, cols);
		l->table_rows = 0;
		return;
	}
	if (app->zoom == ZOOM_TABLE) {
		l->plot = rect(1, 0, 0, 0);
		l->table = rect(1, 0, body_h, cols);
		l->table_rows = l->table.h - 1;
		return;
	}
	full = table_full(app);
	l->wide = cols >= UI_WIDE_COLS && cols - 1 - full >= UI_WIDE_PLOT;
	if (l->wide) {
		int pw = cols - 1 - full;
		if (pw > PLOT_MAX_W)
			pw = PLOT_MAX_W;
		/* past 45% for the plot, the table takes the rest */
		if (pw > cols * 45 / 100 && cols * 45 / 100 >= UI_WIDE_PLOT)
			pw = cols * 45 / 100;
		l->plot_title = rect(1, 0, 1, pw);
		l->plot = rect(2, 0, body_h - 1 < PLOT_MAX_H ? body_h - 1 : PLOT_MAX_H, pw);
		l->table = rect(1, pw + 1, body_h, cols - pw - 1);
	} else {
		int ph = split_plot_h(body_h);
		if (ph > PLOT_MAX_H)
			ph = PLOT_MAX_H;
		l->plot = rect(1, 0, ph, cols < PLOT_MAX_W ? cols : PLOT_MAX_W);
		l->table = rect(1 + ph, 0, body_h - ph, cols);
	}
	l->table_rows = l->table.h - 1;
}

static bool inside(const struct ui_rect *r, int y, int x)
{
	return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

int ui_layout_pane_at(const struct ui_layout *l, int y, int x)
{
	if (l->too_small)
		return 0;
	if (inside(&l->plot, y, x))
		return 1;
	if (inside(&l->table, y, x))
		return y > l->table.y ? 2 : 4;
	if (inside(&l->header, y, x))
		return 3;
	return 0;
}

/* Overlays stay inside the body (below the tabs, above the cluster line), so the status bar
 * stays readable under them. */
struct ui_rect ui_layout_overlay(const struct ui_layout *l, int content_h, int content_w)
{
	int h = content_h + 2, w = content_w + 4, body = l->rows - 5;

	if (h > body)
		h = body;
	if (w > l->cols - 2)
		w = l->cols - 2;
	if (h < 3)
		h = 3;
	if (w < 10)
		w = 10;
	return rect(1 + (body - h) / 2, (l->cols - w) / 2, h, w);
}
