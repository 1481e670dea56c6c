/* plot.c: the scatterplot rasterizer. Pure: no terminal, no globals.
 *
 * Layout of a w x h grid (rows from the top):
 *
 *     0 .. h-4   plot area; y tick labels right-aligned at the left, then a space, then the
 *                y axis '|' in column ax (ticks '+'); row 0 is the clip row when points are
 *                clipped, and then holds no values
 *     h-3        the x axis '-' (ticks '+'); its corner '+' at column ax
 *     h-2        x tick labels, centred under their ticks
 *     h-1        the legend
 *
 * Data cells: columns ax+1 .. w-2 (the last column is spare, so a centred label fits under the
 * last tick) and rows above the x axis. The axes are frames: no value maps onto them, so no mark
 * is ever moved to keep them whole (see plot.h for the geometry and why).
 *
 * Rounding policy: a position u cells from the first data cell becomes the cell
 * floor(u + 0.5 + CELL_EPS), i.e. round half up. The nudge is far below a cell and far above
 * the last-bit differences between libm implementations of log2/log10, so a value sitting on a
 * half-cell boundary falls the same way on every machine. Ticks go through the same function as
 * points. Powers of ten are built by exact integer arithmetic, not pow().
 *
 * The axes and the layout are in plot_axis.c, the legend and the selected label in
 * plot_marks.c; this file draws the points and lines and holds the entry points.
 */
#include "plot.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_impl.h"

/* The theta line across the plot area, in the row the layout gave it (the row holding theta).
 * Returns the row, or -1 when theta is unset or outside the data rows. */
static int draw_theta_line(const struct layout *L, struct plot_grid *g)
{
	int r = L->theta_row;

	if (r < 0)
		return -1;
	for (int c = L->ax + 1; c < L->w; c++)
		put(g, r, c, '-', ROLE_THETA);
	return r;
}

/* Its value on the line, after points and the selected label: "-- theta 0.8 --" ("-- 0.8 --"
 * when narrow), as far right as the line is free of them, two dashes kept at the right end;
 * left out when no free stretch is long enough (the legend still gives theta). */
static void draw_theta_text(const struct layout *L, struct plot_grid *g, int r, double theta)
{
	char val[LAB_MAX], text[LAB_MAX + 16];
	int len, width = L->w - 1 - L->ax;
	const unsigned char *role = g->role + (size_t)r * g->w;

	plot_axis_value(val, theta);
	snprintf(text, sizeof text, " theta %s ", val);
	len = (int)strlen(text);
	if (len + 6 > width) {
		snprintf(text, sizeof text, " %s ", val);
		len = (int)strlen(text);
	}
	for (int s = L->w - 2 - len; s >= L->ax + 3; s--) {
		int i = 0;
		while (i < len + 2 && role[s - 1 + i] == ROLE_THETA)
			i++;
		if (i == len + 2) {
			put_text(g, r, s, text, ROLE_THETA);
			return;
		}
	}
}

/* Cells lines may take: blank, or another line (theta, break-even, curve). */
static bool line_cell(const struct plot_grid *g, int r, int c)
{
	int ro = g->role[(size_t)r * g->w + c];

	return ro == ROLE_BLANK || ro == ROLE_THETA || ro == ROLE_BREAKEVEN || ro == ROLE_CURVE;
}

/* The break-even mark: ':' down the column holding mark_x, in blank cells. Returns whether it
 * is drawn (mark_x set and inside the x range). */
static bool draw_mark(const struct layout *L, struct plot_grid *g, double x)
{
	double lx;
	int c;

	if (!(x > 0) || !isfinite(x) || x > VAL_MAX)
		return false;
	lx = log2(x);
	if (lx < L->xlo || lx > L->xhi)
		return false;
	c = col_of(L, lx);
	for (int r = L->y.top; r <= row_bottom(L); r++)
		if (g->role[(size_t)r * g->w + c] == ROLE_BLANK)
			put(g, r, c, ':', ROLE_BREAKEVEN);
	return true;
}

/* Data row (clamped into the data rows) of drawing position p; -inf (log of <= 0) is the bottom. */
static int row_clamped(const struct layout *L, double p)
{
	int r = isnan(p) || p == -INFINITY ? row_bottom(L) : row_of(L, p);

	if (r < L->y.top)
		r = L->y.top;
	if (r > row_bottom(L))
		r = row_bottom(L);
	return r;
}

/* The interval bar of a point in column c: '|' from the row holding hi to the row holding lo
 * (clamped to the data rows), over lines but never over a point. Returns whether one is drawn. */
static bool draw_bar(const struct layout *L, struct plot_grid *g, const unsigned char *cnt,
		     const struct plot_point *p, int c)
{
	int r0, r1;

	if (!(isfinite(p->lo) && isfinite(p->hi) && p->lo < p->hi))
		return false;
	r0 = row_clamped(L, L->y.log ? (p->hi > 0 ? log10(p->hi) : -INFINITY) : p->hi);
	r1 = row_clamped(L, L->y.log ? (p->lo > 0 ? log10(p->lo) : -INFINITY) : p->lo);
	for (int r = r0; r <= r1; r++) {
		size_t k = (size_t)r * g->w + c;
		if (!cnt[k] && line_cell(g, r, c))
			put(g, r, c, '|', ROLE_BAR);
	}
	return true;
}

/* One curve: in each data column its samples span, the glyph in the row of the curve's value
 * there (linear in log2 N and in drawing units between samples), the rows between it and the
 * previous column's filled so a steep curve stays joined. Returns whether a cell was drawn. */
static bool draw_curve(const struct layout *L, struct plot_grid *g, const unsigned char *cnt,
		       const struct plot_curve *cv)
{
	int role = curve_role(cv);
	int prev = -1;
	size_t i = 0;
	bool any = false;

	if (!cv->x || !cv->y || cv->n < 2)
		return false;
	for (int c = L->ax + 1; c <= L->w - 2; c++) {
		double lx = L->xlo + (c - L->ax - 1) / L->xscale, x0, x1, p0, p1, p;
		int r;
		while (i + 1 < cv->n && !(cv->x[i + 1] > 0 && log2(cv->x[i + 1]) >= lx))
			i++;
		if (i + 1 >= cv->n || !(cv->x[i] > 0)) {
			prev = -1;
			continue;
		}
		x0 = log2(cv->x[i]);
		x1 = log2(cv->x[i + 1]);
		p0 = cv->y[i];
		p1 = cv->y[i + 1];
		if (lx < x0 || !(x1 > x0) || !isfinite(p0) || !isfinite(p1) ||
		    (L->y.log && !(p0 > 0 && p1 > 0))) {
			prev = -1;
			continue;
		}
		p0 = ypos(L, p0);
		p1 = ypos(L, p1);
		p = p0 + (p1 - p0) * (lx - x0) / (x1 - x0);
		r = row_of(L, p);
		if (r < L->y.top || r > row_bottom(L)) {
			prev = -1;
			continue;
		}
		int a = prev < 0 ? r : prev < r ? prev + 1 : r, b = prev < 0 ? r : prev > r ? prev - 1 : r;
		for (int rr = a; rr <= b; rr++) {
			size_t k = (size_t)rr * g->w + c;
			if (!cnt[k] && line_cell(g, rr, c)) {
				put(g, rr, c, cv->glyph, role);
				any = true;
			}
		}
		prev = r;
	}
	return any;
}

/* ---- points ----------------------------------------------------------------------------- */

/* Glyph of a lone point: R for a reference; else its own glyph or the cluster letter, upper case
 * when it is a Pareto point and marks are on; '.' / '*' for a cluster outside 0..11; '^' when
 * clipped. The role is its cluster's (ROLE_LABEL outside 0..11), ROLE_REF or ROLE_SELECTED, plus
 * ROLE_F_* bits. */
static void point_glyph(const struct plot_point *p, unsigned flags, bool marks, int clip, bool below,
			char *ch, int *role)
{
	bool par = marks && (flags & PT_PARETO);
	bool inside = p->cluster >= 0 && p->cluster < N_CLUSTER;

	if (flags & PT_REF) {
		*ch = 'R';
		*role = ROLE_REF;
	} else if (p->glyph) {
		*ch = par && p->glyph >= 'a' && p->glyph <= 'z' ? (char)(p->glyph - 'a' + 'A') : ascii(p->glyph);
		*role = inside ? ROLE_CLUSTER + p->cluster : ROLE_LABEL;
	} else if (inside) {
		*ch = (char)((par ? 'A' : 'a') + p->cluster);
		*role = ROLE_CLUSTER + p->cluster;
	} else {
		*ch = par ? '*' : '.';
		*role = ROLE_LABEL;
	}
	if (clip)
		*ch = clip > 0 ? '^' : 'v';
	if (flags & PT_SELECTED)
		*role = ROLE_SELECTED;
	if (below)
		*role |= ROLE_F_BELOW;
	if (flags & PT_PREVIEW)
		*role |= ROLE_F_PREVIEW;
}

/* ---- entry points ----------------------------------------------------------------------- */

/* g->role holds w*h roles followed by two scratch planes (per-cell point count, saturating at
 * 255, and CELL_* flags), so a render allocates nothing for the grid once the size is stable. */
static int grid_alloc(struct plot_grid *g, int w, int h, struct gs_err *err)
{
	size_t n = (size_t)w * h;
	char *ch;
	unsigned char *role;

	if (g->ch && g->role && g->w == w && g->h == h)
		return 0;
	ch = realloc(g->ch, n);
	if (ch)
		g->ch = ch;
	role = ch ? realloc(g->role, 3 * n) : NULL;
	if (!role) {
		plot_free(g);
		err_set(err, NULL, 0, 0, "plot: out of memory for a %dx%d grid", w, h);
		return -1;
	}
	g->role = role;
	g->w = w;
	g->h = h;
	return 0;
}

/* The size limits of both entry points. */
static int spec_check(const struct plot_spec *spec, struct gs_err *err)
{
	if (spec->width < MIN_W || spec->height < MIN_H) {
		err_set(err, NULL, 0, 0, "plot: %dx%d is too small (at least %dx%d)", spec->width,
			spec->height, MIN_W, MIN_H);
		return -1;
	}
	if (spec->width > MAX_W || spec->height > MAX_H) {
		err_set(err, NULL, 0, 0, "plot: %dx%d is too large (at most %dx%d)", spec->width,
			spec->height, MAX_W, MAX_H);
		return -1;
	}
	return 0;
}

/* The row of a y value that is not clipped: the data row holding it, or the one below the
 * theta line's for a value below theta. It never grows with y. */
static inline int value_row(const struct layout *L, double y)
{
	int r = row_of(L, ypos(L, y));

	/* the theta line's row holds only points at or above theta: position alone tells a point
	 * below from one above, in text and in copy and paste (the layout keeps a row below) */
	if (r == L->theta_row && y < L->theta)
		r++;
	return r;
}

/* The cell (r, c) of a placeable point of values x, y: the data cell holding its value, or the
 * clip row. The one mapping from data to cells, for drawing and locating. */
static inline void value_cell(const struct layout *L, double x, double y, int *r, int *c)
{
	int cl = clipped(L, y);

	*c = col_of(L, log2(x));
	*r = cl > 0 ? 0 : cl < 0 ? L->ar - 1 : value_row(L, y);
}

static void point_cell(const struct layout *L, const struct plot_point *p, int *r, int *c)
{
	value_cell(L, p->x, p->y, r, c);
}

int plot_locate(const struct plot_point *pts, size_t n, const struct plot_spec *spec, int *cells,
		struct gs_err *err)
{
	struct layout L;
	struct plot_grid g = { 0 };
	size_t valid;
	int rows;

	/* the legend's rows set the layout, and they depend on what is drawn: render to learn
	 * them */
	if (plot_render(pts, n, spec, &g, err) < 0)
		return -1;
	rows = g.legend_rows;
	plot_free(&g);
	if (plot_axis_layout(pts, n, spec, rows, &L, &valid, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int r, c;
		if (!point_ok(&pts[i], spec->log_y)) {
			cells[i] = -1;
			continue;
		}
		point_cell(&L, &pts[i], &r, &c);
		cells[i] = r * L.w + c;
	}
	return 0;
}

/* Clears g for a new picture of layout L: blank cells, no label, the scratch planes zeroed. */
static void grid_clear(const struct layout *L, struct plot_grid *g)
{
	size_t cells = (size_t)L->w * L->h;

	memset(g->ch, ' ', cells);
	memset(g->role, ROLE_BLANK, 3 * cells);
	g->label_w = 0;
	g->label_row = g->label_col = 0;
	g->label[0] = '\0';
	g->label_off = false;
	g->clipped = 0;
}

/* The legend facts the spec and layout give before any point is drawn. */
static void legend_start(struct legend_info *li, const struct plot_spec *spec,
			 const struct layout *L, size_t hidden)
{
	memset(li, 0, sizeof *li);
	li->spec = spec;
	li->y_name = spec->y_name && *spec->y_name ? spec->y_name : "y";
	li->theta = spec->theta;
	li->theta_set = isfinite(spec->theta);
	li->log_y = spec->log_y;
	li->clip_max = L->y.clip_max;
	li->clip_min = L->y.clip_min;
	li->hidden = hidden;
}

/* What point p adds to the legend: clipped counts, preview, the reference, its cluster (every
 * cluster with a point other than the reference (R) is listed, in lower case, even when its
 * points are all drawn as Pareto glyphs). */
static void legend_note(struct legend_info *li, const struct plot_point *p, int clip,
			bool show_pareto)
{
	if (clip > 0)
		li->clipped++;
	else if (clip < 0)
		li->clipped_low++;
	if (p->flags & PT_PREVIEW)
		li->preview = true;
	if (p->flags & PT_REF)
		li->ref = true;
	else if (p->cluster >= 0 && p->cluster < N_CLUSTER) {
		li->clusters |= 1u << p->cluster;
		if (show_pareto && (p->flags & PT_PARETO)) {
			li->pareto |= 1u << p->cluster;
			li->keys_pareto = true;
		}
	}
}

enum { CELL_SEL = 1, CELL_REF = 2 };

/* The selected point placed: its cell and label (r < 0: none). */
struct selected {
	int r, c;
	const char *label;
};

/* A point drawn as if unselected into cell k: the first point of a cell writes its glyph, a
 * reference overwrites it; every point counts (cnt, saturating at 255; flag: CELL_REF).
 * Returns whether the cell now has two points. */
static inline bool draw_one(struct plot_grid *g, unsigned char *cnt, unsigned char *flag, size_t k,
			    char ch, int role, bool ref)
{
	if (ref) {
		g->ch[k] = ch;
		g->role[k] = (unsigned char)role;
		flag[k] |= CELL_REF;
	} else if (cnt[k] == 0) {
		g->ch[k] = ch;
		g->role[k] = (unsigned char)role;
	}
	if (cnt[k] < 255)
		cnt[k]++;
	return cnt[k] == 2;
}

/* One pass over every point as if none were selected (draw_selected draws the selection),
 * each drawn by draw_one. Returns whether a cell has several points. */
static bool draw_points(const struct layout *L, struct plot_grid *g, const struct plot_point *pts,
			size_t n, const struct plot_spec *spec, struct legend_info *li)
{
	unsigned char *cnt = g->role + (size_t)L->w * L->h, *flag = cnt + (size_t)L->w * L->h;
	bool overlap = false, theta_on = li->theta_set && fabs(spec->theta) <= VAL_MAX;

	for (size_t i = 0; i < n; i++) {
		const struct plot_point *p = &pts[i];
		unsigned flags = p->flags & ~(unsigned)PT_SELECTED;
		char ch;
		int role, r, c, clip;
		size_t k;

		if (!point_ok(p, spec->log_y))
			continue;
		point_cell(L, p, &r, &c);
		k = (size_t)r * L->w + c;
		clip = clipped(L, p->y);
		point_glyph(p, flags, spec->show_pareto, clip, theta_on && p->y < spec->theta, &ch, &role);
		legend_note(li, p, clip, spec->show_pareto);
		if (draw_one(g, cnt, flag, k, ch, role, flags & PT_REF))
			overlap = true;
	}
	return overlap;
}

/* Whether the count of cell (r, k) is drawn: several points, no reference or selected point,
 * in a data row. */
static bool count_cell(const struct layout *L, const unsigned char *cnt, const unsigned char *flag,
		       int r, size_t k)
{
	return cnt[k] >= 2 && !flag[k] && r >= L->y.top && r <= row_bottom(L);
}

/* Data cells with several points and neither a selected point nor a reference show their
 * count, '#' for ten or more. Returns how many show '#'. */
static size_t draw_counts(const struct layout *L, struct plot_grid *g)
{
	const unsigned char *cnt = g->role + (size_t)L->w * L->h, *flag = cnt + (size_t)L->w * L->h;
	size_t many = 0;

	for (int r = 0; r < L->ar; r++)
		for (int c = L->ax + 1; c < L->w; c++) {
			size_t k = (size_t)r * L->w + c;
			if (!count_cell(L, cnt, flag, r, k))
				continue;
			/* '#', not '+': a '+' reads as an axis tick */
			g->ch[k] = cnt[k] > 9 ? '#' : (char)('0' + cnt[k]);
			g->role[k] = ROLE_OVERLAP;
			many += cnt[k] > 9;
		}
	return many;
}

/* The interval bars of the points that are not clipped; returns whether one is drawn. */
static bool draw_bars(const struct layout *L, struct plot_grid *g, const struct plot_point *pts,
		      size_t n, bool log_y)
{
	const unsigned char *cnt = g->role + (size_t)L->w * L->h;
	bool any = false;

	for (size_t j = 0; j < n; j++) {
		const struct plot_point *p = &pts[j];
		int r, c;
		/* a clipped point's bar would state a range its mark does not */
		if (!point_ok(p, log_y) || clipped(L, p->y))
			continue;
		point_cell(L, p, &r, &c);
		if (draw_bar(L, g, cnt, p, c))
			any = true;
	}
	return any;
}

/* The selected points over the picture: their cells keep the mark they show (the point's glyph,
 * a count, the reference's R) and take the selected role, so selecting a point never hides what
 * its cell says. *sel gets the first one's place. */
static void draw_selected(const struct layout *L, struct plot_grid *g, const struct plot_point *pts,
			  size_t n, const struct plot_spec *spec, bool theta_on, struct selected *sel)
{
	size_t cells = (size_t)L->w * L->h;
	unsigned char *cnt = g->role + cells, *flag = cnt + cells;

	for (size_t i = 0; i < n; i++) {
		const struct plot_point *p = &pts[i];
		char ch;
		int role, r, c, clip;
		size_t k;

		if (!(p->flags & PT_SELECTED) || !point_ok(p, spec->log_y))
			continue;
		point_cell(L, p, &r, &c);
		k = (size_t)r * L->w + c;
		clip = clipped(L, p->y);
		point_glyph(p, p->flags, spec->show_pareto, clip, theta_on && p->y < spec->theta, &ch,
			    &role);
		if (!(flag[k] & CELL_SEL))
			g->role[k] = (unsigned char)role;
		flag[k] |= CELL_SEL;
		if (sel->r < 0)
			*sel = (struct selected){ r, c, p->label };
	}
}

/* Drawing order: the axes and the theta line, every point as if unselected, the counts, the
 * bars and curves, then the selection over them, the break-even mark (blank cells only: the
 * bars and curves take blank and mark cells alike, so drawing it after them changes nothing),
 * the selected label, theta's text and the legend, which say what the picture holds. */
/* One picture of everything but the legend, rows rows left for it; fills li. */
static int render_body(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		       int rows, struct plot_grid *g, struct layout *L, struct legend_info *li,
		       int *theta_row, struct gs_err *err)
{
	struct selected sel = { -1, -1, NULL };
	size_t valid, many;

	if (plot_axis_layout(pts, n, spec, rows, L, &valid, err) < 0) {
		plot_free(g);
		return -1;
	}
	grid_clear(L, g);
	plot_axis_draw(L, g);
	legend_start(li, spec, L, n - valid);
	*theta_row = draw_theta_line(L, g);
	li->theta_drawn = *theta_row >= 0;
	many = draw_points(L, g, pts, n, spec, li) ? draw_counts(L, g) : 0;
	g->clipped = li->clipped + li->clipped_low;
	if (spec->show_bars)
		li->bars = draw_bars(L, g, pts, n, spec->log_y);
	for (size_t i = 0; spec->curves && i < spec->ncurves; i++)
		if (draw_curve(L, g, g->role + (size_t)L->w * L->h, &spec->curves[i]) && i < 16)
			li->curve[i] = true;
	draw_selected(L, g, pts, n, spec, li->theta_set && fabs(spec->theta) <= VAL_MAX, &sel);
	li->many = many > 0;
	li->mark = draw_mark(L, g, spec->mark_x);
	if (sel.r >= 0 && sel.label)
		plot_marks_label(L, g, g->role + (size_t)L->w * L->h, sel.r, sel.c, sel.label);
	if (*theta_row >= 0)
		draw_theta_text(L, g, *theta_row, spec->theta);
	return 0;
}

/* Drawing order: the axes and the theta line, every point as if unselected, the counts, the
 * bars and curves, then the selection over them, the break-even mark (blank cells only: the
 * bars and curves take blank and mark cells alike, so drawing it after them changes nothing),
 * the selected label, theta's text and the legend, which say what the picture holds. A legend
 * longer than a row takes more rows from the plot (what it says depends on what is drawn, so
 * the picture is drawn again with them, at most twice). */
int plot_render(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		struct plot_grid *g, struct gs_err *err)
{
	struct layout L;
	struct legend_info li;
	int theta_row, rows = 1, max;

	if (spec_check(spec, err) < 0)
		return -1;
	if (grid_alloc(g, spec->width, spec->height, err) < 0)
		return -1;
	max = legend_max_rows(spec->height);
	for (int pass = 0;; pass++) {
		int want;
		if (render_body(pts, n, spec, rows, g, &L, &li, &theta_row, err) < 0)
			return -1;
		want = plot_marks_legend_rows(&li, L.w, max);
		if (want <= rows || pass == 2)
			break;
		rows = want;
	}
	plot_marks_legend(g, &li, rows);
	g->legend_rows = rows;
	return 0;
}

size_t plot_to_text(const struct plot_grid *g, char *buf, size_t n)
{
	size_t need = 0;

#define EMIT(ch) do { if (need + 1 < n) buf[need] = (ch); need++; } while (0)
	if (g && g->ch)
		for (int r = 0; r < g->h; r++) {
			const char *line = g->ch + (size_t)r * g->w;
			int len = g->w;
			while (len > 0 && line[len - 1] == ' ')
				len--;
			for (int c = 0; c < len; c++) {
				if (r == g->label_row && c == g->label_col && g->label_w > 0) {
					for (const char *s = g->label; *s; s++)
						EMIT(*s);
					c += g->label_w - 1;
					continue;
				}
				EMIT(line[c]);
			}
			EMIT('\n');
		}
#undef EMIT
	if (n > 0)
		buf[need < n ? need : n - 1] = '\0';
	return need;
}

void plot_free(struct plot_grid *g)
{
	if (!g)
		return;
	free(g->ch);
	free(g->role);
	g->ch = NULL;
	g->role = NULL;
	g->w = g->h = 0;
	g->label_w = 0;
}
