/* plot.h: the pure scatterplot rasterizer: points and axes in, a character grid and a parallel
 * role grid out. Knows nothing of terminals; the UI maps roles to attributes.
 *
 * The picture (ASCII only), and the role of each cell:
 *   y tick labels, x tick labels (1 2 4 ... 512 1k 2k 4k 16k: binary k)   ROLE_LABEL
 *   axis lines '|' '-' and the origin corner '+'                           ROLE_AXIS
 *   tick marks '+' on the axes                                             ROLE_TICK
 *   point of cluster n: 'a' + n                                            ROLE_CLUSTER + n
 *   Pareto point (PT_PARETO, show_pareto on): 'A' + n, uppercase           ROLE_CLUSTER + n
 *     (the role keeps the cluster colour; a UI that wants Pareto points bold tests
 *      isupper(ch) on a ROLE_CLUSTER cell; ROLE_PARETO is never written to the grid)
 *   cluster outside 0..11: '.' ('*' when Pareto)                          ROLE_LABEL
 *   reference (PT_REF): 'R', whatever its cluster or Pareto flag           ROLE_REF
 *   selected point (PT_SELECTED): its own glyph (R, A or a)               ROLE_SELECTED
 *     and its label, one cell beside it, inside the plot area: on the right, flipped to the
 *     left near the right edge or when the right side would cover a point and the left does
 *     not; a side that covers no point wins even clipped (when 8 characters still show); else
 *     the side covering fewer points; only the first selected point is labelled ROLE_SELECTED
 *   several points in one cell: count '2'..'9', '#' for ten or more       ROLE_OVERLAP
 *     except that a selected point, then a reference, wins its cell
 *   theta line '-' across the plot area and its text " theta 0.8 "        ROLE_THETA
 *   legend, last row: "x: N (log2)  y: E'  a b c clusters  A B C Pareto  R ref  - theta 0.8"
 *     shortened to fit ("E'  abc  ABC Pareto  R ref  - 0.8"), then clipped; its text is
 *     ROLE_LEGEND, its sample glyphs carry the roles above (a: ROLE_CLUSTER + 0, R: ROLE_REF,
 *     '-': ROLE_THETA, '#': ROLE_OVERLAP); the clusters are every cluster with a point, in lower
 *     case, even when all their points are Pareto glyphs (the reference counts only as R);
 *     "# 10+ in a cell" when a '#' is drawn; "y: E' (log)" ("log E'" when short) on a log y
 *     axis; it also says "theta 0.8 off
 *     scale" when the line is outside the y range and "3 not shown" when points were
 *     skipped                                                            ROLE_LEGEND
 *   everything else ' '                                                   ROLE_BLANK
 *
 * x is log2(N) over whole powers of two around the data; y is linear or log10 with 1-2-5 ticks.
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

enum plot_role {
	ROLE_BLANK, ROLE_AXIS, ROLE_TICK, ROLE_LABEL, ROLE_THETA, ROLE_LEGEND, ROLE_PARETO,
	ROLE_REF, ROLE_SELECTED, ROLE_OVERLAP,
	ROLE_CLUSTER /* + cluster number (0..11) */
};

enum { PT_REF = 1, PT_SELECTED = 2, PT_PARETO = 4 };

struct plot_point {
	double x, y;           /* x = N (drawn on log2), y = the metric; non-finite points skipped */
	int cluster;           /* 0..11, glyph 'a' + cluster (see above for others) */
	unsigned flags;        /* PT_* */
	const char *label;     /* shown beside a PT_SELECTED point; may be NULL */
};

struct plot_spec {
	int width, height;     /* whole grid, legend and axes included */
	bool log_y;
	double theta;          /* horizontal threshold line; NAN: none */
	bool show_pareto;      /* mark Pareto points */
	const char *y_name;    /* axis name for the legend, e.g. "E'" */
};

struct plot_grid {
	int w, h;
	char *ch;              /* w*h characters, row-major, ASCII */
	unsigned char *role;   /* w*h plot_role values */
};

/* Rasterizes pts into g, which must start zeroed ({ 0 }) and is reused across calls (its buffers
 * are reallocated only when the size changes; nothing is allocated per point). Returns 0, or -1
 * with err when the size is below 20x8 or above 400x200, or out of memory (g is then freed). */
int plot_render(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		struct plot_grid *g, struct gs_err *err);

/* Where plot_render puts each point, without drawing: cells[i] (n entries, caller's) becomes
 * row * width + column of pts[i]'s glyph in the grid plot_render(pts, n, spec) would draw, or -1
 * for a point that is skipped. The position does not depend on flags or labels, so a point keeps
 * its cell whatever is selected. Returns 0, or -1 with err for a size plot_render refuses. */
int plot_locate(const struct plot_point *pts, size_t n, const struct plot_spec *spec, int *cells,
		struct gs_err *err);

/* Writes the grid as h lines, each with trailing spaces trimmed and ended by '\n', to buf,
 * NUL-terminated and truncated like snprintf; returns the length of the whole text (without the
 * NUL), so plot_to_text(g, NULL, 0) measures. */
size_t plot_to_text(const struct plot_grid *g, char *buf, size_t n);

/* Frees the grid buffers. */
void plot_free(struct plot_grid *g);

#endif
