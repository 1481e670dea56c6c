/* test_rcp.c: the RCP table: parsing (columns in any order, bad fields refused with their line)
 * and the mean at a batch size (listed, interpolated, outside the range, Stable Diffusion's steps). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rcp.h"

static const char table[] =
	"ruleset,benchmark,bs,samples_mean,unit,runs,dropped\n"
	"5.0.0,llama2_70b_lora,8,3178.6666666666665,samples,20,2\n"
	"5.0.0,llama2_70b_lora,32,6037.333333333333,samples,20,2\n"
	"5.0.0,llama2_70b_lora,128,11264,samples,20,2\n"
	"3.1.0,stable_diffusion,512,5000,steps,14,2\n";

static void at_sizes(void **state)
{
	struct rcp_table t;
	struct gs_err err;
	const char *unit;
	(void)state;

	assert_int_equal(rcp_parse(table, sizeof table - 1, "rcp.csv", &t, &err), 0);
	assert_int_equal(t.n, 4);
	assert_true(rcp_at(&t, "5.0.0", "llama2_70b_lora", 8, &unit) == 3178.6666666666665);
	assert_string_equal(unit, "samples");
	/* GBS 64: a third of the way from 32 to 128, as the RCP checker interpolates */
	assert_true(rcp_at(&t, "5.0.0", "llama2_70b_lora", 64, &unit) ==
		    6037.333333333333 + (11264 - 6037.333333333333) * (64 - 32) / (128 - 32));
	assert_true(isnan(rcp_at(&t, "5.0.0", "llama2_70b_lora", 4, &unit)));
	assert_string_equal(unit, "");
	assert_true(isnan(rcp_at(&t, "5.0.0", "llama2_70b_lora", 256, &unit)));
	assert_true(isnan(rcp_at(&t, "5.1.0", "llama2_70b_lora", 8, &unit)));
	assert_true(rcp_at(&t, "3.1.0", "stable_diffusion", 512, &unit) == 5000);
	assert_string_equal(unit, "steps");
	rcp_free(&t);
}

static void parse_errors(void **state)
{
	static const char reordered[] = "unit,bs,benchmark,samples_mean,ruleset\nepochs,256,resnet,34.5,4.0.0\n";
	static const char bad[] = "ruleset,benchmark,bs,samples_mean,unit\n4.0.0,resnet,x,34,epochs\n";
	static const char missing[] = "ruleset,benchmark,bs,unit\n4.0.0,resnet,256,epochs\n";
	struct rcp_table t;
	struct gs_err err;
	const char *unit;
	(void)state;

	assert_int_equal(rcp_parse(reordered, sizeof reordered - 1, "r.csv", &t, &err), 0);
	assert_true(rcp_at(&t, "4.0.0", "resnet", 256, &unit) == 34.5);
	rcp_free(&t);
	assert_int_equal(rcp_parse(bad, sizeof bad - 1, "b.csv", &t, &err), -1);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.msg, "bs"));
	assert_int_equal(t.n, 0);
	assert_int_equal(rcp_parse(missing, sizeof missing - 1, "m.csv", &t, &err), -1);
	assert_non_null(strstr(err.msg, "samples_mean"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(at_sizes),
		cmocka_unit_test(parse_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
