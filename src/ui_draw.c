/* ui_draw.c: paints one frame from state. Everything here reads the app and writes stdscr;
 * nothing changes the model. Only ui_draw_frame, the loop's one call per frame, first derives
 * the frame's view (layout, table scroll, plot raster) and then refreshes once.
 * Attributes come from one role x scheme table: a colour scheme, and a monochrome one (bold,
 * reverse) for NO_COLOR and terminals without colour. Clusters also differ by glyph, so no
 * information depends on colour alone. */
#include "ui_app.h"
#include "bench_reg.h"

#include "chart.h"
#include "describe.h"
#include "ui_draw_impl.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "fmt.h"
#include "table.h"
#include "text.h"


struct scheme {
	short fg, bg;
	attr_t attr;   /* with colour */
	attr_t mono;   /* without */
};

#define DEF (-1)
static const struct scheme schemes[R_COUNT] = {
	[R_NORMAL] = { DEF, DEF, 0, 0 },
	[R_TITLE] = { COLOR_CYAN, DEF, A_BOLD, A_BOLD },
	[R_TAB] = { DEF, DEF, 0, 0 },
	[R_TAB_ON] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD },
	[R_BORDER] = { COLOR_CYAN, DEF, 0, 0 },
	[R_HEAD] = { COLOR_YELLOW, DEF, A_BOLD, A_BOLD },
	[R_SEL] = { DEF, DEF, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
	[R_STATUS] = { DEF, DEF, A_REVERSE, A_REVERSE },
	[R_MSG] = { COLOR_BLACK, COLOR_GREEN, 0, A_BOLD },
	[R_ERR] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD },
	[R_REFROW] = { COLOR_MAGENTA, DEF, A_BOLD, A_BOLD },
	[R_AXIS] = { DEF, DEF, 0, 0 },
	[R_TICK] = { DEF, DEF, 0, 0 },
	[R_LABEL] = { DEF, DEF, A_BOLD, A_BOLD },
	[R_THETA] = { COLOR_RED, DEF, 0, 0 },
	[R_LEGEND] = { COLOR_CYAN, DEF, 0, 0 },
	[R_PARETO] = { COLOR_YELLOW, DEF, A_BOLD, A_BOLD },
	[R_REF] = { COLOR_MAGENTA, DEF, A_BOLD, A_BOLD | A_UNDERLINE },
	[R_PSEL] = { DEF, DEF, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
	[R_OVERLAP] = { DEF, DEF, A_BOLD, A_BOLD },
	[R_CLUSTER + 0] = { COLOR_GREEN, DEF, 0, 0 },
	[R_CLUSTER + 1] = { COLOR_CYAN, DEF, 0, 0 },
	[R_CLUSTER + 2] = { COLOR_YELLOW, DEF, 0, 0 },
	[R_CLUSTER + 3] = { COLOR_MAGENTA, DEF, 0, 0 },
	[R_CLUSTER + 4] = { COLOR_BLUE, DEF, 0, 0 },
	[R_CLUSTER + 5] = { COLOR_RED, DEF, 0, 0 },
	[R_CLUSTER + 6] = { COLOR_GREEN, DEF, A_BOLD, 0 },
	[R_CLUSTER + 7] = { COLOR_CYAN, DEF, A_BOLD, 0 },
	[R_CLUSTER + 8] = { COLOR_YELLOW, DEF, A_BOLD, 0 },
	[R_CLUSTER + 9] = { COLOR_MAGENTA, DEF, A_BOLD, 0 },
	[R_CLUSTER + 10] = { COLOR_BLUE, DEF, A_BOLD, 0 },
	[R_CLUSTER + 11] = { COLOR_RED, DEF, A_BOLD, 0 },
};

static bool use_colour;

void ui_draw_init(void)
{
	const char *nc = getenv("NO_COLOR");
	bool defaults;

	use_colour = false;
	if ((nc && *nc) || !has_colors() || start_color() == ERR || COLORS < 8 ||
	    COLOR_PAIRS <= R_COUNT)
		return;
	defaults = use_default_colors() == OK;
	for (int r = 0; r < R_COUNT; r++) {
		short fg = schemes[r].fg, bg = schemes[r].bg;
		if (!defaults) {
			fg = fg == DEF ? COLOR_WHITE : fg;
			bg = bg == DEF ? COLOR_BLACK : bg;
		}
		init_pair((short)(r + 1), fg, bg);
	}
	use_colour = true;
}

attr_t draw_role(enum ui_role r)
{
	if (r >= R_COUNT)
		r = R_NORMAL;
	if (use_colour)
		return schemes[r].attr | COLOR_PAIR(r + 1);
	return schemes[r].mono;
}

static enum ui_role plot_role(unsigned char pr)
{
	switch (pr) {
	case ROLE_AXIS: return R_AXIS;
	case ROLE_TICK: return R_TICK;
	case ROLE_LABEL: return R_LABEL;
	case ROLE_THETA: return R_THETA;
	case ROLE_LEGEND: return R_LEGEND;
	case ROLE_PARETO: return R_PARETO;
	case ROLE_REF: return R_REF;
	case ROLE_SELECTED: return R_PSEL;
	case ROLE_OVERLAP: return R_OVERLAP;
	case ROLE_BLANK: return R_NORMAL;
	default: break;
	}
	if (pr >= ROLE_CLUSTER)
		return (enum ui_role)(R_CLUSTER + (pr - ROLE_CLUSTER) % MAX_K);
	return R_NORMAL;
}

/* ---- text ---- */

static int text_fit(const char *s, int w, bool utf8, size_t *bytes)
{
	return ui_text_fit(s, w, utf8, bytes);
}

static int text_width(const char *s, bool utf8)
{
	return ui_text_width(s, utf8);
}

/* ---- cells ---- */

enum { CELL_RUN = 256 };

/* Writes len bytes of s at (y, x) in attribute at. */
static void put_ascii(int y, int x, const char *s, int len, attr_t at)
{
	if (len <= 0)
		return;
	attrset(at);
	mvaddnstr(y, x, s, len);
}

/* Draws at most w columns of s at (y, x); returns the columns used. Control bytes, and bytes
 * >= 0x80 outside a UTF-8 locale, become '?': data text never reaches the terminal raw. */
int draw_text(const struct app *app, int y, int x, int w, const char *s, attr_t at)
{
	char out[CELL_RUN];
	size_t n, i = 0, o = 0;
	bool moved = false;
	int col;

	if (w <= 0 || !s)
		return 0;
	col = text_fit(s, w, app->scr.utf8, &n);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t len = 1;
		if (c >= 0x80 && app->scr.utf8) {
			mbstate_t st;
			wchar_t wc;
			memset(&st, 0, sizeof st);
			len = mbrtowc(&wc, s + i, n - i, &st);
			if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
				len = 1;
			} else if (wcwidth(wc) < 0 || utf8_is_c1((const unsigned char *)s + i, len) ||
				   utf8_is_bidi((const unsigned char *)s + i, len)) {
				c = 0; /* the whole character becomes one '?' (see the one sanitizer) */
			} else {
				c = 0x20; /* a valid character: copied as it is */
			}
		}
		if (o + len > sizeof out) {
			/* longer than a screen line: out in pieces */
			if (!moved) {
				attrset(at);
				move(y, x);
				moved = true;
			}
			addnstr(out, (int)o);
			o = 0;
		}
		if (c < 0x20 || c >= 0x7f)
			out[o++] = '?';
		else
			memcpy(out + o, s + i, len), o += len;
		i += len;
	}
	if (!moved) {
		attrset(at);
		move(y, x);
	}
	if (o)
		addnstr(out, (int)o);
	return col;
}

void draw_fill(int y, int x, int w, attr_t at)
{
	if (w <= 0)
		return;
	attrset(at);
	mvhline(y, x, ' ', w);
}

static const char spaces[] = "                                                                ";

/* n spaces at the cursor, in attribute at. */
static void pad(int n, attr_t at)
{
	while (n > 0) {
		int k = n < (int)sizeof spaces - 1 ? n : (int)sizeof spaces - 1, y, x;
		getyx(stdscr, y, x);
		put_ascii(y, x, spaces, k, at);
		n -= k;
	}
}

/* A fixed-width cell: padded, right-aligned if asked, cut in the middle with one '~' when
 * the text is longer (ui_text_cut). Every one of its w cells is written once, in `at`. */
void draw_cell(const struct app *app, int y, int x, int w, const char *s, bool right,
		     attr_t at)
{
	char cut[UI_LINE * 2];
	int tw;

	if (w <= 0)
		return;
	tw = text_width(s, app->scr.utf8);
	if (tw > w) {
		s = ui_text_cut(s, w, app->scr.utf8, cut, sizeof cut);
		tw = text_width(s, app->scr.utf8);
	}
	if (right) {
		move(y, x);
		pad(w - tw, at);
		draw_text(app, y, x + w - tw, w, s, at);
	} else {
		draw_text(app, y, x, w, s, at);
		pad(w - tw, at);
	}
}

void draw_box(const struct ui_rect *r, const char *title, const char *foot,
		   const struct app *app)
{
	attr_t b = draw_role(R_BORDER);

	for (int y = r->y + 1; y < r->y + r->h - 1; y++)
		draw_fill(y, r->x + 1, r->w - 2, draw_role(R_NORMAL));
	attrset(b);
	mvhline(r->y, r->x + 1, '-', r->w - 2);
	mvhline(r->y + r->h - 1, r->x + 1, '-', r->w - 2);
	mvvline(r->y + 1, r->x, '|', r->h - 2);
	mvvline(r->y + 1, r->x + r->w - 1, '|', r->h - 2);
	mvaddch(r->y, r->x, '+');
	mvaddch(r->y, r->x + r->w - 1, '+');
	mvaddch(r->y + r->h - 1, r->x, '+');
	mvaddch(r->y + r->h - 1, r->x + r->w - 1, '+');
	if (title)
		draw_text(app, r->y, r->x + 2, r->w - 4, title, draw_role(R_TITLE));
	if (foot)
		draw_text(app, r->y + r->h - 1, r->x + 2, r->w - 4, foot, b);
}

/* ---- header ---- */

/* A workload's tab: its digit key (the same in every round; none past 9), then its label, the
 * active one in brackets: " 1[BERT] 2 Llama2-LoRA". Returns buf. */
static const char *tab_text(const struct app *app, size_t i, char *buf, size_t n)
{
	bool on = i == app->work_i;
	int d = ui_state_work_digit(app, i);
	char key[2] = { d > 0 ? (char)('0' + d) : '\0', '\0' };

	snprintf(buf, n, " %s%s%s%s", key, on ? "[" : d > 0 ? " " : "", workload_label(app->works[i]),
		 on ? "]" : "");
	return buf;
}

static void draw_header(const struct app *app)
{
	const struct ui_rect *r = &app->scr.lay.header;
	char buf[96];
	int x = 0, first = 0, room;

	draw_fill(r->y, 0, r->w, draw_role(R_NORMAL));
	x += draw_text(app, r->y, x, r->w - x, " gpuscale  ", draw_role(R_TITLE));
	if (app->nrounds > 1)
		snprintf(buf, sizeof buf, "%s (%zu/%zu) ", app->p.round, app->round_i + 1, app->nrounds);
	else
		snprintf(buf, sizeof buf, "%s ", app->p.round ? app->p.round : "-");
	x += draw_text(app, r->y, x, r->w - x, buf, draw_role(R_HEAD));
	/* tabs scroll so that the active one is always whole; '<' and '>' say that more tabs lie
	 * off either side */
	room = r->w - x;
	if (app->nworks == 0)
		return;
	for (;;) {
		int need = first > 0 ? 1 : 0;
		for (int i = first; i <= (int)app->work_i && i < (int)app->nworks; i++)
			need += text_width(tab_text(app, (size_t)i, buf, sizeof buf), app->scr.utf8);
		if ((int)app->work_i + 1 < (int)app->nworks)
			need++;
		if (need <= room || first >= (int)app->work_i)
			break;
		first++;
	}
	if (first > 0)
		x += draw_text(app, r->y, x, r->w - x, "<", draw_role(R_TAB));
	for (int i = first; i < (int)app->nworks && x < r->w; i++) {
		bool on = (size_t)i == app->work_i, last = i + 1 == (int)app->nworks;
		int tw = text_width(tab_text(app, (size_t)i, buf, sizeof buf), app->scr.utf8);
		if (x + tw + (last ? 0 : 1) > r->w && !on) {
			draw_text(app, r->y, r->w - 1, 1, ">", draw_role(R_TAB));
			break;
		}
		x += draw_text(app, r->y, x, r->w - x, buf, draw_role(on ? R_TAB_ON : R_TAB));
	}
}

/* ---- plot ---- */

static void draw_plot(const struct app *app)
{
	const struct ui_layout *l = &app->scr.lay;
	const struct plot_grid *g = &app->pc.grid;

	if (l->plot.h == 0)
		return;
	if (l->wide) {
		char t[128];
		snprintf(t, sizeof t, " %s vs accelerators (log2 N)%s%s", metric_name(app->scr.ymet),
			 app->scr.log_y ? ", log y" : "", app->scr.pareto_marks ? "" : ", Pareto marks off");
		draw_fill(l->plot_title.y, l->plot_title.x, l->plot_title.w, draw_role(R_NORMAL));
		draw_text(app, l->plot_title.y, l->plot_title.x, l->plot_title.w, t, draw_role(R_TITLE));
		attrset(draw_role(R_BORDER));
		mvvline(l->table.y, l->table.x - 1, '|', l->table.h);
	}
	if (!app->pc.grid_ok) {
		draw_text(app, l->plot.y + l->plot.h / 2, l->plot.x + 2, l->plot.w - 4,
			 "(no plot at this size)", draw_role(R_NORMAL));
		return;
	}
	/* each row in one waddchnstr: the attribute of a run of cells with one role is looked up
	 * once, and the cells go straight into the line */
	for (int y = 0; y < g->h && y < l->plot.h; y++) {
		const char *ch = g->ch + (size_t)y * g->w;
		const unsigned char *role = g->role + (size_t)y * g->w;
		int w = g->w < l->plot.w ? g->w : l->plot.w;
		chtype row[PLOT_MAX_W + 1];
		if (w > PLOT_MAX_W)
			w = PLOT_MAX_W;
		for (int x = 0; x < w;) {
			unsigned char r = role[x];
			/* the rasterizer's attribute bits: below theta dim, Preview/Research underlined */
			attr_t at = draw_role(plot_role(r & ROLE_MASK)) | (r & ROLE_F_BELOW ? A_DIM : 0) |
				    (r & ROLE_F_PREVIEW ? A_UNDERLINE : 0);
			for (; x < w && role[x] == r; x++) {
				unsigned char c = (unsigned char)ch[x];
				row[x] = (chtype)(c >= 0x20 && c < 0x7f ? c : '?') | at;
			}
		}
		row[w] = 0;
		mvaddchnstr(l->plot.y + y, l->plot.x, row, w);
	}
	/* the query's answer rows: '@' in place of their glyph */
	int qm[MAX_K * 8];
	for (size_t k = 0, nq = ui_plan_plot_marks(app, qm, sizeof qm / sizeof qm[0]); k < nq; k++)
		if (qm[k] / g->w < l->plot.h && qm[k] % g->w < l->plot.w)
			mvaddch(l->plot.y + qm[k] / g->w, l->plot.x + qm[k] % g->w, '@' | draw_role(R_PSEL));
	/* the selected label in its own characters (the grid holds '?' for non-ASCII ones) */
	if (g->label_w > 0 && g->label_row < l->plot.h && g->label_col + g->label_w <= l->plot.w)
		draw_text(app, l->plot.y + g->label_row, l->plot.x + g->label_col, g->label_w, g->label,
			 draw_role(R_PSEL));
	if (app->nvis == 0)
		draw_text(app, l->plot.y + l->plot.h / 2, l->plot.x + 8, l->plot.w - 10,
			 app->rowfilt[0] ? " no rows shown: Esc clears the row filter "
					 : " no rows shown: F clears the filter ", draw_role(R_ERR));
}

/* ---- table ---- */


static void draw_table(const struct app *app)
{
	const struct ui_rect *r = &app->scr.lay.table;
	bool on[TC_COUNT];
	int w[TC_COUNT];
	char buf[UI_LINE * 2];
	int x;
	bool by_cluster = chart_group_of(&app->p) == GROUP_CLUSTER;

	if (r->h == 0)
		return;
	ui_layout_table_plan(app, r->w, on, w);
	draw_fill(r->y, r->x, r->w, draw_role(R_HEAD));
	x = r->x;
	for (int c = 0; c < TC_COUNT; c++) {
		if (!on[c])
			continue;
		if (table_cols[c]->sort == (int)app->p.sort) {
			/* the sort column: its heading, a blank, the direction, in reverse video */
			snprintf(buf, sizeof buf, "%s %s", table_cols[c]->head, app->p.desc ? "v" : "^");
			draw_cell(app, r->y, x, w[c], buf, table_cols[c]->right, draw_role(R_HEAD) | A_REVERSE);
		} else {
			draw_cell(app, r->y, x, w[c], table_cols[c]->head, table_cols[c]->right, draw_role(R_HEAD));
		}
		x += w[c] + 1;
	}
	if (app->nvis == 0) {
		draw_text(app, r->y + 1, r->x + 1, r->w - 1,
			 app->rowfilt[0] ? "no rows: the row filter matches no name (Esc clears it)"
					 : "no rows: the filter hides every system (F clears it)",
			 draw_role(R_NORMAL));
		return;
	}
	const struct q_result *qa = ui_plan_answer(app);
	for (int line = 0; line < app->scr.lay.table_rows; line++) {
		size_t i = app->scr.top + (size_t)line;
		int y = r->y + 1 + line;
		bool sel = i == app->sel;
		const struct arow *ar;
		attr_t base;
		if (i >= app->nvis)
			break;
		ar = ui_state_arow(app, i);
		base = draw_role(sel ? R_SEL : ar->is_ref ? R_REFROW : R_NORMAL) |
		       (ui_plan_marked(app, qa, i) ? A_BOLD | A_UNDERLINE : 0);
		draw_fill(y, r->x, r->w, base);
		x = r->x;
		for (int c = 0; c < TC_COUNT; c++) {
			attr_t at = base;
			const char *text;
			if (!on[c])
				continue;
			/* a cluster's colour where the plot draws clusters; elsewhere the plot's
			 * colours are families' or rounds' */
			if (c == TC_CL && !sel && by_cluster)
				at = draw_role((enum ui_role)(R_CLUSTER + ar->cluster % MAX_K));
			if (c == TC_SYS)
				text = ui_state_name(app, i, buf, sizeof buf);
			else
				text = table_cell(&app->tv, app->ds, &app->a, app->vis[i], (enum tcol)c, buf, sizeof buf);
			draw_cell(app, y, x, w[c], text, table_cols[c]->right, at);
			x += w[c] + 1;
		}
	}
}

/* ---- cluster line and status bar ---- */

/* One summary per cluster; when the full form does not fit the width, a short one is used so
 * that every cluster keeps its place on the line. */
static int cluster_text(const struct app *app, int c, bool brief, char *buf, size_t n)
{
	const struct cluster_sum *cs = &app->a.clusters[c];
	char b1[32], b2[32], b3[32], b4[32], range[80];

	fmt_count(cs->n_min, b1, sizeof b1);
	fmt_count(cs->n_max, b2, sizeof b2);
	if (strcmp(b1, b2))
		snprintf(range, sizeof range, "%s-%s", b1, b2);
	else
		snprintf(range, sizeof range, "%s", b1);
	fmt_sig(cs->ep_mean, 3, b3, sizeof b3);
	if (brief)
		return snprintf(buf, n, " %zu N%s E'%s", cs->n, range, b3);
	return snprintf(buf, n, " %zu sys N %s E' %s+-%s", cs->n, range, b3,
			fmt_sig(cs->ep_sd, 2, b4, sizeof b4));
}

/* The clusters side by side; the first that does not fit whole ends the line with the cut
 * mark '~', so that a missing cluster never goes unnoticed. */
static void draw_clusters(const struct app *app)
{
	const struct ui_rect *r = &app->scr.lay.clusters;
	char buf[160];
	int x = r->x, total = 11, end = r->x + r->w;
	bool brief, by_cluster = chart_group_of(&app->p) == GROUP_CLUSTER;

	draw_fill(r->y, r->x, r->w, draw_role(R_NORMAL));
	x += draw_text(app, r->y, x, r->w, " clusters: ", draw_role(R_HEAD));
	if (app->a.n == 0) {
		draw_text(app, r->y, x, end - x, "-", draw_role(R_NORMAL));
		return;
	}
	for (int c = 0; c < app->a.k && c < MAX_K; c++)
		total += 3 + (c < 9 ? 2 : 3) + cluster_text(app, c, false, buf, sizeof buf);
	brief = total > r->w;
	for (int c = 0; c < app->a.k && c < MAX_K; c++) {
		char g[8], more[24];
		const char *sep = c == 0 ? "" : " | ";
		int need;
		/* numbered, never lettered: the plot's letters name families or rounds */
		describe_cluster(c, g, sizeof g - 1);
		strcat(g, ":");
		need = (int)strlen(sep) + (int)strlen(g) + cluster_text(app, c, brief, buf, sizeof buf);
		bool last = c + 1 == app->a.k || c + 1 == MAX_K;
		int left = (app->a.k < MAX_K ? app->a.k : MAX_K) - c;
		int mw = snprintf(more, sizeof more, " | +%d more ~", left);
		if (x + need > end - (last ? 0 : mw)) {
			/* what does not fit: how many clusters, and the cut mark at the line's end */
			if (x + mw <= end)
				draw_text(app, r->y, end - mw, mw, more, draw_role(R_HEAD));
			else
				put_ascii(r->y, end - 1, "~", 1, draw_role(R_HEAD));
			break;
		}
		x += draw_text(app, r->y, x, end - x, sep, draw_role(R_NORMAL));
		x += draw_text(app, r->y, x, end - x, g,
			       draw_role(by_cluster ? (enum ui_role)(R_CLUSTER + c) : R_NORMAL) | A_BOLD);
		x += draw_text(app, r->y, x, end - x, buf, draw_role(R_NORMAL));
	}
}

/* Draws s in at most w columns at (y, x), cut with '~' when longer; returns the columns used. */
int draw_clip(const struct app *app, int y, int x, int w, const char *s, attr_t at)
{
	int used;

	if (w <= 0)
		return 0;
	if (text_width(s, app->scr.utf8) <= w)
		return draw_text(app, y, x, w, s, at);
	used = draw_text(app, y, x, w - 1, s, at);
	put_ascii(y, x + used, "~", 1, at);
	return used + 1;
}

/* Status line 1's reference: the longest form that fits in room columns; the system id is cut
 * in the middle with '~' before N and the minutes are ever left out. */
static void ref_status(const struct app *app, int room, char *buf, size_t n)
{
	const struct row *r = &app->ds->rows[app->a.ref];
	char mode[96], name[UI_LINE];
	char b1[32], b2[32], tail[96], head[160], cut[UI_LINE * 2];
	int avail;

	describe_ref_mode(app->a.mode, app->a.rule, true, mode, sizeof mode);
	fmt_count((double)r->accelerators, b1, sizeof b1);
	fmt_fixed(r->minutes, 2, b2, sizeof b2);
	snprintf(tail, sizeof tail, " N=%s %s min%s", b1, b2, app->a.ref_hidden ? ", hidden by the filter" : "");
	snprintf(buf, n, "ref (%s) %s%s", mode, describe_row_name(r, name, sizeof name), tail);
	if (text_width(buf, app->scr.utf8) <= room)
		return;
	snprintf(buf, n, "ref (%s) %s%s", mode, r->system, tail);
	if (text_width(buf, app->scr.utf8) <= room)
		return;
	if (app->a.ref_hidden)
		snprintf(tail, sizeof tail, " N=%s %s min, hidden", b1, b2);
	snprintf(head, sizeof head, "ref (%s) ", mode);
	avail = room - text_width(head, app->scr.utf8) - text_width(tail, app->scr.utf8);
	if (avail < 4)
		avail = 4;
	/* cut in the middle like every other name: the tail tells systems apart */
	snprintf(buf, n, "%s%s%s", head, ui_text_cut(r->system, avail, app->scr.utf8, cut, sizeof cut), tail);
}

/* Status line 2's fields, long, short, shorter or shortest ("k=3 (log2 N, E') I=35.2 sil 0.71",
 * "k=3 N,E' I=35.2 sil 0.71", "k=3 I=35.2 sil 0.71", "k=3"), then theta and the groups'
 * brackets in what is left; a form in which not even the first group fits gives way to the
 * next (its width returned as INT_MAX). */
static int fields_text(const struct app *app, int brief, char *buf, size_t n)
{
	static const char *const feats[FEAT_COUNT] = { "N,E'", "N,T", "N,E',T" };
	char b1[32], b2[32], b3[32], kbuf[96], fit[160], rows[UI_SEARCH_MAX + 96];
	const char *auto_k = app->p.k == 0 ? " auto" : "";

	if (brief > 2)
		snprintf(kbuf, sizeof kbuf, "k=%d%s", app->a.k, auto_k); /* the groups matter more */
	else if (brief)
		snprintf(kbuf, sizeof kbuf, "k=%d%s%s%s I=%s sil %s", app->a.k, auto_k, brief > 1 ? "" : " ",
			 brief > 1 ? "" : (unsigned)app->p.feats < FEAT_COUNT ? feats[app->p.feats] : "?",
			 fmt_sig(app->a.inertia, 3, b1, sizeof b1), fmt_fixed(app->a.silhouette, 2, b2, sizeof b2));
	else
		snprintf(kbuf, sizeof kbuf, "k=%d%s (%s) I=%s sil %s", app->a.k, auto_k,
			 feat_set_name(app->p.feats), fmt_sig(app->a.inertia, 3, b1, sizeof b1),
			 fmt_fixed(app->a.silhouette, 2, b2, sizeof b2));
	const struct analysis *a = &app->a;
	char groups[256], head[160], tail[UI_SEARCH_MAX + 288];
	int room;

	ui_state_rows_text(app, rows, sizeof rows);
	if (app->ds->skipped)
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows), ", %zu skipped", app->ds->skipped);
	snprintf(head, sizeof head, " %s | theta %s: ", kbuf, fmt_short(app->p.theta, b3, sizeof b3));
	snprintf(tail, sizeof tail, "%s | %s", ui_state_fit_text(app, brief, fit, sizeof fit), rows);
	/* the groups get what is left, the selected row's first, whole entries only */
	room = app->scr.lay.cols - text_width(head, app->scr.utf8) - text_width(tail, app->scr.utf8);
	describe_groups(a, app->nvis ? a->rows[app->vis[app->sel]].group : 0, room < 8 ? 8 : room,
			groups, sizeof groups);
	/* not even the selected row's group fits: a shorter form of the other fields first */
	if (groups[0] == '+' && brief < 3)
		return INT_MAX;
	if (snprintf(buf, n, "%s%s%s", head, groups, tail) >= (int)n)
		buf[n - 1] = '\0'; /* cut; the caller measures what is there */
	return text_width(buf, app->scr.utf8);
}

/* Whether the selected row's group has a split to show. */
static bool split_shown(const struct app *app)
{
	const struct analysis *a = &app->a;
	size_t g = app->nvis ? a->rows[app->vis[app->sel]].group : 0;

	return g < a->ngroups && a->groups[g].split;
}

static void draw_status(const struct app *app)
{
	const struct ui_layout *l = &app->scr.lay;
	char buf[512], filt[160], mode[96];
	attr_t st = draw_role(R_STATUS);
	int x;

	/* line 1: where we are and against what */
	ui_state_filter_text(app, filt, sizeof filt);
	x = snprintf(buf, sizeof buf, " %s %s | filter: %s | ",
		     app->p.all_rounds ? "all rounds" : app->p.round ? app->p.round : "-",
		     app->p.workload ? workload_label(app->p.workload) : "-", filt);
	if (app->p.mode == REF_FAMILY) {
		snprintf(buf + x, sizeof buf - (size_t)x, "ref: %s",
			 describe_ref_mode(REF_FAMILY, app->p.ref_rule, true, mode, sizeof mode));
	} else if (app->a.ref >= 0) {
		ref_status(app, l->cols - text_width(buf, app->scr.utf8), buf + x, sizeof buf - (size_t)x);
		if (text_width(buf, app->scr.utf8) > l->cols) {
			/* narrow: the round and the word "filter" give way to the reference */
			x = snprintf(buf, sizeof buf, " %s | %s | ",
				     app->p.workload ? workload_label(app->p.workload) : "-", filt);
			ref_status(app, l->cols - text_width(buf, app->scr.utf8), buf + x, sizeof buf - (size_t)x);
		}
	} else {
		snprintf(buf + x, sizeof buf - (size_t)x, "ref - (%s)", ref_mode_name(app->p.mode));
	}
	draw_fill(l->status1.y, 0, l->cols, st);
	draw_clip(app, l->status1.y, 0, l->cols, buf, st);

	/* line 2: clusters, threshold, counts; the short form when the long one does not fit */
	draw_fill(l->status2.y, 0, l->cols, st);
	int brief = 0;
	for (; brief < 3 && fields_text(app, brief, buf, sizeof buf) > l->cols; brief++)
		if (brief == 2)
			fields_text(app, 3, buf, sizeof buf);
	/* the group's throughput and convergence brackets are worth the features' short form */
	if (brief == 0 && !strstr(buf, " thr ") && split_shown(app)) {
		char alt[sizeof buf];
		if (fields_text(app, 1, alt, sizeof alt) <= l->cols && strstr(alt, " thr "))
			memcpy(buf, alt, sizeof buf);
	}
	draw_clip(app, l->status2.y, 0, l->cols, buf, st);
}

/* The selected point as the plot would label it, for the last line when the plot had no room
 * for the label whole (plot_grid.label_off): false when it did, or nothing is selected. */
static bool selected_text(const struct app *app, char *buf, size_t n)
{
	const struct arow *ar;
	const struct row *r;
	char b1[32], b2[32], b3[32];

	if (!app->pc.grid_ok || !app->pc.grid.label_off || app->nvis == 0)
		return false;
	ar = &app->a.rows[app->vis[app->sel]];
	r = &app->ds->rows[ar->row];
	snprintf(buf, n, " selected: %s  N=%s  %s min  E' %s", r->system, fmt_count(ar->N, b1, sizeof b1),
		 fmt_fixed(ar->T, 2, b2, sizeof b2), fmt_fixed(ar->Ep, 2, b3, sizeof b3));
	return true;
}

/* The notice of what the view leaves out (bench_reg_notice) on the last line. */
static void put_notice(const struct app *app, const char *text)
{
	const struct ui_rect *r = &app->scr.lay.msg;
	int x = draw_clip(app, r->y, 1, r->w - 15 > 10 ? r->w - 16 : r->w - 1, text, draw_role(R_LEGEND) | A_BOLD);

	if (r->w - x >= 15)
		draw_clip(app, r->y, r->w - 14, 14, "? help  q quit", draw_role(R_LEGEND));
}

/* A message longer than the last line, whole: wrapped, its last line at row bottom, the lines
 * before it over the lines above (status, clusters, the table's end). */
static void draw_msg_wrapped(const struct app *app, int bottom, attr_t at)
{
	static char lines[UI_MSG_MAX / 8][UI_LINE];
	const struct ui_layout *l = &app->scr.lay;
	int w = l->msg.w, max = bottom + 1;
	size_t k;

	if (max > (int)(sizeof lines / sizeof lines[0]))
		max = (int)(sizeof lines / sizeof lines[0]);
	k = ui_state_msg_lines(app, w - 2, lines, (size_t)max);
	for (size_t i = 0; i < k; i++) {
		int y = bottom - (int)(k - 1 - i);
		draw_fill(y, 0, w, at);
		draw_text(app, y, 1, w - 1, lines[i], at);
	}
}

/* The last line: the prompt while one is open, else the message while it lasts, else the
 * cross-family warning, else what the view leaves out (bench_reg_notice; in the cross-round
 * view it comes before the warning), else the selected point when its plot label had no
 * room, else a reminder of the keys a newcomer needs. */
static void draw_msgline(const struct app *app)
{
	const struct ui_layout *l = &app->scr.lay;
	const struct ui_rect *r = &l->msg;
	char buf[UI_LINE + UI_SEARCH_MAX];
	attr_t m = draw_role(app->msg.err ? R_ERR : R_MSG);
	int x;
	bool notice;

	draw_fill(r->y, 0, r->w, draw_role(R_NORMAL));
	if (app->menu.ov == OV_SEARCH || app->menu.ov == OV_PROMPT) {
		static const char *const ask[] = {
			[PROMPT_SEARCH] = "/", [PROMPT_FILTER] = "rows containing: ", [PROMPT_THETA] = "theta: ",
			[PROMPT_K] = "k (1..12 or auto): ", [PROMPT_QUERY] = "query (e.g. deadline 30 minimize cost): ",
		};
		snprintf(buf, sizeof buf, "%s%s_", ask[app->ed.prompt],
			 app->menu.ov == OV_SEARCH ? app->ed.search : app->ed.input);
		x = draw_clip(app, r->y, 0, r->w, buf, draw_role(R_NORMAL) | A_BOLD);
		/* the message (a count, "no match", a refused value) to the right of the text, or
		 * whole over the lines above when it is longer than the line */
		if (ui_state_msg_long(app) && r->y > 0) {
			draw_msg_wrapped(app, r->y - 1, m);
		} else if (app->msg.text[0] && x + 3 < r->w) {
			draw_fill(r->y, x + 2, r->w - x - 2, m);
			draw_clip(app, r->y, x + 3, r->w - x - 3, app->msg.text, m);
		} else if (x + 3 < r->w) {
			draw_clip(app, r->y, x + 2, r->w - x - 2,
				 app->menu.ov == OV_SEARCH ? "Enter keeps, Esc cancels, Up/Down: other matches"
						      : "Enter applies, Esc cancels", draw_role(R_NORMAL));
		}
		return;
	}
	if (ui_state_msg_long(app)) {
		draw_msg_wrapped(app, r->y, m);
		return;
	}
	if (app->msg.text[0]) {
		draw_fill(r->y, 0, r->w, m);
		draw_clip(app, r->y, 1, r->w - 1, app->msg.text, m);
		return;
	}
	/* what the view leaves out: in the cross-round view, before the other warnings */
	notice = app->msg.notice_left > 0;
	if (notice && app->p.all_rounds) {
		put_notice(app, app->msg.notice);
		return;
	}
	if (app->a.ncross || app->ds->skipped) {
		/* rows lost from the input, or E' against another family's reference: said on this
		 * line while no message is */
		char warn[800];
		if (app->ds->skipped)
			snprintf(warn, sizeof warn, " %zu row%s skipped: %s", app->ds->skipped,
				 app->ds->skipped == 1 ? "" : "s", app->ds->skip_first);
		else
			snprintf(warn, sizeof warn, " E' mixes %s and %s: m back to family mode compares "
				 "within a family", app->a.cross_ref_fam, app->a.cross_row_fam);
		/* the warning, and the way to the help at the line's end as on every other frame */
		draw_fill(r->y, 0, r->w, draw_role(R_NORMAL));
		x = draw_clip(app, r->y, 0, r->w - 15 > 10 ? r->w - 15 : r->w, warn, draw_role(R_ERR));
		if (r->w - x >= 15)
			draw_clip(app, r->y, r->w - 14, 14, "? help  q quit", draw_role(R_LEGEND));
		return;
	}
	if (notice && !app->p.all_rounds) {
		put_notice(app, app->msg.notice);
		return;
	}
	if (selected_text(app, buf, sizeof buf)) {
		x = draw_clip(app, r->y, 0, r->w - 15 > 10 ? r->w - 15 : r->w, buf, draw_role(R_NORMAL) | A_BOLD);
		if (r->w - x >= 15)
			draw_clip(app, r->y, r->w - 14, 14, "? help  q quit", draw_role(R_LEGEND));
		return;
	}
	draw_clip(app, r->y, 0, r->w,
		 " ? help  / find  | filter  s sort  f family  z zoom  Enter detail  q quit",
		 draw_role(R_LEGEND));
}

/* ---- overlays ---- */

static void draw_too_small(const struct app *app)
{
	const struct ui_layout *l = &app->scr.lay;
	char lines[3][64];

	snprintf(lines[0], sizeof lines[0], l->cols >= 18 ? "terminal too small" : "too small");
	snprintf(lines[1], sizeof lines[1], "%dx%d, needs %dx%d", l->cols, l->rows, UI_MIN_COLS,
		 UI_MIN_ROWS);
	snprintf(lines[2], sizeof lines[2], "q quits");
	for (int i = 0; i < 3; i++) {
		int w = (int)strlen(lines[i]);
		int y = l->rows / 2 - 1 + i, x = (l->cols - w) / 2;
		if (y < 0 || y >= l->rows)
			continue;
		draw_text(app, y, x < 0 ? 0 : x, l->cols, lines[i], draw_role(i == 0 ? R_ERR : R_NORMAL));
	}
}

void ui_draw(const struct app *app)
{
	erase();
	if (app->scr.lay.too_small) {
		draw_too_small(app);
		return;
	}
	draw_header(app);
	draw_plot(app);
	draw_table(app);
	draw_clusters(app);
	draw_status(app);
	draw_msgline(app);
	ui_overlay_draw(app);
	attrset(A_NORMAL);
}

/* The message line's notice for the current view (see struct ui_message). */
void ui_draw_notice(struct app *app)
{
	struct ui_message *m = &app->msg;

	m->notice_left = app->ds ? bench_reg_notice(app->ds, app->a.round, app->a.workload,
						    app->p.all_rounds, m->notice, sizeof m->notice) : 0;
}

void ui_draw_frame(struct app *app, bool clear_all)
{
	ui_layout_compute(app, LINES, COLS);
	ui_state_scroll(app);
	ui_state_fill(app);
	ui_state_plot(app);
	ui_draw_notice(app);
	ui_draw(app);
	if (clear_all)
		clearok(curscr, TRUE);
	refresh();
	app->scr.frames++;
}
