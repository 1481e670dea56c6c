/* chart.c: the analysis as plot points and settings (see chart.h). The rasterizer stays
 * ignorant of metrics and rows; everything that knows what a row means is here. */
#include "chart.h"

#include <math.h>
#include <string.h>

void chart_spec(const struct analysis *a, const struct chart_opts *o, struct plot_spec *s)
{
	(void)a;
	memset(s, 0, sizeof *s);
	s->width = o->width;
	s->height = o->height;
	s->log_y = o->log_y;
	s->theta = o->metric == MET_EP ? o->theta : NAN;
	s->show_pareto = o->show_pareto;
	s->y_name = metric_name(o->metric);
}

void chart_points(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		  long sel, struct plot_point *pts)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *r = &a->rows[i];
		pts[i].x = r->N;
		pts[i].y = arow_metric(r, o->metric);
		pts[i].cluster = r->cluster;
		pts[i].flags = (r->is_ref ? PT_REF : 0) | (r->pareto ? PT_PARETO : 0);
		pts[i].label = NULL;
	}
	/* only the selected point is labelled: fetching every row's name is a cache miss a point */
	if (sel >= 0 && (size_t)sel < a->n) {
		pts[sel].flags |= PT_SELECTED;
		pts[sel].label = ds->rows[a->rows[sel].row].system;
	}
}
