/* plot.h: the pure scatterplot rasterizer: points, layers and axes in, a character grid and a
 * parallel role grid out. Knows nothing of terminals; the UI maps roles to attributes.
 *
 * Geometry that tells the truth. Every data row and column stands for an interval of values of
 * the same width, centred on the row's (column's) value; a mark is drawn in the row and column
 * whose interval holds its value, never moved. The axes are frames outside the data cells (the
 * x axis row and the y axis column hold no value). y: the rows are one step d apart, d = T / m
 * where T is the tick step (1-2-5 x 10^e, or on a log axis a whole or 1-2-5 fraction of a
 * decade) and m the rows per tick; the finest d that holds the data (and theta) is chosen, so a
 * tick label states exactly the value of its row and the ticks are evenly spaced, m rows apart.
 * x: log2(N), whole powers of two around the data; the tick under a power is in the column
 * holding it.
 *
 * The picture (ASCII only), and the role of each cell:
 *   y tick labels, x tick labels (1 2 4 ... 65536, then 2^17)             ROLE_LABEL
 *   axis lines '|' '-' and the corner '+'                                  ROLE_AXIS
 *   tick marks '+' on the axes                                             ROLE_TICK
 *   point of cluster n: 'a' + n, or its own glyph (plot_point.glyph)       ROLE_CLUSTER + n
 *   Pareto point (PT_PARETO, show_pareto on): the glyph in upper case      ROLE_CLUSTER + n
 *     (ROLE_PARETO is never written to the grid)
 *   cluster outside 0..11: '.' ('*' when Pareto), or its own glyph        ROLE_LABEL
 *   reference (PT_REF): 'R', whatever its cluster or Pareto flag           ROLE_REF
 *   selected point (PT_SELECTED): its cell keeps the mark it shows (the point's ROLE_SELECTED
 *     glyph, a count, the reference's R), so a selection never hides a mark
 *   several points in one cell: count '2'..'9', '#' for ten or more       ROLE_OVERLAP
 *     except that a reference wins its cell
 *   a point below theta (y < theta, theta set): its role + ROLE_F_BELOW; the UI draws it dim,
 *     so points at or above theta are told apart without colour
 *   a Preview or Research point (PT_PREVIEW): its role + ROLE_F_PREVIEW; the UI underlines it
 *   points clipped above / below the range: '^' in the top row, 'v' in the bottom row, in
 *     their column                                                        (their point role)
 *   theta line '-' across the plot area in theta's row, its text " theta 0.8 "  ROLE_THETA
 *   break-even mark ':' down the column of mark_x (blank cells only)        ROLE_BREAKEVEN
 *   interval bar '|' through a point, from the row of lo to the row of hi   ROLE_BAR
 *     (over blank, theta and break-even cells; never over a point)
 *   curve: its glyph in each column its samples span, gaps filled down     ROLE_CURVE, or
 *     the column; over blank, theta and break-even cells                    ROLE_CLUSTER + n
 *   the selected point's label: beside it (right, then left), else above or below it; never
 *     over a point; cut in the middle with '~' (at least 8 columns kept); when it cannot be
 *     placed, label_off is set and the UI shows it elsewhere                ROLE_SELECTED
 *   legend, last row (or rows): "x: N (log2)  y: E'  a b c clusters 1 2 3  A B C Pareto  R ref  - theta 0.8"
 *     then ": break-even N 64", "| run-to-run interval", ". fit", "3 not shown", the clip
 *     counts right after the axis names ("^ 1 above, up to 24.1", "v 2 below, down to 0.2"),
 *     shortened to fit ("E'  abc  ABC Pareto  R ref  - 0.8"); when the tersest does not fit
 *     one row it wraps between entries over the fewest rows that hold it (a name is never
 *     cut), taking them from the plot (up to 1 + (height - 8) / 2, at most 8), and only past
 *     them is it clipped with '~'; its text is
 *     ROLE_LEGEND, its sample glyphs carry the roles above; with keys, the keys' glyphs and
 *     texts replace "a b c clusters" (and "upper case: Pareto" the Pareto glyphs);
 *     "underlined: preview/research" when a PT_PREVIEW point is drawn          ROLE_LEGEND
 *   everything else ' '                                                   ROLE_BLANK
 *
 * Robust y range: on a linear axis, unless full_range, with at least 5 points, y values above
 * Q3 + 3 (Q3 - Q1) are clipped to '^' in the top row and those below Q1 - 1.5 (Q3 - Q1) (but
 * never within a quarter of theta below theta) to 'v' in the bottom row; a clip row then holds
 * no values, and the legend counts the clipped points with the extreme value. Log axes never
 * clip. A glyph override must not be 'v', '^', a digit, '#' or 'R'.
 * Points that cannot be placed are skipped and counted in the legend: x or y not finite,
 * x <= 0, |x| or |y| above 1e300, and with log_y every y below 1e-300 (so every y <= 0).
 * With no point left the ranges are 1..64 and 0..1 (log: 0.1..10), the axes still drawn.
 * Same input, same grid, on every machine. */
#ifndef GS_PLOT_H
#define GS_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Grid sizes plot_render takes; callers with bigger panes draw at most this much. */
#define PLOT_MIN_W 20
#define PLOT_MIN_H 8
#define PLOT_MAX_W 400
#define PLOT_MAX_H 200
/* Bytes of the selected label kept (UTF-8, NUL included). */
#define PLOT_LABEL_MAX 256
/* Legend keys a spec carries. */
#define PLOT_KEYS_MAX 16

enum plot_role {
	ROLE_BLANK, ROLE_AXIS, ROLE_TICK, ROLE_LABEL, ROLE_THETA, ROLE_LEGEND, ROLE_PARETO,
	ROLE_REF, ROLE_SELECTED, ROLE_OVERLAP, ROLE_BREAKEVEN, ROLE_BAR, ROLE_CURVE,
	ROLE_CLUSTER /* + cluster number (0..11) */
};
/* Attribute bits added to a point cell's role; role & ROLE_MASK is the role above. */
#define ROLE_MASK 0x3f
#define ROLE_F_BELOW 0x40
#define ROLE_F_PREVIEW 0x80

enum { PT_REF = 1, PT_SELECTED = 2, PT_PARETO = 4, PT_PREVIEW = 8 };

struct plot_point {
	double x, y;           /* x = N (drawn on log2), y = the metric; non-finite points skipped */
	int cluster;           /* 0..11: colour ROLE_CLUSTER + cluster and glyph 'a' + cluster */
	unsigned flags;        /* PT_* */
	const char *label;     /* shown beside a PT_SELECTED point (UTF-8); may be NULL */
	double lo, hi;         /* interval bar ends in y units, drawn when show_bars and lo < hi */
	char glyph;            /* 0: by cluster; else this ASCII letter or symbol (not a digit,
				  '#', '^', 'v' or 'R'); a letter is upper-cased for a shown Pareto point */
};

/* A legend entry: glyph (in the role of cluster, as points are) and its text. */
struct plot_key {
	char glyph;
	int cluster;
	const char *text;
};

/* A sampled polyline: n samples (x = N > 0, ascending; y in metric units; a non-finite sample
 * breaks the line), drawn in glyph (not a letter, digit, '#' or '^'); cluster 0..11 colours it
 * as that cluster, else ROLE_CURVE; name is its legend text (NULL: none). Curves never change
 * the ranges: what falls outside is not drawn. */
struct plot_curve {
	const double *x, *y;
	size_t n;
	char glyph;
	int cluster;
	const char *name;
};

struct plot_spec {
	int width, height;     /* whole grid, legend and axes included */
	bool log_y;
	double theta;          /* horizontal threshold line; NAN: none */
	bool show_pareto;      /* mark Pareto points */
	const char *y_name;    /* axis name for the legend, e.g. "E'" */
	/* layers, all off when zero */
	bool full_range;       /* no clipping: the y range holds every point */
	bool keep_low;         /* never clip low values (E', S, E: the decline is the finding) */
	bool show_bars;        /* interval bars of the points that have them */
	double mark_x;         /* break-even N: a vertical mark in its column; <= 0 or NAN: none */
	char mark_name[160];   /* its legend text ("break-even 16..<32"); "": "break-even" */
	struct plot_key keys[PLOT_KEYS_MAX];  /* legend entries replacing "a b c clusters"; their */
	size_t nkeys;                         /* texts must outlive the render */
	const struct plot_curve *curves;
	size_t ncurves;
};

struct plot_grid {
	int w, h;
	char *ch;              /* w*h characters, row-major, ASCII */
	unsigned char *role;   /* w*h plot_role values, with ROLE_F_* bits on point cells */
	/* the selected point's label, drawn over its cells (ch holds '?' for each non-ASCII
	 * character there, one per display column): UTF-8 text, label_w columns from
	 * (label_row, label_col); label_w 0: none drawn */
	int label_row, label_col, label_w;
	char label[PLOT_LABEL_MAX];
	bool label_off;        /* a selected point's label was not drawn whole (cut or no room) */
	size_t clipped;        /* points drawn as '^' above the range */
	int legend_rows;       /* the last rows the legend takes (1 unless it is wrapped) */
};

/* Rasterizes pts into g, which must start zeroed ({ 0 }) and is reused across calls (its buffers
 * are reallocated only when the size changes). Returns 0, or -1 with err when the size is below
 * 20x8 or above 400x200, or out of memory (g is then freed). */
int plot_render(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		struct plot_grid *g, struct gs_err *err);

/* Where plot_render puts each point, without drawing: cells[i] (n entries, caller's) becomes
 * row * width + column of pts[i]'s glyph in the grid plot_render(pts, n, spec) would draw, or -1
 * for a point that is skipped. The position does not depend on flags or labels, so a point keeps
 * its cell whatever is selected. Returns 0, or -1 with err for a size plot_render refuses or
 * out of memory. */
int plot_locate(const struct plot_point *pts, size_t n, const struct plot_spec *spec, int *cells,
		struct gs_err *err);

/* Writes the grid as h lines, each with trailing spaces trimmed and ended by '\n', to buf,
 * NUL-terminated and truncated like snprintf; the label's cells carry its UTF-8 text. Returns
 * the length of the whole text (without the NUL), so plot_to_text(g, NULL, 0) measures. */
size_t plot_to_text(const struct plot_grid *g, char *buf, size_t n);

/* Frees the grid buffers. */
void plot_free(struct plot_grid *g);

#endif
