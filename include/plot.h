/* plot.h: the pure scatterplot rasterizer: points and axes in, a character grid and a parallel
 * role grid out. Knows nothing of terminals; the UI maps roles to attributes. */
#ifndef GS_PLOT_H
#define GS_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

enum plot_role {
	ROLE_BLANK, ROLE_AXIS, ROLE_TICK, ROLE_LABEL, ROLE_THETA, ROLE_LEGEND, ROLE_PARETO,
	ROLE_REF, ROLE_SELECTED, ROLE_OVERLAP,
	ROLE_CLUSTER /* + cluster number (0..11) */
};

enum { PT_REF = 1, PT_SELECTED = 2, PT_PARETO = 4 };

struct plot_point {
	double x, y;           /* x = N (drawn on log2), y = the metric; non-finite points skipped */
	int cluster;           /* 0..11, glyph 'a' + cluster */
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

/* Rasterizes pts into g (reallocated as needed). Returns 0, or -1 with err when the size is
 * below 20x8 or out of memory. */
int plot_render(const struct plot_point *pts, size_t n, const struct plot_spec *spec,
		struct plot_grid *g, struct gs_err *err);

/* Writes the grid as text lines (trailing spaces trimmed) to buf; returns bytes needed. */
size_t plot_to_text(const struct plot_grid *g, char *buf, size_t n);

/* Frees the grid buffers. */
void plot_free(struct plot_grid *g);

#endif
