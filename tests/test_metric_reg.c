/* test_metric_reg.c: the metric and column registry: every row is complete (names, heading,
 * help, a getter), every name finds its own row, the table and plot lists point into it, and
 * the getters give a hand-computed row's values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "dataset.h"
#include "metric_reg.h"
#include "table.h"

static void near(double a, double b)
{
	assert_true(fabs(a - b) <= 1e-12 * fmax(1.0, fabs(b)));
}
#define NEAR(a, b) near((a), (b))

static bool filled(const char *s)
{
	return s && *s;
}

static void every_row_is_complete(void **state)
{
	(void)state;
	for (int c = 0; c < COL_COUNT; c++) {
		const struct col_def *d = &col_reg[c];
		assert_int_equal(d->sort, c); /* the index is the id */
		assert_true(filled(d->names[0]));
		assert_true(filled(d->sym) && filled(d->head) && filled(d->long_name) && filled(d->help));
		/* a number or a text to sort on, never neither */
		assert_true(d->value || d->text);
		if (d->fmt == CF_TEXT)
			assert_non_null(d->text);
		if (d->fmt == CF_COUNT || d->fmt == CF_FIXED2 || d->fmt == CF_SIG3)
			assert_non_null(d->value);
		assert_true(reg_col((enum col)c) == d);
	}
	assert_true(reg_col(COL_COUNT) == &col_reg[COL_EP]);
	for (int t = 0; t < TC_COUNT; t++) {
		const struct col_def *d = table_cols[t];
		assert_non_null(d);
		assert_true(d->w > 0 && d->prio > 0);
		assert_true(filled(d->head) && filled(d->help));
		assert_true(d->sort == -1 || d->sort < COL_COUNT);
		for (int u = 0; u < t; u++)
			assert_true(table_cols[u] != d); /* a column shows once */
	}
	for (int m = 0; m < MET_COUNT; m++) {
		const struct col_def *d = metric_cols[m];
		assert_non_null(d);
		assert_non_null(d->value); /* a plot needs a number */
		assert_true(d->fmt != CF_TEXT);
		assert_string_equal(metric_name((enum metric)m), d->sym);
		assert_true(reg_metric((enum metric)m) == d);
	}
}

/* Each name finds its own row, whatever its case; no name is taken twice. */
static void names_find_their_row(void **state)
{
	char up[32];

	(void)state;
	for (int c = 0; c < COL_COUNT; c++)
		for (int j = 0; j < COL_NAMES && col_reg[c].names[j]; j++) {
			const char *n = col_reg[c].names[j];
			size_t k;
			assert_int_equal(reg_col_parse(n), c);
			for (k = 0; n[k] && k + 1 < sizeof up; k++)
				up[k] = (char)(n[k] >= 'a' && n[k] <= 'z' ? n[k] - 32 : n[k]);
			up[k] = '\0';
			assert_int_equal(reg_col_parse(up), c);
		}
	for (int m = 0; m < MET_COUNT; m++)
		for (int j = 0; j < COL_NAMES && metric_cols[m]->names[j]; j++)
			assert_int_equal(reg_metric_parse(metric_cols[m]->names[j]), m);
	assert_int_equal(reg_col_parse("nonesuch"), -1);
	assert_int_equal(reg_col_parse(""), -1);
	assert_int_equal(reg_metric_parse("n"), -1); /* a column, not a plot metric */
	assert_int_equal(reg_metric_parse("system"), -1);
}

static void metric_list_joins_first_names(void **state)
{
	char buf[256], tiny[4];
	size_t at = 0;
	char want[256];

	(void)state;
	for (int m = 0; m < MET_COUNT; m++)
		at += (size_t)snprintf(want + at, sizeof want - at, "%s%s", m ? "|" : "", metric_cols[m]->names[0]);
	assert_string_equal(reg_metric_list("|", false, buf, sizeof buf), want);
	assert_int_equal(strncmp(want, "ep|s|t", 6), 0);
	assert_int_equal(strncmp(reg_metric_list(", ", true, buf, sizeof buf), "E', S, T, A, E", 14), 0);
	/* cut, never overrun */
	reg_metric_list("|", false, tiny, sizeof tiny);
	assert_true(strlen(tiny) < sizeof tiny);
}

/* A row of 30 minutes on 8 accelerators against a reference of 120 minutes on 2. */
static struct arow fixture(void)
{
	struct arow r;

	memset(&r, 0, sizeof r);
	r.T = 30;
	r.N = 8;
	r.S = 120.0 / 30;
	r.Ep = r.S / (8.0 / 2);
	r.A = 8 * 30 / 60.0;
	r.kwh = 12.5;
	r.cost_lo = 10;
	r.cost_hi = 20;
	r.t_lo = 28;
	r.t_hi = 33;
	return r;
}

/* fixture()'s intervals: T's and S's, none of E' and A */
static const struct aci fixture_ci = { .t_lo = 29, .t_hi = 31, .s_lo = 3.8, .s_hi = 4.2,
				       .ep_lo = NAN, .ep_hi = NAN, .a_lo = NAN, .a_hi = NAN,
				       .runs = 5 };

static void getters_give_the_row(void **state)
{
	struct arow r = fixture();
	double lo, hi;

	(void)state;
	NEAR(arow_metric(&r, MET_T), 30);
	NEAR(arow_metric(&r, MET_S), 4);
	NEAR(arow_metric(&r, MET_E), 0.5);
	NEAR(arow_metric(&r, MET_EP), 1);
	NEAR(arow_metric(&r, MET_A), 4);
	NEAR(arow_metric(&r, MET_KWH), 12.5);
	NEAR(arow_metric(&r, MET_COST), 15);
	assert_true(isnan(arow_metric(&r, MET_COUNT)));
	NEAR(col_reg[COL_SPREAD].value(&r), 5.0 / 30);
	NEAR(col_reg[COL_N].value(&r), 8);
	/* E = S / N: its interval is S's over N */
	col_reg[COL_E].interval(&fixture_ci, &r, &lo, &hi);
	NEAR(lo, 3.8 / 8);
	NEAR(hi, 4.2 / 8);
	col_reg[COL_T].interval(&fixture_ci, &r, &lo, &hi);
	NEAR(lo, 29);
	NEAR(hi, 31);
	/* a metric that is a function of T gives the row's own value from its T */
	for (int m = 0; m < MET_COUNT; m++)
		if (metric_cols[m]->from_t)
			NEAR(metric_cols[m]->from_t(r.T, r.N, 120, 2), arow_metric(&r, (enum metric)m));
}

/* Trainings per hour: X = 60 / T, its interval T's turned round, its law's curve 60 / T. */
static void trainings_per_hour_is_60_over_t(void **state)
{
	struct arow r = fixture();
	double lo, hi;
	int m = reg_metric_parse("X/h");

	(void)state;
	assert_int_equal(m, MET_XH);
	assert_int_equal(reg_col_parse("xh"), COL_XH);
	assert_int_equal(reg_col_parse("trainings-per-hour"), COL_XH);
	NEAR(arow_metric(&r, MET_XH), 60.0 / 30);
	NEAR(col_reg[COL_XH].value(&r), 2);
	assert_true(col_reg[COL_XH].desc); /* more trainings an hour is better */
	col_reg[COL_XH].interval(&fixture_ci, &r, &lo, &hi);
	NEAR(lo, 60.0 / 31);
	NEAR(hi, 60.0 / 29);
	NEAR(col_reg[COL_XH].from_t(12, 64, 120, 2), 5);
	assert_string_equal(metric_name(MET_XH), "X/h");
	r.T = 45;
	NEAR(arow_metric(&r, MET_XH), 60.0 / 45);
	/* a column of the table, right after A */
	assert_true(table_cols[TC_XH] == &col_reg[COL_XH]);
	assert_true(table_cols[TC_XH - 1] == &col_reg[COL_A]);
}

/* The sort order follows the registry's getter and the text getter for names. */
static void text_getters_read_the_row(void **state)
{
	struct row d;

	(void)state;
	memset(&d, 0, sizeof d);
	d.system = "sys";
	d.submitter = "sub";
	d.family = "fam";
	d.round = "v4.1";
	d.division = NULL;
	assert_string_equal(col_reg[COL_SYSTEM].text(&d), "sys");
	assert_string_equal(col_reg[COL_SUBMITTER].text(&d), "sub");
	assert_string_equal(col_reg[COL_FAMILY].text(&d), "fam");
	assert_string_equal(col_reg[COL_ROUND].text(&d), "v4.1");
	assert_string_equal(col_reg[COL_DIV].text(&d), ""); /* absent: empty, never NULL */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_is_complete),
		cmocka_unit_test(names_find_their_row),
		cmocka_unit_test(metric_list_joins_first_names),
		cmocka_unit_test(getters_give_the_row),
		cmocka_unit_test(text_getters_read_the_row),
		cmocka_unit_test(trainings_per_hour_is_60_over_t),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
