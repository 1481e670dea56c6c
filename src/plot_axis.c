/* plot_axis.c: the axes of the scatterplot: number texts of the tick labels, the y row grid
 * (1-2-5 steps), the clipping rule, the x range in powers of two, and the layout every cell
 * position derives from. Pure, as plot.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_impl.h"

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

/* Value text for theta and the legend: up to three significant digits, no trailing zeros. */
void plot_axis_value(char *buf, double v)
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

/* Ascending, NAN after every number. */
static int value_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* The clipping rule (see plot.h): sets y->clip, clip_at, clip_max (far above the quartiles)
 * and clip_low, clip_lo, clip_min (well below them, but never within a quarter of theta below
 * theta, the band the plot is read for) from the valid points' y values v[k] (reordered here),
 * their largest top and smallest bottom; v NULL: nothing is clipped. */
static void y_clip(struct yaxis *y, double *v, size_t k, double top, double bottom,
		   const struct plot_spec *spec)
{
	double q1, q3, fence, low;

	y->clip = y->clip_low = false;
	if (!v || k < CLIP_MIN_N)
		return;
	qsort(v, k, sizeof *v, value_cmp);
	q1 = v[(k - 1) / 4];
	q3 = v[3 * (k - 1) / 4];
	if (!(q3 > q1))
		return;
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
	/* keep_low: only far-above outliers may go; a low value is the decline being read */
	if (bottom < low && isfinite(low) && !spec->keep_low) {
		y->clip_low = true;
		y->clip_lo = low;
		y->clip_min = bottom;
	}
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

/* The axes, ticks and tick labels. */
void plot_axis_draw(const struct layout *L, struct plot_grid *g)
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

/* The theta line's row (-1 when theta is unset or outside the data rows), and room below it:
 * a point below theta in that row is drawn a row lower (point_cell), so when the line falls on
 * the lowest data row and such a point exists, the range grows down by a row step until the
 * line has a row beneath it. ys: the nv placeable points' y values. */
static void theta_room(struct layout *L, const double *ys, size_t nv, const struct plot_spec *spec,
		       double ymin, double ymax)
{
	double t = spec->theta;
	bool below = false;

	L->theta = NAN;
	L->theta_row = -1;
	if (!isfinite(t) || fabs(t) > VAL_MAX || (L->y.log && t < 1 / VAL_MAX))
		return;
	for (size_t i = 0; i < nv && !below; i++)
		below = ys[i] < t && !clipped(L, ys[i]);
	for (int tries = 0; tries < 8; tries++) {
		int r = row_of(L, ypos(L, t));
		if (r < L->y.top || r > L->ar - 1 - L->y.bot) {
			return; /* outside the data rows: no line drawn */
		}
		L->theta = t;
		L->theta_row = r;
		if (!below || r < L->ar - 1 - L->y.bot)
			return;
		/* the lowest data row: widen the range one row step down and lay out again */
		double d = L->y.T / L->y.m, lo = L->y.log ? pow(10, log10(ymin) - d) : ymin - d;
		if (L->y.log ? !(lo > 0) : false)
			return;
		y_range(L, &L->y, true, fmin(ymin, lo), ymax, t);
		ymin = fmin(ymin, lo);
	}
}

/* The layout from what it reads of the points: the y values of the nv placeable ones (ys,
 * reordered here) and the smallest and largest of their x. */
static void layout_values(double *ys, size_t nv, double xmin, double xmax,
			  const struct plot_spec *spec, int leg_rows, struct layout *L)
{
	double ymin = INFINITY, ymax = -INFINITY;
	int lw = 1;

	memset(L, 0, sizeof *L);
	L->w = spec->width;
	L->h = spec->height;
	L->leg_rows = leg_rows;
	L->ar = L->h - 2 - leg_rows;
	L->y.log = spec->log_y;

	/* plain comparisons: fmin/fmax are out-of-line calls, and no NaN gets here */
	for (size_t i = 0; i < nv; i++) {
		if (ys[i] < ymin)
			ymin = ys[i];
		if (ys[i] > ymax)
			ymax = ys[i];
	}
	/* the clipping rule reads the values (not with a log y axis or the full range asked for) */
	y_clip(&L->y, spec->log_y || spec->full_range ? NULL : ys, nv, ymax, ymin, spec);
	/* the y extremes of the points drawn in the data rows, when some go to a clip row */
	if (L->y.clip || L->y.clip_low) {
		ymin = INFINITY;
		ymax = -INFINITY;
		for (size_t i = 0; i < nv; i++) {
			if (clipped(L, ys[i]))
				continue;
			if (ys[i] < ymin)
				ymin = ys[i];
			if (ys[i] > ymax)
				ymax = ys[i];
		}
	}
	x_range(L, nv > 0, xmin, xmax);
	L->y.top = L->y.clip ? 1 : 0;
	L->y.bot = L->y.clip_low ? 1 : 0;
	L->y.rows = L->ar - L->y.top - L->y.bot;
	y_range(L, &L->y, nv > 0, ymin, ymax, spec->theta);
	theta_room(L, ys, nv, spec, ymin, ymax);
	y_labels(L, &L->y);
	for (int i = 0; i < L->y.n; i++) {
		int len = (int)strlen(L->y.lab[i]);
		if (len > lw)
			lw = len;
	}
	L->ax = lw + 1;
	L->xscale = (L->w - 3 - L->ax) / (double)(L->xhi - L->xlo);
}

int plot_axis_layout(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		     int leg_rows, struct layout *L, size_t *valid, struct gs_err *err)
{
	double xmin = INFINITY, xmax = -INFINITY;
	double *ys = malloc((n ? n : 1) * sizeof *ys);
	size_t nv = 0;

	if (!ys) {
		err_set(err, NULL, 0, 0, "plot: out of memory for %zu points", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!point_ok(&pts[i], spec->log_y))
			continue;
		ys[nv++] = pts[i].y;
		if (pts[i].x < xmin)
			xmin = pts[i].x;
		if (pts[i].x > xmax)
			xmax = pts[i].x;
	}
	layout_values(ys, nv, xmin, xmax, spec, leg_rows, L);
	free(ys);
	*valid = nv;
	return 0;
}
