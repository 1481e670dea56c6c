/* ui_keys.c: the one key table. Each entry is {key, action, argument, context, help}: dispatch
 * walks it, and the help overlay is generated from it (ui_keys_help.c), so the help cannot
 * drift from the keys.
 * The mouse's click and wheel are entries too (pointer codes that the event loop hands in).
 * Actions change the state and return UI_* flags; they never draw. What is typed into a
 * prompt is handled in ui_prompt.c, whose actions the table names too. */
#include "ui_app.h"
#include "ui_keys_impl.h"

#include "describe.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "err.h"
#include "fmt.h"
#include "table.h"
#include "text.h"


/* Arguments of the moving keys: lines (rows, families) to move, or one of these, signed. */
#define ARG_PAGE 1000000  /* a page */
#define ARG_END 2000000   /* past the first or last */

/* The length of a move by arg (see ARG_PAGE, ARG_END) where a page is `page` lines. */
static long move_len(int arg, long page)
{
	long sign = arg < 0 ? -1 : 1;

	if (arg == ARG_END || arg == -ARG_END)
		return sign * (LONG_MAX / 4);
	if (arg == ARG_PAGE || arg == -ARG_PAGE)
		return sign * page;
	return arg;
}

/* ---- main screen: workloads, rounds, selection ---- */

static unsigned act_quit(struct app *app, struct ui_press in)
{
	(void)app, (void)in;
	return UI_QUIT;
}

static unsigned act_help(struct app *app, struct ui_press in)
{
	(void)in;
	app->menu.ov = OV_HELP;
	app->menu.ov_scroll = 0;
	return UI_REDRAW;
}

static unsigned go_workload(struct app *app, size_t i)
{
	if (ui_state_set_workload(app, i) < 0) {
		ui_state_msg(app, true, "no workload %zu in %s (%zu loaded)", i + 1,
			     app->p.round ? app->p.round : "-", app->nworks);
		return UI_REDRAW;
	}
	return UI_RECOMPUTE;
}

/* Tab and Shift-Tab: arg 1 the next workload, -1 the previous (wrapping). */
static unsigned act_work_step(struct app *app, struct ui_press in)
{
	size_t n = app->nworks;

	if (n == 0)
		return UI_REDRAW;
	return go_workload(app, (app->work_i + (in.arg > 0 ? 1 : n - 1)) % n);
}

/* 1-9: the digit's workload, the same in every round (the tabs show the digits). */
static unsigned act_nth_work(struct app *app, struct ui_press in)
{
	const char *id;
	long i = ui_state_digit_work(app, in.key - '0', &id);

	if (i >= 0)
		return go_workload(app, (size_t)i);
	if (id)
		ui_state_msg(app, true, "%s has no %s (key %c)", app->p.round ? app->p.round : "-",
			     workload_label(id), in.key);
	else
		ui_state_msg(app, true, "no workload %c: %zu loaded", in.key, app->nallworks);
	return UI_REDRAW;
}

/* ] and [: arg 1 the next round, -1 the previous (wrapping). */
static unsigned act_round_step(struct app *app, struct ui_press in)
{
	size_t n = app->nrounds;

	if (n < 2) {
		ui_state_msg(app, false, "only one round loaded (%s)", app->p.round ? app->p.round : "-");
		return UI_REDRAW;
	}
	ui_state_set_round(app, (app->round_i + (in.arg > 0 ? 1 : n - 1)) % n);
	return UI_RECOMPUTE;
}

/* The selection moves by arg rows (a page: the table's height less one). */
static unsigned act_move(struct app *app, struct ui_press in)
{
	long page = app->scr.lay.table_rows > 1 ? app->scr.lay.table_rows - 1 : 1;

	ui_state_select(app, (long)app->sel + move_len(in.arg, page));
	return UI_REDRAW;
}

static unsigned act_jump_ref(struct app *app, struct ui_press in)
{
	long i = ui_state_ref_pos(app);

	(void)in;
	if (i < 0)
		ui_state_msg(app, true, "the reference row is not shown%s",
			     app->rowfilt[0] ? " (the row filter hides it)" : "");
	else
		ui_state_select(app, i);
	return UI_REDRAW;
}

static unsigned act_jump_breakeven(struct app *app, struct ui_press in)
{
	long i = ui_state_breakeven_pos(app);
	const struct group *g = app->nvis ? analysis_group(&app->a, app->vis[app->sel]) : NULL;
	char b[32];

	(void)in;
	if (g && g->be.kind == BE_ONE_ROW)
		ui_state_msg(app, true, "no break-even row in %s: one row, nothing to compare with",
			     describe_group_name(g));
	else if (!g || g->be_row < 0)
		ui_state_msg(app, true, "no break-even row%s%s: no row reaches E' >= %s",
			     g && g->family ? " in " : "", g && g->family ? g->family : "",
			     fmt_short(app->p.theta, b, sizeof b));
	else if (i < 0)
		ui_state_msg(app, true, "the break-even row is hidden by the row filter");
	else
		ui_state_select(app, i);
	return UI_REDRAW;
}

/* The body cycles split, plot only, table only: the plot gets every row when it is asked to
 * show the detail of a band, the table when it is asked for many rows. */
static unsigned act_zoom(struct app *app, struct ui_press in)
{
	static const char *const names[ZOOM_COUNT] = { "plot and table", "plot only", "table only" };

	(void)in;
	app->scr.zoom = (enum ui_zoom)((app->scr.zoom + 1) % ZOOM_COUNT);
	ui_state_msg(app, false, "view: %s (z cycles)", names[app->scr.zoom]);
	return UI_REDRAW;
}

static unsigned act_detail(struct app *app, struct ui_press in)
{
	(void)in;
	if (app->nvis == 0) {
		ui_state_msg(app, true, "no row to show");
		return UI_REDRAW;
	}
	app->menu.ov = OV_DETAIL;
	app->menu.ov_scroll = 0;
	return UI_REDRAW;
}

/* ---- on/off keys ---- */

enum { TG_AVAIL, TG_COLLAPSE, TG_ALL_ROUNDS, TG_PARETO_COST, TG_LOG_Y, TG_PARETO, TG_FIT,
       TG_FULL_RANGE, TG_BARS, TG_MOUSE };

/* What each on/off key flips (a bool of struct app), says, and needs redone. */
static const struct toggle {
	size_t at;
	unsigned flags;
	const char *on, *off;
} toggles[] = {
	[TG_AVAIL] = { offsetof(struct app, p.available_only), UI_RECOMPUTE,
		       "Preview and Research rows hidden", "Preview and Research rows shown" },
	[TG_COLLAPSE] = { offsetof(struct app, p.collapse), UI_RECOMPUTE,
			  "identical submissions collapsed: one row for each",
			  "identical submissions shown under every submitter" },
	[TG_ALL_ROUNDS] = { offsetof(struct app, p.all_rounds), UI_RECOMPUTE,
			    "cross-round view: every loaded round of this workload", "one round" },
	[TG_PARETO_COST] = { offsetof(struct app, p.pareto_cost), UI_RECOMPUTE,
			     "Pareto frontier on (T, cost to train); rows without a price are never on it",
			     "Pareto frontier on (T, A)" },
	[TG_LOG_Y] = { offsetof(struct app, scr.log_y), UI_REDRAW, "log y on", "log y off" },
	[TG_PARETO] = { offsetof(struct app, scr.pareto_marks), UI_REDRAW, "Pareto marks on", "Pareto marks off" },
	/* the scaling law of each family: its curve over the points, the predicted break-even in
	 * the status line, each row's residual in the detail */
	[TG_FIT] = { offsetof(struct app, p.fit), UI_RECOMPUTE | UI_REDRAW,
		     "scaling-law fit on (curves, predicted break-even)", "scaling-law fit off" },
	/* the plot clips outliers so one cannot squash the rest; this shows every point in its row */
	[TG_FULL_RANGE] = { offsetof(struct app, scr.full_range), UI_REDRAW,
			    "plot y range: every point", "plot y range: outliers clipped (^ v)" },
	[TG_BARS] = { offsetof(struct app, scr.bars), UI_REDRAW,
		      "run-to-run interval bars on", "run-to-run interval bars off" },
	[TG_MOUSE] = { offsetof(struct app, scr.mouse), UI_REDRAW, "mouse on", "mouse off" },
};

static unsigned act_toggle(struct app *app, struct ui_press in)
{
	const struct toggle *t = &toggles[in.arg];
	bool *b = (bool *)((char *)app + t->at);

	*b = !*b;
	ui_state_msg(app, false, "%s", *b ? t->on : t->off);
	return t->flags;
}

/* ---- filter and reference ---- */

static unsigned act_menu(struct app *app, struct ui_press in)
{
	(void)in;
	ui_state_menu_open(app);
	app->menu.ov = OV_MENU;
	return UI_REDRAW;
}

/* C: the column chooser (the family menu's checklist over the registry's columns). */
static unsigned act_cols(struct app *app, struct ui_press in)
{
	(void)in;
	ui_state_cols_open(app);
	app->menu.ov = OV_MENU;
	return UI_REDRAW;
}

static unsigned act_clear_filter(struct app *app, struct ui_press in)
{
	(void)in;
	memset(&app->p.filter, 0, sizeof app->p.filter);
	ui_state_msg(app, false, "filter cleared");
	return UI_RECOMPUTE;
}

/* The name a pin keeps: SUBMITTER/SYSTEM, since one system id can exist under several
 * submitters (pooled, so it lives as long as the data). */
static const char *pin_name(struct app *app, const struct row *r)
{
	char buf[1024];
	const char *s;
	size_t len;

	if (!*r->submitter)
		return r->system;
	len = strlen(text_row_name(r->submitter, r->system, true, buf, sizeof buf));
	/* a name cut to fit the buffer would pin another system */
	if (len + 1 >= sizeof buf || !(s = strpool_intern(&app->ds->pool, buf, len)))
		return r->system;
	return s;
}

static unsigned act_pin(struct app *app, struct ui_press in)
{
	(void)in;
	if (app->nvis == 0) {
		ui_state_msg(app, true, "no row to pin");
		return UI_REDRAW;
	}
	app->p.pinned = pin_name(app, ui_state_row(app, app->sel));
	app->p.mode = REF_PINNED;
	app->pin_keep = NULL;
	app->msg.note = NOTE_PIN;
	return UI_RECOMPUTE;
}

static unsigned act_paper(struct app *app, struct ui_press in)
{
	(void)in;
	app->p.mode = REF_PAPER;
	app->pin_keep = NULL;
	app->msg.note = NOTE_PAPER;
	return UI_RECOMPUTE;
}

/* paper -> pinned -> family -> paper; pinned only when a row was pinned with r (m never pins
 * the selected row on its own: that silently changed what E' meant). */
static unsigned act_mode(struct app *app, struct ui_press in)
{
	(void)in;
	app->p.mode = (enum ref_mode)((app->p.mode + 1) % REF_MODE_COUNT);
	app->pin_keep = NULL;
	if (app->p.mode == REF_PINNED && !app->p.pinned)
		app->p.mode = REF_FAMILY;
	app->msg.note = NOTE_MODE;
	return UI_RECOMPUTE;
}

/* x: the next rule that picks other references; the message names the rules skipped. */
static unsigned act_ref_rule(struct app *app, struct ui_press in)
{
	enum ref_rule r = ui_state_rule_next(app);

	(void)in;
	if (app->a.mode == REF_PINNED) {
		ui_state_msg(app, false, "the reference is pinned: no rule applies (R: back to the paper rule)");
		return UI_REDRAW;
	}
	if (r == app->p.ref_rule) {
		ui_state_msg(app, false, "reference rule %s: every rule picks the same references here "
			     "(one candidate with the fewest accelerators)", ref_rule_name(r));
		return UI_REDRAW;
	}
	app->p.ref_rule = r;
	app->msg.note = NOTE_RULE;
	return UI_RECOMPUTE;
}

/* ---- clusters ---- */

/* + and -: arg 1 one cluster more, -1 one less, from the k shown (auto-k's too). */
static unsigned act_k_step(struct app *app, struct ui_press in)
{
	int max = app->a.n < MAX_K ? (int)app->a.n : MAX_K;
	int k = (app->p.k ? app->p.k : app->a.k) + in.arg;

	if (max < 1)
		max = 1;
	if (k > max)
		k = max;
	if (k < 1)
		k = 1;
	if (app->p.k == k) {
		ui_state_msg(app, false, "k stays %d (1..%d for %zu rows)", k, max, app->a.n);
		return UI_REDRAW;
	}
	app->p.k = k;
	return UI_RECOMPUTE;
}

static unsigned act_auto_k(struct app *app, struct ui_press in)
{
	(void)in;
	app->p.k = 0;
	app->msg.note = NOTE_AUTOK;
	return UI_RECOMPUTE;
}

static unsigned act_feats(struct app *app, struct ui_press in)
{
	(void)in;
	app->p.feats = (enum feat_set)((app->p.feats + 1) % FEAT_COUNT);
	app->msg.note = NOTE_FEATS;
	return UI_RECOMPUTE;
}

/* ---- plot ---- */

static unsigned act_metric(struct app *app, struct ui_press in)
{
	(void)in;
	app->scr.ymet = (enum metric)((app->scr.ymet + 1) % MET_COUNT);
	ui_state_msg(app, false, "plot: %s%s", metric_name(app->scr.ymet),
		     app->scr.ymet == MET_EP ? "" : " (the theta line is on E' only)");
	return UI_REDRAW;
}

/* t and T: theta steps on a 0.05 grid (adding 0.05 would drift: 0.8 + 0.05 != 0.85), arg 1 up,
 * -1 down, inside the range the command line takes; any other value is typed at the = prompt. */
static unsigned act_theta_step(struct app *app, struct ui_press in)
{
	double t = (in.arg > 0 ? floor(app->p.theta * 20.0 + 1e-9) + 1
		    : ceil(app->p.theta * 20.0 - 1e-9) - 1) / 20.0;
	char b1[32], b2[32], b3[32];

	if (t > GS_THETA_MAX)
		t = GS_THETA_MAX;
	if (t < GS_THETA_MIN)
		t = GS_THETA_MIN;
	if (t == app->p.theta) {
		ui_state_msg(app, false, "theta stays %s (range %s..%s; = types a value)",
			     fmt_short(app->p.theta, b1, sizeof b1), fmt_short(GS_THETA_MIN, b2, sizeof b2),
			     fmt_short(GS_THETA_MAX, b3, sizeof b3));
		return UI_REDRAW;
	}
	app->p.theta = t;
	return UI_RECOMPUTE;
}

/* ---- sort ---- */

static unsigned sorted(struct app *app)
{
	ui_state_msg(app, false, "sorted by %s (%s)%s", reg_col(app->p.sort)->long_name,
		     app->p.desc ? "descending" : "ascending",
		     app->scr.zoom == ZOOM_PLOT ? ": z shows the table" : "");
	return UI_RESORT;
}

static unsigned sort_by(struct app *app, enum col c)
{
	app->p.sort = c;
	app->p.desc = reg_col(c)->desc;
	return sorted(app);
}

/* The next column in steps of dir (1 or COL_COUNT - 1) that the table can show, so that the
 * sorted heading is always on screen (ui_layout_col_possible). */
static enum col sort_step(const struct app *app, unsigned dir)
{
	unsigned c = (unsigned)app->p.sort;

	for (int tries = 0; tries < COL_COUNT; tries++) {
		c = (c + dir) % COL_COUNT;
		for (int t = 0; t < TC_COUNT; t++)
			if (table_cols[t]->sort == (int)c && ui_layout_col_possible(app, t))
				return (enum col)c;
	}
	return app->p.sort;
}

/* s, > and <: arg 1 sorts by the next column, -1 by the previous one, each its natural way. */
static unsigned act_sort_step(struct app *app, struct ui_press in)
{
	return sort_by(app, sort_step(app, in.arg > 0 ? 1 : COL_COUNT - 1));
}

static unsigned act_reverse(struct app *app, struct ui_press in)
{
	(void)in;
	app->p.desc = !app->p.desc;
	return sorted(app);
}

/* ---- row filter, export, redraw ---- */

static unsigned act_rowfilt_clear(struct app *app, struct ui_press in)
{
	(void)in;
	if (!app->rowfilt[0])
		return UI_REDRAW;
	ui_state_set_rowfilt(app, NULL);
	ui_state_msg(app, false, "row filter cleared: %zu rows", app->nvis);
	return UI_REDRAW;
}

static unsigned act_export(struct app *app, struct ui_press in)
{
	char path[1024], text[600];
	struct gs_err err;

	(void)in;
	memset(&err, 0, sizeof err);
	if (ui_export_write(app, path, sizeof path, &err) < 0)
		ui_state_msg(app, true, "export failed: %s", err_format(&err, text, sizeof text));
	else
		ui_state_msg(app, false, "exported %s (+ .txt plot)", path);
	return UI_REDRAW;
}

static unsigned act_redraw(struct app *app, struct ui_press in)
{
	(void)app, (void)in;
	return UI_REDRAW | UI_CLEAR;
}

/* ---- overlays ---- */

static unsigned act_close(struct app *app, struct ui_press in)
{
	(void)in;
	app->menu.ov = OV_NONE;
	return UI_REDRAW;
}

/* The last first line the open overlay can scroll to (its lines are built to count them). */
static int ov_max(const struct app *app)
{
	static char lines[UI_HELP_LINES > UI_MAX_DETAIL ? UI_HELP_LINES : UI_MAX_DETAIL][UI_LINE];
	size_t ncmd = 0;
	if (app->menu.ov == OV_CMDLINE)
		free(ui_undo_cmdline_text(app, &ncmd));
	int n = app->menu.ov == OV_DETAIL ? (int)ui_state_detail_wrapped(app, lines, NULL, UI_MAX_DETAIL)
		: app->menu.ov == OV_CMDLINE ? (int)ncmd
					     : (int)ui_state_help(app, lines, NULL);
	struct ui_rect box = ui_layout_overlay(&app->scr.lay, n, 60);

	return n - (box.h - 2);
}

/* Lines an overlay shows at once (the body less the border): a page. */
static int ov_page(const struct app *app)
{
	struct ui_rect box = ui_layout_overlay(&app->scr.lay, 1 << 20, 60);

	return box.h - 2 > 1 ? box.h - 2 : 1;
}

/* The help or the detail scrolls by arg lines. It moves from the line shown, not from a stale
 * app->menu.ov_scroll: the content or the box may have shrunk under it since the last scroll key
 * (the draw clamps it the same way). */
static unsigned act_ov_scroll(struct app *app, struct ui_press in)
{
	long max = ov_max(app), to = app->menu.ov_scroll;

	if (to > max)
		to = max;
	if (to < 0)
		to = 0;
	to += move_len(in.arg, ov_page(app));
	if (to > max)
		to = max;
	app->menu.ov_scroll = to < 0 ? 0 : (int)to;
	return UI_REDRAW;
}

/* The family menu's cursor moves by arg families (a page: the screen less 8 lines). */
static unsigned act_menu_move(struct app *app, struct ui_press in)
{
	long page = app->scr.lay.rows - 8 > 1 ? app->scr.lay.rows - 8 : 1;
	long to = (long)app->menu.fam_cur + move_len(in.arg, page);

	app->menu.fam_find[0] = '\0';
	if (to >= (long)app->menu.nfam)
		to = (long)app->menu.nfam - 1;
	app->menu.fam_cur = to < 0 ? 0 : (size_t)to;
	return UI_REDRAW;
}

static unsigned act_menu_toggle(struct app *app, struct ui_press in)
{
	(void)in;
	app->menu.fam_find[0] = '\0';
	if (app->menu.fam_cur < app->menu.nfam)
		app->menu.fam[app->menu.fam_cur].on = !app->menu.fam[app->menu.fam_cur].on;
	return UI_REDRAW;
}

static unsigned act_menu_none(struct app *app, struct ui_press in)
{
	(void)in;
	for (size_t i = 0; i < app->menu.nfam; i++)
		app->menu.fam[i].on = false;
	return UI_REDRAW;
}

static unsigned act_menu_apply(struct app *app, struct ui_press in)
{
	char f[160];

	(void)in;
	app->menu.ov = OV_NONE;
	if (app->menu.cols) {
		size_t n = ui_state_cols_apply(app);
		ui_state_msg(app, false, "table columns: %zu chosen (the sort column always shows; C to change)", n);
		return UI_REDRAW;
	}
	ui_state_menu_apply(app);
	ui_state_msg(app, false, "filter: %s", ui_state_filter_text(app, f, sizeof f));
	return UI_RECOMPUTE;
}

/* ---- the pointer ---- */

/* A click selects the table row or the plot point under the pointer; on a plot cell that
 * several points share, each click moves on to the next of them (ui_state_plot_hit). A click
 * on a column heading sorts by that column, and again reverses it. */
static unsigned act_click(struct app *app, struct ui_press in)
{
	const struct ui_layout *l = &app->scr.lay;
	int pane = ui_layout_pane_at(l, app->scr.ptr_y, app->scr.ptr_x);
	long i;

	if (pane == 2) {
		size_t row = app->scr.top + (size_t)(app->scr.ptr_y - l->table.y - 1);
		if (row < app->nvis)
			ui_state_select(app, (long)row);
		return UI_REDRAW;
	}
	if (pane == 1) {
		i = ui_state_plot_hit(app, app->scr.ptr_y - l->plot.y, app->scr.ptr_x - l->plot.x);
		if (i >= 0)
			ui_state_select(app, i);
		return UI_REDRAW;
	}
	if (pane == 4) {
		int c = ui_layout_col_at(app, app->scr.ptr_x);
		if (c < 0 || table_cols[c]->sort < 0)
			return UI_REDRAW;
		if ((int)app->p.sort == table_cols[c]->sort)
			return act_reverse(app, in);
		return sort_by(app, (enum col)table_cols[c]->sort);
	}
	return 0;
}

/* ---- the table ---- */

/* One line per entry so that the help strings can be listed with a simple pattern (the
 * end-to-end test checks that the help overlay shows each of them). Consecutive entries with
 * the same action and help are shown as one help line. */
#define UI_KEY(k, f, a, c, h) { .key = (k), .fn = (f), .arg = (a), .ctx = (c), .help = (h) }
static const struct ui_key key_table[] = {
	UI_KEY(CTRL_KEY('c'), act_quit, 0, UI_CTX_ANY, "quit"),
	UI_KEY(UI_FKEY(KEY_F(10)), act_quit, 0, UI_CTX_ANY, "quit"),
	UI_KEY(CTRL_KEY('l'), act_redraw, 0, UI_CTX_ANY, "redraw the screen"),

	UI_KEY('q', act_quit, 0, UI_CTX_MAIN, "quit (q first closes any open overlay)"),
	UI_KEY('?', act_help, 0, UI_CTX_MAIN, "this help"),
	UI_KEY(UI_FKEY(KEY_F(1)), act_help, 0, UI_CTX_MAIN, "this help"),
	/* Left and Right walk the tabs, which lie left to right; rounds have [ and ] */
	UI_KEY('\t', act_work_step, 1, UI_CTX_MAIN, "next workload (the tab to the right)"),
	UI_KEY(UI_FKEY(KEY_RIGHT), act_work_step, 1, UI_CTX_MAIN, "next workload (the tab to the right)"),
	UI_KEY(UI_FKEY(KEY_BTAB), act_work_step, -1, UI_CTX_MAIN, "previous workload (the tab to the left)"),
	UI_KEY(UI_FKEY(KEY_LEFT), act_work_step, -1, UI_CTX_MAIN, "previous workload (the tab to the left)"),
	UI_KEY('1', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('2', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('3', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('4', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('5', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('6', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('7', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('8', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('9', act_nth_work, 0, UI_CTX_MAIN, "the workload whose tab shows that digit (fixed)"),
	UI_KEY('[', act_round_step, -1, UI_CTX_MAIN, "previous round (when several are loaded)"),
	UI_KEY(']', act_round_step, 1, UI_CTX_MAIN, "next round"),
	UI_KEY(UI_FKEY(KEY_UP), act_move, -1, UI_CTX_MAIN, "select the row above"),
	UI_KEY('k', act_move, -1, UI_CTX_MAIN, "select the row above"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_move, 1, UI_CTX_MAIN, "select the row below"),
	UI_KEY('j', act_move, 1, UI_CTX_MAIN, "select the row below"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_move, -ARG_PAGE, UI_CTX_MAIN, "one page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_move, ARG_PAGE, UI_CTX_MAIN, "one page down"),
	UI_KEY('g', act_move, -ARG_END, UI_CTX_MAIN, "first row"),
	UI_KEY(UI_FKEY(KEY_HOME), act_move, -ARG_END, UI_CTX_MAIN, "first row"),
	UI_KEY('G', act_move, ARG_END, UI_CTX_MAIN, "last row"),
	UI_KEY(UI_FKEY(KEY_END), act_move, ARG_END, UI_CTX_MAIN, "last row"),
	UI_KEY('o', act_jump_ref, 0, UI_CTX_MAIN, "go to the reference of the selected row's group"),
	UI_KEY('b', act_jump_breakeven, 0, UI_CTX_MAIN, "go to the break-even row of the selected row's group"),
	UI_KEY(K_ENTER, act_detail, 0, UI_CTX_MAIN, "detail of the selected row"),
	UI_KEY('z', act_zoom, 0, UI_CTX_MAIN, "zoom: plot and table, plot only, table only"),
	UI_KEY('f', act_menu, 0, UI_CTX_MAIN, "family filter menu"),
	UI_KEY('C', act_cols, 0, UI_CTX_MAIN, "choose the table's columns"),
	UI_KEY('F', act_clear_filter, 0, UI_CTX_MAIN, "clear the filter"),
	UI_KEY('r', act_pin, 0, UI_CTX_MAIN, "pin the selected row as reference"),
	UI_KEY('R', act_paper, 0, UI_CTX_MAIN, "reference back to the paper rule"),
	UI_KEY('m', act_mode, 0, UI_CTX_MAIN, "cycle reference mode (paper, family; pinned after r)"),
	UI_KEY('x', act_ref_rule, 0, UI_CTX_MAIN, "next distinct reference rule: slowest, median, fastest"),
	UI_KEY('v', act_toggle, TG_AVAIL, UI_CTX_MAIN, "hide / show Preview and Research rows (mark v)"),
	UI_KEY('d', act_toggle, TG_COLLAPSE, UI_CTX_MAIN, "identical submissions: one row / every submitter"),
	UI_KEY('A', act_toggle, TG_ALL_ROUNDS, UI_CTX_MAIN, "cross-round view: this workload in every loaded round"),
	UI_KEY('P', act_toggle, TG_PARETO_COST, UI_CTX_MAIN, "Pareto frontier on (T, cost) / (T, A)"),
	UI_KEY('+', act_k_step, 1, UI_CTX_MAIN, "one more cluster (k up)"),
	UI_KEY('-', act_k_step, -1, UI_CTX_MAIN, "one cluster less (k down)"),
	UI_KEY('a', act_auto_k, 0, UI_CTX_MAIN, "auto-k (best silhouette)"),
	UI_KEY('c', act_feats, 0, UI_CTX_MAIN, "cycle cluster features"),
	UI_KEY('y', act_metric, 0, UI_CTX_MAIN, "cycle plot metric"),
	UI_KEY('Y', act_toggle, TG_LOG_Y, UI_CTX_MAIN, "log-scale y axis on/off"),
	UI_KEY('t', act_theta_step, 1, UI_CTX_MAIN, "theta up by 0.05"),
	UI_KEY('T', act_theta_step, -1, UI_CTX_MAIN, "theta down by 0.05"),
	UI_KEY('=', ui_prompt_open, PROMPT_THETA, UI_CTX_MAIN, "type theta"),
	UI_KEY('K', ui_prompt_open, PROMPT_K, UI_CTX_MAIN, "type k (1..12, or auto)"),
	UI_KEY('p', act_toggle, TG_PARETO, UI_CTX_MAIN, "Pareto marks in the plot on/off"),
	UI_KEY('L', act_toggle, TG_FIT, UI_CTX_MAIN, "scaling-law fit per family on/off"),
	UI_KEY('u', act_toggle, TG_FULL_RANGE, UI_CTX_MAIN, "plot: full y range / outliers clipped to ^ v"),
	UI_KEY('i', act_toggle, TG_BARS, UI_CTX_MAIN, "plot: run-to-run interval bars on/off"),
	UI_KEY('s', act_sort_step, 1, UI_CTX_MAIN, "sort by the next column"),
	UI_KEY('>', act_sort_step, 1, UI_CTX_MAIN, "sort by the next column"),
	UI_KEY(UI_FKEY(KEY_F(6)), act_sort_step, 1, UI_CTX_MAIN, "sort by the next column"),
	UI_KEY('<', act_sort_step, -1, UI_CTX_MAIN, "sort by the previous column"),
	UI_KEY('S', act_reverse, 0, UI_CTX_MAIN, "reverse the sort"),
	UI_KEY('/', ui_prompt_open, PROMPT_SEARCH, UI_CTX_MAIN, "search system or submitter (shows match 3/7)"),
	UI_KEY(UI_FKEY(KEY_F(3)), ui_prompt_open, PROMPT_SEARCH, UI_CTX_MAIN, "search system or submitter (shows match 3/7)"),
	UI_KEY('n', ui_prompt_next, 1, UI_CTX_MAIN, "next match"),
	UI_KEY('N', ui_prompt_next, -1, UI_CTX_MAIN, "previous match"),
	UI_KEY('|', ui_prompt_open, PROMPT_FILTER, UI_CTX_MAIN, "row filter: keep only rows whose names contain a text"),
	UI_KEY(UI_FKEY(KEY_F(4)), ui_prompt_open, PROMPT_FILTER, UI_CTX_MAIN, "row filter: keep only rows whose names contain a text"),
	UI_KEY(K_ESC, act_rowfilt_clear, 0, UI_CTX_MAIN, "clear the row filter"),
	UI_KEY('e', act_export, 0, UI_CTX_MAIN, "export table (CSV), plot and command line (text)"),
	UI_KEY('U', ui_undo_act, 0, UI_CTX_MAIN, "undo the last change of the view (several levels)"),
	UI_KEY(':', ui_undo_cmdline_act, 0, UI_CTX_MAIN, "the command line of this view, columns and query too"),
	UI_KEY('M', act_toggle, TG_MOUSE, UI_CTX_MAIN, "mouse on/off"),
	UI_KEY('Q', ui_prompt_open, PROMPT_QUERY, UI_CTX_MAIN, "query: deadline and budgets, answer rows marked @"),
	UI_KEY('W', ui_plan_trend_open, 0, UI_CTX_MAIN, "break-even of each family in every round of the span"),

	UI_KEY('q', act_close, 0, UI_CTX_HELP, "close the help"),
	UI_KEY(K_ESC, act_close, 0, UI_CTX_HELP, "close the help"),
	UI_KEY('?', act_close, 0, UI_CTX_HELP, "close the help"),
	UI_KEY(UI_FKEY(KEY_F(1)), act_close, 0, UI_CTX_HELP, "close the help"),
	UI_KEY(UI_FKEY(KEY_UP), act_ov_scroll, -1, UI_CTX_HELP, "scroll up"),
	UI_KEY('k', act_ov_scroll, -1, UI_CTX_HELP, "scroll up"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_ov_scroll, 1, UI_CTX_HELP, "scroll down"),
	UI_KEY('j', act_ov_scroll, 1, UI_CTX_HELP, "scroll down"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_ov_scroll, -ARG_PAGE, UI_CTX_HELP, "page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_ov_scroll, ARG_PAGE, UI_CTX_HELP, "page down"),
	UI_KEY(' ', act_ov_scroll, ARG_PAGE, UI_CTX_HELP, "page down"),
	UI_KEY('g', act_ov_scroll, -ARG_END, UI_CTX_HELP, "top"),
	UI_KEY('G', act_ov_scroll, ARG_END, UI_CTX_HELP, "bottom"),

	UI_KEY(UI_FKEY(KEY_UP), act_menu_move, -1, UI_CTX_MENU, "previous family"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_menu_move, 1, UI_CTX_MENU, "next family"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_menu_move, -ARG_PAGE, UI_CTX_MENU, "one page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_menu_move, ARG_PAGE, UI_CTX_MENU, "one page down"),
	UI_KEY(UI_FKEY(KEY_HOME), act_menu_move, -ARG_END, UI_CTX_MENU, "first family"),
	UI_KEY(UI_FKEY(KEY_END), act_menu_move, ARG_END, UI_CTX_MENU, "last family"),
	UI_KEY(UI_KEY_TEXT, ui_prompt_type, 0, UI_CTX_MENU, "type-ahead: go to the family whose name starts so"),
	UI_KEY(K_BACKSPACE, ui_prompt_back, 0, UI_CTX_MENU, "forget the last letter typed"),
	UI_KEY(' ', act_menu_toggle, 0, UI_CTX_MENU, "check / uncheck the family"),
	UI_KEY(CTRL_KEY('u'), act_menu_none, 0, UI_CTX_MENU, "uncheck every family"),
	UI_KEY(K_ENTER, act_menu_apply, 0, UI_CTX_MENU, "apply the checked families"),
	UI_KEY(K_ESC, act_close, 0, UI_CTX_MENU, "cancel"),

	UI_KEY('q', act_close, 0, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(K_ESC, act_close, 0, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(K_ENTER, act_close, 0, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(UI_FKEY(KEY_UP), act_ov_scroll, -1, UI_CTX_DETAIL, "scroll up"),
	UI_KEY('k', act_ov_scroll, -1, UI_CTX_DETAIL, "scroll up"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_ov_scroll, 1, UI_CTX_DETAIL, "scroll down"),
	UI_KEY('j', act_ov_scroll, 1, UI_CTX_DETAIL, "scroll down"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_ov_scroll, -ARG_PAGE, UI_CTX_DETAIL, "page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_ov_scroll, ARG_PAGE, UI_CTX_DETAIL, "page down"),
	UI_KEY(' ', act_ov_scroll, ARG_PAGE, UI_CTX_DETAIL, "page down"),
	UI_KEY('g', act_ov_scroll, -ARG_END, UI_CTX_DETAIL, "top"),
	UI_KEY('G', act_ov_scroll, ARG_END, UI_CTX_DETAIL, "bottom"),

	UI_KEY(UI_KEY_TEXT, ui_prompt_type, 0, UI_CTX_SEARCH, "type the text (case-insensitive)"),
	UI_KEY(K_BACKSPACE, ui_prompt_back, 0, UI_CTX_SEARCH, "delete a character"),
	UI_KEY(UI_FKEY(KEY_DOWN), ui_prompt_next, 1, UI_CTX_SEARCH, "next match"),
	UI_KEY(UI_FKEY(KEY_UP), ui_prompt_next, -1, UI_CTX_SEARCH, "previous match"),
	UI_KEY(K_ENTER, ui_prompt_accept, 0, UI_CTX_SEARCH, "keep the match"),
	UI_KEY(K_ESC, ui_prompt_cancel, 0, UI_CTX_SEARCH, "cancel"),

	UI_KEY(UI_KEY_TEXT, ui_prompt_type, 0, UI_CTX_PROMPT, "type the value"),
	UI_KEY(K_BACKSPACE, ui_prompt_back, 0, UI_CTX_PROMPT, "delete a character"),
	UI_KEY(K_ENTER, ui_prompt_accept, 0, UI_CTX_PROMPT, "apply it (a bad value is refused and says why)"),
	UI_KEY(K_ESC, ui_prompt_cancel, 0, UI_CTX_PROMPT, "cancel"),

	UI_KEY(UI_FKEY(KEY_UP), ui_plan_trend_move, -1, UI_CTX_TREND, "previous family"),
	UI_KEY('k', ui_plan_trend_move, -1, UI_CTX_TREND, "previous family"),
	UI_KEY(UI_FKEY(KEY_DOWN), ui_plan_trend_move, 1, UI_CTX_TREND, "next family"),
	UI_KEY('j', ui_plan_trend_move, 1, UI_CTX_TREND, "next family"),
	UI_KEY(UI_FKEY(KEY_LEFT), ui_plan_trend_move, -2, UI_CTX_TREND, "previous round"),
	UI_KEY('h', ui_plan_trend_move, -2, UI_CTX_TREND, "previous round"),
	UI_KEY(UI_FKEY(KEY_RIGHT), ui_plan_trend_move, 2, UI_CTX_TREND, "next round"),
	UI_KEY('l', ui_plan_trend_move, 2, UI_CTX_TREND, "next round"),
	UI_KEY(UI_FKEY(KEY_PPAGE), ui_plan_trend_move, -3, UI_CTX_TREND, "rounds to the left, a screen"),
	UI_KEY(UI_FKEY(KEY_NPAGE), ui_plan_trend_move, 3, UI_CTX_TREND, "rounds to the right, a screen"),
	UI_KEY(UI_FKEY(KEY_HOME), ui_plan_trend_move, -4, UI_CTX_TREND, "first round"),
	UI_KEY(UI_FKEY(KEY_END), ui_plan_trend_move, 4, UI_CTX_TREND, "last round"),
	UI_KEY(K_ENTER, ui_plan_trend_enter, 0, UI_CTX_TREND, "open that round, filtered to that family"),
	UI_KEY('q', act_close, 0, UI_CTX_TREND, "close the trend"),
	UI_KEY(K_ESC, act_close, 0, UI_CTX_TREND, "close the trend"),

	/* the pointer (ui_main.c turns mouse events into these codes); the help lists these
	 * entries in a section of their own, whatever their context; the wheel moves three rows
	 * or lines a notch, one family in the menu */
	UI_KEY(UI_PTR_CLICK, act_click, 0, UI_CTX_MAIN, "select a row or point; on a heading: sort by it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_move, -3, UI_CTX_ANY, "move the selection up / down"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_move, 3, UI_CTX_ANY, "move the selection up / down"),
	UI_KEY(UI_PTR_WHEEL_UP, act_ov_scroll, -3, UI_CTX_HELP, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_ov_scroll, 3, UI_CTX_HELP, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_ov_scroll, -3, UI_CTX_DETAIL, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_ov_scroll, 3, UI_CTX_DETAIL, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_menu_move, -1, UI_CTX_MENU, "in the family menu: previous / next family"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_menu_move, 1, UI_CTX_MENU, "in the family menu: previous / next family"),
	UI_KEY(UI_PTR_CLICK, act_close, 0, UI_CTX_HELP, "in the help or the detail: close it"),
	UI_KEY(UI_PTR_CLICK, act_close, 0, UI_CTX_DETAIL, "in the help or the detail: close it"),
};
#define NKEYS (sizeof key_table / sizeof key_table[0])

static enum ui_ctx ctx_of(enum ui_overlay ov)
{
	switch (ov) {
	case OV_HELP: return UI_CTX_HELP;
	case OV_MENU: return UI_CTX_MENU;
	case OV_DETAIL: return UI_CTX_DETAIL;
	case OV_CMDLINE: return UI_CTX_DETAIL; /* closes and scrolls as the detail does */
	case OV_SEARCH: return UI_CTX_SEARCH;
	case OV_PROMPT: return UI_CTX_PROMPT;
	case OV_TREND: return UI_CTX_TREND;
	case OV_NONE: break;
	}
	return UI_CTX_MAIN;
}

/* Terminals disagree on Enter and Backspace; the table names one code for each. */
static int normalize(int key)
{
	if (key == '\r' || key == UI_FKEY(KEY_ENTER))
		return K_ENTER;
	if (key == 8 || key == UI_FKEY(KEY_BACKSPACE))
		return K_BACKSPACE;
	return key;
}

static bool printable(int key)
{
	return key >= ' ' && key < 0x200000 && key != 127 && iswprint((wint_t)key);
}

static const struct ui_key *lookup(int key, enum ui_ctx ctx)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (key_table[i].ctx == ctx && key_table[i].key == key)
			return &key_table[i];
	if ((ctx == UI_CTX_SEARCH || ctx == UI_CTX_PROMPT || ctx == UI_CTX_MENU) && printable(key))
		return lookup(UI_KEY_TEXT, ctx);
	return NULL;
}

const struct ui_key *ui_keys_lookup(int key, enum ui_ctx ctx)
{
	const struct ui_key *k = lookup(key, ctx);

	return k ? k : lookup(key, UI_CTX_ANY);
}

unsigned ui_keys_dispatch(struct app *app, int key)
{
	const struct ui_key *k;
	enum ui_ctx ctx = ctx_of(app->menu.ov);

	/* a message stays for its time (ui_state_tick), one that wraps until this key; a recompute
	 * tells its result only when this key set no message of its own */
	if (ui_state_msg_long(app))
		app->msg.text[0] = '\0';
	app->msg.key_seq = app->msg.seq;
	key = normalize(key);
	/* under the "too small" notice nothing can be seen: only quitting and redrawing act */
	if (app->scr.lay.too_small && key != 'q' && key != CTRL_KEY('c') && key != UI_FKEY(KEY_F(10)) &&
	    key != CTRL_KEY('l'))
		return UI_REDRAW;
	k = ui_keys_lookup(key, ctx);
	if (k) {
		/* every key that changes the view leaves the view before it to undo (ui_undo.c) */
		struct ui_view before;
		bool undoable = k->fn != ui_undo_act && ui_undo_take(app, &before);
		unsigned f = k->fn(app, (struct ui_press){ key, k->arg });
		if (undoable)
			ui_undo_note(app, &before);
		/* a message about the view before is stale once the view changes (the recompute may
		 * set its own after) */
		if ((f & (UI_RECOMPUTE | UI_RESORT)) && app->msg.seq == app->msg.key_seq)
			app->msg.text[0] = '\0';
		return f;
	}
	/* a key pressed out of habit (htop's F-keys, Insert, Delete) says so instead of nothing */
	if (ctx == UI_CTX_MAIN && key != UI_KEY_TEXT && !UI_IS_PTR(key)) {
		char name[32];
		ui_keys_label(key, name, sizeof name);
		ui_state_msg(app, false, "%s%s does nothing here: ? lists the keys", name[0] ? "key " : "that key",
			     name);
	}
	return UI_REDRAW;
}

const struct ui_key *ui_keys_all(size_t *n)
{
	*n = NKEYS;
	return key_table;
}

bool ui_keys_names_metrics(const struct ui_key *k)
{
	return k->fn == act_metric;
}
