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
 * The table is laid out by table.c's one planner (the screen policy): names are cut before N,
 * min, E' and A go, and a wider table never gives them less room. Between UI_WIDE_COLS and
 * UI_HALF_COLS plot and table sit side by side only once the table beside the plot still fits
 * every column at full width; from UI_HALF_COLS on the plot gets half the width. */
#include "ui_app.h"

#include <string.h>

#include "table.h"

bool ui_layout_col_possible(const struct app *app, int c)
{
	return (unsigned)c < TC_COUNT && app->tv.need[c] > 0;
}

/* The explorer's table policy: the sort column always shows, the columns chosen with C. */
static struct table_opts screen_opts(const struct app *app)
{
	struct table_opts o = { TABLE_SCREEN, 1, -1, app->scr.cols_want };

	for (int c = 0; c < TC_COUNT; c++)
		if (table_cols[c]->sort >= 0 && table_cols[c]->sort == (int)app->p.sort)
			o.force = c;
	return o;
}

int ui_layout_table_plan(const struct app *app, int width, bool *on, int *w)
{
	struct table_opts o = screen_opts(app);

	if (width <= 0) {
		for (int c = 0; c < TC_COUNT; c++)
			on[c] = false, w[c] = 0;
		return 0;
	}
	return table_plan(&app->tv, &o, width, on, w);
}

bool ui_layout_col_shown(const struct app *app, int sort_col)
{
	bool on[TC_COUNT];
	int w[TC_COUNT];

	if (app->scr.lay.too_small || app->scr.lay.table.h == 0)
		return false;
	ui_layout_table_plan(app, app->scr.lay.table.w, on, w);
	for (int c = 0; c < TC_COUNT; c++)
		if (on[c] && table_cols[c]->sort == sort_col)
			return true;
	return false;
}

int ui_layout_col_at(const struct app *app, int x)
{
	bool on[TC_COUNT];
	int w[TC_COUNT], cx = app->scr.lay.table.x;

	ui_layout_table_plan(app, app->scr.lay.table.w, on, w);
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

/* Plot height of the stacked split: at 80x24 the table keeps its heading and six rows and the
 * plot gets the rest; taller terminals give two of every three rows past 24 to the table. */
static int split_plot_h(int body_h)
{
	int table_h = 6;

	if (body_h > 19)
		table_h += (body_h - 19) * 2 / 3;
	if (table_h < 7)
		table_h = 7;
	if (body_h - table_h < PLOT_MIN_H)
		table_h = body_h - PLOT_MIN_H;
	if (table_h < 2)
		table_h = 2;
	return body_h - table_h;
}

void ui_layout_compute(struct app *app, int rows, int cols)
{
	struct ui_layout *l = &app->scr.lay;
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
	if (app->scr.zoom == ZOOM_PLOT) {
		l->plot = rect(1, 0, body_h < PLOT_MAX_H ? body_h : PLOT_MAX_H, cols < PLOT_MAX_W ? cols : PLOT_MAX_W);
		l->table = rect(1 + body_h, 0, 0, cols);
		l->table_rows = 0;
		return;
	}
	if (app->scr.zoom == ZOOM_TABLE) {
		l->plot = rect(1, 0, 0, 0);
		l->table = rect(1, 0, body_h, cols);
		l->table_rows = l->table.h - 1;
		return;
	}
	{
		struct table_opts o = screen_opts(app);
		full = table_full_width(&app->tv, &o);
	}
	l->wide = cols >= UI_HALF_COLS || (cols >= UI_WIDE_COLS && cols - 1 - full >= UI_WIDE_PLOT);
	if (l->wide) {
		int pw = cols - 1 - full;
		/* past 45% for the plot, the table takes the rest; from UI_HALF_COLS on, the plot
		 * takes half whatever the table loses (its names are cut first) */
		if (pw > cols * 45 / 100 && cols * 45 / 100 >= UI_WIDE_PLOT)
			pw = cols * 45 / 100;
		if (cols >= UI_HALF_COLS)
			pw = (cols + 1) / 2;
		if (pw > PLOT_MAX_W)
			pw = PLOT_MAX_W;
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
