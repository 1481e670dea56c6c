/* plot.c: the scatterplot rasterizer. Pure: no terminal, no globals, no allocation per point.
 *
 * Layout of a w x h grid (rows from the top):
 *
 *     0 .. h-4   plot area; y tick labels right-aligned at the left, then a space, then the
 *                y axis '|' in column ax (ticks '+')
 *     h-3        the x axis '-' (ticks '+'); its corner '+' at column ax is the origin of both
 *                ranges (x = 2^xlo, y = ylo)
 *     h-2        x tick labels, centred under their ticks
 *     h-1        the legend
 *
 * The y range maps onto rows h-3 (bottom) .. 0 (top); the x range onto columns ax .. w-2 (the
 * last column is spare, so a centred three-character label fits under the last tick). Points
 * and the theta line are drawn in the plot area only: a position that rounds onto an axis is
 * moved one cell inwards, so the axes are never broken by data.
 *
 * Rounding policy: a position u in [0, 1] along an axis of `span` cells becomes the cell
 * floor(u * span + 0.5 + CELL_EPS), i.e. round half up. The nudge is far below a cell and far
 * above the last-bit differences between libm implementations of log2/log10, so a value sitting
 * on a half-cell boundary (e.g. N = 2^k halfway between two columns) falls the same way on every
 * machine. Ticks go through the same function as points, so a point at a tick value is drawn in
 * the tick's row or column. Powers of ten are built by exact integer arithmetic, not pow().
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	MIN_W = PLOT_MIN_W, MIN_H = PLOT_MIN_H, MAX_W = PLOT_MAX_W, MAX_H = PLOT_MAX_H,
	N_CLUSTER = 12,
	LAB_MAX = 24,   /* one tick label, NUL included */
	YT_MAX = 128,   /* y ticks: at most one every second row of a 200-row grid */
	LEG_MAX = 1024, /* legend text before clipping */
};

#define CELL_EPS 1e-9
#define LOG10_2 0.30102999566398119521
#define LOG10_3 0.47712125471966243730
#define LOG10_5 0.69897000433601880479
/* |values| beyond this are not drawn: padding and tick arithmetic stay finite. */
#define VAL_MAX 1e300
/* Every point keeps at least this much (in powers of two) from the ends of the x range. */
#define X_MARGIN 0.1
/* Relative padding of the y range on each side. */
#define Y_PAD 0.05

struct yaxis {
	bool log;
	double lo, hi;            /* range in drawing units: y, or log10(y) */
	int n;                    /* ticks */
	double pos[YT_MAX];       /* drawing units */
	char lab[YT_MAX][LAB_MAX];
};

struct layout {
	int w, h;
	int ax;                   /* y axis column */
	int ar;                   /* x axis row */
	int xlo, xhi;             /* x range, exponents of two */
	double xscale, yscale;    /* cells per drawing unit */
	struct yaxis y;
};

/* ---- numbers ---------------------------------------------------------------------------- */

/* 10^e from exact integer powers: 10^0..10^22 are exact doubles, so e >= 0 is exact and e < 0 is
 * one correctly rounded division; beyond, repeated products (still the same on every IEEE
 * machine, unlike pow() whose last bit varies between libms). */
static double pow10i(int e)
{
	double p = 1;
	int a = e < 0 ? -e : e;

	while (a > 22) {
		p *= 1e22;
		a -= 22;
	}
	for (; a > 0; a--)
		p *= 10;
	return e < 0 ? 1 / p : p;
}

/* snprintf's decimal point follows LC_NUMERIC; the grid always shows '.', in plain ASCII. */
static void c_point(char *s)
{
	char *w = s;
	bool point = false;

	for (const char *r = s; *r; r++) {
		if ((*r >= '0' && *r <= '9') || *r == '-')
			*w++ = *r;
		else if (!point) {
			*w++ = '.';
			point = true;
		}
	}
	*w = '\0';
}

/* v with `dec` decimals, "-0" shown as "0". */
static void put_fixed(char *buf, size_t n, double v, int dec)
{
	snprintf(buf, n, "%.*f", dec, v);
	c_point(buf);
	if (strspn(buf, "-0.") == strlen(buf) && buf[0] == '-')
		memmove(buf, buf + 1, strlen(buf));
}

/* Compact form of any value for labels that would otherwise be too long: "1.5e-12". */
static void put_expo(char *buf, size_t n, double v)
{
	int e;
	double m;

	if (v == 0) {
		snprintf(buf, n, "0");
		return;
	}
	e = (int)floor(log10(fabs(v)));
	m = v / pow10i(e);
	if (fabs(m) >= 9.95) {
		m /= 10;
		e++;
	}
	put_fixed(buf, n, m, 1);
	snprintf(buf + strlen(buf), n - strlen(buf), "e%d", e);
}

/* A linear tick value v on a grid of step m*10^e. Decimals follow the step (step 0.05 -> two);
 * values of five digits and more drop thousands into k, M, G, T when the step allows it. */
static void fmt_linear(char *buf, double v, int e, double amax)
{
	static const char sfx[] = "\0kMGT";
	int k = 0, dec;

	while (k < 4 && e >= 3 * (k + 1) && amax >= 10 * pow10i(3 * (k + 1)))
		k++;
	dec = e - 3 * k < 0 ? 3 * k - e : 0;
	if (dec > 6 || fabs(v) / pow10i(3 * k) >= 1e9) {
		put_expo(buf, LAB_MAX, v);
		return;
	}
	put_fixed(buf, LAB_MAX, v / pow10i(3 * k), dec);
	if (k > 0 && strcmp(buf, "0") != 0) {
		size_t l = strlen(buf);
		buf[l] = sfx[k];
		buf[l + 1] = '\0';
	}
}

/* A 1-2-5 value m*10^e: 0.05, 0.5, 5, 50, 500, 5k, 50k, ... 500T, then 5e15. */
static void fmt_pow10(char *buf, int m, int e)
{
	static const char sfx[] = "\0kMGT";

	if (e >= 0 && e < 3)
		snprintf(buf, LAB_MAX, "%d", m * (int)pow10i(e));
	else if (e >= 3 && e < 15)
		snprintf(buf, LAB_MAX, "%d%c", m * (int)pow10i(e % 3), sfx[e / 3]);
	else if (e < 0 && e >= -6)
		put_fixed(buf, LAB_MAX, m * pow10i(e), -e);
	else
		snprintf(buf, LAB_MAX, "%de%d", m, e);
}

/* 2^e written out while it fits five digits (1 2 4 ... 1024 ... 65536), then as 2^e: a "1k" tick
 * at 1024 would read as 1000, and these axes are for counting accelerators exactly. */
static void fmt_pow2(char *buf, int e)
{
	if (e >= 0 && e <= 16)
		snprintf(buf, LAB_MAX, "%d", 1 << e);
	else
		snprintf(buf, LAB_MAX, "2^%d", e);
}

/* ---- positions -------------------------------------------------------------------------- */

/* Cell 0..span for a position p cells from the axis origin: round half up, nudged (see top). */
static int cell_of(double p, int span)
{
	p = p + 0.5 + CELL_EPS;
	if (!(p >= 0))
		return 0;
	if (p >= span)
		return span;
	return (int)p;
}

static int col_of(const struct layout *L, double lx)
{
	return L->ax + cell_of((lx - L->xlo) * L->xscale, L->w - 2 - L->ax);
}

static int row_of(const struct layout *L, double py)
{
	return L->ar - cell_of((py - L->y.lo) * L->yscale, L->ar);
}

static double ypos(const struct layout *L, double y)
{
	return L->y.log ? log10(y) : y;
}

static bool point_ok(const struct plot_point *p, bool log_y)
{
	return isfinite(p->x) && isfinite(p->y) && p->x > 0 && p->x <= VAL_MAX &&
	       fabs(p->y) <= VAL_MAX && (!log_y || p->y >= 1 / VAL_MAX);
}

/* ---- y ticks ---------------------------------------------------------------------------- */

/* True when the tick rows are strictly decreasing with at least `gap` rows between neighbours,
 * so labels never touch unless gap is 1. */
static bool rows_spaced(const struct layout *L, const double *pos, int n, int gap)
{
	for (int i = 1; i < n; i++)
		if (row_of(L, pos[i - 1]) - row_of(L, pos[i]) < gap)
			return false;
	return true;
}

/* Ticks at multiples of step = m*10^e inside [vlo, vhi] (values; log axes position them at
 * log10 of the value). Returns the count, or -1 when there would be more than YT_MAX. */
static int linear_candidates(struct yaxis *y, double vlo, double vhi, int m, int e)
{
	double step = m * pow10i(e), k0, k1, amax;
	int n = 0;

	k0 = ceil(vlo / step - 1e-9);
	k1 = floor(vhi / step + 1e-9);
	if (!(k1 - k0 < YT_MAX))
		return -1;
	amax = fmax(fabs(vlo), fabs(vhi));
	for (double k = k0; k <= k1 && n < YT_MAX; k++) {
		double v = k * step;
		if (y->log && v <= 0)
			continue;
		y->pos[n] = y->log ? log10(v) : v;
		fmt_linear(y->lab[n], v, e, amax);
		n++;
	}
	return n;
}

/* Smallest 1-2-5 step m*10^e that is at least raw. */
static void step_from(double raw, int *m, int *e)
{
	int ex = (int)floor(log10(raw));

	while (pow10i(ex) > raw)
		ex--;
	while (pow10i(ex + 1) <= raw)
		ex++;
	*e = ex;
	*m = raw <= pow10i(ex) ? 1 : raw <= 2 * pow10i(ex) ? 2 : raw <= 5 * pow10i(ex) ? 5 : 10;
	if (*m == 10) {
		*m = 1;
		(*e)++;
	}
}

static void step_next(int *m, int *e)
{
	if (*m == 1)
		*m = 2;
	else if (*m == 2)
		*m = 5;
	else {
		*m = 1;
		(*e)++;
	}
}

/* Linear 1-2-5 ticks on values vlo..vhi: the finest step whose labels keep `gap` rows apart.
 * Starting at one tick per row and coarsening keeps the loop short (a few dozen steps). */
static void ticks_linear(const struct layout *L, struct yaxis *y, double vlo, double vhi, int gap)
{
	int m, e, n;

	y->n = 0;
	if (!(isfinite(vlo) && isfinite(vhi) && vhi > vlo && isfinite((vhi - vlo) / L->ar)))
		return;
	step_from((vhi - vlo) / L->ar, &m, &e);
	for (int guard = 0; guard < 200; guard++, step_next(&m, &e)) {
		n = linear_candidates(y, vlo, vhi, m, e);
		if (n >= 0 && rows_spaced(L, y->pos, n, gap)) {
			y->n = n;
			return;
		}
	}
	y->n = 0;
}

/* Log ticks, finest first: 1-2-5 in every decade, then 1-3 (1, 3, 10, 30: nearly even steps
 * of half a decade), then every decade, then every 2nd, 3rd, 5th, 10th... decade; the first
 * whose labels stay `gap` rows apart wins. Returns the tick count. */
static int ticks_log125(const struct layout *L, struct yaxis *y, int gap)
{
	static const int strides[] = { 1, 2, 3, 5, 10, 20, 30, 50, 100, 200 };
	static const int ms[2][3] = { { 1, 2, 5 }, { 1, 3, 0 } };
	static const double lm[2][3] = { { 0, LOG10_2, LOG10_5 }, { 0, LOG10_3, 0 } };
	int d0 = (int)floor(y->lo) - 1, d1 = (int)ceil(y->hi) + 1, n;

	for (int lv = 0; lv < 2; lv++) {
		n = 0;
		for (int d = d0; d <= d1 && n < YT_MAX; d++)
			for (int i = 0; i < 3 && ms[lv][i] && n < YT_MAX; i++) {
				double p = d + lm[lv][i];
				if (p < y->lo - 1e-9 || p > y->hi + 1e-9)
					continue;
				y->pos[n] = p;
				fmt_pow10(y->lab[n], ms[lv][i], d);
				n++;
			}
		if (n < YT_MAX && rows_spaced(L, y->pos, n, gap))
			return n;
	}
	for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
		int st = strides[s];
		n = 0;
		for (int d = d0; d <= d1 && n < YT_MAX; d++) {
			if (((d % st) + st) % st != 0 || d < y->lo - 1e-9 || d > y->hi + 1e-9)
				continue;
			y->pos[n] = d;
			fmt_pow10(y->lab[n], 1, d);
			n++;
		}
		if (n < YT_MAX && rows_spaced(L, y->pos, n, gap))
			return n;
	}
	return 0;
}

/* Fills L->y ticks for the range already set. Big plots keep labels three rows apart, small
 * ones two; if that leaves fewer than two labels, neighbouring rows are allowed. */
static void y_ticks(struct layout *L)
{
	struct yaxis *y = &L->y;
	int gap = L->ar >= 16 ? 3 : 2;

	for (; gap >= 1; gap--) {
		if (y->log) {
			y->n = ticks_log125(L, y, gap);
			/* less than one 1-2-5 step of range (1.1 .. 1.9): linear values, log positions */
			if (y->n < 2 && y->hi - y->lo < 1)
				ticks_linear(L, y, pow(10, y->lo), pow(10, y->hi), gap);
		} else {
			ticks_linear(L, y, y->lo, y->hi, gap);
		}
		if (y->n >= 2)
			return;
	}
}

/* ---- ranges ----------------------------------------------------------------------------- */

/* y range in drawing units: the data padded by Y_PAD of its span on each side (linear: never
 * below zero for data that is not; a single value: +-10%, or +-1 around zero; log: a tenth of
 * a decade). No valid point: 0..1 (log: 0.1..10). */
static void y_range(struct yaxis *y, bool any, double dmin, double dmax)
{
	if (!any) {
		y->lo = y->log ? -1 : 0;
		y->hi = 1;
		return;
	}
	if (y->log) {
		double lmin = log10(dmin), lmax = log10(dmax), pad = (lmax - lmin) * Y_PAD;
		if (pad < 1e-9)
			pad = 0.1;
		y->lo = lmin - pad;
		y->hi = lmax + pad;
		return;
	}
	double span = dmax - dmin, mag = fmax(fabs(dmin), fabs(dmax));
	if (span <= mag * 1e-12 || span < 1e-290) {
		double pad = mag * 0.1;
		if (pad < 1e-290)
			pad = 1;
		y->lo = dmin - pad;
		y->hi = dmax + pad;
		return;
	}
	y->lo = dmin - span * Y_PAD;
	y->hi = dmax + span * Y_PAD;
	if (dmin >= 0 && y->lo < 0)
		y->lo = 0;
}

/* x range: whole powers of two around the data. The low end keeps at least X_MARGIN of a power
 * below the smallest N, so the reference (often the smallest system) is not pushed against the
 * y axis, but never goes below 2^0 for counts of at least one; the high end is the next power at
 * or above the largest N (nothing to collide with on the right). A range of less than two powers
 * grows to two, keeping a lone N off the edges. No valid point: 1..64. */
static void x_range(struct layout *L, bool any, double xmin, double xmax)
{
	double lmin, lmax;

	if (!any) {
		L->xlo = 0;
		L->xhi = 6;
		return;
	}
	lmin = log2(xmin);
	lmax = log2(xmax);
	L->xlo = (int)floor(lmin - X_MARGIN);
	if (lmin >= 0 && L->xlo < 0)
		L->xlo = 0;
	L->xhi = (int)ceil(lmax);
	if (L->xhi - L->xlo < 2)
		L->xhi = L->xlo + 2;
}

/* ---- x ticks ---------------------------------------------------------------------------- */

/* Label start column for a label centred on col, kept inside the grid. */
static int label_start(int col, int len, int w)
{
	int s = col - len / 2;

	if (s + len > w)
		s = w - len;
	return s < 0 ? 0 : s;
}

/* Labels every `every` powers (exponents divisible by it: 1 4 16 64 ... for 2) when they fit
 * with a space between them. */
static bool x_labels_fit(const struct layout *L, int every)
{
	int end = -2;
	char lab[LAB_MAX];

	for (int e = L->xlo; e <= L->xhi; e++) {
		if (((e % every) + every) % every != 0)
			continue;
		fmt_pow2(lab, e);
		int len = (int)strlen(lab), s = label_start(col_of(L, e), len, L->w);
		if (s < end + 2)
			return false;
		end = s + len - 1;
	}
	return true;
}

/* ---- grid ------------------------------------------------------------------------------- */

static void put(struct plot_grid *g, int r, int c, char ch, int role)
{
	if (r < 0 || r >= g->h || c < 0 || c >= g->w)
		return;
	g->ch[(size_t)r * g->w + c] = ch;
	g->role[(size_t)r * g->w + c] = (unsigned char)role;
}

static void put_text(struct plot_grid *g, int r, int c, const char *s, int role)
{
	for (; *s; s++, c++)
		put(g, r, c, *s, role);
}

static char ascii(char c)
{
	return c >= 0x20 && c < 0x7f ? c : '?';
}

static void draw_axes(const struct layout *L, struct plot_grid *g)
{
	const struct yaxis *y = &L->y;
	int every = 1, cpp;

	for (int r = 0; r < L->ar; r++)
		put(g, r, L->ax, '|', ROLE_AXIS);
	for (int c = L->ax + 1; c < L->w; c++)
		put(g, L->ar, c, '-', ROLE_AXIS);
	put(g, L->ar, L->ax, '+', ROLE_AXIS);

	for (int i = 0; i < y->n; i++) {
		int r = row_of(L, y->pos[i]), len = (int)strlen(y->lab[i]);
		if (r < L->ar)
			put(g, r, L->ax, '+', ROLE_TICK);
		put_text(g, r, L->ax - 1 - len, y->lab[i], ROLE_LABEL);
	}

	/* x: label every power if there is room, else every 2nd, 4th, ...; tick marks on every
	 * power while they stay a column apart, else on the labelled ones only. */
	while (every < 64 && !x_labels_fit(L, every))
		every *= 2;
	cpp = (L->w - 2 - L->ax) / (L->xhi - L->xlo);
	for (int e = L->xlo; e <= L->xhi; e++) {
		bool labelled = ((e % every) + every) % every == 0;
		int c = col_of(L, e);
		char lab[LAB_MAX];
		if (c > L->ax && (labelled || cpp >= 2))
			put(g, L->ar, c, '+', ROLE_TICK);
		if (!labelled)
			continue;
		fmt_pow2(lab, e);
		put_text(g, L->ar + 1, label_start(c, (int)strlen(lab), L->w), lab, ROLE_LABEL);
	}
}

/* Value text for theta and the legend: up to three significant digits, no trailing zeros. */
static void fmt_value(char *buf, double v)
{
	int dec = 0;
	double a = fabs(v);

	if (a > 0 && a < 1e9) {
		dec = 2 - (int)floor(log10(a));
		if (dec < 0)
			dec = 0;
		if (dec > 9) {
			put_expo(buf, LAB_MAX, v);
			return;
		}
	} else if (a >= 1e9) {
		put_expo(buf, LAB_MAX, v);
		return;
	}
	put_fixed(buf, LAB_MAX, v, dec);
	if (strchr(buf, '.')) {
		size_t l = strlen(buf);
		while (buf[l - 1] == '0')
			buf[--l] = '\0';
		if (buf[l - 1] == '.')
			buf[--l] = '\0';
	}
}

/* The theta line across the plot area, in the row of theta (moved off the x axis like points).
 * Returns the row, or -1 when theta is unset or outside the y range. */
static int draw_theta_line(const struct layout *L, struct plot_grid *g, double theta)
{
	int r;

	if (!isfinite(theta) || (L->y.log && theta <= 0))
		return -1;
	double p = ypos(L, theta);
	if (p < L->y.lo || p > L->y.hi)
		return -1;
	r = row_of(L, p);
	if (r >= L->ar)
		r = L->ar - 1;
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

	fmt_value(val, theta);
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

/* ---- legend ----------------------------------------------------------------------------- */

struct legend {
	char ch[LEG_MAX];
	unsigned char role[LEG_MAX];
	int n;
};

struct legend_info {
	const char *y_name;
	unsigned clusters, pareto;   /* bit c: cluster c has a point / is drawn as a Pareto glyph */
	bool ref, theta_set, theta_drawn, log_y, many;  /* many: a '#' cell (ten points or more) */
	double theta;
	size_t hidden;
};

static void leg_put(struct legend *b, const char *s, int role)
{
	for (; *s && b->n < LEG_MAX; s++) {
		b->ch[b->n] = ascii(*s);
		b->role[b->n++] = (unsigned char)role;
	}
}

/* Glyphs of the clusters in mask: "a b c" (spaced), "abc", or "a-l" for more than four. */
static void leg_glyphs(struct legend *b, unsigned mask, char base, bool spaced)
{
	int count = 0, first = -1, last = -1;
	char s[2] = { 0, 0 };

	for (int c = 0; c < N_CLUSTER; c++)
		if (mask & (1u << c)) {
			count++;
			if (first < 0)
				first = c;
			last = c;
		}
	if (count > 4) {
		s[0] = (char)(base + first);
		leg_put(b, s, ROLE_CLUSTER + first);
		leg_put(b, "-", ROLE_LEGEND);
		s[0] = (char)(base + last);
		leg_put(b, s, ROLE_CLUSTER + last);
		return;
	}
	for (int c = 0, k = 0; c < N_CLUSTER; c++) {
		if (!(mask & (1u << c)))
			continue;
		if (k++ > 0 && spaced)
			leg_put(b, " ", ROLE_LEGEND);
		s[0] = (char)(base + c);
		leg_put(b, s, ROLE_CLUSTER + c);
	}
}

/* Legend at verbosity lv: 0 full words, 1 shorter, 2 terse, 3 terse with single spaces. */
static void leg_build(struct legend *b, int lv, const struct legend_info *li)
{
	const char *sep = lv < 3 ? "  " : " ";
	char num[LAB_MAX + 32];

	b->n = 0;
	if (lv == 0) {
		leg_put(b, "x: N (log2)  y: ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		if (li->log_y)
			leg_put(b, " (log)", ROLE_LEGEND);
	} else if (lv == 1) {
		if (li->log_y)
			leg_put(b, "log ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		leg_put(b, " vs N", ROLE_LEGEND);
	} else {
		if (li->log_y)
			leg_put(b, "log ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
	}
	if (li->clusters) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_glyphs(b, li->clusters, 'a', lv < 2);
		if (lv == 0)
			leg_put(b, " clusters", ROLE_LEGEND);
	}
	if (li->pareto) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_glyphs(b, li->pareto, 'A', lv < 2);
		leg_put(b, " Pareto", ROLE_LEGEND);
	}
	if (li->ref) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, "R", ROLE_REF);
		leg_put(b, " ref", ROLE_LEGEND);
	}
	if (li->many) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, "#", ROLE_OVERLAP);
		leg_put(b, lv == 0 ? " 10+ in a cell" : lv == 1 ? " 10+" : "10+", ROLE_LEGEND);
	}
	if (li->theta_set) {
		char val[LAB_MAX];
		fmt_value(val, li->theta);
		leg_put(b, sep, ROLE_LEGEND);
		if (li->theta_drawn) {
			leg_put(b, "-", ROLE_THETA);
			snprintf(num, sizeof num, lv < 2 ? " theta %s" : " %s", val);
		} else {
			snprintf(num, sizeof num, lv < 2 ? "theta %s off scale" : "theta %s off", val);
		}
		leg_put(b, num, ROLE_LEGEND);
	}
	if (li->hidden) {
		leg_put(b, sep, ROLE_LEGEND);
		snprintf(num, sizeof num, lv < 2 ? "%zu not shown" : "%zu hidden", li->hidden);
		leg_put(b, num, ROLE_LEGEND);
	}
}

static void draw_legend(struct plot_grid *g, const struct legend_info *li)
{
	struct legend b;
	int lv;

	for (lv = 0; lv < 3; lv++) {
		leg_build(&b, lv, li);
		if (b.n <= g->w)
			break;
	}
	if (lv == 3)
		leg_build(&b, 3, li);
	for (int c = 0; c < b.n && c < g->w; c++)
		put(g, g->h - 1, c, b.ch[c], b.role[c]);
}

/* ---- points ----------------------------------------------------------------------------- */

/* Glyph of a lone point: R for a reference; else the cluster letter, uppercase when it is a
 * Pareto point and marks are on; '.' / '*' for a cluster outside 0..11. */
static void point_glyph(const struct plot_point *p, bool marks, char *ch, int *role)
{
	bool par = marks && (p->flags & PT_PARETO);

	if (p->flags & PT_REF) {
		*ch = 'R';
		*role = ROLE_REF;
	} else if (p->cluster >= 0 && p->cluster < N_CLUSTER) {
		*ch = (char)((par ? 'A' : 'a') + p->cluster);
		*role = ROLE_CLUSTER + p->cluster;
	} else {
		*ch = par ? '*' : '.';
		*role = ROLE_LABEL;
	}
	if (p->flags & PT_SELECTED)
		*role = ROLE_SELECTED;
}

enum { CELL_SEL = 1, CELL_REF = 2 };

/* Cells of the label on one side (room cells there, the text cut to them) that hold a point. */
static int label_hits(const struct layout *L, const unsigned char *cnt, int r, int c, int len, int room,
		      int dir)
{
	int hits = 0;

	if (len > room)
		len = room;
	for (int i = 0; i < len; i++) {
		int cc = dir > 0 ? c + 2 + i : c - 2 - i;
		if (cc > L->ax && cc < L->w && cnt[(size_t)r * L->w + cc])
			hits++;
	}
	return hits;
}

/* The selected point's label beside it, one blank cell between. The side, in order of
 * preference: one where it fits whole and covers no point (right first); one that covers no
 * point and still shows most of it (at least 8 characters, or all); the one covering fewer
 * points (right on a tie), clipped when it does not fit. The padding cells never cover points. */
static void draw_selected_label(const struct layout *L, struct plot_grid *g,
				const unsigned char *cnt, int r, int c, const char *label)
{
	char text[MAX_W + 1];
	int len = 0, right = L->w - (c + 2), left = c - 2 - L->ax, start, hits_r, hits_l, want;
	bool on_right;

	for (; label[len] && len < MAX_W; len++)
		text[len] = ascii(label[len]);
	text[len] = '\0';
	if (len == 0)
		return;
	if (right < 0)
		right = 0;
	if (left < 0)
		left = 0;
	hits_r = label_hits(L, cnt, r, c, len, right, 1);
	hits_l = label_hits(L, cnt, r, c, len, left, -1);
	want = len < 8 ? len : 8;
	if (right >= len && hits_r == 0)
		on_right = true;
	else if (left >= len && hits_l == 0)
		on_right = false;
	else if (hits_r == 0 && right >= want && (hits_l > 0 || right >= left))
		on_right = true;
	else if (hits_l == 0 && left >= want)
		on_right = false;
	else if (hits_r != hits_l)
		on_right = hits_r < hits_l ? right > 0 : left == 0;
	else
		on_right = right >= len || right >= left;
	if (on_right) {
		if (len > right)
			len = right;
		start = c + 2;
	} else {
		if (len > left)
			len = left;
		start = c - 1 - len;
	}
	if (len <= 0)
		return;
	text[len] = '\0';
	put_text(g, r, start, text, ROLE_SELECTED);
	/* blank the cells around the text (a theta line through it reads badly) */
	int pads[2] = { start - 1, start + len };
	for (int i = 0; i < 2; i++) {
		int pc = pads[i];
		if (pc > L->ax && pc < L->w && pc != c && !cnt[(size_t)r * L->w + pc])
			put(g, r, pc, ' ', ROLE_BLANK);
	}
}

/* ---- entry points ----------------------------------------------------------------------- */

/* g->role holds w*h roles followed by two scratch planes (per-cell point count, saturating at
 * 255, and CELL_* flags), so a render allocates nothing once the size is stable. */
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

/* Ranges, y ticks, the y axis column and the scales for pts: everything a point's cell depends
 * on. Returns the number of points that can be placed. */
static size_t layout_make(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
			  struct layout *L)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	size_t valid = 0;
	int lw = 1;

	memset(L, 0, sizeof *L);
	L->w = spec->width;
	L->h = spec->height;
	L->ar = L->h - 3;
	L->y.log = spec->log_y;

	for (size_t i = 0; i < n; i++) {
		if (!point_ok(&pts[i], spec->log_y))
			continue;
		valid++;
		/* plain comparisons: fmin/fmax are out-of-line calls, and no NaN gets here */
		if (pts[i].x < xmin)
			xmin = pts[i].x;
		if (pts[i].x > xmax)
			xmax = pts[i].x;
		if (pts[i].y < ymin)
			ymin = pts[i].y;
		if (pts[i].y > ymax)
			ymax = pts[i].y;
	}
	x_range(L, valid > 0, xmin, xmax);
	y_range(&L->y, valid > 0, ymin, ymax);
	L->yscale = L->ar / (L->y.hi - L->y.lo);
	y_ticks(L);
	for (int i = 0; i < L->y.n; i++) {
		int len = (int)strlen(L->y.lab[i]);
		if (len > lw)
			lw = len;
	}
	L->ax = lw + 1;
	L->xscale = (L->w - 2 - L->ax) / (double)(L->xhi - L->xlo);
	return valid;
}

/* Cache of the last log2(N): the logs dominate the cost, and rows usually come sorted or
 * grouped by N. */
struct xcache {
	double x, lx;
};

/* The cell (r, c) of a placeable point: inside the plot area, a position that rounds onto an
 * axis moved one cell inwards. The one mapping from data to cells, for drawing and locating. */
static void point_cell(const struct layout *L, const struct plot_point *p, struct xcache *xc,
		       int *r, int *c)
{
	if (!(p->x == xc->x)) {
		xc->x = p->x;
		xc->lx = log2(p->x);
	}
	*c = col_of(L, xc->lx);
	*r = row_of(L, ypos(L, p->y));
	if (*c <= L->ax)
		*c = L->ax + 1;
	if (*r >= L->ar)
		*r = L->ar - 1;
}

int plot_locate(const struct plot_point *pts, size_t n, const struct plot_spec *spec, int *cells,
		struct gs_err *err)
{
	struct layout L;
	struct xcache xc = { NAN, 0 };

	if (spec_check(spec, err) < 0)
		return -1;
	layout_make(pts, n, spec, &L);
	for (size_t i = 0; i < n; i++) {
		int r, c;
		if (!point_ok(&pts[i], spec->log_y)) {
			cells[i] = -1;
			continue;
		}
		point_cell(&L, &pts[i], &xc, &r, &c);
		cells[i] = r * L.w + c;
	}
	return 0;
}

int plot_render(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		struct plot_grid *g, struct gs_err *err)
{
	struct layout L;
	struct legend_info li;
	struct xcache xc = { NAN, 0 };
	size_t valid, cells;
	unsigned char *cnt, *flag;
	int sel_r = -1, sel_c = -1, theta_row;
	const char *sel_label = NULL;
	bool overlap = false;

	if (spec_check(spec, err) < 0)
		return -1;
	if (grid_alloc(g, spec->width, spec->height, err) < 0)
		return -1;
	valid = layout_make(pts, n, spec, &L);

	cells = (size_t)L.w * L.h;
	memset(g->ch, ' ', cells);
	memset(g->role, ROLE_BLANK, 3 * cells);
	cnt = g->role + cells;
	flag = cnt + cells;

	draw_axes(&L, g);
	memset(&li, 0, sizeof li);
	li.y_name = spec->y_name && *spec->y_name ? spec->y_name : "y";
	li.theta = spec->theta;
	li.theta_set = isfinite(spec->theta);
	li.log_y = spec->log_y;
	theta_row = draw_theta_line(&L, g, spec->theta);
	li.theta_drawn = theta_row >= 0;
	li.hidden = n - valid;

	/* One pass: the first point of a cell writes its glyph; a selected point, then a reference,
	 * overwrite it; every point counts. Cells with several points and neither become counts. */
	for (size_t i = 0; i < n; i++) {
		const struct plot_point *p = &pts[i];
		char ch;
		int role, r, c;
		size_t k;

		if (!point_ok(p, spec->log_y))
			continue;
		point_cell(&L, p, &xc, &r, &c);
		k = (size_t)r * L.w + c;
		point_glyph(p, spec->show_pareto, &ch, &role);
		/* every cluster with a point other than the reference (R) is listed, in lower case,
		 * even when its points are all drawn as Pareto glyphs */
		if (p->flags & PT_REF)
			li.ref = true;
		else if (p->cluster >= 0 && p->cluster < N_CLUSTER) {
			li.clusters |= 1u << p->cluster;
			if (ch < 'a')
				li.pareto |= 1u << p->cluster;
		}
		if (p->flags & PT_SELECTED) {
			if (!(flag[k] & CELL_SEL)) {
				g->ch[k] = ch;
				g->role[k] = (unsigned char)role;
			}
			flag[k] |= CELL_SEL;
			if (sel_r < 0) {
				sel_r = r;
				sel_c = c;
				sel_label = p->label;
			}
		} else if ((p->flags & PT_REF) && !(flag[k] & CELL_SEL)) {
			g->ch[k] = ch;
			g->role[k] = (unsigned char)role;
			flag[k] |= CELL_REF;
		} else if (cnt[k] == 0) {
			g->ch[k] = ch;
			g->role[k] = (unsigned char)role;
		}
		if (cnt[k] < 255)
			cnt[k]++;
		if (cnt[k] == 2)
			overlap = true;
	}
	if (overlap)
		for (int r = 0; r < L.ar; r++)
			for (int c = L.ax + 1; c < L.w; c++) {
				size_t k = (size_t)r * L.w + c;
				if (cnt[k] < 2 || flag[k])
					continue;
				/* '#', not '+': a '+' reads as an axis tick */
				g->ch[k] = cnt[k] > 9 ? '#' : (char)('0' + cnt[k]);
				g->role[k] = ROLE_OVERLAP;
				if (cnt[k] > 9)
					li.many = true;
			}
	if (sel_r >= 0 && sel_label)
		draw_selected_label(&L, g, cnt, sel_r, sel_c, sel_label);
	if (theta_row >= 0)
		draw_theta_text(&L, g, theta_row, spec->theta);
	draw_legend(g, &li);
	return 0;
}

size_t plot_to_text(const struct plot_grid *g, char *buf, size_t n)
{
	size_t need = 0;

	if (g && g->ch)
		for (int r = 0; r < g->h; r++) {
			const char *line = g->ch + (size_t)r * g->w;
			int len = g->w;
			while (len > 0 && line[len - 1] == ' ')
				len--;
			for (int c = 0; c <= len; c++, need++)
				if (need + 1 < n)
					buf[need] = c < len ? line[c] : '\n';
		}
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
}
