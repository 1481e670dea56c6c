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
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "text.h"

enum {
	MIN_W = PLOT_MIN_W, MIN_H = PLOT_MIN_H, MAX_W = PLOT_MAX_W, MAX_H = PLOT_MAX_H,
	N_CLUSTER = 12,
	LAB_MAX = 24,   /* one tick label, NUL included */
	YT_MAX = MAX_H, /* y ticks: at most one a row */
	LEG_MAX = 2048, /* legend text before clipping */
	M_MAX = 10,     /* rows per y tick, at most */
	LABEL_MIN = 8,  /* a cut selected label keeps at least this many columns */
	CLIP_MIN_N = 5, /* fewer points are never clipped */
};

#define CELL_EPS 1e-9
/* |values| beyond this are not drawn: tick arithmetic stays finite. */
#define VAL_MAX 1e300
/* Every point keeps at least this much (in powers of two) from the left end of the x range. */
#define X_MARGIN 0.1
/* The fences of the clipping rule: Q3 + CLIP_K (Q3 - Q1) far out above, Q1 - CLIP_K_LOW (Q3 - Q1)
 * below (Tukey's outer and inner fences): a high outlier squashes everything else, a low one
 * mostly the band around theta, which the break-even is read from. */
#define CLIP_K 3.0
#define CLIP_K_LOW 1.5

struct yaxis {
	bool log;
	int top, bot;             /* clip rows above / below the data rows: 1 when clipping */
	int rows;                 /* data rows: top .. ar-1-bot */
	int tm, te, m;            /* tick step T = tm * 10^te drawing units; m rows per tick */
	double T, k0;             /* T; the step index of the bottom data row (value k0 * T / m) */
	bool clip, clip_low;
	double clip_at, clip_max; /* y values above clip_at are clipped; the largest of them */
	double clip_lo, clip_min; /* y values below clip_lo are clipped; the smallest of them */
	int n;                    /* ticks */
	int row[YT_MAX];
	char lab[YT_MAX][LAB_MAX];
};

struct layout {
	int w, h;
	int ax;                   /* y axis column */
	int ar;                   /* x axis row */
	int xlo, xhi;             /* x range, exponents of two */
	double xscale;            /* columns per power of two */
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

/* Cell 0..span for a position p cells from the first cell: round half up, nudged (see top). */
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
	return L->ax + 1 + cell_of((lx - L->xlo) * L->xscale, L->w - 3 - L->ax);
}

/* Step index of drawing position p on a row step T/m: round half up, nudged. */
static double step_index(double p, double T, int m)
{
	return floor(p / T * m + 0.5 + CELL_EPS);
}

/* Grid row of drawing position p; outside top .. ar-1 when p is outside the data rows. */
static int row_of(const struct layout *L, double p)
{
	double k = step_index(p, L->y.T, L->y.m) - L->y.k0;

	if (!(k > -1))
		return L->ar - L->y.bot;
	if (k >= L->y.rows)
		return L->y.top - 1;
	return L->ar - 1 - L->y.bot - (int)k;
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

/* The bottom data row. */
static int row_bottom(const struct layout *L)
{
	return L->ar - 1 - L->y.bot;
}

/* 1 for a y value clipped above the range, -1 below, 0 inside. */
static int clipped(const struct layout *L, double y)
{
	return L->y.clip && y > L->y.clip_at ? 1 : L->y.clip_low && y < L->y.clip_lo ? -1 : 0;
}

/* ---- y grid ----------------------------------------------------------------------------- */

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

/* Largest 1-2-5 step m*10^e at or below raw (raw > 0). */
static void step_below(double raw, int *m, int *e)
{
	int ex = (int)floor(log10(raw));

	while (pow10i(ex) > raw)
		ex--;
	while (pow10i(ex + 1) <= raw)
		ex++;
	*e = ex;
	*m = raw >= 5 * pow10i(ex) ? 5 : raw >= 2 * pow10i(ex) ? 2 : 1;
}

static double step_value(int m, int e)
{
	return e >= 0 ? m * pow10i(e) : m / pow10i(-e);
}

static double floor_div(double a, int m)
{
	return floor(a / m);
}

/* The row grid for drawing range lo..hi (lo <= hi): the finest row step T/m, T a 1-2-5 tick step
 * and m in gap..mmax rows per tick, whose rows hold lo and hi and show at least two ticks; the
 * data centred in the rows (never below step 0 when nonneg). Returns false when none fits. */
static bool y_grid(struct yaxis *y, double lo, double hi, bool nonneg, int gap)
{
	int mmax = y->rows / 3 < M_MAX ? y->rows / 3 : M_MAX, tm, te;
	double best = INFINITY, span = hi - lo;

	if (mmax < gap)
		mmax = gap;
	if (!(span > 0))
		return false;
	step_below(span / y->rows, &tm, &te);
	for (int guard = 0; guard < 64; guard++, step_next(&tm, &te)) {
		double T = step_value(tm, te);
		if (T / mmax >= best)
			break;
		for (int m = gap; m <= mmax; m++) {
			double d = T / m, jlo, jhi, k0, ticks;
			if (d >= best)
				continue;
			jlo = step_index(lo, T, m);
			jhi = step_index(hi, T, m);
			if (jhi - jlo + 1 > y->rows)
				continue;
			k0 = jlo - floor((y->rows - (jhi - jlo + 1)) / 2.0);
			if (nonneg && k0 < 0)
				k0 = 0;
			ticks = floor_div(k0 + y->rows - 1, m) - floor_div(k0 + m - 1, m) + 1;
			if (ticks < 2)
				continue;
			best = d;
			y->T = T;
			y->tm = tm;
			y->te = te;
			y->m = m;
			y->k0 = k0;
		}
	}
	return isfinite(best);
}

/* A fractional-decade tick label: 10^p with the fewest significant digits (2..8) whose value
 * still lies in the tick's row, half a row step d either side; plain decimals from 1e-6 to 1e9,
 * else the compact exponent form. */
static void fmt_log_frac(char *buf, double p, double d)
{
	double v = pow(10, p);

	if (p == floor(p) && fabs(p) < 300) {
		fmt_pow10(buf, 1, (int)p);
		return;
	}
	if (p < -6 || p >= 9) {
		put_expo(buf, LAB_MAX, v);
		return;
	}
	for (int dig = 2; dig <= 8; dig++) {
		int dec = dig - 1 - (int)floor(p);
		double unit = dec >= 0 ? 1 / pow10i(dec) : pow10i(-dec), r = round(v / unit) * unit;
		if (fabs(log10(r) - p) < 0.45 * d || dig == 8) {
			put_fixed(buf, LAB_MAX, r, dec > 0 ? dec : 0);
			return;
		}
	}
}

/* Tick rows and labels of the chosen grid: every m-th step. */
static void y_labels(const struct layout *L, struct yaxis *y)
{
	double amax = fmax(fabs(y->k0), fabs(y->k0 + y->rows)) * y->T / y->m;

	y->n = 0;
	for (int k = 0; k < y->rows && y->n < YT_MAX; k++) {
		double j = y->k0 + k, q;
		if (fmod(j, y->m) != 0)
			continue;
		q = j / y->m;
		y->row[y->n] = row_bottom(L) - k;
		if (!y->log) {
			double v = y->te >= 0 ? q * y->tm * pow10i(y->te) : q * y->tm / pow10i(-y->te);
			fmt_linear(y->lab[y->n], v, y->te, amax);
		} else if (y->te >= 0) {
			fmt_pow10(y->lab[y->n], 1, (int)(q * y->tm * pow10i(y->te)));
		} else {
			fmt_log_frac(y->lab[y->n], q * y->T, y->T / y->m);
		}
		y->n++;
	}
}

/* ---- ranges ----------------------------------------------------------------------------- */

/* The clipping rule (see plot.h): sets y->clip, clip_at, clip_max (far above the quartiles)
 * and clip_low, clip_lo, clip_min (well below them, but never within a quarter of theta below
 * theta, the band the plot is read for) from the valid points' y values. Returns 0, or -1 when
 * out of memory. */
static int y_clip(struct yaxis *y, const struct plot_point *pts, size_t n, size_t valid,
		  const struct plot_spec *spec)
{
	double *v, q1, q3, fence, low, top = -INFINITY, bottom = INFINITY;
	size_t k = 0;

	y->clip = y->clip_low = false;
	if (spec->log_y || spec->full_range || valid < CLIP_MIN_N)
		return 0;
	v = malloc(valid * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (point_ok(&pts[i], false)) {
			v[k++] = pts[i].y;
			if (pts[i].y > top)
				top = pts[i].y;
			if (pts[i].y < bottom)
				bottom = pts[i].y;
		}
	q1 = select_kth(v, k, (k - 1) / 4);
	q3 = select_kth(v, k, 3 * (k - 1) / 4);
	free(v);
	if (!(q3 > q1))
		return 0;
	fence = q3 + CLIP_K * (q3 - q1);
	low = q1 - CLIP_K_LOW * (q3 - q1);
	if (isfinite(spec->theta) && fabs(spec->theta) <= VAL_MAX &&
	    low > spec->theta - 0.25 * fabs(spec->theta))
		low = spec->theta - 0.25 * fabs(spec->theta);
	if (top > fence && isfinite(fence)) {
		y->clip = true;
		y->clip_at = fence;
		y->clip_max = top;
	}
	if (bottom < low && isfinite(low)) {
		y->clip_low = true;
		y->clip_lo = low;
		y->clip_min = bottom;
	}
	return 0;
}

/* y range in drawing units from the drawn points' extremes, theta included when that at most
 * doubles the span; a single value gets +-10% (+-1 around zero; log: a tenth of a decade).
 * No valid point: 0..1 (log: 0.1..10). Then the finest row grid (see y_grid), labels three
 * rows apart on big plots, two on small ones, neighbouring rows as a last resort. */
static void y_range(const struct layout *L, struct yaxis *y, bool any, double dmin, double dmax,
		    double theta)
{
	double lo, hi;
	bool nonneg = !y->log && (!any || dmin >= 0);

	if (!any) {
		lo = y->log ? -1 : 0;
		hi = 1;
	} else {
		lo = y->log ? log10(dmin) : dmin;
		hi = y->log ? log10(dmax) : dmax;
	}
	if (any && isfinite(theta) && (!y->log || theta >= 1 / VAL_MAX) && fabs(theta) <= VAL_MAX) {
		double t = y->log ? log10(theta) : theta;
		double reach = y->log ? fmax(hi - lo, 0.5) : fmax(hi - lo, 0.5 * fmax(fabs(lo), fabs(hi)));
		/* theta joins the range when that at most doubles it (a lone value: within half of
		 * it, half a decade on log axes): the line matters, but not more than the data */
		if (t >= lo - reach && t <= hi + reach) {
			lo = fmin(lo, t);
			hi = fmax(hi, t);
			if (t < 0)
				nonneg = false;
		}
	}
	if (hi - lo <= fmax(fabs(lo), fabs(hi)) * 1e-12 || hi - lo < 1e-290) {
		double pad = y->log ? 0.1 : fmax(fabs(lo), fabs(hi)) * 0.1;
		if (pad < 1e-290)
			pad = 1;
		lo -= pad;
		hi += pad;
		if (nonneg && lo < 0)
			lo = 0;
	}
	for (int gap = L->ar >= 16 ? 3 : 2; gap >= 1; gap--)
		if (y_grid(y, lo, hi, nonneg, gap))
			return;
	/* unreachable for the sizes taken (a step of the whole span with m = 1 always fits);
	 * kept so a grid is always set */
	y->tm = 1;
	y->te = (int)ceil(log10(hi - lo));
	y->T = step_value(1, y->te);
	y->m = 1;
	y->k0 = floor(lo / y->T);
}

/* x range: whole powers of two around the data. The low end keeps at least X_MARGIN of a power
 * below the smallest N, so the reference (often the smallest system) is not pushed against the
 * y axis, but never goes below 2^0 for counts of at least one; the high end is the next power at
 * or above the largest N. A range of less than two powers grows to two, keeping a lone N off the
 * edges. No valid point: 1..64. */
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
		int r = y->row[i], len = (int)strlen(y->lab[i]);
		put(g, r, L->ax, '+', ROLE_TICK);
		put_text(g, r, L->ax - 1 - len, y->lab[i], ROLE_LABEL);
	}

	/* x: label every power if there is room, else every 2nd, 4th, ...; tick marks on every
	 * power while they stay a column apart, else on the labelled ones only. */
	while (every < 64 && !x_labels_fit(L, every))
		every *= 2;
	cpp = (L->w - 3 - L->ax) / (L->xhi - L->xlo);
	for (int e = L->xlo; e <= L->xhi; e++) {
		bool labelled = ((e % every) + every) % every == 0;
		int c = col_of(L, e);
		char lab[LAB_MAX];
		if (labelled || cpp >= 2)
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

/* The theta line across the plot area, in the row holding theta. Returns the row, or -1 when
 * theta is unset or outside the data rows. */
static int draw_theta_line(const struct layout *L, struct plot_grid *g, double theta)
{
	int r;

	if (!isfinite(theta) || fabs(theta) > VAL_MAX || (L->y.log && theta < 1 / VAL_MAX))
		return -1;
	r = row_of(L, ypos(L, theta));
	if (r < L->y.top || r > row_bottom(L))
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
	int role = cv->cluster >= 0 && cv->cluster < N_CLUSTER ? ROLE_CLUSTER + cv->cluster : ROLE_CURVE;
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

/* ---- legend ----------------------------------------------------------------------------- */

struct legend {
	char ch[LEG_MAX];
	unsigned char role[LEG_MAX];
	int n;
};

struct legend_info {
	const struct plot_spec *spec;
	const char *y_name;
	unsigned clusters, pareto;   /* bit c: cluster c has a point / is drawn as a Pareto glyph */
	bool ref, theta_set, theta_drawn, log_y, many;  /* many: a '#' cell (ten points or more) */
	bool preview, mark, bars, keys_pareto;
	bool curve[16];              /* curve i drew a cell (the first 16 curves get an entry) */
	double theta, clip_max, clip_min;
	size_t hidden, clipped, clipped_low;
};

static void leg_put(struct legend *b, const char *s, int role)
{
	for (; *s && b->n < LEG_MAX; s++) {
		b->ch[b->n] = ascii(*s);
		b->role[b->n++] = (unsigned char)role;
	}
}

static void leg_glyph(struct legend *b, char ch, int role)
{
	char s[2] = { ch, 0 };

	leg_put(b, s, role);
}

/* Glyphs of the clusters in mask: "a b c" (spaced), "abc", or "a-l" for more than four. */
static void leg_glyphs(struct legend *b, unsigned mask, char base, bool spaced)
{
	int count = 0, first = -1, last = -1;

	for (int c = 0; c < N_CLUSTER; c++)
		if (mask & (1u << c)) {
			count++;
			if (first < 0)
				first = c;
			last = c;
		}
	if (count > 4) {
		leg_glyph(b, (char)(base + first), ROLE_CLUSTER + first);
		leg_put(b, "-", ROLE_LEGEND);
		leg_glyph(b, (char)(base + last), ROLE_CLUSTER + last);
		return;
	}
	for (int c = 0, k = 0; c < N_CLUSTER; c++) {
		if (!(mask & (1u << c)))
			continue;
		if (k++ > 0 && spaced)
			leg_put(b, " ", ROLE_LEGEND);
		leg_glyph(b, (char)(base + c), ROLE_CLUSTER + c);
	}
}

static int key_role(int cluster)
{
	return cluster >= 0 && cluster < N_CLUSTER ? ROLE_CLUSTER + cluster : ROLE_LABEL;
}

/* Legend at verbosity lv: 0 full words, 1 shorter, 2 terse, 3 terse with single spaces. */
static void leg_build(struct legend *b, int lv, const struct legend_info *li)
{
	const struct plot_spec *sp = li->spec;
	const char *sep = lv < 3 ? "  " : " ";
	char num[LAB_MAX + 64], val[LAB_MAX];

	b->n = 0;
	if (lv == 0) {
		leg_put(b, "x: N (log2)  y: ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		if (li->log_y)
			leg_put(b, " (log)", ROLE_LEGEND);
	} else if (lv == 1) {
		leg_put(b, "y: ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		if (li->log_y)
			leg_put(b, " (log)", ROLE_LEGEND);
	} else {
		if (li->log_y)
			leg_put(b, "log ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
	}
	/* the clipping changes how the y axis reads: it comes first */
	if (li->clipped) {
		fmt_value(val, li->clip_max);
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, "^", ROLE_LEGEND);
		snprintf(num, sizeof num, lv == 0 ? " %zu above, up to %s" : lv == 1 ? " %zu to %s" : "%zu",
			 li->clipped, val);
		leg_put(b, num, ROLE_LEGEND);
	}
	if (li->clipped_low) {
		fmt_value(val, li->clip_min);
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, "v", ROLE_LEGEND);
		snprintf(num, sizeof num, lv == 0 ? " %zu below, down to %s" : lv == 1 ? " %zu to %s" : "%zu",
			 li->clipped_low, val);
		leg_put(b, num, ROLE_LEGEND);
	}
	if (sp->nkeys > 0) {
		for (size_t i = 0; i < sp->nkeys && i < PLOT_KEYS_MAX; i++) {
			leg_put(b, i == 0 ? sep : " ", ROLE_LEGEND);
			leg_glyph(b, sp->keys[i].glyph, key_role(sp->keys[i].cluster));
			leg_put(b, " ", ROLE_LEGEND);
			leg_put(b, sp->keys[i].text ? sp->keys[i].text : "", ROLE_LEGEND);
		}
		if (li->keys_pareto) {
			leg_put(b, sep, ROLE_LEGEND);
			leg_put(b, lv == 0 ? "upper case: Pareto" : "CAPS Pareto", ROLE_LEGEND);
		}
	} else {
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
	if (li->mark) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, ":", ROLE_BREAKEVEN);
		leg_put(b, " ", ROLE_LEGEND);
		leg_put(b, sp->mark_name[0] ? sp->mark_name : "break-even", ROLE_LEGEND);
	}
	if (li->bars) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, "|", ROLE_BAR);
		leg_put(b, lv == 0 ? " run-to-run interval" : lv == 1 ? " interval" : " CI", ROLE_LEGEND);
	}
	for (size_t i = 0; i < sp->ncurves && i < 16; i++)
		if (li->curve[i] && sp->curves[i].name) {
			const struct plot_curve *cv = &sp->curves[i];
			leg_put(b, sep, ROLE_LEGEND);
			leg_glyph(b, cv->glyph, cv->cluster >= 0 && cv->cluster < N_CLUSTER ?
						 ROLE_CLUSTER + cv->cluster : ROLE_CURVE);
			leg_put(b, " ", ROLE_LEGEND);
			leg_put(b, cv->name, ROLE_LEGEND);
		}
	if (li->preview) {
		leg_put(b, sep, ROLE_LEGEND);
		leg_put(b, lv == 0 ? "underlined: preview/research" : lv == 1 ? "ul: preview" : "ul prev",
			ROLE_LEGEND);
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

/* Glyph of a lone point: R for a reference; else its own glyph or the cluster letter, upper case
 * when it is a Pareto point and marks are on; '.' / '*' for a cluster outside 0..11; '^' when
 * clipped. The role is its cluster's (ROLE_LABEL outside 0..11), ROLE_REF or ROLE_SELECTED, plus
 * ROLE_F_* bits. */
static void point_glyph(const struct plot_point *p, bool marks, int clip, bool below, char *ch,
			int *role)
{
	bool par = marks && (p->flags & PT_PARETO);
	bool inside = p->cluster >= 0 && p->cluster < N_CLUSTER;

	if (p->flags & PT_REF) {
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
	if (p->flags & PT_SELECTED)
		*role = ROLE_SELECTED;
	if (below)
		*role |= ROLE_F_BELOW;
	if (p->flags & PT_PREVIEW)
		*role |= ROLE_F_PREVIEW;
}

/* ---- the selected label ----------------------------------------------------------------- */

/* Display columns of the code point at s (len bytes): 0 for combining marks, 2 for the wide
 * East Asian blocks, else 1. A table of the common ranges, the same in every locale. */
static int cp_width(const unsigned char *s, size_t len)
{
	unsigned long cp;

	if (len == 1)
		return 1;
	cp = len == 2 ? (s[0] & 0x1fu) : len == 3 ? (s[0] & 0x0fu) : (s[0] & 0x07u);
	for (size_t i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3fu);
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfe0f)
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* The label as characters: byte offset and display width of each, controls and invalid bytes
 * as '?' (one column). */
struct ltext {
	char s[PLOT_LABEL_MAX];     /* sanitized UTF-8 */
	int off[PLOT_LABEL_MAX], wid[PLOT_LABEL_MAX];
	int n, width;
};

static void ltext_make(struct ltext *t, const char *label)
{
	size_t len = strlen(label), i = 0, o = 0;

	t->n = t->width = 0;
	while (i < len && o + 5 < sizeof t->s) {
		const unsigned char *u = (const unsigned char *)label + i;
		size_t sl = u[0] < 0x80 ? 1 : utf8_seq_len(u, len - i);
		int w;
		t->off[t->n] = (int)o;
		/* the one sanitizer's rule (text.h), character by character as widths are needed */
		if (sl == 0 || (sl == 1 && (u[0] < 0x20 || u[0] == 0x7f)) || utf8_is_c1(u, sl) ||
		    utf8_is_bidi(u, sl)) {
			t->s[o++] = '?';
			w = 1;
			i += sl ? sl : 1;
		} else {
			w = cp_width(u, sl);
			memcpy(t->s + o, u, sl);
			o += sl;
			i += sl;
		}
		t->wid[t->n++] = w;
		t->width += w;
	}
	t->off[t->n] = (int)o;
	t->s[o] = '\0';
}

/* The cut of t to `room` columns: characters [head, tail) give way to one '~' (none when it
 * fits: head = tail = n). Returns the columns used. */
static int label_cut(const struct ltext *t, int room, int *head, int *tail)
{
	int wh = 0, wt = 0, keep_t = (room - 1) / 2, keep_h = room - 1 - keep_t;

	*head = *tail = t->n;
	if (t->width <= room)
		return t->width;
	*head = 0;
	while (*head < t->n && wh + t->wid[*head] <= keep_h)
		wh += t->wid[(*head)++];
	*tail = t->n;
	while (*tail > *head && wt + t->wid[*tail - 1] <= keep_t)
		wt += t->wid[--(*tail)];
	return wh + 1 + wt;
}

/* Writes into g, from (r, c), the label cut to `room` columns (see label_cut); sets g->label*,
 * the cells '?' per column of a non-ASCII character. */
static void label_put(struct plot_grid *g, const struct ltext *t, int r, int c, int room)
{
	int head, tail, used = 0, o = 0;

	label_cut(t, room, &head, &tail);
	for (int i = 0; i < t->n; i++) {
		if (i == head && head < tail) {
			g->label[o++] = '~';
			put(g, r, c + used++, '~', ROLE_SELECTED);
			i = tail - 1;
			continue;
		}
		int len = t->off[i + 1] - t->off[i];
		memcpy(g->label + o, t->s + t->off[i], (size_t)len);
		o += len;
		for (int k = 0; k < t->wid[i]; k++)
			put(g, r, c + used++, len == 1 ? t->s[t->off[i]] : '?', ROLE_SELECTED);
	}
	g->label[o] = '\0';
	g->label_row = r;
	g->label_col = c;
	g->label_w = used;
}

/* Free run of data cells in row r from column c in direction dir (cells with no point), up to
 * max: how many. */
static int free_run(const struct layout *L, const unsigned char *cnt, int r, int c, int dir, int max)
{
	int n = 0;

	if (r < 0 || r >= L->ar)
		return 0;
	for (; n < max && c > L->ax && c < L->w; c += dir, n++)
		if (cnt[(size_t)r * L->w + c])
			break;
	return n;
}

/* The selected point's label (plot.h): the places, in order of preference, are its row right
 * of it then left of it (one blank cell between), then the rows above and below, starting at
 * its column then ending there; the first where the whole text covers no point wins; else the
 * first with room for LABEL_MIN columns, cut; else none. label_off says it was not shown whole. */
static void draw_selected_label(const struct layout *L, struct plot_grid *g,
				const unsigned char *cnt, int r, int c, const char *label)
{
	struct ltext t;
	struct { int r, c, dir; } at[6] = {
		{ r, c + 2, 1 }, { r, c - 2, -1 }, { r - 1, c, 1 }, { r - 1, c, -1 },
		{ r + 1, c, 1 }, { r + 1, c, -1 },
	};
	int want;

	ltext_make(&t, label);
	if (t.width == 0)
		return;
	want = t.width < LABEL_MIN ? t.width : LABEL_MIN;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 6; i++) {
			int room = free_run(L, cnt, at[i].r, at[i].c, at[i].dir, t.width);
			int need = pass == 0 ? t.width : want, start, used, h0, t0;
			if (room < need)
				continue;
			used = label_cut(&t, room, &h0, &t0);
			start = at[i].dir > 0 ? at[i].c : at[i].c - used + 1;
			label_put(g, &t, at[i].r, start, room);
			g->label_off = used < t.width;
			/* blank the cells around a label on the point's row (a theta line through
			 * it reads badly), never a point */
			int pads[2] = { g->label_col - 1, g->label_col + used };
			for (int k = 0; k < 2; k++)
				if (pads[k] > L->ax && pads[k] < L->w && pads[k] != c &&
				    !cnt[(size_t)at[i].r * L->w + pads[k]] && at[i].r == r)
					put(g, at[i].r, pads[k], ' ', ROLE_BLANK);
			return;
		}
	g->label_off = true;
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

/* Ranges, clipping, the y grid and labels, the y axis column and the x scale for pts: everything
 * a point's cell depends on. Sets *valid to the number of points that can be placed. Returns 0,
 * or -1 with err when out of memory. */
static int layout_make(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		       struct layout *L, size_t *valid, struct gs_err *err)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	size_t nv = 0;
	int lw = 1;

	memset(L, 0, sizeof *L);
	L->w = spec->width;
	L->h = spec->height;
	L->ar = L->h - 3;
	L->y.log = spec->log_y;

	for (size_t i = 0; i < n; i++)
		if (point_ok(&pts[i], spec->log_y))
			nv++;
	if (y_clip(&L->y, pts, n, nv, spec) < 0) {
		err_set(err, NULL, 0, 0, "plot: out of memory for %zu points", nv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!point_ok(&pts[i], spec->log_y))
			continue;
		/* plain comparisons: fmin/fmax are out-of-line calls, and no NaN gets here */
		if (pts[i].x < xmin)
			xmin = pts[i].x;
		if (pts[i].x > xmax)
			xmax = pts[i].x;
		if (clipped(L, pts[i].y))
			continue;
		if (pts[i].y < ymin)
			ymin = pts[i].y;
		if (pts[i].y > ymax)
			ymax = pts[i].y;
	}
	x_range(L, nv > 0, xmin, xmax);
	L->y.top = L->y.clip ? 1 : 0;
	L->y.bot = L->y.clip_low ? 1 : 0;
	L->y.rows = L->ar - L->y.top - L->y.bot;
	y_range(L, &L->y, nv > 0, ymin, ymax, spec->theta);
	y_labels(L, &L->y);
	for (int i = 0; i < L->y.n; i++) {
		int len = (int)strlen(L->y.lab[i]);
		if (len > lw)
			lw = len;
	}
	L->ax = lw + 1;
	L->xscale = (L->w - 3 - L->ax) / (double)(L->xhi - L->xlo);
	*valid = nv;
	return 0;
}

/* Cache of the last log2(N): the logs dominate the cost, and rows usually come sorted or
 * grouped by N. */
struct xcache {
	double x, lx;
};

/* The cell (r, c) of a placeable point: the data cell holding its value, or the clip row. The
 * one mapping from data to cells, for drawing and locating. */
static void point_cell(const struct layout *L, const struct plot_point *p, struct xcache *xc,
		       int *r, int *c)
{
	if (!(p->x == xc->x)) {
		xc->x = p->x;
		xc->lx = log2(p->x);
	}
	*c = col_of(L, xc->lx);
	int cl = clipped(L, p->y);

	*r = cl > 0 ? 0 : cl < 0 ? L->ar - 1 : row_of(L, ypos(L, p->y));
}

int plot_locate(const struct plot_point *pts, size_t n, const struct plot_spec *spec, int *cells,
		struct gs_err *err)
{
	struct layout L;
	struct xcache xc = { NAN, 0 };
	size_t valid;

	if (spec_check(spec, err) < 0 || layout_make(pts, n, spec, &L, &valid, err) < 0)
		return -1;
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

enum { CELL_SEL = 1, CELL_REF = 2 };

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
	bool overlap = false, theta_on;

	if (spec_check(spec, err) < 0)
		return -1;
	if (grid_alloc(g, spec->width, spec->height, err) < 0)
		return -1;
	if (layout_make(pts, n, spec, &L, &valid, err) < 0)
		return -1;

	cells = (size_t)L.w * L.h;
	memset(g->ch, ' ', cells);
	memset(g->role, ROLE_BLANK, 3 * cells);
	g->label_w = 0;
	g->label_row = g->label_col = 0;
	g->label[0] = '\0';
	g->label_off = false;
	g->clipped = 0;
	cnt = g->role + cells;
	flag = cnt + cells;

	draw_axes(&L, g);
	memset(&li, 0, sizeof li);
	li.spec = spec;
	li.y_name = spec->y_name && *spec->y_name ? spec->y_name : "y";
	li.theta = spec->theta;
	li.theta_set = isfinite(spec->theta);
	li.log_y = spec->log_y;
	li.clip_max = L.y.clip_max;
	li.clip_min = L.y.clip_min;
	theta_row = draw_theta_line(&L, g, spec->theta);
	li.theta_drawn = theta_row >= 0;
	li.hidden = n - valid;
	theta_on = li.theta_set && fabs(spec->theta) <= VAL_MAX;

	/* One pass: the first point of a cell writes its glyph; a selected point, then a reference,
	 * overwrite it; every point counts. Cells with several points and neither become counts. */
	for (size_t i = 0; i < n; i++) {
		const struct plot_point *p = &pts[i];
		char ch;
		int role, r, c;
		size_t k;
		int clip;

		if (!point_ok(p, spec->log_y))
			continue;
		point_cell(&L, p, &xc, &r, &c);
		k = (size_t)r * L.w + c;
		clip = clipped(&L, p->y);
		point_glyph(p, spec->show_pareto, clip, theta_on && p->y < spec->theta, &ch, &role);
		if (clip > 0)
			li.clipped++;
		else if (clip < 0)
			li.clipped_low++;
		if (p->flags & PT_PREVIEW)
			li.preview = true;
		/* every cluster with a point other than the reference (R) is listed, in lower case,
		 * even when its points are all drawn as Pareto glyphs */
		if (p->flags & PT_REF)
			li.ref = true;
		else if (p->cluster >= 0 && p->cluster < N_CLUSTER) {
			li.clusters |= 1u << p->cluster;
			if (spec->show_pareto && (p->flags & PT_PARETO)) {
				li.pareto |= 1u << p->cluster;
				li.keys_pareto = true;
			}
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
	g->clipped = li.clipped + li.clipped_low;
	if (overlap)
		for (int r = 0; r < L.ar; r++)
			for (int c = L.ax + 1; c < L.w; c++) {
				size_t k = (size_t)r * L.w + c;
				if (cnt[k] < 2 || flag[k] || r < L.y.top || r > row_bottom(&L))
					continue;
				/* '#', not '+': a '+' reads as an axis tick */
				g->ch[k] = cnt[k] > 9 ? '#' : (char)('0' + cnt[k]);
				g->role[k] = ROLE_OVERLAP;
				if (cnt[k] > 9)
					li.many = true;
			}
	li.mark = draw_mark(&L, g, spec->mark_x);
	if (spec->show_bars) {
		xc.x = NAN;
		for (size_t i = 0; i < n; i++) {
			int r, c;
			/* a clipped point's bar would state a range its mark does not */
			if (!point_ok(&pts[i], spec->log_y) || clipped(&L, pts[i].y))
				continue;
			point_cell(&L, &pts[i], &xc, &r, &c);
			if (draw_bar(&L, g, cnt, &pts[i], c))
				li.bars = true;
		}
	}
	for (size_t i = 0; spec->curves && i < spec->ncurves; i++)
		if (draw_curve(&L, g, cnt, &spec->curves[i]) && i < 16)
			li.curve[i] = true;
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
