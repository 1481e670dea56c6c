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
		/* half each: at 120 columns the table then keeps its cluster and Pareto columns */
		int pw = cols / 2 < PLOT_MAX_W ? cols / 2 : PLOT_MAX_W;
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

struct ui_rect ui_layout_overlay(const struct ui_layout *l, int content_h, int content_w)
{
	int h = content_h + 2, w = content_w + 4;

	if (h > l->rows - 2)
		h = l->rows - 2;
	if (w > l->cols - 2)
		w = l->cols - 2;
	if (h < 3)
		h = 3;
	if (w < 10)
		w = 10;
	return rect((l->rows - h) / 2, (l->cols - w) / 2, h, w);
}
