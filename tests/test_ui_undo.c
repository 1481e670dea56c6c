/* test_ui_undo.c: U and the view's command line, driven by keys without a terminal: every kind
 * of view change is undone back to the view before it, level by level, the family filter and a
 * kept pin, the table's columns and the query included; moving about is not a change; the ring
 * keeps UI_UNDO_MAX levels; the command line follows the view. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui_app.h"

#define HEADER "round,submitter,system,accelerator,accelerators,benchmark,minutes\n"

static const char csv[] = HEADER
	"v4.1,Krai,ws_2xA5000,RTX A5000,2,bert,366\n"
	"v4.1,Dell,XE8640x4H100,NVIDIA H100-SXM5-80GB,4,bert,10.2\n"
	"v4.1,Lenovo,SR680a_H200,NVIDIA H200-SXM5-141GB,8,bert,5.08\n"
	"v4.1,NVIDIA,eos_64,NVIDIA H100-SXM5-80GB,64,bert,0.9\n"
	"v4.1,NVIDIA,eos_512,NVIDIA H100-SXM5-80GB,512,bert,0.2\n"
	"v4.1,NVIDIA,eos_8_lora,NVIDIA H100-SXM5-80GB,8,llama2_70b_lora,30\n"
	"v4.1,NVIDIA,eos_64_lora,NVIDIA H100-SXM5-80GB,64,llama2_70b_lora,5\n"
	"v4.0,NVIDIA,eos_8_lora,NVIDIA H100-SXM5-80GB,8,llama2_70b_lora,32\n"
	"v4.0,Dell,XE8640x4H100,NVIDIA H100-SXM5-80GB,4,bert,11\n"
	"v4.0,NVIDIA,eos_64,NVIDIA H100-SXM5-80GB,64,bert,1.0\n";

static struct dataset ds;
static struct app *app;

static int setup(void **state)
{
	struct gs_err err = { 0 };
	struct params p;
	struct ui_opts o = { 0 };

	(void)state;
	memset(&ds, 0, sizeof ds);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, sizeof csv - 1, &err), 0);
	dataset_classify(&ds);
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	o.mouse = MOUSE_OFF;
	o.y_metric = MET_EP;
	app = calloc(1, sizeof *app);
	assert_non_null(app);
	ui_state_init(app, &ds, &p, &o);
	assert_int_equal(ui_state_recompute(app, &err), 0);
	ui_layout_compute(app, 40, 120);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ui_app_free(app);
	free(app);
	dataset_free(&ds);
	return 0;
}

static void key(int k)
{
	ui_state_apply(app, ui_keys_dispatch(app, k));
	ui_layout_compute(app, 40, 120);
	ui_state_scroll(app);
}

static void keys(const char *s)
{
	for (; *s; s++)
		key((unsigned char)*s);
}

static const char *cmd(char *buf, size_t n)
{
	char *s = ui_undo_cmdline(app);

	assert_non_null(s);
	snprintf(buf, n, "%s", s);
	free(s);
	return buf;
}

static void every_change_undone_level_by_level(void **state)
{
	/* each step a different kind of change; the family menu checks its first family */
	static const char *const steps[] = { "t", "+", "m", "s", "y", "P", "v", "f \n", "[", "\t", "=0.55\n", "K5\n" };
	enum { NSTEPS = sizeof steps / sizeof steps[0] };
	char lines[NSTEPS + 1][512], now[512];

	(void)state;
	cmd(lines[0], sizeof lines[0]);
	assert_string_equal(lines[0], "gpuscale --round v4.1 -w bert");
	for (size_t i = 0; i < NSTEPS; i++) {
		keys(steps[i]);
		cmd(lines[i + 1], sizeof lines[i + 1]);
		assert_string_not_equal(lines[i + 1], lines[i]);
	}
	assert_int_equal(app->hist.nundo, NSTEPS);
	assert_non_null(strstr(lines[NSTEPS], "--round v4.0 -w llama2_70b_lora -f "));
	assert_non_null(strstr(lines[NSTEPS], "--theta 0.55 -k 5"));
	/* moving about changes no view */
	keys("jjzG");
	assert_int_equal(app->hist.nundo, NSTEPS);
	for (size_t i = NSTEPS; i-- > 0;) {
		key('U');
		assert_string_equal(cmd(now, sizeof now), lines[i]);
		assert_non_null(strstr(app->msg.text, "undone: "));
	}
	assert_string_equal(app->p.round, "v4.1");
	assert_string_equal(app->p.workload, "bert");
	assert_int_equal(app->p.filter.nfamilies, 0);
	assert_true(app->p.theta == 0.8);
	assert_int_equal(app->scr.ymet, MET_EP);
	assert_int_equal(app->a.k, 3);
	key('U');
	assert_non_null(strstr(app->msg.text, "nothing to undo"));
}

static void a_refused_value_is_no_change(void **state)
{
	(void)state;
	keys("=99\n");
	assert_int_equal(app->menu.ov, OV_PROMPT);
	assert_int_equal(app->ed.input_len, 0); /* cleared: what comes next is read alone */
	assert_non_null(strstr(app->msg.text, "'99'"));
	keys("0.7\n");
	assert_int_equal(app->menu.ov, OV_NONE);
	assert_true(app->p.theta == 0.7);
	assert_int_equal(app->hist.nundo, 1);
	keys("Kx\n");
	assert_int_equal(app->ed.input_len, 0);
	keys("4\n");
	assert_int_equal(app->p.k, 4);
	assert_int_equal(app->hist.nundo, 2);
}

static void a_kept_pin_comes_back(void **state)
{
	char now[512];

	(void)state;
	keys("G"); /* eos_512 */
	key('r');
	assert_int_equal(app->p.mode, REF_PINNED);
	cmd(now, sizeof now);
	assert_non_null(strstr(now, "-r NVIDIA/eos_512"));
	key('\t'); /* llama2 has no eos_512: the paper rule there, the pin kept */
	assert_int_equal(app->p.mode, REF_PAPER);
	assert_non_null(app->pin_keep);
	assert_non_null(strstr(cmd(now, sizeof now), "-w llama2_70b_lora -m paper"));
	key('U');
	assert_string_equal(app->p.workload, "bert");
	assert_int_equal(app->p.mode, REF_PINNED);
	assert_string_equal(cmd(now, sizeof now), "gpuscale --round v4.1 -w bert -r NVIDIA/eos_512");
	key('U');
	assert_int_equal(app->p.mode, REF_FAMILY);
}

static void the_ring_keeps_its_levels(void **state)
{
	(void)state;
	for (int i = 0; i < UI_UNDO_MAX + 10; i++)
		key('s');
	assert_int_equal(app->hist.nundo, UI_UNDO_MAX);
	for (int i = 0; i < UI_UNDO_MAX; i++)
		key('U');
	assert_null(strstr(app->msg.text, "nothing to undo"));
	key('U');
	assert_non_null(strstr(app->msg.text, "nothing to undo"));
}

static void the_overlay_wraps_a_long_line(void **state)
{
	size_t n, lines = 0;
	char *text;

	(void)state;
	keys("t+msyxv");
	key(':');
	ui_layout_compute(app, 24, 60);
	assert_int_equal(app->menu.ov, OV_CMDLINE);
	text = ui_undo_cmdline_text(app, &n);
	assert_non_null(text);
	assert_true(n >= 4);
	assert_memory_equal(text, "gpuscale --round v4.1", 21);
	assert_memory_equal(strchr(text, '\n') - 2, " \\", 2);
	for (char *l = text; l; lines++) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len > 60 - 6)
			fail_msg("'%.*s' is wider than the overlay", (int)len, l);
		l = nl ? nl + 1 : NULL;
	}
	assert_int_equal(lines, n);
	free(text);
	key(27);
	assert_int_equal(app->menu.ov, OV_NONE);
}

/* C's column choice and Q's query are part of the view: : says them, U undoes them. */
static void columns_and_query_are_the_view(void **state)
{
	char before[512], cols[512], query[512], now[512];

	(void)state;
	cmd(before, sizeof before);
	/* C: the first column off (the rank), applied */
	keys("C \n");
	assert_false(app->scr.cols_want[TC_RANK]);
	cmd(cols, sizeof cols);
	assert_non_null(strstr(cols, " --columns "));
	assert_null(strstr(cols, "--columns rank"));
	assert_int_equal(app->hist.nundo, 1);
	/* Q: a query */
	keys("Qdeadline 12 minimize cost\n");
	assert_non_null(ui_plan_query(app));
	cmd(query, sizeof query);
	assert_string_equal(query + strlen(cols), " --deadline 12 --minimize cost");
	assert_int_equal(app->hist.nundo, 2);
	/* the overlay says the line prints the query's answer, every line within the box */
	ui_layout_compute(app, 24, 60);
	size_t n;
	char *text = ui_undo_cmdline_text(app, &n);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n\nit prints the query's answer (--print query);"));
	for (char *l = text; l;) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len > 60 - 8)
			fail_msg("'%.*s' is wider than the overlay", (int)len, l);
		l = nl ? nl + 1 : NULL;
	}
	free(text);
	key('U');
	assert_non_null(strstr(app->msg.text, "undone: query"));
	assert_null(ui_plan_query(app));
	assert_string_equal(cmd(now, sizeof now), cols);
	key('U');
	assert_non_null(strstr(app->msg.text, "undone: columns"));
	assert_true(app->scr.cols_want[TC_RANK]);
	assert_string_equal(cmd(now, sizeof now), before);
}

/* However many files, the line is whole: a cut one would run another view. */
static void a_long_line_is_never_cut(void **state)
{
	static char names[40][210];
	char *files[40], *line;

	(void)state;
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof names[i], "%0200d.csv", i);
		files[i] = names[i];
	}
	app->hist.files = files;
	app->hist.nfiles = 40;
	line = ui_undo_cmdline(app);
	assert_non_null(line);
	assert_true(strlen(line) > 40 * 204);
	assert_string_equal(line + strlen(line) - 8, "0039.csv");
	free(line);
	app->hist.files = NULL;
	app->hist.nfiles = 0;
}

/* 4,000 files: every one in the overlay's text, its lines within the overlay, and G scrolls to
 * the last of them. */
static void four_thousand_files_in_the_overlay(void **state)
{
	enum { NF = 4000 };
	static char names[NF][48];
	static char *files[NF];
	size_t n, lines = 0;
	char *text;

	(void)state;
	for (int i = 0; i < NF; i++) {
		snprintf(names[i], sizeof names[i], "runs/it's %04d.csv", i);
		files[i] = names[i];
	}
	app->hist.files = files;
	app->hist.nfiles = NF;
	key(':');
	text = ui_undo_cmdline_text(app, &n);
	assert_non_null(text);
	assert_true(n > NF / 8);
	assert_non_null(strstr(text, "'runs/it'\\''s 0000.csv'"));
	assert_non_null(strstr(text, "'runs/it'\\''s 3999.csv'\n"));
	for (char *l = text; l; lines++) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len > 120 - 8)
			fail_msg("'%.*s' is wider than the overlay", (int)len, l);
		l = nl ? nl + 1 : NULL;
	}
	assert_int_equal(lines, n);
	free(text);
	/* G: the last line shows at the bottom of the box (40 rows: 33 lines) */
	key('G');
	assert_int_equal(app->menu.ov_scroll, (int)n - 33);
	key(27);
	app->hist.files = NULL;
	app->hist.nfiles = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_change_undone_level_by_level, setup, teardown),
		cmocka_unit_test_setup_teardown(a_refused_value_is_no_change, setup, teardown),
		cmocka_unit_test_setup_teardown(a_kept_pin_comes_back, setup, teardown),
		cmocka_unit_test_setup_teardown(the_ring_keeps_its_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(the_overlay_wraps_a_long_line, setup, teardown),
		cmocka_unit_test_setup_teardown(columns_and_query_are_the_view, setup, teardown),
		cmocka_unit_test_setup_teardown(a_long_line_is_never_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(four_thousand_files_in_the_overlay, setup, teardown),
	};
	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
