/* test_ui_trend.c: the break-even trend overlay (W) without a terminal: every round reachable,
 * the current one starred and named when off screen, the rounds and families that do not fit
 * counted on each side, the cursor's cell always among those shown. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h> /* the function keys' codes only */

#include "ui_app.h"

#define NROUNDS 200
#define NFAMS 40

static struct dataset ds;
static struct app *app;
static char lines[UI_MAX_DETAIL][UI_LINE];
static int hl_line, hl_col, hl_w;
static int rows = 24, cols = 80;

/* NROUNDS rounds r000..r199 of one workload; in each, NFAMS families f00..f39 at N 1, 2, 4. */
static char *make_csv(size_t *len)
{
	size_t cap = (size_t)NROUNDS * NFAMS * 3 * 64 + 128, at = 0;
	char *b = malloc(cap);

	assert_non_null(b);
	at += (size_t)snprintf(b, cap, "round,submitter,system,accelerator,accelerators,benchmark,minutes\n");
	for (int r = 0; r < NROUNDS; r++)
		for (int f = 0; f < NFAMS; f++)
			for (int n = 1; n <= 4; n *= 2)
				at += (size_t)snprintf(b + at, cap - at, "r%03d,S,s%d_%d,GPU%02d,%d,w,%.3f\n", r, f, n, f, n,
						       100.0 / n * (1 + 0.05 * n) + r % 5);
	*len = at;
	return b;
}

static int setup(void **state)
{
	struct gs_err err = { 0 };
	struct params p;
	struct ui_opts o = { 0 };
	size_t len;
	char *csv = make_csv(&len);

	(void)state;
	rows = 24, cols = 80;
	memset(&ds, 0, sizeof ds);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, len, &err), 0);
	free(csv);
	dataset_classify(&ds);
	params_init(&p);
	p.round = "r150";
	p.workload = "w";
	o.mouse = MOUSE_OFF;
	o.y_metric = MET_EP;
	app = calloc(1, sizeof *app);
	assert_non_null(app);
	ui_state_init(app, &ds, &p, &o);
	assert_int_equal(ui_state_recompute(app, &err), 0);
	ui_layout_compute(app, rows, cols);
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
	ui_layout_compute(app, rows, cols);
}

static size_t draw(void)
{
	size_t n = ui_plan_trend_lines(app, lines, UI_MAX_DETAIL, &hl_line, &hl_col, &hl_w);

	/* the overlay box holds rows - 7 lines of cols - 6 columns: every line fits, none scrolls */
	assert_true(n <= (size_t)rows - 7);
	for (size_t i = 0; i < n; i++)
		if (strlen(lines[i]) > (size_t)cols - 6)
			fail_msg("line %zu is %zu wide: '%s'", i, strlen(lines[i]), lines[i]);
	assert_true(hl_line > 0 && (size_t)hl_line < n);
	return n;
}

/* The line holding text, or -1. */
static long find(size_t n, const char *text)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i], text))
			return (long)i;
	return -1;
}

static void every_round_is_reached(void **state)
{
	size_t n;

	(void)state;
	key('W');
	assert_int_equal(app->menu.ov, OV_TREND);
	n = draw();
	/* it opens on the current round, starred, in the middle of the span */
	assert_true(find(n, "r150*") == 0);
	assert_true(strncmp(lines[0] + hl_col, "r150*", 5) == 0);
	assert_true(find(n, "family <") == 0);
	assert_true(lines[0][strlen(lines[0]) - 1] == '>');
	assert_true(find(n, "rounds ") == (long)n - 1);
	assert_non_null(strstr(lines[n - 1], " of 200, "));
	assert_null(strstr(lines[n - 1], "current")); /* it shows */
	/* the last round: Right one at a time, then End */
	for (int i = 0; i < 49; i++)
		key(UI_FKEY(KEY_RIGHT));
	n = draw();
	assert_true(strncmp(lines[0] + hl_col, "r199", 4) == 0);
	assert_non_null(strstr(lines[n - 1], "of 200, "));
	assert_null(strstr(lines[n - 1], "more >"));
	assert_non_null(strstr(lines[n - 1], "; current r150* <"));
	key(UI_FKEY(KEY_HOME));
	n = draw();
	assert_true(strncmp(lines[0] + hl_col, "r000", 4) == 0);
	assert_true(strncmp(lines[n - 1], "rounds 1-", 9) == 0);
	assert_non_null(strstr(lines[n - 1], "; current r150* >"));
	/* a page: the rounds a screen shows, less the one kept */
	char *shown = strstr(lines[n - 1], "-") + 1;
	int per = atoi(shown);
	key(UI_FKEY(KEY_NPAGE));
	draw();
	char want[16];
	snprintf(want, sizeof want, "r%03d", per - 1);
	assert_true(strncmp(lines[0] + hl_col, want, 4) == 0);
	key(UI_FKEY(KEY_END));
	draw();
	assert_true(strncmp(lines[0] + hl_col, "r199", 4) == 0);
	/* the smallest screen: the current round's place goes on a line of its own */
	rows = 16, cols = 60;
	key(UI_FKEY(KEY_HOME));
	for (int i = 0; i < 60; i++)
		key('l');
	n = draw();
	assert_string_equal(lines[n - 1], "current r150* >");
	assert_true(strncmp(lines[n - 2], "rounds ", 7) == 0);
	assert_non_null(strstr(lines[n - 2], "more <, "));
}

static void families_scroll_with_signs(void **state)
{
	size_t n;

	(void)state;
	key('W');
	n = draw();
	/* the selected row's family first (GPU00 ... all at E' below 1): no sign above */
	assert_int_equal(find(n, "more families above"), -1);
	long below = find(n, "more families below");
	assert_true(below > 0);
	/* heading, 14 families, the sign below, the rounds: 17 lines; 26 below */
	assert_string_equal(lines[below], "v 26 more families below");
	for (int i = 0; i < 20; i++)
		key('j');
	n = draw();
	assert_int_equal(find(n, "family"), 0);
	assert_string_equal(lines[1], "^ 8 more families above");
	assert_true(strncmp(lines[hl_line], "GPU20", 5) == 0);
	assert_string_equal(lines[find(n, "below")], "v 19 more families below");
	for (int i = 0; i < 30; i++)
		key('j');
	n = draw();
	assert_true(strncmp(lines[hl_line], "GPU39", 5) == 0);
	assert_int_equal(find(n, "below"), -1);
	assert_string_equal(lines[1], "^ 26 more families above");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_round_is_reached, setup, teardown),
		cmocka_unit_test_setup_teardown(families_scroll_with_signs, setup, teardown),
	};
	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
