/* test_ui_plan.c: the explorer's query prompt: the words it takes (long, short, with '=' and
 * '--'), the objective, and each refusal with its reason; the prompt's query is --print query's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ui_app.h"

static void parse_ok(const char *text, struct query *q)
{
	char why[200] = "";

	if (ui_plan_query_parse(text, q, why, sizeof why) < 0)
		fail_msg("'%s': %s", text, why);
}

static void words(void **state)
{
	struct query q;

	(void)state;
	parse_ok("deadline 30 max-cost 500 minimize cost", &q);
	assert_true(q.deadline == 30 && q.max_cost == 500);
	assert_true(isnan(q.max_acc_hours) && isnan(q.max_kwh));
	assert_int_equal(q.minimize, QO_COST);
	parse_ok("--deadline=12.5 --max-acc-hours 4 --max-kwh=80 --minimize kwh", &q);
	assert_true(q.deadline == 12.5 && q.max_acc_hours == 4 && q.max_kwh == 80);
	assert_int_equal(q.minimize, QO_KWH);
	parse_ok("t<=30, a 2, KWH 9, min minutes", &q);
	assert_true(q.deadline == 30 && q.max_acc_hours == 2 && q.max_kwh == 9);
	assert_int_equal(q.minimize, QO_MINUTES);
	/* a unit after a value: min is the deadline's unit unless an objective follows it */
	parse_ok("t 10 min", &q);
	assert_true(q.deadline == 10 && isnan(q.max_cost));
	assert_int_equal(q.minimize, QO_ACC_HOURS);
	parse_ok("deadline 10 minutes max-cost 5 USD kwh 9 kwh", &q);
	assert_true(q.deadline == 10 && q.max_cost == 5 && q.max_kwh == 9);
	parse_ok("t 10 min cost", &q);
	assert_true(q.deadline == 10 && isnan(q.max_cost));
	assert_int_equal(q.minimize, QO_COST);
	parse_ok("t 10 min cost 500", &q);
	assert_true(q.deadline == 10 && q.max_cost == 500);
	assert_int_equal(q.minimize, QO_ACC_HOURS);
	parse_ok("a 3 h min kwh", &q);
	assert_true(q.max_acc_hours == 3);
	assert_int_equal(q.minimize, QO_KWH);
	/* nothing: no constraint, the default objective */
	parse_ok("", &q);
	assert_false(query_constrained(&q));
	assert_int_equal(q.minimize, QO_ACC_HOURS);
}

static void refusals(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "speed 3", "query: 'speed' is not deadline, max-cost, max-acc-hours, max-kwh or minimize" },
		{ "deadline", "query: deadline needs a value" },
		{ "deadline -4", "query: deadline '-4' is not a positive number" },
		{ "max-cost 5usd", "query: max-cost '5usd' is not a positive number" },
		{ "minimize speed", "query: minimize 'speed' is not acc-hours, cost, kwh or minutes" },
		{ "deadline 1 deadline 2", "query: deadline given twice: it takes one value" },
		{ "deadline 1 t 2", "query: deadline given twice (deadline and t are one word): it takes one value" },
		{ "min cost a 2 minimize kwh", "query: minimize given twice (min and minimize are one word): it takes one value" },
		{ "t 10 min min", "query: min needs a value" },
		{ "cost 5 usd usd", "query: 'usd' is not deadline, max-cost, max-acc-hours, max-kwh or minimize" },
	};
	struct query q;
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		assert_int_equal(ui_plan_query_parse(bad[i].text, &q, why, sizeof why), -1);
		assert_string_equal(why, bad[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
