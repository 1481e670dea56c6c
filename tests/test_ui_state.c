/* test_ui_state.c: the explorer's state driven by keys, without a terminal (ui_state*.c,
 * ui_prompt.c, ui_keys.c, ui_layout.c and ui_text.c linked from libgsui.a): rounds and
 * workloads without a fixed limit, the round keys, sorting both ways and by a click on a
 * heading, search counts, the row filter, the jump keys, typed theta and k, the family menu's
 * type-ahead, the zoom, messages that expire, names that never get less room on a wider
 * terminal, the middle cut, the help's "what you see" page against the marks and headings in
 * use, and ui_prompt.c's parsing of typed theta and k, its search matching and the menu's
 * type-ahead called directly. */
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

#include "chart.h"
#include "table.h"
#include "ui_app.h"
#include "text.h"

#include "ui_fixture.h"

static void row(struct fx *f, const char *round, const char *sub, const char *sys, const char *acc,
		int n, const char *bench, double minutes)
{
	add(f, "%s,%s,%s,%s,closed,Available on-premise,%s,1,%d,%d,pytorch,%s,%.4f,5,0,1,"
	       "%.4f;%.4f;%.4f;%.4f;%.4f\n", round, sub, sys, sys, acc, n, n, bench, minutes,
	    minutes * 0.98, minutes * 0.99, minutes, minutes * 1.01, minutes * 1.02);
}

/* Loads f->csv, runs the first analysis. */
static void open_app(struct fx *f, const char *round)
{
	struct gs_err err;
	struct params p;
	struct ui_opts o;

	memset(&err, 0, sizeof err);
	memset(&f->ds, 0, sizeof f->ds);
	assert_int_equal(dataset_load_buffer(&f->ds, "t.csv", f->csv, f->len, &err), 0);
	dataset_classify(&f->ds);
	params_init(&p);
	p.round = round;
	memset(&o, 0, sizeof o);
	o.mouse = MOUSE_ON;
	o.y_metric = MET_EP;
	f->app = calloc(1, sizeof *f->app);
	assert_non_null(f->app);
	ui_state_init(f->app, &f->ds, &p, &o);
	f->app->scr.utf8 = true;
	ui_keys_help_build(f->app);
	assert_int_equal(ui_state_recompute(f->app, &err), 0);
	ui_layout_compute(f->app, 24, 80);
}

static void close_app(struct fx *f)
{
	ui_app_free(f->app);
	free(f->app);
	dataset_free(&f->ds);
	free(f->csv);
	memset(f, 0, sizeof *f);
}

/* One key as the event loop handles it: dispatch, then the recompute or re-sort it asks for. */
static unsigned key(struct app *app, int k)
{
	unsigned flags = ui_keys_dispatch(app, k);

	ui_state_apply(app, flags);
	ui_layout_compute(app, app->scr.lay.rows ? app->scr.lay.rows : 24, app->scr.lay.cols ? app->scr.lay.cols : 80);
	ui_state_scroll(app);
	return flags;
}

static void keys(struct app *app, const char *s)
{
	for (; *s; s++)
		key(app, (unsigned char)*s);
}

/* A small round: BERT with eight systems, two of them sharing one id under two submitters. */
static void small(struct fx *f)
{
	add(f, HEADER);
	row(f, "v4.1", "Krai", "ws_2xA5000", "RTX A5000", 2, "bert", 366.0);
	row(f, "v4.1", "Dell", "XE8640x4H100-SXM-80GB", "NVIDIA H100-SXM5-80GB", 4, "bert", 10.2);
	row(f, "v4.1", "Lenovo", "SR680aV3-8xH200_SXM_141GB_700W", "NVIDIA H200-SXM5-141GB", 8, "bert", 5.08);
	row(f, "v4.1", "smc", "1xSMC-H100-SXM-80GB", "NVIDIA H100-SXM5-80GB", 8, "bert", 5.5);
	row(f, "v4.1", "smc-dc", "1xSMC-H100-SXM-80GB", "NVIDIA H100-SXM5-80GB", 8, "bert", 5.6);
	row(f, "v4.1", "NVIDIA", "eos_64", "NVIDIA H100-SXM5-80GB", 64, "bert", 0.9);
	row(f, "v4.1", "NVIDIA", "eos_512", "NVIDIA H100-SXM5-80GB", 512, "bert", 0.2);
	row(f, "v4.1", "Google", "tpu_v5p_128", "TPU-v5p", 128, "bert", 1.5);
	row(f, "v4.1", "NVIDIA", "eos_8_lora", "NVIDIA H100-SXM5-80GB", 8, "llama2_70b_lora", 30.0);
	row(f, "v4.0", "NVIDIA", "eos_8_lora", "NVIDIA H100-SXM5-80GB", 8, "llama2_70b_lora", 32.0);
	row(f, "v4.0", "NVIDIA", "eos_8_rn", "NVIDIA H100-SXM5-80GB", 8, "ssd", 12.0);
	row(f, "v10.0", "NVIDIA", "eos_8_rn", "NVIDIA H100-SXM5-80GB", 8, "ssd", 11.0);
	row(f, "v10.0", "NVIDIA", "eos_8_lora", "NVIDIA H100-SXM5-80GB", 8, "llama2_70b_lora", 20.0);
}

static long pos_of(const struct app *app, const char *sys)
{
	for (size_t i = 0; i < app->nvis; i++)
		if (strcmp(ui_state_row(app, i)->system, sys) == 0)
			return (long)i;
	return -1;
}

/* ---- rounds ---- */

static void newest_round_opens(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, NULL);
	/* v10.0 is newer than v4.1 although it sorts first as text */
	assert_string_equal(f.app->p.round, "v10.0");
	assert_int_equal(f.app->nrounds, 3);
	assert_string_equal(f.app->rounds[0], "v4.0");
	assert_string_equal(f.app->rounds[1], "v4.1");
	close_app(&f);
}

static void round_keys_keep_workload(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	assert_string_equal(f.app->p.workload, "bert");
	key(f.app, '2'); /* Llama2-LoRA */
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	key(f.app, '[');
	assert_string_equal(f.app->p.round, "v4.0");
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	assert_int_equal(f.app->nvis, 1);
	key(f.app, ']');
	key(f.app, ']');
	assert_string_equal(f.app->p.round, "v10.0");
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	/* back to v4.1, then BERT, which v4.0 lacks: the round says so */
	key(f.app, '[');
	key(f.app, '1');
	assert_string_equal(f.app->p.workload, "bert");
	key(f.app, '[');
	assert_string_equal(f.app->p.round, "v4.0");
	assert_non_null(strstr(f.app->msg.text, "v4.0 has no BERT"));
	assert_true(f.app->msg.err);
	close_app(&f);
}

/* 40 rounds, 80 workloads in one round and 200 families: every one of them is reached. */
static void no_fixed_limits(void **state)
{
	struct fx f = { 0 };
	char round[16], bench[16], acc[32], sys[32];
	size_t seen_fam = 0;

	(void)state;
	add(&f, HEADER);
	for (int r = 0; r < 40; r++) {
		snprintf(round, sizeof round, "v%d.%d", 1 + r / 10, r % 10);
		row(&f, round, "S", "base", "Base accel", 1, "bert", 100.0);
	}
	for (int w = 0; w < 80; w++) {
		snprintf(bench, sizeof bench, "work%02d", w);
		row(&f, "v4.9", "S", "base", "Base accel", 1, bench, 100.0);
		row(&f, "v4.9", "S", "big", "Base accel", 8, bench, 20.0);
	}
	for (int a = 0; a < 200; a++) {
		snprintf(acc, sizeof acc, "Accel%03d", a);
		snprintf(sys, sizeof sys, "sys%03d", a);
		row(&f, "v4.9", "S", sys, acc, 2 + a % 5, "bert", 50.0 + a);
	}
	open_app(&f, "v1.0");
	assert_int_equal(f.app->nrounds, 40);
	for (int r = 1; r < 40; r++)
		key(f.app, ']');
	assert_string_equal(f.app->p.round, "v4.9");
	assert_int_equal(f.app->nworks, 81);
	for (size_t w = 0; w + 1 < f.app->nworks; w++)
		key(f.app, '\t');
	assert_string_equal(f.app->p.workload, f.app->works[80]);
	key(f.app, '1');
	assert_string_equal(f.app->p.workload, "bert");
	key(f.app, 'f');
	assert_int_equal(f.app->menu.ov, OV_MENU);
	assert_true(f.app->menu.nfam >= 201);
	/* the last family, reached by End, checks and applies */
	key(f.app, UI_FKEY(KEY_END));
	assert_int_equal(f.app->menu.fam_cur, f.app->menu.nfam - 1);
	for (size_t i = 0; i < f.app->menu.nfam; i++)
		if (strncmp(f.app->menu.fam[i].name, "Accel", 5) == 0)
			seen_fam++;
	assert_int_equal(seen_fam, 200);
	/* type-ahead to family 199 */
	keys(f.app, "accel199");
	assert_string_equal(f.app->menu.fam[f.app->menu.fam_cur].name, "Accel199");
	key(f.app, ' ');
	key(f.app, '\n');
	assert_int_equal(f.app->menu.ov, OV_NONE);
	assert_int_equal(f.app->p.filter.nfamilies, 1);
	assert_string_equal(f.app->p.filter.families[0], "Accel199");
	assert_int_equal(f.app->nvis, 1);
	assert_string_equal(ui_state_row(f.app, 0)->system, "sys199");
	/* every family checked: the filter takes them all, and every row shows */
	key(f.app, 'f');
	for (size_t i = 0; i < f.app->menu.nfam; i++) {
		f.app->menu.fam_cur = i;
		if (!f.app->menu.fam[i].on)
			key(f.app, ' ');
	}
	key(f.app, '\n');
	assert_int_equal(f.app->p.filter.nfamilies, f.app->menu.nfam);
	assert_int_equal(f.app->nvis, f.app->a.total);
	close_app(&f);
}

/* ---- sorting ---- */

/* The column after c in steps of dir that some table column that can show sorts on. */
static enum col next_sortable(const struct app *app, unsigned c, unsigned dir)
{
	for (int i = 0; i < COL_COUNT; i++) {
		c = (c + dir) % COL_COUNT;
		for (int t = 0; t < TC_COUNT; t++)
			if (table_cols[t]->sort == (int)c && ui_layout_col_possible(app, t))
				return (enum col)c;
	}
	return COL_COUNT;
}

static void sort_both_ways_and_by_click(void **state)
{
	struct fx f = { 0 };
	enum col start;
	bool on[TC_COUNT];
	int w[TC_COUNT], x;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	start = f.app->p.sort;
	key(f.app, 's');
	assert_int_equal(f.app->p.sort, next_sortable(f.app, start, 1));
	key(f.app, '<');
	assert_int_equal(f.app->p.sort, start);
	key(f.app, '<');
	assert_int_equal(f.app->p.sort, next_sortable(f.app, start, COL_COUNT - 1));
	/* a full turn either way comes back, through columns the table can show only */
	for (int way = 0; way < 2; way++) {
		int steps = 0;
		f.app->p.sort = start;
		do {
			key(f.app, way ? '<' : 's');
			assert_true(next_sortable(f.app, (f.app->p.sort + COL_COUNT - 1) % COL_COUNT, 1) == f.app->p.sort);
			assert_true(ui_layout_col_shown(f.app, f.app->p.sort));
			steps++;
		} while (f.app->p.sort != start && steps <= COL_COUNT);
		assert_true(steps > 3 && f.app->p.sort == start);
	}
	/* the sort column always shows, whichever it is, at 80 columns (the round: in the
	 * cross-round view) */
	for (int c = 0; c < COL_COUNT; c++) {
		f.app->p.sort = (enum col)c;
		for (int t = 0; t < TC_COUNT; t++)
			if (table_cols[t]->sort == c && ui_layout_col_possible(f.app, t))
				assert_true(ui_layout_col_shown(f.app, c));
	}
	/* a click on the N heading sorts by N, a second one reverses */
	f.app->p.sort = COL_EP;
	ui_layout_table_plan(f.app, f.app->scr.lay.table.w, on, w);
	x = f.app->scr.lay.table.x;
	for (int c = 0; c < TC_N; c++)
		if (on[c])
			x += w[c] + 1;
	f.app->scr.ptr_y = f.app->scr.lay.table.y;
	f.app->scr.ptr_x = x + 1;
	key(f.app, UI_PTR_CLICK);
	assert_int_equal(f.app->p.sort, COL_N);
	assert_false(f.app->p.desc);
	assert_true(ui_state_arow(f.app, 0)->N <= ui_state_arow(f.app, f.app->nvis - 1)->N);
	key(f.app, UI_PTR_CLICK);
	assert_true(f.app->p.desc);
	assert_true(ui_state_arow(f.app, 0)->N >= ui_state_arow(f.app, f.app->nvis - 1)->N);
	close_app(&f);
}

/* ---- search, row filter, jumps ---- */

static void search_counts_and_filter(void **state)
{
	struct fx f = { 0 };
	size_t all;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	all = f.app->nvis;
	assert_int_equal(all, 8);
	key(f.app, '/');
	keys(f.app, "EOS");
	assert_non_null(strstr(f.app->msg.text, "match 1/2"));
	key(f.app, '\n');
	key(f.app, 'n');
	assert_non_null(strstr(f.app->msg.text, "match 2/2"));
	/* the row filter keeps the two eos rows; the status and the plot follow */
	key(f.app, '|');
	keys(f.app, "eos");
	assert_int_equal(f.app->nvis, 2);
	key(f.app, '\n');
	assert_int_equal(f.app->menu.ov, OV_NONE);
	assert_string_equal(f.app->rowfilt, "eos");
	assert_int_equal(f.app->nvis, 2);
	assert_int_equal(ui_state_plot_points(f.app), 2);
	for (size_t i = 0; i < f.app->nvis; i++)
		assert_non_null(strstr(ui_state_row(f.app, i)->system, "eos"));
	/* a recompute keeps the filter */
	key(f.app, 'c');
	assert_int_equal(f.app->nvis, 2);
	/* Esc clears it with one key */
	key(f.app, 27);
	assert_int_equal(f.app->nvis, all);
	assert_string_equal(f.app->rowfilt, "");
	/* Esc in the prompt restores what was there */
	key(f.app, '|');
	keys(f.app, "zzz");
	assert_int_equal(f.app->nvis, 0);
	key(f.app, 27);
	assert_int_equal(f.app->nvis, all);
	close_app(&f);
}

/* The search keeps its matches and narrows them as the text grows: random typing, deleting,
 * n and N land where the plain scans (ui_prompt_find, ui_prompt_count) say, and the message
 * counts what they count. */
static void search_list_matches_scan(void **state)
{
	static const char letters[] = "eos_1x8HS";
	struct fx f = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char text[UI_SEARCH_MAX] = "", want[64];

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	for (int t = 0; t < 3000; t++) {
		struct app *a = f.app;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned pick = (unsigned)(x % 20);
		long expect;
		if (a->menu.ov != OV_SEARCH && pick >= 4) {
			key(a, '/');
			text[0] = '\0';
			continue;
		}
		if (a->menu.ov != OV_SEARCH) { /* n or N in the main view */
			int dir = pick % 2 ? 1 : -1;
			expect = text[0] ? ui_prompt_find(a, a->sel, dir, text) : -1;
			if (expect < 0)
				expect = (long)a->sel;
			key(a, dir > 0 ? 'n' : 'N');
		} else if (pick == 0) {
			key(a, '\n');
			continue;
		} else {
			size_t from = 0, len = strlen(text);
			int k = 127;
			if (pick < 4 && len) {
				text[--len] = '\0';
			} else if (len < 12) {
				k = letters[(x >> 8) % (sizeof letters - 1)];
				text[len++] = (char)k;
				text[len] = '\0';
			} else {
				text[--len] = '\0';
			}
			for (size_t j = 0; j < a->nvis; j++)
				if (ui_state_row(a, j)->system == a->ed.search_from &&
				    ui_state_row(a, j)->submitter == a->ed.search_from_sub)
					from = j;
			expect = len ? ui_prompt_find(a, (from + a->nvis - 1) % a->nvis, 1, text) : -1;
			if (expect < 0)
				expect = (long)from;
			key(a, k);
			assert_string_equal(a->ed.search, text);
		}
		assert_int_equal(a->sel, expect);
		if (text[0]) {
			size_t ord, n = ui_prompt_count(a, text, &ord);
			if (n)
				snprintf(want, sizeof want, "match %zu/%zu for", ord, n);
			else
				snprintf(want, sizeof want, "no match for");
			assert_non_null(strstr(a->msg.text, want));
		}
	}
	close_app(&f);
}

/* The row filter keeps the rows ui_state_matches matches name by name: never across two names
 * of a row, folding ASCII only, and anew for every text. */
static void row_filter_matches_each_name(void **state)
{
	static const char *const fixed[] = { "c", "cd", "fz", "ABC", "dé", "DÉ", "dÉ", "ünï", "Zed",
					     "EDz", "Déf ü", "x", "8640", "-SXM", "a5000", "_" };
	static const char *const names[][3] = {
		{ "Zed", "AbC", "déF Ünï" }, { "Krai", "ws_2xA5000", "RTX A5000 rig" },
		{ "Dell", "XE8640x4H100-SXM-80GB", "PowerEdge XE8640" }, { "zed", "abc2", "DEF" },
	};
	struct fx f = { 0 };
	char text[UI_SEARCH_MAX];
	uint64_t x = 0x2545f4914f6cdd1dull;

	(void)state;
	add(&f, HEADER);
	for (size_t r = 0; r < sizeof names / sizeof *names; r++)
		add(&f, "v4.1,%s,%s,%s,closed,Available on-premise,NVIDIA H100-SXM5-80GB,1,%zu,%zu,"
			"pytorch,bert,%.4f,5,0,1,1;1;1;1;1\n", names[r][0], names[r][1], names[r][2],
		    4 * (r + 1), 4 * (r + 1), 10.0 / (double)(r + 1));
	open_app(&f, "v4.1");
	assert_int_equal(f.app->nvis, sizeof names / sizeof *names);
	for (int t = 0; t < 400; t++) {
		const struct app *a = f.app;
		if (t < (int)(sizeof fixed / sizeof *fixed)) {
			snprintf(text, sizeof text, "%s", fixed[t]);
		} else { /* a piece of some row's names, run together, case flipped at random */
			char all[256];
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			const char *const *nm = names[x % (sizeof names / sizeof *names)];
			int len = snprintf(all, sizeof all, "%s%s%s", nm[1], (x >> 8) % 2 ? "" : nm[2], nm[0]);
			size_t at = (x >> 16) % (size_t)len, l = 1 + (x >> 24) % 6;
			snprintf(text, sizeof text, "%.*s", (int)l, all + at);
			for (char *c = text; *c; c++)
				if ((x >> (32 + (c - text))) & 1)
					*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
		}
		size_t n = 0;
		for (size_t i = 0; i < a->nvis; i++)
			n += ui_state_matches(a, i, text);
		/* the row filter keeps exactly those rows */
		ui_state_set_rowfilt(f.app, text);
		assert_int_equal(f.app->nvis, n);
		for (size_t i = 0; i < f.app->nvis; i++)
			assert_true(ui_state_matches(f.app, i, text));
		ui_state_set_rowfilt(f.app, "");
		assert_int_equal(f.app->nvis, sizeof names / sizeof *names);
	}
	/* the fixed texts' answers, worked out by hand */
	ui_state_set_rowfilt(f.app, "cd");
	assert_int_equal(f.app->nvis, 0);       /* "AbC" then "déF": two names, no match */
	ui_state_set_rowfilt(f.app, "DÉ");
	assert_int_equal(f.app->nvis, 0);       /* É is not ASCII: not folded */
	ui_state_set_rowfilt(f.app, "dé");
	assert_int_equal(f.app->nvis, 1);
	ui_state_set_rowfilt(f.app, "ZED");
	assert_int_equal(f.app->nvis, 2);       /* both submitters */
	ui_state_set_rowfilt(f.app, "xe8640");
	assert_int_equal(f.app->nvis, 1);
	close_app(&f);
}

/* Row filter edits that keep or drop rows keep the selected row selected while it is shown. */
static void row_filter_keeps_selected_row(void **state)
{
	struct fx f = { 0 };
	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_state_select(f.app, pos_of(f.app, "eos_512"));
	ui_state_set_rowfilt(f.app, "eos");
	assert_int_equal(f.app->nvis, 2);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "eos_512");
	ui_state_set_rowfilt(f.app, "EOS_");
	assert_int_equal(f.app->nvis, 2);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "eos_512");
	ui_state_set_rowfilt(f.app, "eos_5");
	assert_int_equal(f.app->nvis, 1);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "eos_512");
	ui_state_set_rowfilt(f.app, "");
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "eos_512");
	ui_state_set_rowfilt(f.app, "");
	close_app(&f);
}

/* A row filter that drops the selected row: the same system and submitter stay selected when
 * shown (in the cross-round view another round's row may be them), else the same position,
 * as a scan of every shown row decides. */
static void row_filter_drops_selected(void **state)
{
	static const char *const texts[] = { "eos", "1x", "a", "xe", "sxm", "zzz", "5", "nvidia", "" };
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	size_t n = f.app->nvis;
	for (size_t s = 0; s < n; s++)
		for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
			ui_state_set_rowfilt(f.app, "");
			ui_state_select(f.app, (long)s);
			const struct row *was = ui_state_row(f.app, s);
			ui_state_set_rowfilt(f.app, texts[t]);
			size_t m = f.app->nvis, want = m;
			for (size_t i = 0; i < m && want == m; i++)
				if (ui_state_row(f.app, i)->system == was->system &&
				    ui_state_row(f.app, i)->submitter == was->submitter)
					want = i;
			if (want == m)
				want = m == 0 ? 0 : s < m ? s : m - 1;
			if (f.app->sel != want)
				fail_msg("row %zu, filter \"%s\": selected %zu, not %zu", s, texts[t], f.app->sel, want);
		}
	close_app(&f);

	/* the cross-round view: sysZ of NVIDIA in v4.0 ("Zed old") and v4.1 ("Zed new") */
	memset(&f, 0, sizeof f);
	add(&f, HEADER);
	static const struct { const char *round, *sys, *name; int n; double t; } rows[] = {
		{ "v4.1", "sysA", "A new", 8, 5.0 }, { "v4.1", "sysB", "B new", 16, 2.6 },
		{ "v4.1", "sysZ", "Zed new", 8, 0.5 }, { "v4.0", "sysZ", "Zed old", 8, 0.6 },
		{ "v4.0", "sysC", "C old", 8, 5.5 }, { "v4.1", "sysD", "D new", 8, 5.2 },
		{ "v4.1", "sysE", "E new", 8, 5.4 },
	};
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
		add(&f, "%s,NVIDIA,%s,%s,closed,Available on-premise,NVIDIA H100-SXM5-80GB,1,%d,%d,pytorch,"
			"bert,%.4f,5,0,1,1;1;1;1;1\n", rows[r].round, rows[r].sys, rows[r].name, rows[r].n,
		    rows[r].n, rows[r].t);
	open_app(&f, "v4.1");
	f.app->p.all_rounds = true;
	struct gs_err err = { 0 };
	assert_int_equal(ui_state_recompute(f.app, &err), 0);
	assert_int_equal(f.app->nvis, 7);
	size_t old = f.app->nvis;
	for (size_t i = 0; i < f.app->nvis; i++)
		if (strcmp(ui_state_row(f.app, i)->system_name, "Zed old") == 0)
			old = i;
	assert_true(old < f.app->nvis);
	ui_state_select(f.app, (long)old);
	ui_state_set_rowfilt(f.app, "new");
	assert_int_equal(f.app->nvis, 5);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system_name, "Zed new");
	/* the position alone would have chosen another row: the system was looked for */
	size_t pos = old < 5 ? old : 4;
	assert_string_not_equal(ui_state_row(f.app, pos)->system_name, "Zed new");
	close_app(&f);
}

static void jump_keys(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	/* o goes to the reference of the selected row's group: H100 SXM's is XE8640 (N 4) */
	for (size_t i = 0; i < f.app->nvis; i++)
		if (strcmp(ui_state_row(f.app, i)->system, "eos_64") == 0)
			ui_state_select(f.app, i);
	key(f.app, 'o');
	assert_true(ui_state_arow(f.app, f.app->sel)->is_ref);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "XE8640x4H100-SXM-80GB");
	/* b goes to the break-even row of the selected row's group: from eos_512 (H100 SXM) to
	 * 1xSMC (N 8, 5.5 min, E' 10.2/5.5*4/8 = 0.93, the fastest H100 row reaching 0.8) */
	for (size_t i = 0; i < f.app->nvis; i++)
		if (strcmp(ui_state_row(f.app, i)->system, "eos_512") == 0)
			ui_state_select(f.app, i);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "eos_512");
	key(f.app, 'b');
	assert_true(ui_state_arow(f.app, f.app->sel)->be);
	assert_string_equal(ui_state_row(f.app, f.app->sel)->system, "1xSMC-H100-SXM-80GB");
	/* a group that is only its reference has none, and b says so */
	for (size_t i = 0; i < f.app->nvis; i++)
		if (strcmp(ui_state_row(f.app, i)->system, "tpu_v5p_128") == 0)
			ui_state_select(f.app, i);
	key(f.app, 'b');
	if (!strstr(f.app->msg.text, "no break-even row in TPU-v5p: one row"))
		fail_msg("message: %s", f.app->msg.text);
	/* with the break-even row filtered out, b says so and stays */
	key(f.app, '|');
	keys(f.app, "eos_5");
	key(f.app, '\n');
	key(f.app, 'b');
	assert_non_null(strstr(f.app->msg.text, "hidden by the row filter"));
	close_app(&f);
}

/* ---- typed values ---- */

static void theta_and_k_typed(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	key(f.app, '=');
	assert_int_equal(f.app->menu.ov, OV_PROMPT);
	keys(f.app, "0.37\n");
	assert_int_equal(f.app->menu.ov, OV_NONE);
	assert_true(f.app->p.theta == 0.37);
	/* the command line's range: GS_THETA_MIN..GS_THETA_MAX, both ends taken */
	key(f.app, '=');
	keys(f.app, "10\n");
	assert_true(f.app->p.theta == GS_THETA_MAX);
	key(f.app, '=');
	keys(f.app, "10.5\n");
	assert_int_equal(f.app->menu.ov, OV_PROMPT); /* refused: the prompt stays with the reason */
	assert_non_null(strstr(f.app->msg.text, "0.05..10"));
	assert_true(f.app->p.theta == GS_THETA_MAX);
	key(f.app, 27);
	key(f.app, '=');
	keys(f.app, "0.05\n");
	assert_true(f.app->p.theta == GS_THETA_MIN);
	key(f.app, '=');
	keys(f.app, "0\n");
	assert_int_equal(f.app->menu.ov, OV_PROMPT);
	key(f.app, 27);
	key(f.app, '=');
	keys(f.app, "abc\n");
	assert_true(f.app->p.theta == GS_THETA_MIN);
	key(f.app, 27);
	/* t steps on the 0.05 grid from a typed value */
	key(f.app, '=');
	keys(f.app, "0.83\n");
	key(f.app, 't');
	assert_true(fabs(f.app->p.theta - 0.85) < 1e-12);
	key(f.app, 'T');
	key(f.app, 'T');
	assert_true(fabs(f.app->p.theta - 0.75) < 1e-12);
	/* k */
	key(f.app, 'K');
	keys(f.app, "2\n");
	assert_int_equal(f.app->p.k, 2);
	assert_int_equal(f.app->a.k, 2);
	key(f.app, 'K');
	keys(f.app, "13\n");
	assert_int_equal(f.app->p.k, 2);
	key(f.app, 27);
	key(f.app, 'K');
	keys(f.app, "auto\n");
	assert_int_equal(f.app->p.k, 0);
	close_app(&f);
}

/* ---- layout ---- */

static void zoom_cycles(void **state)
{
	struct fx f = { 0 };
	int split_h;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 24, 80);
	split_h = f.app->scr.lay.plot.h;
	/* at 80x24 the table keeps its heading and six rows: the plot gets the rest */
	assert_int_equal(f.app->scr.lay.table.h, 7);
	assert_int_equal(split_h, 24 - 5 - 7);
	key(f.app, 'z');
	assert_int_equal(f.app->scr.zoom, ZOOM_PLOT);
	assert_int_equal(f.app->scr.lay.plot.h, 19);
	assert_int_equal(f.app->scr.lay.table.h, 0);
	key(f.app, 'z');
	assert_int_equal(f.app->scr.zoom, ZOOM_TABLE);
	assert_int_equal(f.app->scr.lay.plot.h, 0);
	assert_int_equal(f.app->scr.lay.table_rows, 18);
	key(f.app, 'z');
	assert_int_equal(f.app->scr.zoom, ZOOM_SPLIT);
	assert_int_equal(f.app->scr.lay.plot.h, split_h);
	close_app(&f);
}

/* Zoom keeps the selection in view and shows it from the top row when it fits: j, then the plot
 * alone, then the table alone (30 rows, 18 lines) shows rank 1 first, the selection on rank 2;
 * far down the list, the selection stays in view. */
static void zoom_keeps_top_row(void **state)
{
	struct fx f = { 0 };
	char sys[32];

	(void)state;
	add(&f, HEADER);
	for (int i = 0; i < 30; i++) {
		snprintf(sys, sizeof sys, "sys_%02d", i);
		row(&f, "v4.1", "NVIDIA", sys, "NVIDIA H100-SXM5-80GB", 8 << (i % 4), "bert", 10.0 + i);
	}
	open_app(&f, "v4.1");
	assert_int_equal(f.app->nvis, 30);
	keys(f.app, "j");
	assert_int_equal(f.app->sel, 1);
	assert_int_equal(f.app->scr.top, 0);
	keys(f.app, "zz");
	assert_int_equal(f.app->scr.zoom, ZOOM_TABLE);
	assert_int_equal(f.app->scr.top, 0);
	/* rank 20 selected in the table alone, back to the split: the selection stays in view */
	for (int i = 0; i < 19; i++)
		key(f.app, 'j');
	assert_int_equal(f.app->sel, 20);
	keys(f.app, "z");
	assert_int_equal(f.app->scr.zoom, ZOOM_SPLIT);
	assert_true(f.app->sel >= f.app->scr.top &&
		    f.app->sel < f.app->scr.top + (size_t)f.app->scr.lay.table_rows);
	/* the plot alone and back to the table alone: rank 20 does not fit from the top; its
	 * place is kept (in view) */
	keys(f.app, "zz");
	assert_true(f.app->sel >= f.app->scr.top &&
		    f.app->sel < f.app->scr.top + (size_t)f.app->scr.lay.table_rows);
	close_app(&f);
}

/* The system column's width never shrinks as the terminal grows, whatever the names, while the
 * panes keep their arrangement (stacked, side by side, the plot taking half from UI_HALF_COLS);
 * from UI_HALF_COLS on the plot has at least half the width. */
static void names_never_shrink(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	for (int wsys = 10; wsys <= 70; wsys += 3) {
		int last = 0, arrangement = -1;
		f.app->tv.need[TC_SYS] = wsys;
		for (int cols = UI_MIN_COLS; cols <= 300; cols++) {
			bool on[TC_COUNT];
			int w[TC_COUNT], now;
			ui_layout_compute(f.app, 40, cols);
			ui_layout_table_plan(f.app, f.app->scr.lay.table.w, on, w);
			now = !f.app->scr.lay.wide ? 0 : cols < UI_HALF_COLS ? 1 : 2;
			assert_true(on[TC_SYS]);
			if (now != arrangement)
				last = 0;
			arrangement = now;
			if (w[TC_SYS] < last)
				fail_msg("names %d wide: %d columns at width %d, %d at the width before", wsys,
					 w[TC_SYS], cols, last);
			last = w[TC_SYS];
			if (cols >= UI_HALF_COLS)
				assert_true(f.app->scr.lay.plot.w * 2 >= cols);
			/* N, min, E' and A stay */
			assert_true(on[TC_N] && on[TC_MIN] && on[TC_EP] && on[TC_A]);
		}
		assert_true(last >= wsys);
	}
	close_app(&f);
}

static void middle_cut(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(ui_text_cut("8xXE9680x8H100-SXM-80GB-POWER", 22, true, buf, sizeof buf),
			    "8xXE9680x8H~80GB-POWER");
	assert_string_equal(ui_text_cut("short", 22, true, buf, sizeof buf), "short");
	assert_string_equal(ui_text_cut("abcdef", 1, true, buf, sizeof buf), "~");
	/* never inside a character: the two-byte é stays whole, and the width is what was asked */
	ui_text_cut("caf\xc3\xa9-caf\xc3\xa9-caf\xc3\xa9-1", 9, true, buf, sizeof buf);
	assert_string_equal(buf, "caf\xc3\xa9~f\xc3\xa9-1");
	assert_int_equal(ui_text_width(buf, true), 9);
	/* wide characters (2 columns): the cut leaves room rather than splitting one */
	ui_text_cut("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c\xac", 6, true, buf, sizeof buf);
	assert_true(ui_text_width(buf, true) <= 6);
	assert_non_null(strchr(buf, '~'));
	assert_int_equal(strlen(buf), 3 + 1 + 3);
}

static void colliding_ids_show_submitter(void **state)
{
	struct fx f = { 0 };
	char buf[128];
	long i;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	i = pos_of(f.app, "1xSMC-H100-SXM-80GB");
	assert_true(i >= 0);
	assert_non_null(strstr(ui_state_name(f.app, (size_t)i, buf, sizeof buf), "/1xSMC-H100-SXM-80GB"));
	i = pos_of(f.app, "eos_64");
	assert_string_equal(ui_state_name(f.app, (size_t)i, buf, sizeof buf), "eos_64");
	close_app(&f);
}

/* The name widths and SUBMITTER/SYSTEM marks of the shown rows are what measuring the rows
 * afresh gives, after keys that keep the rows (a reference,
 * k, theta) and keys that change them (workload, cross-round view, availability). */
static void names_kept_per_row_set(void **state)
{
	struct fx f = { 0 };
	const char *steps = "mr+x-\t\tAAvv1m";
	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	for (const char *k = steps; *k; k++) {
		int c = *k;
		key(f.app, c);
		struct table_view t = { 0 };
		t.bytes = f.app->tv.bytes;
		assert_int_equal(table_names(&t, f.app->ds, &f.app->a), 0);
		for (int col = 0; col < TC_COUNT; col++)
			if (t.need[col] != f.app->tv.need[col])
				fail_msg("after %c: column %d %d wide, measured afresh %d", c, col, f.app->tv.need[col], t.need[col]);
		assert_true(t.cap <= f.app->tv.cap);
		assert_memory_equal(t.qualified, f.app->tv.qualified, t.cap);
		table_view_free(&t);
	}
	close_app(&f);
}

/* The export writes the fitted E' with the fit off, and leaves the screen's analysis without
 * fits (the plot draws a curve for every fit the analysis holds); with the fit on, its fits
 * are those of the screen and stay. */
static void export_leaves_no_fit(void **state)
{
	struct fx f = { 0 };
	struct gs_err err;
	char dir[] = "/tmp/gs-export-XXXXXX", path[4096], cmd[4200];
	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	assert_non_null(mkdtemp(dir));
	f.app->scr.export_dir = dir;
	assert_false(f.app->p.fit);
	assert_null(f.app->a.fits);
	memset(&err, 0, sizeof err);
	assert_int_equal(ui_export_write(f.app, path, sizeof path, &err), 0);
	assert_null(f.app->a.fits);
	assert_int_equal(f.app->a.nfits, 0);
	for (size_t i = 0; i < f.app->a.n; i++)
		assert_true(isnan(f.app->a.rows[i].ep_fit));
	key(f.app, 'L');
	assert_true(f.app->p.fit);
	struct fam_fit *had = f.app->a.fits;
	size_t nf = f.app->a.nfits;
	assert_non_null(had);
	assert_int_equal(ui_export_write(f.app, path, sizeof path, &err), 0);
	assert_ptr_equal(f.app->a.fits, had);
	assert_int_equal(f.app->a.nfits, nf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	close_app(&f);
}

static void messages_expire(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	key(f.app, 'Y');
	assert_non_null(strstr(f.app->msg.text, "log y"));
	/* a key that says nothing leaves the message for its time */
	key(f.app, 'j');
	assert_non_null(strstr(f.app->msg.text, "log y"));
	assert_int_equal(ui_state_tick(f.app, f.app->msg.at + UI_MSG_MS - 1), 0);
	assert_int_equal(ui_state_tick(f.app, f.app->msg.at + UI_MSG_MS), UI_REDRAW);
	assert_string_equal(f.app->msg.text, "");
	close_app(&f);
}

/* A message longer than the message line is never cut: wrapped at blanks into lines that fit,
 * their words in order making the whole text (a word wider than a line split between
 * characters); it outlasts its four seconds and goes with the next key. One that fits expires
 * as before. */
static void long_messages_wrap_whole(void **state)
{
	struct fx f = { 0 };
	static char lines[64][UI_LINE];
	char joined[UI_MSG_MAX * 2] = "", want[UI_MSG_MAX * 2] = "";
	const char *text = "best B200: 1xXE9680Lx8B200-SXM-180GB (N=8): T 8.89 min, A 1.18, cost "
			   "3.14..16.9 USD (possibly within 5 USD); 1 family marked @; unpriced "
			   "families left out (cost <= 5 USD; minimizing acc-hours) "
			   "/a/very/long/path/without/any/blank/that/is/wider/than/the/line/itself/x.csv";
	size_t k;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	assert_int_equal(f.app->scr.lay.msg.w, 80);
	ui_state_msg(f.app, false, "%s", text);
	assert_string_equal(f.app->msg.text, text);
	assert_true(ui_state_msg_long(f.app));
	k = ui_state_msg_lines(f.app, 78, lines, 64);
	assert_true(k >= 3);
	for (size_t i = 0; i < k; i++) {
		assert_true(text_columns(lines[i]) <= 78);
		strcat(joined, lines[i]);
	}
	/* the words, in order, nothing left out (the blanks are where the lines break) */
	{
		size_t n = 0;
		for (const char *p = text; *p; p++)
			if (*p != ' ')
				want[n++] = *p;
		want[n] = '\0';
	}
	{
		char *o = joined, *q = joined;
		for (; *q; q++)
			if (*q != ' ')
				*o++ = *q;
		*o = '\0';
	}
	assert_string_equal(joined, want);
	/* it stays past its time; the next key takes it away */
	assert_int_equal(ui_state_tick(f.app, f.app->msg.at + UI_MSG_MS * 10), 0);
	assert_string_equal(f.app->msg.text, text);
	key(f.app, 'j');
	assert_false(ui_state_msg_long(f.app) && strcmp(f.app->msg.text, text) == 0);
	/* a short one: on one line, for its time */
	ui_state_msg(f.app, false, "short");
	assert_false(ui_state_msg_long(f.app));
	assert_int_equal(ui_state_msg_lines(f.app, 78, lines, 64), 1);
	assert_string_equal(lines[0], "short");
	close_app(&f);
}

/* ---- the help's "what you see" page ---- */

static bool legend_has(const char *what)
{
	for (size_t i = 0; ui_state_legend[i][0]; i++) {
		const char *w = ui_state_legend[i][0];
		size_t n = strlen(what);
		/* a whole word of the first column */
		for (const char *p = strstr(w, what); p; p = strstr(p + 1, what))
			if ((p == w || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == ','))
				return true;
	}
	return false;
}

static void help_covers_marks_and_headings(void **state)
{
	struct fx f = { 0 };
	static char lines[UI_HELP_LINES][UI_LINE];
	size_t n;
	bool seen_what = false;
	char buf[64];

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	/* every mark the table draws */
	for (size_t i = 0; i < f.app->a.n; i++) {
		const char *m = table_cell(NULL, &f.ds, &f.app->a, i, TC_MARK, buf, sizeof buf);
		for (; *m; m++) {
			char one[2] = { *m, '\0' };
			if (!legend_has(one))
				fail_msg("table mark '%s' is not explained in the help", one);
		}
	}
	/* every glyph the plot draws inside its area, as a class: a-l, A-L, digits, # */
	f.app->scr.lay.plot.w = 80;
	f.app->scr.lay.plot.h = 24;
	f.app->scr.lay.too_small = false;
	f.app->p.theta = 0.8;
	ui_state_plot(f.app);
	assert_true(f.app->pc.grid_ok);
	for (int y = 0; y < f.app->pc.grid.h; y++)
		for (int x = 0; x < f.app->pc.grid.w; x++) {
			unsigned char role = f.app->pc.grid.role[y * f.app->pc.grid.w + x];
			char ch = f.app->pc.grid.ch[y * f.app->pc.grid.w + x];
			const char *cls = NULL;
			if (role >= ROLE_CLUSTER)
				cls = ch >= 'a' && ch <= 'z' ? "a" : ch >= 'A' && ch <= 'Z' ? "A" : ".";
			else if (role == ROLE_OVERLAP)
				cls = ch == '#' ? "#" : "2..9";
			else if (role == ROLE_REF)
				cls = "R";
			if (cls && !legend_has(cls))
				fail_msg("plot glyph '%c' (role %u) is not explained in the help", ch, role);
		}
	/* the status line's words */
	assert_true(legend_has("I"));
	assert_true(legend_has("sil"));
	/* the page is part of the help, after the keys, and every key-table help line is there */
	n = ui_state_help(f.app, lines, NULL);
	for (size_t i = 0; i < n; i++)
		if (strcmp(lines[i], "what you see") == 0)
			seen_what = true;
	assert_true(seen_what);
	/* every column heading, with the registry's help (its first words: the rest may wrap) */
	for (int c = 0; c < TC_COUNT; c++) {
		char start[24];
		bool found = false;
		snprintf(start, sizeof start, "%s", table_cols[c]->help);
		for (size_t i = 0; i < n && !found; i++)
			found = strncmp(lines[i], "    ", 4) == 0 && strncmp(lines[i] + 4, table_cols[c]->head,
									 strlen(table_cols[c]->head)) == 0 &&
				strstr(lines[i], start) != NULL;
		if (!found)
			fail_msg("column heading '%s' is not explained in the help", table_cols[c]->head);
	}
	for (size_t h = 0; h < f.app->scr.nhelp; h++) {
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			found = strstr(lines[i], f.app->scr.help[h].help) != NULL;
		if (!found)
			fail_msg("key help '%s' missing from the help page", f.app->scr.help[h].help);
	}
	close_app(&f);
}

/* ---- ui_prompt.c called directly: the parsing and matching the prompts use ---- */

static void prompt_parses_theta_and_k(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	assert_int_equal(ui_prompt_theta(f.app, "0.6"), 0);
	assert_true(f.app->p.theta == 0.6);
	assert_int_equal(ui_prompt_theta(f.app, " 0.7  "), 0); /* spaces around it are fine */
	assert_true(f.app->p.theta == 0.7);
	assert_int_equal(ui_prompt_theta(f.app, "0.8x"), -1);
	assert_int_equal(ui_prompt_theta(f.app, ""), -1);
	assert_int_equal(ui_prompt_theta(f.app, "nan"), -1);
	assert_int_equal(ui_prompt_theta(f.app, "inf"), -1);
	assert_int_equal(ui_prompt_theta(f.app, "0.04"), -1);
	assert_true(f.app->p.theta == 0.7); /* a refused value changes nothing */
	assert_true(f.app->msg.err);
	assert_int_equal(ui_prompt_k(f.app, "3"), 0);
	assert_int_equal(f.app->p.k, 3);
	assert_int_equal(ui_prompt_k(f.app, "  AUTO"), 0);
	assert_int_equal(f.app->p.k, 0);
	assert_int_equal(ui_prompt_k(f.app, "12"), 0);
	assert_int_equal(f.app->p.k, 12);
	assert_int_equal(ui_prompt_k(f.app, "2.5"), -1);
	assert_int_equal(ui_prompt_k(f.app, "0"), -1);
	assert_int_equal(ui_prompt_k(f.app, "13"), -1);
	assert_int_equal(ui_prompt_k(f.app, "autox"), -1);
	assert_int_equal(f.app->p.k, 12);
	assert_non_null(strstr(f.app->msg.text, "1..12, or auto"));
	close_app(&f);
}

static void prompt_finds_and_counts(void **state)
{
	struct fx f = { 0 };
	size_t ord;
	long i, j;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	/* system, system name and submitter, under ASCII case folding */
	assert_int_equal(ui_prompt_count(f.app, "EOS_", NULL), 2);
	assert_int_equal(ui_prompt_count(f.app, "krai", NULL), 1);
	assert_int_equal(ui_prompt_count(f.app, "", &ord), 0);
	assert_int_equal(ord, 0);
	assert_int_equal(ui_prompt_find(f.app, 0, 1, ""), -1);
	assert_int_equal(ui_prompt_find(f.app, 0, 1, "no such"), -1);
	/* forward and back wrap, and the row searched from comes last */
	i = ui_prompt_find(f.app, f.app->sel, 1, "eos_");
	assert_true(i >= 0);
	j = ui_prompt_find(f.app, (size_t)i, 1, "eos_");
	assert_true(j >= 0 && j != i);
	assert_int_equal(ui_prompt_find(f.app, (size_t)j, 1, "eos_"), i);
	assert_int_equal(ui_prompt_find(f.app, (size_t)i, -1, "eos_"), j);
	assert_int_equal(ui_prompt_find(f.app, (size_t)i, 1, "krai"), pos_of(f.app, "ws_2xA5000"));
	ui_state_select(f.app, j);
	assert_int_equal(ui_prompt_count(f.app, "eos_", &ord), 2);
	assert_true(ord == 1 || ord == 2);
	assert_true(ui_state_matches(f.app, (size_t)j, "EOS"));
	assert_false(ui_state_matches(f.app, (size_t)j, "tpu"));
	close_app(&f);
}

static void prompt_menu_type_ahead(void **state)
{
	struct fx f = { 0 };
	long rtx, tpu;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_state_menu_open(f.app);
	assert_true(f.app->menu.nfam >= 3);
	assert_int_equal(ui_prompt_menu_find(f.app, ""), -1);
	assert_int_equal(ui_prompt_menu_find(f.app, "zzz"), -1);
	tpu = ui_prompt_menu_find(f.app, "tpu");
	assert_true(tpu >= 0);
	assert_non_null(strstr(f.app->menu.fam[tpu].name, "TPU"));
	/* a name that starts so (TPU-v5p) wins over one before it that only contains the text
	 * (RTX A5000); without one that starts so, the first containing it */
	assert_int_equal(ui_prompt_menu_find(f.app, "t"), tpu);
	rtx = ui_prompt_menu_find(f.app, "5000");
	assert_true(rtx >= 0 && rtx < tpu);
	assert_string_equal(f.app->menu.fam[rtx].name, "RTX A5000");
	/* typed into the open menu: the cursor moves; a letter that matches nothing is dropped */
	f.app->menu.ov = OV_MENU;
	key(f.app, 't');
	assert_int_equal(f.app->menu.fam_cur, (size_t)tpu);
	key(f.app, 'q');
	assert_string_equal(f.app->menu.fam_find, "t");
	assert_true(f.app->msg.err);
	key(f.app, 127);
	assert_string_equal(f.app->menu.fam_find, "");
	close_app(&f);
}

/* A new theta runs the analysis again: every group's break-even row meets it. */
static void theta_change_recomputes(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	f.app->p.theta = 0.05;
	ui_state_apply(f.app, UI_RECOMPUTE);
	for (size_t g = 0; g < f.app->a.ngroups; g++) {
		long i = analysis_be_index(&f.app->a, &f.app->a.groups[g]);
		assert_true(f.app->a.groups[g].be.kind == BE_ONE_ROW || i >= 0);
		assert_true(i < 0 || f.app->a.rows[i].Ep >= 0.05);
	}
	f.app->p.theta = GS_THETA_MAX;
	ui_state_apply(f.app, UI_RECOMPUTE);
	for (size_t g = 0; g < f.app->a.ngroups; g++) {
		long i = analysis_be_index(&f.app->a, &f.app->a.groups[g]);
		assert_true(i < 0 || f.app->a.rows[i].Ep >= GS_THETA_MAX);
	}
	close_app(&f);
}

/* Intervals are drawn lazily: a recompute draws only what the break-even range needs, the
 * bars (i) every shown row's. */
static void bars_draw_every_interval(void **state)
{
	struct fx f = { 0 };
	size_t done = 0;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 40, 100);
	ui_state_fill(f.app);
	for (size_t i = 0; i < f.app->a.n; i++)
		done += f.app->a.rows[i].ci_done;
	assert_true(done < f.app->a.n);
	key(f.app, 'i');
	for (int n = 0; n < 1000 && (n == 0 || ui_state_work(f.app)); n++)
		ui_state_fill(f.app);
	for (size_t i = 0; i < f.app->a.n; i++)
		assert_true(f.app->a.rows[i].ci_done);
	close_app(&f);
}

/* The help names every letter of the plot in this view (family mode: a family each), so that
 * a legend cut at a small size leaves no letter unnamed. */
static void help_names_every_plot_letter(void **state)
{
	struct fx f = { 0 };
	static char lines[UI_HELP_LINES][UI_LINE];
	size_t n, at = 0, named = 0;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 24, 80);
	n = ui_state_help(f.app, lines, NULL);
	while (at < n && strcmp(lines[at], "the plot's letters in this view") != 0)
		at++;
	assert_true(at < n);
	for (size_t j = 0; j < f.app->nvis; j++) {
		const char *fam = ui_state_row(f.app, j)->family;
		bool seen = false;
		for (size_t i = at + 1; i < n && !seen; i++) {
			char g;
			int off = 0;
			if (sscanf(lines[i], "    %c %n", &g, &off) == 1 && off > 0 && g >= 'a' && g <= 'z') {
				const char *t = lines[i] + off;
				while (*t == ' ')
					t++;
				seen = strcmp(t, fam) == 0;
			}
		}
		assert_true(seen);
		named++;
	}
	assert_true(named >= 3);
	close_app(&f);
}

/* No key waits on the break-even range (it draws intervals): a recompute draws none and leaves
 * every range open; the detail fills in its row's interval and its group's range, a slice a
 * frame, to what a report (which computes it at once) gives. */
static void detail_fills_the_range(void **state)
{
	struct fx f = { 0 };
	struct gs_err err;
	struct analysis b = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 40, 100);
	for (int s = 0; s < 4; s++) {
		ui_state_fill(f.app);
		for (size_t i = 0; i < f.app->a.n; i++)
			assert_false(f.app->a.rows[i].ci_done);
		for (size_t g = 0; g < f.app->a.ngroups; g++)
			assert_true(f.app->a.groups[g].range_open);
		key(f.app, 'j');
	}
	size_t i = f.app->vis[f.app->sel], g = f.app->a.rows[i].group;
	key(f.app, '\n');
	assert_int_equal(f.app->menu.ov, OV_DETAIL);
	for (int n = 0; n < 1000 && (n == 0 || ui_state_work(f.app)); n++)
		ui_state_fill(f.app);
	assert_false(ui_state_busy(f.app));
	assert_true(f.app->a.rows[i].ci_done);
	assert_false(f.app->a.groups[g].range_open);
	struct params q = f.app->p;
	q.range_later = false;
	memset(&err, 0, sizeof err);
	assert_int_equal(analysis_run(f.app->ds, &q, &b, &err), 0);
	assert_false(b.groups[g].range_open);
	assert_int_equal(f.app->a.groups[g].firm, b.groups[g].firm);
	assert_int_equal(f.app->a.groups[g].loose, b.groups[g].loose);
	assert_int_equal(f.app->a.groups[g].range_lo, b.groups[g].range_lo);
	assert_int_equal(f.app->a.groups[g].range_hi, b.groups[g].range_hi);
	assert_true(b.groups[g].range_lo > 0);
	analysis_free(&b);
	close_app(&f);
}

/* Under the "too small" notice keys do nothing but quit and redraw; a message about the view
 * before goes when a key changes the view without a message of its own. */
static void small_screen_and_stale_messages(void **state)
{
	struct fx f = { 0 };
	size_t work;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 10, 40);
	assert_true(f.app->scr.lay.too_small);
	work = f.app->work_i;
	assert_int_equal(ui_keys_dispatch(f.app, '\t'), UI_REDRAW);
	assert_int_equal(ui_keys_dispatch(f.app, 'e'), UI_REDRAW);
	assert_int_equal(ui_keys_dispatch(f.app, 'f'), UI_REDRAW);
	assert_int_equal(f.app->work_i, work);
	assert_int_equal(f.app->menu.ov, OV_NONE);
	assert_int_equal(ui_keys_dispatch(f.app, 'q') & UI_QUIT, UI_QUIT);
	assert_int_equal(ui_keys_dispatch(f.app, UI_FKEY(KEY_F(10))) & UI_QUIT, UI_QUIT);
	ui_layout_compute(f.app, 24, 80);
	/* F10 quits, Left and Right walk the tabs; a key bound to nothing says so by name */
	assert_int_equal(ui_keys_dispatch(f.app, UI_FKEY(KEY_F(10))) & UI_QUIT, UI_QUIT);
	key(f.app, UI_FKEY(KEY_RIGHT));
	assert_int_equal(f.app->work_i, (work + 1) % f.app->nworks);
	key(f.app, UI_FKEY(KEY_LEFT));
	assert_int_equal(f.app->work_i, work);
	key(f.app, UI_FKEY(KEY_IC));
	assert_string_equal(f.app->msg.text, "key IC does nothing here: ? lists the keys");
	key(f.app, UI_FKEY(KEY_F(7)));
	assert_string_equal(f.app->msg.text, "key F7 does nothing here: ? lists the keys");
	key(f.app, UI_FKEY(0x1ff));
	assert_string_equal(f.app->msg.text, "that key does nothing here: ? lists the keys");
	ui_state_msg(f.app, true, "about the view before");
	key(f.app, '+');
	assert_true(strstr(f.app->msg.text, "view before") == NULL);
	/* a key with a message of its own keeps it */
	key(f.app, 's');
	assert_non_null(strstr(f.app->msg.text, "sorted by"));
	close_app(&f);
}

/* The detail wraps to the screen: no line wider than the overlay, nothing lost but blanks. */
static void detail_wraps_to_the_screen(void **state)
{
	static char raw[UI_MAX_DETAIL][UI_LINE], wrapped[UI_MAX_DETAIL][UI_LINE];
	struct fx f = { 0 };
	char a[8192], b[8192];
	size_t na, nb, la = 0, lb = 0;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	for (int cols = 60; cols <= 200; cols += 70) {
		ui_layout_compute(f.app, 24, cols);
		struct ui_rect box = ui_layout_overlay(&f.app->scr.lay, 1, 1 << 20);
		na = ui_state_detail(f.app, raw, NULL, UI_MAX_DETAIL);
		nb = ui_state_detail_wrapped(f.app, wrapped, NULL, UI_MAX_DETAIL);
		assert_true(nb >= na);
		la = lb = 0;
		for (size_t i = 0; i < na; i++)
			for (const char *c = raw[i]; *c; c++)
				if (*c != ' ' && la + 1 < sizeof a)
					a[la++] = *c;
		for (size_t i = 0; i < nb; i++) {
			assert_true(ui_text_width(wrapped[i], true) <= box.w - 4);
			for (const char *c = wrapped[i]; *c; c++)
				if (*c != ' ' && lb + 1 < sizeof b)
					b[lb++] = *c;
		}
		a[la] = b[lb] = '\0';
		assert_string_equal(a, b);
	}
	close_app(&f);
}

/* ---- digits, reference rules, the column chooser ---- */

/* A digit means one workload in every round (the registry's order over the loaded rounds): 2
 * is Llama2-LoRA in v4.1 and in v10.0, where the tabs begin with it; 1 (BERT) in v10.0 says
 * that round has none and changes nothing. */
static void digits_stable_across_rounds(void **state)
{
	struct fx f = { 0 };

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	assert_int_equal(ui_state_work_digit(f.app, 0), 1);
	assert_int_equal(ui_state_work_digit(f.app, 1), 2);
	key(f.app, '2');
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	key(f.app, ']');
	assert_string_equal(f.app->p.round, "v10.0");
	assert_string_equal(f.app->works[0], "llama2_70b_lora");
	assert_int_equal(ui_state_work_digit(f.app, 0), 2);
	assert_int_equal(ui_state_work_digit(f.app, 1), 3);
	key(f.app, '3');
	assert_string_equal(f.app->p.workload, f.app->works[1]);
	key(f.app, '2');
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	key(f.app, '1');
	assert_string_equal(f.app->p.workload, "llama2_70b_lora");
	assert_non_null(strstr(f.app->msg.text, "v10.0 has no BERT"));
	key(f.app, '9');
	assert_non_null(strstr(f.app->msg.text, "no workload 9"));
	close_app(&f);
}

/* x steps only through rules that pick other references: with two candidates median and
 * fastest pick the same row (x alternates slowest, median and says median = fastest), with
 * three all differ, with one x changes nothing and says why. */
static void rule_key_skips_equal_rules(void **state)
{
	for (int ncand = 1; ncand <= 3; ncand++) {
		struct fx f = { 0 };
		struct gs_err err = { 0 };
		enum ref_rule seen[8];

		(void)state;
		add(&f, HEADER);
		for (int c = 0; c < ncand; c++) {
			char sys[16];
			snprintf(sys, sizeof sys, "two_%d", c);
			row(&f, "v4.1", "S", sys, "NVIDIA H100-SXM5-80GB", 2, "bert", 100.0 - c * 5);
		}
		row(&f, "v4.1", "S", "eight", "NVIDIA H100-SXM5-80GB", 8, "bert", 22.0);
		row(&f, "v4.1", "S", "sixteen", "NVIDIA H100-SXM5-80GB", 16, "bert", 12.0);
		open_app(&f, "v4.1");
		f.app->p.mode = REF_PAPER;
		assert_int_equal(ui_state_recompute(f.app, &err), 0);
		assert_int_equal(f.app->p.ref_rule, RULE_SLOWEST);
		for (int i = 0; i < 6; i++) {
			key(f.app, 'x');
			seen[i] = f.app->p.ref_rule;
		}
		switch (ncand) {
		case 1:
			for (int i = 0; i < 6; i++)
				assert_int_equal(seen[i], RULE_SLOWEST);
			assert_non_null(strstr(f.app->msg.text, "every rule picks the same"));
			break;
		case 2:
			for (int i = 0; i < 6; i++)
				assert_int_equal(seen[i], i % 2 ? RULE_SLOWEST : RULE_MEDIAN);
			key(f.app, 'x');
			assert_non_null(strstr(f.app->msg.text, "reference rule median = fastest"));
			break;
		default:
			for (int i = 0; i < 6; i++)
				assert_int_equal(seen[i], (enum ref_rule)((i + 1) % RULE_COUNT));
		}
		close_app(&f);
	}
}

/* C lists the registry's columns; an unchecked one leaves the table, except as the sort
 * column; the system column is not offered (it always shows). */
static void column_chooser(void **state)
{
	struct fx f = { 0 };
	bool on[TC_COUNT];
	int w[TC_COUNT];
	size_t s_at = 0;

	(void)state;
	small(&f);
	open_app(&f, "v4.1");
	ui_layout_compute(f.app, 60, 250);
	ui_layout_table_plan(f.app, f.app->scr.lay.table.w, on, w);
	assert_true(on[TC_S]);
	key(f.app, 'C');
	assert_int_equal(f.app->menu.ov, OV_MENU);
	assert_true(f.app->menu.cols);
	for (size_t i = 0; i < f.app->menu.nfam; i++) {
		assert_int_not_equal(f.app->menu.fam[i].count, TC_SYS);
		assert_true(f.app->menu.fam[i].on);
		if (f.app->menu.fam[i].count == TC_S)
			s_at = i;
	}
	assert_true(f.app->menu.nfam > 10);
	for (size_t i = 0; i < f.app->menu.nfam && f.app->menu.fam_cur < s_at; i++)
		key(f.app, UI_FKEY(KEY_DOWN));
	assert_int_equal(f.app->menu.fam_cur, s_at);
	key(f.app, ' ');
	key(f.app, '\r');
	assert_int_equal(f.app->menu.ov, OV_NONE);
	assert_false(f.app->scr.cols_want[TC_S]);
	ui_layout_compute(f.app, 60, 250);
	ui_layout_table_plan(f.app, f.app->scr.lay.table.w, on, w);
	assert_false(on[TC_S]);
	assert_true(on[TC_SYS] && on[TC_EP]);
	f.app->p.sort = COL_S;
	ui_layout_table_plan(f.app, f.app->scr.lay.table.w, on, w);
	assert_true(on[TC_S]);
	/* the family menu is the family menu again */
	key(f.app, 'f');
	assert_false(f.app->menu.cols);
	close_app(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(newest_round_opens),
		cmocka_unit_test(round_keys_keep_workload),
		cmocka_unit_test(no_fixed_limits),
		cmocka_unit_test(sort_both_ways_and_by_click),
		cmocka_unit_test(search_counts_and_filter),
		cmocka_unit_test(search_list_matches_scan),
		cmocka_unit_test(row_filter_matches_each_name),
		cmocka_unit_test(row_filter_keeps_selected_row),
		cmocka_unit_test(row_filter_drops_selected),
		cmocka_unit_test(jump_keys),
		cmocka_unit_test(theta_and_k_typed),
		cmocka_unit_test(zoom_cycles),
		cmocka_unit_test(zoom_keeps_top_row),
		cmocka_unit_test(names_never_shrink),
		cmocka_unit_test(digits_stable_across_rounds),
		cmocka_unit_test(rule_key_skips_equal_rules),
		cmocka_unit_test(column_chooser),
		cmocka_unit_test(middle_cut),
		cmocka_unit_test(colliding_ids_show_submitter),
		cmocka_unit_test(names_kept_per_row_set),
		cmocka_unit_test(export_leaves_no_fit),
		cmocka_unit_test(messages_expire),
		cmocka_unit_test(long_messages_wrap_whole),
		cmocka_unit_test(help_covers_marks_and_headings),
		cmocka_unit_test(prompt_parses_theta_and_k),
		cmocka_unit_test(prompt_finds_and_counts),
		cmocka_unit_test(prompt_menu_type_ahead),
		cmocka_unit_test(theta_change_recomputes),
		cmocka_unit_test(bars_draw_every_interval),
		cmocka_unit_test(detail_fills_the_range),
		cmocka_unit_test(help_names_every_plot_letter),
		cmocka_unit_test(small_screen_and_stale_messages),
		cmocka_unit_test(detail_wraps_to_the_screen),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
