/* ui_keys.c: the one key table. Each entry is {key, action, context, help}: dispatch walks it,
 * and the help overlay is generated from it, so the help cannot drift from the keys. The
 * mouse's click and wheel are entries too (pointer codes that the event loop hands in).
 * Actions change the state and return UI_* flags; they never draw. */
#include "ui_app.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "err.h"
#include "fmt.h"
#include "table.h"
#include "text.h"

typedef unsigned (*ui_action)(struct app *app, int key);

struct ui_key {
	int key;
	ui_action fn;
	enum ui_ctx ctx;
	const char *help;
};

#define CTRL_KEY(c) ((c) & 0x1f)
#define K_ESC 27
#define K_ENTER '\n'
#define K_BACKSPACE 127

/* Appends the character key to buf (len bytes of size n) as UTF-8; false when it does not fit
 * or is not a character. */
static bool text_add(char *buf, size_t *len, size_t n, int key)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	size_t l;

	memset(&st, 0, sizeof st);
	l = wcrtomb(mb, (wchar_t)key, &st);
	if (l == (size_t)-1 || *len + l >= n)
		return false;
	memcpy(buf + *len, mb, l);
	*len += l;
	buf[*len] = '\0';
	return true;
}

/* Drops one whole UTF-8 character: continuation bytes are 10xxxxxx. */
static void text_back(char *buf, size_t *len)
{
	while (*len > 0) {
		unsigned char c = (unsigned char)buf[--*len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	buf[*len] = '\0';
}

/* ---- main screen: workloads, rounds, selection ---- */

static unsigned act_quit(struct app *app, int key)
{
	(void)app, (void)key;
	return UI_QUIT;
}

static unsigned act_help(struct app *app, int key)
{
	(void)key;
	app->ov = OV_HELP;
	app->ov_scroll = 0;
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

static unsigned act_next_work(struct app *app, int key)
{
	(void)key;
	return app->nworks ? go_workload(app, (app->work_i + 1) % app->nworks) : UI_REDRAW;
}

static unsigned act_prev_work(struct app *app, int key)
{
	(void)key;
	return app->nworks ? go_workload(app, (app->work_i + app->nworks - 1) % app->nworks)
			   : UI_REDRAW;
}

static unsigned act_nth_work(struct app *app, int key)
{
	return go_workload(app, (size_t)(key - '1'));
}

static unsigned go_round(struct app *app, int dir)
{
	if (app->nrounds < 2) {
		ui_state_msg(app, false, "only one round loaded (%s)", app->p.round ? app->p.round : "-");
		return UI_REDRAW;
	}
	ui_state_set_round(app, (app->round_i + app->nrounds + (size_t)(dir > 0 ? 1 : app->nrounds - 1))
				     % app->nrounds);
	return UI_RECOMPUTE;
}

static unsigned act_prev_round(struct app *app, int key)
{
	(void)key;
	return go_round(app, -1);
}

static unsigned act_next_round(struct app *app, int key)
{
	(void)key;
	return go_round(app, 1);
}

static long page(const struct app *app)
{
	return app->lay.table_rows > 1 ? app->lay.table_rows - 1 : 1;
}

static unsigned act_up(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, (long)app->sel - 1);
	return UI_REDRAW;
}

static unsigned act_down(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, (long)app->sel + 1);
	return UI_REDRAW;
}

static unsigned act_pgup(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, (long)app->sel - page(app));
	return UI_REDRAW;
}

static unsigned act_pgdn(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, (long)app->sel + page(app));
	return UI_REDRAW;
}

static unsigned act_first(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, 0);
	return UI_REDRAW;
}

static unsigned act_last(struct app *app, int key)
{
	(void)key;
	ui_state_select(app, (long)app->nvis - 1);
	return UI_REDRAW;
}

static unsigned act_jump_ref(struct app *app, int key)
{
	long i = ui_state_ref_pos(app);

	(void)key;
	if (i < 0)
		ui_state_msg(app, true, "the reference row is not shown%s",
			     app->p.mode == REF_FAMILY ? " (per-family mode: each family has its own)"
			     : app->rowfilt[0] ? " (the row filter hides it)" : "");
	else
		ui_state_select(app, i);
	return UI_REDRAW;
}

static unsigned act_jump_breakeven(struct app *app, int key)
{
	long i = ui_state_breakeven_pos(app);
	char b[32];

	(void)key;
	if (app->a.breakeven < 0)
		ui_state_msg(app, true, "no break-even row: no row reaches E' >= %s",
			     fmt_short(app->p.theta, b, sizeof b));
	else if (i < 0)
		ui_state_msg(app, true, "the break-even row is hidden by the row filter");
	else
		ui_state_select(app, i);
	return UI_REDRAW;
}

/* The body cycles split, plot only, table only: the plot gets every row when it is asked to
 * show the detail of a band, the table when it is asked for many rows. */
static unsigned act_zoom(struct app *app, int key)
{
	static const char *const names[ZOOM_COUNT] = { "plot and table", "plot only", "table only" };

	(void)key;
	app->zoom = (enum ui_zoom)((app->zoom + 1) % ZOOM_COUNT);
	ui_state_msg(app, false, "view: %s (z cycles)", names[app->zoom]);
	return UI_REDRAW;
}

static unsigned act_detail(struct app *app, int key)
{
	(void)key;
	if (app->nvis == 0) {
		ui_state_msg(app, true, "no row to show");
		return UI_REDRAW;
	}
	app->ov = OV_DETAIL;
	app->ov_scroll = 0;
	return UI_REDRAW;
}

/* ---- filter and reference ---- */

static unsigned act_menu(struct app *app, int key)
{
	(void)key;
	ui_state_menu_open(app);
	app->ov = OV_MENU;
	return UI_REDRAW;
}

static unsigned act_clear_filter(struct app *app, int key)
{
	(void)key;
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

static unsigned act_pin(struct app *app, int key)
{
	(void)key;
	if (app->nvis == 0) {
		ui_state_msg(app, true, "no row to pin");
		return UI_REDRAW;
	}
	app->p.pinned = pin_name(app, ui_state_row(app, app->sel));
	app->p.mode = REF_PINNED;
	app->pin_keep = NULL;
	app->note = NOTE_PIN;
	return UI_RECOMPUTE;
}

static unsigned act_paper(struct app *app, int key)
{
	(void)key;
	app->p.mode = REF_PAPER;
	app->pin_keep = NULL;
	app->note = NOTE_PAPER;
	return UI_RECOMPUTE;
}

/* paper -> pinned -> family -> paper; pinned only when a row was pinned with r (m never pins
 * the selected row on its own: that silently changed what E' meant). */
static unsigned act_mode(struct app *app, int key)
{
	(void)key;
	app->p.mode = (enum ref_mode)((app->p.mode + 1) % REF_MODE_COUNT);
	app->pin_keep = NULL;
	if (app->p.mode == REF_PINNED && !app->p.pinned)
		app->p.mode = REF_FAMILY;
	app->note = NOTE_MODE;
	return UI_RECOMPUTE;
}

/* ---- comparison hygiene ---- */

static unsigned act_ref_rule(struct app *app, int key)
{
	(void)key;
	app->p.ref_rule = (enum ref_rule)((app->p.ref_rule + 1) % RULE_COUNT);
	app->note = NOTE_RULE;
	return UI_RECOMPUTE;
}

static unsigned act_avail_only(struct app *app, int key)
{
	(void)key;
	app->p.available_only = !app->p.available_only;
	ui_state_msg(app, false, "Preview and Research rows %s", app->p.available_only ? "hidden" : "shown");
	return UI_RECOMPUTE;
}

static unsigned act_collapse(struct app *app, int key)
{
	(void)key;
	app->p.collapse = !app->p.collapse;
	ui_state_msg(app, false, "%s", app->p.collapse
		     ? "identical submissions collapsed: one row for each"
		     : "identical submissions shown under every submitter");
	return UI_RECOMPUTE;
}

static unsigned act_all_rounds(struct app *app, int key)
{
	(void)key;
	app->p.all_rounds = !app->p.all_rounds;
	ui_state_msg(app, false, "%s", app->p.all_rounds ? "cross-round view: every loaded round of this workload"
		     : "one round");
	return UI_RECOMPUTE;
}

static unsigned act_pareto_cost(struct app *app, int key)
{
	(void)key;
	app->p.pareto_cost = !app->p.pareto_cost;
	ui_state_msg(app, false, "Pareto frontier on %s", app->p.pareto_cost
		     ? "(T, cost to train); rows without a price are never on it" : "(T, A)");
	return UI_RECOMPUTE;
}

/* ---- clusters ---- */

static int k_max(const struct app *app)
{
	int m = app->a.n < MAX_K ? (int)app->a.n : MAX_K;
	return m < 1 ? 1 : m;
}

static unsigned set_k(struct app *app, int k)
{
	if (k > k_max(app))
		k = k_max(app);
	if (k < 1)
		k = 1;
	if (app->p.k == k) {
		ui_state_msg(app, false, "k stays %d (1..%d for %zu rows)", k, k_max(app), app->a.n);
		return UI_REDRAW;
	}
	app->p.k = k;
	return UI_RECOMPUTE;
}

static unsigned act_k_up(struct app *app, int key)
{
	(void)key;
	return set_k(app, (app->p.k ? app->p.k : app->a.k) + 1);
}

static unsigned act_k_down(struct app *app, int key)
{
	(void)key;
	return set_k(app, (app->p.k ? app->p.k : app->a.k) - 1);
}

static unsigned act_auto_k(struct app *app, int key)
{
	(void)key;
	app->p.k = 0;
	app->note = NOTE_AUTOK;
	return UI_RECOMPUTE;
}

static unsigned act_feats(struct app *app, int key)
{
	(void)key;
	app->p.feats = (enum feat_set)((app->p.feats + 1) % FEAT_COUNT);
	app->note = NOTE_FEATS;
	return UI_RECOMPUTE;
}

/* ---- plot ---- */

static unsigned act_metric(struct app *app, int key)
{
	(void)key;
	app->ymet = (enum metric)((app->ymet + 1) % MET_COUNT);
	ui_state_msg(app, false, "plot: %s%s", metric_name(app->ymet),
		     app->ymet == MET_EP ? "" : " (the theta line is on E' only)");
	return UI_REDRAW;
}

static unsigned act_log_y(struct app *app, int key)
{
	(void)key;
	app->log_y = !app->log_y;
	ui_state_msg(app, false, "log y %s", app->log_y ? "on" : "off");
	return UI_REDRAW;
}

/* A new theta moves the break-even row, nothing else. */
static unsigned theta_changed(struct app *app)
{
	if (app->a.n == 0)
		return UI_RECOMPUTE; /* nothing shown: the last run may have failed */
	/* theta moves the break-even rows and ranges, nothing else */
	if (analysis_breakeven(app->ds, &app->a, app->p.theta, NULL) < 0)
		return UI_RECOMPUTE;
	return UI_REDRAW;
}

/* Theta steps on a 0.05 grid (adding 0.05 would drift: 0.8 + 0.05 != 0.85), inside the range
 * the command line takes; any other value is typed at the = prompt. */
static unsigned step_theta(struct app *app, int dir)
{
	double t = (dir > 0 ? floor(app->p.theta * 20.0 + 1e-9) + 1 : ceil(app->p.theta * 20.0 - 1e-9) - 1) / 20.0;
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
	return theta_changed(app);
}

static unsigned open_prompt(struct app *app, enum ui_prompt kind)
{
	app->ov = OV_PROMPT;
	app->prompt = kind;
	app->input[0] = '\0';
	app->input_len = 0;
	return UI_REDRAW;
}

static unsigned act_theta_prompt(struct app *app, int key)
{
	(void)key;
	return open_prompt(app, PR_THETA);
}

static unsigned act_k_prompt(struct app *app, int key)
{
	(void)key;
	return open_prompt(app, PR_K);
}

static unsigned act_theta_up(struct app *app, int key)
{
	(void)key;
	return step_theta(app, 1);
}

static unsigned act_theta_down(struct app *app, int key)
{
	(void)key;
	return step_theta(app, -1);
}

static unsigned act_pareto(struct app *app, int key)
{
	(void)key;
	app->pareto_marks = !app->pareto_marks;
	ui_state_msg(app, false, "Pareto marks %s", app->pareto_marks ? "on" : "off");
	return UI_REDRAW;
}

/* The scaling law of each family: its curve over the points, the predicted break-even in the
 * status line, each row's residual in the detail. */
static unsigned act_fit(struct app *app, int key)
{
	(void)key;
	app->p.fit = !app->p.fit;
	ui_state_msg(app, false, "scaling-law fit %s", app->p.fit ? "on (curves, predicted break-even)" : "off");
	return UI_RECOMPUTE | UI_REDRAW;
}

/* The plot clips outliers so one cannot squash the rest; this shows every point in its row. */
static unsigned act_full_range(struct app *app, int key)
{
	(void)key;
	app->full_range = !app->full_range;
	ui_state_msg(app, false, "plot y range: %s", app->full_range ? "every point" : "outliers clipped (^ v)");
	return UI_REDRAW;
}

static unsigned act_bars(struct app *app, int key)
{
	(void)key;
	app->bars = !app->bars;
	ui_state_msg(app, false, "run-to-run interval bars %s", app->bars ? "on" : "off");
	return UI_REDRAW;
}

/* ---- sort and search ---- */

/* Bigger is better for the efficiency columns and for Pareto membership; smaller for the rest. */
static bool natural_desc(enum col c)
{
	return c == COL_EP || c == COL_S || c == COL_E || c == COL_PARETO;
}

/* Full names for the sort message (the table headings are terse). */
static const char *col_long_name(enum col c)
{
	static const char *const names[COL_COUNT] = {
		[COL_EP] = "normalized efficiency E'", [COL_S] = "speedup S", [COL_E] = "efficiency E",
		[COL_T] = "minutes", [COL_A] = "accelerator-hours A", [COL_N] = "accelerators N",
		[COL_SYSTEM] = "system", [COL_SUBMITTER] = "submitter", [COL_FAMILY] = "family",
		[COL_CLUSTER] = "cluster", [COL_PARETO] = "Pareto mark", [COL_SPREAD] = "spread",
		[COL_KWH] = "energy kWh", [COL_COST] = "cost to train", [COL_ROUND] = "round",
		[COL_DIV] = "division",
	};
	return (unsigned)c < COL_COUNT && names[c] ? names[c] : col_name(c);
}

static void sort_msg(struct app *app)
{
	ui_state_msg(app, false, "sorted by %s (%s)%s", col_long_name(app->p.sort),
		     app->p.desc ? "descending" : "ascending",
		     app->zoom == ZOOM_PLOT ? ": z shows the table" : "");
}

static unsigned sort_by(struct app *app, enum col c)
{
	app->p.sort = c;
	app->p.desc = natural_desc(c);
	sort_msg(app);
	return UI_RESORT;
}

/* The next column by in steps of dir (1 or COL_COUNT - 1) that the table can show, so that the
 * sorted heading is always on screen (the round only in the cross-round view). */
static enum col sort_step(const struct app *app, unsigned dir)
{
	unsigned c = (unsigned)app->p.sort;

	for (int tries = 0; tries < COL_COUNT; tries++) {
		c = (c + dir) % COL_COUNT;
		for (int t = 0; t < TC_COUNT; t++)
			if (table_cols[t].sort == (int)c && (t != TC_ROUND || app->p.all_rounds))
				return (enum col)c;
	}
	return app->p.sort;
}

static unsigned act_sort(struct app *app, int key)
{
	(void)key;
	return sort_by(app, sort_step(app, 1));
}

static unsigned act_sort_back(struct app *app, int key)
{
	(void)key;
	return sort_by(app, sort_step(app, COL_COUNT - 1));
}

static unsigned act_reverse(struct app *app, int key)
{
	(void)key;
	app->p.desc = !app->p.desc;
	sort_msg(app);
	return UI_RESORT;
}

/* / searches, | filters: one incremental prompt, started from the selection of the moment. */
static unsigned open_search(struct app *app, enum ui_prompt kind)
{
	app->ov = OV_SEARCH;
	app->prompt = kind;
	app->search[0] = '\0';
	app->search_len = 0;
	app->search_from = app->nvis ? app->sel_sys : NULL;
	app->search_from_sub = app->nvis ? app->sel_sub : NULL;
	snprintf(app->rowfilt_was, sizeof app->rowfilt_was, "%s", app->rowfilt);
	if (kind == PR_FILTER && app->rowfilt[0]) {
		/* the filter being edited starts from its text */
		snprintf(app->search, sizeof app->search, "%s", app->rowfilt);
		app->search_len = strlen(app->search);
	}
	return UI_REDRAW;
}

static unsigned act_search(struct app *app, int key)
{
	(void)key;
	return open_search(app, PR_SEARCH);
}

static unsigned act_rowfilt(struct app *app, int key)
{
	(void)key;
	return open_search(app, PR_FILTER);
}

static unsigned act_rowfilt_clear(struct app *app, int key)
{
	(void)key;
	if (!app->rowfilt[0])
		return UI_REDRAW;
	ui_state_set_rowfilt(app, NULL);
	ui_state_msg(app, false, "row filter cleared: %zu rows", app->nvis);
	return UI_REDRAW;
}

/* "match 3/7 for "h100"": where the selection stands among the matches. */
static void match_msg(struct app *app, const char *text)
{
	size_t ord, n = ui_state_count(app, text, &ord);

	if (n == 0)
		ui_state_msg(app, true, "no match for \"%s\"", text);
	else
		ui_state_msg(app, false, "match %zu/%zu for \"%s\": n next, N previous", ord, n, text);
}

static unsigned match(struct app *app, int dir, size_t from)
{
	long i;

	if (!app->search_len) {
		ui_state_msg(app, true, "nothing to search: %s",
			     app->ov == OV_SEARCH ? "type some text" : "press / first");
		return UI_REDRAW;
	}
	i = ui_state_find(app, from, dir, app->search);
	if (i >= 0)
		ui_state_select(app, i);
	match_msg(app, app->search);
	return UI_REDRAW;
}

static unsigned act_next_match(struct app *app, int key)
{
	(void)key;
	return match(app, 1, app->sel);
}

static unsigned act_prev_match(struct app *app, int key)
{
	(void)key;
	return match(app, -1, app->sel);
}

/* ---- export, mouse, redraw ---- */

static unsigned act_export(struct app *app, int key)
{
	char path[1024], text[600];
	struct gs_err err;

	(void)key;
	memset(&err, 0, sizeof err);
	if (ui_export_write(app, path, sizeof path, &err) < 0)
		ui_state_msg(app, true, "export failed: %s", err_format(&err, text, sizeof text));
	else
		ui_state_msg(app, false, "exported %s (+ .txt plot)", path);
	return UI_REDRAW;
}

static unsigned act_mouse(struct app *app, int key)
{
	(void)key;
	app->mouse = !app->mouse;
	ui_state_msg(app, false, "mouse %s", app->mouse ? "on" : "off");
	return UI_REDRAW;
}

static unsigned act_redraw(struct app *app, int key)
{
	(void)app, (void)key;
	return UI_REDRAW | UI_CLEAR;
}

/* ---- overlays ---- */

static unsigned act_close(struct app *app, int key)
{
	(void)key;
	app->ov = OV_NONE;
	return UI_REDRAW;
}

/* The last first line the open overlay can scroll to (its lines are built to count them). */
static int ov_max(const struct app *app)
{
	static char lines[UI_HELP_LINES > UI_MAX_DETAIL ? UI_HELP_LINES : UI_MAX_DETAIL][UI_LINE];
	int n = app->ov == OV_DETAIL ? (int)ui_state_detail(app, lines, NULL, UI_MAX_DETAIL)
				     : (int)ui_state_help(app, lines, NULL);
	struct ui_rect box = ui_layout_overlay(&app->lay, n, 60);

	return n - (box.h - 2);
}

static unsigned ov_set(struct app *app, int to, int max)
{
	if (to > max)
		to = max;
	app->ov_scroll = to < 0 ? 0 : to;
	return UI_REDRAW;
}

static unsigned ov_scroll_to(struct app *app, int to)
{
	return ov_set(app, to, ov_max(app));
}

/* Moves from the line shown, not from a stale app->ov_scroll: the content or the box may have
 * shrunk under it since the last scroll key (the draw clamps it the same way). */
static unsigned ov_scroll_by(struct app *app, int delta)
{
	int max = ov_max(app);

	ov_set(app, app->ov_scroll, max);
	return ov_set(app, app->ov_scroll + delta, max);
}

/* Lines an overlay shows at once (the body less the border): a page. */
static int ov_page(const struct app *app)
{
	struct ui_rect box = ui_layout_overlay(&app->lay, 1 << 20, 60);

	return box.h - 2 > 1 ? box.h - 2 : 1;
}

static unsigned act_ov_up(struct app *app, int key)
{
	(void)key;
	return ov_scroll_by(app, -1);
}

static unsigned act_ov_down(struct app *app, int key)
{
	(void)key;
	return ov_scroll_by(app, 1);
}

static unsigned act_ov_pgup(struct app *app, int key)
{
	(void)key;
	return ov_scroll_by(app, -ov_page(app));
}

static unsigned act_ov_pgdn(struct app *app, int key)
{
	(void)key;
	return ov_scroll_by(app, ov_page(app));
}

static unsigned act_ov_top(struct app *app, int key)
{
	(void)key;
	return ov_scroll_to(app, 0);
}

static unsigned act_ov_bottom(struct app *app, int key)
{
	(void)key;
	return ov_scroll_to(app, 1 << 20);
}

static unsigned menu_move(struct app *app, long by)
{
	long to = (long)app->fam_cur + by;

	app->fam_find[0] = '\0';
	if (to >= (long)app->nfam)
		to = (long)app->nfam - 1;
	app->fam_cur = to < 0 ? 0 : (size_t)to;
	return UI_REDRAW;
}

static unsigned act_menu_up(struct app *app, int key)
{
	(void)key;
	return menu_move(app, -1);
}

static unsigned act_menu_down(struct app *app, int key)
{
	(void)key;
	return menu_move(app, 1);
}

static unsigned act_menu_pgup(struct app *app, int key)
{
	(void)key;
	return menu_move(app, -(app->lay.rows - 8 > 1 ? app->lay.rows - 8 : 1));
}

static unsigned act_menu_pgdn(struct app *app, int key)
{
	(void)key;
	return menu_move(app, app->lay.rows - 8 > 1 ? app->lay.rows - 8 : 1);
}

static unsigned act_menu_top(struct app *app, int key)
{
	(void)key;
	return menu_move(app, -(long)app->nfam);
}

static unsigned act_menu_bottom(struct app *app, int key)
{
	(void)key;
	return menu_move(app, (long)app->nfam);
}

static unsigned act_menu_toggle(struct app *app, int key)
{
	(void)key;
	app->fam_find[0] = '\0';
	if (app->fam_cur < app->nfam)
		app->fam[app->fam_cur].on = !app->fam[app->fam_cur].on;
	return UI_REDRAW;
}

/* Type-ahead: the letters typed so far move the cursor to the first family starting with them
 * (or else containing them); a letter that matches nothing is not kept. */
static unsigned act_menu_type(struct app *app, int key)
{
	size_t len = strlen(app->fam_find);
	long i;

	if (!text_add(app->fam_find, &len, sizeof app->fam_find, key))
		return UI_REDRAW;
	i = ui_state_menu_find(app, app->fam_find);
	if (i < 0) {
		ui_state_msg(app, true, "no family matches \"%s\"", app->fam_find);
		text_back(app->fam_find, &len);
	} else {
		app->fam_cur = (size_t)i;
	}
	return UI_REDRAW;
}

static unsigned act_menu_back(struct app *app, int key)
{
	size_t len = strlen(app->fam_find);

	(void)key;
	text_back(app->fam_find, &len);
	return UI_REDRAW;
}

static unsigned act_menu_none(struct app *app, int key)
{
	(void)key;
	for (size_t i = 0; i < app->nfam; i++)
		app->fam[i].on = false;
	return UI_REDRAW;
}

static unsigned act_menu_apply(struct app *app, int key)
{
	char f[160];

	(void)key;
	ui_state_menu_apply(app);
	app->ov = OV_NONE;
	ui_state_msg(app, false, "filter: %s", ui_state_filter_text(app, f, sizeof f));
	return UI_RECOMPUTE;
}

/* Incremental search: every edit searches again from the row selected when the prompt opened,
 * that row included, so typing narrows down instead of hopping. The row filter's prompt instead
 * filters the rows on every edit. */
static unsigned search_again(struct app *app)
{
	size_t from = 0;

	if (app->prompt == PR_FILTER) {
		ui_state_set_rowfilt(app, app->search);
		if (app->search_len && app->nvis == 0)
			ui_state_msg(app, true, "no row matches \"%s\"", app->search);
		return UI_REDRAW;
	}
	if (app->nvis == 0)
		return UI_REDRAW;
	for (size_t i = 0; i < app->nvis; i++)
		if (ui_state_row(app, i)->system == app->search_from &&
		    ui_state_row(app, i)->submitter == app->search_from_sub)
			from = i;
	if (app->search_len) {
		long i = ui_state_find(app, (from + app->nvis - 1) % app->nvis, 1, app->search);
		if (i >= 0) {
			ui_state_select(app, i);
		} else {
			/* no match: back where the search started, not on a match of a shorter text */
			ui_state_select(app, (long)from);
		}
		match_msg(app, app->search);
	} else {
		ui_state_select(app, (long)from);
	}
	return UI_REDRAW;
}

static unsigned act_search_text(struct app *app, int key)
{
	if (!text_add(app->search, &app->search_len, sizeof app->search, key))
		return UI_REDRAW;
	return search_again(app);
}

static unsigned act_search_back(struct app *app, int key)
{
	(void)key;
	text_back(app->search, &app->search_len);
	return search_again(app);
}

static unsigned act_search_accept(struct app *app, int key)
{
	(void)key;
	app->ov = OV_NONE;
	if (app->prompt == PR_FILTER) {
		if (app->rowfilt[0])
			ui_state_msg(app, false, "row filter \"%s\": %zu of %zu rows; Esc clears it",
				     app->rowfilt, app->nvis, app->a.n);
		else
			ui_state_msg(app, false, "no row filter");
		app->search_len = 0;
		app->search[0] = '\0';
		return UI_REDRAW;
	}
	if (app->search_len)
		match_msg(app, app->search);
	return UI_REDRAW;
}

static unsigned act_search_cancel(struct app *app, int key)
{
	(void)key;
	app->search_len = 0;
	app->search[0] = '\0';
	if (app->prompt == PR_FILTER)
		ui_state_set_rowfilt(app, app->rowfilt_was);
	else
		search_again(app);
	app->ov = OV_NONE;
	return UI_REDRAW;
}

/* ---- the value prompt (=, K) ---- */

static unsigned act_input_text(struct app *app, int key)
{
	text_add(app->input, &app->input_len, sizeof app->input, key);
	return UI_REDRAW;
}

static unsigned act_input_back(struct app *app, int key)
{
	(void)key;
	text_back(app->input, &app->input_len);
	return UI_REDRAW;
}

static unsigned act_input_accept(struct app *app, int key)
{
	char b[32];

	(void)key;
	if (app->prompt == PR_THETA) {
		if (ui_state_set_theta(app, app->input) < 0)
			return UI_REDRAW; /* the prompt stays, with the message */
		app->ov = OV_NONE;
		ui_state_msg(app, false, "theta %s", fmt_short(app->p.theta, b, sizeof b));
		return theta_changed(app);
	}
	if (ui_state_set_k(app, app->input) < 0)
		return UI_REDRAW;
	app->ov = OV_NONE;
	if (app->p.k == 0)
		app->note = NOTE_AUTOK;
	return UI_RECOMPUTE;
}

static unsigned act_input_cancel(struct app *app, int key)
{
	(void)key;
	app->ov = OV_NONE;
	return UI_REDRAW;
}

/* ---- the pointer ---- */

/* A click selects the table row or the plot point under the pointer; on a plot cell that
 * several points share, each click moves on to the next of them (ui_state_plot_hit). A click
 * on a column heading sorts by that column, and again reverses it. */
static unsigned act_click(struct app *app, int key)
{
	const struct ui_layout *l = &app->lay;
	int pane = ui_layout_pane_at(l, app->ptr_y, app->ptr_x);
	long i;

	(void)key;
	if (pane == 2) {
		size_t row = app->top + (size_t)(app->ptr_y - l->table.y - 1);
		if (row < app->nvis)
			ui_state_select(app, (long)row);
		return UI_REDRAW;
	}
	if (pane == 1) {
		i = ui_state_plot_hit(app, app->ptr_y - l->plot.y, app->ptr_x - l->plot.x);
		if (i >= 0)
			ui_state_select(app, i);
		return UI_REDRAW;
	}
	if (pane == 4) {
		int c = ui_layout_col_at(app, app->ptr_x);
		if (c < 0 || table_cols[c].sort < 0)
			return UI_REDRAW;
		if ((int)app->p.sort == table_cols[c].sort) {
			app->p.desc = !app->p.desc;
			sort_msg(app);
			return UI_RESORT;
		}
		return sort_by(app, (enum col)table_cols[c].sort);
	}
	return 0;
}

/* The wheel moves the selection three rows a notch, in the main screen and while searching. */
static unsigned act_wheel(struct app *app, int key)
{
	ui_state_select(app, (long)app->sel + (key == UI_PTR_WHEEL_UP ? -3 : 3));
	return UI_REDRAW;
}

/* In the help or the detail, the wheel scrolls it three lines a notch. */
static unsigned act_ov_wheel(struct app *app, int key)
{
	return ov_scroll_by(app, key == UI_PTR_WHEEL_UP ? -3 : 3);
}

/* In the family menu, the wheel moves one family a notch. */
static unsigned act_menu_wheel(struct app *app, int key)
{
	return key == UI_PTR_WHEEL_UP ? act_menu_up(app, key) : act_menu_down(app, key);
}

/* ---- the table ---- */

/* One line per entry so that the help strings can be listed with a simple pattern (the
 * end-to-end test checks that the help overlay shows each of them). Consecutive entries with
 * the same action and help are shown as one help line. */
#define UI_KEY(key, fn, ctx, help) { key, fn, ctx, help }
static const struct ui_key key_table[] = {
	UI_KEY(CTRL_KEY('c'), act_quit, UI_CTX_ANY, "quit"),
	UI_KEY(CTRL_KEY('l'), act_redraw, UI_CTX_ANY, "redraw the screen"),

	UI_KEY('q', act_quit, UI_CTX_MAIN, "quit (q first closes any open overlay)"),
	UI_KEY('?', act_help, UI_CTX_MAIN, "this help"),
	UI_KEY(UI_FKEY(KEY_F(1)), act_help, UI_CTX_MAIN, "this help"),
	UI_KEY('\t', act_next_work, UI_CTX_MAIN, "next workload"),
	UI_KEY(UI_FKEY(KEY_BTAB), act_prev_work, UI_CTX_MAIN, "previous workload"),
	UI_KEY('1', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('2', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('3', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('4', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('5', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('6', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('7', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('8', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('9', act_nth_work, UI_CTX_MAIN, "n-th workload"),
	UI_KEY('[', act_prev_round, UI_CTX_MAIN, "previous round (when several are loaded)"),
	UI_KEY(']', act_next_round, UI_CTX_MAIN, "next round"),
	UI_KEY(UI_FKEY(KEY_UP), act_up, UI_CTX_MAIN, "select the row above"),
	UI_KEY('k', act_up, UI_CTX_MAIN, "select the row above"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_down, UI_CTX_MAIN, "select the row below"),
	UI_KEY('j', act_down, UI_CTX_MAIN, "select the row below"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_pgup, UI_CTX_MAIN, "one page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_pgdn, UI_CTX_MAIN, "one page down"),
	UI_KEY('g', act_first, UI_CTX_MAIN, "first row"),
	UI_KEY(UI_FKEY(KEY_HOME), act_first, UI_CTX_MAIN, "first row"),
	UI_KEY('G', act_last, UI_CTX_MAIN, "last row"),
	UI_KEY(UI_FKEY(KEY_END), act_last, UI_CTX_MAIN, "last row"),
	UI_KEY('o', act_jump_ref, UI_CTX_MAIN, "go to the reference row"),
	UI_KEY('b', act_jump_breakeven, UI_CTX_MAIN, "go to the break-even row"),
	UI_KEY(K_ENTER, act_detail, UI_CTX_MAIN, "detail of the selected row"),
	UI_KEY('z', act_zoom, UI_CTX_MAIN, "zoom: plot and table, plot only, table only"),
	UI_KEY('f', act_menu, UI_CTX_MAIN, "family filter menu"),
	UI_KEY('F', act_clear_filter, UI_CTX_MAIN, "clear the filter"),
	UI_KEY('r', act_pin, UI_CTX_MAIN, "pin the selected row as reference"),
	UI_KEY('R', act_paper, UI_CTX_MAIN, "reference back to the paper rule"),
	UI_KEY('m', act_mode, UI_CTX_MAIN, "cycle reference mode (paper, family; pinned after r)"),
	UI_KEY('x', act_ref_rule, UI_CTX_MAIN, "reference rule: slowest (paper), median, fastest"),
	UI_KEY('v', act_avail_only, UI_CTX_MAIN, "hide / show Preview and Research rows (mark v)"),
	UI_KEY('d', act_collapse, UI_CTX_MAIN, "identical submissions: one row / every submitter"),
	UI_KEY('A', act_all_rounds, UI_CTX_MAIN, "cross-round view: this workload in every loaded round"),
	UI_KEY('P', act_pareto_cost, UI_CTX_MAIN, "Pareto frontier on (T, cost) / (T, A)"),
	UI_KEY('+', act_k_up, UI_CTX_MAIN, "one more cluster (k up)"),
	UI_KEY('-', act_k_down, UI_CTX_MAIN, "one cluster less (k down)"),
	UI_KEY('a', act_auto_k, UI_CTX_MAIN, "auto-k (best silhouette)"),
	UI_KEY('c', act_feats, UI_CTX_MAIN, "cycle cluster features"),
	UI_KEY('y', act_metric, UI_CTX_MAIN, "cycle plot metric (E', S, T, A, E, kWh, cost)"),
	UI_KEY('Y', act_log_y, UI_CTX_MAIN, "log-scale y axis on/off"),
	UI_KEY('t', act_theta_up, UI_CTX_MAIN, "theta up by 0.05"),
	UI_KEY('T', act_theta_down, UI_CTX_MAIN, "theta down by 0.05"),
	UI_KEY('=', act_theta_prompt, UI_CTX_MAIN, "type theta"),
	UI_KEY('K', act_k_prompt, UI_CTX_MAIN, "type k (1..12, or auto)"),
	UI_KEY('p', act_pareto, UI_CTX_MAIN, "Pareto marks in the plot on/off"),
	UI_KEY('L', act_fit, UI_CTX_MAIN, "scaling-law fit per family on/off"),
	UI_KEY('u', act_full_range, UI_CTX_MAIN, "plot: full y range / outliers clipped to ^ v"),
	UI_KEY('i', act_bars, UI_CTX_MAIN, "plot: run-to-run interval bars on/off"),
	UI_KEY('s', act_sort, UI_CTX_MAIN, "sort by the next column"),
	UI_KEY('>', act_sort, UI_CTX_MAIN, "sort by the next column"),
	UI_KEY('<', act_sort_back, UI_CTX_MAIN, "sort by the previous column"),
	UI_KEY('S', act_reverse, UI_CTX_MAIN, "reverse the sort"),
	UI_KEY('/', act_search, UI_CTX_MAIN, "search system or submitter (shows match 3/7)"),
	UI_KEY('n', act_next_match, UI_CTX_MAIN, "next match"),
	UI_KEY('N', act_prev_match, UI_CTX_MAIN, "previous match"),
	UI_KEY('|', act_rowfilt, UI_CTX_MAIN, "row filter: keep only rows whose names contain a text"),
	UI_KEY(K_ESC, act_rowfilt_clear, UI_CTX_MAIN, "clear the row filter"),
	UI_KEY('e', act_export, UI_CTX_MAIN, "export table (CSV) and plot (text) to files"),
	UI_KEY('M', act_mouse, UI_CTX_MAIN, "mouse on/off"),

	UI_KEY('q', act_close, UI_CTX_HELP, "close the help"),
	UI_KEY(K_ESC, act_close, UI_CTX_HELP, "close the help"),
	UI_KEY('?', act_close, UI_CTX_HELP, "close the help"),
	UI_KEY(UI_FKEY(KEY_F(1)), act_close, UI_CTX_HELP, "close the help"),
	UI_KEY(UI_FKEY(KEY_UP), act_ov_up, UI_CTX_HELP, "scroll up"),
	UI_KEY('k', act_ov_up, UI_CTX_HELP, "scroll up"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_ov_down, UI_CTX_HELP, "scroll down"),
	UI_KEY('j', act_ov_down, UI_CTX_HELP, "scroll down"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_ov_pgup, UI_CTX_HELP, "page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_ov_pgdn, UI_CTX_HELP, "page down"),
	UI_KEY(' ', act_ov_pgdn, UI_CTX_HELP, "page down"),
	UI_KEY('g', act_ov_top, UI_CTX_HELP, "top"),
	UI_KEY('G', act_ov_bottom, UI_CTX_HELP, "bottom"),

	UI_KEY(UI_FKEY(KEY_UP), act_menu_up, UI_CTX_MENU, "previous family"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_menu_down, UI_CTX_MENU, "next family"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_menu_pgup, UI_CTX_MENU, "one page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_menu_pgdn, UI_CTX_MENU, "one page down"),
	UI_KEY(UI_FKEY(KEY_HOME), act_menu_top, UI_CTX_MENU, "first family"),
	UI_KEY(UI_FKEY(KEY_END), act_menu_bottom, UI_CTX_MENU, "last family"),
	UI_KEY(UI_KEY_TEXT, act_menu_type, UI_CTX_MENU, "type-ahead: go to the family whose name starts so"),
	UI_KEY(K_BACKSPACE, act_menu_back, UI_CTX_MENU, "forget the last letter typed"),
	UI_KEY(' ', act_menu_toggle, UI_CTX_MENU, "check / uncheck the family"),
	UI_KEY(CTRL_KEY('u'), act_menu_none, UI_CTX_MENU, "uncheck every family"),
	UI_KEY(K_ENTER, act_menu_apply, UI_CTX_MENU, "apply the checked families"),
	UI_KEY(K_ESC, act_close, UI_CTX_MENU, "cancel"),

	UI_KEY('q', act_close, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(K_ESC, act_close, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(K_ENTER, act_close, UI_CTX_DETAIL, "close the detail"),
	UI_KEY(UI_FKEY(KEY_UP), act_ov_up, UI_CTX_DETAIL, "scroll up"),
	UI_KEY('k', act_ov_up, UI_CTX_DETAIL, "scroll up"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_ov_down, UI_CTX_DETAIL, "scroll down"),
	UI_KEY('j', act_ov_down, UI_CTX_DETAIL, "scroll down"),
	UI_KEY(UI_FKEY(KEY_PPAGE), act_ov_pgup, UI_CTX_DETAIL, "page up"),
	UI_KEY(UI_FKEY(KEY_NPAGE), act_ov_pgdn, UI_CTX_DETAIL, "page down"),
	UI_KEY(' ', act_ov_pgdn, UI_CTX_DETAIL, "page down"),
	UI_KEY('g', act_ov_top, UI_CTX_DETAIL, "top"),
	UI_KEY('G', act_ov_bottom, UI_CTX_DETAIL, "bottom"),

	UI_KEY(UI_KEY_TEXT, act_search_text, UI_CTX_SEARCH, "type the text (case-insensitive)"),
	UI_KEY(K_BACKSPACE, act_search_back, UI_CTX_SEARCH, "delete a character"),
	UI_KEY(UI_FKEY(KEY_DOWN), act_next_match, UI_CTX_SEARCH, "next match"),
	UI_KEY(UI_FKEY(KEY_UP), act_prev_match, UI_CTX_SEARCH, "previous match"),
	UI_KEY(K_ENTER, act_search_accept, UI_CTX_SEARCH, "keep the match"),
	UI_KEY(K_ESC, act_search_cancel, UI_CTX_SEARCH, "cancel"),

	UI_KEY(UI_KEY_TEXT, act_input_text, UI_CTX_PROMPT, "type the value"),
	UI_KEY(K_BACKSPACE, act_input_back, UI_CTX_PROMPT, "delete a character"),
	UI_KEY(K_ENTER, act_input_accept, UI_CTX_PROMPT, "apply it (a bad value is refused and says why)"),
	UI_KEY(K_ESC, act_input_cancel, UI_CTX_PROMPT, "cancel"),

	/* the pointer (ui_main.c turns mouse events into these codes); the help lists these
	 * entries in a section of their own, whatever their context */
	UI_KEY(UI_PTR_CLICK, act_click, UI_CTX_MAIN, "select a row or point; on a heading: sort by it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_wheel, UI_CTX_ANY, "move the selection up / down"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_wheel, UI_CTX_ANY, "move the selection up / down"),
	UI_KEY(UI_PTR_WHEEL_UP, act_ov_wheel, UI_CTX_HELP, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_ov_wheel, UI_CTX_HELP, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_ov_wheel, UI_CTX_DETAIL, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_ov_wheel, UI_CTX_DETAIL, "in the help or the detail: scroll it"),
	UI_KEY(UI_PTR_WHEEL_UP, act_menu_wheel, UI_CTX_MENU, "in the family menu: previous / next family"),
	UI_KEY(UI_PTR_WHEEL_DOWN, act_menu_wheel, UI_CTX_MENU, "in the family menu: previous / next family"),
	UI_KEY(UI_PTR_CLICK, act_close, UI_CTX_HELP, "in the help or the detail: close it"),
	UI_KEY(UI_PTR_CLICK, act_close, UI_CTX_DETAIL, "in the help or the detail: close it"),
};
#define NKEYS (sizeof key_table / sizeof key_table[0])

static enum ui_ctx ctx_of(enum ui_overlay ov)
{
	switch (ov) {
	case OV_HELP: return UI_CTX_HELP;
	case OV_MENU: return UI_CTX_MENU;
	case OV_DETAIL: return UI_CTX_DETAIL;
	case OV_SEARCH: return UI_CTX_SEARCH;
	case OV_PROMPT: return UI_CTX_PROMPT;
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

unsigned ui_keys_dispatch(struct app *app, int key)
{
	const struct ui_key *k;
	enum ui_ctx ctx = ctx_of(app->ov);

	/* a message stays for its time (ui_state_tick); a recompute tells its result only when
	 * this key set no message of its own */
	app->key_seq = app->msg_seq;
	key = normalize(key);
	k = lookup(key, ctx);
	if (!k)
		k = lookup(key, UI_CTX_ANY);
	if (k)
		return k->fn(app, key);
	if (ctx == UI_CTX_MAIN && printable(key))
		ui_state_msg(app, false, "key %lc does nothing here: ? lists the keys", (wint_t)key);
	return UI_REDRAW;
}

/* ---- help ---- */

static void key_label(int key, char *buf, size_t n)
{
	static const struct { int key; const char *name; } names[] = {
		{ '\t', "Tab" }, { K_ENTER, "Enter" }, { K_ESC, "Esc" }, { K_BACKSPACE, "Backspace" },
		{ ' ', "Space" }, { UI_KEY_TEXT, "text" },
		{ UI_FKEY(KEY_BTAB), "Shift-Tab" }, { UI_FKEY(KEY_UP), "Up" },
		{ UI_FKEY(KEY_DOWN), "Down" }, { UI_FKEY(KEY_PPAGE), "PgUp" },
		{ UI_FKEY(KEY_NPAGE), "PgDn" }, { UI_FKEY(KEY_HOME), "Home" },
		{ UI_FKEY(KEY_END), "End" }, { UI_FKEY(KEY_F(1)), "F1" },
		{ UI_PTR_CLICK, "click" }, { UI_PTR_WHEEL_UP, "wheel" }, { UI_PTR_WHEEL_DOWN, "wheel" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].key == key) {
			snprintf(buf, n, "%s", names[i].name);
			return;
		}
	if (key >= 1 && key <= 26)
		snprintf(buf, n, "Ctrl-%c", 'A' + key - 1);
	else if (key < 128)
		snprintf(buf, n, "%c", key);
	else
		snprintf(buf, n, "#%d", key);
}

/* The help section of an entry: the pointer's entries together, as the mouse can be off. */
static enum ui_ctx help_ctx(const struct ui_key *k)
{
	return UI_IS_PTR(k->key) ? UI_CTX_MOUSE : k->ctx;
}

void ui_keys_help_build(struct app *app)
{
	struct ui_help_line *h = NULL;

	app->nhelp = 0;
	for (size_t i = 0; i < NKEYS; i++) {
		const struct ui_key *k = &key_table[i];
		const struct ui_key *prev = i ? &key_table[i - 1] : NULL;
		enum ui_ctx ctx = help_ctx(k);
		char name[24], prev_name[24];
		size_t len;

		key_label(k->key, name, sizeof name);
		if (h && prev && help_ctx(prev) == ctx && prev->fn == k->fn &&
		    strcmp(prev->help, k->help) == 0) {
			key_label(prev->key, prev_name, sizeof prev_name);
			if (strcmp(prev_name, name) == 0)
				continue; /* wheel up and down, a click in two overlays: one name */
			/* 1, 2, ... 9 read as one range */
			if (k->key >= '2' && k->key <= '9' && prev->key == k->key - 1) {
				len = strlen(h->keys);
				if (len >= 2 && h->keys[len - 2] == '-')
					h->keys[len - 1] = (char)k->key;
				else
					snprintf(h->keys + len, sizeof h->keys - len, "-%c", k->key);
				continue;
			}
			snprintf(h->keys + strlen(h->keys), sizeof h->keys - strlen(h->keys), ", %s", name);
			continue;
		}
		if (app->nhelp == UI_MAX_HELP)
			break;
		h = &app->help[app->nhelp++];
		snprintf(h->keys, sizeof h->keys, "%s", name);
		h->help = k->help;
		h->ctx = ctx;
	}
}

const char *ui_keys_ctx_name(enum ui_ctx c)
{
	static const char *const names[UI_CTX_COUNT] = {
		"anywhere", "main screen", "help", "family filter menu", "detail",
		"search (/) and row filter (|) prompt", "value prompt (= theta, K k)",
		"mouse (M turns it on/off; off by default over SSH)"
	};
	return c < UI_CTX_COUNT ? names[c] : "";
}
