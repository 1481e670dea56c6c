/* test_ui_plotcache.c: what the explorer keeps between frames is what it would draw afresh.
 * Over random key sequences (moves, jumps, metric, log y, theta, Pareto marks, bars, full
 * range, fit, sort, reference, mode, k, features, toggles, round and workload, the row filter,
 * undo, resizes, the zoom), after every key the plot as kept (ui_state_plot: the picture without the
 * selection, finished for it) equals the plot rendered with nothing kept, cell for cell, and
 * the message line's kept notice equals bench_reg_notice asked now; a click on the plot picks
 * the point it picks with nothing kept. */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "bench_reg.h"
#include "ui_app.h"

#include "ui_fixture.h"

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Two rounds, three workloads, four families; many rows on few N, so cells hold several
 * points (and ten or more), with Preview rows and ids shared by two submitters. */
static void data(struct fx *f, uint32_t *s)
{
	static const char *const acc[] = { "NVIDIA H100-SXM5-80GB", "NVIDIA H200-SXM5-141GB",
					   "TPU-v5p", "AMD MI300X" };
	static const char *const bench[] = { "bert", "ssd", "llama2_70b_lora" };
	static const char *const subs[] = { "NVIDIA", "Dell", "Google", "Lenovo", "smc" };
	static const char *const rounds[] = { "v4.0", "v4.1" };

	add(f, HEADER);
	for (int r = 0; r < 2; r++)
		for (int b = 0; b < 3; b++)
			for (int i = 0; i < 90; i++) {
				int a = (int)(rnd(s) % 4), n = 1 << (rnd(s) % 8);
				double base = (b + 1) * 40.0 * (1 + a * 0.3), t = base / n * (1 + (rnd(s) % 1000) / 1000.0 * n * 0.1);
				add(f, "%s,%s,sys_%d_%d,sys %d,closed,%s,%s,1,%d,%d,pytorch,%s,%.4f,5,0,1,"
				       "%.4f;%.4f;%.4f;%.4f;%.4f\n", rounds[r], subs[rnd(s) % 5], a, i % 40, i,
				    rnd(s) % 9 == 0 ? "Preview" : "Available on-premise", acc[a], n, n,
				    bench[b], t, t * 0.97, t * 0.99, t, t * 1.01, t * 1.04);
			}
	/* CPU-only rows, which the message line's notice counts: one in v4.0's bert, two in
	 * v4.1's, so that the round, the workload and the cross-round view each change it */
	for (int i = 0; i < 3; i++)
		add(f, "%s,Intel,cpu_%d,cpu,closed,Available on-premise,Xeon,1,0,0,pytorch,bert,900,5,0,1,"
		       "890;895;900;905;910\n", i ? "v4.1" : "v4.0", i);
}

static void open_app(struct fx *f)
{
	struct gs_err err;
	struct params p;
	struct ui_opts o;

	memset(&err, 0, sizeof err);
	memset(&f->ds, 0, sizeof f->ds);
	assert_int_equal(dataset_load_buffer(&f->ds, "t.csv", f->csv, f->len, &err), 0);
	dataset_classify(&f->ds);
	params_init(&p);
	memset(&o, 0, sizeof o);
	o.mouse = MOUSE_OFF;
	o.y_metric = MET_EP;
	f->app = calloc(1, sizeof *f->app);
	assert_non_null(f->app);
	ui_state_init(f->app, &f->ds, &p, &o);
	f->app->scr.utf8 = true;
	ui_keys_help_build(f->app);
	assert_int_equal(ui_state_recompute(f->app, &err), 0);
	ui_layout_compute(f->app, 40, 120);
}

static void close_app(struct fx *f)
{
	ui_state_free(f->app);
	free(f->app);
	dataset_free(&f->ds);
	free(f->csv);
	memset(f, 0, sizeof *f);
}

/* One key as the event loop handles it, up to the frame's state (the layout, the scroll). */
static void key(struct app *app, int k)
{
	unsigned flags = ui_keys_dispatch(app, k);

	ui_state_apply(app, flags);
	ui_layout_compute(app, app->scr.lay.rows, app->scr.lay.cols);
	ui_state_scroll(app);
}

/* Grid a is grid b, cell for cell, label included. */
static void same_grid(const struct plot_grid *a, const struct plot_grid *b)
{
	size_t cells = (size_t)b->w * (size_t)b->h;

	assert_int_equal(a->w, b->w);
	assert_int_equal(a->h, b->h);
	assert_memory_equal(a->ch, b->ch, cells);
	assert_memory_equal(a->role, b->role, cells);
	assert_string_equal(a->label, b->label);
	assert_int_equal(a->label_row, b->label_row);
	assert_int_equal(a->label_col, b->label_col);
	assert_int_equal(a->label_off, b->label_off);
}

/* The plot as kept equals the plot with nothing kept (no picture, no points, no memo of their
 * cells) and the plain rasterizer's (plot_render of the shown rows' points); the kept notice
 * equals a fresh one. What was kept then stays, so that the next key starts from it: a memo
 * left stale by a key shows in a later frame. */
static void check_fresh(struct app *app)
{
	struct ui_plot_cache kept = app->pc;
	struct plot_grid plain = { 0 };
	struct gs_err err;
	char notice[sizeof app->msg.notice];
	size_t left;

	memset(&app->pc.grid, 0, sizeof app->pc.grid);
	memset(&app->pc.base, 0, sizeof app->pc.base);
	memset(&app->pc.memo, 0, sizeof app->pc.memo);
	app->pc.grid_ok = app->pc.base_ok = false;
	app->pc.pts_sel = -2;
	memset(app->pc.all_key, 0, sizeof app->pc.all_key); /* the points placed again too */
	ui_state_plot(app);
	assert_int_equal(app->pc.grid_ok, kept.grid_ok);
	if (kept.grid_ok) {
		same_grid(&app->pc.grid, &kept.grid);
		size_t n = ui_state_plot_points(app);
		assert_int_equal(plot_render(app->pc.pts, n, &app->pc.spec, &plain, &err), 0);
		same_grid(&plain, &kept.grid);
		plot_free(&plain);
	}
	plot_free(&app->pc.grid);
	plot_base_free(&app->pc.base);
	plot_memo_free(&app->pc.memo);
	app->pc = kept;

	left = bench_reg_notice(app->ds, app->a.round, app->a.workload, app->p.all_rounds, notice,
				sizeof notice);
	ui_draw_notice(app);
	assert_int_equal(app->msg.notice_left, left);
	assert_string_equal(app->msg.notice, notice);
}

/* The keys drawn from: what changes the plot, the selection or the view. */
static const int keyset[] = {
	'j', 'j', 'j', 'k', 'k', 'g', 'G', 'o', 'b', UI_FKEY(KEY_NPAGE), UI_FKEY(KEY_PPAGE),
	UI_FKEY(KEY_DOWN), UI_FKEY(KEY_UP), 'y', 'Y', 't', 'T', 'p', 'L', 'u', 'i', 's', 'S', '<',
	'>', 'r', 'R', 'm', 'x', 'v', 'd', 'A', 'P', '+', '-', 'a', 'c', '[', ']', '\t', '1', '2',
	'3', 'U', 'F', 27,
};
#define NKEYS (sizeof keyset / sizeof *keyset)

static void random_keys_keep_a_fresh_picture(void **state)
{
	static const int sizes[][2] = { { 40, 120 }, { 24, 80 }, { 50, 160 }, { 30, 100 } };
	uint32_t seed = 20261202;

	(void)state;
	for (int run = 0; run < 3; run++) {
		struct fx f = { 0 };
		size_t checked = 0, hits = 0;

		data(&f, &seed);
		open_app(&f);
		ui_state_plot(f.app);
		check_fresh(f.app);
		/* first the round both ways and the cross-round view, on and off */
		for (const char *k = "[]A]A"; *k; k++) {
			key(f.app, *k);
			ui_state_plot(f.app);
			check_fresh(f.app);
		}
		for (int step = 0; step < 300; step++) {
			uint32_t r = rnd(&seed) % 100;
			if (r < 4) {
				const int *sz = sizes[rnd(&seed) % 4];
				ui_layout_compute(f.app, sz[0], sz[1]);
				ui_state_scroll(f.app);
			} else if (r < 10) {
				/* the row filter, a letter at a time (each frame checked), then on with
				 * it applied or cleared */
				static const char typed[] = "_12_3ysDe";
				int len = 1 + (int)(rnd(&seed) % 3);
				key(f.app, '|');
				for (int c = 0; c < len; c++) {
					key(f.app, typed[rnd(&seed) % (sizeof typed - 1)]);
					ui_state_plot(f.app);
					check_fresh(f.app);
				}
				if (rnd(&seed) % 3 == 0) {
					key(f.app, 127);
					ui_state_plot(f.app);
					check_fresh(f.app);
				}
				key(f.app, rnd(&seed) % 4 ? '\n' : 27);
			} else if (r < 13) {
				/* the zoom: plot only, table only (no plot), back to both */
				key(f.app, 'z');
				if (f.app->scr.zoom == ZOOM_TABLE) {
					ui_state_plot(f.app);
					check_fresh(f.app);
					key(f.app, 'z');
				}
			} else {
				key(f.app, keyset[rnd(&seed) % NKEYS]);
			}
			/* an overlay a key opened: closed, as a user would */
			if (f.app->menu.ov != OV_NONE)
				key(f.app, 27);
			ui_state_plot(f.app);
			check_fresh(f.app);
			checked += f.app->pc.grid_ok;
			/* a click on the plot lands on the point it lands on with nothing kept */
			if (f.app->pc.grid_ok && rnd(&seed) % 4 == 0) {
				/* on a random cell, or next to a random point */
				int gy = (int)(rnd(&seed) % (unsigned)f.app->pc.grid.h);
				int gx = (int)(rnd(&seed) % (unsigned)f.app->pc.grid.w);
				int *cells = malloc((f.app->pc.npts + 1) * sizeof *cells);
				assert_non_null(cells);
				if (f.app->pc.npts && rnd(&seed) % 4 &&
				    plot_locate(f.app->pc.pts, f.app->pc.npts, &f.app->pc.spec, cells, NULL) == 0) {
					int c = cells[rnd(&seed) % f.app->pc.npts];
					if (c >= 0) {
						gy = c / f.app->pc.grid.w;
						gx = c % f.app->pc.grid.w + (int)(rnd(&seed) % 3) - 1;
					}
				}
				free(cells);
				long hit = ui_state_plot_hit(f.app, gy, gx);
				f.app->pc.pts_sel = -2;
				assert_int_equal(ui_state_plot_hit(f.app, gy, gx), hit);
				hits += hit >= 0;
				ui_state_plot(f.app);
				check_fresh(f.app);
			}
		}
		/* at least half the frames had a plot to compare */
		assert_true(checked > 150);
		assert_true(hits > 0);
		close_app(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_keys_keep_a_fresh_picture),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
