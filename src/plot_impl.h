/* plot_impl.h: what plot.c shares with plot_axis.c and plot_marks.c and nothing else includes:
 * the layout of a grid, the one mapping from values to cells, and the cell writer. See plot.c
 * for the layout and the rounding policy. */
#ifndef GS_PLOT_IMPL_H
#define GS_PLOT_IMPL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "plot.h"

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
	int ar;                   /* x axis row: h - 2 - leg_rows (the x labels, then the legend) */
	int leg_rows;             /* rows of the legend, at the bottom */
	int xlo, xhi;             /* x range, exponents of two */
	double xscale;            /* columns per power of two */
	struct yaxis y;
	double theta;             /* the threshold when its line is drawn, else NAN */
	int theta_row;            /* the grid row of its line, -1 none: a point below theta never
				   * sits in it (point_cell moves it down a row) */
};

/* What the legend says, gathered while the points and lines are drawn. */
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

/* ---- positions: the one mapping from values to cells ------------------------------------ */

/* Cell 0..span for a position p cells from the first cell: round half up, nudged (see top). */
static inline int cell_of(double p, int span)
{
	p = p + 0.5 + CELL_EPS;
	if (!(p >= 0))
		return 0;
	if (p >= span)
		return span;
	return (int)p;
}

static inline int col_of(const struct layout *L, double lx)
{
	return L->ax + 1 + cell_of((lx - L->xlo) * L->xscale, L->w - 3 - L->ax);
}

/* Step index of drawing position p on a row step T/m: round half up, nudged. */
static inline double step_index(double p, double T, int m)
{
	return floor(p / T * m + 0.5 + CELL_EPS);
}

/* Grid row of drawing position p; outside top .. ar-1 when p is outside the data rows. */
static inline int row_of(const struct layout *L, double p)
{
	double k = step_index(p, L->y.T, L->y.m) - L->y.k0;

	if (!(k > -1))
		return L->ar - L->y.bot;
	if (k >= L->y.rows)
		return L->y.top - 1;
	return L->ar - 1 - L->y.bot - (int)k;
}

static inline double ypos(const struct layout *L, double y)
{
	return L->y.log ? log10(y) : y;
}

static inline bool point_ok(const struct plot_point *p, bool log_y)
{
	return isfinite(p->x) && isfinite(p->y) && p->x > 0 && p->x <= VAL_MAX &&
	       fabs(p->y) <= VAL_MAX && (!log_y || p->y >= 1 / VAL_MAX);
}

/* The bottom data row. */
static inline int row_bottom(const struct layout *L)
{
	return L->ar - 1 - L->y.bot;
}

/* 1 for a y value clipped above the range, -1 below, 0 inside. */
static inline int clipped(const struct layout *L, double y)
{
	return L->y.clip && y > L->y.clip_at ? 1 : L->y.clip_low && y < L->y.clip_lo ? -1 : 0;
}

/* The role of a curve's glyph: its cluster's, else ROLE_CURVE. */
static inline int curve_role(const struct plot_curve *cv)
{
	return cv->cluster >= 0 && cv->cluster < N_CLUSTER ? ROLE_CLUSTER + cv->cluster : ROLE_CURVE;
}

/* ---- cells ------------------------------------------------------------------------------- */

/* Writes ch with role at (r, c) of g; nothing outside the grid. */
static inline void put(struct plot_grid *g, int r, int c, char ch, int role)
{
	if (r < 0 || r >= g->h || c < 0 || c >= g->w)
		return;
	g->ch[(size_t)r * g->w + c] = ch;
	g->role[(size_t)r * g->w + c] = (unsigned char)role;
}

/* Writes s from (r, c) along the row, as put does. */
static inline void put_text(struct plot_grid *g, int r, int c, const char *s, int role)
{
	for (; *s; s++, c++)
		put(g, r, c, *s, role);
}

/* c when printable ASCII, else '?'. */
static inline char ascii(char c)
{
	return c >= 0x20 && c < 0x7f ? c : '?';
}

/* Ranges, clipping, the y grid and labels, the y axis column and the x scale for pts into L,
 * leg_rows (1 or more) rows left for the legend: everything a point's cell depends on; *valid
 * gets how many points can be placed. 0, or -1 with err when out of memory. */
int plot_axis_layout(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		     int leg_rows, struct layout *L, size_t *valid, struct gs_err *err);

/* Draws the y axis with its ticks and labels and the x axis with its power-of-two labels. */
void plot_axis_draw(const struct layout *L, struct plot_grid *g);

/* v as theta and the legend show it (buf: LAB_MAX bytes): up to three significant digits, no
 * trailing zeros. */
void plot_axis_value(char *buf, double v);

/* The most rows the legend of a grid h rows high may take from the plot. */
static inline int legend_max_rows(int h)
{
	int m = 1 + (h - MIN_H) / 2;

	return m < 1 ? 1 : m > 8 ? 8 : m;
}

/* The rows (1..max) the legend of li needs at width w: the fewest that hold it whole at some
 * level of words (it is never cut between two words of one entry); max when none do. */
int plot_marks_legend_rows(const struct legend_info *li, int w, int max);

/* Writes the legend of li into the last rows of g (rows of them), at the most verbose level
 * that fits in the fewest rows, wrapped between entries; cut with '~' only when the tersest
 * does not fit in rows. */
void plot_marks_legend(struct plot_grid *g, const struct legend_info *li, int rows);

/* Places the selected point's label near its cell (r, c), covering no point (cnt: per-cell
 * point counts), cut when it must be; sets g->label*. */
void plot_marks_label(const struct layout *L, struct plot_grid *g, const unsigned char *cnt,
		      int r, int c, const char *label);

#endif
