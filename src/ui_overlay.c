/* ui_overlay.c: the overlays painted over the screen (help, detail, the family menu and column
 * chooser, the view's command line, the break-even trend): boxes of lines from the state's
 * text, drawn with ui_draw.c's primitives. Nothing here changes the model. */
#include "ui_draw_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first content line an overlay of n lines shows in box. app->menu.ov_scroll is only clamped by
 * the scroll keys, and the box can change under it without one (the terminal is resized), so it
 * is clamped here too. */
static int overlay_top(const struct app *app, const struct ui_rect *box, int n)
{
	int top = app->menu.ov_scroll, max = n - (box->h - 2);

	if (top > max)
		top = max;
	return top < 0 ? 0 : top;
}

/* The bottom border of a scrolling overlay: the keys on the left, "-- more (18/66) --" (last
 * line shown / lines) on the right while lines remain below, "-- end (66/66) --" at the end. */
static void overlay_foot(const struct app *app, const struct ui_rect *box, const char *keys, int n,
			 int top)
{
	char pos[48];
	int vis = box->h - 2, last = top + vis, pw;

	if (n <= vis)
		return;
	if (last > n)
		last = n;
	snprintf(pos, sizeof pos, last < n ? " -- more (%d/%d) -- " : " -- end (%d/%d) -- ", last, n);
	pw = (int)strlen(pos);
	if (pw > box->w - 2)
		return;
	draw_text(app, box->y + box->h - 1, box->x + box->w - 1 - pw, pw, pos, draw_role(R_HEAD));
	if (ui_text_width(keys, app->scr.utf8) <= box->w - 4 - pw)
		draw_text(app, box->y + box->h - 1, box->x + 2, box->w - 4 - pw, keys, draw_role(R_BORDER));
}

/* An overlay of n lines, scrolled, titled, with its keys at the foot; marked lines (mark may
 * be NULL) stand out (help: section titles; detail: dropped runs). */
static void draw_rows(const struct app *app, const char *title, const char *keys,
		      const char *const *lines, const bool *mark, int n)
{
	struct ui_rect box;
	int w = 0, top;

	for (int i = 0; i < n; i++) {
		int tw = ui_text_width(lines[i], app->scr.utf8);
		if (tw > w)
			w = tw;
	}
	box = ui_layout_overlay(&app->scr.lay, n, w);
	draw_box(&box, NULL, n > box.h - 2 ? NULL : keys, app);
	draw_clip(app, box.y, box.x + 2, box.w - 4, title, draw_role(R_TITLE));
	top = overlay_top(app, &box, n);
	overlay_foot(app, &box, keys, n, top);
	for (int y = 0; y < box.h - 2 && y + top < n; y++)
		draw_clip(app, box.y + 1 + y, box.x + 2, box.w - 4, lines[y + top],
			 draw_role(mark && mark[y + top] ? R_HEAD : R_NORMAL));
}

/* draw_rows over lines of the state's fixed width (n at most UI_HELP_LINES). */
static void draw_lines(const struct app *app, const char *title, const char *keys,
		       char (*lines)[UI_LINE], const bool *mark, int n)
{
	static const char *rows[UI_HELP_LINES];

	for (int i = 0; i < n && i < UI_HELP_LINES; i++)
		rows[i] = lines[i];
	draw_rows(app, title, keys, rows, mark, n < UI_HELP_LINES ? n : UI_HELP_LINES);
}

static void draw_help(const struct app *app)
{
	static char lines[UI_HELP_LINES][UI_LINE];
	static bool head[UI_HELP_LINES];
	int n = (int)ui_state_help(app, lines, head);

	draw_lines(app, " keys, then what you see ", " q/Esc close, j/k/Space scroll ", lines, head, n);
}

static void draw_detail(const struct app *app)
{
	char lines[UI_MAX_DETAIL][UI_LINE];
	bool dropped[UI_MAX_DETAIL];
	int n = (int)ui_state_detail_wrapped(app, lines, dropped, UI_MAX_DETAIL);
	char title[UI_LINE];

	snprintf(title, sizeof title, " detail: %s ", app->nvis ? ui_state_row(app, app->sel)->system : "-");
	draw_lines(app, title, " q/Esc/Enter close, j/k scroll ", lines, dropped, n);
}

/* The command line: as many lines as it needs, each as long as it needs (it scrolls). */
static void draw_cmdline(const struct app *app)
{
	static const char *const oom[] = { "out of memory for the command line" };
	const char *title = " this view as a command line ", *keys = " q/Esc/Enter close, j/k scroll ";
	size_t n;
	char *text = ui_undo_cmdline_text(app, &n), *c;
	const char **rows = text ? malloc(n * sizeof *rows) : NULL;

	if (!rows) {
		draw_rows(app, title, keys, oom, NULL, 1);
		free(text);
		return;
	}
	rows[0] = c = text;
	for (size_t i = 1; i < n; i++) {
		c = strchr(c, '\n');
		*c++ = '\0';
		rows[i] = c;
	}
	draw_rows(app, title, keys, rows, NULL, (int)n);
	free(rows);
	free(text);
}

static void draw_menu(const struct app *app)
{
	struct ui_rect box;
	int namew = 12, vis, top = 0;
	char buf[UI_LINE];

	for (size_t i = 0; i < app->menu.nfam; i++) {
		int w = ui_text_width(app->menu.fam[i].name, app->scr.utf8);
		if (w > namew)
			namew = w;
	}
	if (namew > 40)
		namew = 40;
	box = ui_layout_overlay(&app->scr.lay, app->menu.nfam ? (int)app->menu.nfam : 1,
				namew + 12 > 38 ? namew + 12 : 38);
	if (app->menu.fam_find[0])
		snprintf(buf, sizeof buf, " %s: \"%s\" ", app->menu.cols ? "columns" : "family filter", app->menu.fam_find);
	else
		snprintf(buf, sizeof buf, " %s (%zu, type to find) ", app->menu.cols ? "table columns" : "family filter",
			 app->menu.nfam);
	draw_box(&box, buf, " Space check, Enter apply, Esc cancel ", app);
	vis = box.h - 2;
	/* long lists scroll: the cursor's entry is always in the box */
	if ((int)app->menu.fam_cur >= vis)
		top = (int)app->menu.fam_cur - vis + 1;
	overlay_foot(app, &box, " Space check, Enter apply, Esc cancel ", (int)app->menu.nfam, top);
	if (app->menu.nfam == 0)
		draw_text(app, box.y + 1, box.x + 2, box.w - 4, "(no rows in this workload)",
			 draw_role(R_NORMAL));
	for (int y = 0; y < vis && (size_t)(top + y) < app->menu.nfam; y++) {
		const struct ui_famitem *f = &app->menu.fam[top + y];
		bool cur = (size_t)(top + y) == app->menu.fam_cur;
		attr_t at = draw_role(cur ? R_SEL : R_NORMAL);
		int x = box.x + 2;
		draw_fill(box.y + 1 + y, box.x + 1, box.w - 2, at);
		x += draw_text(app, box.y + 1 + y, x, box.w - 4, f->on ? "[x] " : "[ ] ", at);
		draw_cell(app, box.y + 1 + y, x, namew, f->name, false, at);
		/* a column's heading, a family's row count */
		if (app->menu.cols)
			snprintf(buf, sizeof buf, "%6s", table_cols[f->count % TC_COUNT]->head);
		else
			snprintf(buf, sizeof buf, "%5zu", f->count);
		draw_text(app, box.y + 1 + y, x + namew + 1, box.x + box.w - 2 - (x + namew + 1), buf, at);
	}
}

/* The trend: draw_lines' box, the cursor's cell in the selection's colours. */
static void draw_trend(const struct app *app)
{
	static char lines[UI_MAX_DETAIL][UI_LINE];
	bool head[UI_MAX_DETAIL] = { true };
	int hl, hx, hw, n = (int)ui_plan_trend_lines(app, lines, UI_MAX_DETAIL, &hl, &hx, &hw), w = 0;
	char title[UI_LINE];

	draw_lines(app, ui_plan_trend_title(app, title, sizeof title),
		   " arrows, PgUp/PgDn, Home/End move, Enter opens, q/Esc close ", lines, head, n);
	for (int i = 0; i < n; i++)
		w = ui_text_width(lines[i], app->scr.utf8) > w ? ui_text_width(lines[i], app->scr.utf8) : w;
	struct ui_rect box = ui_layout_overlay(&app->scr.lay, n, w);
	int top = overlay_top(app, &box, n);
	if (hl >= top && hl - top < box.h - 2 && hx + hw <= box.w - 4)
		draw_text(app, box.y + 1 + hl - top, box.x + 2 + hx, hw, lines[hl] + hx, draw_role(R_SEL));
}

void ui_overlay_draw(const struct app *app)
{
	switch (app->menu.ov) {
	case OV_HELP: draw_help(app); break;
	case OV_DETAIL: draw_detail(app); break;
	case OV_MENU: draw_menu(app); break;
	case OV_CMDLINE: draw_cmdline(app); break;
	case OV_TREND: draw_trend(app); break;
	case OV_SEARCH: case OV_PROMPT: case OV_NONE: break;
	}
}
