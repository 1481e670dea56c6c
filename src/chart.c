/* chart.c: the analysis as plot points and settings (see chart.h). The rasterizer stays
 * ignorant of metrics and rows; everything that knows what a row means is here. */
#include "chart.h"

#include "describe.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Families (or rounds) of the shown rows in name order (stable whatever the sort; round names
 * sort in round order), the first FAM_MAX of them: the points of the i-th get glyph 'a' + i,
 * the others '.'. */
enum { FAM_MAX = MAX_K - 1, FAM_SCAN = 256 };

struct famtab {
	const char *name[FAM_SCAN];
	int n;
};

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The name a row is grouped by. */
static const char *group_of(const struct row *r, enum chart_group g)
{
	return g == GROUP_ROUND ? r->round : r->family;
}

/* The name row r is grouped by: in family mode its group's family (the same text), which
 * spares a read of the dataset row, scattered in the order of the shown rows. */
static const char *group_name(const struct dataset *ds, const struct analysis *a,
			      const struct arow *r, enum chart_group g)
{
	if (g == GROUP_FAMILY && r->group < a->ngroups && a->groups[r->group].family)
		return a->groups[r->group].family;
	return group_of(&ds->rows[r->row], g);
}

static void famtab_make(const struct dataset *ds, const struct analysis *a, enum chart_group g,
			struct famtab *t)
{
	size_t rows = 0, q = 0;

	t->n = 0;
	/* family mode: the groups are the shown rows' families, one each (distinct texts), and
	 * hold every row; up to FAM_SCAN of them are all there is to scan */
	if (g == GROUP_FAMILY && a->ngroups <= FAM_SCAN) {
		for (; q < a->ngroups && a->groups[q].family; q++)
			rows += a->groups[q].nrows;
		if (q == a->ngroups && rows == a->n) {
			for (q = 0; q < a->ngroups; q++)
				t->name[t->n++] = a->groups[q].family;
			qsort(t->name, (size_t)t->n, sizeof t->name[0], cmp_str);
			return;
		}
	}
	for (size_t i = 0; i < a->n && t->n < FAM_SCAN; i++) {
		const char *f = group_name(ds, a, &a->rows[i], g);
		int j = 0;
		/* names are pooled: equal pointers first, strcmp for the rest */
		while (j < t->n && t->name[j] != f && strcmp(t->name[j], f) != 0)
			j++;
		if (j == t->n)
			t->name[t->n++] = f;
	}
	qsort(t->name, (size_t)t->n, sizeof t->name[0], cmp_str);
}

/* The family's index in t, -1 beyond the first FAM_MAX. */
static int famtab_find(const struct famtab *t, const char *f)
{
	for (int j = 0; j < t->n && j < FAM_MAX; j++)
		if (t->name[j] == f || strcmp(t->name[j], f) == 0)
			return j;
	return -1;
}

/* Preview and Research rows are compared with systems one can buy: the plot marks them. */
static bool row_preview(const struct row *r)
{
	return r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH;
}

enum chart_group chart_group_of(const struct params *p)
{
	return p->all_rounds ? GROUP_ROUND : p->mode == REF_FAMILY ? GROUP_FAMILY : GROUP_CLUSTER;
}

enum chart_group chart_group_of_analysis(const struct analysis *a)
{
	return a->all_rounds ? GROUP_ROUND : a->mode == REF_FAMILY ? GROUP_FAMILY : GROUP_CLUSTER;
}

void chart_letters(const struct dataset *ds, const struct analysis *a, enum chart_group g,
		   char *out)
{
	struct famtab t;

	if (g == GROUP_FAMILY || g == GROUP_ROUND)
		famtab_make(ds, a, g, &t);
	for (size_t i = 0; i < a->n; i++) {
		int j = a->rows[i].cluster;
		if (g == GROUP_FAMILY || g == GROUP_ROUND)
			j = famtab_find(&t, group_name(ds, a, &a->rows[i], g));
		out[i] = j >= 0 && j < MAX_K ? (char)('a' + j) : '.';
	}
}

void chart_interval(const struct analysis *a, const struct arow *r, enum metric m, double *lo,
		    double *hi)
{
	const struct col_def *d = reg_metric(m);

	*lo = *hi = NAN;
	if ((unsigned)m < MET_COUNT && d->interval)
		d->interval(analysis_ci(a, r), r, lo, hi);
}

void chart_mark(const struct analysis *a, size_t focus, struct plot_spec *s)
{
	s->mark_x = 0;
	s->mark_name[0] = '\0';
	if (focus < a->ngroups && a->groups[focus].be.lo >= 0) {
		const struct group *g = &a->groups[focus];
		char br[96];
		s->mark_x = (double)g->be.lo;
		describe_bracket_short(&g->be, br, sizeof br);
		if (g->family)
			snprintf(s->mark_name, sizeof s->mark_name, "%s break-even %s", g->family, br);
		else
			snprintf(s->mark_name, sizeof s->mark_name, "break-even %s", br);
	}
}

void chart_spec(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		struct plot_spec *s)
{
	memset(s, 0, sizeof *s);
	s->width = o->width;
	s->height = o->height;
	s->log_y = o->log_y;
	s->theta = o->metric == MET_EP ? o->theta : NAN;
	s->show_pareto = o->show_pareto;
	s->y_name = metric_name(o->metric);
	s->full_range = o->full_range;
	/* E', S and E fall with N: their low values are the finding, never clipped */
	s->keep_low = o->metric == MET_EP || o->metric == MET_S || o->metric == MET_E;
	s->show_bars = o->bars;
	chart_mark(a, o->focus, s);
	if (o->group == GROUP_FAMILY || o->group == GROUP_ROUND) {
		struct famtab t;
		famtab_make(ds, a, o->group, &t);
		for (int j = 0; j < t.n && j < FAM_MAX; j++) {
			s->keys[j].glyph = (char)('a' + j);
			s->keys[j].cluster = j;
			s->keys[j].text = t.name[j];
			s->nkeys++;
		}
		if (t.n > FAM_MAX) {
			s->keys[s->nkeys].glyph = '.';
			s->keys[s->nkeys].cluster = -1;
			s->keys[s->nkeys].text = "other";
			s->nkeys++;
		}
	}
}

void chart_points(const struct dataset *ds, const struct analysis *a, const struct chart_opts *o,
		  long sel, struct plot_point *pts)
{
	struct famtab t;

	if (o->group == GROUP_FAMILY || o->group == GROUP_ROUND)
		famtab_make(ds, a, o->group, &t);
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *r = &a->rows[i];
		const struct row *d = &ds->rows[r->row];
		memset(&pts[i], 0, sizeof pts[i]);
		pts[i].x = r->N;
		pts[i].y = arow_metric(r, o->metric);
		pts[i].cluster = r->cluster;
		pts[i].flags = (r->is_ref ? PT_REF : 0) | (r->pareto ? PT_PARETO : 0) |
			       (row_preview(d) ? PT_PREVIEW : 0);
		if (o->group == GROUP_FAMILY || o->group == GROUP_ROUND)
			pts[i].cluster = famtab_find(&t, group_name(ds, a, r, o->group));
		if (o->bars)
			chart_interval(a, r, o->metric, &pts[i].lo, &pts[i].hi);
	}
	/* only the selected point is labelled */
	if (sel >= 0 && (size_t)sel < a->n) {
		pts[sel].flags |= PT_SELECTED;
		pts[sel].label = ds->rows[a->rows[sel].row].system;
	}
}

/* The law's T at n mapped to metric m against a reference of tr minutes on nr accelerators,
 * as arow's metrics are computed from the observed T; NAN for a metric the law does not give. */
static double fit_metric(const struct fit *f, enum metric m, double n, double tr, double nr)
{
	const struct col_def *d = reg_metric(m);

	return (unsigned)m < MET_COUNT && d->from_t ? d->from_t(fit_t(f, n), n, tr, nr) : NAN;
}

/* The most accelerators among a's rows: its groups' n_max when they hold every row (as
 * refs_and_metrics makes them), else from the rows. */
static double max_n(const struct analysis *a)
{
	double m = 0;
	size_t rows = 0;

	for (size_t q = 0; q < a->ngroups; q++) {
		m = fmax(m, a->groups[q].n_max);
		rows += a->groups[q].nrows;
	}
	if (rows == a->n)
		return m;
	m = 0;
	for (size_t i = 0; i < a->n; i++)
		m = fmax(m, a->rows[i].N);
	return m;
}

size_t chart_fit_curves(const struct dataset *ds, const struct analysis *a,
			const struct chart_opts *o, struct plot_curve *c, size_t max, double *xy)
{
	struct famtab t;
	double nmax = 0;
	size_t nc = 0;
	bool named_ok = false, named_weak = false;

	if (o->group == GROUP_FAMILY)
		famtab_make(ds, a, GROUP_FAMILY, &t);
	nmax = max_n(a);
	for (size_t k = 0; k < a->nfits && nc < max; k++) {
		const struct fit *f = &a->fits[k].fit;
		const struct arow *r = NULL;
		double *x = xy + 2 * CHART_FIT_SAMPLES * nc, *y = x + CHART_FIT_SAMPLES, lo, hi, tr, nr;
		bool weak = f->state == FIT_WEAK;

		if (!fit_usable(f))
			continue;
		/* the family's rows share one reference (its own in family mode, else a's) */
		for (size_t i = 0; i < a->n && !r; i++) {
			const char *fam = group_name(ds, a, &a->rows[i], GROUP_FAMILY);
			if (fam == a->fits[k].family || strcmp(fam, a->fits[k].family) == 0)
				r = &a->rows[i];
		}
		if (!r)
			continue;
		/* the E' curve is on the rows' own reference, its observed T as the points' E' are
		 * (so that points and curve compare like with like, and the curve crosses theta at
		 * the fit's predicted break-even on that reference) */
		nr = (double)ds->rows[r->ref].accelerators;
		tr = ds->rows[r->ref].minutes;
		/* from the family's fewest N to the largest shown: the law past its own points is the
		 * prediction */
		lo = log2(f->n_ref);
		hi = log2(fmax(nmax, f->n_max));
		for (size_t s = 0; s < CHART_FIT_SAMPLES; s++) {
			x[s] = exp2(lo + (hi - lo) * (double)s / (CHART_FIT_SAMPLES - 1));
			y[s] = fit_metric(f, o->metric, x[s], tr, nr);
		}
		if (!isfinite(tr) || !isfinite(y[0]))
			continue;
		memset(&c[nc], 0, sizeof c[nc]);
		c[nc].x = x;
		c[nc].y = y;
		c[nc].n = CHART_FIT_SAMPLES;
		c[nc].glyph = weak ? ',' : '.';
		c[nc].cluster = o->group == GROUP_FAMILY ? famtab_find(&t, a->fits[k].family) : -1;
		if (weak && !named_weak)
			c[nc].name = "weak fit";
		else if (!weak && !named_ok)
			c[nc].name = "fit";
		named_weak |= weak;
		named_ok |= !weak;
		nc++;
	}
	return nc;
}
