/* test_plot_base.c: the kept picture (plot_base_render, plot_base_finish). A picture rendered
 * once and finished for any selection and break-even mark must be, cell for cell, what
 * plot_render draws from scratch for that selection and mark: over random points (overlaps of
 * ten and more, references, Pareto and preview points, clipped and skipped points, bars, a
 * curve, theta, log y) and sizes, with the base's buffers reused across sizes. A cell of ten
 * points holding the selection shows the selection, and the legend's "10+" goes with the last
 * '#' cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static uint32_t rnd_u(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Uniform in [0, 1). */
static double rnd(uint32_t *s)
{
	return (rnd_u(s) >> 8) * (1.0 / 16777216.0);
}

static const char *const labels[] = { "eos_512", "a_rather_long_system_name_for_the_label_1234567890",
				      "x", "ws_2xA5000", "H100\xc3\x97" "8" };

/* Two grids hold the same picture: cells, roles, label and counts. */
static void same_grid(const struct plot_grid *a, const struct plot_grid *b)
{
	size_t cells;

	assert_int_equal(a->w, b->w);
	assert_int_equal(a->h, b->h);
	cells = (size_t)a->w * (size_t)a->h;
	assert_memory_equal(a->ch, b->ch, cells);
	assert_memory_equal(a->role, b->role, cells);
	assert_string_equal(a->label, b->label);
	assert_int_equal(a->label_row, b->label_row);
	assert_int_equal(a->label_col, b->label_col);
	assert_int_equal(a->label_w, b->label_w);
	assert_int_equal(a->label_off, b->label_off);
	assert_int_equal(a->clipped, b->clipped);
}

struct scene {
	struct plot_point *pts;
	size_t n;
	struct plot_spec spec;
	struct plot_curve curve;
	double cx[32], cy[32];
};

/* Random points on a few columns (so that cells fill up), a random spec. */
static void scene_make(uint32_t *s, struct scene *sc)
{
	int step = 1 + (int)(rnd(s) * 4);

	sc->n = (size_t)(rnd(s) * (rnd(s) < 0.5 ? 40 : 2000));
	memset(&sc->spec, 0, sizeof sc->spec);
	sc->spec.width = PLOT_MIN_W + (int)(rnd(s) * 160);
	sc->spec.height = PLOT_MIN_H + (int)(rnd(s) * 40);
	sc->spec.log_y = rnd(s) < 0.3;
	sc->spec.theta = rnd(s) < 0.6 ? 0.3 + rnd(s) : NAN;
	sc->spec.show_pareto = rnd(s) < 0.5;
	sc->spec.y_name = "E'";
	sc->spec.full_range = rnd(s) < 0.3;
	sc->spec.keep_low = rnd(s) < 0.5;
	sc->spec.show_bars = rnd(s) < 0.5;
	if (rnd(s) < 0.5) {
		for (int i = 0; i < 32; i++) {
			sc->cx[i] = exp2(i * 12.0 / 31);
			sc->cy[i] = rnd(s) < 0.05 ? NAN : 1.2 - i * 0.03;
		}
		sc->curve = (struct plot_curve){ sc->cx, sc->cy, 32, rnd(s) < 0.5 ? '.' : ',',
						 rnd(s) < 0.5 ? 1 : -1, "fit" };
		sc->spec.curves = &sc->curve;
		sc->spec.ncurves = 1;
	}
	for (size_t i = 0; i < sc->n; i++) {
		struct plot_point *p = &sc->pts[i];
		memset(p, 0, sizeof *p);
		p->x = exp2((int)(rnd(s) * 12 / step) * step + (rnd(s) < 0.2 ? rnd(s) : 0));
		p->y = rnd(s) < 0.02 ? 50 * rnd(s) : rnd(s) < 0.02 ? NAN :
		       0.2 + rnd(s) * (rnd(s) < 0.3 ? 0.05 : 1);
		p->cluster = (int)(rnd(s) * 14) - 1;
		p->flags = (rnd(s) < 0.02 ? PT_REF : 0) | (rnd(s) < 0.2 ? PT_PARETO : 0) |
			   (rnd(s) < 0.1 ? PT_PREVIEW : 0);
		p->lo = p->y * 0.9;
		p->hi = p->y * (rnd(s) < 0.5 ? 1.1 : 0.8);
		p->glyph = rnd(s) < 0.1 ? 'q' : 0;
		p->label = labels[rnd_u(s) % 5];
	}
}

/* A random break-even mark: none, or a power of two, in or out of range. */
static void mark_pick(uint32_t *s, struct plot_spec *spec)
{
	spec->mark_x = rnd(s) < 0.3 ? 0 : exp2((int)(rnd(s) * 16) - 2);
	snprintf(spec->mark_name, sizeof spec->mark_name, rnd(s) < 0.5 ? "" : "H100 break-even %d..<%d",
		 (int)spec->mark_x, 2 * (int)spec->mark_x);
}

/* Clears every selection, then selects up to three points (most often one). Returns the
 * first selected index, or n. */
static size_t select_pick(uint32_t *s, struct plot_point *pts, size_t n)
{
	size_t first = n, k;

	for (size_t i = 0; i < n; i++)
		pts[i].flags &= ~(unsigned)PT_SELECTED;
	k = n == 0 ? 0 : rnd(s) < 0.8 ? 1 : rnd(s) < 0.5 ? 0 : 3;
	for (size_t j = 0; j < k; j++) {
		size_t i = rnd_u(s) % n;
		pts[i].flags |= PT_SELECTED;
		if (i < first)
			first = i;
	}
	return first;
}

/* Random scenes: one base, finished for several selections and marks, against a render from
 * scratch each time; the selected point alone (as the explorer passes it) finishes alike. */
static void finish_equals_render(void **state)
{
	struct scene sc;
	struct plot_base b = { 0 };
	struct plot_grid kept = { 0 }, fresh = { 0 }, alone = { 0 };
	struct gs_err err;
	uint32_t seed = 20261202;
	size_t finished = 0;

	(void)state;
	sc.pts = calloc(2000, sizeof *sc.pts);
	assert_non_null(sc.pts);
	for (int k = 0; k < 400; k++) {
		scene_make(&seed, &sc);
		/* the base's own selection and mark must not matter */
		select_pick(&seed, sc.pts, sc.n);
		mark_pick(&seed, &sc.spec);
		assert_int_equal(plot_base_render(sc.pts, sc.n, &sc.spec, &b, &err), 0);
		for (int m = 0; m < 6; m++) {
			size_t first = select_pick(&seed, sc.pts, sc.n);
			int single = 0;

			mark_pick(&seed, &sc.spec);
			for (size_t i = 0; i < sc.n; i++)
				single += (sc.pts[i].flags & PT_SELECTED) != 0;
			assert_int_equal(plot_base_finish(&b, sc.pts, sc.n, &sc.spec, &kept, &err), 0);
			assert_int_equal(plot_render(sc.pts, sc.n, &sc.spec, &fresh, &err), 0);
			same_grid(&kept, &fresh);
			if (single == 1) {
				assert_int_equal(plot_base_finish(&b, &sc.pts[first], 1, &sc.spec, &alone, &err), 0);
				same_grid(&alone, &fresh);
			}
			finished++;
		}
	}
	assert_int_equal(finished, 400 * 6);
	plot_base_free(&b);
	plot_free(&kept);
	plot_free(&fresh);
	plot_free(&alone);
	free(sc.pts);
}

/* The cell and legend facts that move with the selection, by hand: twelve points in one cell
 * show '#' and the legend says "10+"; selecting one of them shows its glyph there and, that
 * cell being the only '#', the legend's "10+" goes. */
static void selection_takes_a_crowded_cell(void **state)
{
	struct plot_point pts[14];
	struct plot_spec spec = { .width = 60, .height = 12, .theta = NAN, .y_name = "E'" };
	struct plot_base b = { 0 };
	struct plot_grid g = { 0 };
	struct gs_err err;
	char text[4096];
	int cells[14], r, c;

	(void)state;
	memset(pts, 0, sizeof pts);
	for (int i = 0; i < 12; i++)
		pts[i] = (struct plot_point){ .x = 8, .y = 0.5, .cluster = 1 };
	pts[12] = (struct plot_point){ .x = 1, .y = 1, .cluster = 0 };
	pts[13] = (struct plot_point){ .x = 64, .y = 0.2, .cluster = 0 };
	assert_int_equal(plot_locate(pts, 14, &spec, cells, &err), 0);
	r = cells[0] / spec.width;
	c = cells[0] % spec.width;
	assert_int_equal(plot_base_render(pts, 14, &spec, &b, &err), 0);

	assert_int_equal(plot_base_finish(&b, pts, 14, &spec, &g, &err), 0);
	assert_int_equal(g.ch[r * g.w + c], '#');
	plot_to_text(&g, text, sizeof text);
	assert_non_null(strstr(text, "10+"));

	pts[5].flags |= PT_SELECTED;
	pts[5].label = "crowd";
	assert_int_equal(plot_base_finish(&b, &pts[5], 1, &spec, &g, &err), 0);
	assert_int_equal(g.ch[r * g.w + c], 'b');
	assert_int_equal(g.role[r * g.w + c], ROLE_SELECTED);
	assert_string_equal(g.label, "crowd");
	plot_to_text(&g, text, sizeof text);
	assert_null(strstr(text, "10+"));

	/* and back: nothing selected, the count again */
	assert_int_equal(plot_base_finish(&b, pts, 0, &spec, &g, &err), 0);
	assert_int_equal(g.ch[r * g.w + c], '#');
	assert_int_equal(g.label_w, 0);
	plot_base_free(&b);
	plot_free(&g);
}

/* A base that holds no picture is refused; a failed render leaves none. */
static void empty_base_refused(void **state)
{
	struct plot_base b = { 0 };
	struct plot_grid g = { 0 };
	struct plot_point p = { .x = 2, .y = 1 };
	struct plot_spec big = { .width = PLOT_MAX_W + 1, .height = 20, .theta = NAN };
	struct plot_spec ok = { .width = 40, .height = 12, .theta = NAN };
	struct gs_err err;

	(void)state;
	assert_int_equal(plot_base_finish(&b, &p, 1, &ok, &g, &err), -1);
	assert_int_equal(plot_base_render(&p, 1, &ok, &b, &err), 0);
	assert_int_equal(plot_base_finish(&b, &p, 1, &ok, &g, &err), 0);
	assert_int_equal(plot_base_render(&p, 1, &big, &b, &err), -1);
	assert_int_equal(plot_base_finish(&b, &p, 1, &ok, &g, &err), -1);
	plot_base_free(&b);
	plot_free(&g);
}

/* Some of the points as plot_base_render_some takes them: every point (idx NULL), none, a
 * random share of them in order (most, as a row filter's letter keeps, so that the axes often
 * stay), or in any order with repeats. Returns m; idx[0..m) is set unless *all. */
static size_t subset_pick(uint32_t *s, size_t n, size_t *idx, bool *all)
{
	double r = rnd(s), keep = rnd(s) < 0.5 ? 0.9 + 0.1 * rnd(s) : rnd(s);
	size_t m = 0;

	*all = r < 0.15;
	if (*all)
		return n;
	if (r < 0.2 || n == 0)
		return 0;
	if (r < 0.3) {
		m = rnd_u(s) % (n + 1);
		for (size_t j = 0; j < m; j++)
			idx[j] = rnd_u(s) % n;
		return m;
	}
	for (size_t i = 0; i < n; i++)
		if (rnd(s) < keep)
			idx[m++] = i;
	return m;
}

/* plot_base_render_some, its memo kept across everything that may leave it stale (new points,
 * a new size, log y, theta, Pareto marks, full range, keep low, bars, curves, a subset whose
 * axes move or stay), finished for a selection and a mark, against plot_render of the same
 * points gathered, cell for cell. */
static void some_equals_render(void **state)
{
	struct scene sc;
	struct plot_base b = { 0 };
	struct plot_memo memo = { 0 };
	struct plot_grid kept = { 0 }, fresh = { 0 };
	struct plot_point *sub, *other;
	size_t *idx;
	struct gs_err err;
	uint32_t seed = 20261205;
	size_t drawn = 0;

	(void)state;
	sc.pts = calloc(2000, sizeof *sc.pts);
	other = calloc(2000, sizeof *other);
	sub = calloc(2 * 2000, sizeof *sub);
	idx = calloc(2 * 2000, sizeof *idx);
	assert_true(sc.pts && other && sub && idx);
	for (int k = 0; k < 300; k++) {
		struct plot_point *pts;
		scene_make(&seed, &sc);
		/* the same array with new contents (the memo told), or another array */
		if (k % 3 == 2) {
			memcpy(other, sc.pts, sc.n * sizeof *other);
			pts = other;
		} else {
			pts = sc.pts;
			plot_memo_clear(&memo);
		}
		for (int t = 0; t < 12; t++) {
			bool all;
			size_t m = subset_pick(&seed, sc.n, idx, &all);
			double u = rnd(&seed);
			/* now and then another setting of the same points */
			if (u < 0.06) {
				sc.spec.width = PLOT_MIN_W + (int)(rnd(&seed) * 160);
				sc.spec.height = PLOT_MIN_H + (int)(rnd(&seed) * 40);
			} else if (u < 0.09) {
				sc.spec.log_y = !sc.spec.log_y;
			} else if (u < 0.12) {
				sc.spec.theta = rnd(&seed) < 0.8 ? 0.3 + rnd(&seed) : NAN;
			} else if (u < 0.15) {
				sc.spec.show_pareto = !sc.spec.show_pareto;
			} else if (u < 0.18) {
				sc.spec.full_range = !sc.spec.full_range;
			} else if (u < 0.21) {
				sc.spec.keep_low = !sc.spec.keep_low;
			} else if (u < 0.24) {
				sc.spec.show_bars = !sc.spec.show_bars;
			}
			for (size_t j = 0; j < m; j++)
				sub[j] = pts[all ? j : idx[j]];
			select_pick(&seed, sub, m);
			mark_pick(&seed, &sc.spec);
			assert_int_equal(plot_base_render_some(pts, sc.n, all ? NULL : idx, m, &sc.spec, &b,
							       &memo, &err), 0);
			assert_int_equal(plot_base_finish(&b, sub, m, &sc.spec, &kept, &err), 0);
			assert_int_equal(plot_render(sub, m, &sc.spec, &fresh, &err), 0);
			same_grid(&kept, &fresh);
			drawn++;
		}
	}
	assert_int_equal(drawn, 300 * 12);
	plot_memo_free(&memo);
	plot_memo_free(&memo); /* twice: nothing left to free */
	plot_base_free(&b);
	plot_free(&kept);
	plot_free(&fresh);
	free(sc.pts);
	free(other);
	free(sub);
	free(idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finish_equals_render),
		cmocka_unit_test(selection_takes_a_crowded_cell),
		cmocka_unit_test(empty_base_refused),
		cmocka_unit_test(some_equals_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
