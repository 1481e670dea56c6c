/* ui_layout.c: where each pane goes for a terminal size. Pure arithmetic, recomputed on every
 * frame, so a KEY_RESIZE needs nothing more than a redraw.
 *
 *   row 0          header: round and workload tabs
 *   rows 1..H      body: plot and table, side by side (wide) or stacked (narrow)
 *   row  rows-3    cluster summary
 *   rows rows-2/1  status bar (two lines, so 80 columns hold every field)
 */
#include "ui_app.h"

#include <string.h>

#include "table.h"

/* A column is never narrower than its heading plus the sort arrow, so sorting by it neither
 * cuts the heading ("c~") nor moves the other columns. */
static int col_width(int c)
{
	int w = table_cols[c].w, hw = (int)strlen(table_cols[c].head) + 1;
	return w > hw ? w : hw;
}

int ui_layout_table_cols(int width, bool *on, int *w)
{
	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = true;
		w[c] = col_width(c);
	}
	return table_fit(width, 1, w, on);
}

bool ui_layout_col_shown(const struct ui_layout *l, int sort_col)
{
	bool on[TC_COUNT];
	int w[TC_COUNT];

	if (l->too_small)
		return false;
	ui_layout_table_cols(l->table.w, on, w);
	for (int c = 0; c < TC_COUNT; c++)
		if (on[c] && table_cols[c].sort == sort_col)
			return true;
	return false;
}

static struct ui_rect rect(int y, int x, int h, int w)
{
	struct ui_rect r = { y, x, h > 0 ? h : 0, w > 0 ? w : 0 };
	return r;
}

void ui_layout_compute(struct app *app, int rows, int cols)
{
	struct ui_layout *l = &app->lay;
	int body_h;

	memset(l, 0, sizeof *l);
	l->rows = rows;
	l->cols = cols;
	l->too_small = rows < UI_MIN_ROWS || cols < UI_MIN_COLS;
	if (l->too_small)
		return;
	l->header = rect(0, 0, 1, cols);
	l->clusters = rect(rows - 3, 0, 1, cols);
	l->status1 = rect(rows - 2, 0, 1, cols);
	l->status2 = rect(rows - 1, 0, 1, cols);
	body_h = rows - 4;
	l->wide = cols >= UI_WIDE_COLS;
	if (l->wide) {
		/* the plot takes 45%, but the table never shows fewer columns than it does stacked
		 * at 80 columns (at 120 the plot gets 46) */
		bool on[TC_COUNT];
		int w[TC_COUNT], need = ui_layout_table_cols(80, on, w);
		int pw = cols * 45 / 100;
		if (cols - pw - 1 < need)
			pw = cols - 1 - need;
		if (pw < 40)
			pw = 40;
		if (pw > PLOT_MAX_W)
			pw = PLOT_MAX_W;
		l->plot_title = rect(1, 0, 1, pw);
		l->plot = rect(2, 0, body_h - 1 < PLOT_MAX_H ? body_h - 1 : PLOT_MAX_H, pw);
		l->table = rect(1, pw + 1, body_h, cols - pw - 1);
	} else {
		int ph = body_h * 9 / 20;
		if (ph < 8)
			ph = 8;
		if (body_h - ph < 4)
			ph = body_h - 4;
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
	if (inside(&l->table, y, x) && y > l->table.y)
		return 2;
	if (inside(&l->header, y, x))
		return 3;
	return 0;
}

/* Overlays stay inside the body (below the tabs, above the cluster line), so the status bar
 * stays readable under them. */
struct ui_rect ui_layout_overlay(const struct ui_layout *l, int content_h, int content_w)
{
	int h = content_h + 2, w = content_w + 4, body = l->rows - 4;

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
